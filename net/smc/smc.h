/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Private definitions shared by the parts of smc.ko and by smc_diag.ko.
 */
#ifndef _NET_SMC_PRIV_H
#define _NET_SMC_PRIV_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/net.h>
#include <linux/smc_diag.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include "smc_clc_wire.h"
#include "smc_compat.h"
#include "smc_core.h"

/* out-of-tree module version, shown by modinfo and /sys/module/smc */
#define SMC_MODULE_VERSION	"0.1.0"

/* protocol argument of socket(AF_SMC, SOCK_STREAM, proto) */
#define SMCPROTO_SMC		0	/* IPv4 clcsock */
#define SMCPROTO_SMC6		1	/* IPv6 clcsock */

/* protocol argument of socket(AF_INET[6], SOCK_STREAM, proto), 6.11 uapi */
#ifndef IPPROTO_SMC
#define IPPROTO_SMC		256
#endif

/*
 * SMC socket states, as reported in smc_diag's diag_state.  SMC_LISTEN
 * deliberately equals TCP_LISTEN: the core answers SO_ACCEPTCONN by
 * comparing sk_state with TCP_LISTEN.
 */
enum smc_state {
	SMC_ACTIVE		= 1,
	SMC_INIT		= 2,
	SMC_CLOSED		= 7,
	SMC_LISTEN		= 10,
	SMC_PEERCLOSEWAIT1	= 20,
	SMC_PEERCLOSEWAIT2	= 21,
	SMC_APPCLOSEWAIT1	= 22,
	SMC_APPCLOSEWAIT2	= 23,
	SMC_APPFINCLOSEWAIT	= 24,
	SMC_PEERFINCLOSEWAIT	= 25,
	SMC_PEERABORTWAIT	= 26,
	SMC_PROCESSABORT	= 27,
};

/* Bits of smc_sock->flags */
enum {
	SMC_SOCK_MODE_DECIDED,	/* INIT -> SMC/fallback transition done */
	SMC_SOCK_HOOKED,	/* our clcsk callbacks are installed */
	SMC_SOCK_ACCEPTED,	/* server side: created by accept() */
	SMC_SOCK_HS_STARTED,	/* the CLC handshake work was queued */
	SMC_SOCK_SMCR,		/* data goes over SMC-R: @conn is live */
	SMC_SOCK_ORPHAN_HELD,	/* released, the close protocol holds it */
	SMC_SOCK_CONN_DONE,	/* @conn left its link group */
	SMC_SOCK_RELEASING,	/* close() began: no handshake starts now */
};

/**
 * struct smc_sock - an AF_SMC or IPPROTO_SMC socket
 * @sk: the SMC sock; must be first, the sk allocators size it by obj_size
 * @inet: overlays @sk for IPPROTO_SMC socks, whose inet part is set up
 *	by inet_create(); unused by AF_SMC socks
 * @clcsock: internal TCP socket carrying CLC and, in fallback, all data;
 *	valid from create/accept until release, which first unhashes @sk
 * @clcsk_state_change: clcsk callback replaced by ours, called from it
 * @clcsk_error_report: clcsk callback replaced by ours, called from it
 * @flags: SMC_SOCK_* bits, atomic
 * @err_lock: serialises the mirroring of clcsk errors (@clcsk_err)
 * @clcsk_err: the clcsk error mirrored into @sk.sk_err, 0 if none;
 *	lets SO_ERROR on the SMC sock and TCP consume one error only once
 * @fallback_rsn: why this socket uses TCP (SMC_CLC_DECL_*), 0 if not
 * @peer_diagnosis: diagnosis code the peer sent in a decline, 0 if none
 * @use_fallback: data goes over @clcsock; lockless readers
 * @mode: SMC_DIAG_MODE_* value reported by sock_diag
 * @limit_hs: SOL_SMC/SMC_LIMIT_HS; under the SMC sock lock
 * @hs_work: runs the CLC handshake, client or server side
 * @listen_smc: server child: its listener, referenced until the child is
 *	accepted or dropped
 * @accept_entry: server child: on the listener's @accept_queue
 * @accept_queue: listener: children whose handshake ended, for accept()
 * @accept_lock: listener: guards @accept_queue, @accept_cnt, @hs_cnt
 * @accept_cnt: listener: children on @accept_queue
 * @hs_cnt: listener: children still in their handshake
 * @listen_work: listener: takes new TCP children off the clcsock
 * @listen_wait: listener: entry on the listening socket's wait queue
 *	that starts @listen_work when TCP queues a child
 * @conn: the SMC-R connection, live once SMC_SOCK_SMCR is set; the
 *	sock's own references (the file's, the orphan's, an unaccepted
 *	child's) keep it until smc_conn_free() takes it out of its group
 * @close_work: runs the close protocol on the peer's flags, aborts and
 *	link-group failures (smc_close.c), under the sock lock
 * @orphan_work: bounds how long a released socket waits for its peer
 * @clcsk_gone: the clcsock reported an error (a reset) in SMC-R mode
 *
 * sk_state follows enum smc_state.  It is changed under the SMC sock
 * lock, except INIT -> ACTIVE which the clcsk state callback may do.
 */
