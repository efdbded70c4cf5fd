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

/* offsets in a Proposal, smc-protocol.md 3.2 */
#define SMC_PROP_IPAREA_OFF	38	/* BE16, from byte 40 */
#define SMC_PROP_IPAREA_BASE	40
#define SMC_PROP_V2EXT_OFF	50	/* BE16, from byte 52 */
#define SMC_PROP_V2EXT_BASE	52
#define SMC_PROP_PFX_LEN	8	/* subnet, length, 2 reserved, v6 count */
#define SMC_PROP_V6PFX_LEN	17
#define SMC_PROP_V6PFX_MAX	8
#define SMC_V2EXT_EIDS_OFF	40	/* EIDs follow the 40-byte v2 extension */

struct workqueue_struct *smc_hs_wq;

/**
 * smc_hs_local_systemid() - the peer id this system sends in CLC
 * @id: 8 bytes to fill
 *
 * The system id derives from the MAC of a RoCE port; without a usable
 * port there is none, and zeroes are sent, as upstream does.
 *
 * Context: any context.
 */
void smc_hs_local_systemid(u8 *id)
{
	memset(id, 0, 8);
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

static u16 smc_hs_get_be16(const u8 *p)
{
	__be16 v;

	memcpy(&v, p, sizeof(v));
	return be16_to_cpu(v);
}

/* the v2 extension of a validated proposal, or NULL */
static const u8 *smc_hs_prop_v2ext(const u8 *buf,
				   const struct smc_clc_hdr_info *info)
{
	u16 off;

	if (info->version < SMC_CLC_V2 || info->typev2 == SMC_CLC_PATH_N)
		return NULL;
	off = smc_hs_get_be16(buf + SMC_PROP_V2EXT_OFF);
	if (!off)
		return NULL;
	return buf + SMC_PROP_V2EXT_BASE + off;
}

/* one of the proposal's UEIDs is ours */
static bool smc_hs_prop_eid_match(const u8 *ext)
{
	u8 i, cnt = min_t(u8, ext[0], SMC_CLC_MAX_UEID);

	for (i = 0; i < cnt; i++)
		if (smc_ueid_match(ext + SMC_V2EXT_EIDS_OFF +
				   i * SMC_MAX_EID_LEN))
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

static bool smc_hs_pfx6_match(struct net_device *dev, const u8 *pfx, u8 cnt)
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
		for (i = 0; i < cnt && !found; i++) {
			const u8 *p = pfx + i * SMC_PROP_V6PFX_LEN;
			struct in6_addr a;

			memcpy(&a, p, sizeof(a));
			found = ifa->prefix_len == p[16] &&
				ipv6_prefix_equal(&ifa->addr, &a,
						  ifa->prefix_len);
		}
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
static u32 smc_hs_prefix_check(struct smc_sock *smc, const u8 *buf)
{
	const u8 *pfx = buf + SMC_PROP_IPAREA_BASE +
			smc_hs_get_be16(buf + SMC_PROP_IPAREA_OFF);
	struct dst_entry *dst;
	struct net_device *dev;
	bool match = false;
	__be32 subnet;
	u8 cnt;

	memcpy(&subnet, pfx, sizeof(subnet));
	cnt = min_t(u8, pfx[7], SMC_PROP_V6PFX_MAX);
	rcu_read_lock();
	dst = __sk_dst_get(smc->clcsock->sk);
	dev = dst ? dst->dev : NULL;
	if (dev && !cnt)
		match = smc_hs_pfx4_match(dev, subnet, pfx[4]);
	else if (dev)
		match = smc_hs_pfx6_match(dev, pfx + SMC_PROP_PFX_LEN, cnt);
	rcu_read_unlock();
	return match ? 0 : SMC_CLC_DECL_DIFFPREFIX;
}

/*
 * The server's answer to a well-formed proposal, in upstream's order of
 * checks: first whether a v2 path survives its preconditions, then the
 * v1 subnet rule, then the devices.  The first device-level reason found
 * is the one sent.
 */
static u32 smc_hs_serv_select(struct smc_sock *smc, const u8 *buf,
			      const struct smc_clc_hdr_info *info)
{
	bool v1r = smc_hs_path_r(info->typev1), v1d = smc_hs_path_d(info->typev1);
	bool v2 = info->version >= SMC_CLC_V2;
	bool v2r = v2 && smc_hs_path_r(info->typev2);
	bool v2d = v2 && smc_hs_path_d(info->typev2);
	u32 v2rc = SMC_CLC_DECL_PEERNOSMC, prfx = 0, first = 0;
	const u8 *ext = smc_hs_prop_v2ext(buf, info);

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
			if (v2r && !ext[0]) {
				v2r = false;
				v2rc = SMC_CLC_DECL_NOUEID;
			}
		}
	}
	if (!v1r && !v1d && !v2r && !v2d)
		return v2rc;

	if (info->typev1 != SMC_CLC_PATH_N) {
		prfx = smc_hs_prefix_check(smc, buf);
		first = prfx;
	}
	/* SMC-Dv1: no ISM device */
	if (!prfx && v1d && !first)
		first = SMC_CLC_DECL_NOSMCDDEV;
	if (!smc_hs_path_r(info->typev1) && !smc_hs_path_r(info->typev2))
		return first ?: SMC_CLC_DECL_NOSMCDDEV;
	/* SMC-Rv2: with a common UEID, a RoCE port would be searched */
	if (v2r && smc_hs_path_r(info->typev2) && smc_hs_prop_eid_match(ext) &&
	    !first)
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
	struct smc_clc_hdr_info info;
	u32 reason;
	u8 *buf;
	int rc;

	buf = kzalloc(SMC_CLC_PROPOSAL_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
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

	if (smc_hs_uses_ipsec(smc))
		reason = SMC_CLC_DECL_IPSEC;
	else
		reason = smc_hs_serv_select(smc, buf, &info);
	/* the Decline answers in the proposal's version */
	rc = smc_clc_send_decline(smc, reason, info.version);
	if (!rc)
		rc = reason;
out:
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
