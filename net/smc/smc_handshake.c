// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The CLC handshake of one connection, client and server side, as the
 * messages and decisions on the wire; smc_connect.c and smc_listen.c
 * run it for the socket layer.
 *
 * Each side returns a positive SMC_CLC_DECL_* code when the connection
 * falls back to TCP (after sending or receiving a Decline), or a negative
 * errno when the handshake broke and the connection cannot continue.
 *
 * An SMC-R path is offered and accepted where a RoCE port serves the
 * connection (smc_ib.c): SMC-Rv2 over an IPv4-mapped RoCEv2 GID when a
 * UEID is configured, SMC-Rv1 over a RoCE v1 GID in one IP subnet.  The
 * connection itself is set up by smc_conn.c.  Where no path qualifies,
 * the Decline carries the reason an upstream peer sends in the same
 * situation, so either end may be upstream.
 */

#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/smc.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "smc.h"
#include "smc_conn.h"
#include "smc_ib.h"
#include "smc_test_hooks.h"

struct workqueue_struct *smc_hs_wq;

/**
 * smc_hs_local_systemid() - the peer id this system sends in CLC
 * @id: 8 bytes to fill
 *
 * The system id derives from the MAC of a RoCE port; without one there
 * is none, and zeroes are sent, as upstream does.
 *
 * Context: any context.
 */
void smc_hs_local_systemid(u8 *id)
{
	if (!smc_ib_local_systemid(id))
		memset(id, 0, SMC_CLC_PEER_ID_LEN);
}

/* IPsec connections are not accelerated: data must stay in the policy */
static bool smc_hs_uses_ipsec(struct smc_sock *smc)
{
#ifdef CONFIG_XFRM
	struct sock *clcsk = smc->clcsock->sk;

	return rcu_access_pointer(clcsk->sk_policy[0]) ||
	       rcu_access_pointer(clcsk->sk_policy[1]);
#else
	return false;
#endif
}

static bool smc_hs_path_r(u8 path)
{
	return path == SMC_CLC_PATH_R || path == SMC_CLC_PATH_B;
}

static bool smc_hs_path_d(u8 path)
{
	return path == SMC_CLC_PATH_D || path == SMC_CLC_PATH_B;
}

/* one of the proposal's UEIDs is ours */
static bool smc_hs_prop_eid_match(const struct smc_clc_proposal_info *p)
{
	u8 i;

	for (i = 0; i < p->eid_cnt; i++)
		if (smc_ueid_match(p->eids[i]))
			return true;
	return false;
}

static bool smc_hs_pfx4_match(struct net_device *dev, __be32 subnet, u8 len)
{
	struct in_device *in_dev = __in_dev_get_rcu(dev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev) {
		if (len == inet_mask_len(ifa->ifa_mask) &&
		    inet_ifa_match(subnet, ifa))
			return true;
	}
	return false;
}

static bool smc_hs_pfx6_match(struct net_device *dev,
			      const struct smc_clc_proposal_info *p)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct inet6_dev *in6_dev = __in6_dev_get(dev);
	struct inet6_ifaddr *ifa;
	bool found = false;
	u8 i;

	if (!in6_dev)
		return false;
	read_lock_bh(&in6_dev->lock);
	list_for_each_entry(ifa, &in6_dev->addr_list, if_list) {
		if (ipv6_addr_type(&ifa->addr) & IPV6_ADDR_LINKLOCAL)
			continue;
		for (i = 0; i < p->ipv6_cnt && !found; i++)
			found = ifa->prefix_len == p->ipv6[i].len &&
				ipv6_prefix_equal(&ifa->addr,
						  &p->ipv6[i].prefix,
						  ifa->prefix_len);
		if (found)
			break;
	}
	read_unlock_bh(&in6_dev->lock);
	return found;
#else
	return false;
#endif
}

/*
 * SMC-Rv1 and SMC-Dv1 require client and server in one IP subnet: one
 * address on the server's egress device must match the proposed IPv4
 * subnet or one of the proposed IPv6 prefixes.
 */
static u32 smc_hs_prefix_check(struct smc_sock *smc,
			       const struct smc_clc_proposal_info *p)
{
	struct dst_entry *dst;
	struct net_device *dev;
	bool match = false;

	rcu_read_lock();
	dst = __sk_dst_get(smc->clcsock->sk);
	dev = dst ? dst->dev : NULL;
	if (dev && !p->ipv6_cnt)
		match = smc_hs_pfx4_match(dev, p->ipv4_prefix, p->prefix_len);
	else if (dev)
		match = smc_hs_pfx6_match(dev, p);
	rcu_read_unlock();
	return match ? 0 : SMC_CLC_DECL_DIFFPREFIX;
}

/*
 * The server's answer to a well-formed proposal, in upstream's order of
 * checks: first whether a v2 path survives its preconditions, then the
 * v1 subnet rule, then the devices.  The first device-level reason found
 * is the one sent.
 */
