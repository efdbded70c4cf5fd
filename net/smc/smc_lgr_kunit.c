// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the link-group layer (smc_lgr.c, smc_llc.c, smc_buf.c)
 * on the rig's Soft-RoCE device rxe1: a server and a client link group
 * in init_net, one link each, connected to each other on the same port
 * the way CLC would connect them, then confirmed over LLC.  Without the
 * device the suite skips, or fails under the rig's need_rdma=1
 * (smc_kunit_rdma.c).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>

#include "smc_bufsize.h"
#include "smc_clc_wire.h"
#include "smc_kunit.h"
#include "smc_lgr.h"
#include "smc_test_hooks.h"

#define LGRT_DEV	"rxe1"
#define LGRT_PORT	1
#define LGRT_WAIT	(30 * HZ)	/* rxe under TCG is slow */
#define LGRT_CONNS	20

static const u8 lgrt_sysid_serv[SMC_SYSTEMID_LEN] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const u8 lgrt_sysid_clnt[SMC_SYSTEMID_LEN] = { 8, 7, 6, 5, 4, 3, 2, 1 };

struct lgrt_ctx {
	struct smc_ib_select sel;
	bool have_sel;
	struct smc_link_group *serv;
	struct smc_link_group *clnt;
	struct work_struct clnt_work;
	int clnt_rc;
	struct smc_connection conns[LGRT_CONNS + 1];
	bool registered[LGRT_CONNS + 1];
};

/* the RoCEv2 GID with an IPv4 address that the rig gives rxe1 */
static int lgrt_find_gid(struct ib_device *dev, u8 *gid)
{
	struct ib_port_attr pattr;
	int i, rc;

	rc = ib_query_port(dev, LGRT_PORT, &pattr);
	if (rc)
		return rc;
	for (i = 0; i < pattr.gid_tbl_len && i < 256; i++) {
		const struct ib_gid_attr *attr;
		bool ok;

		attr = rdma_get_gid_attr(dev, LGRT_PORT, i);
		if (IS_ERR(attr))
			continue;
		ok = attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		     ipv6_addr_v4mapped((struct in6_addr *)attr->gid.raw);
		if (ok)
			memcpy(gid, attr->gid.raw, SMC_GID_SIZE);
		rdma_put_gid_attr(attr);
		if (ok)
			return 0;
	}
	return -ENODEV;
}

/* smc_lgr_dump() callback: count the groups, stop after *max */
static int lgrt_count(struct smc_link_group *lgr, void *arg)
{
	int *left = arg;

	lockdep_assert_held(&lgr->lock);
	if (!*left)
		return -EMSGSIZE;
	(*left)--;
	return 0;
}

static void lgrt_clnt_confirm(struct work_struct *work)
{
	struct lgrt_ctx *c = container_of(work, struct lgrt_ctx, clnt_work);

	c->clnt_rc = smc_llc_confirm_link_clnt(&c->clnt->lnk[0], NULL);
}

static int lgrt_init(struct kunit *test)
{
	struct ib_device *dev;
	struct lgrt_ctx *c;
	u8 gid[SMC_GID_SIZE];
	int rc;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	INIT_WORK(&c->clnt_work, lgrt_clnt_confirm);
	test->priv = c;
	dev = smc_kunit_rdma_dev(test, LGRT_DEV);
	rc = lgrt_find_gid(dev, gid);
	ib_device_put(dev);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "no RoCEv2 IPv4 GID on " LGRT_DEV);
	KUNIT_ASSERT_EQ_MSG(test, smc_ib_find_by_gid(gid, &c->sel), 0,
			    "smc_ib does not know the GID of " LGRT_DEV);
	c->have_sel = true;
	KUNIT_ASSERT_EQ(test, smc_lgr_count(&init_net), 0);
	return 0;
}

static void lgrt_exit(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	int i;

	if (!c)
		return;
	flush_work(&c->clnt_work);
	for (i = 0; i <= LGRT_CONNS; i++)
		if (c->registered[i])
			smc_lgr_conn_unregister(&c->conns[i]);
	if (c->serv) {
		smc_lgr_terminate(c->serv, 0);
		smc_lgr_put(c->serv);
	}
	if (c->clnt) {
		smc_lgr_terminate(c->clnt, 0);
		smc_lgr_put(c->clnt);
	}
	if (c->have_sel)
		smc_ib_put(c->sel.dev);
}

/* both groups with one link each, as the CLC Accept and Confirm leave them */
static void lgrt_pair_init(struct kunit *test, u8 version)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sl, *cl;

	c->serv = smc_lgr_create(&init_net, SMC_SERV, version,
				 lgrt_sysid_clnt, 0);
	KUNIT_ASSERT_NOT_NULL(test, c->serv);
	c->clnt = smc_lgr_create(&init_net, SMC_CLNT, version,
				 lgrt_sysid_serv, 0);
	KUNIT_ASSERT_NOT_NULL(test, c->clnt);
	/* same port on both ends: no gateway in between */
	c->serv->v2_direct = true;
	c->clnt->v2_direct = true;
	KUNIT_ASSERT_EQ(test, smc_lgr_link_init(c->serv, 0, &c->sel), 0);
	KUNIT_ASSERT_EQ(test, smc_lgr_link_init(c->clnt, 0, &c->sel), 0);
	sl = &c->serv->lnk[0];
	cl = &c->clnt->lnk[0];
	KUNIT_EXPECT_EQ(test, sl->state, SMC_LNK_ACTIVATING);
	KUNIT_EXPECT_NE(test, sl->link_id, 0);
	KUNIT_EXPECT_EQ(test, cl->link_id, 0);
	/* what CLC Accept and Confirm carry */
	smc_lgr_link_set_peer(sl, cl->wr.qp->qp_num, cl->wr.psn,
			      cl->wr.gid.raw, cl->wr.mac, IB_MTU_1024);
	smc_lgr_link_set_peer(cl, sl->wr.qp->qp_num, sl->wr.psn,
			      sl->wr.gid.raw, sl->wr.mac, IB_MTU_1024);
	/* the client is in RTR before it sends the CLC Confirm */
	KUNIT_ASSERT_EQ(test, smc_lgr_link_rtr(cl), 0);
}

