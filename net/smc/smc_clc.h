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
#ifndef _NET_SMC_CLC_H
#define _NET_SMC_CLC_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
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

/* OS type in a v2 Decline and the first-contact extension */
#define SMC_CLC_OS_LINUX	2

/* most UEIDs a received proposal may carry */
#define SMC_CLC_MAX_UEID	8

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
#define SMC_CLC_PROPOSAL_MAX	652	/* largest proposal Linux accepts */

/* buffer sizes: a 4-bit n stands for 16 KiB << n */
#define SMC_CLC_BUF_MIN_SHIFT	14
#define SMC_CLC_BUF_COMP_MAX_R	15	/* largest n SMC-R sends */
#define SMC_CLC_BUF_COMP_MAX	15	/* largest n a peer may send */

/* QP MTU, as the IB enum ib_mtu */
#define SMC_CLC_MTU_256		1
#define SMC_CLC_MTU_4096	5

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
 * struct smc_clc_reason - a decline/fallback reason code
 * @code: SMC_CLC_DECL_* value
 * @name: short name without the SMC_CLC_DECL_ prefix
 * @desc: one sentence for humans
 */
struct smc_clc_reason {
	u32		code;
	const char	*name;
	const char	*desc;
};

static inline void smc_clc_wire_size_check(void)
{
	BUILD_BUG_ON(sizeof(struct smc_clc_hdr) != SMC_CLC_HDR_LEN);
	BUILD_BUG_ON(sizeof(struct smc_clc_decline) + SMC_CLC_TRL_LEN !=
		     SMC_CLC_DECLINE_LEN_V1);
}

u8 smc_clc_bufsize_compress(unsigned int size, u8 max);
unsigned int smc_clc_bufsize_decompress(u8 n);
unsigned int smc_clc_mtu_to_bytes(u8 mtu);
u8 smc_clc_bytes_to_mtu(unsigned int bytes);
const struct smc_clc_reason *smc_clc_reason_find(u32 code);
const char *smc_clc_reason_name(u32 code);
const char *smc_clc_reason_desc(u32 code);
void smc_clc_hdr_encode(void *buf, const struct smc_clc_hdr_info *info);
int smc_clc_hdr_decode(const void *buf, size_t len,
		       struct smc_clc_hdr_info *info);
int smc_clc_msg_validate(const void *buf, size_t len,
			 struct smc_clc_hdr_info *info);
void smc_clc_trl_encode(void *buf, size_t len, bool smcd);

#endif /* _NET_SMC_CLC_H */
