// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the LLC wire codec in smc_llc_wire.c.  Every vector is
 * written by hand from the byte tables of the protocol reference (the
 * comments give the offsets), so the codec is checked against the wire
 * format, not against itself; the round trips then check that encode
 * gives back exactly these bytes.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "smc_llc_wire.h"

static const u8 gid_a[16] = {
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
};

static const u8 gid_b[16] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x02, 0x01,
};

static const u8 mac_a[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

static const u8 confirm_link_v1[44] = {
	/*  0 */ 0x01, 0x2c, 0x00, 0x03,	/* no RMBE eyecatcher */
	/*  4 */ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,	/* sender MAC */
	/* sender GID */
	/* 10 */ 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 18 */ 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	/* 26 */ 0x00, 0x01, 0x23,		/* QPN 0x123 */
	/* 29 */ 0x01,				/* link number */
	/* 30 */ 0x00, 0x00, 0x01, 0x01,	/* link uid */
	/* 34 */ 0x02,				/* max_links */
	/* 35 */ 0x00,				/* max_conns: reserved */
	/* 36 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* v2.1 response from an x86 peer: length_v2 little-endian */
static const u8 confirm_link_v21[44] = {
	/*  0 */ 0x21, 0x2c, 0x00, 0x83,	/* v2, len 44 LE, RESP|no EC */
	/*  4 */ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
	/* sender GID */
	/* 10 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 18 */ 0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x02, 0x01,
	/* 26 */ 0xab, 0xcd, 0xef,		/* QPN 0xabcdef */
	/* 29 */ 0x03,
	/* 30 */ 0x12, 0x34, 0x56, 0x78,
	/* 34 */ 0x02,
	/* 35 */ 0x10,				/* max_conns 16 */
	/* 36 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 add_link_v1[44] = {
	/*  0 */ 0x02, 0x2c, 0x00, 0x00,
	/*  4 */ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,	/* sender MAC */
	/* 10 */ 0x00, 0x00,
	/* sender GID */
	/* 12 */ 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 20 */ 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	/* 28 */ 0x00, 0x02, 0x34,		/* QPN 0x234 */
	/* 31 */ 0x02,				/* new link number */
	/* 32 */ 0x05,				/* MTU 4096 */
	/* 33 */ 0x12, 0x34, 0x56,		/* PSN */
	/* 36 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* v1 reject: RESP|REJ, reason 1 in byte 2 bits 3-0 */
static const u8 add_link_v1_rej[44] = {
	/*  0 */ 0x02, 0x2c, 0x01, 0xc0,
	/*  4 */ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
	/* 10 */ 0x00, 0x00,
	/* sender GID */
	/* 12 */ 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 20 */ 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	/* 28 */ 0x00, 0x02, 0x34, 0x02, 0x05, 0x12, 0x34, 0x56,
	/* 36 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* v2 with extension and two triples, length 104 = 0x68, little-endian */
static const u8 add_link_v2_le[104] = {
	/*  0 */ 0x22, 0x68, 0x00, 0x00,	/* v2, length_v2 104 LE */
	/*  4 */ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
	/* 10 */ 0x00, 0x00,
	/* sender GID */
	/* 12 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 20 */ 0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x02, 0x01,
	/* 28 */ 0x00, 0x00, 0x42,		/* QPN 0x42 */
	/* 31 */ 0x02,
	/* 32 */ 0x03,				/* MTU 1024 */
	/* 33 */ 0x00, 0x00, 0x01,		/* PSN 1 */
	/* 36 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 44 */ 0x80, 0x00,			/* v2_direct, - */
	/* client target GID */
	/* 46 */ 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 54 */ 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	/* 62 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* reserved */
	/* 70 */ 0x02, 0x00,			/* num_rkeys 2 LE */
	/* 72 */ 0x00, 0x00, 0x11, 0x11,	/* triple 0: rkey */
	/* 76 */ 0x00, 0x00, 0x22, 0x22,	/* rkey on the new link */
	/* 80 */ 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x50, 0x00,
	/* 88 */ 0x00, 0x00, 0x33, 0x33,	/* triple 1 */
	/* 92 */ 0x00, 0x00, 0x44, 0x44,
	/* 96 */ 0xff, 0xff, 0x88, 0x88, 0x12, 0x34, 0x00, 0x00,
};

static const u8 add_link_cont_v1[44] = {
	/*  0 */ 0x03, 0x2c, 0x00, 0x80,	/* as the client sends it */
	/*  4 */ 0x02,				/* link number */
	/*  5 */ 0x03,				/* 3 triples to go */
	/*  6 */ 0x00, 0x00,
	/*  8 */ 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x22, 0x22,
	/* 16 */ 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x50, 0x00,
	/* 24 */ 0x00, 0x00, 0x33, 0x33, 0x00, 0x00, 0x44, 0x44,
	/* 32 */ 0xff, 0xff, 0x88, 0x88, 0x12, 0x34, 0x00, 0x00,
	/* 40 */ 0x00, 0x00, 0x00, 0x00,
};

static const u8 delete_link_v1[44] = {
	/*  0 */ 0x04, 0x2c, 0x00, 0x60,	/* ALL|ORDERLY */
	/*  4 */ 0x00,				/* link 0: all */
	/*  5 */ 0x00, 0x03, 0x00, 0x00,	/* program-initiated */
	/*  9 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 17 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 25 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 33 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 41 */ 0x00, 0x00, 0x00,
};

static const u8 delete_link_v2_resp[44] = {
	/*  0 */ 0x24, 0x00, 0x2c, 0x80,	/* length_v2 BE, RESP */
	/*  4 */ 0x07,
	/*  5 */ 0x00, 0x10, 0x00, 0x00,	/* unknown link id */
	/*  9 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 17 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 25 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 33 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 41 */ 0x00, 0x00, 0x00,
};

static const u8 confirm_rkey_v1[44] = {
	/*  0 */ 0x06, 0x2c, 0x00, 0x00,
	/*  4 */ 0x01,				/* one further rtoken */
	/*  5 */ 0x00, 0x00, 0xab, 0xcd,	/* rkey, this link */
	/*  9 */ 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x40, 0x00,
	/* 17 */ 0x02,				/* link id 2 */
	/* 18 */ 0x00, 0x00, 0xbc, 0xde,
	/* 22 */ 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x80, 0x00,
	/* 30 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 38 */ 0x00, 0x00, 0x00, 0x00, 0x00,	/* unused rtoken */
	/* 43 */ 0x00,
};

static const u8 confirm_rkey_cont_v1[44] = {
	/*  0 */ 0x08, 0x2c, 0x00, 0x00,
	/*  4 */ 0x02,				/* num_rkeys */
	/*  5 */ 0x01, 0x00, 0x00, 0x00, 0x11,
	/* 10 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	/* 18 */ 0x02, 0x00, 0x00, 0x00, 0x22,
	/* 23 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00,
	/* 31 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 39 */ 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* response: RESP|NEG, rkey[1] not found is bit 6 */
static const u8 delete_rkey_v1_resp[44] = {
	/*  0 */ 0x09, 0x2c, 0x00, 0xa0,
	/*  4 */ 0x02, 0x40, 0x00, 0x00,	/* num_rkeys, err_mask */
	/*  8 */ 0x00, 0x00, 0x11, 0x11,
	/* 12 */ 0x00, 0x00, 0x22, 0x22,
	/* 16 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 24 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 32 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 40 */ 0x00, 0x00, 0x00, 0x00,
};

/* v2: ten rkeys run to offset 48 */
static const u8 delete_rkey_v2[48] = {
	/*  0 */ 0x29, 0x30, 0x00, 0x00,	/* length_v2 48 LE */
	/*  4 */ 0x0a, 0x00, 0x00, 0x00,
	/*  8 */ 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,
	/* 16 */ 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04,
	/* 24 */ 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x06,
	/* 32 */ 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x08,
	/* 40 */ 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x0a,
};

static const u8 test_link_v1[44] = {
	/*  0 */ 0x07, 0x2c, 0x00, 0x00,
	/*  4 */ 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	/* 12 */ 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	/* 20 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 28 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 36 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 req_add_link_v2[44] = {
	/*  0 */ 0x25, 0x2c, 0x00, 0x00,
	/*  4 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 12 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 20 */ 0x00, 0x00, 0x00, 0x00,
	/* 24 */ 0x01, 0x00, 0x00, 0x00,	/* gid_cnt 1 */
	/* 28 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 36 */ 0x00, 0x00, 0xff, 0xff, 0x0a, 0x09, 0x02, 0x01,
};

/* decode, check, encode in the order found: must give the same bytes */
static void llc_roundtrip(struct kunit *test, const u8 *vec, size_t len,
			  struct smc_llc_msg_info *m)
{
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, smc_llc_decode(vec, len, m), 0);
	KUNIT_EXPECT_EQ(test, smc_llc_encode(out, len, m, m->order), len);
	KUNIT_EXPECT_MEMEQ(test, out, vec, len);
}

static void smc_llc_confirm_link(struct kunit *test)
{
	struct smc_llc_msg_info m;

	llc_roundtrip(test, confirm_link_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_CONFIRM_LINK);
	KUNIT_EXPECT_EQ(test, m.version, SMC_LLC_V1);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_NO_RMBE_EYEC);
	KUNIT_EXPECT_EQ(test, m.length, 44);
	KUNIT_EXPECT_MEMEQ(test, m.confirm_link.mac, mac_a, 6);
	KUNIT_EXPECT_MEMEQ(test, m.confirm_link.gid, gid_a, 16);
	KUNIT_EXPECT_EQ(test, m.confirm_link.qpn, 0x123);
	KUNIT_EXPECT_EQ(test, m.confirm_link.link_num, 1);
	KUNIT_EXPECT_EQ(test, m.confirm_link.link_uid, 0x101);
	KUNIT_EXPECT_EQ(test, m.confirm_link.max_links, 2);
	KUNIT_EXPECT_EQ(test, m.confirm_link.max_conns, 0);

	llc_roundtrip(test, confirm_link_v21, 44, &m);
	KUNIT_EXPECT_EQ(test, m.version, SMC_LLC_V2);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_RESP | 0x03);
	KUNIT_EXPECT_MEMEQ(test, m.confirm_link.gid, gid_b, 16);
	KUNIT_EXPECT_EQ(test, m.confirm_link.qpn, 0xabcdef);
	KUNIT_EXPECT_EQ(test, m.confirm_link.link_num, 3);
	KUNIT_EXPECT_EQ(test, m.confirm_link.link_uid, 0x12345678);
	KUNIT_EXPECT_EQ(test, m.confirm_link.max_conns, 16);
}

static void smc_llc_add_link_v1(struct kunit *test)
{
	struct smc_llc_msg_info m;

	llc_roundtrip(test, add_link_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_ADD_LINK);
	KUNIT_EXPECT_EQ(test, m.flags, 0);
	KUNIT_EXPECT_MEMEQ(test, m.add_link.mac, mac_a, 6);
	KUNIT_EXPECT_MEMEQ(test, m.add_link.gid, gid_a, 16);
	KUNIT_EXPECT_EQ(test, m.add_link.qpn, 0x234);
	KUNIT_EXPECT_EQ(test, m.add_link.link_num, 2);
	KUNIT_EXPECT_EQ(test, m.add_link.qp_mtu, 5);
	KUNIT_EXPECT_EQ(test, m.add_link.psn, 0x123456);
	KUNIT_EXPECT_EQ(test, m.add_link.reject_reason, 0);
	KUNIT_EXPECT_FALSE(test, m.add_link.has_ext);

	llc_roundtrip(test, add_link_v1_rej, 44, &m);
	KUNIT_EXPECT_EQ(test, m.flags,
			SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_ADD_LINK_REJ);
	KUNIT_EXPECT_EQ(test, m.add_link.reject_reason,
			SMC_LLC_ADD_LINK_REJ_NO_ALT_PATH);
}

static void add_link_v2_check(struct kunit *test,
			      const struct smc_llc_msg_info *m)
{
	struct smc_llc_rkey_info rk;

	KUNIT_EXPECT_EQ(test, m->version, SMC_LLC_V2);
	KUNIT_EXPECT_EQ(test, m->length, 104);
	KUNIT_EXPECT_MEMEQ(test, m->add_link.gid, gid_b, 16);
	KUNIT_EXPECT_EQ(test, m->add_link.qpn, 0x42);
	KUNIT_EXPECT_EQ(test, m->add_link.qp_mtu, 3);
	KUNIT_EXPECT_EQ(test, m->add_link.psn, 1);
	KUNIT_ASSERT_TRUE(test, m->add_link.has_ext);
	KUNIT_EXPECT_TRUE(test, m->add_link.v2_direct);
	KUNIT_EXPECT_MEMEQ(test, m->add_link.target_gid, gid_a, 16);
	KUNIT_ASSERT_EQ(test, m->add_link.num_rkeys, 2);
	smc_llc_rkey_get(&m->add_link.rkeys[0], &rk);
	KUNIT_EXPECT_EQ(test, rk.rkey, 0x1111);
	KUNIT_EXPECT_EQ(test, rk.rkey_new, 0x2222);
	KUNIT_EXPECT_EQ(test, rk.vaddr_new, 0x12345000ULL);
	smc_llc_rkey_get(&m->add_link.rkeys[1], &rk);
	KUNIT_EXPECT_EQ(test, rk.rkey, 0x3333);
	KUNIT_EXPECT_EQ(test, rk.rkey_new, 0x4444);
	KUNIT_EXPECT_EQ(test, rk.vaddr_new, 0xffff888812340000ULL);
}

static void smc_llc_add_link_v2(struct kunit *test)
{
	u8 *be = kunit_kzalloc(test, sizeof(add_link_v2_le), GFP_KERNEL);
	struct smc_llc_msg_info m;

	KUNIT_ASSERT_NOT_NULL(test, be);
	llc_roundtrip(test, add_link_v2_le, sizeof(add_link_v2_le), &m);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);
	KUNIT_EXPECT_FALSE(test, m.add_link.num_rkeys_derived);
	add_link_v2_check(test, &m);

	/* from an s390x peer: both 16-bit fields big-endian */
	memcpy(be, add_link_v2_le, sizeof(add_link_v2_le));
	be[1] = 0x00;
	be[2] = 0x68;
	be[70] = 0x00;
	be[71] = 0x02;
	llc_roundtrip(test, be, sizeof(add_link_v2_le), &m);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_BE);
	KUNIT_EXPECT_FALSE(test, m.add_link.num_rkeys_derived);
	add_link_v2_check(test, &m);
}

