// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CDC messages of a connection: sending one with our cursors and flags,
 * and the receive side that moves the peer's cursors into the
 * connection.  The wire format is smc_cdc_wire.c's; see smc_data.h for
 * the contract with the socket layer.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "smc_cdc_wire.h"
#include "smc_compat.h"
#include "smc_data.h"
#include "smc_lgr.h"
#include "smc_test_hooks.h"

/* every link's receive counts added up, for debugfs cdc_rx */
static struct smc_cdc_stats smc_cdc_rx_total;

/* count a received CDC's fate on its link and in the module's total */
#define SMC_CDC_STAT(field)	offsetof(struct smc_cdc_stats, field)
static void smc_cdc_count(struct smc_cdc_stats *st, size_t stat)
{
	atomic_inc((atomic_t *)((u8 *)st + stat));
	atomic_inc((atomic_t *)((u8 *)&smc_cdc_rx_total + stat));
}

/*
 * What the completion of one CDC touches: the connection, pinned by
 * ops->hold(), how far the send buffer may be freed, and the link epoch
 * it was sent in.
 */
struct smc_cdc_tx_pend {
	struct smc_connection	*conn;
	union smc_cursor	sent;
	u16			seqno;
	u8			epoch;
};

/**
 * smc_cdc_conn_init() - set up the data path of a connection
 * @conn: the connection, its buffers and peer RMBE already set
 * @ops: the socket layer's callbacks, which must outlive @conn
 *
 * Context: process context, before @conn is registered in its group.
 */
void smc_cdc_conn_init(struct smc_connection *conn,
		       const struct smc_conn_ops *ops)
{
	conn->ops = ops;
	spin_lock_init(&conn->send_lock);
	spin_lock_init(&conn->rx_lock);
	memset(&conn->local_tx_ctrl, 0, sizeof(conn->local_tx_ctrl));
	memset(&conn->local_rx_ctrl, 0, sizeof(conn->local_rx_ctrl));
	memset(&conn->rx_curs_confirmed, 0, sizeof(conn->rx_curs_confirmed));
	memset(&conn->tx_prod_max, 0, sizeof(conn->tx_prod_max));
	memset(&conn->tx_curs_prep, 0, sizeof(conn->tx_curs_prep));
	memset(&conn->tx_curs_sent, 0, sizeof(conn->tx_curs_sent));
	memset(&conn->tx_curs_fin, 0, sizeof(conn->tx_curs_fin));
	memset(&conn->urg_curs, 0, sizeof(conn->urg_curs));
	atomic_set(&conn->sndbuf_space, conn->sndbuf_desc->len);
	atomic_set(&conn->peer_rmbe_space, conn->peer_rmbe_size);
	atomic_set(&conn->bytes_to_rcv, 0);
	atomic_set(&conn->cdc_pend, 0);
	conn->rmbe_update_limit = smc_rmb_update_limit(conn->rmb_desc->len);
	conn->tx_cdc_seq = 0;
	conn->tx_cdc_seq_fin = 0;
	conn->urg_state = SMC_URG_NONE;
	conn->peer_conn_flags = 0;
	conn->tx_flags = 0;
	conn->tx_err = 0;
	conn->urg_tx_pend = false;
	conn->tx_autocork_size = SMC_TX_AUTOCORK_DEFAULT;
	INIT_DELAYED_WORK(&conn->tx_work, smc_tx_work);
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_conn_init);

/**
 * smc_cdc_conn_stop() - post nothing more for a connection
 * @conn: the connection
 *
 * A CDC that a push left to tx_work for want of a free send slot goes
 * out first: it may carry the close protocol's last flags ("closed",
 * "abort"), which the peer waits for.  tx_work waits for a slot for at
 * most SMC_WR_SEND_WAIT.  CDCs already posted still complete and drop
 * their references.
 *
 * Context: process context; may sleep (bounded).
 */
