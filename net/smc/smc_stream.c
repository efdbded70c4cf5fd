// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The socket calls of an SMC-R connection: send, receive, poll, ioctl
 * and splice with TCP's semantics, on top of the data path (smc_tx.c,
 * smc_rx.c), which never sleeps.  Waiting, timeouts, signals, urgent
 * data outside the stream and the wake-ups are done here.
 */

#include <linux/fs.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/sockios.h>
#include <linux/termios.h>
#include <linux/splice.h>
#include <net/sock.h>

#include "smc.h"
#include "smc_cdc_wire.h"
#include "smc_data.h"

/*
 * The data path's callbacks: references pin the sock across posted
 * CDCs and works; events wake the socket's waiters and drive the close
 * protocol.
 */
static void smc_stream_hold(struct smc_connection *conn)
{
	sock_hold(&smc_of_conn(conn)->sk);
}

static void smc_stream_put(struct smc_connection *conn)
{
	sock_put(&smc_of_conn(conn)->sk);
}

static void smc_stream_data_ready(struct smc_connection *conn)
{
	struct smc_sock *smc = smc_of_conn(conn);

	smc->sk.sk_data_ready(&smc->sk);
	/* data for a closed reader: the close protocol resets */
	if (test_bit(SMC_SOCK_ORPHAN_HELD, &smc->flags))
		smc_close_schedule(smc);
}

/*
 * Freed send buffer space wakes only a writer that waits for it, as in
 * TCP: one that found the buffer full set SOCK_NOSPACE (sendmsg, poll).
 * Every CDC completion frees space, and waking the socket's wait queue
 * each time would wake a reader blocked in recv() for nothing.  A close
 * that lingers waits for the send buffer to drain.
 */
static void smc_stream_write_space(struct smc_connection *conn)
{
	struct smc_sock *smc = smc_of_conn(conn);
	struct sock *sk = &smc->sk;
	bool drained, waits = false;
	struct socket *sock;

	drained = (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) &&
		  !smc_tx_outq(conn);
	/* the freed space before the flag; pairs with smc_stream_nospace() */
	smp_mb();
	/* a socket that close() orphans meanwhile is freed after RCU */
	rcu_read_lock();
	sock = READ_ONCE(sk->sk_socket);
	if (sock && test_bit(SOCK_NOSPACE, &sock->flags)) {
		clear_bit(SOCK_NOSPACE, &sock->flags);
		waits = true;
	}
	rcu_read_unlock();
	if (waits || drained)
		sk->sk_write_space(sk);
	/* a drained send buffer lets "done writing" or "closed" go out */
	if (drained)
		smc_close_schedule(smc);
}

static void smc_stream_state_change(struct smc_connection *conn)
{
	struct smc_sock *smc = smc_of_conn(conn);
	struct sock *sk = &smc->sk;

	sk->sk_state_change(sk);
	smc_close_schedule(smc);
}

/* SIGURG to the owner once per urgent byte, as TCP sends it */
static void smc_stream_urgent(struct smc_connection *conn)
{
	sk_send_sigurg(&smc_of_conn(conn)->sk);
}

const struct smc_conn_ops smc_sock_conn_ops = {
	.hold		= smc_stream_hold,
	.put		= smc_stream_put,
	.data_ready	= smc_stream_data_ready,
	.write_space	= smc_stream_write_space,
	.state_change	= smc_stream_state_change,
	.urgent		= smc_stream_urgent,
};

/* a writer found the send buffer full: smc_stream_write_space() wakes it */
static void smc_stream_nospace(struct sock *sk)
{
	set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
	/* the flag before the next look at the space; pairs with write_space */
	smp_mb__after_atomic();
}

/* may more data still arrive for the reader? */
static bool smc_stream_rx_over(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;

	return READ_ONCE(sk->sk_err) || sk->sk_state == SMC_CLOSED ||
	       (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) ||
	       (READ_ONCE(smc->conn.peer_conn_flags) &
		(SMC_CDC_CONN_DONE_WRITING | SMC_CDC_CONN_CLOSED |
		 SMC_CDC_CONN_ABORT));
}

