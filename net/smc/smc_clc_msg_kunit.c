// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suites smc_clc_accept, smc_clc_decline and smc_clc_frame: the
 * Accept/Confirm and Decline codecs and the stream framing check,
 * against byte vectors written out by hand from the layouts of the
 * protocol reference.  The comments give each field's offset.
 */

#include <kunit/test.h>

#include "smc_clc_wire.h"

static const u8 srv_id[8] = { 0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01 };
static const u8 srv_mac[6] = { 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01 };
static const u8 srv_gid_v1[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0x00, 0xff, 0xfe, 0x0a, 0x09, 0x01,
};

/* ::ffff:10.9.1.1 (server), ::ffff:10.9.1.2 and ::ffff:10.9.2.2 (client) */
static const u8 srv_gid_v2[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x09, 0x01, 0x01,
};

static const u8 cli_gid1[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x09, 0x01, 0x02,
};

static const u8 cli_gid2[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x09, 0x02, 0x02,
};

/* v1 SMC-R Accept, first contact: 68 bytes */
static const u8 acc_v1[68] = {
	/* 0: "SMCR", type 2, length 68, v1 | first contact | path R */
	0xe2, 0xd4, 0xc3, 0xd9, 0x02, 0x00, 0x44, 0x18,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: RoCE v1 GID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x50, 0x54, 0x00, 0xff, 0xfe, 0x0a, 0x09, 0x01,
	/* 32: MAC */
	0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 38: QPN 0x000123; 41: rkey 0x5678; 45: RMBE index 1 */
	0x00, 0x01, 0x23,
	0x00, 0x00, 0x56, 0x78,
	0x01,
	/* 46: alert token 7; 50: RMBE size n=2, MTU 3; 51: reserved */
	0x00, 0x00, 0x00, 0x07,
	0x23, 0x00,
	/* 52: RMB address; 60: reserved; 61: PSN 0xabcdef */
	0xff, 0xff, 0x8a, 0x5b, 0x40, 0x00, 0x00, 0x00,
	0x00,
	0xab, 0xcd, 0xef,
	/* 64: trailer */
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2 SMC-R Accept, first contact, 52-byte FCE: 108 + 52 = 160 bytes */
static const u8 acc_v2[160] = {
	/* 0: "SMCR", type 2, length 160, v2 | first contact | path R */
	0xe2, 0xd4, 0xc3, 0xd9, 0x02, 0x00, 0xa0, 0x28,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: RoCEv2 GID ::ffff:10.9.1.1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x01, 0x01,
	/* 32: MAC */
	0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 38: QPN 0x000123; 41: rkey 0x5678; 45: RMBE index 1 */
	0x00, 0x01, 0x23,
	0x00, 0x00, 0x56, 0x78,
	0x01,
	/* 46: alert token 7; 50: RMBE size n=2, MTU 5 (4096) */
	0x00, 0x00, 0x00, 0x07,
	0x25, 0x00,
	/* 52: RMB address; 60: reserved; 61: PSN */
	0xff, 0xff, 0x8a, 0x5b, 0x40, 0x00, 0x00, 0x00,
	0x00,
	0xab, 0xcd, 0xef,
	/* 64: EID "SMC-TEST", blank padded; 96: 8 reserved */
	'S', 'M', 'C', '-', 'T', 'E', 'S', 'T',
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 104: FCE: v2_direct; OS Linux (2), release 1; reserved */
	0x80, 0x21, 0x00, 0x00,
	/* 108: host name "host-a", blank padded */
	'h', 'o', 's', 't', '-', 'a', 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	/* 140: max_conns 255, max_links 2, feature_mask 1 */
	0xff, 0x02, 0x00, 0x01,
	/* 144: vendor options 0x01020304; 148: 8 reserved */
	0x01, 0x02, 0x03, 0x04,
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 156: trailer */
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2 SMC-R Confirm, first contact, FCE and 2 GIDs: 108 + 52 + 4 + 32 */
static const u8 conf_v2[196] = {
	/* 0: "SMCR", type 3, length 196, v2 | first contact | path R */
	0xe2, 0xd4, 0xc3, 0xd9, 0x03, 0x00, 0xc4, 0x28,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x02,
	/* 16: RoCEv2 GID ::ffff:10.9.1.2 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x01, 0x02,
	/* 32: MAC */
	0x52, 0x54, 0x00, 0x0a, 0x09, 0x02,
	/* 38: QPN 0xfedcba; 41: rkey 0x80000001; 45: RMBE index 1 */
	0xfe, 0xdc, 0xba,
	0x80, 0x00, 0x00, 0x01,
	0x01,
	/* 46: alert token 0x100; 50: RMBE size n=15, MTU 4 (2048) */
	0x00, 0x00, 0x01, 0x00,
	0xf4, 0x00,
	/* 52: RMB address; 60: reserved; 61: PSN 0x000001 */
	0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x60, 0x00,
	0x00,
	0x00, 0x00, 0x01,
	/* 64: EID; 96: reserved */
	'S', 'M', 'C', '-', 'T', 'E', 'S', 'T',
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 104: FCE: v2_direct; OS Linux, release 1; reserved */
	0x80, 0x21, 0x00, 0x00,
	/* 108: host name "host-b" */
	'h', 'o', 's', 't', '-', 'b', 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
	/* 140: max_conns 255, max_links 2, feature_mask 0 */
	0xff, 0x02, 0x00, 0x00,
	/* 144: vendor options 0; 148: reserved */
	0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	/* 156: GID list: 2 entries, 3 reserved */
	0x02, 0x00, 0x00, 0x00,
	/* 160: ::ffff:10.9.1.2 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x01, 0x02,
	/* 176: ::ffff:10.9.2.2 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x02, 0x02,
	/* 192: trailer */
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v1 SMC-D Accept: 48 bytes, "SMCD" eyecatchers */
static const u8 acc_d_v1[48] = {
	/* 0: "SMCD", type 2, length 48, v1 | first contact | path D */
	0xe2, 0xd4, 0xc3, 0xc4, 0x02, 0x00, 0x30, 0x19,
	/* 8: GID; 16: DMB token; 24: index, size; 28: link id */
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x42,
	0x01, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* 32: 12 reserved; 44: trailer */
	[44] = 0xe2, 0xd4, 0xc3, 0xc4,
};

/* v1 Decline SYNCERR with the out-of-sync flag: 28 bytes */
static const u8 decl_v1[28] = {
	/* 0: "SMCR", type 4, length 28, v1 | out of sync */
	0xe2, 0xd4, 0xc3, 0xd9, 0x04, 0x00, 0x1c, 0x18,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: diagnosis SYNCERR; 20: OS type (v1: reserved), reserved */
	0x04, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	/* 24: trailer */
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2 Decline SYNCERR, out of sync, OS type Linux: 44 bytes */
static const u8 decl_v2[44] = {
	/* 0: "SMCR", type 4, length 44, v2 | out of sync */
	0xe2, 0xd4, 0xc3, 0xd9, 0x04, 0x00, 0x2c, 0x28,
	/* 8: peer id */
	0x01, 0x02, 0x52, 0x54, 0x00, 0x0a, 0x09, 0x01,
	/* 16: diagnosis SYNCERR; 20: OS type 2 in bits 7-4 */
	0x04, 0x00, 0x00, 0x00,
	0x20, 0x00, 0x00, 0x00,
	/* 24: four more diagnosis codes, zero */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 40: trailer */
	0xe2, 0xd4, 0xc3, 0xd9,
};

static struct smc_clc_accept_info *acc_alloc(struct kunit *test)
{
	struct smc_clc_accept_info *a = kunit_kzalloc(test, sizeof(*a),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	return a;
}

static u8 *buf_alloc(struct kunit *test)
{
	u8 *b = kunit_kzalloc(test, SMC_CLC_MAX_LEN + 16, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}

/* a copy of @v with the header length and the buffer set to @len */
static u8 *resized(struct kunit *test, const u8 *v, size_t vlen, size_t len)
{
	u8 *b = buf_alloc(test);

	memcpy(b, v, min(vlen, len) - 4);
	memcpy(b + len - 4, v + vlen - 4, 4);
	b[5] = len >> 8;
	b[6] = len;
	return b;
}

static void acc_encode_eq(struct kunit *test,
			  const struct smc_clc_accept_info *a,
			  const u8 *want, size_t len)
{
	u8 *b = buf_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_accept_encode(b, SMC_CLC_MAX_LEN, a),
			(int)len);
	KUNIT_EXPECT_MEMEQ(test, b, want, len);
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, len - 1, a),
			-EMSGSIZE);
}

/* --- smc_clc_accept --- */

static void smc_clc_acc_v1(struct kunit *test)
{
	struct smc_clc_accept_info *a = acc_alloc(test);
	u8 *want = buf_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(acc_v1, 68, a), 0);
	KUNIT_EXPECT_EQ(test, a->type, SMC_CLC_ACCEPT);
	KUNIT_EXPECT_EQ(test, a->version, 1);
	KUNIT_EXPECT_TRUE(test, a->first_contact);
	KUNIT_EXPECT_EQ(test, a->path, SMC_CLC_PATH_R);
	KUNIT_EXPECT_MEMEQ(test, a->peer_id, srv_id, 8);
	KUNIT_EXPECT_MEMEQ(test, a->gid, srv_gid_v1, 16);
	KUNIT_EXPECT_MEMEQ(test, a->mac, srv_mac, 6);
	KUNIT_EXPECT_EQ(test, a->qpn, 0x123);
	KUNIT_EXPECT_EQ(test, a->rmb_rkey, 0x5678);
	KUNIT_EXPECT_EQ(test, a->rmbe_idx, 1);
	KUNIT_EXPECT_EQ(test, a->rmbe_alert_token, 7);
	KUNIT_EXPECT_EQ(test, a->rmbe_size, 2);
	KUNIT_EXPECT_EQ(test, a->qp_mtu, 3);
	KUNIT_EXPECT_EQ(test, a->rmb_vaddr, 0xffff8a5b40000000ULL);
	KUNIT_EXPECT_EQ(test, a->psn, 0xabcdef);
	KUNIT_EXPECT_EQ(test, a->fce_len, 0);
	acc_encode_eq(test, a, acc_v1, sizeof(acc_v1));
	/* the same as a Confirm differs in the type byte only */
	a->type = SMC_CLC_CONFIRM;
	a->first_contact = false;
	memcpy(want, acc_v1, 68);
	want[4] = 3;
	want[7] = 0x10;
	acc_encode_eq(test, a, want, 68);
}

static void smc_clc_acc_v2_fce(struct kunit *test)
{
	struct smc_clc_accept_info *a = acc_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(acc_v2, 160, a), 0);
	KUNIT_EXPECT_EQ(test, a->type, SMC_CLC_ACCEPT);
	KUNIT_EXPECT_EQ(test, a->version, 2);
	KUNIT_EXPECT_TRUE(test, a->first_contact);
	KUNIT_EXPECT_MEMEQ(test, a->gid, srv_gid_v2, 16);
	KUNIT_EXPECT_EQ(test, a->qp_mtu, 5);
	KUNIT_EXPECT_MEMEQ(test, a->eid, acc_v2 + 64, 32);
	KUNIT_EXPECT_EQ(test, a->eid[7], 'T');
	KUNIT_EXPECT_EQ(test, a->fce_len, SMC_CLC_FCE_LEN_V21);
	KUNIT_EXPECT_TRUE(test, a->v2_direct);
	KUNIT_EXPECT_EQ(test, a->os_type, SMC_CLC_OS_LINUX);
	KUNIT_EXPECT_EQ(test, a->release, 1);
	KUNIT_EXPECT_MEMEQ(test, a->hostname, acc_v2 + 108, 32);
	KUNIT_EXPECT_EQ(test, a->hostname[31], 0x20);
	KUNIT_EXPECT_EQ(test, a->max_conns, 255);
	KUNIT_EXPECT_EQ(test, a->max_links, 2);
	KUNIT_EXPECT_EQ(test, a->feature_mask, 1);
	KUNIT_EXPECT_EQ(test, a->vendor_exp, 0x01020304);
	KUNIT_EXPECT_EQ(test, a->gid_cnt, 0);
	acc_encode_eq(test, a, acc_v2, sizeof(acc_v2));
}

/* the v2.0 FCE of 36 bytes: release 0, no v2.1 fields */
static void smc_clc_acc_v2_fce36(struct kunit *test)
{
	struct smc_clc_accept_info *a = acc_alloc(test);
	u8 *b = resized(test, acc_v2, 160, 144);

	b[105] = 0x20;		/* OS Linux, release 0 */
	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(b, 144, a), 0);
	KUNIT_EXPECT_EQ(test, a->fce_len, SMC_CLC_FCE_LEN_V20);
	KUNIT_EXPECT_EQ(test, a->release, 0);
	KUNIT_EXPECT_EQ(test, a->max_conns, 0);
	KUNIT_EXPECT_EQ(test, a->vendor_exp, 0);
	KUNIT_EXPECT_EQ(test, a->hostname[5], 'a');

	/* a Confirm with the 36-byte FCE and a GID list of 2 */
	b = buf_alloc(test);
	memcpy(b, conf_v2, 140);
	b[105] = 0x20;
	memcpy(b + 140, conf_v2 + 156, 4 + 32);
	memcpy(b + 176, conf_v2 + 192, 4);
	b[6] = 180;
	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(b, 180, a), 0);
	KUNIT_EXPECT_EQ(test, a->fce_len, SMC_CLC_FCE_LEN_V20);
	KUNIT_ASSERT_EQ(test, a->gid_cnt, 2);
	KUNIT_EXPECT_MEMEQ(test, a->gids[0], cli_gid1, 16);
	KUNIT_EXPECT_MEMEQ(test, a->gids[1], cli_gid2, 16);
	/* with release 1 it must be the 52-byte form, which does not fit */
	b[105] = 0x21;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_decode(b, 180, a), -EPROTO);
}

