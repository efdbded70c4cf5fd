// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * LLC flows that add and delete the links of a group (protocol
 * reference 5, and the reference implementation's link management).
 * They run under the group's llc_flow_lock: the peer's requests on the
 * group's flow work (smc_llc_flow_work()), ours where they start.  The
 * messages come and go through smc_llc.c.
 *
 * Adding: the server offers a second link (ADD_LINK) right after a
 * first contact, on a device of its own when it has another with a path
 * (SYMMETRIC), else on its first one (ASYMMETRIC_LOCAL).  The client
 * takes it when there is a path, and refuses it with "no alternate
 * path" when there is none, which keeps the group usable with one link.
 *
 * Deleting follows the server-owned exchange of the reference
 * implementation: a client's request comes back from the server as the
 * server's own, and the client answers it.  The connections of a link
 * that is deleted move to the link left first (smc_switch.c); a group
 * that loses its last link ends.
 */

#define pr_fmt(fmt) "smc: " fmt

#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "smc_clc_wire.h"
#include "smc_compat.h"
#include "smc_lgr.h"
#include "smc_llc.h"

/* --- adding a link -------------------------------------------------------- */

/*
 * The rkey triples of our RMBs the peer may know, for new link @nl
 * beside @lnk: the rkey on @lnk, the rkey and address on @nl.  The peer
 * ignores rkeys it does not know.  Return: how many went into @t, at
 * most SMC_RMBS_PER_LGR_MAX.
 */
static int smc_llc_rkeys_ours(struct smc_lgr_link *lnk, struct smc_lgr_link *nl,
			      struct smc_llc_rkey_info *t)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_buf_desc *rmb;
	int i, n = 0;

	mutex_lock(&lgr->bufs_lock);
	for (i = 0; i < SMC_BUF_COMP_SLOTS; i++) {
		list_for_each_entry(rmb, &lgr->rmbs[i], list) {
			if (n == SMC_RMBS_PER_LGR_MAX)
				break;
			/*
			 * In use or announced: the peer may know its rkey.
			 * Its MR on @nl is prepared (regd): the rkey is
			 * fixed, valid from RTS on, before the peer may
			 * use the new link.
			 */
			if ((!rmb->confirmed && !READ_ONCE(rmb->used)) ||
			    !test_bit(lnk->idx, &rmb->regd) ||
			    !test_bit(nl->idx, &rmb->regd))
				continue;
			t[n].rkey = rmb->mr[lnk->idx].rkey;
			t[n].rkey_new = rmb->mr[nl->idx].rkey;
			t[n].vaddr_new = rmb->mr[nl->idx].addr;
			n++;
		}
	}
	mutex_unlock(&lgr->bufs_lock);
	return n;
}

/* the peer's RMB known by its rkey on @lnk: where it is on @nl */
static void smc_llc_rkey_theirs(struct smc_lgr_link *lnk,
				struct smc_lgr_link *nl,
				const struct smc_llc_rkey_info *t)
{
	int idx = smc_rtoken_find(lnk->lgr, lnk->idx, t->rkey);

	if (idx >= 0)
		smc_rtoken_set_link(lnk->lgr, idx, nl->idx, t->vaddr_new,
				    t->rkey_new);
}

/* v2: the peer's rkey triples from its ADD_LINK @m */
static void smc_llc_rkeys_theirs_v2(struct smc_lgr_link *lnk,
				    struct smc_lgr_link *nl,
				    const struct smc_llc_msg_info *m)
{
	struct smc_llc_rkey_info t;
	int i;

	for (i = 0; i < m->add_link.num_rkeys; i++) {
		smc_llc_rkey_get(&m->add_link.rkeys[i], &t);
		smc_llc_rkey_theirs(lnk, nl, &t);
	}
}

/* v2: our @n rkey triples as the ADD_LINK extension carries them */
static struct smc_llc_rkey_triple *
smc_llc_rkeys_wire(const struct smc_llc_rkey_info *ours, int n)
{
	struct smc_llc_rkey_triple *wire;
	int i;

	wire = kcalloc(max(n, 1), sizeof(*wire), GFP_KERNEL);
	for (i = 0; wire && i < n; i++)
		smc_llc_rkey_set(&wire[i], &ours[i]);
	return wire;
}

/*
 * v1: the rkeys go in ADD_LINK_CONT messages, two per message, the
 * server's first, each answered by one of ours, until neither side has
 * any left.  The caller announced the first one (smc_llc_want()).
 */
