// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the connection data path (smc_cdc.c, smc_tx.c,
 * smc_rx.c, and the move to another link in smc_switch.c) on the rig's
 * Soft-RoCE device rxe1: two link groups with a link each (two for the
 * failover case), the links connected to each other, and one connection
 * per side set up by hand as CLC would (RMB registered, rtoken and
 * tokens exchanged).  Without the device the suite skips, or fails
 * under the rig's need_rdma=1 (smc_kunit_rdma.c).
 */

#include <kunit/test.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>

#include "smc_bufsize.h"
#include "smc_data.h"
#include "smc_kunit.h"
#include "smc_lgr.h"

#define DT_DEV		"rxe1"
#define DT_PORT		1
#define DT_WAIT		(30 * HZ)	/* rxe under TCG retransmits a lot */
#define DT_BUF		SMC_BUF_MIN_SIZE	/* 16 KiB RMBEs and send rings */
#define DT_BIG		(1024 * 1024)

struct dt_ctx;

/* one side: link group, link, connection and what it sends/receives */
struct dt_side {
	struct smc_link_group lgr;
	struct smc_connection conn;
	struct smc_buf_desc rmb;
	struct smc_buf_desc snd;
	struct dt_ctx *ctx;
	struct kref ref;		/* the pin the data path holds */
	bool created, regd, mapped, inited;
	bool link1;			/* a second link, fully set up */
	u8 *tx;				/* what this side sends */
	size_t tx_len, tx_off;
	u8 *rx;				/* what it received */
	size_t rx_len, rx_off;
	int err;			/* first unexpected error of a step */
	atomic_t down;
};

struct dt_ctx {
	struct ib_device *dev;
	u8 sgid_index;
	enum ib_mtu mtu;
	wait_queue_head_t wq;
	atomic_t events;
	struct dt_side *a;
	struct dt_side *b;
};

static struct dt_side *dt_side_of(struct smc_connection *conn)
{
	return container_of(conn, struct dt_side, conn);
}

static void dt_event(struct smc_connection *conn)
{
	struct dt_ctx *c = dt_side_of(conn)->ctx;

	atomic_inc(&c->events);
	wake_up_all(&c->wq);
}

static void dt_hold(struct smc_connection *conn)
{
	kref_get(&dt_side_of(conn)->ref);
}

static void dt_release(struct kref *ref)
{
}

static void dt_put(struct smc_connection *conn)
{
	struct dt_ctx *c = dt_side_of(conn)->ctx;

	/* the waiter checks the count: drop it before the wake-up */
	kref_put(&dt_side_of(conn)->ref, dt_release);
	atomic_inc(&c->events);
	wake_up_all(&c->wq);
}

static const struct smc_conn_ops dt_conn_ops = {
	.hold = dt_hold,
	.put = dt_put,
	.data_ready = dt_event,
	.write_space = dt_event,
	.state_change = dt_event,
	.urgent = dt_event,
};

static void dt_link_down(struct smc_link *lnk, enum ib_wc_status status)
{
	struct smc_lgr_link *l = container_of(lnk, struct smc_lgr_link, wr);
	struct dt_side *s = container_of(l->lgr, struct dt_side, lgr);

	atomic_inc(&s->down);
	wake_up_all(&s->ctx->wq);
}

static const struct smc_wr_ops dt_wr_ops = {
	.cdc_rx = smc_cdc_rx_handler,
	.link_down = dt_link_down,
};

#define dt_wait(c, cond) wait_event_timeout((c)->wq, (cond), DT_WAIT)

static int dt_find_gid(struct ib_device *dev, u8 *index)
{
	struct ib_port_attr pattr;
	int i, rc;

	rc = ib_query_port(dev, DT_PORT, &pattr);
	if (rc)
		return rc;
	for (i = 0; i < pattr.gid_tbl_len && i < 256; i++) {
		const struct ib_gid_attr *attr;
		bool ok;

		attr = rdma_get_gid_attr(dev, DT_PORT, i);
		if (IS_ERR(attr))
			continue;
		ok = attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		     ipv6_addr_v4mapped((struct in6_addr *)attr->gid.raw);
		rdma_put_gid_attr(attr);
		if (ok) {
			*index = i;
			return 0;
		}
	}
	return -ENODEV;
}

/* as smc_lgr_conn_register() will: lgr->conns sorted by alert token */
static void dt_conn_insert(struct smc_link_group *lgr,
			   struct smc_connection *conn)
{
	struct rb_node **link = &lgr->conns.rb_node, *parent = NULL;

	while (*link) {
		struct smc_connection *cur;

		parent = *link;
		cur = rb_entry(parent, struct smc_connection, node);
		if (conn->alert_token_local < cur->alert_token_local)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	spin_lock_bh(&lgr->lock);
	rb_link_node(&conn->node, parent, link);
	rb_insert_color(&conn->node, &lgr->conns);
	lgr->conns_num++;
	spin_unlock_bh(&lgr->lock);
}

static void dt_side_link(struct kunit *test, struct dt_side *s)
{
	struct dt_ctx *c = test->priv;
	struct smc_lgr_link *lnk = &s->lgr.lnk[0];
	struct smc_wr_link_params p = {
		.ibdev = c->dev,
		.ibport = DT_PORT,
		.sgid_index = c->sgid_index,
		.ops = &dt_wr_ops,
	};

	spin_lock_init(&s->lgr.lock);
	spin_lock_init(&s->lgr.rtokens_lock);
	s->lgr.conns = RB_ROOT;
	lnk->lgr = &s->lgr;
	lnk->idx = 0;
	KUNIT_ASSERT_EQ(test, smc_wr_link_create(&lnk->wr, &p), 0);
	s->created = true;
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_init(&lnk->wr), 0);

	s->snd.cpu_addr = kzalloc(DT_BUF, GFP_KERNEL);
	s->rmb.cpu_addr = kzalloc(DT_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->snd.cpu_addr);
	KUNIT_ASSERT_NOT_NULL(test, s->rmb.cpu_addr);
	s->snd.len = DT_BUF;
	s->rmb.len = DT_BUF;
	s->rmb.is_rmb = true;
}

static void dt_peer_of(struct dt_ctx *c, struct smc_link *lnk,
		       struct smc_wr_peer *peer)
{
	peer->qpn = lnk->qp->qp_num;
	peer->psn = lnk->psn;
	peer->gid = lnk->gid;
	memcpy(peer->mac, lnk->mac, ETH_ALEN);
	peer->path_mtu = c->mtu;
	peer->gateway = false;
}

