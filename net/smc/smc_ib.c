// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * RoCE device tracking: an ib_client keeps a list of the RDMA devices,
 * the state, netdev and PNETID of their ports, and chooses the device,
 * port and GID for a connection.
 *
 * Locking: smc_ib_mutex serialises changes of the device list; the
 * connect path walks it under RCU and takes only the per-device
 * spinlock, never the mutex.  A device found under RCU is pinned by a
 * reference (kref); removal waits for all of them before the ib_device
 * goes away.
 */

#define pr_fmt(fmt) "smc: " fmt

#include <linux/bitops.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "smc.h"
#include "smc_compat.h"
#include "smc_ib.h"
#include "smc_lgr.h"
#include "smc_test_hooks.h"
#include "../../drivers/s390/pci/smc_zpci_pnetid.h"

static DEFINE_MUTEX(smc_ib_mutex);	/* guards changes of smc_ib_devices */
static LIST_HEAD(smc_ib_devices);

/*
 * Local system id (CLC peer id): 2 random bytes, then the MAC of the
 * first RoCE port seen active.  Fixed once the MAC part is set, since
 * peers key link groups on it.
 */
static DEFINE_SPINLOCK(smc_ib_sysid_lock);	/* guards the two below */
static u8 smc_ib_sysid[SMC_IB_SYSID_LEN];
static bool smc_ib_sysid_mac_set;

static struct ib_client smc_ib_client;

static u32 smc_ib_nports(const struct ib_device *ibdev)
{
	return min_t(u32, rdma_end_port(ibdev), SMC_IB_MAX_PORTS);
}

static void smc_ib_sysid_define(const u8 *mac)
{
	if (is_zero_ether_addr(mac))
		return;
	spin_lock_bh(&smc_ib_sysid_lock);
	if (!smc_ib_sysid_mac_set) {
		memcpy(&smc_ib_sysid[2], mac, ETH_ALEN);
		smc_ib_sysid_mac_set = true;
	}
	spin_unlock_bh(&smc_ib_sysid_lock);
}

/**
 * smc_ib_local_systemid() - this system's id for CLC messages
 * @sysid: SMC_IB_SYSID_LEN bytes for the result
 *
 * Context: any.
 * Return: true if the id contains a RoCE port's MAC, false while only
 * its random part exists.
 */
bool smc_ib_local_systemid(u8 *sysid)
{
	bool mac_set;

	spin_lock_bh(&smc_ib_sysid_lock);
	memcpy(sysid, smc_ib_sysid, SMC_IB_SYSID_LEN);
	mac_set = smc_ib_sysid_mac_set;
	spin_unlock_bh(&smc_ib_sysid_lock);
	return mac_set;
}

static void smc_ib_release(struct kref *ref)
{
	struct smc_ib_device *dev = container_of(ref, struct smc_ib_device,
						 ref);

	complete(&dev->released);
}

/**
 * smc_ib_put() - drop a device reference
 * @dev: the device, from smc_ib_select_v1/v2(), smc_ib_find_by_gid()
 *	or smc_ib_get_nth()
 *
 * Removal of the RDMA device waits until every reference is dropped, so
 * holders must let go promptly once the device is going.
 *
 * Context: any.
 */
void smc_ib_put(struct smc_ib_device *dev)
{
	kref_put(&dev->ref, smc_ib_release);
}
EXPORT_SYMBOL_IF_KUNIT(smc_ib_put);

/*
 * The PNETIDs of @dev's ports: the hardware's (s390: from the zPCI
 * function, port 1 in field 0) if it has one, as upstream, else the
 * table's of init_net.
 */
static void smc_ib_pnet_refresh(struct smc_ib_device *dev)
{
	char pnetid[SMC_IB_PNETID_LEN + 1];
	bool usr;
	u32 port;

	for (port = 1; port <= smc_ib_nports(dev->ibdev); port++) {
		usr = smc_zpci_pnetid(dev->ibdev->dev.parent, port - 1,
				      pnetid) &&
		      smc_pnet_find_ib(dev_name(&dev->ibdev->dev), port,
				       pnetid);
		spin_lock_bh(&dev->lock);
		strscpy(dev->ports[port - 1].pnetid, pnetid,
			sizeof(dev->ports[port - 1].pnetid));
		dev->ports[port - 1].pnet_usr = usr;
		spin_unlock_bh(&dev->lock);
	}
}