/* the first links of lgrt_pair_init() confirmed, as after a first contact */
static void lgrt_confirm(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sl, *cl;
	int rc;

	sl = &c->serv->lnk[0];
	cl = &c->clnt->lnk[0];
	queue_work(system_unbound_wq, &c->clnt_work);
	rc = smc_llc_confirm_link_serv(sl, NULL);
	flush_work(&c->clnt_work);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_ASSERT_EQ(test, c->clnt_rc, 0);
	KUNIT_EXPECT_EQ(test, sl->state, SMC_LNK_ACTIVE);
	KUNIT_EXPECT_EQ(test, cl->state, SMC_LNK_ACTIVE);
	KUNIT_EXPECT_EQ(test, sl->link_id, cl->link_id);
	KUNIT_EXPECT_EQ(test, c->serv->type, SMC_LGR_SINGLE);
	KUNIT_EXPECT_EQ(test, c->clnt->type, SMC_LGR_SINGLE);
	KUNIT_EXPECT_EQ(test, sl->peer_link_uid, cl->link_uid);
	KUNIT_EXPECT_EQ(test, cl->peer_link_uid, sl->link_uid);
}

/* both groups with one link each, confirmed as after a first contact */
static void lgrt_pair_up(struct kunit *test, u8 version)
{
	lgrt_pair_init(test, version);
	lgrt_confirm(test);
}

/*
 * The handshake cancels the first CONFIRM_LINK wait when a Decline comes
 * on the clcsock: each side then ends it at once, the link unconfirmed.
 */
static void smc_lgr_confirm_cancel(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	bool cancel = true;

	lgrt_pair_init(test, SMC_CLC_V2);
	KUNIT_EXPECT_EQ(test, smc_llc_confirm_link_clnt(&c->clnt->lnk[0],
							&cancel), -EINTR);
	KUNIT_EXPECT_EQ(test, c->clnt->lnk[0].state, SMC_LNK_ACTIVATING);
	KUNIT_EXPECT_EQ(test, smc_llc_confirm_link_serv(&c->serv->lnk[0],
							&cancel), -EINTR);
	KUNIT_EXPECT_EQ(test, c->serv->lnk[0].state, SMC_LNK_ACTIVATING);
	KUNIT_EXPECT_NE(test, c->serv->type, SMC_LGR_SINGLE);
}

/* first contact, TEST_LINK, and who may reuse the groups */
static void smc_lgr_confirm(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_match m = {};
	struct smc_link_group *lgr;
	struct smc_lgr_link *sl, *cl, *lnk = NULL;
	long pos;
	int left;

	lgrt_pair_up(test, SMC_CLC_V1);
	sl = &c->serv->lnk[0];
	cl = &c->clnt->lnk[0];
	KUNIT_EXPECT_EQ(test, smc_llc_test_link(cl), 0);
	KUNIT_EXPECT_EQ(test, smc_llc_test_link(sl), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_unknown), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_unknown), 0);
	KUNIT_EXPECT_GE(test, atomic_read(&c->sel.dev->crit_cnt), 2);
	KUNIT_EXPECT_GE(test, atomic_read(&c->sel.dev->ports[0].lnk_cnt), 2);

	/* the netlink walk: all groups, and a continuation after one */
	left = 10;
	pos = 0;
	smc_lgr_dump(&init_net, &pos, lgrt_count, &left);
	KUNIT_EXPECT_EQ(test, pos, 2);
	KUNIT_EXPECT_EQ(test, left, 8);
	left = 1;
	pos = 0;
	smc_lgr_dump(&init_net, &pos, lgrt_count, &left);
	KUNIT_EXPECT_EQ(test, pos, 1);
	left = 10;
	smc_lgr_dump(&init_net, &pos, lgrt_count, &left);
	KUNIT_EXPECT_EQ(test, pos, 2);
	KUNIT_EXPECT_EQ(test, left, 9);

	/* the server reuses its group for the same peer */
	m.role = SMC_SERV;
	m.smc_version = SMC_CLC_V1;
	m.peer_systemid = lgrt_sysid_clnt;
	m.peer_gid = sl->peer_gid;
	m.peer_mac = sl->peer_mac;
	lgr = smc_lgr_find(&init_net, &m, &lnk);
	KUNIT_EXPECT_PTR_EQ(test, lgr, c->serv);
	KUNIT_EXPECT_PTR_EQ(test, lnk, sl);
	if (lgr)
		smc_lgr_put(lgr);
	m.vlan_id = 7;
	KUNIT_EXPECT_NULL(test, smc_lgr_find(&init_net, &m, &lnk));
	m.vlan_id = 0;
	m.peer_systemid = lgrt_sysid_serv;
	KUNIT_EXPECT_NULL(test, smc_lgr_find(&init_net, &m, &lnk));
	c->serv->sync_err = true;
	m.peer_systemid = lgrt_sysid_clnt;
	KUNIT_EXPECT_NULL(test, smc_lgr_find(&init_net, &m, &lnk));
	c->serv->sync_err = false;

	/* the client needs the QPN of the Accept */
	m.role = SMC_CLNT;
	m.peer_systemid = lgrt_sysid_serv;
	m.peer_gid = cl->peer_gid;
	m.peer_mac = cl->peer_mac;
	m.peer_qpn = sl->wr.qp->qp_num;
	lgr = smc_lgr_find(&init_net, &m, &lnk);
	KUNIT_EXPECT_PTR_EQ(test, lgr, c->clnt);
	if (lgr)
		smc_lgr_put(lgr);
	m.peer_qpn++;
	KUNIT_EXPECT_NULL(test, smc_lgr_find(&init_net, &m, &lnk));
}

