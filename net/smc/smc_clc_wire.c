// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CLC wire helpers: the buffer-size encoding, and header encode/decode
 * with the per-type length rules a received message must meet before
 * anything else reads it.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/string.h>

#include "smc_clc_wire.h"
#include "smc_compat.h"

/* "SMCR" and "SMCD" in EBCDIC */
static const u8 smc_clc_eye_r[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };
static const u8 smc_clc_eye_d[4] = { 0xe2, 0xd4, 0xc3, 0xc4 };

/**
 * smc_clc_bufsize_compress() - encode a buffer size as 4-bit n
 * @size: buffer size in bytes
 * @max: largest n allowed (SMC_CLC_BUF_COMP_MAX_R for SMC-R)
 *
 * Rounds up to the next 16 KiB << n, and limits n to @max.
 *
 * Context: any context.
 * Return: n such that 16 KiB << n >= @size, at most @max.
 */
u8 smc_clc_bufsize_compress(unsigned int size, u8 max)
{
	unsigned int n;

	if (size <= 1U << SMC_CLC_BUF_MIN_SHIFT)
		return 0;
	n = order_base_2(size) - SMC_CLC_BUF_MIN_SHIFT;
	return min_t(unsigned int, n, max);
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_bufsize_compress);

/**
 * smc_clc_bufsize_decompress() - decode a 4-bit buffer size
 * @n: compressed size as received, 0..15
 *
 * Context: any context.
 * Return: 16 KiB << @n, or 0 if @n does not fit in four bits.
 */
