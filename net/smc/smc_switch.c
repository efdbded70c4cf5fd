// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Failover: a link of a group failed, and its connections move to a
 * link that is left, with no byte lost (failover brief, invariant I1-I8).
 *
 * Every source of a link failure - a completion error, a port or device
 * event, an unanswered TEST_LINK, the peer's DELETE_LINK - marks the
 * link down in its smc_wr layer, and the link's down_work does the rest
 * in process context, never waiting for an LLC flow:
 *
 *   1. the link leaves ACTIVE, so no new connection takes it;
 *   2. its QP goes to ERR and its posted work flushes (the fence: the
 *      old link writes nothing after a byte is written again);
 *   3. each connection on it moves to a link that is left, under its
 *      send_lock: the send cursors go back to the last completed CDC
 *      (smc_tx_rewind()), a validation CDC tells the peer the sequence
 *      number of that CDC, and tx_work writes again what was not
 *      confirmed and sends a CDC with our cursors and flags;
 *   4. the group's flow work deletes the link with the peer (DELETE_LINK,
 *      smc_llc_link.c).
 *
 * With no link left the group ends, as it always did.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include "smc_compat.h"
#include "smc_data.h"
#include "smc_lgr.h"

static atomic_t smc_switch_stats[SMC_SWITCH_NSTATS];
static const char *const smc_switch_stat_names[SMC_SWITCH_NSTATS] = {
	[SMC_SWITCH_FAILOVERS] = "failovers",
	[SMC_SWITCH_GROUP_ENDS] = "group_ends",
	[SMC_SWITCH_CONNS_MOVED] = "conns_moved",
	[SMC_SWITCH_CONNS_NO_RKEY] = "conns_no_rkey",
	[SMC_SWITCH_CONNS_REWRITE] = "conns_rewrite",
	[SMC_SWITCH_LINK_ADDED] = "link_adds",
	[SMC_SWITCH_LINK_ADD_FAILED] = "link_add_fails",
	[SMC_SWITCH_LINK_ADD_RETRY] = "link_add_retries",
	[SMC_SWITCH_LINK_DEL_LOCAL] = "link_dels_local",
	[SMC_SWITCH_LINK_DEL_PEER] = "link_dels_peer",
	[SMC_SWITCH_DOWN_WR_ERROR] = "down_wr_error",
	[SMC_SWITCH_DOWN_PORT] = "down_port",
	[SMC_SWITCH_DOWN_DEVICE] = "down_device",
	[SMC_SWITCH_DOWN_GID] = "down_gid",
	[SMC_SWITCH_DOWN_TESTLINK] = "down_testlink",
	[SMC_SWITCH_DOWN_PEER] = "down_peer",
};

/**
 * smc_switch_count() - count a failover event for debugfs smc/failover
 * @what: SMC_SWITCH_*
 *
 * Context: any.
 */
void smc_switch_count(enum smc_switch_stat what)
{
	atomic_inc(&smc_switch_stats[what]);
}

/**
 * smc_switch_down_cause() - note what takes a link down, if first
 * @lnk: the link
 * @cause: its SMC_SWITCH_DOWN_* counter; the first one set stays until
 *	the link is made again (a port event's flushed work requests fail
 *	after it)
 *
 * Context: any.
 */
void smc_switch_down_cause(struct smc_lgr_link *lnk,
			   enum smc_switch_stat cause)
{
	cmpxchg(&lnk->down_cause, SMC_SWITCH_NSTATS, cause);
}
EXPORT_SYMBOL_IF_KUNIT(smc_switch_down_cause);

/**
 * smc_switch_target() - a link that can carry connections instead of @from
 * @lgr: the group
 * @from: the link to leave out (may be NULL)
 *
 * The one rule for where connections go and where the LLC flows talk:
 * ACTIVE, and not marked down by a failure not handled yet.
 *
 * Context: under lgr->lock (connections moving) or llc_flow_lock (the
 * LLC flows), which keep the answer true while held.
 * Return: the first such link, or NULL.
 */
struct smc_lgr_link *smc_switch_target(struct smc_link_group *lgr,
				       struct smc_lgr_link *from)
{
	int i;

	lockdep_assert(lockdep_is_held(&lgr->lock) ||
		       lockdep_is_held(&lgr->llc_flow_lock));
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		struct smc_lgr_link *lnk = &lgr->lnk[i];

		if (lnk != from && smc_switch_usable(lnk))
			return lnk;
	}
	return NULL;
}

/*
 * The cursors of @conn after a move (failover brief I3, I5): computed
 * under rx_lock too, which the receive path holds while it moves the
 * peer's consumer cursor and our view of the peer's free space.
 */
