// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Work-request layer of an SMC-R link: PD, CQs and RC QP, the QP state
 * machine, SEND slots, RDMA WRITEs, the receive ring and fast-reg memory
 * registration.  All buffers are allocated and DMA-mapped when the link
 * is created, so nothing on the send or receive path allocates.
 *
 * Completions are ib_cqe based (IB_POLL_SOFTIRQ CQs, armed by the core
 * with IB_CQ_NEXT_COMP, which Soft-RoCE honours).  Every posted WR holds
 * a count in smc_link.wr_pending; teardown moves the QP to ERR, waits a
 * bounded time for the flush, and only then frees what completions use.
 */

#include <linux/bitmap.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "smc_compat.h"
#include "smc_test_hooks.h"
#include "smc_wr.h"

/* --- work-request accounting ------------------------------------------- */

/* take a count for a WR about to be posted; fails once teardown drained */
static bool smc_wr_get(struct smc_link *lnk)
{
	if (test_bit(SMC_WR_LINK_DOWN, &lnk->flags))
		return false;
	return atomic_inc_not_zero(&lnk->wr_pending);
}

static void smc_wr_put(struct smc_link *lnk)
{
	if (atomic_dec_and_test(&lnk->wr_pending))
		wake_up_all(&lnk->drain_wait);
}

/**
 * smc_wr_link_down() - mark a link unusable and tell the upper layer once
 * @lnk: the link
 * @status: the completion status that broke it (IB_WC_SUCCESS if none)
 *
 * New posts fail and slot waiters return; ops->link_down runs once.
 *
 * Context: any, including softirq.
 */
void smc_wr_link_down(struct smc_link *lnk, enum ib_wc_status status)
{
	set_bit(SMC_WR_LINK_DOWN, &lnk->flags);
	wake_up_all(&lnk->tx_wait);
	if (test_and_set_bit(SMC_WR_LINK_DOWN_SENT, &lnk->flags))
		return;
	if (lnk->ops && lnk->ops->link_down)
		lnk->ops->link_down(lnk, status);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_link_down);

/* --- send slots ----------------------------------------------------------- */

/*
 * A holder posted its slot or put it back.  Only a destroy waits for the
 * count, after it set LINK_DOWN: the fully ordered decrement reads that
 * bit after it, so a send on a live link pays no wake-up.
 */
static void smc_wr_slot_unhold(struct smc_link *lnk)
{
	if (atomic_dec_and_test(&lnk->slot_holders) &&
	    test_bit(SMC_WR_LINK_DOWN, &lnk->flags))
		wake_up(&lnk->drain_wait);
}

static void smc_wr_slot_release(struct smc_link *lnk,
				struct smc_wr_tx_slot *slot)
{
	slot->done = NULL;
	slot->priv = NULL;
	if (slot->v2) {
		slot->v2 = false;
		clear_bit_unlock(SMC_WR_TX_V2_BUSY, &lnk->flags);
	}
	clear_bit_unlock(slot->idx, lnk->tx_mask);
	wake_up(&lnk->tx_wait);
}

static void smc_wr_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_wr_tx_slot *slot =
		container_of(wc->wr_cqe, struct smc_wr_tx_slot, cqe);
	struct smc_link *lnk = slot->lnk;
	smc_wr_tx_done_t done = slot->done;
	void *priv = slot->priv;

	/* free the slot first: the callback may want to send again */
	smc_wr_slot_release(lnk, slot);
	if (wc->status != IB_WC_SUCCESS) {
		atomic_inc(&lnk->stats.tx_err);
		smc_wr_link_down(lnk, wc->status);
	}
	if (done)
		done(lnk, priv, wc->status);
	smc_wr_put(lnk);
}

/* the first free slot @use may take, or -EBUSY; never sleeps */
static int smc_wr_slot_try(struct smc_link *lnk, struct smc_wr_tx_slot **slot,
			   enum smc_wr_slot_use use)
{
	unsigned int idx, limit = lnk->send_cnt;

	atomic_inc(&lnk->slot_holders);
	/*
	 * Counted before LINK_DOWN is read, and the destroy sets LINK_DOWN
	 * before it reads the count (both with a full barrier): either we
	 * see the link down, or the destroy waits for us.
	 */
	smp_mb__after_atomic();
	if (test_bit(SMC_WR_LINK_DOWN, &lnk->flags)) {
		smc_wr_slot_unhold(lnk);
		return -ENOLINK;
	}
	if (use == SMC_WR_SLOT_DATA && limit > 1)
		limit--;
	for (;;) {
		idx = find_first_zero_bit(lnk->tx_mask, limit);
		if (idx >= limit) {
			smc_wr_slot_unhold(lnk);
			return -EBUSY;
		}
		if (!test_and_set_bit_lock(idx, lnk->tx_mask))
			break;
	}
	*slot = &lnk->tx_slots[idx];
	return 0;
}

/* wait condition: a slot was found, or there will never be one */
static bool smc_wr_slot_wait(struct smc_link *lnk,
			     struct smc_wr_tx_slot **slot,
			     enum smc_wr_slot_use use, int *rc)
{
	*rc = smc_wr_slot_try(lnk, slot, use);
	return *rc != -EBUSY;
}

/**
 * smc_wr_send_slot_get() - reserve a send slot, waiting for one to free up
 * @lnk: the link
 * @slot: returns the slot
 * @use: SMC_WR_SLOT_DATA leaves the last free slot to SMC_WR_SLOT_CTRL
 * @timeout: longest wait in jiffies (SMC_WR_SEND_WAIT normally)
 *
 * The caller fills smc_wr_slot_buf() and posts it with smc_wr_send(), or
 * gives it back with smc_wr_send_slot_put().
 *
 * Context: process context, may sleep (interruptibly).
 * Return: 0, -ENOLINK if the link is down, -ETIMEDOUT, or -ERESTARTSYS.
 */
int smc_wr_send_slot_get(struct smc_link *lnk, struct smc_wr_tx_slot **slot,
			 enum smc_wr_slot_use use, long timeout)
{
	int rc = -EBUSY;
	long left;

	might_sleep();
	left = wait_event_interruptible_timeout(lnk->tx_wait,
						smc_wr_slot_wait(lnk, slot, use, &rc),
						timeout);
	if (left < 0)
		return left;
	if (rc == -EBUSY)
		return -ETIMEDOUT;
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_send_slot_get);