/* can a writer go on (space, or an error to report)? */
static bool smc_stream_tx_go(struct smc_sock *smc)
{
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;

	return atomic_read(&conn->sndbuf_space) || READ_ONCE(sk->sk_err) ||
	       (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) ||
	       READ_ONCE(conn->tx_err) || READ_ONCE(conn->killed) ||
	       (READ_ONCE(conn->peer_conn_flags) &
		(SMC_CDC_CONN_CLOSED | SMC_CDC_CONN_ABORT));
}

/* why a writer cannot write at all, 0 if it can */
static int smc_stream_tx_error(struct smc_sock *smc)
{
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;

	/*
	 * A connection that broke says why first, once, as TCP reports a
	 * reset; close_work may not have run yet.
	 */
	if (!READ_ONCE(sk->sk_err) &&
	    (READ_ONCE(conn->killed) || READ_ONCE(conn->tx_err) ||
	     (READ_ONCE(conn->peer_conn_flags) & SMC_CDC_CONN_ABORT)))
		smc_close_sync(smc);
	if (READ_ONCE(sk->sk_err))
		return sock_error(sk);
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN)
		return -EPIPE;
	/* the peer closed: nobody reads what we would write */
	if (READ_ONCE(conn->peer_conn_flags) & SMC_CDC_CONN_CLOSED)
		return -EPIPE;
	return 0;
}

/**
 * smc_stream_sendmsg() - sendmsg(2) on an SMC-R socket
 * @smc: SMC-R socket
 * @msg: data and flags (MSG_DONTWAIT, MSG_MORE, MSG_OOB, MSG_NOSIGNAL)
 * @len: bytes to send
 *
 * Blocks until all of @len is in the send buffer, as TCP does, unless
 * non-blocking, interrupted or timed out (SO_SNDTIMEO); then returns
 * what was copied so far.
 *
 * Context: process context; no locks held.
 * Return: bytes copied, or a negative errno (-EPIPE with SIGPIPE unless
 * MSG_NOSIGNAL, -EAGAIN, -ECONNRESET, ...).
 */
