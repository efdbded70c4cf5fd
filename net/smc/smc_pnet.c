// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The PNETID table and its generic netlink family "SMC_PNETID".
 *
 * A PNETID (physical network id) names the physical network a port is
 * cabled to; SMC-R pairs a TCP connection's netdev with an RDMA port of
 * the same PNETID.  Without firmware-provided ids (s390 only) the
 * administrator defines them in a per-namespace table:
 *
 * * Ethernet entries map a netdev name to a PNETID.  The device need not
 *   exist yet; a netdevice notifier keeps the entry's ifindex current as
 *   devices of that name come and go.  No device reference is held.
 * * RDMA entries map an RDMA device name and port (1 or 2) to a PNETID.
 *   They exist only in the initial namespace (rxe and RoCE devices live
 *   there) and are stored by name: the SMC-R core resolves them when it
 *   looks for a device.
 *
 * Validation, error codes and dump format follow the upstream module so
 * that smc_pnet(8) behaves the same on both.
 */

#include <linux/ctype.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/smc.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smc.h"
#include "smc_ib.h"
#include "../../drivers/s390/pci/smc_zpci_pnetid.h"

#define SMC_PNET_ID_LEN		16	/* PNETID characters */
#define SMC_PNET_IBNAME_MAX	64	/* IB_DEVICE_NAME_MAX */
#define SMC_PNET_MAX_PORTS	2

enum smc_pnet_type {
	SMC_PNET_ETH = 1,
	SMC_PNET_IB,
};

/**
 * struct smc_pnet_entry - one row of the PNETID table
 * @list: in smc_pnet_net.list
 * @pnetid: upper-case PNETID, NUL-terminated
 * @type: SMC_PNET_ETH or SMC_PNET_IB
 * @eth_name: netdev name (Ethernet entries)
 * @ifindex: ifindex of the netdev called @eth_name, 0 while absent
 * @ib_name: RDMA device name (RDMA entries)
 * @ib_port: RDMA port, 1 or 2 (RDMA entries)
 */
struct smc_pnet_entry {
	struct list_head	list;
	char			pnetid[SMC_PNET_ID_LEN + 1];
	enum smc_pnet_type	type;
	char			eth_name[IFNAMSIZ];
	int			ifindex;
	char			ib_name[SMC_PNET_IBNAME_MAX];
	u8			ib_port;
};

/**
 * struct smc_pnet_net - per-namespace PNETID table
 * @lock: guards @list
 * @list: struct smc_pnet_entry, in insertion order
 */
struct smc_pnet_net {
	struct mutex		lock;	/* guards list */
	struct list_head	list;
};

static unsigned int smc_pnet_net_id __read_mostly;

static struct smc_pnet_net *smc_pnet_get_net(struct net *net)
{
	return net_generic(net, smc_pnet_net_id);
}

/*
 * A PNETID is 1..16 characters [A-Za-z0-9], optionally surrounded by
 * white space, and is stored upper-cased.
 */
static bool smc_pnet_id_parse(const char *in, char *out)
{
	const char *start = skip_spaces(in);
	const char *end = start + strlen(start);

	while (end > start && isspace(end[-1]))
		end--;
	if (end == start || end - start > SMC_PNET_ID_LEN)
		return false;
	for (; start < end; start++) {
		if (!isalnum(*start))
			return false;
		*out++ = toupper(*start);
	}
	*out = '\0';
	return true;
}

/*
 * Compare a stored PNETID with one given by the user, as upstream does:
 * byte by byte over at most 16 characters, where NUL and blank both end
 * an id.  Note that the user's id is not upper-cased for this.
 */
static bool smc_pnet_id_match(const char *a, const char *b)
{
	int i;

	for (i = 0; i < SMC_PNET_ID_LEN; i++) {
		bool a_end = !a[i] || a[i] == ' ';
		bool b_end = !b[i] || b[i] == ' ';

		if (a_end && b_end)
			return true;
		if (a[i] != b[i])
			return false;
	}
	return true;
}

static const struct nla_policy smc_pnet_policy[SMC_PNETID_MAX + 1] = {
	[SMC_PNETID_NAME]	= { .type = NLA_NUL_STRING,
				    .len = SMC_PNET_ID_LEN },
	[SMC_PNETID_ETHNAME]	= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
	[SMC_PNETID_IBNAME]	= { .type = NLA_NUL_STRING,
				    .len = SMC_PNET_IBNAME_MAX - 1 },
	[SMC_PNETID_IBPORT]	= { .type = NLA_U8 },
};