static u32 smc_hs_serv_select(struct smc_sock *smc,
			      const struct smc_clc_proposal_info *p)
{
	bool v1r = smc_hs_path_r(p->typev1), v1d = smc_hs_path_d(p->typev1);
	bool v2 = p->version >= SMC_CLC_V2;
	bool v2r = v2 && smc_hs_path_r(p->typev2);
	bool v2d = v2 && smc_hs_path_d(p->typev2);
	u32 v2rc = SMC_CLC_DECL_PEERNOSMC, prfx = 0, first = 0;
	/* the decoder insists on the extension wherever typev2 offers */
	bool ext = v2 && p->typev2 != SMC_CLC_PATH_N;

	if (v2r || v2d) {
		if (!ext) {
			v2r = false;
			v2d = false;
			v2rc = SMC_CLC_DECL_NOV2EXT;
		} else {
			if (v2d) {
				/* no ISM device can do SMC-Dv2 here */
				v2d = false;
				v2rc = SMC_CLC_DECL_NOISM2SUPP;
			}
			if (v2r && !p->eid_cnt) {
				v2r = false;
				v2rc = SMC_CLC_DECL_NOUEID;
			}
		}
	}
	if (!v1r && !v1d && !v2r && !v2d)
		return v2rc;

	if (p->typev1 != SMC_CLC_PATH_N) {
		prfx = smc_hs_prefix_check(smc, p);
		first = prfx;
	}
	/* SMC-Dv1: no ISM device */
	if (!prfx && v1d && !first)
		first = SMC_CLC_DECL_NOSMCDDEV;
	if (!smc_hs_path_r(p->typev1) && !smc_hs_path_r(p->typev2))
		return first ?: SMC_CLC_DECL_NOSMCDDEV;
	/* SMC-Rv2: with a common UEID, a RoCE port would be searched */
	if (v2r && smc_hs_prop_eid_match(p) && !first)
		first = SMC_CLC_DECL_NOSMCRDEV;
	if (prfx)
		return prfx;
	/* SMC-Rv1: no RoCE port */
	return first ?: SMC_CLC_DECL_NOSMCDEV;
}

/* the TCP connection's egress device, held; NULL without a route */
static struct net_device *smc_hs_egress(struct smc_sock *smc)
{
	struct dst_entry *dst = sk_dst_get(smc->clcsock->sk);
	struct net_device *dev = NULL;

	if (dst) {
		dev = dst->dev;
		dev_hold(dev);
		dst_release(dst);
	}
	return dev;
}

static unsigned short smc_hs_vlan(struct net_device *dev)
{
	return is_vlan_dev(dev) ? vlan_dev_vlan_id(dev) : 0;
}

/* the IPv4 addresses of an IPv4 (or IPv4-mapped) TCP connection */
static bool smc_hs_ipv4(struct smc_sock *smc, __be32 *saddr, __be32 *daddr)
{
	struct sock *clcsk = smc->clcsock->sk;

#if IS_ENABLED(CONFIG_IPV6)
	if (clcsk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&clcsk->sk_v6_rcv_saddr))
		return false;
#endif
	*saddr = clcsk->sk_rcv_saddr;
	*daddr = clcsk->sk_daddr;
	return true;
}

/* the v1 prefix area: the egress device's subnet(s) of the connection */
static void smc_hs_prop_prefixes(struct smc_sock *smc, struct net_device *dev,
				 struct smc_clc_proposal_info *p)
{
	struct in_device *in_dev;
	const struct in_ifaddr *ifa;
	__be32 saddr, daddr;

	if (smc_hs_ipv4(smc, &saddr, &daddr)) {
		rcu_read_lock();
		in_dev = __in_dev_get_rcu(dev);
		if (in_dev) {
			in_dev_for_each_ifa_rcu(ifa, in_dev) {
				if (!inet_ifa_match(saddr, ifa))
					continue;
				p->ipv4_prefix = saddr & ifa->ifa_mask;
				p->prefix_len = inet_mask_len(ifa->ifa_mask);
				break;
			}
		}
		rcu_read_unlock();
		return;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct inet6_dev *in6_dev;
		struct inet6_ifaddr *ifa6;

		in6_dev = in6_dev_get(dev);
		if (!in6_dev)
			return;
		read_lock_bh(&in6_dev->lock);
		list_for_each_entry(ifa6, &in6_dev->addr_list, if_list) {
			struct smc_clc_ipv6_prefix_info *pi;

			if (ipv6_addr_type(&ifa6->addr) & IPV6_ADDR_LINKLOCAL)
				continue;
			if (p->ipv6_cnt == SMC_CLC_MAX_V6_PREFIX)
				break;
			pi = &p->ipv6[p->ipv6_cnt++];
			ipv6_addr_prefix(&pi->prefix, &ifa6->addr,
					 ifa6->prefix_len);
			pi->len = ifa6->prefix_len;
		}
		read_unlock_bh(&in6_dev->lock);
		in6_dev_put(in6_dev);
	}
#endif
}

