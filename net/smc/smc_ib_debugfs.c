// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * /sys/kernel/debug/smc/ib_select: lets the selftests ask the device
 * selection what it would choose, before any handshake uses it.  Write
 * one request, read the answer:
 *
 *   v2 IFNAME A.B.C.D   smc_ib_select_v2(), egress IFNAME, source address
 *   v1 IFNAME           smc_ib_select_v1()
 *   gid HEX32           smc_ib_find_by_gid()
 *
 * The answer is "IBDEV PORT SGID_INDEX GID MAC v1|v2 IFINDEX PNETID|-"
 * or "ENODEV".  IFNAME is looked up in the writer's namespace.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include "smc.h"
#include "smc_ib.h"

#define SMC_IB_DBG_LEN	160

static DEFINE_MUTEX(smc_ib_dbg_lock);	/* guards smc_ib_dbg_answer */
static char smc_ib_dbg_answer[SMC_IB_DBG_LEN];

static int smc_ib_dbg_select(char *req, struct smc_ib_select *sel)
{
	struct net *net = current->nsproxy->net_ns;
	char *kind = strsep(&req, " ");
	char *ifname = strsep(&req, " ");
	u8 gid[SMC_IB_GID_SIZE];
	struct net_device *ndev;
	__be32 saddr;
	int rc;

	if (!kind || !ifname)
		return -EINVAL;
	if (!strcmp(kind, "gid")) {
		if (strlen(ifname) != 2 * SMC_IB_GID_SIZE ||
		    hex2bin(gid, ifname, SMC_IB_GID_SIZE))
			return -EINVAL;
		return smc_ib_find_by_gid(gid, sel);
	}
	if (strcmp(kind, "v1") && strcmp(kind, "v2"))
		return -EINVAL;
	if (kind[1] == '2' && (!req || !in4_pton(req, -1, (u8 *)&saddr,
						 -1, NULL)))
		return -EINVAL;
	ndev = dev_get_by_name(net, ifname);
	if (!ndev)
		return -ENOENT;
	if (kind[1] == '2')
		rc = smc_ib_select_v2(net, ndev, saddr, sel);
	else
		rc = smc_ib_select_v1(net, ndev, sel);
	dev_put(ndev);
	return rc;
}

static ssize_t smc_ib_dbg_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct smc_ib_select sel = {};
	char req[96];
	int rc;

	if (len >= sizeof(req))
		return -EINVAL;
	if (copy_from_user(req, ubuf, len))
		return -EFAULT;
	req[len] = '\0';
	strim(req);

	rc = smc_ib_dbg_select(req, &sel);
	if (rc && rc != -ENODEV)
		return rc;
	mutex_lock(&smc_ib_dbg_lock);
	if (rc)
		strscpy(smc_ib_dbg_answer, "ENODEV\n",
			sizeof(smc_ib_dbg_answer));
	else
		snprintf(smc_ib_dbg_answer, sizeof(smc_ib_dbg_answer),
			 "%s %u %d %*phN %pM %s %d %s\n",
			 dev_name(&sel.dev->ibdev->dev), sel.port,
			 sel.sgid_index, SMC_IB_GID_SIZE, sel.gid, sel.mac,
			 sel.roce_v2 ? "v2" : "v1", sel.ifindex,
			 sel.pnetid[0] ? sel.pnetid : "-");
	mutex_unlock(&smc_ib_dbg_lock);
	if (!rc)
		smc_ib_put(sel.dev);
	return len;
}

static ssize_t smc_ib_dbg_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char answer[SMC_IB_DBG_LEN];

	mutex_lock(&smc_ib_dbg_lock);
	strscpy(answer, smc_ib_dbg_answer, sizeof(answer));
	mutex_unlock(&smc_ib_dbg_lock);
	return simple_read_from_buffer(ubuf, len, ppos, answer,
				       strlen(answer));
}

static const struct file_operations smc_ib_dbg_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= smc_ib_dbg_read,
	.write	= smc_ib_dbg_write,
	.llseek	= default_llseek,
};

/**
 * smc_ib_debugfs_init() - create /sys/kernel/debug/smc/ib_select
 *
 * The file goes away with the directory in smc_debugfs_exit().
 * Failures are not fatal: debugfs is a test aid only.
 *
 * Context: module init, after smc_debugfs_init().
 */
void smc_ib_debugfs_init(void)
{
	struct dentry *root = debugfs_lookup("smc", NULL);

	if (IS_ERR_OR_NULL(root))
		return;
	debugfs_create_file("ib_select", 0600, root, NULL, &smc_ib_dbg_fops);
	dput(root);
}
