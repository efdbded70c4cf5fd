// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The RDMA device of the suites that need one (smc_wr, smc_lgr,
 * smc_data): the rig's Soft-RoCE device.  Where there is none, as under
 * kunit.py, those suites skip with the reason; the rig loads smc_kunit
 * with need_rdma=1, where a missing device is a broken rig and fails.
 */

#include <linux/module.h>

#include "smc_kunit.h"

static bool need_rdma;
module_param(need_rdma, bool, 0444);
MODULE_PARM_DESC(need_rdma,
		 "fail, not skip, the suites whose RDMA device is missing");

/**
 * smc_kunit_rdma_dev() - the RDMA device a suite runs on, or a skip
 * @test: the case being set up
 * @name: the device, e.g. "rxe1"
 *
 * Context: a KUnit case or its suite's init; may sleep.
 * Return: the device with a reference the caller drops with
 * ib_device_put(); without one the case ends here, skipped or failed.
 */
struct ib_device *smc_kunit_rdma_dev(struct kunit *test, const char *name)
{
	struct ib_device *dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);

	if (dev)
		return dev;
	if (need_rdma)
		KUNIT_FAIL_AND_ABORT(test, "no RDMA device %s", name);
	kunit_skip(test, "no RDMA device %s (the rig's kunit.sh makes one)",
		   name);
	return NULL;
}