int smc_stream_sendmsg(struct smc_sock *smc, struct msghdr *msg, size_t len)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	size_t copied = 0;
	long timeo;
	int rc = 0;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	add_wait_queue(sk_sleep(sk), &wait);
	while (copied < len || !len) {
		rc = smc_stream_tx_error(smc);
		if (rc)
			break;
		rc = smc_tx_sendmsg(conn, msg, len - copied);
		if (rc > 0) {
			copied += rc;
			continue;
		}
		if (rc != -EAGAIN || !len)
			break;
		smc_stream_nospace(sk);
		if (!timeo)
			break;
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, smc_stream_tx_go(smc), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	release_sock(sk);
	if (copied)
		return copied;
	if (rc == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return rc;
}

/*
 * Bytes the reader has before the urgent byte, or -1 if none is ahead.
 * Read out of band or not, the byte stays a hole in the stream until
 * the reader passed it, as in TCP.
 */
static int smc_stream_urg_dist(struct smc_connection *conn)
{
	u8 state = READ_ONCE(conn->urg_state);
	union smc_cursor cons, urg;
	u32 dist;

	if (state != SMC_URG_VALID && state != SMC_URG_READ)
		return -1;
	spin_lock_bh(&conn->rx_lock);
	urg = smc_cursor_read(&conn->urg_curs);
	spin_unlock_bh(&conn->rx_lock);
	cons = smc_cursor_read(&conn->local_tx_ctrl.cons);
	if (smc_cursor_behind(&cons, &urg))
		return -1;
	/* the urgent byte sits just before the cursor the peer sent */
	dist = smc_cursor_diff(conn->rmb_desc->len, &cons, &urg);
	return dist ? dist - 1 : -1;
}

/* step over the urgent byte: without SO_OOBINLINE it is not stream data */
static void smc_stream_skip_urg(struct smc_connection *conn)
{
	struct msghdr m = {};

	iov_iter_discard(&m.msg_iter, ITER_DEST, 1);
	/* passing the mark sends the cursor the writer waits for (6.4) */
	smc_rx_recv(conn, &m, 1, 0);
}

/* recv(MSG_OOB): the urgent byte, as tcp_recv_urg() hands it out */
static int smc_stream_recv_urg(struct smc_sock *smc, struct msghdr *msg,
			       size_t len, int flags)
{
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	u8 state = READ_ONCE(conn->urg_state);
	int rc;

	if (sock_flag(sk, SOCK_URGINLINE) || state == SMC_URG_NONE ||
	    state == SMC_URG_READ)
		return -EINVAL;
	if (state == SMC_URG_VALID) {
		if (!len) {
			msg->msg_flags |= MSG_TRUNC;
			return 0;
		}
		rc = memcpy_to_msg(msg, &conn->urg_rx_byte, 1);
		if (rc)
			return rc;
		if (!(flags & MSG_PEEK))
			WRITE_ONCE(conn->urg_state, SMC_URG_READ);
		msg->msg_flags |= MSG_OOB;
		return 1;
	}
	if (sk->sk_state == SMC_CLOSED || (sk->sk_shutdown & RCV_SHUTDOWN))
		return 0;
	return -EAGAIN;
}

/**
 * smc_stream_recvmsg() - recvmsg(2) on an SMC-R socket
 * @smc: SMC-R socket
 * @msg: where to
 * @len: at most this many bytes
 * @flags: MSG_DONTWAIT, MSG_PEEK, MSG_WAITALL, MSG_OOB, MSG_TRUNC
 *
 * As tcp_recvmsg(): waits for SO_RCVLOWAT bytes (all of @len with
 * MSG_WAITALL), returns 0 at the end of the stream, and stops at the
 * urgent mark.
 *
 * Context: process context; no locks held.
 * Return: bytes received, 0 at end of stream, or a negative errno.
 */
int smc_stream_recvmsg(struct smc_sock *smc, struct msghdr *msg, size_t len,
		       int flags)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	size_t copied = 0;
	int target, dist;
	long timeo;
	int rc = 0;

	if (flags & MSG_ERRQUEUE)
		return -EOPNOTSUPP;
	lock_sock(sk);
	if (flags & MSG_OOB) {
		rc = smc_stream_recv_urg(smc, msg, len, flags);
		goto out;
	}
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	add_wait_queue(sk_sleep(sk), &wait);
	while (copied < len) {
		size_t chunk = len - copied;

		/* stop at the urgent mark; skip the byte unless inline */
		dist = smc_stream_urg_dist(conn);
		if (!dist && !sock_flag(sk, SOCK_URGINLINE)) {
			if (copied)
				break;
			smc_stream_skip_urg(conn);
			continue;
		}
		if (dist > 0)
			chunk = min_t(size_t, chunk, dist);
		if (flags & MSG_TRUNC) {
			struct msghdr m = {};

			iov_iter_discard(&m.msg_iter, ITER_DEST, chunk);
			rc = smc_rx_recv(conn, &m, chunk, flags);
		} else {
			rc = smc_rx_recv(conn, msg, chunk, flags);
		}
		if (rc > 0) {
			copied += rc;
			/* a peek sees the same bytes again: once is all */
			if ((flags & MSG_PEEK) || dist > 0)
				break;
			continue;
		}
		if (rc == -ECONNRESET) {
			/* reported once through sk_err, then end of stream */
			smc_close_sync(smc);
			rc = -EAGAIN;
		}
		if (rc != -EAGAIN)
			break;
		rc = 0;
		if (copied >= target)
			break;
		if (READ_ONCE(sk->sk_err)) {
			if (!copied)
				rc = sock_error(sk);
			break;
		}
		if (sk->sk_shutdown & RCV_SHUTDOWN ||
		    sk->sk_state == SMC_CLOSED)
			break;
		if (!timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, smc_rx_inq(conn) ||
			      smc_stream_rx_over(smc), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (copied)
		rc = copied;
out:
	release_sock(sk);
	return rc;
}

/**
 * smc_stream_poll() - the poll mask of an SMC-R socket
 * @smc: SMC-R socket
 *
 * The caller put us on the socket's wait queue already.
 *
 * Context: process context.
 * Return: EPOLL* bits as TCP computes them.
 */
__poll_t smc_stream_poll(struct smc_sock *smc)
{
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	u8 shutdown = READ_ONCE(sk->sk_shutdown);
	__poll_t mask = 0;

	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	if (shutdown == SHUTDOWN_MASK || READ_ONCE(sk->sk_state) == SMC_CLOSED)
		mask |= EPOLLHUP;
	if (shutdown & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (smc_rx_inq(conn) >= sock_rcvlowat(sk, 0, INT_MAX) ||
	    (smc_rx_inq(conn) && smc_stream_urg_dist(conn) >= 0))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (shutdown & SEND_SHUTDOWN) {
		mask |= EPOLLOUT | EPOLLWRNORM;
	} else if (atomic_read(&conn->sndbuf_space)) {
		mask |= EPOLLOUT | EPOLLWRNORM;
	} else {
		smc_stream_nospace(sk);
		/* freed space may have raced with the flag: look again */
		if (atomic_read(&conn->sndbuf_space))
			mask |= EPOLLOUT | EPOLLWRNORM;
	}
	if (READ_ONCE(conn->urg_state) == SMC_URG_VALID)
		mask |= EPOLLPRI;
	return mask;
}

/**
 * smc_stream_ioctl() - the socket ioctls TCP answers, for SMC-R
 * @smc: SMC-R socket
 * @cmd: SIOCINQ, SIOCOUTQ, SIOCOUTQNSD or SIOCATMARK
 * @arg: user pointer to an int
 *
 * Context: process context.
 * Return: 0, -EFAULT, or -ENOIOCTLCMD for others (the caller passes
 * those on).
 */
int smc_stream_ioctl(struct smc_sock *smc, unsigned int cmd,
		     unsigned long arg)
{
	struct smc_connection *conn = &smc->conn;
	int answ;

	switch (cmd) {
	case SIOCINQ:
		answ = smc_rx_inq(conn);
		break;
	case SIOCOUTQ:
		answ = smc_tx_outq(conn);
		break;
	case SIOCOUTQNSD: {
		union smc_cursor prep, sent;

		/* written by the application, not yet in the peer's RMBE */
		spin_lock_bh(&conn->send_lock);
		prep = smc_cursor_read(&conn->tx_curs_prep);
		sent = smc_cursor_read(&conn->tx_curs_sent);
		spin_unlock_bh(&conn->send_lock);
		answ = smc_cursor_diff(conn->sndbuf_desc->len, &sent, &prep);
		break;
	}
	case SIOCATMARK:
		answ = smc_stream_urg_dist(conn) == 0;
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user(answ, (int __user *)arg);
}

/**
 * smc_stream_splice_read() - splice(2) out of an SMC-R socket
 * @smc: SMC-R socket with a file
 * @ppos: unused, sockets have no position
 * @pipe: destination
 * @len: at most this many bytes
 * @flags: SPLICE_F_*
 *
 * The RMBE is the peer's write target and cannot lend its pages to a
 * pipe, so the bytes are copied, through recvmsg.
 *
 * Context: process context; no locks held.
 * Return: bytes spliced, 0 at end of stream, or a negative errno.
 */
ssize_t smc_stream_splice_read(struct smc_sock *smc, loff_t *ppos,
			       struct pipe_inode_info *pipe, size_t len,
			       unsigned int flags)
{
	struct file *file = smc->sk.sk_socket->file;

	if (!file)
		return -EINVAL;
	return smc_compat_splice_read(file, ppos, pipe, len, flags);
}

/**
 * smc_stream_set_cork() - TCP_CORK on an SMC-R socket
 * @smc: SMC-R socket
 * @on: hold small writes back; off sends what was held
 *
 * Context: process context; no locks held.
 */
void smc_stream_set_cork(struct smc_sock *smc, bool on)
{
	struct smc_connection *conn = &smc->conn;

	if (on)
		set_bit(SMC_TX_CORKED, &conn->tx_flags);
	else if (test_and_clear_bit(SMC_TX_CORKED, &conn->tx_flags))
		smc_tx_push(conn);
}

/**
 * smc_stream_push() - send what is held back now (TCP_NODELAY, splice end)
 * @smc: SMC-R socket
 *
 * Context: process context; no locks held.
 */
void smc_stream_push(struct smc_sock *smc)
{
	smc_tx_push(&smc->conn);
}
