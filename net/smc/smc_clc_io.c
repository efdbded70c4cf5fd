// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * CLC messages on the clcsock's TCP stream.  A message is read only once
 * all of it has arrived, and exactly its length is consumed: the bytes
 * behind it may be application data of a connection that falls back.
 *
 * The waits do not use the clcsock's SO_RCVTIMEO, which belongs to the
 * application and may be changed by it at any time.
 */

#include <linux/net.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smc.h"
#include "smc_test_hooks.h"

/* what a CLC wait ends on, besides the data it waits for */
static bool smc_clc_wait_done(struct sock *clcsk, u32 bytes)
{
	return tcp_inq(clcsk) >= bytes || READ_ONCE(clcsk->sk_err) ||
	       (READ_ONCE(clcsk->sk_shutdown) & RCV_SHUTDOWN);
}

/* wait until @bytes are queued on the clcsk, an error, EOF or timeout */
static int smc_clc_wait_bytes(struct sock *clcsk, u32 bytes, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int rc;

	lock_sock(clcsk);
	add_wait_queue(sk_sleep(clcsk), &wait);
	for (;;) {
		if (tcp_inq(clcsk) >= bytes) {
			rc = 0;
			break;
		}
		/* read, not consumed: the application sees the error too */
		rc = -READ_ONCE(clcsk->sk_err);
		if (rc)
			break;
		if (clcsk->sk_shutdown & RCV_SHUTDOWN) {
			rc = -ECONNRESET;
			break;
		}
		if (!*timeo) {
			rc = -ETIMEDOUT;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(clcsk, timeo, smc_clc_wait_done(clcsk, bytes),
			      &wait);
	}
	remove_wait_queue(sk_sleep(clcsk), &wait);
	release_sock(clcsk);
	return rc;
}

/**
 * smc_clc_send() - send one CLC message on the clcsock
 * @clcsock: the connection's TCP socket
 * @buf: the encoded message
 * @len: its length
 *
 * Context: process context, may sleep.
 * Return: 0, or a negative errno if the message could not be queued.
 */
int smc_clc_send(struct socket *clcsock, const void *buf, size_t len)
{
	struct kvec vec = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	u8 *inject;
	int rc;

	inject = smc_clc_inject_take(&len);
	if (inject) {
		vec.iov_base = inject;
		vec.iov_len = len;
	}
	rc = kernel_sendmsg(clcsock, &msg, &vec, 1, len);
	kfree(inject);
	if (rc < 0)
		return rc;
	return rc == len ? 0 : -EPIPE;
}

/**
 * smc_clc_recv() - read one complete CLC message from the clcsock
 * @clcsock: the connection's TCP socket
 * @buf: where the message goes
 * @size: size of @buf; a longer message is a protocol error
 * @expected: the type the handshake waits for; a Decline is always taken
 * @timeo: how long to wait for the whole message, in jiffies
 * @info: the decoded header of the message read
 *
 * Only the message is consumed.  Its length rules are checked by
 * smc_clc_msg_validate(); the caller decodes the body.
 *
 * Context: process context, may sleep; no socket locks held.
 * Return: 0, -EPROTO for a malformed or unexpected message, -ETIMEDOUT,
 *	-ECONNRESET at EOF, or the connection's error.
 */
int smc_clc_recv(struct socket *clcsock, void *buf, size_t size,
		 u8 expected, long timeo, struct smc_clc_hdr_info *info)
{
	struct kvec vec = { .iov_base = buf, .iov_len = SMC_CLC_HDR_LEN };
	struct msghdr msg = {};
	int rc;

	if (size < SMC_CLC_HDR_LEN)
		return -EINVAL;
	rc = smc_clc_wait_bytes(clcsock->sk, SMC_CLC_HDR_LEN, &timeo);
	if (rc)
		return rc;
	rc = kernel_recvmsg(clcsock, &msg, &vec, 1, SMC_CLC_HDR_LEN,
			    MSG_PEEK | MSG_DONTWAIT);
	if (rc != SMC_CLC_HDR_LEN)
		return rc < 0 ? rc : -EPROTO;
	/* what no message of an acceptable type can look like */
	if (smc_clc_frame_check(buf, expected, &info->length) ||
	    info->length > size)
		return -EPROTO;

	rc = smc_clc_wait_bytes(clcsock->sk, info->length, &timeo);
	if (rc)
		return rc;
	vec.iov_base = buf;
	vec.iov_len = info->length;
	memset(&msg, 0, sizeof(msg));
	rc = kernel_recvmsg(clcsock, &msg, &vec, 1, info->length,
			    MSG_DONTWAIT);
	if (rc != info->length)
		return rc < 0 ? rc : -EPROTO;
	return smc_clc_msg_validate(buf, info->length, info) ? -EPROTO : 0;
}

/**
 * smc_clc_send_decline() - tell the peer that this connection uses TCP
 * @smc: SMC socket in its handshake
 * @reason: SMC_CLC_DECL_* diagnosis for the peer
 * @version: SMC_CLC_V1 for the 28-byte form, SMC_CLC_V2 for 44 bytes
 *
 * The out-of-sync flag goes with SMC_CLC_DECL_SYNCERR only.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno from the send.
 */
int smc_clc_send_decline(struct smc_sock *smc, u32 reason, u8 version)
{
	u8 buf[SMC_CLC_DECLINE_LEN_V2], id[8];
	int len;

	smc_hs_local_systemid(id);
	len = smc_clc_decline_encode(buf, sizeof(buf),
				     version >= SMC_CLC_V2 ? SMC_CLC_V2 :
							     SMC_CLC_V1,
				     id, reason,
				     reason == SMC_CLC_DECL_SYNCERR,
				     SMC_CLC_OS_LINUX);
	if (len < 0)
		return len;
	return smc_clc_send(smc->clcsock, buf, len);
}
