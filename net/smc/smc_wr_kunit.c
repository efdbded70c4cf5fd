// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the work-request layer in smc_wr.c, on a real RDMA
 * device: two links on the rig's Soft-RoCE device rxe1 are connected to
 * each other (rxe loops a destination with its own MAC back locally) and
 * exchange SENDs and RDMA WRITEs.  Without the device the suite skips,
 * or fails under the rig's need_rdma=1 (smc_kunit_rdma.c).
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/unaligned.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>

#include "smc_kunit.h"
#include "smc_wr.h"

#define WRT_DEV		"rxe1"
#define WRT_PORT	1
#define WRT_WAIT	(30 * HZ)	/* rxe under TCG retransmits a lot */
#define WRT_BURST	1000
#define WRT_RMB_ORDER	2		/* 16 KiB, the smallest RMB */

/* one side: the link embedded as the link-group layer will embed it */
struct wrt_side {
	struct smc_link lnk;
	struct wrt_ctx *ctx;
	bool created;
	struct smc_wr_mr mr;		/* a registration to undo at exit */
	u64 map_dma;			/* a mapping to undo at exit */
	size_t map_len;
	spinlock_t lock;		/* protects last and last_len */
	u8 last[SMC_WR_BUF_V2_SIZE];
	unsigned int last_len;
	atomic_t rx_cdc;
	atomic_t rx_llc;
	atomic_t rx_order_err;		/* burst message out of order */
	atomic_t down;
	u32 next_seq;			/* only touched in softirq, in order */
	/*
	 * RDMA WRITE check: the RMB content when a CDC arrived.  rmb_want
	 * is set before the WRITE is posted; posting orders it before the
	 * completion that runs the handler.
	 */
	u8 *rmb;
	const u8 *rmb_want;
	size_t rmb_len;
	atomic_t rmb_ok;
	atomic_t rmb_bad;
};

/*
 * The pin a sender holds for what its completion callback touches.  It
 * lives in the test's context, not on a test function's stack, because
 * a failed assertion leaves that function while SENDs are in flight.
 */
struct wrt_pin {
	struct kref ref;
	wait_queue_head_t *wq;
	atomic_t done;
	atomic_t err;
	atomic_t waited;			/* sends that found no free slot */
	atomic_t max_in_flight;		/* most slots taken after a get */
};

struct wrt_ctx {
	struct ib_device *dev;
	u8 sgid_index;
	enum ib_mtu mtu;
	wait_queue_head_t wq;
	struct wrt_side a;
	struct wrt_side b;
	struct wrt_pin pin;
	struct work_struct destroy_work;	/* destroys A's link */
	struct completion destroyed;
};

/* wait for a condition the receive or completion callbacks make true */
#define wrt_wait(c, cond) wait_event_timeout((c)->wq, (cond), WRT_WAIT)

static struct wrt_ctx *wrt_ctx_of(struct smc_link *lnk, struct wrt_side **s)
{
	*s = container_of(lnk, struct wrt_side, lnk);
	return (*s)->ctx;
}

static void wrt_keep(struct wrt_side *s, const u8 *buf, unsigned int len)
{
	spin_lock(&s->lock);
	memcpy(s->last, buf, len);
	s->last_len = len;
	spin_unlock(&s->lock);
}

static void wrt_cdc_rx(struct smc_link *lnk, const u8 *buf, unsigned int len)
{
	struct wrt_side *s;
	struct wrt_ctx *c = wrt_ctx_of(lnk, &s);
	u32 seq = get_unaligned_be32(buf + 4);
	const u8 *want;

	wrt_keep(s, buf, len);
	if (buf[2] == 0xb5) {	/* a burst message: in order? */
		if (seq != s->next_seq)
			atomic_inc(&s->rx_order_err);
		s->next_seq = seq + 1;
	}
	want = READ_ONCE(s->rmb_want);
	if (want) {
		if (!memcmp(s->rmb, want, s->rmb_len))
			atomic_inc(&s->rmb_ok);
		else
			atomic_inc(&s->rmb_bad);
	}
	atomic_inc(&s->rx_cdc);
	wake_up_all(&c->wq);
}

static void wrt_llc_rx(struct smc_link *lnk, const u8 *buf, unsigned int len)
{
	struct wrt_side *s;
	struct wrt_ctx *c = wrt_ctx_of(lnk, &s);

	wrt_keep(s, buf, len);
	atomic_inc(&s->rx_llc);
	wake_up_all(&c->wq);
}

