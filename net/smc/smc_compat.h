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

#include <linux/net.h>
#include <net/sock.h>

/*
 * SMC_HAVE_SPLICE_EOF: 6.5 replaced proto_ops->sendpage by
 * MSG_SPLICE_PAGES and ->splice_eof.
 * SMC_HAVE_DIAG_OWNER: 6.9 lets a sock_diag handler name its module.
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

#endif /* _NET_SMC_COMPAT_H */
