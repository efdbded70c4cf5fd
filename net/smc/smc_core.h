/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The SMC-R core objects and the contract between their parts:
 *
 *   struct smc_link_group  peers of one system pair sharing up to
 *                          SMC_LINKS_PER_LGR_MAX links (smc_lgr.c)
 *   struct smc_lgr_link    one link: the QP-level struct smc_link of
 *                          smc_wr.c embedded, plus link-group state
 *                          (smc_lgr.c; LLC on it in smc_llc.c)
 *   struct smc_buf_desc    a send buffer or RMB, reused within the link
 *                          group, registered on each link (smc_buf.c)
 *   struct smc_connection  one SMC-R connection of a socket: its buffers,
 *                          the peer's RMBE, cursors (smc_cdc.c, smc_tx.c,
 *                          smc_rx.c, smc_close.c)
 *
 * Lifetimes: a link group is referenced by each of its connections and
 * by its links' users; it is freed by its free work once it has been
 * idle for SMC_LGR_FREE_DELAY_* or when terminated.  A connection lives
 * in its smc_sock and is registered in its link group from
 * smc_conn_create() to smc_conn_free().
 */
#ifndef _NET_SMC_CORE_H
#define _NET_SMC_CORE_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "smc_cdc_wire.h"
#include "smc_cursor.h"
#include "smc_ib.h"
#include "smc_llc_wire.h"
#include "smc_wr.h"

struct smc_llc_qentry;

#define SMC_LINKS_PER_LGR_MAX	3	/* link slots; 2 are negotiated */
#define SMC_LINKS_ADD_MAX	2	/* links per group before SMC-Rv2.1 */
#define SMC_CONN_PER_LGR_MAX	255
#define SMC_CONN_PER_LGR_MIN	16	/* the least max_conns v2.1 allows */
#define SMC_RELEASE		1	/* the SMCv2 release we support */
#define SMC_RMBS_PER_LGR_MAX	255
#define SMC_BUF_COMP_SLOTS	16	/* compressed sizes 0..15 */
#define SMC_SYSTEMID_LEN	8
#define SMC_GID_SIZE		16
#define SMC_LGR_ID_SIZE		4
#define SMC_LGR_FREE_DELAY_SERV	(600 * HZ)
#define SMC_LGR_FREE_DELAY_CLNT	(SMC_LGR_FREE_DELAY_SERV + 10 * HZ)
/*
 * A link lost without a port event (TEST_LINK, a failed send) gets no
 * event when its path heals: its group tries a second link again after
 * this long, then twice as long each time, up to the maximum.
 */
#define SMC_LGR_RETRY_FIRST	(2 * HZ)
#define SMC_LGR_RETRY_MAX	(30 * HZ)

/* netlink/diag values (protocol reference 7.4) */
enum smc_lgr_role {
	SMC_CLNT	= 0,
	SMC_SERV	= 1,
};

enum smc_link_state {
	SMC_LNK_UNUSED		= 0,
	SMC_LNK_INACTIVE	= 1,
	SMC_LNK_ACTIVATING	= 2,
	SMC_LNK_ACTIVE		= 3,
};

enum smc_lgr_type {
	SMC_LGR_NONE		= 0,
	SMC_LGR_SINGLE		= 1,
	SMC_LGR_SYMMETRIC	= 2,
	SMC_LGR_ASYMMETRIC_PEER	= 3,
	SMC_LGR_ASYMMETRIC_LOCAL = 4,
};

struct smc_link_group;
struct smc_connection;

/**
 * struct smc_cdc_stats - why received CDC messages were dropped
 * @rx_bad: not a well-formed CDC message (length, cursor out of ring);
 *	for a known connection it ends the connection
 * @rx_unknown_token: no connection with that alert token in the group
 * @rx_old_seq: sequence number behind the last one accepted
 * @rx_backwards: the producer cursor would have jumped a lap, or the
 *	consumer cursor passed what we produced: the connection ends
 * @rx_seq_jump: accepted, but its sequence number skipped some: on one
 *	link a connection's CDCs arrive in order, so this counts lost
 *	messages or a peer that numbers them wrongly
 * @rx_rewound: accepted with a cursor behind the last one, which was
 *	kept: a peer that moved the connection to another link resends
 *	from its last confirmed CDC (no new data; flags and the other
 *	cursor still count)
 * @rx_out_of_sync: a failover validation showed CDCs lost on the old
 *	link: the connection is aborted
 */
