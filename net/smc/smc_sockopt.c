// SPDX-License-Identifier: GPL-2.0
/*
 * Shared Memory Communications over RDMA (SMC-R, RFC 7609)
 *
 * Socket options of AF_SMC sockets.  SOL_SMC is ours; every other level
 * is the clcsock's, so an SMC socket accepts and rejects options exactly
 * as TCP does.
 */

#include <linux/sockptr.h>
#include <linux/tcp.h>
#include <linux/uaccess.h>
#include <uapi/linux/smc.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smc.h"

static bool smc_is_fastopen_opt(int optname)
{
	switch (optname) {
	case TCP_FASTOPEN:
	case TCP_FASTOPEN_CONNECT:
	case TCP_FASTOPEN_KEY:
	case TCP_FASTOPEN_NO_COOKIE:
		return true;
	}
	return false;
}

/*
 * The socket core only passes SOL_SOCKET here because the socket has
 * SOCK_CUSTOM_SOCKOPT.  TCP's verdict is the result; the SMC sock then
 * copies what getsockopt(SOL_SOCKET), served from it, will read.
 */
static int smc_setsockopt_socket(struct smc_sock *smc, int optname,
				 sockptr_t optval, unsigned int optlen)
{
	struct socket *clcsock = smc->clcsock;
	struct sock *sk = &smc->sk;
	int rc;

	rc = sock_setsockopt(clcsock, SOL_SOCKET, optname, optval, optlen);
	if (rc)
		return rc;
	lock_sock(sk);
	smc_clcsock_copy_settings(smc);
	release_sock(sk);
	return 0;
}

static int smc_setsockopt_smc(struct smc_sock *smc, int optname,
			      sockptr_t optval, unsigned int optlen)
{
	struct sock *sk = &smc->sk;
	int val;

	/* unknown SOL_SMC options: EOPNOTSUPP, as the upstream module says */
	if (optname != SMC_LIMIT_HS)
		return -EOPNOTSUPP;
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(int)))
		return -EFAULT;

	lock_sock(sk);
	smc->limit_hs = !!val;
	if (sk->sk_state == SMC_LISTEN)
		smc_listen_limit_hs(smc);
	release_sock(sk);
	return 0;
}

/**
 * smc_setsockopt() - proto_ops->setsockopt of AF_SMC sockets
 * @sock: SMC socket
 * @level: SOL_SMC, SOL_SOCKET, or a level the clcsock handles
 * @optname: option
 * @optval: value
 * @optlen: length of @optval
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno; for clcsock levels, TCP's.
 */
int smc_setsockopt(struct socket *sock, int level, int optname,
		   sockptr_t optval, unsigned int optlen)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);
	struct sock *sk = sock->sk;
	int rc;

	switch (level) {
	case SOL_SOCKET:
		return smc_setsockopt_socket(smc, optname, optval, optlen);
	case SOL_SMC:
		return smc_setsockopt_smc(smc, optname, optval, optlen);
	case SOL_TCP:
		/* an SMC socket cannot become another ULP's socket */
		if (optname == TCP_ULP)
			return -EOPNOTSUPP;
		break;
	}

	rc = READ_ONCE(clcsock->ops)->setsockopt(clcsock, level, optname,
						 optval, optlen);
	if (!rc && level == SOL_TCP && smc_uses_smcr(smc) &&
	    (optname == TCP_CORK || optname == TCP_NODELAY)) {
		/* TCP keeps the setting; the SMC-R send path follows it */
		smc_stream_set_cork(smc, tcp_sk(clcsock->sk)->nonagle &
				    TCP_NAGLE_CORK);
		if (optname == TCP_NODELAY)
			smc_stream_push(smc);
	}
	if (rc || level != SOL_TCP || !smc_is_fastopen_opt(optname))
		return rc;

	/* TCP Fast Open and the SMC handshake exclude each other */
	lock_sock(sk);
	if (sk->sk_state == SMC_INIT || sk->sk_state == SMC_LISTEN)
		smc_clcsock_fallback(smc, SMC_CLC_DECL_OPTUNSUPP);
	release_sock(sk);
	return 0;
}

static int smc_getsockopt_smc(struct smc_sock *smc, int optname,
			      char __user *optval, int __user *optlen)
{
	int val, len;

	if (optname != SMC_LIMIT_HS)
		return -EOPNOTSUPP;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	len = min_t(int, len, sizeof(int));

	lock_sock(&smc->sk);
	val = smc->limit_hs;
	release_sock(&smc->sk);

	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

/**
 * smc_getsockopt() - proto_ops->getsockopt of AF_SMC sockets
 * @sock: SMC socket
 * @level: SOL_SMC or a level the clcsock handles (the core serves
 *	SOL_SOCKET from the SMC sock without calling us)
 * @optname: option
 * @optval: user buffer
 * @optlen: user length, in: size of @optval, out: bytes written
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno; for clcsock levels, TCP's.
 */
int smc_getsockopt(struct socket *sock, int level, int optname,
		   char __user *optval, int __user *optlen)
{
	struct smc_sock *smc = smc_sk(sock->sk);
	struct socket *clcsock = smc_clc_get(sock);

	if (level == SOL_SMC)
		return smc_getsockopt_smc(smc, optname, optval, optlen);
	return READ_ONCE(clcsock->ops)->getsockopt(clcsock, level, optname,
						   optval, optlen);
}
