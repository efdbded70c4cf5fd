/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Work-request layer of one SMC-R link: its protection domain, CQs and
 * RC queue pair, the QP state machine, the 44-byte SEND slots that carry
 * CDC and LLC messages, RDMA WRITE posting, the receive ring with its
 * demultiplexer, and fast-reg memory registration.
 *
 * The link-group layer is meant to embed struct smc_link in its own link
 * structure (container_of() from the callbacks gets back to it) and to
 * drive it with smc_wr_link_create(), smc_wr_qp_to_init/rtr/rts() and
 * smc_wr_link_destroy().  This layer knows nothing about devices beyond
 * the ib_device, port and GID index it is given.
 */
#ifndef _NET_SMC_WR_H
#define _NET_SMC_WR_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/if_ether.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#define SMC_WR_BUF_SIZE		48	/* one send/receive slot in memory */
#define SMC_WR_TX_SIZE		44	/* a CDC or v1 LLC message on the wire */
#define SMC_WR_BUF_V2_SIZE	8192	/* largest LLC v2 message */
#define SMC_WR_SEND_CNT_DEF	16	/* send slots of a link by default */
#define SMC_WR_RECV_CNT_DEF	48	/* receive WRs of a link by default */
#define SMC_WR_SEND_CNT_MAX	2048
#define SMC_WR_RECV_CNT_MAX	8192
#define SMC_WR_SEND_WAIT	(10 * HZ)	/* wait for a free slot */
#define SMC_WR_REG_MR_WAIT	(5 * HZ)	/* IB_WR_REG_MR completion */
/* QP numbers and packet sequence numbers are 24 bits wide in IB */
#define SMC_WR_QPN_MASK		GENMASK(23, 0)
#define SMC_WR_PSN_MASK		GENMASK(23, 0)
#define SMC_WR_DRAIN_WAIT	(5 * HZ)	/* flush of all WRs at teardown */

/* first byte of a received message */
#define SMC_WR_TYPE_CDC		0xfe
#define SMC_WR_TYPE_LLC_MIN	0x01
#define SMC_WR_TYPE_LLC_MAX	0x09
#define SMC_WR_TYPE_LLC2_MIN	0x21
#define SMC_WR_TYPE_LLC2_MAX	0x29

/* RTS attributes (protocol reference, section 4) */
#define SMC_WR_QP_TIMEOUT	15	/* 4.096 us << 15, about 134 ms */
#define SMC_WR_QP_RETRY		7
#define SMC_WR_QP_RNR_RETRY	7	/* infinite */
#define SMC_WR_QP_MIN_RNR_TIMER	5
#define SMC_WR_HOP_LIMIT	1
#define SMC_WR_HOP_LIMIT_GW	64	/* SMC-Rv2 through a gateway */

/* QP state as this layer moved it; never read back from the device */
enum smc_wr_qp_state {
	SMC_WR_QP_RESET,
	SMC_WR_QP_INIT,
	SMC_WR_QP_RTR,
	SMC_WR_QP_RTS,
	SMC_WR_QP_ERR,
};

struct smc_link;

/**
 * typedef smc_wr_tx_done_t - completion of a posted SEND
 * @lnk: the link the SEND was posted on
 * @priv: the opaque pointer given to smc_wr_send()
 * @status: IB_WC_SUCCESS or the error (IB_WC_WR_FLUSH_ERR at teardown)
 *
 * Runs in softirq context, or from smc_wr_link_destroy() for WRs the
 * device never completed.  It runs exactly once per successful post.
 */
typedef void (*smc_wr_tx_done_t)(struct smc_link *lnk, void *priv,
				 enum ib_wc_status status);

/**
 * struct smc_wr_ops - upper-layer callbacks of a link
 * @cdc_rx: a CDC message (first byte 0xFE) arrived
 * @llc_rx: an LLC message (0x01..0x09, or 0x21..0x29 for v2) arrived;
 *	for a v2 message longer than 44 bytes @buf is the overflow buffer
 * @link_down: the link failed (a fatal completion error, a registration
 *	timeout); called once, in softirq or process context
 *
 * The receive callbacks run in softirq context; @buf is only valid
 * during the call, so a handler copies what it keeps.  Any may be NULL.
 */