/* the buffers: registration posts IB_WR_REG_MR, so only once in RTS */
static void dt_side_bufs(struct kunit *test, struct dt_side *s)
{
	struct smc_lgr_link *lnk = &s->lgr.lnk[0];

	KUNIT_ASSERT_EQ(test, smc_wr_dma_map(&lnk->wr, s->snd.cpu_addr,
					     DT_BUF, &s->snd.dma[0]), 0);
	s->mapped = true;
	KUNIT_ASSERT_EQ(test, smc_wr_mr_register(&lnk->wr, s->rmb.cpu_addr,
						 DT_BUF, &s->rmb.mr[0]), 0);
	s->regd = true;
}

/* what CLC would have told @s about @peer, and the connection's setup */
static void dt_side_conn(struct dt_side *s, struct dt_side *peer, u32 token)
{
	struct smc_connection *conn = &s->conn;

	s->lgr.rtokens[0][0].vaddr = peer->rmb.mr[0].addr;
	s->lgr.rtokens[0][0].rkey = peer->rmb.mr[0].rkey;
	set_bit(0, s->lgr.rtokens_used);
	conn->lgr = &s->lgr;
	conn->lnk = &s->lgr.lnk[0];
	conn->alert_token_local = token;
	conn->peer_token = peer->conn.alert_token_local;
	conn->peer_rmbe_idx = 1;
	conn->peer_rmbe_size = peer->rmb.len;
	conn->rtoken_idx = 0;
	conn->sndbuf_desc = &s->snd;
	conn->rmb_desc = &s->rmb;
	smc_cdc_conn_init(conn, &dt_conn_ops);
	s->inited = true;
	dt_conn_insert(&s->lgr, conn);
}

/* two connected sides, A (token 0x1111) and B (token 0x2222) */
static void dt_pair_up(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct smc_wr_peer pa, pb;

	dt_side_link(test, c->a);
	dt_side_link(test, c->b);
	dt_peer_of(c, &c->a->lgr.lnk[0].wr, &pa);
	dt_peer_of(c, &c->b->lgr.lnk[0].wr, &pb);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rtr(&c->a->lgr.lnk[0].wr, &pb), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rtr(&c->b->lgr.lnk[0].wr, &pa), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rts(&c->a->lgr.lnk[0].wr), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rts(&c->b->lgr.lnk[0].wr), 0);
	dt_side_bufs(test, c->a);
	dt_side_bufs(test, c->b);
	c->a->conn.alert_token_local = 0x1111;
	c->b->conn.alert_token_local = 0x2222;
	dt_side_conn(c->a, c->b, 0x1111);
	dt_side_conn(c->b, c->a, 0x2222);
}

static int dt_init(struct kunit *test)
{
	struct ib_port_attr pattr;
	struct dt_ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	init_waitqueue_head(&c->wq);
	c->a = kunit_kzalloc(test, sizeof(*c->a), GFP_KERNEL);
	c->b = kunit_kzalloc(test, sizeof(*c->b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->a);
	KUNIT_ASSERT_NOT_NULL(test, c->b);
	c->a->ctx = c;
	c->b->ctx = c;
	kref_init(&c->a->ref);
	kref_init(&c->b->ref);
	test->priv = c;
	c->dev = smc_kunit_rdma_dev(test, DT_DEV);
	KUNIT_ASSERT_EQ_MSG(test, dt_find_gid(c->dev, &c->sgid_index), 0,
			    "no RoCEv2 IPv4 GID on " DT_DEV);
	KUNIT_ASSERT_EQ(test, ib_query_port(c->dev, DT_PORT, &pattr), 0);
	c->mtu = min(pattr.active_mtu, IB_MTU_1024);
	return 0;
}

static void dt_side_stop(struct dt_side *s)
{
	if (s->inited)
		smc_cdc_conn_stop(&s->conn);
}

static void dt_side_free(struct dt_side *s)
{
	struct smc_link *lnk = &s->lgr.lnk[0].wr;

	if (s->link1) {
		smc_wr_mr_unregister(&s->lgr.lnk[1].wr, &s->rmb.mr[1]);
		smc_wr_link_destroy(&s->lgr.lnk[1].wr);
		smc_wr_dma_unmap(&s->lgr.lnk[1].wr, s->snd.dma[1], DT_BUF);
		s->link1 = false;
	}

	if (s->regd)
		smc_wr_mr_unregister(lnk, &s->rmb.mr[0]);
	s->regd = false;
	/* flushes what is still posted: the completions drop their pins */
	if (s->created)
		smc_wr_link_destroy(lnk);
	s->created = false;
	if (s->mapped)
		smc_wr_dma_unmap(lnk, s->snd.dma[0], DT_BUF);
	s->mapped = false;
	kfree(s->snd.cpu_addr);
	s->snd.cpu_addr = NULL;
	kfree(s->rmb.cpu_addr);
	s->rmb.cpu_addr = NULL;
	kvfree(s->tx);
	s->tx = NULL;
	kvfree(s->rx);
	s->rx = NULL;
}

static void dt_teardown(struct dt_ctx *c)
{
	dt_side_stop(c->a);
	dt_side_stop(c->b);
	dt_side_free(c->a);
	dt_side_free(c->b);
}

static void dt_exit(struct kunit *test)
{
	struct dt_ctx *c = test->priv;

	if (!c)
		return;
	dt_teardown(c);
	if (c->dev)
		ib_device_put(c->dev);
}

/* the payload of @s: a pattern that differs per side and per lap */
static void dt_payload(struct kunit *test, struct dt_side *s, size_t len,
		       u8 seed)
{
	size_t i;

	s->tx = kvmalloc(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->tx);
	for (i = 0; i < len; i++)
		s->tx[i] = (u8)(seed + i * 7 + i / 4099);
	s->tx_len = len;
	s->tx_off = 0;
}

static void dt_expect(struct kunit *test, struct dt_side *s, size_t len)
{
	s->rx = kvzalloc(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->rx);
	s->rx_len = len;
	s->rx_off = 0;
}

static int dt_send(struct dt_side *s, const u8 *data, size_t len, int flags)
{
	struct msghdr msg = { .msg_flags = flags };
	struct kvec iov = { .iov_base = (void *)data, .iov_len = len };

	iov_iter_kvec(&msg.msg_iter, ITER_SOURCE, &iov, 1, len);
	return smc_tx_sendmsg(&s->conn, &msg, len);
}

static int dt_recv(struct dt_side *s, u8 *data, size_t len, int flags)
{
	struct msghdr msg = {};
	struct kvec iov = { .iov_base = data, .iov_len = len };

	iov_iter_kvec(&msg.msg_iter, ITER_DEST, &iov, 1, len);
	return smc_rx_recv(&s->conn, &msg, len, flags);
}

/* one send of up to @chunk bytes: did it make progress? */
static bool dt_send_step(struct dt_side *s, size_t chunk)
{
	size_t n = min(chunk, s->tx_len - s->tx_off);
	int rc;

	if (!n || s->err)
		return false;
	rc = dt_send(s, s->tx + s->tx_off, n, 0);
	if (rc == -EAGAIN)
		return false;
	if (rc <= 0) {
		s->err = rc ? rc : -EIO;
		return false;
	}
	s->tx_off += rc;
	return true;
}

static bool dt_recv_step(struct dt_side *s, size_t chunk)
{
	size_t n = min(chunk, s->rx_len - s->rx_off);
	int rc;

	if (!n || s->err)
		return false;
	rc = dt_recv(s, s->rx + s->rx_off, n, 0);
	if (rc == -EAGAIN)
		return false;
	if (rc <= 0) {
		s->err = rc ? rc : -EIO;
		return false;
	}
	s->rx_off += rc;
	return true;
}

static bool dt_side_done(struct dt_side *s)
{
	return s->tx_off == s->tx_len && s->rx_off == s->rx_len;
}

/*
 * Move data both ways until all is sent and received, waiting for a
 * data-path callback whenever no step progressed; with @stop, only until
 * A has sent that much.
 */
static int dt_pump_until(struct dt_ctx *c, size_t tx_chunk, size_t rx_chunk,
			 size_t stop)
{
	for (;;) {
		int ev = atomic_read(&c->events);
		bool prog = false;

		prog |= dt_send_step(c->a, tx_chunk);
		prog |= dt_send_step(c->b, tx_chunk);
		prog |= dt_recv_step(c->a, rx_chunk);
		prog |= dt_recv_step(c->b, rx_chunk);
		if (c->a->err || c->b->err)
			return c->a->err ?: c->b->err;
		if (dt_side_done(c->a) && dt_side_done(c->b))
			return 0;
		if (stop && c->a->tx_off >= stop)
			return 0;
		if (!prog && !dt_wait(c, atomic_read(&c->events) != ev))
			return -ETIMEDOUT;
	}
}

static int dt_pump(struct dt_ctx *c, size_t tx_chunk, size_t rx_chunk)
{
	return dt_pump_until(c, tx_chunk, rx_chunk, 0);
}

/* both sides idle: no CDC in flight, all send buffer space back */
static void dt_quiesce(struct kunit *test)
{
	struct dt_ctx *c = test->priv;

	KUNIT_EXPECT_GT(test, dt_wait(c, !atomic_read(&c->a->conn.cdc_pend) &&
				      !atomic_read(&c->b->conn.cdc_pend) &&
				      !smc_tx_outq(&c->a->conn) &&
				      !smc_tx_outq(&c->b->conn) &&
				      kref_read(&c->a->ref) == 1 &&
				      kref_read(&c->b->ref) == 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a->down), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b->down), 0);
	KUNIT_EXPECT_EQ(test, c->a->conn.tx_err, 0);
	KUNIT_EXPECT_EQ(test, c->b->conn.tx_err, 0);
}