static struct genl_family smc_pnet_family;

static int smc_pnet_add_eth(struct net *net, struct smc_pnet_net *pn,
			    const char *eth_name, const char *pnetid)
{
	struct smc_pnet_entry *pe, *new;
	struct net_device *ndev;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->type = SMC_PNET_ETH;
	strscpy(new->pnetid, pnetid, sizeof(new->pnetid));
	strscpy(new->eth_name, eth_name, sizeof(new->eth_name));

	/* rtnl orders us against the notifier, which runs under it */
	rtnl_lock();
	mutex_lock(&pn->lock);
	list_for_each_entry(pe, &pn->list, list) {
		if (pe->type == SMC_PNET_ETH &&
		    !strcmp(pe->eth_name, new->eth_name)) {
			mutex_unlock(&pn->lock);
			rtnl_unlock();
			kfree(new);
			return -EEXIST;
		}
	}
	ndev = __dev_get_by_name(net, new->eth_name);
	if (ndev)
		new->ifindex = ndev->ifindex;
	list_add_tail(&new->list, &pn->list);
	mutex_unlock(&pn->lock);
	rtnl_unlock();
	return 0;
}

static int smc_pnet_add_ib(struct smc_pnet_net *pn, const char *ib_name,
			   u8 ib_port, const char *pnetid)
{
	struct smc_pnet_entry *pe, *new;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->type = SMC_PNET_IB;
	strscpy(new->pnetid, pnetid, sizeof(new->pnetid));
	strscpy(new->ib_name, ib_name, sizeof(new->ib_name));
	new->ib_port = ib_port;

	mutex_lock(&pn->lock);
	/* like upstream: one entry per RDMA device, whatever the port */
	list_for_each_entry(pe, &pn->list, list) {
		if (pe->type == SMC_PNET_IB &&
		    !strcmp(pe->ib_name, new->ib_name)) {
			mutex_unlock(&pn->lock);
			kfree(new);
			return -EEXIST;
		}
	}
	list_add_tail(&new->list, &pn->list);
	mutex_unlock(&pn->lock);
	return 0;
}

static int smc_pnet_cmd_add(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct smc_pnet_net *pn = smc_pnet_get_net(net);
	char pnetid[SMC_PNET_ID_LEN + 1];
	struct nlattr **tb = info->attrs;
	bool added = false;
	u8 ib_port = 1;
	char *ib_name;
	int rc;

	if (!tb[SMC_PNETID_NAME]) {
		GENL_SET_ERR_MSG(info, "PNETID name missing");
		return -EINVAL;
	}
	if (!smc_pnet_id_parse(nla_data(tb[SMC_PNETID_NAME]), pnetid)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SMC_PNETID_NAME],
				    "PNETID must be 1 to 16 characters A-Z, a-z, 0-9");
		return -EINVAL;
	}

	if (tb[SMC_PNETID_ETHNAME]) {
		rc = smc_pnet_add_eth(net, pn, nla_data(tb[SMC_PNETID_ETHNAME]),
				      pnetid);
		if (rc && rc != -EEXIST)
			return rc;
		added = !rc;
	}

	/* RDMA devices exist only in the initial namespace */
	if (!net_eq(net, &init_net))
		goto out;

	if (tb[SMC_PNETID_IBNAME]) {
		if (tb[SMC_PNETID_IBPORT]) {
			ib_port = nla_get_u8(tb[SMC_PNETID_IBPORT]);
			if (ib_port < 1 || ib_port > SMC_PNET_MAX_PORTS) {
				NL_SET_ERR_MSG_ATTR(info->extack,
						    tb[SMC_PNETID_IBPORT],
						    "RDMA port must be 1 or 2");
				return -EINVAL;
			}
		}
		ib_name = strim(nla_data(tb[SMC_PNETID_IBNAME]));
		rc = smc_pnet_add_ib(pn, ib_name, ib_port, pnetid);
		if (rc && rc != -EEXIST)
			return rc;
		added |= !rc;
	}
out:
	if (added && net_eq(net, &init_net))
		smc_ib_pnet_changed();
	if (!added) {
		GENL_SET_ERR_MSG(info, "no new device entry for this PNETID");
		return -EEXIST;
	}
	return 0;
}

