// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Link groups: the per-namespace list, creation and reuse (protocol
 * reference 7.1), the links and their QP set-up, connection registration
 * with alert tokens, the idle free and the termination of a group.
 *
 * Lifetime: a group starts with one reference owned by its namespace
 * list and one for its creator.  Each registered connection and a queued
 * free_work or terminate_work holds another; the LLC works and the
 * links' keepalives hold none, the teardown cancels them.  Tearing the
 * group down (idle free, termination, namespace exit) happens once, in
 * process context: it
 * takes the group off the list, destroys the links and drops the list's
 * reference.  The memory (and the buffers, which connections may still
 * point to) goes with the last reference.
 *
 * Locks, outermost first: lgr->llc_flow_lock (mutex), smc_lgr_net.lock,
 * lgr->lock, lgr->llc_rx_lock.  The spinlocks are taken from softirq
 * (CDC receive looks connections up), so process context uses _bh.
 */

#define pr_fmt(fmt) "smc: " fmt

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rbtree.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smc.h"
#include "smc_clc_wire.h"
#include "smc_compat.h"
#include "smc_data.h"
#include "smc_lgr.h"

/* the link groups of one namespace */
struct smc_lgr_net {
	spinlock_t		lock;	/* guards list */
	struct list_head	list;
};

static unsigned int smc_lgr_net_id __read_mostly;
/*
 * The namespaces' lists exist: smc_lgr_terminate_dev() may walk them.
 * Module exit clears it before the lists go, and device removal during
 * that exit (smc_ib_exit()) then finds no group, as none is left.
 */
static bool smc_lgr_lists_up;

/* LLC processing, keepalives, idle free and termination run here */
struct workqueue_struct *smc_lgr_wq;
/*
 * The links' down_work: the LLC flows wait for a failover to end
 * (smc_switch_link_fail()), which must not run behind them.
 */
struct workqueue_struct *smc_switch_wq;

/*
 * Woken whenever a group has been torn down or its first link became
 * active; smc_lgr_events counts those events for waiters.
 */
static DECLARE_WAIT_QUEUE_HEAD(smc_lgr_event_wq);
static atomic_t smc_lgr_events = ATOMIC_INIT(0);

/* a peer's first contact in progress is waited for this long at most */
#define SMC_LGR_PENDING_WAIT	(3 * SMC_LLC_WAIT_FIRST_TIME)

/* link group ids: locally unique, a counter stepping by 256 as Linux */
static atomic_t smc_lgr_id_cnt = ATOMIC_INIT(0);
/* alert tokens: one counter for all groups; 0 and collisions skipped */
static atomic_t smc_lgr_token_cnt = ATOMIC_INIT(0);

static struct smc_lgr_net *smc_lgr_net(struct net *net)
{
	return net_generic(net, smc_lgr_net_id);
}

static void smc_lgr_release(struct kref *ref)
{
	struct smc_link_group *lgr = container_of(ref, struct smc_link_group,
						  ref);

	/* teardown unregistered the buffers from the links already */
	smc_buf_free_all(lgr);
	kfree(lgr);
}

/**
 * smc_lgr_get() - take a reference on a link group
 * @lgr: the group, referenced by the caller already
 *
 * Context: any.
 */
void smc_lgr_get(struct smc_link_group *lgr)
{
	kref_get(&lgr->ref);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_get);

/**
 * smc_lgr_put() - drop a reference on a link group
 * @lgr: the group
 *
 * The last reference can only be dropped after the group was torn down,
 * which left nothing that needs process context to free.
 *
 * Context: any.
 */
void smc_lgr_put(struct smc_link_group *lgr)
{
	kref_put(&lgr->ref, smc_lgr_release);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_put);

static void smc_lgr_free_work(struct work_struct *work);
static void smc_lgr_terminate_work(struct work_struct *work);

/* a new group, referenced for the list and the caller, not yet listed */
static struct smc_link_group *smc_lgr_alloc(struct net *net,
					    enum smc_lgr_role role,
					    u8 smc_version,
					    const u8 *peer_systemid,
					    unsigned short vlan_id)
{
	struct smc_link_group *lgr;
	int i;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return NULL;
	lgr->net = net;
	kref_init(&lgr->ref);		/* the list's */
	kref_get(&lgr->ref);		/* the caller's */
	spin_lock_init(&lgr->lock);
	lgr->id = (u32)atomic_add_return(256, &smc_lgr_id_cnt);
	lgr->role = role;
	lgr->type = SMC_LGR_NONE;
	lgr->smc_version = smc_version;
	memcpy(lgr->peer_systemid, peer_systemid, SMC_SYSTEMID_LEN);
	lgr->max_conns = SMC_CONN_PER_LGR_MAX;
	/* one link: we answer ADD_LINK with "no alternate path" */
	lgr->max_links = 1;
	lgr->vlan_id = vlan_id;
	lgr->conns = RB_ROOT;
	mutex_init(&lgr->bufs_lock);
	for (i = 0; i < SMC_BUF_COMP_SLOTS; i++) {
		INIT_LIST_HEAD(&lgr->rmbs[i]);
		INIT_LIST_HEAD(&lgr->sndbufs[i]);
	}
	spin_lock_init(&lgr->rtokens_lock);
	mutex_init(&lgr->llc_flow_lock);
	INIT_WORK(&lgr->llc_rx_work, smc_llc_rx_work);
	INIT_LIST_HEAD(&lgr->llc_rx_list);
	spin_lock_init(&lgr->llc_rx_lock);
	INIT_WORK(&lgr->llc_flow_work, smc_llc_flow_work);
	INIT_DELAYED_WORK(&lgr->llc_retry_work, smc_llc_retry_work);
	INIT_LIST_HEAD(&lgr->llc_flow_list);
	INIT_DELAYED_WORK(&lgr->free_work, smc_lgr_free_work);
	INIT_WORK(&lgr->terminate_work, smc_lgr_terminate_work);
	lgr->free_delay = role == SMC_SERV ? SMC_LGR_FREE_DELAY_SERV :
					     SMC_LGR_FREE_DELAY_CLNT;
	lgr->llc_order = SMC_LLC_ORDER_DEFAULT;
	atomic_set(&lgr->llc_unknown, 0);
	atomic_set(&lgr->llc_dropped, 0);
	atomic_set(&lgr->llc_late, 0);
	atomic_set(&lgr->llc_timeouts, 0);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		lgr->lnk[i].lgr = lgr;
		lgr->lnk[i].idx = i;
		init_waitqueue_head(&lgr->lnk[i].llc_wait);
		INIT_DELAYED_WORK(&lgr->lnk[i].testlink_work,
				  smc_llc_testlink_work);
		INIT_WORK(&lgr->lnk[i].down_work, smc_switch_link_down_work);
	}
	return lgr;
}

