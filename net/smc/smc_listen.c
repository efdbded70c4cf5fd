// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Server side of the rendezvous: the listener's accept queue.
 *
 * TCP children are taken off the listening clcsock as soon as TCP queues
 * them, by listen_work, which a wait-queue entry on the listening socket
 * starts whenever TCP signals a new child.  Each child gets its SMC sock
 * and runs its CLC handshake in its own work item, so handshakes run in
 * parallel and a slow peer delays nobody else; there is no global lock.
 * A child whose handshake ended (SMC or fallback) goes onto the
 * listener's accept queue, which accept() and poll() serve.
 *
 * Children in the handshake and on the queue together stay within the
 * listen backlog; beyond it listen_work leaves them to TCP's own queue,
 * whose backlog then applies, and accept() restarts it.
 *
 * A child holds a reference to its listener until it is accepted or
 * dropped.  When the listener stops listening, queued children are
 * closed, and children still in their handshake close themselves when it
 * ends.
 */

#include <linux/net.h>
#include <linux/poll.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smc.h"

/* close a child that will never be accepted */
static void smc_listen_drop(struct smc_sock *nsmc)
{
	struct smc_sock *lsmc = nsmc->listen_smc;
	struct sock *nsk = &nsmc->sk;

	smc_close_drop(nsmc);
	nsk->sk_prot->unhash(nsk);
	WRITE_ONCE(nsk->sk_state, SMC_CLOSED);
	sock_release(nsmc->clcsock);
	nsmc->clcsock = NULL;
	nsmc->listen_smc = NULL;
	sock_put(&lsmc->sk);
	smc_sock_free_unattached(nsk);
}

/* the child's handshake ended: hand it to accept(), or drop it */
static void smc_listen_enqueue(struct smc_sock *lsmc, struct smc_sock *nsmc,
			       bool ok)
{
	struct sock *lsk = &lsmc->sk;
	bool queued = false;

	smc_stats_hs_serv_add(sock_net(lsk), -1);
	spin_lock_bh(&lsmc->accept_lock);
	lsmc->hs_cnt--;
	if (ok && READ_ONCE(lsk->sk_state) == SMC_LISTEN) {
		list_add_tail(&nsmc->accept_entry, &lsmc->accept_queue);
		lsmc->accept_cnt++;
		queued = true;
	}
	spin_unlock_bh(&lsmc->accept_lock);

	if (queued)
		lsk->sk_data_ready(lsk);
	else
		smc_listen_drop(nsmc);
}

static void smc_listen_hs_work(struct work_struct *work)
{
	struct smc_sock *nsmc = container_of(work, struct smc_sock, hs_work);
	struct smc_sock *lsmc = nsmc->listen_smc;
	struct sock *nclcsk = nsmc->clcsock->sk;
	bool ok = true;
	int rc;

	if (test_bit(SMC_SOCK_MODE_DECIDED, &lsmc->flags)) {
		/* the listener chose TCP (TCP_FASTOPEN): so do its children */
		smc_clcsock_fallback(nsmc, READ_ONCE(lsmc->fallback_rsn));
	} else if (!READ_ONCE(tcp_sk(nclcsk)->syn_smc)) {
		smc_clcsock_fallback(nsmc, SMC_CLC_DECL_PEERNOSMC);
	} else {
		set_bit(SMC_SOCK_HS_STARTED, &nsmc->flags);
		rc = smc_hs_server(nsmc);
		if (rc > 0) {
			smc_clcsock_fallback(nsmc, rc);
		} else if (rc < 0) {
			smc_stats_hs_err_inc(sock_net(&nsmc->sk), true);
			/* reset: the peer learns that the handshake failed */
			tcp_abort(nclcsk, rc == -ETIMEDOUT ? ETIMEDOUT : EPROTO);
			ok = false;
		}
	}
	lock_sock(&nsmc->sk);
	WRITE_ONCE(nsmc->sk.sk_state, SMC_ACTIVE);
	/* a close or abort from the peer may have come before its Confirm */
	smc_close_sync(nsmc);
	release_sock(&nsmc->sk);
	smc_listen_enqueue(lsmc, nsmc, ok);
}

