// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The SMC-R connection of a socket, from the CLC handshake's decision to
 * the end of the close protocol: it joins a link group (a reused one, or
 * a new one with its first link), gets a send buffer and an RMB from the
 * group, learns where the peer's RMBE is, and finally leaves the group
 * and gives the buffers back.
 *
 * The handshake runs smc_conn_create(), smc_conn_peer_rmb() and then
 * either smc_conn_setup_done() with smc_conn_to_smcr(), or
 * smc_conn_setup_abort() before it falls back to TCP.  The close
 * protocol ends with smc_conn_free().
 */

#include <linux/etherdevice.h>
#include <linux/utsname.h>
#include <net/neighbour.h>
#include <net/netevent.h>
#include <net/route.h>
#include <net/sock.h>

#include "smc_bufsize.h"
#include "smc_cdc_wire.h"
#include "smc_conn.h"
#include "smc_data.h"

/* the send buffer or RMB size a new connection asks for */
static unsigned int smc_conn_bufsize(struct smc_sock *smc, bool rmb)
{
	struct sock *sk = &smc->sk;
	struct net *net = sock_net(sk);
	u8 comp;

	/* SO_SNDBUF/SO_RCVBUF as with TCP, else net.smc.wmem/rmem */
	if (rmb)
		return sk->sk_userlocks & SOCK_RCVBUF_LOCK ?
		       smc_bufsize_select(READ_ONCE(sk->sk_rcvbuf), &comp) :
		       smc_bufsize_round(smc_sysctl_rmem(net), &comp);
	return sk->sk_userlocks & SOCK_SNDBUF_LOCK ?
	       smc_bufsize_select(READ_ONCE(sk->sk_sndbuf), &comp) :
	       smc_bufsize_round(smc_sysctl_wmem(net), &comp);
}

/*
 * A new group with what CLC negotiated, and its first link in INIT; a
 * server's group comes from smc_lgr_create_unique() as @lgr.
 */
static u32 smc_conn_new_lgr(struct smc_sock *smc, struct smc_conn_setup *cs,
			    struct smc_link_group *lgr)
{
	if (!lgr)
		lgr = smc_lgr_create(sock_net(&smc->sk), cs->role, cs->version,
				     cs->peer_systemid, cs->vlan_id);
	if (!lgr)
		return SMC_CLC_DECL_MEM;
	lgr->release = cs->release;
	lgr->max_conns = cs->max_conns;
	lgr->max_links = cs->max_links;
	lgr->v2_direct = cs->v2_direct;
	/* where a second link may go: upstream's rule (smc_ib_select_alt()) */
	lgr->saddr = cs->saddr;
	strscpy(lgr->pnetid, cs->sel.pnetid, sizeof(lgr->pnetid));
	lgr->peer_os = cs->peer_os;
	memcpy(lgr->peer_hostname, cs->peer_hostname,
	       sizeof(lgr->peer_hostname));
	memcpy(lgr->negotiated_eid, cs->eid, sizeof(lgr->negotiated_eid));
	cs->lgr = lgr;
	if (cs->role == SMC_SERV) {
		/*
		 * The peer's GID (and v1 MAC) is known from the Proposal:
		 * with it, handshakes racing this one to the same peer see
		 * the group as pending and wait for it (smc_lgr_find_wait())
		 * instead of each creating a group of its own.  Set before
		 * the link leaves UNUSED, so that there is no moment the
		 * group looks like neither new nor this peer's.  The
		 * Confirm sets them again with the rest of the peer's end.
		 */
		spin_lock_bh(&lgr->lock);
		memcpy(lgr->lnk[0].peer_gid, cs->peer_gid, SMC_GID_SIZE);
		ether_addr_copy(lgr->lnk[0].peer_mac, cs->peer_mac);
		spin_unlock_bh(&lgr->lock);
	}
	if (smc_lgr_link_init(lgr, 0, &cs->sel))
		return SMC_CLC_DECL_INTERR;
	cs->lnk = &lgr->lnk[0];
	return 0;
}