/**
 * smc_lgr_create() - a new link group, on the namespace's list
 * @net: network namespace of the TCP connection
 * @role: SMC_SERV or SMC_CLNT
 * @smc_version: SMC_CLC_V1 or SMC_CLC_V2
 * @peer_systemid: SMC_SYSTEMID_LEN bytes from CLC
 * @vlan_id: VLAN of the TCP connection
 *
 * The caller sets what CLC negotiated (max_conns, max_links, release,
 * peer_os, ...) before the group's first link is confirmed.
 *
 * Context: process context.
 * Return: the group with a reference for the caller, or NULL.
 */
struct smc_link_group *smc_lgr_create(struct net *net, enum smc_lgr_role role,
				      u8 smc_version, const u8 *peer_systemid,
				      unsigned short vlan_id)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *lgr;

	lgr = smc_lgr_alloc(net, role, smc_version, peer_systemid, vlan_id);
	if (!lgr)
		return NULL;
	spin_lock_bh(&ln->lock);
	list_add_tail(&lgr->list, &ln->list);
	spin_unlock_bh(&ln->lock);
	return lgr;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_create);

/*
 * A link of @lgr in @state the connection described by @m may use;
 * lgr->lock held.
 */
/*
 * Server: the ACTIVE link with the fewest connections, where a new one
 * goes (its Accept names that link's QP).  Connections spread over a
 * group's links so that a failed link stops only some of them.
 */
static struct smc_lgr_link *smc_lgr_least_used(struct smc_link_group *lgr)
{
	struct smc_lgr_link *best = NULL;
	int i;

	lockdep_assert_held(&lgr->lock);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		struct smc_lgr_link *lnk = &lgr->lnk[i];

		if (lnk->state != SMC_LNK_ACTIVE)
			continue;
		if (!best ||
		    atomic_read(&lnk->conn_cnt) < atomic_read(&best->conn_cnt))
			best = lnk;
	}
	return best;
}

static struct smc_lgr_link *smc_lgr_match_link(struct smc_link_group *lgr,
					       const struct smc_lgr_match *m,
					       enum smc_link_state state)
{
	bool v1 = lgr->smc_version == SMC_CLC_V1;
	int i;

	lockdep_assert_held(&lgr->lock);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		struct smc_lgr_link *lnk = &lgr->lnk[i];

		if (lnk->state != state)
			continue;
		if (memcmp(lnk->peer_gid, m->peer_gid, SMC_GID_SIZE))
			continue;
		if (v1 && !ether_addr_equal(lnk->peer_mac, m->peer_mac))
			continue;
		if (m->role == SMC_CLNT && lnk->peer_qpn != m->peer_qpn)
			continue;
		/* the client's first GID found the group: any link serves */
		if (m->role == SMC_SERV && state == SMC_LNK_ACTIVE)
			return smc_lgr_least_used(lgr);
		return lnk;
	}
	return NULL;
}

/* a group just created, its first link not yet set up; lgr->lock held */
static bool smc_lgr_is_new(struct smc_link_group *lgr)
{
	int i;

	lockdep_assert_held(&lgr->lock);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		if (lgr->lnk[i].state != SMC_LNK_UNUSED)
			return false;
	return true;
}

/* does @lgr take another connection as server?  lgr->lock held */
static bool smc_lgr_has_room(struct smc_link_group *lgr)
{
	bool rtoken_free;

	lockdep_assert_held(&lgr->lock);
	spin_lock(&lgr->rtokens_lock);
	rtoken_free = !bitmap_full(lgr->rtokens_used, SMC_RMBS_PER_LGR_MAX);
	spin_unlock(&lgr->rtokens_lock);
	return rtoken_free && lgr->conns_num < lgr->max_conns;
}

/* the scan of __smc_lgr_find(); ln->lock held */
static struct smc_link_group *smc_lgr_scan(struct smc_lgr_net *ln,
					   const struct smc_lgr_match *m,
					   struct smc_lgr_link **lnk,
					   bool *pending)
{
	struct smc_link_group *lgr, *found = NULL;

	lockdep_assert_held(&ln->lock);
	list_for_each_entry(lgr, &ln->list, list) {
		if (lgr->role != m->role || lgr->smc_version != m->smc_version ||
		    lgr->vlan_id != m->vlan_id ||
		    memcmp(lgr->peer_systemid, m->peer_systemid,
			   SMC_SYSTEMID_LEN))
			continue;
		spin_lock(&lgr->lock);
		/* the server decides on reuse; the client follows it */
		if (!lgr->terminating && !lgr->sync_err &&
		    (m->role == SMC_CLNT || smc_lgr_has_room(lgr))) {
			*lnk = smc_lgr_match_link(lgr, m, SMC_LNK_ACTIVE);
			if (*lnk)
				found = lgr;
			else if (lgr->type == SMC_LGR_NONE &&
				 (smc_lgr_is_new(lgr) ||
				  smc_lgr_match_link(lgr, m,
						     SMC_LNK_ACTIVATING)))
				*pending = true;
		}
		spin_unlock(&lgr->lock);
		if (found) {
			smc_lgr_get(found);
			break;
		}
	}
	return found;
}

static struct smc_link_group *__smc_lgr_find(struct net *net,
					     const struct smc_lgr_match *m,
					     struct smc_lgr_link **lnk,
					     bool *pending)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *found;

	spin_lock_bh(&ln->lock);
	found = smc_lgr_scan(ln, m, lnk, pending);
	spin_unlock_bh(&ln->lock);
	return found;
}

