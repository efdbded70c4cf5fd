/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CDC (Connection Data Control) wire format: the 44-byte IB SEND that
 * follows the RDMA writes of a connection's data and carries its producer
 * and consumer cursors and state flags.  Pure encode/decode, tested by
 * smc_cdc_kunit.c.
 */
#ifndef _NET_SMC_CDC_WIRE_H
#define _NET_SMC_CDC_WIRE_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

#include "smc_cursor.h"

#define SMC_CDC_TYPE		0xfe	/* byte 0; LLC uses 0x01..0x29 */
#define SMC_CDC_LEN		44
#define SMC_CDC_MIN_RX		26	/* what a receiver reads */

/* work-request buffers that carry CDC and v1 LLC messages */
#define SMC_WR_BUF_SIZE		48	/* one send/receive slot */
#define SMC_WR_TX_SIZE		44	/* what is sent from it */

/* producer flags, byte 24 */
#define SMC_CDC_PROD_WRITE_BLOCKED	0x80	/* writer waits for space */
#define SMC_CDC_PROD_URG_PENDING	0x40	/* urgent data queued */
#define SMC_CDC_PROD_URG_PRESENT	0x20	/* urgent byte at prod - 1 */
#define SMC_CDC_PROD_CONS_UPD_REQ	0x10	/* send me your cursor */
#define SMC_CDC_PROD_FAILOVER		0x08	/* failover validation */
#define SMC_CDC_PROD_MASK		0xf8

/* connection state flags, byte 25 */
#define SMC_CDC_CONN_DONE_WRITING	0x80	/* peer done writing */
#define SMC_CDC_CONN_CLOSED		0x40	/* peer connection closed */
#define SMC_CDC_CONN_ABORT		0x20	/* abnormal close */
#define SMC_CDC_CONN_MASK		0xe0

/**
 * struct smc_cdc_cursor - a cursor, on the wire
 * @reserved: zero
 * @wrap: wrap counter
 * @count: byte offset in the ring
 */
struct smc_cdc_cursor {
	__be16	reserved;
	__be16	wrap;
	__be32	count;
} __packed;

/**
 * struct smc_cdc_msg - CDC message, on the wire
 * @type: SMC_CDC_TYPE
 * @len: SMC_CDC_LEN
 * @seqno: per connection and direction, wraps
 * @token: alert token of the receiver's connection
 * @prod: producer cursor, an offset into the receiver's RMBE
 * @cons: consumer cursor, how far the sender read its own RMBE
 * @prod_flags: SMC_CDC_PROD_*
 * @conn_flags: SMC_CDC_CONN_*
 * @reserved: zero
 */
struct smc_cdc_msg {
	u8			type;
	u8			len;
	__be16			seqno;
	__be32			token;
	struct smc_cdc_cursor	prod;
	struct smc_cdc_cursor	cons;
	u8			prod_flags;
	u8			conn_flags;
	u8			reserved[18];
} __packed;

/**
 * struct smc_cdc_msg_info - a decoded CDC message, host order
 * @seqno: sequence number
 * @token: alert token of the receiver's connection
 * @prod: producer cursor
 * @cons: consumer cursor
 * @prod_flags: SMC_CDC_PROD_*, reserved bits cleared
 * @conn_flags: SMC_CDC_CONN_*, reserved bits cleared
 */
struct smc_cdc_msg_info {
	u16			seqno;
	u32			token;
	union smc_cursor	prod;
	union smc_cursor	cons;
	u8			prod_flags;
	u8			conn_flags;
};

static inline void smc_cdc_wire_size_check(void)
{
	BUILD_BUG_ON(sizeof(struct smc_cdc_cursor) != 8);
	BUILD_BUG_ON(sizeof(struct smc_cdc_msg) != SMC_CDC_LEN);
	BUILD_BUG_ON(SMC_CDC_LEN != SMC_WR_TX_SIZE);
	BUILD_BUG_ON(SMC_WR_TX_SIZE > SMC_WR_BUF_SIZE);
	BUILD_BUG_ON(offsetof(struct smc_cdc_msg, reserved) != SMC_CDC_MIN_RX);
}

/**
 * smc_cdc_seq_newer() - is a sequence number later than another?
 * @seq: received sequence number
 * @last: last one accepted
 *
 * Serial-number arithmetic on 16 bits: up to 32767 ahead is newer.
 *
 * Context: any context.
 * Return: true if @seq follows @last.
 */
static inline bool smc_cdc_seq_newer(u16 seq, u16 last)
{
	u16 d = (seq - last) & 0xffff;

	return d && d < 0x8000;
}

/**
 * smc_cdc_seq_old() - must a received CDC be dropped as old?
 * @seq: received sequence number
 * @last: last one accepted
 *
 * A repeat of @last is not old: Linux drops only what is behind it.
 *
 * Context: any context.
 * Return: true if @seq is behind @last.
 */
static inline bool smc_cdc_seq_old(u16 seq, u16 last)
{
	u16 d = (seq - last) & 0xffff;

	return d >= 0x8000;
}

int smc_cdc_decode(const void *buf, size_t len, struct smc_cdc_msg_info *m);
void smc_cdc_encode(void *buf, const struct smc_cdc_msg_info *m);

#endif /* _NET_SMC_CDC_WIRE_H */
