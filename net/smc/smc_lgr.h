/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The link-group layer: link groups and their links (smc_lgr.c), LLC on
 * the links (smc_llc.c), buffers and rtokens (smc_buf.c).  The objects
 * are in smc_core.h.
 */
#ifndef _NET_SMC_LGR_H
#define _NET_SMC_LGR_H

#include "smc_core.h"

#define SMC_LGR_REASON_FREE	SMC_LLC_DEL_PROG_INIT_TERM
/* server first contacts a namespace runs at once (smc_lgr_create_unique) */
#define SMC_LGR_FIRST_CONTACTS_MAX	16

/**
 * struct smc_lgr_match - what a connection needs of a link group to reuse it
 * @role: SMC_SERV or SMC_CLNT
 * @peer_systemid: the peer's system id from CLC
 * @peer_gid: the peer's GID from CLC
 * @peer_mac: the peer's MAC from CLC (compared for SMC-Rv1 only)
 * @peer_qpn: client: the QPN of the Accept; server: ignored
 * @vlan_id: VLAN of the TCP connection
 * @smc_version: SMC_CLC_V1 or SMC_CLC_V2
 */
struct smc_lgr_match {
	enum smc_lgr_role	role;
	const u8		*peer_systemid;
	const u8		*peer_gid;
	const u8		*peer_mac;
	u32			peer_qpn;
	unsigned short		vlan_id;
	u8			smc_version;
};

/* smc_lgr.c */
extern struct workqueue_struct *smc_lgr_wq;
extern struct workqueue_struct *smc_switch_wq;
int smc_lgr_init(void);
void smc_lgr_exit(void);
struct smc_link_group *smc_lgr_create(struct net *net, enum smc_lgr_role role,
				      u8 smc_version, const u8 *peer_systemid,
				      unsigned short vlan_id);
struct smc_link_group *smc_lgr_create_unique(struct net *net,
					     const struct smc_lgr_match *m);
struct smc_link_group *smc_lgr_find(struct net *net,
				    const struct smc_lgr_match *m,
				    struct smc_lgr_link **lnk);
struct smc_link_group *smc_lgr_find_wait(struct net *net,
					 const struct smc_lgr_match *m,
					 struct smc_lgr_link **lnk);
void smc_lgr_link_activated(void);
bool smc_lgr_in_use(struct smc_link_group *lgr);
void smc_lgr_get(struct smc_link_group *lgr);
void smc_lgr_put(struct smc_link_group *lgr);
int smc_lgr_link_init(struct smc_link_group *lgr, u8 idx,
		      const struct smc_ib_select *sel);
void smc_lgr_link_set_peer(struct smc_lgr_link *lnk, u32 qpn, u32 psn,
			   const u8 *gid, const u8 *mac, u8 mtu);
int smc_lgr_link_rtr(struct smc_lgr_link *lnk);
int smc_lgr_conn_register(struct smc_link_group *lgr,
			  struct smc_connection *conn);
void smc_lgr_conn_unregister(struct smc_connection *conn);
void smc_lgr_terminate(struct smc_link_group *lgr, u32 reason);
void smc_lgr_terminate_async(struct smc_link_group *lgr, u32 reason);
void smc_lgr_link_down(struct smc_lgr_link *lnk);
int smc_lgr_terminate_dev(struct smc_ib_device *dev, u8 port, u32 reason);
int smc_lgr_gid_gone(struct smc_ib_device *dev, u8 port);
void smc_lgr_port_up(void);
int smc_lgr_count(struct net *net);
#if IS_ENABLED(CONFIG_SMC_TEST_HOOKS)
struct smc_link_group *smc_lgr_get_active(struct net *net);
#endif
void smc_lgr_dump(struct net *net, long *pos,
		  int (*fill)(struct smc_link_group *lgr, void *arg),
		  void *arg);
bool smc_lgr_wait_gone(struct smc_link_group *lgr, long timeout);
u8 smc_lgr_next_link_id(struct smc_link_group *lgr);
void smc_lgr_set_type(struct smc_link_group *lgr, enum smc_lgr_type type);
void smc_lgr_link_clear(struct smc_lgr_link *lnk);
struct smc_connection *smc_lgr_conn_find(struct smc_link_group *lgr, u32 token);