static void smc_clc_acc_confirm(struct kunit *test)
{
	struct smc_clc_accept_info *a = acc_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(conf_v2, 196, a), 0);
	KUNIT_EXPECT_EQ(test, a->type, SMC_CLC_CONFIRM);
	KUNIT_EXPECT_EQ(test, a->version, 2);
	KUNIT_EXPECT_TRUE(test, a->first_contact);
	KUNIT_EXPECT_EQ(test, a->qpn, 0xfedcba);
	KUNIT_EXPECT_EQ(test, a->rmb_rkey, 0x80000001);
	KUNIT_EXPECT_EQ(test, a->rmbe_alert_token, 0x100);
	KUNIT_EXPECT_EQ(test, a->rmbe_size, 15);
	KUNIT_EXPECT_EQ(test, a->qp_mtu, 4);
	KUNIT_EXPECT_EQ(test, a->rmb_vaddr, 0x0000000123456000ULL);
	KUNIT_EXPECT_EQ(test, a->psn, 1);
	KUNIT_EXPECT_EQ(test, a->fce_len, SMC_CLC_FCE_LEN_V21);
	KUNIT_EXPECT_EQ(test, a->hostname[5], 'b');
	KUNIT_EXPECT_EQ(test, a->feature_mask, 0);
	KUNIT_ASSERT_EQ(test, a->gid_cnt, 2);
	KUNIT_EXPECT_MEMEQ(test, a->gids[0], cli_gid1, 16);
	KUNIT_EXPECT_MEMEQ(test, a->gids[1], cli_gid2, 16);
	acc_encode_eq(test, a, conf_v2, sizeof(conf_v2));
}