struct smc_cdc_stats {
	atomic_t	rx_bad;
	atomic_t	rx_unknown_token;
	atomic_t	rx_old_seq;
	atomic_t	rx_backwards;
	atomic_t	rx_seq_jump;
	atomic_t	rx_rewound;
	atomic_t	rx_out_of_sync;
};

/**
 * struct smc_conn_ops - what the socket layer does for the data path
 * @hold: take a reference on what owns the connection; the data path
 *	holds one across every posted CDC, queued work and receive handler
 * @put: drop it; may free the connection
 * @data_ready: bytes arrived in our RMBE (smc_rx_recv() can progress)
 * @write_space: send buffer space was freed (smc_tx_sendmsg() can)
 * @state_change: the peer sent new connection flags (done writing,
 *	closed, abort) or urgent data, or sending failed
 * @urgent: an urgent byte arrived (once per byte, for SIGURG)
 *
 * All but @hold/@put may run in softirq context with no lock held.
 */
struct smc_conn_ops {
	void (*hold)(struct smc_connection *conn);
	void (*put)(struct smc_connection *conn);
	void (*data_ready)(struct smc_connection *conn);
	void (*write_space)(struct smc_connection *conn);
	void (*state_change)(struct smc_connection *conn);
	void (*urgent)(struct smc_connection *conn);
};

/* bits in smc_connection.tx_flags */
enum {
	SMC_TX_CORKED,		/* TCP_CORK/MSG_MORE: hold small writes */
	SMC_TX_CDC_WANTED,	/* a CDC must go out even without data */
	SMC_TX_STOPPED,		/* torn down: post nothing more */
	SMC_TX_URG_WAIT,	/* urgent data sent: wait for an empty RMBE */
	SMC_TX_ABORT_WANTED,	/* abort with the CDC after the next writes */
};

/**
 * struct smc_lgr_link - one link of a link group
 * @wr: QP, CQs, send slots and receive ring (smc_wr.c); first, so that
 *	the smc_wr callbacks get here by container_of()
 * @lgr: the link group
 * @idx: index in lgr->lnk[]
 * @link_id: link number on the wire, assigned by the server, nonzero
 * @state: enum smc_link_state
 * @smcibdev: the device, referenced while the link exists
 * @ibport: its port
 * @peer_qpn: the peer's QP number
 * @peer_psn: the peer's initial PSN
 * @peer_gid: the peer's GID
 * @peer_mac: the peer's MAC (v1), or the next hop's (v2)
 * @path_mtu: negotiated path MTU, enum ib_mtu
 * @link_uid: our link user id (diagnostics: BE32 lgr id + link id)
 * @peer_link_uid: the peer's
 * @conn_cnt: connections using this link
 * @llc_wait: waiters for an LLC response on this link
 * @llc_resp: the last LLC response received (44 bytes, v1 size)
 * @llc_resp_type: its type, 0 while none is pending
 * @llc_resp_long: a v2 response longer than @llc_resp (ADD_LINK with its
 *	rkeys) kept whole; freed by the next smc_llc_want() on the link
 * @llc_want: the LLC message a waiter expects: type, | 0x80 for a
 *	response; 0 for none (guarded by lgr->llc_rx_lock)
 * @last_rx: jiffies of the last message received (TEST_LINK keepalive)
 * @testlink_work: the TEST_LINK keepalive of this link
 * @testlink_sent: jiffies the last keepalive TEST_LINK went out
 * @testlink_pending: that TEST_LINK is still unanswered
 * @last_rx_alive: jiffies of the last message received that answers a
 *	TEST_LINK: anything but the peer's own TEST_LINK request
 * @cdc_stats: CDC messages dropped on receive, by reason (smc_cdc.c)
 * @down_work: the link failed: moves its connections to another link or
 *	ends the group (smc_switch.c); holds a group reference while queued
 * @down_reason: SMC_LLC_DEL_* the group ends with if no link is left
 * @down_cause: what took it down first, its SMC_SWITCH_DOWN_* counter
 *	(SMC_SWITCH_NSTATS until then; set once, cmpxchg)
 */