static void wrt_link_down(struct smc_link *lnk, enum ib_wc_status status)
{
	struct wrt_side *s;
	struct wrt_ctx *c = wrt_ctx_of(lnk, &s);

	atomic_inc(&s->down);
	wake_up_all(&c->wq);
}

static const struct smc_wr_ops wrt_ops = {
	.cdc_rx = wrt_cdc_rx,
	.llc_rx = wrt_llc_rx,
	.link_down = wrt_link_down,
};

static void wrt_pin_release(struct kref *ref)
{
}

static void wrt_tx_done(struct smc_link *lnk, void *priv,
			enum ib_wc_status status)
{
	struct wrt_pin *pin = priv;
	wait_queue_head_t *wq = pin->wq;

	if (status != IB_WC_SUCCESS)
		atomic_inc(&pin->err);
	atomic_inc(&pin->done);
	/* the waiter checks the count: drop it before the wake-up */
	kref_put(&pin->ref, wrt_pin_release);
	wake_up_all(wq);
}

static void wrt_pin_init(struct wrt_pin *pin, struct wrt_ctx *c)
{
	kref_init(&pin->ref);
	pin->wq = &c->wq;
	atomic_set(&pin->done, 0);
	atomic_set(&pin->err, 0);
	atomic_set(&pin->waited, 0);
	atomic_set(&pin->max_in_flight, 0);
}

/* fill a slot with a 44-byte message and send it, pinning @pin */
static int wrt_send(struct smc_link *lnk, struct wrt_pin *pin, u8 type,
		    u8 tag, u32 seq)
{
	struct smc_wr_tx_slot *slot;
	int rc, n, max;
	u8 *buf;

	rc = smc_wr_send_slot_get_nowait(lnk, &slot, SMC_WR_SLOT_CTRL);
	if (rc == -EBUSY) {
		atomic_inc(&pin->waited);
		rc = smc_wr_send_slot_get(lnk, &slot, SMC_WR_SLOT_CTRL,
					  SMC_WR_SEND_WAIT);
	}
	if (rc)
		return rc;
	n = bitmap_weight(lnk->tx_mask, lnk->send_cnt);
	max = atomic_read(&pin->max_in_flight);
	while (n > max && !atomic_try_cmpxchg(&pin->max_in_flight, &max, n))
		;
	buf = smc_wr_slot_buf(slot);
	memset(buf, 0, SMC_WR_TX_SIZE);
	buf[0] = type;
	buf[1] = SMC_WR_TX_SIZE;
	buf[2] = tag;
	put_unaligned_be32(seq, buf + 4);
	for (n = 8; n < SMC_WR_TX_SIZE; n++)
		buf[n] = (u8)(seq + n);
	kref_get(&pin->ref);
	rc = smc_wr_send(lnk, slot, wrt_tx_done, pin);
	if (rc)
		kref_put(&pin->ref, wrt_pin_release);
	return rc;
}

