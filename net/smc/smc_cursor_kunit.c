// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suites for the data layer's arithmetic: cursors, the
 * consumer-cursor update rule and the sender's rewind at a link switch
 * (smc_cursor.h), and buffer sizes
 * (smc_bufsize.c).
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/sizes.h>

#include "smc_bufsize.h"
#include "smc_cursor.h"

static union smc_cursor cur(u16 wrap, u32 count)
{
	union smc_cursor c = { .wrap = wrap, .count = count };

	return c;
}

static void expect_cursor(struct kunit *test, union smc_cursor c, u16 wrap,
			  u32 count)
{
	KUNIT_EXPECT_EQ(test, c.wrap, wrap);
	KUNIT_EXPECT_EQ(test, c.count, count);
}

static void smc_cursor_add_wrap(struct kunit *test)
{
	union smc_cursor c = cur(0, 0);

	smc_cursor_add(SZ_16K, &c, 0);
	expect_cursor(test, c, 0, 0);
	smc_cursor_add(SZ_16K, &c, 100);
	expect_cursor(test, c, 0, 100);
	/* exactly to the end starts the next lap */
	smc_cursor_add(SZ_16K, &c, SZ_16K - 100);
	expect_cursor(test, c, 1, 0);
	/* a whole ring */
	smc_cursor_add(SZ_16K, &c, SZ_16K);
	expect_cursor(test, c, 2, 0);
	c = cur(0, SZ_16K - 4);
	smc_cursor_add(SZ_16K, &c, 10);
	expect_cursor(test, c, 1, 6);
	c = cur(5, SZ_16K - 1);
	smc_cursor_add(SZ_16K, &c, 1);
	expect_cursor(test, c, 6, 0);
	/* the wrap counter wraps too */
	c = cur(0xffff, 16000);
	smc_cursor_add(SZ_16K, &c, 1000);
	expect_cursor(test, c, 0, 616);
	c = cur(0xffff, 0);
	smc_cursor_add(SZ_512M, &c, SZ_512M);
	expect_cursor(test, c, 0, 0);
	c = cur(0xfffe, SZ_512M - 1);
	smc_cursor_add(SZ_512M, &c, SZ_512M - 1);
	expect_cursor(test, c, 0xffff, SZ_512M - 2);
}

static void smc_cursor_diff_wrap(struct kunit *test)
{
	union smc_cursor a, b;

	a = cur(0, 100);
	b = cur(0, 300);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &b), 200);
	/* behind in the same lap: clamped at 0 */
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &b, &a), 0);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &a), 0);
	/* across the ring end */
	a = cur(0, 16000);
	b = cur(1, 500);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &b), 884);
	/* across the wrap counter's end */
	a = cur(0xffff, 16000);
	b = cur(0, 500);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &b), 884);
	/* a full ring */
	a = cur(7, 100);
	b = cur(8, 100);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &b), SZ_16K);
	a = cur(0xffff, 0);
	b = cur(0, 0);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &b), SZ_16K);
	/* more than a lap apart cannot be: limited to the ring */
	a = cur(1, 100);
	b = cur(2, 200);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_16K, &a, &b), SZ_16K);
	a = cur(0, SZ_512M - 1);
	b = cur(1, SZ_512M - 1);
	KUNIT_EXPECT_EQ(test, smc_cursor_diff(SZ_512M, &a, &b), SZ_512M);
}

static void smc_cursor_compare(struct kunit *test)
{
	union smc_cursor a, b;

	a = cur(3, 100);
	b = cur(3, 150);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &a, &b), 50);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &b, &a), -50);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &a, &a), 0);
	KUNIT_EXPECT_FALSE(test, smc_cursor_behind(&a, &b));
	KUNIT_EXPECT_TRUE(test, smc_cursor_behind(&b, &a));
	KUNIT_EXPECT_FALSE(test, smc_cursor_behind(&a, &a));

	a = cur(3, 16000);
	b = cur(4, 10);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &a, &b), 394);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &b, &a), -394);
	KUNIT_EXPECT_TRUE(test, smc_cursor_behind(&b, &a));

	/* wrap 0 follows wrap 0xffff */
	a = cur(0xffff, 16000);
	b = cur(0, 500);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &a, &b), 884);
	KUNIT_EXPECT_EQ(test, smc_cursor_comp(SZ_16K, &b, &a), -884);
	KUNIT_EXPECT_FALSE(test, smc_cursor_behind(&a, &b));
	KUNIT_EXPECT_TRUE(test, smc_cursor_behind(&b, &a));
}

