/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CLC (Connection Layer Control) wire format: the messages the two peers
 * exchange over the TCP connection before they switch to RDMA, and the
 * pure helpers that encode, decode and validate them.  Nothing here
 * touches a socket or an RDMA device, so the KUnit suites in
 * smc_clc_kunit.c can test it anywhere.
 */
#ifndef _NET_SMC_CLC_WIRE_H
#define _NET_SMC_CLC_WIRE_H

#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/in6.h>
#include <linux/types.h>

/* CLC decline and fallback reason codes (peer diagnosis code space) */
#define SMC_CLC_DECL_MEM		0x01010000 /* out of memory */
#define SMC_CLC_DECL_TIMEOUT_CL		0x02010000 /* no CONFIRM_LINK */
#define SMC_CLC_DECL_TIMEOUT_AL		0x02020000 /* no ADD_LINK */
#define SMC_CLC_DECL_CNFERR		0x03000000 /* configuration error */
#define SMC_CLC_DECL_PEERNOSMC		0x03010000 /* no SMC TCP option */
#define SMC_CLC_DECL_IPSEC		0x03020000 /* IPsec in use */
#define SMC_CLC_DECL_NOSMCDEV		0x03030000 /* no SMC device */
#define SMC_CLC_DECL_NOSMCDDEV		0x03030001 /* no SMC-D device */
#define SMC_CLC_DECL_NOSMCRDEV		0x03030002 /* no SMC-R device */
#define SMC_CLC_DECL_NOISM2SUPP		0x03030003 /* no ISMv2 support */
#define SMC_CLC_DECL_NOV2EXT		0x03030004 /* no v2 extension */
#define SMC_CLC_DECL_NOV2DEXT		0x03030005 /* no SMC-Dv2 extension */
#define SMC_CLC_DECL_NOSEID		0x03030006 /* no SEID */
#define SMC_CLC_DECL_NOSMCD2DEV		0x03030007 /* no SMC-Dv2 device */
#define SMC_CLC_DECL_NOUEID		0x03030008 /* no UEID (match) */
#define SMC_CLC_DECL_RELEASEERR		0x03030009 /* release negotiation */
#define SMC_CLC_DECL_MAXCONNERR		0x0303000a /* max_conns negotiation */
#define SMC_CLC_DECL_MAXLINKERR		0x0303000b /* max_links negotiation */
#define SMC_CLC_DECL_MODEUNSUPP		0x03040000 /* mode not proposed */
#define SMC_CLC_DECL_RMBE_EC		0x03050000 /* peer uses eyecatchers */
#define SMC_CLC_DECL_OPTUNSUPP		0x03060000 /* fastopen requested */
#define SMC_CLC_DECL_DIFFPREFIX		0x03070000 /* IP prefix mismatch */
#define SMC_CLC_DECL_GETVLANERR		0x03080000 /* cannot get VLAN id */
#define SMC_CLC_DECL_ISMVLANERR		0x03090000 /* cannot register VLAN */
#define SMC_CLC_DECL_NOACTLINK		0x030a0000 /* no active link */
#define SMC_CLC_DECL_NOSRVLINK		0x030b0000 /* server link not found */
#define SMC_CLC_DECL_VERSMISMAT		0x030c0000 /* version mismatch */
#define SMC_CLC_DECL_MAX_DMB		0x030d0000 /* SMC-D DMB limit */
#define SMC_CLC_DECL_NOROUTE		0x030e0000 /* SMC-Rv2: no route */
#define SMC_CLC_DECL_NOINDIRECT		0x030f0000 /* SMC-Rv2: not indirect */
#define SMC_CLC_DECL_SYNCERR		0x04000000 /* link group out of sync */
#define SMC_CLC_DECL_PEERDECL		0x05000000 /* peer declined */
#define SMC_CLC_DECL_INTERR		0x09990000 /* internal error */
#define SMC_CLC_DECL_ERR_RTOK		0x09990001 /* rtoken handling */
#define SMC_CLC_DECL_ERR_RDYLNK		0x09990002 /* QP ready */
#define SMC_CLC_DECL_ERR_REGBUF		0x09990003 /* buffer registration */

