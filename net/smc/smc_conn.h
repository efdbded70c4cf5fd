/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Setting up the SMC-R connection of a socket from what the CLC
 * handshake negotiated (smc_conn.c): the link group to use or create,
 * its first link, the connection's buffers, and its end of the peer's
 * RMB.  smc_handshake.c decides; this file builds.
 */
#ifndef _NET_SMC_CONN_H
#define _NET_SMC_CONN_H

#include "smc.h"
#include "smc_lgr.h"

/**
 * struct smc_conn_setup - what CLC agreed on for one SMC-R connection
 * @sel: our device, port and GID; referenced (smc_ib_put() on the end)
 * @version: SMC_CLC_V1 or SMC_CLC_V2
 * @role: SMC_CLNT or SMC_SERV
 * @first_contact: a new link group (server: set by smc_conn_create())
 * @peer_systemid: the peer's system id as the group is matched on
 * @peer_gid: the peer's GID
 * @peer_mac: v1: the peer's MAC; v2: the next hop's MAC
 * @peer_qpn: client: the QP number of the Accept
 * @vlan_id: VLAN of the TCP connection
 * @release: negotiated SMCv2 release
 * @max_conns: negotiated connections per link group
 * @max_links: negotiated links per link group
 * @v2_direct: v2: the peer is reached without a gateway
 * @peer_os: v2 first contact: the peer's OS type
 * @peer_hostname: v2 first contact: the peer's host name
 * @eid: v2: the negotiated UEID
 * @saddr: v2 first contact: the TCP connection's source address
 * @lgr: the group in use, with a reference for the handshake
 * @lnk: the link the connection uses
 */
struct smc_conn_setup {
	struct smc_ib_select	sel;
	u8			version;
	enum smc_lgr_role	role;
	bool			first_contact;
	u8			peer_systemid[SMC_SYSTEMID_LEN];
	u8			peer_gid[SMC_GID_SIZE];
	u8			peer_mac[ETH_ALEN];
	u32			peer_qpn;
	unsigned short		vlan_id;
	u8			release;
	u8			max_conns;
	u8			max_links;
	bool			v2_direct;
	u8			peer_os;
	u8			peer_hostname[SMC_CLC_HOSTNAME_LEN];
	u8			eid[SMC_CLC_EID_LEN];
	__be32			saddr;
	struct smc_link_group	*lgr;
	struct smc_lgr_link	*lnk;
};

u32 smc_conn_create(struct smc_sock *smc, struct smc_conn_setup *cs);
u32 smc_conn_peer_rmb(struct smc_sock *smc, struct smc_lgr_link *lnk,
		      u64 vaddr, u32 rkey, u8 rmbe_idx, u8 rmbe_size,
		      u32 peer_token);
void smc_conn_setup_abort(struct smc_sock *smc, struct smc_conn_setup *cs,
			  u32 reason);
void smc_conn_setup_done(struct smc_sock *smc, struct smc_conn_setup *cs);
int smc_conn_route(struct net *net, __be32 saddr, __be32 daddr, u8 *mac,
		   bool *uses_gateway);
void smc_conn_hostname(u8 *name);
int smc_conn_init(void);
void smc_conn_exit(void);
u32 smc_hs_serv_check(const struct smc_conn_setup *cs,
		      const struct smc_clc_accept_info *c);

#endif /* _NET_SMC_CONN_H */