struct smc_wr_ops {
	void (*cdc_rx)(struct smc_link *lnk, const u8 *buf, unsigned int len);
	void (*llc_rx)(struct smc_link *lnk, const u8 *buf, unsigned int len);
	void (*link_down)(struct smc_link *lnk, enum ib_wc_status status);
};

/**
 * struct smc_wr_tx_slot - one send slot and its pre-built SEND WR
 * @cqe: completion entry, found from the work completion
 * @lnk: owning link
 * @wr: the SEND WR (opcode, flags and SGE set up at link creation)
 * @sge: its only SGE
 * @buf: the slot's 48-byte buffer, of which SMC_WR_TX_SIZE are sent
 * @done: completion callback of the SEND in flight, or NULL
 * @priv: opaque pointer for @done, pinned by the caller (see smc_wr_send())
 * @idx: index in the link's slot array
 * @v2: the SEND in flight comes from the shared 8 KiB v2 buffer
 */
struct smc_wr_tx_slot {
	struct ib_cqe cqe;
	struct smc_link *lnk;
	struct ib_send_wr wr;
	struct ib_sge sge;
	u8 *buf;
	smc_wr_tx_done_t done;
	void *priv;
	u16 idx;
	bool v2;
};

/**
 * struct smc_wr_rx_slot - one receive WR
 * @cqe: completion entry
 * @lnk: owning link
 * @wr: the receive WR
 * @sge: its SGEs: the slot's buffer, and for v2 the shared overflow buffer
 */
struct smc_wr_rx_slot {
	struct ib_cqe cqe;
	struct smc_link *lnk;
	struct ib_recv_wr wr;
	struct ib_sge sge[2];
};

/**
 * struct smc_wr_peer - what the peer told us about its side of the link
 * @qpn: its QP number
 * @psn: its initial packet sequence number (24 bits)
 * @gid: its GID
 * @mac: its MAC, or the next hop's for SMC-Rv2 through a gateway
 * @path_mtu: the path MTU, the minimum of both sides (IB_MTU_*)
 * @gateway: SMC-Rv2 peer behind a gateway (hop limit 64 instead of 1)
 */
struct smc_wr_peer {
	u32 qpn;
	u32 psn;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	enum ib_mtu path_mtu;
	bool gateway;
};

/**
 * struct smc_wr_stats - counted reasons for what this layer dropped
 * @rx_unknown: received message with a type byte no handler is for
 * @rx_short: received message shorter than SMC_WR_TX_SIZE
 * @rx_err: receive completion error that only re-posted the buffer
 * @tx_err: send or RDMA WRITE completion error
 * @drain_timeout: teardown gave up waiting for the device's flush
 */
struct smc_wr_stats {
	atomic_t rx_unknown;
	atomic_t rx_short;
	atomic_t rx_err;
	atomic_t tx_err;
	atomic_t drain_timeout;
};

/**
 * struct smc_wr_mr - a buffer registered for remote writes on one link
 * @mr: the fast-reg memory region
 * @buf: the buffer
 * @len: its length
 * @dma: its DMA address
 * @rkey: the rkey to advertise
 * @addr: the address to advertise (the MR's iova)
 */
struct smc_wr_mr {
	struct ib_mr *mr;
	void *buf;
	size_t len;
	u64 dma;
	u32 rkey;
	u64 addr;
};

/* bits in smc_link.flags */
enum {
	SMC_WR_LINK_DOWN,	/* no new work requests, waiters leave */
	SMC_WR_LINK_DOWN_SENT,	/* ops->link_down has been called */
	SMC_WR_LINK_QUIESCED,	/* QPs in ERR, posted WRs flushed */
	SMC_WR_TX_V2_BUSY,	/* the v2 send buffer is taken */
};

