// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * The close protocol of an SMC-R connection (RFC 7609, 4.8): each side
 * announces with its CDC connection flags that it is done writing
 * (shutdown(SHUT_WR)) or closed (close()), or that it aborts.  The state
 * follows from what both sides sent so far, so one function,
 * smc_close_progress(), re-derives it whenever something changed: a
 * socket call, a CDC from the peer, freed send space, a dead link group
 * or a reset of the clcsock.
 *
 * A released socket whose peer has not closed yet is kept as an orphan,
 * like a TCP socket in FIN_WAIT2, until the peer closes or
 * SMC_CLOSE_ORPHAN_TIME passes; then it aborts.
 */

#include <linux/workqueue.h>
#include <net/sock.h>

#include "smc.h"
#include "smc_cdc_wire.h"
#include "smc_data.h"

/* how long a released socket waits for its data to drain and its peer */
#define SMC_CLOSE_ORPHAN_TIME	(60 * HZ)

static struct workqueue_struct *smc_close_wq;

/* the connection flags we sent, from the CDC template */
static u8 smc_close_sent(struct smc_connection *conn)
{
	u8 flags;

	spin_lock_bh(&conn->send_lock);
	flags = conn->local_tx_ctrl.conn_flags;
	spin_unlock_bh(&conn->send_lock);
	return flags;
}

/**
 * smc_close_state() - the close state both sides' flags put us in
 * @sent: the SMC_CDC_CONN_* flags we sent
 * @peer: the SMC_CDC_CONN_* flags the peer sent
 *
 * RFC 7609, 4.8.2, without the abort flag, which the caller handles.
 *
 * Context: any.
 * Return: SMC_ACTIVE, one of the SMC_*CLOSEWAIT* states, or SMC_CLOSED.
 */
int smc_close_state(u8 sent, u8 peer)
{
	bool we_done = sent & (SMC_CDC_CONN_DONE_WRITING | SMC_CDC_CONN_CLOSED);
	bool peer_done = peer & (SMC_CDC_CONN_DONE_WRITING |
				 SMC_CDC_CONN_CLOSED);

	if ((sent & SMC_CDC_CONN_CLOSED) && (peer & SMC_CDC_CONN_CLOSED))
		return SMC_CLOSED;
	if (!we_done)
		return peer_done ? SMC_APPCLOSEWAIT1 : SMC_ACTIVE;
	if (!peer_done)
		return SMC_PEERCLOSEWAIT1;
	if (peer & SMC_CDC_CONN_CLOSED)
		return SMC_APPCLOSEWAIT2;
	return SMC_PEERCLOSEWAIT2;
}
EXPORT_SYMBOL_IF_KUNIT(smc_close_state);

/*
 * The connection is over.  Its RMB may still hold data the application
 * has not read: it goes back to the link group only once the socket is
 * released.
 */
static void smc_close_done(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;

	WRITE_ONCE(sk->sk_state, SMC_CLOSED);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	if (test_bit(SMC_SOCK_ORPHAN_HELD, &smc->flags))
		smc_conn_free(smc);
	sk->sk_state_change(sk);
}

/* end the connection abnormally; @err goes to the application */
static void smc_close_abort(struct smc_sock *smc, int err, bool tell_peer)
{
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;

	if (tell_peer)
		smc_cdc_send_flags(conn, SMC_CDC_CONN_ABORT);
	if (err && !test_bit(SMC_SOCK_ORPHAN_HELD, &smc->flags)) {
		WRITE_ONCE(sk->sk_err, err);
		sk_error_report(sk);
	}
	smc_close_done(smc);
}

/*
 * Re-derive the close state from what happened and send what is due.
 * Runs under the SMC sock lock, from socket calls and from close_work.
 */
