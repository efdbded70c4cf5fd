// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Generic netlink family "SMC_GEN_NETLINK": system information, the user
 * defined EID (UEID) table, the system EID, the handshake limitation and
 * the statistics, the RoCE devices and the SMC-R link groups and links
 * (of the requester's namespace).  SMC-D link groups and ISM devices are
 * dumped as empty lists: there is no SMC-D.
 *
 * The commands, permissions, validation and error codes are those of
 * the upstream module on a machine without ISM devices: no system EID
 * (SEID) to dump.  Enabling or disabling the SEID answers as upstream
 * does on each platform (see smc_nl_enable_seid()).
 */

#include <linux/ctype.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/smc.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "smc.h"
#include "smc_ib.h"
#include "smc_lgr.h"

#define SMC_NL_VERSION		2	/* SMC_NLA_SYS_VER: SMCv2 */
#define SMC_NL_RELEASE		1	/* SMC_NLA_SYS_REL: v2.1 */

/* hostname at module load, blank padded, not NUL terminated (CLC) */
static char smc_nl_hostname[SMC_MAX_HOSTNAME_LEN];

/*
 * The UEID table is global, as upstream's: an EID names a group of
 * systems, not a namespace.  Entries are exactly SMC_MAX_EID_LEN bytes,
 * blank padded.
 */
struct smc_ueid {
	struct list_head	list;
	u8			eid[SMC_MAX_EID_LEN];
};

static DEFINE_MUTEX(smc_ueid_lock);	/* guards the two below */
static LIST_HEAD(smc_ueid_list);
static unsigned int smc_ueid_cnt;

static struct genl_family smc_gen_family;

/*
 * A UEID is A-Z, 0-9, '.' and '-', starts with a letter or digit, and
 * is blank padded to 32 characters (blanks only at the end).
 */
static bool smc_ueid_valid(const u8 *eid)
{
	int last = SMC_MAX_EID_LEN - 1;
	int i;

	while (last >= 0 && isspace(eid[last]))
		last--;
	if (last < 0 || !isalnum(eid[0]) || islower(eid[0]))
		return false;
	for (i = 0; i <= last; i++) {
		if (eid[i] == '.' || eid[i] == '-')
			continue;
		if (!isalnum(eid[i]) || islower(eid[i]))
			return false;
	}
	return true;
}

/* the entry attribute, or NULL with extack set */
static const u8 *smc_ueid_attr(struct genl_info *info)
{
	struct nlattr *nla = info->attrs[SMC_NLA_EID_TABLE_ENTRY];

	if (!nla) {
		GENL_SET_ERR_MSG(info, "UEID entry missing");
		return NULL;
	}
	if (nla_len(nla) != SMC_MAX_EID_LEN + 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, nla,
				    "UEID must be 32 characters plus NUL");
		return NULL;
	}
	return nla_data(nla);
}

static int smc_nl_add_ueid(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smc_ueid_attr(info);
	struct smc_ueid *new, *ue;
	int rc = 0;

	if (!eid)
		return -EINVAL;
	if (!smc_ueid_valid(eid)) {
		GENL_SET_ERR_MSG(info,
				 "UEID must be A-Z, 0-9, '.', '-', start alphanumeric, blank padded");
		return -EINVAL;
	}
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	memcpy(new->eid, eid, SMC_MAX_EID_LEN);

	mutex_lock(&smc_ueid_lock);
	if (smc_ueid_cnt >= SMC_MAX_UEID) {
		GENL_SET_ERR_MSG(info, "UEID table is full");
		rc = -ERANGE;
		goto out;
	}
	list_for_each_entry(ue, &smc_ueid_list, list) {
		if (!memcmp(ue->eid, eid, SMC_MAX_EID_LEN)) {
			GENL_SET_ERR_MSG(info, "UEID already in the table");
			rc = -EEXIST;
			goto out;
		}
	}
	list_add_tail(&new->list, &smc_ueid_list);
	smc_ueid_cnt++;
	new = NULL;
out:
	mutex_unlock(&smc_ueid_lock);
	kfree(new);
	return rc;
}

/*
 * Remove @eid, or every entry with NULL; -ENOENT if nothing matched.  On
 * s390, removing the last entry by name gives -EAGAIN, as upstream's:
 * success, and the SEID is the system's EID again.
 */
