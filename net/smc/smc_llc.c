// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * LLC on the links of a link group (protocol reference 5): the receive
 * side, the first-contact CONFIRM_LINK exchange, the rkey flows and the
 * TEST_LINK keepalive.  Messages are built and parsed by smc_llc_wire.c
 * only.
 *
 * Receive: smc_wr hands us messages in softirq context; they are copied
 * to the group's list and handled in order by the group's LLC receive
 * work in process context.  A flow waiting for a message (lnk->llc_want)
 * gets it copied to lnk->llc_resp; one-shot requests (TEST_LINK, the
 * rkey requests) are answered there; the requests that start a flow of
 * several messages (ADD_LINK, DELETE_LINK, REQ_ADD_LINK) go to the
 * group's flow work (smc_llc_link.c).  The receive work never takes
 * llc_flow_lock: a flow holding it waits for messages only the receive
 * work can hand over.
 */

#define pr_fmt(fmt) "smc: " fmt

#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "smc.h"
#include "smc_clc_wire.h"
#include "smc_compat.h"
#include "smc_data.h"
#include "smc_lgr.h"
#include "smc_llc.h"

#define SMC_LLC_RX_QUEUE_MAX	64	/* messages waiting for the work */
#define SMC_LLC_FLOW_QUEUE_MAX	8	/* requests waiting for the flow work */
#define SMC_LLC_TESTLINK_WAIT	(2 * HZ)

/*
 * Received LLC messages of all groups since the module loaded, for
 * debugfs llc_rx: the requests handled, and the drops by reason (each
 * group counts its own drops as well).
 */
static struct {
	atomic_t	requests;
	atomic_t	unknown;
	atomic_t	dropped;
	atomic_t	late;
} smc_llc_rx_total;

static void smc_llc_drop(atomic_t *lgr_cnt, atomic_t *total)
{
	atomic_inc(lgr_cnt);
	atomic_inc(total);
}

/**
 * smc_llc_count_late() - count a response no flow waits for any more
 * @lgr: the group it came for
 *
 * Context: any.
 */
void smc_llc_count_late(struct smc_link_group *lgr)
{
	smc_llc_drop(&lgr->llc_late, &smc_llc_rx_total.late);
}

static struct smc_lgr_link *smc_llc_lnk(struct smc_link *wr)
{
	return container_of(wr, struct smc_lgr_link, wr);
}

static u8 smc_llc_version(const struct smc_link_group *lgr)
{
	return lgr->smc_version == SMC_CLC_V2 ? SMC_LLC_V2 : SMC_LLC_V1;
}

/* --- sending -------------------------------------------------------------- */

/* pins what a waited-for SEND completion touches */
struct smc_llc_sent {
	struct kref		ref;
	struct completion	done;
	enum ib_wc_status	status;
};

static void smc_llc_sent_release(struct kref *ref)
{
	kfree(container_of(ref, struct smc_llc_sent, ref));
}

static void smc_llc_sent_done(struct smc_link *lnk, void *priv,
			      enum ib_wc_status status)
{
	struct smc_llc_sent *s = priv;

	s->status = status;
	complete(&s->done);
	kref_put(&s->ref, smc_llc_sent_release);
}

/**
 * smc_llc_send_msg() - send an LLC message
 * @lnk: the link it goes on
 * @m: the message
 * @sent: NULL, or where the SEND's completion is reported
 *
 * A 44-byte slot, or the v2 buffer for longer v2 messages.  A wait for
 * a send slot that times out takes the link down.
 *
 * Context: process context; may sleep for a send slot.
 * Return: 0 once posted, else a negative errno.
 */
int smc_llc_send_msg(struct smc_lgr_link *lnk, const struct smc_llc_msg_info *m,
		     struct smc_llc_sent *sent)
{
	enum smc_llc_order order = READ_ONCE(lnk->lgr->llc_order);
	smc_wr_tx_done_t done = sent ? smc_llc_sent_done : NULL;
	struct smc_wr_tx_slot *slot;
	int rc, len;
	u8 *buf;

	rc = smc_wr_send_slot_get(&lnk->wr, &slot, SMC_WR_SLOT_CTRL,
				  SMC_WR_SEND_WAIT);
	if (rc)
		goto no_slot;
	len = smc_llc_encode(smc_wr_slot_buf(slot), SMC_WR_TX_SIZE, m, order);
	if (len == -EMSGSIZE && m->version == SMC_LLC_V2) {
		smc_wr_send_slot_put(&lnk->wr, slot);
		rc = smc_wr_send_v2_get(&lnk->wr, &slot, &buf,
					SMC_WR_SEND_WAIT);
		if (rc)
			goto no_slot;
		len = smc_llc_encode(buf, SMC_WR_BUF_V2_SIZE, m, order);
		if (len < 0) {
			smc_wr_send_slot_put(&lnk->wr, slot);
			return len;
		}
		if (sent)
			kref_get(&sent->ref);
		rc = smc_wr_send_v2(&lnk->wr, slot, len, done, sent);
		goto out;
	}
	if (len < 0) {
		smc_wr_send_slot_put(&lnk->wr, slot);
		return len;
	}
	if (sent)
		kref_get(&sent->ref);
	rc = smc_wr_send(&lnk->wr, slot, done, sent);
out:
	if (rc && sent)
		kref_put(&sent->ref, smc_llc_sent_release);
	return rc;
no_slot:
	smc_wr_stalled(&lnk->wr, rc);
	return rc;
}