static void smc_cursor_free_space(struct kunit *test)
{
	union smc_cursor cons, prod;

	cons = cur(0, 0);
	prod = cur(0, 0);
	KUNIT_EXPECT_EQ(test, smc_cursor_free(SZ_64K, &cons, &prod), SZ_64K);
	prod = cur(0, 1000);
	KUNIT_EXPECT_EQ(test, smc_cursor_free(SZ_64K, &cons, &prod),
			SZ_64K - 1000);
	prod = cur(1, 0);
	KUNIT_EXPECT_EQ(test, smc_cursor_free(SZ_64K, &cons, &prod), 0);
	cons = cur(2, 100);
	prod = cur(3, 50);
	KUNIT_EXPECT_EQ(test, smc_cursor_free(SZ_64K, &cons, &prod), 50);
	cons = cur(0xffff, 65000);
	prod = cur(0, 464);
	KUNIT_EXPECT_EQ(test, smc_cursor_free(SZ_64K, &cons, &prod),
			SZ_64K - 1000);
}

static void smc_cursor_misc(struct kunit *test)
{
	union smc_cursor c = cur(0, 0), v;

	KUNIT_EXPECT_TRUE(test, smc_cursor_valid(SZ_16K, &c));
	c = cur(1, SZ_16K - 1);
	KUNIT_EXPECT_TRUE(test, smc_cursor_valid(SZ_16K, &c));
	c = cur(1, SZ_16K);
	KUNIT_EXPECT_FALSE(test, smc_cursor_valid(SZ_16K, &c));

	smc_cursor_write(&c, cur(0xabcd, 0x12345678));
	v = smc_cursor_read(&c);
	expect_cursor(test, v, 0xabcd, 0x12345678);
}

static void smc_cursor_update_limit(struct kunit *test)
{
	u32 floor = SOCK_MIN_SNDBUF / 2;

	/* 10 % of a 16 KiB RMBE is below the floor, of 64 KiB above */
	KUNIT_ASSERT_GT(test, floor, SZ_16K / 10);
	KUNIT_ASSERT_LT(test, floor, SZ_64K / 10);
	KUNIT_EXPECT_EQ(test, smc_rmb_update_limit(SZ_16K), floor);
	KUNIT_EXPECT_EQ(test, smc_rmb_update_limit(SZ_64K), 6553);
	KUNIT_EXPECT_EQ(test, smc_rmb_update_limit(SZ_1M), 104857);
	KUNIT_EXPECT_EQ(test, smc_rmb_update_limit(SZ_512M), 53687091);
}

static void smc_cursor_cons_update(struct kunit *test)
{
	struct smc_cons_update u = {
		.rmbe_size = SZ_64K,
		.confirmed = cur(4, 1000),
		.cons = cur(4, 1000),
		.peer_prod = cur(5, 1000),	/* the peer filled the RMBE */
	};

	/* nothing consumed */
	KUNIT_EXPECT_FALSE(test, smc_cons_update_needed(&u));
	u.peer_upd_req = true;
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));
	u.peer_upd_req = false;
	u.force = true;
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));
	u.force = false;

	/* the limit itself is not enough, one more byte is */
	u.cons = cur(4, 1000 + 6553);
	KUNIT_EXPECT_FALSE(test, smc_cons_update_needed(&u));
	u.cons = cur(4, 1000 + 6554);
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));

	/* the peer sees exactly half free: still update */
	u.peer_prod = cur(4, 1000 + SZ_32K);
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));
	/* more than half free: wait, unless the peer is blocked */
	u.peer_prod = cur(4, 1000 + SZ_32K - 1);
	KUNIT_EXPECT_FALSE(test, smc_cons_update_needed(&u));
	u.peer_write_blocked = true;
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));
	u.peer_write_blocked = false;

	/* across the ring end and the wrap counter's end */
	u.confirmed = cur(0xffff, 60000);
	u.cons = cur(0, 1000);		/* 6536 consumed */
	u.peer_prod = cur(0, 60000);	/* RMBE full */
	KUNIT_EXPECT_FALSE(test, smc_cons_update_needed(&u));
	u.cons = cur(0, 1100);		/* 6636 consumed */
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));
	u.peer_prod = cur(0, 1100);	/* peer sees 58900 free */
	KUNIT_EXPECT_FALSE(test, smc_cons_update_needed(&u));

	/* a small RMBE: the floor rules */
	u.rmbe_size = SZ_16K;
	u.confirmed = cur(0, 0);
	u.peer_prod = cur(1, 0);
	u.cons = cur(0, SOCK_MIN_SNDBUF / 2);
	KUNIT_EXPECT_FALSE(test, smc_cons_update_needed(&u));
	u.cons = cur(0, SOCK_MIN_SNDBUF / 2 + 1);
	KUNIT_EXPECT_TRUE(test, smc_cons_update_needed(&u));
}

