// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * SMC socket life cycle: the two struct proto, their socket lists for
 * sock_diag, socket creation and release.
 */

#include <linux/export.h>
#include <linux/in.h>
#include <linux/net.h>
#include <net/net_namespace.h>
#include <net/smc.h>
#include <net/sock.h>

#include "smc.h"

/* Every SMC sock is on its proto's list from create/accept to release. */
static struct smc_hashinfo smc_v4_hashinfo = {
	.lock = __RW_LOCK_UNLOCKED(smc_v4_hashinfo.lock),
};

static struct smc_hashinfo smc_v6_hashinfo = {
	.lock = __RW_LOCK_UNLOCKED(smc_v6_hashinfo.lock),
};

static struct smc_hashinfo *const smc_hashes[] = {
	&smc_v4_hashinfo,
	&smc_v6_hashinfo,
};

static int smc_hash(struct sock *sk)
{
	struct smc_hashinfo *h = sk->sk_prot->h.smc_hash;

	write_lock(&h->lock);
	sk_add_node(sk, &h->ht);
	write_unlock(&h->lock);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, 1);
	return 0;
}

static void smc_unhash(struct sock *sk)
{
	struct smc_hashinfo *h = sk->sk_prot->h.smc_hash;
	bool removed;

	write_lock(&h->lock);
	removed = sk_del_node_init(sk);
	write_unlock(&h->lock);
	if (removed)
		sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
}

struct proto smc_proto = {
	.name		= "SMC",
	.owner		= THIS_MODULE,
	.hash		= smc_hash,
	.unhash		= smc_unhash,
	.obj_size	= sizeof(struct smc_sock),
	.h.smc_hash	= &smc_v4_hashinfo,
};

struct proto smc_proto6 = {
	.name		= "SMC6",
	.owner		= THIS_MODULE,
	.hash		= smc_hash,
	.unhash		= smc_unhash,
	.obj_size	= sizeof(struct smc_sock),
	.h.smc_hash	= &smc_v6_hashinfo,
};

/**
 * smc_sock_walk() - visit the SMC sockets of one network namespace
 * @net: only sockets of this namespace are visited
 * @pos: resume cursor, two longs: list index and sockets already visited
 *	in that list; zero to start, updated for the next call
 * @fn: called per socket under the list's read lock, must not sleep;
 *	a non-zero return stops the walk and is retried on the next call
 * @arg: passed to @fn
 *
 * Lets smc_diag dump both protocols' sockets across several netlink
 * messages.  A visited socket is hashed, so its clcsock is valid.
 *
 * Context: process context, no locks held.
 * Return: 0 once all sockets were visited, else the value @fn returned.
 */