/* v2 without first contact is 108 bytes: EID, no FCE */
static void smc_clc_acc_roundtrip(struct kunit *test)
{
	struct smc_clc_accept_info *in = acc_alloc(test);
	struct smc_clc_accept_info *out = acc_alloc(test);
	u8 *b = buf_alloc(test);
	int len;

	in->type = SMC_CLC_CONFIRM;
	in->version = 2;
	in->path = SMC_CLC_PATH_R;
	memcpy(in->peer_id, srv_id, 8);
	memcpy(in->gid, cli_gid1, 16);
	in->qpn = 0xffffff;
	in->rmb_rkey = 0xffffffff;
	in->rmbe_idx = 3;
	in->rmbe_alert_token = 0xdeadbeef;
	in->rmbe_size = 7;
	in->qp_mtu = 1;
	in->rmb_vaddr = ~0ULL;
	in->psn = 0x800000;
	memset(in->eid, 'E', 32);
	len = smc_clc_accept_encode(b, SMC_CLC_MAX_LEN, in);
	KUNIT_ASSERT_EQ(test, len, 108);
	KUNIT_EXPECT_EQ(test, b[7], 0x20);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(b, len, out), 0);
	KUNIT_EXPECT_MEMEQ(test, out, in, sizeof(*in));

	/* first contact with 8 GIDs: the largest Confirm, 292 bytes */
	in->first_contact = true;
	in->fce_len = SMC_CLC_FCE_LEN_V21;
	in->os_type = SMC_CLC_OS_LINUX;
	in->release = 1;
	in->max_conns = 16;
	in->max_links = 1;
	in->gid_cnt = 8;
	memset(in->gids, 0xa5, sizeof(in->gids));
	len = smc_clc_accept_encode(b, SMC_CLC_MAX_LEN, in);
	KUNIT_ASSERT_EQ(test, len, 292);
	KUNIT_ASSERT_EQ(test, smc_clc_accept_decode(b, len, out), 0);
	KUNIT_EXPECT_MEMEQ(test, out, in, sizeof(*in));
}

