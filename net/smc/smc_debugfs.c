// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Test-only fault hooks under /sys/kernel/debug/smc/.  inject_warn lets
 * the test rig check that its kernel splat detector sees our warnings.
 * Without debugfs these calls do nothing and the module works as usual.
 */

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>

#include "smc.h"

static struct dentry *smc_debugfs_root;

static ssize_t smc_inject_warn_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	unsigned int val;
	int rc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	rc = kstrtouint_from_user(ubuf, count, 0, &val);
	if (rc)
		return rc;
	if (val > 1)
		return -EINVAL;
	if (val)
		WARN(1, "smc: injected warning for the splat detector\n");
	return count;
}

static const struct file_operations smc_inject_warn_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= smc_inject_warn_write,
	.llseek	= noop_llseek,
};

/**
 * smc_debugfs_init() - create /sys/kernel/debug/smc/
 *
 * Failures are not fatal: debugfs is a test aid only.
 *
 * Context: module init.
 */
void smc_debugfs_init(void)
{
	smc_debugfs_root = debugfs_create_dir("smc", NULL);
	debugfs_create_file("inject_warn", 0200, smc_debugfs_root, NULL,
			    &smc_inject_warn_fops);
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
}