/* what the client offers, in @p, and the devices behind it */
struct smc_hs_offer {
	struct smc_ib_select	v1;
	struct smc_ib_select	v2;
	bool			has_v1;
	bool			has_v2;
	unsigned short		vlan_id;
};

static void smc_hs_offer_put(struct smc_hs_offer *o)
{
	if (o->has_v1)
		smc_ib_put(o->v1.dev);
	if (o->has_v2)
		smc_ib_put(o->v2.dev);
	o->has_v1 = false;
	o->has_v2 = false;
}

/*
 * The client's Proposal: SMC-Rv2 needs an IPv4 connection, a UEID and a
 * RoCEv2 GID on the source subnet; SMC-Rv1 a RoCE v1 GID on the egress
 * device.  Return: 0, or the reason to decline with when neither exists.
 */
static u32 smc_hs_clnt_offer(struct smc_sock *smc, struct smc_hs_offer *o,
			     struct smc_clc_proposal_info *p)
{
	struct net *net = sock_net(&smc->sk);
	struct net_device *dev = smc_hs_egress(smc);
	__be32 saddr, daddr;

	if (!dev)
		return SMC_CLC_DECL_NOSMCDEV;
	o->vlan_id = smc_hs_vlan(dev);
	p->eid_cnt = smc_ueid_get_all(&p->eids[0][0], SMC_CLC_MAX_UEID);
	o->has_v2 = p->eid_cnt && smc_hs_ipv4(smc, &saddr, &daddr) &&
		    !smc_ib_select_v2(net, dev, saddr, &o->v2);
	o->has_v1 = !smc_ib_select_v1(net, dev, &o->v1);
	if (o->has_v1)
		smc_hs_prop_prefixes(smc, dev, p);
	dev_put(dev);
	if (!o->has_v1 && !o->has_v2)
		return SMC_CLC_DECL_NOSMCDEV;

	p->version = SMC_CLC_V2;
	p->typev1 = o->has_v1 ? SMC_CLC_PATH_R : SMC_CLC_PATH_N;
	p->typev2 = o->has_v2 ? SMC_CLC_PATH_R : SMC_CLC_PATH_N;
	smc_hs_local_systemid(p->peer_id);
	if (o->has_v1) {
		memcpy(p->gid_v1, o->v1.gid, SMC_CLC_GID_LEN);
		ether_addr_copy(p->mac, o->v1.mac);
	}
	if (o->has_v2) {
		p->release = SMC_RELEASE;
		memcpy(p->roce_gid, o->v2.gid, SMC_CLC_GID_LEN);
		p->max_conns = smc_sysctl_max_conns(net);
		/* as client we take a second link the server offers */
		p->max_links = smc_sysctl_max_links(net);
	} else {
		p->eid_cnt = 0;
	}
	return 0;
}

/* an Accept the client can take: a path it offered, sane v2 values */
static u32 smc_hs_clnt_check(const struct smc_hs_offer *o,
			     const struct smc_clc_accept_info *a)
{
	if (a->version == SMC_CLC_V1)
		return o->has_v1 ? 0 : SMC_CLC_DECL_MODEUNSUPP;
	if (!o->has_v2)
		return SMC_CLC_DECL_MODEUNSUPP;
	if (!smc_ueid_match(a->eid))
		return SMC_CLC_DECL_NOUEID;
	if (!a->first_contact)
		return 0;
	if (a->release > SMC_RELEASE)
		return SMC_CLC_DECL_RELEASEERR;
	if (a->release >= 1 && (a->fce_len < SMC_CLC_FCE_LEN_V21 ||
				a->max_conns < SMC_CONN_PER_LGR_MIN))
		return SMC_CLC_DECL_MAXCONNERR;
	if (a->release >= 1 && (a->max_links < 1 || a->max_links > 2))
		return SMC_CLC_DECL_MAXLINKERR;
	return 0;
}

/* fill @cs from the Accept; picks the device of the accepted version */
static u32 smc_hs_clnt_setup(struct smc_sock *smc, struct smc_hs_offer *o,
			     const struct smc_clc_accept_info *a,
			     struct smc_conn_setup *cs)
{
	bool v2 = a->version == SMC_CLC_V2;
	__be32 saddr, daddr;
	bool gw, ipv4;