int smc_sock_walk(struct net *net, long *pos,
		  int (*fn)(struct sock *sk, void *arg), void *arg)
{
	for (; pos[0] < ARRAY_SIZE(smc_hashes); pos[0]++, pos[1] = 0) {
		struct smc_hashinfo *h = smc_hashes[pos[0]];
		struct sock *sk;
		long num = 0;
		int rc;

		read_lock(&h->lock);
		sk_for_each(sk, &h->ht) {
			if (!net_eq(sock_net(sk), net))
				continue;
			if (num++ < pos[1])
				continue;
			rc = fn(sk, arg);
			if (rc) {
				pos[1] = num - 1;
				read_unlock(&h->lock);
				return rc;
			}
		}
		read_unlock(&h->lock);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(smc_sock_walk);

/**
 * smc_sock_setup() - initialise the SMC part of a new, zeroed sock
 * @sk: sock from sk_alloc(), not yet visible to anyone
 *
 * Context: process context.
 */
void smc_sock_setup(struct sock *sk)
{
	struct smc_sock *smc = smc_sk(sk);

	sk->sk_state = SMC_INIT;
	spin_lock_init(&smc->err_lock);
	smc->mode = SMC_DIAG_MODE_SMCR;
	smc->limit_hs = smc_sysctl_limit_hs(sock_net(sk));
	smc_listen_init(smc);
	smc_close_init(smc);
}

/**
 * smc_sock_destruct_check() - the sock is freed: its connection must be gone
 * @sk: SMC sock whose last reference went
 *
 * A connection still in its link group when its sock goes would be found
 * by the next CDC or by the group's teardown: say so loudly, once.
 *
 * Context: any context (sk_destruct).
 */
void smc_sock_destruct_check(struct sock *sk)
{
	struct smc_sock *smc = smc_sk(sk);

	WARN_ONCE(smc_uses_smcr(smc) &&
		  !test_bit(SMC_SOCK_CONN_DONE, &smc->flags),
		  "smc: sock freed with its connection in a link group\n");
}

/**
 * smc_sock_alloc() - allocate an SMC sock and attach it to @sock
 * @net: network namespace of the new socket
 * @sock: struct socket the sock is grafted onto
 * @protocol: SMCPROTO_SMC, SMCPROTO_SMC6, or IPPROTO_SMC for a @sock
 *	with the proto_ops of an IPPROTO_SMC socket (accept)
 * @kern: non-zero for a kernel socket, which does not pin @net
 *
 * Context: process context, may sleep.
 * Return: the sock in state INIT without clcsock, or NULL.
 */
struct sock *smc_sock_alloc(struct net *net, struct socket *sock,
			    int protocol, int kern)
{
	struct proto *prot;
	struct sock *sk;

	if (protocol == IPPROTO_SMC)
		return smc_inet_sock_alloc(net, sock, sock->ops->family, kern);

	prot = protocol == SMCPROTO_SMC6 ? &smc_proto6 : &smc_proto;
	/* __GFP_ZERO: clear the SMC part too, not only struct sock */
	sk = sk_alloc(net, PF_SMC, GFP_KERNEL | __GFP_ZERO, prot, kern);
	if (!sk)
		return NULL;

	sock_init_data(sock, sk);
	sk->sk_protocol = protocol;
	sk->sk_destruct = smc_sock_destruct_check;
	smc_sock_setup(sk);
	return sk;
}

/**
 * smc_sock_free_unattached() - free a sock that never got a clcsock
 * @sk: sock from smc_sock_alloc(), not hashed
 *
 * Also detaches it from its struct socket, which the caller releases.
 *
 * Context: process context.
 */
void smc_sock_free_unattached(struct sock *sk)
{
	struct socket *sock = sk->sk_socket;

	/* inet_sock_destruct() (IPPROTO_SMC) frees only closed socks */
	sk->sk_state = SMC_CLOSED;
	sock_orphan(sk);
	if (sock)
		sock->sk = NULL;
	sock_put(sk);
}

/**
 * smc_sock_add_clcsock() - create the clcsock of a new SMC sock
 * @sk: sock from smc_sock_setup(), grafted onto its socket, not hashed
 * @family: PF_INET or PF_INET6, the clcsock's family
 * @kern: non-zero for a kernel socket, which does not pin its netns
 *
 * On success the sock is complete and on its proto's diag list.
 *
 * Context: process context, may sleep.
 * Return: 0 or the errno of creating the TCP socket.
 */
int smc_sock_add_clcsock(struct sock *sk, int family, int kern)
{
	struct socket *clcsock;
	int rc;

	rc = sock_create_kern(sock_net(sk), family, SOCK_STREAM, IPPROTO_TCP,
			      &clcsock);
	if (rc)
		return rc;
	if (!kern)
		smc_compat_hold_net(clcsock->sk);

	/* SOL_SOCKET setsockopt must reach the clcsock too */
	smc_compat_custom_sockopt(sk->sk_socket);
	smc_clcsock_attach(smc_sk(sk), clcsock);
	smc_clcsock_copy_settings(smc_sk(sk));
	sk->sk_prot->hash(sk);
	return 0;
}

/**
 * smc_sock_create() - socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC[6])
 * @net: network namespace
 * @sock: new socket, ops not yet set
 * @protocol: SMCPROTO_SMC (IPv4 clcsock) or SMCPROTO_SMC6 (IPv6)
 * @kern: non-zero when created by the kernel
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno, as socket(2) reports it.
 */
int smc_sock_create(struct net *net, struct socket *sock, int protocol,
		    int kern)
{
	struct sock *sk;
	int family;
	int rc;

	if (sock->type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	if (protocol != SMCPROTO_SMC && protocol != SMCPROTO_SMC6)
		return -EPROTONOSUPPORT;
	family = protocol == SMCPROTO_SMC6 ? PF_INET6 : PF_INET;

	sock->state = SS_UNCONNECTED;
	sock->ops = &smc_sock_ops;
	sk = smc_sock_alloc(net, sock, protocol, kern);
	if (!sk)
		return -ENOBUFS;

	rc = smc_sock_add_clcsock(sk, family, kern);
	if (rc)
		smc_sock_free_unattached(sk);
	return rc;
}

/**
 * smc_sock_drop_clcsock() - take an SMC sock off its list, free its clcsock
 * @smc: SMC sock being closed; its SMC sock lock is not held
 *
 * Context: process context, may sleep (lingering TCP close).
 */
void smc_sock_drop_clcsock(struct smc_sock *smc)
{
	struct socket *clcsock = smc->clcsock;

	/* off the diag lists first: a listed sock has a valid clcsock */
	smc->sk.sk_prot->unhash(&smc->sk);

	if (clcsock) {
		smc_clcsock_detach(smc);
		smc->clcsock = NULL;
		sock_release(clcsock);
	}
}

/**
 * smc_sock_release() - proto_ops->release: last close of an SMC socket
 * @sock: the socket
 *
 * In fallback mode closing is TCP's close of the clcsock, with the
 * clcsock's SO_LINGER settings (linger 0 resets the connection).
 *
 * Context: process context, may sleep (lingering close).
 * Return: 0.
 */
int smc_sock_release(struct socket *sock)
{
	struct smc_sock *smc;
	struct sock *sk;

	sk = sock->sk;
	if (!sk)
		return 0;
	smc = smc_sk(sk);

	/*
	 * A SYN-ACK from now on must not start a handshake that would
	 * outlive the clcsock: the callbacks test the bit under this lock,
	 * so one that started a handshake before is seen by the cancel.
	 */
	if (smc->clcsock) {
		struct sock *clcsk = smc->clcsock->sk;

		write_lock_bh(&clcsk->sk_callback_lock);
		set_bit(SMC_SOCK_RELEASING, &smc->flags);
		write_unlock_bh(&clcsk->sk_callback_lock);
	}
	/*
	 * A handshake still running may yet set up an SMC-R connection:
	 * only once it has ended does the mode say how to close.
	 */
	smc_hs_cancel(smc);
	if (smc_uses_smcr(smc)) {
		/* the close protocol ends the connection and the clcsock */
		smc_close_release(smc);
		goto out;
	}
	/* TCP closes with the application's SO_LINGER (smc_compat.h) */
	smc_compat_push_settings(smc);
	lock_sock(sk);
	WRITE_ONCE(sk->sk_state, SMC_CLOSED);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	release_sock(sk);
	/* nothing may use the clcsock on our behalf any more */
	smc_listen_stop(smc);

	smc_sock_drop_clcsock(smc);
out:
	sock_orphan(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}
