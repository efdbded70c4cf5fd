// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Per network namespace statistics.  For now: how often, and why, client
 * and server sockets fell back to TCP.  Storage is net_generic() memory,
 * which an out-of-tree module can own; the netlink/proc export comes with
 * the administration interface.
 */

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smc.h"

/* reasons with their own counter; anything else is counted as "other" */
static const u32 smc_fback_codes[] = {
	SMC_CLC_DECL_MEM,
	SMC_CLC_DECL_TIMEOUT_CL,
	SMC_CLC_DECL_TIMEOUT_AL,
	SMC_CLC_DECL_CNFERR,
	SMC_CLC_DECL_PEERNOSMC,
	SMC_CLC_DECL_IPSEC,
	SMC_CLC_DECL_NOSMCDEV,
	SMC_CLC_DECL_NOSMCDDEV,
	SMC_CLC_DECL_NOSMCRDEV,
	SMC_CLC_DECL_NOISM2SUPP,
	SMC_CLC_DECL_NOV2EXT,
	SMC_CLC_DECL_NOV2DEXT,
	SMC_CLC_DECL_NOSEID,
	SMC_CLC_DECL_NOSMCD2DEV,
	SMC_CLC_DECL_NOUEID,
	SMC_CLC_DECL_RELEASEERR,
	SMC_CLC_DECL_MAXCONNERR,
	SMC_CLC_DECL_MAXLINKERR,
	SMC_CLC_DECL_MODEUNSUPP,
	SMC_CLC_DECL_RMBE_EC,
	SMC_CLC_DECL_OPTUNSUPP,
	SMC_CLC_DECL_DIFFPREFIX,
	SMC_CLC_DECL_GETVLANERR,
	SMC_CLC_DECL_ISMVLANERR,
	SMC_CLC_DECL_NOACTLINK,
	SMC_CLC_DECL_NOSRVLINK,
	SMC_CLC_DECL_VERSMISMAT,
	SMC_CLC_DECL_MAX_DMB,
	SMC_CLC_DECL_NOROUTE,
	SMC_CLC_DECL_NOINDIRECT,
	SMC_CLC_DECL_SYNCERR,
	SMC_CLC_DECL_PEERDECL,
	SMC_CLC_DECL_INTERR,
	SMC_CLC_DECL_ERR_RTOK,
	SMC_CLC_DECL_ERR_RDYLNK,
	SMC_CLC_DECL_ERR_REGBUF,
};

#define SMC_FBACK_SLOTS		(ARRAY_SIZE(smc_fback_codes) + 1)

struct smc_net {
	/* [0] client sockets, [1] server (accepted) sockets */
	atomic_long_t	fback[2][SMC_FBACK_SLOTS];
	/* handshakes that broke without a fallback, client and server */
	atomic_long_t	hs_err[2];
	/* SMC-R connections set up: [client/server][v1/v2] */
	atomic_long_t	smcr_succ[2][2];
	/*
	 * Slot + 1 of each reason in the order of its first fallback, for
	 * the netlink dump, which lists reasons as upstream does: first
	 * seen, first listed.  0 marks a position being filled in.
	 */
	u8		fback_order[2][SMC_FBACK_SLOTS];
	atomic_t	fback_seen[2];
	/* server handshakes running now, for SMC_LIMIT_HS */
	atomic_t	hs_serv;
};

static unsigned int smc_net_id __read_mostly;

static struct pernet_operations smc_net_ops = {
	.id	= &smc_net_id,
	.size	= sizeof(struct smc_net),
};

/**
 * smc_stats_fback_index() - counter slot of a fallback reason
 * @reason: SMC_CLC_DECL_* code, possibly unknown (e.g. from a peer)
 *
 * Context: any context.
 * Return: the slot; unknown codes share the last one.
 */
unsigned int smc_stats_fback_index(u32 reason)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(smc_fback_codes); i++)
		if (smc_fback_codes[i] == reason)
			return i;
	return ARRAY_SIZE(smc_fback_codes);
}

/**
 * smc_stats_fback_inc() - count one fallback to TCP
 * @net: namespace of the socket
 * @server: the socket was accepted rather than connected
 * @reason: SMC_CLC_DECL_* code
 *
 * Context: any context.
 */
void smc_stats_fback_inc(struct net *net, bool server, u32 reason)
{
	struct smc_net *sn = net_generic(net, smc_net_id);
	unsigned int slot = smc_stats_fback_index(reason);
	int pos;

	if (atomic_long_inc_return(&sn->fback[server][slot]) != 1)
		return;
	/* a counter leaves 0 once: positions never run out */
	pos = atomic_inc_return(&sn->fback_seen[server]) - 1;
	if (WARN_ON_ONCE(pos >= SMC_FBACK_SLOTS))
		return;
	/* one byte: readers see 0 (not yet) or the slot, never half */
	WRITE_ONCE(sn->fback_order[server][pos], slot + 1);
}