/* an RMB announced and withdrawn over LLC v2; buffers are reused */
static void smc_lgr_rkey(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_buf_desc *rmb, *again, *sbuf;
	struct smc_lgr_link *sl, *cl;
	struct ib_mr *mr;
	int idx, idx2;
	u32 rkey;

	lgrt_pair_up(test, SMC_CLC_V2);
	sl = &c->serv->lnk[0];
	cl = &c->clnt->lnk[0];
	rmb = smc_buf_get(c->serv, true, 20000);
	KUNIT_ASSERT_NOT_NULL(test, rmb);
	KUNIT_EXPECT_EQ(test, rmb->len, 32768U);
	KUNIT_EXPECT_EQ(test, rmb->comp, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(0, &rmb->regd));
	rkey = rmb->mr[0].rkey;
	mr = rmb->mr[0].mr;
	KUNIT_EXPECT_EQ(test, smc_llc_confirm_rkey(sl, rmb), 0);
	KUNIT_EXPECT_TRUE(test, rmb->confirmed);
	idx = smc_rtoken_find(c->clnt, cl->idx, rkey);
	KUNIT_ASSERT_GE(test, idx, 0);
	KUNIT_EXPECT_EQ(test, c->clnt->rtokens[idx][0].vaddr, rmb->mr[0].addr);
	/* announced twice: the peer keeps one rtoken */
	KUNIT_EXPECT_EQ(test, smc_llc_confirm_rkey(sl, rmb), 0);
	idx2 = smc_rtoken_find(c->clnt, cl->idx, rkey);
	KUNIT_EXPECT_EQ(test, idx2, idx);
	KUNIT_EXPECT_EQ(test, bitmap_weight(c->clnt->rtokens_used,
					    SMC_RMBS_PER_LGR_MAX), 1);

	KUNIT_EXPECT_EQ(test, smc_llc_delete_rkey(sl, rmb), 0);
	KUNIT_EXPECT_FALSE(test, rmb->confirmed);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(c->clnt, cl->idx, rkey),
			-ENOENT);
	/* the peer reports an rkey it does not know */
	KUNIT_EXPECT_EQ(test, smc_llc_delete_rkey(sl, rmb), -ENOENT);

	/* put and get again: the same buffer, zeroed, still registered */
	memset(rmb->cpu_addr, 0xab, rmb->len);
	smc_buf_put(c->serv, rmb);
	again = smc_buf_get(c->serv, true, 32768);
	KUNIT_EXPECT_PTR_EQ(test, again, rmb);
	KUNIT_EXPECT_PTR_EQ(test, rmb->mr[0].mr, mr);
	KUNIT_EXPECT_EQ(test, rmb->mr[0].rkey, rkey);
	KUNIT_EXPECT_EQ(test, ((u8 *)rmb->cpu_addr)[100], 0);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&c->serv->rmbs[1]));
	/* in use: a second one is a new buffer */
	again = smc_buf_get(c->serv, true, 32768);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_PTR_NE(test, again, rmb);
	KUNIT_EXPECT_NE(test, again->mr[0].rkey, rkey);

	sbuf = smc_buf_get(c->clnt, false, 16384);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_EXPECT_TRUE(test, test_bit(0, &sbuf->regd));
	KUNIT_EXPECT_NE(test, sbuf->dma[0], 0);
	smc_buf_put(c->clnt, sbuf);

	/* the rtoken table on its own */
	idx = smc_rtoken_add(c->clnt, 0, 0x1000, 77);
	KUNIT_EXPECT_GE(test, idx, 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_add(c->clnt, 0, 0x1000, 77), idx);
	KUNIT_EXPECT_EQ(test, smc_rtoken_set_link(c->clnt, idx, 1, 0x2000, 78),
			0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(c->clnt, 1, 78), idx);
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(c->clnt, 78), 0);
	KUNIT_EXPECT_EQ(test, smc_rtoken_find(c->clnt, 0, 77), -ENOENT);
	KUNIT_EXPECT_EQ(test, smc_rtoken_delete(c->clnt, 78), -ENOENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_unknown), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_unknown), 0);
}

/*
 * As many RMBs as the peer has rtokens: a connection gets a free RMB of
 * another size rather than one more RMB; only with none free is one
 * more allocated, and freed when put unless it was announced.
 */
static void smc_lgr_rmb_limit(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_buf_desc *small, *got;

	lgrt_pair_up(test, SMC_CLC_V2);
	small = smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, small);
	KUNIT_EXPECT_EQ(test, c->serv->rmbs_num, 1U);
	smc_buf_put(c->serv, small);

	mutex_lock(&c->serv->bufs_lock);
	c->serv->rmbs_num = SMC_RMBS_PER_LGR_MAX;
	mutex_unlock(&c->serv->bufs_lock);
	got = smc_buf_get(c->serv, true, 4 * SMC_BUF_MIN_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, got, small);
	KUNIT_EXPECT_TRUE(test, list_empty(&c->serv->rmbs[2]));
	got = smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_PTR_NE(test, got, small);
	KUNIT_EXPECT_EQ(test, c->serv->rmbs_num, SMC_RMBS_PER_LGR_MAX + 1);
	/* never announced: freed when put, so the group is back at the limit */
	smc_buf_put(c->serv, got);
	KUNIT_EXPECT_EQ(test, c->serv->rmbs_num, SMC_RMBS_PER_LGR_MAX);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&c->serv->rmbs[0]));
	/* an announced one is the peer's rtoken: it stays */
	got = smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, got);
	got->confirmed = true;
	smc_buf_put(c->serv, got);
	KUNIT_EXPECT_EQ(test, c->serv->rmbs_num, SMC_RMBS_PER_LGR_MAX + 1);
	KUNIT_EXPECT_FALSE(test, list_is_singular(&c->serv->rmbs[0]));
	/* send buffers are no rtokens: not limited */
	got = smc_buf_get(c->serv, false, SMC_BUF_MIN_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, got);
	smc_buf_put(c->serv, got);
	smc_buf_put(c->serv, small);
}

/*
 * An RMB we aborted on: the peer's late WRITEs may still land, so it is
 * not handed out again before its quarantine ends, and then zeroed.
 */
