// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Test-only fault hooks under /sys/kernel/debug/smc/.  inject_warn lets
 * the test rig check that its kernel splat detector sees our warnings;
 * inject_uaf, inject_lockdep and inject_leak, which exist only on kernels
 * with KASAN, lockdep and kmemleak, prove that those detectors see bugs
 * in this module.
 * Without debugfs these calls do nothing and the module works as usual.
 */

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "smc.h"
#include "smc_data.h"

static struct dentry *smc_debugfs_root;

/* a WARN, for the rig's splat detector */
static void smc_inject_warn(void)
{
	WARN(1, "smc: injected warning for the splat detector\n");
}

/* a read after kfree(), for KASAN to report */
static void smc_inject_uaf(void)
{
	u8 *obj = kmalloc(32, GFP_KERNEL);

	if (!obj)
		return;
	obj[0] = 0x5a;
	kfree(obj);
	OPTIMIZER_HIDE_VAR(obj);
	pr_info("smc: injected use-after-free read: %#x\n", READ_ONCE(obj[0]));
}

/*
 * A small allocation whose only pointer is dropped, for kmemleak to report;
 * the text makes it recognisable in the hex dump of the report.  noinline
 * and no tail call, so that the report's backtrace names this function.
 */
static noinline void smc_inject_leak(void)
{
	static const char mark[] = "smc inject_leak";
	char *obj = kmalloc(sizeof(mark), GFP_KERNEL);

	if (!obj)
		return;
	memcpy(obj, mark, sizeof(mark));
	/* the object and its contents escape: the compiler keeps both */
	barrier_data(obj);
}

static DEFINE_MUTEX(smc_inject_lock_a);
static DEFINE_MUTEX(smc_inject_lock_b);

/* A then B, later B then A: an ABBA deadlock in waiting, for lockdep */
static void smc_inject_lockdep(void)
{
	mutex_lock(&smc_inject_lock_a);
	mutex_lock(&smc_inject_lock_b);
	mutex_unlock(&smc_inject_lock_b);
	mutex_unlock(&smc_inject_lock_a);

	mutex_lock(&smc_inject_lock_b);
	mutex_lock(&smc_inject_lock_a);
	mutex_unlock(&smc_inject_lock_a);
	mutex_unlock(&smc_inject_lock_b);
}

/* what an inject_* file calls, as its inode's private data */
struct smc_inject {
	void (*fn)(void);
};

static struct smc_inject smc_inject_warn_op = { .fn = smc_inject_warn };
static struct smc_inject smc_inject_uaf_op = { .fn = smc_inject_uaf };
static struct smc_inject smc_inject_lockdep_op = { .fn = smc_inject_lockdep };
static struct smc_inject smc_inject_leak_op = { .fn = smc_inject_leak };

static ssize_t smc_inject_write(struct file *file,
				const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	struct smc_inject *inject = file->private_data;
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
		inject->fn();
	return count;
}

static const struct file_operations smc_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= smc_inject_write,
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
	smc_clc_inject_init(smc_debugfs_root);
	smc_cdc_debugfs_init(smc_debugfs_root);
	debugfs_create_file("inject_warn", 0200, smc_debugfs_root,
			    &smc_inject_warn_op, &smc_inject_fops);
	if (IS_ENABLED(CONFIG_KASAN))
		debugfs_create_file("inject_uaf", 0200, smc_debugfs_root,
				    &smc_inject_uaf_op,
				    &smc_inject_fops);
	if (IS_ENABLED(CONFIG_LOCKDEP))
		debugfs_create_file("inject_lockdep", 0200, smc_debugfs_root,
				    &smc_inject_lockdep_op,
				    &smc_inject_fops);
	if (IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
		debugfs_create_file("inject_leak", 0200, smc_debugfs_root,
				    &smc_inject_leak_op,
				    &smc_inject_fops);
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
	smc_clc_inject_exit();
}