/*
 * Server groups whose first link is not confirmed yet.  Each holds a QP,
 * CQs and buffers for up to the Confirm timeout, on the word of a peer
 * not authenticated yet; upstream runs one such first contact at a time.
 */
static unsigned int smc_lgr_first_contacts(struct smc_lgr_net *ln)
{
	struct smc_link_group *lgr;
	unsigned int n = 0;

	lockdep_assert_held(&ln->lock);
	list_for_each_entry(lgr, &ln->list, list) {
		spin_lock(&lgr->lock);
		if (lgr->role == SMC_SERV && lgr->type == SMC_LGR_NONE &&
		    !lgr->terminating && !lgr->torn_down)
			n++;
		spin_unlock(&lgr->lock);
	}
	return n;
}

/**
 * smc_lgr_create_unique() - a new server group, unless another one fits
 * @net: network namespace of the TCP connection
 * @m: what the connection needs, as for smc_lgr_find(); role SMC_SERV
 *
 * Handshakes that found no group for the same peer would each create
 * one.  The new group is listed only if, under the list's lock, no
 * group with room and none pending for that peer has appeared since;
 * otherwise the caller looks again with smc_lgr_find_wait().  At most
 * SMC_LGR_FIRST_CONTACTS_MAX first contacts run at once in a namespace,
 * so that a flood of them from (spoofed) peers cannot pin the device.
 *
 * Context: process context.
 * Return: the group, listed, with a reference for the caller;
 * ERR_PTR(-EAGAIN) when another group fits now; ERR_PTR(-EBUSY) when
 * the namespace runs as many first contacts as it may; ERR_PTR(-ENOMEM).
 */
struct smc_link_group *smc_lgr_create_unique(struct net *net,
					     const struct smc_lgr_match *m)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *lgr, *other;
	struct smc_lgr_link *lnk;
	bool pending = false, busy;

	lgr = smc_lgr_alloc(net, m->role, m->smc_version, m->peer_systemid,
			    m->vlan_id);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	spin_lock_bh(&ln->lock);
	other = smc_lgr_scan(ln, m, &lnk, &pending);
	busy = !other && !pending &&
	       smc_lgr_first_contacts(ln) >= SMC_LGR_FIRST_CONTACTS_MAX;
	if (!other && !pending && !busy)
		list_add_tail(&lgr->list, &ln->list);
	spin_unlock_bh(&ln->lock);
	if (!other && !pending && !busy)
		return lgr;
	if (other)
		smc_lgr_put(other);
	kfree(lgr);	/* never listed nor used */
	return ERR_PTR(busy ? -EBUSY : -EAGAIN);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_create_unique);

/**
 * smc_lgr_find() - a link group a new connection may reuse
 * @net: network namespace of the TCP connection
 * @m: what the connection needs, see protocol reference 7.1
 * @lnk: set to the matching link
 *
 * A group qualifies with the same role, version, peer system id and
 * VLAN, an ACTIVE link to the peer's GID (and MAC in v1; and for the
 * client the Accept's QPN) and no out-of-sync decline; for the server
 * also room for another connection and a free rtoken slot.  The client
 * follows the server's choice, so a group full in its own count (a
 * connection the server already forgot) still qualifies.
 *
 * Context: process context.
 * Return: the group with a reference for the caller, or NULL.
 */
struct smc_link_group *smc_lgr_find(struct net *net,
				    const struct smc_lgr_match *m,
				    struct smc_lgr_link **lnk)
{
	bool pending = false;

	return __smc_lgr_find(net, m, lnk, &pending);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_find);

static void smc_lgr_event(void)
{
	atomic_inc(&smc_lgr_events);
	wake_up_all(&smc_lgr_event_wq);
}

/**
 * smc_lgr_find_wait() - smc_lgr_find(), waiting out a first contact
 * @net: as smc_lgr_find()
 * @m: as smc_lgr_find()
 * @lnk: as smc_lgr_find()
 *
 * When a group for the same peer is confirming its first link, its
 * outcome is awaited (bounded), so that connections racing to one peer
 * share one group instead of each creating its own.  This serialises
 * the first contact of one peer only; nothing else waits.
 *
 * Context: process context, may sleep.
 * Return: as smc_lgr_find().
 */
struct smc_link_group *smc_lgr_find_wait(struct net *net,
					 const struct smc_lgr_match *m,
					 struct smc_lgr_link **lnk)
{
	unsigned long end = jiffies + SMC_LGR_PENDING_WAIT;
	struct smc_link_group *lgr;

	for (;;) {
		int seen = atomic_read(&smc_lgr_events);
		bool pending = false;
		long left;

		lgr = __smc_lgr_find(net, m, lnk, &pending);
		/* jiffies read once: a tick between test and use went negative */
		left = (long)(end - jiffies);
		if (lgr || !pending || left <= 0)
			return lgr;
		wait_event_timeout(smc_lgr_event_wq,
				   atomic_read(&smc_lgr_events) != seen, left);
	}
}

/**
 * smc_lgr_link_activated() - a link of a group became ACTIVE
 *
 * Wakes connections waiting in smc_lgr_find_wait().
 *
 * Context: any but hard interrupt.
 */
void smc_lgr_link_activated(void)
{
	smc_lgr_event();
}

/**
 * smc_lgr_in_use() - does a group serve connections over a confirmed link?
 * @lgr: the group
 *
 * Context: any but hard interrupt.
 * Return: true if its link is up and connections are registered in it.
 */
bool smc_lgr_in_use(struct smc_link_group *lgr)
{
	bool used;

	spin_lock_bh(&lgr->lock);
	used = lgr->type != SMC_LGR_NONE && lgr->conns_num;
	spin_unlock_bh(&lgr->lock);
	return used;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_in_use);

/**
 * smc_lgr_count() - number of link groups on a namespace's list
 * @net: the namespace
 *
 * Context: any but hard interrupt.
 * Return: the count.
 */
