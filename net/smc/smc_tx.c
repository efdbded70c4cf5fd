// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The send side of a connection: the application's bytes go into the
 * send buffer ring, and from there by RDMA WRITE into the peer's RMBE,
 * followed by a CDC on the same QP that moves our producer cursor
 * (protocol reference 6.2).  There is no global lock: a connection's
 * send_lock serialises its pushes and CDCs.
 */

#include <linux/minmax.h>
#include <linux/uio.h>
#include <linux/workqueue.h>

#include "smc_compat.h"
#include "smc_data.h"

/* a retry when a CDC could not even be allocated */
#define SMC_TX_RETRY_DELAY	1
/*
 * Data held after urgent data waits for the peer's cursor update, which
 * Linux peers force when their reader passes the urgent byte; a peer
 * that does not is asked for it this often.
 */
#define SMC_TX_URG_ASK_DELAY	HZ

/*
 * tx_work runs here: a close may wait for it (smc_cdc_conn_stop()) from
 * the close and link-group workqueues, which are WQ_MEM_RECLAIM, and
 * those may only wait for work of a workqueue that is so too.
 */
static struct workqueue_struct *smc_tx_wq;

/* tx_work in @delay jiffies, with its reference, unless it is queued */
static void smc_tx_queue(struct smc_connection *conn, unsigned long delay)
{
	if (test_bit(SMC_TX_STOPPED, &conn->tx_flags))
		return;
	conn->ops->hold(conn);
	if (!queue_delayed_work(smc_tx_wq, &conn->tx_work, delay))
		conn->ops->put(conn);
}

/**
 * smc_tx_sched() - let tx_work send what a push could not
 * @conn: the connection
 *
 * Context: any context.
 */
void smc_tx_sched(struct smc_connection *conn)
{
	smc_tx_queue(conn, 0);
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_sched);

/*
 * Autocorking: while a CDC is in flight, its completion pushes again,
 * so small writes wait and go out together - up to half the send buffer
 * or the autocork limit.  TCP_CORK/MSG_MORE hold up to half the buffer.
 */
static bool smc_tx_should_cork(struct smc_connection *conn, u32 pending)
{
	u32 half = conn->sndbuf_desc->len / 2;

	if (test_bit(SMC_TX_CORKED, &conn->tx_flags))
		return pending < half;
	if (!conn->tx_autocork_size || !atomic_read(&conn->cdc_pend))
		return false;
	return pending < min(half, conn->tx_autocork_size);
}

/* RDMA-write @len bytes of the send ring at @sent into the peer RMBE */
static int smc_tx_rdma_writes(struct smc_connection *conn,
			      union smc_cursor sent, union smc_cursor prod,
			      u32 len)
{
	struct smc_lgr_link *lnk = conn->lnk;
	struct smc_rtoken *rt = &lnk->lgr->rtokens[conn->rtoken_idx][lnk->idx];
	u32 sndlen = conn->sndbuf_desc->len;
	u64 dma = conn->sndbuf_desc->dma[lnk->idx];
	u64 base = rt->vaddr +
		   (u64)(conn->peer_rmbe_idx - 1) * conn->peer_rmbe_size;
	u32 src = sent.count, dst = prod.count;
	struct ib_sge sge[2];
	int nsge, rc;

	/* at most 2 writes (the RMBE wraps), each of up to 2 SGEs */
	while (len) {
		u32 chunk = min(len, conn->peer_rmbe_size - dst);

		sge[0].addr = dma + src;
		sge[0].length = min(chunk, sndlen - src);
		sge[0].lkey = smc_wr_lkey(&lnk->wr);
		nsge = 1;
		if (sge[0].length < chunk) {
			sge[1].addr = dma;
			sge[1].length = chunk - sge[0].length;
			sge[1].lkey = sge[0].lkey;
			nsge = 2;
		}
		rc = smc_wr_rdma_write(&lnk->wr, sge, nsge, base + dst,
				       rt->rkey, true);
		if (rc)
			return rc;
		src = (src + chunk) % sndlen;
		dst = (dst + chunk) % conn->peer_rmbe_size;
		len -= chunk;
	}
	return 0;
}