static void dt_no_drops(struct kunit *test, struct dt_side *s)
{
	struct smc_cdc_stats *st = &s->lgr.lnk[0].cdc_stats;

	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_bad), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_unknown_token), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_old_seq), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_backwards), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_seq_jump), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_rewound), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_out_of_sync), 0);
}

/* one byte A to B; then A is done writing and B sees the end */
static void smc_data_one_byte(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	u8 byte = 0x5a, got = 0;

	dt_pair_up(test);
	KUNIT_EXPECT_EQ(test, dt_recv(b, &got, 1, 0), -EAGAIN);
	KUNIT_ASSERT_EQ(test, dt_send(a, &byte, 1, 0), 1);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 1), 0);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 1);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.prod.count, 1);
	KUNIT_EXPECT_EQ(test, ((u8 *)b->rmb.cpu_addr)[0], byte);
	KUNIT_ASSERT_EQ(test, dt_recv(b, &got, 1, 0), 1);
	KUNIT_EXPECT_EQ(test, got, byte);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 0);
	KUNIT_EXPECT_EQ(test, dt_recv(b, &got, 1, 0), -EAGAIN);

	dt_quiesce(test);
	KUNIT_EXPECT_EQ(test, a->conn.tx_cdc_seq_fin, 1);
	KUNIT_EXPECT_EQ(test, a->conn.peer_conn_flags, 0);
	KUNIT_ASSERT_EQ(test, smc_cdc_send_flags(&a->conn,
						 SMC_CDC_CONN_DONE_WRITING),
			0);
	KUNIT_ASSERT_GT(test, dt_wait(c, READ_ONCE(b->conn.peer_conn_flags) ==
				      SMC_CDC_CONN_DONE_WRITING), 0);
	/* the end of the stream */
	KUNIT_EXPECT_EQ(test, dt_recv(b, &got, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, dt_recv(a, &got, 1, 0), -EAGAIN);
	dt_quiesce(test);
	dt_no_drops(test, a);
	dt_no_drops(test, b);
}

/* 1 MiB each way at once through 16 KiB RMBEs: 64 laps and more */
static void smc_data_bulk_both(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;

	dt_pair_up(test);
	dt_payload(test, a, DT_BIG, 0x11);
	dt_payload(test, b, DT_BIG, 0x77);
	dt_expect(test, a, DT_BIG);
	dt_expect(test, b, DT_BIG);
	/* odd chunk sizes, so that copies and writes split at the wrap */
	KUNIT_ASSERT_EQ(test, dt_pump(c, 4093, 3001), 0);
	KUNIT_EXPECT_MEMEQ(test, b->rx, a->tx, DT_BIG);
	KUNIT_EXPECT_MEMEQ(test, a->rx, b->tx, DT_BIG);
	KUNIT_EXPECT_EQ(test, a->conn.local_tx_ctrl.prod.wrap,
			DT_BIG / DT_BUF);
	KUNIT_EXPECT_EQ(test, b->conn.local_tx_ctrl.cons.wrap,
			DT_BIG / DT_BUF);
	dt_quiesce(test);
	KUNIT_EXPECT_EQ(test, a->conn.tx_curs_fin.wrap, DT_BIG / DT_BUF);
	KUNIT_EXPECT_EQ(test, b->conn.tx_curs_fin.wrap, DT_BIG / DT_BUF);
	dt_no_drops(test, a);
	dt_no_drops(test, b);
}

/*
 * A fills B's RMBE and its own send buffer while B does not read; B's
 * reads free space only through its cursor update, and A resumes.
 */