/**
 * smc_wr_stalled() - act on a failed wait for a send slot
 * @lnk: the link
 * @rc: what smc_wr_send_slot_get() or smc_wr_send_v2_get() returned
 *
 * No slot freed up in SMC_WR_SEND_WAIT: the peer's adapter answers but
 * takes nothing in (RNR retries are endless, %SMC_WR_QP_RNR_RETRY), so
 * the link is taken down; a keepalive could not get through either.
 * Other errors need nothing.
 *
 * Context: any, including softirq.
 */
void smc_wr_stalled(struct smc_link *lnk, int rc)
{
	if (rc == -ETIMEDOUT)
		smc_wr_link_down(lnk, IB_WC_RNR_RETRY_EXC_ERR);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_stalled);

/**
 * smc_wr_send_slot_get_nowait() - reserve a send slot without waiting
 * @lnk: the link
 * @slot: returns the slot
 * @use: as for smc_wr_send_slot_get()
 *
 * Context: any, including softirq.
 * Return: 0, -ENOLINK if the link is down, -EBUSY if all slots are taken.
 */
int smc_wr_send_slot_get_nowait(struct smc_link *lnk,
				struct smc_wr_tx_slot **slot,
				enum smc_wr_slot_use use)
{
	return smc_wr_slot_try(lnk, slot, use);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_send_slot_get_nowait);

/**
 * smc_wr_send_slot_put() - give back a slot that was not posted
 * @lnk: the link
 * @slot: the slot
 *
 * Context: any.
 */
void smc_wr_send_slot_put(struct smc_link *lnk, struct smc_wr_tx_slot *slot)
{
	smc_wr_slot_release(lnk, slot);
	smc_wr_slot_unhold(lnk);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_send_slot_put);

static int __smc_wr_post_slot(struct smc_link *lnk,
			      struct smc_wr_tx_slot *slot,
			      smc_wr_tx_done_t done, void *priv)
{
	int rc;

	if (READ_ONCE(lnk->qp_state) != SMC_WR_QP_RTS) {
		/* a caller's mistake, not a broken link */
		smc_wr_slot_release(lnk, slot);
		return -ENOTCONN;
	}
	if (!smc_wr_get(lnk)) {
		smc_wr_slot_release(lnk, slot);
		return -ENOLINK;
	}
	slot->done = done;
	slot->priv = priv;
	if (!(slot->wr.send_flags & IB_SEND_INLINE))
		ib_dma_sync_single_for_device(lnk->ibdev, slot->sge.addr,
					      slot->sge.length, DMA_TO_DEVICE);
	rc = ib_post_send(lnk->qp, &slot->wr, NULL);
	if (rc) {
		smc_wr_slot_release(lnk, slot);
		smc_wr_put(lnk);
		smc_wr_link_down(lnk, IB_WC_GENERAL_ERR);
	}
	return rc;
}

/* posted or given back: either way its holder is done with the slot */
static int smc_wr_post_slot(struct smc_link *lnk, struct smc_wr_tx_slot *slot,
			    smc_wr_tx_done_t done, void *priv)
{
	int rc = __smc_wr_post_slot(lnk, slot, done, priv);

	smc_wr_slot_unhold(lnk);
	return rc;
}

/**
 * smc_wr_send() - post a 44-byte SEND from a slot
 * @lnk: the link
 * @slot: a slot from smc_wr_send_slot_get(), its buffer filled
 * @done: callback when the SEND completes, or NULL
 * @priv: opaque pointer handed to @done
 *
 * Lifetime rule: whatever @done touches through @priv must stay alive
 * until @done has run; the caller pins it (for example takes a kref that
 * @done drops) before calling.  @done runs exactly once if this returns
 * 0 - with IB_WC_WR_FLUSH_ERR at the latest from smc_wr_link_destroy() -
 * and never if it returns an error, so the caller then drops its pin
 * itself.  The slot is consumed either way.
 *
 * Context: any, including softirq.
 * Return: 0 or a negative errno: -ENOTCONN before RTS, -ENOLINK once
 * the link is down.
 */
int smc_wr_send(struct smc_link *lnk, struct smc_wr_tx_slot *slot,
		smc_wr_tx_done_t done, void *priv)
{
	struct ib_send_wr *wr = &slot->wr;

	slot->sge.addr = lnk->tx_inline ? (uintptr_t)slot->buf :
			 lnk->tx_dma + slot->idx * SMC_WR_BUF_SIZE;
	slot->sge.length = SMC_WR_TX_SIZE;
	slot->sge.lkey = smc_wr_lkey(lnk);
	wr->send_flags = IB_SEND_SIGNALED | IB_SEND_SOLICITED;
	if (lnk->tx_inline)
		wr->send_flags |= IB_SEND_INLINE;
	return smc_wr_post_slot(lnk, slot, done, priv);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_send);

/* take the v2 send buffer, or -EBUSY; never sleeps */
static int smc_wr_v2_try(struct smc_link *lnk)
{
	if (test_bit(SMC_WR_LINK_DOWN, &lnk->flags))
		return -ENOLINK;
	if (test_and_set_bit_lock(SMC_WR_TX_V2_BUSY, &lnk->flags))
		return -EBUSY;
	return 0;
}

static bool smc_wr_v2_wait(struct smc_link *lnk, int *rc)
{
	*rc = smc_wr_v2_try(lnk);
	return *rc != -EBUSY;
}

/**
 * smc_wr_send_v2_get() - reserve a slot and the link's v2 send buffer
 * @lnk: an SMC-Rv2 link
 * @slot: returns the slot
 * @buf: returns the SMC_WR_BUF_V2_SIZE-byte buffer to fill
 * @timeout: longest wait in jiffies for the buffer, and again for a slot
 *
 * Context: process context, may sleep (interruptibly).
 * Return: 0, -EINVAL on a v1 link, or as smc_wr_send_slot_get().
 */
int smc_wr_send_v2_get(struct smc_link *lnk, struct smc_wr_tx_slot **slot,
		       u8 **buf, long timeout)
{
	long left;
	int rc;

	if (!lnk->v2)
		return -EINVAL;
	left = wait_event_interruptible_timeout(lnk->tx_wait,
						smc_wr_v2_wait(lnk, &rc),
						timeout);
	if (left < 0)
		return left;
	if (rc == -EBUSY)
		return -ETIMEDOUT;
	if (rc)
		return rc;
	rc = smc_wr_send_slot_get(lnk, slot, SMC_WR_SLOT_CTRL, timeout);
	if (rc) {
		clear_bit_unlock(SMC_WR_TX_V2_BUSY, &lnk->flags);
		wake_up(&lnk->tx_wait);
		return rc;
	}
	(*slot)->v2 = true;
	*buf = lnk->tx_v2_buf;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_send_v2_get);