/*
 * A post failed with @rc.  On a link that went down it is no error of
 * the connection's: the failover moves the connection to another link
 * and has tx_work send all that is not confirmed, or the group ends and
 * stops it.  Meanwhile a CDC is owed.
 */
static int smc_tx_post_err(struct smc_connection *conn, int rc)
{
	lockdep_assert_held(&conn->send_lock);
	if (!smc_wr_link_is_down(&conn->lnk->wr))
		return rc;
	set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	return 0;
}

/**
 * smc_tx_catch_up() - skip what the peer read beyond our producer cursor
 * @conn: the connection
 *
 * After a move to another link the peer's consumer cursor may pass our
 * rewound producer cursor: it read data we wrote on the old link whose
 * CDC completion never came.  That data is confirmed and goes no more;
 * the peer's free space, which the consumer cursor's advance raised
 * past its size, is the whole RMBE again.
 *
 * Context: any context; @conn->send_lock and @conn->rx_lock held.
 */
void smc_tx_catch_up(struct smc_connection *conn)
{
	union smc_cursor prod, peer_cons, sent, fin;
	u32 sndlen = conn->sndbuf_desc->len;
	u32 ahead;

	lockdep_assert_held(&conn->send_lock);
	lockdep_assert_held(&conn->rx_lock);
	prod = smc_cursor_read(&conn->local_tx_ctrl.prod);
	peer_cons = smc_cursor_read(&conn->local_rx_ctrl.cons);
	if (!smc_cursor_behind(&peer_cons, &prod))
		return;
	ahead = smc_cursor_diff(conn->peer_rmbe_size, &prod, &peer_cons);
	smc_cursor_write(&conn->local_tx_ctrl.prod, peer_cons);
	atomic_sub(ahead, &conn->peer_rmbe_space);
	sent = smc_cursor_read(&conn->tx_curs_sent);
	fin = smc_cursor_read(&conn->tx_curs_fin);
	smc_cursor_add(sndlen, &sent, ahead);
	smc_cursor_write(&conn->tx_curs_sent, sent);
	smc_cursor_write(&conn->tx_curs_fin, sent);
	atomic_add(smc_cursor_diff(sndlen, &fin, &sent), &conn->sndbuf_space);
}

/*
 * Write what fits into the peer RMBE and send the CDC.  @slotp is a
 * slot to use or NULL to find one; it is consumed if it was used.
 * -EAGAIN: no free slot, tx_work must retry.
 */
static int smc_tx_push_locked(struct smc_connection *conn,
			      struct smc_wr_tx_slot **slotp, bool corkable)
{
	union smc_cursor sent, prep, prod;
	u32 pending, space, len, urg = 0;
	bool want_cdc, held = false;
	u32 sndlen;
	int rc;