unsigned int smc_clc_bufsize_decompress(u8 n)
{
	if (n > SMC_CLC_BUF_COMP_MAX)
		return 0;
	return 1U << (n + SMC_CLC_BUF_MIN_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_bufsize_decompress);

/**
 * smc_clc_hdr_encode() - write a CLC header
 * @buf: at least SMC_CLC_HDR_LEN bytes
 * @info: the values; @info->typev2 carries the first-contact or
 *	out-of-sync flag where the type uses one
 *
 * Context: any context.
 */
void smc_clc_hdr_encode(void *buf, const struct smc_clc_hdr_info *info)
{
	struct smc_clc_hdr hdr;

	smc_clc_wire_size_check();
	memcpy(hdr.eyecatcher, info->smcd ? smc_clc_eye_d : smc_clc_eye_r,
	       sizeof(hdr.eyecatcher));
	hdr.type = info->type;
	hdr.length = cpu_to_be16(info->length);
	hdr.flags = FIELD_PREP(SMC_CLC_HDR_VERSION, info->version) |
		    FIELD_PREP(SMC_CLC_HDR_TYPEV2, info->typev2) |
		    FIELD_PREP(SMC_CLC_HDR_TYPEV1, info->typev1);
	memcpy(buf, &hdr, sizeof(hdr));
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_hdr_encode);

/**
 * smc_clc_trl_encode() - write the trailer eyecatcher of a message
 * @buf: the whole message
 * @len: its length, at least SMC_CLC_HDR_LEN + SMC_CLC_TRL_LEN
 * @smcd: write "SMCD" instead of "SMCR"
 *
 * Context: any context.
 */
void smc_clc_trl_encode(void *buf, size_t len, bool smcd)
{
	memcpy((u8 *)buf + len - SMC_CLC_TRL_LEN,
	       smcd ? smc_clc_eye_d : smc_clc_eye_r, SMC_CLC_TRL_LEN);
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_trl_encode);

static bool smc_clc_eye_valid(const u8 *eye, bool *smcd)
{
	if (!memcmp(eye, smc_clc_eye_r, sizeof(smc_clc_eye_r))) {
		*smcd = false;
		return true;
	}
	if (!memcmp(eye, smc_clc_eye_d, sizeof(smc_clc_eye_d))) {
		*smcd = true;
		return true;
	}
	return false;
}

/**
 * smc_clc_hdr_decode() - decode and sanity-check a CLC header
 * @buf: received bytes
 * @len: how many, at least SMC_CLC_HDR_LEN
 * @info: filled in on success
 *
 * Checks what the header alone can tell: eyecatcher, known type, a
 * version of at least 1, and a length that can hold header and trailer.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a short buffer, -EPROTO for a bad header.
 */
int smc_clc_hdr_decode(const void *buf, size_t len,
		       struct smc_clc_hdr_info *info)
{
	struct smc_clc_hdr hdr;
	bool smcd;

	if (len < SMC_CLC_HDR_LEN)
		return -EINVAL;
	memcpy(&hdr, buf, sizeof(hdr));
	if (!smc_clc_eye_valid(hdr.eyecatcher, &smcd))
		return -EPROTO;
	if (hdr.type < SMC_CLC_PROPOSAL || hdr.type > SMC_CLC_DECLINE)
		return -EPROTO;
	info->type = hdr.type;
	info->length = be16_to_cpu(hdr.length);
	info->version = FIELD_GET(SMC_CLC_HDR_VERSION, hdr.flags);
	info->typev2 = FIELD_GET(SMC_CLC_HDR_TYPEV2, hdr.flags);
	info->typev1 = FIELD_GET(SMC_CLC_HDR_TYPEV1, hdr.flags);
	info->smcd = smcd;
	if (info->version < SMC_CLC_V1)
		return -EPROTO;
	if (info->length < SMC_CLC_HDR_LEN + SMC_CLC_TRL_LEN)
		return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_hdr_decode);

/*
 * Wire layouts.  All are packed, so the decoders may point them at any
 * byte of a received buffer; smc_clc_layout_check() pins their sizes.
 */

/* Proposal bytes 0-39 */
struct smc_clc_prop_wire {
	struct smc_clc_hdr	hdr;
	u8			peer_id[SMC_CLC_PEER_ID_LEN];
	u8			gid[SMC_CLC_GID_LEN];
	u8			mac[SMC_CLC_MAC_LEN];
	__be16			iparea_offset;	/* from byte 40 */
} __packed;

/* Proposal bytes 40-79: SMC-D / v2 area */
struct smc_clc_prop_smcd_wire {
	__be64	ism_gid;
	__be16	ism_chid;
	__be16	v2_ext_offset;		/* from byte 52, 0: none */
	u8	vendor_oui[3];
	u8	vendor_opts[5];
	u8	reserved[20];
} __packed;

/* Proposal IP prefix area, followed by ipv6_cnt IPv6 prefixes */
struct smc_clc_prop_prefix_wire {
	__be32	subnet;
	u8	prefix_len;
	u8	reserved[2];
	u8	ipv6_cnt;
} __packed;

struct smc_clc_ipv6_wire {
	u8	prefix[16];
	u8	prefix_len;
} __packed;

/* Proposal v2 extension, followed by eid_cnt UEIDs */
struct smc_clc_v2_ext_wire {
	u8	eid_cnt;
	u8	ism_gid_cnt;
	u8	reserved;
	u8	flags;			/* bits 7-4 release, bit 0 SEID */
	u8	reserved2[2];
	__be16	smcd_v2_ext_offset;	/* from the byte after it */
	u8	roce_gid[SMC_CLC_GID_LEN];
	u8	max_conns;
	u8	max_links;
	__be16	feature_mask;
	u8	reserved3[12];
} __packed;

/* Proposal SMC-Dv2 extension, followed by ism_gid_cnt GID/CHID entries */
struct smc_clc_smcd_v2_ext_wire {
	u8	system_eid[SMC_CLC_EID_LEN];
	u8	reserved[16];
} __packed;

struct smc_clc_gidchid_wire {
	__be64	gid;
	__be16	chid;
} __packed;

/* SMC-R Accept/Confirm up to the v1 trailer */
struct smc_clc_accept_wire {
	struct smc_clc_hdr	hdr;
	u8			peer_id[SMC_CLC_PEER_ID_LEN];
	u8			gid[SMC_CLC_GID_LEN];
	u8			mac[SMC_CLC_MAC_LEN];
	u8			qpn[3];
	__be32			rmb_rkey;
	u8			rmbe_idx;
	__be32			rmbe_alert_token;
	u8			size_mtu;	/* bits 7-4 size, 3-0 MTU */
	u8			reserved;
	__be64			rmb_vaddr;
	u8			reserved2;
	u8			psn[3];
} __packed;

/* SMC-R Accept/Confirm v2 part after byte 64 */
struct smc_clc_accept_v2_wire {
	u8	eid[SMC_CLC_EID_LEN];
	u8	reserved[8];
} __packed;

/* First Contact Extension; the v2.0 form ends after hostname */
struct smc_clc_fce_wire {
	u8	direct;			/* bit 7 v2_direct */
	u8	os_release;		/* bits 7-4 OS type, 3-0 release */
	u8	reserved[2];
	u8	hostname[SMC_CLC_HOSTNAME_LEN];
	u8	max_conns;
	u8	max_links;
	__be16	feature_mask;
	__be32	vendor_exp;
	u8	reserved2[8];
} __packed;

/* Confirm v2 first contact: GID list header, then gid_cnt GIDs */
struct smc_clc_gid_list_wire {
	u8	gid_cnt;
	u8	reserved[3];
} __packed;

/* SMC-D Accept/Confirm up to its v1/v2 split; recognised, not used */
struct smc_clc_accept_d_wire {
	struct smc_clc_hdr	hdr;
	__be64			gid;
	__be64			dmb_token;
	u8			dmbe_idx;
	u8			dmbe_size;	/* bits 7-4 */
	u8			reserved[2];
	__be32			link_id;
} __packed;

/* SMC-D Accept/Confirm v2 part; v1 has 12 reserved bytes instead */
struct smc_clc_accept_d_v2_wire {
	__be16	chid;
	u8	eid[SMC_CLC_EID_LEN];
	__be64	gid_ext;
} __packed;

/* Decline v2 up to the trailer */
struct smc_clc_decline_v2 {
	struct smc_clc_decline	d;
	__be32			diagnosis_v2[SMC_CLC_DECL_DIAG_V2];
} __packed;

#define SMC_CLC_PROP_SMCD_OFF	SMC_CLC_PROPOSAL_BASE		/* 40 */
#define SMC_CLC_PROP_V2_BASE	52	/* v2_ext_offset counts from here */
#define SMC_CLC_V2_EXT_OFF_MAX	172	/* largest v2_ext_offset Linux takes */
#define SMC_CLC_SMCD_EXT_OFF_MAX 288	/* same for smcd_v2_ext_offset */
#define SMC_CLC_SMCD_EXT_BASE	8	/* smcd_v2_ext_offset counts from ext+8 */

static void smc_clc_layout_check(void)
{
	smc_clc_wire_size_check();
	BUILD_BUG_ON(sizeof(struct smc_clc_prop_wire) != SMC_CLC_PROPOSAL_BASE);
	BUILD_BUG_ON(offsetof(struct smc_clc_prop_wire, iparea_offset) != 38);
	BUILD_BUG_ON(sizeof(struct smc_clc_prop_smcd_wire) != 40);
	BUILD_BUG_ON(SMC_CLC_PROP_SMCD_OFF +
		     offsetofend(struct smc_clc_prop_smcd_wire, v2_ext_offset) !=
		     SMC_CLC_PROP_V2_BASE);
	BUILD_BUG_ON(sizeof(struct smc_clc_prop_prefix_wire) != 8);
	BUILD_BUG_ON(sizeof(struct smc_clc_ipv6_wire) != 17);
	BUILD_BUG_ON(sizeof(struct smc_clc_v2_ext_wire) != 40);
	BUILD_BUG_ON(offsetofend(struct smc_clc_v2_ext_wire,
				 smcd_v2_ext_offset) != SMC_CLC_SMCD_EXT_BASE);
	BUILD_BUG_ON(offsetof(struct smc_clc_v2_ext_wire, max_conns) != 24);
	BUILD_BUG_ON(sizeof(struct smc_clc_smcd_v2_ext_wire) != 48);
	BUILD_BUG_ON(sizeof(struct smc_clc_gidchid_wire) != 10);
	/* the largest proposal: every part at its maximum */
	BUILD_BUG_ON(SMC_CLC_PROPOSAL_BASE +
		     sizeof(struct smc_clc_prop_smcd_wire) +
		     sizeof(struct smc_clc_prop_prefix_wire) +
		     SMC_CLC_MAX_V6_PREFIX * sizeof(struct smc_clc_ipv6_wire) +
		     sizeof(struct smc_clc_v2_ext_wire) +
		     SMC_CLC_MAX_UEID * SMC_CLC_EID_LEN +
		     sizeof(struct smc_clc_smcd_v2_ext_wire) +
		     SMC_CLC_MAX_ISM_GIDS * sizeof(struct smc_clc_gidchid_wire) +
		     SMC_CLC_TRL_LEN != SMC_CLC_PROPOSAL_MAX);
	BUILD_BUG_ON(sizeof(struct smc_clc_accept_wire) + SMC_CLC_TRL_LEN !=
		     SMC_CLC_ACCEPT_R_LEN_V1);
	BUILD_BUG_ON(offsetof(struct smc_clc_accept_wire, size_mtu) != 50);
	BUILD_BUG_ON(offsetof(struct smc_clc_accept_wire, rmb_vaddr) != 52);
	BUILD_BUG_ON(sizeof(struct smc_clc_accept_wire) +
		     sizeof(struct smc_clc_accept_v2_wire) + SMC_CLC_TRL_LEN !=
		     SMC_CLC_ACCEPT_R_MIN_V2);
	BUILD_BUG_ON(sizeof(struct smc_clc_fce_wire) != SMC_CLC_FCE_LEN_V21);
	BUILD_BUG_ON(offsetof(struct smc_clc_fce_wire, max_conns) !=
		     SMC_CLC_FCE_LEN_V20);
	BUILD_BUG_ON(sizeof(struct smc_clc_gid_list_wire) != 4);
	BUILD_BUG_ON(sizeof(struct smc_clc_accept_d_wire) + 12 +
		     SMC_CLC_TRL_LEN != SMC_CLC_ACCEPT_D_LEN_V1);
	BUILD_BUG_ON(sizeof(struct smc_clc_accept_d_wire) +
		     sizeof(struct smc_clc_accept_d_v2_wire) +
		     SMC_CLC_TRL_LEN != SMC_CLC_ACCEPT_D_MIN_V2);
	BUILD_BUG_ON(sizeof(struct smc_clc_decline_v2) + SMC_CLC_TRL_LEN !=
		     SMC_CLC_DECLINE_LEN_V2);
	/* the biggest Confirm a current peer sends */
	BUILD_BUG_ON(SMC_CLC_ACCEPT_R_MIN_V2 + SMC_CLC_FCE_LEN_V21 +
		     sizeof(struct smc_clc_gid_list_wire) +
		     SMC_CLC_MAX_GIDS * SMC_CLC_GID_LEN > SMC_CLC_MAX_LEN);
}

static bool smc_clc_has_r(u8 path)
{
	return path == SMC_CLC_PATH_R || path == SMC_CLC_PATH_B;
}

static bool smc_clc_has_d(u8 path)
{
	return path == SMC_CLC_PATH_D || path == SMC_CLC_PATH_B;
}

/* where the parts of a received proposal sit; 0 means absent */
struct smc_clc_prop_layout {
	size_t	pfx;
	size_t	ext;
	size_t	smcd_ext;
};

/*
 * Lay out a received proposal and apply Linux's rules to it: the prefix
 * area at 40 + iparea_offset (at most 40), at most 8 IPv6 prefixes, 8
 * UEIDs and 8 ISM GIDs, v2_ext_offset 1..172, and a length that is
 * exactly the sum of the parts present.  Linux reads the IPv6 count at
 * the prefix position even when typev1 is N, so that check applies to
 * every proposal too.  Unlike Linux, which reads into a zeroed 652-byte
 * buffer, we also require each extension to lie inside the message:
 * Linux's own proposals always do.  A v2 proposal offering nothing is
 * well formed; the server declines it.
 */
static int smc_clc_prop_parse(const u8 *buf, size_t len, u8 version,
			      u8 typev1, u8 typev2,
			      struct smc_clc_prop_layout *l)
{
	const struct smc_clc_prop_wire *w = (const void *)buf;
	const struct smc_clc_prop_smcd_wire *sd;
	const struct smc_clc_v2_ext_wire *x;
	size_t off, pfx, need, end, pfx_len;
	u8 cnt = 0, eids, gids;
	u16 v2o, so;

	memset(l, 0, sizeof(*l));
	if (len < SMC_CLC_PROPOSAL_MIN_V1 || len > SMC_CLC_PROPOSAL_MAX)
		return -EPROTO;
	end = len - SMC_CLC_TRL_LEN;
	off = be16_to_cpu(w->iparea_offset);
	if (off > sizeof(*sd))
		return -EPROTO;
	pfx = SMC_CLC_PROPOSAL_BASE + off;
	if (pfx + sizeof(struct smc_clc_prop_prefix_wire) <= len)
		cnt = ((const struct smc_clc_prop_prefix_wire *)
		       (buf + pfx))->ipv6_cnt;
	if (cnt > SMC_CLC_MAX_V6_PREFIX)
		return -EPROTO;
	pfx_len = sizeof(struct smc_clc_prop_prefix_wire) +
		  cnt * sizeof(struct smc_clc_ipv6_wire);

	if (version == SMC_CLC_V1) {
		if (typev1 == SMC_CLC_PATH_N)
			return -EPROTO;
		if (len != pfx + pfx_len + SMC_CLC_TRL_LEN)
			return -EPROTO;
		l->pfx = pfx;
		return 0;
	}

	if (len < SMC_CLC_PROPOSAL_MIN_V2)
		return -EPROTO;
	need = SMC_CLC_PROPOSAL_MIN_V2;
	if (typev1 != SMC_CLC_PATH_N) {
		if (pfx + pfx_len > end)
			return -EPROTO;
		l->pfx = pfx;
		need += pfx_len;
	}
	if (typev2 == SMC_CLC_PATH_N)
		return len == need ? 0 : -EPROTO;

	/* the v2 extension needs the SMC-D area where Linux looks for it */
	sd = (const void *)(buf + SMC_CLC_PROP_SMCD_OFF);
	v2o = be16_to_cpu(sd->v2_ext_offset);
	if (smc_clc_has_d(typev1) && off != sizeof(*sd))
		return -EPROTO;
	if (!v2o || v2o > SMC_CLC_V2_EXT_OFF_MAX)
		return -EPROTO;
	l->ext = SMC_CLC_PROP_V2_BASE + v2o;
	if (l->ext + sizeof(*x) > end)
		return -EPROTO;
	x = (const void *)(buf + l->ext);
	eids = x->eid_cnt;
	if (eids > SMC_CLC_MAX_UEID)
		return -EPROTO;
	if (l->ext + sizeof(*x) + eids * SMC_CLC_EID_LEN > end)
		return -EPROTO;
	need += sizeof(*x) + eids * SMC_CLC_EID_LEN;
	if (smc_clc_has_d(typev2)) {
		gids = x->ism_gid_cnt;
		if (gids > SMC_CLC_MAX_ISM_GIDS)
			return -EPROTO;
		need += sizeof(struct smc_clc_smcd_v2_ext_wire) +
			gids * sizeof(struct smc_clc_gidchid_wire);
		/* without a usable offset Linux declines NOV2DEXT later */
		so = be16_to_cpu(x->smcd_v2_ext_offset);
		if (so && so <= SMC_CLC_SMCD_EXT_OFF_MAX) {
			l->smcd_ext = l->ext + SMC_CLC_SMCD_EXT_BASE + so;
			if (l->smcd_ext +
			    sizeof(struct smc_clc_smcd_v2_ext_wire) +
			    gids * sizeof(struct smc_clc_gidchid_wire) > end)
				return -EPROTO;
		}
	}
	return len == need ? 0 : -EPROTO;
}

/* Linux checks a trailer only when the message fits its receive buffer */
static bool smc_clc_trl_checked(u8 type, size_t len)
{
	switch (type) {
	case SMC_CLC_DECLINE:
		return false;
	case SMC_CLC_ACCEPT:
		return len <= SMC_CLC_ACCEPT_TRL_MAX;
	default:
		return len <= SMC_CLC_MAX_LEN;
	}
}

/**
 * smc_clc_msg_validate() - check a complete received CLC message
 * @buf: the message, exactly as long as its header says
 * @len: bytes in @buf
 * @info: filled in with the decoded header on success
 *
 * Applies the per-type length rules of current Linux peers: a Decline
 * is exactly 28 (v1) or 44 (v2) bytes and its trailer is not checked;
 * an SMC-R Accept or Confirm is exactly 68 bytes in v1 and at least 108
 * in v2 (SMC-D: 48 and 78); a Proposal is exactly as long as the parts
 * it announces.  The trailer of an Accept is checked up to 160 bytes,
 * that of a Confirm or Proposal up to 652: the receive buffers of Linux.
 *
 * Context: any context.
 * Return: 0, -EINVAL for a short buffer, -EPROTO for a malformed message.
 */
int smc_clc_msg_validate(const void *buf, size_t len,
			 struct smc_clc_hdr_info *info)
{
	struct smc_clc_prop_layout l;
	const u8 *p = buf;
	bool v2, smcd;
	int rc, need;

	rc = smc_clc_hdr_decode(buf, len, info);
	if (rc)
		return rc;
	if (info->length != len)
		return -EPROTO;
	v2 = info->version >= SMC_CLC_V2;

	switch (info->type) {
	case SMC_CLC_DECLINE:
		need = v2 ? SMC_CLC_DECLINE_LEN_V2 : SMC_CLC_DECLINE_LEN_V1;
		return len == need ? 0 : -EPROTO;
	case SMC_CLC_ACCEPT:
	case SMC_CLC_CONFIRM:
		if (info->typev1 == SMC_CLC_PATH_R) {
			if (v2 ? len < SMC_CLC_ACCEPT_R_MIN_V2 :
				 len != SMC_CLC_ACCEPT_R_LEN_V1)
				return -EPROTO;
		} else if (info->typev1 == SMC_CLC_PATH_D) {
			if (v2 ? len < SMC_CLC_ACCEPT_D_MIN_V2 :
				 len != SMC_CLC_ACCEPT_D_LEN_V1)
				return -EPROTO;
		} else {
			return -EPROTO;
		}
		break;
	default:	/* SMC_CLC_PROPOSAL */
		rc = smc_clc_prop_parse(p, len, info->version, info->typev1,
					info->typev2, &l);
		if (rc)
			return rc;
		break;
	}
	if (smc_clc_trl_checked(info->type, len) &&
	    !smc_clc_eye_valid(p + len - SMC_CLC_TRL_LEN, &smcd))
		return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_msg_validate);

/**
 * smc_clc_frame_check() - check a peeked CLC header before reading on
 * @hdr8: the first SMC_CLC_HDR_LEN bytes of the message
 * @expected_type: the type the handshake waits for; a Decline is
 *	always acceptable
 * @len: set to the total message length on success
 *
 * Rejects what Linux rejects before it reads a message (bad eyecatcher,
 * unknown or unexpected type, version 0) and, earlier than Linux, a
 * length no message of that type and version can have: Decline 28 (v1)
 * or 44 (v2); Proposal 52 (v1) or 84 (v2) .. 652; SMC-R Accept/Confirm
 * 68 (v1) or 108 (v2), SMC-D 48 or 78, up to SMC_CLC_MAX_LEN, and only
 * with path R or D.  The caller then reads exactly *@len bytes and
 * decodes them with the decoder of the type.
 *
 * Context: any context.
 * Return: 0, or -EPROTO: the stream is not usable for CLC any more.
 */
int smc_clc_frame_check(const void *hdr8, u8 expected_type, u16 *len)
{
	struct smc_clc_hdr_info h;
	u16 min, max;
	bool v2;

	if (smc_clc_hdr_decode(hdr8, SMC_CLC_HDR_LEN, &h))
		return -EPROTO;
	if (h.type != expected_type && h.type != SMC_CLC_DECLINE)
		return -EPROTO;
	v2 = h.version >= SMC_CLC_V2;
	switch (h.type) {
	case SMC_CLC_DECLINE:
		min = v2 ? SMC_CLC_DECLINE_LEN_V2 : SMC_CLC_DECLINE_LEN_V1;
		max = min;
		break;
	case SMC_CLC_PROPOSAL:
		min = v2 ? SMC_CLC_PROPOSAL_MIN_V2 : SMC_CLC_PROPOSAL_MIN_V1;
		max = SMC_CLC_PROPOSAL_MAX;
		break;
	default:	/* Accept, Confirm */
		if (h.typev1 == SMC_CLC_PATH_R) {
			min = v2 ? SMC_CLC_ACCEPT_R_MIN_V2 :
				   SMC_CLC_ACCEPT_R_LEN_V1;
			max = v2 ? SMC_CLC_MAX_LEN : SMC_CLC_ACCEPT_R_LEN_V1;
		} else if (h.typev1 == SMC_CLC_PATH_D) {
			min = v2 ? SMC_CLC_ACCEPT_D_MIN_V2 :
				   SMC_CLC_ACCEPT_D_LEN_V1;
			max = v2 ? SMC_CLC_MAX_LEN : SMC_CLC_ACCEPT_D_LEN_V1;
		} else {
			return -EPROTO;
		}
		break;
	}
	if (h.length < min || h.length > max)
		return -EPROTO;
	*len = h.length;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_frame_check);

/**
 * smc_clc_decode_reason() - the Decline to send after a failed decode
 * @err: what smc_clc_frame_check() or a smc_clc_*_decode() returned
 *
 * Upstream Linux sends no Decline for a malformed CLC message: its
 * reader fails with -EPROTO, and both the client and the listener then
 * abort the handshake (socket error EPROTO, no fallback) instead of
 * declining.  We do the same.  The one decode failure that is a
 * well-formed message is an SMC-D Accept or Confirm (-EOPNOTSUPP): we
 * never propose SMC-D, so, as Linux does for an Accept of a path it did
 * not propose, the answer is a Decline with MODEUNSUPP and fallback.
 *
 * Context: any context.
 * Return: SMC_CLC_DECL_MODEUNSUPP for -EOPNOTSUPP, else 0 meaning "send
 * no Decline, abort the connection".
 */
u32 smc_clc_decode_reason(int err)
{
	return err == -EOPNOTSUPP ? SMC_CLC_DECL_MODEUNSUPP : 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_decode_reason);

static size_t smc_clc_prop_len(const struct smc_clc_proposal_info *p)
{
	size_t len = SMC_CLC_PROPOSAL_MIN_V2;

	if (p->typev1 != SMC_CLC_PATH_N)
		len += sizeof(struct smc_clc_prop_prefix_wire) +
		       p->ipv6_cnt * sizeof(struct smc_clc_ipv6_wire);
	if (p->typev2 != SMC_CLC_PATH_N)
		len += sizeof(struct smc_clc_v2_ext_wire) +
		       p->eid_cnt * SMC_CLC_EID_LEN;
	if (smc_clc_has_d(p->typev2))
		len += sizeof(struct smc_clc_smcd_v2_ext_wire) +
		       p->ism_gid_cnt * sizeof(struct smc_clc_gidchid_wire);
	return len;
}

static void smc_clc_prop_put_v2(u8 *buf, size_t ext,
				const struct smc_clc_proposal_info *p)
{
	struct smc_clc_v2_ext_wire *x = (void *)(buf + ext);
	struct smc_clc_smcd_v2_ext_wire *sx;
	struct smc_clc_gidchid_wire *gc;
	bool d2 = smc_clc_has_d(p->typev2);
	size_t eids = p->eid_cnt * SMC_CLC_EID_LEN;
	unsigned int i;

	x->eid_cnt = p->eid_cnt;
	x->flags = FIELD_PREP(SMC_CLC_V2X_RELEASE, p->release);
	x->feature_mask = cpu_to_be16(p->feature_mask);
	memcpy(x + 1, p->eids, eids);
	if (smc_clc_has_r(p->typev2)) {
		memcpy(x->roce_gid, p->roce_gid, sizeof(x->roce_gid));
		x->max_conns = p->max_conns;
		x->max_links = p->max_links;
	}
	if (!d2)
		return;
	x->ism_gid_cnt = p->ism_gid_cnt;
	x->flags |= p->seid ? 1 : 0;
	/* the SMC-Dv2 extension follows the UEIDs directly */
	x->smcd_v2_ext_offset = cpu_to_be16(sizeof(*x) - SMC_CLC_SMCD_EXT_BASE +
					    eids);
	sx = (void *)((u8 *)(x + 1) + eids);
	if (p->seid)
		memcpy(sx->system_eid, p->system_eid, sizeof(sx->system_eid));
	gc = (void *)(sx + 1);
	for (i = 0; i < p->ism_gid_cnt; i++) {
		gc[i].gid = cpu_to_be64(p->ism_gids[i].gid);
		gc[i].chid = cpu_to_be16(p->ism_gids[i].chid);
	}
}

/**
 * smc_clc_proposal_encode() - build a CLC Proposal as Linux sends it
 * @buf: output
 * @size: room in @buf
 * @p: the values; @p->version is ignored
 *
 * Writes header version 2 and "SMCR" eyecatchers, the 40-byte SMC-D/v2
 * area always, iparea_offset 40 with a prefix area (typev1 not N) else
 * 0, v2_ext_offset 28 plus the prefix area size, and with D in typev2
 * smcd_v2_ext_offset 32 + 32 * eid_cnt.  Like Linux it sends peer id,
 * GID and MAC only with R in typev1, the ISM GID only with D in typev1,
 * the RoCEv2 GID and limits only with R in typev2, and the ISM GID
 * count, SEID flag and SEID only with D in typev2.
 *
 * Context: any context.
 * Return: the message length, -EINVAL for values that cannot be sent
 * (no path, a path or count out of range), -EMSGSIZE if @size is short.
 */
int smc_clc_proposal_encode(void *buf, size_t size,
			    const struct smc_clc_proposal_info *p)
{
	struct smc_clc_hdr_info h = {
		.type = SMC_CLC_PROPOSAL, .version = SMC_CLC_V2,
		.typev1 = p->typev1, .typev2 = p->typev2,
	};
	struct smc_clc_prop_smcd_wire *sd;
	struct smc_clc_prop_prefix_wire *pw;
	struct smc_clc_ipv6_wire *v6;
	struct smc_clc_prop_wire *w;
	size_t len, pfx_len = 0;
	unsigned int i;
	u8 *b = buf;

	smc_clc_layout_check();
	if (p->typev1 > SMC_CLC_PATH_B || p->typev2 > SMC_CLC_PATH_B ||
	    (p->typev1 == SMC_CLC_PATH_N && p->typev2 == SMC_CLC_PATH_N))
		return -EINVAL;
	if (p->typev1 != SMC_CLC_PATH_N && p->ipv6_cnt > SMC_CLC_MAX_V6_PREFIX)
		return -EINVAL;
	if (p->typev2 != SMC_CLC_PATH_N &&
	    (p->eid_cnt > SMC_CLC_MAX_UEID ||
	     p->release > FIELD_MAX(SMC_CLC_V2X_RELEASE)))
		return -EINVAL;
	if (smc_clc_has_d(p->typev2) && p->ism_gid_cnt > SMC_CLC_MAX_ISM_GIDS)
		return -EINVAL;
	len = smc_clc_prop_len(p);
	if (len > size)
		return -EMSGSIZE;

	memset(buf, 0, len);
	h.length = len;
	smc_clc_hdr_encode(buf, &h);
	w = buf;
	if (smc_clc_has_r(p->typev1)) {
		memcpy(w->peer_id, p->peer_id, sizeof(w->peer_id));
		memcpy(w->gid, p->gid_v1, sizeof(w->gid));
		memcpy(w->mac, p->mac, sizeof(w->mac));
	}
	sd = (void *)(b + SMC_CLC_PROP_SMCD_OFF);
	if (smc_clc_has_d(p->typev1)) {
		sd->ism_gid = cpu_to_be64(p->ism_gid);
		sd->ism_chid = cpu_to_be16(p->ism_chid);
	}
	if (p->typev1 != SMC_CLC_PATH_N) {
		w->iparea_offset = cpu_to_be16(sizeof(*sd));
		pw = (void *)(sd + 1);
		pw->subnet = p->ipv4_prefix;
		pw->prefix_len = p->prefix_len;
		pw->ipv6_cnt = p->ipv6_cnt;
		v6 = (void *)(pw + 1);
		for (i = 0; i < p->ipv6_cnt; i++) {
			memcpy(v6[i].prefix, &p->ipv6[i].prefix,
			       sizeof(v6[i].prefix));
			v6[i].prefix_len = p->ipv6[i].len;
		}
		pfx_len = sizeof(*pw) + p->ipv6_cnt * sizeof(*v6);
	}
	if (p->typev2 != SMC_CLC_PATH_N) {
		sd->v2_ext_offset = cpu_to_be16(sizeof(*sd) -
						offsetofend(typeof(*sd),
							    v2_ext_offset) +
						pfx_len);
		smc_clc_prop_put_v2(b, SMC_CLC_PROPOSAL_MIN_V2 -
				    SMC_CLC_TRL_LEN + pfx_len, p);
	}
	smc_clc_trl_encode(buf, len, false);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_proposal_encode);

static void smc_clc_prop_get_v2(const u8 *buf,
				const struct smc_clc_prop_layout *l,
				struct smc_clc_proposal_info *p)
{
	const struct smc_clc_v2_ext_wire *x = (const void *)(buf + l->ext);
	const struct smc_clc_smcd_v2_ext_wire *sx;
	const struct smc_clc_gidchid_wire *gc;
	unsigned int i;

	p->eid_cnt = x->eid_cnt;
	memcpy(p->eids, x + 1, p->eid_cnt * SMC_CLC_EID_LEN);
	p->release = FIELD_GET(SMC_CLC_V2X_RELEASE, x->flags);
	memcpy(p->roce_gid, x->roce_gid, sizeof(p->roce_gid));
	p->max_conns = x->max_conns;
	p->max_links = x->max_links;
	p->feature_mask = be16_to_cpu(x->feature_mask);
	if (!smc_clc_has_d(p->typev2))
		return;
	p->seid = x->flags & 1;
	p->ism_gid_cnt = x->ism_gid_cnt;
	if (!l->smcd_ext)
		return;
	p->smcd_v2_ext = true;
	sx = (const void *)(buf + l->smcd_ext);
	memcpy(p->system_eid, sx->system_eid, sizeof(p->system_eid));
	gc = (const void *)(sx + 1);
	for (i = 0; i < p->ism_gid_cnt; i++) {
		p->ism_gids[i].gid = be64_to_cpu(gc[i].gid);
		p->ism_gids[i].chid = be16_to_cpu(gc[i].chid);
	}
}

/**
 * smc_clc_proposal_decode() - validate and decode a received Proposal
 * @buf: the complete message
 * @len: its length as read; must equal the header length
 * @p: filled in on success (zeroed first)
 *
 * Validates as Linux does (see smc_clc_msg_validate()), then decodes
 * every part present, the SMC-D ones included so that callers can see
 * them; a v1 proposal reports typev2 N, as Linux ignores it there.
 *
 * Context: any context.
 * Return: 0, -EINVAL for a buffer shorter than a header, -EPROTO for a
 * malformed message or one that is not a Proposal.
 */
int smc_clc_proposal_decode(const void *buf, size_t len,
			    struct smc_clc_proposal_info *p)
{
	const struct smc_clc_prop_prefix_wire *pw;
	const struct smc_clc_prop_smcd_wire *sd;
	const struct smc_clc_prop_wire *w = buf;
	const struct smc_clc_ipv6_wire *v6;
	struct smc_clc_prop_layout l;
	struct smc_clc_hdr_info h;
	const u8 *b = buf;
	unsigned int i;
	int rc;

	rc = smc_clc_msg_validate(buf, len, &h);
	if (rc)
		return rc;
	if (h.type != SMC_CLC_PROPOSAL)
		return -EPROTO;
	rc = smc_clc_prop_parse(buf, len, h.version, h.typev1, h.typev2, &l);
	if (rc)
		return rc;

	memset(p, 0, sizeof(*p));
	p->version = h.version;
	p->typev1 = h.typev1;
	p->typev2 = h.version == SMC_CLC_V1 ? SMC_CLC_PATH_N : h.typev2;
	memcpy(p->peer_id, w->peer_id, sizeof(p->peer_id));
	memcpy(p->gid_v1, w->gid, sizeof(p->gid_v1));
	memcpy(p->mac, w->mac, sizeof(p->mac));
	p->iparea_offset = be16_to_cpu(w->iparea_offset);
	if (h.version >= SMC_CLC_V2 ||
	    p->iparea_offset == sizeof(struct smc_clc_prop_smcd_wire)) {
		sd = (const void *)(b + SMC_CLC_PROP_SMCD_OFF);
		p->ism_gid = be64_to_cpu(sd->ism_gid);
		p->ism_chid = be16_to_cpu(sd->ism_chid);
	}
	if (l.pfx) {
		pw = (const void *)(b + l.pfx);
		p->ipv4_prefix = pw->subnet;
		p->prefix_len = pw->prefix_len;
		p->ipv6_cnt = pw->ipv6_cnt;
		v6 = (const void *)(pw + 1);
		for (i = 0; i < p->ipv6_cnt; i++) {
			memcpy(&p->ipv6[i].prefix, v6[i].prefix,
			       sizeof(v6[i].prefix));
			p->ipv6[i].len = v6[i].prefix_len;
		}
	}
	if (l.ext)
		smc_clc_prop_get_v2(b, &l, p);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_proposal_decode);

static size_t smc_clc_accept_len(const struct smc_clc_accept_info *a)
{
	size_t len;

	if (a->version == SMC_CLC_V1)
		return SMC_CLC_ACCEPT_R_LEN_V1;
	len = SMC_CLC_ACCEPT_R_MIN_V2;
	if (!a->first_contact)
		return len;
	len += sizeof(struct smc_clc_fce_wire);
	if (a->type == SMC_CLC_CONFIRM)
		len += sizeof(struct smc_clc_gid_list_wire) +
		       a->gid_cnt * SMC_CLC_GID_LEN;
	return len;
}

/**
 * smc_clc_accept_encode() - build an SMC-R Accept or Confirm
 * @buf: output
 * @size: room in @buf
 * @a: the values; @a->type selects Accept or Confirm
 *
 * v1 is 68 bytes.  v2 adds the EID (108 bytes); with first contact also
 * the First Contact Extension in its 52-byte form, as Linux always sends
 * for SMC-R, and a Confirm then the GID list.  Eyecatchers are "SMCR";
 * @a->path and @a->fce_len are not read.
 *
 * Context: any context.
 * Return: the message length, -EINVAL for a type, version or field out
 * of range, -EMSGSIZE if @size is short.
 */
int smc_clc_accept_encode(void *buf, size_t size,
			  const struct smc_clc_accept_info *a)
{
	struct smc_clc_hdr_info h = {
		.type = a->type, .version = a->version,
		.typev1 = SMC_CLC_PATH_R,
		.typev2 = a->first_contact ? SMC_CLC_FLAG_FIRST_CONTACT >> 2 : 0,
	};
	struct smc_clc_accept_v2_wire *v2;
	struct smc_clc_gid_list_wire *gl;
	struct smc_clc_accept_wire *w;
	struct smc_clc_fce_wire *fce;
	size_t len;

	smc_clc_layout_check();
	if ((a->type != SMC_CLC_ACCEPT && a->type != SMC_CLC_CONFIRM) ||
	    (a->version != SMC_CLC_V1 && a->version != SMC_CLC_V2))
		return -EINVAL;
	if (a->qpn > FIELD_MAX(SMC_CLC_ACC_QPN) ||
	    a->psn > FIELD_MAX(SMC_CLC_ACC_PSN) ||
	    a->rmbe_size > FIELD_MAX(SMC_CLC_ACC_RMBE_SIZE) ||
	    a->qp_mtu > FIELD_MAX(SMC_CLC_ACC_QP_MTU))
		return -EINVAL;
	if (a->version == SMC_CLC_V2 && a->first_contact &&
	    (a->os_type > FIELD_MAX(SMC_CLC_FCE_OS_TYPE) ||
	     a->release > FIELD_MAX(SMC_CLC_FCE_RELEASE) ||
	     (a->type == SMC_CLC_CONFIRM && a->gid_cnt > SMC_CLC_MAX_GIDS)))
		return -EINVAL;
	len = smc_clc_accept_len(a);
	if (len > size)
		return -EMSGSIZE;

	memset(buf, 0, len);
	h.length = len;
	smc_clc_hdr_encode(buf, &h);
	w = buf;
	memcpy(w->peer_id, a->peer_id, sizeof(w->peer_id));
	memcpy(w->gid, a->gid, sizeof(w->gid));
	memcpy(w->mac, a->mac, sizeof(w->mac));
	put_unaligned_be24(a->qpn, w->qpn);
	w->rmb_rkey = cpu_to_be32(a->rmb_rkey);
	w->rmbe_idx = a->rmbe_idx;
	w->rmbe_alert_token = cpu_to_be32(a->rmbe_alert_token);
	w->size_mtu = FIELD_PREP(SMC_CLC_ACC_RMBE_SIZE, a->rmbe_size) |
		      FIELD_PREP(SMC_CLC_ACC_QP_MTU, a->qp_mtu);
	w->rmb_vaddr = cpu_to_be64(a->rmb_vaddr);
	put_unaligned_be24(a->psn, w->psn);
	if (a->version == SMC_CLC_V2) {
		v2 = (void *)(w + 1);
		memcpy(v2->eid, a->eid, sizeof(v2->eid));
		if (a->first_contact) {
			fce = (void *)(v2 + 1);
			fce->direct = a->v2_direct ? 0x80 : 0;
			fce->os_release =
				FIELD_PREP(SMC_CLC_FCE_OS_TYPE, a->os_type) |
				FIELD_PREP(SMC_CLC_FCE_RELEASE, a->release);
			memcpy(fce->hostname, a->hostname,
			       sizeof(fce->hostname));
			fce->max_conns = a->max_conns;
			fce->max_links = a->max_links;
			fce->feature_mask = cpu_to_be16(a->feature_mask);
			fce->vendor_exp = cpu_to_be32(a->vendor_exp);
			if (a->type == SMC_CLC_CONFIRM) {
				gl = (void *)(fce + 1);
				gl->gid_cnt = a->gid_cnt;
				memcpy(gl + 1, a->gids,
				       a->gid_cnt * SMC_CLC_GID_LEN);
			}
		}
	}
	smc_clc_trl_encode(buf, len, false);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_accept_encode);

/*
 * Find the FCE form and the GID list in the @avail bytes between the v2
 * part and the trailer.  Linux SMC-R sends the 52-byte form even for
 * release 0; a v2.0 peer may send 36 bytes.  A Confirm must then hold
 * its GID list; we prefer the form for which it fills the rest exactly.
 */
static int smc_clc_fce_layout(const u8 *fce, size_t avail, bool confirm,
			      u8 *fce_len)
{
	static const u8 forms[] = { SMC_CLC_FCE_LEN_V21, SMC_CLC_FCE_LEN_V20 };
	const struct smc_clc_gid_list_wire *gl;
	size_t glen;
	int exact;
	unsigned int i;

	if (!confirm) {
		if (avail < SMC_CLC_FCE_LEN_V20)
			return -EPROTO;
		*fce_len = avail >= SMC_CLC_FCE_LEN_V21 ? SMC_CLC_FCE_LEN_V21 :
							 SMC_CLC_FCE_LEN_V20;
		return 0;
	}
	for (exact = 1; exact >= 0; exact--) {
		for (i = 0; i < ARRAY_SIZE(forms); i++) {
			if (avail < forms[i] + sizeof(*gl))
				continue;
			/* release >= 1 means the v2.1 form */
			if (forms[i] == SMC_CLC_FCE_LEN_V20 &&
			    FIELD_GET(SMC_CLC_FCE_RELEASE, fce[1]))
				continue;
			gl = (const void *)(fce + forms[i]);
			if (gl->gid_cnt > SMC_CLC_MAX_GIDS)
				continue;
			glen = forms[i] + sizeof(*gl) +
			       gl->gid_cnt * SMC_CLC_GID_LEN;
			if (exact ? glen == avail : glen <= avail) {
				*fce_len = forms[i];
				return 0;
			}
		}
	}
	return -EPROTO;
}

/**
 * smc_clc_accept_decode() - validate and decode an Accept or Confirm
 * @buf: the complete message
 * @len: its length as read; must equal the header length
 * @a: filled in on success (zeroed first); for an SMC-D message only
 *	type, version, first_contact and path
 *
 * Validates as Linux does (see smc_clc_msg_validate()).  A version above
 * 2 is read as v2, as Linux does.  With v2 and first contact it also
 * requires a First Contact Extension of 36 or 52 bytes and, in a
 * Confirm, a GID list of at most SMC_CLC_MAX_GIDS entries that fits in
 * the message; Linux would read these from its zeroed buffer instead.
 *
 * Context: any context.
 * Return: 0; -EOPNOTSUPP for a well-formed SMC-D Accept/Confirm (see
 * smc_clc_decode_reason()); -EINVAL for a buffer shorter than a header;
 * -EPROTO for a malformed message or another type.
 */
int smc_clc_accept_decode(const void *buf, size_t len,
			  struct smc_clc_accept_info *a)
{
	const struct smc_clc_accept_v2_wire *v2;
	const struct smc_clc_gid_list_wire *gl;
	const struct smc_clc_accept_wire *w;
	const struct smc_clc_fce_wire *fce;
	struct smc_clc_hdr_info h;
	int rc;

	rc = smc_clc_msg_validate(buf, len, &h);
	if (rc)
		return rc;
	if (h.type != SMC_CLC_ACCEPT && h.type != SMC_CLC_CONFIRM)
		return -EPROTO;
	memset(a, 0, sizeof(*a));
	a->type = h.type;
	a->version = min_t(u8, h.version, SMC_CLC_V2);
	a->first_contact = h.typev2 & (SMC_CLC_FLAG_FIRST_CONTACT >> 2);
	a->path = h.typev1;
	if (h.typev1 == SMC_CLC_PATH_D)
		return -EOPNOTSUPP;

	w = buf;
	memcpy(a->peer_id, w->peer_id, sizeof(a->peer_id));
	memcpy(a->gid, w->gid, sizeof(a->gid));
	memcpy(a->mac, w->mac, sizeof(a->mac));
	a->qpn = get_unaligned_be24(w->qpn);
	a->rmb_rkey = be32_to_cpu(w->rmb_rkey);
	a->rmbe_idx = w->rmbe_idx;
	a->rmbe_alert_token = be32_to_cpu(w->rmbe_alert_token);
	a->rmbe_size = FIELD_GET(SMC_CLC_ACC_RMBE_SIZE, w->size_mtu);
	a->qp_mtu = FIELD_GET(SMC_CLC_ACC_QP_MTU, w->size_mtu);
	a->rmb_vaddr = be64_to_cpu(w->rmb_vaddr);
	a->psn = get_unaligned_be24(w->psn);
	if (a->version == SMC_CLC_V1)
		return 0;

	v2 = (const void *)(w + 1);
	memcpy(a->eid, v2->eid, sizeof(a->eid));
	if (!a->first_contact)
		return 0;
	fce = (const void *)(v2 + 1);
	rc = smc_clc_fce_layout((const u8 *)fce,
				len - SMC_CLC_ACCEPT_R_MIN_V2,
				h.type == SMC_CLC_CONFIRM, &a->fce_len);
	if (rc)
		return rc;
	a->v2_direct = fce->direct & 0x80;
	a->os_type = FIELD_GET(SMC_CLC_FCE_OS_TYPE, fce->os_release);
	a->release = FIELD_GET(SMC_CLC_FCE_RELEASE, fce->os_release);
	memcpy(a->hostname, fce->hostname, sizeof(a->hostname));
	if (a->fce_len == SMC_CLC_FCE_LEN_V21) {
		a->max_conns = fce->max_conns;
		a->max_links = fce->max_links;
		a->feature_mask = be16_to_cpu(fce->feature_mask);
		a->vendor_exp = be32_to_cpu(fce->vendor_exp);
	}
	if (h.type == SMC_CLC_CONFIRM) {
		gl = (const void *)((const u8 *)fce + a->fce_len);
		a->gid_cnt = gl->gid_cnt;
		memcpy(a->gids, gl + 1, a->gid_cnt * SMC_CLC_GID_LEN);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_accept_decode);

/**
 * smc_clc_decline_encode() - build a CLC Decline
 * @buf: output
 * @size: room in @buf
 * @version: 1 (28 bytes) or 2 (44 bytes, four zero extra codes)
 * @peer_id: our system id, or NULL to send zeroes
 * @diagnosis: SMC_CLC_DECL_* reason
 * @out_of_sync: set header bit 0x08; Linux does so only for SYNCERR
 * @os_type: SMC_CLC_OS_*; sent in v2 only (reserved in v1)
 *
 * Context: any context.
 * Return: the message length, -EINVAL for a bad version or OS type,
 * -EMSGSIZE if @size is short.
 */
int smc_clc_decline_encode(void *buf, size_t size, u8 version,
			   const u8 *peer_id, u32 diagnosis, bool out_of_sync,
			   u8 os_type)
{
	struct smc_clc_hdr_info h = {
		.type = SMC_CLC_DECLINE, .version = version,
		.typev1 = SMC_CLC_PATH_R,
		.typev2 = out_of_sync ? SMC_CLC_FLAG_OUT_OF_SYNC >> 2 : 0,
	};
	struct smc_clc_decline *d = buf;
	size_t len;

	smc_clc_layout_check();
	if ((version != SMC_CLC_V1 && version != SMC_CLC_V2) ||
	    os_type > FIELD_MAX(SMC_CLC_DECL_OS_TYPE))
		return -EINVAL;
	len = version == SMC_CLC_V1 ? SMC_CLC_DECLINE_LEN_V1 :
				      SMC_CLC_DECLINE_LEN_V2;
	if (len > size)
		return -EMSGSIZE;
	memset(buf, 0, len);
	h.length = len;
	smc_clc_hdr_encode(buf, &h);
	if (peer_id)
		memcpy(d->peer_id, peer_id, sizeof(d->peer_id));
	d->diagnosis = cpu_to_be32(diagnosis);
	if (version == SMC_CLC_V2)
		d->os_type = FIELD_PREP(SMC_CLC_DECL_OS_TYPE, os_type);
	smc_clc_trl_encode(buf, len, false);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_decline_encode);

/**
 * smc_clc_decline_decode() - validate and decode a received Decline
 * @buf: the complete message
 * @len: its length as read; must equal the header length
 * @d: filled in on success
 *
 * A Decline must be exactly 28 (v1) or 44 bytes (v2 and above); as in
 * Linux its trailer is not checked.
 *
 * Context: any context.
 * Return: 0, -EINVAL for a buffer shorter than a header, -EPROTO for a
 * malformed message or another type.
 */
int smc_clc_decline_decode(const void *buf, size_t len,
			   struct smc_clc_decline_info *d)
{
	const struct smc_clc_decline_v2 *w2 = buf;
	const struct smc_clc_decline *w = buf;
	struct smc_clc_hdr_info h;
	unsigned int i;
	int rc;

	rc = smc_clc_msg_validate(buf, len, &h);
	if (rc)
		return rc;
	if (h.type != SMC_CLC_DECLINE)
		return -EPROTO;
	memset(d, 0, sizeof(*d));
	d->version = min_t(u8, h.version, SMC_CLC_V2);
	memcpy(d->peer_id, w->peer_id, sizeof(d->peer_id));
	d->diagnosis = be32_to_cpu(w->diagnosis);
	d->out_of_sync = h.typev2 & (SMC_CLC_FLAG_OUT_OF_SYNC >> 2);
	if (d->version == SMC_CLC_V1)
		return 0;
	d->os_type = FIELD_GET(SMC_CLC_DECL_OS_TYPE, w->os_type);
	for (i = 0; i < SMC_CLC_DECL_DIAG_V2; i++)
		d->diagnosis_v2[i] = be32_to_cpu(w2->diagnosis_v2[i]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_decline_decode);