/* remove the entries matching @pnetid, or all with NULL */
static int smc_pnet_remove(struct smc_pnet_net *pn, const char *pnetid)
{
	struct smc_pnet_entry *pe, *tmp;
	int rc = -ENOENT;

	mutex_lock(&pn->lock);
	list_for_each_entry_safe(pe, tmp, &pn->list, list) {
		if (pnetid && !smc_pnet_id_match(pe->pnetid, pnetid))
			continue;
		list_del(&pe->list);
		kfree(pe);
		rc = 0;
	}
	mutex_unlock(&pn->lock);
	return rc;
}

static int smc_pnet_cmd_del(struct sk_buff *skb, struct genl_info *info)
{
	struct smc_pnet_net *pn = smc_pnet_get_net(genl_info_net(info));
	int rc;

	if (!info->attrs[SMC_PNETID_NAME]) {
		GENL_SET_ERR_MSG(info, "PNETID name missing");
		return -EINVAL;
	}
	rc = smc_pnet_remove(pn, nla_data(info->attrs[SMC_PNETID_NAME]));
	if (!rc && net_eq(genl_info_net(info), &init_net))
		smc_ib_pnet_changed();
	if (rc)
		GENL_SET_ERR_MSG(info, "no such PNETID");
	return rc;
}

static int smc_pnet_cmd_flush(struct sk_buff *skb, struct genl_info *info)
{
	smc_pnet_remove(smc_pnet_get_net(genl_info_net(info)), NULL);
	if (net_eq(genl_info_net(info), &init_net))
		smc_ib_pnet_changed();
	return 0;
}

static int smc_pnet_fill(struct sk_buff *skb, u32 portid, u32 seq,
			 const struct smc_pnet_entry *pe)
{
	bool eth = pe->type == SMC_PNET_ETH;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &smc_pnet_family, NLM_F_MULTI,
			  SMC_PNETID_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, SMC_PNETID_NAME, pe->pnetid) ||
	    nla_put_string(skb, SMC_PNETID_ETHNAME, eth ? pe->eth_name : "n/a") ||
	    nla_put_string(skb, SMC_PNETID_IBNAME, eth ? "n/a" : pe->ib_name) ||
	    nla_put_u8(skb, SMC_PNETID_IBPORT, eth ? 0xff : pe->ib_port)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Put the entries from position @start on that match @pnetid (all with
 * NULL) into @skb.  Outside the initial namespace only Ethernet entries
 * are shown.  Return: the position to continue from.
 */
static long smc_pnet_fill_all(struct net *net, struct sk_buff *skb,
			      u32 portid, u32 seq, const char *pnetid,
			      long start)
{
	struct smc_pnet_net *pn = smc_pnet_get_net(net);
	struct smc_pnet_entry *pe;
	long pos = 0;

	mutex_lock(&pn->lock);
	list_for_each_entry(pe, &pn->list, list) {
		if (pos++ < start)
			continue;
		if (pnetid && !smc_pnet_id_match(pe->pnetid, pnetid))
			continue;
		if (!net_eq(net, &init_net) && pe->type != SMC_PNET_ETH)
			continue;
		if (smc_pnet_fill(skb, portid, seq, pe)) {
			pos--;
			break;
		}
	}
	mutex_unlock(&pn->lock);
	return pos;
}

static int smc_pnet_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	cb->args[0] = smc_pnet_fill_all(sock_net(skb->sk), skb,
					NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NULL, cb->args[0]);
	return skb->len;
}

/*
 * GET with a name answers like upstream: the matching entries as a
 * multi-part message, closed by NLMSG_DONE, in one reply.
 */
static int smc_pnet_cmd_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;

	if (!info->attrs[SMC_PNETID_NAME]) {
		GENL_SET_ERR_MSG(info, "PNETID name missing");
		return -EINVAL;
	}
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	smc_pnet_fill_all(genl_info_net(info), msg, info->snd_portid,
			  info->snd_seq, nla_data(info->attrs[SMC_PNETID_NAME]),
			  0);
	if (!nlmsg_put(msg, info->snd_portid, info->snd_seq, NLMSG_DONE, 0,
		       NLM_F_MULTI)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return genlmsg_reply(msg, info);
}

/*
 * Look @ifindex up in @net's table.  Return: true and the PNETID in
 * @pnetid (SMC_PNET_ID_LEN + 1 bytes) if there is an entry.
 */