/**
 * smc_wr_send_v2() - post a SEND of up to 8 KiB from the v2 send buffer
 * @lnk: an SMC-Rv2 link
 * @slot: the slot from smc_wr_send_v2_get()
 * @len: message length, SMC_WR_TX_SIZE..SMC_WR_BUF_V2_SIZE
 * @done: as smc_wr_send()
 * @priv: as smc_wr_send()
 *
 * Same lifetime rule as smc_wr_send(); the v2 buffer is free again when
 * the SEND completed.
 *
 * Context: any, including softirq.
 * Return: 0 or a negative errno.
 */
int smc_wr_send_v2(struct smc_link *lnk, struct smc_wr_tx_slot *slot,
		   unsigned int len, smc_wr_tx_done_t done, void *priv)
{
	struct ib_send_wr *wr = &slot->wr;
	bool inl;

	if (!slot->v2 || len < SMC_WR_TX_SIZE || len > SMC_WR_BUF_V2_SIZE) {
		smc_wr_slot_release(lnk, slot);
		smc_wr_slot_unhold(lnk);
		return -EINVAL;
	}
	inl = lnk->tx_inline && len <= lnk->tx_max_inline;
	slot->sge.addr = inl ? (uintptr_t)lnk->tx_v2_buf : lnk->tx_v2_dma;
	slot->sge.length = len;
	slot->sge.lkey = smc_wr_lkey(lnk);
	wr->send_flags = IB_SEND_SIGNALED | IB_SEND_SOLICITED;
	if (inl)
		wr->send_flags |= IB_SEND_INLINE;
	return smc_wr_post_slot(lnk, slot, done, priv);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_send_v2);

/* --- RDMA WRITE ------------------------------------------------------------ */

static void smc_wr_rdma_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_link *lnk = container_of(wc->wr_cqe, struct smc_link,
					    rdma_cqe);

	if (wc->status != IB_WC_SUCCESS) {
		atomic_inc(&lnk->stats.tx_err);
		smc_wr_link_down(lnk, wc->status);
	}
	smc_wr_put(lnk);
}

/* an unsignaled WRITE only completes on its own when it failed */
static void smc_wr_rdma_unsig_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_link *lnk = container_of(wc->wr_cqe, struct smc_link,
					    rdma_unsig_cqe);

	if (wc->status != IB_WC_SUCCESS) {
		atomic_inc(&lnk->stats.tx_err);
		smc_wr_link_down(lnk, wc->status);
	}
}

/**
 * smc_wr_rdma_write() - post an RDMA WRITE into the peer's buffer
 * @lnk: the link, in RTS
 * @sge: one or two local SGEs (lkey from smc_wr_lkey(), DMA addresses)
 * @nsge: number of SGEs, 1 or 2
 * @remote_addr: target address the peer advertised
 * @rkey: the peer's rkey
 * @unsignaled: post without a completion
 *
 * Meant to be posted ahead of the CDC SEND that announces the data: the
 * QP executes them in order, so the data is in place when the peer sees
 * the SEND.  An unsignaled WRITE's local buffer must stay mapped until
 * the following signaled SEND completed; the send queue has room for two
 * WRITEs per send slot.
 *
 * Context: any, including softirq.
 * Return: 0 or a negative errno.
 */
int smc_wr_rdma_write(struct smc_link *lnk, struct ib_sge *sge, int nsge,
		      u64 remote_addr, u32 rkey, bool unsignaled)
{
	struct ib_rdma_wr wr = {
		.wr.opcode = IB_WR_RDMA_WRITE,
		.wr.sg_list = sge,
		.wr.num_sge = nsge,
		.remote_addr = remote_addr,
		.rkey = rkey,
	};
	int rc;

	if (nsge < 1 || nsge > 2)
		return -EINVAL;
	if (READ_ONCE(lnk->qp_state) != SMC_WR_QP_RTS)
		return -ENOTCONN;
	if (unsignaled) {
		if (test_bit(SMC_WR_LINK_DOWN, &lnk->flags))
			return -ENOLINK;
		wr.wr.wr_cqe = &lnk->rdma_unsig_cqe;
		rc = ib_post_send(lnk->qp, &wr.wr, NULL);
	} else {
		if (!smc_wr_get(lnk))
			return -ENOLINK;
		wr.wr.wr_cqe = &lnk->rdma_cqe;
		wr.wr.send_flags = IB_SEND_SIGNALED;
		rc = ib_post_send(lnk->qp, &wr.wr, NULL);
		if (rc)
			smc_wr_put(lnk);
	}
	if (rc)
		smc_wr_link_down(lnk, IB_WC_GENERAL_ERR);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_rdma_write);

/* --- receive --------------------------------------------------------------- */

static int smc_wr_rx_post(struct smc_link *lnk, struct smc_wr_rx_slot *slot)
{
	int rc;

	if (!smc_wr_get(lnk))
		return -ENOLINK;
	rc = ib_post_recv(lnk->qp, &slot->wr, NULL);
	if (rc)
		smc_wr_put(lnk);
	return rc;
}

static bool smc_wr_rx_fatal(enum ib_wc_status status)
{
	return status == IB_WC_RETRY_EXC_ERR ||
	       status == IB_WC_RNR_RETRY_EXC_ERR ||
	       status == IB_WC_WR_FLUSH_ERR;
}

static void smc_wr_rx_demux(struct smc_link *lnk, struct smc_wr_rx_slot *slot,
			    unsigned int len)
{
	unsigned int idx = slot - lnk->rx_slots;
	u8 *buf = lnk->rx_bufs + idx * SMC_WR_BUF_SIZE;
	const struct smc_wr_ops *ops = lnk->ops;
	u8 type;

	ib_dma_sync_single_for_cpu(lnk->ibdev, slot->sge[0].addr,
				   SMC_WR_TX_SIZE, DMA_FROM_DEVICE);
	if (len < SMC_WR_TX_SIZE) {
		atomic_inc(&lnk->stats.rx_short);
		return;
	}
	type = buf[0];
	if (type == SMC_WR_TYPE_CDC) {
		if (ops->cdc_rx)
			ops->cdc_rx(lnk, buf, min(len, SMC_WR_TX_SIZE));
		return;
	}
	if (type >= SMC_WR_TYPE_LLC_MIN && type <= SMC_WR_TYPE_LLC_MAX) {
		if (ops->llc_rx)
			ops->llc_rx(lnk, buf, min(len, SMC_WR_TX_SIZE));
		return;
	}
	if (type >= SMC_WR_TYPE_LLC2_MIN && type <= SMC_WR_TYPE_LLC2_MAX) {
		if (len > SMC_WR_TX_SIZE && lnk->v2) {
			/*
			 * The rest landed in the shared overflow buffer
			 * behind room for the first 44 bytes: make it one
			 * message.  LLC v2 flow control keeps one large
			 * message in flight, so no second one overwrites it.
			 */
			ib_dma_sync_single_for_cpu(lnk->ibdev, lnk->rx_v2_dma,
						   SMC_WR_BUF_V2_SIZE,
						   DMA_FROM_DEVICE);
			memcpy(lnk->rx_v2_buf, buf, SMC_WR_TX_SIZE);
			buf = lnk->rx_v2_buf;
		} else {
			len = SMC_WR_TX_SIZE;
		}
		if (ops->llc_rx)
			ops->llc_rx(lnk, buf, len);
		if (buf == lnk->rx_v2_buf)
			ib_dma_sync_single_for_device(lnk->ibdev,
						      lnk->rx_v2_dma,
						      SMC_WR_BUF_V2_SIZE,
						      DMA_FROM_DEVICE);
		return;
	}
	atomic_inc(&lnk->stats.rx_unknown);
}

