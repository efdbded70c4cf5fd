// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Test-only: /sys/kernel/debug/smc/inject_clc replaces the next CLC
 * message this host sends with the bytes written to it, once.  The
 * selftests use it to play a peer that sends malformed or unusual CLC
 * messages, which needs a TCP connection that negotiated the SMC option
 * and so cannot be done from user space.
 */

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "smc_test_hooks.h"

#define SMC_CLC_INJECT_MAX	1024

static DEFINE_MUTEX(smc_clc_inject_lock);	/* guards the two below */
static u8 *smc_clc_inject_buf;
static size_t smc_clc_inject_len;
/* lockless fast path: nothing is armed in normal operation */
static bool smc_clc_inject_armed;

/**
 * smc_clc_inject_take() - take the armed replacement message, if any
 * @len: its length
 *
 * Context: process context.
 * Return: a buffer the caller kfree()s, or NULL when nothing is armed.
 */
u8 *smc_clc_inject_take(size_t *len)
{
	u8 *buf;

	if (likely(!READ_ONCE(smc_clc_inject_armed)))
		return NULL;
	mutex_lock(&smc_clc_inject_lock);
	buf = smc_clc_inject_buf;
	*len = smc_clc_inject_len;
	smc_clc_inject_buf = NULL;
	WRITE_ONCE(smc_clc_inject_armed, false);
	mutex_unlock(&smc_clc_inject_lock);
	if (buf)
		pr_info("smc: sending an injected CLC message of %zu bytes\n",
			*len);
	return buf;
}

static ssize_t smc_clc_inject_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	u8 *buf;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!count || count > SMC_CLC_INJECT_MAX)
		return -EINVAL;
	buf = memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	mutex_lock(&smc_clc_inject_lock);
	kfree(smc_clc_inject_buf);
	smc_clc_inject_buf = buf;
	smc_clc_inject_len = count;
	WRITE_ONCE(smc_clc_inject_armed, true);
	mutex_unlock(&smc_clc_inject_lock);
	return count;
}

static const struct file_operations smc_clc_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= smc_clc_inject_write,
	.llseek	= noop_llseek,
};

/**
 * smc_clc_inject_init() - create inject_clc
 * @root: the module's debugfs directory
 *
 * Context: module init.
 */
void smc_clc_inject_init(struct dentry *root)
{
	debugfs_create_file("inject_clc", 0200, root, NULL,
			    &smc_clc_inject_fops);
}

/**
 * smc_clc_inject_exit() - drop an armed message
 *
 * Context: module exit, after debugfs removal.
 */
void smc_clc_inject_exit(void)
{
	kfree(smc_clc_inject_buf);
	smc_clc_inject_buf = NULL;
}