struct smc_lgr_link {
	struct smc_link		wr;
	struct smc_link_group	*lgr;
	u8			idx;
	u8			link_id;
	enum smc_link_state	state;
	struct smc_ib_device	*smcibdev;
	u8			ibport;
	u32			peer_qpn;
	u32			peer_psn;
	u8			peer_gid[SMC_GID_SIZE];
	u8			peer_mac[ETH_ALEN];
	u8			path_mtu;
	u32			link_uid;
	u32			peer_link_uid;
	atomic_t		conn_cnt;
	wait_queue_head_t	llc_wait;
	u8			llc_resp[SMC_WR_TX_SIZE];
	u8			llc_resp_type;
	u8			llc_want;
	struct smc_llc_qentry	*llc_resp_long;
	unsigned long		last_rx;
	struct delayed_work	testlink_work;
	unsigned long		testlink_sent;
	bool			testlink_pending;
	unsigned long		last_rx_alive;
	struct smc_cdc_stats	cdc_stats;
	struct work_struct	down_work;
	u32			down_reason;
	u32			down_cause;
};

/**
 * struct smc_buf_desc - a send buffer or RMB
 * @list: in the link group's free/used list of its size
 * @cpu_addr: the memory, physically contiguous
 * @len: its size, 16 KiB << @comp
 * @comp: compressed size (CLC encoding)
 * @used: owned by a connection (atomic test-and-set for reuse)
 * @is_rmb: an RMB (registered for remote writes) or a send buffer
 * @mr: RMB: its registration on each link, by link index
 * @dma: send buffer: its DMA address on each link, by link index
 * @regd: bit i set once mapped on link i (an RMB: its MR allocated, the
 *	rkey fixed)
 * @live: RMB: bit i set once its MR is valid on link i (IB_WR_REG_MR)
 * @confirmed: RMB: announced to the peer (first contact, CONFIRM_RKEY)
 * @quarantine_end: RMB: not reused before this time (jiffies; 0: none),
 *	as the peer may still write into it (smc_buf_quarantine())
 */
struct smc_buf_desc {
	struct list_head	list;
	void			*cpu_addr;
	unsigned int		len;
	u8			comp;
	unsigned long		used;
	bool			is_rmb;
	struct smc_wr_mr	mr[SMC_LINKS_PER_LGR_MAX];
	u64			dma[SMC_LINKS_PER_LGR_MAX];
	unsigned long		regd;
	unsigned long		live;
	bool			confirmed;
	unsigned long		quarantine_end;
};

/**
 * struct smc_rtoken - where the peer's RMB is on one link
 * @vaddr: the address it advertised
 * @rkey: the rkey
 */
struct smc_rtoken {
	u64	vaddr;
	u32	rkey;
};