/* the rig's RoCEv2 GID with an IPv4 address on it */
static int wrt_find_gid(struct ib_device *dev, u8 *index)
{
	struct ib_port_attr pattr;
	int i, rc;

	rc = ib_query_port(dev, WRT_PORT, &pattr);
	if (rc)
		return rc;
	for (i = 0; i < pattr.gid_tbl_len && i < 256; i++) {
		const struct ib_gid_attr *attr;
		bool ok;

		attr = rdma_get_gid_attr(dev, WRT_PORT, i);
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

static int wrt_init(struct kunit *test)
{
	struct ib_port_attr pattr;
	struct wrt_ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	init_waitqueue_head(&c->wq);
	spin_lock_init(&c->a.lock);
	spin_lock_init(&c->b.lock);
	c->a.ctx = c;
	c->b.ctx = c;
	test->priv = c;
	c->dev = smc_kunit_rdma_dev(test, WRT_DEV);
	KUNIT_ASSERT_EQ_MSG(test, wrt_find_gid(c->dev, &c->sgid_index), 0,
			    "no RoCEv2 IPv4 GID on " WRT_DEV);
	KUNIT_ASSERT_EQ(test, ib_query_port(c->dev, WRT_PORT, &pattr), 0);
	c->mtu = min(pattr.active_mtu, IB_MTU_1024);
	return 0;
}

static void wrt_side_exit(struct wrt_side *s)
{
	if (!s->created)
		return;
	smc_wr_mr_unregister(&s->lnk, &s->mr);
	if (s->map_dma)
		smc_wr_dma_unmap(&s->lnk, s->map_dma, s->map_len);
	smc_wr_link_destroy(&s->lnk);
}

static void wrt_exit(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;

	if (!c)
		return;
	wrt_side_exit(&c->a);
	wrt_side_exit(&c->b);
	if (c->dev)
		ib_device_put(c->dev);
}

static void wrt_peer_of(struct wrt_ctx *c, struct smc_link *lnk,
			struct smc_wr_peer *peer)
{
	peer->qpn = lnk->qp->qp_num;
	peer->psn = lnk->psn;
	peer->gid = lnk->gid;
	memcpy(peer->mac, lnk->mac, ETH_ALEN);
	peer->path_mtu = c->mtu;
	peer->gateway = false;
}

/* create A and B and connect them to each other, up to RTS */
static void wrt_pair_up(struct kunit *test, bool v2, u16 send_cnt)
{
	struct wrt_ctx *c = test->priv;
	struct smc_wr_link_params p = {
		.ibdev = c->dev,
		.ibport = WRT_PORT,
		.sgid_index = c->sgid_index,
		.v2 = v2,
		.send_cnt = send_cnt,
		.ops = &wrt_ops,
	};
	struct smc_wr_tx_slot *slot;
	struct smc_wr_peer pa, pb;

	KUNIT_ASSERT_EQ(test, smc_wr_link_create(&c->a.lnk, &p), 0);
	c->a.created = true;
	KUNIT_ASSERT_EQ(test, smc_wr_link_create(&c->b.lnk, &p), 0);
	c->b.created = true;
	KUNIT_EXPECT_EQ(test, c->a.lnk.qp_state, SMC_WR_QP_RESET);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_init(&c->a.lnk), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_init(&c->b.lnk), 0);
	/* nothing goes out before RTS, and that is no link failure */
	KUNIT_ASSERT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL),
			0);
	KUNIT_EXPECT_EQ(test, smc_wr_send(&c->a.lnk, slot, NULL, NULL),
			-ENOTCONN);
	KUNIT_EXPECT_FALSE(test, test_bit(SMC_WR_LINK_DOWN, &c->a.lnk.flags));
	wrt_peer_of(c, &c->b.lnk, &pb);
	wrt_peer_of(c, &c->a.lnk, &pa);
	/* no skipping a state */
	KUNIT_EXPECT_EQ(test, smc_wr_qp_to_rts(&c->a.lnk), -EINVAL);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rtr(&c->a.lnk, &pb), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rtr(&c->b.lnk, &pa), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rts(&c->a.lnk), 0);
	KUNIT_ASSERT_EQ(test, smc_wr_qp_to_rts(&c->b.lnk), 0);
	KUNIT_EXPECT_EQ(test, c->a.lnk.qp_state, SMC_WR_QP_RTS);
	KUNIT_EXPECT_EQ(test, c->b.lnk.qp_state, SMC_WR_QP_RTS);
	KUNIT_EXPECT_EQ(test, c->a.lnk.psn & ~0xffffffU, 0);
}

static void wrt_last(struct wrt_side *s, u8 *buf, unsigned int *len)
{
	spin_lock_bh(&s->lock);
	memcpy(buf, s->last, s->last_len);
	*len = s->last_len;
	spin_unlock_bh(&s->lock);
}

static void wrt_pin_wait(struct kunit *test, struct wrt_pin *pin)
{
	struct wrt_ctx *c = test->priv;

	KUNIT_EXPECT_GT(test, wrt_wait(c, kref_read(&pin->ref) == 1), 0);
}