/**
 * smc_ib_pnet_changed() - re-read the PNETIDs of all RDMA ports
 *
 * Called by the PNETID table after a change of the initial namespace's
 * table.
 *
 * Context: process context, no SMC locks held.
 */
void smc_ib_pnet_changed(void)
{
	struct smc_ib_device *dev;

	mutex_lock(&smc_ib_mutex);
	list_for_each_entry(dev, &smc_ib_devices, list)
		smc_ib_pnet_refresh(dev);
	mutex_unlock(&smc_ib_mutex);
}

/*
 * The port's netdev: what the driver reports, else (drivers without
 * get_netdev, e.g. rxe on 6.1) the netdev of GID 0.
 */
static struct net_device *smc_ib_port_netdev(struct ib_device *ibdev,
					     u32 port)
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;

	ndev = ib_device_get_netdev(ibdev, port);
	if (ndev)
		return ndev;
	attr = rdma_get_gid_attr(ibdev, port, 0);
	if (IS_ERR(attr))
		return NULL;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (IS_ERR(ndev))
		ndev = NULL;
	else
		dev_hold(ndev);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
	return ndev;
}

static void smc_ib_port_query(struct smc_ib_device *dev, u32 port)
{
	struct smc_ib_port *p = &dev->ports[port - 1];
	struct ib_port_attr attr = {};
	struct net_device *ndev;
	u8 mac[ETH_ALEN] = {};
	int ifindex = 0;
	bool active;

	if (ib_query_port(dev->ibdev, port, &attr))
		attr.state = IB_PORT_NOP;
	ndev = smc_ib_port_netdev(dev->ibdev, port);
	if (ndev) {
		ifindex = ndev->ifindex;
		if (ndev->addr_len == ETH_ALEN)
			ether_addr_copy(mac, ndev->dev_addr);
		dev_put(ndev);
	}

	spin_lock_bh(&dev->lock);
	p->state = attr.state;
	p->gid_tbl_len = attr.gid_tbl_len;
	p->ifindex = ifindex;
	ether_addr_copy(p->mac, mac);
	active = p->state == IB_PORT_ACTIVE && !READ_ONCE(dev->fatal);
	spin_unlock_bh(&dev->lock);

	if (active) {
		smc_ib_sysid_define(mac);
		/* an address removed from the netdev took a link's GID */
		if (atomic_read(&p->lnk_cnt) && smc_lgr_gid_gone(dev, port))
			pr_warn_ratelimited("RDMA device %s port %u: a link's GID is gone, its links fail over or their groups end\n",
					    dev_name(&dev->ibdev->dev), port);
		/*
		 * A path may be back (the port came up, or the GID the
		 * rule for a second device wants arrived after it): groups
		 * left with one link may add one.
		 */
		smc_lgr_port_up();
		return;
	}
	/* a link on a port that is down (or a broken device) is lost */
	if (atomic_read(&p->lnk_cnt) &&
	    smc_lgr_terminate_dev(dev, port, SMC_LLC_DEL_LOST_PATH))
		pr_warn_ratelimited("RDMA device %s port %u: down, its links fail over or their groups end\n",
				    dev_name(&dev->ibdev->dev), port);
}

static void smc_ib_port_work(struct work_struct *work)
{
	struct smc_ib_device *dev = container_of(work, struct smc_ib_device,
						 port_work);
	u32 port;

	for (port = 1; port <= smc_ib_nports(dev->ibdev); port++) {
		if (test_and_clear_bit(port - 1, &dev->port_mask))
			smc_ib_port_query(dev, port);
	}
}

/* mark the ports to query (all with @port 0) and start the query */
static void smc_ib_port_kick(struct smc_ib_device *dev, u32 port)
{
	u32 i;

	for (i = 1; i <= smc_ib_nports(dev->ibdev); i++) {
		if (!port || port == i)
			set_bit(i - 1, &dev->port_mask);
	}
	schedule_work(&dev->port_work);
}

/* may run in atomic context: record, and query the port from a work */
static void smc_ib_event(struct ib_event_handler *handler,
			 struct ib_event *event)
{
	struct smc_ib_device *dev = container_of(handler, struct smc_ib_device,
						 event_handler);
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_DEVICE_FATAL:
		WRITE_ONCE(dev->fatal, true);
		pr_warn_ratelimited("RDMA device %s: fatal error, not used any more\n",
				    dev_name(&dev->ibdev->dev));
		smc_ib_port_kick(dev, 0);
		break;
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_GID_CHANGE:
		if (port >= 1 && port <= smc_ib_nports(dev->ibdev))
			smc_ib_port_kick(dev, port);
		break;
	default:
		break;
	}
}

