/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Shared Memory Communications (SMC) user-space ABI: generic netlink
 * families "SMC_PNETID" and "SMC_GEN_NETLINK", and the SOL_SMC socket
 * option.  The numbering is fixed by the upstream kernel and by existing
 * tools (smc-tools); never renumber, only append before a sentinel.
 */
#ifndef _UAPI_LINUX_SMC_H
#define _UAPI_LINUX_SMC_H

/*
 * Family "SMC_PNETID": maps physical network ids (PNETIDs) to Ethernet
 * and RDMA devices.  Registered by the smc module.
 */
#define SMCR_GENL_FAMILY_NAME		"SMC_PNETID"
#define SMCR_GENL_FAMILY_VERSION	1

/* SMC_PNETID attributes */
enum {
	SMC_PNETID_UNSPEC,
	SMC_PNETID_NAME,	/* NUL-terminated string, at most 16 chars */
	SMC_PNETID_ETHNAME,	/* NUL-terminated netdev name, "n/a" if none */
	SMC_PNETID_IBNAME,	/* NUL-terminated IB device name, "n/a" if none */
	SMC_PNETID_IBPORT,	/* u8: 1 or 2; 0xff when there is no IB device */
	__SMC_PNETID_MAX,
	SMC_PNETID_MAX = __SMC_PNETID_MAX - 1
};

/* SMC_PNETID commands (numbered from 1, 0 is unused) */
enum {
	SMC_PNETID_GET = 1,	/* dump all entries, or do with NAME */
	SMC_PNETID_ADD,		/* admin */
	SMC_PNETID_DEL,		/* admin, needs NAME */
	SMC_PNETID_FLUSH,	/* admin */
};

/*
 * Family "SMC_GEN_NETLINK": read-out of system info, link groups, links,
 * devices and statistics, plus UEID/SEID and handshake-limit control.
 */
#define SMC_GENL_FAMILY_NAME		"SMC_GEN_NETLINK"
#define SMC_GENL_FAMILY_VERSION		1

#define SMC_PCI_ID_STR_LEN		16	/* "dddd:bb:ss.f" plus NUL */
#define SMC_MAX_HOSTNAME_LEN		32	/* local hostname, not NUL-ended */
#define SMC_MAX_UEID			4	/* user-defined EID table size */
#define SMC_MAX_EID_LEN			32	/* EID length, without NUL */

/* SMC_GEN_NETLINK commands */
enum {
	SMC_NETLINK_GET_SYS_INFO = 1,
	SMC_NETLINK_GET_LGR_SMCR,
	SMC_NETLINK_GET_LINK_SMCR,
	SMC_NETLINK_GET_LGR_SMCD,
	SMC_NETLINK_GET_DEV_SMCD,
	SMC_NETLINK_GET_DEV_SMCR,
	SMC_NETLINK_GET_STATS,
	SMC_NETLINK_GET_FBACK_STATS,
	SMC_NETLINK_DUMP_UEID,
	SMC_NETLINK_ADD_UEID,
	SMC_NETLINK_REMOVE_UEID,
	SMC_NETLINK_FLUSH_UEID,
	SMC_NETLINK_DUMP_SEID,
	SMC_NETLINK_ENABLE_SEID,
	SMC_NETLINK_DISABLE_SEID,
	SMC_NETLINK_DUMP_HS_LIMITATION,
	SMC_NETLINK_ENABLE_HS_LIMITATION,
	SMC_NETLINK_DISABLE_HS_LIMITATION,
};