static void smc_wr_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_wr_rx_slot *slot =
		container_of(wc->wr_cqe, struct smc_wr_rx_slot, cqe);
	struct smc_link *lnk = slot->lnk;
	int rc;

	if (smc_wr_rx_fatal(wc->status)) {
		/* the QP is in error: no re-post */
		smc_wr_link_down(lnk, wc->status);
		smc_wr_put(lnk);
		return;
	}
	/* test builds: a host that stops taking messages in (rx_stall) */
	if (smc_test_rx_stall()) {
		smc_wr_put(lnk);
		return;
	}
	if (wc->status == IB_WC_SUCCESS)
		smc_wr_rx_demux(lnk, slot, wc->byte_len);
	else
		atomic_inc(&lnk->stats.rx_err);
	ib_dma_sync_single_for_device(lnk->ibdev, slot->sge[0].addr,
				      SMC_WR_TX_SIZE, DMA_FROM_DEVICE);
	/* a failed re-post leaves the ring one short: the link is broken */
	rc = smc_wr_rx_post(lnk, slot);
	if (rc && rc != -ENOLINK)
		smc_wr_link_down(lnk, IB_WC_GENERAL_ERR);
	smc_wr_put(lnk);
}

static int smc_wr_post_rx_ring(struct smc_link *lnk)
{
	unsigned int i;
	int rc;

	for (i = 0; i < lnk->recv_cnt; i++) {
		rc = smc_wr_rx_post(lnk, &lnk->rx_slots[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* --- QP state transitions -------------------------------------------------- */

/*
 * The transitions of an RC QP, for the link's QP and its registration
 * QP alike; the callers check and track the link QP's state.
 */
static int smc_wr_modify_init(struct smc_link *lnk, struct ib_qp *qp,
			      int access)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = lnk->ibport,
		.qp_access_flags = access,
	};

	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			    IB_QP_ACCESS_FLAGS | IB_QP_PORT);
}

static int smc_wr_modify_rtr(struct smc_link *lnk, struct ib_qp *qp,
			     const struct smc_wr_peer *peer)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTR,
		.path_mtu = peer->path_mtu,
		.dest_qp_num = peer->qpn,
		.rq_psn = peer->psn & SMC_WR_PSN_MASK,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = SMC_WR_QP_MIN_RNR_TIMER,
	};
	union ib_gid dgid = peer->gid;

	attr.ah_attr.type = rdma_ah_find_type(lnk->ibdev, lnk->ibport);
	rdma_ah_set_port_num(&attr.ah_attr, lnk->ibport);
	rdma_ah_set_grh(&attr.ah_attr, &dgid, 0, lnk->sgid_index,
			peer->gateway ? SMC_WR_HOP_LIMIT_GW : SMC_WR_HOP_LIMIT,
			0);
	memcpy(attr.ah_attr.roce.dmac, peer->mac, ETH_ALEN);
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV |
			    IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			    IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
}

static int smc_wr_modify_rts(struct ib_qp *qp, u32 psn)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS,
		.timeout = smc_test_qp_timeout(SMC_WR_QP_TIMEOUT),
		.retry_cnt = SMC_WR_QP_RETRY,
		.rnr_retry = SMC_WR_QP_RNR_RETRY,
		.sq_psn = psn,
		.max_rd_atomic = 1,
	};

	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_SQ_PSN | IB_QP_RNR_RETRY |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

/**
 * smc_wr_qp_to_init() - move the QP from RESET to INIT, post receives
 * @lnk: the link
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int smc_wr_qp_to_init(struct smc_link *lnk)
{
	int rc;

	if (lnk->qp_state != SMC_WR_QP_RESET)
		return -EINVAL;
	rc = smc_wr_modify_init(lnk, lnk->qp, IB_ACCESS_LOCAL_WRITE |
				IB_ACCESS_REMOTE_WRITE);
	if (rc)
		return rc;
	WRITE_ONCE(lnk->qp_state, SMC_WR_QP_INIT);
	/* a QP in INIT accepts receive WRs: the ring is ready before RTR */
	return smc_wr_post_rx_ring(lnk);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_qp_to_init);

/**
 * smc_wr_qp_to_rtr() - move the QP from INIT to RTR, towards the peer
 * @lnk: the link
 * @peer: the peer's QP number, PSN, GID, MAC and the path MTU
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int smc_wr_qp_to_rtr(struct smc_link *lnk, const struct smc_wr_peer *peer)
{
	int rc;

	if (lnk->qp_state != SMC_WR_QP_INIT)
		return -EINVAL;
	rc = smc_wr_modify_rtr(lnk, lnk->qp, peer);
	if (!rc)
		WRITE_ONCE(lnk->qp_state, SMC_WR_QP_RTR);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_qp_to_rtr);

/**
 * smc_wr_qp_to_rts() - move the QP from RTR to RTS
 * @lnk: the link
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int smc_wr_qp_to_rts(struct smc_link *lnk)
{
	int rc;

	if (lnk->qp_state != SMC_WR_QP_RTR)
		return -EINVAL;
	rc = smc_wr_modify_rts(lnk->qp, lnk->psn);
	if (!rc)
		WRITE_ONCE(lnk->qp_state, SMC_WR_QP_RTS);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_qp_to_rts);

static int smc_wr_map(struct smc_link *lnk, void *buf, size_t len,
		      enum dma_data_direction dir, u64 *dma)
{
	*dma = ib_dma_map_single(lnk->ibdev, buf, len, dir);
	if (ib_dma_mapping_error(lnk->ibdev, *dma)) {
		*dma = 0;
		return -EIO;
	}
	return 0;
}

/* --- memory registration -------------------------------------------------- */

