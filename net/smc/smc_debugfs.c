// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * /sys/kernel/debug/smc/: diagnostics, root only (the counters cdc_rx,
 * llc_rx and failover; ib_select and pnetid answer a request written to them), and in
 * a test build the test hooks and fault switches
 * (smc_test_hooks.c).  Without debugfs these calls do nothing and the
 * module works as usual.
 */

#include <linux/debugfs.h>

#include "smc.h"
#include "smc_data.h"
#include "smc_ib.h"
#include "smc_lgr.h"
#include "smc_test_hooks.h"

static struct dentry *smc_debugfs_root;

/**
 * smc_debugfs_init() - create /sys/kernel/debug/smc/
 *
 * Failures are not fatal: debugfs is a diagnostic and test aid only.
 *
 * Context: module init.
 */
void smc_debugfs_init(void)
{
	smc_debugfs_root = debugfs_create_dir("smc", NULL);
	smc_cdc_debugfs_init(smc_debugfs_root);
	smc_llc_debugfs_init(smc_debugfs_root);
	smc_switch_debugfs_init(smc_debugfs_root);
	smc_ib_debugfs_init(smc_debugfs_root);
	smc_test_hooks_init(smc_debugfs_root);
}

/**
 * smc_debugfs_exit() - remove /sys/kernel/debug/smc/
 *
 * Context: module exit.
 */
void smc_debugfs_exit(void)
{
	debugfs_remove_recursive(smc_debugfs_root);
	smc_debugfs_root = NULL;
	smc_test_hooks_exit();
}