/* length little-endian but num_rkeys big-endian: 0x0200 does not fit */
static void smc_llc_add_link_v2_swapped(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, sizeof(add_link_v2_le), GFP_KERNEL);
	struct smc_llc_msg_info m;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, add_link_v2_le, sizeof(add_link_v2_le));
	buf[70] = 0x00;
	buf[71] = 0x02;
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 104, &m), 0);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);
	KUNIT_EXPECT_TRUE(test, m.add_link.num_rkeys_derived);
	add_link_v2_check(test, &m);

	/* a count above what the length covers is cut to the length */
	buf[70] = 0x03;
	buf[71] = 0x00;
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 104, &m), 0);
	KUNIT_EXPECT_TRUE(test, m.add_link.num_rkeys_derived);
	KUNIT_EXPECT_EQ(test, m.add_link.num_rkeys, 2);

	/* fewer than the length covers is taken as is */
	buf[70] = 0x01;
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 104, &m), 0);
	KUNIT_EXPECT_FALSE(test, m.add_link.num_rkeys_derived);
	KUNIT_EXPECT_EQ(test, m.add_link.num_rkeys, 1);
}

/*
 * A Linux client rejects a v2 ADD_LINK by echoing the first 44 bytes of
 * the request with RESP|REJ and the reason or-ed into byte 2, which is
 * part of length_v2 (here 104 LE becomes 0x0168).
 */
