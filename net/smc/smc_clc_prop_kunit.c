// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite smc_clc_proposal: the CLC Proposal codec against byte
 * vectors written out by hand from the Proposal layout of the protocol
 * reference.  The offsets in the comments are those of the tables there.
 */

#include <kunit/test.h>

#include "smc_clc_wire.h"

/*
 * Values shared by the vectors: peer id 01:02 + MAC 52:54:00:0a:09:01,
 * RoCE v1 GID fe80::5054:ff:fe0a:901, RoCEv2 GID ::ffff:10.9.1.1.
 */
static const u8 peer_id[8] = { 0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01 };
static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01 };
static const u8 gid_v1[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0x00, 0xff, 0xfe, 0x0a, 0x09, 0x01,
};

static const u8 gid_v2[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x09, 0x01, 0x01,
};

static const u8 ueid[32] = {
	'S', 'M', 'C', '-', 'T', 'E', 'S', 'T',
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
};

/* v1-only proposal as Linux sends it: header v2, typev1 R, typev2 N */
static const u8 prop_v1[92] = {
	/* 0: "SMCR", type 1, length 92, v2 | typev2 N (2 << 2) | typev1 R */
	0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0x5c, 0x28,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: RoCE v1 GID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x50, 0x54, 0x00, 0xff, 0xfe, 0x0a, 0x09, 0x01,
	/* 32: MAC; 38: iparea_offset 40 */
	0x52, 0x54, 0x00, 0x0a, 0x09, 0x01, 0x00, 0x28,
	/* 40-79: SMC-D/v2 area, all zero (v2_ext_offset 0 at 50) */
	/* 80: subnet 10.9.1.0, prefix length 24, reserved, 0 IPv6 */
	[80] = 0x0a, 0x09, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00,
	/* 88: trailer */
	[88] = 0xe2, 0xd4, 0xc3, 0xd9,
};

/* the old v1 form: header v1, iparea_offset 0, no SMC-D/v2 area */
static const u8 prop_v1_old[52] = {
	/* 0: "SMCR", type 1, length 52, v1 | typev1 R */
	0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0x34, 0x10,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: RoCE v1 GID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x50, 0x54, 0x00, 0xff, 0xfe, 0x0a, 0x09, 0x01,
	/* 32: MAC; 38: iparea_offset 0 */
	0x52, 0x54, 0x00, 0x0a, 0x09, 0x01, 0x00, 0x00,
	/* 40: subnet 10.9.1.0, /24, reserved, 0 IPv6 */
	0x0a, 0x09, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00,
	/* 48: trailer */
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2-only proposal, typev1 N, typev2 R, one UEID: 40 + 40 + 40 + 32 + 4 */
static const u8 prop_v2[156] = {
	/* 0: "SMCR", type 1, length 156, v2 | typev2 R | typev1 N */
	0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0x9c, 0x22,
	/* 8-37: peer id, GID, MAC only with R in typev1: zero */
	/* 38: iparea_offset 0 */
	/* 50: v2_ext_offset 28: the extension at 52 + 28 = 80 */
	[50] = 0x00, 0x1c,
	/* 80: eid_cnt 1, ism_gid_cnt 0, reserved, release 1, reserved,
	 * smcd_v2_ext_offset 0 (no D in typev2)
	 */
	[80] = 0x01, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
	/* 88: RoCEv2 GID ::ffff:10.9.1.1 */
	[98] = 0xff, 0xff, 0x0a, 0x09, 0x01, 0x01,
	/* 104: max_conns 255, max_links 2, feature_mask 1; 108: reserved */
	[104] = 0xff, 0x02, 0x00, 0x01,
	/* 120: UEID "SMC-TEST", blank padded */
	[120] = 'S', 'M', 'C', '-', 'T', 'E', 'S', 'T',
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	/* 152: trailer */
	[152] = 0xe2, 0xd4, 0xc3, 0xd9,
};

/* v1 + v2 (R/R), IPv6 connection with two prefixes, one UEID */
static const u8 prop_v6[198] = {
	/* 0: "SMCR", type 1, length 198, v2 | typev2 R | typev1 R */
	0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0xc6, 0x20,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: RoCE v1 GID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x50, 0x54, 0x00, 0xff, 0xfe, 0x0a, 0x09, 0x01,
	/* 32: MAC; 38: iparea_offset 40 */
	0x52, 0x54, 0x00, 0x0a, 0x09, 0x01, 0x00, 0x28,
	/* 50: v2_ext_offset 28 + 8 + 2 * 17 = 70: extension at 122 */
	[50] = 0x00, 0x46,
	/* 80: IPv6: subnet 0, length 0, reserved, 2 prefixes */
	[80] = 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	/* 88: 2001:db8:1::/64 */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40,
	/* 105: fd00:9:1::/64 */
	0xfd, 0x00, 0x00, 0x09, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40,
	/* 122: eid_cnt 1, ism_gid_cnt 0, reserved, release 1 */
	0x01, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
	/* 130: RoCEv2 GID */
	[140] = 0xff, 0xff, 0x0a, 0x09, 0x01, 0x01,
	/* 146: max_conns 255, max_links 2, feature_mask 1; 150: reserved */
	[146] = 0xff, 0x02, 0x00, 0x01,
	/* 162: UEID */
	[162] = 'S', 'M', 'C', '-', 'T', 'E', 'S', 'T',
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	/* 194: trailer */
	[194] = 0xe2, 0xd4, 0xc3, 0xd9,
};

static struct smc_clc_proposal_info *prop_alloc(struct kunit *test)
{
	struct smc_clc_proposal_info *p = kunit_kzalloc(test, sizeof(*p),
							GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static u8 *buf_alloc(struct kunit *test)
{
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN + 16, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}

/* encode @p and compare with the vector */
static void prop_encode_eq(struct kunit *test,
			   const struct smc_clc_proposal_info *p,
			   const u8 *want, size_t len)
{
	u8 *b = buf_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_encode(b, SMC_CLC_MAX_LEN, p),
			(int)len);
	KUNIT_EXPECT_MEMEQ(test, b, want, len);
	/* exactly long enough is enough, one byte less is not */
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, len, p), (int)len);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, len - 1, p),
			-EMSGSIZE);
}