static void smc_cursor_sub_wrap(struct kunit *test)
{
	union smc_cursor c = cur(1, 6);

	smc_cursor_sub(SZ_16K, &c, 6);
	expect_cursor(test, c, 1, 0);
	/* back past the start: the previous lap */
	smc_cursor_sub(SZ_16K, &c, 1);
	expect_cursor(test, c, 0, SZ_16K - 1);
	smc_cursor_sub(SZ_16K, &c, SZ_16K);
	expect_cursor(test, c, 0xffff, SZ_16K - 1);
	c = cur(0, 0);
	smc_cursor_sub(SZ_16K, &c, SZ_16K);
	expect_cursor(test, c, 0xffff, 0);
	c = cur(0, 616);
	smc_cursor_sub(SZ_16K, &c, 1000);
	expect_cursor(test, c, 0xffff, 16000);
}

/* the cursor @x bytes into a stream that starts at @start */
static union smc_cursor stream_at(u32 size, union smc_cursor start, u32 x)
{
	while (x) {
		u32 step = min(x, size);

		smc_cursor_add(size, &start, step);
		x -= step;
	}
	return start;
}

/*
 * The rewind at a link switch against a model in stream offsets, for
 * every state of small rings that start just before the wrap counter
 * wraps: written up to W, confirmed up to F, consumed by the peer up to
 * C.  The sender starts again at max(F, C), frees what the peer
 * consumed past F, and the peer's RMBE has room for all it has not.
 */
static void smc_cursor_tx_rewind(struct kunit *test)
{
	const u32 snd = 7, rmbe = 5;
	const union smc_cursor s0 = cur(0xfffe, 3), p0 = cur(0xffff, 2);
	u32 w, f, cns, checked = 0;

	for (w = 0; w < 40; w++) {
		for (f = w > snd ? w - snd : 0; f <= w; f++) {
			for (cns = w > rmbe ? w - rmbe : 0; cns <= w; cns++) {
				struct smc_tx_rewind r = {
					.fin = stream_at(snd, s0, f),
					.sent = stream_at(snd, s0, w),
					.prod = stream_at(rmbe, p0, w),
					.peer_cons = stream_at(rmbe, p0, cns),
				};
				u32 at = max(f, cns);
				union smc_cursor e_snd = stream_at(snd, s0, at);
				union smc_cursor e_prod = stream_at(rmbe, p0, at);

				smc_tx_rewind(snd, rmbe, &r);
				KUNIT_ASSERT_EQ(test, r.fin.acurs.counter,
						e_snd.acurs.counter);
				KUNIT_ASSERT_EQ(test, r.sent.acurs.counter,
						e_snd.acurs.counter);
				KUNIT_ASSERT_EQ(test, r.prod.acurs.counter,
						e_prod.acurs.counter);
				KUNIT_ASSERT_EQ(test, r.freed, at - f);
				KUNIT_ASSERT_EQ(test, r.space,
						rmbe - (at - cns));
				checked++;
			}
		}
	}
	KUNIT_EXPECT_GT(test, checked, 1000);
}

static struct kunit_case smc_cursor_cases[] = {
	KUNIT_CASE(smc_cursor_add_wrap),
	KUNIT_CASE(smc_cursor_diff_wrap),
	KUNIT_CASE(smc_cursor_compare),
	KUNIT_CASE(smc_cursor_free_space),
	KUNIT_CASE(smc_cursor_misc),
	KUNIT_CASE(smc_cursor_update_limit),
	KUNIT_CASE(smc_cursor_cons_update),
	KUNIT_CASE(smc_cursor_sub_wrap),
	KUNIT_CASE(smc_cursor_tx_rewind),
	{}
};