static int smc_ib_add(struct ib_device *ibdev)
{
	struct smc_ib_device *dev;
	int i;

	if (ibdev->node_type != RDMA_NODE_IB_CA)
		return -EOPNOTSUPP;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->ibdev = ibdev;
	kref_init(&dev->ref);	/* the list's reference */
	init_completion(&dev->released);
	INIT_WORK(&dev->port_work, smc_ib_port_work);
	spin_lock_init(&dev->lock);
	atomic_set(&dev->crit_cnt, 0);
	for (i = 0; i < SMC_IB_MAX_PORTS; i++) {
		dev->ports[i].state = IB_PORT_NOP;
		atomic_set(&dev->ports[i].lnk_cnt, 0);
	}
	smc_ib_pnet_refresh(dev);
	ib_set_client_data(ibdev, &smc_ib_client, dev);

	/*
	 * Listed before the first query: a port found ACTIVE there lets
	 * groups ask for a second link (smc_lgr_port_up()), whose choice
	 * of device must find this one.  Its ports read as down until then.
	 */
	mutex_lock(&smc_ib_mutex);
	list_add_tail_rcu(&dev->list, &smc_ib_devices);
	mutex_unlock(&smc_ib_mutex);

	INIT_IB_EVENT_HANDLER(&dev->event_handler, ibdev, smc_ib_event);
	ib_register_event_handler(&dev->event_handler);
	/* events from here on re-query; this reads the initial state */
	smc_ib_port_kick(dev, 0);
	return 0;
}

/* how long removal waits for the device's users before it says so */
#define SMC_IB_REMOVE_WARN	(10 * HZ)

static void smc_ib_remove(struct ib_device *ibdev, void *client_data)
{
	struct smc_ib_device *dev = client_data;
	unsigned long start = jiffies;
	int n;

	mutex_lock(&smc_ib_mutex);
	list_del_rcu(&dev->list);
	mutex_unlock(&smc_ib_mutex);

	/* nothing re-queues the work: no events, no list walkers */
	ib_unregister_event_handler(&dev->event_handler);
	cancel_work_sync(&dev->port_work);
	/* no new link takes the device (smc_lgr_link_init() checks) */
	WRITE_ONCE(dev->gone, true);
	/* lookups that found the device have their reference by now */
	synchronize_rcu();

	/* the groups' teardown drops their links' references */
	n = smc_lgr_terminate_dev(dev, 0, SMC_LLC_DEL_OP_INIT_TERM);
	smc_ib_put(dev);
	while (!wait_for_completion_timeout(&dev->released, SMC_IB_REMOVE_WARN))
		pr_warn("RDMA device %s: still in use %u s after removal began\n",
			dev_name(&ibdev->dev),
			jiffies_to_msecs(jiffies - start) / 1000);
	if (n)
		pr_info("RDMA device %s removed: %d link groups ended in %u ms\n",
			dev_name(&ibdev->dev), n,
			jiffies_to_msecs(jiffies - start));
	kfree(dev);
}

/* PNETIDs are stored by device name */
static void smc_ib_rename(struct ib_device *ibdev, void *client_data)
{
	smc_ib_pnet_refresh(client_data);
}

static struct ib_client smc_ib_client = {
	.name	= "smc_ib",
	.add	= smc_ib_add,
	.remove	= smc_ib_remove,
	.rename	= smc_ib_rename,
};

/* a port's netdev may be (re)registered or change its MAC */
static int smc_ib_netdev_event(struct notifier_block *nb,
			       unsigned long event, void *ptr)
{
	struct smc_ib_device *dev;

	if (event != NETDEV_REGISTER && event != NETDEV_UNREGISTER &&
	    event != NETDEV_CHANGEADDR)
		return NOTIFY_DONE;
	if (!net_eq(dev_net(netdev_notifier_info_to_dev(ptr)), &init_net))
		return NOTIFY_DONE;

	mutex_lock(&smc_ib_mutex);
	list_for_each_entry(dev, &smc_ib_devices, list)
		smc_ib_port_kick(dev, 0);
	mutex_unlock(&smc_ib_mutex);
	return NOTIFY_OK;
}

