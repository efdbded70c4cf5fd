// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * proto_ops of AF_SMC sockets.  A socket that has not negotiated SMC
 * (every socket, until the SMC-R data path exists) behaves exactly like
 * TCP: each operation is the clcsock's own, so return values, errno,
 * blocking, timeouts and signals are TCP's.  The SMC sock only tracks
 * state for sock_diag and the socket core (see smc_clcsock.c), and holds
 * data calls back while the CLC handshake runs (smc_connect.c); a
 * listener's accept queue is its own (smc_listen.c).
 */

#include <linux/fs.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/splice.h>
#include <linux/smc_diag.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include "smc.h"

/**
 * smc_clc_get() - the clcsock of an SMC socket with a file
 * @sock: SMC socket
 *
 * tcp_splice_read() reads clcsock->file, and TCP signals urgent data to
 * the F_SETOWN owner of clcsock->file: both must see the SMC file.  A
 * socket created by socket(2) gets its file only after ->create, hence
 * the link is made lazily here.  smc_clcsock_detach() undoes it.
 * Kernels without SOCK_CUSTOM_SOCKOPT get the SOL_SOCKET options handed
 * to the clcsock here, before every use (smc_compat.h).
 *
 * Context: process context, inside a proto_ops call on @sock.
 * Return: the clcsock.
 */
struct socket *smc_clc_get(struct socket *sock)
{
	struct socket *clcsock = smc_sk(sock->sk)->clcsock;

	if (unlikely(!READ_ONCE(clcsock->file)) && sock->file)
		WRITE_ONCE(clcsock->file, sock->file);
	smc_compat_push_settings(smc_sk(sock->sk));
	return clcsock;
}

static int smc_bind(struct socket *sock, struct sockaddr *addr, int len)
{
	struct socket *clcsock = smc_clc_get(sock);

	return READ_ONCE(clcsock->ops)->bind(clcsock, addr, len);
}

/*
 * connect(AF_UNSPEC): TCP disconnects, even a listener, and returns 0.
 * An SMC-R connection cannot become a fresh socket again (its
 * connection stays registered in its link group until release), so it
 * gets upstream's EINVAL.
 */
static int smc_disconnect(struct socket *sock, struct sockaddr *addr,
			  int alen, int flags)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc->clcsock;
	struct sock *sk = sock->sk;
	int rc;

	lock_sock(sk);
	if (smc_uses_smcr(smc)) {
		release_sock(sk);
		return -EINVAL;
	}
	rc = READ_ONCE(clcsock->ops)->connect(clcsock, addr, alen, flags);
	if (!rc && sk->sk_state != SMC_INIT) {
		bool listening = sk->sk_state == SMC_LISTEN;

		/* like TCP, the socket may bind, listen or connect again */
		WRITE_ONCE(sk->sk_state, SMC_INIT);
		if (listening) {
			smc_listen_stop(smc);
			smc_clcsock_hook(smc);
		}
	}
	smc_clcsock_sync(smc);
	sock->state = READ_ONCE(clcsock->state);
	release_sock(sk);
	return rc;
}

static int smc_connect(struct socket *sock, struct sockaddr *addr,
		       int alen, int flags)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	int rc;

	smc_clcsock_sync(smc);
	if (alen >= (int)sizeof(addr->sa_family) &&
	    addr->sa_family == AF_UNSPEC)
		return smc_disconnect(sock, addr, alen, flags);

	if (READ_ONCE(sock->sk->sk_state) == SMC_INIT)
		smc_connect_prepare(smc);
	/*
	 * Not under the SMC sock lock: TCP sleeps here (blocking connect,
	 * SO_SNDTIMEO, signals) and other threads may use the socket.  The
	 * transition out of INIT starts in the clcsk state callback.
	 */
	rc = READ_ONCE(clcsock->ops)->connect(clcsock, addr, alen, flags);
	smc_clcsock_sync(smc);
	sock->state = READ_ONCE(clcsock->state);
	if (smc_hs_pending(smc)) {
		/* TCP is connected, the CLC handshake is not done */
		if (rc == 0)
			rc = smc_connect_wait(smc, flags & O_NONBLOCK);
		else if (rc == -EISCONN)
			rc = -EALREADY;
	}
	return rc;
}