static int smc_ueid_remove(const u8 *eid)
{
	struct smc_ueid *ue, *tmp;
	int rc = -ENOENT;

	mutex_lock(&smc_ueid_lock);
	list_for_each_entry_safe(ue, tmp, &smc_ueid_list, list) {
		if (eid && memcmp(ue->eid, eid, SMC_MAX_EID_LEN))
			continue;
		list_del(&ue->list);
		smc_ueid_cnt--;
		kfree(ue);
		rc = 0;
	}
	if (IS_ENABLED(CONFIG_S390) && eid && !rc && !smc_ueid_cnt)
		rc = -EAGAIN;
	mutex_unlock(&smc_ueid_lock);
	return rc;
}

static int smc_nl_remove_ueid(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smc_ueid_attr(info);
	int rc;

	if (!eid)
		return -EINVAL;
	rc = smc_ueid_remove(eid);
	if (rc == -ENOENT)
		GENL_SET_ERR_MSG(info, "no such UEID");
	return rc;
}

static int smc_nl_flush_ueid(struct sk_buff *skb, struct genl_info *info)
{
	smc_ueid_remove(NULL);
	return 0;
}

static void *smc_nl_put_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			    u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &smc_gen_family, NLM_F_MULTI, cmd);
}

static int smc_nl_dump_ueid(struct sk_buff *skb, struct netlink_callback *cb)
{
	char str[SMC_MAX_EID_LEN + 1];
	struct smc_ueid *ue;
	long pos = 0;
	void *hdr;

	mutex_lock(&smc_ueid_lock);
	list_for_each_entry(ue, &smc_ueid_list, list) {
		if (pos++ < cb->args[0])
			continue;
		hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_DUMP_UEID);
		if (!hdr)
			goto full;
		memcpy(str, ue->eid, SMC_MAX_EID_LEN);
		str[SMC_MAX_EID_LEN] = '\0';
		if (nla_put_string(skb, SMC_NLA_EID_TABLE_ENTRY, str)) {
			genlmsg_cancel(skb, hdr);
			goto full;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&smc_ueid_lock);
	cb->args[0] = pos;
	return skb->len;
full:
	mutex_unlock(&smc_ueid_lock);
	cb->args[0] = pos - 1;
	return skb->len;
}

/* without an ISMv2 device there is no SEID: an empty message */
static int smc_nl_dump_seid(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;

	if (cb->args[0])
		return skb->len;
	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_DUMP_SEID);
	if (!hdr)
		return -EMSGSIZE;
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

/*
 * The SEID exists only where an ISMv2 device is (SMC-D on s390), and it
 * matters only to SMC-D, which this module does not do.  The switch
 * still answers as upstream's on each platform, so that the tools and
 * scripts written for it see no difference: -EOPNOTSUPP off s390; on
 * s390 enabling succeeds, and disabling needs a UEID to use instead.
 */
static int smc_nl_enable_seid(struct sk_buff *skb, struct genl_info *info)
{
	if (!IS_ENABLED(CONFIG_S390)) {
		GENL_SET_ERR_MSG(info, "no system EID on this platform");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int smc_nl_disable_seid(struct sk_buff *skb, struct genl_info *info)
{
	int rc = 0;

	if (!IS_ENABLED(CONFIG_S390)) {
		GENL_SET_ERR_MSG(info, "no system EID on this platform");
		return -EOPNOTSUPP;
	}
	mutex_lock(&smc_ueid_lock);
	if (!smc_ueid_cnt) {
		GENL_SET_ERR_MSG(info, "no UEID to use instead of the system EID");
		rc = -ENOENT;
	}
	mutex_unlock(&smc_ueid_lock);
	return rc;
}

static int smc_nl_dump_hs_limitation(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	void *hdr;

	if (cb->args[0])
		return skb->len;
	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_DUMP_HS_LIMITATION);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_HS_LIMITATION_ENABLED,
		       smc_sysctl_limit_hs(sock_net(skb->sk)))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
}

static int smc_nl_enable_hs_limitation(struct sk_buff *skb,
				       struct genl_info *info)
{
	smc_sysctl_set_limit_hs(genl_info_net(info), true);
	return 0;
}

static int smc_nl_disable_hs_limitation(struct sk_buff *skb,
					struct genl_info *info)
{
	smc_sysctl_set_limit_hs(genl_info_net(info), false);
	return 0;
}