/**
 * smc_llc_init_msg() - an empty message of the group's LLC version
 * @lnk: the link it goes on
 * @m: the message to fill in
 * @type: SMC_LLC_*
 * @flags: SMC_LLC_FLAG_*
 *
 * Context: any.
 */
void smc_llc_init_msg(struct smc_lgr_link *lnk, struct smc_llc_msg_info *m,
		      u8 type, u8 flags)
{
	memset(m, 0, sizeof(*m));
	m->type = type;
	m->version = smc_llc_version(lnk->lgr);
	m->flags = flags;
}

/**
 * smc_llc_send_wait() - send an LLC message and wait for it to go out
 * @lnk: the link it goes on
 * @m: the message
 *
 * For a message that must not be flushed by the link's destruction
 * right after.
 *
 * Context: process context; sleeps up to SMC_LLC_WAIT_TIME.
 * Return: 0 once it went out, else a negative errno.
 */
int smc_llc_send_wait(struct smc_lgr_link *lnk,
		      const struct smc_llc_msg_info *m)
{
	struct smc_llc_sent *s;
	int rc;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	kref_init(&s->ref);
	init_completion(&s->done);
	rc = smc_llc_send_msg(lnk, m, s);
	if (!rc && !wait_for_completion_timeout(&s->done, SMC_LLC_WAIT_TIME))
		rc = -ETIMEDOUT;
	if (!rc && s->status != IB_WC_SUCCESS)
		rc = -ENOLINK;
	kref_put(&s->ref, smc_llc_sent_release);
	return rc;
}

/**
 * smc_llc_send_delete_all() - DELETE_LINK ALL on a usable link
 * @lgr: the group, being torn down
 * @orderly: set ORDERLY (idle free), else an abnormal termination
 * @reason: SMC_LLC_DEL_*
 *
 * Tries the links in turn until one carried it: the peer needs it once,
 * as the reference implementation sends it.  Waits (bounded) for each
 * SEND to complete, so that the link's destruction right after does not
 * flush it.
 *
 * Context: process context.
 * Return: 1 if the message went out, else 0.
 */
int smc_llc_send_delete_all(struct smc_link_group *lgr, bool orderly,
			    u32 reason)
{
	struct smc_llc_msg_info m;
	int i;

	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		struct smc_lgr_link *lnk = &lgr->lnk[i];

		if (lnk->state == SMC_LNK_UNUSED ||
		    lnk->wr.qp_state != SMC_WR_QP_RTS)
			continue;
		smc_llc_init_msg(lnk, &m, SMC_LLC_DELETE_LINK,
				 SMC_LLC_FLAG_DEL_LINK_ALL |
				 (orderly ? SMC_LLC_FLAG_DEL_LINK_ORDERLY : 0));
		m.delete_link.reason = reason;
		if (!smc_llc_send_wait(lnk, &m))
			return 1;
	}
	return 0;
}

/* --- waiting for a message ------------------------------------------------ */

/**
 * smc_llc_want() - announce the message a flow waits for on a link
 * @lnk: the link it comes on
 * @key: smc_llc_key() of it, 0 for none
 * @keep_early: keep a message of that key that came already
 *
 * Announced before the request goes out, so that a fast answer is not
 * taken for a late one.
 *
 * Context: process context.
 */
void smc_llc_want(struct smc_lgr_link *lnk, u8 key, bool keep_early)
{
	struct smc_llc_qentry *old;

	spin_lock_bh(&lnk->lgr->llc_rx_lock);
	lnk->llc_want = key;
	if (!keep_early || lnk->llc_resp_type != key)
		lnk->llc_resp_type = 0;
	/* what the previous wait decoded from it has been used */
	old = lnk->llc_resp_long;
	lnk->llc_resp_long = NULL;
	spin_unlock_bh(&lnk->lgr->llc_rx_lock);
	kfree(old);
}

/**
 * smc_llc_wait() - wait for the message announced by smc_llc_want()
 * @lnk: the link it comes on
 * @key: its smc_llc_key()
 * @timeout: in jiffies
 * @cancel: NULL, or a flag that ends the wait when it turns true; its
 *	setter wakes lnk->llc_wait
 * @m: the message, decoded; the rkeys of a long v2 ADD_LINK point into
 *	lnk->llc_resp_long, valid until the next smc_llc_want() on @lnk
 *
 * Context: process context; sleeps up to @timeout.
 * Return: 0, -ETIMEDOUT, -ENOLINK if the link or group went down,
 * -EINTR if cancelled, or the decoder's error.
 */