static void smc_wr_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smc_link *lnk = container_of(wc->wr_cqe, struct smc_link,
					    reg_cqe);

	lnk->reg_status = wc->status;
	complete(&lnk->reg_done);
	smc_wr_put(lnk);
}

/**
 * smc_wr_dma_map() - DMA-map a local buffer of a link's device
 * @lnk: the link
 * @buf: kernel buffer (kmalloc'ed or pages, physically contiguous)
 * @len: its length
 * @dma: returns the DMA address to use with smc_wr_lkey()
 *
 * Context: process context.
 * Return: 0 or -EIO.
 */
int smc_wr_dma_map(struct smc_link *lnk, void *buf, size_t len, u64 *dma)
{
	return smc_wr_map(lnk, buf, len, DMA_BIDIRECTIONAL, dma);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_dma_map);

/**
 * smc_wr_dma_unmap() - undo smc_wr_dma_map()
 * @lnk: the link
 * @dma: the DMA address
 * @len: the length that was mapped
 *
 * Context: process context.
 */
void smc_wr_dma_unmap(struct smc_link *lnk, u64 dma, size_t len)
{
	ib_dma_unmap_single(lnk->ibdev, dma, len, DMA_BIDIRECTIONAL);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_dma_unmap);

static void smc_wr_mr_free(struct smc_link *lnk, struct smc_wr_mr *mr)
{
	if (mr->mr)
		ib_dereg_mr(mr->mr);
	if (mr->dma)
		smc_wr_dma_unmap(lnk, mr->dma, mr->len);
	memset(mr, 0, sizeof(*mr));
}