static void smc_close_progress(struct smc_sock *smc)
{
	struct smc_connection *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	bool released = test_bit(SMC_SOCK_ORPHAN_HELD, &smc->flags);
	u8 peer, sent, want = 0;
	int state;

	sock_owned_by_me(sk);
	if (!smc_uses_smcr(smc) || test_bit(SMC_SOCK_CONN_DONE, &smc->flags))
		return;
	if (sk->sk_state == SMC_CLOSED) {
		if (released)
			smc_conn_free(smc);
		return;
	}
	peer = READ_ONCE(conn->peer_conn_flags);
	if (peer & SMC_CDC_CONN_ABORT) {
		smc_close_abort(smc, ECONNRESET, false);
		return;
	}
	/* CDCs were lost in a link switch, or the peer is out of step */
	if (READ_ONCE(conn->out_of_sync)) {
		smc_close_abort(smc, ECONNABORTED, true);
		return;
	}
	if (READ_ONCE(conn->killed) || READ_ONCE(conn->tx_err)) {
		smc_close_abort(smc, ECONNABORTED, false);
		return;
	}
	if (READ_ONCE(smc->clcsk_gone)) {
		smc_close_abort(smc, ECONNRESET, true);
		return;
	}
	/*
	 * As TCP resets when unread data is thrown away; what was written
	 * before close() reaches the peer first, as TCP's segments precede
	 * its RST.
	 */
	if (released && smc_rx_inq(conn)) {
		smc_tx_abort_after_data(conn);
		smc_close_abort(smc, 0, false);
		return;
	}

	sent = smc_close_sent(conn);
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN)
		want = SMC_CDC_CONN_DONE_WRITING;
	if (released)
		want = SMC_CDC_CONN_CLOSED;
	/* the flags say no data follows: everything sent must be written */
	if (want && !(sent & want) && !smc_tx_outq(conn)) {
		if (smc_cdc_send_flags(conn, want)) {
			smc_close_abort(smc, ECONNABORTED, false);
			return;
		}
		sent |= want;
	}

	if (peer & (SMC_CDC_CONN_DONE_WRITING | SMC_CDC_CONN_CLOSED))
		WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | RCV_SHUTDOWN);
	state = smc_close_state(sent, peer);
	if (state == SMC_CLOSED) {
		smc_close_done(smc);
		return;
	}
	if (state != sk->sk_state) {
		WRITE_ONCE(sk->sk_state, state);
		sk->sk_state_change(sk);
	}
}

/**
 * smc_close_sync() - act now on what the peer's flags say
 * @smc: SMC-R socket
 *
 * For a reader that saw the peer's abort before close_work ran: the
 * reset must reach sk_err first, so that it is reported once.
 *
 * Context: process context; the SMC sock lock is held.
 */
void smc_close_sync(struct smc_sock *smc)
{
	smc_close_progress(smc);
}

/* the released socket's close ended: drop what the orphan kept */
static void smc_close_orphan_end(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;

	if (!test_and_clear_bit(SMC_SOCK_ORPHAN_HELD, &smc->flags))
		return;
	if (cancel_delayed_work(&smc->orphan_work))
		sock_put(sk);
	smc_sock_drop_clcsock(smc);
	sock_put(sk);
}

static void smc_close_work(struct work_struct *work)
{
	struct smc_sock *smc = container_of(work, struct smc_sock, close_work);
	struct sock *sk = &smc->sk;
	bool closed;

	lock_sock(sk);
	smc_close_progress(smc);
	closed = sk->sk_state == SMC_CLOSED;
	release_sock(sk);
	if (closed)
		smc_close_orphan_end(smc);
	sock_put(sk);
}

static void smc_close_orphan_timeout(struct work_struct *work)
{
	struct smc_sock *smc = container_of(to_delayed_work(work),
					    struct smc_sock, orphan_work);
	struct sock *sk = &smc->sk;

	lock_sock(sk);
	smc_close_progress(smc);
	if (sk->sk_state != SMC_CLOSED && smc_uses_smcr(smc))
		smc_close_abort(smc, 0, true);
	release_sock(sk);
	smc_close_orphan_end(smc);
	sock_put(sk);
}

/**
 * smc_close_init() - prepare the close protocol of a new SMC sock
 * @smc: SMC sock being set up
 *
 * Context: process context.
 */
void smc_close_init(struct smc_sock *smc)
{
	INIT_WORK(&smc->close_work, smc_close_work);
	INIT_DELAYED_WORK(&smc->orphan_work, smc_close_orphan_timeout);
}

/**
 * smc_close_schedule() - something the close protocol may act on changed
 * @smc: SMC-R socket
 *
 * The peer's flags, freed send space, an aborted link or a reset clcsock.
 *
 * Context: any context; the caller holds a reference on the sock.
 */
void smc_close_schedule(struct smc_sock *smc)
{
	sock_hold(&smc->sk);
	if (!queue_work(smc_close_wq, &smc->close_work))
		sock_put(&smc->sk);
}