static void smc_lgr_rmb_quarantine(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_buf_desc *rmb, *other, *got;

	lgrt_pair_up(test, SMC_CLC_V2);
	rmb = smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, rmb);
	rmb->confirmed = true;
	smc_buf_quarantine(rmb);
	smc_buf_put(c->serv, rmb);
	/* a late WRITE of the aborted connection */
	memset(rmb->cpu_addr, 0x5a, 64);
	other = smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_PTR_NE(test, other, rmb);
	other->confirmed = true;
	/* the quarantine is over: handed out again, and zeroed */
	WRITE_ONCE(rmb->quarantine_end, (jiffies - 1) | 1);
	got = smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, got, rmb);
	KUNIT_EXPECT_NULL(test, memchr_inv(rmb->cpu_addr, 0, rmb->len));
	KUNIT_EXPECT_EQ(test, rmb->quarantine_end, 0UL);
	if (got)
		smc_buf_put(c->serv, got);
	smc_buf_put(c->serv, other);
}

/* alert tokens: nonzero and unique; the group's connection limit */
static void smc_lgr_conns(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	int i, j;

	lgrt_pair_up(test, SMC_CLC_V1);
	c->serv->max_conns = LGRT_CONNS;
	for (i = 0; i < LGRT_CONNS; i++) {
		KUNIT_ASSERT_EQ(test, smc_lgr_conn_register(c->serv, &c->conns[i]),
				0);
		c->registered[i] = true;
		KUNIT_EXPECT_NE(test, c->conns[i].alert_token_local, 0);
		KUNIT_EXPECT_PTR_EQ(test, c->conns[i].lgr, c->serv);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, c->conns[i].alert_token_local,
					c->conns[j].alert_token_local);
	}
	KUNIT_EXPECT_EQ(test, c->serv->conns_num, LGRT_CONNS);
	KUNIT_EXPECT_EQ(test, smc_lgr_conn_register(c->serv,
						    &c->conns[LGRT_CONNS]),
			-ENOSPC);
	spin_lock_bh(&c->serv->lock);
	KUNIT_EXPECT_PTR_EQ(test, smc_lgr_conn_find(c->serv,
						    c->conns[3].alert_token_local),
			    &c->conns[3]);
	spin_unlock_bh(&c->serv->lock);
	for (i = 0; i < LGRT_CONNS; i++) {
		smc_lgr_conn_unregister(&c->conns[i]);
		c->registered[i] = false;
		KUNIT_EXPECT_NULL(test, c->conns[i].lgr);
	}
	KUNIT_EXPECT_EQ(test, c->serv->conns_num, 0);
	/* idle for the default 600 s now: still there */
	KUNIT_EXPECT_FALSE(test, c->serv->terminating);
	KUNIT_EXPECT_EQ(test, kref_read(&c->serv->ref), 3);
}

/* termination with the links up takes the peer's group down too */
static void smc_lgr_terminate_up(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;

	lgrt_pair_up(test, SMC_CLC_V1);
	KUNIT_ASSERT_EQ(test, smc_lgr_conn_register(c->clnt, &c->conns[0]), 0);
	c->registered[0] = true;
	smc_lgr_terminate(c->serv, SMC_LLC_DEL_OP_INIT_TERM);
	KUNIT_EXPECT_TRUE(test, smc_lgr_wait_gone(c->serv, 0));
	KUNIT_EXPECT_EQ(test, c->serv->lnk[0].state, SMC_LNK_UNUSED);
	/* the client got DELETE_LINK ALL */
	KUNIT_ASSERT_TRUE(test, smc_lgr_wait_gone(c->clnt, LGRT_WAIT));
	KUNIT_EXPECT_TRUE(test, READ_ONCE(c->conns[0].killed));
	KUNIT_EXPECT_EQ(test, c->clnt->term_reason, 0);
	KUNIT_EXPECT_EQ(test, smc_lgr_conn_register(c->clnt, &c->conns[1]),
			-ENOLINK);
	KUNIT_EXPECT_EQ(test, smc_lgr_count(&init_net), 0);
	smc_lgr_conn_unregister(&c->conns[0]);
	c->registered[0] = false;
	/* the server's group lives on for its holder only */
	KUNIT_EXPECT_EQ(test, kref_read(&c->serv->ref), 1);
}

/*
 * An RMB whose IB_WR_REG_MR cannot go out (the link went down under it)
 * is not handed out and leaves no MR behind on the link's PD.
 */
static void smc_lgr_buf_reg_fails(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sl;
	int pd_users;

	lgrt_pair_up(test, SMC_CLC_V2);
	sl = &c->serv->lnk[0];
	pd_users = atomic_read(&sl->wr.pd->usecnt);
	/* posts fail from now on; the group has not noticed it yet */
	set_bit(SMC_WR_LINK_DOWN, &sl->wr.flags);
	KUNIT_EXPECT_NULL(test, smc_buf_get(c->serv, true, SMC_BUF_MIN_SIZE));
	KUNIT_EXPECT_EQ(test, atomic_read(&sl->wr.pd->usecnt), pd_users);
	clear_bit(SMC_WR_LINK_DOWN, &sl->wr.flags);
}

/* an idle group is freed after its delay, and tells the peer */
static void smc_lgr_idle_free(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;

	lgrt_pair_up(test, SMC_CLC_V1);
	c->serv->free_delay = HZ / 10;
	KUNIT_ASSERT_EQ(test, smc_lgr_conn_register(c->serv, &c->conns[0]), 0);
	smc_lgr_conn_unregister(&c->conns[0]);
	KUNIT_ASSERT_TRUE(test, smc_lgr_wait_gone(c->serv, LGRT_WAIT));
	KUNIT_EXPECT_EQ(test, c->serv->term_reason, SMC_LGR_REASON_FREE);
	KUNIT_ASSERT_TRUE(test, smc_lgr_wait_gone(c->clnt, LGRT_WAIT));
	KUNIT_EXPECT_EQ(test, smc_lgr_count(&init_net), 0);
}