static int smc_listen(struct socket *sock, int backlog)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	struct sock *clcsk = clcsock->sk;
	struct sock *sk = sock->sk;
	int rc;

	lock_sock(sk);
	/* an SMC-R connection, even one its peer reset, never listens */
	if (smc_uses_smcr(smc)) {
		release_sock(sk);
		return -EINVAL;
	}
	/* TCP children clone the listener's callbacks: ours must be off */
	smc_clcsock_unhook(smc);
	if (sk->sk_state == SMC_INIT || sk->sk_state == SMC_LISTEN)
		smc_listen_start(smc);
	rc = READ_ONCE(clcsock->ops)->listen(clcsock, backlog);
	if (READ_ONCE(clcsk->sk_state) == TCP_LISTEN) {
		WRITE_ONCE(sk->sk_max_ack_backlog,
			   READ_ONCE(clcsk->sk_max_ack_backlog));
		WRITE_ONCE(sk->sk_state, SMC_LISTEN);
		/* children TCP queued before we listened for them */
		queue_work(smc_hs_wq, &smc->listen_work);
	} else {
		smc_listen_stop(smc);
		smc_clcsock_hook(smc);
	}
	release_sock(sk);
	return rc;
}

static int smc_getname(struct socket *sock, struct sockaddr *addr, int peer)
{
	struct socket *clcsock = smc_clc_get(sock);

	return READ_ONCE(clcsock->ops)->getname(clcsock, addr, peer);
}

/*
 * The caller waits on the SMC socket's queue, which the clcsk wakes (see
 * smc_clcsock.c); the mask is TCP's.  sock_poll_wait() orders the queue
 * insertion before TCP's state is read, so no wake-up is lost.
 */
static __poll_t smc_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);

	__poll_t mask;

	sock_poll_wait(file, sock, wait);
	if (READ_ONCE(sock->sk->sk_state) == SMC_LISTEN)
		return smc_listen_poll(smc);
	if (smc_uses_smcr(smc))
		return smc_stream_poll(smc);
	smc_clcsock_sync(smc);
	mask = READ_ONCE(clcsock->ops)->poll(file, clcsock, NULL);
	/* no data moves before the CLC handshake decided how */
	if (smc_hs_pending(smc))
		mask &= EPOLLERR | EPOLLHUP;
	return mask;
}

static int smc_ioctl(struct socket *sock, unsigned int cmd,
		     unsigned long arg)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	int rc;

	if (smc_uses_smcr(smc)) {
		rc = smc_stream_ioctl(smc, cmd, arg);
		if (rc != -ENOIOCTLCMD)
			return rc;
	}
	rc = READ_ONCE(clcsock->ops)->ioctl(clcsock, cmd, arg);
	smc_clcsock_sync(smc);
	return rc;
}

#ifdef CONFIG_COMPAT
static int smc_compat_ioctl(struct socket *sock, unsigned int cmd,
			    unsigned long arg)
{
	struct socket *clcsock = smc_clc_get(sock);
	const struct proto_ops *ops = READ_ONCE(clcsock->ops);

	if (!ops->compat_ioctl)
		return -ENOIOCTLCMD;
	return ops->compat_ioctl(clcsock, cmd, arg);
}
#endif

static int smc_gettstamp(struct socket *sock, void __user *userstamp,
			 bool timeval, bool time32)
{
	struct socket *clcsock = smc_clc_get(sock);
	const struct proto_ops *ops = READ_ONCE(clcsock->ops);

	if (!ops->gettstamp)
		return -ENOIOCTLCMD;
	return ops->gettstamp(clcsock, userstamp, timeval, time32);
}

static int smc_shutdown(struct socket *sock, int how)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	struct sock *sk = sock->sk;
	int rc;

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	if (smc_uses_smcr(smc))
		return smc_close_shutdown(smc, how);
	lock_sock(sk);
	rc = READ_ONCE(clcsock->ops)->shutdown(clcsock, how);
	/* shutdown(SHUT_RD) stops a TCP listener; it may listen again */
	if (sk->sk_state == SMC_LISTEN &&
	    READ_ONCE(clcsock->sk->sk_state) != TCP_LISTEN) {
		WRITE_ONCE(sk->sk_state, SMC_INIT);
		smc_listen_stop(smc);
		smc_clcsock_hook(smc);
		/* wake accept() and poll(), as TCP's shutdown does */
		sk->sk_state_change(sk);
	}
	smc_clcsock_sync(smc);
	release_sock(sk);
	return rc;
}