	cs->version = a->version;
	cs->role = SMC_CLNT;
	cs->first_contact = a->first_contact;
	memcpy(cs->peer_systemid, a->peer_id, SMC_SYSTEMID_LEN);
	memcpy(cs->peer_gid, a->gid, SMC_GID_SIZE);
	ether_addr_copy(cs->peer_mac, a->mac);
	cs->peer_qpn = a->qpn;
	cs->vlan_id = o->vlan_id;
	cs->max_conns = SMC_CONN_PER_LGR_MAX;
	/* before SMC-Rv2.1 a server may add a second link */
	cs->max_links = SMC_LINKS_ADD_MAX;
	if (v2) {
		memcpy(cs->eid, a->eid, SMC_CLC_EID_LEN);
		cs->release = a->release;
		cs->peer_os = a->os_type;
		memcpy(cs->peer_hostname, a->hostname, SMC_CLC_HOSTNAME_LEN);
		if (a->first_contact && a->release >= 1) {
			cs->max_conns = a->max_conns;
			cs->max_links = a->max_links;
		}
		/* a reused link group needs no path: its link exists */
		cs->v2_direct = a->v2_direct;
		ipv4 = a->first_contact && smc_hs_ipv4(smc, &saddr, &daddr);
		if (ipv4)
			cs->saddr = saddr;
		if (a->first_contact && !a->v2_direct) {
			/* the server sees a gateway: so must we */
			if (!ipv4 ||
			    smc_conn_route(sock_net(&smc->sk), saddr,
					   *(__be32 *)&a->gid[12],
					   cs->peer_mac, &gw))
				return SMC_CLC_DECL_NOROUTE;
			if (!gw)
				return SMC_CLC_DECL_NOINDIRECT;
		}
	}
	/* the device of the accepted version goes into @cs */
	if (v2) {
		cs->sel = o->v2;
		o->has_v2 = false;
	} else {
		cs->sel = o->v1;
		o->has_v1 = false;
	}
	return 0;
}

/* the Accept or Confirm describing our end of the connection */
static void smc_hs_our_end(struct smc_sock *smc, struct smc_conn_setup *cs,
			   u8 type, u8 mtu, struct smc_clc_accept_info *a)
{
	struct smc_connection *conn = &smc->conn;
	/* the link of the handshake, even if a failover moved @conn */
	struct smc_lgr_link *lnk = cs->lnk;
	struct smc_link_group *lgr = conn->lgr;
	struct smc_wr_mr *mr = &conn->rmb_desc->mr[lnk->idx];

	memset(a, 0, sizeof(*a));
	a->type = type;
	a->version = cs->version;
	a->first_contact = cs->first_contact;
	smc_hs_local_systemid(a->peer_id);
	memcpy(a->gid, lnk->wr.gid.raw, SMC_CLC_GID_LEN);
	ether_addr_copy(a->mac, lnk->wr.mac);
	a->qpn = lnk->wr.qp->qp_num;
	a->rmb_rkey = mr->rkey;
	a->rmbe_idx = 1;
	a->rmbe_alert_token = conn->alert_token_local;
	a->rmbe_size = conn->rmb_desc->comp;
	a->qp_mtu = mtu;
	a->rmb_vaddr = mr->addr;
	a->psn = lnk->wr.psn;
	if (type == SMC_CLC_CONFIRM && !cs->first_contact &&
	    smc_test_confirm_foreign_qpn())
		a->qpn = (a->qpn + 1) & SMC_WR_QPN_MASK;
	if (cs->version != SMC_CLC_V2)
		return;
	memcpy(a->eid, cs->eid, SMC_CLC_EID_LEN);
	if (!cs->first_contact)
		return;
	a->v2_direct = lgr->v2_direct;
	a->os_type = SMC_CLC_OS_LINUX;
	a->release = lgr->release;
	smc_conn_hostname(a->hostname);
	if (lgr->release >= 1) {
		a->max_conns = lgr->max_conns;
		a->max_links = lgr->max_links;
	}
	if (type == SMC_CLC_CONFIRM) {
		a->gid_cnt = 1;
		memcpy(a->gids[0], lnk->wr.gid.raw, SMC_CLC_GID_LEN);
	}
}

static int smc_hs_send_accept(struct smc_sock *smc,
			      const struct smc_clc_accept_info *a, u8 *buf)
{
	int len = smc_clc_accept_encode(buf, SMC_CLC_MAX_LEN, a);

	return len < 0 ? len : smc_clc_send(smc->clcsock, buf, len);
}

/* a Decline read into @buf: its diagnosis kept, the fallback is the peer's */
static int smc_hs_peer_decline(struct smc_sock *smc, const u8 *buf,
			       const struct smc_clc_hdr_info *info,
			       bool *out_of_sync)
{
	struct smc_clc_decline_info d;

	if (smc_clc_decline_decode(buf, info->length, &d))
		return -EPROTO;
	WRITE_ONCE(smc->peer_diagnosis, d.diagnosis);
	*out_of_sync = d.out_of_sync;
	return SMC_CLC_DECL_PEERDECL;
}

/*
 * Read the peer's Accept (client) or Confirm (server) into @a.  Return:
 * 0; a positive reason when the peer declined (its diagnosis kept); or
 * a negative errno for a broken handshake.
 */
static int smc_hs_recv_accept(struct smc_sock *smc, u8 type, u8 *buf,
			      struct smc_clc_accept_info *a, bool *out_of_sync)
{
	struct smc_clc_hdr_info info;
	int rc;

