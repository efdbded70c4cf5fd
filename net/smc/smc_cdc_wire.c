// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CDC wire codec: the 44-byte message with the cursors, in and out of
 * host order, with the checks a receiver makes before it looks up the
 * connection.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include "smc_cdc_wire.h"
#include "smc_compat.h"
#include "smc_test_hooks.h"

static void smc_cdc_cursor_get(const struct smc_cdc_cursor *wire,
			       union smc_cursor *c)
{
	c->wrap = be16_to_cpu(wire->wrap);
	c->reserved = 0;
	c->count = be32_to_cpu(wire->count);
}

static void smc_cdc_cursor_put(struct smc_cdc_cursor *wire,
			       const union smc_cursor *c)
{
	wire->reserved = 0;
	wire->wrap = cpu_to_be16(c->wrap);
	wire->count = cpu_to_be32(c->count);
}

/**
 * smc_cdc_decode() - check and decode a received CDC message
 * @buf: received bytes
 * @len: how many arrived
 * @m: filled in on success
 *
 * As Linux: at least the 26 bytes up to the flags must have arrived, and
 * the length byte must say 44.  Whether the cursors fit the ring and the
 * token names a connection is for the caller, which knows both.
 *
 * Context: any context.
 * Return: 0; -EMSGSIZE if fewer than 26 bytes arrived; -ENOMSG if the
 * type byte is not SMC_CDC_TYPE; -EPROTO if the length byte is not 44.
 */
int smc_cdc_decode(const void *buf, size_t len, struct smc_cdc_msg_info *m)
{
	const struct smc_cdc_msg *cdc = buf;

	if (len < SMC_CDC_MIN_RX)
		return -EMSGSIZE;
	if (cdc->type != SMC_CDC_TYPE)
		return -ENOMSG;
	if (cdc->len != SMC_CDC_LEN)
		return -EPROTO;
	if (smc_test_cdc_host_order())
		m->seqno = (__force u16)cdc->seqno;
	else
		m->seqno = be16_to_cpu(cdc->seqno);
	m->token = be32_to_cpu(cdc->token);
	smc_cdc_cursor_get(&cdc->prod, &m->prod);
	smc_cdc_cursor_get(&cdc->cons, &m->cons);
	m->prod_flags = cdc->prod_flags & SMC_CDC_PROD_MASK;
	m->conn_flags = cdc->conn_flags & SMC_CDC_CONN_MASK;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_decode);

/**
 * smc_cdc_encode() - build a CDC message
 * @buf: SMC_CDC_LEN bytes
 * @m: the content; reserved flag bits are not sent
 *
 * Context: any context.
 */
void smc_cdc_encode(void *buf, const struct smc_cdc_msg_info *m)
{
	struct smc_cdc_msg *cdc = buf;

	smc_cdc_wire_size_check();
	memset(cdc, 0, sizeof(*cdc));
	cdc->type = SMC_CDC_TYPE;
	cdc->len = SMC_CDC_LEN;
	if (smc_test_cdc_host_order())
		cdc->seqno = (__force __be16)m->seqno;
	else
		cdc->seqno = cpu_to_be16(m->seqno);
	cdc->token = cpu_to_be32(m->token);
	smc_cdc_cursor_put(&cdc->prod, &m->prod);
	smc_cdc_cursor_put(&cdc->cons, &m->cons);
	cdc->prod_flags = m->prod_flags & SMC_CDC_PROD_MASK;
	cdc->conn_flags = m->conn_flags & SMC_CDC_CONN_MASK;
}
EXPORT_SYMBOL_IF_KUNIT(smc_cdc_encode);