/* Top-level attributes: every dump message carries exactly one nest */
enum {
	SMC_GEN_UNSPEC,
	SMC_GEN_SYS_INFO,		/* nest, SMC_NLA_SYS_* */
	SMC_GEN_LGR_SMCR,		/* nest, SMC_NLA_LGR_R_* */
	SMC_GEN_LINK_SMCR,		/* nest, SMC_NLA_LINK_* */
	SMC_GEN_LGR_SMCD,		/* nest, SMC_NLA_LGR_D_* */
	SMC_GEN_DEV_SMCD,		/* nest, SMC_NLA_DEV_* */
	SMC_GEN_DEV_SMCR,		/* nest, SMC_NLA_DEV_* */
	SMC_GEN_STATS,			/* nest, SMC_NLA_STATS_* */
	SMC_GEN_FBACK_STATS,		/* nest, SMC_NLA_FBACK_STATS_* */
	__SMC_GEN_MAX,
	SMC_GEN_MAX = __SMC_GEN_MAX - 1
};

/* Inside SMC_GEN_SYS_INFO */
enum {
	SMC_NLA_SYS_UNSPEC,
	SMC_NLA_SYS_VER,		/* u8: SMC version (2) */
	SMC_NLA_SYS_REL,		/* u8: SMC release */
	SMC_NLA_SYS_IS_ISM_V2,		/* u8: an ISMv2 device is present */
	SMC_NLA_SYS_LOCAL_HOST,		/* string: local hostname */
	SMC_NLA_SYS_SEID,		/* string: system EID, ISMv2 only */
	SMC_NLA_SYS_IS_SMCR_V2,		/* u8: SMC-Rv2 capable */
	__SMC_NLA_SYS_MAX,
	SMC_NLA_SYS_MAX = __SMC_NLA_SYS_MAX - 1
};

/*
 * Common v2 link-group details, nested in SMC_NLA_LGR_R_V2_COMMON and
 * SMC_NLA_LGR_D_V2_COMMON.  Note: this enum has no UNSPEC entry, its
 * first attribute is 0.
 */
enum {
	SMC_NLA_LGR_V2_VER,		/* u8 */
	SMC_NLA_LGR_V2_REL,		/* u8 */
	SMC_NLA_LGR_V2_OS,		/* u8: peer OS type */
	SMC_NLA_LGR_V2_NEG_EID,		/* string: negotiated EID */
	SMC_NLA_LGR_V2_PEER_HOST,	/* string: peer hostname */
	__SMC_NLA_LGR_V2_MAX,
	SMC_NLA_LGR_V2_MAX = __SMC_NLA_LGR_V2_MAX - 1
};

/* SMC-Rv2 specific link-group details, nested in SMC_NLA_LGR_R_V2 */
enum {
	SMC_NLA_LGR_R_V2_UNSPEC,
	SMC_NLA_LGR_R_V2_DIRECT,	/* u8: peer reachable without routing */
	SMC_NLA_LGR_R_V2_MAX_CONNS,	/* u8: negotiated connections per LGR */
	SMC_NLA_LGR_R_V2_MAX_LINKS,	/* u8: negotiated links per LGR */
	__SMC_NLA_LGR_R_V2_MAX,
	SMC_NLA_LGR_R_V2_MAX = __SMC_NLA_LGR_R_V2_MAX - 1
};

/* SMC-R link group, inside SMC_GEN_LGR_SMCR */
enum {
	SMC_NLA_LGR_R_UNSPEC,
	SMC_NLA_LGR_R_ID,		/* u32 */
	SMC_NLA_LGR_R_ROLE,		/* u8: 0 client, 1 server */
	SMC_NLA_LGR_R_TYPE,		/* u8: link group redundancy type */
	SMC_NLA_LGR_R_PNETID,		/* string */
	SMC_NLA_LGR_R_VLAN_ID,		/* u8 */
	SMC_NLA_LGR_R_CONNS_NUM,	/* u32 */
	SMC_NLA_LGR_R_V2_COMMON,	/* nest, SMC_NLA_LGR_V2_*; v2 only */
	SMC_NLA_LGR_R_V2,		/* nest, SMC_NLA_LGR_R_V2_*; v2 only */
	SMC_NLA_LGR_R_NET_COOKIE,	/* u64: network namespace cookie */
	SMC_NLA_LGR_R_PAD,		/* 64-bit alignment padding */
	SMC_NLA_LGR_R_BUF_TYPE,		/* u8: RMB memory type */
	SMC_NLA_LGR_R_SNDBUF_ALLOC,	/* uint: bytes of send buffers */
	SMC_NLA_LGR_R_RMB_ALLOC,	/* uint: bytes of receive buffers */
	__SMC_NLA_LGR_R_MAX,
	SMC_NLA_LGR_R_MAX = __SMC_NLA_LGR_R_MAX - 1
};