static void smc_clc_prop_v1(struct kunit *test)
{
	struct smc_clc_proposal_info *p = prop_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(prop_v1, 92, p), 0);
	KUNIT_EXPECT_EQ(test, p->version, 2);
	KUNIT_EXPECT_EQ(test, p->typev1, SMC_CLC_PATH_R);
	KUNIT_EXPECT_EQ(test, p->typev2, SMC_CLC_PATH_N);
	KUNIT_EXPECT_MEMEQ(test, p->peer_id, peer_id, 8);
	KUNIT_EXPECT_MEMEQ(test, p->gid_v1, gid_v1, 16);
	KUNIT_EXPECT_MEMEQ(test, p->mac, mac, 6);
	KUNIT_EXPECT_EQ(test, p->iparea_offset, 40);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p->ipv4_prefix), 0x0a090100);
	KUNIT_EXPECT_EQ(test, p->prefix_len, 24);
	KUNIT_EXPECT_EQ(test, p->ipv6_cnt, 0);
	KUNIT_EXPECT_EQ(test, p->eid_cnt, 0);
	prop_encode_eq(test, p, prop_v1, sizeof(prop_v1));
}

static void smc_clc_prop_v1_old(struct kunit *test)
{
	struct smc_clc_proposal_info *p = prop_alloc(test);
	u8 *b = buf_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(prop_v1_old, 52, p), 0);
	KUNIT_EXPECT_EQ(test, p->version, 1);
	KUNIT_EXPECT_EQ(test, p->typev1, SMC_CLC_PATH_R);
	KUNIT_EXPECT_EQ(test, p->typev2, SMC_CLC_PATH_N);
	KUNIT_EXPECT_EQ(test, p->iparea_offset, 0);
	KUNIT_EXPECT_MEMEQ(test, p->peer_id, peer_id, 8);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p->ipv4_prefix), 0x0a090100);
	KUNIT_EXPECT_EQ(test, p->prefix_len, 24);
	/* v1 ignores typev2 bits, as Linux does */
	memcpy(b, prop_v1_old, 52);
	b[7] = 0x14;
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(b, 52, p), 0);
	KUNIT_EXPECT_EQ(test, p->typev2, SMC_CLC_PATH_N);
	/* we answer it with the form Linux sends today */
	prop_encode_eq(test, p, prop_v1, sizeof(prop_v1));
}