static int smc_llc_cli_rkey_exchange(struct smc_lgr_link *lnk,
				     struct smc_lgr_link *nl,
				     const struct smc_llc_rkey_info *ours,
				     int n_ours)
{
	u8 key = smc_llc_key(SMC_LLC_ADD_LINK_CONT, 0);
	struct smc_llc_msg_info m, c;
	int sent = 0, left, i, rc;
	bool more;

	do {
		rc = smc_llc_wait(lnk, key, SMC_LLC_WAIT_TIME, NULL, &m);
		if (rc)
			return rc;
		if (m.add_link_cont.link_num != nl->link_id)
			return -EPROTO;
		left = m.add_link_cont.num_rkeys;
		for (i = 0; i < SMC_LLC_ADD_LINK_CONT_RKEYS && left; i++, left--)
			smc_llc_rkey_theirs(lnk, nl, &m.add_link_cont.rkeys[i]);
		smc_llc_init_msg(lnk, &c, SMC_LLC_ADD_LINK_CONT,
				 SMC_LLC_FLAG_RESP);
		c.add_link_cont.link_num = nl->link_id;
		c.add_link_cont.num_rkeys = n_ours - sent;
		for (i = 0; i < SMC_LLC_ADD_LINK_CONT_RKEYS && sent < n_ours; i++)
			c.add_link_cont.rkeys[i] = ours[sent++];
		more = left || sent < n_ours;
		if (more)
			smc_llc_want(lnk, key, false);
		rc = smc_llc_send_msg(lnk, &c, NULL);
		if (rc) {
			smc_llc_want(lnk, 0, false);
			return rc;
		}
	} while (more);
	return 0;
}

/* the slot for a group's next link, or -EMLINK */
static int smc_llc_free_slot(struct smc_link_group *lgr)
{
	int i;

	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		if (lgr->lnk[i].state == SMC_LNK_UNUSED)
			return i;
	return -EMLINK;
}

/*
 * The device for the link the server offers in @m beside @lnk, and the
 * group's type with it (protocol reference: upstream's client rules).
 * Return: 0 with a device reference in @sel, or -ENODEV: no alternate
 * path, the offer is refused.
 */
static int smc_llc_cli_add_dev(struct smc_lgr_link *lnk,
			       const struct smc_llc_msg_info *m,
			       struct smc_ib_select *sel,
			       enum smc_lgr_type *type)
{
	struct smc_link_group *lgr = lnk->lgr;
	bool same_peer;

	/* the server offers its current port again: it has no other */
	same_peer = !memcmp(m->add_link.gid, lnk->peer_gid, SMC_GID_SIZE) &&
		    ether_addr_equal(m->add_link.mac, lnk->peer_mac);
	*type = same_peer ? SMC_LGR_ASYMMETRIC_PEER : SMC_LGR_SYMMETRIC;
	if (!smc_ib_select_alt(lgr->net, lnk->smcibdev, lgr->pnetid,
			       lgr->vlan_id, lgr->smc_version == SMC_CLC_V2,
			       lgr->saddr, sel))
		return 0;
	if (same_peer)
		return -ENODEV;
	/* no other device here: a second link on ours still helps */
	*type = SMC_LGR_ASYMMETRIC_LOCAL;
	return smc_ib_find_by_gid(lnk->wr.gid.raw, sel);
}

/* our ADD_LINK request (@flags 0) or response for new link @nl, on @lnk */
static void smc_llc_add_link_msg(struct smc_lgr_link *lnk,
				 struct smc_lgr_link *nl,
				 struct smc_llc_msg_info *m, u8 flags,
				 const struct smc_llc_rkey_triple *rkeys,
				 int n_rkeys)
{
	smc_llc_init_msg(lnk, m, SMC_LLC_ADD_LINK, flags);
	ether_addr_copy(m->add_link.mac, nl->wr.mac);
	memcpy(m->add_link.gid, nl->wr.gid.raw, SMC_LLC_GID_SIZE);
	m->add_link.qpn = nl->wr.qp->qp_num;
	m->add_link.link_num = nl->link_id;
	m->add_link.qp_mtu = nl->path_mtu;
	m->add_link.psn = nl->wr.psn;
	if (m->version != SMC_LLC_V2)
		return;
	m->add_link.has_ext = true;
	m->add_link.v2_direct = lnk->lgr->v2_direct;
	/* the sender's new GID, as upstream fills it in */
	memcpy(m->add_link.target_gid, nl->wr.gid.raw, SMC_LLC_GID_SIZE);
	m->add_link.num_rkeys = n_rkeys;
	m->add_link.rkeys = rkeys;
}

/*
 * Bring up new link @nl as the server's ADD_LINK @m describes it: QP to
 * RTS, every buffer registered on it, the rkeys exchanged both ways (v2
 * in the ADD_LINK messages, v1 in ADD_LINK_CONT), then the server's
 * CONFIRM_LINK on the new link answered.  *@responded tells whether our
 * ADD_LINK response went out.  Return: 0 or a negative errno.
 */
