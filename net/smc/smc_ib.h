/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * RoCE devices known to SMC-R, their port state, and the choice of a
 * device, port and GID for a connection.
 */
#ifndef _NET_SMC_IB_H
#define _NET_SMC_IB_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/etherdevice.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#define SMC_IB_MAX_PORTS	2	/* SMC-R uses ports 1 and 2 only */
#define SMC_IB_PNETID_LEN	16
#define SMC_IB_GID_SIZE		16
#define SMC_IB_SYSID_LEN	8

/**
 * struct smc_ib_port - what SMC-R knows about one port
 * @state: IB_PORT_* from the last port query (IB_PORT_NOP if never)
 * @gid_tbl_len: GID table size from the last port query
 * @ifindex: ifindex of the port's netdev in init_net, 0 if none
 * @mac: MAC address of that netdev, zero if none
 * @pnetid: PNETID from the hardware (s390: the zPCI function) or else
 *	from the table of init_net, "" if none
 * @pnet_usr: @pnetid came from the table
 * @lnk_cnt: SMC-R links using this port; maintained by the link layer
 *
 * All but @lnk_cnt are guarded by smc_ib_device.lock.
 */
struct smc_ib_port {
	enum ib_port_state	state;
	int			gid_tbl_len;
	int			ifindex;
	u8			mac[ETH_ALEN];
	char			pnetid[SMC_IB_PNETID_LEN + 1];
	bool			pnet_usr;
	atomic_t		lnk_cnt;
};

/**
 * struct smc_ib_device - an RDMA device SMC-R may use
 * @list: in the module's device list (RCU)
 * @ibdev: the RDMA device; valid until smc_ib_device's removal ends,
 *	which waits for every reference (see smc_ib_put())
 * @ref: the list holds one reference, each user of the device one more
 * @released: completed when the last reference is dropped
 * @event_handler: asynchronous port and device events
 * @port_work: queries the ports named in @port_mask
 * @port_mask: bit n set: port n + 1 must be queried again
 * @lock: guards @ports (except lnk_cnt)
 * @ports: state of ports 1 and 2
 * @fatal: a fatal device event was seen, no port is usable any more;
 *	set once from the event handler, read locklessly
 * @gone: the device is being removed; set once, read locklessly
 * @crit_cnt: link groups that would lose their last link with this
 *	device (SINGLE or ASYMMETRIC_LOCAL); maintained by the link layer
 */
struct smc_ib_device {
	struct list_head	list;
	struct ib_device	*ibdev;
	struct kref		ref;
	struct completion	released;
	struct ib_event_handler	event_handler;
	struct work_struct	port_work;
	unsigned long		port_mask;
	spinlock_t		lock;	/* guards ports[] */
	struct smc_ib_port	ports[SMC_IB_MAX_PORTS];
	bool			fatal;
	bool			gone;
	atomic_t		crit_cnt;
};

/**
 * smc_ib_usable() - may a new link use the device?
 * @dev: the device
 *
 * Context: any.
 * Return: false once it is being removed or had a fatal error.
 */
static inline bool smc_ib_usable(const struct smc_ib_device *dev)
{
	return !READ_ONCE(dev->fatal) && !READ_ONCE(dev->gone);
}

/**
 * struct smc_ib_select - the device, port and GID chosen for a connection
 * @dev: the device, with a reference the caller drops by smc_ib_put()
 * @port: port number, 1 or 2
 * @sgid_index: index of @gid in the port's GID table
 * @gid: the GID (RoCE v1, or RoCEv2 IPv4-mapped)
 * @mac: MAC address of the GID's netdev
 * @roce_v2: @gid is a RoCEv2 (UDP-encapsulated) GID
 * @ifindex: ifindex of the GID's netdev
 * @pnetid: the PNETID the choice was made on, "" if made on the netdev
 */
struct smc_ib_select {
	struct smc_ib_device	*dev;
	u8			port;
	int			sgid_index;
	u8			gid[SMC_IB_GID_SIZE];
	u8			mac[ETH_ALEN];
	bool			roce_v2;
	int			ifindex;
	char			pnetid[SMC_IB_PNETID_LEN + 1];
};

/**
 * struct smc_ib_port_info - snapshot of a port for reports
 * @valid: the device has this port
 * @active: the port is ACTIVE and the device not fatally broken
 * @ifindex: see struct smc_ib_port
 * @pnetid: see struct smc_ib_port
 * @pnet_usr: @pnetid was defined by the user, not by the hardware
 * @lnk_cnt: see struct smc_ib_port
 */
struct smc_ib_port_info {
	bool	valid;
	bool	active;
	int	ifindex;
	char	pnetid[SMC_IB_PNETID_LEN + 1];
	bool	pnet_usr;
	u32	lnk_cnt;
};

int smc_ib_init(void);
void smc_ib_exit(void);
void smc_ib_put(struct smc_ib_device *dev);
struct smc_ib_device *smc_ib_get_nth(long n);
void smc_ib_port_info(struct smc_ib_device *dev, u8 port,
		      struct smc_ib_port_info *info);
int smc_ib_select_v2(struct net *net, struct net_device *egress,
		     __be32 saddr, struct smc_ib_select *out);
int smc_ib_select_v1(struct net *net, struct net_device *egress,
		     struct smc_ib_select *out);
int smc_ib_select_alt(struct net *net, const struct smc_ib_device *known,
		      const char *pnetid, u16 vlan_id, bool v2, __be32 saddr,
		      struct smc_ib_select *out);
int smc_ib_find_by_gid(const u8 *gid, struct smc_ib_select *out);
bool smc_ib_local_systemid(u8 *sysid);
void smc_ib_pnet_changed(void);

/* smc_ib_debugfs.c */
struct dentry;
void smc_ib_debugfs_init(struct dentry *root);

#endif /* _NET_SMC_IB_H */