static void smc_llc_add_link_v2_reject(struct kunit *test)
{
	u8 buf[44], out[44];
	struct smc_llc_msg_info m;

	memcpy(buf, add_link_v2_le, 44);
	buf[2] |= 0x01;
	buf[3] = 0xc0;
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 44, &m), 0);
	KUNIT_EXPECT_EQ(test, m.length, 44);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);
	KUNIT_EXPECT_EQ(test, m.add_link.reject_reason, 1);
	KUNIT_EXPECT_FALSE(test, m.add_link.has_ext);
	KUNIT_EXPECT_EQ(test, m.add_link.qpn, 0x42);

	/* ours: length 44 with the reason on top, 0x2c 0x01 LE */
	KUNIT_ASSERT_EQ(test, smc_llc_encode(out, sizeof(out), &m,
					     SMC_LLC_ORDER_LE), 44);
	KUNIT_EXPECT_EQ(test, out[0], 0x22);
	KUNIT_EXPECT_EQ(test, out[1], 0x2c);
	KUNIT_EXPECT_EQ(test, out[2], 0x01);
	KUNIT_EXPECT_EQ(test, out[3], 0xc0);
	KUNIT_ASSERT_EQ(test, smc_llc_decode(out, 44, &m), 0);
	KUNIT_EXPECT_EQ(test, m.add_link.reject_reason, 1);

	/*
	 * Big-endian: 0x00 0x2d, still a length of at least 44 for the
	 * peer, but the nibble now reads 0xd: in v2 only the flag counts.
	 */
	KUNIT_ASSERT_EQ(test, smc_llc_encode(out, sizeof(out), &m,
					     SMC_LLC_ORDER_BE), 44);
	KUNIT_EXPECT_EQ(test, out[1], 0x00);
	KUNIT_EXPECT_EQ(test, out[2], 0x2d);
	KUNIT_EXPECT_EQ(test, out[3], 0xc0);
	KUNIT_ASSERT_EQ(test, smc_llc_decode(out, 44, &m), 0);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_BE);
	KUNIT_EXPECT_EQ(test, m.length, 44);
	KUNIT_EXPECT_EQ(test, m.flags,
			SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_ADD_LINK_REJ);
	KUNIT_EXPECT_EQ(test, m.add_link.reject_reason, 0xd);
}

