// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Glue between an SMC socket and its internal TCP socket, the clcsock:
 * wake-up redirection, state and error mirroring, and the one place where
 * a socket leaves INIT for SMC or fallback mode.
 *
 * Wake-ups: the clcsk's sk_wq points at the SMC socket's socket_wq for
 * the whole time the clcsock belongs to the SMC socket.  TCP therefore
 * wakes exactly the tasks that poll, epoll or sleep on the SMC file, and
 * tasks sleeping inside TCP (accept, connect, recvmsg, sendmsg on the
 * clcsock) wait on that same queue.  The pointer is restored before the
 * clcsock is released; the SMC socket_wq is freed after an RCU grace
 * period, which covers TCP's rcu_dereference() of sk_wq.
 *
 * Callbacks: sk_state_change and sk_error_report of the clcsk are wrapped
 * to mirror sk_err, sk_shutdown and the INIT -> ACTIVE transition into the
 * SMC sock, where the socket core and sock_diag read them.  A listening
 * clcsk runs without the wrappers because TCP children clone the
 * listener's callbacks before accept() could fix them up.
 */

#include <linux/smc_diag.h>
#include <linux/spinlock.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include "smc.h"

/* clcsk states reached only after the TCP handshake completed */
#define SMC_TCPF_CONNECTED	(TCPF_ESTABLISHED | TCPF_FIN_WAIT1 | \
				 TCPF_FIN_WAIT2 | TCPF_CLOSE_WAIT | \
				 TCPF_CLOSING | TCPF_LAST_ACK | TCPF_TIME_WAIT)

/**
 * smc_clcsock_fallback() - decide that a socket uses plain TCP
 * @smc: SMC socket still in its INIT -> SMC/fallback decision
 * @reason: SMC_CLC_DECL_* code recorded for sock_diag and statistics
 *
 * The decision is taken once; later calls keep the first reason.
 *
 * Context: any context, no locks required.
 */
void smc_clcsock_fallback(struct smc_sock *smc, u32 reason)
{
	if (test_and_set_bit(SMC_SOCK_MODE_DECIDED, &smc->flags))
		return;
	WRITE_ONCE(smc->fallback_rsn, reason);
	WRITE_ONCE(smc->mode, SMC_DIAG_MODE_FALLBACK_TCP);
	WRITE_ONCE(smc->use_fallback, true);
	smc_stats_fback_inc(sock_net(&smc->sk),
			    test_bit(SMC_SOCK_ACCEPTED, &smc->flags), reason);
}

/*
 * Keep one TCP error visible once, whichever socket it is consumed from:
 * SO_ERROR reads the SMC sock (the core serves SOL_SOCKET itself), while
 * TCP operations consume the clcsk's copy.  smc->clcsk_err remembers what
 * was mirrored, so a consumption on one side is replayed on the other.
 */
static void smc_clcsock_sync_err(struct smc_sock *smc, struct sock *clcsk)
{
	int clc, mirrored;

	spin_lock_bh(&smc->err_lock);
	clc = READ_ONCE(clcsk->sk_err);
	mirrored = smc->clcsk_err;
	if (mirrored) {
		if (!READ_ONCE(smc->sk.sk_err)) {
			/* read by SO_ERROR: TCP must not report it again */
			cmpxchg(&clcsk->sk_err, mirrored, 0);
			clc = READ_ONCE(clcsk->sk_err);
			mirrored = 0;
		} else if (clc != mirrored) {
			/* consumed or replaced by TCP */
			cmpxchg(&smc->sk.sk_err, mirrored, 0);
			mirrored = 0;
		}
	}
	if (!mirrored && clc) {
		mirrored = clc;
		WRITE_ONCE(smc->sk.sk_err, clc);
	}
	smc->clcsk_err = mirrored;
	spin_unlock_bh(&smc->err_lock);
}