/* post IB_WR_REG_MR and wait for it; lnk->reg_mutex held */
static int smc_wr_reg_post(struct smc_link *lnk, struct ib_mr *ibmr)
{
	struct ib_reg_wr wr = {
		.wr.opcode = IB_WR_REG_MR,
		.wr.send_flags = IB_SEND_SIGNALED,
		.wr.wr_cqe = &lnk->reg_cqe,
		.mr = ibmr,
		.key = ibmr->rkey,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	int rc;

	lockdep_assert_held(&lnk->reg_mutex);
	if (!smc_wr_get(lnk))
		return -ENOLINK;
	reinit_completion(&lnk->reg_done);
	rc = ib_post_send(lnk->reg_qp, &wr.wr, NULL);
	if (rc) {
		smc_wr_put(lnk);
		return rc;
	}
	if (!wait_for_completion_timeout(&lnk->reg_done, SMC_WR_REG_MR_WAIT))
		return -ETIMEDOUT;
	return lnk->reg_status == IB_WC_SUCCESS ? 0 : -EIO;
}

/**
 * smc_wr_mr_prepare() - set up a buffer's MR: rkey and address known
 * @lnk: the link, in any QP state but RESET
 * @buf: physically contiguous kernel buffer
 * @len: its length
 * @mr: filled with the MR, the rkey and the address to advertise
 *
 * Allocates the fast-reg MR and maps the buffer, which fixes the rkey
 * and the address the peer is told in CLC, before the QP runs: a server
 * advertises its RMB in the Accept while its QP is still in INIT.  The
 * peer may only write once smc_wr_mr_post() has made the MR valid.
 *
 * Context: process context, may sleep.
 * Return: 0, or a negative errno with @mr zeroed.
 */
int smc_wr_mr_prepare(struct smc_link *lnk, void *buf, size_t len,
		      struct smc_wr_mr *mr)
{
	unsigned int pages = DIV_ROUND_UP(offset_in_page(buf) + len,
					  PAGE_SIZE);
	struct scatterlist sg;
	int rc, n;

	memset(mr, 0, sizeof(*mr));
	if (!len || pages > lnk->ibdev->attrs.max_fast_reg_page_list_len)
		return -EINVAL;
	mr->buf = buf;
	mr->len = len;
	rc = smc_wr_dma_map(lnk, buf, len, &mr->dma);
	if (rc)
		goto err;
	mr->mr = ib_alloc_mr(lnk->pd, IB_MR_TYPE_MEM_REG, pages);
	if (IS_ERR(mr->mr)) {
		rc = PTR_ERR(mr->mr);
		mr->mr = NULL;
		goto err;
	}
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = mr->dma;
	sg_dma_len(&sg) = len;
	n = ib_map_mr_sg(mr->mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1) {
		rc = n < 0 ? n : -EINVAL;
		goto err;
	}
	mr->rkey = mr->mr->rkey;
	mr->addr = mr->mr->iova;
	return 0;

err:
	smc_wr_mr_free(lnk, mr);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_mr_prepare);

/**
 * smc_wr_mr_post() - make a prepared MR valid for the peer's writes
 * @lnk: the link, in RTS
 * @mr: from smc_wr_mr_prepare() on @lnk
 *
 * Posts IB_WR_REG_MR (LOCAL_WRITE | REMOTE_WRITE) and waits for it at
 * most SMC_WR_REG_MR_WAIT.  Slow on Soft-RoCE: done once per buffer and
 * link, never per message.  When the device does not complete it in
 * time the link goes down and the MR is kept until
 * smc_wr_link_destroy(), since the device may still use it.
 *
 * Context: process context, may sleep (bounded).
 * Return: 0, or a negative errno; @mr is zeroed if it was handed over
 * to the link for teardown.
 */
int smc_wr_mr_post(struct smc_link *lnk, struct smc_wr_mr *mr)
{
	int rc;

	if (!mr->mr)
		return -EINVAL;
	mutex_lock(&lnk->reg_mutex);
	rc = smc_wr_reg_post(lnk, mr->mr);
	if (rc == -ETIMEDOUT) {
		/* still queued on the device: keep it until teardown */
		if (!lnk->reg_orphan.mr)
			lnk->reg_orphan = *mr;
		else
			WARN_ON_ONCE(1);	/* the link went down the first time */
		memset(mr, 0, sizeof(*mr));
	}
	mutex_unlock(&lnk->reg_mutex);
	if (rc && rc != -ENOLINK)
		smc_wr_link_down(lnk, IB_WC_GENERAL_ERR);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_mr_post);

/**
 * smc_wr_mr_register() - register a buffer for the peer's RDMA WRITEs
 * @lnk: the link, in RTS
 * @buf: physically contiguous kernel buffer
 * @len: its length
 * @mr: filled with the MR, the rkey and the address to advertise
 *
 * smc_wr_mr_prepare() and smc_wr_mr_post() in one.
 *
 * Context: process context, may sleep (bounded).
 * Return: 0, or a negative errno with @mr zeroed.
 */
int smc_wr_mr_register(struct smc_link *lnk, void *buf, size_t len,
		       struct smc_wr_mr *mr)
{
	int rc;

	rc = smc_wr_mr_prepare(lnk, buf, len, mr);
	if (rc)
		return rc;
	rc = smc_wr_mr_post(lnk, mr);
	if (rc)
		smc_wr_mr_free(lnk, mr);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_mr_register);

/**
 * smc_wr_mr_unregister() - free a registration of smc_wr_mr_register()
 * @lnk: the link it was registered on (not yet destroyed)
 * @mr: the registration; zeroed afterwards, so a second call is harmless
 *
 * The peer must no longer write into the buffer.
 *
 * Context: process context.
 */
void smc_wr_mr_unregister(struct smc_link *lnk, struct smc_wr_mr *mr)
{
	smc_wr_mr_free(lnk, mr);
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_mr_unregister);

/* --- creation and teardown ----------------------------------------------- */

static int smc_wr_alloc_bufs(struct smc_link *lnk)
{
	size_t tx_len = (size_t)lnk->send_cnt * SMC_WR_BUF_SIZE;
	size_t rx_len = (size_t)lnk->recv_cnt * SMC_WR_BUF_SIZE;
	int rc;

	lnk->tx_slots = kcalloc(lnk->send_cnt, sizeof(*lnk->tx_slots),
				GFP_KERNEL);
	lnk->tx_mask = bitmap_zalloc(lnk->send_cnt, GFP_KERNEL);
	lnk->tx_bufs = kzalloc(tx_len, GFP_KERNEL);
	lnk->rx_slots = kcalloc(lnk->recv_cnt, sizeof(*lnk->rx_slots),
				GFP_KERNEL);
	lnk->rx_bufs = kzalloc(rx_len, GFP_KERNEL);
	if (!lnk->tx_slots || !lnk->tx_mask || !lnk->tx_bufs ||
	    !lnk->rx_slots || !lnk->rx_bufs)
		return -ENOMEM;
	if (lnk->v2) {
		lnk->tx_v2_buf = kzalloc(SMC_WR_BUF_V2_SIZE, GFP_KERNEL);
		lnk->rx_v2_buf = kzalloc(SMC_WR_BUF_V2_SIZE, GFP_KERNEL);
		if (!lnk->tx_v2_buf || !lnk->rx_v2_buf)
			return -ENOMEM;
	}
	rc = smc_wr_map(lnk, lnk->tx_bufs, tx_len, DMA_TO_DEVICE,
			&lnk->tx_dma);
	if (!rc)
		rc = smc_wr_map(lnk, lnk->rx_bufs, rx_len, DMA_FROM_DEVICE,
				&lnk->rx_dma);
	if (!rc && lnk->v2)
		rc = smc_wr_map(lnk, lnk->tx_v2_buf, SMC_WR_BUF_V2_SIZE,
				DMA_TO_DEVICE, &lnk->tx_v2_dma);
	if (!rc && lnk->v2)
		rc = smc_wr_map(lnk, lnk->rx_v2_buf, SMC_WR_BUF_V2_SIZE,
				DMA_FROM_DEVICE, &lnk->rx_v2_dma);
	return rc;
}

static void smc_wr_init_slots(struct smc_link *lnk)
{
	unsigned int i;

	for (i = 0; i < lnk->send_cnt; i++) {
		struct smc_wr_tx_slot *s = &lnk->tx_slots[i];

		s->cqe.done = smc_wr_tx_done;
		s->lnk = lnk;
		s->idx = i;
		s->buf = lnk->tx_bufs + i * SMC_WR_BUF_SIZE;
		s->wr.wr_cqe = &s->cqe;
		s->wr.opcode = IB_WR_SEND;
		s->wr.sg_list = &s->sge;
		s->wr.num_sge = 1;
	}
	for (i = 0; i < lnk->recv_cnt; i++) {
		struct smc_wr_rx_slot *s = &lnk->rx_slots[i];

		s->cqe.done = smc_wr_rx_done;
		s->lnk = lnk;
		s->sge[0].addr = lnk->rx_dma + i * SMC_WR_BUF_SIZE;
		s->sge[0].length = SMC_WR_TX_SIZE;
		s->sge[0].lkey = smc_wr_lkey(lnk);
		/* the rest of a v2 message goes behind its first 44 bytes */
		s->sge[1].addr = lnk->rx_v2_dma + SMC_WR_TX_SIZE;
		s->sge[1].length = SMC_WR_BUF_V2_SIZE - SMC_WR_TX_SIZE;
		s->sge[1].lkey = smc_wr_lkey(lnk);
		s->wr.wr_cqe = &s->cqe;
		s->wr.sg_list = s->sge;
		s->wr.num_sge = lnk->v2 ? 2 : 1;
	}
}

/* own GID and the MAC of its netdev */
static int smc_wr_read_gid(struct smc_link *lnk)
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;
	int rc = 0;

	attr = rdma_get_gid_attr(lnk->ibdev, lnk->ibport, lnk->sgid_index);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	lnk->gid = attr->gid;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (IS_ERR(ndev))
		rc = PTR_ERR(ndev);
	else
		ether_addr_copy(lnk->mac, ndev->dev_addr);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
	return rc;
}

/**
 * smc_wr_gid_present() - is the link's own GID still in the port's table
 * @lnk: the link, created
 *
 * An address removed from the netdev takes its GID out of the table;
 * the QP still holds the entry, but the path is gone (the peer's packets
 * to that address reach no one).
 *
 * Context: any; takes the GID table's lock briefly.
 * Return: true while the entry at the link's index is valid and is the
 * link's GID.
 */
bool smc_wr_gid_present(struct smc_link *lnk)
{
	union ib_gid gid;

	if (rdma_query_gid(lnk->ibdev, lnk->ibport, lnk->sgid_index, &gid))
		return false;
	return !memcmp(&gid, &lnk->gid, sizeof(gid));
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_gid_present);

/*
 * Errors the device finds on its own, such as a peer's RDMA WRITE with a
 * bad rkey, put the QP in error without any completion of ours saying
 * why: only this event tells.  It may come in hard interrupt context, so
 * it only stops new posts; the flushed receives that follow take the
 * link down (smc_wr_rx_done()).
 */
static void smc_wr_qp_event(struct ib_event *ev, void *ctx)
{
	struct smc_link *lnk = ctx;

	switch (ev->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_PATH_MIG_ERR:
		pr_warn_ratelimited("smc: QP %u on %s: %s\n",
				    ev->element.qp->qp_num,
				    dev_name(&lnk->ibdev->dev),
				    ib_event_msg(ev->event));
		set_bit(SMC_WR_LINK_DOWN, &lnk->flags);
		wake_up_all(&lnk->tx_wait);
		break;
	default:
		break;
	}
}