static void smc_llc_add_link_cont(struct kunit *test)
{
	struct smc_llc_msg_info m;

	llc_roundtrip(test, add_link_cont_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_ADD_LINK_CONT);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_RESP);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.link_num, 2);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.num_rkeys, 3);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.rkeys[0].rkey, 0x1111);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.rkeys[0].rkey_new, 0x2222);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.rkeys[0].vaddr_new,
			0x12345000ULL);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.rkeys[1].rkey, 0x3333);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.rkeys[1].rkey_new, 0x4444);
	KUNIT_EXPECT_EQ(test, m.add_link_cont.rkeys[1].vaddr_new,
			0xffff888812340000ULL);
}

static void smc_llc_delete_link(struct kunit *test)
{
	struct smc_llc_msg_info m;

	llc_roundtrip(test, delete_link_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_DELETE_LINK);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_DEL_LINK_ALL |
			SMC_LLC_FLAG_DEL_LINK_ORDERLY);
	KUNIT_EXPECT_EQ(test, m.delete_link.link_num, 0);
	KUNIT_EXPECT_EQ(test, m.delete_link.reason,
			SMC_LLC_DEL_PROG_INIT_TERM);

	llc_roundtrip(test, delete_link_v2_resp, 44, &m);
	KUNIT_EXPECT_EQ(test, m.version, SMC_LLC_V2);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_BE);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_RESP);
	KUNIT_EXPECT_EQ(test, m.delete_link.link_num, 7);
	KUNIT_EXPECT_EQ(test, m.delete_link.reason, SMC_LLC_DEL_NOLNK);
}

