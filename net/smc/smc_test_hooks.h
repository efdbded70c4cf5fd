/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Test hooks and fault switches (smc_test_hooks.c, smc_clc_inject.c,
 * smc_wire_fuzz.c).
 * They exist only in a test build (CONFIG_SMC_TEST_HOOKS): the module a
 * user installs has none, and there the switches read as constant off.
 */
#ifndef _NET_SMC_TEST_HOOKS_H
#define _NET_SMC_TEST_HOOKS_H

#include <linux/compiler.h>
#include <linux/kconfig.h>
#include <linux/minmax.h>
#include <linux/types.h>

struct dentry;

/* switches, off unless a test turns them on through debugfs */
extern bool smc_cdc_seqno_host_order;
extern bool smc_ib_v1_on_rocev2;
extern bool smc_wr_rx_stall;
extern bool smc_rx_urg_no_force;
extern u8 smc_wr_qp_timeout;

#if IS_ENABLED(CONFIG_SMC_TEST_HOOKS)
void smc_test_hooks_init(struct dentry *root);
void smc_test_hooks_exit(void);
void smc_test_hs_serv_delay(void);
bool smc_test_cdc_nomem(void);
bool smc_test_confirm_foreign_qpn(void);
u8 *smc_clc_inject_take(size_t *len);
void smc_clc_inject_init(struct dentry *root);
void smc_clc_inject_exit(void);
void smc_wire_fuzz_init(struct dentry *root);
#else
static inline void smc_test_hooks_init(struct dentry *root)
{
}

static inline void smc_test_hooks_exit(void)
{
}

static inline void smc_test_hs_serv_delay(void)
{
}

static inline bool smc_test_cdc_nomem(void)
{
	return false;
}

static inline bool smc_test_confirm_foreign_qpn(void)
{
	return false;
}

static inline u8 *smc_clc_inject_take(size_t *len)
{
	return NULL;
}
#endif

/**
 * smc_test_cdc_host_order() - send and read CDC sequence numbers in host
 *	byte order (a deliberate endian bug for the cross-endian tests)?
 *
 * Context: any.
 * Return: the switch; false in a production build.
 */
static inline bool smc_test_cdc_host_order(void)
{
	return IS_ENABLED(CONFIG_SMC_TEST_HOOKS) &&
	       unlikely(READ_ONCE(smc_cdc_seqno_host_order));
}

/**
 * smc_test_v1_on_rocev2() - may SMC-Rv1 take an IPv4-mapped RoCEv2 GID?
 *
 * Context: any.
 * Return: the switch; false in a production build.
 */
static inline bool smc_test_v1_on_rocev2(void)
{
	return IS_ENABLED(CONFIG_SMC_TEST_HOOKS) &&
	       READ_ONCE(smc_ib_v1_on_rocev2);
}

/**
 * smc_test_rx_stall() - does this host stop taking messages in?
 *
 * Context: any.
 * Return: the switch; false in a production build.
 */
static inline bool smc_test_rx_stall(void)
{
	return IS_ENABLED(CONFIG_SMC_TEST_HOOKS) &&
	       unlikely(READ_ONCE(smc_wr_rx_stall));
}

/**
 * smc_test_rx_urg_no_force() - does this host's reader, passing urgent
 *	data, leave out the consumer cursor update it forces (as a peer
 *	other than Linux may)?
 *
 * Context: any.
 * Return: the switch; false in a production build.
 */
static inline bool smc_test_rx_urg_no_force(void)
{
	return IS_ENABLED(CONFIG_SMC_TEST_HOOKS) &&
	       unlikely(READ_ONCE(smc_rx_urg_no_force));
}

/**
 * smc_test_qp_timeout() - the local ACK timeout new RC QPs get
 * @dflt: the value outside tests
 *
 * The debug kernel under TCG can stall for seconds, longer than a QP's
 * retries last at the real value (about 1 s); its tests lengthen them.
 *
 * Context: any.
 * Return: the qp_timeout switch if set (at most 31, the field's range),
 *	else @dflt; @dflt in a production build.
 */
static inline u8 smc_test_qp_timeout(u8 dflt)
{
	u8 t = IS_ENABLED(CONFIG_SMC_TEST_HOOKS) ?
	       READ_ONCE(smc_wr_qp_timeout) : 0;

	return t ? min_t(u8, t, 31) : dflt;
}

#endif /* _NET_SMC_TEST_HOOKS_H */