static struct notifier_block smc_ib_netdev_nb = {
	.notifier_call = smc_ib_netdev_event,
};

/**
 * smc_ib_get_nth() - the @n-th device of the list, for dumps
 * @n: position, from 0
 *
 * Context: any but hard interrupt.
 * Return: the device with a reference (smc_ib_put()), or NULL if the
 * list is shorter.
 */
struct smc_ib_device *smc_ib_get_nth(long n)
{
	struct smc_ib_device *dev, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(dev, &smc_ib_devices, list) {
		if (n-- == 0) {
			kref_get(&dev->ref);
			found = dev;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * smc_ib_port_info() - a snapshot of a port for reports
 * @dev: the device, referenced by the caller
 * @port: port number, 1 or 2
 * @info: the result; valid false if the device has no such port
 *
 * Context: any but hard interrupt.
 */
void smc_ib_port_info(struct smc_ib_device *dev, u8 port,
		      struct smc_ib_port_info *info)
{
	struct smc_ib_port *p;

	memset(info, 0, sizeof(*info));
	if (port < 1 || port > smc_ib_nports(dev->ibdev))
		return;
	p = &dev->ports[port - 1];
	info->valid = true;
	spin_lock_bh(&dev->lock);
	info->active = p->state == IB_PORT_ACTIVE && !READ_ONCE(dev->fatal);
	info->ifindex = p->ifindex;
	strscpy(info->pnetid, p->pnetid, sizeof(info->pnetid));
	info->pnet_usr = p->pnet_usr;
	spin_unlock_bh(&dev->lock);
	info->lnk_cnt = atomic_read(&p->lnk_cnt);
}

/**
 * struct smc_ib_match - what smc_ib_scan() looks for
 * @net: the connection's namespace, which must have access to the
 *	device; NULL for any device
 * @egress: the TCP egress netdev, NULL to match on @gid alone
 * @egress_pnetid: its PNETID, "" if none
 * @vlan_id: its VLAN id, 0 if none
 * @v2: look for an IPv4-mapped RoCEv2 GID, else for a RoCE v1 GID
 * @saddr: v2: the TCP source address the GID must share a subnet with
 * @gid: match exactly this GID (any type), if non-NULL
 * @alt: a second link's device: @egress is NULL, @egress_pnetid is the
 *	group's PNETID and must equal the port's, both "" included
 * @known: the device of the group's first link, never chosen with @alt
 */
struct smc_ib_match {
	const struct net	*net;
	struct net_device	*egress;
	char			egress_pnetid[SMC_IB_PNETID_LEN + 1];
	u16			vlan_id;
	bool			v2;
	__be32			saddr;
	const u8		*gid;
	bool			alt;
	const struct smc_ib_device *known;
};

static __be32 smc_ib_gid_ipv4(const union ib_gid *gid)
{
	const struct in6_addr *addr = (const struct in6_addr *)gid->raw;

	return ipv6_addr_v4mapped(addr) ? addr->s6_addr32[3] : 0;
}

/* a RoCEv2 GID of @ndev in the IPv4 subnet of @saddr */
static bool smc_ib_gid_in_subnet(struct net_device *ndev,
				 const union ib_gid *gid, __be32 saddr)
{
	__be32 gid_addr = smc_ib_gid_ipv4(gid);
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;

	if (!gid_addr)
		return false;
	if (gid_addr == saddr)
		return true;
	in_dev = __in_dev_get_rcu(ndev);
	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev) {
		if (inet_ifa_match(saddr, ifa) && inet_ifa_match(gid_addr, ifa))
			return true;
	}
	return false;
}

/* a GID that can serve SMC-Rv1 */
static bool smc_ib_gid_v1(const struct ib_gid_attr *attr)
{
	if (attr->gid_type == IB_GID_TYPE_ROCE)
		return true;
	return smc_test_v1_on_rocev2() &&
	       attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
	       smc_ib_gid_ipv4(&attr->gid);
}

/* does the GID @attr of a port with @port_ifindex, @port_pnetid fit @m */
static bool smc_ib_gid_fits(const struct smc_ib_match *m,
			    const struct ib_gid_attr *attr,
			    struct net_device *ndev, int port_ifindex,
			    const char *port_pnetid)
{
	struct net_device *egress = m->egress;
	u16 vlan_id;

	if (m->gid)
		return !memcmp(attr->gid.raw, m->gid, SMC_IB_GID_SIZE);

	if (m->v2) {
		if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
		    !smc_ib_gid_in_subnet(ndev, &attr->gid, m->saddr))
			return false;
	} else if (!smc_ib_gid_v1(attr)) {
		return false;
	}