/* a 44-byte CDC from A reaches B's CDC handler; B answers with an LLC */
static void smc_wr_exchange(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct wrt_pin *pin = &c->pin;
	u8 got[SMC_WR_TX_SIZE], want[SMC_WR_TX_SIZE] = {};
	unsigned int len;
	int n;

	wrt_pair_up(test, false, 0);
	wrt_pin_init(pin, c);
	KUNIT_ASSERT_EQ(test, wrt_send(&c->a.lnk, pin, SMC_WR_TYPE_CDC,
				       0x11, 0x01020304), 0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->b.rx_cdc) == 1), 0);
	want[0] = 0xfe;
	want[1] = 44;
	want[2] = 0x11;
	want[4] = 1;
	want[5] = 2;
	want[6] = 3;
	want[7] = 4;
	for (n = 8; n < SMC_WR_TX_SIZE; n++)
		want[n] = (u8)(0x01020304 + n);
	wrt_last(&c->b, got, &len);
	KUNIT_EXPECT_EQ(test, len, SMC_WR_TX_SIZE);
	KUNIT_EXPECT_MEMEQ(test, got, want, SMC_WR_TX_SIZE);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.rx_llc), 0);

	/* the reply: a v1 TEST_LINK goes to A's LLC handler */
	KUNIT_ASSERT_EQ(test, wrt_send(&c->b.lnk, pin, 0x07, 0x22, 7), 0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->a.rx_llc) == 1), 0);
	wrt_last(&c->a, got, &len);
	KUNIT_EXPECT_EQ(test, len, SMC_WR_TX_SIZE);
	KUNIT_EXPECT_EQ(test, got[0], 0x07);
	KUNIT_EXPECT_EQ(test, got[2], 0x22);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(got + 4), 7);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.rx_cdc), 0);

	/* no handler for 0x80: counted and dropped; CDCs stay in order */
	KUNIT_ASSERT_EQ(test, wrt_send(&c->a.lnk, pin, 0x80, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, wrt_send(&c->a.lnk, pin, 0xfe, 0x33, 9), 0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->b.rx_cdc) == 2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.lnk.stats.rx_unknown), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.rx_llc), 0);

	wrt_pin_wait(test, pin);
	KUNIT_EXPECT_EQ(test, atomic_read(&pin->done), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&pin->err), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.down), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.down), 0);
}

/* 1000 SENDs through 16 slots: senders wait for slots, nothing is lost */
static void smc_wr_burst(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct wrt_pin *pin = &c->pin;
	struct smc_wr_tx_slot *slot;
	int i, rc = 0;

	wrt_pair_up(test, false, SMC_WR_SEND_CNT_DEF);
	wrt_pin_init(pin, c);
	for (i = 0; i < WRT_BURST && !rc; i++)
		rc = wrt_send(&c->a.lnk, pin, SMC_WR_TYPE_CDC, 0xb5, i);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_ASSERT_GT(test,
			wrt_wait(c, atomic_read(&c->b.rx_cdc) == WRT_BURST), 0);
	wrt_pin_wait(test, pin);
	KUNIT_EXPECT_EQ(test, atomic_read(&pin->done), WRT_BURST);
	KUNIT_EXPECT_EQ(test, atomic_read(&pin->err), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.rx_order_err), 0);
	/* the burst ran into the slot limit and waited for free slots */
	KUNIT_EXPECT_LE(test, atomic_read(&pin->max_in_flight),
			SMC_WR_SEND_CNT_DEF);
	KUNIT_EXPECT_GT(test, atomic_read(&pin->waited), 0);

	/* all but one taken: a CDC waits, link control takes the last */
	for (i = 0; i < SMC_WR_SEND_CNT_DEF - 1; i++)
		KUNIT_ASSERT_EQ(test,
				smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
							    SMC_WR_SLOT_DATA),
				0);
	KUNIT_EXPECT_EQ(test, smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
							  SMC_WR_SLOT_DATA),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, smc_wr_send_slot_get(&c->a.lnk, &slot,
						   SMC_WR_SLOT_DATA, 1),
			-ETIMEDOUT);
	KUNIT_ASSERT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL),
			0);
	/* all slots taken: the non-blocking variant says so at once */
	KUNIT_EXPECT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, smc_wr_send_slot_get(&c->a.lnk, &slot,
						   SMC_WR_SLOT_CTRL, 1),
			-ETIMEDOUT);
	for (i = 0; i < SMC_WR_SEND_CNT_DEF; i++)
		smc_wr_send_slot_put(&c->a.lnk, &c->a.lnk.tx_slots[i]);
	KUNIT_EXPECT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL),
			0);
	smc_wr_send_slot_put(&c->a.lnk, slot);

	/* a wait that timed out takes the link down, once (C6) */
	smc_wr_stalled(&c->a.lnk, -ERESTARTSYS);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.down), 0);
	smc_wr_stalled(&c->a.lnk, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.down), 1);
	KUNIT_EXPECT_TRUE(test, test_bit(SMC_WR_LINK_DOWN, &c->a.lnk.flags));
	KUNIT_EXPECT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL),
			-ENOLINK);
	smc_wr_stalled(&c->a.lnk, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.down), 1);
}