static int smc_llc_cli_add_link_up(struct smc_lgr_link *lnk,
				   struct smc_lgr_link *nl,
				   const struct smc_llc_msg_info *m,
				   bool *responded)
{
	struct smc_link_group *lgr = lnk->lgr;
	bool v2 = lgr->smc_version == SMC_CLC_V2;
	u8 key = smc_llc_key(SMC_LLC_ADD_LINK_CONT, 0);
	struct smc_llc_rkey_triple *wire = NULL;
	struct smc_llc_rkey_info *ours;
	struct smc_llc_msg_info resp;
	int n, rc;

	rc = smc_llc_link_ready(nl);
	if (rc)
		return rc;
	ours = kcalloc(SMC_RMBS_PER_LGR_MAX, sizeof(*ours), GFP_KERNEL);
	if (!ours)
		return -ENOMEM;
	n = smc_llc_rkeys_ours(lnk, nl, ours);
	if (v2) {
		smc_llc_rkeys_theirs_v2(lnk, nl, m);
		wire = smc_llc_rkeys_wire(ours, n);
		if (!wire) {
			rc = -ENOMEM;
			goto out;
		}
	}
	smc_llc_add_link_msg(lnk, nl, &resp, SMC_LLC_FLAG_RESP, wire, n);
	/* v1: the server's first ADD_LINK_CONT may follow at once */
	if (!v2)
		smc_llc_want(lnk, key, false);
	rc = smc_llc_send_msg(lnk, &resp, NULL);
	if (rc) {
		smc_llc_want(lnk, 0, false);
		goto out;
	}
	*responded = true;
	if (!v2) {
		rc = smc_llc_cli_rkey_exchange(lnk, nl, ours, n);
		if (rc)
			goto out;
	}
	/* the server's CONFIRM_LINK comes on the new link, maybe early */
	key = smc_llc_key(SMC_LLC_CONFIRM_LINK, 0);
	smc_llc_want(nl, key, true);
	rc = smc_llc_wait(nl, key, SMC_LLC_WAIT_FIRST_TIME, NULL, &resp);
	if (rc)
		goto out;
	if (resp.confirm_link.link_num != nl->link_id) {
		rc = -EPROTO;
		goto out;
	}
	nl->peer_link_uid = resp.confirm_link.link_uid;
	smc_llc_confirm_msg(nl, &resp, SMC_LLC_FLAG_RESP);
	rc = smc_llc_send_msg(nl, &resp, NULL);
out:
	kfree(wire);
	kfree(ours);
	return rc;
}

/*
 * New link @nl beside @lnk failed.  Once the peer answered for it, it
 * learns that the link is gone ("lost path"), as upstream tells it.
 */
static void smc_llc_new_link_fail(struct smc_lgr_link *lnk,
				  struct smc_lgr_link *nl, bool responded)
{
	struct smc_llc_msg_info del;

	if (responded) {
		smc_llc_init_msg(lnk, &del, SMC_LLC_DELETE_LINK, 0);
		del.delete_link.link_num = nl->link_id;
		del.delete_link.reason = SMC_LLC_DEL_LOST_PATH;
		smc_llc_send_msg(lnk, &del, NULL);
	}
	smc_lgr_link_clear(nl);
}

/*
 * Client: the server offers a second link.  Taken if there is room and
 * a path (another device here, or another port there); else refused
 * with "no alternate path", as after any failure.  A failure after our
 * response went out also tells the server the new link is gone.
 */
static void smc_llc_cli_add_link(struct smc_lgr_link *lnk,
				 const struct smc_llc_msg_info *m)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp;
	bool responded = false;
	enum smc_lgr_type type;
	struct smc_ib_select sel;
	struct smc_lgr_link *nl;
	int idx, rc;

	lockdep_assert_held(&lgr->llc_flow_lock);
	/* qp_mtu 0: the fake ADD_LINK of old single-link peers */
	if (lgr->max_links < 2 || !m->add_link.qp_mtu ||
	    lgr->type != SMC_LGR_SINGLE || lnk->state != SMC_LNK_ACTIVE)
		goto reject;
	idx = smc_llc_free_slot(lgr);
	if (idx < 0 || smc_llc_cli_add_dev(lnk, m, &sel, &type))
		goto reject;
	rc = smc_lgr_link_init(lgr, idx, &sel);
	smc_ib_put(sel.dev);
	if (rc)
		goto reject;
	nl = &lgr->lnk[idx];
	spin_lock_bh(&lgr->lock);
	nl->link_id = m->add_link.link_num;	/* the server's choice */
	nl->link_uid = lgr->id | nl->link_id;
	spin_unlock_bh(&lgr->lock);
	/* v2 through a gateway: the first link's next hop serves both */
	smc_lgr_link_set_peer(nl, m->add_link.qpn, m->add_link.psn,
			      m->add_link.gid,
			      lgr->smc_version == SMC_CLC_V2 && !lgr->v2_direct ?
			      lnk->peer_mac : m->add_link.mac,
			      m->add_link.qp_mtu);
	rc = smc_llc_cli_add_link_up(lnk, nl, m, &responded);
	if (!rc) {
		smc_llc_link_active(nl, type);
		smc_switch_count(SMC_SWITCH_LINK_ADDED);
		return;
	}
	smc_switch_count(SMC_SWITCH_LINK_ADD_FAILED);
	smc_llc_new_link_fail(lnk, nl, responded);
reject:
	smc_llc_init_msg(lnk, &resp, SMC_LLC_ADD_LINK,
			 SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_ADD_LINK_REJ);
	resp.add_link.reject_reason = SMC_LLC_ADD_LINK_REJ_NO_ALT_PATH;
	smc_llc_send_msg(lnk, &resp, NULL);
}

/*
 * v1, server: our side of the ADD_LINK_CONT ping-pong, which we open;
 * the client answers each message with one of its own.
 */