static void acc_bad(struct kunit *test, const u8 *b, size_t len, int err,
		    const char *what)
{
	struct smc_clc_accept_info *a = acc_alloc(test);

	KUNIT_EXPECT_EQ_MSG(test, smc_clc_accept_decode(b, len, a), err,
			    "%s", what);
}

static void smc_clc_acc_malformed(struct kunit *test)
{
	u8 *b = buf_alloc(test);

	acc_bad(test, acc_v1, 7, -EINVAL, "shorter than a header");
	acc_bad(test, acc_v1, 67, -EPROTO, "truncated");
	acc_bad(test, resized(test, acc_v1, 68, 69), 69, -EPROTO,
		"v1 length 69");
	acc_bad(test, resized(test, acc_v1, 68, 67), 67, -EPROTO,
		"v1 length 67");
	acc_bad(test, resized(test, conf_v2, 196, 107), 107, -EPROTO,
		"v2 length 107");
	/* v2 first contact needs an FCE */
	acc_bad(test, resized(test, acc_v2, 160, 108), 108, -EPROTO,
		"v2 first contact without FCE");
	acc_bad(test, resized(test, acc_v2, 160, 143), 143, -EPROTO,
		"v2 FCE of 35 bytes");
	/* a longer Accept is fine: Linux ignores what follows */
	acc_bad(test, resized(test, acc_v2, 160, 164), 164, 0,
		"v2 Accept of 164 bytes");

	memcpy(b, acc_v1, 68);
	b[3] = 0xc3;
	acc_bad(test, b, 68, -EPROTO, "bad header eyecatcher");
	memcpy(b, acc_v1, 68);
	b[66] = 0;
	acc_bad(test, b, 68, -EPROTO, "bad trailer, v1");
	memcpy(b, acc_v2, 160);
	b[159] = 0;
	acc_bad(test, b, 160, -EPROTO, "bad trailer, 160-byte Accept");
	memcpy(b, conf_v2, 196);
	b[195] = 0;
	acc_bad(test, b, 196, -EPROTO, "bad trailer, Confirm");
	/* Linux reads only 160 bytes of an Accept: no trailer check after */
	b = resized(test, acc_v2, 160, 164);
	b[163] = 0;
	acc_bad(test, b, 164, 0, "bad trailer, 164-byte Accept");

	b = buf_alloc(test);
	memcpy(b, acc_v1, 68);
	b[7] = 0x08;
	acc_bad(test, b, 68, -EPROTO, "version 0");
	b[7] = 0x1a;
	acc_bad(test, b, 68, -EPROTO, "path N");
	b[7] = 0x1b;
	acc_bad(test, b, 68, -EPROTO, "path B");
	memcpy(b, acc_v1, 68);
	b[4] = 1;
	acc_bad(test, b, 68, -EPROTO, "a Proposal");
	acc_bad(test, decl_v1, 28, -EPROTO, "a Decline");

	memcpy(b, conf_v2, 196);
	b[156] = 9;
	acc_bad(test, b, 196, -EPROTO, "9 GIDs");
	b[156] = 3;
	acc_bad(test, b, 196, -EPROTO, "3 GIDs announced, 2 sent");
	/* an Accept has no GID list: 2 more GIDs are ignored, not wrong */
	memcpy(b, conf_v2, 196);
	b[4] = SMC_CLC_ACCEPT;
	acc_bad(test, b, 196, 0, "Accept with a GID list");
}