	rc = smc_clc_recv(smc->clcsock, buf, SMC_CLC_MAX_LEN, type,
			  SMC_CLC_WAIT_TIME, &info);
	if (rc)
		return rc;
	if (info.type == SMC_CLC_DECLINE)
		return smc_hs_peer_decline(smc, buf, &info, out_of_sync);
	rc = smc_clc_accept_decode(buf, info.length, a);
	if (rc) {
		/* an SMC-D answer is declined, anything else breaks */
		return smc_clc_decode_reason(rc) ?: -EPROTO;
	}
	return a->type == type ? 0 : -EPROTO;
}

/*
 * The first link is confirmed over RoCE while the peer may give up on
 * it first and decline on the clcsock: when RoCE does not pass (a
 * firewall, a broken fabric), each side then sees only the other's
 * Decline.  So the LLC wait also ends with news on the clcsock, and a
 * Decline found there is taken off the stream, where the application
 * would read it as data after the fallback, and none is sent back.
 */
struct smc_hs_clc_watch {
	struct wait_queue_entry	wq;
	struct smc_lgr_link	*lnk;
	bool			news;
};

static int smc_hs_clc_news(struct wait_queue_entry *wq, unsigned int mode,
			   int sync, void *key)
{
	struct smc_hs_clc_watch *w = container_of(wq, struct smc_hs_clc_watch,
						  wq);

	/* data, EOF or an error; not the room our Confirm made */
	if (key && !(key_to_poll(key) & (EPOLLIN | EPOLLRDHUP | EPOLLHUP |
					 EPOLLERR)))
		return 0;
	WRITE_ONCE(w->news, true);
	wake_up_all(&w->lnk->llc_wait);
	return 0;
}

static int smc_hs_confirm_link(struct smc_sock *smc,
			       struct smc_conn_setup *cs, u8 *buf,
			       bool *peer_declined, bool *out_of_sync)
{
	struct smc_hs_clc_watch w = { .lnk = cs->lnk };
	struct sock *clcsk = smc->clcsock->sk;
	struct smc_clc_hdr_info info;
	int rc;

	init_waitqueue_func_entry(&w.wq, smc_hs_clc_news);
	add_wait_queue(sk_sleep(clcsk), &w.wq);
	if (cs->lnk->lgr->role == SMC_SERV)
		rc = smc_llc_confirm_link_serv(cs->lnk, &w.news);
	else
		rc = smc_llc_confirm_link_clnt(cs->lnk, &w.news);
	remove_wait_queue(sk_sleep(clcsk), &w.wq);
	/* news just as the wait ran out: look before declining as well */
	if (rc == SMC_CLC_DECL_TIMEOUT_CL && READ_ONCE(w.news))
		rc = -EINTR;
	if (rc != -EINTR)
		return rc;
	/* nothing but a Decline may come now: a whole one, or an error */
	rc = smc_clc_recv(smc->clcsock, buf, SMC_CLC_MAX_LEN, SMC_CLC_DECLINE,
			  SMC_CLC_WAIT_TIME, &info);
	if (rc)
		return rc;
	rc = smc_hs_peer_decline(smc, buf, &info, out_of_sync);
	*peer_declined = rc == SMC_CLC_DECL_PEERDECL;
	return rc;
}

/*
 * Give up SMC-R: tell the peer unless it declined, then leave the group.
 * The Decline goes first: a peer that gave up too looks for it only for
 * a while (smc_hs_confirm_link()).
 */
static int smc_hs_smcr_fail(struct smc_sock *smc, struct smc_conn_setup *cs,
			    int rc, bool peer_declined, u8 version)
{
	int err = 0;

	if (rc > 0 && !peer_declined)
		err = smc_clc_send_decline(smc, rc, version);
	if (cs->lgr || cs->sel.dev)
		smc_conn_setup_abort(smc, cs, rc > 0 ? rc : 0);
	return err ?: rc;
}

/**
 * smc_hs_client() - the client's CLC handshake
 * @smc: client SMC socket whose TCP handshake carried the SMC option
 *
 * Proposal, then the server's Accept or Decline; with an Accept the
 * connection is set up (smc_conn.c), the Confirm sent and, for a first
 * contact, the link confirmed.
 *
 * Context: process context (the handshake work), may sleep.
 * Return: 0 for an SMC-R connection, a positive fallback reason, or a
 * negative errno.
 */