/* SMC-R link, inside SMC_GEN_LINK_SMCR */
enum {
	SMC_NLA_LINK_UNSPEC,
	SMC_NLA_LINK_ID,		/* u8 */
	SMC_NLA_LINK_IB_DEV,		/* string: RDMA device name */
	SMC_NLA_LINK_IB_PORT,		/* u8 */
	SMC_NLA_LINK_GID,		/* string: local GID, IPv6 notation */
	SMC_NLA_LINK_PEER_GID,		/* string: peer GID, IPv6 notation */
	SMC_NLA_LINK_CONN_CNT,		/* u32 */
	SMC_NLA_LINK_NET_DEV,		/* u32: ifindex (a number, not a name) */
	SMC_NLA_LINK_UID,		/* u32 */
	SMC_NLA_LINK_PEER_UID,		/* u32 */
	SMC_NLA_LINK_STATE,		/* u32 */
	__SMC_NLA_LINK_MAX,
	SMC_NLA_LINK_MAX = __SMC_NLA_LINK_MAX - 1
};

/* SMC-D link group, inside SMC_GEN_LGR_SMCD */
enum {
	SMC_NLA_LGR_D_UNSPEC,
	SMC_NLA_LGR_D_ID,		/* u32 */
	SMC_NLA_LGR_D_GID,		/* u64 */
	SMC_NLA_LGR_D_PEER_GID,		/* u64 */
	SMC_NLA_LGR_D_VLAN_ID,		/* u8 */
	SMC_NLA_LGR_D_CONNS_NUM,	/* u32 */
	SMC_NLA_LGR_D_PNETID,		/* string */
	SMC_NLA_LGR_D_CHID,		/* u32 on the wire (holds a 16-bit CHID) */
	SMC_NLA_LGR_D_PAD,		/* 64-bit alignment padding */
	SMC_NLA_LGR_D_V2_COMMON,	/* nest, SMC_NLA_LGR_V2_* */
	SMC_NLA_LGR_D_EXT_GID,		/* u64 */
	SMC_NLA_LGR_D_PEER_EXT_GID,	/* u64 */
	SMC_NLA_LGR_D_SNDBUF_ALLOC,	/* uint: bytes of send buffers */
	SMC_NLA_LGR_D_DMB_ALLOC,	/* uint: bytes of DMBs */
	__SMC_NLA_LGR_D_MAX,
	SMC_NLA_LGR_D_MAX = __SMC_NLA_LGR_D_MAX - 1
};

/* One device port, nested as SMC_NLA_DEV_PORT + port index */
enum {
	SMC_NLA_DEV_PORT_UNSPEC,
	SMC_NLA_DEV_PORT_PNET_USR,	/* u8: PNETID set by the user */
	SMC_NLA_DEV_PORT_PNETID,	/* string */
	SMC_NLA_DEV_PORT_NETDEV,	/* u32: ifindex */
	SMC_NLA_DEV_PORT_STATE,		/* u8: port active */
	SMC_NLA_DEV_PORT_VALID,		/* u8: port usable by SMC */
	SMC_NLA_DEV_PORT_LNK_CNT,	/* u32: links on this port */
	__SMC_NLA_DEV_PORT_MAX,
	SMC_NLA_DEV_PORT_MAX = __SMC_NLA_DEV_PORT_MAX - 1
};