int smc_lgr_count(struct net *net)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *lgr;
	int n = 0;

	spin_lock_bh(&ln->lock);
	list_for_each_entry(lgr, &ln->list, list)
		n++;
	spin_unlock_bh(&ln->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_count);

#if IS_ENABLED(CONFIG_SMC_TEST_HOOKS)
/**
 * smc_lgr_get_active() - a link group of a namespace that is not ending
 * @net: the namespace
 *
 * For the test hooks (smc_wire_fuzz.c); the caller drops the reference
 * with smc_lgr_put().
 *
 * Context: any but hard interrupt.
 * Return: the first such group on the list, referenced, or NULL.
 */
struct smc_link_group *smc_lgr_get_active(struct net *net)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *lgr, *found = NULL;

	spin_lock_bh(&ln->lock);
	list_for_each_entry(lgr, &ln->list, list) {
		spin_lock(&lgr->lock);
		if (!lgr->terminating)
			found = lgr;
		spin_unlock(&lgr->lock);
		if (found) {
			smc_lgr_get(found);
			break;
		}
	}
	spin_unlock_bh(&ln->lock);
	return found;
}
#endif

/* --- links --------------------------------------------------------------- */

/**
 * smc_lgr_next_link_id() - the id for a new link of a group
 * @lgr: the group
 *
 * Ids count up, skipping 0 and any in use, as the reference
 * implementation allocates them: an id deleted just now comes back only
 * after 255 others, so a late DELETE_LINK or CONFIRM_LINK for the old
 * link cannot hit the new one.
 *
 * Context: any; @lgr->lock held.
 * Return: the id, 1..255.
 */
u8 smc_lgr_next_link_id(struct smc_link_group *lgr)
{
	int tries, i;
	u8 id;

	lockdep_assert_held(&lgr->lock);
	for (tries = 0; tries <= U8_MAX; tries++) {
		id = ++lgr->next_link_id;
		if (!id)
			continue;
		for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
			if (lgr->lnk[i].state != SMC_LNK_UNUSED &&
			    lgr->lnk[i].link_id == id)
				break;
		if (i == SMC_LINKS_PER_LGR_MAX)
			return id;
	}
	return 1;	/* not reached: at most SMC_LINKS_PER_LGR_MAX in use */
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_next_link_id);

/**
 * smc_lgr_link_init() - create link @idx of a group and its QP, in INIT
 * @lgr: the group
 * @idx: the link slot, unused so far
 * @sel: device, port and GID from smc_ib_select_v1/v2(); the link takes
 *	its own device reference
 *
 * The server assigns the link id here; the client learns it from the
 * CONFIRM_LINK request.  The link is ACTIVATING until confirmed.
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int smc_lgr_link_init(struct smc_link_group *lgr, u8 idx,
		      const struct smc_ib_select *sel)
{
	struct smc_wr_link_params p = {
		.ibdev = sel->dev->ibdev,
		.ibport = sel->port,
		.sgid_index = sel->sgid_index,
		.v2 = lgr->smc_version == SMC_CLC_V2,
		.ops = &smc_llc_wr_ops,
	};
	struct smc_lgr_link *lnk;
	int rc;

	if (idx >= SMC_LINKS_PER_LGR_MAX || !sel->port ||
	    sel->port > SMC_IB_MAX_PORTS)
		return -EINVAL;
	lnk = &lgr->lnk[idx];
	if (lnk->state != SMC_LNK_UNUSED)
		return -EBUSY;
	memset(&lnk->wr, 0, sizeof(lnk->wr));
	rc = smc_wr_link_create(&lnk->wr, &p);
	if (rc)
		return rc;
	rc = smc_wr_qp_to_init(&lnk->wr);
	if (rc) {
		smc_wr_link_destroy(&lnk->wr);
		return rc;
	}
	kref_get(&sel->dev->ref);
	lnk->smcibdev = sel->dev;
	lnk->ibport = sel->port;
	atomic_inc(&sel->dev->ports[sel->port - 1].lnk_cnt);
	atomic_set(&lnk->conn_cnt, 0);
	lnk->down_reason = 0;
	lnk->down_cause = SMC_SWITCH_NSTATS;
	lnk->last_rx = jiffies;
	lnk->last_rx_alive = jiffies;
	lnk->testlink_pending = false;
	lnk->llc_want = 0;
	lnk->llc_resp_type = 0;
	spin_lock_bh(&lgr->lock);
	/*
	 * Checked under the lock the device sweep takes for this group:
	 * either the sweep finds this link, or the link sees the mark.
	 */
	if (!smc_ib_usable(sel->dev)) {
		spin_unlock_bh(&lgr->lock);
		atomic_dec(&sel->dev->ports[sel->port - 1].lnk_cnt);
		lnk->smcibdev = NULL;
		smc_ib_put(sel->dev);
		smc_wr_link_destroy(&lnk->wr);
		return -ENODEV;
	}
	lnk->link_id = lgr->role == SMC_SERV ? smc_lgr_next_link_id(lgr) : 0;
	lnk->link_uid = lgr->id | lnk->link_id;
	lnk->state = SMC_LNK_ACTIVATING;
	spin_unlock_bh(&lgr->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_link_init);

/**
 * smc_lgr_link_set_peer() - keep what CLC said about the peer's end
 * @lnk: the link
 * @qpn: the peer's QP number
 * @psn: its initial PSN
 * @gid: its GID, SMC_GID_SIZE bytes
 * @mac: its MAC (v1) or the next hop's (v2)
 * @mtu: its QP MTU (enum ib_mtu)
 *
 * Context: process context, before smc_lgr_link_rtr().
 */
void smc_lgr_link_set_peer(struct smc_lgr_link *lnk, u32 qpn, u32 psn,
			   const u8 *gid, const u8 *mac, u8 mtu)
{
	lnk->peer_qpn = qpn & SMC_WR_QPN_MASK;
	lnk->peer_psn = psn & SMC_WR_PSN_MASK;
	memcpy(lnk->peer_gid, gid, SMC_GID_SIZE);
	ether_addr_copy(lnk->peer_mac, mac);
	lnk->path_mtu = mtu;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_link_set_peer);

