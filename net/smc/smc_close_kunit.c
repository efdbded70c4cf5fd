// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for the close state machine's decision (smc_close_state()):
 * which state the flags each side sent put a connection in, as RFC 7609
 * section 4.8.2 describes it.  Pure function, no device needed.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include "smc.h"
#include "smc_cdc_wire.h"

#define DW	SMC_CDC_CONN_DONE_WRITING
#define CL	SMC_CDC_CONN_CLOSED

struct closet_case {
	u8 sent;
	u8 peer;
	int state;
};

static const struct closet_case closet_cases[] = {
	/* nobody is done */
	{ 0, 0, SMC_ACTIVE },
	/* the peer is done writing or closed: our application must close */
	{ 0, DW, SMC_APPCLOSEWAIT1 },
	{ 0, CL, SMC_APPCLOSEWAIT1 },
	{ 0, DW | CL, SMC_APPCLOSEWAIT1 },
	/* we are done, the peer is not: wait for it */
	{ DW, 0, SMC_PEERCLOSEWAIT1 },
	{ CL, 0, SMC_PEERCLOSEWAIT1 },
	{ DW | CL, 0, SMC_PEERCLOSEWAIT1 },
	/* both done writing, nobody closed */
	{ DW, DW, SMC_PEERCLOSEWAIT2 },
	/* we closed, the peer only stopped writing */
	{ CL, DW, SMC_PEERCLOSEWAIT2 },
	{ DW | CL, DW, SMC_PEERCLOSEWAIT2 },
	/* the peer closed, we only stopped writing */
	{ DW, CL, SMC_APPCLOSEWAIT2 },
	{ DW, DW | CL, SMC_APPCLOSEWAIT2 },
	/* both closed */
	{ CL, CL, SMC_CLOSED },
	{ DW | CL, CL, SMC_CLOSED },
	{ CL, DW | CL, SMC_CLOSED },
	{ DW | CL, DW | CL, SMC_CLOSED },
};

static void smc_close_state_table(struct kunit *test)
{
	const struct closet_case *k;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(closet_cases); i++) {
		k = &closet_cases[i];
		KUNIT_EXPECT_EQ_MSG(test, smc_close_state(k->sent, k->peer),
				    k->state, "sent 0x%02x peer 0x%02x",
				    k->sent, k->peer);
	}
}

/* flags other than these two (the abort, pending CDC) change nothing */
static void smc_close_state_other_flags(struct kunit *test)
{
	u8 other = U8_MAX & ~(DW | CL);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(closet_cases); i++) {
		const struct closet_case *k = &closet_cases[i];

		KUNIT_EXPECT_EQ(test,
				smc_close_state(k->sent | other,
						k->peer | other),
				k->state);
	}
}

static struct kunit_case smc_close_state_cases[] = {
	KUNIT_CASE(smc_close_state_table),
	KUNIT_CASE(smc_close_state_other_flags),
	{}
};

static struct kunit_suite smc_close_state_suite = {
	.name = "smc_close_state",
	.test_cases = smc_close_state_cases,
};

kunit_test_suites(&smc_close_state_suite);
