// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the CDC wire codec in smc_cdc_wire.c, against a vector
 * written by hand from the CDC byte table.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "smc_cdc_wire.h"
#include "smc_test_hooks.h"

static const u8 cdc_vec[44] = {
	/*  0 */ 0xfe, 0x2c,			/* type, length 44 */
	/*  2 */ 0x12, 0x34,			/* seqno 0x1234 */
	/*  4 */ 0x00, 0x00, 0x00, 0x05,	/* alert token 5 */
	/*  8 */ 0x00, 0x00,			/* producer: reserved */
	/* 10 */ 0x00, 0x03,			/* wrap 3 */
	/* 12 */ 0x00, 0x00, 0x80, 0x00,	/* count 0x8000 */
	/* 16 */ 0x00, 0x00,			/* consumer: reserved */
	/* 18 */ 0xff, 0xff,			/* wrap 0xffff */
	/* 20 */ 0x00, 0x00, 0xff, 0xf0,	/* count 0xfff0 */
	/* 24 */ 0x90,				/* write blocked, upd req */
	/* 25 */ 0x80,				/* done writing */
	/* 26 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static void smc_cdc_known_answer(struct kunit *test)
{
	struct smc_cdc_msg_info m;
	u8 out[44];

	KUNIT_ASSERT_EQ(test, smc_cdc_decode(cdc_vec, 44, &m), 0);
	KUNIT_EXPECT_EQ(test, m.seqno, 0x1234);
	KUNIT_EXPECT_EQ(test, m.token, 5);
	KUNIT_EXPECT_EQ(test, m.prod.wrap, 3);
	KUNIT_EXPECT_EQ(test, m.prod.count, 0x8000);
	KUNIT_EXPECT_EQ(test, m.cons.wrap, 0xffff);
	KUNIT_EXPECT_EQ(test, m.cons.count, 0xfff0);
	KUNIT_EXPECT_EQ(test, m.prod_flags, SMC_CDC_PROD_WRITE_BLOCKED |
			SMC_CDC_PROD_CONS_UPD_REQ);
	KUNIT_EXPECT_EQ(test, m.conn_flags, SMC_CDC_CONN_DONE_WRITING);

	memset(out, 0xaa, sizeof(out));
	smc_cdc_encode(out, &m);
	KUNIT_EXPECT_MEMEQ(test, out, cdc_vec, sizeof(cdc_vec));
}

static void smc_cdc_flags(struct kunit *test)
{
	static const struct {
		u8 byte, bit;
	} prod[] = {
		{ 0x80, SMC_CDC_PROD_WRITE_BLOCKED },
		{ 0x40, SMC_CDC_PROD_URG_PENDING },
		{ 0x20, SMC_CDC_PROD_URG_PRESENT },
		{ 0x10, SMC_CDC_PROD_CONS_UPD_REQ },
		{ 0x08, SMC_CDC_PROD_FAILOVER },
	}, conn[] = {
		{ 0x80, SMC_CDC_CONN_DONE_WRITING },
		{ 0x40, SMC_CDC_CONN_CLOSED },
		{ 0x20, SMC_CDC_CONN_ABORT },
	};
	struct smc_cdc_msg_info m = {};
	unsigned int i;
	u8 buf[44];

	for (i = 0; i < ARRAY_SIZE(prod); i++) {
		m.prod_flags = prod[i].bit;
		smc_cdc_encode(buf, &m);
		KUNIT_EXPECT_EQ(test, buf[24], prod[i].byte);
		KUNIT_EXPECT_EQ(test, buf[25], 0);
	}
	m.prod_flags = 0;
	for (i = 0; i < ARRAY_SIZE(conn); i++) {
		m.conn_flags = conn[i].bit;
		smc_cdc_encode(buf, &m);
		KUNIT_EXPECT_EQ(test, buf[25], conn[i].byte);
		KUNIT_EXPECT_EQ(test, buf[24], 0);
	}

	/* reserved bits are neither read nor sent */
	memcpy(buf, cdc_vec, sizeof(buf));
	buf[24] = 0xff;
	buf[25] = 0xff;
	KUNIT_ASSERT_EQ(test, smc_cdc_decode(buf, 44, &m), 0);
	KUNIT_EXPECT_EQ(test, m.prod_flags, 0xf8);
	KUNIT_EXPECT_EQ(test, m.conn_flags, 0xe0);
	m.prod_flags = 0xff;
	m.conn_flags = 0xff;
	smc_cdc_encode(buf, &m);
	KUNIT_EXPECT_EQ(test, buf[24], 0xf8);
	KUNIT_EXPECT_EQ(test, buf[25], 0xe0);
}

