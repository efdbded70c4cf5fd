// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Module entry: registers the AF_SMC address family.
 */

#define pr_fmt(fmt) "smc: " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/printk.h>
#include <linux/smc.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smc.h"
#include "smc_conn.h"
#include "smc_data.h"
#include "smc_ib.h"
#include "smc_lgr.h"

static const struct net_proto_family smc_family_ops = {
	.family	= PF_SMC,
	.owner	= THIS_MODULE,
	.create	= smc_sock_create,
};

static int __init smc_init(void)
{
	int rc;

	/* statistics storage must exist before the first socket */
	rc = smc_stats_init();
	if (rc)
		return rc;
	rc = smc_sysctl_init();
	if (rc)
		goto out_stats;
	rc = smc_hs_init();
	if (rc)
		goto out_sysctl;
	rc = smc_conn_init();
	if (rc)
		goto out_hs_wq;
	rc = smc_close_wq_init();
	if (rc)
		goto out_conn;
	rc = smc_tx_wq_init();
	if (rc)
		goto out_close_wq;
	/* TCP adds the SMC option to SYNs of sockets that ask for it */
	static_branch_inc(&tcp_have_smc);

	rc = proto_register(&smc_proto, 1);
	if (rc)
		goto out_hs;
	rc = proto_register(&smc_proto6, 1);
	if (rc)
		goto out_proto;

	rc = sock_register(&smc_family_ops);
	if (rc == -EEXIST) {
		pr_err("address family %d (AF_SMC) is already registered by another module, probably the distribution's smc.ko; unload it (rmmod smc_diag smc) before loading this one\n",
		       PF_SMC);
		goto out_proto6;
	}
	if (rc)
		goto out_proto6;

	/*
	 * Names others may hold (net.smc.*, the genl families) only once
	 * AF_SMC is ours, so that a foreign smc module is reported above.
	 */
	rc = smc_sysctl_register();
	if (rc)
		goto out_sock;
	rc = smc_pnet_init();
	if (rc)
		goto out_sysctl_reg;
	rc = smc_ib_init();
	if (rc)
		goto out_pnet;
	rc = smc_lgr_init();
	if (rc)
		goto out_ib;
	rc = smc_netlink_init();
	if (rc)
		goto out_lgr;
	/* last: IPPROTO_SMC sockets may be created from here on */
	rc = smc_inet_init();
	if (rc)
		goto out_netlink;

	smc_debugfs_init();
	return 0;

out_netlink:
	smc_netlink_exit();
out_lgr:
	smc_lgr_exit();
out_ib:
	smc_ib_exit();
out_pnet:
	smc_pnet_exit();
out_sysctl_reg:
	smc_sysctl_unregister();
out_sock:
	sock_unregister(PF_SMC);
out_proto6:
	proto_unregister(&smc_proto6);
out_proto:
	proto_unregister(&smc_proto);
out_hs:
	static_branch_dec(&tcp_have_smc);
	smc_tx_wq_exit();
out_close_wq:
	smc_close_wq_exit();
out_conn:
	smc_conn_exit();
out_hs_wq:
	smc_hs_exit();
out_sysctl:
	smc_sysctl_exit();
out_stats:
	smc_stats_exit();
	return rc;
}

static void __exit smc_exit(void)
{
	smc_debugfs_exit();
	/* no new sockets; module references keep us until the last is gone */
	smc_inet_exit();
	smc_netlink_exit();
	smc_lgr_exit();
	smc_ib_exit();
	smc_pnet_exit();
	smc_sysctl_unregister();
	sock_unregister(PF_SMC);
	proto_unregister(&smc_proto6);
	proto_unregister(&smc_proto);
	static_branch_dec(&tcp_have_smc);
	smc_tx_wq_exit();
	smc_close_wq_exit();
	smc_conn_exit();
	smc_hs_exit();
	smc_sysctl_exit();
	smc_stats_exit();
}

module_init(smc_init);
module_exit(smc_exit);

MODULE_DESCRIPTION("SMC-R: Shared Memory Communications over RDMA (RFC 7609)");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMC_MODULE_VERSION);
MODULE_ALIAS_NETPROTO(PF_SMC);
/* as upstream: a request for this family loads smc.ko */
MODULE_ALIAS_GENL_FAMILY(SMC_GENL_FAMILY_NAME);