static void __smc_clcsock_sync(struct smc_sock *smc, struct sock *clcsk)
{
	struct sock *sk = &smc->sk;

	/*
	 * Over SMC-R the TCP connection only has to stay: its reset ends
	 * the SMC connection, its end of stream means nothing.
	 */
	if (smc_uses_smcr(smc)) {
		if (READ_ONCE(clcsk->sk_err) && !READ_ONCE(smc->clcsk_gone)) {
			WRITE_ONCE(smc->clcsk_gone, true);
			smc_close_schedule(smc);
		}
		return;
	}
	smc_clcsock_sync_err(smc, clcsk);
	if (READ_ONCE(sk->sk_state) == SMC_CLOSED)
		return;
	WRITE_ONCE(sk->sk_shutdown, READ_ONCE(clcsk->sk_shutdown));
	/* a client's TCP handshake completed: SMC or fallback is decided */
	if (READ_ONCE(sk->sk_state) == SMC_INIT &&
	    !test_bit(SMC_SOCK_ACCEPTED, &smc->flags) &&
	    ((1 << READ_ONCE(clcsk->sk_state)) & SMC_TCPF_CONNECTED))
		smc_connect_tcp_done(smc);
}

/**
 * smc_clcsock_sync() - bring the SMC sock up to date with its clcsk
 * @smc: SMC socket with a clcsock
 *
 * Called around every forwarded operation, so that an error consumed by
 * TCP or by SO_ERROR is not reported twice, and sk_shutdown and sk_state
 * are current even while the callbacks are not installed.
 *
 * Context: process context, no locks required.
 */
void smc_clcsock_sync(struct smc_sock *smc)
{
	__smc_clcsock_sync(smc, smc->clcsock->sk);
}

/*
 * Our callbacks run in softirq or, from the backlog, in process context.
 * sk_callback_lock keeps @smc and the saved callbacks stable; once the
 * wrappers are removed the pointer reads back NULL and the restored
 * original is called instead.
 */
static struct smc_sock *smc_clcsk_owner(struct sock *clcsk)
{
	lockdep_assert_held(&clcsk->sk_callback_lock);
	return __locked_read_sk_user_data_with_flags(clcsk,
						     SK_USER_DATA_NOCOPY);
}

static void smc_clcsk_state_change(struct sock *clcsk)
{
	void (*next)(struct sock *sk);
	struct smc_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	smc = smc_clcsk_owner(clcsk);
	if (smc) {
		next = smc->clcsk_state_change;
		__smc_clcsock_sync(smc, clcsk);
	} else {
		next = READ_ONCE(clcsk->sk_state_change);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);

	/* wake only after the SMC sock shows the new state */
	if (!WARN_ON_ONCE(next == smc_clcsk_state_change))
		next(clcsk);
}

static void smc_clcsk_error_report(struct sock *clcsk)
{
	void (*next)(struct sock *sk);
	struct smc_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	smc = smc_clcsk_owner(clcsk);
	if (smc) {
		next = smc->clcsk_error_report;
		__smc_clcsock_sync(smc, clcsk);
	} else {
		next = READ_ONCE(clcsk->sk_error_report);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);

	if (!WARN_ON_ONCE(next == smc_clcsk_error_report))
		next(clcsk);
}

/**
 * smc_clcsock_hook() - install the clcsk callback wrappers
 * @smc: SMC socket whose clcsk is not listening
 *
 * Does nothing if they are installed already.  Catches up with whatever
 * happened while they were off.
 *
 * Context: process context; the caller owns the SMC sock or it is not
 * visible to other tasks yet.
 */
void smc_clcsock_hook(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	if (!test_and_set_bit(SMC_SOCK_HOOKED, &smc->flags)) {
		smc->clcsk_state_change = clcsk->sk_state_change;
		smc->clcsk_error_report = clcsk->sk_error_report;
		/* NOCOPY: a TCP child must never inherit the pointer */
		__rcu_assign_sk_user_data_with_flags(clcsk, smc,
						     SK_USER_DATA_NOCOPY);
		WRITE_ONCE(clcsk->sk_state_change, smc_clcsk_state_change);
		WRITE_ONCE(clcsk->sk_error_report, smc_clcsk_error_report);
	}
	write_unlock_bh(&clcsk->sk_callback_lock);
	smc_clcsock_sync(smc);
}

/**
 * smc_clcsock_unhook() - restore the original clcsk callbacks
 * @smc: SMC socket
 *
 * Must run before the clcsk listens, as TCP children copy the
 * listener's callbacks, and before the SMC socket goes away.  Returns
 * with no wrapper running any more for @smc.
 *
 * Context: process context; the caller owns the SMC sock.
 */