void smc_cdc_conn_stop(struct smc_connection *conn)
{
	might_sleep();
	if (test_bit(SMC_TX_CDC_WANTED, &conn->tx_flags))
		flush_delayed_work(&conn->tx_work);
	spin_lock_bh(&conn->send_lock);
	set_bit(SMC_TX_STOPPED, &conn->tx_flags);
	spin_unlock_bh(&conn->send_lock);
	if (cancel_delayed_work_sync(&conn->tx_work))
		conn->ops->put(conn);
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_conn_stop);

/**
 * smc_cdc_conn_kill() - the link group died under the connection
 * @conn: a connection registered in the dying group
 *
 * Nothing more is sent; the socket learns it through ops->state_change()
 * and aborts.
 *
 * Context: any but hard interrupt; the caller holds conn->lgr->lock.
 */
void smc_cdc_conn_kill(struct smc_connection *conn)
{
	WRITE_ONCE(conn->killed, true);
	if (!conn->ops)
		return;
	set_bit(SMC_TX_STOPPED, &conn->tx_flags);
	conn->ops->state_change(conn);
}

/**
 * smc_cdc_conn_get() - the connection a received CDC is for
 * @lgr: the link group of the link it arrived on
 * @token: the alert token in it (our local token)
 *
 * Context: any context; takes @lgr->lock.
 * Return: the connection with a reference from ops->hold(), or NULL.
 */
struct smc_connection *smc_cdc_conn_get(struct smc_link_group *lgr,
					u32 token)
{
	struct smc_connection *conn;

	spin_lock_bh(&lgr->lock);
	conn = smc_lgr_conn_find(lgr, token);
	if (conn && conn->ops)
		conn->ops->hold(conn);
	else
		conn = NULL;
	spin_unlock_bh(&lgr->lock);
	return conn;
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_conn_get);

static void smc_cdc_tx_done(struct smc_link *wrlnk, void *priv,
			    enum ib_wc_status status)
{
	struct smc_cdc_tx_pend *pend = priv;
	struct smc_connection *conn = pend->conn;
	union smc_cursor fin;
	bool idle, moved, stopped;
	u32 freed = 0;

	spin_lock_bh(&conn->send_lock);
	/*
	 * Once stopped, the connection may have given its buffers back.
	 * A completion from before a move to another link says nothing
	 * about the cursors, which the move rewound.  A failed one took
	 * its link down, and the failover moves the connection or ends
	 * the group: it is no error of the connection's.
	 */
	stopped = test_bit(SMC_TX_STOPPED, &conn->tx_flags);
	moved = pend->epoch != conn->tx_epoch;
	if (stopped || moved || status != IB_WC_SUCCESS) {
		idle = atomic_dec_and_test(&conn->cdc_pend);
		spin_unlock_bh(&conn->send_lock);
		/* autocorking may hold sends until no CDC is in flight */
		if (idle && moved && !stopped)
			smc_tx_pending(conn);
		goto out;
	}
	fin = smc_cursor_read(&conn->tx_curs_fin);
	/* completions come in order; never move back regardless */
	if (!smc_cursor_behind(&fin, &pend->sent)) {
		freed = smc_cursor_diff(conn->sndbuf_desc->len, &fin,
					&pend->sent);
		smc_cursor_write(&conn->tx_curs_fin, pend->sent);
		conn->tx_cdc_seq_fin = pend->seqno;
		atomic_add(freed, &conn->sndbuf_space);
	}
	idle = atomic_dec_and_test(&conn->cdc_pend);
	spin_unlock_bh(&conn->send_lock);

	/* what autocorking held back while this was in flight */
	smc_tx_pending(conn);
	if (freed || idle)
		conn->ops->write_space(conn);
out:
	kfree(pend);
	conn->ops->put(conn);
}