static int smc_nl_get_sys_info(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	struct nlattr *nest;
	void *hdr;

	if (cb->args[0])
		return skb->len;
	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_GET_SYS_INFO);
	if (!hdr)
		return skb->len;
	nest = nla_nest_start(skb, SMC_GEN_SYS_INFO);
	if (!nest)
		goto cancel;
	memcpy(host, smc_nl_hostname, SMC_MAX_HOSTNAME_LEN);
	host[SMC_MAX_HOSTNAME_LEN] = '\0';
	if (nla_put_u8(skb, SMC_NLA_SYS_VER, SMC_NL_VERSION) ||
	    nla_put_u8(skb, SMC_NLA_SYS_REL, SMC_NL_RELEASE) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_ISM_V2, 0) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_SMCR_V2, 1) ||
	    nla_put_string(skb, SMC_NLA_SYS_LOCAL_HOST, host)) {
		nla_nest_cancel(skb, nest);
		goto cancel;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
cancel:
	genlmsg_cancel(skb, hdr);
	return skb->len;
}

/* SMC-D link groups and ISM devices: none, there is no SMC-D */
static int smc_nl_dump_none(struct sk_buff *skb, struct netlink_callback *cb)
{
	return 0;
}

/* a GID as eight big-endian 16-bit groups, "xxxx:...:xxxx" */
static int smc_nl_put_gid(struct sk_buff *skb, int type, const u8 *gid)
{
	char str[8 * 5];
	int i, n = 0;

	for (i = 0; i < SMC_GID_SIZE; i += 2)
		n += scnprintf(str + n, sizeof(str) - n, "%s%02x%02x",
			       i ? ":" : "", gid[i], gid[i + 1]);
	return nla_put_string(skb, type, str);
}

/* a fixed-size, possibly unterminated field as a string attribute */
static int smc_nl_put_field(struct sk_buff *skb, int type, const u8 *f,
			    size_t len)
{
	char str[SMC_MAX_HOSTNAME_LEN + 1];

	len = min(len, sizeof(str) - 1);
	memcpy(str, f, len);
	str[len] = '\0';
	return nla_put_string(skb, type, str);
}

static int smc_nl_put_lgr_v2(struct sk_buff *skb,
			     const struct smc_link_group *lgr)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, SMC_NLA_LGR_R_V2_COMMON);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_LGR_V2_VER, lgr->smc_version) ||
	    nla_put_u8(skb, SMC_NLA_LGR_V2_REL, lgr->release) ||
	    nla_put_u8(skb, SMC_NLA_LGR_V2_OS, lgr->peer_os) ||
	    smc_nl_put_field(skb, SMC_NLA_LGR_V2_PEER_HOST,
			     lgr->peer_hostname, sizeof(lgr->peer_hostname)) ||
	    smc_nl_put_field(skb, SMC_NLA_LGR_V2_NEG_EID,
			     lgr->negotiated_eid, sizeof(lgr->negotiated_eid)))
		goto cancel;
	nla_nest_end(skb, nest);
	nest = nla_nest_start(skb, SMC_NLA_LGR_R_V2);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_LGR_R_V2_DIRECT, lgr->v2_direct) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_V2_MAX_CONNS, lgr->max_conns) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_V2_MAX_LINKS, lgr->max_links))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int smc_nl_put_lgr(struct sk_buff *skb,
			  const struct smc_link_group *lgr)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, SMC_GEN_LGR_SMCR);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, SMC_NLA_LGR_R_ID, lgr->id) ||
	    nla_put_u32(skb, SMC_NLA_LGR_R_CONNS_NUM, lgr->conns_num) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_ROLE, lgr->role) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_TYPE, lgr->type) ||
	    /* physically contiguous buffers only (smcr_buf_type 0) */
	    nla_put_u8(skb, SMC_NLA_LGR_R_BUF_TYPE, 0) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_VLAN_ID, lgr->vlan_id) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_R_NET_COOKIE,
			      lgr->net->net_cookie, SMC_NLA_LGR_R_PAD) ||
	    nla_put_string(skb, SMC_NLA_LGR_R_PNETID, lgr->pnetid) ||
	    nla_put_uint(skb, SMC_NLA_LGR_R_SNDBUF_ALLOC,
			 READ_ONCE(lgr->alloc_sndbufs)) ||
	    nla_put_uint(skb, SMC_NLA_LGR_R_RMB_ALLOC,
			 READ_ONCE(lgr->alloc_rmbs)))
		goto cancel;
	if (lgr->smc_version != SMC_CLC_V1 && smc_nl_put_lgr_v2(skb, lgr))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int smc_nl_put_link(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct smc_lgr_link *lnk)
{
	struct smc_ib_port_info info;
	struct nlattr *nest;
	void *hdr;

	smc_ib_port_info(lnk->smcibdev, lnk->ibport, &info);
	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_GET_LINK_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_LINK_SMCR);
	if (!nest)
		goto cancel;
	if (nla_put_u8(skb, SMC_NLA_LINK_ID, lnk->link_id) ||
	    nla_put_u32(skb, SMC_NLA_LINK_STATE, lnk->state) ||
	    nla_put_u32(skb, SMC_NLA_LINK_CONN_CNT,
			atomic_read(&lnk->conn_cnt)) ||
	    nla_put_u8(skb, SMC_NLA_LINK_IB_PORT, lnk->ibport) ||
	    /* an ifindex, whatever the uapi comment says */
	    nla_put_u32(skb, SMC_NLA_LINK_NET_DEV, info.ifindex) ||
	    nla_put_string(skb, SMC_NLA_LINK_IB_DEV,
			   dev_name(&lnk->smcibdev->ibdev->dev)) ||
	    nla_put_u32(skb, SMC_NLA_LINK_UID, lnk->link_uid) ||
	    nla_put_u32(skb, SMC_NLA_LINK_PEER_UID, lnk->peer_link_uid) ||
	    smc_nl_put_gid(skb, SMC_NLA_LINK_GID, lnk->wr.gid.raw) ||
	    smc_nl_put_gid(skb, SMC_NLA_LINK_PEER_GID, lnk->peer_gid))
		goto cancel_nest;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel_nest:
	nla_nest_cancel(skb, nest);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

