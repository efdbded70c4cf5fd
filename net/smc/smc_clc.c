// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CLC wire helpers: buffer-size and MTU encodings, the reason-code table,
 * and header encode/decode with the per-type length rules a received
 * message must meet before anything else reads it.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/string.h>

#include "smc_clc.h"

#ifdef SMC_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#else	/* before 6.2 */
#define EXPORT_SYMBOL_IF_KUNIT(symbol) __ADDRESSABLE(symbol)
#endif

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
 * smc_clc_mtu_to_bytes() - decode a CLC/LLC QP MTU value
 * @mtu: enum ib_mtu value, 1 (256) .. 5 (4096)
 *
 * Context: any context.
 * Return: the MTU in bytes, or 0 for a value outside 1..5.
 */
unsigned int smc_clc_mtu_to_bytes(u8 mtu)
{
	if (mtu < SMC_CLC_MTU_256 || mtu > SMC_CLC_MTU_4096)
		return 0;
	return 256U << (mtu - SMC_CLC_MTU_256);
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_mtu_to_bytes);

/**
 * smc_clc_bytes_to_mtu() - encode an MTU in bytes as a QP MTU value
 * @bytes: MTU in bytes
 *
 * Rounds down to the largest IB MTU that fits, as the IB core does.
 *
 * Context: any context.
 * Return: 1 (256) .. 5 (4096), or 0 if @bytes is below 256.
 */
u8 smc_clc_bytes_to_mtu(unsigned int bytes)
{
	if (bytes < 256)
		return 0;
	if (bytes >= 4096)
		return SMC_CLC_MTU_4096;
	return ilog2(bytes) - 8 + SMC_CLC_MTU_256;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_bytes_to_mtu);

#define SMC_CLC_REASON(n, d) { SMC_CLC_DECL_##n, #n, d }

/*
 * Every code current peers send or report.  Historical codes (Linux 4.11
 * had TIMEOUT 0x02000000, TCL 0x02040000, REPLY 0x06000000, SEND
 * 0x07000000 and INTERR 0x99990000) are deliberately absent: they are
 * opaque "unknown" codes now, and 0x03030000 means NOSMCDEV, not IPsec.
 */
static const struct smc_clc_reason smc_clc_reasons[] = {
	SMC_CLC_REASON(MEM, "A peer ran out of memory."),
	SMC_CLC_REASON(TIMEOUT_CL,
		       "The link was not confirmed (CONFIRM_LINK timed out)."),
	SMC_CLC_REASON(TIMEOUT_AL,
		       "A second link was not added (ADD_LINK timed out)."),
	SMC_CLC_REASON(CNFERR, "A peer's SMC configuration is in error."),
	SMC_CLC_REASON(PEERNOSMC,
		       "The peer did not signal SMC in the TCP handshake."),
	SMC_CLC_REASON(IPSEC, "The connection uses IPsec."),
	SMC_CLC_REASON(NOSMCDEV, "There is no usable SMC-R or SMC-D device."),
	SMC_CLC_REASON(NOSMCDDEV, "There is no usable SMC-D device."),
	SMC_CLC_REASON(NOSMCRDEV,
		       "There is no RDMA device for the TCP route."),
	SMC_CLC_REASON(NOISM2SUPP, "The ISM device does not support SMC-Dv2."),
	SMC_CLC_REASON(NOV2EXT, "The peer's proposal has no v2 extension."),
	SMC_CLC_REASON(NOV2DEXT,
		       "The peer's proposal has no SMC-Dv2 extension."),
	SMC_CLC_REASON(NOSEID, "The peer sent no system EID."),
	SMC_CLC_REASON(NOSMCD2DEV, "There is no usable SMC-Dv2 device."),
	SMC_CLC_REASON(NOUEID, "No user EID is configured on both peers."),
	SMC_CLC_REASON(RELEASEERR, "The peers did not agree on a release."),
	SMC_CLC_REASON(MAXCONNERR,
		       "The peers did not agree on connections per link group."),
	SMC_CLC_REASON(MAXLINKERR,
		       "The peers did not agree on links per link group."),
	SMC_CLC_REASON(MODEUNSUPP,
		       "The accepted mode is not one that was proposed."),
	SMC_CLC_REASON(RMBE_EC, "The peer uses RMBE eyecatchers."),
	SMC_CLC_REASON(OPTUNSUPP,
		       "The socket asked for an option SMC cannot honour."),
	SMC_CLC_REASON(DIFFPREFIX, "The peers are not in the same IP subnet."),
	SMC_CLC_REASON(GETVLANERR, "The VLAN id of the route is unknown."),
	SMC_CLC_REASON(ISMVLANERR,
		       "The VLAN could not be registered on the ISM device."),
	SMC_CLC_REASON(NOACTLINK, "The link group has no active link."),
	SMC_CLC_REASON(NOSRVLINK,
		       "The client cannot find the link the server chose."),
	SMC_CLC_REASON(VERSMISMAT, "The peers have no SMC version in common."),
	SMC_CLC_REASON(MAX_DMB, "The SMC-D buffer limit was reached."),
	SMC_CLC_REASON(NOROUTE, "SMC-Rv2 has no route to the peer."),
	SMC_CLC_REASON(NOINDIRECT,
		       "SMC-Rv2 was told indirect but the route is direct."),
	SMC_CLC_REASON(SYNCERR, "The link group is out of sync."),
	SMC_CLC_REASON(PEERDECL, "The peer declined SMC."),
	SMC_CLC_REASON(INTERR, "An internal error occurred."),
	SMC_CLC_REASON(ERR_RTOK, "Handling the peer's RMB token failed."),
	SMC_CLC_REASON(ERR_RDYLNK, "The queue pair could not be made ready."),
	SMC_CLC_REASON(ERR_REGBUF, "A buffer could not be registered."),
};