int smc_llc_wait(struct smc_lgr_link *lnk, u8 key, long timeout,
		 const bool *cancel, struct smc_llc_msg_info *m)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_qentry *whole = NULL;
	u8 resp[SMC_WR_TX_SIZE];
	bool got;

	wait_event_timeout(lnk->llc_wait,
			   READ_ONCE(lnk->llc_resp_type) == key ||
			   READ_ONCE(lgr->terminating) ||
			   test_bit(SMC_WR_LINK_DOWN, &lnk->wr.flags) ||
			   (cancel && READ_ONCE(*cancel)),
			   timeout);
	spin_lock_bh(&lgr->llc_rx_lock);
	got = lnk->llc_resp_type == key;
	if (got) {
		memcpy(resp, lnk->llc_resp, sizeof(resp));
		whole = lnk->llc_resp_long;
	}
	lnk->llc_want = 0;
	lnk->llc_resp_type = 0;
	spin_unlock_bh(&lgr->llc_rx_lock);
	/* only this flow replaces or frees @whole: it holds llc_flow_lock */
	if (whole)
		return smc_llc_decode(whole->buf, whole->len, m);
	if (got)
		return smc_llc_decode(resp, sizeof(resp), m);
	if (READ_ONCE(lgr->terminating) ||
	    test_bit(SMC_WR_LINK_DOWN, &lnk->wr.flags))
		return -ENOLINK;
	return cancel && READ_ONCE(*cancel) ? -EINTR : -ETIMEDOUT;
}

/**
 * smc_llc_xchg() - send a request and wait for its response
 * @lnk: the link both go on
 * @req: the request
 * @timeout: in jiffies
 * @cancel: as for smc_llc_wait()
 * @resp: the response, decoded
 *
 * Context: process context; sleeps up to @timeout.
 * Return: as smc_llc_wait(), or the send's error.
 */
int smc_llc_xchg(struct smc_lgr_link *lnk, const struct smc_llc_msg_info *req,
		 long timeout, const bool *cancel,
		 struct smc_llc_msg_info *resp)
{
	u8 key = smc_llc_key(req->type, SMC_LLC_FLAG_RESP);
	int rc;

	smc_llc_want(lnk, key, false);
	rc = smc_llc_send_msg(lnk, req, NULL);
	if (rc) {
		smc_llc_want(lnk, 0, false);
		return rc;
	}
	return smc_llc_wait(lnk, key, timeout, cancel, resp);
}

/* --- first contact -------------------------------------------------------- */

/**
 * smc_llc_link_active() - a link is confirmed
 * @lnk: the link
 * @type: the group's type with it
 *
 * Context: process context, llc_flow_lock held.
 */
void smc_llc_link_active(struct smc_lgr_link *lnk, enum smc_lgr_type type)
{
	struct smc_link_group *lgr = lnk->lgr;

	lockdep_assert_held(&lgr->llc_flow_lock);
	spin_lock_bh(&lgr->lock);
	lnk->state = SMC_LNK_ACTIVE;
	spin_unlock_bh(&lgr->lock);
	smc_lgr_set_type(lgr, type);
	/* connections racing this first contact may use the group now */
	smc_lgr_link_activated();
	smc_llc_testlink_start(lnk);
}

/**
 * smc_llc_confirm_msg() - CONFIRM_LINK for a link
 * @lnk: the link it confirms and goes on
 * @m: the message to fill in
 * @flags: SMC_LLC_FLAG_RESP for the client's answer, else 0
 *
 * Context: any.
 */
void smc_llc_confirm_msg(struct smc_lgr_link *lnk, struct smc_llc_msg_info *m,
			 u8 flags)
{
	struct smc_link_group *lgr = lnk->lgr;

	smc_llc_init_msg(lnk, m, SMC_LLC_CONFIRM_LINK,
			 flags | SMC_LLC_FLAG_NO_RMBE_EYEC);
	ether_addr_copy(m->confirm_link.mac, lnk->wr.mac);
	memcpy(m->confirm_link.gid, lnk->wr.gid.raw, SMC_LLC_GID_SIZE);
	m->confirm_link.qpn = lnk->wr.qp->qp_num;
	m->confirm_link.link_num = lnk->link_id;
	m->confirm_link.link_uid = lnk->link_uid;
	m->confirm_link.max_links = lgr->max_links;
	/* the byte is reserved before SMC-Rv2.1 */
	if (lgr->smc_version == SMC_CLC_V2 && lgr->release >= 1)
		m->confirm_link.max_conns = lgr->max_conns;
}

/**
 * smc_llc_link_ready() - a new link's QP to RTS, the buffers onto it
 * @lnk: the link, its peer set (smc_lgr_link_set_peer())
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int smc_llc_link_ready(struct smc_lgr_link *lnk)
{
	int rc = 0;

	if (lnk->wr.qp_state == SMC_WR_QP_INIT)
		rc = smc_lgr_link_rtr(lnk);
	if (!rc)
		rc = smc_wr_qp_to_rts(&lnk->wr);
	if (!rc)
		rc = smc_buf_reg_link(lnk);
	return rc;
}

/**
 * smc_llc_confirm_link_serv() - server side of the first link's confirm
 * @lnk: the new link, ACTIVATING, the peer's CLC values set
 * @cancel: NULL, or a flag that ends the wait for the response when it
 *	turns true; its setter wakes lnk->llc_wait
 *
 * QP to RTS, the RMBs registered, the CONFIRM_LINK request sent; with
 * the response the link is ACTIVE and the group SINGLE, and the flow
 * work offers the client a second link (smc_llc_add_link_kick()).
 *
 * Context: process context; sleeps up to SMC_LLC_WAIT_TIME.
 * Return: 0, a positive SMC_CLC_DECL_* for the CLC layer's decline, or
 * -EINTR when @cancel ended the wait.
 */
