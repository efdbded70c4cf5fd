// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the parser of zPCI utility strings in
 * smc_zpci_pnetid.c.  The strings are written out in EBCDIC byte by byte
 * (code page 037), not produced by the code under test.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "smc_zpci_pnetid.h"

#define EB_BLANK	0x40

/* build a 64-byte utility string from four 16-byte port fields */
static void util_set(u8 *util, unsigned int port, const u8 *field,
		     size_t len, u8 pad)
{
	memset(util + port * SMC_ZPCI_PNETID_LEN, pad, SMC_ZPCI_PNETID_LEN);
	if (len)
		memcpy(util + port * SMC_ZPCI_PNETID_LEN, field, len);
}

/* parse port @port, check the result and that @out is terminated */
static int parse(struct kunit *test, const u8 *util, size_t len,
		 unsigned int port, char *out)
{
	char buf[SMC_ZPCI_PNETID_LEN + 2];
	int rc;

	memset(buf, 'x', sizeof(buf));
	rc = smc_zpci_util_pnetid(util, len, port, buf);
	/* nothing beyond the 16 characters and their NUL */
	KUNIT_EXPECT_EQ(test, buf[SMC_ZPCI_PNETID_LEN + 1], 'x');
	KUNIT_EXPECT_LE(test, strnlen(buf, sizeof(buf)),
			(size_t)SMC_ZPCI_PNETID_LEN);
	if (rc)
		KUNIT_EXPECT_STREQ(test, buf, "");
	strscpy(out, buf, SMC_ZPCI_PNETID_LEN + 1);
	return rc;
}

/* NETA, blank-padded; ZNET2, NUL-padded; all blanks; all NULs */
static void smc_zpci_valid(struct kunit *test)
{
	static const u8 neta[] = { 0xd5, 0xc5, 0xe3, 0xc1 };
	static const u8 znet2[] = { 0xe9, 0xd5, 0xc5, 0xe3, 0xf2 };
	char id[SMC_ZPCI_PNETID_LEN + 1];
	u8 util[SMC_ZPCI_UTIL_LEN];

	util_set(util, 0, neta, sizeof(neta), EB_BLANK);
	util_set(util, 1, znet2, sizeof(znet2), 0x00);
	util_set(util, 2, NULL, 0, EB_BLANK);
	util_set(util, 3, NULL, 0, 0x00);

	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 0, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "NETA");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 1, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "ZNET2");
	/* a blank port has no PNETID */
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 2, id), -ENOENT);
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 3, id), -ENOENT);
}

/* every letter and digit, 16 characters filling a field exactly */
static void smc_zpci_alphabet(struct kunit *test)
{
	static const u8 a_p[] = {	/* ABCDEFGHIJKLMNOP */
		0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
		0xc9, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
	};
	static const u8 q_5[] = {	/* QRSTUVWXYZ012345 */
		0xd8, 0xd9, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7,
		0xe8, 0xe9, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5,
	};
	static const u8 d6_9[] = { 0xf6, 0xf7, 0xf8, 0xf9 };	/* 6789 */
	static const u8 one[] = { 0xf1 };			/* 1 */
	char id[SMC_ZPCI_PNETID_LEN + 1];
	u8 util[SMC_ZPCI_UTIL_LEN];

	util_set(util, 0, a_p, sizeof(a_p), EB_BLANK);
	util_set(util, 1, q_5, sizeof(q_5), EB_BLANK);
	util_set(util, 2, d6_9, sizeof(d6_9), EB_BLANK);
	util_set(util, 3, one, sizeof(one), EB_BLANK);

	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 0, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "ABCDEFGHIJKLMNOP");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 1, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "QRSTUVWXYZ012345");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 2, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "6789");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 3, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "1");
}

/* lower case is accepted and stored upper-cased, as in the table */
static void smc_zpci_lower_case(struct kunit *test)
{
	static const u8 a_p[] = {	/* abcdefghijklmnop */
		0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
		0x89, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
	};
	static const u8 q_z[] = {	/* qrstuvwxyz */
		0x98, 0x99, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
	};
	static const u8 mixed[] = { 0xe2, 0x94, 0x83, 0xd5, 0x85, 0xa3, 0xf7 };
	char id[SMC_ZPCI_PNETID_LEN + 1];
	u8 util[SMC_ZPCI_UTIL_LEN];

	util_set(util, 0, a_p, sizeof(a_p), EB_BLANK);
	util_set(util, 1, q_z, sizeof(q_z), 0x00);
	util_set(util, 2, mixed, sizeof(mixed), EB_BLANK);	/* SmcNet7 */
	util_set(util, 3, NULL, 0, 0x00);

	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 0, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "ABCDEFGHIJKLMNOP");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 1, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "QRSTUVWXYZ");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 2, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "SMCNET7");
}