/* we are SMC-R only: an SMC-D Accept is recognised and declined */
static void smc_clc_acc_smcd(struct kunit *test)
{
	struct smc_clc_accept_info *a = acc_alloc(test);
	u8 *b = buf_alloc(test);
	int rc;

	rc = smc_clc_accept_decode(acc_d_v1, 48, a);
	KUNIT_EXPECT_EQ(test, rc, -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, a->path, SMC_CLC_PATH_D);
	KUNIT_EXPECT_EQ(test, a->type, SMC_CLC_ACCEPT);
	KUNIT_EXPECT_EQ(test, smc_clc_decode_reason(rc),
			SMC_CLC_DECL_MODEUNSUPP);
	/* malformed SMC-D is malformed, not unsupported */
	memcpy(b, acc_d_v1, 48);
	b[47] = 0;
	acc_bad(test, b, 48, -EPROTO, "SMC-D bad trailer");
	acc_bad(test, resized(test, acc_d_v1, 48, 68), 68, -EPROTO,
		"SMC-D v1 of 68 bytes");
	/* v2 SMC-D: at least 78 */
	b = resized(test, acc_d_v1, 48, 78);
	b[7] = 0x21;
	acc_bad(test, b, 78, -EOPNOTSUPP, "SMC-D v2");
	b = resized(test, acc_d_v1, 48, 77);
	b[7] = 0x21;
	acc_bad(test, b, 77, -EPROTO, "SMC-D v2 of 77 bytes");
}