/**
 * smc_cdc_send_locked() - send a CDC with the connection's current state
 * @conn: the connection
 * @slot: a send slot of @conn->lnk, consumed either way
 *
 * The message carries our producer cursor into the peer's RMBE, our
 * consumer cursor of our RMBE (a piggy-backed acknowledgment) and our
 * flags.  The send buffer up to tx_curs_sent is freed when it completes.
 *
 * Context: any context; @conn->send_lock held.
 * Return: 0 or a negative errno.
 */
int smc_cdc_send_locked(struct smc_connection *conn,
			struct smc_wr_tx_slot *slot)
{
	struct smc_cdc_tx_pend *pend;
	struct smc_cdc_msg_info m;
	int rc;

	lockdep_assert_held(&conn->send_lock);
	pend = smc_test_cdc_nomem() ? NULL : kmalloc(sizeof(*pend), GFP_ATOMIC);
	if (!pend) {
		/*
		 * Writes may be posted already, and only a CDC announces
		 * them: the retry from tx_work must send one.
		 */
		set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
		smc_wr_send_slot_put(&conn->lnk->wr, slot);
		return -ENOMEM;
	}
	m.seqno = conn->tx_cdc_seq + 1;
	m.token = conn->peer_token;
	m.prod = smc_cursor_read(&conn->local_tx_ctrl.prod);
	m.cons = smc_cursor_read(&conn->local_tx_ctrl.cons);
	m.prod_flags = conn->local_tx_ctrl.prod_flags;
	m.conn_flags = conn->local_tx_ctrl.conn_flags;
	smc_cdc_encode(smc_wr_slot_buf(slot), &m);

	pend->conn = conn;
	pend->sent = smc_cursor_read(&conn->tx_curs_sent);
	pend->seqno = m.seqno;
	pend->epoch = conn->tx_epoch;
	conn->ops->hold(conn);
	atomic_inc(&conn->cdc_pend);
	rc = smc_wr_send(&conn->lnk->wr, slot, smc_cdc_tx_done, pend);
	if (rc) {
		atomic_dec(&conn->cdc_pend);
		kfree(pend);
		conn->ops->put(conn);
		return rc;
	}
	conn->tx_cdc_seq = m.seqno;
	conn->local_tx_ctrl.seqno = m.seqno;
	smc_cursor_write(&conn->rx_curs_confirmed, m.cons);
	clear_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	/* the urgent flags go out on one CDC only (protocol 6.4), and so
	 * does a request for the peer's cursor
	 */
	smc_cdc_tx_prod_flags(conn, 0, SMC_CDC_PROD_URG_PENDING |
			      SMC_CDC_PROD_URG_PRESENT |
			      SMC_CDC_PROD_CONS_UPD_REQ);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_send_locked);

/**
 * smc_cdc_send_validation() - the failover check after a move to a link
 * @conn: the connection, on its new link
 * @slot: a send slot of @conn->lnk, consumed either way
 *
 * The message carries only the token, the failover flag and the
 * sequence number of our last CDC that completed on the old link: a
 * peer that never took that one lost cursors with it and aborts the
 * connection (protocol reference 2.7).  Its sequence number is no new
 * one, and it pins nothing: its completion touches nothing.
 *
 * Context: any context; @conn->send_lock held.
 * Return: 0 or a negative errno.
 */
int smc_cdc_send_validation(struct smc_connection *conn,
			    struct smc_wr_tx_slot *slot)
{
	struct smc_cdc_msg_info m = {
		.seqno = conn->tx_cdc_seq_fin,
		.token = conn->peer_token,
		.prod_flags = SMC_CDC_PROD_FAILOVER,
	};

	lockdep_assert_held(&conn->send_lock);
	smc_cdc_encode(smc_wr_slot_buf(slot), &m);
	return smc_wr_send(&conn->lnk->wr, slot, NULL, NULL);
}

/**
 * smc_cdc_send_flags() - send connection state flags to the peer
 * @conn: the connection
 * @conn_flags: SMC_CDC_CONN_* to add; they stay set in later CDCs
 *
 * For the close code: it sends SMC_CDC_CONN_DONE_WRITING only once
 * smc_tx_outq() is 0, since the flag tells the peer no data follows.
 * The CDC goes out now if a send slot is free, else from tx_work.
 *
 * Context: any context.
 * Return: 0 if sent or queued, or a negative errno.
 */
