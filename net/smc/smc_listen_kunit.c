// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * KUnit suite for SMC_LIMIT_HS's congestion test at SYN time
 * (smc_listen_hs_congested()): children that TCP still holds for a
 * listener count as handshakes under way, because each of them becomes
 * one.  A plain TCP listener and clients on loopback; no device needed.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "smc.h"

struct lht_ctx {
	struct socket *lsock;
	struct socket **clients;
	int nclients;
	struct sockaddr_in addr;
};

/*
 * Loopback is up wherever userspace runs; where it does not (a kernel
 * that kunit.py boots runs its suites before any init), raise it.
 */
static int lht_loopback_up(void)
{
	struct net_device *lo = init_net.loopback_dev;
	int rc = 0;

	rtnl_lock();
	if (!(lo->flags & IFF_UP))
		rc = dev_change_flags(lo, lo->flags | IFF_UP, NULL);
	rtnl_unlock();
	return rc;
}

static int lht_init(struct kunit *test)
{
	struct lht_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	int max = SMC_HS_CONGESTED * num_online_cpus() + 1;
	int rc;

	if (!x)
		return -ENOMEM;
	rc = lht_loopback_up();
	if (rc)
		return rc;
	x->clients = kunit_kcalloc(test, max, sizeof(*x->clients), GFP_KERNEL);
	if (!x->clients)
		return -ENOMEM;
	test->priv = x;
	rc = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			      &x->lsock);
	if (rc)
		return rc;
	x->addr.sin_family = AF_INET;
	x->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = kernel_bind(x->lsock, (struct sockaddr *)&x->addr,
			 sizeof(x->addr));
	if (!rc)
		rc = kernel_listen(x->lsock, max + 8);
	if (!rc)
		rc = kernel_getsockname(x->lsock, (struct sockaddr *)&x->addr);
	return rc < 0 ? rc : 0;
}

static void lht_exit(struct kunit *test)
{
	struct lht_ctx *x = test->priv;

	if (!x)
		return;
	while (x->nclients)
		sock_release(x->clients[--x->nclients]);
	if (x->lsock)
		sock_release(x->lsock);
}

/* one more client whose child stays on the listener's TCP queues */
static void lht_connect(struct kunit *test, struct lht_ctx *x)
{
	struct socket *c;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, PF_INET, SOCK_STREAM,
					       IPPROTO_TCP, &c), 0);
	x->clients[x->nclients++] = c;
	KUNIT_ASSERT_EQ(test, kernel_connect(c, (struct sockaddr *)&x->addr,
					     sizeof(x->addr), 0), 0);
}

/*
 * A burst of clients that no handshake has taken yet: below the limit
 * SYNs keep the SMC option, past it they lose it.  One client more than
 * the limit, because a child moving from the half-open queue to the
 * accept queue is briefly in neither.
 */
static void smc_listen_hs_congested_burst(struct kunit *test)
{
	int limit = SMC_HS_CONGESTED * num_online_cpus();
	struct lht_ctx *x = test->priv;
	struct sock *lsk = x->lsock->sk;

	KUNIT_EXPECT_FALSE(test, smc_listen_hs_congested(lsk));
	while (x->nclients < limit - 1)
		lht_connect(test, x);
	KUNIT_EXPECT_FALSE_MSG(test, smc_listen_hs_congested(lsk),
			       "%d children pending, limit %d", x->nclients,
			       limit);
	lht_connect(test, x);
	lht_connect(test, x);
	KUNIT_EXPECT_TRUE_MSG(test, smc_listen_hs_congested(lsk),
			      "%d children pending, limit %d", x->nclients,
			      limit);
}

static struct kunit_case smc_listen_hs_cases[] = {
	KUNIT_CASE(smc_listen_hs_congested_burst),
	{}
};

static struct kunit_suite smc_listen_hs_suite = {
	.name = "smc_listen_hs",
	.init = lht_init,
	.exit = lht_exit,
	.test_cases = smc_listen_hs_cases,
};

kunit_test_suites(&smc_listen_hs_suite);