static void smc_cdc_roundtrip(struct kunit *test)
{
	struct smc_cdc_msg_info in = {
		.seqno = 0xffff, .token = 0xdeadbeef,
		.prod = { .wrap = 0x8001, .count = 0x1fffffff },
		.cons = { .wrap = 0, .count = 0 },
		.prod_flags = SMC_CDC_PROD_URG_PENDING |
			      SMC_CDC_PROD_URG_PRESENT,
		.conn_flags = SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT,
	}, out;
	u8 buf[44];

	smc_cdc_encode(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[0], 0xfe);
	KUNIT_EXPECT_EQ(test, buf[1], 44);
	KUNIT_EXPECT_EQ(test, buf[2], 0xff);
	KUNIT_EXPECT_EQ(test, buf[4], 0xde);
	KUNIT_EXPECT_EQ(test, buf[10], 0x80);
	KUNIT_EXPECT_EQ(test, buf[11], 0x01);
	KUNIT_EXPECT_EQ(test, buf[12], 0x1f);
	KUNIT_ASSERT_EQ(test, smc_cdc_decode(buf, 44, &out), 0);
	KUNIT_EXPECT_EQ(test, out.seqno, in.seqno);
	KUNIT_EXPECT_EQ(test, out.token, in.token);
	KUNIT_EXPECT_EQ(test, out.prod.wrap, in.prod.wrap);
	KUNIT_EXPECT_EQ(test, out.prod.count, in.prod.count);
	KUNIT_EXPECT_EQ(test, out.cons.wrap, in.cons.wrap);
	KUNIT_EXPECT_EQ(test, out.cons.count, in.cons.count);
	KUNIT_EXPECT_EQ(test, out.prod_flags, in.prod_flags);
	KUNIT_EXPECT_EQ(test, out.conn_flags, in.conn_flags);
}

static void smc_cdc_malformed(struct kunit *test)
{
	struct smc_cdc_msg_info m;
	u8 buf[44];

	/* 26 bytes carry everything a receiver reads */
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(cdc_vec, 25, &m), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(cdc_vec, 0, &m), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(cdc_vec, 26, &m), 0);
	KUNIT_EXPECT_EQ(test, m.conn_flags, SMC_CDC_CONN_DONE_WRITING);

	memcpy(buf, cdc_vec, sizeof(buf));
	buf[0] = 0x01;
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(buf, 44, &m), -ENOMSG);
	buf[0] = 0xfe;
	buf[1] = 43;
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(buf, 44, &m), -EPROTO);
	buf[1] = 45;
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(buf, 44, &m), -EPROTO);
	buf[1] = 0;
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(buf, 44, &m), -EPROTO);
}

static void smc_cdc_seqno(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_newer(1, 0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_newer(0, 0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_newer(0, 1));
	/* across the u16 wrap */
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_newer(0, 0xffff));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_newer(0x0010, 0xfff0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_newer(0xfff0, 0x0010));
	/* half the space ahead is the limit */
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_newer(0x7fff, 0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_newer(0x8000, 0));

	/* only what is behind is dropped, a repeat is not */
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_old(5, 5));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_old(4, 5));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_old(6, 5));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_old(0xffff, 0));
	KUNIT_EXPECT_FALSE(test, smc_cdc_seq_old(0, 0xffff));
	KUNIT_EXPECT_TRUE(test, smc_cdc_seq_old(0x8000, 0));
}

/* the test-only byte-order switch: host order out and in */
static void smc_cdc_seqno_switch(struct kunit *test)
{
	struct smc_cdc_msg_info m = { .seqno = 0x0102 }, back;
	u16 host = 0x0102;
	u8 out[44];

	if (!IS_ENABLED(CONFIG_SMC_TEST_HOOKS))
		kunit_skip(test, "a test build's switch (CONFIG_SMC_TEST_HOOKS)");
	WRITE_ONCE(smc_cdc_seqno_host_order, true);
	smc_cdc_encode(out, &m);
	KUNIT_EXPECT_MEMEQ(test, &out[2], &host, sizeof(host));
	KUNIT_EXPECT_EQ(test, smc_cdc_decode(out, sizeof(out), &back), 0);
	KUNIT_EXPECT_EQ(test, back.seqno, 0x0102);
	WRITE_ONCE(smc_cdc_seqno_host_order, false);

	smc_cdc_encode(out, &m);
	KUNIT_EXPECT_EQ(test, out[2], 0x01);
	KUNIT_EXPECT_EQ(test, out[3], 0x02);
}

static struct kunit_case smc_cdc_wire_cases[] = {
	KUNIT_CASE(smc_cdc_known_answer),
	KUNIT_CASE(smc_cdc_flags),
	KUNIT_CASE(smc_cdc_roundtrip),
	KUNIT_CASE(smc_cdc_malformed),
	KUNIT_CASE(smc_cdc_seqno),
	KUNIT_CASE(smc_cdc_seqno_switch),
	{}
};

static struct kunit_suite smc_cdc_wire_suite = {
	.name = "smc_cdc_wire",
	.test_cases = smc_cdc_wire_cases,
};

kunit_test_suites(&smc_cdc_wire_suite);