static int smc_llc_srv_rkey_exchange(struct smc_lgr_link *lnk,
				     struct smc_lgr_link *nl,
				     const struct smc_llc_rkey_info *ours,
				     int n_ours)
{
	struct smc_llc_msg_info c, m;
	int sent = 0, left, i, rc;

	do {
		smc_llc_init_msg(lnk, &c, SMC_LLC_ADD_LINK_CONT, 0);
		c.add_link_cont.link_num = nl->link_id;
		c.add_link_cont.num_rkeys = n_ours - sent;
		for (i = 0; i < SMC_LLC_ADD_LINK_CONT_RKEYS && sent < n_ours; i++)
			c.add_link_cont.rkeys[i] = ours[sent++];
		rc = smc_llc_xchg(lnk, &c, SMC_LLC_WAIT_TIME, NULL, &m);
		if (rc)
			return rc;
		if (m.add_link_cont.link_num != nl->link_id)
			return -EPROTO;
		left = m.add_link_cont.num_rkeys;
		for (i = 0; i < SMC_LLC_ADD_LINK_CONT_RKEYS && left; i++, left--)
			smc_llc_rkey_theirs(lnk, nl, &m.add_link_cont.rkeys[i]);
	} while (left || sent < n_ours);
	return 0;
}

/* the active MTU of @nl's port, which an ADD_LINK request offers */
static u8 smc_llc_port_mtu(struct smc_lgr_link *nl)
{
	struct ib_port_attr attr;

	if (ib_query_port(nl->wr.ibdev, nl->ibport, &attr))
		return IB_MTU_1024;
	return attr.active_mtu;
}

/*
 * The client's answer @m to our ADD_LINK for @nl: where its end is, and
 * whether it is on its old port.  Return: 0, -ECONNREFUSED if it was
 * refused, or -EPROTO.
 */
static int smc_llc_srv_take_resp(struct smc_lgr_link *lnk,
				 struct smc_lgr_link *nl,
				 const struct smc_llc_msg_info *m,
				 enum smc_lgr_type *type)
{
	struct smc_link_group *lgr = lnk->lgr;
	bool v2 = lgr->smc_version == SMC_CLC_V2;

	if (m->flags & SMC_LLC_FLAG_ADD_LINK_REJ)
		return -ECONNREFUSED;
	if (m->add_link.link_num != nl->link_id || !m->add_link.qp_mtu)
		return -EPROTO;
	/* the client has no other device: its end is on its first port */
	if (*type == SMC_LGR_SYMMETRIC &&
	    !memcmp(m->add_link.gid, lnk->peer_gid, SMC_GID_SIZE) &&
	    (v2 || ether_addr_equal(m->add_link.mac, lnk->peer_mac)))
		*type = SMC_LGR_ASYMMETRIC_PEER;
	/* v2 through a gateway: the first link's next hop serves both */
	smc_lgr_link_set_peer(nl, m->add_link.qpn, m->add_link.psn,
			      m->add_link.gid,
			      v2 && !lgr->v2_direct ? lnk->peer_mac :
						      m->add_link.mac,
			      m->add_link.qp_mtu);
	if (v2)
		smc_llc_rkeys_theirs_v2(lnk, nl, m);
	return 0;
}

/*
 * Offer the client new link @nl: every buffer gets its MR on it (so the
 * rkeys are fixed), the ADD_LINK request carries them (v2; v1 sends them
 * in ADD_LINK_CONT after the answer), then the QP goes to RTS, the MRs
 * become valid, and CONFIRM_LINK on the new link ends it.  *@responded
 * tells whether the client answered with a link of its own.
 * Return: 0 or a negative errno.
 */
static int smc_llc_srv_add_link_up(struct smc_lgr_link *lnk,
				   struct smc_lgr_link *nl,
				   enum smc_lgr_type *type, bool *responded)
{
	struct smc_link_group *lgr = lnk->lgr;
	bool v2 = lgr->smc_version == SMC_CLC_V2;
	struct smc_llc_rkey_triple *wire = NULL;
	struct smc_llc_msg_info req, resp;
	struct smc_llc_rkey_info *ours;
	int n, rc;

	rc = smc_buf_reg_link(nl);
	if (rc)
		return rc;
	ours = kcalloc(SMC_RMBS_PER_LGR_MAX, sizeof(*ours), GFP_KERNEL);
	if (!ours)
		return -ENOMEM;
	n = smc_llc_rkeys_ours(lnk, nl, ours);
	if (v2) {
		wire = smc_llc_rkeys_wire(ours, n);
		if (!wire) {
			rc = -ENOMEM;
			goto out;
		}
	}
	nl->path_mtu = smc_llc_port_mtu(nl);
	smc_llc_add_link_msg(lnk, nl, &req, 0, wire, n);
	rc = smc_llc_xchg(lnk, &req, SMC_LLC_WAIT_TIME, NULL, &resp);
	if (!rc)
		rc = smc_llc_srv_take_resp(lnk, nl, &resp, type);
	/* done with a long response: its rkeys are taken */
	smc_llc_want(lnk, 0, false);
	if (rc == -ETIMEDOUT)
		atomic_inc(&lgr->llc_timeouts);
	if (rc)
		goto out;
	*responded = true;
	rc = smc_llc_link_ready(nl);
	if (!rc && !v2)
		rc = smc_llc_srv_rkey_exchange(lnk, nl, ours, n);
	if (rc)
		goto out;
	smc_llc_confirm_msg(nl, &req, 0);
	rc = smc_llc_xchg(nl, &req, SMC_LLC_WAIT_FIRST_TIME, NULL, &resp);
	if (rc == -ETIMEDOUT)
		atomic_inc(&lgr->llc_timeouts);
	if (!rc && resp.confirm_link.link_num != nl->link_id)
		rc = -EPROTO;
	if (!rc)
		nl->peer_link_uid = resp.confirm_link.link_uid;
out:
	kfree(wire);
	kfree(ours);
	return rc;
}