/* smc_switch.c */
/* the counters of debugfs smc/failover, since the module loaded */
enum smc_switch_stat {
	SMC_SWITCH_FAILOVERS,		/* links whose connections moved */
	SMC_SWITCH_GROUP_ENDS,		/* links that ended their group */
	SMC_SWITCH_CONNS_MOVED,		/* connections moved */
	SMC_SWITCH_CONNS_NO_RKEY,	/* aborted: no peer rkey there */
	SMC_SWITCH_CONNS_REWRITE,	/* moved, writing sent bytes again */
	SMC_SWITCH_LINK_ADDED,		/* a second link is ACTIVE */
	SMC_SWITCH_LINK_ADD_FAILED,	/* an ADD_LINK flow failed */
	SMC_SWITCH_LINK_ADD_RETRY,	/* a second link tried again */
	SMC_SWITCH_LINK_DEL_LOCAL,	/* deleted: it failed here */
	SMC_SWITCH_LINK_DEL_PEER,	/* deleted: the peer asked */
	/* links that failed (moved or ended their group), by cause */
	SMC_SWITCH_DOWN_WR_ERROR,	/* a work request failed */
	SMC_SWITCH_DOWN_PORT,		/* a port event: down, or fatal */
	SMC_SWITCH_DOWN_DEVICE,		/* the device's removal */
	SMC_SWITCH_DOWN_GID,		/* its own GID left the port */
	SMC_SWITCH_DOWN_TESTLINK,	/* a TEST_LINK unanswered */
	SMC_SWITCH_DOWN_PEER,		/* the peer's DELETE_LINK */
	SMC_SWITCH_NSTATS		/* as a link's down_cause: none yet */
};

void smc_switch_count(enum smc_switch_stat what);
void smc_switch_down_cause(struct smc_lgr_link *lnk,
			   enum smc_switch_stat cause);
struct smc_lgr_link *smc_switch_conns(struct smc_lgr_link *from);
void smc_switch_link_down_work(struct work_struct *work);
void smc_switch_link_fail(struct smc_lgr_link *lnk);
struct smc_lgr_link *smc_switch_target(struct smc_link_group *lgr,
				       struct smc_lgr_link *from);

/* can @lnk carry connections: ACTIVE, and no failure pending on it */
static inline bool smc_switch_usable(struct smc_lgr_link *lnk)
{
	return lnk->state == SMC_LNK_ACTIVE && !smc_wr_link_is_down(&lnk->wr);
}

void smc_switch_conn_uncount(struct smc_connection *conn);
void smc_switch_debugfs_init(struct dentry *root);

/* smc_llc.c, smc_llc_link.c */
void smc_llc_link_lost(struct smc_lgr_link *lnk);
extern const struct smc_wr_ops smc_llc_wr_ops;
void smc_llc_rx_work(struct work_struct *work);
void smc_llc_flow_work(struct work_struct *work);
void smc_llc_add_link_kick(struct smc_link_group *lgr);
void smc_llc_add_link_ask(struct smc_link_group *lgr);
void smc_llc_retry_work(struct work_struct *work);
void smc_llc_rx_purge(struct smc_link_group *lgr);
void smc_llc_testlink_work(struct work_struct *work);
void smc_llc_testlink_start(struct smc_lgr_link *lnk);
void smc_llc_debugfs_init(struct dentry *root);
int smc_llc_confirm_link_serv(struct smc_lgr_link *lnk, const bool *cancel);
int smc_llc_confirm_link_clnt(struct smc_lgr_link *lnk, const bool *cancel);
int smc_llc_test_link(struct smc_lgr_link *lnk);
int smc_llc_confirm_rkey(struct smc_lgr_link *lnk, struct smc_buf_desc *rmb);
int smc_llc_delete_rkey(struct smc_lgr_link *lnk, struct smc_buf_desc *rmb);
int smc_llc_send_delete_all(struct smc_link_group *lgr, bool orderly,
			    u32 reason);

/* smc_buf.c */
struct smc_buf_desc *smc_buf_get(struct smc_link_group *lgr, bool is_rmb,
				 unsigned int size);
void smc_buf_put(struct smc_link_group *lgr, struct smc_buf_desc *desc);
void smc_buf_quarantine(struct smc_buf_desc *desc);
int smc_buf_reg_link(struct smc_lgr_link *lnk);
void smc_buf_unreg_link(struct smc_lgr_link *lnk);
void smc_buf_free_all(struct smc_link_group *lgr);
int smc_rtoken_add(struct smc_link_group *lgr, u8 lnk_idx, u64 vaddr,
		   u32 rkey);
int smc_rtoken_set_link(struct smc_link_group *lgr, int idx, u8 lnk_idx,
			u64 vaddr, u32 rkey);
int smc_rtoken_delete(struct smc_link_group *lgr, u32 rkey);
int smc_rtoken_find(struct smc_link_group *lgr, u8 lnk_idx, u32 rkey);

#endif /* _NET_SMC_LGR_H */