void smc_clcsock_unhook(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	if (test_and_clear_bit(SMC_SOCK_HOOKED, &smc->flags)) {
		WRITE_ONCE(clcsk->sk_state_change, smc->clcsk_state_change);
		WRITE_ONCE(clcsk->sk_error_report, smc->clcsk_error_report);
		rcu_assign_sk_user_data(clcsk, NULL);
	}
	write_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smc_clcsock_copy_settings() - mirror the clcsk's SOL_SOCKET state
 * @smc: SMC socket
 *
 * SOL_SOCKET options are applied to the clcsock, which decides the
 * result exactly as TCP does; getsockopt(SOL_SOCKET) however is answered
 * by the core from the SMC sock.  Copy what it reads.  Also used for a
 * new socket, so that the defaults match TCP's (e.g. tcp_wmem).
 *
 * Context: process context; the caller owns the SMC sock or it is not
 * visible to other tasks yet.
 */
void smc_clcsock_copy_settings(struct smc_sock *smc)
{
	const unsigned long mask = BIT(SOCK_URGINLINE) | BIT(SOCK_KEEPOPEN) |
		BIT(SOCK_LINGER) | BIT(SOCK_BROADCAST) | BIT(SOCK_DBG) |
		BIT(SOCK_RCVTSTAMP) | BIT(SOCK_RCVTSTAMPNS) |
		BIT(SOCK_LOCALROUTE) | BIT(SOCK_RXQ_OVFL) |
		BIT(SOCK_ZEROCOPY) | BIT(SOCK_WIFI_STATUS) | BIT(SOCK_NOFCS) |
		BIT(SOCK_FILTER_LOCKED) | BIT(SOCK_SELECT_ERR_QUEUE) |
		BIT(SOCK_TXTIME) | BIT(SOCK_TSTAMP_NEW) | BIT(SOCK_RCVMARK);
	struct socket *clcsock = smc->clcsock;
	struct sock *clcsk = clcsock->sk;
	struct sock *sk = &smc->sk;

	sk->sk_flags = (sk->sk_flags & ~mask) | (clcsk->sk_flags & mask);
	WRITE_ONCE(sk->sk_rcvbuf, READ_ONCE(clcsk->sk_rcvbuf));
	WRITE_ONCE(sk->sk_sndbuf, READ_ONCE(clcsk->sk_sndbuf));
	/* a bit-field before 6.5: no READ_ONCE */
	sk->sk_userlocks = clcsk->sk_userlocks;
	WRITE_ONCE(sk->sk_rcvtimeo, READ_ONCE(clcsk->sk_rcvtimeo));
	WRITE_ONCE(sk->sk_sndtimeo, READ_ONCE(clcsk->sk_sndtimeo));
	WRITE_ONCE(sk->sk_lingertime, READ_ONCE(clcsk->sk_lingertime));
	WRITE_ONCE(sk->sk_rcvlowat, READ_ONCE(clcsk->sk_rcvlowat));
	WRITE_ONCE(sk->sk_mark, READ_ONCE(clcsk->sk_mark));
	WRITE_ONCE(sk->sk_priority, READ_ONCE(clcsk->sk_priority));
	WRITE_ONCE(sk->sk_bound_dev_if, READ_ONCE(clcsk->sk_bound_dev_if));
	WRITE_ONCE(sk->sk_tsflags, READ_ONCE(clcsk->sk_tsflags));
	WRITE_ONCE(sk->sk_bind_phc, READ_ONCE(clcsk->sk_bind_phc));
	WRITE_ONCE(sk->sk_peek_off, READ_ONCE(clcsk->sk_peek_off));
	WRITE_ONCE(sk->sk_max_pacing_rate,
		   READ_ONCE(clcsk->sk_max_pacing_rate));
	WRITE_ONCE(sk->sk_incoming_cpu, READ_ONCE(clcsk->sk_incoming_cpu));
	WRITE_ONCE(sk->sk_txrehash, READ_ONCE(clcsk->sk_txrehash));
	WRITE_ONCE(sk->sk_reserved_mem, READ_ONCE(clcsk->sk_reserved_mem));
#ifdef CONFIG_NET_RX_BUSY_POLL
	WRITE_ONCE(sk->sk_ll_usec, READ_ONCE(clcsk->sk_ll_usec));
	WRITE_ONCE(sk->sk_prefer_busy_poll,
		   READ_ONCE(clcsk->sk_prefer_busy_poll));
	WRITE_ONCE(sk->sk_busy_poll_budget,
		   READ_ONCE(clcsk->sk_busy_poll_budget));
#endif
	sk->sk_clockid = clcsk->sk_clockid;
	sk->sk_txtime_deadline_mode = clcsk->sk_txtime_deadline_mode;
	sk->sk_txtime_report_errors = clcsk->sk_txtime_report_errors;
	sk->sk_reuse = clcsk->sk_reuse;
	sk->sk_reuseport = clcsk->sk_reuseport;
	sk->sk_no_check_tx = clcsk->sk_no_check_tx;

	if (sk->sk_socket) {
		assign_bit(SOCK_PASSCRED, &sk->sk_socket->flags,
			   test_bit(SOCK_PASSCRED, &clcsock->flags));
		assign_bit(SOCK_PASSSEC, &sk->sk_socket->flags,
			   test_bit(SOCK_PASSSEC, &clcsock->flags));
	}
}

/* the SOL_SOCKET state smc_clcsock_push_settings() hands on */
#define SMC_PUSH_FLAGS	(BIT(SOCK_URGINLINE) | BIT(SOCK_KEEPOPEN) | \
			 BIT(SOCK_LINGER) | BIT(SOCK_BROADCAST) | \
			 BIT(SOCK_DBG) | BIT(SOCK_LOCALROUTE) | \
			 BIT(SOCK_RCVTSTAMP) | BIT(SOCK_RCVTSTAMPNS))