/* message types, header byte 4 */
enum smc_clc_type {
	SMC_CLC_PROPOSAL	= 1,
	SMC_CLC_ACCEPT		= 2,
	SMC_CLC_CONFIRM		= 3,
	SMC_CLC_DECLINE		= 4,
};

/* path values of typev1 and typev2 (header byte 7) */
enum smc_clc_path {
	SMC_CLC_PATH_R		= 0,	/* SMC-R */
	SMC_CLC_PATH_D		= 1,	/* SMC-D */
	SMC_CLC_PATH_N		= 2,	/* none */
	SMC_CLC_PATH_B		= 3,	/* both */
};

#define SMC_CLC_V1		1
#define SMC_CLC_V2		2

/* header byte 7: bits 7-4 version, 3-2 typev2, 1-0 typev1 */
#define SMC_CLC_FLAG_FIRST_CONTACT	0x08	/* Accept, Confirm */
#define SMC_CLC_FLAG_OUT_OF_SYNC	0x08	/* Decline */

#define SMC_CLC_HDR_LEN		8
#define SMC_CLC_TRL_LEN		4

/* exact or minimum total lengths (header and trailer included) */
#define SMC_CLC_DECLINE_LEN_V1	28
#define SMC_CLC_DECLINE_LEN_V2	44
#define SMC_CLC_ACCEPT_R_LEN_V1	68
#define SMC_CLC_ACCEPT_R_MIN_V2	108
#define SMC_CLC_ACCEPT_D_LEN_V1	48
#define SMC_CLC_ACCEPT_D_MIN_V2	78
#define SMC_CLC_PROPOSAL_BASE	40	/* header .. iparea_offset */
#define SMC_CLC_PROPOSAL_MIN_V1	52	/* base, IPv4 prefix area, trailer */
#define SMC_CLC_PROPOSAL_MIN_V2	84	/* base, SMC-D/v2 area, trailer */
#define SMC_CLC_PROPOSAL_MAX	652	/* largest proposal Linux accepts */
/*
 * Linux reads an Accept into a 160-byte buffer and a Confirm into a
 * 652-byte one; only a message that fits has its trailer checked, and
 * the rest of a longer one is drained unchecked.  SMC_CLC_MAX_LEN is
 * also the largest Accept or Confirm we read at all: the biggest one a
 * current peer sends is a Confirm of 108 + 52 + 4 + 8 * 16 = 292 bytes.
 */
#define SMC_CLC_ACCEPT_TRL_MAX	160
#define SMC_CLC_MAX_LEN		652

#define SMC_CLC_PEER_ID_LEN	8
#define SMC_CLC_GID_LEN		16
#define SMC_CLC_MAC_LEN		6
#define SMC_CLC_EID_LEN		32
#define SMC_CLC_HOSTNAME_LEN	32
#define SMC_CLC_MAX_V6_PREFIX	8	/* IPv6 prefixes in a proposal */
#define SMC_CLC_MAX_UEID	8	/* UEIDs a received proposal may hold */
#define SMC_CLC_MAX_ISM_GIDS	8	/* SMC-Dv2 GID/CHID entries */
#define SMC_CLC_MAX_GIDS	8	/* Confirm GID list entries we accept */
#define SMC_CLC_DECL_DIAG_V2	4	/* extra diagnosis codes, v2 Decline */

/* First Contact Extension: the v2.0 form and the v2.1 form */
#define SMC_CLC_FCE_LEN_V20	36
#define SMC_CLC_FCE_LEN_V21	52

/* OS types of the v2 Decline and the First Contact Extension */
#define SMC_CLC_OS_ZOS		1
#define SMC_CLC_OS_LINUX	2
#define SMC_CLC_OS_AIX		3

/*
 * Fields of single bytes: the header's flags, and the bytes holding two
 * 4-bit values (the Accept's RMBE size and QP MTU, the first-contact
 * extension's OS type and release, the proposal's v2 release, the v2
 * Decline's OS type)
 */