/*
 * Server: offer the client a second link beside @lnk, as the reference
 * implementation does after a first contact: on another device of ours
 * with a path (SYMMETRIC), else on @lnk's own port (ASYMMETRIC_LOCAL),
 * which helps a client with another device; with @sym_only (a retry
 * after a silent loss) on another device only.  A refusal leaves the
 * group SINGLE.  A failure after the client's answer tells it the new
 * link is gone; its answer to that comes late and is counted so.
 */
static void smc_llc_srv_add_link(struct smc_lgr_link *lnk, bool sym_only)
{
	struct smc_link_group *lgr = lnk->lgr;
	enum smc_lgr_type type = SMC_LGR_SYMMETRIC;
	bool responded = false;
	struct smc_ib_select sel;
	struct smc_lgr_link *nl;
	int idx, rc;

	lockdep_assert_held(&lgr->llc_flow_lock);
	if (lgr->max_links < 2 || lgr->type != SMC_LGR_SINGLE ||
	    lnk->state != SMC_LNK_ACTIVE || READ_ONCE(lgr->terminating))
		return;
	idx = smc_llc_free_slot(lgr);
	if (idx < 0)
		return;
	if (smc_ib_select_alt(lgr->net, lnk->smcibdev, lgr->pnetid,
			      lgr->vlan_id, lgr->smc_version == SMC_CLC_V2,
			      lgr->saddr, &sel)) {
		type = SMC_LGR_ASYMMETRIC_LOCAL;
		if (sym_only || smc_ib_find_by_gid(lnk->wr.gid.raw, &sel))
			return;
	}
	rc = smc_lgr_link_init(lgr, idx, &sel);
	smc_ib_put(sel.dev);
	if (rc)
		return;
	nl = &lgr->lnk[idx];
	rc = smc_llc_srv_add_link_up(lnk, nl, &type, &responded);
	if (!rc) {
		smc_llc_link_active(nl, type);
		smc_switch_count(SMC_SWITCH_LINK_ADDED);
		return;
	}
	smc_switch_count(SMC_SWITCH_LINK_ADD_FAILED);
	smc_llc_new_link_fail(lnk, nl, responded);
}

/**
 * smc_llc_add_link_kick() - have a server group offer its second link
 * @lgr: the group, its first link just confirmed
 *
 * The offer runs on the group's flow work, so that the handshake that
 * confirmed the link goes on: a client that waits for the offer (as
 * the reference implementation's does, 2 s at first contact) gets it
 * at once.
 *
 * Context: any but hard interrupt.
 */
void smc_llc_add_link_kick(struct smc_link_group *lgr)
{
	if (lgr->role != SMC_SERV || lgr->max_links < 2)
		return;
	spin_lock_bh(&lgr->llc_rx_lock);
	lgr->llc_add_link = true;
	queue_work(smc_lgr_wq, &lgr->llc_flow_work);
	spin_unlock_bh(&lgr->llc_rx_lock);
}
EXPORT_SYMBOL_IF_KUNIT(smc_llc_add_link_kick);

/**
 * smc_llc_add_link_ask() - a path came back: a group with one link asks
 *	for a second
 * @lgr: the group
 *
 * A server offers it at once (smc_llc_add_link_kick()); a client asks
 * the server from its flow work (smc_llc_cli_req_add_link()).
 *
 * Context: any but hard interrupt.
 */
void smc_llc_add_link_ask(struct smc_link_group *lgr)
{
	if (lgr->max_links < 2)
		return;
	if (lgr->role == SMC_SERV) {
		smc_llc_add_link_kick(lgr);
		return;
	}
	spin_lock_bh(&lgr->llc_rx_lock);
	lgr->llc_req_add_link = true;
	queue_work(smc_lgr_wq, &lgr->llc_flow_work);
	spin_unlock_bh(&lgr->llc_rx_lock);
}

/**
 * smc_llc_retry_work() - try a second link again after a silent loss
 * @work: lgr->llc_retry_work
 *
 * While the group has one link, its flow work tries a second one on
 * another device (a server offers it, a client asks for it), and this
 * work runs again after twice the time, up to SMC_LGR_RETRY_MAX.
 *
 * Context: process context, on smc_lgr_wq.
 */