int smc_cdc_send_flags(struct smc_connection *conn, u8 conn_flags)
{
	spin_lock_bh(&conn->send_lock);
	smc_cdc_tx_conn_flags(conn, conn_flags & SMC_CDC_CONN_MASK);
	set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	spin_unlock_bh(&conn->send_lock);
	return smc_tx_push(conn);
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_send_flags);

/* is @prod a place the peer may have written up to, given our reader? */
static bool smc_cdc_prod_ok(const union smc_cursor *cons,
			    const union smc_cursor *prod)
{
	u16 laps = prod->wrap - cons->wrap;

	if (laps == 0)
		return prod->count >= cons->count;
	return laps == 1 && prod->count <= cons->count;
}

/*
 * The urgent byte sits just before the producer cursor (6.4).  @urg: the
 * message's urgent flags, URG_PRESENT only if it brought new data: a CDC
 * that moves no cursor (a resend after a link switch, a consumer update
 * from a peer that keeps the flag set) marks no new urgent byte, as
 * upstream takes it.
 */
static void smc_cdc_rx_urg(struct smc_connection *conn,
			   const struct smc_cdc_msg_info *m, u8 urg)
{
	u32 size = conn->rmb_desc->len;
	u32 pos = m->prod.count ? m->prod.count - 1 : size - 1;

	lockdep_assert_held(&conn->rx_lock);
	if (urg & SMC_CDC_PROD_URG_PRESENT) {
		conn->urg_rx_byte = ((u8 *)conn->rmb_desc->cpu_addr)[pos];
		smc_cursor_write(&conn->urg_curs, m->prod);
		WRITE_ONCE(conn->urg_state, SMC_URG_VALID);
	} else if (urg & SMC_CDC_PROD_URG_PENDING) {
		WRITE_ONCE(conn->urg_state, SMC_URG_PENDING);
	}
}

/*
 * Apply a checked CDC to @conn.  Return: 0; -EAGAIN for an old one,
 * dropped; -EPROTO for cursors no sender in step with us can send,
 * dropped, and the connection must end: it could wait for ever on a peer
 * whose every later CDC fails the same checks, its ABORT among them.
 */