	lockdep_assert_held(&conn->send_lock);
	if (test_bit(SMC_TX_STOPPED, &conn->tx_flags))
		return -EPIPE;
	if (conn->tx_err)
		return conn->tx_err;
	if (conn->tx_epoch) {
		spin_lock(&conn->rx_lock);
		smc_tx_catch_up(conn);
		spin_unlock(&conn->rx_lock);
	}
	sndlen = conn->sndbuf_desc->len;
	sent = smc_cursor_read(&conn->tx_curs_sent);
	prep = smc_cursor_read(&conn->tx_curs_prep);
	pending = smc_cursor_diff(sndlen, &sent, &prep);
	space = atomic_read(&conn->peer_rmbe_space);
	len = min(pending, space);
	/*
	 * Once either side aborted, the peer's RMB may already serve
	 * another connection: no more data into it, only flags.
	 */
	if ((READ_ONCE(conn->peer_conn_flags) |
	     conn->local_tx_ctrl.conn_flags) & SMC_CDC_CONN_ABORT)
		len = 0;
	want_cdc = test_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	/* after urgent data, nothing until the peer consumed all (6.4) */
	if (test_bit(SMC_TX_URG_WAIT, &conn->tx_flags)) {
		if (space < conn->peer_rmbe_size) {
			len = 0;
			held = pending > 0;
		} else {
			clear_bit(SMC_TX_URG_WAIT, &conn->tx_flags);
		}
	}
	if (held) {
		/* CONS_UPD_REQ goes out once, with WRITE_BLOCKED */
		if (time_after_eq(jiffies, conn->urg_ask_at)) {
			smc_cdc_tx_prod_flags(conn, SMC_CDC_PROD_CONS_UPD_REQ, 0);
			conn->urg_ask_at = jiffies + SMC_TX_URG_ASK_DELAY;
			want_cdc = true;
		}
		smc_tx_queue(conn, time_after(conn->urg_ask_at, jiffies) ?
				   conn->urg_ask_at - jiffies : 0);
	}
	if (conn->urg_tx_pend) {
		/* the urgent byte ends a write: the peer finds it at prod-1 */
		urg = smc_cursor_diff(sndlen, &sent, &conn->urg_tx_curs);
		smc_cdc_tx_prod_flags(conn, SMC_CDC_PROD_URG_PENDING, 0);
		if (len && len >= urg)
			len = urg;
		else
			urg = 0;
	}
	if (!len && !want_cdc)
		return 0;
	if (!want_cdc && !conn->urg_tx_pend && corkable &&
	    smc_tx_should_cork(conn, pending))
		return 0;
	if (!*slotp) {
		rc = smc_wr_send_slot_get_nowait(&conn->lnk->wr, slotp,
						 SMC_WR_SLOT_DATA);
		if (rc == -EBUSY)
			return -EAGAIN;
		if (rc)
			return smc_tx_post_err(conn, rc);
	}
	if (len) {
		prod = smc_cursor_read(&conn->local_tx_ctrl.prod);
		rc = smc_tx_rdma_writes(conn, sent, prod, len);
		if (rc) {
			smc_wr_send_slot_put(&conn->lnk->wr, *slotp);
			*slotp = NULL;
			return smc_tx_post_err(conn, rc);
		}
		smc_cursor_add(conn->peer_rmbe_size, &prod, len);
		smc_cursor_write(&conn->local_tx_ctrl.prod, prod);
		/* not when it writes again after a move to another link */
		if (smc_cursor_behind(&prod, &conn->tx_prod_max))
			smc_cursor_write(&conn->tx_prod_max, prod);
		smc_cursor_add(sndlen, &sent, len);
		smc_cursor_write(&conn->tx_curs_sent, sent);
		atomic_sub(len, &conn->peer_rmbe_space);
		if (urg) {
			smc_cdc_tx_prod_flags(conn, SMC_CDC_PROD_URG_PRESENT, 0);
			WRITE_ONCE(conn->urg_tx_pend, false);
			set_bit(SMC_TX_URG_WAIT, &conn->tx_flags);
			conn->urg_ask_at = jiffies + SMC_TX_URG_ASK_DELAY;
		}
	}
	/* tell the reader we wait for room: it then updates its cursor */
	if (held || (pending && pending >= space))
		smc_cdc_tx_prod_flags(conn, SMC_CDC_PROD_WRITE_BLOCKED, 0);
	else
		smc_cdc_tx_prod_flags(conn, 0, SMC_CDC_PROD_WRITE_BLOCKED);
	/* the abort rides on the CDC that announces the last writes */
	if (test_bit(SMC_TX_ABORT_WANTED, &conn->tx_flags))
		smc_cdc_tx_conn_flags(conn, SMC_CDC_CONN_ABORT);
	rc = smc_cdc_send_locked(conn, *slotp);
	*slotp = NULL;
	return rc == -ENOMEM ? rc : smc_tx_post_err(conn, rc);
}

static int smc_tx_push_common(struct smc_connection *conn, bool corkable)
{
	struct smc_wr_tx_slot *slot = NULL;
	int rc;

	spin_lock_bh(&conn->send_lock);
	rc = smc_tx_push_locked(conn, &slot, corkable);
	spin_unlock_bh(&conn->send_lock);
	if (rc == -EAGAIN || rc == -ENOMEM) {
		smc_tx_sched(conn);
		rc = 0;
	}
	return rc;
}