/* an RDMA WRITE into B's registered buffer is there before the CDC */
static void smc_wr_rdma(struct kunit *test)
{
	size_t rmb_len = PAGE_SIZE << WRT_RMB_ORDER;
	struct wrt_ctx *c = test->priv;
	struct wrt_pin *pin = &c->pin;
	struct smc_wr_mr *mr = &c->b.mr;
	struct ib_sge sge[2];
	u8 *src, *want;
	size_t off;

	/* kmalloc memory is physically contiguous, as an RMB is */
	c->b.rmb = kunit_kzalloc(test, rmb_len, GFP_KERNEL);
	src = kunit_kzalloc(test, rmb_len, GFP_KERNEL);
	want = kunit_kzalloc(test, rmb_len, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, c->b.rmb && src && want);
	wrt_pair_up(test, true, 0);
	wrt_pin_init(pin, c);
	KUNIT_ASSERT_EQ(test, smc_wr_mr_register(&c->b.lnk, c->b.rmb, rmb_len,
						 mr), 0);
	KUNIT_EXPECT_NOT_NULL(test, mr->mr);
	KUNIT_EXPECT_EQ(test, mr->rkey, mr->mr->rkey);
	KUNIT_EXPECT_NE(test, mr->addr, 0);
	KUNIT_ASSERT_EQ(test, smc_wr_dma_map(&c->a.lnk, src, rmb_len,
					     &c->a.map_dma), 0);
	c->a.map_len = rmb_len;
	for (off = 0; off < rmb_len; off++)
		src[off] = (u8)(off * 7 + 3);

	/* unsignaled, two SGEs, 5000 bytes at offset 100 */
	memcpy(want + 100, src, 5000);
	c->b.rmb_len = rmb_len;
	WRITE_ONCE(c->b.rmb_want, want);
	sge[0].addr = c->a.map_dma;
	sge[0].length = 1000;
	sge[0].lkey = smc_wr_lkey(&c->a.lnk);
	sge[1].addr = c->a.map_dma + 1000;
	sge[1].length = 4000;
	sge[1].lkey = smc_wr_lkey(&c->a.lnk);
	KUNIT_ASSERT_EQ(test, smc_wr_rdma_write(&c->a.lnk, sge, 2,
						mr->addr + 100, mr->rkey,
						true), 0);
	KUNIT_ASSERT_EQ(test, wrt_send(&c->a.lnk, pin, SMC_WR_TYPE_CDC, 1, 1),
			0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->b.rx_cdc) == 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.rmb_ok), 1);

	/* signaled, the whole buffer; B's handler compares against want */
	WRITE_ONCE(c->b.rmb_want, NULL);
	memcpy(want, src, rmb_len);
	WRITE_ONCE(c->b.rmb_want, want);
	sge[0].length = rmb_len;
	KUNIT_ASSERT_EQ(test, smc_wr_rdma_write(&c->a.lnk, sge, 1, mr->addr,
						mr->rkey, false), 0);
	KUNIT_ASSERT_EQ(test, wrt_send(&c->a.lnk, pin, SMC_WR_TYPE_CDC, 1, 2),
			0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->b.rx_cdc) == 2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.rmb_ok), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->b.rmb_bad), 0);
	KUNIT_EXPECT_EQ(test, smc_wr_rdma_write(&c->a.lnk, sge, 3, mr->addr,
						mr->rkey, false), -EINVAL);
	wrt_pin_wait(test, pin);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.lnk.stats.tx_err), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.down), 0);
	WRITE_ONCE(c->b.rmb_want, NULL);
	smc_wr_mr_unregister(&c->b.lnk, mr);
	KUNIT_EXPECT_NULL(test, mr->mr);
}