/* Device, inside SMC_GEN_DEV_SMCR or SMC_GEN_DEV_SMCD */
enum {
	SMC_NLA_DEV_UNSPEC,
	SMC_NLA_DEV_USE_CNT,		/* u32 */
	SMC_NLA_DEV_IS_CRIT,		/* u8: a link group depends on it alone */
	SMC_NLA_DEV_PCI_FID,		/* u32 */
	SMC_NLA_DEV_PCI_CHID,		/* u16 */
	SMC_NLA_DEV_PCI_VENDOR,		/* u16 */
	SMC_NLA_DEV_PCI_DEVICE,		/* u16 */
	SMC_NLA_DEV_PCI_ID,		/* string, SMC_PCI_ID_STR_LEN */
	SMC_NLA_DEV_PORT,		/* nest, SMC_NLA_DEV_PORT_*: port 1 */
	SMC_NLA_DEV_PORT2,		/* nest, SMC_NLA_DEV_PORT_*: port 2 */
	SMC_NLA_DEV_IB_NAME,		/* string: RDMA device name */
	__SMC_NLA_DEV_MAX,
	SMC_NLA_DEV_MAX = __SMC_NLA_DEV_MAX - 1
};

/* Payload size histogram buckets, all u64 */
enum {
	SMC_NLA_STATS_PLOAD_PAD,
	SMC_NLA_STATS_PLOAD_8K,
	SMC_NLA_STATS_PLOAD_16K,
	SMC_NLA_STATS_PLOAD_32K,
	SMC_NLA_STATS_PLOAD_64K,
	SMC_NLA_STATS_PLOAD_128K,
	SMC_NLA_STATS_PLOAD_256K,
	SMC_NLA_STATS_PLOAD_512K,
	SMC_NLA_STATS_PLOAD_1024K,
	SMC_NLA_STATS_PLOAD_G_1024K,	/* larger than 1024K */
	__SMC_NLA_STATS_PLOAD_MAX,
	SMC_NLA_STATS_PLOAD_MAX = __SMC_NLA_STATS_PLOAD_MAX - 1
};

/* Buffer (RMB / send buffer) event counters, all u64 */
enum {
	SMC_NLA_STATS_RMB_PAD,
	SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT,	/* peer's buffer too small */
	SMC_NLA_STATS_RMB_SIZE_SM_CNT,		/* own buffer too small */
	SMC_NLA_STATS_RMB_FULL_PEER_CNT,	/* peer's buffer full */
	SMC_NLA_STATS_RMB_FULL_CNT,		/* own buffer full */
	SMC_NLA_STATS_RMB_REUSE_CNT,		/* buffer reused */
	SMC_NLA_STATS_RMB_ALLOC_CNT,		/* buffer allocated */
	SMC_NLA_STATS_RMB_DGRADE_CNT,		/* smaller size than asked */
	__SMC_NLA_STATS_RMB_MAX,
	SMC_NLA_STATS_RMB_MAX = __SMC_NLA_STATS_RMB_MAX - 1
};

/* Per-technology (SMC-R or SMC-D) statistics */
enum {
	SMC_NLA_STATS_T_PAD,
	SMC_NLA_STATS_T_TX_RMB_SIZE,	/* nest, SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_RX_RMB_SIZE,	/* nest, SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_TXPLOAD_SIZE,	/* nest, SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_RXPLOAD_SIZE,	/* nest, SMC_NLA_STATS_PLOAD_* */
	SMC_NLA_STATS_T_TX_RMB_STATS,	/* nest, SMC_NLA_STATS_RMB_* */
	SMC_NLA_STATS_T_RX_RMB_STATS,	/* nest, SMC_NLA_STATS_RMB_* */
	SMC_NLA_STATS_T_CLNT_V1_SUCC,	/* u64 */
	SMC_NLA_STATS_T_CLNT_V2_SUCC,	/* u64 */
	SMC_NLA_STATS_T_SRV_V1_SUCC,	/* u64 */
	SMC_NLA_STATS_T_SRV_V2_SUCC,	/* u64 */
	SMC_NLA_STATS_T_SENDPAGE_CNT,	/* u64, kept for compatibility */
	SMC_NLA_STATS_T_SPLICE_CNT,	/* u64 */
	SMC_NLA_STATS_T_CORK_CNT,	/* u64 */
	SMC_NLA_STATS_T_NDLY_CNT,	/* u64 */
	SMC_NLA_STATS_T_URG_DATA_CNT,	/* u64 */
	SMC_NLA_STATS_T_RX_BYTES,	/* u64 */
	SMC_NLA_STATS_T_TX_BYTES,	/* u64 */
	SMC_NLA_STATS_T_RX_CNT,		/* u64 */
	SMC_NLA_STATS_T_TX_CNT,		/* u64 */
	SMC_NLA_STATS_T_RX_RMB_USAGE,	/* uint: bytes in receive buffers */
	SMC_NLA_STATS_T_TX_RMB_USAGE,	/* uint: bytes in send buffers */
	__SMC_NLA_STATS_T_MAX,
	SMC_NLA_STATS_T_MAX = __SMC_NLA_STATS_T_MAX - 1
};