/**
 * smc_lgr_link_rtr() - move the link's QP to RTR towards the peer
 * @lnk: the link, with the peer set by smc_lgr_link_set_peer()
 *
 * The path MTU is the smaller of the peer's and the port's.
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int smc_lgr_link_rtr(struct smc_lgr_link *lnk)
{
	struct smc_wr_peer peer = {
		.qpn = lnk->peer_qpn,
		.psn = lnk->peer_psn,
		.gateway = lnk->lgr->smc_version == SMC_CLC_V2 &&
			   !lnk->lgr->v2_direct,
	};
	struct ib_port_attr attr;
	int rc;

	rc = ib_query_port(lnk->wr.ibdev, lnk->ibport, &attr);
	if (rc)
		return rc;
	peer.path_mtu = lnk->path_mtu ? min_t(enum ib_mtu, lnk->path_mtu,
					      attr.active_mtu) :
					attr.active_mtu;
	lnk->path_mtu = peer.path_mtu;
	memcpy(peer.gid.raw, lnk->peer_gid, SMC_GID_SIZE);
	ether_addr_copy(peer.mac, lnk->peer_mac);
	return smc_wr_qp_to_rtr(&lnk->wr, &peer);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_link_rtr);

/**
 * smc_lgr_link_down() - a link failed: fail over, or end the group
 * @lnk: the link, marked down in its smc_wr layer
 *
 * Waiters for LLC messages on the link leave at once.  The link's
 * down_work moves its connections to another link of the group, or
 * ends the group when none is left (smc_switch.c), in process context.
 * Nothing here takes a group lock: the device sweep calls this under
 * the group's lock, and a failed post under a connection's send_lock.
 *
 * Context: any but hard interrupt; the caller keeps the group alive.
 */
void smc_lgr_link_down(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;

	wake_up_all(&lnk->llc_wait);
	if (READ_ONCE(lgr->torn_down))
		return;
	/* the work's reference; a teardown cancels it or it finds it */
	smc_lgr_get(lgr);
	if (!queue_work(smc_switch_wq, &lnk->down_work))
		kref_put(&lgr->ref, smc_lgr_release);
}

/*
 * Call @fn for every link group of every namespace, under the
 * namespace's list lock (no group leaves the list meanwhile); a namespace
 * still on the list has not run its exit methods yet.  Return: how many
 * calls returned true.
 */
static int smc_lgr_for_each(bool (*fn)(struct smc_link_group *lgr,
				       void *arg), void *arg)
{
	struct smc_link_group *lgr;
	struct smc_lgr_net *ln;
	struct net *net;
	int n = 0;

	rcu_read_lock();
	if (!READ_ONCE(smc_lgr_lists_up))
		goto out;
	for_each_net_rcu(net) {
		ln = smc_lgr_net(net);
		spin_lock_bh(&ln->lock);
		list_for_each_entry(lgr, &ln->list, list)
			n += fn(lgr, arg);
		spin_unlock_bh(&ln->lock);
	}
out:
	rcu_read_unlock();
	return n;
}

struct smc_lgr_dev_fail {
	struct smc_ib_device	*dev;
	u8			port;
	u32			reason;
	bool			gid_gone;	/* only links whose GID left */
};

/* mark @lgr's links on the device (port) down; true if it had one */
static bool smc_lgr_fail_dev_links(struct smc_link_group *lgr, void *arg)
{
	const struct smc_lgr_dev_fail *f = arg;
	bool hit = false;
	int i;

	/* under the lock no link is cleared or created */
	spin_lock(&lgr->lock);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		struct smc_lgr_link *lnk = &lgr->lnk[i];

		if (lnk->state == SMC_LNK_UNUSED || lnk->smcibdev != f->dev ||
		    (f->port && lnk->ibport != f->port))
			continue;
		if (f->gid_gone && smc_wr_gid_present(&lnk->wr))
			continue;
		if (!lnk->down_reason)
			lnk->down_reason = f->reason;
		smc_switch_down_cause(lnk, f->gid_gone ? SMC_SWITCH_DOWN_GID :
				      f->port ? SMC_SWITCH_DOWN_PORT :
				      SMC_SWITCH_DOWN_DEVICE);
		smc_wr_link_down(&lnk->wr, IB_WC_SUCCESS);
		hit = true;
	}
	spin_unlock(&lgr->lock);
	return hit;
}

/**
 * smc_lgr_terminate_dev() - fail the links on a device or port
 * @dev: the RDMA device, marked unusable by the caller already
 *	(smc_ib_usable() is false), so that no new link takes it
 * @port: its port 1 or 2, or 0 for every port
 * @reason: DELETE_LINK reason for the peer if a group ends with it
 *
 * For device removal, a fatal device error and a port that went down.
 * Each link on @dev (@port) goes down: its connections move to another
 * link of the group, or the group ends (smc_lgr_link_down()).  Either
 * way the link is cleared and drops its device reference.  Groups of
 * every namespace are swept.
 *
 * Context: process context or softirq; no link-group lock held.
 * Return: the number of groups with a link that failed.
 */
int smc_lgr_terminate_dev(struct smc_ib_device *dev, u8 port, u32 reason)
{
	struct smc_lgr_dev_fail f = {
		.dev = dev, .port = port, .reason = reason,
	};

	return smc_lgr_for_each(smc_lgr_fail_dev_links, &f);
}

/**
 * smc_lgr_gid_gone() - fail the links whose own GID left a port
 * @dev: the RDMA device
 * @port: its port 1 or 2
 *
 * For a port that is up but whose GID table changed: a link whose
 * address was removed from the netdev has lost its path, as if the port
 * had gone down.  Its connections move to another link, or its group
 * ends, as in smc_lgr_terminate_dev().
 *
 * Context: process context or softirq; no link-group lock held.
 * Return: the number of groups with a link that failed.
 */
int smc_lgr_gid_gone(struct smc_ib_device *dev, u8 port)
{
	struct smc_lgr_dev_fail f = {
		.dev = dev, .port = port, .reason = SMC_LLC_DEL_LOST_PATH,
		.gid_gone = true,
	};

	return smc_lgr_for_each(smc_lgr_fail_dev_links, &f);
}

