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
 *   alt v1|v2 IBDEV PNETID|- VLAN [A.B.C.D]
 *                       smc_ib_select_alt(): the second link's device
 *                       of a group whose first link is on IBDEV, with
 *                       that PNETID, VLAN and (v2) source address
 *
 * The answer is "IBDEV PORT SGID_INDEX GID MAC v1|v2 IFINDEX PNETID|-"
 * or "ENODEV".  IFNAME is looked up in the writer's namespace.
 *
 * /sys/kernel/debug/smc/pnetid shows where a port's PNETID comes from,
 * the hardware (zPCI, s390) or the table.  Write one request, read the
 * answer:
 *
 *   ndev IFNAME         a netdev (for a VLAN, the zPCI part is its
 *                       real device's)
 *   ib IBDEV PORT       an RDMA device's port, 1 or 2
 *
 * The answer is one line of key=value pairs:
 *
 *   zpci=ok fid=0x%08x uid=0x%08x pchid=0x%04x util=0|1 or zpci=-ERRNO
 *   hw=PNETID|-ERRNO    smc_zpci_pnetid() for the port
 *   pnetid=PNETID|-     the PNETID SMC-R uses
 *   usr=0|1             that one came from the table
 *
 * The test build's switch v1_on_rocev2, which lets SMC-Rv1 run over an
 * IPv4-mapped RoCEv2 GID (smc_ib.c says why), is in smc_test_hooks.c.
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/if_vlan.h>
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
#include "../../drivers/s390/pci/smc_zpci_pnetid.h"

#define SMC_IB_DBG_LEN	160

/* the answer to the last request of a file, read back by smc_dbg_read() */
struct smc_dbg_answer {
	struct mutex	lock;		/* guards text */
	char		text[SMC_IB_DBG_LEN];
};

static struct smc_dbg_answer smc_ib_dbg = {
	.lock = __MUTEX_INITIALIZER(smc_ib_dbg.lock),
};

static struct smc_dbg_answer smc_pnet_dbg = {
	.lock = __MUTEX_INITIALIZER(smc_pnet_dbg.lock),
};

static ssize_t smc_dbg_read(struct file *file, char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct smc_dbg_answer *a = file->private_data;
	char answer[SMC_IB_DBG_LEN];

	mutex_lock(&a->lock);
	strscpy(answer, a->text, sizeof(answer));
	mutex_unlock(&a->lock);
	return simple_read_from_buffer(ubuf, len, ppos, answer,
				       strlen(answer));
}

/* the SMC-R device named @name, with a reference, or NULL */
static struct smc_ib_device *smc_ib_dbg_dev(const char *name)
{
	struct smc_ib_device *dev;
	long n;

	for (n = 0; (dev = smc_ib_get_nth(n)); n++) {
		if (!strcmp(dev_name(&dev->ibdev->dev), name))
			return dev;
		smc_ib_put(dev);
	}
	return NULL;
}

/* @kind v1|v2, then "IBDEV PNETID|- VLAN [A.B.C.D]": smc_ib_select_alt() */
static int smc_ib_dbg_alt(struct net *net, const char *kind, char *req,
			  struct smc_ib_select *sel)
{
	char *ibname = strsep(&req, " ");
	char *pnetid = strsep(&req, " ");
	char *vlan = strsep(&req, " ");
	bool v2 = !strcmp(kind, "v2");
	struct smc_ib_device *known;
	__be32 saddr = 0;
	u16 vlan_id;
	int rc;

	if ((!v2 && strcmp(kind, "v1")) || !ibname || !pnetid || !vlan ||
	    kstrtou16(vlan, 10, &vlan_id))
		return -EINVAL;
	if (v2 && (!req || !in4_pton(req, -1, (u8 *)&saddr, -1, NULL)))
		return -EINVAL;
	if (!strcmp(pnetid, "-"))
		pnetid = "";
	known = smc_ib_dbg_dev(ibname);
	if (!known)
		return -ENOENT;
	rc = smc_ib_select_alt(net, known, pnetid, vlan_id, v2, saddr, sel);
	smc_ib_put(known);
	return rc;
}

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
	if (!strcmp(kind, "alt"))
		return smc_ib_dbg_alt(net, ifname, req, sel);
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

/* a request written to a file, NUL-terminated and trimmed, into @req */
static int smc_dbg_request(char *req, size_t size, const char __user *ubuf,
			   size_t len)
{
	if (len >= size)
		return -EINVAL;
	if (copy_from_user(req, ubuf, len))
		return -EFAULT;
	req[len] = '\0';
	strim(req);
	return 0;
}

static ssize_t smc_ib_dbg_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct smc_ib_select sel = {};
	char req[96];
	int rc;

	rc = smc_dbg_request(req, sizeof(req), ubuf, len);
	if (rc)
		return rc;

	rc = smc_ib_dbg_select(req, &sel);
	if (rc && rc != -ENODEV)
		return rc;
	mutex_lock(&smc_ib_dbg.lock);
	if (rc)
		strscpy(smc_ib_dbg.text, "ENODEV\n",
			sizeof(smc_ib_dbg.text));
	else
		snprintf(smc_ib_dbg.text, sizeof(smc_ib_dbg.text),
			 "%s %u %d %*phN %pM %s %d %s\n",
			 dev_name(&sel.dev->ibdev->dev), sel.port,
			 sel.sgid_index, SMC_IB_GID_SIZE, sel.gid, sel.mac,
			 sel.roce_v2 ? "v2" : "v1", sel.ifindex,
			 sel.pnetid[0] ? sel.pnetid : "-");
	mutex_unlock(&smc_ib_dbg.lock);
	if (!rc)
		smc_ib_put(sel.dev);
	return len;
}