static void smc_llc_delete_link_reasons(struct kunit *test)
{
	static const u32 reasons[] = {
		0x00010000, 0x00020000, 0x00030000, 0x00040000, 0x00050000,
		0x00100000, 0x00200000, 0,
	};
	struct smc_llc_msg_info m = {
		.type = SMC_LLC_DELETE_LINK, .version = SMC_LLC_V1,
		.delete_link.link_num = 1,
	};
	unsigned int i;
	u8 out[44];

	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_LOST_PATH, reasons[0]);
	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_OP_INIT_TERM, reasons[1]);
	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_PROG_INIT_TERM, reasons[2]);
	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_PROT_VIOL, reasons[3]);
	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_NO_ASYM_NEEDED, reasons[4]);
	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_NOLNK, reasons[5]);
	KUNIT_EXPECT_EQ(test, SMC_LLC_DEL_NOLGR, reasons[6]);
	for (i = 0; i < ARRAY_SIZE(reasons); i++) {
		m.delete_link.reason = reasons[i];
		KUNIT_ASSERT_EQ(test, smc_llc_encode(out, sizeof(out), &m,
						     SMC_LLC_ORDER_LE), 44);
		KUNIT_EXPECT_EQ(test, out[5], reasons[i] >> 24);
		KUNIT_EXPECT_EQ(test, out[6], (reasons[i] >> 16) & 0xff);
		KUNIT_EXPECT_EQ(test, out[7], (reasons[i] >> 8) & 0xff);
		KUNIT_EXPECT_EQ(test, out[8], reasons[i] & 0xff);
	}
}