/* a group with one link that may have two asks for the second */
static bool smc_lgr_ask_second_link(struct smc_link_group *lgr, void *arg)
{
	bool want;

	spin_lock(&lgr->lock);
	want = !lgr->terminating && lgr->max_links >= 2 &&
	       lgr->type == SMC_LGR_SINGLE;
	spin_unlock(&lgr->lock);
	if (want)
		smc_llc_add_link_ask(lgr);
	return want;
}

/**
 * smc_lgr_port_up() - a port became active: groups may add a link again
 *
 * Every group of every namespace left with one link that may have two
 * asks for a second: a server offers it (ADD_LINK), a client asks the
 * server for it (REQ_ADD_LINK, or an ADD_LINK invitation in SMC-Rv1).
 * Whether the port that came up gives a path is the flow's choice, by
 * the rule for a second device.
 *
 * Context: process context; no link-group lock held.
 */
void smc_lgr_port_up(void)
{
	smc_lgr_for_each(smc_lgr_ask_second_link, NULL);
}

/* --- connections ----------------------------------------------------------- */

static void smc_conn_insert(struct smc_link_group *lgr,
			    struct smc_connection *conn)
{
	struct rb_node **link = &lgr->conns.rb_node, *parent = NULL;

	while (*link) {
		struct smc_connection *c = rb_entry(*link,
						    struct smc_connection,
						    node);

		parent = *link;
		if (conn->alert_token_local < c->alert_token_local)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&conn->node, parent, link);
	rb_insert_color(&conn->node, &lgr->conns);
}

/**
 * smc_lgr_conn_find() - the connection an alert token belongs to
 * @lgr: the group
 * @token: our alert token, from a received CDC message
 *
 * @lgr->conns is sorted by alert_token_local, ascending.
 *
 * Context: any but hard interrupt; the caller holds lgr->lock.
 * Return: the connection or NULL.
 */
struct smc_connection *smc_lgr_conn_find(struct smc_link_group *lgr, u32 token)
{
	struct rb_node *n = lgr->conns.rb_node;