#define SMC_CLC_HDR_VERSION	GENMASK(7, 4)
#define SMC_CLC_HDR_TYPEV2	GENMASK(3, 2)
#define SMC_CLC_HDR_TYPEV1	GENMASK(1, 0)
#define SMC_CLC_ACC_RMBE_SIZE	GENMASK(7, 4)
#define SMC_CLC_ACC_QP_MTU	GENMASK(3, 0)
#define SMC_CLC_ACC_QPN		GENMASK(23, 0)	/* the 3-byte QPN and PSN */
#define SMC_CLC_ACC_PSN		GENMASK(23, 0)
#define SMC_CLC_FCE_OS_TYPE	GENMASK(7, 4)
#define SMC_CLC_FCE_RELEASE	GENMASK(3, 0)
#define SMC_CLC_V2X_RELEASE	GENMASK(7, 4)
#define SMC_CLC_DECL_OS_TYPE	GENMASK(7, 4)

/* buffer sizes: a 4-bit n stands for 16 KiB << n */
#define SMC_CLC_BUF_MIN_SHIFT	14
#define SMC_CLC_BUF_COMP_MAX_R	15	/* largest n SMC-R sends */
#define SMC_CLC_BUF_COMP_MAX	15	/* largest n a peer may send */

/**
 * struct smc_clc_hdr - CLC common header, on the wire
 * @eyecatcher: "SMCR" or "SMCD" in EBCDIC
 * @type: enum smc_clc_type
 * @length: total length including header and trailer
 * @flags: bits 7-4 version, 3-2 typev2, 1-0 typev1
 */
struct smc_clc_hdr {
	u8	eyecatcher[4];
	u8	type;
	__be16	length;
	u8	flags;
} __packed;

/**
 * struct smc_clc_decline - CLC Decline up to the v1 trailer, on the wire
 * @hdr: common header, type SMC_CLC_DECLINE
 * @peer_id: sender's system id, may be zero
 * @diagnosis: SMC_CLC_DECL_* reason
 * @os_type: bits 7-4 OS type (v2), bits 3-0 reserved
 * @reserved: zero
 *
 * v1 continues with the trailer; v2 with four more diagnosis codes and
 * then the trailer.
 */
struct smc_clc_decline {
	struct smc_clc_hdr	hdr;
	u8			peer_id[8];
	__be32			diagnosis;
	u8			os_type;
	u8			reserved[3];
} __packed;

/**
 * struct smc_clc_hdr_info - a decoded CLC header
 * @type: enum smc_clc_type
 * @length: total message length
 * @version: 1 or 2 (or higher from a future peer)
 * @typev1: enum smc_clc_path, bits 1-0
 * @typev2: bits 3-2; in Accept/Confirm the first-contact flag sits here,
 *	in Decline the out-of-sync flag
 * @smcd: the header eyecatcher was "SMCD"
 */
struct smc_clc_hdr_info {
	u8	type;
	u16	length;
	u8	version;
	u8	typev1;
	u8	typev2;
	bool	smcd;
};

/**
 * struct smc_clc_ipv6_prefix_info - one IPv6 prefix of a proposal
 * @prefix: the prefix, address & mask
 * @len: prefix length in bits
 */
struct smc_clc_ipv6_prefix_info {
	struct in6_addr	prefix;
	u8		len;
};

/**
 * struct smc_clc_ism_gid_info - one ISM GID/CHID entry (SMC-D, parsed past)
 * @gid: ISM GID
 * @chid: ISM CHID
 */
struct smc_clc_ism_gid_info {
	u64	gid;
	u16	chid;
};