/* an LLC message as a peer might send it, past our own flows */
static int lgrt_send_raw(struct smc_lgr_link *lnk,
			 const struct smc_llc_msg_info *m)
{
	struct smc_wr_tx_slot *slot;
	int rc, len;

	rc = smc_wr_send_slot_get(&lnk->wr, &slot, SMC_WR_SLOT_CTRL,
				  SMC_WR_SEND_WAIT);
	if (rc)
		return rc;
	len = smc_llc_encode(smc_wr_slot_buf(slot), SMC_WR_TX_SIZE, m,
			     SMC_LLC_ORDER_LE);
	if (len < 0) {
		smc_wr_send_slot_put(&lnk->wr, slot);
		return len;
	}
	return smc_wr_send(&lnk->wr, slot, NULL, NULL);
}

/*
 * Everything @from sent before is handled at the peer, and the answers
 * the peer's flows gave to it are handled here: the peer answered a
 * TEST_LINK sent after it, its flows ended, and it answered a TEST_LINK
 * sent after their answers.
 */
static void lgrt_sync(struct kunit *test, struct smc_lgr_link *from,
		      struct smc_lgr_link *to)
{
	KUNIT_ASSERT_EQ(test, smc_llc_test_link(from), 0);
	flush_work(&to->lgr->llc_flow_work);
	KUNIT_ASSERT_EQ(test, smc_llc_test_link(to), 0);
}

/*
 * Peer behaviour: a type with no handler here is counted and dropped;
 * the client rejects the server's ADD_LINK; a response no flow waits
 * for, such as that rejection reaching a server that asked for nothing
 * or a CONFIRM_RKEY response after its flow timed out, is counted and
 * dropped and both groups live on.  The LLC receive work handles
 * messages in order, so a TEST_LINK answered after a message means the
 * message was handled, or handed to the flow work (lgrt_sync()).
 */
static void smc_lgr_llc_peer(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_llc_msg_info m = {};
	struct smc_lgr_link *sl;

	lgrt_pair_up(test, SMC_CLC_V1);
	sl = &c->serv->lnk[0];
	m.type = SMC_LLC_CONFIRM_RKEY_CONT;
	m.version = SMC_LLC_V1;
	KUNIT_ASSERT_EQ(test, lgrt_send_raw(sl, &m), 0);
	KUNIT_ASSERT_EQ(test, smc_llc_test_link(sl), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_unknown), 1);
	KUNIT_EXPECT_FALSE(test, c->clnt->terminating);

	memset(&m, 0, sizeof(m));
	m.type = SMC_LLC_ADD_LINK;
	m.version = SMC_LLC_V1;
	memcpy(m.add_link.gid, sl->wr.gid.raw, SMC_LLC_GID_SIZE);
	ether_addr_copy(m.add_link.mac, sl->wr.mac);
	m.add_link.link_num = sl->link_id + 1;
	m.add_link.qp_mtu = IB_MTU_1024;
	KUNIT_ASSERT_EQ(test, lgrt_send_raw(sl, &m), 0);
	lgrt_sync(test, sl, &c->clnt->lnk[0]);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_late), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_unknown), 0);

	/* the client's answer to a CONFIRM_RKEY its server gave up on */
	memset(&m, 0, sizeof(m));
	m.type = SMC_LLC_CONFIRM_RKEY;
	m.flags = SMC_LLC_FLAG_RESP;
	m.version = SMC_LLC_V1;
	KUNIT_ASSERT_EQ(test, lgrt_send_raw(&c->clnt->lnk[0], &m), 0);
	KUNIT_ASSERT_EQ(test, smc_llc_test_link(&c->clnt->lnk[0]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_late), 2);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(c->serv->terminating));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(c->clnt->terminating));
	KUNIT_EXPECT_EQ(test, smc_lgr_count(&init_net), 2);
}

/*
 * The keepalive wants its own answer: the peer's TEST_LINK request,
 * which a path broken one way still lets through, does not answer
 * ours, and the link goes down once the answer is overdue.
 */
static void smc_lgr_testlink_one_way(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sl;

	lgrt_pair_up(test, SMC_CLC_V1);
	sl = &c->serv->lnk[0];
	cancel_delayed_work_sync(&sl->testlink_work);
	/*
	 * ours went out longer ago than the 2 s an answer may take, and
	 * none came since
	 */
	sl->testlink_sent = jiffies - 3 * HZ;
	WRITE_ONCE(sl->last_rx_alive, sl->testlink_sent - HZ);
	sl->testlink_pending = true;
	/* the peer's keepalive comes in and is answered */
	KUNIT_ASSERT_EQ(test, smc_llc_test_link(&c->clnt->lnk[0]), 0);
	KUNIT_EXPECT_TRUE(test, time_after(READ_ONCE(sl->last_rx),
					   sl->testlink_sent));
	smc_llc_testlink_work(&sl->testlink_work.work);
	KUNIT_EXPECT_TRUE(test, test_bit(SMC_WR_LINK_DOWN, &sl->wr.flags));
	KUNIT_EXPECT_TRUE(test, smc_lgr_wait_gone(c->serv, LGRT_WAIT));
}

/*
 * First contacts from as many (spoofable) peers as there may be run at
 * once; one more is refused until one of them ends.
 */
static void smc_lgr_first_contact_cap(struct kunit *test)
{
	struct smc_link_group *lgrs[SMC_LGR_FIRST_CONTACTS_MAX + 1] = {};
	u8 sysid[SMC_LGR_FIRST_CONTACTS_MAX + 1][SMC_SYSTEMID_LEN] = {};
	struct smc_lgr_match m = {
		.role = SMC_SERV,
		.smc_version = SMC_CLC_V2,
	};
	struct smc_link_group *more;
	int i;

	for (i = 0; i <= SMC_LGR_FIRST_CONTACTS_MAX; i++) {
		sysid[i][0] = 0x40;
		sysid[i][7] = i;
		m.peer_systemid = sysid[i];
		lgrs[i] = smc_lgr_create_unique(&init_net, &m);
		if (IS_ERR(lgrs[i]))
			break;
	}
	KUNIT_EXPECT_EQ(test, i, SMC_LGR_FIRST_CONTACTS_MAX);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(lgrs[i]), -EBUSY);
	lgrs[i] = NULL;
	/* one ends: the next first contact runs */
	smc_lgr_terminate(lgrs[0], 0);
	smc_lgr_put(lgrs[0]);
	lgrs[0] = NULL;
	m.peer_systemid = sysid[SMC_LGR_FIRST_CONTACTS_MAX];
	more = smc_lgr_create_unique(&init_net, &m);
	KUNIT_EXPECT_FALSE(test, IS_ERR(more));
	if (!IS_ERR(more))
		lgrs[0] = more;
	for (i = 0; i <= SMC_LGR_FIRST_CONTACTS_MAX; i++) {
		if (IS_ERR_OR_NULL(lgrs[i]))
			continue;
		smc_lgr_terminate(lgrs[i], 0);
		smc_lgr_put(lgrs[i]);
	}
}