static int smc_cdc_rx_conn(struct smc_connection *conn,
			   struct smc_cdc_stats *st,
			   const struct smc_cdc_msg_info *m, u32 *got,
			   u32 *freed, u8 *new_flags)
{
	struct smc_host_cursors *rx = &conn->local_rx_ctrl;
	union smc_cursor cons, prod, m_prod, m_cons;
	u32 rmbe_size = conn->rmb_desc->len;
	bool rewound = false;
	int rc = -EPROTO;
	u32 peer_size;
	u8 urg;

	spin_lock_bh(&conn->rx_lock);
	if (smc_cdc_seq_old(m->seqno, rx->seqno)) {
		smc_cdc_count(st, SMC_CDC_STAT(rx_old_seq));
		rc = -EAGAIN;
		goto drop;
	}
	peer_size = READ_ONCE(conn->peer_rmbe_size);
	/*
	 * A client writes right after its Confirm, so its first CDCs may
	 * come before our handshake took the Confirm and with it the size
	 * of the client's RMB: until then it cannot have consumed anything
	 * of ours, and its consumer cursor must be 0.
	 */
	if (!smc_cursor_valid(rmbe_size, &m->prod) ||
	    (peer_size ? !smc_cursor_valid(peer_size, &m->cons) :
			 m->cons.wrap || m->cons.count)) {
		smc_cdc_count(st, SMC_CDC_STAT(rx_bad));
		goto drop;
	}
	/*
	 * A cursor behind the last one is kept as it was: after a switch
	 * to another link the peer rewrites from its last CDC that
	 * completed; the rest of the message counts.  Forward, a cursor
	 * moves by at most what the ring holds.
	 */
	m_prod = m->prod;
	m_cons = m->cons;
	if (smc_cursor_behind(&rx->prod, &m_prod)) {
		m_prod = rx->prod;
		rewound = true;
	}
	if (smc_cursor_behind(&rx->cons, &m_cons)) {
		m_cons = rx->cons;
		rewound = true;
	}
	cons = smc_cursor_read(&conn->local_tx_ctrl.cons);
	/*
	 * After our move to another link the peer may consume what we
	 * wrote on the old one beyond our rewound producer cursor: that
	 * far it got data from us; the next push catches up with it.
	 */
	prod = smc_cursor_read(&conn->tx_prod_max);
	if (!smc_cdc_prod_ok(&cons, &m_prod) ||
	    smc_cursor_comp(peer_size, &m_cons, &prod) < 0) {
		smc_cdc_count(st, SMC_CDC_STAT(rx_backwards));
		goto drop;
	}
	if (rewound)
		smc_cdc_count(st, SMC_CDC_STAT(rx_rewound));
	*got = smc_cursor_diff(rmbe_size, &rx->prod, &m_prod);
	*freed = smc_cursor_diff(peer_size, &rx->cons, &m_cons);
	*new_flags = m->conn_flags & ~conn->peer_conn_flags;
	if (((m->seqno - rx->seqno) & 0xffff) > 1)
		smc_cdc_count(st, SMC_CDC_STAT(rx_seq_jump));
	rx->seqno = m->seqno;
	/* diag, recvmsg and poll read the flags without the lock */
	WRITE_ONCE(rx->prod_flags, m->prod_flags);
	WRITE_ONCE(rx->conn_flags, m->conn_flags);
	smc_cursor_write(&rx->cons, m_cons);
	urg = m->prod_flags & (SMC_CDC_PROD_URG_PENDING |
			       SMC_CDC_PROD_URG_PRESENT);
	if (!*got)
		urg &= ~SMC_CDC_PROD_URG_PRESENT;
	if (urg)
		smc_cdc_rx_urg(conn, m, urg);
	WRITE_ONCE(conn->peer_conn_flags, conn->peer_conn_flags | m->conn_flags);
	atomic_add(*freed, &conn->peer_rmbe_space);
	/* the data landed before this CDC (RC ordering): publish it */
	smp_mb__before_atomic();
	smc_cursor_write(&rx->prod, m_prod);
	atomic_add(*got, &conn->bytes_to_rcv);
	spin_unlock_bh(&conn->rx_lock);
	return 0;
drop:
	spin_unlock_bh(&conn->rx_lock);
	return rc;
}

/* no CDC of @conn is taken any more, and the close protocol aborts it */
static void smc_cdc_rx_out_of_sync(struct smc_connection *conn)
{
	WRITE_ONCE(conn->out_of_sync, true);
	conn->ops->state_change(conn);
}

/*
 * A peer that moved the connection to another link sends, flagged, the
 * sequence number of its last CDC that completed on the old one: one we
 * never took was lost with its cursors, and the connection is aborted.
 * An older number says nothing.
 */
static void smc_cdc_rx_validate(struct smc_connection *conn,
				struct smc_cdc_stats *st,
				const struct smc_cdc_msg_info *m)
{
	bool lost;

	spin_lock_bh(&conn->rx_lock);
	lost = smc_cdc_seq_old(conn->local_rx_ctrl.seqno, m->seqno);
	spin_unlock_bh(&conn->rx_lock);
	if (!lost)
		return;
	smc_cdc_count(st, SMC_CDC_STAT(rx_out_of_sync));
	smc_cdc_rx_out_of_sync(conn);
}

/**
 * smc_cdc_rx_handler() - a CDC message arrived on a link
 * @wrlnk: the link, embedded in a struct smc_lgr_link
 * @buf: the message, valid during the call
 * @len: its length
 *
 * The link-group layer installs this as its smc_wr_ops.cdc_rx.  Drops
 * are counted in the link's cdc_stats.
 *
 * Context: softirq context (the receive completion).
 */
