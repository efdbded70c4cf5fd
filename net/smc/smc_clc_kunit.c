// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suites for the CLC wire helpers in smc_clc_wire.c.  The byte vectors
 * are written out by hand from the message layouts of the protocol
 * reference, so that the code is checked against the wire format and
 * not against itself.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <rdma/ib_verbs.h>

#include "smc_clc_wire.h"

/* eyecatchers in EBCDIC: "SMCR" is e2 d4 c3 d9, "SMCD" e2 d4 c3 c4 */

/* --- smc_clc_size: buffer sizes and QP MTUs --- */

static void smc_clc_size_compress(struct kunit *test)
{
	u8 m = SMC_CLC_BUF_COMP_MAX_R;

	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(0, m), 0);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(1, m), 0);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_16K, m), 0);
	/* rounds up */
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_16K + 1, m), 1);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_32K, m), 1);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_64K, m), 2);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_64K + 1, m), 3);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_1M, m), 6);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_512M, m), 15);
	/* limited to the maximum */
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_512M + 1, m), 15);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(UINT_MAX, m), 15);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_compress(SZ_1M, 5), 5);
}

static void smc_clc_size_decompress(struct kunit *test)
{
	u8 n;

	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(0), SZ_16K);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(1), SZ_32K);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(5), SZ_512K);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(15), SZ_512M);
	/* not a 4-bit value */
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(16), 0);
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(0xff), 0);
	for (n = 0; n <= 15; n++) {
		unsigned int size = smc_clc_bufsize_decompress(n);

		KUNIT_EXPECT_EQ_MSG(test, smc_clc_bufsize_compress(size, 15),
				    n, "n=%u", n);
	}
}

static struct kunit_case smc_clc_size_cases[] = {
	KUNIT_CASE(smc_clc_size_compress),
	KUNIT_CASE(smc_clc_size_decompress),
	{}
};

static struct kunit_suite smc_clc_size_suite = {
	.name = "smc_clc_size",
	.test_cases = smc_clc_size_cases,
};

/* --- smc_clc_reason: the reason codes, as on the wire --- */

#define SMC_CLC_REASON_VEC(n, v)	{ SMC_CLC_DECL_##n, v, #n }

/* every code current peers send or report, by upstream's numbers */
static const struct {
	u32 ours, wire;
	const char *name;
} smc_clc_reason_vectors[] = {
	SMC_CLC_REASON_VEC(MEM, 0x01010000),
	SMC_CLC_REASON_VEC(TIMEOUT_CL, 0x02010000),
	SMC_CLC_REASON_VEC(TIMEOUT_AL, 0x02020000),
	SMC_CLC_REASON_VEC(CNFERR, 0x03000000),
	SMC_CLC_REASON_VEC(PEERNOSMC, 0x03010000),
	SMC_CLC_REASON_VEC(IPSEC, 0x03020000),
	SMC_CLC_REASON_VEC(NOSMCDEV, 0x03030000),
	SMC_CLC_REASON_VEC(NOSMCDDEV, 0x03030001),
	SMC_CLC_REASON_VEC(NOSMCRDEV, 0x03030002),
	SMC_CLC_REASON_VEC(NOISM2SUPP, 0x03030003),
	SMC_CLC_REASON_VEC(NOV2EXT, 0x03030004),
	SMC_CLC_REASON_VEC(NOV2DEXT, 0x03030005),
	SMC_CLC_REASON_VEC(NOSEID, 0x03030006),
	SMC_CLC_REASON_VEC(NOSMCD2DEV, 0x03030007),
	SMC_CLC_REASON_VEC(NOUEID, 0x03030008),
	SMC_CLC_REASON_VEC(RELEASEERR, 0x03030009),
	SMC_CLC_REASON_VEC(MAXCONNERR, 0x0303000a),
	SMC_CLC_REASON_VEC(MAXLINKERR, 0x0303000b),
	SMC_CLC_REASON_VEC(MODEUNSUPP, 0x03040000),
	SMC_CLC_REASON_VEC(RMBE_EC, 0x03050000),
	SMC_CLC_REASON_VEC(OPTUNSUPP, 0x03060000),
	SMC_CLC_REASON_VEC(DIFFPREFIX, 0x03070000),
	SMC_CLC_REASON_VEC(GETVLANERR, 0x03080000),
	SMC_CLC_REASON_VEC(ISMVLANERR, 0x03090000),
	SMC_CLC_REASON_VEC(NOACTLINK, 0x030a0000),
	SMC_CLC_REASON_VEC(NOSRVLINK, 0x030b0000),
	SMC_CLC_REASON_VEC(VERSMISMAT, 0x030c0000),
	SMC_CLC_REASON_VEC(MAX_DMB, 0x030d0000),
	SMC_CLC_REASON_VEC(NOROUTE, 0x030e0000),
	SMC_CLC_REASON_VEC(NOINDIRECT, 0x030f0000),
	SMC_CLC_REASON_VEC(SYNCERR, 0x04000000),
	SMC_CLC_REASON_VEC(PEERDECL, 0x05000000),
	SMC_CLC_REASON_VEC(INTERR, 0x09990000),
	SMC_CLC_REASON_VEC(ERR_RTOK, 0x09990001),
	SMC_CLC_REASON_VEC(ERR_RDYLNK, 0x09990002),
	SMC_CLC_REASON_VEC(ERR_REGBUF, 0x09990003),
};

