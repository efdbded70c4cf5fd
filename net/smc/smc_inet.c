// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * IPPROTO_SMC: socket(AF_INET[6], SOCK_STREAM, IPPROTO_SMC) gives an SMC
 * socket with inet addressing.  It is an AF_SMC socket in every respect
 * but its family: the same proto_ops (family PF_INET[6]), the same clcsock
 * handling and the same sock_diag lists.  inet_create()/inet6_create()
 * allocate and set up the inet part, then call our proto->init.
 *
 * Consistency with the rest of the kernel, where upstream had trouble:
 *  - lockdep: inet_create() gives the sock the AF_INET[6] lock class that
 *    all TCP sockets share, and the SMC sock lock is held around clcsock
 *    (TCP) operations.  Our socks get classes of their own, so lockdep
 *    neither reports SMC-over-TCP nesting as recursion nor merges SMC
 *    lock chains with those of real TCP sockets.
 *  - LSM: an accepted socket is allocated fresh, not cloned.  It is set
 *    up like a TCP child (security_sk_clone() from the listener, then
 *    security_sock_graft()), so its sock and inode carry the listener's
 *    label and the same family and protocol (AF_INET[6], IPPROTO_SMC)
 *    the LSM saw at socket(2); an AF_SMC sock never takes part.
 */

#define pr_fmt(fmt) "smc: " fmt

#include <linux/init.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/printk.h>
#include <linux/security.h>
#include <net/inet_common.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/protocol.h>
#include <net/sock.h>

#include "smc.h"

/* inet6_create() finds the ipv6_pinfo by proto->ipv6_pinfo_offset */
struct smc6_sock {
	struct smc_sock		smc;
	struct ipv6_pinfo	inet6;
};

static struct lock_class_key smc_inet_slock_key;
static struct lock_class_key smc_inet_sk_key;
static struct lock_class_key smc_inet6_slock_key;
static struct lock_class_key smc_inet6_sk_key;

static bool smc_inet6_registered;

/* a fresh sock, no lock held: give it the SMC lock classes */
static void smc_inet_set_lock_class(struct sock *sk)
{
	if (sk->sk_family == PF_INET6)
		sock_lock_init_class_and_name(sk, "slock-AF_INET6-SMC",
					      &smc_inet6_slock_key,
					      "sk_lock-AF_INET6-SMC",
					      &smc_inet6_sk_key);
	else
		sock_lock_init_class_and_name(sk, "slock-AF_INET-SMC",
					      &smc_inet_slock_key,
					      "sk_lock-AF_INET-SMC",
					      &smc_inet_sk_key);
}

/* proto->init, from inet_create()/inet6_create() after the inet setup */
static int smc_inet_init_sock(struct sock *sk)
{
	int rc;

	smc_inet_set_lock_class(sk);
	smc_sock_setup(sk);
	/* only user sockets hold a netns reference (sk_alloc(..., kern)) */
	rc = smc_sock_add_clcsock(sk, sk->sk_family, !sk->sk_net_refcnt);
	if (rc)
		sk->sk_state = SMC_CLOSED;
	return rc;
}

/*
 * proto->destroy: only sk_common_release() calls it, when inet_create()
 * fails after ->init (e.g. a cgroup BPF program refused the socket).
 * Our sockets are closed by smc_sock_release() instead.
 */
static void smc_inet_destroy_sock(struct sock *sk)
{
	smc_sock_drop_clcsock(smc_sk(sk));
	/* inet_sock_destruct() frees only closed stream socks */
	sk->sk_state = SMC_CLOSED;
}

static struct proto smc_inet_prot = {
	.name		= "INET_SMC",
	.owner		= THIS_MODULE,
	.init		= smc_inet_init_sock,
	.destroy	= smc_inet_destroy_sock,
	.obj_size	= sizeof(struct smc_sock),
};

static struct proto smc_inet6_prot = {
	.name		= "INET6_SMC",
	.owner		= THIS_MODULE,
	.init		= smc_inet_init_sock,
	.destroy	= smc_inet_destroy_sock,
	.obj_size	= sizeof(struct smc6_sock),
	.ipv6_pinfo_offset = offsetof(struct smc6_sock, inet6),
};

static void smc_inet_sock_destruct(struct sock *sk)
{
	smc_sock_destruct_check(sk);
	inet_sock_destruct(sk);
}

#if IS_ENABLED(CONFIG_IPV6)
static void smc_inet6_sock_destruct(struct sock *sk)
{
	smc_sock_destruct_check(sk);
	inet6_sock_destruct(sk);
}
#endif

/*
 * The inet defaults inet_create()/inet6_create() set.  The SMC sock does
 * not send IP packets itself (IP-level options go to the clcsock), but
 * inet helpers, BPF and LSMs may read these fields of any inet sock.
 */
