// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Client side of the rendezvous.  connect() asks TCP to put the SMC
 * option into the SYN.  When TCP's handshake completes, the clcsk state
 * callback decides: without the option in the SYN-ACK the socket falls
 * back on the spot, with no CLC message; with it, the CLC handshake runs
 * in smc->hs_work and the socket stays in INIT until that ends.  No
 * application data moves meanwhile: a blocking connect() waits for the
 * decision, a non-blocking one has returned EINPROGRESS and poll()
 * reports the socket writable only once the decision is made, and data
 * calls wait for it (or fail with EAGAIN when non-blocking).
 *
 * The handshake work holds a reference to the SMC sock.  Release breaks
 * a running handshake by shutting the clcsock down and waits for it, so
 * the work never outlives the socket's clcsock.
 */

#include <linux/net.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smc.h"

/**
 * smc_hs_pending() - is the socket waiting for its CLC handshake?
 * @smc: SMC socket
 *
 * Context: any context.
 * Return: true between the TCP handshake and the SMC/fallback decision.
 */
bool smc_hs_pending(const struct smc_sock *smc)
{
	return test_bit(SMC_SOCK_HS_STARTED, &smc->flags) &&
	       !test_bit(SMC_SOCK_MODE_DECIDED, &smc->flags);
}

/*
 * The handshake failed hard (malformed CLC, timeout, connection error):
 * there is no common protocol to fall back to.  Reset the TCP connection,
 * which reports the error to the application through the clcsk as for
 * any broken TCP connection, and count it.
 */
static void smc_hs_fail(struct smc_sock *smc, int err)
{
	struct sock *clcsk = smc->clcsock->sk;

	smc_stats_hs_err_inc(sock_net(&smc->sk),
			     test_bit(SMC_SOCK_ACCEPTED, &smc->flags));
	if (!test_and_set_bit(SMC_SOCK_MODE_DECIDED, &smc->flags)) {
		WRITE_ONCE(smc->mode, SMC_DIAG_MODE_FALLBACK_TCP);
		WRITE_ONCE(smc->use_fallback, true);
	}
	tcp_abort(clcsk, err == -ETIMEDOUT ? ETIMEDOUT :
			 err == -ECONNRESET ? ECONNRESET : EPROTO);
}

static void smc_connect_work(struct work_struct *work)
{
	struct smc_sock *smc = container_of(work, struct smc_sock, hs_work);
	struct sock *sk = &smc->sk;
	int rc;

	rc = smc_hs_client(smc);
	if (rc > 0)
		smc_clcsock_fallback(smc, rc);
	else if (rc < 0)
		smc_hs_fail(smc, rc);

	lock_sock(sk);
	if (sk->sk_state == SMC_INIT)
		WRITE_ONCE(sk->sk_state, SMC_ACTIVE);
	smc_clcsock_sync(smc);
	/* the peer's flags may have come while SMC-R was not yet decided */
	smc_close_sync(smc);
	release_sock(sk);
	/* wake connect(), poll() and data calls waiting for the decision */
	sk->sk_state_change(sk);
	sock_put(sk);
}

/**
 * smc_connect_prepare() - ask for the SMC option in the SYN
 * @smc: SMC socket about to connect
 *
 * Not for a socket that has decided on TCP already (TCP_FASTOPEN), nor
 * once the SYN went out.
 *
 * Context: process context; the SMC sock lock is not held.
 */
void smc_connect_prepare(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	if (test_bit(SMC_SOCK_MODE_DECIDED, &smc->flags))
		return;
	INIT_WORK(&smc->hs_work, smc_connect_work);
	lock_sock(clcsk);
	if (clcsk->sk_state == TCP_CLOSE)
		tcp_sk(clcsk)->syn_smc = 1;
	release_sock(clcsk);
}

/**
 * smc_connect_tcp_done() - the clcsock's TCP handshake completed
 * @smc: client SMC socket still in INIT
 *
 * Context: any context, from the clcsk state callback or a socket call.
 */
void smc_connect_tcp_done(struct smc_sock *smc)
{
	struct sock *sk = &smc->sk;

	/* close() raced the SYN-ACK: it frees the clcsock, nothing starts */
	if (test_bit(SMC_SOCK_RELEASING, &smc->flags))
		return;
	if (test_bit(SMC_SOCK_MODE_DECIDED, &smc->flags)) {
		WRITE_ONCE(sk->sk_state, SMC_ACTIVE);
		return;
	}
	if (!READ_ONCE(tcp_sk(smc->clcsock->sk)->syn_smc)) {
		/* no option in the SYN-ACK: no CLC, plain TCP */
		smc_clcsock_fallback(smc, SMC_CLC_DECL_PEERNOSMC);
		WRITE_ONCE(sk->sk_state, SMC_ACTIVE);
		return;
	}
	if (test_and_set_bit(SMC_SOCK_HS_STARTED, &smc->flags))
		return;
	sock_hold(sk);
	if (!queue_work(smc_hs_wq, &smc->hs_work))
		sock_put(sk);
}

static int smc_hs_wait(struct smc_sock *smc, long timeo, int timeout_err)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &smc->sk;
	int rc = 0;

	if (!smc_hs_pending(smc))
		return 0;
	add_wait_queue(sk_sleep(sk), &wait);
	while (smc_hs_pending(smc)) {
		if (!timeo) {
			rc = timeout_err;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
		timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, timeo);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return rc;
}

/**
 * smc_connect_wait() - wait for the end of the CLC handshake in connect()
 * @smc: SMC socket
 * @nonblock: do not wait
 *
 * Waits as TCP's connect() waits: up to SO_SNDTIMEO, interruptibly.
 *
 * Context: process context, no socket locks held.
 * Return: 0 once decided, -EINPROGRESS if still running when the wait
 *	ends, or -ERESTARTSYS/-EINTR on a signal.
 */
int smc_connect_wait(struct smc_sock *smc, bool nonblock)
{
	return smc_hs_wait(smc, sock_sndtimeo(&smc->sk, nonblock),
			   -EINPROGRESS);
}

/**
 * smc_hs_wait_data() - hold a data call back until the handshake ended
 * @smc: SMC socket
 * @timeo: how long the call may block (its SO_SNDTIMEO or SO_RCVTIMEO)
 *
 * Context: process context, no socket locks held.
 * Return: 0 once decided, -EAGAIN when the time is up (at once for a
 *	non-blocking call), or -ERESTARTSYS/-EINTR on a signal.
 */
int smc_hs_wait_data(struct smc_sock *smc, long timeo)
{
	return smc_hs_wait(smc, timeo, -EAGAIN);
}

/**
 * smc_hs_cancel() - stop the handshake of a socket being released
 * @smc: SMC socket whose last reference the caller is about to drop
 *
 * Context: process context, may sleep; no socket locks held.
 */
void smc_hs_cancel(struct smc_sock *smc)
{
	if (!test_bit(SMC_SOCK_HS_STARTED, &smc->flags))
		return;
	if (!test_bit(SMC_SOCK_MODE_DECIDED, &smc->flags))
		kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
	if (cancel_work_sync(&smc->hs_work))
		sock_put(&smc->sk);
}