static struct kunit_suite smc_cursor_suite = {
	.name = "smc_cursor",
	.test_cases = smc_cursor_cases,
};

static void smc_bufsize_rounding(struct kunit *test)
{
	static const struct {
		unsigned int bytes, size;
		u8 comp;
	} v[] = {
		{ 0, SZ_16K, 0 },
		{ 1, SZ_16K, 0 },
		{ 16383, SZ_16K, 0 },
		{ 16384, SZ_16K, 0 },
		{ 16385, SZ_32K, 1 },
		{ SZ_32K, SZ_32K, 1 },
		{ SZ_64K, SZ_64K, 2 },
		{ SZ_64K + 1, SZ_128K, 3 },
		{ SZ_1M - 1, SZ_1M, 6 },
		{ SZ_256M + 1, SZ_512M, 15 },
		{ SZ_512M, SZ_512M, 15 },
		{ SZ_512M + 1, SZ_512M, 15 },
		{ UINT_MAX, SZ_512M, 15 },
	};
	unsigned int i;
	u8 comp;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		comp = 0xff;
		KUNIT_EXPECT_EQ_MSG(test, smc_bufsize_round(v[i].bytes, &comp),
				    v[i].size, "bytes %u", v[i].bytes);
		KUNIT_EXPECT_EQ_MSG(test, comp, v[i].comp, "bytes %u",
				    v[i].bytes);
	}
}

static void smc_bufsize_socket(struct kunit *test)
{
	u8 comp;

	/* net.smc.wmem/rmem 64 KiB: sk_*buf 128 KiB, 64 KiB buffers */
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(SZ_128K, &comp), SZ_64K);
	KUNIT_EXPECT_EQ(test, comp, 2);
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(32769, &comp), SZ_16K);
	KUNIT_EXPECT_EQ(test, comp, 0);
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(32770, &comp), SZ_32K);
	KUNIT_EXPECT_EQ(test, comp, 1);
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(SZ_1M * 2, &comp), SZ_1M);
	KUNIT_EXPECT_EQ(test, comp, 6);
	/* tiny, zero and nonsense socket sizes get the minimum */
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(4608, &comp), SZ_16K);
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(0, &comp), SZ_16K);
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(-1, &comp), SZ_16K);
	KUNIT_EXPECT_EQ(test, comp, 0);
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(INT_MIN, &comp), SZ_16K);
	/* and huge ones the maximum */
	KUNIT_EXPECT_EQ(test, smc_bufsize_select(INT_MAX, &comp), SZ_512M);
	KUNIT_EXPECT_EQ(test, comp, 15);
}

static void smc_bufsize_step(struct kunit *test)
{
	u8 comp;

	KUNIT_ASSERT_EQ(test, smc_bufsize_select(SZ_128K, &comp), SZ_64K);
	KUNIT_EXPECT_EQ(test, smc_bufsize_step_down(&comp), SZ_32K);
	KUNIT_EXPECT_EQ(test, comp, 1);
	KUNIT_EXPECT_EQ(test, smc_bufsize_step_down(&comp), SZ_16K);
	KUNIT_EXPECT_EQ(test, comp, 0);
	/* nothing below 16 KiB */
	KUNIT_EXPECT_EQ(test, smc_bufsize_step_down(&comp), 0);
	KUNIT_EXPECT_EQ(test, comp, 0);
	comp = 15;
	KUNIT_EXPECT_EQ(test, smc_bufsize_step_down(&comp), SZ_256M);
	KUNIT_EXPECT_EQ(test, comp, 14);
}

static struct kunit_case smc_bufsize_cases[] = {
	KUNIT_CASE(smc_bufsize_rounding),
	KUNIT_CASE(smc_bufsize_socket),
	KUNIT_CASE(smc_bufsize_step),
	{}
};

static struct kunit_suite smc_bufsize_suite = {
	.name = "smc_bufsize",
	.test_cases = smc_bufsize_cases,
};

kunit_test_suites(&smc_cursor_suite, &smc_bufsize_suite);