static void smc_clc_acc_encode_errors(struct kunit *test)
{
	struct smc_clc_accept_info *a = acc_alloc(test);
	u8 *b = buf_alloc(test);

	a->type = SMC_CLC_DECLINE;
	a->version = 1;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), -EINVAL);
	a->type = SMC_CLC_CONFIRM;
	a->version = 3;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), -EINVAL);
	a->version = 2;
	a->qpn = 0x1000000;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), -EINVAL);
	a->qpn = 0;
	a->psn = 0x1000000;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), -EINVAL);
	a->psn = 0;
	a->rmbe_size = 16;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), -EINVAL);
	a->rmbe_size = 0;
	a->first_contact = true;
	a->gid_cnt = 9;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), -EINVAL);
	a->gid_cnt = 0;
	KUNIT_EXPECT_EQ(test, smc_clc_accept_encode(b, 652, a), 164);
}

static struct kunit_case smc_clc_acc_cases[] = {
	KUNIT_CASE(smc_clc_acc_v1),
	KUNIT_CASE(smc_clc_acc_v2_fce),
	KUNIT_CASE(smc_clc_acc_v2_fce36),
	KUNIT_CASE(smc_clc_acc_confirm),
	KUNIT_CASE(smc_clc_acc_roundtrip),
	KUNIT_CASE(smc_clc_acc_malformed),
	KUNIT_CASE(smc_clc_acc_smcd),
	KUNIT_CASE(smc_clc_acc_encode_errors),
	{}
};

static struct kunit_suite smc_clc_acc_suite = {
	.name = "smc_clc_accept",
	.test_cases = smc_clc_acc_cases,
};

/* --- smc_clc_decline --- */

static void smc_clc_decl_v1(struct kunit *test)
{
	struct smc_clc_decline_info d;
	u8 *b = buf_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_decline_decode(decl_v1, 28, &d), 0);
	KUNIT_EXPECT_EQ(test, d.version, 1);
	KUNIT_EXPECT_MEMEQ(test, d.peer_id, srv_id, 8);
	KUNIT_EXPECT_EQ(test, d.diagnosis, SMC_CLC_DECL_SYNCERR);
	KUNIT_EXPECT_TRUE(test, d.out_of_sync);
	KUNIT_EXPECT_EQ(test, d.os_type, 0);

	/* the OS type is not sent in v1 */
	KUNIT_ASSERT_EQ(test, smc_clc_decline_encode(b, 28, 1, srv_id,
						     SMC_CLC_DECL_SYNCERR,
						     true, SMC_CLC_OS_LINUX),
			28);
	KUNIT_EXPECT_MEMEQ(test, b, decl_v1, 28);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_encode(b, 27, 1, srv_id, 0,
						     false, 0), -EMSGSIZE);
}