static void smc_clc_prop_v2_only(struct kunit *test)
{
	struct smc_clc_proposal_info *p = prop_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(prop_v2, 156, p), 0);
	KUNIT_EXPECT_EQ(test, p->typev1, SMC_CLC_PATH_N);
	KUNIT_EXPECT_EQ(test, p->typev2, SMC_CLC_PATH_R);
	KUNIT_EXPECT_EQ(test, p->iparea_offset, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p->ipv4_prefix), 0);
	KUNIT_EXPECT_EQ(test, p->eid_cnt, 1);
	KUNIT_EXPECT_MEMEQ(test, p->eids[0], ueid, 32);
	KUNIT_EXPECT_EQ(test, p->release, 1);
	KUNIT_EXPECT_FALSE(test, p->seid);
	KUNIT_EXPECT_MEMEQ(test, p->roce_gid, gid_v2, 16);
	KUNIT_EXPECT_EQ(test, p->max_conns, 255);
	KUNIT_EXPECT_EQ(test, p->max_links, 2);
	KUNIT_EXPECT_EQ(test, p->feature_mask, 1);
	KUNIT_EXPECT_EQ(test, p->ism_gid_cnt, 0);
	KUNIT_EXPECT_FALSE(test, p->smcd_v2_ext);
	/* the encoder leaves out peer id, GID and MAC without R in typev1 */
	memcpy(p->peer_id, peer_id, 8);
	memcpy(p->gid_v1, gid_v1, 16);
	prop_encode_eq(test, p, prop_v2, sizeof(prop_v2));
}

static void smc_clc_prop_v6(struct kunit *test)
{
	static const u8 pfx1[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01 };
	static const u8 pfx2[16] = { 0xfd, 0x00, 0x00, 0x09, 0x00, 0x01 };
	struct smc_clc_proposal_info *p = prop_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(prop_v6, 198, p), 0);
	KUNIT_EXPECT_EQ(test, p->typev1, SMC_CLC_PATH_R);
	KUNIT_EXPECT_EQ(test, p->typev2, SMC_CLC_PATH_R);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p->ipv4_prefix), 0);
	KUNIT_EXPECT_EQ(test, p->prefix_len, 0);
	KUNIT_ASSERT_EQ(test, p->ipv6_cnt, 2);
	KUNIT_EXPECT_MEMEQ(test, &p->ipv6[0].prefix, pfx1, 16);
	KUNIT_EXPECT_EQ(test, p->ipv6[0].len, 64);
	KUNIT_EXPECT_MEMEQ(test, &p->ipv6[1].prefix, pfx2, 16);
	KUNIT_EXPECT_EQ(test, p->ipv6[1].len, 64);
	KUNIT_EXPECT_EQ(test, p->eid_cnt, 1);
	KUNIT_EXPECT_MEMEQ(test, p->eids[0], ueid, 32);
	KUNIT_EXPECT_MEMEQ(test, p->roce_gid, gid_v2, 16);
	prop_encode_eq(test, p, prop_v6, sizeof(prop_v6));
}