static void smc_conn_put_bufs(struct smc_connection *conn,
			      struct smc_link_group *lgr)
{
	if (conn->sndbuf_desc)
		smc_buf_put(lgr, conn->sndbuf_desc);
	if (conn->rmb_desc) {
		/* we aborted: the peer's WRITEs may still be on their way */
		if (conn->local_tx_ctrl.conn_flags & SMC_CDC_CONN_ABORT)
			smc_buf_quarantine(conn->rmb_desc);
		smc_buf_put(lgr, conn->rmb_desc);
	}
	conn->sndbuf_desc = NULL;
	conn->rmb_desc = NULL;
}

/*
 * @conn leaves @lgr, then its buffers go back to the group: a CDC receive
 * handler (softirq) that found the connection before it left may still
 * use them, so that is waited for first.
 */
static void smc_conn_leave(struct smc_connection *conn,
			   struct smc_link_group *lgr)
{
	/* leaving may drop every reference to the group but this one */
	smc_lgr_get(lgr);
	if (conn->lgr) {
		smc_lgr_conn_unregister(conn);
		synchronize_rcu();
	}
	smc_conn_put_bufs(conn, lgr);
	smc_lgr_put(lgr);
}

/**
 * smc_conn_create() - join or create the link group, get the buffers
 * @smc: SMC socket in its CLC handshake
 * @cs: what CLC negotiated; the server learns here whether this is a
 *	first contact, the client has it from the Accept
 *
 * The server reuses a group as protocol reference 7.1 allows, waiting
 * out a first contact to the same peer in progress; the client takes
 * the group the Accept names or, with first contact, a new one.  On a
 * reused group a new RMB is announced with CONFIRM_RKEY here, before the
 * Accept or Confirm leaves.  The connection is registered in the group
 * and has its alert token; the peer's RMB follows with
 * smc_conn_peer_rmb().
 *
 * Context: process context (the handshake work), may sleep.
 * Return: 0, or the SMC_CLC_DECL_* reason to decline with; either way
 * the caller ends with smc_conn_setup_done() or smc_conn_setup_abort().
 */
u32 smc_conn_create(struct smc_sock *smc, struct smc_conn_setup *cs)
{
	struct smc_connection *conn = &smc->conn;
	struct smc_lgr_match m = {
		.role = cs->role,
		.peer_systemid = cs->peer_systemid,
		.peer_gid = cs->peer_gid,
		.peer_mac = cs->peer_mac,
		.peer_qpn = cs->peer_qpn,
		.vlan_id = cs->vlan_id,
		.smc_version = cs->version,
	};
	struct net *net = sock_net(&smc->sk);
	int tries = SMC_CONN_PER_LGR_MAX;
	u32 reason;
	int rc;

again:
	memset(conn, 0, sizeof(*conn));
	RB_CLEAR_NODE(&conn->node);
	cs->lgr = NULL;
	cs->lnk = NULL;
	if (cs->role == SMC_SERV) {
		cs->lgr = smc_lgr_find_wait(net, &m, &cs->lnk);
		cs->first_contact = !cs->lgr;
	} else if (!cs->first_contact) {
		/* our side of the server's group may still be confirming */
		cs->lgr = smc_lgr_find_wait(net, &m, &cs->lnk);
		/* the server knows a group we do not: out of sync */
		if (!cs->lgr)
			return SMC_CLC_DECL_SYNCERR;
	}
	if (cs->first_contact) {
		struct smc_link_group *lgr = NULL;

		if (cs->role == SMC_SERV) {
			lgr = smc_lgr_create_unique(net, &m);
			/* a group for this peer appeared meanwhile */
			if (PTR_ERR_OR_ZERO(lgr) == -EAGAIN && --tries)
				goto again;
			if (IS_ERR(lgr))
				return SMC_CLC_DECL_MEM;
		}
		reason = smc_conn_new_lgr(smc, cs, lgr);
		if (reason)
			return reason;
	}

	conn->lnk = cs->lnk;
	conn->sndbuf_desc = smc_buf_get(cs->lgr, false,
					smc_conn_bufsize(smc, false));
	conn->rmb_desc = smc_buf_get(cs->lgr, true,
				     smc_conn_bufsize(smc, true));
	if (!conn->sndbuf_desc || !conn->rmb_desc)
		return SMC_CLC_DECL_MEM;
	/* the peer's RMBE is not known yet; smc_conn_peer_rmb() sets it */
	smc_cdc_conn_init(conn, &smc_sock_conn_ops);
	conn->tx_autocork_size = smc_sysctl_autocork(net);
	rc = smc_lgr_conn_register(cs->lgr, conn);
	if (rc == -ENOSPC && cs->role == SMC_SERV && !cs->first_contact &&
	    --tries) {
		/*
		 * Handshakes racing this one took the group's last places
		 * since it was found to have room: look again, which finds
		 * or starts another group.
		 */
		smc_conn_put_bufs(conn, cs->lgr);
		smc_lgr_put(cs->lgr);
		goto again;
	}
	if (rc)
		return cs->first_contact ? SMC_CLC_DECL_INTERR :
					   SMC_CLC_DECL_NOACTLINK;

	if (!cs->first_contact && !conn->rmb_desc->confirmed &&
	    smc_llc_confirm_rkey(conn->lnk, conn->rmb_desc))
		return SMC_CLC_DECL_ERR_REGBUF;
	return 0;
}