/**
 * struct smc_link - QP-level state of one SMC-R link
 * @ibdev: the RDMA device, held by the caller for the link's lifetime
 * @ibport: its port
 * @sgid_index: index of the link's own GID
 * @gid: the link's own GID
 * @mac: MAC of the GID's netdev
 * @psn: own initial PSN, 24 random bits
 * @v2: SMC-Rv2 link: second receive SGE and v2 large sends
 * @ops: upper-layer callbacks
 * @pd: protection domain of this link
 * @send_cq: send completion queue
 * @recv_cq: receive completion queue
 * @qp: the RC queue pair
 * @reg_qp: a QP of the same PD, connected to itself, for IB_WR_REG_MR
 * @qp_state: state this layer last moved @qp to
 * @tx_inline: SENDs are posted inline
 * @tx_max_inline: inline data limit of the QP
 * @send_cnt: number of send slots
 * @recv_cnt: number of receive WRs
 * @flags: SMC_WR_* bits
 * @tx_slots: the send slots
 * @tx_mask: bitmap of the send slots in use
 * @tx_bufs: send slot buffers, SMC_WR_BUF_SIZE each
 * @tx_dma: their DMA address
 * @tx_wait: waiters for a free slot or the v2 buffer
 * @tx_v2_buf: the one v2 send buffer, SMC_WR_BUF_V2_SIZE bytes
 * @tx_v2_dma: its DMA address
 * @rx_slots: the receive WRs
 * @rx_bufs: their buffers, SMC_WR_BUF_SIZE each
 * @rx_dma: their DMA address
 * @rx_v2_buf: the shared v2 receive overflow buffer
 * @rx_v2_dma: its DMA address
 * @rdma_cqe: completion entry of signaled RDMA WRITEs
 * @rdma_unsig_cqe: of unsignaled ones (only ever seen with an error)
 * @reg_cqe: completion entry of IB_WR_REG_MR
 * @reg_mutex: serialises registrations, which share @reg_done
 * @reg_done: completed by the IB_WR_REG_MR completion
 * @reg_status: its status
 * @reg_orphan: a registration that timed out, freed at teardown
 * @wr_pending: 1 + posted WRs whose completion has not run yet
 * @slot_holders: send slots taken and neither posted nor put back yet
 * @drain_wait: woken when @wr_pending or @slot_holders drops
 * @stats: drop counters
 *
 * Lifetime rule: every posted WR holds a count in @wr_pending, and
 * every taken slot one in @slot_holders until it is posted or put back,
 * so smc_wr_link_destroy() frees nothing a completion or a slot's
 * holder touches while either can still run.  The link-group layer embeds this struct
 * and must not free it before smc_wr_link_destroy() has returned.
 */
struct smc_link {
	struct ib_device *ibdev;
	u32 ibport;
	u8 sgid_index;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	u32 psn;
	bool v2;
	const struct smc_wr_ops *ops;

	struct ib_pd *pd;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_qp *qp;
	struct ib_qp *reg_qp;
	enum smc_wr_qp_state qp_state;
	bool tx_inline;
	u32 tx_max_inline;
	u16 send_cnt;
	u16 recv_cnt;
	unsigned long flags;

	struct smc_wr_tx_slot *tx_slots;
	unsigned long *tx_mask;
	u8 *tx_bufs;
	u64 tx_dma;
	wait_queue_head_t tx_wait;
	u8 *tx_v2_buf;
	u64 tx_v2_dma;

	struct smc_wr_rx_slot *rx_slots;
	u8 *rx_bufs;
	u64 rx_dma;
	u8 *rx_v2_buf;
	u64 rx_v2_dma;

	struct ib_cqe rdma_cqe;
	struct ib_cqe rdma_unsig_cqe;
	struct ib_cqe reg_cqe;
	struct mutex reg_mutex;	/* one IB_WR_REG_MR at a time */
	struct completion reg_done;
	enum ib_wc_status reg_status;
	struct smc_wr_mr reg_orphan;

	atomic_t wr_pending;
	atomic_t slot_holders;
	wait_queue_head_t drain_wait;
	struct smc_wr_stats stats;
};

/**
 * struct smc_wr_link_params - how to create a link
 * @ibdev: RDMA device (the caller holds a reference)
 * @ibport: port number
 * @sgid_index: GID table index of the link's GID
 * @v2: SMC-Rv2 link
 * @send_cnt: send slots, 0 for SMC_WR_SEND_CNT_DEF
 * @recv_cnt: receive WRs, 0 for SMC_WR_RECV_CNT_DEF
 * @ops: upper-layer callbacks (must outlive the link)
 */