static void smc_clc_reason_codes(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(smc_clc_reason_vectors); i++)
		KUNIT_EXPECT_EQ_MSG(test, smc_clc_reason_vectors[i].ours,
				    smc_clc_reason_vectors[i].wire, "%s",
				    smc_clc_reason_vectors[i].name);
}

static struct kunit_case smc_clc_reason_cases[] = {
	KUNIT_CASE(smc_clc_reason_codes),
	{}
};

static struct kunit_suite smc_clc_reason_suite = {
	.name = "smc_clc_reason",
	.test_cases = smc_clc_reason_cases,
};

/* --- smc_clc_hdr: header encode/decode and length validation --- */

/* v1 Decline, PEERNOSMC, from peer 01:02:aa:bb:cc:dd:ee:ff */
static const u8 decline_v1[28] = {
	0xe2, 0xd4, 0xc3, 0xd9, 0x04, 0x00, 0x1c, 0x10,
	0x01, 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	0x03, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2 Decline, NOUEID, OS type Linux, four empty extra codes */
static const u8 decline_v2[44] = {
	0xe2, 0xd4, 0xc3, 0xd9, 0x04, 0x00, 0x2c, 0x20,
	0x01, 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	0x03, 0x03, 0x00, 0x08,
	0x20, 0x00, 0x00, 0x00,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v1 SMC-R Accept, first contact */
static const u8 accept_v1[68] = {
	0xe2, 0xd4, 0xc3, 0xd9, 0x02, 0x00, 0x44, 0x18,
	/* peer id */
	0x01, 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	/* GID fe80::5054:ff:fe12:3456 */
	0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56,
	/* MAC, QP number 0x000011, rkey, RMBE index 1, alert token 5 */
	0x52, 0x54, 0x00, 0x12, 0x34, 0x56,
	0x00, 0x00, 0x11,
	0x00, 0x00, 0x12, 0x34,
	0x01,
	0x00, 0x00, 0x00, 0x05,
	/* RMBE size 64 KiB (n=2), MTU 1024 (3); reserved */
	0x23, 0x00,
	/* RMB address, reserved, PSN */
	0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x00, 0x00,
	0x00,
	0x00, 0x10, 0x00,
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2 SMC-R Confirm without First Contact Extension: 108 bytes */
static const u8 confirm_v2[108] = {
	0xe2, 0xd4, 0xc3, 0xd9, 0x03, 0x00, 0x6c, 0x20,
	[104] = 0xe2, 0xd4, 0xc3, 0xd9,
};

/* v1 SMC-R Proposal with the IPv4 prefix area at byte 40: 52 bytes */
static const u8 proposal_v1[52] = {
	0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0x34, 0x10,
	[38] = 0x00, 0x00,			/* iparea_offset 0 */
	[40] = 0x0a, 0x09, 0x01, 0x00,		/* 10.9.1.0 */
	0x18, 0x00, 0x00, 0x00,			/* /24, no IPv6 */
	0xe2, 0xd4, 0xc3, 0xd9,
};

/* v2 Proposal offering SMC-Rv1 and SMC-Rv2 with one UEID: 164 bytes */
static const u8 proposal_v2[164] = {
	0xe2, 0xd4, 0xc3, 0xd9, 0x01, 0x00, 0xa4, 0x20,
	[38] = 0x00, 0x28,			/* iparea_offset 40 */
	[50] = 0x00, 0x24,			/* v2_ext_offset 36 */
	[80] = 0x0a, 0x09, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00,
	[88] = 0x01, 0x00, 0x00, 0x10,		/* 1 UEID, release 1 */
	[94] = 0x00, 0x40,			/* smcd_v2_ext_offset */
	[128] = 'S', 'M', 'C', '-', 'T', 'E', 'S', 'T',
	[160] = 0xe2, 0xd4, 0xc3, 0xd9,
};

static void smc_clc_hdr_check(struct kunit *test, const u8 *buf, size_t len,
			      int want)
{
	struct smc_clc_hdr_info info;

	KUNIT_EXPECT_EQ_MSG(test, smc_clc_msg_validate(buf, len, &info), want,
			    "type %u, %zu bytes", buf[4], len);
}

static void smc_clc_hdr_decline(struct kunit *test)
{
	const struct smc_clc_decline *d = (const void *)decline_v1;
	struct smc_clc_hdr_info info;
	u8 buf[44];

	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(decline_v1, 28, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type, SMC_CLC_DECLINE);
	KUNIT_EXPECT_EQ(test, info.length, 28);
	KUNIT_EXPECT_EQ(test, info.version, 1);
	KUNIT_EXPECT_FALSE(test, info.smcd);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(d->diagnosis),
			SMC_CLC_DECL_PEERNOSMC);

	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(decline_v2, 44, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, 2);
	d = (const void *)decline_v2;
	KUNIT_EXPECT_EQ(test, be32_to_cpu(d->diagnosis), SMC_CLC_DECL_NOUEID);

	/* a v2 Decline must be 44 bytes, a v1 Decline 28 */
	memcpy(buf, decline_v2, 44);
	buf[6] = 28;
	smc_clc_hdr_check(test, buf, 28, -EPROTO);
	memcpy(buf, decline_v1, 28);
	buf[7] = 0x20;
	smc_clc_hdr_check(test, buf, 28, -EPROTO);
	buf[7] = 0x10;
	buf[6] = 29;
	smc_clc_hdr_check(test, buf, 29, -EPROTO);

	/* Linux does not check the trailer of a Decline */
	memcpy(buf, decline_v1, 28);
	buf[27] = 0;
	smc_clc_hdr_check(test, buf, 28, 0);
	/* the out-of-sync flag */
	memcpy(buf, decline_v1, 28);
	buf[7] |= SMC_CLC_FLAG_OUT_OF_SYNC;
	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(buf, 28, &info), 0);
	KUNIT_EXPECT_EQ(test, info.typev2 << 2, SMC_CLC_FLAG_OUT_OF_SYNC);
}

static void smc_clc_hdr_accept(struct kunit *test)
{
	struct smc_clc_hdr_info info;
	u8 buf[112];

	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(accept_v1, 68, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type, SMC_CLC_ACCEPT);
	KUNIT_EXPECT_EQ(test, info.typev1, SMC_CLC_PATH_R);
	KUNIT_EXPECT_EQ(test, info.typev2 << 2, SMC_CLC_FLAG_FIRST_CONTACT);
	/* the RMBE size and MTU nibbles of byte 50 */
	KUNIT_EXPECT_EQ(test, smc_clc_bufsize_decompress(accept_v1[50] >> 4),
			SZ_64K);
	KUNIT_EXPECT_EQ(test, accept_v1[50] & 0x0f, IB_MTU_1024);

	/* v1 SMC-R: exactly 68 */
	memcpy(buf, accept_v1, 68);
	buf[6] = 67;
	smc_clc_hdr_check(test, buf, 67, -EPROTO);
	buf[6] = 69;
	memcpy(buf + 65, accept_v1 + 64, 4);
	smc_clc_hdr_check(test, buf, 69, -EPROTO);
	/* a bad trailer */
	memcpy(buf, accept_v1, 68);
	buf[67] = 0xd8;
	smc_clc_hdr_check(test, buf, 68, -EPROTO);
	/* the path must be R or D */
	memcpy(buf, accept_v1, 68);
	buf[7] = 0x12;
	smc_clc_hdr_check(test, buf, 68, -EPROTO);
	/* SMC-D v1 is 48 */
	buf[7] = 0x11;
	smc_clc_hdr_check(test, buf, 68, -EPROTO);

	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(confirm_v2, 108, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type, SMC_CLC_CONFIRM);
	KUNIT_EXPECT_EQ(test, info.version, 2);
	KUNIT_EXPECT_EQ(test, info.typev2, 0);
	/* v2 SMC-R: at least 108 */
	memcpy(buf, confirm_v2, 108);
	buf[6] = 107;
	memcpy(buf + 103, confirm_v2 + 104, 4);
	smc_clc_hdr_check(test, buf, 107, -EPROTO);
	memcpy(buf, confirm_v2, 108);
	buf[6] = 112;
	memset(buf + 104, 0, 4);
	memcpy(buf + 108, confirm_v2 + 104, 4);
	smc_clc_hdr_check(test, buf, 112, 0);
}

static void smc_clc_hdr_proposal(struct kunit *test)
{
	struct smc_clc_hdr_info info;
	u8 buf[164];

	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(proposal_v1, 52, &info), 0);
	KUNIT_EXPECT_EQ(test, info.type, SMC_CLC_PROPOSAL);
	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(proposal_v2, 164, &info),
			0);
	KUNIT_EXPECT_EQ(test, info.version, 2);

	/* a length that disagrees with the parts */
	memcpy(buf, proposal_v1, 52);
	buf[47] = 1;		/* one IPv6 prefix announced, none sent */
	smc_clc_hdr_check(test, buf, 52, -EPROTO);
	buf[47] = 9;		/* more than 8 */
	smc_clc_hdr_check(test, buf, 52, -EPROTO);
	/* v1 offering nothing */
	memcpy(buf, proposal_v1, 52);
	buf[7] = 0x12;
	smc_clc_hdr_check(test, buf, 52, -EPROTO);
	/* two UEIDs announced, one sent */
	memcpy(buf, proposal_v2, 164);
	buf[88] = 2;
	smc_clc_hdr_check(test, buf, 164, -EPROTO);
	/* v2_ext_offset beyond the limit */
	memcpy(buf, proposal_v2, 164);
	buf[50] = 0x01;
	smc_clc_hdr_check(test, buf, 164, -EPROTO);
}