static bool smc_pnet_find_ifindex(struct net *net, int ifindex, char *pnetid)
{
	struct smc_pnet_net *pn = smc_pnet_get_net(net);
	struct smc_pnet_entry *pe;
	bool found = false;

	mutex_lock(&pn->lock);
	list_for_each_entry(pe, &pn->list, list) {
		if (pe->type == SMC_PNET_ETH && pe->ifindex == ifindex) {
			strscpy(pnetid, pe->pnetid, SMC_PNET_ID_LEN + 1);
			found = true;
			break;
		}
	}
	mutex_unlock(&pn->lock);
	return found;
}

/* how many devices below a netdev smc_pnet_find_ndev() asks about */
#define SMC_PNET_LOWER_MAX	8

struct smc_pnet_lower {
	struct net_device	*dev[SMC_PNET_LOWER_MAX];
	int			n;
};

static int smc_pnet_lower_add(struct net_device *dev,
			      struct netdev_nested_priv *priv)
{
	struct smc_pnet_lower *l = priv->data;

	dev_hold(dev);
	l->dev[l->n++] = dev;
	return l->n == SMC_PNET_LOWER_MAX;
}

/**
 * smc_pnet_find_ndev() - the PNETID of a netdev
 * @ndev: the netdev, held by the caller
 * @pnetid: SMC_PNET_ID_LEN + 1 bytes for the result
 *
 * As upstream, a PNETID the hardware assigns to the port (on s390, from
 * the zPCI function's utility string) comes first; the table is asked
 * only when there is none.  A device stacked on others (a VLAN, a bond
 * or team, a VLAN on a bond) has the PNETID of the devices below it,
 * depth first, unless it has a table entry of its own: a bond's TCP
 * traffic goes out on one of its slaves, the RoCE ports' netdevs, which
 * carry the same PNETID in a configuration that uses them for SMC-R.
 *
 * Context: process context; takes the namespace's table mutex.
 * Return: true if @ndev has a PNETID, false (and @pnetid "") if not.
 */
bool smc_pnet_find_ndev(struct net_device *ndev, char *pnetid)
{
	struct smc_pnet_lower lower = {};
	struct netdev_nested_priv priv = { .data = &lower };
	struct net *net = dev_net(ndev);
	bool found = false;
	int i;

	/* @ndev first, then what is below it */
	dev_hold(ndev);
	lower.dev[lower.n++] = ndev;
	rcu_read_lock();
	netdev_walk_all_lower_dev_rcu(ndev, smc_pnet_lower_add, &priv);
	rcu_read_unlock();
	for (i = 0; i < lower.n && !found; i++)
		found = !smc_zpci_pnetid(lower.dev[i]->dev.parent,
					 lower.dev[i]->dev_port, pnetid);
	for (i = 0; i < lower.n && !found; i++)
		found = smc_pnet_find_ifindex(net, lower.dev[i]->ifindex,
					      pnetid);
	for (i = 0; i < lower.n; i++)
		dev_put(lower.dev[i]);
	if (!found)
		pnetid[0] = '\0';
	return found;
}

/**
 * smc_pnet_find_ib() - the PNETID of an RDMA device port
 * @ib_name: name of the RDMA device
 * @ib_port: port number, 1 or 2
 * @pnetid: SMC_PNET_ID_LEN + 1 bytes for the result
 *
 * RDMA entries live in the initial namespace's table.
 *
 * Context: process context; takes that table's mutex.
 * Return: true if the port has a PNETID, false (and @pnetid "") if not.
 */
bool smc_pnet_find_ib(const char *ib_name, u8 ib_port, char *pnetid)
{
	struct smc_pnet_net *pn = smc_pnet_get_net(&init_net);
	struct smc_pnet_entry *pe;
	bool found = false;

	pnetid[0] = '\0';
	mutex_lock(&pn->lock);
	list_for_each_entry(pe, &pn->list, list) {
		if (pe->type == SMC_PNET_IB && pe->ib_port == ib_port &&
		    !strncmp(pe->ib_name, ib_name, SMC_PNET_IBNAME_MAX)) {
			strscpy(pnetid, pe->pnetid, SMC_PNET_ID_LEN + 1);
			found = true;
			break;
		}
	}
	mutex_unlock(&pn->lock);
	return found;
}