static void smc_switch_cursors(struct smc_connection *conn)
{
	union smc_cursor sent;
	struct smc_tx_rewind r;

	lockdep_assert_held(&conn->send_lock);
	spin_lock(&conn->rx_lock);
	/* a move before the last one's pushes caught up */
	smc_tx_catch_up(conn);
	r.fin = smc_cursor_read(&conn->tx_curs_fin);
	r.sent = smc_cursor_read(&conn->tx_curs_sent);
	sent = r.sent;
	r.prod = smc_cursor_read(&conn->local_tx_ctrl.prod);
	r.peer_cons = smc_cursor_read(&conn->local_rx_ctrl.cons);
	smc_tx_rewind(conn->sndbuf_desc->len, conn->peer_rmbe_size, &r);
	smc_cursor_write(&conn->tx_curs_fin, r.fin);
	smc_cursor_write(&conn->tx_curs_sent, r.sent);
	smc_cursor_write(&conn->local_tx_ctrl.prod, r.prod);
	atomic_add(r.freed, &conn->sndbuf_space);
	atomic_set(&conn->peer_rmbe_space, r.space);
	spin_unlock(&conn->rx_lock);
	/* bytes written, their CDC not confirmed: they go out again */
	if (smc_cursor_behind(&sent, &r.sent))
		smc_switch_count(SMC_SWITCH_CONNS_REWRITE);
	/*
	 * An urgent byte written again must be marked again: the peer
	 * finds it at the producer cursor of the CDC that carries it.
	 */
	if (test_bit(SMC_TX_URG_WAIT, &conn->tx_flags) &&
	    smc_cursor_behind(&conn->urg_tx_curs, &r.sent)) {
		clear_bit(SMC_TX_URG_WAIT, &conn->tx_flags);
		WRITE_ONCE(conn->urg_tx_pend, true);
	}
}

/* can @conn write into its peer RMBE on @to?  rkey 0: no rtoken there */
static bool smc_switch_rkey_ok(struct smc_connection *conn,
			       struct smc_lgr_link *to)
{
	struct smc_link_group *lgr = conn->lgr;
	bool ok;

	spin_lock(&lgr->rtokens_lock);
	ok = lgr->rtokens[conn->rtoken_idx][to->idx].rkey != 0;
	spin_unlock(&lgr->rtokens_lock);
	return ok;
}

/* move @conn from @from to @to; it holds a reference from ops->hold() */
static void smc_switch_conn(struct smc_connection *conn,
			    struct smc_lgr_link *from, struct smc_lgr_link *to)
{
	struct smc_wr_tx_slot *slot = NULL;
	bool live, resend = false;

	/* the slot for the validation is taken first: it may wait */
	live = READ_ONCE(conn->peer_token) &&
	       !test_bit(SMC_TX_STOPPED, &conn->tx_flags);
	if (live && smc_wr_send_slot_get(&to->wr, &slot, SMC_WR_SLOT_CTRL,
					 SMC_WR_SEND_WAIT))
		slot = NULL;	/* @to failed too: its failover follows */

	spin_lock_bh(&conn->send_lock);
	if (conn->lnk != from)
		goto unlock;
	WRITE_ONCE(conn->lnk, to);
	conn->tx_epoch++;
	if (conn->lnk_counted) {
		atomic_dec(&from->conn_cnt);
		atomic_inc(&to->conn_cnt);
	}
	/* still in its handshake nothing was sent; once stopped, nothing is */
	if (!conn->peer_token || test_bit(SMC_TX_STOPPED, &conn->tx_flags))
		goto unlock;
	if (!smc_switch_rkey_ok(conn, to)) {
		/* never seen from a peer that exchanged the rkeys: abort */
		smc_cdc_tx_conn_flags(conn, SMC_CDC_CONN_ABORT);
		WRITE_ONCE(conn->out_of_sync, true);
		smc_switch_count(SMC_SWITCH_CONNS_NO_RKEY);
	} else {
		smc_switch_cursors(conn);
	}
	if (slot) {
		/* the slot is consumed either way */
		smc_cdc_send_validation(conn, slot);
		slot = NULL;
	}
	set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	resend = true;
	smc_switch_count(SMC_SWITCH_CONNS_MOVED);
unlock:
	spin_unlock_bh(&conn->send_lock);
	if (slot)
		smc_wr_send_slot_put(&to->wr, slot);
	if (!resend)
		return;
	smc_tx_sched(conn);
	/* freed send ring space, or an abort for the socket to see */
	conn->ops->write_space(conn);
	if (READ_ONCE(conn->out_of_sync))
		conn->ops->state_change(conn);
}

/**
 * smc_switch_conns() - move every connection off a failed link
 * @from: the link, no longer ACTIVE and fenced (its QP in ERR)
 *
 * Connections in their handshake and closing ones move too: the former
 * only change links, the latter send again what is not confirmed, with
 * their closing flags.
 *
 * Context: process context, may sleep (a send slot on the new link).
 * Return: the link the connections went to, or NULL if none is left.
 */
