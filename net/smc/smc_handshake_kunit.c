// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the server's check of the client's CLC Confirm
 * (smc_hs_serv_check()), on fake objects: no device needed.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "smc_conn.h"

#define HST_QPN		0x000123

struct hst_ctx {
	struct smc_conn_setup cs;
	struct smc_lgr_link *lnk;
	struct smc_clc_accept_info *c;
};

static int hst_init(struct kunit *test)
{
	struct hst_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	if (!x)
		return -ENOMEM;
	x->lnk = kunit_kzalloc(test, sizeof(*x->lnk), GFP_KERNEL);
	x->c = kunit_kzalloc(test, sizeof(*x->c), GFP_KERNEL);
	if (!x->lnk || !x->c)
		return -ENOMEM;
	x->lnk->peer_qpn = HST_QPN;
	memset(x->lnk->peer_gid, 0xa5, SMC_GID_SIZE);
	/* a v2.1 first contact, and the Confirm that echoes its Accept */
	x->cs.version = SMC_CLC_V2;
	x->cs.first_contact = true;
	x->cs.release = 1;
	x->cs.max_conns = 255;
	x->cs.max_links = 1;
	x->c->version = SMC_CLC_V2;
	x->c->release = 1;
	x->c->max_conns = 255;
	x->c->max_links = 1;
	x->c->qpn = 0x000777;
	test->priv = x;
	return 0;
}

/* a first contact: the FCE values must be those of the Accept */
static void smc_hs_check_first_contact(struct kunit *test)
{
	struct hst_ctx *x = test->priv;

	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c), 0);
	x->c->max_links = 2;
	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
			SMC_CLC_DECL_MAXLINKERR);
	x->c->max_links = 1;
	x->c->max_conns = 16;
	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
			SMC_CLC_DECL_MAXCONNERR);
	x->c->release = 0;
	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
			SMC_CLC_DECL_RELEASEERR);
	x->c->version = SMC_CLC_V1;
	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
			SMC_CLC_DECL_VERSMISMAT);
	/* release 0: no FCE limits to echo */
	x->cs.release = 0;
	x->c->version = SMC_CLC_V2;
	x->c->max_conns = 0;
	x->c->max_links = 0;
	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c), 0);
}

/* a reused group: the Confirm must name the link the group knows */
static void smc_hs_check_reused_link(struct kunit *test)
{
	struct hst_ctx *x = test->priv;
	u8 version;

	x->cs.first_contact = false;
	x->cs.lnk = x->lnk;
	for (version = SMC_CLC_V1; version <= SMC_CLC_V2; version++) {
		x->cs.version = version;
		x->c->version = version;
		x->c->qpn = HST_QPN;
		memset(x->c->gid, 0xa5, SMC_GID_SIZE);
		/* a reused group's Confirm has no FCE to compare */
		x->c->release = 0;
		x->c->max_links = 0;
		KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c), 0);
		x->c->qpn = HST_QPN + 1;
		KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
				SMC_CLC_DECL_NOSRVLINK);
		x->c->qpn = HST_QPN;
		x->c->gid[SMC_GID_SIZE - 1] ^= 1;
		KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
				SMC_CLC_DECL_NOSRVLINK);
	}
	/* the version is checked first */
	x->c->version = SMC_CLC_V1;
	KUNIT_EXPECT_EQ(test, smc_hs_serv_check(&x->cs, x->c),
			SMC_CLC_DECL_VERSMISMAT);
}

static struct kunit_case smc_hs_check_cases[] = {
	KUNIT_CASE(smc_hs_check_first_contact),
	KUNIT_CASE(smc_hs_check_reused_link),
	{}
};

static struct kunit_suite smc_hs_check_suite = {
	.name = "smc_hs_check",
	.init = hst_init,
	.test_cases = smc_hs_check_cases,
};

kunit_test_suites(&smc_hs_check_suite);