struct smc_wr_link_params {
	struct ib_device *ibdev;
	u32 ibport;
	u8 sgid_index;
	bool v2;
	u16 send_cnt;
	u16 recv_cnt;
	const struct smc_wr_ops *ops;
};

int smc_wr_link_create(struct smc_link *lnk,
		       const struct smc_wr_link_params *p);
void smc_wr_link_quiesce(struct smc_link *lnk);
void smc_wr_link_destroy(struct smc_link *lnk);
void smc_wr_link_down(struct smc_link *lnk, enum ib_wc_status status);
bool smc_wr_gid_present(struct smc_link *lnk);

int smc_wr_qp_to_init(struct smc_link *lnk);
int smc_wr_qp_to_rtr(struct smc_link *lnk, const struct smc_wr_peer *peer);
int smc_wr_qp_to_rts(struct smc_link *lnk);

/*
 * Who asks for a send slot.  A connection's CDC leaves the last free
 * slot to link control: with hundreds of connections waiting for slots,
 * an LLC answer would otherwise wait its turn behind them, past the
 * peer's patience (SMC_LLC_WAIT_TIME).
 */
enum smc_wr_slot_use {
	SMC_WR_SLOT_CTRL,	/* LLC, the failover validation: any slot */
	SMC_WR_SLOT_DATA,	/* a connection's CDC: all but the last */
};

int smc_wr_send_slot_get(struct smc_link *lnk, struct smc_wr_tx_slot **slot,
			 enum smc_wr_slot_use use, long timeout);
void smc_wr_stalled(struct smc_link *lnk, int rc);
int smc_wr_send_slot_get_nowait(struct smc_link *lnk,
				struct smc_wr_tx_slot **slot,
				enum smc_wr_slot_use use);
void smc_wr_send_slot_put(struct smc_link *lnk, struct smc_wr_tx_slot *slot);
int smc_wr_send(struct smc_link *lnk, struct smc_wr_tx_slot *slot,
		smc_wr_tx_done_t done, void *priv);
int smc_wr_send_v2_get(struct smc_link *lnk, struct smc_wr_tx_slot **slot,
		       u8 **buf, long timeout);
int smc_wr_send_v2(struct smc_link *lnk, struct smc_wr_tx_slot *slot,
		   unsigned int len, smc_wr_tx_done_t done, void *priv);
int smc_wr_rdma_write(struct smc_link *lnk, struct ib_sge *sge, int nsge,
		      u64 remote_addr, u32 rkey, bool unsignaled);

int smc_wr_mr_prepare(struct smc_link *lnk, void *buf, size_t len,
		      struct smc_wr_mr *mr);
int smc_wr_mr_post(struct smc_link *lnk, struct smc_wr_mr *mr);
int smc_wr_mr_register(struct smc_link *lnk, void *buf, size_t len,
		       struct smc_wr_mr *mr);
void smc_wr_mr_unregister(struct smc_link *lnk, struct smc_wr_mr *mr);
int smc_wr_dma_map(struct smc_link *lnk, void *buf, size_t len, u64 *dma);
void smc_wr_dma_unmap(struct smc_link *lnk, u64 dma, size_t len);

/**
 * smc_wr_lkey() - lkey for DMA-mapped local buffers of a link
 * @lnk: the link
 *
 * Context: any; @lnk created.
 * Return: the PD's local DMA lkey.
 */
static inline u32 smc_wr_lkey(const struct smc_link *lnk)
{
	return lnk->pd->local_dma_lkey;
}

/**
 * smc_wr_link_is_down() - was the link marked down?
 * @lnk: the link
 *
 * Context: any.
 * Return: true once smc_wr_link_down() or a teardown marked it: no new
 * work request goes out on it.
 */
static inline bool smc_wr_link_is_down(const struct smc_link *lnk)
{
	return test_bit(SMC_WR_LINK_DOWN, &lnk->flags);
}

/**
 * smc_wr_slot_buf() - the 44 bytes of a send slot to fill
 * @slot: a slot from smc_wr_send_slot_get()
 *
 * Context: any.
 * Return: the slot buffer.
 */
static inline u8 *smc_wr_slot_buf(struct smc_wr_tx_slot *slot)
{
	return slot->buf;
}

#endif /* _NET_SMC_WR_H */