/* take one TCP child off the listening clcsock and start its handshake */
static int smc_listen_take_one(struct smc_sock *lsmc)
{
	struct proto_accept_arg arg = { .flags = O_NONBLOCK };
	struct socket *lclc = lsmc->clcsock;
	struct sock *lsk = &lsmc->sk;
	struct smc_sock *nsmc;
	struct socket *nclc;
	struct sock *nsk;
	int rc;

	rc = sock_create_lite(lclc->sk->sk_family, lclc->sk->sk_type,
			      lclc->sk->sk_protocol, &nclc);
	if (rc)
		return rc;
	rc = smc_compat_clc_accept(lclc, nclc, &arg);
	if (rc < 0) {
		sock_release(nclc);
		return rc;
	}
	nclc->ops = READ_ONCE(lclc->ops);
	__module_get(nclc->ops->owner);

	if (lsk->sk_protocol == IPPROTO_SMC)
		nsk = smc_inet_sock_alloc(sock_net(lsk), NULL, lsk->sk_family,
					  lsk->sk_kern_sock);
	else
		nsk = smc_sock_alloc(sock_net(lsk), NULL, lsk->sk_protocol,
				     lsk->sk_kern_sock);
	if (!nsk) {
		/* the connection is closed; the peer sees it end */
		sock_release(nclc);
		return -ENOMEM;
	}
	nsmc = smc_sk(nsk);
	/* diag shows the owner during the handshake; accept() grafts */
	nsk->sk_uid = lsk->sk_uid;
	/* allocated without a struct socket, sock_init_data() left it 0 */
	nsk->sk_type = lsk->sk_type;
	/*
	 * The buffer sizes the TCP child inherited from the listener, as
	 * SO_SNDBUF/SO_RCVBUF reach TCP children: the handshake sizes the
	 * send buffer and RMB from them, long before accept().
	 */
	WRITE_ONCE(nsk->sk_sndbuf, READ_ONCE(nclc->sk->sk_sndbuf));
	WRITE_ONCE(nsk->sk_rcvbuf, READ_ONCE(nclc->sk->sk_rcvbuf));
	nsk->sk_userlocks |= nclc->sk->sk_userlocks &
			     (SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK);
	set_bit(SMC_SOCK_ACCEPTED, &nsmc->flags);
	nsmc->limit_hs = READ_ONCE(lsmc->limit_hs);
	nsmc->clcsock = nclc;
	sock_hold(lsk);
	nsmc->listen_smc = lsmc;
	INIT_WORK(&nsmc->hs_work, smc_listen_hs_work);
	nsk->sk_prot->hash(nsk);

	spin_lock_bh(&lsmc->accept_lock);
	lsmc->hs_cnt++;
	spin_unlock_bh(&lsmc->accept_lock);
	smc_stats_hs_serv_add(sock_net(lsk), 1);
	queue_work(smc_hs_wq, &nsmc->hs_work);
	return 0;
}

static bool smc_listen_full(struct smc_sock *lsmc)
{
	bool full;

	spin_lock_bh(&lsmc->accept_lock);
	full = lsmc->accept_cnt + lsmc->hs_cnt >
	       READ_ONCE(lsmc->sk.sk_max_ack_backlog);
	spin_unlock_bh(&lsmc->accept_lock);
	return full;
}

static void smc_listen_work(struct work_struct *work)
{
	struct smc_sock *lsmc = container_of(work, struct smc_sock,
					     listen_work);

	while (READ_ONCE(lsmc->sk.sk_state) == SMC_LISTEN &&
	       !smc_listen_full(lsmc)) {
		if (smc_listen_take_one(lsmc))
			break;
	}
}

/* TCP woke the listening socket: a child may be queued */
static int smc_listen_wake(struct wait_queue_entry *wait, unsigned int mode,
			   int sync, void *key)
{
	struct smc_sock *lsmc = container_of(wait, struct smc_sock,
					     listen_wait);

	if (!key || (key_to_poll(key) & EPOLLIN))
		queue_work(smc_hs_wq, &lsmc->listen_work);
	return 0;
}

