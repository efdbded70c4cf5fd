/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Kernel API differences between the kernels smc.ko is built for
 * (Debian 12's 6.1 and Debian 13's 6.12).  Kbuild probes the kernel
 * headers and defines the SMC_HAVE_* macros, so distribution back-ports
 * are honoured; the other files only see what this header provides.
 */
#ifndef _NET_SMC_COMPAT_H
#define _NET_SMC_COMPAT_H

#include <linux/fs.h>
#include <linux/net.h>
#include <linux/smc.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>

#ifdef SMC_HAVE_LINUX_UNALIGNED
#include <linux/unaligned.h>
#else	/* before 6.12 */
#include <asm/unaligned.h>
#endif

#ifdef SMC_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#else	/* before 6.2 */
#define EXPORT_SYMBOL_IF_KUNIT(symbol) __ADDRESSABLE(symbol)
#endif

/* 6.6 passes a sysctl table's size; before, it ends with an empty entry */
static inline struct ctl_table_header *
smc_compat_register_sysctl(struct net *net, const char *path,
			   struct ctl_table *table, size_t n)
{
#ifdef SMC_HAVE_SYSCTL_SZ
	return register_net_sysctl_sz(net, path, table, n);
#else
	return register_net_sysctl(net, path, table);
#endif
}

/*
 * SMC_HAVE_SPLICE_EOF: 6.5 replaced proto_ops->sendpage by
 * MSG_SPLICE_PAGES and ->splice_eof.
 * SMC_HAVE_DIAG_OWNER: 6.9 lets a sock_diag handler name its module.
 * Both fill struct initialisers and stay #ifdefs where those are.
 */

/*
 * 6.10 bundled the accept flags into struct proto_accept_arg.  The SMC
 * code is written against that; older kernels get the struct and a thin
 * adaptor for proto_ops->accept.
 */
#ifdef SMC_HAVE_ACCEPT_ARG

static inline int smc_compat_clc_accept(struct socket *sock,
					struct socket *newsock,
					struct proto_accept_arg *arg)
{
	return READ_ONCE(sock->ops)->accept(sock, newsock, arg);
}

#define SMC_ACCEPT_OP	smc_accept

#else

struct proto_accept_arg {
	int flags;
	int err;
	int is_empty;
	bool kern;
};

int smc_accept(struct socket *sock, struct socket *newsock,
	       struct proto_accept_arg *arg);

static inline int smc_compat_clc_accept(struct socket *sock,
					struct socket *newsock,
					struct proto_accept_arg *arg)
{
	return READ_ONCE(sock->ops)->accept(sock, newsock, arg->flags,
					    arg->kern);
}

static inline int smc_compat_accept(struct socket *sock,
				    struct socket *newsock, int flags,
				    bool kern)
{
	struct proto_accept_arg arg = { .flags = flags, .kern = kern };

	return smc_accept(sock, newsock, &arg);
}

#define SMC_ACCEPT_OP	smc_compat_accept

#endif

/*
 * Kernel sockets do not pin their netns, but a clcsock can outlive the
 * SMC socket (FIN_WAIT, TIME_WAIT timers), so it must take the reference
 * a user socket would hold.  sk_net_refcnt_upgrade() does exactly that
 * on 6.12.y (back-ported); 6.1 needs the equivalent steps done by hand.
 */
#ifdef SMC_HAVE_REFCNT_UPGRADE
static inline void smc_compat_hold_net(struct sock *sk)
{
	sk_net_refcnt_upgrade(sk);
}
#else
static inline void smc_compat_hold_net(struct sock *sk)
{
	struct net *net = sock_net(sk);

#ifdef SMC_HAVE_NETNS_TRACKER_FREE
	/* kernels that track kernel sockets too: drop that tracker first */
	__netns_tracker_free(net, &sk->ns_tracker, false);
#endif
	sk->sk_net_refcnt = 1;
	get_net_track(net, &sk->ns_tracker, GFP_KERNEL);
	sock_inuse_add(net, 1);
}
#endif

/*
 * ib_device_get_netdev() is not exported on 6.1.  Without it smc_ib.c
 * takes the port's netdev from its GID 0, which 6.1's rxe does fill.
 */
#ifndef SMC_HAVE_IB_GET_NETDEV
struct ib_device;

static inline struct net_device *ib_device_get_netdev(struct ib_device *ibdev,
						      u32 port)
{
	return NULL;
}
#endif

/*
 * Newer attributes of the generic-netlink ABI.  An older kernel's uapi
 * header lacks them; our module serves the whole ABI anyway, with the
 * numbers of include/uapi/linux/smc.h.
 */
#ifndef SMC_HAVE_UAPI_LGR_V21		/* v2.1 negotiation */
#define SMC_NLA_LGR_R_V2_MAX_CONNS	2
#define SMC_NLA_LGR_R_V2_MAX_LINKS	3
#endif
#ifndef SMC_HAVE_UAPI_BUF_ALLOC		/* buffer accounting */
#define SMC_NLA_LGR_R_SNDBUF_ALLOC	12
#define SMC_NLA_LGR_R_RMB_ALLOC		13
#define SMC_NLA_STATS_T_RX_RMB_USAGE	20
#define SMC_NLA_STATS_T_TX_RMB_USAGE	21
#endif

#ifndef SMC_HAVE_NLA_UINT		/* 6.8: NLA_UINT, 4 or 8 bytes */
static inline int nla_put_uint(struct sk_buff *skb, int attrtype, u64 value)
{
	u64 v64 = value;
	u32 v32 = value;

	if (v64 == v32)
		return nla_put_u32(skb, attrtype, v32);
	return nla_put(skb, attrtype, sizeof(v64), &v64);
}
#endif

/*
 * Reading an SMC-R socket into a pipe copies through recvmsg: 6.5 named
 * that copy_splice_read(); before it generic_file_splice_read() did it
 * for files without a page cache of their own.
 */
static inline ssize_t smc_compat_splice_read(struct file *file, loff_t *ppos,
					     struct pipe_inode_info *pipe,
					     size_t len, unsigned int flags)
{
#ifdef SMC_HAVE_COPY_SPLICE_READ
	return copy_splice_read(file, ppos, pipe, len, flags);
#else
	return generic_file_splice_read(file, ppos, pipe, len, flags);
#endif
}

/*
 * SOL_SOCKET options reach proto_ops->setsockopt only on a socket with
 * SOCK_CUSTOM_SOCKOPT (6.2).  Without it the core sets them on the SMC
 * sock alone, and they are handed to the clcsock before each use of it
 * (smc_clc_get()) and before its close: a little later than with 6.2,
 * but before TCP can act on them.
 */
struct smc_sock;
void smc_clcsock_push_settings(struct smc_sock *smc);

#ifdef SMC_HAVE_CUSTOM_SOCKOPT
static inline void smc_compat_custom_sockopt(struct socket *sock)
{
	set_bit(SOCK_CUSTOM_SOCKOPT, &sock->flags);
}

static inline void smc_compat_push_settings(struct smc_sock *smc)
{
}
#else
static inline void smc_compat_custom_sockopt(struct socket *sock)
{
}

static inline void smc_compat_push_settings(struct smc_sock *smc)
{
	smc_clcsock_push_settings(smc);
}
#endif

#endif /* _NET_SMC_COMPAT_H */
