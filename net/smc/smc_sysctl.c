// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The net.smc.* sysctls, one set per network namespace, with the names,
 * defaults and ranges the upstream module has.  The values live in our
 * own net_generic() storage; every namespace, the initial one included,
 * gets a private copy of the table template pointing at its storage.
 * The handshake limitation is also switched by generic netlink.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smc.h"

#define SMC_SYSCTL_AUTOCORK_DEFAULT	(64 * 1024)
#define SMC_SYSCTL_BUF_MIN		(16 * 1024)
#define SMC_SYSCTL_BUF_DEFAULT		(64 * 1024)
#define SMC_SYSCTL_TESTLINK_DEFAULT	(30 * HZ)
#define SMC_SYSCTL_LINKS_MIN		1
#define SMC_SYSCTL_LINKS_MAX		2
#define SMC_SYSCTL_CONNS_MIN		16
#define SMC_SYSCTL_CONNS_MAX		255

/**
 * struct smc_sysctl_net - per-namespace sysctl values
 * @autocorking_size: bytes corked before a write is pushed, 0 disables
 * @smcr_buf_type: 0 physically, 1 virtually contiguous, 2 mixed
 * @smcr_testlink_time: TEST_LINK interval in jiffies, 0 disables
 * @wmem: initial send buffer size
 * @rmem: initial receive buffer (RMB) size
 * @max_links_per_lgr: links per link group proposed in SMC-Rv2.1
 * @max_conns_per_lgr: connections per link group proposed in SMC-Rv2.1
 * @limit_smc_hs: new sockets start with SMC_LIMIT_HS set
 * @hdr: the registered table, NULL if registration failed
 * @table: this namespace's copy of the template
 *
 * The values are plain ints read with READ_ONCE(): the sysctl core and
 * the netlink handlers write them without a lock.
 */
struct smc_sysctl_net {
	unsigned int		autocorking_size;
	unsigned int		smcr_buf_type;
	int			smcr_testlink_time;
	int			wmem;
	int			rmem;
	int			max_links_per_lgr;
	int			max_conns_per_lgr;
	int			limit_smc_hs;
	struct ctl_table_header	*hdr;
	struct ctl_table	*table;
};

static unsigned int smc_sysctl_net_id __read_mostly;

static int smc_sysctl_buf_min = SMC_SYSCTL_BUF_MIN;
static int smc_sysctl_buf_max = INT_MAX / 2;
static int smc_sysctl_links_min = SMC_SYSCTL_LINKS_MIN;
static int smc_sysctl_links_max = SMC_SYSCTL_LINKS_MAX;
static int smc_sysctl_conns_min = SMC_SYSCTL_CONNS_MIN;
static int smc_sysctl_conns_max = SMC_SYSCTL_CONNS_MAX;

/* .data holds the offset into struct smc_sysctl_net until copied */
#define SMC_SYSCTL_OFF(field) \
	((void *)offsetof(struct smc_sysctl_net, field))