static void smc_data_flow_control(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	u16 seq;
	u8 buf;
	int rc;

	dt_pair_up(test);
	dt_payload(test, a, 2 * DT_BUF, 0x33);
	dt_expect(test, b, 2 * DT_BUF);
	while (a->tx_off < a->tx_len) {
		int ev = atomic_read(&c->events);

		if (!dt_send_step(a, DT_BUF))
			KUNIT_ASSERT_GT(test,
					dt_wait(c, atomic_read(&c->events) !=
						ev), 0);
		KUNIT_ASSERT_EQ(test, a->err, 0);
	}
	/* B's RMBE full, A's send buffer full: A is blocked */
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == DT_BUF &&
				      !atomic_read(&a->conn.cdc_pend)), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->conn.peer_rmbe_space), 0);
	KUNIT_EXPECT_EQ(test, smc_tx_outq(&a->conn), DT_BUF);
	KUNIT_EXPECT_EQ(test, dt_send(a, &buf, 1, 0), -EAGAIN);
	KUNIT_EXPECT_TRUE(test, b->conn.local_rx_ctrl.prod_flags &
			  SMC_CDC_PROD_WRITE_BLOCKED);

	/* one byte read is below the update limit: no CDC from B */
	seq = b->conn.tx_cdc_seq;
	KUNIT_ASSERT_EQ(test, dt_recv_step(b, 1), true);
	KUNIT_EXPECT_EQ(test, b->conn.tx_cdc_seq, seq);
	/* past the limit: the cursor update goes out and A resumes */
	KUNIT_ASSERT_EQ(test, dt_recv_step(b, 4096), true);
	KUNIT_EXPECT_EQ(test, b->conn.tx_cdc_seq, seq + 1);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == DT_BUF), 0);
	while (b->rx_off < b->rx_len) {
		int ev = atomic_read(&c->events);

		if (!dt_recv_step(b, 5000))
			KUNIT_ASSERT_GT(test,
					dt_wait(c, atomic_read(&c->events) !=
						ev), 0);
		KUNIT_ASSERT_EQ(test, b->err, 0);
	}
	KUNIT_EXPECT_MEMEQ(test, b->rx, a->tx, 2 * DT_BUF);
	rc = dt_recv(b, &buf, 1, 0);
	KUNIT_EXPECT_EQ(test, rc, -EAGAIN);
	dt_quiesce(test);
	dt_no_drops(test, a);
	dt_no_drops(test, b);
}

/* MSG_PEEK copies without consuming, also across the end of the ring */
static void smc_data_peek(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	u8 peek[100], got[100];
	union smc_cursor cons;

	dt_pair_up(test);
	/* move the cursors close to the end of B's RMBE */
	dt_payload(test, a, DT_BUF - 30, 0x44);
	dt_expect(test, b, DT_BUF - 30);
	KUNIT_ASSERT_EQ(test, dt_pump(c, DT_BUF, DT_BUF), 0);
	KUNIT_EXPECT_MEMEQ(test, b->rx, a->tx, DT_BUF - 30);

	memset(peek, 0, sizeof(peek));
	/* A's send ring is freed only when its CDCs complete */
	KUNIT_ASSERT_GT(test, dt_wait(c, !smc_tx_outq(&a->conn)), 0);
	KUNIT_ASSERT_EQ(test, dt_send(a, a->tx + 1000, 100, 0), 100);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 100), 0);
	cons = b->conn.local_tx_ctrl.cons;
	KUNIT_ASSERT_EQ(test, dt_recv(b, peek, 50, MSG_PEEK), 50);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 100);
	KUNIT_ASSERT_EQ(test, dt_recv(b, peek, 100, MSG_PEEK), 100);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 100);
	KUNIT_EXPECT_EQ(test, b->conn.local_tx_ctrl.cons.count, cons.count);
	KUNIT_EXPECT_MEMEQ(test, peek, a->tx + 1000, 100);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 100, 0), 100);
	KUNIT_EXPECT_MEMEQ(test, got, a->tx + 1000, 100);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 0);
	KUNIT_EXPECT_EQ(test, b->conn.local_tx_ctrl.cons.wrap, 1);
	KUNIT_EXPECT_EQ(test, b->conn.local_tx_ctrl.cons.count, 70);
	dt_quiesce(test);
	dt_no_drops(test, b);
}

/*
 * MSG_OOB: the last byte is urgent, B finds it at its producer cursor
 * minus one; A sends nothing more until B consumed everything.
 */
static void smc_data_urgent(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	u8 got[8] = {};
	u16 seq;

	dt_pair_up(test);
	KUNIT_ASSERT_EQ(test, dt_send(a, (const u8 *)"abc", 3, MSG_OOB), 3);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 3), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_VALID);
	KUNIT_EXPECT_EQ(test, b->conn.urg_rx_byte, 'c');
	KUNIT_EXPECT_EQ(test, b->conn.urg_curs.count, 3);
	KUNIT_EXPECT_TRUE(test, b->conn.local_rx_ctrl.prod_flags &
			  SMC_CDC_PROD_URG_PRESENT);
	/* held back: B has not consumed the urgent data yet */
	KUNIT_ASSERT_EQ(test, dt_send(a, (const u8 *)"de", 2, 0), 2);
	KUNIT_ASSERT_GT(test, dt_wait(c, !atomic_read(&a->conn.cdc_pend) &&
				      a->conn.tx_curs_fin.count == 3), 0);
	KUNIT_EXPECT_EQ(test, smc_tx_outq(&a->conn), 2);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 3);
	/* consuming past it forces B's cursor update; A goes on */
	seq = b->conn.tx_cdc_seq;
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 8, 0), 3);
	KUNIT_EXPECT_MEMEQ(test, got, "abc", 3);
	KUNIT_EXPECT_EQ(test, b->conn.tx_cdc_seq, seq + 1);
	/* passed, the mark is gone: a stale one would return laps later */
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_NONE);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 2), 0);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 8, 0), 2);
	KUNIT_EXPECT_MEMEQ(test, got, "de", 2);
	KUNIT_EXPECT_FALSE(test, b->conn.local_rx_ctrl.prod_flags &
			   (SMC_CDC_PROD_URG_PRESENT |
			    SMC_CDC_PROD_URG_PENDING));
	/* read out of band first (the socket layer's READ), then passed */
	KUNIT_ASSERT_EQ(test, dt_send(a, (const u8 *)"fg", 2, MSG_OOB), 2);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 2), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_VALID);
	WRITE_ONCE(b->conn.urg_state, SMC_URG_READ);
	seq = b->conn.tx_cdc_seq;
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 8, 0), 2);
	KUNIT_EXPECT_MEMEQ(test, got, "fg", 2);
	KUNIT_EXPECT_EQ(test, b->conn.tx_cdc_seq, seq + 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_NONE);
	dt_quiesce(test);
	dt_no_drops(test, a);
	dt_no_drops(test, b);
}