static void smc_llc_confirm_rkey(struct kunit *test)
{
	struct smc_llc_msg_info m;
	u8 buf[44];

	llc_roundtrip(test, confirm_rkey_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_CONFIRM_RKEY);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[0].link_id, 1);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[0].rkey, 0xabcd);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[0].vaddr,
			0x100004000ULL);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].link_id, 2);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].rkey, 0xbcde);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].vaddr,
			0x200008000ULL);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[2].link_id, 0);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[2].rkey, 0);

	/* negative response: RESP|NEG|RETRY, as v2 */
	memcpy(buf, confirm_rkey_v1, 44);
	buf[0] = 0x26;
	buf[3] = 0xb0;
	llc_roundtrip(test, buf, 44, &m);
	KUNIT_EXPECT_EQ(test, m.version, SMC_LLC_V2);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_RESP |
			SMC_LLC_FLAG_RKEY_NEG | SMC_LLC_FLAG_RKEY_RETRY);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].rkey, 0xbcde);

	llc_roundtrip(test, confirm_rkey_cont_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_CONFIRM_RKEY_CONT);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.num_rkeys, 2);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[0].link_id, 1);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[0].rkey, 0x11);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[0].vaddr, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].link_id, 2);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].rkey, 0x22);
	KUNIT_EXPECT_EQ(test, m.confirm_rkey.rtoken[1].vaddr, 0x2000ULL);
}

static void smc_llc_delete_rkey(struct kunit *test)
{
	struct smc_llc_msg_info m;
	unsigned int i;

	llc_roundtrip(test, delete_rkey_v1_resp, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_DELETE_RKEY);
	KUNIT_EXPECT_EQ(test, m.flags,
			SMC_LLC_FLAG_RESP | SMC_LLC_FLAG_RKEY_NEG);
	KUNIT_ASSERT_EQ(test, m.delete_rkey.num_rkeys, 2);
	KUNIT_EXPECT_EQ(test, m.delete_rkey.err_mask, 0x40);
	KUNIT_EXPECT_EQ(test, smc_llc_del_rkey_get(&m, 0), 0x1111);
	KUNIT_EXPECT_EQ(test, smc_llc_del_rkey_get(&m, 1), 0x2222);

	llc_roundtrip(test, delete_rkey_v2, sizeof(delete_rkey_v2), &m);
	KUNIT_EXPECT_EQ(test, m.version, SMC_LLC_V2);
	KUNIT_EXPECT_EQ(test, m.length, 48);
	KUNIT_ASSERT_EQ(test, m.delete_rkey.num_rkeys, 10);
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, smc_llc_del_rkey_get(&m, i), i + 1);
}

static void smc_llc_test_link(struct kunit *test)
{
	struct smc_llc_msg_info m;
	unsigned int i;
	u8 buf[44];

	llc_roundtrip(test, test_link_v1, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_TEST_LINK);
	for (i = 0; i < SMC_LLC_TEST_LINK_DATA; i++)
		KUNIT_EXPECT_EQ(test, m.test_link.data[i], i);

	/* the v2 response echoes the data */
	memcpy(buf, test_link_v1, 44);
	buf[0] = 0x27;
	buf[3] = 0x80;
	llc_roundtrip(test, buf, 44, &m);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_RESP);
	KUNIT_EXPECT_EQ(test, m.test_link.data[15], 15);
}

static void smc_llc_req_add_link(struct kunit *test)
{
	struct smc_llc_msg_info m;
	u8 buf[44] = { 0x25, 0x2c, 0x00, 0x80 };

	llc_roundtrip(test, req_add_link_v2, 44, &m);
	KUNIT_EXPECT_EQ(test, m.type, SMC_LLC_REQ_ADD_LINK);
	KUNIT_EXPECT_EQ(test, m.version, SMC_LLC_V2);
	KUNIT_ASSERT_EQ(test, m.req_add_link.gid_cnt, 1);
	KUNIT_EXPECT_MEMEQ(test, m.req_add_link.gids, gid_b, 16);

	/* the refusal: RESP with the data zeroed */
	llc_roundtrip(test, buf, 44, &m);
	KUNIT_EXPECT_EQ(test, m.flags, SMC_LLC_FLAG_RESP);
	KUNIT_EXPECT_EQ(test, m.req_add_link.gid_cnt, 0);
}

/* v2 messages of 44 bytes with length_v2 in either order */
static void smc_llc_v2_orders(struct kunit *test)
{
	static const u8 types[] = { 0x21, 0x22, 0x24, 0x25, 0x26, 0x27, 0x29 };
	struct smc_llc_msg_info m;
	unsigned int i;
	u8 buf[44];

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		memset(buf, 0, sizeof(buf));
		buf[0] = types[i];
		buf[1] = 0x2c;
		KUNIT_EXPECT_EQ_MSG(test, smc_llc_decode(buf, 44, &m), 0,
				    "type %#x LE", types[i]);
		KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);
		KUNIT_EXPECT_EQ(test, m.length, 44);
		buf[1] = 0x00;
		buf[2] = 0x2c;
		KUNIT_EXPECT_EQ_MSG(test, smc_llc_decode(buf, 44, &m), 0,
				    "type %#x BE", types[i]);
		KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_BE);
		KUNIT_EXPECT_EQ(test, m.length, 44);
	}
}