/**
 * smc_close_shutdown() - shutdown(2) of an SMC-R socket
 * @smc: SMC-R socket
 * @how: SHUT_RD, SHUT_WR or SHUT_RDWR
 *
 * SHUT_WR announces "done writing" once the data written so far is in
 * the peer's RMBE; like TCP's FIN it does not wait for that.
 *
 * Context: process context; the SMC sock lock is not held.
 * Return: 0, or -ENOTCONN once the connection is closed.
 */
int smc_close_shutdown(struct smc_sock *smc, int how)
{
	struct sock *sk = &smc->sk;
	int rc = 0;

	lock_sock(sk);
	if (sk->sk_state == SMC_CLOSED) {
		rc = -ENOTCONN;
	} else {
		WRITE_ONCE(sk->sk_shutdown,
			   sk->sk_shutdown | ((how + 1) & SHUTDOWN_MASK));
		smc_close_progress(smc);
		/* wake readers and writers as TCP's shutdown does */
		sk->sk_state_change(sk);
	}
	release_sock(sk);
	return rc;
}

/* SO_LINGER with a time: wait for the close to complete, as TCP does */
static void smc_close_linger(struct smc_sock *smc)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;
	long timeo = sk->sk_lingertime;

	add_wait_queue(sk_sleep(sk), &wait);
	sk_wait_event(sk, &timeo, sk->sk_state == SMC_CLOSED ||
		      !smc_tx_outq(&smc->conn) || signal_pending(current),
		      &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
}

/**
 * smc_close_release() - close(2) of an SMC-R socket
 * @smc: SMC-R socket being released
 *
 * Sends "closed" once the written data is in the peer's RMBE.  SO_LINGER
 * with time 0 aborts, as it resets a TCP connection.  If the peer has
 * not closed yet, the sock stays alive as an orphan with its clcsock
 * until it has or SMC_CLOSE_ORPHAN_TIME passed.
 *
 * Context: process context, may sleep (SO_LINGER); no locks held.
 */
void smc_close_release(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;
	bool closed;

	/*
	 * The socket file goes away now: TCP must no longer wake or
	 * signal through it.  A reset of the clcsock is then no longer
	 * seen; the orphan timeout bounds the wait instead.
	 */
	smc_clcsock_detach(smc);
	/* the orphan's reference, dropped by smc_close_orphan_end() */
	sock_hold(sk);
	lock_sock(sk);
	set_bit(SMC_SOCK_ORPHAN_HELD, &smc->flags);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	if (sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime &&
	    sk->sk_state != SMC_CLOSED)
		smc_close_abort(smc, 0, true);
	smc_close_progress(smc);
	if (sock_flag(sk, SOCK_LINGER) && sk->sk_state != SMC_CLOSED) {
		smc_close_linger(smc);
		smc_close_progress(smc);
	}
	closed = sk->sk_state == SMC_CLOSED;
	if (!closed) {
		sock_hold(sk);
		if (!queue_delayed_work(smc_close_wq, &smc->orphan_work,
					SMC_CLOSE_ORPHAN_TIME))
			sock_put(sk);
	}
	release_sock(sk);
	if (closed)
		smc_close_orphan_end(smc);
}

/**
 * smc_close_drop() - an SMC-R socket that is never accepted goes
 * @smc: child of a listener, its handshake done, not accepted
 *
 * As TCP resets the children a closing listener never handed out, the
 * peer is told the connection aborted.  The connection leaves its link
 * group now: a CDC for it must not find a freed socket.
 *
 * Context: process context, may sleep; the listener's sock lock may be
 * held (the child's lock nests inside it).
 */
void smc_close_drop(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;

	if (!smc_uses_smcr(smc))
		return;
	lock_sock_nested(sk, SINGLE_DEPTH_NESTING);
	if (sk->sk_state != SMC_CLOSED)
		smc_cdc_send_flags(&smc->conn, SMC_CDC_CONN_ABORT);
	WRITE_ONCE(sk->sk_state, SMC_CLOSED);
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	release_sock(sk);
	smc_conn_free(smc);
}

/**
 * smc_close_wq_init() - create the close protocol's workqueue
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int smc_close_wq_init(void)
{
	smc_close_wq = alloc_workqueue("smc_close", WQ_MEM_RECLAIM, 0);
	return smc_close_wq ? 0 : -ENOMEM;
}

/**
 * smc_close_wq_exit() - destroy it; every SMC sock is gone by now
 *
 * Context: module exit.
 */
void smc_close_wq_exit(void)
{
	destroy_workqueue(smc_close_wq);
}