static int smc_wr_create_qp(struct smc_link *lnk)
{
	struct ib_qp_init_attr qa = {
		.event_handler = smc_wr_qp_event,
		.qp_context = lnk,
		.send_cq = lnk->send_cq,
		.recv_cq = lnk->recv_cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			/*
			 * A send slot carries up to two RDMA WRITEs before
			 * its CDC; one entry more of slack.  A full send
			 * queue fails the post and takes the link down.
			 * Registrations go on @reg_qp.
			 */
			.max_send_wr = 3 * lnk->send_cnt + 1,
			.max_recv_wr = lnk->recv_cnt,
			.max_send_sge = 2,
			.max_recv_sge = lnk->v2 ? 2 : 1,
			.max_inline_data = SMC_WR_TX_SIZE,
		},
	};
	struct ib_qp *qp;

	qp = ib_create_qp(lnk->pd, &qa);
	if (IS_ERR(qp)) {
		/* the device may not do inline data: do without */
		qa.cap.max_inline_data = 0;
		qp = ib_create_qp(lnk->pd, &qa);
		if (IS_ERR(qp))
			return PTR_ERR(qp);
	}
	lnk->qp = qp;
	lnk->qp_state = SMC_WR_QP_RESET;
	lnk->tx_max_inline = qa.cap.max_inline_data;
	lnk->tx_inline = qa.cap.max_inline_data >= SMC_WR_TX_SIZE;
	return 0;
}

/*
 * IB_WR_REG_MR goes on a QP of its own that never sends a packet.  On
 * the link's QP a registration queued behind WRITEs or SENDs not yet
 * acknowledged runs a second time when rxe rewinds the send queue for a
 * retransmission; on an MR already valid that fails and puts the QP in
 * error (rxe_reg_fast_mr(): "not free").  MRs belong to the PD, not to
 * a QP, so the peer's WRITEs on the link's QP find the MR all the same.
 * The QP is connected to itself, as a QP must be in RTS to post.
 */
static int smc_wr_create_reg_qp(struct smc_link *lnk)
{
	struct ib_qp_init_attr qa = {
		.event_handler = smc_wr_qp_event,
		.qp_context = lnk,
		.send_cq = lnk->send_cq,
		.recv_cq = lnk->recv_cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 1,	/* one registration at a time */
			.max_recv_wr = 1,	/* never posted */
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct smc_wr_peer self = {
		.gid = lnk->gid,
		.path_mtu = IB_MTU_1024,
	};
	struct ib_qp *qp;
	int rc;

	qp = ib_create_qp(lnk->pd, &qa);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	lnk->reg_qp = qp;
	/* connected to itself: it never sends a packet */
	self.qpn = qp->qp_num;
	ether_addr_copy(self.mac, lnk->mac);
	rc = smc_wr_modify_init(lnk, qp, IB_ACCESS_LOCAL_WRITE);
	if (!rc)
		rc = smc_wr_modify_rtr(lnk, qp, &self);
	if (!rc)
		rc = smc_wr_modify_rts(qp, 0);
	return rc;
}

/**
 * smc_wr_link_create() - create PD, CQs, QP and buffers of a link
 * @lnk: zeroed link structure (usually embedded in the caller's)
 * @p: device, port, GID index, version and slot counts
 *
 * The QP is left in RESET; smc_wr_qp_to_init() posts the receive ring.
 * On failure everything is already undone.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int smc_wr_link_create(struct smc_link *lnk,
		       const struct smc_wr_link_params *p)
{
	unsigned int cqe;
	int rc;

	lnk->ibdev = p->ibdev;
	lnk->ibport = p->ibport;
	lnk->sgid_index = p->sgid_index;
	lnk->v2 = p->v2;
	lnk->ops = p->ops;
	lnk->send_cnt = p->send_cnt ?: SMC_WR_SEND_CNT_DEF;
	lnk->recv_cnt = p->recv_cnt ?: SMC_WR_RECV_CNT_DEF;
	lnk->psn = get_random_u32() & SMC_WR_PSN_MASK;
	lnk->qp_state = SMC_WR_QP_RESET;
	atomic_set(&lnk->wr_pending, 1);	/* the link's own count */
	init_waitqueue_head(&lnk->tx_wait);
	init_waitqueue_head(&lnk->drain_wait);
	mutex_init(&lnk->reg_mutex);
	init_completion(&lnk->reg_done);
	lnk->rdma_cqe.done = smc_wr_rdma_done;
	lnk->rdma_unsig_cqe.done = smc_wr_rdma_unsig_done;
	lnk->reg_cqe.done = smc_wr_reg_done;
	if (!lnk->ops || lnk->send_cnt > SMC_WR_SEND_CNT_MAX ||
	    lnk->recv_cnt > SMC_WR_RECV_CNT_MAX) {
		rc = -EINVAL;
		goto err;
	}

	rc = smc_wr_read_gid(lnk);
	if (rc)
		goto err;
	lnk->pd = ib_alloc_pd(lnk->ibdev, 0);
	if (IS_ERR(lnk->pd)) {
		rc = PTR_ERR(lnk->pd);
		lnk->pd = NULL;
		goto err;
	}
	/* SENDs, up to two WRITEs per SEND, and the registration QP's one */
	cqe = 3 * lnk->send_cnt + 2;
	lnk->send_cq = ib_alloc_cq(lnk->ibdev, lnk, cqe, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(lnk->send_cq)) {
		rc = PTR_ERR(lnk->send_cq);
		lnk->send_cq = NULL;
		goto err;
	}
	lnk->recv_cq = ib_alloc_cq(lnk->ibdev, lnk, lnk->recv_cnt, 0,
				   IB_POLL_SOFTIRQ);
	if (IS_ERR(lnk->recv_cq)) {
		rc = PTR_ERR(lnk->recv_cq);
		lnk->recv_cq = NULL;
		goto err;
	}
	rc = smc_wr_create_qp(lnk);
	if (rc)
		goto err;
	rc = smc_wr_create_reg_qp(lnk);
	if (rc)
		goto err;
	rc = smc_wr_alloc_bufs(lnk);
	if (rc)
		goto err;
	smc_wr_init_slots(lnk);
	return 0;

err:
	smc_wr_link_destroy(lnk);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_link_create);

/*
 * Flush what the device never completed: after the QP and the CQs are
 * gone no completion can run any more, so the slots' callbacks run here
 * and release what their callers pinned.
 */