void smc_llc_retry_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(to_delayed_work(work),
						  struct smc_link_group,
						  llc_retry_work);
	bool single;

	spin_lock_bh(&lgr->lock);
	single = lgr->type == SMC_LGR_SINGLE && !lgr->terminating;
	spin_unlock_bh(&lgr->lock);
	if (!single || READ_ONCE(lgr->torn_down))
		return;
	smc_switch_count(SMC_SWITCH_LINK_ADD_RETRY);
	spin_lock_bh(&lgr->llc_rx_lock);
	lgr->llc_retry_add = true;
	queue_work(smc_lgr_wq, &lgr->llc_flow_work);
	lgr->llc_retry_delay = min(2 * lgr->llc_retry_delay,
				   (unsigned long)SMC_LGR_RETRY_MAX);
	queue_delayed_work(smc_lgr_wq, &lgr->llc_retry_work,
			   lgr->llc_retry_delay);
	spin_unlock_bh(&lgr->llc_rx_lock);
}

/*
 * Client: ask the server for a second link beside @lnk, when we have a
 * path for it by the rule for a second device.  SMC-Rv2 sends
 * REQ_ADD_LINK with our GIDs, the known one first; SMC-Rv1 an ADD_LINK
 * request with the new device's MAC and GID and no QP, which the server
 * takes as an invitation.  The server's ADD_LINK, if it offers one,
 * comes as a request of its own.
 */
static void smc_llc_cli_req_add_link(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	u8 gids[2][SMC_LLC_GID_SIZE];
	struct smc_llc_msg_info m;
	struct smc_ib_select sel;
	bool v2 = lgr->smc_version == SMC_CLC_V2;

	lockdep_assert_held(&lgr->llc_flow_lock);
	if (lgr->max_links < 2 || lgr->type != SMC_LGR_SINGLE ||
	    READ_ONCE(lgr->terminating))
		return;
	if (smc_ib_select_alt(lgr->net, lnk->smcibdev, lgr->pnetid,
			      lgr->vlan_id, v2, lgr->saddr, &sel))
		return;
	if (v2) {
		smc_llc_init_msg(lnk, &m, SMC_LLC_REQ_ADD_LINK, 0);
		memcpy(gids[0], lnk->wr.gid.raw, SMC_LLC_GID_SIZE);
		memcpy(gids[1], sel.gid, SMC_LLC_GID_SIZE);
		m.req_add_link.gid_cnt = 2;
		m.req_add_link.gids = &gids[0][0];
	} else {
		smc_llc_init_msg(lnk, &m, SMC_LLC_ADD_LINK, 0);
		ether_addr_copy(m.add_link.mac, sel.mac);
		memcpy(m.add_link.gid, sel.gid, SMC_LLC_GID_SIZE);
	}
	smc_ib_put(sel.dev);
	smc_llc_send_msg(lnk, &m, NULL);
}

/* the group's first ACTIVE link, or NULL */
static struct smc_lgr_link *smc_llc_active_link(struct smc_link_group *lgr)
{
	int i;

	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		if (lgr->lnk[i].state == SMC_LNK_ACTIVE)
			return &lgr->lnk[i];
	return NULL;
}

/* --- the peer's flows ----------------------------------------------------- */

/* the peer ended the group: no new connection joins it */
static void smc_llc_peer_ends_group(struct smc_link_group *lgr)
{
	spin_lock_bh(&lgr->lock);
	lgr->terminating = true;
	spin_unlock_bh(&lgr->lock);
}

/*
 * Link @del is gone on both ends, its connections moved: it goes, and
 * the group is SINGLE on the link left, or ends if none is.  A link we
 * found dead by its silence (TEST_LINK, a failed send) may come back
 * without any event: the group tries again later (smc_llc_retry_work()).
 */
static void smc_llc_link_deleted(struct smc_lgr_link *del)
{
	struct smc_link_group *lgr = del->lgr;
	u32 cause = READ_ONCE(del->down_cause);
	bool left;

	lockdep_assert_held(&lgr->llc_flow_lock);
	left = !!smc_llc_active_link(lgr);
	spin_lock_bh(&lgr->llc_rx_lock);
	clear_bit(del->idx, &lgr->llc_del_links);
	if (left && lgr->max_links >= 2 &&
	    (cause == SMC_SWITCH_DOWN_TESTLINK ||
	     cause == SMC_SWITCH_DOWN_WR_ERROR)) {
		lgr->llc_retry_delay = SMC_LGR_RETRY_FIRST;
		mod_delayed_work(smc_lgr_wq, &lgr->llc_retry_work,
				 SMC_LGR_RETRY_FIRST);
	}
	spin_unlock_bh(&lgr->llc_rx_lock);
	/* before the clear: the group's crit_dev may be @del's device */
	smc_lgr_set_type(lgr, left ? SMC_LGR_SINGLE : SMC_LGR_NONE);
	smc_lgr_link_clear(del);
	if (!left)
		smc_lgr_terminate_async(lgr, SMC_LLC_DEL_LOST_PATH);
}