static const struct genl_ops smc_pnet_ops[] = {
	{
		.cmd		= SMC_PNETID_GET,
		.validate	= GENL_DONT_VALIDATE_STRICT |
				  GENL_DONT_VALIDATE_DUMP,
		.doit		= smc_pnet_cmd_get,
		.dumpit		= smc_pnet_dump,
	},
	{
		.cmd		= SMC_PNETID_ADD,
		.validate	= GENL_DONT_VALIDATE_STRICT |
				  GENL_DONT_VALIDATE_DUMP,
		.flags		= GENL_ADMIN_PERM,
		.doit		= smc_pnet_cmd_add,
	},
	{
		.cmd		= SMC_PNETID_DEL,
		.validate	= GENL_DONT_VALIDATE_STRICT |
				  GENL_DONT_VALIDATE_DUMP,
		.flags		= GENL_ADMIN_PERM,
		.doit		= smc_pnet_cmd_del,
	},
	{
		.cmd		= SMC_PNETID_FLUSH,
		.validate	= GENL_DONT_VALIDATE_STRICT |
				  GENL_DONT_VALIDATE_DUMP,
		.flags		= GENL_ADMIN_PERM,
		.doit		= smc_pnet_cmd_flush,
	},
};

static struct genl_family smc_pnet_family __ro_after_init = {
	.name		= SMCR_GENL_FAMILY_NAME,
	.version	= SMCR_GENL_FAMILY_VERSION,
	.maxattr	= SMC_PNETID_MAX,
	.policy		= smc_pnet_policy,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= smc_pnet_ops,
	.n_ops		= ARRAY_SIZE(smc_pnet_ops),
	.resv_start_op	= SMC_PNETID_FLUSH + 1,
};

/* keep the ifindex of Ethernet entries in step with the devices */
static int smc_pnet_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct smc_pnet_net *pn = smc_pnet_get_net(dev_net(ndev));
	struct smc_pnet_entry *pe;

	if (event != NETDEV_REGISTER && event != NETDEV_UNREGISTER &&
	    event != NETDEV_CHANGENAME)
		return NOTIFY_DONE;

	mutex_lock(&pn->lock);
	list_for_each_entry(pe, &pn->list, list) {
		if (pe->type != SMC_PNET_ETH)
			continue;
		/* a rename is a departure of the old and arrival of the new */
		if (pe->ifindex == ndev->ifindex)
			pe->ifindex = 0;
		if (event != NETDEV_UNREGISTER &&
		    !strncmp(pe->eth_name, ndev->name, IFNAMSIZ))
			pe->ifindex = ndev->ifindex;
	}
	mutex_unlock(&pn->lock);
	return NOTIFY_OK;
}

static struct notifier_block smc_pnet_netdev_nb = {
	.notifier_call = smc_pnet_netdev_event,
};

static int __net_init smc_pnet_net_init(struct net *net)
{
	struct smc_pnet_net *pn = smc_pnet_get_net(net);

	mutex_init(&pn->lock);
	INIT_LIST_HEAD(&pn->list);
	return 0;
}

static void __net_exit smc_pnet_net_exit(struct net *net)
{
	smc_pnet_remove(smc_pnet_get_net(net), NULL);
}

static struct pernet_operations smc_pnet_net_ops = {
	.init	= smc_pnet_net_init,
	.exit	= smc_pnet_net_exit,
	.id	= &smc_pnet_net_id,
	.size	= sizeof(struct smc_pnet_net),
};

/**
 * smc_pnet_init() - set up the PNETID tables and the "SMC_PNETID" family
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int smc_pnet_init(void)
{
	int rc;

	rc = register_pernet_subsys(&smc_pnet_net_ops);
	if (rc)
		return rc;
	/* replays REGISTER for existing devices: the tables must exist */
	rc = register_netdevice_notifier(&smc_pnet_netdev_nb);
	if (rc)
		goto out_pernet;
	rc = genl_register_family(&smc_pnet_family);
	if (rc)
		goto out_notifier;
	return 0;

out_notifier:
	unregister_netdevice_notifier(&smc_pnet_netdev_nb);
out_pernet:
	unregister_pernet_subsys(&smc_pnet_net_ops);
	return rc;
}

/**
 * smc_pnet_exit() - remove the family and free all PNETID tables
 *
 * Context: module exit.
 */
void smc_pnet_exit(void)
{
	genl_unregister_family(&smc_pnet_family);
	unregister_netdevice_notifier(&smc_pnet_netdev_nb);
	unregister_pernet_subsys(&smc_pnet_net_ops);
}