struct smc_nl_lgr_arg {
	struct sk_buff		*skb;
	struct netlink_callback	*cb;
	bool			links;
};

/* a group's message and, for GET_LINK_SMCR, its links' messages: all or none */
static int smc_nl_fill_lgr(struct smc_link_group *lgr, void *p)
{
	struct smc_nl_lgr_arg *a = p;
	struct sk_buff *skb = a->skb;
	const unsigned char *mark = skb_tail_pointer(skb);
	void *hdr;
	int i;

	hdr = smc_nl_put_hdr(skb, a->cb, SMC_NETLINK_GET_LGR_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	if (smc_nl_put_lgr(skb, lgr)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	if (!a->links)
		return 0;
	for (i = 0; i < SMC_LINKS_PER_LGR_MAX; i++) {
		const struct smc_lgr_link *lnk = &lgr->lnk[i];

		/* links in use, as upstream lists them */
		if (lnk->state == SMC_LNK_UNUSED ||
		    lnk->state == SMC_LNK_INACTIVE || !lnk->smcibdev)
			continue;
		if (smc_nl_put_link(skb, a->cb, lnk)) {
			nlmsg_trim(skb, mark);
			return -EMSGSIZE;
		}
	}
	return 0;
}

/* args[0]: position of the next link group in the namespace's list */
static int smc_nl_dump_lgr(struct sk_buff *skb, struct netlink_callback *cb,
			   bool links)
{
	struct smc_nl_lgr_arg a = { .skb = skb, .cb = cb, .links = links };

	smc_lgr_dump(sock_net(skb->sk), &cb->args[0], smc_nl_fill_lgr, &a);
	return skb->len;
}

static int smc_nl_get_lgr_smcr(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	return smc_nl_dump_lgr(skb, cb, false);
}

static int smc_nl_get_link_smcr(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return smc_nl_dump_lgr(skb, cb, true);
}

/* one port nest, numbered as upstream: SMC_NLA_DEV_PORT + index */
static int smc_nl_put_dev_port(struct sk_buff *skb,
			       struct smc_ib_device *dev, u8 port)
{
	struct smc_ib_port_info info;
	struct nlattr *nest;

	smc_ib_port_info(dev, port, &info);
	if (!info.valid)
		return 0;
	nest = nla_nest_start(skb, SMC_NLA_DEV_PORT + port - 1);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_DEV_PORT_PNET_USR, info.pnet_usr) ||
	    nla_put_string(skb, SMC_NLA_DEV_PORT_PNETID, info.pnetid) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PORT_NETDEV, info.ifindex) ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_VALID, 1) ||
	    nla_put_u8(skb, SMC_NLA_DEV_PORT_STATE, info.active) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PORT_LNK_CNT, info.lnk_cnt)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * PCI attributes only for PCI functions; the function id and channel id
 * are s390 firmware values, 0 elsewhere.  Soft devices (rxe) have none.
 */