/* a DELETE_LINK request for the link @from has, as the peer of @from */
static void lgrt_delete_link(struct smc_llc_msg_info *m,
			     struct smc_lgr_link *from, u8 link_num)
{
	memset(m, 0, sizeof(*m));
	m->type = SMC_LLC_DELETE_LINK;
	m->version = from->wr.v2 ? SMC_LLC_V2 : SMC_LLC_V1;
	m->flags = SMC_LLC_FLAG_DEL_LINK_ORDERLY;
	m->delete_link.link_num = link_num;
	m->delete_link.reason = SMC_LLC_DEL_LOST_PATH;
}

/*
 * The server owns a deletion: a client's DELETE_LINK request comes back
 * as the server's request, which the client answers before it lets the
 * link go.  The server's flow waits for that answer while the receive
 * work hands it over: no flow times out and no answer comes late.  With
 * their only link deleted, both groups end.
 */
static void smc_lgr_delete_link_served(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_llc_msg_info m;
	struct smc_lgr_link *cl;

	lgrt_pair_up(test, SMC_CLC_V2);
	cl = &c->clnt->lnk[0];
	lgrt_delete_link(&m, cl, cl->link_id);
	KUNIT_ASSERT_EQ(test, lgrt_send_raw(cl, &m), 0);
	KUNIT_EXPECT_TRUE(test, smc_lgr_wait_gone(c->serv, LGRT_WAIT));
	KUNIT_EXPECT_TRUE(test, smc_lgr_wait_gone(c->clnt, LGRT_WAIT));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_timeouts), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_late), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_late), 0);
	KUNIT_EXPECT_EQ(test, smc_lgr_count(&init_net), 0);
}

/*
 * A DELETE_LINK request for a link id nobody has: the server drops the
 * client's (a link deleted already) without an answer, the client
 * answers the server's with "no such link".  Both groups live on.
 */
static void smc_lgr_delete_link_unknown(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sl, *cl;
	struct smc_llc_msg_info m;

	lgrt_pair_up(test, SMC_CLC_V1);
	sl = &c->serv->lnk[0];
	cl = &c->clnt->lnk[0];
	lgrt_delete_link(&m, cl, cl->link_id + 1);
	KUNIT_ASSERT_EQ(test, lgrt_send_raw(cl, &m), 0);
	lgrt_sync(test, cl, sl);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_late), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_late), 0);

	lgrt_delete_link(&m, sl, sl->link_id + 1);
	KUNIT_ASSERT_EQ(test, lgrt_send_raw(sl, &m), 0);
	lgrt_sync(test, sl, cl);
	/* the answer reaches a server that asked for nothing */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_late), 2);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(c->serv->terminating));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(c->clnt->terminating));
	KUNIT_EXPECT_EQ(test, smc_lgr_count(&init_net), 2);
}

/* a client that ends the group ends the server's too */
static void smc_lgr_terminate_by_client(struct kunit *test)
{
	struct lgrt_ctx *c = test->priv;

	lgrt_pair_up(test, SMC_CLC_V1);
	smc_lgr_terminate(c->clnt, SMC_LLC_DEL_OP_INIT_TERM);
	KUNIT_EXPECT_TRUE(test, smc_lgr_wait_gone(c->clnt, 0));
	KUNIT_EXPECT_TRUE(test, smc_lgr_wait_gone(c->serv, LGRT_WAIT));
	KUNIT_EXPECT_EQ(test, c->serv->term_reason, 0);
	KUNIT_EXPECT_EQ(test, smc_lgr_count(&init_net), 0);
}

/* the device kunit.sh gives a second veth in rxe1's subnet */
#define LGRT_DEV2	"rxe2"
#define LGRT_RMBS_SERV	3	/* v1: two ADD_LINK_CONT rounds */

/*
 * A first contact, the PNETIDs of the first ports as given ("NOALT"
 * matches no device), RMBs announced on the first link; then the groups
 * may have two links and the server offers the second, which has run to
 * its end when this returns.
 */
static void lgrt_pair_two(struct kunit *test, u8 version,
			  const char *serv_pnetid, const char *clnt_pnetid,
			  struct smc_buf_desc **rmbs)
{
	struct lgrt_ctx *c = test->priv;
	int i;

	lgrt_pair_init(test, version);
	/* the RoCEv2 GID holds the first link's address, v2's saddr */
	memcpy(&c->serv->saddr, &c->serv->lnk[0].wr.gid.raw[12], 4);
	memcpy(&c->clnt->saddr, &c->clnt->lnk[0].wr.gid.raw[12], 4);
	strscpy(c->serv->pnetid, serv_pnetid, sizeof(c->serv->pnetid));
	strscpy(c->clnt->pnetid, clnt_pnetid, sizeof(c->clnt->pnetid));
	lgrt_confirm(test);
	for (i = 0; i < LGRT_RMBS_SERV; i++) {
		rmbs[i] = smc_buf_get(c->serv, true, 16384 << i);
		KUNIT_ASSERT_NOT_NULL(test, rmbs[i]);
		KUNIT_ASSERT_EQ(test, smc_llc_confirm_rkey(&c->serv->lnk[0],
							   rmbs[i]), 0);
	}
	rmbs[i] = smc_buf_get(c->clnt, true, 16384);
	KUNIT_ASSERT_NOT_NULL(test, rmbs[i]);
	KUNIT_ASSERT_EQ(test, smc_llc_confirm_rkey(&c->clnt->lnk[0], rmbs[i]),
			0);
	c->serv->max_links = 2;
	c->clnt->max_links = 2;
	smc_llc_add_link_kick(c->serv);
	flush_work(&c->serv->llc_flow_work);
	flush_work(&c->clnt->llc_flow_work);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_timeouts), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_timeouts), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_late), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->clnt->llc_late), 0);
}