/*
 * A link of ours failed and its connections moved (smc_switch.c): the
 * peer deletes it too.  The server asks the client and waits for its
 * answer; the client asks the server, which sends the request back as
 * its own, and the link is gone by then (the answer says "no such
 * link"), as the reference implementation's client does.
 */
static void smc_llc_local_delete_link(struct smc_link_group *lgr, int idx)
{
	struct smc_lgr_link *del = &lgr->lnk[idx], *lnk;
	struct smc_llc_msg_info req, resp;

	lockdep_assert_held(&lgr->llc_flow_lock);
	if (del->state != SMC_LNK_INACTIVE)
		return;		/* the peer deleted it meanwhile */
	lnk = smc_switch_target(lgr, del);
	if (lnk) {
		smc_llc_init_msg(lnk, &req, SMC_LLC_DELETE_LINK,
				 SMC_LLC_FLAG_DEL_LINK_ORDERLY);
		req.delete_link.link_num = del->link_id;
		req.delete_link.reason = del->down_reason ?:
					 SMC_LLC_DEL_LOST_PATH;
		if (lgr->role == SMC_CLNT)
			smc_llc_send_msg(lnk, &req, NULL);
		else if (smc_llc_xchg(lnk, &req, SMC_LLC_WAIT_TIME, NULL,
				      &resp) == -ETIMEDOUT)
			atomic_inc(&lgr->llc_timeouts);
	}
	smc_switch_count(SMC_SWITCH_LINK_DEL_LOCAL);
	smc_llc_link_deleted(del);
}

/**
 * smc_llc_link_lost() - have the flow work delete a failed link
 * @lnk: the link, its connections moved to another one
 *
 * Context: any but hard interrupt.
 */
void smc_llc_link_lost(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;

	spin_lock_bh(&lgr->llc_rx_lock);
	set_bit(lnk->idx, &lgr->llc_del_links);
	queue_work(smc_lgr_wq, &lgr->llc_flow_work);
	spin_unlock_bh(&lgr->llc_rx_lock);
}

/*
 * The peer deletes @del, and @lnk (if not @del) is left: the
 * connections move first, and the exchange follows on a link left.
 * Return: that link, or NULL if the group is ending.
 */
static struct smc_lgr_link *smc_llc_peer_deletes(struct smc_lgr_link *lnk,
						 struct smc_lgr_link *del)
{
	smc_switch_link_fail(del);
	if (lnk != del && smc_switch_usable(lnk))
		return lnk;
	return smc_switch_target(lnk->lgr, del);
}

/*
 * Server: the client asks to delete a link (it lost it) or the group.
 * The server owns every deletion: the request goes back to the client
 * as the server's own and the client answers it.  An id we do not know
 * is a link deleted already; it gets no answer.
 */
static void smc_llc_srv_delete_link(struct smc_lgr_link *lnk,
				    const struct smc_llc_msg_info *m)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info req, resp;
	struct smc_lgr_link *del, *via;

	if (m->flags & SMC_LLC_FLAG_DEL_LINK_ALL) {
		smc_llc_peer_ends_group(lgr);
		smc_llc_send_delete_all(lgr, true, m->delete_link.reason);
		smc_lgr_terminate_async(lgr, 0);
		return;
	}
	del = smc_llc_link_by_id(lgr, m->delete_link.link_num);
	if (!del) {
		smc_llc_count_late(lgr);
		return;
	}
	/* the group's last link: the answer goes, then the group */
	via = smc_switch_target(lgr, del) ? smc_llc_peer_deletes(lnk, del) :
					     NULL;
	smc_llc_init_msg(via ?: lnk, &req, SMC_LLC_DELETE_LINK,
			 m->flags & SMC_LLC_FLAG_DEL_LINK_ORDERLY);
	req.delete_link.link_num = del->link_id;
	req.delete_link.reason = m->delete_link.reason;
	if (smc_llc_xchg(via ?: lnk, &req, SMC_LLC_WAIT_TIME, NULL, &resp) ==
	    -ETIMEDOUT)
		atomic_inc(&lgr->llc_timeouts);
	if (via) {
		smc_switch_count(SMC_SWITCH_LINK_DEL_PEER);
		smc_llc_link_deleted(del);
	} else {
		smc_lgr_terminate_async(lgr, 0);
	}
}

/*
 * Client: the server deletes a link or the group.  The answer names the
 * link asked for, with "no such link" if we have none by that id, and
 * goes out on a link that is left; the connections moved before.
 */
static void smc_llc_cli_delete_link(struct smc_lgr_link *lnk,
				    const struct smc_llc_msg_info *m)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp;
	struct smc_lgr_link *del, *via;

	if (m->flags & SMC_LLC_FLAG_DEL_LINK_ALL) {
		smc_llc_peer_ends_group(lgr);
		smc_lgr_terminate_async(lgr, 0);
		return;
	}
	del = smc_llc_link_by_id(lgr, m->delete_link.link_num);
	/* the group's last link: the answer goes, then the group */
	via = del && smc_switch_target(lgr, del) ?
	      smc_llc_peer_deletes(lnk, del) : NULL;
	smc_llc_init_msg(via ?: lnk, &resp, SMC_LLC_DELETE_LINK,
			 SMC_LLC_FLAG_RESP |
			 (m->flags & SMC_LLC_FLAG_DEL_LINK_ORDERLY));
	resp.delete_link.link_num = m->delete_link.link_num;
	resp.delete_link.reason = del ? 0 : SMC_LLC_DEL_NOLNK;
	if (!del) {
		smc_llc_send_msg(lnk, &resp, NULL);
		return;
	}
	smc_llc_send_wait(via ?: lnk, &resp);
	if (via) {
		smc_switch_count(SMC_SWITCH_LINK_DEL_PEER);
		smc_llc_link_deleted(del);
	} else {
		smc_lgr_terminate_async(lgr, 0);
	}
}