static int smc_nl_put_dev_pci(struct sk_buff *skb, struct ib_device *ibdev)
{
	struct device *parent = ibdev->dev.parent;
	struct pci_dev *pdev;

	if (!parent || !dev_is_pci(parent))
		return 0;
	pdev = to_pci_dev(parent);
	if (nla_put_u32(skb, SMC_NLA_DEV_PCI_FID, 0) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_CHID, 0) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_VENDOR, pdev->vendor) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_DEVICE, pdev->device) ||
	    nla_put_string(skb, SMC_NLA_DEV_PCI_ID, pci_name(pdev)))
		return -EMSGSIZE;
	return 0;
}

static int smc_nl_put_dev_smcr(struct sk_buff *skb,
			       struct netlink_callback *cb,
			       struct smc_ib_device *dev)
{
	struct nlattr *nest;
	void *hdr;
	u8 port;

	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_GET_DEV_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_DEV_SMCR);
	if (!nest)
		goto cancel;
	if (nla_put_u8(skb, SMC_NLA_DEV_IS_CRIT,
		       atomic_read(&dev->crit_cnt) > 0) ||
	    smc_nl_put_dev_pci(skb, dev->ibdev) ||
	    nla_put_string(skb, SMC_NLA_DEV_IB_NAME,
			   dev_name(&dev->ibdev->dev)))
		goto cancel_nest;
	for (port = 1; port <= SMC_IB_MAX_PORTS; port++) {
		if (smc_nl_put_dev_port(skb, dev, port))
			goto cancel_nest;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel_nest:
	nla_nest_cancel(skb, nest);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * RoCE devices, in every namespace as upstream: they live in init_net
 * but serve all namespaces.  args[0] is the next device's position.
 */
static int smc_nl_get_dev_smcr(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	struct smc_ib_device *dev;
	int rc;

	for (;;) {
		dev = smc_ib_get_nth(cb->args[0]);
		if (!dev)
			break;
		rc = smc_nl_put_dev_smcr(skb, cb, dev);
		smc_ib_put(dev);
		if (rc)
			break;
		cb->args[0]++;
	}
	return skb->len;
}

/* the attribute order of upstream's nests, every counter still 0 */
static const u8 smc_nl_rmb_attrs[] = {
	SMC_NLA_STATS_RMB_REUSE_CNT,
	SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT,
	SMC_NLA_STATS_RMB_SIZE_SM_CNT,
	SMC_NLA_STATS_RMB_FULL_PEER_CNT,
	SMC_NLA_STATS_RMB_FULL_CNT,
	SMC_NLA_STATS_RMB_ALLOC_CNT,
	SMC_NLA_STATS_RMB_DGRADE_CNT,
};

static const u8 smc_nl_tech_nests[] = {
	SMC_NLA_STATS_T_TX_RMB_STATS,
	SMC_NLA_STATS_T_RX_RMB_STATS,
	SMC_NLA_STATS_T_TXPLOAD_SIZE,
	SMC_NLA_STATS_T_RXPLOAD_SIZE,
	SMC_NLA_STATS_T_TX_RMB_SIZE,
	SMC_NLA_STATS_T_RX_RMB_SIZE,
};

/* u64 counters; the two RMB_USAGE ones are "uint" and marked by 0xff */
static const u8 smc_nl_tech_counters[] = {
	SMC_NLA_STATS_T_CLNT_V1_SUCC,
	SMC_NLA_STATS_T_CLNT_V2_SUCC,
	SMC_NLA_STATS_T_SRV_V1_SUCC,
	SMC_NLA_STATS_T_SRV_V2_SUCC,
	SMC_NLA_STATS_T_RX_BYTES,
	SMC_NLA_STATS_T_TX_BYTES,
	SMC_NLA_STATS_T_RX_RMB_USAGE,
	SMC_NLA_STATS_T_TX_RMB_USAGE,
	SMC_NLA_STATS_T_RX_CNT,
	SMC_NLA_STATS_T_TX_CNT,
	SMC_NLA_STATS_T_SENDPAGE_CNT,
	SMC_NLA_STATS_T_CORK_CNT,
	SMC_NLA_STATS_T_NDLY_CNT,
	SMC_NLA_STATS_T_SPLICE_CNT,
	SMC_NLA_STATS_T_URG_DATA_CNT,
};

static int smc_nl_put_u64(struct sk_buff *skb, int type, u64 val)
{
	return nla_put_u64_64bit(skb, type, val, 0 /* every *_PAD is 0 */);
}

/* the counters we keep; the others are reported as 0 */
static u64 smc_nl_tech_value(struct net *net, int type, u8 attr)
{
	if (type != SMC_NLA_STATS_SMCR_TECH)
		return 0;
	switch (attr) {
	case SMC_NLA_STATS_T_CLNT_V1_SUCC:
		return smc_stats_smcr_read(net, false, SMC_CLC_V1);
	case SMC_NLA_STATS_T_CLNT_V2_SUCC:
		return smc_stats_smcr_read(net, false, SMC_CLC_V2);
	case SMC_NLA_STATS_T_SRV_V1_SUCC:
		return smc_stats_smcr_read(net, true, SMC_CLC_V1);
	case SMC_NLA_STATS_T_SRV_V2_SUCC:
		return smc_stats_smcr_read(net, true, SMC_CLC_V2);
	}
	return 0;
}

static int smc_nl_fill_tech(struct sk_buff *skb, struct net *net, int type)
{
	struct nlattr *tech, *nest;
	unsigned int i, j;

	tech = nla_nest_start(skb, type);
	if (!tech)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(smc_nl_tech_nests); i++) {
		bool rmb = i < 2;
		unsigned int n = rmb ? ARRAY_SIZE(smc_nl_rmb_attrs) :
				       SMC_NLA_STATS_PLOAD_MAX;

		nest = nla_nest_start(skb, smc_nl_tech_nests[i]);
		if (!nest)
			goto cancel;
		for (j = 0; j < n; j++)
			if (smc_nl_put_u64(skb, rmb ? smc_nl_rmb_attrs[j] :
					   SMC_NLA_STATS_PLOAD_8K + j, 0))
				goto cancel;
		nla_nest_end(skb, nest);
	}
	for (i = 0; i < ARRAY_SIZE(smc_nl_tech_counters); i++) {
		u8 attr = smc_nl_tech_counters[i];
		int rc;

		/* a "uint" of value 0 is sent as 4 bytes */
		if (attr == SMC_NLA_STATS_T_RX_RMB_USAGE ||
		    attr == SMC_NLA_STATS_T_TX_RMB_USAGE)
			rc = nla_put_u32(skb, attr, 0);
		else
			rc = smc_nl_put_u64(skb, attr,
					    smc_nl_tech_value(net, type, attr));
		if (rc)
			goto cancel;
	}
	nla_nest_end(skb, tech);
	return 0;
cancel:
	nla_nest_cancel(skb, tech);
	return -EMSGSIZE;
}