/**
 * smc_conn_peer_rmb() - where this connection writes: the peer's RMBE
 * @smc: SMC socket in its CLC handshake, after smc_conn_create()
 * @lnk: the link the Accept or Confirm named (a failover may have moved
 *	the connection off it since)
 * @vaddr: the peer's RMB address, from its Accept or Confirm
 * @rkey: its rkey on @lnk
 * @rmbe_idx: the RMBE index in the RMB, 1-based
 * @rmbe_size: the compressed RMBE size
 * @peer_token: the peer's alert token for this connection
 *
 * Context: process context (the handshake work).
 * Return: 0, or the SMC_CLC_DECL_* reason to decline with.
 */
u32 smc_conn_peer_rmb(struct smc_sock *smc, struct smc_lgr_link *lnk,
		      u64 vaddr, u32 rkey, u8 rmbe_idx, u8 rmbe_size,
		      u32 peer_token)
{
	struct smc_connection *conn = &smc->conn;
	unsigned int size = smc_clc_bufsize_decompress(rmbe_size);
	int idx;

	if (!rmbe_idx || !peer_token || !size)
		return SMC_CLC_DECL_INTERR;
	idx = smc_rtoken_add(conn->lgr, lnk->idx, vaddr, rkey);
	if (idx < 0)
		return SMC_CLC_DECL_ERR_RTOK;
	conn->rtoken_idx = idx;
	conn->peer_rmbe_idx = rmbe_idx;
	atomic_set(&conn->peer_rmbe_space, size);
	/* CDCs that came before are checked against it from now on */
	WRITE_ONCE(conn->peer_rmbe_size, size);
	conn->peer_token = peer_token;
	return 0;
}

/* give the connection's link-group resources back; no CDC moves now */
static void smc_conn_release(struct smc_connection *conn)
{
	if (conn->ops)
		smc_cdc_conn_stop(conn);
	smc_switch_conn_uncount(conn);
}

/**
 * smc_conn_setup_abort() - the handshake gives up on SMC-R
 * @smc: SMC socket in its CLC handshake
 * @cs: its setup, as smc_conn_create() left it
 * @reason: the SMC_CLC_DECL_* code the connection falls back with
 *
 * The connection leaves the group.  A group created for it goes, unless
 * its link was confirmed and connections that raced this one use it
 * already; a reused group goes only when the peer said it is out of
 * sync with it.
 *
 * Context: process context (the handshake work), may sleep.
 */