/**
 * struct smc_link_group - a link group
 * @list: in the namespace's list of link groups
 * @net: its network namespace
 * @ref: references: each connection, each user in a flow, the list
 * @lock: guards @conns, @conns_num, @lnk[].state, @type, @terminating
 * @id: the locally unique link group id
 * @role: SMC_CLNT or SMC_SERV
 * @type: enum smc_lgr_type
 * @smc_version: SMC_CLC_V1 or SMC_CLC_V2 as negotiated in CLC
 * @release: negotiated SMCv2 release (0 or 1)
 * @peer_systemid: the peer's system id from CLC
 * @peer_os: the peer's OS type (v2 first contact)
 * @peer_hostname: the peer's host name (v2 first contact)
 * @negotiated_eid: the EID both sides have (v2)
 * @max_conns: negotiated, at most SMC_CONN_PER_LGR_MAX
 * @max_links: negotiated, at most 2
 * @v2_direct: v2 peer reachable without a gateway
 * @saddr: v2: the source address of the first link's TCP connection
 * @pnetid: the PNETID of the first link's port, "" for none; links the
 *	group adds later have the same
 * @vlan_id: VLAN of the TCP connections using the group
 * @lnk: the links, by index
 * @next_link_id: the last link id given out (guarded by @lock)
 * @conns: the connections, by local alert token
 * @conns_num: their number
 * @bufs_lock: guards @rmbs, @sndbufs
 * @rmbs: RMBs by compressed size
 * @sndbufs: send buffers by compressed size
 * @rtokens_lock: guards @rtokens and @rtokens_used
 * @rtokens: the peer's RMBs, [rtoken index][link index]
 * @rtokens_used: bitmap of the rtoken indexes in use
 * @llc_flow_lock: one local LLC flow (ADD_LINK, DELETE_LINK, RKEY) at a
 *	time, as the protocol requires
 * @llc_rx_work: processes received LLC messages in process context;
 *	never waits for @llc_flow_lock
 * @llc_rx_list: LLC messages waiting for @llc_rx_work
 * @llc_rx_lock: guards @llc_rx_list, @llc_flow_list and their counts
 * @llc_flow_work: runs the peer's multi-message LLC flows (ADD_LINK,
 *	DELETE_LINK, REQ_ADD_LINK) one after the other, each under
 *	@llc_flow_lock
 * @llc_flow_list: requests waiting for @llc_flow_work
 * @llc_add_link: server: @llc_flow_work is to offer a second link
 *	(guarded by @llc_rx_lock)
 * @llc_req_add_link: client: @llc_flow_work is to ask the server for a
 *	second link, a port came back (guarded by @llc_rx_lock)
 * @llc_retry_add: @llc_flow_work is to try a second link on another
 *	device again, after a silent loss (guarded by @llc_rx_lock)
 * @llc_retry_work: sets @llc_retry_add while the group has one link
 * @llc_retry_delay: until @llc_retry_work runs again (guarded by
 *	@llc_rx_lock)
 * @llc_del_links: bit i set: link i failed and its connections moved;
 *	@llc_flow_work is to delete it with the peer (guarded by
 *	@llc_rx_lock)
 * @crit_dev: the device whose crit_cnt counts this group, NULL if none
 *	(smc_lgr_set_type(); guarded by @llc_flow_lock)
 * @free_work: frees the group after it was idle long enough
 * @terminate_work: takes down a failed group in process context
 * @terminating: no new connections; being taken down
 * @sync_err: the peer declined with out-of-sync for this group
 * @free_delay: idle time before @free_work frees the group
 * @torn_down: its teardown has begun: off the list, no new connections
 * @gone: its teardown has ended: the links are destroyed
 * @term_reason: DELETE_LINK reason sent when terminating
 * @llc_order: byte order the peer uses for LLC v2 16-bit fields
 * @llc_rx_cnt: LLC messages waiting in @llc_rx_list
 * @llc_flow_cnt: requests waiting in @llc_flow_list
 * @llc_unknown: LLC messages of unknown type, dropped
 * @llc_dropped: LLC messages dropped for lack of memory or queue space
 * @llc_late: LLC responses dropped because no flow waited for them
 *	(any more: the flow timed out)
 * @llc_timeouts: LLC flows of ours whose answer did not come in time
 * @alloc_sndbufs: bytes of send buffers allocated (under @bufs_lock)
 * @alloc_rmbs: bytes of RMBs allocated (under @bufs_lock)
 * @rmbs_num: RMBs allocated, each one an rtoken at the peer (under
 *	@bufs_lock)
 */