static int smc_nl_get_stats(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct nlattr *nest;
	void *hdr;

	if (cb->args[0])
		return skb->len;
	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_GET_STATS);
	if (!hdr)
		return skb->len;
	nest = nla_nest_start(skb, SMC_GEN_STATS);
	if (!nest)
		goto cancel;
	if (smc_nl_fill_tech(skb, net, SMC_NLA_STATS_SMCD_TECH) ||
	    smc_nl_fill_tech(skb, net, SMC_NLA_STATS_SMCR_TECH) ||
	    smc_nl_put_u64(skb, SMC_NLA_STATS_CLNT_HS_ERR_CNT,
			   smc_stats_hs_err_read(net, false)) ||
	    smc_nl_put_u64(skb, SMC_NLA_STATS_SRV_HS_ERR_CNT,
			   smc_stats_hs_err_read(net, true))) {
		nla_nest_cancel(skb, nest);
		goto cancel;
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
cancel:
	genlmsg_cancel(skb, hdr);
	return skb->len;
}

/*
 * The @n-th (from 0) reason with a count, in the order the reasons were
 * first seen, as upstream lists them; -ENODATA if there is none.
 */
static int smc_nl_fback_nth(struct net *net, bool server, long n, u32 *code,
			    unsigned long *cnt)
{
	unsigned int i;
	int slot;

	for (i = 0; ; i++) {
		slot = smc_stats_fback_seen(net, server, i);
		if (slot == -ENODATA)
			return -ENODATA;
		if (slot < 0)
			continue;
		*cnt = smc_stats_fback_read(net, server, slot);
		*code = smc_stats_fback_code(slot);
		/* the catch-all slot has no code to report */
		if (!*cnt || !*code)
			continue;
		if (!n--)
			return 0;
	}
}