/**
 * smc_tx_push() - send what fits now, corked or not
 * @conn: the connection
 *
 * For uncorking and for CDCs that must go out (flags, cursor updates).
 * Without a free send slot, tx_work sends later.
 *
 * Context: any context.
 * Return: 0 or a negative errno (link down, connection stopped).
 */
int smc_tx_push(struct smc_connection *conn)
{
	return smc_tx_push_common(conn, false);
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_push);

/**
 * smc_tx_pending() - send what fits now unless corking holds it back
 * @conn: the connection
 *
 * Context: any context.
 */
void smc_tx_pending(struct smc_connection *conn)
{
	smc_tx_push_common(conn, true);
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_pending);

/**
 * smc_tx_abort_after_data() - abort once the data written so far is out
 * @conn: the connection
 *
 * As TCP's segments sent before a close() that resets reach the peer
 * ahead of the RST: what the peer's RMBE has room for is written, then
 * the abort flag leaves with the CDC that announces it.  The rest of the
 * send buffer is dropped, as TCP drops its unsent queue.
 *
 * Context: any context.
 * Return: 0 if sent or queued, or a negative errno.
 */
int smc_tx_abort_after_data(struct smc_connection *conn)
{
	spin_lock_bh(&conn->send_lock);
	set_bit(SMC_TX_ABORT_WANTED, &conn->tx_flags);
	set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	spin_unlock_bh(&conn->send_lock);
	return smc_tx_push(conn);
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_abort_after_data);

/**
 * smc_tx_work() - send what a push left for lack of a send slot
 * @work: tx_work of a connection, which holds a reference
 *
 * Context: process context (workqueue).
 */
void smc_tx_work(struct work_struct *work)
{
	struct smc_connection *conn = container_of(to_delayed_work(work),
						   struct smc_connection,
						   tx_work);
	struct smc_wr_tx_slot *slot = NULL;
	struct smc_lgr_link *lnk;
	int rc;

again:
	/*
	 * smc_tx_sched() tests STOPPED without send_lock: a push racing
	 * smc_cdc_conn_stop() can queue us after its cancel, when the
	 * connection may have left its link group and @conn->lnk with it.
	 * STOPPED was set before that cancel, so it is seen here.
	 */
	if (test_bit(SMC_TX_STOPPED, &conn->tx_flags))
		goto out;
	lnk = READ_ONCE(conn->lnk);
	rc = smc_wr_send_slot_get(&lnk->wr, &slot, SMC_WR_SLOT_DATA,
				  SMC_WR_SEND_WAIT);
	if (rc) {
		smc_wr_stalled(&lnk->wr, rc);
		/* a failover queues us again, or the group's end stops us */
		if (smc_wr_link_is_down(&lnk->wr))
			goto out;
		/* stuck: nothing will ever go out */
		spin_lock_bh(&conn->send_lock);
		if (!conn->tx_err)
			conn->tx_err = rc == -EBUSY ? -ETIMEDOUT : rc;
		spin_unlock_bh(&conn->send_lock);
		conn->ops->state_change(conn);
		goto out;
	}
	spin_lock_bh(&conn->send_lock);
	if (conn->lnk != lnk) {
		/* moved to another link while we waited for a slot */
		spin_unlock_bh(&conn->send_lock);
		smc_wr_send_slot_put(&lnk->wr, slot);
		slot = NULL;
		goto again;
	}
	rc = smc_tx_push_locked(conn, &slot, false);
	spin_unlock_bh(&conn->send_lock);
	if (slot)
		smc_wr_send_slot_put(&lnk->wr, slot);
	if (rc == -ENOMEM && !test_bit(SMC_TX_STOPPED, &conn->tx_flags)) {
		/* the reference goes with the work */
		if (queue_delayed_work(smc_tx_wq, &conn->tx_work,
				       SMC_TX_RETRY_DELAY))
			return;
	}
out:
	conn->ops->put(conn);
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_work);