struct smc_link_group {
	struct list_head	list;
	struct net		*net;
	struct kref		ref;
	spinlock_t		lock;	/* see kernel-doc */
	u32			id;
	enum smc_lgr_role	role;
	enum smc_lgr_type	type;
	u8			smc_version;
	u8			release;
	u8			peer_systemid[SMC_SYSTEMID_LEN];
	u8			peer_os;
	u8			peer_hostname[32];
	u8			negotiated_eid[32];
	u8			max_conns;
	u8			max_links;
	bool			v2_direct;
	__be32			saddr;
	char			pnetid[SMC_IB_PNETID_LEN + 1];
	unsigned short		vlan_id;
	struct smc_lgr_link	lnk[SMC_LINKS_PER_LGR_MAX];
	u8			next_link_id;
	struct rb_root		conns;
	u32			conns_num;
	struct mutex		bufs_lock;	/* see kernel-doc */
	struct list_head	rmbs[SMC_BUF_COMP_SLOTS];
	struct list_head	sndbufs[SMC_BUF_COMP_SLOTS];
	spinlock_t		rtokens_lock;	/* see kernel-doc */
	struct smc_rtoken	rtokens[SMC_RMBS_PER_LGR_MAX]
				       [SMC_LINKS_PER_LGR_MAX];
	DECLARE_BITMAP(rtokens_used, SMC_RMBS_PER_LGR_MAX);
	struct mutex		llc_flow_lock;	/* see kernel-doc */
	struct work_struct	llc_rx_work;
	struct list_head	llc_rx_list;
	spinlock_t		llc_rx_lock;	/* see kernel-doc */
	struct work_struct	llc_flow_work;
	struct list_head	llc_flow_list;
	bool			llc_add_link;
	bool			llc_req_add_link;
	bool			llc_retry_add;
	struct delayed_work	llc_retry_work;
	unsigned long		llc_retry_delay;
	unsigned long		llc_del_links;
	struct smc_ib_device	*crit_dev;
	struct delayed_work	free_work;
	struct work_struct	terminate_work;
	bool			terminating;
	bool			sync_err;
	unsigned long		free_delay;
	bool			torn_down;
	bool			gone;
	u32			term_reason;
	enum smc_llc_order	llc_order;
	unsigned int		llc_rx_cnt;
	unsigned int		llc_flow_cnt;
	atomic_t		llc_unknown;
	atomic_t		llc_dropped;
	atomic_t		llc_late;
	atomic_t		llc_timeouts;
	unsigned long		alloc_sndbufs;
	unsigned long		alloc_rmbs;
	unsigned int		rmbs_num;
};

/**
 * struct smc_host_cursors - one direction's view as sent in a CDC message
 * @prod: producer cursor
 * @cons: consumer cursor
 * @prod_flags: SMC_CDC_PROD_* bits
 * @conn_flags: SMC_CDC_CONN_* bits
 * @seqno: sequence number
 */
struct smc_host_cursors {
	union smc_cursor	prod;
	union smc_cursor	cons;
	u8			prod_flags;
	u8			conn_flags;
	u16			seqno;
};