/**
 * smc_listen_init() - set up the listener part of a new SMC sock
 * @smc: SMC sock being allocated
 *
 * Context: any context; @smc is not visible to others yet.
 */
void smc_listen_init(struct smc_sock *smc)
{
	INIT_LIST_HEAD(&smc->accept_queue);
	INIT_LIST_HEAD(&smc->accept_entry);
	spin_lock_init(&smc->accept_lock);
	INIT_WORK(&smc->listen_work, smc_listen_work);
	init_waitqueue_func_entry(&smc->listen_wait, smc_listen_wake);
	INIT_LIST_HEAD(&smc->listen_wait.entry);
}

/**
 * smc_listen_start() - make an SMC socket listen
 * @smc: SMC socket, its sock lock held
 *
 * Asks TCP to answer SYNs that carry the SMC option with the option, and
 * starts taking children off the clcsock.  The caller then calls TCP's
 * listen; if that fails it calls smc_listen_stop().
 *
 * Context: process context; the SMC sock lock is held.
 * Return: 0.
 */
int smc_listen_start(struct smc_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;
	struct sock *sk = &smc->sk;

	sock_owned_by_me(sk);
	if (!test_bit(SMC_SOCK_MODE_DECIDED, &smc->flags)) {
		lock_sock(clcsk);
		tcp_sk(clcsk)->syn_smc = 1;
		release_sock(clcsk);
	}
	smc_listen_limit_hs(smc);
	if (!list_empty(&smc->listen_wait.entry))
		return 0;
	add_wait_queue(sk_sleep(sk), &smc->listen_wait);
	return 0;
}

/**
 * smc_listen_hs_congested() - should TCP answer this SYN without SMC?
 * @clcsk: the listening clcsock
 *
 * SMC_LIMIT_HS: while more server handshakes are under way than
 * SMC_HS_CONGESTED per CPU, TCP answers SYNs without the SMC option and
 * the new clients fall back (PEERNOSMC) instead of queueing behind them,
 * as upstream does when its handshake workqueue is congested.  Under
 * way are the namespace's running handshakes and this listener's
 * children that TCP still holds, half-open or waiting for listen_work:
 * a burst of SYNs is answered in softirq before listen_work has taken
 * the first child, and each of them becomes a handshake.
 *
 * Context: softirq, for the listening clcsk.
 * Return: true if the SYN must not get the SMC option.
 */
bool smc_listen_hs_congested(const struct sock *clcsk)
{
	int pending = inet_csk_reqsk_queue_len(clcsk) +
		      READ_ONCE(clcsk->sk_ack_backlog);

	return smc_stats_hs_serv_read(sock_net(clcsk)) + pending >=
	       SMC_HS_CONGESTED * num_online_cpus();
}
EXPORT_SYMBOL_IF_KUNIT(smc_listen_hs_congested);

/**
 * smc_listen_limit_hs() - apply SMC_LIMIT_HS to the listening clcsk
 * @smc: SMC socket that listens or is about to
 *
 * Context: process context; the SMC sock lock is held.
 */
void smc_listen_limit_hs(struct smc_sock *smc)
{
	sock_owned_by_me(&smc->sk);
	WRITE_ONCE(tcp_sk(smc->clcsock->sk)->smc_hs_congested,
		   smc->limit_hs ? smc_listen_hs_congested : NULL);
}

/**
 * smc_listen_stop() - the SMC socket no longer listens
 * @smc: SMC socket whose state already left SMC_LISTEN
 *
 * Closes the children on the accept queue; those still in their
 * handshake close themselves.
 *
 * Context: process context, may sleep.
 */
void smc_listen_stop(struct smc_sock *smc)
{
	struct smc_sock *nsmc, *tmp;
	LIST_HEAD(drop);

	if (list_empty(&smc->listen_wait.entry))
		return;
	remove_wait_queue(sk_sleep(&smc->sk), &smc->listen_wait);
	INIT_LIST_HEAD(&smc->listen_wait.entry);
	cancel_work_sync(&smc->listen_work);

	spin_lock_bh(&smc->accept_lock);
	list_splice_init(&smc->accept_queue, &drop);
	smc->accept_cnt = 0;
	spin_unlock_bh(&smc->accept_lock);
	list_for_each_entry_safe(nsmc, tmp, &drop, accept_entry) {
		list_del_init(&nsmc->accept_entry);
		smc_listen_drop(nsmc);
	}
}