/* SMC-D parts are only parsed past, but must round-trip exactly */
static void smc_clc_prop_smcd(struct kunit *test)
{
	struct smc_clc_proposal_info *in = prop_alloc(test);
	struct smc_clc_proposal_info *out = prop_alloc(test);
	u8 *b = buf_alloc(test);
	int len;

	in->typev1 = SMC_CLC_PATH_B;
	in->typev2 = SMC_CLC_PATH_B;
	memcpy(in->peer_id, peer_id, 8);
	memcpy(in->gid_v1, gid_v1, 16);
	memcpy(in->mac, mac, 6);
	in->ipv4_prefix = cpu_to_be32(0x0a090100);
	in->prefix_len = 24;
	in->ism_gid = 0x1122334455667700ULL;
	in->ism_chid = 0xffff;
	in->eid_cnt = 2;
	memcpy(in->eids[0], ueid, 32);
	memcpy(in->eids[1], ueid, 32);
	in->eids[1][0] = 'T';
	in->release = 1;
	memcpy(in->roce_gid, gid_v2, 16);
	in->max_conns = 16;
	in->max_links = 1;
	in->feature_mask = 1;
	in->seid = true;
	memset(in->system_eid, 'S', 32);
	in->ism_gid_cnt = 3;
	in->ism_gids[0].gid = 1;
	in->ism_gids[0].chid = 0xff00;
	in->ism_gids[1].gid = 2;
	in->ism_gids[1].chid = 0xff00;
	in->ism_gids[2].gid = 0xfedcba9876543210ULL;
	in->ism_gids[2].chid = 0x1234;

	len = smc_clc_proposal_encode(b, SMC_CLC_MAX_LEN, in);
	/* 40 + 40 + 8 + 40 + 2 * 32 + 48 + 3 * 10 + 4 */
	KUNIT_ASSERT_EQ(test, len, 274);
	/* 50: v2_ext_offset 36; 88 + 6: smcd_v2_ext_offset 32 + 64 */
	KUNIT_EXPECT_EQ(test, b[51], 36);
	KUNIT_EXPECT_EQ(test, b[88 + 7], 96);
	/* 88 + 3: release 1, SEID indicator */
	KUNIT_EXPECT_EQ(test, b[88 + 3], 0x11);
	/* 40: the ISM GID */
	KUNIT_EXPECT_EQ(test, b[40], 0x11);
	KUNIT_EXPECT_EQ(test, b[49], 0xff);

	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(b, len, out), 0);
	in->version = 2;
	in->iparea_offset = 40;
	in->smcd_v2_ext = true;
	KUNIT_EXPECT_MEMEQ(test, out, in, sizeof(*in));

	/* an unusable smcd_v2_ext_offset is parsed past; Linux declines */
	b[88 + 7] = 0;
	KUNIT_ASSERT_EQ(test, smc_clc_proposal_decode(b, len, out), 0);
	KUNIT_EXPECT_FALSE(test, out->smcd_v2_ext);
	KUNIT_EXPECT_EQ(test, out->ism_gid_cnt, 3);
	/* 9 ISM GIDs */
	b[88 + 7] = 96;
	b[88 + 1] = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_decode(b, len, out), -EPROTO);
	/* the SMC-D v1 path wants iparea_offset 40 for a v2 extension */
	b[88 + 1] = 3;
	b[39] = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_decode(b, len, out), -EPROTO);
}

/* a copy of @v of @len bytes with the header length set to @len */
static u8 *prop_resized(struct kunit *test, const u8 *v, size_t vlen,
			size_t len)
{
	u8 *b = buf_alloc(test);

	memcpy(b, v, min(vlen, len) - 4);
	memcpy(b + len - 4, v + vlen - 4, 4);
	b[5] = len >> 8;
	b[6] = len;
	return b;
}

static void prop_bad(struct kunit *test, const u8 *b, size_t len, int err,
		     const char *what)
{
	struct smc_clc_proposal_info *p = prop_alloc(test);

	KUNIT_EXPECT_EQ_MSG(test, smc_clc_proposal_decode(b, len, p), err,
			    "%s", what);
}