/* @rmb of @from, as @to knows it on @to's link @idx */
static void lgrt_expect_rtoken(struct kunit *test, struct smc_link_group *to,
			       struct smc_buf_desc *rmb, int from_idx, int idx)
{
	int i = smc_rtoken_find(to, 0, rmb->mr[0].rkey);

	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_EQ(test, to->rtokens[i][idx].rkey,
			rmb->mr[from_idx].rkey);
	KUNIT_EXPECT_EQ(test, to->rtokens[i][idx].vaddr,
			rmb->mr[from_idx].addr);
}

/*
 * Two links both ways: the new link ACTIVE on both groups with the
 * server's next id, each end on the other device, every announced RMB
 * known on it with its new rkey (v2: in ADD_LINK, v1: ADD_LINK_CONT),
 * and the new QPs talk to each other.
 */
static void lgrt_add_link_symmetric(struct kunit *test, u8 version)
{
	struct smc_buf_desc *rmbs[LGRT_RMBS_SERV + 1];
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sn, *cn;
	int i;

	lgrt_pair_two(test, version, "", "", rmbs);
	sn = &c->serv->lnk[1];
	cn = &c->clnt->lnk[1];
	KUNIT_EXPECT_EQ(test, c->serv->type, SMC_LGR_SYMMETRIC);
	KUNIT_EXPECT_EQ(test, c->clnt->type, SMC_LGR_SYMMETRIC);
	KUNIT_ASSERT_EQ(test, sn->state, SMC_LNK_ACTIVE);
	KUNIT_ASSERT_EQ(test, cn->state, SMC_LNK_ACTIVE);
	KUNIT_EXPECT_EQ(test, sn->link_id, c->serv->lnk[0].link_id + 1);
	KUNIT_EXPECT_EQ(test, cn->link_id, sn->link_id);
	KUNIT_EXPECT_STREQ(test, dev_name(&sn->wr.ibdev->dev), LGRT_DEV2);
	KUNIT_EXPECT_STREQ(test, dev_name(&cn->wr.ibdev->dev), LGRT_DEV2);
	KUNIT_EXPECT_EQ(test, sn->peer_qpn, cn->wr.qp->qp_num);
	KUNIT_EXPECT_EQ(test, cn->peer_qpn, sn->wr.qp->qp_num);
	KUNIT_EXPECT_EQ(test, sn->peer_link_uid, cn->link_uid);
	KUNIT_EXPECT_EQ(test, cn->peer_link_uid, sn->link_uid);
	for (i = 0; i < LGRT_RMBS_SERV; i++)
		lgrt_expect_rtoken(test, c->clnt, rmbs[i], sn->idx, cn->idx);
	lgrt_expect_rtoken(test, c->serv, rmbs[i], cn->idx, sn->idx);
	KUNIT_EXPECT_EQ(test, smc_llc_test_link(sn), 0);
	KUNIT_EXPECT_EQ(test, smc_llc_test_link(cn), 0);
}

static void smc_lgr_add_link_v2(struct kunit *test)
{
	lgrt_add_link_symmetric(test, SMC_CLC_V2);
}

static void smc_lgr_add_link_v1(struct kunit *test)
{
	bool was;

	/* rxe has no RoCE v1 GID: the rig's test switch lends one */
	if (!IS_ENABLED(CONFIG_SMC_TEST_HOOKS))
		kunit_skip(test, "a test build's switch (CONFIG_SMC_TEST_HOOKS)");
	was = READ_ONCE(smc_ib_v1_on_rocev2);
	WRITE_ONCE(smc_ib_v1_on_rocev2, true);
	lgrt_add_link_symmetric(test, SMC_CLC_V1);
	WRITE_ONCE(smc_ib_v1_on_rocev2, was);
}

/*
 * Neither side has another device: the server offers its first port
 * again (ASYMMETRIC_LOCAL), which the client refuses, and both groups
 * stay SINGLE with nothing left of the offer.  (The asymmetric groups
 * themselves need a link between two devices, which rxe does not loop
 * back within one host: failover.sh's topology has them.)
 */
static void smc_lgr_add_link_refused(struct kunit *test)
{
	struct smc_buf_desc *rmbs[LGRT_RMBS_SERV + 1];
	struct lgrt_ctx *c = test->priv;

	lgrt_pair_two(test, SMC_CLC_V2, "NOALT", "NOALT", rmbs);
	KUNIT_EXPECT_EQ(test, c->serv->type, SMC_LGR_SINGLE);
	KUNIT_EXPECT_EQ(test, c->clnt->type, SMC_LGR_SINGLE);
	KUNIT_EXPECT_EQ(test, c->serv->lnk[1].state, SMC_LNK_UNUSED);
	KUNIT_EXPECT_EQ(test, c->clnt->lnk[1].state, SMC_LNK_UNUSED);
	KUNIT_EXPECT_EQ(test, smc_llc_test_link(&c->serv->lnk[0]), 0);
}

/*
 * The server's second link goes down with the port still up (@cause: a
 * TEST_LINK unanswered, or the port itself).  Both groups are SINGLE on
 * link 1.  Only a silent loss has the server try again later, since
 * its path may come back with no event: the retry, run at once here,
 * offers the second device again and both groups are SYMMETRIC on a
 * link with a new id.
 */
static void lgrt_second_link_lost(struct kunit *test,
				  enum smc_switch_stat cause)
{
	struct smc_buf_desc *rmbs[LGRT_RMBS_SERV + 1];
	struct lgrt_ctx *c = test->priv;
	struct smc_lgr_link *sn;
	u8 lost_id;