void smc_conn_setup_abort(struct smc_sock *smc, struct smc_conn_setup *cs,
			  u32 reason)
{
	struct smc_connection *conn = &smc->conn;
	struct smc_link_group *lgr = cs->lgr;

	smc_conn_release(conn);
	if (lgr) {
		/* on a reused group the peer may hold our RMB's rkey already */
		if (!cs->first_contact && conn->rmb_desc)
			smc_buf_quarantine(conn->rmb_desc);
		smc_conn_leave(conn, lgr);
		if (cs->first_contact && !smc_lgr_in_use(lgr)) {
			smc_lgr_terminate(lgr, 0);
		} else if (reason == SMC_CLC_DECL_SYNCERR) {
			lgr->sync_err = true;
			smc_lgr_terminate(lgr, SMC_LLC_DEL_PROG_INIT_TERM);
		}
		smc_lgr_put(lgr);
	}
	conn->ops = NULL;
	cs->lgr = NULL;
	cs->lnk = NULL;
	if (cs->sel.dev)
		smc_ib_put(cs->sel.dev);
	cs->sel.dev = NULL;
}

/**
 * smc_conn_setup_done() - the handshake set up the connection
 * @smc: SMC socket whose connection is registered and linked to its peer
 * @cs: its setup; the handshake's references are dropped
 *
 * The connection's own references (in the group) stay until
 * smc_conn_free().  After a first contact the RMB counts as announced.
 *
 * Context: process context (the handshake work).
 */
void smc_conn_setup_done(struct smc_sock *smc, struct smc_conn_setup *cs)
{
	if (cs->first_contact)
		smc->conn.rmb_desc->confirmed = true;
	smc_lgr_put(cs->lgr);
	cs->lgr = NULL;
	smc_ib_put(cs->sel.dev);
	cs->sel.dev = NULL;
}

/**
 * smc_conn_to_smcr() - the socket's data goes over SMC-R from now on
 * @smc: SMC socket whose handshake set up @smc->conn
 *
 * The one decision point for SMC-R, as smc_clcsock_fallback() is for
 * TCP; the first decision taken stands.
 *
 * Context: any context.
 */
void smc_conn_to_smcr(struct smc_sock *smc)
{
	if (test_and_set_bit(SMC_SOCK_MODE_DECIDED, &smc->flags))
		return;
	set_bit(SMC_SOCK_SMCR, &smc->flags);
	WRITE_ONCE(smc->mode, SMC_DIAG_MODE_SMCR);
	smc_stats_smcr_inc(sock_net(&smc->sk),
			   test_bit(SMC_SOCK_ACCEPTED, &smc->flags),
			   smc->conn.lgr ? smc->conn.lgr->smc_version : 0);
}

/**
 * smc_conn_free() - the connection leaves its link group
 * @smc: SMC socket whose close protocol ended (or which aborted)
 *
 * Nothing is sent for the connection any more; CDCs still in flight
 * complete and drop their socket references.  The buffers go back to
 * the group for reuse, and the last connection leaving starts the
 * group's idle timer.  Only the first call acts.
 *
 * Context: process context, may sleep; the SMC sock lock may be held.
 */
void smc_conn_free(struct smc_sock *smc)
{
	struct smc_connection *conn = &smc->conn;
	struct smc_link_group *lgr = conn->lgr;

	if (!smc_uses_smcr(smc) ||
	    test_and_set_bit(SMC_SOCK_CONN_DONE, &smc->flags))
		return;
	smc_conn_release(conn);
	if (!lgr)
		return;
	smc_conn_leave(conn, lgr);
}

/*
 * A server may not have talked to the address in the client's GID yet
 * (its TCP connection may come from another address, as from a network
 * namespace behind this subnet): smc_conn_route() then asks for it, as
 * TCP's first packet would, and waits this long for the answer.
 */
#define SMC_CONN_NEIGH_WAIT	HZ