static bool smc_clcsock_settings_differ(const struct sock *sk,
					const struct sock *clcsk)
{
	return ((sk->sk_flags ^ clcsk->sk_flags) & SMC_PUSH_FLAGS) ||
	       (sk->sk_userlocks & ~clcsk->sk_userlocks) ||
	       ((sk->sk_userlocks & SOCK_RCVBUF_LOCK) &&
		READ_ONCE(sk->sk_rcvbuf) != READ_ONCE(clcsk->sk_rcvbuf)) ||
	       ((sk->sk_userlocks & SOCK_SNDBUF_LOCK) &&
		READ_ONCE(sk->sk_sndbuf) != READ_ONCE(clcsk->sk_sndbuf)) ||
	       READ_ONCE(sk->sk_rcvtimeo) != READ_ONCE(clcsk->sk_rcvtimeo) ||
	       READ_ONCE(sk->sk_sndtimeo) != READ_ONCE(clcsk->sk_sndtimeo) ||
	       READ_ONCE(sk->sk_lingertime) != READ_ONCE(clcsk->sk_lingertime) ||
	       READ_ONCE(sk->sk_rcvlowat) != READ_ONCE(clcsk->sk_rcvlowat) ||
	       READ_ONCE(sk->sk_mark) != READ_ONCE(clcsk->sk_mark) ||
	       READ_ONCE(sk->sk_priority) != READ_ONCE(clcsk->sk_priority) ||
	       READ_ONCE(sk->sk_bound_dev_if) !=
			READ_ONCE(clcsk->sk_bound_dev_if) ||
	       sk->sk_reuse != clcsk->sk_reuse ||
	       sk->sk_reuseport != clcsk->sk_reuseport;
}

/**
 * smc_clcsock_push_settings() - hand the SMC sock's SOL_SOCKET state on
 * @smc: SMC socket
 *
 * The reverse of smc_clcsock_copy_settings(), for kernels that set
 * SOL_SOCKET options on the SMC sock only (see smc_compat.h).  Called
 * before the clcsock is used for the socket, so that TCP binds, connects,
 * listens, reads and closes (SO_LINGER) as the application asked.  Cheap
 * when nothing changed, which is nearly always.
 *
 * Context: process context, inside a proto_ops call on the socket; takes
 * the clcsk's socket lock when something changed.
 */