/*
 * No free send slot: the push leaves data and flags to tx_work, which
 * sends them as soon as a slot comes back.
 */
static void smc_data_no_slot(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_wr_tx_slot *slots[SMC_WR_SEND_CNT_DEF];
	struct smc_link *wl = &a->lgr.lnk[0].wr;
	u8 byte = 0xa5, got = 0;
	int n = 0;

	dt_pair_up(test);
	while (n < ARRAY_SIZE(slots) &&
	       !smc_wr_send_slot_get_nowait(wl, &slots[n], SMC_WR_SLOT_CTRL))
		n++;
	KUNIT_ASSERT_EQ(test, n, wl->send_cnt);
	KUNIT_ASSERT_EQ(test, dt_send(a, &byte, 1, 0), 1);
	/* nothing written without a slot for the CDC; the work waits */
	KUNIT_EXPECT_TRUE(test, work_busy(&a->conn.tx_work.work));
	KUNIT_EXPECT_EQ(test, a->conn.tx_curs_sent.count, 0);
	KUNIT_EXPECT_EQ(test, smc_cdc_send_flags(&a->conn,
						 SMC_CDC_CONN_CLOSED), 0);
	while (n)
		smc_wr_send_slot_put(wl, slots[--n]);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 1 &&
				      READ_ONCE(b->conn.peer_conn_flags) ==
				      SMC_CDC_CONN_CLOSED), 0);
	KUNIT_ASSERT_EQ(test, dt_recv(b, &got, 1, 0), 1);
	KUNIT_EXPECT_EQ(test, got, byte);
	KUNIT_EXPECT_EQ(test, dt_recv(b, &got, 1, 0), 0);
	dt_quiesce(test);
	dt_no_drops(test, b);
}

/* send slots given back from a work, as completions would free them */
struct dt_slots_back {
	struct work_struct work;
	struct task_struct *waiter;
	struct smc_link *lnk;
	struct smc_wr_tx_slot **slots;
	int n;
};

static void dt_slots_back_fn(struct work_struct *work)
{
	struct dt_slots_back *sb = container_of(work, struct dt_slots_back,
						work);
	unsigned long end = jiffies + DT_WAIT;

	/* only once the test blocks in smc_cdc_conn_stop() */
	while (task_is_running(sb->waiter) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	while (sb->n)
		smc_wr_send_slot_put(sb->lnk, sb->slots[--sb->n]);
}

/*
 * A close's last CDC that found no free send slot waits in tx_work; the
 * connection stopping right after (both sides closed) must still send
 * it, as the peer waits for it.  The slots come back while the stop
 * waits.
 */
static void smc_data_stop_sends_last_flags(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_wr_tx_slot *slots[SMC_WR_SEND_CNT_DEF];
	struct dt_slots_back sb = {
		.waiter = current,
		.lnk = &a->lgr.lnk[0].wr,
		.slots = slots,
	};

	dt_pair_up(test);
	while (sb.n < ARRAY_SIZE(slots) &&
	       !smc_wr_send_slot_get_nowait(sb.lnk, &slots[sb.n],
						   SMC_WR_SLOT_CTRL))
		sb.n++;
	KUNIT_ASSERT_EQ(test, sb.n, sb.lnk->send_cnt);
	KUNIT_EXPECT_EQ(test, smc_cdc_send_flags(&a->conn,
						 SMC_CDC_CONN_CLOSED), 0);
	KUNIT_EXPECT_TRUE(test, work_busy(&a->conn.tx_work.work));
	INIT_WORK_ONSTACK(&sb.work, dt_slots_back_fn);
	schedule_work(&sb.work);
	smc_cdc_conn_stop(&a->conn);
	flush_work(&sb.work);
	destroy_work_on_stack(&sb.work);
	KUNIT_EXPECT_GT(test, dt_wait(c, READ_ONCE(b->conn.peer_conn_flags) ==
				      SMC_CDC_CONN_CLOSED), 0);
	KUNIT_EXPECT_EQ(test, a->conn.tx_err, 0);
	dt_no_drops(test, b);
}

/* @s has no CDC in flight and its whole send ring back */
static bool dt_tx_idle(struct dt_side *s)
{
	return !atomic_read(&s->conn.cdc_pend) && !smc_tx_outq(&s->conn);
}

/* feed @s the CDC @m as if it had arrived on its link */
static void dt_inject_msg(struct dt_side *s, const struct smc_cdc_msg_info *m,
			  unsigned int len)
{
	u8 buf[SMC_WR_BUF_SIZE] = {};

	smc_cdc_encode(buf, m);
	local_bh_disable();
	smc_cdc_rx_handler(&s->lgr.lnk[0].wr, buf, len);
	local_bh_enable();
}

/* feed @s a CDC that moves the producer cursor */
static void dt_inject(struct dt_side *s, u16 seqno, u32 token, u16 wrap,
		      u32 count, unsigned int len)
{
	struct smc_cdc_msg_info m = {
		.seqno = seqno,
		.token = token,
		.prod = { .wrap = wrap, .count = count },
		.cons = s->conn.local_rx_ctrl.cons,
	};

	dt_inject_msg(s, &m, len);
}

/* A and B connected, and A's two @bytes taken by B with seqno 1 */
static void dt_pair_two_bytes(struct kunit *test, const u8 *bytes)
{
	struct dt_ctx *c = test->priv;

	dt_pair_up(test);
	KUNIT_ASSERT_EQ(test, dt_send(c->a, bytes, 2, 0), 2);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&c->b->conn) == 2), 0);
	KUNIT_ASSERT_EQ(test, c->b->conn.local_rx_ctrl.seqno, 1);
}

/*
 * Old seqnos, short messages, unknown tokens: dropped and counted.  A
 * cursor behind the last one is a resend after a link switch: taken with
 * that cursor left as it was.  A cursor a lap ahead ends the connection:
 * no CDC of that peer is taken any more.
 */