/* woken by every neighbour update while a handshake waits for one */
static DECLARE_WAIT_QUEUE_HEAD(smc_conn_neigh_wq);

static int smc_conn_netevent(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	if (event == NETEVENT_NEIGH_UPDATE && wq_has_sleeper(&smc_conn_neigh_wq))
		wake_up_all(&smc_conn_neigh_wq);
	return NOTIFY_DONE;
}

static struct notifier_block smc_conn_netevent_nb = {
	.notifier_call = smc_conn_netevent,
};

/* resolution ended, one way or the other */
static bool smc_conn_neigh_done(struct neighbour *neigh)
{
	return READ_ONCE(neigh->nud_state) & (NUD_VALID | NUD_FAILED) ||
	       READ_ONCE(neigh->dead);
}

/* the neighbour's MAC into @mac if it has one: 0, else -ENOENT */
static int smc_conn_neigh_mac(struct neighbour *neigh, u8 *mac)
{
	int rc = -ENOENT;

	read_lock_bh(&neigh->lock);
	if (neigh->nud_state & NUD_VALID) {
		ether_addr_copy(mac, neigh->ha);
		rc = 0;
	}
	read_unlock_bh(&neigh->lock);
	return rc;
}

/**
 * smc_conn_route() - how an SMC-Rv2 peer is reached over IPv4
 * @net: network namespace
 * @saddr: our address (the TCP connection's)
 * @daddr: the peer's address, from its RoCEv2 GID
 * @mac: set to the next hop's MAC: the peer's, or the gateway's
 * @uses_gateway: set when a gateway is in between
 *
 * A next hop with no resolved neighbour entry is resolved (ARP), for
 * SMC_CONN_NEIGH_WAIT at most.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOENT when there is no route or the next hop's MAC
 * cannot be resolved.
 */
int smc_conn_route(struct net *net, __be32 saddr, __be32 daddr, u8 *mac,
		   bool *uses_gateway)
{
	struct flowi4 fl4 = { .saddr = saddr, .daddr = daddr };
	struct neighbour *neigh;
	struct rtable *rt;
	int rc = -ENOENT;

	might_sleep();
	rt = ip_route_output_flow(net, &fl4, NULL);
	if (IS_ERR(rt))
		return -ENOENT;
	if (rt->rt_uses_gateway && rt->rt_gw_family != AF_INET)
		goto out;
	neigh = dst_neigh_lookup(&rt->dst, &fl4.daddr);
	if (!neigh)
		goto out;
	rc = smc_conn_neigh_mac(neigh, mac);
	if (rc && !neigh_event_send(neigh, NULL))
		rc = smc_conn_neigh_mac(neigh, mac);
	if (rc) {
		wait_event_timeout(smc_conn_neigh_wq, smc_conn_neigh_done(neigh),
				   SMC_CONN_NEIGH_WAIT);
		rc = smc_conn_neigh_mac(neigh, mac);
	}
	if (!rc)
		*uses_gateway = rt->rt_uses_gateway;
	neigh_release(neigh);
out:
	ip_rt_put(rt);
	return rc;
}

/**
 * smc_conn_init() - follow neighbour updates for smc_conn_route()
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int smc_conn_init(void)
{
	return register_netevent_notifier(&smc_conn_netevent_nb);
}

/**
 * smc_conn_exit() - stop following neighbour updates
 *
 * Context: module exit; no handshake is left.
 */
void smc_conn_exit(void)
{
	unregister_netevent_notifier(&smc_conn_netevent_nb);
}

/**
 * smc_conn_hostname() - this host's name as the CLC FCE carries it
 * @name: SMC_CLC_HOSTNAME_LEN bytes, filled blank-padded
 *
 * Context: process context.
 */
void smc_conn_hostname(u8 *name)
{
	const char *n = utsname()->nodename;
	size_t len = strnlen(n, SMC_CLC_HOSTNAME_LEN);

	memset(name, ' ', SMC_CLC_HOSTNAME_LEN);
	memcpy(name, n, len);
}