void smc_clcsock_push_settings(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;
	struct sock *sk = &smc->sk;
	bool keepalive;

	if (!smc_clcsock_settings_differ(sk, clcsk))
		return;
	lock_sock(clcsk);
	keepalive = sock_flag(sk, SOCK_KEEPOPEN);
	/* TCP arms or stops its keepalive timer itself */
	if (keepalive != sock_flag(clcsk, SOCK_KEEPOPEN) &&
	    clcsk->sk_prot->keepalive)
		clcsk->sk_prot->keepalive(clcsk, keepalive);
	clcsk->sk_flags = (clcsk->sk_flags & ~SMC_PUSH_FLAGS) |
			  (sk->sk_flags & SMC_PUSH_FLAGS);
	if (sk->sk_userlocks & SOCK_RCVBUF_LOCK)
		WRITE_ONCE(clcsk->sk_rcvbuf, READ_ONCE(sk->sk_rcvbuf));
	if (sk->sk_userlocks & SOCK_SNDBUF_LOCK)
		WRITE_ONCE(clcsk->sk_sndbuf, READ_ONCE(sk->sk_sndbuf));
	clcsk->sk_userlocks |= sk->sk_userlocks;
	WRITE_ONCE(clcsk->sk_rcvtimeo, READ_ONCE(sk->sk_rcvtimeo));
	WRITE_ONCE(clcsk->sk_sndtimeo, READ_ONCE(sk->sk_sndtimeo));
	WRITE_ONCE(clcsk->sk_lingertime, READ_ONCE(sk->sk_lingertime));
	WRITE_ONCE(clcsk->sk_rcvlowat, READ_ONCE(sk->sk_rcvlowat));
	WRITE_ONCE(clcsk->sk_mark, READ_ONCE(sk->sk_mark));
	WRITE_ONCE(clcsk->sk_priority, READ_ONCE(sk->sk_priority));
	WRITE_ONCE(clcsk->sk_bound_dev_if, READ_ONCE(sk->sk_bound_dev_if));
	clcsk->sk_reuse = sk->sk_reuse;
	clcsk->sk_reuseport = sk->sk_reuseport;
	release_sock(clcsk);
}

/**
 * smc_clcsock_attach() - make @clcsock the internal TCP socket of @smc
 * @smc: SMC socket, attached to its struct socket, without a clcsock yet
 * @clcsock: TCP socket, freshly created or accepted
 *
 * Context: process context; @smc is not visible to other tasks yet.
 */
void smc_clcsock_attach(struct smc_sock *smc, struct socket *clcsock)
{
	struct socket *sock = smc->sk.sk_socket;
	struct sock *clcsk = clcsock->sk;

	smc->clcsock = clcsock;
	/* see smc_clc_get() */
	if (sock->file)
		WRITE_ONCE(clcsock->file, sock->file);

	lock_sock(clcsk);
	write_lock_bh(&clcsk->sk_callback_lock);
	rcu_assign_pointer(clcsk->sk_wq, &sock->wq);
	write_unlock_bh(&clcsk->sk_callback_lock);
	/*
	 * TCP calls sk_wake_async() only for a SOCK_FASYNC sock; whether a
	 * signal is due is then decided by the fasync list of the SMC
	 * socket, which O_ASYNC on the SMC file fills.  Set under the clcsk
	 * lock: TCP updates sk_flags non-atomically from softirq.
	 */
	sock_set_flag(clcsk, SOCK_FASYNC);
	release_sock(clcsk);

	if (READ_ONCE(clcsk->sk_state) != TCP_LISTEN)
		smc_clcsock_hook(smc);
}

/**
 * smc_clcsock_detach() - give the clcsock back its own identity
 * @smc: SMC socket being released, already unhashed
 *
 * After this, TCP no longer reaches the SMC socket in any way: callbacks,
 * wait queue and file pointer are the clcsock's own again, so the
 * clcsock may outlive the SMC socket (lingering close, TIME_WAIT).
 *
 * Context: process context; the caller owns the last reference to the
 * SMC socket file.
 */
void smc_clcsock_detach(struct smc_sock *smc)
{
	struct socket *clcsock = smc->clcsock;
	struct sock *clcsk = clcsock->sk;

	smc_clcsock_unhook(smc);

	/*
	 * Owning the clcsk keeps TCP's receive path, which may signal the
	 * F_SETOWN owner of clcsock->file, away while the pointers change.
	 */
	lock_sock(clcsk);
	write_lock_bh(&clcsk->sk_callback_lock);
	rcu_assign_pointer(clcsk->sk_wq, &clcsock->wq);
	write_unlock_bh(&clcsk->sk_callback_lock);
	sock_reset_flag(clcsk, SOCK_FASYNC);
	/* sock_release() frees the inode only for a socket without file */
	WRITE_ONCE(clcsock->file, NULL);
	release_sock(clcsk);
}