static void smc_data_bad_cdc(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_cdc_stats *st = &b->lgr.lnk[0].cdc_stats;
	u8 bytes[2] = { 1, 2 }, got[2];

	dt_pair_two_bytes(test, bytes);

	/* older seqno, although its cursor would move forward */
	dt_inject(b, 0, 0x2222, 0, 100, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_old_seq), 1);
	/* newer seqno, producer cursor backwards: no new data */
	dt_inject(b, 2, 0x2222, 0, 1, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_rewound), 1);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 2);
	/* short */
	dt_inject(b, 3, 0x2222, 0, 100, SMC_CDC_MIN_RX - 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_bad), 1);
	/* nobody has that token */
	dt_inject(b, 3, 0xdead, 0, 100, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_unknown_token), 1);

	/* none of them changed the data */
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 2);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.prod.count, 2);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.prod.wrap, 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(b->conn.out_of_sync));

	/* A's real next CDC (seqno 2) is still accepted */
	KUNIT_ASSERT_EQ(test, dt_send(a, bytes, 1, 0), 1);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 3), 0);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 2);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 2, 0), 2);
	KUNIT_EXPECT_MEMEQ(test, got, bytes, 2);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 2, 0), 1);
	KUNIT_EXPECT_EQ(test, got[0], bytes[0]);

	/* a whole lap ahead of what B consumed: the ring cannot hold it */
	dt_inject(b, 3, 0x2222, 1, 100, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_backwards), 1);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(b->conn.out_of_sync));
	/* from then on nothing is taken, not even counted */
	dt_inject(b, 4, 0x2222, 0, 5, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 2);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_backwards), 1);
	dt_quiesce(test);
	dt_no_drops(test, a);
}

/* a cursor outside the ring ends the connection */
static void smc_data_cdc_out_of_ring(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *b = c->b;
	struct smc_cdc_stats *st = &b->lgr.lnk[0].cdc_stats;

	dt_pair_up(test);
	dt_inject(b, 1, 0x2222, 0, DT_BUF, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_bad), 1);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(b->conn.out_of_sync));
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 0);
	dt_quiesce(test);
}

/*
 * An accepted CDC whose sequence number skipped some is counted: 0x0100
 * is what seqno 1 looks like from a peer that sends it in the other
 * byte order.
 */
static void smc_data_seq_jump(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *b = c->b;
	struct smc_cdc_stats *st = &b->lgr.lnk[0].cdc_stats;
	u8 bytes[2] = { 1, 2 };

	dt_pair_two_bytes(test, bytes);
	dt_no_drops(test, b);

	/* a repeat is neither old nor a jump */
	dt_inject(b, 1, 0x2222, 0, 2, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_seq_jump), 0);
	dt_inject(b, 0x0100, 0x2222, 0, 2, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_seq_jump), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_old_seq), 0);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 0x0100);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 2);
	dt_quiesce(test);
}

/*
 * A failover validation names the peer's last CDC that completed on the
 * old link: one B took, or an older one, changes nothing; a newer one
 * means CDCs were lost, and the connection takes no CDC any more.
 */
static void smc_data_failover_validate(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *b = c->b;
	struct smc_cdc_stats *st = &b->lgr.lnk[0].cdc_stats;
	struct smc_cdc_msg_info m = {
		.token = 0x2222,
		.prod_flags = SMC_CDC_PROD_FAILOVER,
	};
	u8 bytes[2] = { 1, 2 };

	dt_pair_two_bytes(test, bytes);

	m.seqno = 1;
	dt_inject_msg(b, &m, SMC_CDC_LEN);
	m.seqno = 0;
	dt_inject_msg(b, &m, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_out_of_sync), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(b->conn.out_of_sync));
	/* not taken as a CDC: cursors and seqno stay */
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 1);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 2);

	m.seqno = 2;
	dt_inject_msg(b, &m, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_out_of_sync), 1);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(b->conn.out_of_sync));
	/* nothing more is taken */
	dt_inject(b, 3, 0x2222, 0, 2, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, 1);
	dt_quiesce(test);
}

/*
 * An urgent flag on a CDC that brings no new data marks no new urgent
 * byte: a resend after a link switch (its producer cursor behind or at
 * the last one), or a peer that keeps the flag on its consumer updates.
 */
static void smc_data_urgent_once(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_cdc_stats *st = &b->lgr.lnk[0].cdc_stats;
	struct smc_cdc_msg_info m = {
		.token = 0x2222,
		.prod_flags = SMC_CDC_PROD_URG_PRESENT,
	};
	u8 got[4];

	dt_pair_up(test);
	KUNIT_ASSERT_EQ(test, dt_send(a, (const u8 *)"abc", 3, MSG_OOB), 3);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == 3), 0);
	KUNIT_ASSERT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_VALID);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, 4, 0), 3);
	KUNIT_ASSERT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_NONE);
	KUNIT_ASSERT_GT(test, dt_wait(c, !atomic_read(&a->conn.cdc_pend) &&
				      !atomic_read(&b->conn.cdc_pend)), 0);

	/* the same producer cursor again */
	m.seqno = b->conn.local_rx_ctrl.seqno + 1;
	m.prod = b->conn.local_rx_ctrl.prod;
	m.cons = b->conn.local_rx_ctrl.cons;
	dt_inject_msg(b, &m, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, m.seqno);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_NONE);
	/* one behind it: kept, counted, still no urgent byte */
	m.seqno++;
	m.prod.count = 1;
	dt_inject_msg(b, &m, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.seqno, m.seqno);
	KUNIT_EXPECT_EQ(test, b->conn.local_rx_ctrl.prod.count, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_rewound), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->conn.urg_state), SMC_URG_NONE);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 0);
	dt_quiesce(test);
}

/*
 * A client writes right after its Confirm: B, a server that has not read
 * the Confirm yet and so does not know the size of A's RMB, must take
 * A's CDCs - a whole RMBE of data in one - and not drop them.
 */
static void smc_data_before_confirm(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_cdc_stats *st = &b->lgr.lnk[0].cdc_stats;
	struct smc_cdc_msg_info m = { .token = 0x2222 };
	u8 *got;

	dt_pair_up(test);
	WRITE_ONCE(b->conn.peer_rmbe_size, 0);
	dt_payload(test, a, DT_BUF, 0x77);
	KUNIT_ASSERT_EQ(test, dt_send(a, a->tx, DT_BUF, 0), DT_BUF);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == DT_BUF), 0);
	dt_no_drops(test, b);

	/* but A cannot have consumed anything of B's before that */
	m.seqno = b->conn.local_rx_ctrl.seqno + 1;
	m.prod = b->conn.local_rx_ctrl.prod;
	m.cons.count = 1;
	dt_inject_msg(b, &m, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_bad), 1);
	/* a peer that claims it did is not in step: the connection ends */
	KUNIT_EXPECT_TRUE(test, READ_ONCE(b->conn.out_of_sync));

	/* the Confirm: from now on B checks against A's RMB size */
	WRITE_ONCE(b->conn.peer_rmbe_size, a->rmb.len);
	got = kunit_kzalloc(test, DT_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, DT_BUF, 0), DT_BUF);
	KUNIT_EXPECT_MEMEQ(test, got, a->tx, DT_BUF);
	/* B's consumer cursor frees A's whole window again */
	KUNIT_EXPECT_GT(test, dt_wait(c, atomic_read(&a->conn.peer_rmbe_space) ==
				      DT_BUF), 0);
	dt_quiesce(test);
	dt_no_drops(test, a);
}