void smc_cdc_rx_handler(struct smc_link *wrlnk, const u8 *buf,
			unsigned int len)
{
	struct smc_lgr_link *lnk = container_of(wrlnk, struct smc_lgr_link,
						wr);
	struct smc_cdc_stats *st = &lnk->cdc_stats;
	struct smc_connection *conn;
	struct smc_cdc_msg_info m;
	u32 got = 0, freed = 0;
	u8 new_flags = 0;
	int rc;

	if (smc_cdc_decode(buf, len, &m)) {
		smc_cdc_count(st, SMC_CDC_STAT(rx_bad));
		return;
	}
	conn = smc_cdc_conn_get(lnk->lgr, m.token);
	if (!conn) {
		smc_cdc_count(st, SMC_CDC_STAT(rx_unknown_token));
		return;
	}
	if (READ_ONCE(conn->out_of_sync))
		goto out;
	if (m.prod_flags & SMC_CDC_PROD_FAILOVER) {
		smc_cdc_rx_validate(conn, st, &m);
		goto out;
	}
	rc = smc_cdc_rx_conn(conn, st, &m, &got, &freed, &new_flags);
	if (rc == -EPROTO)
		smc_cdc_rx_out_of_sync(conn);
	if (rc)
		goto out;

	/* once per urgent byte (its flags come on one CDC), before a reader
	 * that polls for it wakes up
	 */
	if (got && (m.prod_flags & SMC_CDC_PROD_URG_PRESENT))
		conn->ops->urgent(conn);
	if (got)
		conn->ops->data_ready(conn);
	if (m.prod_flags & SMC_CDC_PROD_CONS_UPD_REQ) {
		/* honoured, although Linux never asks */
		set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	}
	if (m.prod_flags & (SMC_CDC_PROD_WRITE_BLOCKED |
			    SMC_CDC_PROD_CONS_UPD_REQ))
		smc_rx_cons_update(conn, false);
	/* freed space or a request lets our own pending sends go */
	if (freed || (m.prod_flags & (SMC_CDC_PROD_WRITE_BLOCKED |
				      SMC_CDC_PROD_CONS_UPD_REQ)))
		smc_tx_pending(conn);
	if (freed)
		conn->ops->write_space(conn);
	if (new_flags || (got && (m.prod_flags & SMC_CDC_PROD_URG_PRESENT)))
		conn->ops->state_change(conn);
out:
	conn->ops->put(conn);
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_rx_handler);

static int smc_cdc_rx_show(struct seq_file *m, void *v)
{
	const struct smc_cdc_stats *t = &smc_cdc_rx_total;

	seq_printf(m, "bad %d\n", atomic_read(&t->rx_bad));
	seq_printf(m, "unknown_token %d\n", atomic_read(&t->rx_unknown_token));
	seq_printf(m, "old_seq %d\n", atomic_read(&t->rx_old_seq));
	seq_printf(m, "backwards %d\n", atomic_read(&t->rx_backwards));
	seq_printf(m, "seq_jump %d\n", atomic_read(&t->rx_seq_jump));
	seq_printf(m, "rewound %d\n", atomic_read(&t->rx_rewound));
	seq_printf(m, "out_of_sync %d\n", atomic_read(&t->rx_out_of_sync));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smc_cdc_rx);

/**
 * smc_cdc_debugfs_init() - the CDC files under /sys/kernel/debug/smc/
 * @root: that directory
 *
 * cdc_rx: received CDC messages dropped, by reason, and accepted ones
 * whose sequence number jumped, since the module loaded.
 *
 * Context: module init.
 */
void smc_cdc_debugfs_init(struct dentry *root)
{
	debugfs_create_file("cdc_rx", 0400, root, NULL, &smc_cdc_rx_fops);
}