	lockdep_assert_held(&lgr->lock);
	while (n) {
		struct smc_connection *c = rb_entry(n, struct smc_connection,
						    node);

		if (token < c->alert_token_local)
			n = n->rb_left;
		else if (token > c->alert_token_local)
			n = n->rb_right;
		else
			return c;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_conn_find);

/**
 * smc_lgr_conn_register() - add a connection to a link group
 * @lgr: the group, referenced by the caller
 * @conn: the connection; gets a nonzero alert token unique in the group
 *	and a reference on @lgr in conn->lgr
 *
 * The server keeps to the group's max_conns; the client follows the
 * server's choice of the group, up to SMC_CONN_PER_LGR_MAX.
 *
 * Context: any but hard interrupt.
 * Return: 0, -ENOLINK if the group is going away, -ENOSPC if it is full.
 */
int smc_lgr_conn_register(struct smc_link_group *lgr, struct smc_connection *conn)
{
	u32 token;

	spin_lock_bh(&lgr->lock);
	if (lgr->terminating) {
		spin_unlock_bh(&lgr->lock);
		return -ENOLINK;
	}
	if (lgr->conns_num >= (lgr->role == SMC_SERV ? lgr->max_conns :
						     SMC_CONN_PER_LGR_MAX)) {
		spin_unlock_bh(&lgr->lock);
		return -ENOSPC;
	}
	do {
		token = (u32)atomic_inc_return(&smc_lgr_token_cnt);
	} while (!token || smc_lgr_conn_find(lgr, token));
	conn->alert_token_local = token;
	conn->lgr = lgr;
	smc_conn_insert(lgr, conn);
	lgr->conns_num++;
	/* before a failover can find it: it moves the count along */
	if (conn->lnk) {
		atomic_inc(&conn->lnk->conn_cnt);
		conn->lnk_counted = true;
	}
	smc_lgr_get(lgr);
	/* busy again: the pending free's reference cannot be the last */
	if (cancel_delayed_work(&lgr->free_work))
		kref_put(&lgr->ref, smc_lgr_release);
	spin_unlock_bh(&lgr->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_conn_register);

/**
 * smc_lgr_conn_unregister() - remove a connection from its link group
 * @conn: the connection, registered
 *
 * The last connection leaving starts the group's idle timer.  The
 * connection's buffers must have been returned with smc_buf_put().
 *
 * Context: any but hard interrupt.
 */
void smc_lgr_conn_unregister(struct smc_connection *conn)
{
	struct smc_link_group *lgr = conn->lgr;

	if (!lgr)
		return;
	spin_lock_bh(&lgr->lock);
	rb_erase(&conn->node, &lgr->conns);
	RB_CLEAR_NODE(&conn->node);
	lgr->conns_num--;
	if (!lgr->conns_num && !lgr->terminating) {
		smc_lgr_get(lgr);
		if (!queue_delayed_work(smc_lgr_wq, &lgr->free_work,
					lgr->free_delay))
			kref_put(&lgr->ref, smc_lgr_release);
	}
	spin_unlock_bh(&lgr->lock);
	conn->lgr = NULL;
	smc_lgr_put(lgr);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_conn_unregister);

/* --- teardown -------------------------------------------------------------- */

/**
 * smc_lgr_link_clear() - take a link apart
 * @lnk: the link: of a group being torn down, or one whose ADD_LINK
 *	flow failed; UNUSED already is fine
 *
 * Buffers a connection takes meanwhile are registered under bufs_lock,
 * which the unregistration takes too, and skip a link no longer usable.
 *
 * Context: process context; lgr->llc_flow_lock held.
 */
void smc_lgr_link_clear(struct smc_lgr_link *lnk)
{
	struct smc_link_group *lgr = lnk->lgr;
	struct smc_ib_device *dev;

	lockdep_assert_held(&lgr->llc_flow_lock);
	if (lnk->state == SMC_LNK_UNUSED)
		return;
	spin_lock_bh(&lgr->lock);
	lnk->state = SMC_LNK_INACTIVE;
	spin_unlock_bh(&lgr->lock);
	cancel_delayed_work_sync(&lnk->testlink_work);
	/* posted WRITEs may still read send buffers: flush them first */
	smc_wr_link_quiesce(&lnk->wr);
	smc_buf_unreg_link(lnk);
	smc_wr_link_destroy(&lnk->wr);
	/* no flow waits on the link now: a long response it got goes */
	spin_lock_bh(&lgr->llc_rx_lock);
	kfree(lnk->llc_resp_long);
	lnk->llc_resp_long = NULL;
	spin_unlock_bh(&lgr->llc_rx_lock);
	/* netlink dumps read the device under lgr->lock while not UNUSED */
	spin_lock_bh(&lgr->lock);
	lnk->state = SMC_LNK_UNUSED;
	dev = lnk->smcibdev;
	lnk->smcibdev = NULL;
	spin_unlock_bh(&lgr->lock);
	atomic_dec(&dev->ports[lnk->ibport - 1].lnk_cnt);
	smc_ib_put(dev);
}

/*
 * A device is critical for a group whose connections all depend on it:
 * one link, or two on the same device.  Its crit_cnt counts such groups
 * (reported as "Crit" in the device dump).  The count is held on the
 * device of the first ACTIVE link, which in these types carries every
 * link in use.
 */
static bool smc_lgr_type_critical(enum smc_lgr_type type)
{
	return type == SMC_LGR_SINGLE || type == SMC_LGR_ASYMMETRIC_LOCAL;
}

/**
 * smc_lgr_set_type() - the group's type after a link came or went
 * @lgr: the group
 * @type: enum smc_lgr_type; SMC_LGR_NONE at teardown
 *
 * Called before a link that may hold the group's crit_dev is cleared:
 * the device is the one of a link still there.
 *
 * Context: process context; lgr->llc_flow_lock held.
 */
void smc_lgr_set_type(struct smc_link_group *lgr, enum smc_lgr_type type)
{
	struct smc_ib_device *was, *dev = NULL;
	int i;

	lockdep_assert_held(&lgr->llc_flow_lock);
	spin_lock_bh(&lgr->lock);
	lgr->type = type;
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		if (smc_lgr_type_critical(type) &&
		    lgr->lnk[i].state == SMC_LNK_ACTIVE) {
			dev = lgr->lnk[i].smcibdev;
			break;
		}
	}
	was = lgr->crit_dev;
	lgr->crit_dev = dev;
	spin_unlock_bh(&lgr->lock);
	if (dev)
		atomic_inc(&dev->crit_cnt);
	if (was)
		atomic_dec(&was->crit_cnt);
}

/* claim the teardown of @lgr: true for the one caller that does it */
static bool smc_lgr_claim(struct smc_link_group *lgr, u32 reason)
{
	struct smc_lgr_net *ln = smc_lgr_net(lgr->net);
	bool claimed;

	spin_lock_bh(&ln->lock);
	spin_lock(&lgr->lock);
	claimed = !lgr->torn_down;
	lgr->torn_down = true;
	lgr->terminating = true;
	if (claimed) {
		list_del_init(&lgr->list);
		if (reason)
			lgr->term_reason = reason;
	}
	spin_unlock(&lgr->lock);
	spin_unlock_bh(&ln->lock);
	return claimed;
}

/*
 * Tear @lgr down once: tell the peer (DELETE_LINK ALL, ORDERLY for an
 * idle free) unless @reason is 0, abort the connections, destroy the
 * links and drop the list's reference.
 */
static void smc_lgr_teardown(struct smc_link_group *lgr, u32 reason,
			     bool orderly)
{
	struct rb_node *n;
	int i;

	if (!smc_lgr_claim(lgr, reason))
		return;
	smc_lgr_event();
	if (reason)
		smc_llc_send_delete_all(lgr, orderly, reason);
	/* the connections stop sending and their sockets abort */
	spin_lock_bh(&lgr->lock);
	for (n = rb_first(&lgr->conns); n; n = rb_next(n))
		smc_cdc_conn_kill(rb_entry(n, struct smc_connection, node));
	spin_unlock_bh(&lgr->lock);
	/* flows waiting for a response see terminating and leave */
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		wake_up_all(&lgr->lnk[i].llc_wait);
	mutex_lock(&lgr->llc_flow_lock);
	smc_lgr_set_type(lgr, SMC_LGR_NONE);
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		smc_lgr_link_clear(&lgr->lnk[i]);
	mutex_unlock(&lgr->llc_flow_lock);
	/* a failover that began finds the group torn down */
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++)
		if (cancel_work_sync(&lgr->lnk[i].down_work))
			smc_lgr_put(lgr);
	/*
	 * No link left to receive on: nothing queues LLC work any more,
	 * and the receive work was the last to queue a flow.
	 */
	cancel_work_sync(&lgr->llc_rx_work);
	/* it queues flows; it sees torn_down and stays off */
	cancel_delayed_work_sync(&lgr->llc_retry_work);
	cancel_work_sync(&lgr->llc_flow_work);
	smc_llc_rx_purge(lgr);
	if (cancel_delayed_work(&lgr->free_work))
		smc_lgr_put(lgr);
	/* pairs with smc_lgr_wait_gone(): the teardown's stores come first */
	smp_store_release(&lgr->gone, true);
	smc_lgr_event();
	smc_lgr_put(lgr);	/* the list's */
}

/**
 * smc_lgr_terminate() - abnormal end of a link group
 * @lgr: the group, referenced by the caller
 * @reason: DELETE_LINK reason sent with ALL to the peer; 0 sends nothing
 *	(the peer ended the group, or the links are gone)
 *
 * The group leaves the list, its connections are marked killed and its
 * links are taken down.  A second call does nothing.
 *
 * Context: process context, not from the group's LLC works.
 */
void smc_lgr_terminate(struct smc_link_group *lgr, u32 reason)
{
	smc_lgr_teardown(lgr, reason, false);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_terminate);

static void smc_lgr_terminate_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(work, struct smc_link_group,
						  terminate_work);

	smc_lgr_teardown(lgr, READ_ONCE(lgr->term_reason), false);
	smc_lgr_put(lgr);
}