/**
 * struct smc_clc_proposal_info - a CLC Proposal in host form
 * @version: header version; smc_clc_proposal_encode() always sends 2
 * @typev1: enum smc_clc_path offered for v1; N means no prefix area
 * @typev2: enum smc_clc_path offered for v2; N means no v2 extension.
 *	Decoding a v1 proposal sets it to N, as Linux ignores it there.
 * @peer_id: sender's system id; sent only when @typev1 has R
 * @gid_v1: RoCE v1 GID of the preferred device; sent only with R in @typev1
 * @mac: MAC of the preferred RoCE port; sent only with R in @typev1
 * @iparea_offset: decoded offset of the prefix area from byte 40
 *	(0 or 40); the encoder writes 40 with a prefix area and 0 without
 * @ipv4_prefix: IPv4 subnet (address & mask), 0 for IPv6 connections
 * @prefix_len: IPv4 prefix length
 * @ipv6_cnt: number of entries in @ipv6, 0..SMC_CLC_MAX_V6_PREFIX
 * @ipv6: IPv6 prefixes of the TCP egress device
 * @ism_gid: SMC-D v1 ISM GID (bytes 40-47); sent only with D in @typev1
 * @ism_chid: SMC-D v1 ISM CHID
 * @eid_cnt: number of UEIDs in @eids, 0..SMC_CLC_MAX_UEID
 * @eids: UEIDs, blank padded, not NUL terminated
 * @ism_gid_cnt: entries in @ism_gids, 0..SMC_CLC_MAX_ISM_GIDS; D in
 *	@typev2 only
 * @release: SMC release the sender supports (v2 extension, bits 7-4)
 * @seid: SEID indicator (v2 extension bit 0); D in @typev2 only
 * @roce_gid: RoCEv2 GID for SMC-Rv2 (IPv4-mapped); R in @typev2 only
 * @max_conns: connections per link group (v2.1); R in @typev2 only
 * @max_links: links per link group (v2.1); R in @typev2 only
 * @feature_mask: v2.1 feature bits
 * @smcd_v2_ext: the SMC-Dv2 extension was found (decode); the encoder
 *	writes it whenever @typev2 has D
 * @system_eid: SEID of the SMC-Dv2 extension
 * @ism_gids: SMC-Dv2 ISM GID/CHID list
 */
struct smc_clc_proposal_info {
	u8	version;
	u8	typev1;
	u8	typev2;
	u8	peer_id[SMC_CLC_PEER_ID_LEN];
	u8	gid_v1[SMC_CLC_GID_LEN];
	u8	mac[SMC_CLC_MAC_LEN];
	u16	iparea_offset;
	__be32	ipv4_prefix;
	u8	prefix_len;
	u8	ipv6_cnt;
	struct smc_clc_ipv6_prefix_info ipv6[SMC_CLC_MAX_V6_PREFIX];
	u64	ism_gid;
	u16	ism_chid;
	u8	eid_cnt;
	u8	eids[SMC_CLC_MAX_UEID][SMC_CLC_EID_LEN];
	u8	ism_gid_cnt;
	u8	release;
	bool	seid;
	u8	roce_gid[SMC_CLC_GID_LEN];
	u8	max_conns;
	u8	max_links;
	u16	feature_mask;
	bool	smcd_v2_ext;
	u8	system_eid[SMC_CLC_EID_LEN];
	struct smc_clc_ism_gid_info ism_gids[SMC_CLC_MAX_ISM_GIDS];
};

/**
 * struct smc_clc_accept_info - an SMC-R Accept or Confirm in host form
 * @type: SMC_CLC_ACCEPT or SMC_CLC_CONFIRM
 * @version: 1 or 2 (decode: a higher version is read as 2, like Linux)
 * @first_contact: header bit 0x08, a new link group
 * @path: typev1, SMC_CLC_PATH_R (decode also reports D before failing)
 * @peer_id: sender's system id
 * @gid: sender's GID (RoCE v1 GID for v1, IPv4-mapped RoCEv2 GID for v2)
 * @mac: sender's MAC
 * @qpn: sender's QP number, 24 bits
 * @rmb_rkey: rkey of the sender's RMB on this link
 * @rmbe_idx: RMBE index in the RMB, 1-based
 * @rmbe_alert_token: sender's connection token, nonzero
 * @rmbe_size: compressed RMBE size, 0..15
 * @qp_mtu: QP MTU, enum ib_mtu 1..5 (a 4-bit field)
 * @rmb_vaddr: RMB address as registered
 * @psn: initial PSN of the sender's send queue, 24 bits
 * @eid: v2: negotiated EID
 * @fce_len: v2 first contact: SMC_CLC_FCE_LEN_V20 or _V21 as decoded;
 *	the encoder always writes the 52-byte form, as Linux does for SMC-R
 * @v2_direct: FCE: peer reachable without a gateway
 * @os_type: FCE: SMC_CLC_OS_*, 4 bits
 * @release: FCE: negotiated release, 4 bits
 * @hostname: FCE: sender's host name, blank padded
 * @max_conns: FCE v2.1: connections per link group
 * @max_links: FCE v2.1: links per link group
 * @feature_mask: FCE v2.1: feature bits
 * @vendor_exp: FCE v2.1: vendor experimental options
 * @gid_cnt: Confirm, v2 first contact: entries in @gids
 * @gids: Confirm, v2 first contact: the client's RoCEv2 GIDs
 */