static int smc_nl_fback_put(struct sk_buff *skb, struct netlink_callback *cb,
			    bool server, u32 code, unsigned long cnt)
{
	struct net *net = sock_net(skb->sk);
	u64 srv = 0, clnt = 0;
	struct nlattr *nest;
	unsigned int i;
	void *hdr;

	hdr = smc_nl_put_hdr(skb, cb, SMC_NETLINK_GET_FBACK_STATS);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SMC_GEN_FBACK_STATS);
	if (!nest)
		goto cancel;
	if (nla_put_u8(skb, SMC_NLA_FBACK_STATS_TYPE, server))
		goto cancel_nest;
	if (!cb->args[2]) {
		for (i = 0; i < smc_stats_fback_slots(); i++) {
			srv += smc_stats_fback_read(net, true, i);
			clnt += smc_stats_fback_read(net, false, i);
		}
		if (smc_nl_put_u64(skb, SMC_NLA_FBACK_STATS_SRV_CNT, srv) ||
		    smc_nl_put_u64(skb, SMC_NLA_FBACK_STATS_CLNT_CNT, clnt))
			goto cancel_nest;
	}
	/* upstream's counter is 16 bits wide */
	if (nla_put_u32(skb, SMC_NLA_FBACK_STATS_RSN_CODE, code) ||
	    nla_put_u16(skb, SMC_NLA_FBACK_STATS_RSN_CNT, (u16)cnt))
		goto cancel_nest;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	cb->args[2] = 1;
	return 0;