/**
 * smc_lgr_terminate_async() - terminate a link group from any context
 * @lgr: the group
 * @reason: as for smc_lgr_terminate(); the first reason given wins
 *
 * Context: any but hard interrupt; the caller keeps @lgr alive for the
 * duration of the call (a link of it, a reference).
 */
void smc_lgr_terminate_async(struct smc_link_group *lgr, u32 reason)
{
	spin_lock_bh(&lgr->lock);
	if (lgr->torn_down) {
		spin_unlock_bh(&lgr->lock);
		return;
	}
	lgr->terminating = true;
	if (!lgr->term_reason)
		lgr->term_reason = reason;
	smc_lgr_get(lgr);
	if (!queue_work(smc_lgr_wq, &lgr->terminate_work))
		kref_put(&lgr->ref, smc_lgr_release);
	spin_unlock_bh(&lgr->lock);
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_terminate_async);

static void smc_lgr_free_work(struct work_struct *work)
{
	struct smc_link_group *lgr = container_of(to_delayed_work(work),
						  struct smc_link_group,
						  free_work);
	bool idle;

	spin_lock_bh(&lgr->lock);
	idle = !lgr->conns_num && !lgr->terminating;
	if (idle)
		lgr->terminating = true;	/* no new connections */
	spin_unlock_bh(&lgr->lock);
	if (idle)
		smc_lgr_teardown(lgr, SMC_LGR_REASON_FREE, true);
	smc_lgr_put(lgr);
}

static bool smc_lgr_is_gone(struct smc_link_group *lgr)
{
	/* pairs with the release in smc_lgr_teardown() */
	return smp_load_acquire(&lgr->gone);
}

/**
 * smc_lgr_wait_gone() - wait until a link group was torn down
 * @lgr: the group, referenced by the caller
 * @timeout: in jiffies
 *
 * Context: process context.
 * Return: true if it was torn down in time.
 */
bool smc_lgr_wait_gone(struct smc_link_group *lgr, long timeout)
{
	return wait_event_timeout(smc_lgr_event_wq, smc_lgr_is_gone(lgr),
				  timeout) > 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_wait_gone);

/**
 * smc_lgr_dump() - hand the link groups of a namespace to a callback
 * @net: the namespace
 * @pos: in: how many groups to skip; out: the first one not handed over
 * @fill: called under the list lock and lgr->lock, must not sleep;
 *	nonzero stops the walk before that group
 * @arg: for @fill
 *
 * For netlink dumps, which continue where the last message ended.
 * Links of a handed-over group that are not UNUSED keep their device.
 *
 * Context: process context.
 */
void smc_lgr_dump(struct net *net, long *pos,
		  int (*fill)(struct smc_link_group *lgr, void *arg),
		  void *arg)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *lgr;
	long n = 0;
	int rc;

	spin_lock_bh(&ln->lock);
	list_for_each_entry(lgr, &ln->list, list) {
		if (n < *pos) {
			n++;
			continue;
		}
		spin_lock(&lgr->lock);
		rc = fill(lgr, arg);
		spin_unlock(&lgr->lock);
		if (rc)
			break;
		n++;
	}
	spin_unlock_bh(&ln->lock);
	*pos = n;
}
EXPORT_SYMBOL_IF_KUNIT(smc_lgr_dump);

/* --- namespaces and module ------------------------------------------------ */

static int __net_init smc_lgr_net_init(struct net *net)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);

	spin_lock_init(&ln->lock);
	INIT_LIST_HEAD(&ln->list);
	return 0;
}

static void __net_exit smc_lgr_net_exit(struct net *net)
{
	struct smc_lgr_net *ln = smc_lgr_net(net);
	struct smc_link_group *lgr;

	for (;;) {
		spin_lock_bh(&ln->lock);
		lgr = list_first_entry_or_null(&ln->list,
					       struct smc_link_group, list);
		if (lgr)
			smc_lgr_get(lgr);
		spin_unlock_bh(&ln->lock);
		if (!lgr)
			break;
		/* whoever claims it takes it off the list first */
		smc_lgr_terminate(lgr, SMC_LLC_DEL_OP_INIT_TERM);
		smc_lgr_put(lgr);
	}
}

static struct pernet_operations smc_lgr_net_ops = {
	.init	= smc_lgr_net_init,
	.exit	= smc_lgr_net_exit,
	.id	= &smc_lgr_net_id,
	.size	= sizeof(struct smc_lgr_net),
};

/**
 * smc_lgr_init() - set up link-group tracking
 *
 * Context: module init, after smc_ib_init().
 * Return: 0 or a negative errno.
 */
int smc_lgr_init(void)
{
	int rc;

	smc_lgr_wq = alloc_workqueue("smc_lgr", WQ_MEM_RECLAIM, 0);
	if (!smc_lgr_wq)
		return -ENOMEM;
	smc_switch_wq = alloc_workqueue("smc_switch", WQ_MEM_RECLAIM, 0);
	if (!smc_switch_wq) {
		rc = -ENOMEM;
		goto out_lgr;
	}
	rc = register_pernet_subsys(&smc_lgr_net_ops);
	if (rc)
		goto out_switch;
	WRITE_ONCE(smc_lgr_lists_up, true);
	return 0;
out_switch:
	destroy_workqueue(smc_switch_wq);
out_lgr:
	destroy_workqueue(smc_lgr_wq);
	return rc;
}

/**
 * smc_lgr_exit() - tear down every link group of every namespace
 *
 * Queued work of torn-down groups finishes before the workqueue goes.
 *
 * Context: module exit, before smc_ib_exit() (links hold devices).
 */
void smc_lgr_exit(void)
{
	WRITE_ONCE(smc_lgr_lists_up, false);
	/* a device sweep under way is done with the lists after this */
	synchronize_rcu();
	unregister_pernet_subsys(&smc_lgr_net_ops);
	/* a failover that began finds its group torn down */
	destroy_workqueue(smc_switch_wq);
	destroy_workqueue(smc_lgr_wq);
}