/**
 * smc_stats_fback_seen() - slot of the n-th reason by first fallback
 * @net: network namespace
 * @server: server (accepted) rather than client sockets
 * @n: position, from 0
 *
 * Context: any context.
 * Return: the slot; -EAGAIN if that reason is just being recorded (skip
 * it, it shows in the next dump); -ENODATA past the last reason.
 */
int smc_stats_fback_seen(struct net *net, bool server, unsigned int n)
{
	struct smc_net *sn = net_generic(net, smc_net_id);
	u8 v;

	if (n >= SMC_FBACK_SLOTS ||
	    n >= (unsigned int)atomic_read(&sn->fback_seen[server]))
		return -ENODATA;
	v = READ_ONCE(sn->fback_order[server][n]);
	return v ? v - 1 : -EAGAIN;
}

/**
 * smc_stats_fback_slots() - number of fallback counter slots
 *
 * Context: any context.
 * Return: the slot count, the catch-all slot for unknown codes included.
 */
unsigned int smc_stats_fback_slots(void)
{
	return SMC_FBACK_SLOTS;
}

/**
 * smc_stats_fback_code() - reason code counted in a slot
 * @slot: 0 .. smc_stats_fback_slots() - 1
 *
 * Context: any context.
 * Return: the SMC_CLC_DECL_* code, 0 for the catch-all slot.
 */
u32 smc_stats_fback_code(unsigned int slot)
{
	return slot < ARRAY_SIZE(smc_fback_codes) ? smc_fback_codes[slot] : 0;
}

/**
 * smc_stats_fback_read() - read one fallback counter
 * @net: network namespace
 * @server: server (accepted) rather than client sockets
 * @slot: 0 .. smc_stats_fback_slots() - 1
 *
 * Context: any context.
 * Return: the count.
 */
unsigned long smc_stats_fback_read(struct net *net, bool server,
				   unsigned int slot)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	if (slot >= SMC_FBACK_SLOTS)
		return 0;
	return atomic_long_read(&sn->fback[server][slot]);
}

/**
 * smc_stats_hs_err_inc() - count a handshake that failed hard
 * @net: network namespace
 * @server: server (accepted) rather than client socket
 *
 * Context: any context.
 */
void smc_stats_hs_err_inc(struct net *net, bool server)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	atomic_long_inc(&sn->hs_err[server]);
}

/**
 * smc_stats_hs_err_read() - read a handshake error counter
 * @net: network namespace
 * @server: server (accepted) rather than client sockets
 *
 * Context: any context.
 * Return: the count.
 */
unsigned long smc_stats_hs_err_read(struct net *net, bool server)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	return atomic_long_read(&sn->hs_err[server]);
}

/**
 * smc_stats_smcr_inc() - count an SMC-R connection the handshake set up
 * @net: network namespace
 * @server: server (accepted) rather than client socket
 * @version: SMC_CLC_V1 or SMC_CLC_V2
 *
 * Context: any context.
 */
void smc_stats_smcr_inc(struct net *net, bool server, u8 version)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	atomic_long_inc(&sn->smcr_succ[server][version >= SMC_CLC_V2]);
}

/**
 * smc_stats_smcr_read() - read an SMC-R success counter
 * @net: network namespace
 * @server: server (accepted) rather than client sockets
 * @version: SMC_CLC_V1 or SMC_CLC_V2
 *
 * Context: any context.
 * Return: the count.
 */
unsigned long smc_stats_smcr_read(struct net *net, bool server, u8 version)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	return atomic_long_read(&sn->smcr_succ[server][version >= SMC_CLC_V2]);
}

/**
 * smc_stats_hs_serv_add() - a server handshake started (1) or ended (-1)
 * @net: namespace of the listener
 * @delta: 1 or -1
 *
 * Context: any context.
 */
void smc_stats_hs_serv_add(struct net *net, int delta)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	atomic_add(delta, &sn->hs_serv);
}

/**
 * smc_stats_hs_serv_read() - server handshakes running in a namespace
 * @net: network namespace
 *
 * Context: any context.
 * Return: the count.
 */
int smc_stats_hs_serv_read(const struct net *net)
{
	struct smc_net *sn = net_generic(net, smc_net_id);

	return atomic_read(&sn->hs_serv);
}

/**
 * smc_stats_init() - set up the per-namespace statistics
 *
 * Must precede socket registration: every socket's netns needs storage.
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int smc_stats_init(void)
{
	return register_pernet_subsys(&smc_net_ops);
}

/**
 * smc_stats_exit() - free the per-namespace statistics
 *
 * Context: module exit, after the last socket is gone.
 */
void smc_stats_exit(void)
{
	unregister_pernet_subsys(&smc_net_ops);
}