static void smc_clc_decl_v2(struct kunit *test)
{
	struct smc_clc_decline_info d;
	u8 *b = buf_alloc(test);

	KUNIT_ASSERT_EQ(test, smc_clc_decline_decode(decl_v2, 44, &d), 0);
	KUNIT_EXPECT_EQ(test, d.version, 2);
	KUNIT_EXPECT_MEMEQ(test, d.peer_id, srv_id, 8);
	KUNIT_EXPECT_EQ(test, d.diagnosis, SMC_CLC_DECL_SYNCERR);
	KUNIT_EXPECT_TRUE(test, d.out_of_sync);
	KUNIT_EXPECT_EQ(test, d.os_type, SMC_CLC_OS_LINUX);
	KUNIT_EXPECT_EQ(test, d.diagnosis_v2[3], 0);

	KUNIT_ASSERT_EQ(test, smc_clc_decline_encode(b, 44, 2, srv_id,
						     SMC_CLC_DECL_SYNCERR,
						     true, SMC_CLC_OS_LINUX),
			44);
	KUNIT_EXPECT_MEMEQ(test, b, decl_v2, 44);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_encode(b, 43, 2, srv_id, 0,
						     false, 0), -EMSGSIZE);

	/* no peer id, no out-of-sync, extra codes decoded */
	KUNIT_ASSERT_EQ(test, smc_clc_decline_encode(b, 44, 2, NULL,
						     SMC_CLC_DECL_NOUEID,
						     false, SMC_CLC_OS_LINUX),
			44);
	KUNIT_EXPECT_EQ(test, b[7], 0x20);
	b[39] = 0x05;
	KUNIT_ASSERT_EQ(test, smc_clc_decline_decode(b, 44, &d), 0);
	KUNIT_EXPECT_FALSE(test, d.out_of_sync);
	KUNIT_EXPECT_EQ(test, d.diagnosis, SMC_CLC_DECL_NOUEID);
	KUNIT_EXPECT_EQ(test, d.peer_id[0], 0);
	KUNIT_EXPECT_EQ(test, d.diagnosis_v2[3], 5);
}

static void decl_bad(struct kunit *test, const u8 *b, size_t len, int err,
		     const char *what)
{
	struct smc_clc_decline_info d;

	KUNIT_EXPECT_EQ_MSG(test, smc_clc_decline_decode(b, len, &d), err,
			    "%s", what);
}

static void smc_clc_decl_malformed(struct kunit *test)
{
	u8 *b = buf_alloc(test);

	decl_bad(test, decl_v1, 7, -EINVAL, "shorter than a header");
	decl_bad(test, decl_v1, 27, -EPROTO, "truncated");
	decl_bad(test, resized(test, decl_v1, 28, 29), 29, -EPROTO,
		 "v1 of 29 bytes");
	decl_bad(test, resized(test, decl_v1, 28, 27), 27, -EPROTO,
		 "v1 of 27 bytes");
	decl_bad(test, resized(test, decl_v2, 44, 43), 43, -EPROTO,
		 "v2 of 43 bytes");
	decl_bad(test, resized(test, decl_v2, 44, 28), 28, -EPROTO,
		 "v2 of 28 bytes");
	memcpy(b, decl_v1, 28);
	b[0] = 0;
	decl_bad(test, b, 28, -EPROTO, "bad header eyecatcher");
	memcpy(b, decl_v1, 28);
	b[7] = 0x08;
	decl_bad(test, b, 28, -EPROTO, "version 0");
	memcpy(b, decl_v1, 28);
	b[4] = 2;
	decl_bad(test, b, 28, -EPROTO, "an Accept");
	/* Linux does not check a Decline's trailer */
	memcpy(b, decl_v2, 44);
	memset(b + 40, 0, 4);
	decl_bad(test, b, 44, 0, "zero trailer");

	KUNIT_EXPECT_EQ(test, smc_clc_decline_encode(b, 44, 0, NULL, 0, false,
						     0), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_encode(b, 44, 3, NULL, 0, false,
						     0), -EINVAL);
	KUNIT_EXPECT_EQ(test, smc_clc_decline_encode(b, 44, 2, NULL, 0, false,
						     16), -EINVAL);
}

static struct kunit_case smc_clc_decl_cases[] = {
	KUNIT_CASE(smc_clc_decl_v1),
	KUNIT_CASE(smc_clc_decl_v2),
	KUNIT_CASE(smc_clc_decl_malformed),
	{}
};

static struct kunit_suite smc_clc_decl_suite = {
	.name = "smc_clc_decline",
	.test_cases = smc_clc_decl_cases,
};

/* --- smc_clc_frame: what to read after peeking a header --- */

static void frame_expect(struct kunit *test, const u8 *hdr, u8 type,
			 int err, u16 want)
{
	u16 len = 0;

	KUNIT_EXPECT_EQ_MSG(test, smc_clc_frame_check(hdr, type, &len), err,
			    "header %8ph, expecting type %u", hdr, type);
	if (!err)
		KUNIT_EXPECT_EQ(test, len, want);
}