	vlan_id = is_vlan_dev(ndev) ? vlan_dev_vlan_id(ndev) : 0;
	if (vlan_id != m->vlan_id)
		return false;
	if (m->alt)
		return !strcmp(m->egress_pnetid, port_pnetid);

	/* both named by PNETID, or neither and the netdevs are the same */
	if (m->egress_pnetid[0] || port_pnetid[0])
		return !strcmp(m->egress_pnetid, port_pnetid);
	if (ndev == egress)
		return true;
	return net_eq(dev_net(egress), &init_net) &&
	       egress->ifindex == port_ifindex;
}

/* walk the GID tables of the active RoCE ports for a GID fitting @m */
static int smc_ib_scan(const struct smc_ib_match *m, struct smc_ib_select *out)
{
	char port_pnetid[SMC_IB_PNETID_LEN + 1];
	const struct ib_gid_attr *attr;
	struct smc_ib_device *dev;
	int port_ifindex, tbl_len, i;
	struct net_device *ndev;
	bool active;
	u32 port;

	rcu_read_lock();
	list_for_each_entry_rcu(dev, &smc_ib_devices, list) {
		/* exclusive RDMA netns mode: only the device's own namespace */
		if (m->net && !rdma_dev_access_netns(dev->ibdev, m->net))
			continue;
		if (m->alt && dev == m->known)
			continue;
		for (port = 1; port <= smc_ib_nports(dev->ibdev); port++) {
			if (!rdma_protocol_roce(dev->ibdev, port))
				continue;
			spin_lock_bh(&dev->lock);
			active = dev->ports[port - 1].state ==
				 IB_PORT_ACTIVE && !READ_ONCE(dev->fatal);
			port_ifindex = dev->ports[port - 1].ifindex;
			tbl_len = dev->ports[port - 1].gid_tbl_len;
			strscpy(port_pnetid, dev->ports[port - 1].pnetid,
				sizeof(port_pnetid));
			spin_unlock_bh(&dev->lock);
			if (!active)
				continue;

			for (i = 0; i < tbl_len; i++) {
				attr = rdma_get_gid_attr(dev->ibdev, port, i);
				if (IS_ERR(attr))
					continue;
				ndev = rdma_read_gid_attr_ndev_rcu(attr);
				if (IS_ERR(ndev) ||
				    !smc_ib_gid_fits(m, attr, ndev,
						     port_ifindex,
						     port_pnetid)) {
					rdma_put_gid_attr(attr);
					continue;
				}
				kref_get(&dev->ref);
				out->dev = dev;
				out->port = port;
				out->sgid_index = attr->index;
				memcpy(out->gid, attr->gid.raw,
				       SMC_IB_GID_SIZE);
				if (ndev->addr_len == ETH_ALEN)
					ether_addr_copy(out->mac,
							ndev->dev_addr);
				else
					eth_zero_addr(out->mac);
				out->roce_v2 = attr->gid_type ==
					       IB_GID_TYPE_ROCE_UDP_ENCAP;
				out->ifindex = ndev->ifindex;
				strscpy(out->pnetid, port_pnetid,
					sizeof(out->pnetid));
				rdma_put_gid_attr(attr);
				rcu_read_unlock();
				return 0;
			}
		}
	}
	rcu_read_unlock();
	return -ENODEV;
}

static void smc_ib_match_egress(struct smc_ib_match *m,
				struct net_device *egress)
{
	m->egress = egress;
	smc_pnet_find_ndev(egress, m->egress_pnetid);
	m->vlan_id = is_vlan_dev(egress) ? vlan_dev_vlan_id(egress) : 0;
}

/**
 * smc_ib_select_v2() - choose a RoCEv2 device, port and GID
 * @net: namespace of the TCP connection
 * @egress: the TCP connection's egress netdev, held by the caller
 * @saddr: the TCP source address
 * @out: the result
 *
 * Looks for an active port with an IPv4-mapped RoCEv2 GID that equals
 * @saddr or lies in its subnet, on the VLAN of @egress, where either
 * @egress and the port have the same PNETID, or neither has one and
 * the GID's (or the port's) netdev is @egress.  The device must be
 * usable from @net (rdma_dev_access_netns(): any device in the RDMA
 * core's shared mode, the namespace's own in exclusive mode).
 *
 * Context: process context (reads the PNETID table); the device list
 * is read under RCU.
 * Return: 0 with a reference on @out->dev (smc_ib_put()), or -ENODEV.
 */
int smc_ib_select_v2(struct net *net, struct net_device *egress,
		     __be32 saddr, struct smc_ib_select *out)
{
	struct smc_ib_match m = { .net = net, .v2 = true, .saddr = saddr };

	if (!egress || !net_eq(dev_net(egress), net))
		return -ENODEV;
	smc_ib_match_egress(&m, egress);
	return smc_ib_scan(&m, out);
}
EXPORT_SYMBOL_IF_KUNIT(smc_ib_find_by_gid);

/**
 * smc_ib_select_v1() - choose a RoCE v1 device, port and GID
 * @net: namespace of the TCP connection
 * @egress: the TCP connection's egress netdev, held by the caller
 * @out: the result
 *
 * As smc_ib_select_v2(), for a RoCE v1 GID and without the subnet
 * condition.
 *
 * Context: process context (reads the PNETID table).
 * Return: 0 with a reference on @out->dev (smc_ib_put()), or -ENODEV.
 */
int smc_ib_select_v1(struct net *net, struct net_device *egress,
		     struct smc_ib_select *out)
{
	struct smc_ib_match m = { .net = net };