/*
 * B aborts while A's data waits for room in B's RMB, and the ABORT
 * frees room (B read before it aborted): A must write nothing more into
 * the RMB, which B may hand to another connection at once, neither from
 * the CDC's handler nor from a later push.
 */
static void smc_data_abort_stops_writes(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_cdc_msg_info m = {
		.token = 0x1111,
		.conn_flags = SMC_CDC_CONN_ABORT,
	};
	union smc_cursor sent, cur;

	dt_pair_up(test);
	dt_payload(test, a, DT_BUF + DT_BUF / 2, 0x33);
	/* B's RMB full, and A's send ring has all its room back */
	KUNIT_ASSERT_EQ(test, dt_send(a, a->tx, DT_BUF, 0), DT_BUF);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == DT_BUF &&
				      dt_tx_idle(a)), 0);
	/* half a ring more waits for room */
	KUNIT_ASSERT_EQ(test, dt_send(a, a->tx + DT_BUF, DT_BUF / 2, 0),
			DT_BUF / 2);
	KUNIT_ASSERT_EQ(test, smc_tx_outq(&a->conn), DT_BUF / 2);
	sent = smc_cursor_read(&a->conn.tx_curs_sent);

	/* B's ABORT, its consumer cursor 4 KiB on */
	m.seqno = a->conn.local_rx_ctrl.seqno + 1;
	m.prod = a->conn.local_rx_ctrl.prod;
	m.cons = a->conn.local_rx_ctrl.cons;
	m.cons.count += 4096;
	dt_inject_msg(a, &m, SMC_CDC_LEN);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->conn.peer_conn_flags),
			SMC_CDC_CONN_ABORT);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->conn.peer_rmbe_space), 4096);
	smc_tx_push(&a->conn);
	flush_delayed_work(&a->conn.tx_work);
	cur = smc_cursor_read(&a->conn.tx_curs_sent);
	KUNIT_EXPECT_EQ(test, cur.wrap, sent.wrap);
	KUNIT_EXPECT_EQ(test, cur.count, sent.count);
	KUNIT_EXPECT_EQ(test, smc_tx_outq(&a->conn), DT_BUF / 2);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), DT_BUF);
}

/* link 1 of both sides, on the same device, its buffers registered */
static void dt_add_link1(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *sides[2] = { c->a, c->b };
	struct smc_wr_link_params p = {
		.ibdev = c->dev,
		.ibport = DT_PORT,
		.sgid_index = c->sgid_index,
		.ops = &dt_wr_ops,
	};
	struct smc_wr_peer peer[2];
	int i;

	for (i = 0; i < 2; i++) {
		struct smc_lgr_link *l = &sides[i]->lgr.lnk[1];

		l->lgr = &sides[i]->lgr;
		l->idx = 1;
		KUNIT_ASSERT_EQ(test, smc_wr_link_create(&l->wr, &p), 0);
		sides[i]->link1 = true;
		KUNIT_ASSERT_EQ(test, smc_wr_qp_to_init(&l->wr), 0);
		dt_peer_of(c, &l->wr, &peer[i]);
	}
	for (i = 0; i < 2; i++) {
		struct smc_link *wr = &sides[i]->lgr.lnk[1].wr;

		KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rtr(wr, &peer[!i]), 0);
		KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rts(wr), 0);
		KUNIT_ASSERT_EQ(test, smc_wr_dma_map(wr, sides[i]->snd.cpu_addr,
						     DT_BUF,
						     &sides[i]->snd.dma[1]), 0);
		KUNIT_ASSERT_EQ(test,
				smc_wr_mr_register(wr, sides[i]->rmb.cpu_addr,
						   DT_BUF,
						   &sides[i]->rmb.mr[1]), 0);
	}
	for (i = 0; i < 2; i++) {
		struct smc_link_group *lgr = &sides[i]->lgr;

		lgr->rtokens[0][1].vaddr = sides[!i]->rmb.mr[1].addr;
		lgr->rtokens[0][1].rkey = sides[!i]->rmb.mr[1].rkey;
		lgr->lnk[0].state = SMC_LNK_ACTIVE;
		lgr->lnk[1].state = SMC_LNK_ACTIVE;
	}
}

/* what a failed link's down_work does, for link 0 of @s */
static void dt_fail_link0(struct kunit *test, struct dt_side *s)
{
	struct smc_lgr_link *l0 = &s->lgr.lnk[0];

	smc_wr_link_down(&l0->wr, IB_WC_SUCCESS);
	spin_lock_bh(&s->lgr.lock);
	l0->state = SMC_LNK_INACTIVE;
	spin_unlock_bh(&s->lgr.lock);
	smc_wr_link_quiesce(&l0->wr);
	KUNIT_EXPECT_PTR_EQ(test, smc_switch_conns(l0), &s->lgr.lnk[1]);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(s->conn.lnk), &s->lgr.lnk[1]);
	KUNIT_EXPECT_EQ(test, s->conn.tx_epoch, 1);
	/* a second failover of the link finds nothing to move */
	KUNIT_EXPECT_PTR_EQ(test, smc_switch_conns(l0), &s->lgr.lnk[1]);
	KUNIT_EXPECT_EQ(test, s->conn.tx_epoch, 1);
}

/* cursors no sender in step with us sends: none, on either link */
static void dt_no_faults(struct kunit *test, struct dt_side *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct smc_cdc_stats *st = &s->lgr.lnk[i].cdc_stats;

		KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_bad), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_unknown_token), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_backwards), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_out_of_sync), 0);
	}
	KUNIT_EXPECT_FALSE(test, READ_ONCE(s->conn.out_of_sync));
	KUNIT_EXPECT_EQ(test, s->conn.tx_err, 0);
}

/*
 * Failover in the middle of 1 MiB each way: link 0 fails on A, then on
 * B (which learns it from A's DELETE_LINK), with writes and CDCs in
 * flight both ways.  Both connections move to link 1, send again what
 * no completion confirmed, and every byte arrives once, in order.
 */