static void smc_clc_frame_ok(struct kunit *test)
{
	/* proposal headers: v1 of 52, v2 of 84 and of 652 */
	static const u8 p1[8] = { 0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0x34, 0x10 };
	static const u8 p2[8] = { 0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0x54, 0x2a };
	static const u8 pm[8] = { 0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x02, 0x8c, 0x20 };

	frame_expect(test, acc_v1, SMC_CLC_ACCEPT, 0, 68);
	frame_expect(test, acc_v2, SMC_CLC_ACCEPT, 0, 160);
	frame_expect(test, conf_v2, SMC_CLC_CONFIRM, 0, 196);
	frame_expect(test, acc_d_v1, SMC_CLC_ACCEPT, 0, 48);
	frame_expect(test, p1, SMC_CLC_PROPOSAL, 0, 52);
	frame_expect(test, p2, SMC_CLC_PROPOSAL, 0, 84);
	frame_expect(test, pm, SMC_CLC_PROPOSAL, 0, 652);
	/* a Decline may come instead of anything */
	frame_expect(test, decl_v1, SMC_CLC_ACCEPT, 0, 28);
	frame_expect(test, decl_v2, SMC_CLC_CONFIRM, 0, 44);
	frame_expect(test, decl_v2, SMC_CLC_PROPOSAL, 0, 44);
	frame_expect(test, decl_v2, SMC_CLC_DECLINE, 0, 44);
}

static void smc_clc_frame_bad(struct kunit *test)
{
	u8 h[8];

	/* unexpected types */
	frame_expect(test, acc_v1, SMC_CLC_CONFIRM, -EPROTO, 0);
	frame_expect(test, conf_v2, SMC_CLC_ACCEPT, -EPROTO, 0);
	frame_expect(test, acc_v1, SMC_CLC_DECLINE, -EPROTO, 0);
	frame_expect(test, acc_v1, SMC_CLC_PROPOSAL, -EPROTO, 0);
	/* bad eyecatcher, unknown type, version 0 */
	memcpy(h, acc_v1, 8);
	h[1] = 0xd5;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	memcpy(h, acc_v1, 8);
	h[4] = 5;
	frame_expect(test, h, 5, -EPROTO, 0);
	h[4] = 0;
	frame_expect(test, h, 0, -EPROTO, 0);
	memcpy(h, acc_v1, 8);
	h[7] = 0x08;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	/* Accept path N or B */
	h[7] = 0x1a;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	h[7] = 0x1b;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	/* lengths */
	memcpy(h, acc_v1, 8);
	h[6] = 69;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	memcpy(h, acc_v2, 8);
	h[6] = 107;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	h[5] = 0x02;
	h[6] = 0x8d;	/* 653 */
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	h[6] = 0x8c;	/* 652 */
	frame_expect(test, h, SMC_CLC_ACCEPT, 0, 652);
	memcpy(h, acc_d_v1, 8);
	h[6] = 49;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	memcpy(h, decl_v2, 8);
	h[6] = 28;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	memcpy(h, decl_v1, 8);
	h[6] = 44;
	frame_expect(test, h, SMC_CLC_ACCEPT, -EPROTO, 0);
	memcpy(h, decl_v1, 8);
	h[4] = 1;
	h[6] = 51;
	frame_expect(test, h, SMC_CLC_PROPOSAL, -EPROTO, 0);
	h[7] = 0x22;
	h[6] = 83;
	frame_expect(test, h, SMC_CLC_PROPOSAL, -EPROTO, 0);
	h[5] = 0x02;
	h[6] = 0x8d;	/* 653 */
	frame_expect(test, h, SMC_CLC_PROPOSAL, -EPROTO, 0);
	/* every framing error means: no Decline, abort as Linux does */
	KUNIT_EXPECT_EQ(test, smc_clc_decode_reason(-EPROTO), 0);
	KUNIT_EXPECT_EQ(test, smc_clc_decode_reason(-EINVAL), 0);
}

static struct kunit_case smc_clc_frame_cases[] = {
	KUNIT_CASE(smc_clc_frame_ok),
	KUNIT_CASE(smc_clc_frame_bad),
	{}
};

static struct kunit_suite smc_clc_frame_suite = {
	.name = "smc_clc_frame",
	.test_cases = smc_clc_frame_cases,
};

kunit_test_suites(&smc_clc_acc_suite, &smc_clc_decl_suite,
		  &smc_clc_frame_suite);