static const struct ctl_table smc_sysctl_template[] = {
	{
		.procname	= "autocorking_size",
		.data		= SMC_SYSCTL_OFF(autocorking_size),
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
	{
		.procname	= "smcr_buf_type",
		.data		= SMC_SYSCTL_OFF(smcr_buf_type),
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_TWO,
	},
	{
		.procname	= "smcr_testlink_time",
		.data		= SMC_SYSCTL_OFF(smcr_testlink_time),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_jiffies,
	},
	{
		.procname	= "wmem",
		.data		= SMC_SYSCTL_OFF(wmem),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smc_sysctl_buf_min,
		.extra2		= &smc_sysctl_buf_max,
	},
	{
		.procname	= "rmem",
		.data		= SMC_SYSCTL_OFF(rmem),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smc_sysctl_buf_min,
		.extra2		= &smc_sysctl_buf_max,
	},
	{
		.procname	= "smcr_max_links_per_lgr",
		.data		= SMC_SYSCTL_OFF(max_links_per_lgr),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smc_sysctl_links_min,
		.extra2		= &smc_sysctl_links_max,
	},
	{
		.procname	= "smcr_max_conns_per_lgr",
		.data		= SMC_SYSCTL_OFF(max_conns_per_lgr),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &smc_sysctl_conns_min,
		.extra2		= &smc_sysctl_conns_max,
	},
	{
		.procname	= "limit_smc_hs",
		.data		= SMC_SYSCTL_OFF(limit_smc_hs),
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

#define SMC_SYSCTL_N	ARRAY_SIZE(smc_sysctl_template)

/* the values: set up before any socket can exist */
static int __net_init smc_sysctl_net_init(struct net *net)
{
	struct smc_sysctl_net *sn = net_generic(net, smc_sysctl_net_id);

	sn->autocorking_size = SMC_SYSCTL_AUTOCORK_DEFAULT;
	sn->smcr_buf_type = 0;
	sn->smcr_testlink_time = SMC_SYSCTL_TESTLINK_DEFAULT;
	sn->wmem = SMC_SYSCTL_BUF_DEFAULT;
	sn->rmem = SMC_SYSCTL_BUF_DEFAULT;
	sn->max_links_per_lgr = SMC_SYSCTL_LINKS_MAX;
	sn->max_conns_per_lgr = SMC_SYSCTL_CONNS_MAX;
	sn->limit_smc_hs = 0;
	return 0;
}

static struct pernet_operations smc_sysctl_net_ops = {
	.init	= smc_sysctl_net_init,
	.id	= &smc_sysctl_net_id,
	.size	= sizeof(struct smc_sysctl_net),
};

/* the names: registered once AF_SMC is known to be ours */
static int __net_init smc_sysctl_table_init(struct net *net)
{
	struct smc_sysctl_net *sn = net_generic(net, smc_sysctl_net_id);
	unsigned int i;

	/* one more, zeroed, entry: the terminator older kernels need */
	sn->table = kcalloc(SMC_SYSCTL_N + 1, sizeof(*sn->table), GFP_KERNEL);
	if (!sn->table)
		return -ENOMEM;
	memcpy(sn->table, smc_sysctl_template, sizeof(smc_sysctl_template));
	for (i = 0; i < SMC_SYSCTL_N; i++)
		sn->table[i].data = (char *)sn +
				    (uintptr_t)smc_sysctl_template[i].data;

	sn->hdr = smc_compat_register_sysctl(net, "net/smc", sn->table,
					     SMC_SYSCTL_N);
	if (!sn->hdr) {
		kfree(sn->table);
		sn->table = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit smc_sysctl_table_exit(struct net *net)
{
	struct smc_sysctl_net *sn = net_generic(net, smc_sysctl_net_id);

	unregister_net_sysctl_table(sn->hdr);
	kfree(sn->table);
	sn->hdr = NULL;
	sn->table = NULL;
}

static struct pernet_operations smc_sysctl_table_ops = {
	.init	= smc_sysctl_table_init,
	.exit	= smc_sysctl_table_exit,
};

/**
 * smc_sysctl_limit_hs() - the namespace's handshake limitation setting
 * @net: network namespace
 *
 * Context: any context.
 * Return: true if new SMC sockets start with SMC_LIMIT_HS set.
 */
bool smc_sysctl_limit_hs(struct net *net)
{
	struct smc_sysctl_net *sn = net_generic(net, smc_sysctl_net_id);

	return READ_ONCE(sn->limit_smc_hs);
}

/**
 * smc_sysctl_set_limit_hs() - switch the handshake limitation
 * @net: network namespace
 * @on: new value of net.smc.limit_smc_hs
 *
 * Context: any context.
 */
void smc_sysctl_set_limit_hs(struct net *net, bool on)
{
	struct smc_sysctl_net *sn = net_generic(net, smc_sysctl_net_id);

	WRITE_ONCE(sn->limit_smc_hs, on);
}

/**
 * smc_sysctl_testlink_time() - the namespace's TEST_LINK interval
 * @net: network namespace
 *
 * Context: any context.
 * Return: net.smc.smcr_testlink_time in jiffies, 0 if disabled.
 */
int smc_sysctl_testlink_time(struct net *net)
{
	struct smc_sysctl_net *sn = net_generic(net, smc_sysctl_net_id);

	return READ_ONCE(sn->smcr_testlink_time);
}

static struct smc_sysctl_net *smc_sysctl_of(struct net *net)
{
	return net_generic(net, smc_sysctl_net_id);
}

/**
 * smc_sysctl_max_conns() - connections per link group to propose
 * @net: network namespace
 *
 * Context: any context.
 * Return: net.smc.smcr_max_conns_per_lgr.
 */
int smc_sysctl_max_conns(struct net *net)
{
	return READ_ONCE(smc_sysctl_of(net)->max_conns_per_lgr);
}

/**
 * smc_sysctl_max_links() - links per link group to propose
 * @net: network namespace
 *
 * Context: any context.
 * Return: net.smc.smcr_max_links_per_lgr.
 */
int smc_sysctl_max_links(struct net *net)
{
	return READ_ONCE(smc_sysctl_of(net)->max_links_per_lgr);
}

/**
 * smc_sysctl_wmem() - default send buffer size of an SMC-R connection
 * @net: network namespace
 *
 * Context: any context.
 * Return: net.smc.wmem in bytes.
 */
int smc_sysctl_wmem(struct net *net)
{
	return READ_ONCE(smc_sysctl_of(net)->wmem);
}

/**
 * smc_sysctl_rmem() - default RMB size of an SMC-R connection
 * @net: network namespace
 *
 * Context: any context.
 * Return: net.smc.rmem in bytes.
 */
int smc_sysctl_rmem(struct net *net)
{
	return READ_ONCE(smc_sysctl_of(net)->rmem);
}

/**
 * smc_sysctl_autocork() - how much small writes may be held back
 * @net: network namespace
 *
 * Context: any context.
 * Return: net.smc.autocorking_size in bytes, 0 for no autocorking.
 */
unsigned int smc_sysctl_autocork(struct net *net)
{
	return READ_ONCE(smc_sysctl_of(net)->autocorking_size);
}

/**
 * smc_sysctl_init() - set up the per-namespace values, with defaults
 *
 * Must precede socket registration: sockets read limit_smc_hs.
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int smc_sysctl_init(void)
{
	return register_pernet_subsys(&smc_sysctl_net_ops);
}

/**
 * smc_sysctl_exit() - free the per-namespace values
 *
 * Context: module exit, after smc_sysctl_unregister().
 */
void smc_sysctl_exit(void)
{
	unregister_pernet_subsys(&smc_sysctl_net_ops);
}

/**
 * smc_sysctl_register() - show net.smc.* in every namespace
 *
 * Context: module init, after smc_sysctl_init().
 * Return: 0 or a negative errno (-ENOMEM also when another module
 * already owns net.smc).
 */
int smc_sysctl_register(void)
{
	return register_pernet_subsys(&smc_sysctl_table_ops);
}

/**
 * smc_sysctl_unregister() - remove net.smc.* from every namespace
 *
 * Context: module exit.
 */
void smc_sysctl_unregister(void)
{
	unregister_pernet_subsys(&smc_sysctl_table_ops);
}