static void smc_inet_init_fields(struct net *net, struct sock *sk)
{
	struct inet_sock *inet = inet_sk(sk);

	inet->pmtudisc = READ_ONCE(net->ipv4.sysctl_ip_no_pmtu_disc) ?
			 IP_PMTUDISC_DONT : IP_PMTUDISC_WANT;
	inet->uc_ttl = -1;
	inet_set_bit(MC_LOOP, sk);
	inet->mc_ttl = 1;
	inet_set_bit(MC_ALL, sk);
	sk->sk_destruct = smc_inet_sock_destruct;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == PF_INET6) {
		struct ipv6_pinfo *np = &container_of(smc_sk(sk),
						      struct smc6_sock,
						      smc)->inet6;

		inet->pinet6 = np;
		np->hop_limit = -1;
		np->mcast_hops = IPV6_DEFAULT_MCASTHOPS;
		inet6_set_bit(MC6_LOOP, sk);
		inet6_set_bit(MC6_ALL, sk);
		np->pmtudisc = IPV6_PMTUDISC_WANT;
		sk->sk_destruct = smc_inet6_sock_destruct;
	}
#endif
}

/**
 * smc_inet_sock_alloc() - allocate the SMC sock of an accepted socket
 * @net: network namespace of the listener
 * @sock: the new socket, or NULL for a child grafted at accept()
 * @family: PF_INET or PF_INET6
 * @kern: non-zero for a kernel socket, which does not pin @net
 *
 * Sets the sock up as inet_create() would, without a clcsock: accept
 * attaches the TCP child.  smc_inet_accept() completes the LSM part.
 *
 * Context: process context, may sleep.
 * Return: the sock in state INIT without clcsock, or NULL.
 */
struct sock *smc_inet_sock_alloc(struct net *net, struct socket *sock,
				 int family, int kern)
{
	bool v6 = IS_ENABLED(CONFIG_IPV6) && family == PF_INET6;
	struct sock *sk;

	sk = sk_alloc(net, v6 ? PF_INET6 : PF_INET, GFP_KERNEL,
		      v6 ? &smc_inet6_prot : &smc_inet_prot, kern);
	if (!sk)
		return NULL;

	sock_init_data(sock, sk);
	sk->sk_protocol = IPPROTO_SMC;
	smc_inet_init_fields(net, sk);
	smc_inet_set_lock_class(sk);
	smc_sock_setup(sk);
	return sk;
}

/* accept() as on AF_SMC; the child is labelled as a TCP child would be */
static int smc_inet_accept(struct socket *sock, struct socket *newsock,
			   struct proto_accept_arg *arg)
{
	int rc;

	rc = smc_accept(sock, newsock, arg);
	if (rc)
		return rc;
	/* newsock is not installed yet: no LSM check saw the child before */
	security_sk_clone(sock->sk, newsock->sk);
	security_sock_graft(newsock->sk, newsock);
	return 0;
}

/*
 * The proto_ops of AF_SMC sockets with an inet family.  Every operation
 * is the AF_SMC one, reached through smc_sock_ops so that both stay the
 * same; accept also labels the child (smc_inet_accept()).
 */
static int smc_inet_bind(struct socket *sock, struct sockaddr *addr, int len)
{
	return smc_sock_ops.bind(sock, addr, len);
}

static int smc_inet_connect(struct socket *sock, struct sockaddr *addr,
			    int alen, int flags)
{
	return smc_sock_ops.connect(sock, addr, alen, flags);
}

static int smc_inet_getname(struct socket *sock, struct sockaddr *addr,
			    int peer)
{
	return smc_sock_ops.getname(sock, addr, peer);
}

static __poll_t smc_inet_poll(struct file *file, struct socket *sock,
			      poll_table *wait)
{
	return smc_sock_ops.poll(file, sock, wait);
}

static int smc_inet_ioctl(struct socket *sock, unsigned int cmd,
			  unsigned long arg)
{
	return smc_sock_ops.ioctl(sock, cmd, arg);
}

#ifdef CONFIG_COMPAT
static int smc_inet_compat_ioctl(struct socket *sock, unsigned int cmd,
				 unsigned long arg)
{
	return smc_sock_ops.compat_ioctl(sock, cmd, arg);
}
#endif

static int smc_inet_gettstamp(struct socket *sock, void __user *userstamp,
			      bool timeval, bool time32)
{
	return smc_sock_ops.gettstamp(sock, userstamp, timeval, time32);
}

static int smc_inet_listen(struct socket *sock, int backlog)
{
	return smc_sock_ops.listen(sock, backlog);
}

static int smc_inet_shutdown(struct socket *sock, int how)
{
	return smc_sock_ops.shutdown(sock, how);
}

static int smc_inet_sendmsg(struct socket *sock, struct msghdr *msg,
			    size_t len)
{
	return smc_sock_ops.sendmsg(sock, msg, len);
}

static int smc_inet_recvmsg(struct socket *sock, struct msghdr *msg,
			    size_t len, int flags)
{
	return smc_sock_ops.recvmsg(sock, msg, len, flags);
}

static ssize_t smc_inet_splice_read(struct socket *sock, loff_t *ppos,
				    struct pipe_inode_info *pipe, size_t len,
				    unsigned int flags)
{
	return smc_sock_ops.splice_read(sock, ppos, pipe, len, flags);
}

