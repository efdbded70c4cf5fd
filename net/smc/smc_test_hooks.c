// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Test-only fault hooks under /sys/kernel/debug/smc/, built only with
 * CONFIG_SMC_TEST_HOOKS.  inject_warn lets the test rig check that its
 * kernel splat detector sees our warnings; inject_uaf, inject_lockdep
 * and inject_leak, which exist only on kernels with KASAN, lockdep and
 * kmemleak, prove that those detectors see bugs in this module.  The
 * switches change what goes on the wire for every connection:
 *
 * cdc_seqno_host_order sends and reads the CDC sequence number in host
 * byte order, a deliberate endian bug, symmetric like the real ones, so
 * two hosts of one byte order still agree and only a peer of the other
 * order sees odd numbers: the cross-endian selftests must notice it.
 *
 * hs_serv_delay_ms holds a server's handshake that long after the
 * client's Confirm came in, so that what the client does right after
 * connect() (a close, an abort, data) reaches the server before its
 * handshake ends, as it may on a busy host.
 *
 * cdc_nomem makes that many of the next CDC allocations fail, as
 * GFP_ATOMIC ones may under memory pressure: the data already written
 * into the peer's RMBE must still be announced.
 *
 * rx_stall makes every link of this host stop taking messages in: each
 * receive that completes is dropped and its slot not posted again, as
 * on a host whose CPU no longer gets to the receive queue.  Once the
 * posted receives are used up, the peer's SENDs wait for receive slots
 * without end (RNR retries are endless).
 *
 * v1_on_rocev2 lets SMC-Rv1 take an IPv4-mapped RoCEv2 GID as its RoCE
 * v1 GID.  Soft-RoCE has RoCEv2 GIDs only, so this is how the v1
 * protocol (CLC v1, LLC v1, the subnet rule) runs on the rig between two
 * of our modules; nothing on the wire depends on the GID type.
 * Upstream offers v1 with RoCE v1 GIDs only.
 */

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "smc_compat.h"
#include "smc_test_hooks.h"

bool smc_cdc_seqno_host_order;
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_seqno_host_order);
bool smc_ib_v1_on_rocev2;
EXPORT_SYMBOL_IF_KUNIT(smc_ib_v1_on_rocev2);
bool smc_wr_rx_stall;
bool smc_rx_urg_no_force;
u8 smc_wr_qp_timeout;
static u32 smc_hs_serv_delay_ms;
static atomic_t smc_cdc_nomem = ATOMIC_INIT(0);
static atomic_t smc_confirm_foreign_qpn = ATOMIC_INIT(0);

/**
 * smc_test_cdc_nomem() - must this CDC allocation fail?
 *
 * Context: any context.
 * Return: true while the cdc_nomem count was above 0 (it goes down by 1).
 */
bool smc_test_cdc_nomem(void)
{
	return atomic_add_unless(&smc_cdc_nomem, -1, 0);
}

/**
 * smc_test_confirm_foreign_qpn() - must this client's Confirm on a reused
 *	link group name a QP the group does not have, as a client that
 *	copied another host's identity would?
 *
 * Context: process context (the handshake work).
 * Return: true while the confirm_foreign_qpn count was above 0 (it goes
 * down by 1).
 */
bool smc_test_confirm_foreign_qpn(void)
{
	return atomic_add_unless(&smc_confirm_foreign_qpn, -1, 0);
}

/**
 * smc_test_hs_serv_delay() - the server's handshake has the Confirm
 *
 * Context: process context (the handshake work), may sleep.
 */
void smc_test_hs_serv_delay(void)
{
	u32 ms = READ_ONCE(smc_hs_serv_delay_ms);

	if (ms)
		msleep(ms);
}

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
 * smc_test_hooks_init() - create the hooks and switches
 * @root: the module's debugfs directory
 *
 * The files go away with the directory; failures are not fatal.
 *
 * Context: module init.
 */
void smc_test_hooks_init(struct dentry *root)
{
	smc_clc_inject_init(root);
	smc_wire_fuzz_init(root);
	debugfs_create_bool("cdc_seqno_host_order", 0600, root,
			    &smc_cdc_seqno_host_order);
	debugfs_create_bool("v1_on_rocev2", 0600, root, &smc_ib_v1_on_rocev2);
	debugfs_create_bool("rx_stall", 0600, root, &smc_wr_rx_stall);
	debugfs_create_bool("rx_urg_no_force", 0600, root,
			    &smc_rx_urg_no_force);
	debugfs_create_u8("qp_timeout", 0600, root, &smc_wr_qp_timeout);
	debugfs_create_u32("hs_serv_delay_ms", 0600, root,
			   &smc_hs_serv_delay_ms);
	debugfs_create_atomic_t("cdc_nomem", 0600, root, &smc_cdc_nomem);
	debugfs_create_atomic_t("confirm_foreign_qpn", 0600, root,
				&smc_confirm_foreign_qpn);
	debugfs_create_file("inject_warn", 0200, root,
			    &smc_inject_warn_op, &smc_inject_fops);
	if (IS_ENABLED(CONFIG_KASAN))
		debugfs_create_file("inject_uaf", 0200, root,
				    &smc_inject_uaf_op, &smc_inject_fops);
	if (IS_ENABLED(CONFIG_LOCKDEP))
		debugfs_create_file("inject_lockdep", 0200, root,
				    &smc_inject_lockdep_op, &smc_inject_fops);
	if (IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
		debugfs_create_file("inject_leak", 0200, root,
				    &smc_inject_leak_op, &smc_inject_fops);
}

/**
 * smc_test_hooks_exit() - drop what the hooks hold
 *
 * Context: module exit, after the debugfs directory is gone.
 */
void smc_test_hooks_exit(void)
{
	smc_clc_inject_exit();
}