/* an LLC v2 message longer than 44 bytes comes out of the overflow */
static void smc_wr_v2_large(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct wrt_pin *pin = &c->pin;
	struct smc_wr_tx_slot *slot;
	unsigned int len, i;
	u8 *buf, *got;
	u16 l2;

	got = kunit_kzalloc(test, SMC_WR_BUF_V2_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	wrt_pair_up(test, true, 0);
	wrt_pin_init(pin, c);
	KUNIT_ASSERT_EQ(test, smc_wr_send_v2_get(&c->a.lnk, &slot, &buf,
						 SMC_WR_SEND_WAIT), 0);
	/* only one v2 buffer */
	KUNIT_EXPECT_EQ(test, smc_wr_send_v2_get(&c->a.lnk, &slot, &buf, 1),
			-ETIMEDOUT);
	l2 = 5000;
	buf[0] = 0x27;		/* TEST_LINK, version 2 */
	memcpy(buf + 1, &l2, sizeof(l2));	/* host order, as Linux */
	buf[3] = 0;
	for (i = 4; i < l2; i++)
		buf[i] = (u8)(i * 13);
	kref_get(&pin->ref);
	KUNIT_ASSERT_EQ(test, smc_wr_send_v2(&c->a.lnk, slot, l2, wrt_tx_done,
					     pin), 0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->b.rx_llc) == 1), 0);
	wrt_last(&c->b, got, &len);
	KUNIT_EXPECT_EQ(test, len, l2);
	KUNIT_EXPECT_EQ(test, got[0], 0x27);
	for (i = 4; i < l2; i++)
		if (got[i] != (u8)(i * 13))
			break;
	KUNIT_EXPECT_EQ(test, i, l2);

	/* a short v2 LLC still works, and the v2 buffer is free again */
	KUNIT_ASSERT_EQ(test, wrt_send(&c->a.lnk, pin, 0x27, 0x44, 3), 0);
	KUNIT_ASSERT_GT(test, wrt_wait(c, atomic_read(&c->b.rx_llc) == 2), 0);
	wrt_last(&c->b, got, &len);
	KUNIT_EXPECT_EQ(test, len, SMC_WR_TX_SIZE);
	KUNIT_EXPECT_EQ(test, got[2], 0x44);
	wrt_pin_wait(test, pin);
	KUNIT_ASSERT_EQ(test, smc_wr_send_v2_get(&c->a.lnk, &slot, &buf,
						 SMC_WR_SEND_WAIT), 0);
	/* bad length: rejected, slot and buffer released */
	KUNIT_EXPECT_EQ(test, smc_wr_send_v2(&c->a.lnk, slot, 9000, NULL,
					     NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_wr_send_v2_get(&c->a.lnk, &slot, &buf, 1),
			0);
	smc_wr_send_slot_put(&c->a.lnk, slot);
	KUNIT_EXPECT_EQ(test, atomic_read(&pin->err), 0);
}

/* teardown with SENDs in flight: bounded, every callback runs once */
static void smc_wr_teardown(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct wrt_pin *pin = &c->pin;
	struct smc_wr_tx_slot *slot;
	unsigned long t0, took;
	int i, sent = 0;

	wrt_pair_up(test, true, 0);
	wrt_pin_init(pin, c);
	/* B goes first, so A's SENDs have nobody to answer them */
	smc_wr_link_destroy(&c->b.lnk);
	c->b.created = false;
	for (i = 0; i < SMC_WR_SEND_CNT_DEF; i++)
		if (!wrt_send(&c->a.lnk, pin, SMC_WR_TYPE_CDC, 0, i))
			sent++;
	KUNIT_EXPECT_GT(test, sent, 0);
	t0 = jiffies;
	smc_wr_link_destroy(&c->a.lnk);
	c->a.created = false;
	took = jiffies - t0;
	KUNIT_EXPECT_LE(test, took, (unsigned long)SMC_WR_DRAIN_WAIT + HZ);
	/* every pinned context was released exactly once */
	KUNIT_EXPECT_EQ(test, atomic_read(&pin->done), sent);
	KUNIT_EXPECT_EQ(test, kref_read(&pin->ref), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.lnk.stats.drain_timeout), 0);
	/* a teardown is not reported as a link failure */
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.down), 0);
	KUNIT_EXPECT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL),
			-ENOLINK);
}

static void wrt_destroy_work(struct work_struct *work)
{
	struct wrt_ctx *c = container_of(work, struct wrt_ctx, destroy_work);

	smc_wr_link_destroy(&c->a.lnk);
	complete(&c->destroyed);
}

