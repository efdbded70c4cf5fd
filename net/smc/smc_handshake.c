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
 * SMC-R paths are offered and accepted only where a RoCE port serves the
 * connection and the link layer can use it.  The link layer is not built
 * yet, so no port qualifies: the client declines with NOSMCDEV instead of
 * proposing, and the server declines a proposal with the code an upstream
 * server without a usable device sends.  Both match what upstream peers
 * do on hosts without RoCE, so either end may be upstream.
 */

#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <linux/smc.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "smc.h"
#include "smc_ib.h"

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

/**
 * smc_hs_client() - the client's CLC handshake
 * @smc: client SMC socket whose TCP handshake carried the SMC option
 *
 * Context: process context (the handshake work), may sleep.
 * Return: a positive fallback reason, or a negative errno.
 */
int smc_hs_client(struct smc_sock *smc)
{
	u32 reason;
	int rc;

	if (smc_hs_uses_ipsec(smc))
		reason = SMC_CLC_DECL_IPSEC;
	else
		reason = SMC_CLC_DECL_NOSMCDEV;	/* see the file comment */

	/* without ISMv2 an upstream client declines in the v1 format */
	rc = smc_clc_send_decline(smc, reason, SMC_CLC_V1);
	return rc ? rc : reason;
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

/**
 * smc_hs_server() - the server's CLC handshake
 * @smc: accepted SMC socket whose peer's SYN carried the SMC option
 *
 * Context: process context (the handshake work), may sleep.
 * Return: a positive fallback reason, or a negative errno.
 */
int smc_hs_server(struct smc_sock *smc)
{
	struct smc_clc_proposal_info *prop;
	struct smc_clc_hdr_info info;
	u32 reason;
	u8 *buf;
	int rc;

	buf = kzalloc(SMC_CLC_PROPOSAL_MAX, GFP_KERNEL);
	prop = kzalloc(sizeof(*prop), GFP_KERNEL);
	if (!buf || !prop) {
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
		reason = smc_hs_serv_select(smc, prop);
	/* the Decline answers in the proposal's version */
	rc = smc_clc_send_decline(smc, reason, info.version);
	if (!rc)
		rc = reason;
out:
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