int smc_hs_client(struct smc_sock *smc)
{
	struct smc_clc_proposal_info *prop = NULL;
	struct smc_clc_accept_info *acc = NULL;
	struct smc_conn_setup *cs = NULL;
	struct smc_hs_offer o = {};
	bool peer_declined = false, sync = false;
	u8 *buf = NULL;
	int rc, len;

	if (smc_hs_uses_ipsec(smc)) {
		rc = SMC_CLC_DECL_IPSEC;
		goto decline_v1;
	}
	prop = kzalloc(sizeof(*prop), GFP_KERNEL);
	acc = kzalloc(sizeof(*acc), GFP_KERNEL);
	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	buf = kzalloc(SMC_CLC_MAX_LEN, GFP_KERNEL);
	if (!prop || !acc || !cs || !buf) {
		rc = SMC_CLC_DECL_MEM;
		goto decline_v1;
	}
	rc = smc_hs_clnt_offer(smc, &o, prop);
	if (rc)
		goto decline_v1;
	len = smc_clc_proposal_encode(buf, SMC_CLC_MAX_LEN, prop);
	rc = len < 0 ? len : smc_clc_send(smc->clcsock, buf, len);
	if (rc)
		goto out;

	rc = smc_hs_recv_accept(smc, SMC_CLC_ACCEPT, buf, acc, &sync);
	if (rc) {
		peer_declined = rc == SMC_CLC_DECL_PEERDECL;
		goto fail;
	}
	rc = smc_hs_clnt_check(&o, acc);
	if (!rc)
		rc = smc_hs_clnt_setup(smc, &o, acc, cs);
	if (rc)
		goto fail;
	rc = smc_conn_create(smc, cs);
	if (rc)
		goto fail;
	if (cs->first_contact) {
		smc_lgr_link_set_peer(cs->lnk, acc->qpn, acc->psn, acc->gid,
				      cs->peer_mac, acc->qp_mtu);
		if (smc_lgr_link_rtr(cs->lnk)) {
			rc = SMC_CLC_DECL_ERR_RDYLNK;
			goto fail;
		}
	}
	rc = smc_conn_peer_rmb(smc, cs->lnk, acc->rmb_vaddr, acc->rmb_rkey,
			       acc->rmbe_idx, acc->rmbe_size,
			       acc->rmbe_alert_token);
	if (rc)
		goto fail;
	smc_hs_our_end(smc, cs, SMC_CLC_CONFIRM, cs->lnk->path_mtu ?:
		       acc->qp_mtu, acc);
	rc = smc_hs_send_accept(smc, acc, buf);
	if (rc)
		goto fail;
	if (cs->first_contact) {
		rc = smc_hs_confirm_link(smc, cs, buf, &peer_declined, &sync);
		if (rc)
			goto fail;
	}
	smc_conn_setup_done(smc, cs);
	smc_conn_to_smcr(smc);
	rc = 0;
	goto out;

fail:
	rc = smc_hs_smcr_fail(smc, cs, rc, peer_declined, SMC_CLC_V2);
	goto out;
decline_v1:
	/* without ISMv2 an upstream client declines in the v1 format */
	len = smc_clc_send_decline(smc, rc, SMC_CLC_V1);
	if (len)
		rc = len;
out:
	smc_hs_offer_put(&o);
	kfree(buf);
	kfree(cs);
	kfree(acc);
	kfree(prop);
	return rc;
}

/* the UEID of the proposal we share, into @eid */
static bool smc_hs_prop_eid_pick(const struct smc_clc_proposal_info *p,
				 u8 *eid)
{
	u8 i;

	for (i = 0; i < p->eid_cnt; i++) {
		if (smc_ueid_match(p->eids[i])) {
			memcpy(eid, p->eids[i], SMC_CLC_EID_LEN);
			return true;
		}
	}
	return false;
}

/*
 * SMC-Rv2 for a proposal that offers it: a shared UEID, the v2.1 limits
 * agreed, a RoCEv2 GID on our source subnet and a route to the client's
 * GID.  Return: 0 with @cs filled, or the reason v2 is not possible.
 */
static u32 smc_hs_serv_v2(struct smc_sock *smc, struct net_device *dev,
			  const struct smc_clc_proposal_info *p,
			  struct smc_conn_setup *cs)
{
	struct net *net = sock_net(&smc->sk);
	__be32 saddr, daddr;
	bool gw;

	if (!smc_hs_prop_eid_pick(p, cs->eid))
		return SMC_CLC_DECL_NOUEID;
	cs->release = min_t(u8, p->release, SMC_RELEASE);
	cs->max_conns = SMC_CONN_PER_LGR_MAX;
	/* before SMC-Rv2.1 the server offers a second link */
	cs->max_links = SMC_LINKS_ADD_MAX;
	if (cs->release >= 1) {
		cs->max_conns = min_t(int, p->max_conns,
				      smc_sysctl_max_conns(net));
		if (cs->max_conns < SMC_CONN_PER_LGR_MIN)
			return SMC_CLC_DECL_MAXCONNERR;
		cs->max_links = min_t(int, p->max_links,
				      smc_sysctl_max_links(net));
		if (!cs->max_links)
			return SMC_CLC_DECL_MAXLINKERR;
	}
	if (!smc_hs_ipv4(smc, &saddr, &daddr) ||
	    smc_ib_select_v2(net, dev, saddr, &cs->sel))
		return SMC_CLC_DECL_NOSMCRDEV;
	if (smc_conn_route(net, saddr, *(__be32 *)&p->roce_gid[12],
			   cs->peer_mac, &gw)) {
		smc_ib_put(cs->sel.dev);
		cs->sel.dev = NULL;
		return SMC_CLC_DECL_NOROUTE;
	}
	cs->version = SMC_CLC_V2;
	cs->v2_direct = !gw;
	cs->saddr = saddr;
	memcpy(cs->peer_systemid, p->peer_id, SMC_SYSTEMID_LEN);
	memcpy(cs->peer_gid, p->roce_gid, SMC_GID_SIZE);
	return 0;
}