/**
 * smc_clc_reason_find() - look up a decline/fallback reason code
 * @code: SMC_CLC_DECL_* value, host order
 *
 * Context: any context.
 * Return: the table entry, or NULL for an unknown (or historical) code.
 */
const struct smc_clc_reason *smc_clc_reason_find(u32 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(smc_clc_reasons); i++)
		if (smc_clc_reasons[i].code == code)
			return &smc_clc_reasons[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_reason_find);

/**
 * smc_clc_reason_name() - short name of a reason code
 * @code: SMC_CLC_DECL_* value, host order
 *
 * Context: any context.
 * Return: the name, e.g. "PEERNOSMC", or "unknown"; never NULL.
 */
const char *smc_clc_reason_name(u32 code)
{
	const struct smc_clc_reason *r = smc_clc_reason_find(code);

	return r ? r->name : "unknown";
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_reason_name);

/**
 * smc_clc_reason_desc() - one-sentence description of a reason code
 * @code: SMC_CLC_DECL_* value, host order
 *
 * Context: any context.
 * Return: the description; a generic sentence for unknown codes.
 */
const char *smc_clc_reason_desc(u32 code)
{
	const struct smc_clc_reason *r = smc_clc_reason_find(code);

	return r ? r->desc : "The reason code is not known to this kernel.";
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_reason_desc);

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
	hdr.flags = (info->version << 4) | ((info->typev2 & 3) << 2) |
		    (info->typev1 & 3);
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
	info->version = hdr.flags >> 4;
	info->typev2 = (hdr.flags >> 2) & 3;
	info->typev1 = hdr.flags & 3;
	info->smcd = smcd;
	if (info->version < SMC_CLC_V1)
		return -EPROTO;
	if (info->length < SMC_CLC_HDR_LEN + SMC_CLC_TRL_LEN)
		return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_hdr_decode);

static u16 smc_clc_get_be16(const u8 *p)
{
	__be16 v;

	memcpy(&v, p, sizeof(v));
	return be16_to_cpu(v);
}

/* the length a proposal must have, from what its own fields say */
static int smc_clc_proposal_len(const u8 *buf, size_t len,
				const struct smc_clc_hdr_info *info)
{
	size_t need, pfx, ext;
	u8 n, eids, gids;

	if (len < SMC_CLC_PROPOSAL_BASE)
		return -EPROTO;
	pfx = SMC_CLC_PROPOSAL_BASE + smc_clc_get_be16(buf + 38);
	if (info->version == SMC_CLC_V1) {
		if (info->typev1 == SMC_CLC_PATH_N)
			return -EPROTO;
		need = pfx;
	} else {
		if (info->typev1 == SMC_CLC_PATH_N &&
		    info->typev2 == SMC_CLC_PATH_N)
			return -EPROTO;
		need = SMC_CLC_PROPOSAL_BASE + 40;
	}
	if (info->typev1 != SMC_CLC_PATH_N) {
		/* subnet 4, prefix length 1, reserved 2, IPv6 count 1 */
		if (pfx + 8 > len)
			return -EPROTO;
		n = buf[pfx + 7];
		if (n > 8)
			return -EPROTO;
		need += 8 + 17 * n;
	}
	if (info->version >= SMC_CLC_V2 && info->typev2 != SMC_CLC_PATH_N) {
		if (smc_clc_get_be16(buf + 50) > 172)
			return -EPROTO;
		ext = 52 + smc_clc_get_be16(buf + 50);
		if (ext + 40 > len)
			return -EPROTO;
		eids = buf[ext];
		gids = buf[ext + 1];
		if (eids > 8 || gids > 8)
			return -EPROTO;
		need += 40 + 32 * eids;
		if (info->typev2 == SMC_CLC_PATH_D ||
		    info->typev2 == SMC_CLC_PATH_B) {
			if (smc_clc_get_be16(buf + ext + 6) > 288)
				return -EPROTO;
			need += 48 + 10 * gids;
		}
	}
	return need + SMC_CLC_TRL_LEN;
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
 * it announces.  Accept, Confirm and Proposal need a valid trailer.
 *
 * Context: any context.
 * Return: 0, -EINVAL for a short buffer, -EPROTO for a malformed message.
 */
int smc_clc_msg_validate(const void *buf, size_t len,
			 struct smc_clc_hdr_info *info)
{
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
		if (len > SMC_CLC_PROPOSAL_MAX)
			return -EPROTO;
		need = smc_clc_proposal_len(p, len, info);
		if (need < 0)
			return need;
		if (len != need)
			return -EPROTO;
		break;
	}
	if (!smc_clc_eye_valid(p + len - SMC_CLC_TRL_LEN, &smcd))
		return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_clc_msg_validate);