static int smc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	int rc;

	/* sendto(MSG_FASTOPEN) connects with data in the SYN: no SMC */
	if ((msg->msg_flags & MSG_FASTOPEN) &&
	    READ_ONCE(sock->sk->sk_state) == SMC_INIT)
		smc_clcsock_fallback(smc, SMC_CLC_DECL_OPTUNSUPP);
	if (smc_hs_pending(smc)) {
		long timeo = sock_sndtimeo(sock->sk,
					   msg->msg_flags & MSG_DONTWAIT);

		rc = smc_hs_wait_data(smc, timeo);
		if (rc)
			return rc;
	}
	if (smc_uses_smcr(smc))
		return smc_stream_sendmsg(smc, msg, len);

	smc_clcsock_sync(smc);
	rc = READ_ONCE(clcsock->ops)->sendmsg(clcsock, msg, len);
	smc_clcsock_sync(smc);
	return rc;
}

static int smc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	int rc;

	if (smc_hs_pending(smc)) {
		long timeo = sock_rcvtimeo(sock->sk, flags & MSG_DONTWAIT);

		rc = smc_hs_wait_data(smc, timeo);
		if (rc)
			return rc;
	}
	if (smc_uses_smcr(smc))
		return smc_stream_recvmsg(smc, msg, len, flags);
	smc_clcsock_sync(smc);
	rc = READ_ONCE(clcsock->ops)->recvmsg(clcsock, msg, len, flags);
	smc_clcsock_sync(smc);
	return rc;
}

static ssize_t smc_splice_read(struct socket *sock, loff_t *ppos,
			       struct pipe_inode_info *pipe, size_t len,
			       unsigned int flags)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	ssize_t rc;

	/* tcp_splice_read() dereferences clcsock->file */
	if (!READ_ONCE(clcsock->file))
		return -EINVAL;
	if (smc_hs_pending(smc)) {
		bool nonblock = (flags & SPLICE_F_NONBLOCK) ||
				(sock->file->f_flags & O_NONBLOCK);

		rc = smc_hs_wait_data(smc, sock_rcvtimeo(sock->sk, nonblock));
		if (rc)
			return rc;
	}
	if (smc_uses_smcr(smc))
		return smc_stream_splice_read(smc, ppos, pipe, len, flags);
	smc_clcsock_sync(smc);
	rc = READ_ONCE(clcsock->ops)->splice_read(clcsock, ppos, pipe, len,
						  flags);
	smc_clcsock_sync(smc);
	return rc;
}

#ifdef SMC_HAVE_SPLICE_EOF
/* end of a sendfile()/splice() to the socket: push out corked data */
static void smc_splice_eof(struct socket *sock)
{
	struct socket *clcsock = smc_clc_get(sock);
	const struct proto_ops *ops = READ_ONCE(clcsock->ops);

	if (smc_uses_smcr(smc_sk(sock->sk))) {
		smc_stream_push(smc_sk(sock->sk));
		return;
	}
	if (ops->splice_eof)
		ops->splice_eof(clcsock);
}
#else
static ssize_t smc_sendpage(struct socket *sock, struct page *page,
			    int offset, size_t size, int flags)
{
	struct socket *clcsock = smc_clc_get(sock);

	/* sock_no_sendpage() goes through our sendmsg */
	if (smc_uses_smcr(smc_sk(sock->sk)))
		return sock_no_sendpage(sock, page, offset, size, flags);
	return kernel_sendpage(clcsock, page, offset, size, flags);
}
#endif

const struct proto_ops smc_sock_ops = {
	.family		= PF_SMC,
	.owner		= THIS_MODULE,
	.release	= smc_sock_release,
	.bind		= smc_bind,
	.connect	= smc_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= SMC_ACCEPT_OP,
	.getname	= smc_getname,
	.poll		= smc_poll,
	.ioctl		= smc_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= smc_compat_ioctl,
#endif
	.gettstamp	= smc_gettstamp,
	.listen		= smc_listen,
	.shutdown	= smc_shutdown,
	.setsockopt	= smc_setsockopt,
	.getsockopt	= smc_getsockopt,
	.sendmsg	= smc_sendmsg,
	.recvmsg	= smc_recvmsg,
	.mmap		= sock_no_mmap,
	.splice_read	= smc_splice_read,
#ifdef SMC_HAVE_SPLICE_EOF
	.splice_eof	= smc_splice_eof,
#else
	.sendpage	= smc_sendpage,
#endif
};