/*
 * Teardown waits for a task that took a send slot and has neither
 * posted nor put it back: it still writes into the slot arrays.
 */
static void smc_wr_teardown_holder(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct smc_wr_tx_slot *slot;

	wrt_pair_up(test, true, 0);
	KUNIT_ASSERT_EQ(test,
			smc_wr_send_slot_get_nowait(&c->a.lnk, &slot,
						    SMC_WR_SLOT_CTRL), 0);
	init_completion(&c->destroyed);
	INIT_WORK(&c->destroy_work, wrt_destroy_work);
	schedule_work(&c->destroy_work);
	/* still held: the destroy must not get past it */
	KUNIT_EXPECT_EQ(test,
			wait_for_completion_timeout(&c->destroyed, HZ / 2), 0);
	memset(smc_wr_slot_buf(slot), 0, SMC_WR_TX_SIZE);
	smc_wr_send_slot_put(&c->a.lnk, slot);
	KUNIT_EXPECT_GT(test,
			wait_for_completion_timeout(&c->destroyed, WRT_WAIT), 0);
	flush_work(&c->destroy_work);
	c->a.created = false;
	KUNIT_EXPECT_EQ(test, atomic_read(&c->a.lnk.slot_holders), 0);
}

/* creation failures undo themselves; a second destroy is harmless */
static void smc_wr_create_errors(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct smc_wr_link_params p = {
		.ibdev = c->dev,
		.ibport = WRT_PORT,
		.sgid_index = c->sgid_index,
		.send_cnt = SMC_WR_SEND_CNT_MAX + 1,
		.ops = &wrt_ops,
	};

	memset(&c->a.lnk, 0, sizeof(c->a.lnk));
	KUNIT_EXPECT_EQ(test, smc_wr_link_create(&c->a.lnk, &p), -EINVAL);
	KUNIT_EXPECT_NULL(test, c->a.lnk.pd);
	p.send_cnt = 0;
	p.ops = NULL;
	memset(&c->a.lnk, 0, sizeof(c->a.lnk));
	KUNIT_EXPECT_EQ(test, smc_wr_link_create(&c->a.lnk, &p), -EINVAL);
	/* a GID index beyond the table */
	p.ops = &wrt_ops;
	p.sgid_index = 255;
	memset(&c->a.lnk, 0, sizeof(c->a.lnk));
	KUNIT_EXPECT_LT(test, smc_wr_link_create(&c->a.lnk, &p), 0);
	KUNIT_EXPECT_NULL(test, c->a.lnk.qp);
	smc_wr_link_destroy(&c->a.lnk);
}

/* the link's own GID as the table has it; one that left the table is gone */
static void smc_wr_gid_check(struct kunit *test)
{
	struct wrt_ctx *c = test->priv;
	struct smc_link *lnk = &c->a.lnk;
	u8 idx;

	wrt_pair_up(test, true, 0);
	KUNIT_EXPECT_TRUE(test, smc_wr_gid_present(lnk));
	/* another GID at the link's index */
	lnk->gid.raw[15] ^= 0xff;
	KUNIT_EXPECT_FALSE(test, smc_wr_gid_present(lnk));
	lnk->gid.raw[15] ^= 0xff;
	/* no valid entry at the index */
	idx = lnk->sgid_index;
	lnk->sgid_index = 255;
	KUNIT_EXPECT_FALSE(test, smc_wr_gid_present(lnk));
	lnk->sgid_index = idx;
	KUNIT_EXPECT_TRUE(test, smc_wr_gid_present(lnk));
}

static struct kunit_case smc_wr_cases[] = {
	KUNIT_CASE(smc_wr_exchange),
	KUNIT_CASE_SLOW(smc_wr_burst),
	KUNIT_CASE(smc_wr_rdma),
	KUNIT_CASE(smc_wr_v2_large),
	KUNIT_CASE(smc_wr_teardown),
	KUNIT_CASE(smc_wr_teardown_holder),
	KUNIT_CASE(smc_wr_create_errors),
	KUNIT_CASE(smc_wr_gid_check),
	{}
};

static struct kunit_suite smc_wr_suite = {
	.name = "smc_wr",
	.init = wrt_init,
	.exit = wrt_exit,
	.test_cases = smc_wr_cases,
};

kunit_test_suites(&smc_wr_suite);