/* both readings plausible: the one equal to what arrived, else LE */
static void smc_llc_v2_order_ambiguous(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 600, GFP_KERNEL);
	struct smc_llc_msg_info m;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[0] = 0x27;
	buf[1] = 0x01;		/* LE 0x0201 = 513, BE 0x0102 = 258 */
	buf[2] = 0x02;
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 258, &m), 0);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_BE);
	KUNIT_EXPECT_EQ(test, m.length, 258);
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 513, &m), 0);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);
	KUNIT_EXPECT_EQ(test, m.length, 513);
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 600, &m), 0);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_LE);

	buf[1] = 0x02;		/* LE 0x0102 = 258, BE 0x0201 = 513 */
	buf[2] = 0x01;
	KUNIT_ASSERT_EQ(test, smc_llc_decode(buf, 513, &m), 0);
	KUNIT_EXPECT_EQ(test, m.order, SMC_LLC_ORDER_BE);
	KUNIT_EXPECT_EQ(test, m.length, 513);
}

static void smc_llc_malformed(struct kunit *test)
{
	u8 *big = kunit_kzalloc(test, 8448, GFP_KERNEL);
	struct smc_llc_msg_info m;
	u8 buf[48];

	KUNIT_ASSERT_NOT_NULL(test, big);
	/* short */
	KUNIT_EXPECT_EQ(test, smc_llc_decode(confirm_link_v1, 43, &m),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, smc_llc_decode(confirm_link_v1, 0, &m),
			-EMSGSIZE);
	/* v1 length byte must be 44 */
	memcpy(buf, test_link_v1, 44);
	buf[1] = 0x2b;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
	buf[1] = 0x2d;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
	buf[1] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
	/* v2 below 44 in both orders: 43 LE is 0x2b00 BE, above 8192 */
	buf[0] = 0x27;
	buf[1] = 0x2b;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
	buf[1] = 0x00;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
	/* v2 longer than what arrived */
	KUNIT_EXPECT_EQ(test, smc_llc_decode(add_link_v2_le, 44, &m),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, smc_llc_decode(add_link_v2_le, 103, &m),
			-EMSGSIZE);
	/* v2 above 8192: 0x2100 LE, 0x0021 BE is below 44 */
	big[0] = 0x27;
	big[1] = 0x00;
	big[2] = 0x21;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(big, 8448, &m), -EMSGSIZE);
	big[2] = 0x20;		/* 8192 exactly is fine */
	KUNIT_EXPECT_EQ(test, smc_llc_decode(big, 8448, &m), 0);
	KUNIT_EXPECT_EQ(test, m.length, 8192);
	/* counts that reach past the message */
	memcpy(buf, delete_rkey_v1_resp, 44);
	buf[4] = 9;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
	memcpy(buf, delete_rkey_v2, 48);
	buf[4] = 11;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 48, &m), -EPROTO);
	memcpy(buf, req_add_link_v2, 44);
	buf[24] = 2;
	KUNIT_EXPECT_EQ(test, smc_llc_decode(buf, 44, &m), -EPROTO);
}

static void smc_llc_unknown_type(struct kunit *test)
{
	static const u8 unknown[] = {
		0x00, 0x05, 0x0a, 0x0f, 0x11, 0x16, 0x20, 0x23, 0x28, 0x2a,
		0x2f, 0x31, 0x80, 0x8a, 0xfe, 0xff,
	};
	static const u8 known[] = {
		0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09,
		0x21, 0x22, 0x24, 0x25, 0x26, 0x27, 0x29,
	};
	struct smc_llc_msg_info m;
	unsigned int i;
	u8 buf[44] = {};

	buf[1] = 0x2c;
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		buf[0] = unknown[i];
		KUNIT_EXPECT_EQ_MSG(test, smc_llc_decode(buf, 44, &m),
				    -ENOMSG, "type %#x", unknown[i]);
	}
	for (i = 0; i < ARRAY_SIZE(known); i++) {
		buf[0] = known[i];
		KUNIT_EXPECT_EQ_MSG(test, smc_llc_decode(buf, 44, &m), 0,
				    "type %#x", known[i]);
		KUNIT_EXPECT_EQ(test, m.type, known[i] & 0x0f);
	}
}