/**
 * smc_listen_poll() - poll mask of a listening SMC socket
 * @smc: listening SMC socket
 *
 * Context: any context.
 * Return: EPOLLIN | EPOLLRDNORM when accept() would not block, else 0.
 */
__poll_t smc_listen_poll(struct smc_sock *smc)
{
	return READ_ONCE(smc->accept_cnt) ? EPOLLIN | EPOLLRDNORM : 0;
}

static struct smc_sock *smc_accept_dequeue(struct smc_sock *lsmc,
					   bool *was_full, bool *empty)
{
	struct smc_sock *nsmc;

	spin_lock_bh(&lsmc->accept_lock);
	nsmc = list_first_entry_or_null(&lsmc->accept_queue, struct smc_sock,
					accept_entry);
	if (nsmc) {
		*was_full = lsmc->accept_cnt + lsmc->hs_cnt >
			    READ_ONCE(lsmc->sk.sk_max_ack_backlog);
		list_del_init(&nsmc->accept_entry);
		lsmc->accept_cnt--;
	}
	*empty = !lsmc->accept_cnt;
	spin_unlock_bh(&lsmc->accept_lock);
	return nsmc;
}

/* accept() waits as TCP's does: O_NONBLOCK, SO_RCVTIMEO, signals */
static struct smc_sock *smc_accept_wait(struct smc_sock *lsmc, long timeo,
					bool *was_full, bool *empty, int *err)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *lsk = &lsmc->sk;
	struct smc_sock *nsmc;

	add_wait_queue_exclusive(sk_sleep(lsk), &wait);
	for (;;) {
		if (lsk->sk_state != SMC_LISTEN) {
			*err = -EINVAL;
			nsmc = NULL;
			break;
		}
		nsmc = smc_accept_dequeue(lsmc, was_full, empty);
		if (nsmc)
			break;
		if (!timeo) {
			*err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			*err = sock_intr_errno(timeo);
			break;
		}
		release_sock(lsk);
		timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, timeo);
		lock_sock(lsk);
	}
	remove_wait_queue(sk_sleep(lsk), &wait);
	return nsmc;
}

/**
 * smc_accept() - proto_ops->accept of SMC sockets
 * @sock: listening SMC socket
 * @newsock: socket to graft the accepted SMC sock onto
 * @arg: accept flags (O_NONBLOCK); is_empty is filled in
 *
 * Returns a child whose handshake has ended.  The child takes over the
 * new socket's wait queue and file, and its SOL_SOCKET settings are
 * those of its TCP connection, inherited from the listening clcsock.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL if not listening, -EAGAIN, or -ERESTARTSYS/-EINTR.
 */
int smc_accept(struct socket *sock, struct socket *newsock,
	       struct proto_accept_arg *arg)
{
	struct smc_sock *lsmc = smc_sk(sock->sk);
	struct sock *lsk = sock->sk;
	bool was_full = false, empty = true;
	struct smc_sock *nsmc;
	struct sock *nsk;
	int rc = 0;

	lock_sock(lsk);
	nsmc = smc_accept_wait(lsmc, sock_rcvtimeo(lsk, arg->flags & O_NONBLOCK),
			       &was_full, &empty, &rc);
	release_sock(lsk);
	if (!nsmc)
		return rc;
	if (was_full)
		queue_work(smc_hs_wq, &lsmc->listen_work);
	arg->is_empty = empty;

	nsk = &nsmc->sk;
	sock_graft(nsk, newsock);
	newsock->state = SS_CONNECTED;
	smc_compat_custom_sockopt(newsock);
	smc_clcsock_attach(nsmc, nsmc->clcsock);
	smc_clcsock_copy_settings(nsmc);
	nsmc->listen_smc = NULL;
	sock_put(lsk);
	return 0;
}