struct smc_clc_accept_info {
	u8	type;
	u8	version;
	bool	first_contact;
	u8	path;
	u8	peer_id[SMC_CLC_PEER_ID_LEN];
	u8	gid[SMC_CLC_GID_LEN];
	u8	mac[SMC_CLC_MAC_LEN];
	u32	qpn;
	u32	rmb_rkey;
	u8	rmbe_idx;
	u32	rmbe_alert_token;
	u8	rmbe_size;
	u8	qp_mtu;
	u64	rmb_vaddr;
	u32	psn;
	u8	eid[SMC_CLC_EID_LEN];
	u8	fce_len;
	bool	v2_direct;
	u8	os_type;
	u8	release;
	u8	hostname[SMC_CLC_HOSTNAME_LEN];
	u8	max_conns;
	u8	max_links;
	u16	feature_mask;
	u32	vendor_exp;
	u8	gid_cnt;
	u8	gids[SMC_CLC_MAX_GIDS][SMC_CLC_GID_LEN];
};

/**
 * struct smc_clc_decline_info - a decoded CLC Decline
 * @version: 1 (28 bytes) or 2 (44 bytes)
 * @peer_id: sender's system id, may be zero
 * @diagnosis: SMC_CLC_DECL_* reason, host order
 * @out_of_sync: header bit 0x08: the sender's link group is out of sync
 * @os_type: v2: sender's OS type, SMC_CLC_OS_*
 * @diagnosis_v2: v2: the four additional diagnosis codes
 */
struct smc_clc_decline_info {
	u8	version;
	u8	peer_id[SMC_CLC_PEER_ID_LEN];
	u32	diagnosis;
	bool	out_of_sync;
	u8	os_type;
	u32	diagnosis_v2[SMC_CLC_DECL_DIAG_V2];
};

static inline void smc_clc_wire_size_check(void)
{
	BUILD_BUG_ON(sizeof(struct smc_clc_hdr) != SMC_CLC_HDR_LEN);
	BUILD_BUG_ON(sizeof(struct smc_clc_decline) + SMC_CLC_TRL_LEN !=
		     SMC_CLC_DECLINE_LEN_V1);
}

u8 smc_clc_bufsize_compress(unsigned int size, u8 max);
unsigned int smc_clc_bufsize_decompress(u8 n);
void smc_clc_hdr_encode(void *buf, const struct smc_clc_hdr_info *info);
int smc_clc_hdr_decode(const void *buf, size_t len,
		       struct smc_clc_hdr_info *info);
int smc_clc_msg_validate(const void *buf, size_t len,
			 struct smc_clc_hdr_info *info);
void smc_clc_trl_encode(void *buf, size_t len, bool smcd);
int smc_clc_frame_check(const void *hdr8, u8 expected_type, u16 *len);
u32 smc_clc_decode_reason(int err);
int smc_clc_proposal_encode(void *buf, size_t size,
			    const struct smc_clc_proposal_info *p);
int smc_clc_proposal_decode(const void *buf, size_t len,
			    struct smc_clc_proposal_info *p);
int smc_clc_accept_encode(void *buf, size_t size,
			  const struct smc_clc_accept_info *a);
int smc_clc_accept_decode(const void *buf, size_t len,
			  struct smc_clc_accept_info *a);
int smc_clc_decline_encode(void *buf, size_t size, u8 version,
			   const u8 *peer_id, u32 diagnosis, bool out_of_sync,
			   u8 os_type);
int smc_clc_decline_decode(const void *buf, size_t len,
			   struct smc_clc_decline_info *d);

#endif /* _NET_SMC_CLC_WIRE_H */