static const struct file_operations smc_ib_dbg_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= smc_dbg_read,
	.write	= smc_ib_dbg_write,
	.llseek	= default_llseek,
};

/* the port's device and index for the zPCI look-up, and its PNETID */
static int smc_pnet_dbg_port(char *req, struct device **zdev,
			     unsigned int *zport, char *pnetid, bool *usr,
			     struct net_device **ndev,
			     struct smc_ib_device **ibdev)
{
	struct net *net = current->nsproxy->net_ns;
	char *kind = strsep(&req, " ");
	char *name = strsep(&req, " ");
	struct smc_ib_port_info info;
	struct smc_ib_device *dev;
	struct net_device *base;
	long n;
	u8 port;

	if (!kind || !name)
		return -EINVAL;
	if (!strcmp(kind, "ndev")) {
		*ndev = dev_get_by_name(net, name);
		if (!*ndev)
			return -ENOENT;
		base = is_vlan_dev(*ndev) ? vlan_dev_real_dev(*ndev) : *ndev;
		*zdev = base->dev.parent;
		*zport = base->dev_port;
		*usr = smc_pnet_find_ndev(*ndev, pnetid);
		return 0;
	}
	if (strcmp(kind, "ib") || !req || kstrtou8(req, 10, &port) ||
	    port < 1 || port > SMC_IB_MAX_PORTS)
		return -EINVAL;
	for (n = 0; (dev = smc_ib_get_nth(n)); n++) {
		if (!strcmp(dev_name(&dev->ibdev->dev), name))
			break;
		smc_ib_put(dev);
	}
	if (!dev)
		return -ENOENT;
	*ibdev = dev;
	smc_ib_port_info(dev, port, &info);
	if (!info.valid)
		return -ENOENT;
	*zdev = dev->ibdev->dev.parent;
	*zport = port - 1;
	strscpy(pnetid, info.pnetid, SMC_IB_PNETID_LEN + 1);
	*usr = info.pnet_usr;
	return 0;
}

static ssize_t smc_pnet_dbg_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char hw[SMC_ZPCI_PNETID_LEN + 1], pnetid[SMC_IB_PNETID_LEN + 1];
	struct smc_ib_device *ibdev = NULL;
	struct net_device *ndev = NULL;
	struct device *zdev = NULL;
	char req[96], zinfo[80];
	struct smc_zpci_fn fn;
	unsigned int zport = 0;
	int rc, hw_rc;
	bool usr;

	rc = smc_dbg_request(req, sizeof(req), ubuf, len);
	if (rc)
		return rc;

	rc = smc_pnet_dbg_port(req, &zdev, &zport, pnetid, &usr, &ndev,
			       &ibdev);
	if (rc)
		goto out;
	/* for a netdev "found" means from either source: tell them apart */
	hw_rc = smc_zpci_pnetid(zdev, zport, hw);
	if (ndev)
		usr = usr && hw_rc;
	rc = smc_zpci_fn_get(zdev, &fn);
	if (rc)
		snprintf(zinfo, sizeof(zinfo), "zpci=%pe", ERR_PTR(rc));
	else
		snprintf(zinfo, sizeof(zinfo),
			 "zpci=ok fid=0x%08x uid=0x%08x pchid=0x%04x util=%d",
			 fn.fid, fn.uid, fn.pchid, fn.util_avail);
	mutex_lock(&smc_pnet_dbg.lock);
	if (hw_rc)
		snprintf(smc_pnet_dbg.text, sizeof(smc_pnet_dbg.text),
			 "%s hw=%pe pnetid=%s usr=%d\n", zinfo, ERR_PTR(hw_rc),
			 pnetid[0] ? pnetid : "-", usr);
	else
		snprintf(smc_pnet_dbg.text, sizeof(smc_pnet_dbg.text),
			 "%s hw=%s pnetid=%s usr=%d\n", zinfo, hw,
			 pnetid[0] ? pnetid : "-", usr);
	mutex_unlock(&smc_pnet_dbg.lock);
	rc = 0;
out:
	if (ndev)
		dev_put(ndev);
	if (ibdev)
		smc_ib_put(ibdev);
	return rc ? rc : len;
}

static const struct file_operations smc_pnet_dbg_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= smc_dbg_read,
	.write	= smc_pnet_dbg_write,
	.llseek	= default_llseek,
};

/**
 * smc_ib_debugfs_init() - create ib_select and pnetid
 * @root: the module's debugfs directory
 *
 * The files go away with the directory in smc_debugfs_exit().
 * Failures are not fatal: debugfs is a diagnostic aid only.
 *
 * Context: module init.
 */
void smc_ib_debugfs_init(struct dentry *root)
{
	debugfs_create_file("ib_select", 0600, root, &smc_ib_dbg,
			    &smc_ib_dbg_fops);
	debugfs_create_file("pnetid", 0600, root, &smc_pnet_dbg,
			    &smc_pnet_dbg_fops);
}