/**
 * struct smc_connection - SMC-R state of one connection
 * @lgr: its link group, referenced
 * @lnk: the link it sends on (the server chose it; a failover moves it,
 *	under @send_lock)
 * @lnk_counted: counted in @lnk's conn_cnt (from registration until
 *	smc_conn_release(), under @send_lock)
 * @node: in lgr->conns
 * @alert_token_local: our token, nonzero, unique in the group; the peer
 *	puts it into the CDC messages it sends us
 * @peer_token: the peer's token, which our CDC messages carry
 * @peer_rmbe_idx: the peer's RMBE index (1-based) in its RMB
 * @peer_rmbe_size: size of the peer's RMBE
 * @rtoken_idx: index of the peer's RMB in lgr->rtokens
 * @sndbuf_desc: our send buffer
 * @rmb_desc: our RMB; our RMBE is all of it (index 1)
 * @rmbe_update_limit: see smc_rmb_update_limit()
 * @send_lock: serialises CDC sends and @local_tx_ctrl
 * @local_tx_ctrl: what our last CDC message said (our prod into the
 *	peer RMBE, our consumer cursor of our RMBE, flags)
 * @local_rx_ctrl: what the peer's last CDC message said
 * @rx_curs_confirmed: the consumer cursor we last sent the peer
 * @tx_prod_max: the furthest our producer cursor ever got: a move to
 *	another link rewinds local_tx_ctrl.prod, but the peer may consume
 *	up to this (under @send_lock; read under @rx_lock too)
 * @tx_curs_prep: send buffer: end of the data the application wrote
 * @tx_curs_sent: send buffer: end of the data RDMA-written
 * @tx_curs_fin: send buffer: end of the data whose CDC completed
 * @sndbuf_space: free bytes in the send buffer
 * @peer_rmbe_space: free bytes in the peer's RMBE as we know it
 * @bytes_to_rcv: bytes in our RMBE the application has not read
 * @tx_cdc_seq: sequence number of our last CDC message
 * @tx_cdc_seq_fin: sequence number of our last completed CDC message
 * @tx_epoch: counts the connection's moves to another link; a CDC's
 *	completion from before the last move changes nothing
 * @cdc_pend: CDC sends posted and not completed (autocork holds small
 *	sends while one is)
 * @tx_work: sends what the send path left (corked, or no slot free)
 * @urg_state: urgent data state of the receive side
 * @urg_rx_byte: the received urgent byte
 * @urg_curs: cursor of the byte after the urgent byte
 * @killed: the connection was aborted by the link group's death
 * @out_of_sync: a failover check found lost CDC messages, or the peer sent
 *	cursors no sender in step with us sends: no CDC is taken any more,
 *	and the connection aborts
 * @ops: the socket layer's callbacks (smc_cdc_conn_init())
 * @rx_lock: serialises CDC receive processing: @local_rx_ctrl,
 *	@peer_conn_flags and the urgent state
 * @peer_conn_flags: SMC_CDC_CONN_* the peer ever sent (sticky)
 * @tx_flags: SMC_TX_* bits
 * @tx_autocork_size: autocork limit from the sysctl, 0 disables it
 * @tx_err: error of a failed CDC send, 0 if none
 * @urg_tx_pend: urgent data is in the send ring, not yet written
 * @urg_tx_curs: send ring cursor just after the urgent byte
 * @urg_ask_at: jiffies when data held after urgent data asks the peer
 *	for its consumer cursor (again)
 */
struct smc_connection {
	struct smc_link_group	*lgr;
	struct smc_lgr_link	*lnk;
	bool			lnk_counted;
	struct rb_node		node;
	u32			alert_token_local;
	u32			peer_token;
	u8			peer_rmbe_idx;
	u32			peer_rmbe_size;
	int			rtoken_idx;
	struct smc_buf_desc	*sndbuf_desc;
	struct smc_buf_desc	*rmb_desc;
	u32			rmbe_update_limit;
	spinlock_t		send_lock;	/* see kernel-doc */
	struct smc_host_cursors	local_tx_ctrl;
	struct smc_host_cursors	local_rx_ctrl;
	union smc_cursor	rx_curs_confirmed;
	union smc_cursor	tx_prod_max;
	union smc_cursor	tx_curs_prep;
	union smc_cursor	tx_curs_sent;
	union smc_cursor	tx_curs_fin;
	atomic_t		sndbuf_space;
	atomic_t		peer_rmbe_space;
	atomic_t		bytes_to_rcv;
	u16			tx_cdc_seq;
	u16			tx_cdc_seq_fin;
	u8			tx_epoch;
	atomic_t		cdc_pend;
	struct delayed_work	tx_work;
	u8			urg_state;
	u8			urg_rx_byte;
	union smc_cursor	urg_curs;
	bool			killed;
	bool			out_of_sync;
	const struct smc_conn_ops *ops;
	spinlock_t		rx_lock;	/* see kernel-doc */
	u8			peer_conn_flags;
	unsigned long		tx_flags;
	u32			tx_autocork_size;
	int			tx_err;
	bool			urg_tx_pend;
	union smc_cursor	urg_tx_curs;
	unsigned long		urg_ask_at;
};

#endif /* _NET_SMC_CORE_H */