int smc_llc_confirm_link_serv(struct smc_lgr_link *lnk, const bool *cancel)
{
	struct smc_llc_msg_info req, resp;
	int rc;

	mutex_lock(&lnk->lgr->llc_flow_lock);
	rc = lnk->state == SMC_LNK_ACTIVATING ? smc_llc_link_ready(lnk) :
						-ENOLINK;
	if (rc) {
		rc = SMC_CLC_DECL_INTERR;
		goto out;
	}
	smc_llc_confirm_msg(lnk, &req, 0);
	rc = smc_llc_xchg(lnk, &req, SMC_LLC_WAIT_TIME, cancel, &resp);
	if (rc) {
		if (rc != -EINTR)
			rc = rc == -ETIMEDOUT ? SMC_CLC_DECL_TIMEOUT_CL :
						SMC_CLC_DECL_INTERR;
		goto out;
	}
	if (resp.confirm_link.qpn != lnk->peer_qpn ||
	    memcmp(resp.confirm_link.gid, lnk->peer_gid, SMC_GID_SIZE)) {
		rc = SMC_CLC_DECL_INTERR;	/* not the peer of CLC */
		goto out;
	}
	lnk->peer_link_uid = resp.confirm_link.link_uid;
	smc_llc_link_active(lnk, SMC_LGR_SINGLE);
	smc_llc_add_link_kick(lnk->lgr);
out:
	mutex_unlock(&lnk->lgr->llc_flow_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_confirm_link_serv);

/**
 * smc_llc_confirm_link_clnt() - client side of the first link's confirm
 * @lnk: the new link, ACTIVATING, QP in RTR (or INIT with the peer set)
 * @cancel: NULL, or a flag that ends the wait for the request when it
 *	turns true; its setter wakes lnk->llc_wait
 *
 * Waits for the server's CONFIRM_LINK request, takes the link id, moves
 * the QP to RTS, registers the RMBs and answers; the link is ACTIVE.
 *
 * Context: process context; sleeps up to SMC_LLC_WAIT_CLNT_FIRST.
 * Return: 0, a positive SMC_CLC_DECL_* for the CLC layer's decline, or
 * -EINTR when @cancel ended the wait.
 */
int smc_llc_confirm_link_clnt(struct smc_lgr_link *lnk, const bool *cancel)
{
	struct smc_link_group *lgr = lnk->lgr;
	u8 key = smc_llc_key(SMC_LLC_CONFIRM_LINK, 0);
	struct smc_llc_msg_info req, resp;
	int rc;

	mutex_lock(&lgr->llc_flow_lock);
	if (lnk->state != SMC_LNK_ACTIVATING) {
		rc = SMC_CLC_DECL_INTERR;
		goto out;
	}
	if (lnk->wr.qp_state == SMC_WR_QP_INIT && smc_lgr_link_rtr(lnk)) {
		rc = SMC_CLC_DECL_INTERR;
		goto out;
	}
	/* the request may have arrived already: keep it */
	smc_llc_want(lnk, key, true);
	rc = smc_llc_wait(lnk, key, SMC_LLC_WAIT_CLNT_FIRST, cancel, &req);
	if (rc) {
		if (rc != -EINTR)
			rc = rc == -ETIMEDOUT ? SMC_CLC_DECL_TIMEOUT_CL :
						SMC_CLC_DECL_INTERR;
		goto out;
	}
	if ((req.flags & SMC_LLC_FLAG_NO_RMBE_EYEC) !=
	    SMC_LLC_FLAG_NO_RMBE_EYEC) {
		rc = SMC_CLC_DECL_RMBE_EC;
		goto out;
	}
	if (!req.confirm_link.link_num) {
		rc = SMC_CLC_DECL_INTERR;
		goto out;
	}
	spin_lock_bh(&lgr->lock);
	lnk->link_id = req.confirm_link.link_num;
	lnk->link_uid = lgr->id | lnk->link_id;
	spin_unlock_bh(&lgr->lock);
	lnk->peer_link_uid = req.confirm_link.link_uid;
	if (req.confirm_link.max_links < lgr->max_links)
		lgr->max_links = req.confirm_link.max_links;
	if (req.confirm_link.max_conns &&
	    req.confirm_link.max_conns < lgr->max_conns)
		lgr->max_conns = req.confirm_link.max_conns;
	if (smc_wr_qp_to_rts(&lnk->wr) || smc_buf_reg_link(lnk)) {
		rc = SMC_CLC_DECL_INTERR;
		goto out;
	}
	smc_llc_confirm_msg(lnk, &resp, SMC_LLC_FLAG_RESP);
	if (smc_llc_send_msg(lnk, &resp, NULL)) {
		rc = SMC_CLC_DECL_INTERR;
		goto out;
	}
	smc_llc_link_active(lnk, SMC_LGR_SINGLE);
out:
	mutex_unlock(&lgr->llc_flow_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_confirm_link_clnt);

/* --- local flows ---------------------------------------------------------- */

/**
 * smc_llc_test_link() - TEST_LINK request, wait for the response
 * @lnk: an ACTIVE link
 *
 * Context: process context; sleeps up to SMC_LLC_WAIT_TIME.
 * Return: 0 if the peer echoed our data, else a negative errno.
 */
int smc_llc_test_link(struct smc_lgr_link *lnk)
{
	struct smc_llc_msg_info req, resp;
	int rc;

	mutex_lock(&lnk->lgr->llc_flow_lock);
	smc_llc_init_msg(lnk, &req, SMC_LLC_TEST_LINK, 0);
	get_random_bytes(req.test_link.data, sizeof(req.test_link.data));
	rc = smc_llc_xchg(lnk, &req, SMC_LLC_WAIT_TIME, NULL, &resp);
	if (!rc && memcmp(req.test_link.data, resp.test_link.data,
			  sizeof(req.test_link.data)))
		rc = -EPROTO;
	mutex_unlock(&lnk->lgr->llc_flow_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_test_link);

/**
 * smc_llc_confirm_rkey() - announce a new RMB of a reused group
 * @lnk: the link to send on; the RMB is registered on it
 * @rmb: the RMB
 *
 * The peer learns its rkey and address on every ACTIVE link, so that it
 * can write on whichever carries the connection.
 *
 * Context: process context; runs as the group's local flow and sleeps up
 * to SMC_LLC_WAIT_TIME for the response.
 * Return: 0, -EPROTO if the peer refused it, or a negative errno.
 */
int smc_llc_confirm_rkey(struct smc_lgr_link *lnk, struct smc_buf_desc *rmb)
{
	struct smc_llc_msg_info req, resp;
	int i, n = 0, rc;

	if (!test_bit(lnk->idx, &rmb->regd))
		return -EINVAL;
	mutex_lock(&lnk->lgr->llc_flow_lock);
	smc_llc_init_msg(lnk, &req, SMC_LLC_CONFIRM_RKEY, 0);
	/* rtoken[0]: this link, its link_id the number of others after it */
	req.confirm_rkey.rtoken[0].rkey = rmb->mr[lnk->idx].rkey;
	req.confirm_rkey.rtoken[0].vaddr = rmb->mr[lnk->idx].addr;
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX && n < SMC_LLC_RTOKENS - 1; i++) {
		struct smc_lgr_link *other = &lnk->lgr->lnk[i];

		if (other == lnk || other->state != SMC_LNK_ACTIVE ||
		    !test_bit(i, &rmb->live))
			continue;
		n++;
		req.confirm_rkey.rtoken[n].link_id = other->link_id;
		req.confirm_rkey.rtoken[n].rkey = rmb->mr[i].rkey;
		req.confirm_rkey.rtoken[n].vaddr = rmb->mr[i].addr;
	}
	req.confirm_rkey.rtoken[0].link_id = n;
	rc = smc_llc_xchg(lnk, &req, SMC_LLC_WAIT_TIME, NULL, &resp);
	if (!rc && resp.flags & SMC_LLC_FLAG_RKEY_NEG)
		rc = -EPROTO;
	if (!rc)
		rmb->confirmed = true;
	mutex_unlock(&lnk->lgr->llc_flow_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_confirm_rkey);

/**
 * smc_llc_delete_rkey() - withdraw an announced RMB
 * @lnk: the link to send on
 * @rmb: the RMB, no longer used by a connection
 *
 * Context: process context; runs as the group's local flow and sleeps up
 * to SMC_LLC_WAIT_TIME for the response.
 * Return: 0, -ENOENT if the peer did not know the rkey, or a negative
 * errno.
 */
int smc_llc_delete_rkey(struct smc_lgr_link *lnk, struct smc_buf_desc *rmb)
{
	struct smc_llc_msg_info req, resp;
	__be32 rkey;
	int rc;

	if (!test_bit(lnk->idx, &rmb->regd))
		return -EINVAL;
	rkey = cpu_to_be32(rmb->mr[lnk->idx].rkey);
	mutex_lock(&lnk->lgr->llc_flow_lock);
	smc_llc_init_msg(lnk, &req, SMC_LLC_DELETE_RKEY, 0);
	req.delete_rkey.num_rkeys = 1;
	req.delete_rkey.rkeys = &rkey;
	rc = smc_llc_xchg(lnk, &req, SMC_LLC_WAIT_TIME, NULL, &resp);
	/* v1: bit 7 for the first rkey; v2: the count of unknown rkeys */
	if (!rc && resp.delete_rkey.err_mask)
		rc = -ENOENT;
	if (!rc || rc == -ENOENT)
		rmb->confirmed = false;
	mutex_unlock(&lnk->lgr->llc_flow_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_delete_rkey);

/* --- the peer's one-shot requests ----------------------------------------- */

/**
 * smc_llc_link_by_id() - the group's link with an id, if any
 * @lgr: the group
 * @link_id: the id
 *
 * Context: process context; the links change only under llc_flow_lock
 * or in the group's teardown.
 * Return: the link, or NULL.
 */
struct smc_lgr_link *smc_llc_link_by_id(struct smc_link_group *lgr,
					u8 link_id)
{
	int i;

	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		if (lgr->lnk[i].state != SMC_LNK_UNUSED &&
		    lgr->lnk[i].link_id == link_id)
			return &lgr->lnk[i];
	return NULL;
}

static void smc_llc_rx_confirm_rkey(struct smc_lgr_link *lnk,
				    struct smc_llc_msg_info *m)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_rtoken_info *rt = m->confirm_rkey.rtoken;
	int idx, i, n = min_t(int, rt[0].link_id, SMC_LLC_RTOKENS - 1);

	idx = smc_rtoken_add(lgr, lnk->idx, rt[0].vaddr, rt[0].rkey);
	for (i = 1; idx >= 0 && i <= n; i++) {
		struct smc_lgr_link *other = smc_llc_link_by_id(lgr,
								rt[i].link_id);

		if (other && other != lnk)
			smc_rtoken_set_link(lgr, idx, other->idx, rt[i].vaddr,
					    rt[i].rkey);
	}
	m->flags |= SMC_LLC_FLAG_RESP;
	if (idx < 0)
		m->flags |= SMC_LLC_FLAG_RKEY_NEG;
	smc_llc_send_msg(lnk, m, NULL);
}

static void smc_llc_rx_delete_rkey(struct smc_lgr_link *lnk,
				   struct smc_llc_msg_info *m)
{
	unsigned int i, n = m->delete_rkey.num_rkeys;
	u8 err = 0;

	if (m->version == SMC_LLC_V1)
		n = min_t(unsigned int, n, SMC_LLC_DEL_RKEY_MAX);
	for (i = 0; i < n; i++) {
		if (!smc_rtoken_delete(lnk->lgr, smc_llc_del_rkey_get(m, i)))
			continue;
		if (m->version == SMC_LLC_V1)
			err |= 0x80 >> i;
		else
			err++;
	}
	m->delete_rkey.num_rkeys = n;
	m->delete_rkey.err_mask = err;
	m->flags |= SMC_LLC_FLAG_RESP;
	smc_llc_send_msg(lnk, m, NULL);
}

/**
 * smc_llc_pop() - take the first entry off one of a group's LLC queues
 * @lgr: the group
 * @list: lgr->llc_rx_list or lgr->llc_flow_list
 * @cnt: its count
 *
 * Context: process context.
 * Return: the entry, the caller's to free, or NULL.
 */
struct smc_llc_qentry *smc_llc_pop(struct smc_link_group *lgr,
				   struct list_head *list, unsigned int *cnt)
{
	struct smc_llc_qentry *e;

	spin_lock_bh(&lgr->llc_rx_lock);
	e = list_first_entry_or_null(list, struct smc_llc_qentry, list);
	if (e) {
		list_del(&e->list);
		(*cnt)--;
	}
	spin_unlock_bh(&lgr->llc_rx_lock);
	return e;
}

/* hand @e to the flow work; false if too many wait already */
static bool smc_llc_flow_queue(struct smc_link_group *lgr,
			       struct smc_llc_qentry *e)
{
	bool queued = false;

	spin_lock_bh(&lgr->llc_rx_lock);
	if (lgr->llc_flow_cnt < SMC_LLC_FLOW_QUEUE_MAX) {
		list_add_tail(&e->list, &lgr->llc_flow_list);
		lgr->llc_flow_cnt++;
		queue_work(smc_lgr_wq, &lgr->llc_flow_work);
		queued = true;
	}
	spin_unlock_bh(&lgr->llc_rx_lock);
	return queued;
}

/* --- receiving ------------------------------------------------------------ */

/*
 * A request: one-shot ones are answered here; the others start a flow.
 * Return: true if @e went to the flow work, which frees it.
 */
static bool smc_llc_rx_request(struct smc_lgr_link *lnk,
			       struct smc_llc_msg_info *m,
			       struct smc_llc_qentry *e)
{
	struct smc_link_group *lgr = lnk->lgr;

	atomic_inc(&smc_llc_rx_total.requests);
	switch (m->type) {
	case SMC_LLC_TEST_LINK:
		m->flags |= SMC_LLC_FLAG_RESP;
		smc_llc_send_msg(lnk, m, NULL);
		return false;
	case SMC_LLC_CONFIRM_RKEY:
		smc_llc_rx_confirm_rkey(lnk, m);
		return false;
	case SMC_LLC_DELETE_RKEY:
		smc_llc_rx_delete_rkey(lnk, m);
		return false;
	case SMC_LLC_DELETE_LINK:
	case SMC_LLC_ADD_LINK:
	case SMC_LLC_REQ_ADD_LINK:
		if (smc_llc_flow_queue(lgr, e))
			return true;
		smc_llc_drop(&lgr->llc_dropped, &smc_llc_rx_total.dropped);
		return false;
	default:
		/* e.g. a CONFIRM_LINK nobody waits for, a stray _CONT */
		smc_llc_drop(&lgr->llc_unknown, &smc_llc_rx_total.unknown);
		return false;
	}
}

/* handle @e; Return: true if it was handed on, false to free it */
static bool smc_llc_rx_one(struct smc_lgr_link *lnk, struct smc_llc_qentry *e)
{
	struct smc_link_group *lgr = lnk->lgr;
	bool early, delivered = false, kept = false;
	struct smc_llc_qentry *old = NULL;
	struct smc_llc_msg_info m;
	u8 key;

	if (smc_llc_decode(e->buf, e->len, &m)) {
		smc_llc_drop(&lgr->llc_unknown, &smc_llc_rx_total.unknown);
		return false;
	}
	if (m.version == SMC_LLC_V2)
		WRITE_ONCE(lgr->llc_order, m.order);
	key = smc_llc_key(m.type, m.flags);
	/* the client's first CONFIRM_LINK may come before it waits */
	early = key == SMC_LLC_CONFIRM_LINK && lgr->role == SMC_CLNT &&
		lnk->state == SMC_LNK_ACTIVATING;
	spin_lock_bh(&lgr->llc_rx_lock);
	if (lnk->llc_want == key || early) {
		memcpy(lnk->llc_resp, e->buf, min_t(unsigned int, e->len,
						    sizeof(lnk->llc_resp)));
		lnk->llc_resp_type = key;
		/* a v2 ADD_LINK's rkeys: the waiter decodes it whole */
		if (e->len > sizeof(lnk->llc_resp)) {
			old = lnk->llc_resp_long;
			lnk->llc_resp_long = e;
			kept = true;
		}
		delivered = true;
	}
	spin_unlock_bh(&lgr->llc_rx_lock);
	kfree(old);
	if (delivered) {
		wake_up_all(&lnk->llc_wait);
		return kept;
	}
	if (!(m.flags & SMC_LLC_FLAG_RESP))
		return smc_llc_rx_request(lnk, &m, e);
	/* keepalive answers need no waiter */
	if (m.type == SMC_LLC_TEST_LINK)
		return false;
	/*
	 * A response no flow waits for: most likely one that came after
	 * its flow gave up, which a busy peer may well send.  Ending the
	 * group for it would end every connection between the hosts.
	 */
	smc_llc_drop(&lgr->llc_late, &smc_llc_rx_total.late);
	return false;
}

/**
 * smc_llc_rx_work() - handle the received LLC messages of a group in order
 * @work: lgr->llc_rx_work
 *
 * Context: process context, on smc_lgr_wq; never takes llc_flow_lock.
 */
void smc_llc_rx_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  llc_rx_work);
	struct smc_llc_qentry *e;

	while ((e = smc_llc_pop(lgr, &lgr->llc_rx_list, &lgr->llc_rx_cnt))) {
		if (lgr->lnk[e->lnk_idx].state != SMC_LNK_UNUSED &&
		    !READ_ONCE(lgr->torn_down) &&
		    smc_llc_rx_one(&lgr->lnk[e->lnk_idx], e))
			continue;
		kfree(e);
	}
}

/**
 * smc_llc_rx_purge() - drop the LLC messages and flows not handled yet
 * @lgr: the group, its links destroyed and its LLC works cancelled
 *
 * Context: process context.
 */
void smc_llc_rx_purge(struct smc_link_group *lgr)
{
	struct smc_llc_qentry *e, *tmp;
	LIST_HEAD(list);

	spin_lock_bh(&lgr->llc_rx_lock);
	list_splice_init(&lgr->llc_rx_list, &list);
	list_splice_init(&lgr->llc_flow_list, &list);
	lgr->llc_rx_cnt = 0;
	lgr->llc_flow_cnt = 0;
	spin_unlock_bh(&lgr->llc_rx_lock);
	list_for_each_entry_safe(e, tmp, &list, list)
		kfree(e);
}

static bool smc_llc_is_testlink_req(const u8 *buf, unsigned int len)
{
	const struct smc_llc_hdr *h = (const struct smc_llc_hdr *)buf;

	return len >= sizeof(*h) && h->type == SMC_LLC_TEST_LINK &&
	       !(h->flags & SMC_LLC_FLAG_RESP);
}

/* softirq: copy the message, the work handles it */
static void smc_llc_rx(struct smc_link *wr, const u8 *buf, unsigned int len)
{
	struct smc_lgr_link *lnk = smc_llc_lnk(wr);
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_qentry *e;

	WRITE_ONCE(lnk->last_rx, jiffies);
	/*
	 * The peer's own keepalive says nothing of whether ours reach it:
	 * on a path broken one way it still comes in.  Timed here, not
	 * behind the LLC work's queue.
	 */
	if (!smc_llc_is_testlink_req(buf, len))
		WRITE_ONCE(lnk->last_rx_alive, jiffies);
	if (len > SMC_LLC_LEN_V2_MAX) {
		smc_llc_drop(&lgr->llc_dropped, &smc_llc_rx_total.dropped);
		return;
	}
	e = kmalloc(struct_size(e, buf, len), GFP_ATOMIC);
	if (!e) {
		smc_llc_drop(&lgr->llc_dropped, &smc_llc_rx_total.dropped);
		return;
	}
	e->lnk_idx = lnk->idx;
	e->len = len;
	memcpy(e->buf, buf, len);
	spin_lock(&lgr->llc_rx_lock);
	if (lgr->llc_rx_cnt >= SMC_LLC_RX_QUEUE_MAX) {
		spin_unlock(&lgr->llc_rx_lock);
		smc_llc_drop(&lgr->llc_dropped, &smc_llc_rx_total.dropped);
		kfree(e);
		return;
	}
	list_add_tail(&e->list, &lgr->llc_rx_list);
	lgr->llc_rx_cnt++;
	queue_work(smc_lgr_wq, &lgr->llc_rx_work);
	spin_unlock(&lgr->llc_rx_lock);
}

static void smc_llc_cdc_rx(struct smc_link *wr, const u8 *buf,
			   unsigned int len)
{
	struct smc_lgr_link *lnk = smc_llc_lnk(wr);

	WRITE_ONCE(lnk->last_rx, jiffies);
	WRITE_ONCE(lnk->last_rx_alive, jiffies);
	smc_cdc_rx_handler(wr, buf, len);
}

static void smc_llc_link_down_cb(struct smc_link *wr, enum ib_wc_status st)
{
	struct smc_lgr_link *lnk = smc_llc_lnk(wr);

	/*
	 * Once per link: an administrator's clue why connections moved or
	 * reset.  Not for a group that is ending anyway: a peer that ended
	 * it does not wait for our DELETE_LINK answer to arrive.  A port
	 * event, a device's removal or the peer's DELETE_LINK say so
	 * themselves.
	 */
	if (st != IB_WC_SUCCESS) {
		smc_switch_down_cause(lnk, SMC_SWITCH_DOWN_WR_ERROR);
		if (!READ_ONCE(lnk->lgr->terminating))
			pr_warn_ratelimited("link group %u link %u on %s lost: %s\n",
					    lnk->lgr->id, lnk->link_id,
					    dev_name(&wr->ibdev->dev),
					    ib_wc_status_msg(st));
	}
	smc_lgr_link_down(lnk);
}

const struct smc_wr_ops smc_llc_wr_ops = {
	.cdc_rx		= smc_llc_cdc_rx,
	.llc_rx		= smc_llc_rx,
	.link_down	= smc_llc_link_down_cb,
};

/* --- TEST_LINK keepalive -------------------------------------------------- */

/**
 * smc_llc_testlink_start() - start the keepalive of an ACTIVE link
 * @lnk: the link
 *
 * Context: process context.
 */
void smc_llc_testlink_start(struct smc_lgr_link *lnk)
{
	long interval = smc_sysctl_testlink_time(lnk->lgr->net);

	WRITE_ONCE(lnk->last_rx, jiffies);
	WRITE_ONCE(lnk->last_rx_alive, jiffies);
	lnk->testlink_pending = false;
	/* the first check at the namespace's interval, as every later one */
	queue_delayed_work(smc_lgr_wq, &lnk->testlink_work,
			   interval > 0 ? interval : SMC_LLC_TESTLINK_TIME);
}

/**
 * smc_llc_testlink_work() - the keepalive of one link
 * @work: lnk->testlink_work
 *
 * Idle for net.smc.smcr_testlink_time: send TEST_LINK; no answer within
 * 2 s: the link is down.  The answer, or any other sign of a working
 * peer (a CDC, an LLC message), but not the peer's own TEST_LINK
 * request: that one still comes in on a path broken one way, sent
 * because the peer has heard nothing from us for a while.
 *
 * Context: process context, on smc_lgr_wq.
 */
void smc_llc_testlink_work(struct work_struct *work)
{
	struct smc_lgr_link *lnk = container_of(to_delayed_work(work),
						struct smc_lgr_link,
						testlink_work);
	long interval = smc_sysctl_testlink_time(lnk->lgr->net);
	unsigned long last = READ_ONCE(lnk->last_rx), now = jiffies;
	struct smc_llc_msg_info m;
	unsigned long next;

	if (READ_ONCE(lnk->state) != SMC_LNK_ACTIVE)
		return;
	/* an answer since the TEST_LINK went out, in the same jiffy too */
	if (lnk->testlink_pending &&
	    time_after_eq(READ_ONCE(lnk->last_rx_alive),
			  lnk->testlink_sent))
		lnk->testlink_pending = false;
	if (lnk->testlink_pending) {
		if (time_after_eq(now, lnk->testlink_sent +
				  SMC_LLC_TESTLINK_WAIT)) {
			smc_switch_down_cause(lnk, SMC_SWITCH_DOWN_TESTLINK);
			smc_wr_link_down(&lnk->wr, IB_WC_RETRY_EXC_ERR);
			return;
		}
		next = lnk->testlink_sent + SMC_LLC_TESTLINK_WAIT - now;
		goto requeue;
	}
	if (interval <= 0) {
		next = SMC_LLC_TESTLINK_TIME;	/* check again later */
		goto requeue;
	}
	if (time_before(now, last + interval)) {
		next = last + interval - now;
		goto requeue;
	}
	smc_llc_init_msg(lnk, &m, SMC_LLC_TEST_LINK, 0);
	lnk->testlink_sent = now;
	lnk->testlink_pending = true;
	if (smc_llc_send_msg(lnk, &m, NULL)) {
		/* a keepalive that cannot go out must not stop for good */
		smc_switch_down_cause(lnk, SMC_SWITCH_DOWN_TESTLINK);
		smc_wr_link_down(&lnk->wr, IB_WC_GENERAL_ERR);
		return;
	}
	next = SMC_LLC_TESTLINK_WAIT;
requeue:
	queue_delayed_work(smc_lgr_wq, &lnk->testlink_work, next);
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_testlink_work);

static int smc_llc_rx_show(struct seq_file *m, void *v)
{
	seq_printf(m, "requests %d\n", atomic_read(&smc_llc_rx_total.requests));
	seq_printf(m, "unknown %d\n", atomic_read(&smc_llc_rx_total.unknown));
	seq_printf(m, "dropped %d\n", atomic_read(&smc_llc_rx_total.dropped));
	seq_printf(m, "late %d\n", atomic_read(&smc_llc_rx_total.late));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smc_llc_rx);

/**
 * smc_llc_debugfs_init() - the LLC files under /sys/kernel/debug/smc/
 * @root: that directory
 *
 * llc_rx: received LLC requests handled, and messages dropped by reason
 * (unknown or malformed, no memory or queue space, a late response),
 * since the module loaded.
 *
 * Context: module init.
 */
void smc_llc_debugfs_init(struct dentry *root)
{
	debugfs_create_file("llc_rx", 0400, root, NULL, &smc_llc_rx_fops);
}