static void smc_wr_flush_orphans(struct smc_link *lnk)
{
	unsigned int i;

	for (i = 0; i < lnk->send_cnt; i++) {
		struct smc_wr_tx_slot *s = &lnk->tx_slots[i];
		smc_wr_tx_done_t done = s->done;
		void *priv = s->priv;

		if (!test_bit(i, lnk->tx_mask))
			continue;
		smc_wr_slot_release(lnk, s);
		if (done)
			done(lnk, priv, IB_WC_WR_FLUSH_ERR);
	}
}

static void smc_wr_unmap(struct smc_link *lnk, u64 *dma, size_t len,
			 enum dma_data_direction dir)
{
	if (*dma)
		ib_dma_unmap_single(lnk->ibdev, *dma, len, dir);
	*dma = 0;
}

/**
 * smc_wr_link_quiesce() - stop the device's work on a link
 * @lnk: the link, fully or partly created
 *
 * Marks the link down, waits for the tasks that hold send slots, moves
 * the QPs to ERR and waits at most SMC_WR_DRAIN_WAIT for every posted WR
 * to flush.  After it the device no longer reads or writes memory for
 * this link, so buffer mappings and MRs on it may go.  A second call,
 * as from smc_wr_link_destroy(), does nothing.
 *
 * Context: process context, may sleep (bounded).
 */
void smc_wr_link_quiesce(struct smc_link *lnk)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	might_sleep();
	if (test_and_set_bit(SMC_WR_LINK_QUIESCED, &lnk->flags))
		return;
	set_bit(SMC_WR_LINK_DOWN, &lnk->flags);
	/* a teardown is no link failure for the upper layer */
	set_bit(SMC_WR_LINK_DOWN_SENT, &lnk->flags);
	wake_up_all(&lnk->tx_wait);
	/*
	 * A task between taking a slot and posting or putting it back
	 * (LLC work, tx_work; preemptible) still writes into the slot
	 * arrays: wait for it.  New takers see LINK_DOWN (ordered by the
	 * barrier both sides pass) and take none.
	 */
	smp_mb__after_atomic();
	if (!wait_event_timeout(lnk->drain_wait,
				!atomic_read(&lnk->slot_holders),
				SMC_WR_DRAIN_WAIT))
		pr_warn_ratelimited("smc: %s: %d send slots still held at teardown\n",
				    lnk->ibdev ? dev_name(&lnk->ibdev->dev) : "?",
				    atomic_read(&lnk->slot_holders));
	if (lnk->qp && lnk->qp_state != SMC_WR_QP_RESET &&
	    !ib_modify_qp(lnk->qp, &attr, IB_QP_STATE))
		WRITE_ONCE(lnk->qp_state, SMC_WR_QP_ERR);
	/* a registration the device still holds flushes too */
	if (lnk->reg_qp)
		ib_modify_qp(lnk->reg_qp, &attr, IB_QP_STATE);
	/* drop the link's own count (once); posted WRs hold the others */
	if (atomic_add_unless(&lnk->wr_pending, -1, 0) &&
	    atomic_read(&lnk->wr_pending) &&
	    !wait_event_timeout(lnk->drain_wait,
				!atomic_read(&lnk->wr_pending),
				SMC_WR_DRAIN_WAIT)) {
		atomic_inc(&lnk->stats.drain_timeout);
		pr_warn_ratelimited("smc: %s: %d work requests not flushed, destroying the QP anyway\n",
				    dev_name(&lnk->ibdev->dev),
				    atomic_read(&lnk->wr_pending));
	}
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_link_quiesce);

/**
 * smc_wr_link_destroy() - tear a link down, from any state
 * @lnk: the link, fully or partly created
 *
 * Quiesces the link (smc_wr_link_quiesce()), then destroys QP and CQs,
 * runs the callbacks of SENDs the device never completed with
 * IB_WC_WR_FLUSH_ERR, and frees the rest.  The caller makes sure nobody
 * posts on the link any more and that no registration runs concurrently.
 *
 * Context: process context, may sleep (bounded).
 */
void smc_wr_link_destroy(struct smc_link *lnk)
{
	size_t tx_len = (size_t)lnk->send_cnt * SMC_WR_BUF_SIZE;
	size_t rx_len = (size_t)lnk->recv_cnt * SMC_WR_BUF_SIZE;

	smc_wr_link_quiesce(lnk);
	if (lnk->qp)
		ib_destroy_qp(lnk->qp);
	lnk->qp = NULL;
	if (lnk->reg_qp)
		ib_destroy_qp(lnk->reg_qp);
	lnk->reg_qp = NULL;
	/* ib_free_cq() waits for a running poll: no completion after it */
	if (lnk->send_cq)
		ib_free_cq(lnk->send_cq);
	lnk->send_cq = NULL;
	if (lnk->recv_cq)
		ib_free_cq(lnk->recv_cq);
	lnk->recv_cq = NULL;
	if (lnk->tx_slots && lnk->tx_mask)
		smc_wr_flush_orphans(lnk);
	atomic_set(&lnk->wr_pending, 0);
	if (lnk->reg_orphan.mr)
		smc_wr_mr_free(lnk, &lnk->reg_orphan);

	if (lnk->ibdev) {
		smc_wr_unmap(lnk, &lnk->tx_dma, tx_len, DMA_TO_DEVICE);
		smc_wr_unmap(lnk, &lnk->rx_dma, rx_len, DMA_FROM_DEVICE);
		smc_wr_unmap(lnk, &lnk->tx_v2_dma, SMC_WR_BUF_V2_SIZE,
			     DMA_TO_DEVICE);
		smc_wr_unmap(lnk, &lnk->rx_v2_dma, SMC_WR_BUF_V2_SIZE,
			     DMA_FROM_DEVICE);
	}
	kfree(lnk->tx_v2_buf);
	lnk->tx_v2_buf = NULL;
	kfree(lnk->rx_v2_buf);
	lnk->rx_v2_buf = NULL;
	kfree(lnk->rx_bufs);
	lnk->rx_bufs = NULL;
	kfree(lnk->rx_slots);
	lnk->rx_slots = NULL;
	kfree(lnk->tx_bufs);
	lnk->tx_bufs = NULL;
	bitmap_free(lnk->tx_mask);
	lnk->tx_mask = NULL;
	kfree(lnk->tx_slots);
	lnk->tx_slots = NULL;
	if (lnk->pd)
		ib_dealloc_pd(lnk->pd);
	lnk->pd = NULL;
	lnk->qp_state = SMC_WR_QP_RESET;
}
EXPORT_SYMBOL_IF_KUNIT(smc_wr_link_destroy);