	if (!egress || !net_eq(dev_net(egress), net))
		return -ENODEV;
	smc_ib_match_egress(&m, egress);
	return smc_ib_scan(&m, out);
}

/**
 * smc_ib_select_alt() - choose the device for a group's second link
 * @net: the group's namespace
 * @known: the device of the group's first link
 * @pnetid: the PNETID of the first link's port, "" for none
 * @vlan_id: the group's VLAN id
 * @v2: an SMC-Rv2 group: an IPv4-mapped RoCEv2 GID in the subnet of
 *	@saddr, else a RoCE v1 GID
 * @saddr: v2: the source address of the group's first link
 * @out: the result
 *
 * The reference implementation's rule for an alternate path: another
 * device than @known (a second port of the same adapter is not one),
 * an active port with the same PNETID (two without one match too), a
 * GID on the group's VLAN and, for v2, on a netdev in the subnet of the
 * first link's source address.
 *
 * Context: any but hard interrupt; the device list is read under RCU.
 * Return: 0 with a reference on @out->dev (smc_ib_put()), or -ENODEV.
 */
int smc_ib_select_alt(struct net *net, const struct smc_ib_device *known,
		      const char *pnetid, u16 vlan_id, bool v2, __be32 saddr,
		      struct smc_ib_select *out)
{
	struct smc_ib_match m = {
		.net = net, .alt = true, .known = known, .vlan_id = vlan_id,
		.v2 = v2, .saddr = saddr,
	};

	strscpy(m.egress_pnetid, pnetid, sizeof(m.egress_pnetid));
	return smc_ib_scan(&m, out);
}

/**
 * smc_ib_find_by_gid() - the active port owning a GID
 * @gid: SMC_IB_GID_SIZE bytes, e.g. from a CLC message
 * @out: the result
 *
 * Context: any but hard interrupt.
 * Return: 0 with a reference on @out->dev (smc_ib_put()), or -ENODEV.
 */
int smc_ib_find_by_gid(const u8 *gid, struct smc_ib_select *out)
{
	struct smc_ib_match m = { .gid = gid };

	return smc_ib_scan(&m, out);
}

/**
 * smc_ib_init() - start tracking RDMA devices
 *
 * Context: module init, after smc_pnet_init().
 * Return: 0 or a negative errno.
 */
int smc_ib_init(void)
{
	int rc;

	get_random_bytes(smc_ib_sysid, 2);
	rc = register_netdevice_notifier(&smc_ib_netdev_nb);
	if (rc)
		return rc;
	/* calls smc_ib_add() for the devices present */
	rc = ib_register_client(&smc_ib_client);
	if (rc)
		unregister_netdevice_notifier(&smc_ib_netdev_nb);
	return rc;
}

/**
 * smc_ib_exit() - forget all RDMA devices
 *
 * Context: module exit; no device references may be held.
 */
void smc_ib_exit(void)
{
	ib_unregister_client(&smc_ib_client);
	unregister_netdevice_notifier(&smc_ib_netdev_nb);
}
