// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The receive side of a connection: the peer RDMA-writes into our RMBE
 * and moves its producer cursor with a CDC; we copy out of the ring,
 * move our consumer cursor and tell the peer when the rule of protocol
 * reference 6.3 says it needs to know.
 */

#include <linux/minmax.h>
#include <linux/uio.h>

#include "smc_compat.h"
#include "smc_data.h"
#include "smc_test_hooks.h"

/**
 * smc_rx_cons_update() - send our consumer cursor if the peer needs it
 * @conn: the connection
 * @force: send it in any case (urgent data was consumed)
 *
 * Context: any context.
 */
void smc_rx_cons_update(struct smc_connection *conn, bool force)
{
	struct smc_cons_update u = {
		.rmbe_size = conn->rmb_desc->len,
		.force = force ||
			 test_bit(SMC_TX_CDC_WANTED, &conn->tx_flags),
	};
	u8 peer_flags;

	u.confirmed = smc_cursor_read(&conn->rx_curs_confirmed);
	u.cons = smc_cursor_read(&conn->local_tx_ctrl.cons);
	u.peer_prod = smc_cursor_read(&conn->local_rx_ctrl.prod);
	peer_flags = READ_ONCE(conn->local_rx_ctrl.prod_flags);
	u.peer_write_blocked = peer_flags & SMC_CDC_PROD_WRITE_BLOCKED;
	if (!smc_cons_update_needed(&u))
		return;
	set_bit(SMC_TX_CDC_WANTED, &conn->tx_flags);
	smc_tx_push(conn);
}
EXPORT_SYMBOL_IF_KUNIT(smc_rx_cons_update);

/*
 * Reading past urgent data forces a cursor update: the sender waits for
 * an empty RMBE after urgent data (6.4).  Once passed, the mark is gone,
 * whether its byte was read out of band or not, as TCP clears urg_data:
 * a stale urg_curs compared with a cursor 2^15 laps on would look ahead
 * again, and the stream would stop at, and skip, bytes that are data.
 */
static bool smc_rx_urg_passed(struct smc_connection *conn,
			      const union smc_cursor *cons)
{
	union smc_cursor urg;
	bool passed = false;
	u8 state = READ_ONCE(conn->urg_state);

	if (state != SMC_URG_VALID && state != SMC_URG_READ)
		return false;
	spin_lock_bh(&conn->rx_lock);
	urg = smc_cursor_read(&conn->urg_curs);
	state = conn->urg_state;
	if ((state == SMC_URG_VALID || state == SMC_URG_READ) &&
	    !smc_cursor_behind(&urg, cons)) {
		WRITE_ONCE(conn->urg_state, SMC_URG_NONE);
		passed = true;
	}
	spin_unlock_bh(&conn->rx_lock);
	return passed;
}

/**
 * smc_rx_recv() - copy received data out of our RMBE
 * @conn: the connection
 * @msg: where to, its msg_iter
 * @len: at most this many bytes
 * @flags: MSG_PEEK leaves the data in place
 *
 * The socket layer waits for ops->data_ready() after -EAGAIN.
 *
 * Context: process context; the caller serialises readers.
 * Return: bytes copied; 0 at the end of the stream (the peer is done
 * writing or closed and everything was read); -EAGAIN when nothing is
 * there yet; -ECONNRESET after the peer aborted; -EFAULT.
 */
int smc_rx_recv(struct smc_connection *conn, struct msghdr *msg,
		size_t len, int flags)
{
	u32 size = conn->rmb_desc->len;
	u8 *rmb = conn->rmb_desc->cpu_addr;
	size_t avail, copied, first, done;
	union smc_cursor cons;
	u8 peer_flags;
	bool passed;

	if (!len)
		return 0;
	avail = atomic_read(&conn->bytes_to_rcv);
	if (!avail) {
		peer_flags = READ_ONCE(conn->peer_conn_flags);
		if (peer_flags & SMC_CDC_CONN_ABORT)
			return -ECONNRESET;
		/* no data can follow these; recheck what raced in */
		if (peer_flags & (SMC_CDC_CONN_DONE_WRITING |
				  SMC_CDC_CONN_CLOSED))
			return atomic_read(&conn->bytes_to_rcv) ? -EAGAIN : 0;
		return -EAGAIN;
	}
	/* the bytes counted are in the RMBE: read them after the count */
	smp_rmb();
	copied = min(avail, len);
	cons = smc_cursor_read(&conn->local_tx_ctrl.cons);
	first = min_t(size_t, copied, size - cons.count);
	done = copy_to_iter(rmb + cons.count, first, &msg->msg_iter);
	if (done == first && copied > first)
		done += copy_to_iter(rmb, copied - first, &msg->msg_iter);
	if (!done)
		return -EFAULT;
	if (flags & MSG_PEEK)
		return done;
	/* done reading the ring before the peer may overwrite it */
	smp_mb();
	smc_cursor_add(size, &cons, done);
	smc_cursor_write(&conn->local_tx_ctrl.cons, cons);
	atomic_sub(done, &conn->bytes_to_rcv);
	passed = smc_rx_urg_passed(conn, &cons);
	smc_rx_cons_update(conn, passed && !smc_test_rx_urg_no_force());
	return done;
}
EXPORT_SYMBOL_IF_KUNIT(smc_rx_recv);

/**
 * smc_rx_inq() - bytes waiting to be read
 * @conn: the connection
 *
 * For SIOCINQ.
 *
 * Context: any context.
 * Return: the byte count.
 */
int smc_rx_inq(struct smc_connection *conn)
{
	return atomic_read(&conn->bytes_to_rcv);
}
EXPORT_SYMBOL_IF_KUNIT(smc_rx_inq);
