/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The data path of an SMC-R connection below the sockets: CDC messages
 * (smc_cdc.c), sending into the peer's RMBE (smc_tx.c) and receiving out
 * of our own RMBE (smc_rx.c).
 *
 * Contract with the socket layer, which owns waiting, timeouts, signals
 * and poll:
 *
 *  - It fills in the connection (link group, link, buffers, tokens, peer
 *    RMBE, rtoken index) as CLC negotiated and then calls
 *    smc_cdc_conn_init() with its struct smc_conn_ops before the
 *    connection is registered in its link group.
 *  - smc_tx_sendmsg() and smc_rx_recv() never sleep.  They return
 *    -EAGAIN when they cannot make progress; the data path calls
 *    ops->write_space() or ops->data_ready() once they can, and
 *    ops->state_change() when the peer's connection flags change.  The
 *    caller serialises senders among themselves and readers among
 *    themselves (the socket lock).
 *  - TCP_CORK is SMC_TX_CORKED in tx_flags: set it to hold small writes
 *    (up to half the send buffer), clear it and call smc_tx_push() to
 *    uncork.  tx_autocork_size takes the autocorking_size sysctl.
 *  - The close code sends its flags with smc_cdc_send_flags(), or an
 *    abort behind the data already written with smc_tx_abort_after_data(),
 *    and reads the peer's in peer_conn_flags after ops->state_change().
 *  - Urgent data: smc_tx_sendmsg() with MSG_OOB makes the last byte
 *    urgent.  On receive, urg_state/urg_rx_byte/urg_curs say where the
 *    urgent byte is (SIOCATMARK, recv with MSG_OOB, SIGURG on
 *    ops->state_change()); smc_rx_recv() leaves it in the stream, so
 *    skipping it without SO_OOBINLINE is up to the socket layer.
 *  - Every posted CDC, queued tx_work and running CDC receive handler
 *    holds a reference taken with ops->hold(); smc_cdc_conn_stop()
 *    stops new sends and cancels the work, and the connection must
 *    stay alive until the last ops->put().
 */
#ifndef _NET_SMC_DATA_H
#define _NET_SMC_DATA_H

#include <linux/socket.h>
#include <linux/uio.h>

#include "smc_core.h"

#define SMC_TX_AUTOCORK_DEFAULT	(64 * 1024)

/* smc_connection.urg_state */
enum {
	SMC_URG_NONE,		/* no urgent data */
	SMC_URG_PENDING,	/* the peer announced urgent data */
	SMC_URG_VALID,		/* @urg_rx_byte holds the urgent byte */
	SMC_URG_READ,		/* the urgent byte was read, the mark not passed */
};

/*
 * The flags of the CDC template (local_tx_ctrl), changed under send_lock;
 * diag reads them without it.
 */
static inline void smc_cdc_tx_prod_flags(struct smc_connection *conn,
					 u8 set, u8 clear)
{
	u8 flags = conn->local_tx_ctrl.prod_flags;

	lockdep_assert_held(&conn->send_lock);
	WRITE_ONCE(conn->local_tx_ctrl.prod_flags, (flags & ~clear) | set);
}

static inline void smc_cdc_tx_conn_flags(struct smc_connection *conn, u8 set)
{
	u8 flags = conn->local_tx_ctrl.conn_flags;

	lockdep_assert_held(&conn->send_lock);
	WRITE_ONCE(conn->local_tx_ctrl.conn_flags, flags | set);
}

/* smc_cdc.c */
void smc_cdc_conn_init(struct smc_connection *conn,
		       const struct smc_conn_ops *ops);
void smc_cdc_conn_stop(struct smc_connection *conn);
void smc_cdc_conn_kill(struct smc_connection *conn);
struct smc_connection *smc_cdc_conn_get(struct smc_link_group *lgr,
					u32 token);
int smc_cdc_send_flags(struct smc_connection *conn, u8 conn_flags);
int smc_cdc_send_locked(struct smc_connection *conn,
			struct smc_wr_tx_slot *slot);
int smc_cdc_send_validation(struct smc_connection *conn,
			    struct smc_wr_tx_slot *slot);
struct dentry;
void smc_cdc_debugfs_init(struct dentry *root);
void smc_cdc_rx_handler(struct smc_link *wrlnk, const u8 *buf,
			unsigned int len);

/* smc_tx.c */
int smc_tx_sendmsg(struct smc_connection *conn, struct msghdr *msg,
		   size_t len);
int smc_tx_push(struct smc_connection *conn);
int smc_tx_abort_after_data(struct smc_connection *conn);
void smc_tx_pending(struct smc_connection *conn);
void smc_tx_catch_up(struct smc_connection *conn);
void smc_tx_sched(struct smc_connection *conn);
void smc_tx_work(struct work_struct *work);
int smc_tx_wq_init(void);
void smc_tx_wq_exit(void);
int smc_tx_outq(struct smc_connection *conn);

/* smc_rx.c */
int smc_rx_recv(struct smc_connection *conn, struct msghdr *msg,
		size_t len, int flags);
void smc_rx_cons_update(struct smc_connection *conn, bool force);
int smc_rx_inq(struct smc_connection *conn);

#endif /* _NET_SMC_DATA_H */