cancel_nest:
	nla_nest_cancel(skb, nest);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * Fallback reasons, one message each: the k-th server reason, then the
 * k-th client reason, for k = 0, 1, ... as upstream orders them (each
 * side's reasons by their first fallback); the
 * totals ride in the first message only.  cb->args[0]: k to resume at,
 * cb->args[1]: side (0 server, 1 client) to resume at, cb->args[2]:
 * totals sent.
 */
static int smc_nl_get_fback_stats(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	long start = cb->args[0], k;
	unsigned long cnt;
	int side;
	u32 code;

	for (k = start; ; k++) {
		bool found = false;

		for (side = 0; side < 2; side++) {
			if (k == start && side < cb->args[1]) {
				found = true;
				continue;
			}
			if (smc_nl_fback_nth(net, !side, k, &code, &cnt))
				continue;
			found = true;
			if (smc_nl_fback_put(skb, cb, !side, code, cnt)) {
				cb->args[0] = k;
				cb->args[1] = side;
				return skb->len;
			}
		}
		if (!found)
			break;
	}
	cb->args[0] = k;
	cb->args[1] = 0;
	return skb->len;
}

static const struct nla_policy smc_gen_ueid_policy[SMC_NLA_EID_TABLE_MAX + 1] = {
	[SMC_NLA_EID_TABLE_UNSPEC]	= { .type = NLA_UNSPEC },
	[SMC_NLA_EID_TABLE_ENTRY]	= { .type = NLA_STRING,
					    .len = SMC_MAX_EID_LEN },
};

/* no command takes attribute 1 unless its own policy says so */
static const struct nla_policy smc_gen_policy[SMC_NLA_EID_TABLE_ENTRY + 1] = {
	[SMC_NLA_EID_TABLE_ENTRY]	= { .type = NLA_REJECT },
};

static const struct genl_ops smc_gen_ops[] = {
	{ .cmd = SMC_NETLINK_GET_SYS_INFO, .dumpit = smc_nl_get_sys_info },
	{ .cmd = SMC_NETLINK_GET_LGR_SMCR, .dumpit = smc_nl_get_lgr_smcr },
	{ .cmd = SMC_NETLINK_GET_LINK_SMCR, .dumpit = smc_nl_get_link_smcr },
	{ .cmd = SMC_NETLINK_GET_LGR_SMCD, .dumpit = smc_nl_dump_none },
	{ .cmd = SMC_NETLINK_GET_DEV_SMCD, .dumpit = smc_nl_dump_none },
	{ .cmd = SMC_NETLINK_GET_DEV_SMCR, .dumpit = smc_nl_get_dev_smcr },
	{ .cmd = SMC_NETLINK_GET_STATS, .dumpit = smc_nl_get_stats },
	{ .cmd = SMC_NETLINK_GET_FBACK_STATS,
	  .dumpit = smc_nl_get_fback_stats },
	{ .cmd = SMC_NETLINK_DUMP_UEID, .dumpit = smc_nl_dump_ueid },
	{ .cmd = SMC_NETLINK_ADD_UEID, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_add_ueid, .policy = smc_gen_ueid_policy },
	{ .cmd = SMC_NETLINK_REMOVE_UEID, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_remove_ueid, .policy = smc_gen_ueid_policy },
	{ .cmd = SMC_NETLINK_FLUSH_UEID, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_flush_ueid },
	{ .cmd = SMC_NETLINK_DUMP_SEID, .dumpit = smc_nl_dump_seid },
	{ .cmd = SMC_NETLINK_ENABLE_SEID, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_enable_seid },
	{ .cmd = SMC_NETLINK_DISABLE_SEID, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_disable_seid },
	{ .cmd = SMC_NETLINK_DUMP_HS_LIMITATION,
	  .dumpit = smc_nl_dump_hs_limitation },
	{ .cmd = SMC_NETLINK_ENABLE_HS_LIMITATION, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_enable_hs_limitation },
	{ .cmd = SMC_NETLINK_DISABLE_HS_LIMITATION, .flags = GENL_ADMIN_PERM,
	  .doit = smc_nl_disable_hs_limitation },
};

static struct genl_family smc_gen_family __ro_after_init = {
	.name		= SMC_GENL_FAMILY_NAME,
	.version	= SMC_GENL_FAMILY_VERSION,
	.maxattr	= SMC_NLA_EID_TABLE_ENTRY,
	.policy		= smc_gen_policy,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= smc_gen_ops,
	.n_ops		= ARRAY_SIZE(smc_gen_ops),
	.resv_start_op	= SMC_NETLINK_DISABLE_HS_LIMITATION + 1,
};

/**
 * smc_netlink_init() - register the "SMC_GEN_NETLINK" family
 *
 * Takes the hostname reported in the system info (and later in CLC
 * messages) from the UTS namespace of the loading task, as upstream.
 *
 * Context: module init, after smc_sysctl_init() and smc_stats_init().
 * Return: 0 or a negative errno.
 */
int smc_netlink_init(void)
{
	const char *node = utsname()->nodename;

	memset(smc_nl_hostname, ' ', sizeof(smc_nl_hostname));
	memcpy(smc_nl_hostname, node,
	       min(strlen(node), sizeof(smc_nl_hostname)));
	return genl_register_family(&smc_gen_family);
}

/**
 * smc_netlink_exit() - unregister the family and free the UEID table
 *
 * Context: module exit.
 */
void smc_netlink_exit(void)
{
	genl_unregister_family(&smc_gen_family);
	smc_ueid_remove(NULL);
}

/**
 * smc_ueid_match() - is an EID from a peer in our UEID table?
 * @eid: SMC_MAX_EID_LEN bytes, blank-padded, as on the wire
 *
 * Context: process context, may sleep.
 * Return: true if the table holds it.
 */
bool smc_ueid_match(const u8 *eid)
{
	struct smc_ueid *ue;
	bool found = false;

	mutex_lock(&smc_ueid_lock);
	list_for_each_entry(ue, &smc_ueid_list, list) {
		if (!memcmp(ue->eid, eid, SMC_MAX_EID_LEN)) {
			found = true;
			break;
		}
	}
	mutex_unlock(&smc_ueid_lock);
	return found;
}

/**
 * smc_ueid_get_all() - copy the UEID table, for a CLC Proposal
 * @eids: room for @max UEIDs of SMC_CLC_EID_LEN bytes each, filled
 *	blank-padded, one after the other
 * @max: at most this many are copied
 *
 * Context: process context, may sleep.
 * Return: the number copied.
 */
unsigned int smc_ueid_get_all(u8 *eids, unsigned int max)
{
	struct smc_ueid *ue;
	unsigned int n = 0;

	mutex_lock(&smc_ueid_lock);
	list_for_each_entry(ue, &smc_ueid_list, list) {
		if (n == max)
			break;
		memcpy(eids + n++ * SMC_CLC_EID_LEN, ue->eid, SMC_CLC_EID_LEN);
	}
	mutex_unlock(&smc_ueid_lock);
	return n;
}