static void smc_clc_hdr_malformed(struct kunit *test)
{
	struct smc_clc_hdr_info info;
	u8 buf[28];

	/* too short for a header */
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_decode(decline_v1, 7, &info),
			-EINVAL);
	/* buffer and header length disagree */
	smc_clc_hdr_check(test, decline_v1, 27, -EPROTO);
	/* bad eyecatcher */
	memcpy(buf, decline_v1, 28);
	buf[3] = 0xd8;
	smc_clc_hdr_check(test, buf, 28, -EPROTO);
	/* "SMCD" is accepted in the header */
	buf[3] = 0xc4;
	KUNIT_ASSERT_EQ(test, smc_clc_msg_validate(buf, 28, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.smcd);
	/* unknown types */
	memcpy(buf, decline_v1, 28);
	buf[4] = 0;
	smc_clc_hdr_check(test, buf, 28, -EPROTO);
	buf[4] = 5;
	smc_clc_hdr_check(test, buf, 28, -EPROTO);
	/* version 0 */
	memcpy(buf, decline_v1, 28);
	buf[7] = 0x00;
	smc_clc_hdr_check(test, buf, 28, -EPROTO);
	/* a length below header plus trailer */
	memcpy(buf, decline_v1, 28);
	buf[6] = 11;
	KUNIT_EXPECT_EQ(test, smc_clc_hdr_decode(buf, 28, &info), -EPROTO);
}