/**
 * smc_tx_sendmsg() - copy data into the send buffer and send it
 * @conn: the connection
 * @msg: the data; MSG_MORE in msg_flags holds it like TCP_CORK, with
 *	MSG_OOB its last byte is urgent data (once all of it is copied)
 * @len: bytes to send
 *
 * Copies as much as the send buffer has room for; the socket layer
 * waits for ops->write_space() and calls again for the rest.
 *
 * Context: process context; the caller serialises senders.
 * Return: bytes copied (> 0), -EAGAIN when the send buffer is full,
 * -ECONNRESET after the peer aborted, -EPIPE once stopped, -EFAULT, or
 * the error that took the link down.
 */
int smc_tx_sendmsg(struct smc_connection *conn, struct msghdr *msg,
		   size_t len)
{
	u32 sndlen = conn->sndbuf_desc->len;
	u8 *buf = conn->sndbuf_desc->cpu_addr;
	union smc_cursor prep;
	size_t copied, first, done;
	u32 space;

	if (READ_ONCE(conn->peer_conn_flags) & SMC_CDC_CONN_ABORT)
		return -ECONNRESET;
	if (test_bit(SMC_TX_STOPPED, &conn->tx_flags))
		return -EPIPE;
	if (READ_ONCE(conn->tx_err))
		return READ_ONCE(conn->tx_err);
	if (!len)
		return 0;
	space = atomic_read(&conn->sndbuf_space);
	if (!space)
		return -EAGAIN;
	copied = min_t(size_t, len, space);
	prep = smc_cursor_read(&conn->tx_curs_prep);
	first = min_t(size_t, copied, sndlen - prep.count);
	done = copy_from_iter(buf + prep.count, first, &msg->msg_iter);
	if (done == first && copied > first)
		done += copy_from_iter(buf, copied - first, &msg->msg_iter);
	if (!done)
		return -EFAULT;
	/* only this sender moves tx_curs_prep; pushes read it */
	smc_cursor_add(sndlen, &prep, done);
	atomic_sub(done, &conn->sndbuf_space);
	spin_lock_bh(&conn->send_lock);
	smc_cursor_write(&conn->tx_curs_prep, prep);
	/* MSG_OOB: the last byte of the whole message is urgent */
	if ((msg->msg_flags & MSG_OOB) && done == len) {
		conn->urg_tx_curs = prep;
		WRITE_ONCE(conn->urg_tx_pend, true);
	}
	spin_unlock_bh(&conn->send_lock);
	/* a push may have sent the urgent byte meanwhile: then no hurry */
	if (READ_ONCE(conn->urg_tx_pend)) {
		smc_tx_pending(conn);
		return done;
	}
	/* MSG_MORE holds this write like TCP_CORK, up to half the buffer */
	if (!(msg->msg_flags & MSG_MORE) ||
	    smc_tx_outq(conn) >= sndlen / 2)
		smc_tx_pending(conn);
	return done;
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_sendmsg);

/**
 * smc_tx_outq() - bytes in the send buffer not yet confirmed sent
 * @conn: the connection
 *
 * For SIOCOUTQ: written by the application, CDC not completed.
 *
 * Context: any context.
 * Return: the byte count.
 */
int smc_tx_outq(struct smc_connection *conn)
{
	return conn->sndbuf_desc->len - atomic_read(&conn->sndbuf_space);
}
EXPORT_SYMBOL_IF_KUNIT(smc_tx_outq);

/**
 * smc_tx_wq_init() - create the workqueue of tx_work
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int smc_tx_wq_init(void)
{
	smc_tx_wq = alloc_workqueue("smc_tx", WQ_MEM_RECLAIM, 0);
	return smc_tx_wq ? 0 : -ENOMEM;
}

/**
 * smc_tx_wq_exit() - destroy it; every connection is gone by now
 *
 * Context: module exit.
 */
void smc_tx_wq_exit(void)
{
	destroy_workqueue(smc_tx_wq);
}