/* each port reads its own field, and only that */
static void smc_zpci_port_select(struct kunit *test)
{
	static const u8 p0[] = { 0xd7, 0xf0 };		/* P0 */
	static const u8 bad[] = { 0xd7, 0x5b };		/* P$ */
	static const u8 p2[] = { 0xd7, 0xf2 };		/* P2 */
	char id[SMC_ZPCI_PNETID_LEN + 1];
	u8 util[SMC_ZPCI_UTIL_LEN];

	util_set(util, 0, p0, sizeof(p0), EB_BLANK);
	util_set(util, 1, bad, sizeof(bad), EB_BLANK);
	util_set(util, 2, p2, sizeof(p2), EB_BLANK);
	util_set(util, 3, NULL, 0, EB_BLANK);

	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 0, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "P0");
	/* a malformed field spoils its own port only */
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 1, id), -EILSEQ);
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 2, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "P2");
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 3, id), -ENOENT);

	/* a 16-character id does not run into the next field */
	memset(util, 0xc1, SMC_ZPCI_PNETID_LEN);
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 0, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "AAAAAAAAAAAAAAAA");
}

/* ports past the end of the string, or of a short string */
static void smc_zpci_out_of_range(struct kunit *test)
{
	static const u8 net[] = { 0xd5, 0xc5, 0xe3 };	/* NET */
	char id[SMC_ZPCI_PNETID_LEN + 1];
	u8 util[SMC_ZPCI_UTIL_LEN];

	util_set(util, 0, net, sizeof(net), EB_BLANK);
	util_set(util, 1, net, sizeof(net), EB_BLANK);
	util_set(util, 2, net, sizeof(net), EB_BLANK);
	util_set(util, 3, net, sizeof(net), EB_BLANK);

	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 3, id), 0);
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util),
				    SMC_ZPCI_MAX_PORTS, id), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), 255, id),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, parse(test, util, sizeof(util), UINT_MAX, id),
			-ERANGE);
	/* only whole fields count */
	KUNIT_EXPECT_EQ(test, parse(test, util, 31, 1, id), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse(test, util, 32, 1, id), 0);
	KUNIT_EXPECT_STREQ(test, id, "NET");
	KUNIT_EXPECT_EQ(test, parse(test, util, 0, 0, id), -ERANGE);
}

/* anything but letters and digits followed by padding is rejected */
static void smc_zpci_invalid(struct kunit *test)
{
	static const struct {
		const char *what;
		u8 field[SMC_ZPCI_PNETID_LEN];
	} bad[] = {
		{ "embedded blank AB CD",
		  { 0xc1, 0xc2, 0x40, 0xc3, 0xc4, 0x40, 0x40, 0x40,
		    0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40 } },
		{ "leading blank",
		  { 0x40, 0xc1, 0xc2, 0x40, 0x40, 0x40, 0x40, 0x40,
		    0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40 } },
		{ "leading NUL",
		  { 0x00, 0xc1, 0xc2 } },
		{ "character after NUL padding",
		  { 0xc1, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc3 } },
		{ "hyphen NET-1",
		  { 0xd5, 0xc5, 0xe3, 0x60, 0xf1, 0x40, 0x40, 0x40,
		    0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40 } },
		{ "underscore",
		  { 0xd5, 0x6d, 0xf1, 0x40, 0x40, 0x40, 0x40, 0x40,
		    0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40 } },
		{ "ASCII NET1, not EBCDIC",
		  { 'N', 'E', 'T', '1', ' ', ' ', ' ', ' ',
		    ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ' } },
		{ "gap between I and J (0xca)",
		  { 0xc9, 0xca, 0xd1, 0x40, 0x40, 0x40, 0x40, 0x40,
		    0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40 } },
		{ "all 0xff",
		  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
	};
	char id[SMC_ZPCI_PNETID_LEN + 1];
	u8 util[SMC_ZPCI_UTIL_LEN];
	int i;

	memset(util, EB_BLANK, sizeof(util));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(util + SMC_ZPCI_PNETID_LEN, bad[i].field,
		       SMC_ZPCI_PNETID_LEN);
		KUNIT_EXPECT_EQ_MSG(test, parse(test, util, sizeof(util), 1,
						id), -EILSEQ,
				    "%s", bad[i].what);
	}
}

/* the zPCI look-up: only s390 has it, and a NULL device has none */
static void smc_zpci_no_device(struct kunit *test)
{
	char id[SMC_ZPCI_PNETID_LEN + 1] = "x";
	struct smc_zpci_fn fn;
	int want = IS_ENABLED(CONFIG_S390) && IS_ENABLED(CONFIG_PCI) ?
		   -ENODEV : -EOPNOTSUPP;

	memset(&fn, 0xa5, sizeof(fn));
	KUNIT_EXPECT_EQ(test, smc_zpci_fn_get(NULL, &fn), want);
	KUNIT_EXPECT_EQ(test, fn.fid, 0U);
	KUNIT_EXPECT_FALSE(test, fn.util_avail);
	KUNIT_EXPECT_EQ(test, smc_zpci_pnetid(NULL, 0, id), want);
	KUNIT_EXPECT_STREQ(test, id, "");
}

static struct kunit_case smc_zpci_pnetid_cases[] = {
	KUNIT_CASE(smc_zpci_valid),
	KUNIT_CASE(smc_zpci_alphabet),
	KUNIT_CASE(smc_zpci_lower_case),
	KUNIT_CASE(smc_zpci_port_select),
	KUNIT_CASE(smc_zpci_out_of_range),
	KUNIT_CASE(smc_zpci_invalid),
	KUNIT_CASE(smc_zpci_no_device),
	{}
};

static struct kunit_suite smc_zpci_pnetid_suite = {
	.name = "smc_zpci_pnetid",
	.test_cases = smc_zpci_pnetid_cases,
};

kunit_test_suites(&smc_zpci_pnetid_suite);