static void smc_data_failover_switch(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;

	dt_pair_up(test);
	dt_add_link1(test);
	dt_payload(test, a, DT_BIG, 0x21);
	dt_payload(test, b, DT_BIG, 0x43);
	dt_expect(test, a, DT_BIG);
	dt_expect(test, b, DT_BIG);
	KUNIT_ASSERT_EQ(test, dt_pump_until(c, 4093, 3001, DT_BIG / 4), 0);
	dt_fail_link0(test, a);
	dt_fail_link0(test, b);
	KUNIT_ASSERT_EQ(test, dt_pump(c, 4093, 3001), 0);
	KUNIT_EXPECT_MEMEQ(test, b->rx, a->tx, DT_BIG);
	KUNIT_EXPECT_MEMEQ(test, a->rx, b->tx, DT_BIG);
	KUNIT_EXPECT_GT(test, dt_wait(c, !atomic_read(&a->conn.cdc_pend) &&
				      !atomic_read(&b->conn.cdc_pend) &&
				      !smc_tx_outq(&a->conn) &&
				      !smc_tx_outq(&b->conn) &&
				      kref_read(&a->ref) == 1 &&
				      kref_read(&b->ref) == 1), 0);
	/* the whole stream confirmed on the new link */
	KUNIT_EXPECT_EQ(test, a->conn.tx_curs_fin.wrap, DT_BIG / DT_BUF);
	KUNIT_EXPECT_EQ(test, b->conn.tx_curs_fin.wrap, DT_BIG / DT_BUF);
	dt_no_faults(test, a);
	dt_no_faults(test, b);
	KUNIT_EXPECT_FALSE(test, smc_wr_link_is_down(&a->lgr.lnk[1].wr));
	KUNIT_EXPECT_FALSE(test, smc_wr_link_is_down(&b->lgr.lnk[1].wr));
}

/*
 * After a move, the peer's consumer cursor passes our rewound producer
 * cursor: it read what we wrote on the old link, whose completions we
 * never saw.  Its CDC is taken (no "backwards"), and our next push skips
 * what it read instead of writing it again; the stream goes on.
 */
static void smc_data_failover_catch_up(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	struct smc_cdc_stats *st = &a->lgr.lnk[0].cdc_stats;
	const u32 half = DT_BUF / 2, lost = DT_BUF / 4;
	u8 *got;

	dt_pair_up(test);
	dt_payload(test, a, half + lost, 0x5c);
	got = kunit_kzalloc(test, half + lost, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, dt_send(a, a->tx, half, 0), half);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == half), 0);
	dt_quiesce(test);

	/* what a move does when the last quarter's completion was lost */
	spin_lock_bh(&a->conn.send_lock);
	a->conn.tx_curs_fin.count -= lost;
	a->conn.tx_curs_sent.count -= lost;
	a->conn.local_tx_ctrl.prod.count -= lost;
	atomic_sub(lost, &a->conn.sndbuf_space);
	atomic_set(&a->conn.peer_rmbe_space, DT_BUF - (half - lost));
	a->conn.tx_epoch++;
	spin_unlock_bh(&a->conn.send_lock);

	/* B reads it all: its consumer update passes A's producer cursor */
	KUNIT_ASSERT_EQ(test, dt_recv(b, got, half, 0), half);
	KUNIT_ASSERT_GT(test, dt_wait(c, !smc_tx_outq(&a->conn)), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->rx_backwards), 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(a->conn.out_of_sync));
	KUNIT_EXPECT_EQ(test, a->conn.local_tx_ctrl.prod.count, half);
	KUNIT_EXPECT_EQ(test, a->conn.tx_curs_fin.count, half);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->conn.peer_rmbe_space), DT_BUF);

	/* nothing was written twice, and what follows lands after it */
	KUNIT_ASSERT_EQ(test, dt_send(a, a->tx + half, lost, 0), lost);
	KUNIT_ASSERT_GT(test, dt_wait(c, smc_rx_inq(&b->conn) == lost), 0);
	KUNIT_ASSERT_EQ(test, dt_recv(b, got + half, lost, 0), lost);
	KUNIT_EXPECT_MEMEQ(test, got, a->tx, half + lost);
	KUNIT_EXPECT_EQ(test, smc_rx_inq(&b->conn), 0);
	dt_quiesce(test);
	dt_no_drops(test, b);
}

/* tear both sides down while data and CDCs are in flight both ways */
static void smc_data_teardown_inflight(struct kunit *test)
{
	struct dt_ctx *c = test->priv;
	struct dt_side *a = c->a, *b = c->b;
	int rc_a, rc_b;
	u8 byte = 0;

	dt_pair_up(test);
	dt_payload(test, a, DT_BUF, 0x55);
	dt_payload(test, b, DT_BUF, 0x66);
	rc_a = dt_send(a, a->tx, DT_BUF, 0);
	rc_b = dt_send(b, b->tx, DT_BUF, 0);
	KUNIT_EXPECT_EQ(test, rc_a, DT_BUF);
	KUNIT_EXPECT_EQ(test, rc_b, DT_BUF);
	dt_teardown(c);
	/* every pin the data path took came back */
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&b->ref), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->conn.cdc_pend), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->conn.cdc_pend), 0);
	/* stopped: nothing is posted any more */
	KUNIT_EXPECT_EQ(test, dt_send(a, &byte, 1, 0), -EPIPE);
}

static struct kunit_case smc_data_cases[] = {
	KUNIT_CASE(smc_data_one_byte),
	KUNIT_CASE_SLOW(smc_data_bulk_both),
	KUNIT_CASE(smc_data_flow_control),
	KUNIT_CASE(smc_data_peek),
	KUNIT_CASE(smc_data_urgent),
	KUNIT_CASE(smc_data_no_slot),
	KUNIT_CASE(smc_data_stop_sends_last_flags),
	KUNIT_CASE(smc_data_bad_cdc),
	KUNIT_CASE(smc_data_cdc_out_of_ring),
	KUNIT_CASE(smc_data_failover_validate),
	KUNIT_CASE(smc_data_urgent_once),
	KUNIT_CASE(smc_data_seq_jump),
	KUNIT_CASE(smc_data_before_confirm),
	KUNIT_CASE(smc_data_abort_stops_writes),
	KUNIT_CASE(smc_data_teardown_inflight),
	KUNIT_CASE_SLOW(smc_data_failover_switch),
	KUNIT_CASE(smc_data_failover_catch_up),
	{}
};

static struct kunit_suite smc_data_suite = {
	.name = "smc_data",
	.init = dt_init,
	.exit = dt_exit,
	.test_cases = smc_data_cases,
};

kunit_test_suites(&smc_data_suite);