/*
 * Server: a v2 client asks for a link (it has a port back).  Offered if
 * the group can take one; else the request comes back answered, with
 * nothing in it, as the reference implementation answers it.
 */
static void smc_llc_srv_req_add_link(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_llc_msg_info resp;

	if (lgr->type == SMC_LGR_SINGLE && lgr->max_links >= 2) {
		smc_llc_srv_add_link(lnk, false);
		return;
	}
	smc_llc_init_msg(lnk, &resp, SMC_LLC_REQ_ADD_LINK, SMC_LLC_FLAG_RESP);
	smc_llc_send_msg(lnk, &resp, NULL);
}

/* one request of the peer's that starts a flow; llc_flow_lock held */
static void smc_llc_flow_one(struct smc_lgr_link *lnk,
			     const struct smc_llc_msg_info *m)
{
	struct smc_link_group *lgr = lnk->lgr;

	lockdep_assert_held(&lgr->llc_flow_lock);
	switch (m->type) {
	case SMC_LLC_DELETE_LINK:
		if (lgr->role == SMC_SERV)
			smc_llc_srv_delete_link(lnk, m);
		else
			smc_llc_cli_delete_link(lnk, m);
		return;
	case SMC_LLC_ADD_LINK:
		if (lgr->role == SMC_CLNT)
			smc_llc_cli_add_link(lnk, m);
		else	/* a v1 client's invitation */
			smc_llc_srv_add_link(lnk, false);
		return;
	case SMC_LLC_REQ_ADD_LINK:
		if (lgr->role == SMC_SERV)
			smc_llc_srv_req_add_link(lnk);
		return;
	default:
		return;
	}
}

/**
 * smc_llc_flow_work() - run the peer's flows of a group one at a time
 * @work: lgr->llc_flow_work
 *
 * Each request runs under llc_flow_lock, as local flows do, and may wait
 * for the peer's messages: the receive work hands them over meanwhile.
 * Requests for a link that went away, or of a group being torn down,
 * are dropped.  A server's own offer of a second link
 * (smc_llc_add_link_kick()) runs here too, after the requests queued
 * before it.
 *
 * Context: process context, on smc_lgr_wq.
 */
void smc_llc_flow_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  llc_flow_work);
	struct smc_llc_msg_info m;
	struct smc_llc_qentry *e;
	struct smc_lgr_link *lnk;
	unsigned long del;
	bool kick, ask, retry;
	int i;

	/* our failed links first: their connections moved already */
	spin_lock_bh(&lgr->llc_rx_lock);
	del = lgr->llc_del_links;
	lgr->llc_del_links = 0;
	spin_unlock_bh(&lgr->llc_rx_lock);
	for_each_set_bit(i, &del, SMC_LINKS_PER_LGR_MAX) {
		mutex_lock(&lgr->llc_flow_lock);
		if (!READ_ONCE(lgr->torn_down))
			smc_llc_local_delete_link(lgr, i);
		mutex_unlock(&lgr->llc_flow_lock);
	}
	while ((e = smc_llc_pop(lgr, &lgr->llc_flow_list,
				&lgr->llc_flow_cnt))) {
		mutex_lock(&lgr->llc_flow_lock);
		/* a link is cleared only under the lock: its state holds */
		if (lgr->lnk[e->lnk_idx].state != SMC_LNK_UNUSED &&
		    !READ_ONCE(lgr->torn_down) &&
		    !smc_llc_decode(e->buf, e->len, &m))
			smc_llc_flow_one(&lgr->lnk[e->lnk_idx], &m);
		mutex_unlock(&lgr->llc_flow_lock);
		kfree(e);
	}
	spin_lock_bh(&lgr->llc_rx_lock);
	kick = lgr->llc_add_link;
	lgr->llc_add_link = false;
	ask = lgr->llc_req_add_link;
	lgr->llc_req_add_link = false;
	retry = lgr->llc_retry_add;
	lgr->llc_retry_add = false;
	spin_unlock_bh(&lgr->llc_rx_lock);
	if (!kick && !ask && !retry)
		return;
	mutex_lock(&lgr->llc_flow_lock);
	lnk = smc_llc_active_link(lgr);
	if (lnk && !READ_ONCE(lgr->torn_down)) {
		if (lgr->role == SMC_CLNT)
			smc_llc_cli_req_add_link(lnk);
		else
			smc_llc_srv_add_link(lnk, !kick);
	}
	mutex_unlock(&lgr->llc_flow_lock);
}