/* SMC-Rv1: one IP subnet and a RoCE v1 GID on the egress device */
static u32 smc_hs_serv_v1(struct smc_sock *smc, struct net_device *dev,
			  const struct smc_clc_proposal_info *p,
			  struct smc_conn_setup *cs)
{
	u32 rc = smc_hs_prefix_check(smc, p);

	if (rc)
		return rc;
	if (smc_ib_select_v1(sock_net(&smc->sk), dev, &cs->sel))
		return SMC_CLC_DECL_NOSMCRDEV;
	cs->version = SMC_CLC_V1;
	cs->release = 0;
	cs->max_conns = SMC_CONN_PER_LGR_MAX;
	cs->max_links = SMC_LINKS_ADD_MAX;
	memcpy(cs->peer_systemid, p->peer_id, SMC_SYSTEMID_LEN);
	memcpy(cs->peer_gid, p->gid_v1, SMC_GID_SIZE);
	ether_addr_copy(cs->peer_mac, p->mac);
	return 0;
}

/*
 * The SMC-R path for a proposal, v2 before v1 as upstream prefers.
 * Return: 0 with @cs filled (device referenced), else a reason; the
 * caller then declines with smc_hs_serv_select()'s reason unless v2
 * failed on its negotiated limits.
 */
static u32 smc_hs_serv_pick(struct smc_sock *smc,
			    const struct smc_clc_proposal_info *p,
			    struct smc_conn_setup *cs)
{
	struct net_device *dev = smc_hs_egress(smc);
	u32 v2rc = SMC_CLC_DECL_NOSMCRDEV;

	if (!dev)
		return SMC_CLC_DECL_NOSMCDEV;
	cs->role = SMC_SERV;
	cs->vlan_id = smc_hs_vlan(dev);
	if (p->version >= SMC_CLC_V2 && smc_hs_path_r(p->typev2)) {
		v2rc = smc_hs_serv_v2(smc, dev, p, cs);
		if (!v2rc)
			goto out;
	}
	if (smc_hs_path_r(p->typev1) && !smc_hs_serv_v1(smc, dev, p, cs)) {
		v2rc = 0;
		goto out;
	}
	if (v2rc != SMC_CLC_DECL_MAXCONNERR && v2rc != SMC_CLC_DECL_MAXLINKERR)
		v2rc = smc_hs_serv_select(smc, p);
out:
	dev_put(dev);
	return v2rc;
}

/**
 * smc_hs_serv_check() - may the server take the client's Confirm?
 * @cs: the connection as our Accept described it; @cs->lnk is the link
 *	of a reused group
 * @c: the Confirm
 *
 * The Confirm must echo what our Accept's FCE said.  On a reused group
 * it must also name the link our Accept named, from the client's end:
 * the group was matched on the Proposal's identity alone, which any TCP
 * client can copy, and an rtoken must not be taken from a stranger.
 *
 * Context: any.
 * Return: 0, or the SMC_CLC_DECL_* reason.
 */
u32 smc_hs_serv_check(const struct smc_conn_setup *cs,
		      const struct smc_clc_accept_info *c)
{
	if (c->version != cs->version)
		return SMC_CLC_DECL_VERSMISMAT;
	if (!cs->first_contact &&
	    (c->qpn != cs->lnk->peer_qpn ||
	     memcmp(c->gid, cs->lnk->peer_gid, SMC_GID_SIZE)))
		return SMC_CLC_DECL_NOSRVLINK;
	if (cs->version != SMC_CLC_V2 || !cs->first_contact)
		return 0;
	if (c->release != cs->release)
		return SMC_CLC_DECL_RELEASEERR;
	if (cs->release >= 1 && c->max_conns != cs->max_conns)
		return SMC_CLC_DECL_MAXCONNERR;
	if (cs->release >= 1 && c->max_links != cs->max_links)
		return SMC_CLC_DECL_MAXLINKERR;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_hs_serv_check);

/* our port's active MTU, which the Accept announces */
static u8 smc_hs_port_mtu(struct smc_lgr_link *lnk)
{
	struct ib_port_attr attr;

	if (ib_query_port(lnk->wr.ibdev, lnk->ibport, &attr))
		return IB_MTU_1024;
	return attr.active_mtu;
}