struct smc_lgr_link *smc_switch_conns(struct smc_lgr_link *from)
{
	struct smc_link_group *lgr = from->lgr;
	struct smc_connection *conn;
	struct smc_lgr_link *to;
	struct rb_node *n;

	might_sleep();
	for (;;) {
		conn = NULL;
		spin_lock_bh(&lgr->lock);
		to = smc_switch_target(lgr, from);
		for (n = rb_first(&lgr->conns); to && n; n = rb_next(n)) {
			struct smc_connection *c = rb_entry(n,
							    struct smc_connection,
							    node);

			if (READ_ONCE(c->lnk) == from && c->ops) {
				c->ops->hold(c);
				conn = c;
				break;
			}
		}
		spin_unlock_bh(&lgr->lock);
		if (!conn)
			return to;
		/* a moved connection no longer matches: the scan ends */
		smc_switch_conn(conn, from, to);
		conn->ops->put(conn);
	}
}
EXPORT_SYMBOL_IF_KUNIT(smc_switch_conns);

/**
 * smc_switch_link_down_work() - the failover of one link
 * @work: lnk->down_work, which holds a group reference
 *
 * Context: process context, on smc_switch_wq.
 */
void smc_switch_link_down_work(struct work_struct *work)
{
	struct smc_lgr_link *lnk = container_of(work, struct smc_lgr_link,
						down_work);
	struct smc_link_group *lgr = lnk->lgr;
	bool active, alone;
	u32 reason, cause;

	spin_lock_bh(&lgr->lock);
	active = lnk->state == SMC_LNK_ACTIVE;
	if (active)
		lnk->state = SMC_LNK_INACTIVE;	/* no new connection */
	/* a link being added, alone as at a first contact, was the group */
	alone = !smc_switch_target(lgr, lnk) &&
		lnk->state == SMC_LNK_ACTIVATING;
	reason = lnk->down_reason ?: SMC_LLC_DEL_LOST_PATH;
	spin_unlock_bh(&lgr->lock);
	if (READ_ONCE(lgr->torn_down))
		goto out;
	if (!active) {
		/* else its ADD_LINK flow fails and clears it */
		if (alone)
			smc_lgr_terminate_async(lgr, reason);
		goto out;
	}
	wake_up_all(&lnk->llc_wait);
	smc_wr_link_quiesce(&lnk->wr);
	/* a link failed, its connections move or its group ends: why */
	cause = READ_ONCE(lnk->down_cause);
	if (cause < SMC_SWITCH_NSTATS)
		smc_switch_count(cause);
	if (!smc_switch_conns(lnk)) {
		smc_switch_count(SMC_SWITCH_GROUP_ENDS);
		smc_lgr_terminate_async(lgr, reason);
		goto out;
	}
	smc_switch_count(SMC_SWITCH_FAILOVERS);
	smc_llc_link_lost(lnk);
out:
	smc_lgr_put(lgr);
}

/**
 * smc_switch_link_fail() - take a link down and fail it over
 * @lnk: the link
 *
 * For the LLC flows: the peer deletes a link while another is left.
 * Returns once its connections moved (or the group is ending).
 *
 * Context: process context.
 */
void smc_switch_link_fail(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;

	spin_lock_bh(&lgr->lock);
	if (!lnk->down_reason)
		lnk->down_reason = SMC_LLC_DEL_LOST_PATH;
	spin_unlock_bh(&lgr->lock);
	smc_switch_down_cause(lnk, SMC_SWITCH_DOWN_PEER);
	smc_wr_link_down(&lnk->wr, IB_WC_SUCCESS);
	flush_work(&lnk->down_work);
}

/**
 * smc_switch_conn_uncount() - a connection leaves its link's count
 * @conn: the connection, stopped (smc_cdc_conn_stop())
 *
 * Under send_lock, which a failover holds while it moves the count.
 *
 * Context: process context.
 */
void smc_switch_conn_uncount(struct smc_connection *conn)
{
	if (!conn->lnk_counted)
		return;
	spin_lock_bh(&conn->send_lock);
	atomic_dec(&conn->lnk->conn_cnt);
	conn->lnk_counted = false;
	spin_unlock_bh(&conn->send_lock);
}

static int smc_switch_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < SMC_SWITCH_NSTATS; i++)
		seq_printf(m, "%s %d\n", smc_switch_stat_names[i],
			   atomic_read(&smc_switch_stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smc_switch);

/**
 * smc_switch_debugfs_init() - the failover file under /sys/kernel/debug/smc/
 * @root: that directory
 *
 * failover: links that failed over to another link of their group,
 * links that failed with none left (the group ended), connections moved,
 * connections aborted because the peer had no rkey on the new link,
 * second links added and attempts that failed (our offer or the
 * server's, refused or broken), and second links deleted after we saw
 * them fail or after the peer did.
 *
 * Context: module init.
 */
void smc_switch_debugfs_init(struct dentry *root)
{
	debugfs_create_file("failover", 0400, root, NULL, &smc_switch_fops);
}