static void smc_clc_hdr_roundtrip(struct kunit *test)
{
	struct smc_clc_hdr_info in = {
		.type = SMC_CLC_ACCEPT, .length = 108, .version = 2,
		.typev1 = SMC_CLC_PATH_R, .typev2 = 2,	/* first contact */
	};
	static const u8 want[8] = { 0xe2, 0xd4, 0xc3, 0xd9, 0x02, 0x00, 0x6c, 0x28 };
	struct smc_clc_hdr_info out;
	u8 buf[8];

	smc_clc_hdr_encode(buf, &in);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_ASSERT_EQ(test, smc_clc_hdr_decode(buf, 8, &out), 0);
	KUNIT_EXPECT_EQ(test, out.type, in.type);
	KUNIT_EXPECT_EQ(test, out.length, in.length);
	KUNIT_EXPECT_EQ(test, out.version, in.version);
	KUNIT_EXPECT_EQ(test, out.typev1, in.typev1);
	KUNIT_EXPECT_EQ(test, out.typev2, in.typev2);
	KUNIT_EXPECT_FALSE(test, out.smcd);

	in.smcd = true;
	smc_clc_hdr_encode(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[3], 0xc4);
}

static void smc_clc_hdr_trailer(struct kunit *test)
{
	static const u8 want[12] = { [8] = 0xe2, 0xd4, 0xc3, 0xc4 };
	u8 buf[12] = {};

	smc_clc_trl_encode(buf, sizeof(buf), true);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

static struct kunit_case smc_clc_hdr_cases[] = {
	KUNIT_CASE(smc_clc_hdr_decline),
	KUNIT_CASE(smc_clc_hdr_accept),
	KUNIT_CASE(smc_clc_hdr_proposal),
	KUNIT_CASE(smc_clc_hdr_malformed),
	KUNIT_CASE(smc_clc_hdr_roundtrip),
	KUNIT_CASE(smc_clc_hdr_trailer),
	{}
};

static struct kunit_suite smc_clc_hdr_suite = {
	.name = "smc_clc_hdr",
	.test_cases = smc_clc_hdr_cases,
};

kunit_test_suites(&smc_clc_size_suite, &smc_clc_reason_suite,
		  &smc_clc_hdr_suite);

MODULE_DESCRIPTION("KUnit suites for the SMC-R module");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