static void smc_clc_prop_malformed(struct kunit *test)
{
	u8 *b = buf_alloc(test);

	prop_bad(test, prop_v1, 7, -EINVAL, "shorter than a header");
	prop_bad(test, prop_v1, 91, -EPROTO, "truncated");
	prop_bad(test, prop_resized(test, prop_v1, 92, 93), 93, -EPROTO,
		 "length one more than the parts");
	prop_bad(test, prop_resized(test, prop_v1, 92, 91), 91, -EPROTO,
		 "length one less than the parts");
	prop_bad(test, prop_resized(test, prop_v2, 156, 157), 157, -EPROTO,
		 "v2 length one more than the parts");

	memcpy(b, prop_v6, 198);
	b[87] = 9;
	prop_bad(test, b, 198, -EPROTO, "9 IPv6 prefixes");
	b[87] = 3;
	prop_bad(test, b, 198, -EPROTO, "3 IPv6 prefixes announced, 2 sent");

	memcpy(b, prop_v2, 156);
	b[80] = 9;
	prop_bad(test, b, 156, -EPROTO, "eid_cnt 9");
	b[80] = 2;
	prop_bad(test, b, 156, -EPROTO, "2 UEIDs announced, 1 sent");

	memcpy(b, prop_v2, 156);
	b[51] = 0;
	prop_bad(test, b, 156, -EPROTO, "typev2 R without v2_ext_offset");
	b[50] = 0x00;
	b[51] = 173;
	prop_bad(test, b, 156, -EPROTO, "v2_ext_offset 173");

	/* v1 with the SMC-D area (old SMC-D v1 peers): offset 40 is fine */
	b = prop_resized(test, prop_v1_old, 52, 92);
	b[39] = 40;
	memcpy(b + 80, prop_v1_old + 40, 8);
	prop_bad(test, b, 92, 0, "v1 iparea_offset 40");
	/* ... 41 is not, though the length matches it */
	b = prop_resized(test, prop_v1_old, 52, 93);
	b[39] = 41;
	memcpy(b + 81, prop_v1_old + 40, 8);
	prop_bad(test, b, 93, -EPROTO, "v1 iparea_offset 41");
	b = buf_alloc(test);

	memcpy(b, prop_v1, 92);
	b[0] = 0xe3;
	prop_bad(test, b, 92, -EPROTO, "bad header eyecatcher");
	memcpy(b, prop_v1, 92);
	b[91] = 0xd8;
	prop_bad(test, b, 92, -EPROTO, "bad trailer");
	memcpy(b, prop_v1, 92);
	b[88] = 0;
	prop_bad(test, b, 92, -EPROTO, "zero trailer");
	/* "SMCD" is a valid trailer for Linux */
	memcpy(b, prop_v1, 92);
	b[91] = 0xc4;
	prop_bad(test, b, 92, 0, "SMCD trailer");

	memcpy(b, prop_v1, 92);
	b[7] = 0x08;
	prop_bad(test, b, 92, -EPROTO, "version 0");
	memcpy(b, prop_v1_old, 52);
	b[7] = 0x12;
	prop_bad(test, b, 52, -EPROTO, "v1 offering nothing");
	memcpy(b, prop_v1, 92);
	b[4] = 2;
	prop_bad(test, b, 92, -EPROTO, "another type");
	prop_bad(test, prop_resized(test, prop_v1, 92, 653), 653, -EPROTO,
		 "longer than 652");
}

static void smc_clc_prop_encode_errors(struct kunit *test)
{
	struct smc_clc_proposal_info *p = prop_alloc(test);
	u8 *b = buf_alloc(test);

	p->typev1 = SMC_CLC_PATH_N;
	p->typev2 = SMC_CLC_PATH_N;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, 652, p), -EINVAL);
	p->typev1 = 4;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, 652, p), -EINVAL);
	p->typev1 = SMC_CLC_PATH_R;
	p->ipv6_cnt = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, 652, p), -EINVAL);
	p->ipv6_cnt = 8;
	p->typev2 = SMC_CLC_PATH_R;
	p->eid_cnt = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, 652, p), -EINVAL);
	p->eid_cnt = 8;
	p->typev2 = SMC_CLC_PATH_D;
	p->ism_gid_cnt = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, 652, p), -EINVAL);
	/* everything at its maximum is the largest proposal, 652 bytes */
	p->typev1 = SMC_CLC_PATH_B;
	p->typev2 = SMC_CLC_PATH_B;
	p->ism_gid_cnt = 8;
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_encode(b, 652, p), 652);
	KUNIT_EXPECT_EQ(test, smc_clc_proposal_decode(b, 652, p), 0);
}

static struct kunit_case smc_clc_prop_cases[] = {
	KUNIT_CASE(smc_clc_prop_v1),
	KUNIT_CASE(smc_clc_prop_v1_old),
	KUNIT_CASE(smc_clc_prop_v2_only),
	KUNIT_CASE(smc_clc_prop_v6),
	KUNIT_CASE(smc_clc_prop_smcd),
	KUNIT_CASE(smc_clc_prop_malformed),
	KUNIT_CASE(smc_clc_prop_encode_errors),
	{}
};

static struct kunit_suite smc_clc_prop_suite = {
	.name = "smc_clc_proposal",
	.test_cases = smc_clc_prop_cases,
};

kunit_test_suites(&smc_clc_prop_suite);