static void smc_inet_splice_eof(struct socket *sock)
{
	smc_sock_ops.splice_eof(sock);
}

#define SMC_INET_OPS(fam) {				\
	.family		= fam,				\
	.owner		= THIS_MODULE,			\
	.release	= smc_sock_release,		\
	.bind		= smc_inet_bind,		\
	.connect	= smc_inet_connect,		\
	.socketpair	= sock_no_socketpair,		\
	.accept		= smc_inet_accept,		\
	.getname	= smc_inet_getname,		\
	.poll		= smc_inet_poll,		\
	.ioctl		= smc_inet_ioctl,		\
	SMC_INET_COMPAT_IOCTL				\
	.gettstamp	= smc_inet_gettstamp,		\
	.listen		= smc_inet_listen,		\
	.shutdown	= smc_inet_shutdown,		\
	.setsockopt	= smc_setsockopt,		\
	.getsockopt	= smc_getsockopt,		\
	.sendmsg	= smc_inet_sendmsg,		\
	.recvmsg	= smc_inet_recvmsg,		\
	.mmap		= sock_no_mmap,			\
	.splice_read	= smc_inet_splice_read,		\
	.splice_eof	= smc_inet_splice_eof,		\
}

#ifdef CONFIG_COMPAT
#define SMC_INET_COMPAT_IOCTL	.compat_ioctl = smc_inet_compat_ioctl,
#else
#define SMC_INET_COMPAT_IOCTL
#endif

static const struct proto_ops smc_inet_ops = SMC_INET_OPS(PF_INET);
static const struct proto_ops smc_inet6_ops = SMC_INET_OPS(PF_INET6);

static struct inet_protosw smc_inet_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smc_inet_prot,
	.ops		= &smc_inet_ops,
};

static struct inet_protosw smc_inet6_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smc_inet6_prot,
	.ops		= &smc_inet6_ops,
};

/* the same hash functions and lists as AF_SMC: smc_diag finds them there */
static void smc_inet_setup_prot(struct proto *prot, const struct proto *smc)
{
	prot->hash = smc->hash;
	prot->unhash = smc->unhash;
	prot->h = smc->h;
}

#if IS_ENABLED(CONFIG_IPV6)
static int smc_inet6_init(void)
{
	int rc;

	/* ipv6.disable=1: no AF_INET6 sockets at all, nothing to offer */
	if (!ipv6_mod_enabled()) {
		pr_info("IPv6 is disabled, IPPROTO_SMC is offered for AF_INET only\n");
		return 0;
	}
	rc = proto_register(&smc_inet6_prot, 1);
	if (rc)
		return rc;
	rc = inet6_register_protosw(&smc_inet6_protosw);
	if (rc) {
		proto_unregister(&smc_inet6_prot);
		return rc;
	}
	smc_inet6_registered = true;
	return 0;
}

static void smc_inet6_exit(void)
{
	if (!smc_inet6_registered)
		return;
	inet6_unregister_protosw(&smc_inet6_protosw);
	proto_unregister(&smc_inet6_prot);
	smc_inet6_registered = false;
}
#else
static int smc_inet6_init(void)
{
	return 0;
}

static void smc_inet6_exit(void)
{
}
#endif

/**
 * smc_inet_init() - offer IPPROTO_SMC on AF_INET and AF_INET6
 *
 * Called once AF_SMC is registered as ours: a distribution smc.ko that
 * also offers IPPROTO_SMC is refused before we get here.
 *
 * Context: module init, process context.
 * Return: 0 or a negative errno; nothing stays registered on failure.
 */
int __init smc_inet_init(void)
{
	int rc;

	/* inet6_create() takes the ipv6_pinfo at ipv6_pinfo_offset */
	BUILD_BUG_ON(offsetof(struct smc_sock, sk) != 0);
	BUILD_BUG_ON(offsetof(struct smc6_sock, smc) != 0);

	smc_inet_setup_prot(&smc_inet_prot, &smc_proto);
	smc_inet_setup_prot(&smc_inet6_prot, &smc_proto6);

	rc = proto_register(&smc_inet_prot, 1);
	if (rc)
		return rc;
	rc = smc_inet6_init();
	if (rc) {
		proto_unregister(&smc_inet_prot);
		return rc;
	}
	/* last: from here on, socket(AF_INET, ..., IPPROTO_SMC) works */
	inet_register_protosw(&smc_inet_protosw);
	return 0;
}

/**
 * smc_inet_exit() - withdraw IPPROTO_SMC
 *
 * Open IPPROTO_SMC sockets hold module references, so none exist here.
 *
 * Context: module exit, process context, may sleep (RCU grace period).
 */
void smc_inet_exit(void)
{
	inet_unregister_protosw(&smc_inet_protosw);
	smc_inet6_exit();
	proto_unregister(&smc_inet_prot);
}

/* "modprobe" on socket(AF_INET[6], SOCK_STREAM, IPPROTO_SMC), as upstream */
MODULE_ALIAS("net-pf-2-proto-256-type-1");
MODULE_ALIAS("net-pf-10-proto-256-type-1");