/* Inside SMC_GEN_STATS */
enum {
	SMC_NLA_STATS_PAD,
	SMC_NLA_STATS_SMCD_TECH,	/* nest, SMC_NLA_STATS_T_* */
	SMC_NLA_STATS_SMCR_TECH,	/* nest, SMC_NLA_STATS_T_* */
	SMC_NLA_STATS_CLNT_HS_ERR_CNT,	/* u64: client handshake errors */
	SMC_NLA_STATS_SRV_HS_ERR_CNT,	/* u64: server handshake errors */
	__SMC_NLA_STATS_MAX,
	SMC_NLA_STATS_MAX = __SMC_NLA_STATS_MAX - 1
};

/* Inside SMC_GEN_FBACK_STATS */
enum {
	SMC_NLA_FBACK_STATS_PAD,
	SMC_NLA_FBACK_STATS_TYPE,	/* u8: 1 server side, 0 client side */
	SMC_NLA_FBACK_STATS_SRV_CNT,	/* u64: total server fallbacks */
	SMC_NLA_FBACK_STATS_CLNT_CNT,	/* u64: total client fallbacks */
	SMC_NLA_FBACK_STATS_RSN_CODE,	/* u32: fallback/decline reason */
	SMC_NLA_FBACK_STATS_RSN_CNT,	/* u16: occurrences of that reason */
	__SMC_NLA_FBACK_STATS_MAX,
	SMC_NLA_FBACK_STATS_MAX = __SMC_NLA_FBACK_STATS_MAX - 1
};

/* UEID table entries (DUMP/ADD/REMOVE_UEID) */
enum {
	SMC_NLA_EID_TABLE_UNSPEC,
	SMC_NLA_EID_TABLE_ENTRY,	/* string: SMC_MAX_EID_LEN chars + NUL */
	__SMC_NLA_EID_TABLE_MAX,
	SMC_NLA_EID_TABLE_MAX = __SMC_NLA_EID_TABLE_MAX - 1
};

/* System EID (DUMP_SEID) */
enum {
	SMC_NLA_SEID_UNSPEC,
	SMC_NLA_SEID_ENTRY,		/* string */
	SMC_NLA_SEID_ENABLED,		/* u8 */
	__SMC_NLA_SEID_TABLE_MAX,
	SMC_NLA_SEID_TABLE_MAX = __SMC_NLA_SEID_TABLE_MAX - 1
};

/* Handshake limitation (DUMP_HS_LIMITATION) */
enum {
	SMC_NLA_HS_LIMITATION_UNSPEC,
	SMC_NLA_HS_LIMITATION_ENABLED,	/* u8 */
	__SMC_NLA_HS_LIMITATION_MAX,
	SMC_NLA_HS_LIMITATION_MAX = __SMC_NLA_HS_LIMITATION_MAX - 1
};

/* Options for level SOL_SMC (286) */
#define SMC_LIMIT_HS			1	/* int: limit concurrent handshakes */

#endif /* _UAPI_LINUX_SMC_H */