	lgrt_pair_two(test, SMC_CLC_V2, "", "", rmbs);
	sn = &c->serv->lnk[1];
	KUNIT_ASSERT_EQ(test, sn->state, SMC_LNK_ACTIVE);
	lost_id = sn->link_id;
	smc_switch_down_cause(sn, cause);
	smc_wr_link_down(&sn->wr, IB_WC_RETRY_EXC_ERR);
	flush_work(&sn->down_work);
	flush_work(&c->serv->llc_flow_work);
	lgrt_sync(test, &c->serv->lnk[0], &c->clnt->lnk[0]);
	KUNIT_EXPECT_EQ(test, c->serv->type, SMC_LGR_SINGLE);
	KUNIT_EXPECT_EQ(test, c->clnt->type, SMC_LGR_SINGLE);
	KUNIT_EXPECT_EQ(test, delayed_work_pending(&c->serv->llc_retry_work),
			cause == SMC_SWITCH_DOWN_TESTLINK);
	/* the peer's DELETE_LINK is no silent loss of the client's own */
	KUNIT_EXPECT_FALSE(test,
			   delayed_work_pending(&c->clnt->llc_retry_work));
	if (cause != SMC_SWITCH_DOWN_TESTLINK)
		return;
	/* the retry now, not in 2 s: it runs and is queued again */
	flush_delayed_work(&c->serv->llc_retry_work);
	flush_work(&c->serv->llc_flow_work);
	lgrt_sync(test, &c->serv->lnk[0], &c->clnt->lnk[0]);
	KUNIT_EXPECT_EQ(test, c->serv->type, SMC_LGR_SYMMETRIC);
	KUNIT_EXPECT_EQ(test, c->clnt->type, SMC_LGR_SYMMETRIC);
	KUNIT_ASSERT_EQ(test, sn->state, SMC_LNK_ACTIVE);
	KUNIT_EXPECT_NE(test, sn->link_id, lost_id);
	KUNIT_EXPECT_STREQ(test, dev_name(&sn->wr.ibdev->dev), LGRT_DEV2);
	KUNIT_EXPECT_EQ(test, smc_llc_test_link(sn), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->serv->llc_timeouts), 0);
}

static void smc_lgr_silent_loss_retry(struct kunit *test)
{
	lgrt_second_link_lost(test, SMC_SWITCH_DOWN_TESTLINK);
}

static void smc_lgr_port_loss_no_retry(struct kunit *test)
{
	lgrt_second_link_lost(test, SMC_SWITCH_DOWN_PORT);
}

static struct kunit_case smc_lgr_cases[] = {
	KUNIT_CASE(smc_lgr_confirm),
	KUNIT_CASE(smc_lgr_confirm_cancel),
	KUNIT_CASE(smc_lgr_rkey),
	KUNIT_CASE(smc_lgr_rmb_limit),
	KUNIT_CASE(smc_lgr_rmb_quarantine),
	KUNIT_CASE(smc_lgr_conns),
	KUNIT_CASE(smc_lgr_terminate_up),
	KUNIT_CASE(smc_lgr_first_contact_cap),
	KUNIT_CASE(smc_lgr_buf_reg_fails),
	KUNIT_CASE(smc_lgr_idle_free),
	KUNIT_CASE(smc_lgr_llc_peer),
	KUNIT_CASE(smc_lgr_testlink_one_way),
	KUNIT_CASE(smc_lgr_delete_link_served),
	KUNIT_CASE(smc_lgr_delete_link_unknown),
	KUNIT_CASE(smc_lgr_terminate_by_client),
	KUNIT_CASE(smc_lgr_add_link_v2),
	KUNIT_CASE(smc_lgr_add_link_v1),
	KUNIT_CASE(smc_lgr_add_link_refused),
	KUNIT_CASE(smc_lgr_silent_loss_retry),
	KUNIT_CASE(smc_lgr_port_loss_no_retry),
	{}
};

static struct kunit_suite smc_lgr_suite = {
	.name = "smc_lgr",
	.init = lgrt_init,
	.exit = lgrt_exit,
	.test_cases = smc_lgr_cases,
};

/* a new link's id from a group whose links are as given */
static u8 lgrt_next_id(struct smc_link_group *lgr)
{
	u8 id;

	spin_lock_bh(&lgr->lock);
	id = smc_lgr_next_link_id(lgr);
	spin_unlock_bh(&lgr->lock);
	return id;
}

/*
 * Link ids count up: a deleted one is not given out again at once, 0
 * never, and one in use not after the count wraps.
 */
static void smc_lgr_link_ids(struct kunit *test)
{
	struct smc_link_group *lgr;
	int i;

	lgr = kunit_kzalloc(test, sizeof(*lgr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lgr);
	spin_lock_init(&lgr->lock);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		lgr->lnk[i].state = SMC_LNK_UNUSED;
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 1);
	lgr->lnk[0].state = SMC_LNK_ACTIVE;
	lgr->lnk[0].link_id = 1;
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 2);
	/* link 2 was deleted before it came up: 3 next, not 2 */
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 3);
	lgr->lnk[1].state = SMC_LNK_ACTIVE;
	lgr->lnk[1].link_id = 3;
	/* link 1 deleted: the count goes on */
	lgr->lnk[0].state = SMC_LNK_UNUSED;
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 4);
	/* the wrap skips 0 and the id in use */
	lgr->next_link_id = 254;
	lgr->lnk[0].state = SMC_LNK_INACTIVE;
	lgr->lnk[0].link_id = 1;
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 255);
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 2);
	KUNIT_EXPECT_EQ(test, lgrt_next_id(lgr), 4);
}

static struct kunit_case smc_lgr_id_cases[] = {
	KUNIT_CASE(smc_lgr_link_ids),
	{}
};

/* pure logic: no device */
static struct kunit_suite smc_lgr_id_suite = {
	.name = "smc_lgr_id",
	.test_cases = smc_lgr_id_cases,
};

kunit_test_suites(&smc_lgr_suite, &smc_lgr_id_suite);