struct smc_sock {
	union {
		struct sock		sk;
		struct inet_sock	inet;
	};
	struct socket		*clcsock;
	void			(*clcsk_state_change)(struct sock *sk);
	void			(*clcsk_error_report)(struct sock *sk);
	unsigned long		flags;
	spinlock_t		err_lock;	/* guards clcsk_err */
	int			clcsk_err;
	u32			fallback_rsn;
	u32			peer_diagnosis;
	bool			use_fallback;
	u8			mode;
	bool			limit_hs;
	struct work_struct	hs_work;
	struct smc_sock		*listen_smc;
	struct list_head	accept_entry;
	struct list_head	accept_queue;
	spinlock_t		accept_lock;	/* see @accept_queue */
	unsigned int		accept_cnt;
	unsigned int		hs_cnt;
	struct work_struct	listen_work;
	struct wait_queue_entry	listen_wait;
	struct smc_connection	conn;
	struct work_struct	close_work;
	struct delayed_work	orphan_work;
	bool			clcsk_gone;
};

static inline struct smc_sock *smc_sk(const struct sock *sk)
{
	return container_of(sk, struct smc_sock, sk);
}

static inline struct smc_sock *smc_of_conn(struct smc_connection *conn)
{
	return container_of(conn, struct smc_sock, conn);
}

/**
 * smc_uses_smcr() - does the socket move its data over SMC-R?
 * @smc: SMC socket
 *
 * Context: any context.
 * Return: true once the handshake set up an SMC-R connection.
 */
static inline bool smc_uses_smcr(const struct smc_sock *smc)
{
	return test_bit(SMC_SOCK_SMCR, &smc->flags);
}

/* smc_sock.c */
extern struct proto smc_proto;
extern struct proto smc_proto6;
extern const struct proto_ops smc_sock_ops;
struct sock *smc_sock_alloc(struct net *net, struct socket *sock,
			    int protocol, int kern);
void smc_sock_free_unattached(struct sock *sk);
void smc_sock_destruct_check(struct sock *sk);
void smc_sock_setup(struct sock *sk);
int smc_sock_add_clcsock(struct sock *sk, int family, int kern);
void smc_sock_drop_clcsock(struct smc_sock *smc);
int smc_sock_create(struct net *net, struct socket *sock, int protocol,
		    int kern);
int smc_sock_release(struct socket *sock);
int smc_sock_walk(struct net *net, long *pos,
		  int (*fn)(struct sock *sk, void *arg), void *arg);

/* smc_inet.c: IPPROTO_SMC, only on kernels whose uapi knows it */
#ifdef SMC_HAVE_IPPROTO_SMC
int smc_inet_init(void);
void smc_inet_exit(void);
struct sock *smc_inet_sock_alloc(struct net *net, struct socket *sock,
				 int family, int kern);
#else
static inline int smc_inet_init(void)
{
	return 0;
}

static inline void smc_inet_exit(void)
{
}

static inline struct sock *smc_inet_sock_alloc(struct net *net,
					       struct socket *sock,
					       int family, int kern)
{
	return NULL;
}
#endif

/* smc_clcsock.c */
void smc_clcsock_attach(struct smc_sock *smc, struct socket *clcsock);
void smc_clcsock_detach(struct smc_sock *smc);
void smc_clcsock_hook(struct smc_sock *smc);
void smc_clcsock_unhook(struct smc_sock *smc);
void smc_clcsock_sync(struct smc_sock *smc);
void smc_clcsock_copy_settings(struct smc_sock *smc);
void smc_clcsock_fallback(struct smc_sock *smc, u32 reason);
void smc_conn_to_smcr(struct smc_sock *smc);
extern const struct smc_conn_ops smc_sock_conn_ops;

/* smc_clc_io.c */
int smc_clc_send(struct socket *clcsock, const void *buf, size_t len);
int smc_clc_recv(struct socket *clcsock, void *buf, size_t size,
		 u8 expected, long timeo, struct smc_clc_hdr_info *info);
int smc_clc_send_decline(struct smc_sock *smc, u32 reason, u8 version);

/* smc_handshake.c */
#define SMC_CLC_WAIT_TIME	(6 * HZ)	/* Proposal, Accept, Confirm */
/* SMC_LIMIT_HS: server handshakes per CPU that make a namespace congested */
#define SMC_HS_CONGESTED	16
extern struct workqueue_struct *smc_hs_wq;
int smc_hs_init(void);
void smc_hs_exit(void);
int smc_hs_client(struct smc_sock *smc);
int smc_hs_server(struct smc_sock *smc);
void smc_hs_local_systemid(u8 *id);