static void smc_llc_encode_errors(struct kunit *test)
{
	const enum smc_llc_order o = SMC_LLC_ORDER_LE;
	struct smc_llc_msg_info m = {};
	u8 buf[104];

	m.version = SMC_LLC_V1;
	m.type = SMC_LLC_REQ_ADD_LINK;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 44, &m, o), -EINVAL);
	m.version = SMC_LLC_V2;
	m.type = SMC_LLC_ADD_LINK_CONT;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 44, &m, o), -EINVAL);
	m.type = 0x0a;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 44, &m, o), -EINVAL);
	m.version = 1;
	m.type = SMC_LLC_TEST_LINK;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 44, &m, o), -EINVAL);
	/* v1 DELETE_RKEY holds eight */
	m.version = SMC_LLC_V1;
	m.type = SMC_LLC_DELETE_RKEY;
	m.delete_rkey.num_rkeys = 9;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 44, &m, o), -EINVAL);
	/* a list without its entries */
	m.version = SMC_LLC_V2;
	m.delete_rkey.rkeys = NULL;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 48, &m, o), -EINVAL);
	m.type = SMC_LLC_ADD_LINK;
	m.add_link.has_ext = true;
	m.add_link.num_rkeys = 2;
	m.add_link.rkeys = NULL;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 104, &m, o), -EINVAL);
	/* no room */
	m.add_link.num_rkeys = 0;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 71, &m, o), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 72, &m, o), 72);
	m.type = SMC_LLC_TEST_LINK;
	KUNIT_EXPECT_EQ(test, smc_llc_encode(buf, 43, &m, o), -EMSGSIZE);
}

/* the encoder from host values, with triples built by smc_llc_rkey_set */
static void smc_llc_encode_add_link_v2(struct kunit *test)
{
	static const struct smc_llc_rkey_info rk[2] = {
		{ 0x1111, 0x2222, 0x12345000ULL },
		{ 0x3333, 0x4444, 0xffff888812340000ULL },
	};
	struct smc_llc_rkey_triple triples[2];
	struct smc_llc_msg_info m = {
		.type = SMC_LLC_ADD_LINK, .version = SMC_LLC_V2,
		.add_link = {
			.mac = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
			.qpn = 0x42, .link_num = 2,
			.qp_mtu = 3, .psn = 1, .has_ext = true,
			.v2_direct = true,
			.num_rkeys = 2, .rkeys = triples,
		},
	};
	u8 out[120];

	memcpy(m.add_link.gid, gid_b, 16);
	memcpy(m.add_link.target_gid, gid_a, 16);
	smc_llc_rkey_set(&triples[0], &rk[0]);
	smc_llc_rkey_set(&triples[1], &rk[1]);
	memset(out, 0xaa, sizeof(out));
	KUNIT_ASSERT_EQ(test, smc_llc_encode(out, sizeof(out), &m,
					     SMC_LLC_ORDER_DEFAULT), 104);
	KUNIT_EXPECT_MEMEQ(test, out, add_link_v2_le, 104);
	KUNIT_EXPECT_EQ(test, out[104], 0xaa);
}

static struct kunit_case smc_llc_wire_cases[] = {
	KUNIT_CASE(smc_llc_confirm_link),
	KUNIT_CASE(smc_llc_add_link_v1),
	KUNIT_CASE(smc_llc_add_link_v2),
	KUNIT_CASE(smc_llc_add_link_v2_swapped),
	KUNIT_CASE(smc_llc_add_link_v2_reject),
	KUNIT_CASE(smc_llc_add_link_cont),
	KUNIT_CASE(smc_llc_delete_link),
	KUNIT_CASE(smc_llc_delete_link_reasons),
	KUNIT_CASE(smc_llc_confirm_rkey),
	KUNIT_CASE(smc_llc_delete_rkey),
	KUNIT_CASE(smc_llc_test_link),
	KUNIT_CASE(smc_llc_req_add_link),
	KUNIT_CASE(smc_llc_v2_orders),
	KUNIT_CASE(smc_llc_v2_order_ambiguous),
	KUNIT_CASE(smc_llc_malformed),
	KUNIT_CASE(smc_llc_unknown_type),
	KUNIT_CASE(smc_llc_encode_errors),
	KUNIT_CASE(smc_llc_encode_add_link_v2),
	{}
};

static struct kunit_suite smc_llc_wire_suite = {
	.name = "smc_llc_wire",
	.test_cases = smc_llc_wire_cases,
};

kunit_test_suites(&smc_llc_wire_suite);