/* Accept, Confirm and the first link, once a path is picked in @cs */
static int smc_hs_serv_smcr(struct smc_sock *smc, struct smc_conn_setup *cs,
			    u8 *buf)
{
	struct smc_clc_accept_info *a;
	bool peer_declined = false, sync = false;
	int rc;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a) {
		rc = SMC_CLC_DECL_MEM;
		goto fail;
	}
	rc = smc_conn_create(smc, cs);
	if (rc)
		goto fail;
	smc_hs_our_end(smc, cs, SMC_CLC_ACCEPT, smc_hs_port_mtu(cs->lnk), a);
	rc = smc_hs_send_accept(smc, a, buf);
	if (rc)
		goto fail;
	rc = smc_hs_recv_accept(smc, SMC_CLC_CONFIRM, buf, a, &sync);
	if (rc) {
		peer_declined = rc == SMC_CLC_DECL_PEERDECL;
		if (peer_declined && sync)
			rc = SMC_CLC_DECL_SYNCERR;
		goto fail;
	}
	smc_test_hs_serv_delay();
	rc = smc_hs_serv_check(cs, a);
	if (!rc)
		rc = smc_conn_peer_rmb(smc, cs->lnk, a->rmb_vaddr,
				       a->rmb_rkey, a->rmbe_idx, a->rmbe_size,
				       a->rmbe_alert_token);
	if (rc)
		goto fail;
	if (cs->first_contact) {
		/* v2: to the next hop found for the proposal's GID */
		smc_lgr_link_set_peer(cs->lnk, a->qpn, a->psn, a->gid,
				      cs->version == SMC_CLC_V2 ?
				      cs->peer_mac : a->mac, a->qp_mtu);
		rc = smc_hs_confirm_link(smc, cs, buf, &peer_declined, &sync);
		if (rc) {
			if (peer_declined && sync)
				rc = SMC_CLC_DECL_SYNCERR;
			goto fail;
		}
	}
	kfree(a);
	smc_conn_setup_done(smc, cs);
	smc_conn_to_smcr(smc);
	return 0;

fail:
	kfree(a);
	rc = smc_hs_smcr_fail(smc, cs, rc, peer_declined, cs->version);
	/*
	 * A client whose Confirm names another link believes it is done:
	 * it would never read our Decline, so reset it instead of a
	 * fallback it would not take part in.
	 */
	if (rc == SMC_CLC_DECL_NOSRVLINK)
		return -EPROTO;
	/* a peer's Decline is our fallback reason, whatever it said */
	return peer_declined && rc > 0 ? SMC_CLC_DECL_PEERDECL : rc;
}

/**
 * smc_hs_server() - the server's CLC handshake
 * @smc: accepted SMC socket whose peer's SYN carried the SMC option
 *
 * Context: process context (the handshake work), may sleep.
 * Return: 0 for an SMC-R connection, a positive fallback reason, or a
 * negative errno.
 */
int smc_hs_server(struct smc_sock *smc)
{
	struct smc_clc_proposal_info *prop;
	struct smc_conn_setup *cs;
	struct smc_clc_hdr_info info;
	u32 reason;
	u8 *buf;
	int rc;

	buf = kzalloc(SMC_CLC_MAX_LEN, GFP_KERNEL);
	prop = kzalloc(sizeof(*prop), GFP_KERNEL);
	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	if (!buf || !prop || !cs) {
		rc = -ENOMEM;
		goto out;
	}
	rc = smc_clc_recv(smc->clcsock, buf, SMC_CLC_PROPOSAL_MAX,
			  SMC_CLC_PROPOSAL, SMC_CLC_WAIT_TIME, &info);
	if (rc)
		goto out;
	if (info.type == SMC_CLC_DECLINE) {
		const struct smc_clc_decline *d = (void *)buf;

		WRITE_ONCE(smc->peer_diagnosis, be32_to_cpu(d->diagnosis));
		rc = SMC_CLC_DECL_PEERDECL;
		goto out;
	}

	rc = smc_clc_proposal_decode(buf, info.length, prop);
	if (rc)
		goto out;
	if (smc_hs_uses_ipsec(smc))
		reason = SMC_CLC_DECL_IPSEC;
	else
		reason = smc_hs_serv_pick(smc, prop, cs);
	if (!reason) {
		rc = smc_hs_serv_smcr(smc, cs, buf);
		goto out;
	}
	/* the Decline answers in the proposal's version */
	rc = smc_clc_send_decline(smc, reason, info.version);
	if (!rc)
		rc = reason;
out:
	kfree(cs);
	kfree(prop);
	kfree(buf);
	return rc;
}

/**
 * smc_hs_init() - create the handshake workqueue
 *
 * Unbound and without a concurrency limit beyond the default, so that
 * handshakes waiting for their peers do not hold up each other.
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int smc_hs_init(void)
{
	smc_hs_wq = alloc_workqueue("smc_hs", WQ_UNBOUND, 0);
	return smc_hs_wq ? 0 : -ENOMEM;
}

/**
 * smc_hs_exit() - destroy the handshake workqueue
 *
 * Every handshake work holds a socket, and every socket the module, so
 * none is left when the module goes.
 *
 * Context: module exit.
 */
void smc_hs_exit(void)
{
	destroy_workqueue(smc_hs_wq);
}