/* smc_conn.c */
void smc_conn_free(struct smc_sock *smc);

/* smc_stream.c: the socket calls of an SMC-R connection */
int smc_stream_sendmsg(struct smc_sock *smc, struct msghdr *msg, size_t len);
int smc_stream_recvmsg(struct smc_sock *smc, struct msghdr *msg, size_t len,
		       int flags);
__poll_t smc_stream_poll(struct smc_sock *smc);
int smc_stream_ioctl(struct smc_sock *smc, unsigned int cmd,
		     unsigned long arg);
ssize_t smc_stream_splice_read(struct smc_sock *smc, loff_t *ppos,
			       struct pipe_inode_info *pipe, size_t len,
			       unsigned int flags);
void smc_stream_set_cork(struct smc_sock *smc, bool on);
void smc_stream_push(struct smc_sock *smc);

/* smc_close.c */
void smc_close_init(struct smc_sock *smc);
int smc_close_shutdown(struct smc_sock *smc, int how);
void smc_close_sync(struct smc_sock *smc);
void smc_close_release(struct smc_sock *smc);
void smc_close_drop(struct smc_sock *smc);
void smc_close_schedule(struct smc_sock *smc);
int smc_close_wq_init(void);
void smc_close_wq_exit(void);
int smc_close_state(u8 sent, u8 peer);

/* smc_connect.c */
void smc_connect_prepare(struct smc_sock *smc);
void smc_connect_tcp_done(struct smc_sock *smc);
int smc_connect_wait(struct smc_sock *smc, bool nonblock);
bool smc_hs_pending(const struct smc_sock *smc);
int smc_hs_wait_data(struct smc_sock *smc, long timeo);
void smc_hs_cancel(struct smc_sock *smc);

/* smc_listen.c */
void smc_listen_init(struct smc_sock *smc);
int smc_listen_start(struct smc_sock *smc);
void smc_listen_stop(struct smc_sock *smc);
void smc_listen_limit_hs(struct smc_sock *smc);
bool smc_listen_hs_congested(const struct sock *clcsk);
__poll_t smc_listen_poll(struct smc_sock *smc);

/* smc_ops.c */
int smc_accept(struct socket *sock, struct socket *newsock,
	       struct proto_accept_arg *arg);
struct socket *smc_clc_get(struct socket *sock);

/* smc_sockopt.c */
int smc_setsockopt(struct socket *sock, int level, int optname,
		   sockptr_t optval, unsigned int optlen);
int smc_getsockopt(struct socket *sock, int level, int optname,
		   char __user *optval, int __user *optlen);

/* smc_stats.c */
int smc_stats_init(void);
void smc_stats_exit(void);
unsigned int smc_stats_fback_index(u32 reason);
void smc_stats_fback_inc(struct net *net, bool server, u32 reason);
unsigned int smc_stats_fback_slots(void);
u32 smc_stats_fback_code(unsigned int slot);
int smc_stats_fback_seen(struct net *net, bool server, unsigned int n);
unsigned long smc_stats_fback_read(struct net *net, bool server,
				   unsigned int slot);
void smc_stats_hs_err_inc(struct net *net, bool server);
unsigned long smc_stats_hs_err_read(struct net *net, bool server);
void smc_stats_smcr_inc(struct net *net, bool server, u8 version);
unsigned long smc_stats_smcr_read(struct net *net, bool server, u8 version);
void smc_stats_hs_serv_add(struct net *net, int delta);
int smc_stats_hs_serv_read(const struct net *net);

/* smc_sysctl.c */
int smc_sysctl_init(void);
void smc_sysctl_exit(void);
int smc_sysctl_register(void);
void smc_sysctl_unregister(void);
bool smc_sysctl_limit_hs(struct net *net);
void smc_sysctl_set_limit_hs(struct net *net, bool on);
int smc_sysctl_testlink_time(struct net *net);
int smc_sysctl_max_conns(struct net *net);
int smc_sysctl_max_links(struct net *net);
int smc_sysctl_wmem(struct net *net);
int smc_sysctl_rmem(struct net *net);
unsigned int smc_sysctl_autocork(struct net *net);

/* smc_pnet.c */
int smc_pnet_init(void);
void smc_pnet_exit(void);
bool smc_pnet_find_ndev(struct net_device *ndev, char *pnetid);
bool smc_pnet_find_ib(const char *ib_name, u8 ib_port, char *pnetid);

/* smc_netlink.c */
int smc_netlink_init(void);
void smc_netlink_exit(void);

bool smc_ueid_match(const u8 *eid);
unsigned int smc_ueid_get_all(u8 *eids, unsigned int max);

/* smc_debugfs.c */
void smc_debugfs_init(void);
void smc_debugfs_exit(void);

#endif /* _NET_SMC_PRIV_H */
