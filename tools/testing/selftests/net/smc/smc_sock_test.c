// SPDX-License-Identifier: GPL-2.0
/*
 * smc_sock_test - socket API semantics of AF_SMC sockets, checked across
 * two hosts against what a TCP socket does.
 *
 *   smc_sock_test list
 *   smc_sock_test server --case NAME [--port P] [--host BINDADDR]
 *		[--family smc|inet|tcp] [--ipv6] [--daemon --result FILE]
 *		[--hook CMD] [--timeout S] [--smcr]
 *   smc_sock_test client --case NAME --host ADDR --port P
 *		[--family smc|inet|tcp] [--ipv6] [--hook CMD] [--timeout S]
 *		[--smcr]
 *   smc_sock_test wait --result FILE [--kill]
 *   smc_sock_test probe [--family smc|inet|tcp] [--ipv6]
 *
 * Every case has a server and a client half; each half checks its own
 * results and exits non-zero with a message on the first mismatch.  The
 * first connection of every case runs a three-step handshake during
 * which the --hook command (if given) runs, so the mode of both ends can
 * be asserted while the connection is known to be up.  --smcr says the
 * connection runs over SMC-R, for the few cases where upstream SMC-R
 * differs from TCP on purpose.
 */
#define _GNU_SOURCE
#include "smc_test_common.h"

#include <endian.h>
#include <linux/sockios.h>
#include <poll.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/uio.h>

#ifndef SOL_SMC
#define SOL_SMC			286
#endif
#ifndef SMC_LIMIT_HS
#define SMC_LIMIT_HS		1
#endif
#ifndef TCP_ULP
#define TCP_ULP			31
#endif
#ifndef SOL_TCP
#define SOL_TCP			6
#endif

/*
 * An unknown SOL_SMC option: the distro smc.ko (the reference) answers
 * EOPNOTSUPP for both get and set.
 */
#define SMC_UNKNOWN_OPT_ERRNO	EOPNOTSUPP

#define WAIT_MS			30000	/* upper bound for "must happen" */

struct tcase {
	const char *name;
	void (*pre)(int lfd);		/* server, before READY */
	void (*server)(int lfd);
	void (*client)(void);
};

static int aux_fd = -1;		/* per-case helper socket of the server */

/* ---- helpers -------------------------------------------------------------- */

static unsigned char pat(unsigned long i, unsigned int seed)
{
	unsigned long x = (i + 1) * 2654435761UL + seed * 40503UL;

	return (unsigned char)(x ^ (x >> 13) ^ (x >> 21));
}

static void fill_pat(unsigned char *b, size_t len, unsigned long off,
		     unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = pat(off + i, seed);
}

static void check_pat(const unsigned char *b, size_t len, unsigned long off,
		      unsigned int seed, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != pat(off + i, seed))
			FAIL("%s: byte %lu is 0x%02x, expected 0x%02x", what,
			     off + i, b[i], pat(off + i, seed));
}

static void set_nonblock(int fd, bool on)
{
	int fl = OK(fcntl(fd, F_GETFL));

	OK(fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK));
}

static int xpoll(int fd, short events, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	OK(n);
	if (timeout_ms >= WAIT_MS && n == 0)
		FAIL("poll(events 0x%x): no event within %d ms", events,
		     timeout_ms);
	return n ? p.revents : 0;
}

static int getint(int fd, int level, int name)
{
	socklen_t len = sizeof(int);
	int v = -12345;

	OK(getsockopt(fd, level, name, &v, &len));
	EQ(len, sizeof(int));
	return v;
}

static void setint(int fd, int level, int name, int v)
{
	OK(setsockopt(fd, level, name, &v, sizeof(v)));
}

static int sock_error(int fd)
{
	return getint(fd, SOL_SOCKET, SO_ERROR);
}

static void set_nodelay(int fd)
{
	setint(fd, SOL_TCP, TCP_NODELAY, 1);
}

static int server_accept(int lfd)
{
	int fd = xaccept(lfd);

	handshake_server(fd);
	return fd;
}

static int client_connect(void)
{
	int fd = xconnect_to(opt.port);

	handshake_client(fd);
	return fd;
}

/* the main connection ends with the client closing */
static void server_finish(int fd)
{
	expect_eof(fd);
	close(fd);
}

/*
 * Compare one operation on a fresh socket of the family under test with
 * the same operation on a fresh plain TCP socket.
 */
struct res {
	long rc;
	int err;
	long val;
};

typedef struct res (*op_fn)(int fd);

static void same_as_tcp(int line, const char *what, op_fn op)
{
	int a = xsocket(), b = xtcp_socket();
	struct res ra, rb;

	ra = op(a);
	rb = op(b);
	close(a);
	close(b);
	if (ra.rc != rb.rc || (ra.rc < 0 && ra.err != rb.err) ||
	    ra.val != rb.val)
		fail_at(line, "%s: got rc %ld (%s) val %ld, TCP gives rc %ld (%s) val %ld",
			what, ra.rc, ra.rc < 0 ? strerrorname_np(ra.err) : "-",
			ra.val, rb.rc,
			rb.rc < 0 ? strerrorname_np(rb.err) : "-", rb.val);
	note("%s: rc %ld val %ld, as TCP", what, ra.rc, ra.val);
}

#define SAME_AS_TCP(op)	same_as_tcp(__LINE__, #op, op)

static struct res mkres(long rc, long val)
{
	struct res r = { .rc = rc, .err = rc < 0 ? errno : 0, .val = val };

	return r;
}

/* ---- bind ------------------------------------------------------------------ */

static struct res op_bind_short(int fd)
{
	struct sockaddr_storage ss;

	make_addr(&ss, NULL, 0);
	return mkres(bind(fd, (struct sockaddr *)&ss, sizeof(sa_family_t)), 0);
}

static struct res op_bind_wrong_family(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, NULL, 0);

	ss.ss_family = AF_UNIX;
	return mkres(bind(fd, (struct sockaddr *)&ss, len), 0);
}

static void bind_checks(unsigned short busy_port)
{
	struct sockaddr_storage ss, got;
	socklen_t len = make_addr(&ss, NULL, busy_port), glen = sizeof(got);
	int s = xsocket(), one = 1;

	/* a listening port stays busy, even with SO_REUSEADDR on both */
	ERR(bind(s, (struct sockaddr *)&ss, len), EADDRINUSE);
	close(s);
	s = xsocket();
	OK(setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)));
	ERR(bind(s, (struct sockaddr *)&ss, len), EADDRINUSE);
	close(s);

	/* port 0 picks an ephemeral port; a second bind is EINVAL */
	s = xsocket();
	len = make_addr(&ss, NULL, 0);
	OK(bind(s, (struct sockaddr *)&ss, len));
	OK(getsockname(s, (struct sockaddr *)&got, &glen));
	EQ(glen, len);
	EQ(got.ss_family, opt.ipv6 ? AF_INET6 : AF_INET);
	CHECK(addr_port(&got) != 0, "bind to port 0 left port 0");
	ERR(bind(s, (struct sockaddr *)&ss, len), EINVAL);
	close(s);

	SAME_AS_TCP(op_bind_short);
	SAME_AS_TCP(op_bind_wrong_family);
}

static void bind_server(int lfd)
{
	int fd;

	bind_checks(local_port(lfd));
	fd = server_accept(lfd);
	server_finish(fd);
}

static void bind_client(void)
{
	int l = xlisten_socket(NULL, 0, 1), fd;

	bind_checks(local_port(l));
	close(l);
	fd = client_connect();
	close(fd);
}

/* ---- listen ---------------------------------------------------------------- */

static struct res op_listen_unbound(int fd)
{
	long rc = listen(fd, 4);
	struct res r = mkres(rc, 0);

	if (!rc)
		r.val = local_port(fd) != 0;	/* autobound */
	return r;
}

static struct res op_acceptconn_fresh(int fd)
{
	return mkres(0, getint(fd, SOL_SOCKET, SO_ACCEPTCONN));
}

static void listen_server(int lfd)
{
	int fds[3], seen = 0, main_fd = -1, i;
	char c;

	EQ(getint(lfd, SOL_SOCKET, SO_ACCEPTCONN), 1);
	OK(listen(lfd, 8));	/* listen again only changes the backlog */
	EQ(getint(lfd, SOL_SOCKET, SO_ACCEPTCONN), 1);
	/* three connections are queued before the first accept */
	for (i = 0; i < 3; i++) {
		fds[i] = xaccept(lfd);
		EQ(getint(fds[i], SOL_SOCKET, SO_ACCEPTCONN), 0);
		recv_all(fds[i], &c, 1);
		CHECK(c >= '1' && c <= '3' && !(seen & (1 << (c - '1'))),
		      "unexpected connection tag '%c'", c);
		seen |= 1 << (c - '1');
		if (c == '1')
			main_fd = fds[i];
	}
	handshake_server(main_fd);
	for (i = 0; i < 3; i++)
		send_byte(fds[i], 'r');
	for (i = 0; i < 3; i++)
		server_finish(fds[i]);
}

static void listen_client(void)
{
	int fds[3], i;

	SAME_AS_TCP(op_listen_unbound);
	SAME_AS_TCP(op_acceptconn_fresh);
	for (i = 0; i < 3; i++)
		fds[i] = xconnect_to(opt.port);
	for (i = 0; i < 3; i++)
		send_byte(fds[i], '1' + i);
	handshake_client(fds[0]);
	/* listen on a connected socket */
	ERR(listen(fds[0], 4), EINVAL);
	for (i = 0; i < 3; i++)
		expect_byte(fds[i], 'r');
	for (i = 0; i < 3; i++)
		close(fds[i]);
}

/* ---- accept ---------------------------------------------------------------- */

static void accept_block_server(int lfd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd;

	do {
		fd = accept(lfd, (struct sockaddr *)&ss, &len);
	} while (fd < 0 && errno == EINTR);
	OK(fd);
	EQ(len, opt.ipv6 ? sizeof(struct sockaddr_in6) :
			   sizeof(struct sockaddr_in));
	EQ(ss.ss_family, opt.ipv6 ? AF_INET6 : AF_INET);
	EQ(addr_port(&ss), remote_port(fd));
	EQ(local_port(fd), local_port(lfd));
	EQ(OK(fcntl(fd, F_GETFL)) & O_NONBLOCK, 0);
	handshake_server(fd);
	server_finish(fd);
}

static void plain_client(void)
{
	int fd = client_connect();

	close(fd);
}

static void accept_nonblock_pre(int lfd)
{
	set_nonblock(lfd, true);
	ERR(accept(lfd, NULL, NULL), EAGAIN);
}

static void accept_nonblock_server(int lfd)
{
	int fd;

	EQ(xpoll(lfd, POLLIN | POLLOUT, WAIT_MS), POLLIN);
	fd = OK(accept(lfd, NULL, NULL));
	/* the accepted socket does not inherit O_NONBLOCK */
	EQ(OK(fcntl(fd, F_GETFL)) & O_NONBLOCK, 0);
	ERR(accept(lfd, NULL, NULL), EAGAIN);
	EQ(xpoll(lfd, POLLIN, 0), 0);
	handshake_server(fd);
	server_finish(fd);
}

static void accept4_server(int lfd)
{
	int a, b;

	ERR(accept4(lfd, NULL, NULL, 0x1), EINVAL);
	a = OK(accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC));
	EQ(OK(fcntl(a, F_GETFL)) & O_NONBLOCK, O_NONBLOCK);
	EQ(OK(fcntl(a, F_GETFD)) & FD_CLOEXEC, FD_CLOEXEC);
	set_nonblock(a, false);
	handshake_server(a);
	b = OK(accept4(lfd, NULL, NULL, 0));
	EQ(OK(fcntl(b, F_GETFL)) & O_NONBLOCK, 0);
	EQ(OK(fcntl(b, F_GETFD)) & FD_CLOEXEC, 0);
	expect_byte(b, 'x');
	send_byte(b, 'y');
	server_finish(b);
	server_finish(a);
}

static void accept4_client(void)
{
	int a = client_connect(), b = xconnect_to(opt.port);

	send_byte(b, 'x');
	expect_byte(b, 'y');
	close(b);
	close(a);
}

static void accept_timeo_pre(int lfd)
{
	struct timeval tv = { .tv_usec = 300000 };
	unsigned long long t0;

	OK(setsockopt(lfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	t0 = now_ms();
	ERR(accept(lfd, NULL, NULL), EAGAIN);
	t0 = now_ms() - t0;
	CHECK(t0 >= 250 && t0 < 20000, "accept timed out after %llu ms, SO_RCVTIMEO is 300 ms",
	      t0);
	tv.tv_usec = 0;
	OK(setsockopt(lfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
}

static void plain_server(int lfd)
{
	server_finish(server_accept(lfd));
}

/* ---- connect --------------------------------------------------------------- */

static struct res op_connect_listening(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, opt.host, opt.port);
	struct sockaddr_storage b;
	socklen_t blen = make_addr(&b, NULL, 0);

	if (bind(fd, (struct sockaddr *)&b, blen) || listen(fd, 1))
		return mkres(-1, 1000);
	return mkres(connect(fd, (struct sockaddr *)&ss, len), 0);
}

static void check_peer_addr(int fd)
{
	struct sockaddr_storage want, got;
	socklen_t wlen = make_addr(&want, opt.host, opt.port);
	socklen_t glen = sizeof(got);

	OK(getpeername(fd, (struct sockaddr *)&got, &glen));
	EQ(glen, wlen);
	CHECK(!memcmp(&got, &want, wlen), "getpeername differs from %s:%u",
	      opt.host, opt.port);
}

static void connect_client(void)
{
	struct sockaddr_storage ss, got;
	socklen_t len = make_addr(&ss, opt.host, opt.port);
	socklen_t glen = sizeof(got);
	int fd = xsocket();

	ERR(getpeername(fd, (struct sockaddr *)&got, &glen), ENOTCONN);
	glen = sizeof(got);
	OK(getsockname(fd, (struct sockaddr *)&got, &glen));
	EQ(got.ss_family, opt.ipv6 ? AF_INET6 : AF_INET);
	EQ(addr_port(&got), 0);
	OK(connect(fd, (struct sockaddr *)&ss, len));
	CHECK(local_port(fd) != 0, "no local port after connect");
	check_peer_addr(fd);
	ERR(connect(fd, (struct sockaddr *)&ss, len), EISCONN);
	SAME_AS_TCP(op_connect_listening);
	handshake_client(fd);
	close(fd);
}

/*
 * connect(AF_UNSPEC) disconnects a TCP socket (with a reset) and so a
 * fallback one; on an SMC-R connection upstream refuses it, and listen()
 * too, with EINVAL, and the connection goes on.
 */
static void disconnect_server(int lfd)
{
	int fd = server_accept(lfd);
	char c;

	if (!opt.smcr) {
		ERR(recv(fd, &c, 1, 0), ECONNRESET);
		close(fd);
		return;
	}
	expect_byte(fd, 'd');
	send_byte(fd, 'e');
	server_finish(fd);
}

static void disconnect_client(void)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct sockaddr sa = { .sa_family = AF_UNSPEC };
	int fd = client_connect();

	if (!opt.smcr) {
		OK(connect(fd, &sa, sizeof(sa)));
		ERR(getpeername(fd, (struct sockaddr *)&ss, &len), ENOTCONN);
		close(fd);
		return;
	}
	ERR(connect(fd, &sa, sizeof(sa)), EINVAL);
	ERR(listen(fd, 1), EINVAL);
	OK(getpeername(fd, (struct sockaddr *)&ss, &len));
	send_byte(fd, 'd');
	expect_byte(fd, 'e');
	close(fd);
}

static void connect_nonblock_client(void)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, opt.host, opt.port);
	int fd = xsocket(), ev;

	set_nonblock(fd, true);
	ERR(connect(fd, (struct sockaddr *)&ss, len), EINPROGRESS);
	ev = xpoll(fd, POLLOUT, WAIT_MS);
	EQ(ev, POLLOUT);
	EQ(sock_error(fd), 0);
	/* like TCP: the first connect after completion reports success */
	OK(connect(fd, (struct sockaddr *)&ss, len));
	ERR(connect(fd, (struct sockaddr *)&ss, len), EISCONN);
	check_peer_addr(fd);
	set_nonblock(fd, false);
	handshake_client(fd);
	close(fd);
}

static void connect_refused_pre(int lfd)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, NULL, 0);

	(void)lfd;
	/* a bound, non-listening port: connections get a RST */
	aux_fd = xsocket();
	OK(bind(aux_fd, (struct sockaddr *)&ss, len));
}

static void connect_refused_server(int lfd)
{
	unsigned short port = htons(local_port(aux_fd));
	int fd = server_accept(lfd);

	send_all(fd, &port, sizeof(port));
	expect_byte(fd, 'D');
	close(aux_fd);
	server_finish(fd);
}

/* nonblocking connect to a closed port: returns poll mask; checks SO_ERROR */
static int refused_nonblock(int fd, unsigned short port)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, opt.host, port);
	int ev;

	set_nonblock(fd, true);
	ERR(connect(fd, (struct sockaddr *)&ss, len), EINPROGRESS);
	ev = xpoll(fd, POLLOUT, WAIT_MS);
	/* reported exactly once */
	EQ(sock_error(fd), ECONNREFUSED);
	EQ(sock_error(fd), 0);
	return ev;
}

/*
 * What TCP's poll answers on a connect the peer refused, depending on
 * how far the reset's handling got when poll ran: the error alone
 * (sk_err set, still SYN_SENT), then POLLHUP with the state CLOSE, and
 * POLLOUT too before tcp_done() sets sk_shutdown.
 */
static bool refused_mask_ok(int ev)
{
	return ev == POLLERR || ev == (POLLERR | POLLHUP) ||
	       ev == (POLLERR | POLLHUP | POLLOUT);
}

static void connect_refused_client(void)
{
	int fd = client_connect(), s, ev, tcp_ev;
	struct sockaddr_storage ss;
	unsigned short port;
	socklen_t len;

	recv_all(fd, &port, sizeof(port));
	port = ntohs(port);
	/* any of TCP's answers, nothing else */
	s = xsocket();
	ev = refused_nonblock(s, port);
	close(s);
	CHECK(refused_mask_ok(ev),
	      "poll after refused connect: 0x%x, want POLLERR (|POLLHUP (|POLLOUT))",
	      ev);
	s = xtcp_socket();
	tcp_ev = refused_nonblock(s, port);
	close(s);
	CHECK(refused_mask_ok(tcp_ev), "TCP's poll after refused connect: 0x%x",
	      tcp_ev);

	/* and the blocking flavour */
	s = xsocket();
	len = make_addr(&ss, opt.host, port);
	ERR(connect(s, (struct sockaddr *)&ss, len), ECONNREFUSED);
	EQ(sock_error(s), 0);
	close(s);
	send_byte(fd, 'D');
	close(fd);
}

/* ---- read/write families ------------------------------------------------ */

enum xfer { X_RW, X_V, X_SR, X_MSG, X_MAX };
static const size_t xfer_len[X_MAX] = { 100, 60, 200, 120 };

static void xsend(int fd, enum xfer how, unsigned int seed)
{
	unsigned char buf[256];
	size_t len = xfer_len[how];
	struct iovec iov[3];
	struct msghdr mh = { 0 };
	ssize_t n = -1;

	fill_pat(buf, len, 0, seed);
	switch (how) {
	case X_RW:
		EQ(write(fd, buf, 0), 0);
		n = write(fd, buf, len);
		break;
	case X_V:
		iov[0] = (struct iovec){ buf, 10 };
		iov[1] = (struct iovec){ buf + 10, 20 };
		iov[2] = (struct iovec){ buf + 30, 30 };
		n = writev(fd, iov, 3);
		break;
	case X_SR:
		n = send(fd, buf, len, 0);
		break;
	case X_MSG:
		iov[0] = (struct iovec){ buf, 50 };
		iov[1] = (struct iovec){ buf + 50, 70 };
		mh.msg_iov = iov;
		mh.msg_iovlen = 2;
		n = sendmsg(fd, &mh, 0);
		break;
	default:
		break;
	}
	if (n != (ssize_t)len)
		FAIL("send method %d: %zd of %zu bytes (%s)", how, n, len,
		     n < 0 ? strerrorname_np(errno) : "short");
}

static void xrecv(int fd, enum xfer how, unsigned int seed)
{
	unsigned char buf[256];
	size_t len = xfer_len[how], got = 0;
	struct sockaddr_storage ss;
	struct msghdr mh;
	struct iovec iov[3];
	ssize_t n;

	memset(buf, 0, sizeof(buf));
	while (got < len) {
		size_t want = len - got;
		unsigned char *p = buf + got;

		switch (how) {
		case X_RW:
			n = read(fd, p, want);
			break;
		case X_V:
			iov[0] = (struct iovec){ p, want / 2 };
			iov[1] = (struct iovec){ p + want / 2, want - want / 2 };
			n = readv(fd, iov, 2);
			break;
		case X_SR:
			n = recv(fd, p, want, 0);
			break;
		default:
			memset(&mh, 0, sizeof(mh));
			iov[0] = (struct iovec){ p, want };
			mh.msg_iov = iov;
			mh.msg_iovlen = 1;
			mh.msg_name = &ss;
			mh.msg_namelen = sizeof(ss);
			n = recvmsg(fd, &mh, 0);
			if (n > 0) {
				EQ(mh.msg_flags, 0);
				EQ(mh.msg_namelen, 0);
			}
			break;
		}
		if (n <= 0)
			FAIL("recv method %d: %zd at %zu/%zu (%s)", how, n, got,
			     len, n < 0 ? strerrorname_np(errno) : "EOF");
		got += n;
	}
	check_pat(buf, len, 0, seed, "rw data");
}

static void rw_server(int lfd)
{
	int fd = server_accept(lfd), how;

	for (how = 0; how < X_MAX; how++) {
		xrecv(fd, how, how);
		send_byte(fd, 'k');
	}
	for (how = 0; how < X_MAX; how++) {
		xsend(fd, how, 100 + how);
		expect_byte(fd, 'k');
	}
	server_finish(fd);
}

static void rw_client(void)
{
	int fd = client_connect(), how;

	set_nodelay(fd);
	for (how = 0; how < X_MAX; how++) {
		xsend(fd, how, how);
		expect_byte(fd, 'k');
	}
	for (how = 0; how < X_MAX; how++) {
		xrecv(fd, how, 100 + how);
		send_byte(fd, 'k');
	}
	close(fd);
}

/* ---- wake-ups ------------------------------------------------------------ */

#define WAKE_MSGS		100
#define WAKE_MSG_LEN		1024

/* voluntary context switches of this process so far */
static long vol_switches(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	CHECK(f, "/proc/self/status: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	CHECK(v >= 0, "no voluntary_ctxt_switches in /proc/self/status");
	return v;
}

/* process @pid is asleep (state S), within WAIT_MS */
static void wait_asleep(pid_t pid)
{
	unsigned long long end = now_ms() + WAIT_MS;
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (;;) {
		fd = OK(open(path, O_RDONLY));
		n = OK(read(fd, buf, sizeof(buf) - 1));
		close(fd);
		buf[n] = 0;
		/* the state follows the command name, which may hold ") " */
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return;
		CHECK(now_ms() < end, "process %d did not go to sleep", (int)pid);
		sched_yield();
	}
}

/* the send queue of @fd is empty: acknowledged (TCP), CDC done (SMC-R) */
static void wait_outq_empty(int fd)
{
	unsigned long long end = now_ms() + WAIT_MS;
	int n;

	for (;;) {
		OK(ioctl(fd, SIOCOUTQ, &n));
		if (!n)
			return;
		CHECK(now_ms() < end, "SIOCOUTQ still %d", n);
		sched_yield();
	}
}

static void reader_wakeups_server(int lfd)
{
	int fd = server_accept(lfd), i;
	char buf[WAKE_MSG_LEN];

	for (i = 0; i < WAKE_MSGS; i++)
		recv_all(fd, buf, sizeof(buf));
	send_byte(fd, 'e');
	server_finish(fd);
}

/*
 * A reader blocked in recv() sleeps while the same socket sends: freed
 * send space wakes only a writer that waits for it, as in TCP.  The
 * reader is a child process on the same socket; it counts how often it
 * slept until the server's byte came.
 */
static void reader_wakeups_client(void)
{
	int fd = client_connect(), pfd[2], i, st;
	char buf[WAKE_MSG_LEN];
	long woke = -1;
	pid_t pid;

	set_nodelay(fd);
	memset(buf, 'w', sizeof(buf));
	OK(pipe(pfd));
	pid = OK(fork());
	if (!pid) {
		long v0 = vol_switches();

		close(pfd[0]);
		expect_byte(fd, 'e');
		v0 = vol_switches() - v0;
		EQ(write(pfd[1], &v0, sizeof(v0)), sizeof(v0));
		_exit(0);
	}
	close(pfd[1]);
	wait_asleep(pid);
	/* one send at a time, each completed before the next */
	for (i = 0; i < WAKE_MSGS; i++) {
		send_all(fd, buf, sizeof(buf));
		wait_outq_empty(fd);
	}
	EQ(read(pfd[0], &woke, sizeof(woke)), sizeof(woke));
	EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && !WEXITSTATUS(st), "reader status 0x%x", st);
	note("the reader slept %ld times", woke);
	CHECK(woke <= WAKE_MSGS / 10,
	      "a reader blocked in recv() slept %ld times while %d sends completed",
	      woke, WAKE_MSGS);
	close(pfd[0]);
	close(fd);
}

/* ---- MSG_PEEK / MSG_WAITALL / MSG_DONTWAIT ------------------------------ */

static void peek_server(int lfd)
{
	int fd = server_accept(lfd);

	send_all(fd, "0123456789", 10);
	expect_byte(fd, 'n');
	send_all(fd, "abc", 3);
	server_finish(fd);
}

static void peek_client(void)
{
	int fd = client_connect();
	char buf[16];

	memset(buf, 0, sizeof(buf));
	EQ(recv(fd, buf, 10, MSG_PEEK | MSG_WAITALL), 10);
	CHECK(!memcmp(buf, "0123456789", 10), "peeked '%.10s'", buf);
	memset(buf, 0, sizeof(buf));
	EQ(recv(fd, buf, 4, MSG_PEEK), 4);
	CHECK(!memcmp(buf, "0123", 4), "peeked '%.4s'", buf);
	memset(buf, 0, sizeof(buf));
	EQ(read(fd, buf, 10), 10);
	CHECK(!memcmp(buf, "0123456789", 10), "read '%.10s' after peek", buf);
	ERR(recv(fd, buf, 1, MSG_PEEK | MSG_DONTWAIT), EAGAIN);
	send_byte(fd, 'n');
	EQ(recv(fd, buf, 3, MSG_PEEK | MSG_WAITALL), 3);
	EQ(recv(fd, buf + 3, 3, 0), 3);
	CHECK(!memcmp(buf, "abcabc", 6), "peek/read '%.6s'", buf);
	close(fd);
}

static void waitall_server(int lfd)
{
	int fd = server_accept(lfd), i;
	unsigned char buf[4000];

	set_nodelay(fd);
	fill_pat(buf, sizeof(buf), 0, 7);
	for (i = 0; i < 4; i++)
		send_all(fd, buf + i * 1000, 1000);
	expect_byte(fd, 'n');
	for (i = 0; i < 3; i++)
		send_all(fd, buf + i * 1000, 1000);
	OK(shutdown(fd, SHUT_WR));
	server_finish(fd);
}

static void waitall_client(void)
{
	int fd = client_connect();
	unsigned char buf[4000];

	EQ(recv(fd, buf, sizeof(buf), MSG_WAITALL), 4000);
	check_pat(buf, 4000, 0, 7, "waitall");
	send_byte(fd, 'n');
	/* EOF ends MSG_WAITALL early with what is there */
	EQ(recv(fd, buf, sizeof(buf), MSG_WAITALL), 3000);
	check_pat(buf, 3000, 0, 7, "waitall");
	EQ(recv(fd, buf, sizeof(buf), MSG_WAITALL), 0);
	close(fd);
}

static void dontwait_server(int lfd)
{
	int fd = server_accept(lfd);

	expect_byte(fd, 'g');
	send_all(fd, "hello", 5);
	server_finish(fd);
}

static void dontwait_client(void)
{
	int fd = client_connect();
	char buf[16];

	ERR(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN);
	EQ(send(fd, "g", 1, MSG_DONTWAIT), 1);
	xpoll(fd, POLLIN, WAIT_MS);
	EQ(recv(fd, buf, 5, MSG_DONTWAIT | MSG_WAITALL), 5);
	CHECK(!memcmp(buf, "hello", 5), "got '%.5s'", buf);
	ERR(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN);
	/* the socket itself stays blocking */
	EQ(OK(fcntl(fd, F_GETFL)) & O_NONBLOCK, 0);
	close(fd);
}

/* ---- MSG_OOB ----------------------------------------------------------------- */

static volatile sig_atomic_t got_urg;

static void on_urg(int sig)
{
	(void)sig;
	got_urg++;
}

static void oob_server(int lfd)
{
	int fd = server_accept(lfd);

	set_nodelay(fd);
	send_all(fd, "ab", 2);
	EQ(send(fd, "c", 1, MSG_OOB), 1);
	expect_byte(fd, 'n');
	send_all(fd, "de", 2);
	server_finish(fd);
}

static int atmark(int fd)
{
	int v = -1;

	OK(ioctl(fd, SIOCATMARK, &v));
	return v;
}

static void oob_client_common(bool inline_oob)
{
	struct sigaction sa = { .sa_handler = on_urg };
	int fd = xconnect_to(opt.port);
	char buf[8];

	sigaction(SIGURG, &sa, NULL);
	OK(fcntl(fd, F_SETOWN, getpid()));
	EQ(fcntl(fd, F_GETOWN), getpid());
	if (inline_oob)
		setint(fd, SOL_SOCKET, SO_OOBINLINE, 1);
	handshake_client(fd);
	CHECK(xpoll(fd, POLLPRI, WAIT_MS) & POLLPRI, "no POLLPRI");
	CHECK(got_urg, "no SIGURG delivered to the F_SETOWN owner");
	EQ(atmark(fd), 0);
	memset(buf, 0, sizeof(buf));
	if (inline_oob) {
		ERR(recv(fd, buf, 1, MSG_OOB), EINVAL);
		EQ(read(fd, buf, sizeof(buf)), 2);	/* stops at the mark */
		CHECK(!memcmp(buf, "ab", 2), "read '%.2s'", buf);
		EQ(atmark(fd), 1);
		EQ(read(fd, buf, 1), 1);
		EQ(buf[0], 'c');
		EQ(atmark(fd), 0);
	} else {
		EQ(recv(fd, buf, 1, MSG_OOB), 1);
		EQ(buf[0], 'c');
		ERR(recv(fd, buf, 1, MSG_OOB), EINVAL);
		EQ(read(fd, buf, sizeof(buf)), 2);
		CHECK(!memcmp(buf, "ab", 2), "read '%.2s'", buf);
		EQ(atmark(fd), 1);
	}
	send_byte(fd, 'n');
	recv_all(fd, buf, 2);
	CHECK(!memcmp(buf, "de", 2), "after the mark read '%.2s'", buf);
	close(fd);
}

/*
 * One SIGURG per urgent byte, as TCP sends it: not again when the peer
 * shuts down while the byte is still unread.
 */
static void oob_signal_server(int lfd)
{
	int fd = server_accept(lfd);

	set_nodelay(fd);
	send_all(fd, "ab", 2);
	EQ(send(fd, "c", 1, MSG_OOB), 1);
	OK(shutdown(fd, SHUT_WR));
	expect_byte(fd, 'n');
	server_finish(fd);
}

static void oob_signal_client(void)
{
	struct sigaction sa = { .sa_handler = on_urg };
	int fd = xconnect_to(opt.port);
	char buf[8];

	got_urg = 0;
	sigaction(SIGURG, &sa, NULL);
	OK(fcntl(fd, F_SETOWN, getpid()));
	handshake_client(fd);
	/* the shutdown arrived after the urgent byte, which is unread */
	CHECK(xpoll(fd, POLLRDHUP, WAIT_MS) & POLLRDHUP, "no POLLRDHUP");
	CHECK(xpoll(fd, POLLPRI, 0) & POLLPRI, "no POLLPRI");
	EQ(got_urg, 1);
	EQ(recv(fd, buf, 1, MSG_OOB), 1);
	EQ(buf[0], 'c');
	EQ(read(fd, buf, sizeof(buf)), 2);
	CHECK(!memcmp(buf, "ab", 2), "read '%.2s'", buf);
	EQ(read(fd, buf, sizeof(buf)), 0);
	EQ(got_urg, 1);
	send_byte(fd, 'n');
	close(fd);
}

static void oob_client(void)
{
	oob_client_common(false);
}

static void oob_inline_client(void)
{
	oob_client_common(true);
}

/* ---- poll / select / epoll ---------------------------------------------- */

static int select_mask(int fd)
{
	struct timeval tv = { 0 };
	fd_set r, w, e;
	int m = 0;

	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_ZERO(&e);
	FD_SET(fd, &r);
	FD_SET(fd, &w);
	FD_SET(fd, &e);
	OK(select(fd + 1, &r, &w, &e, &tv));
	if (FD_ISSET(fd, &r))
		m |= 1;
	if (FD_ISSET(fd, &w))
		m |= 2;
	if (FD_ISSET(fd, &e))
		m |= 4;
	return m;
}

#define PEV	(POLLIN | POLLOUT | POLLRDHUP | POLLPRI)

static void poll_server(int lfd)
{
	int fd = server_accept(lfd);

	expect_byte(fd, 'g');
	send_byte(fd, 'x');
	expect_byte(fd, 'h');
	OK(shutdown(fd, SHUT_WR));
	expect_byte(fd, 'i');
	server_finish(fd);
}

static void poll_client(void)
{
	int fd = client_connect();
	char c;

	EQ(xpoll(fd, PEV, 0), POLLOUT);
	EQ(select_mask(fd), 2);
	send_byte(fd, 'g');
	xpoll(fd, POLLIN, WAIT_MS);
	EQ(xpoll(fd, PEV, 0), POLLIN | POLLOUT);
	EQ(select_mask(fd), 3);
	expect_byte(fd, 'x');
	send_byte(fd, 'h');
	/* peer shutdown(SHUT_WR): readable EOF plus RDHUP, no HUP yet */
	xpoll(fd, POLLRDHUP, WAIT_MS);
	EQ(xpoll(fd, PEV, 0), POLLIN | POLLOUT | POLLRDHUP);
	EQ(select_mask(fd), 3);
	EQ(read(fd, &c, 1), 0);
	send_byte(fd, 'i');	/* our direction still works */
	OK(shutdown(fd, SHUT_WR));
	EQ(xpoll(fd, PEV, 0), POLLIN | POLLOUT | POLLRDHUP | POLLHUP);
	close(fd);
}

static void poll_err_server(int lfd)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int fd = server_accept(lfd);
	char buf[100];

	/* wait until the data is there, then reset with it unread */
	EQ(recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_WAITALL), sizeof(buf));
	OK(setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	close(fd);
}

static void poll_err_client(void)
{
	int fd = client_connect(), ev;
	char buf[100];

	memset(buf, 'z', sizeof(buf));
	send_all(fd, buf, sizeof(buf));
	ev = xpoll(fd, POLLIN, WAIT_MS);
	CHECK(ev & POLLERR, "poll 0x%x after RST, no POLLERR", ev);
	EQ(xpoll(fd, PEV, 0), POLLIN | POLLOUT | POLLRDHUP | POLLHUP | POLLERR);
	ERR(recv(fd, buf, 1, 0), ECONNRESET);
	EQ(recv(fd, buf, 1, 0), 0);
	ERR(send(fd, buf, 1, MSG_NOSIGNAL), EPIPE);
	EQ(sock_error(fd), 0);
	close(fd);
}

static int ep_wait(int ep, int ms)
{
	struct epoll_event ev[4];
	int n;

	do {
		n = epoll_wait(ep, ev, 4, ms);
	} while (n < 0 && errno == EINTR);
	OK(n);
	if (n)
		CHECK(ev[0].events & EPOLLIN, "epoll events 0x%x", ev[0].events);
	return n;
}

static void epoll_server(int lfd)
{
	int fd = server_accept(lfd);

	expect_byte(fd, 'g');
	send_all(fd, "12345", 5);
	expect_byte(fd, 'h');
	send_all(fd, "678", 3);
	server_finish(fd);
}

static void epoll_client(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int fd = client_connect();
	int lt = OK(epoll_create1(EPOLL_CLOEXEC));
	int et = OK(epoll_create1(EPOLL_CLOEXEC));
	char buf[8];

	OK(epoll_ctl(lt, EPOLL_CTL_ADD, fd, &ev));
	ev.events = EPOLLIN | EPOLLET;
	OK(epoll_ctl(et, EPOLL_CTL_ADD, fd, &ev));
	EQ(ep_wait(lt, 0), 0);
	EQ(ep_wait(et, 0), 0);
	send_byte(fd, 'g');
	EQ(ep_wait(lt, WAIT_MS), 1);
	EQ(recv(fd, buf, 5, MSG_PEEK | MSG_WAITALL), 5);
	EQ(ep_wait(lt, 0), 1);		/* level: again and again */
	EQ(ep_wait(lt, 0), 1);
	EQ(ep_wait(et, WAIT_MS), 1);
	EQ(ep_wait(et, 0), 0);		/* edge: once */
	EQ(read(fd, buf, 5), 5);
	EQ(ep_wait(lt, 0), 0);
	send_byte(fd, 'h');
	EQ(ep_wait(et, WAIT_MS), 1);	/* new data, new edge */
	EQ(ep_wait(et, 0), 0);
	recv_all(fd, buf, 3);
	CHECK(!memcmp(buf, "678", 3), "got '%.3s'", buf);
	close(et);
	close(lt);
	close(fd);
}

/* ---- shutdown / close ------------------------------------------------------- */

static void shutdown_wr_server(int lfd)
{
	int fd = server_accept(lfd);
	char buf[3];

	recv_all(fd, buf, 3);
	CHECK(!memcmp(buf, "req", 3), "got '%.3s'", buf);
	expect_eof(fd);
	expect_eof(fd);
	send_all(fd, "reply", 5);
	close(fd);
}

static void shutdown_wr_client(void)
{
	int fd = client_connect();
	char buf[5];

	send_all(fd, "req", 3);
	OK(shutdown(fd, SHUT_WR));
	ERR(send(fd, "x", 1, MSG_NOSIGNAL), EPIPE);
	recv_all(fd, buf, 5);
	CHECK(!memcmp(buf, "reply", 5), "got '%.5s'", buf);
	expect_eof(fd);
	close(fd);
}

static void shutdown_rd_server(int lfd)
{
	int fd = server_accept(lfd);
	char buf[5];

	recv_all(fd, buf, 5);
	CHECK(!memcmp(buf, "still", 5), "got '%.5s'", buf);
	server_finish(fd);
}

static void shutdown_rd_client(void)
{
	int fd = client_connect();
	char c;

	OK(shutdown(fd, SHUT_RD));
	EQ(recv(fd, &c, 1, 0), 0);
	EQ(xpoll(fd, PEV, 0), POLLIN | POLLOUT | POLLRDHUP);
	send_all(fd, "still", 5);
	close(fd);
}

static struct res op_shutdown_unconnected(int fd)
{
	int how, err = 0;
	long rc = 0;

	for (how = SHUT_RD; how <= SHUT_RDWR; how++) {
		rc = shutdown(fd, how);
		if (rc != -1 || errno != ENOTCONN)
			return mkres(rc, 100 + how);
		err = errno;
	}
	errno = err;
	return mkres(rc, 0);
}

static void shutdown_rdwr_client(void)
{
	int fd = client_connect(), s = xsocket();
	char c;

	ERR(shutdown(s, SHUT_RDWR), ENOTCONN);
	close(s);
	SAME_AS_TCP(op_shutdown_unconnected);
	ERR(shutdown(fd, 7), EINVAL);
	OK(shutdown(fd, SHUT_RDWR));
	EQ(recv(fd, &c, 1, 0), 0);
	ERR(send(fd, "x", 1, MSG_NOSIGNAL), EPIPE);
	EQ(xpoll(fd, PEV, 0), POLLIN | POLLOUT | POLLRDHUP | POLLHUP);
	close(fd);
}

static void linger0_server(int lfd)
{
	int fd = server_accept(lfd);
	char c;

	ERR(recv(fd, &c, 1, 0), ECONNRESET);
	EQ(recv(fd, &c, 1, 0), 0);
	close(fd);
}

static void linger0_client(void)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 }, got;
	socklen_t len = sizeof(got);
	int fd = client_connect();

	OK(setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	OK(getsockopt(fd, SOL_SOCKET, SO_LINGER, &got, &len));
	EQ(got.l_onoff, 1);
	EQ(got.l_linger, 0);
	OK(close(fd));
}

/*
 * A server reads part of a request, replies and closes with the rest
 * unread.  TCP resets the connection, but the reply it sent before
 * close() arrives first: the client reads all of it, then ECONNRESET.
 * Reading half the request makes an SMC-R server send a cursor update
 * just before the reply, so the reply is still corked at close().
 */
#define UNREAD_REQ	(48 * 1024)
#define UNREAD_READ	(32 * 1024)
#define UNREAD_REPLY	3000

static void close_unread_server(int lfd)
{
	static unsigned char req[UNREAD_READ], reply[UNREAD_REPLY];
	int fd = server_accept(lfd);

	recv_all(fd, req, sizeof(req));
	check_pat(req, sizeof(req), 0, 5, "request");
	/* some of the rest is here, unread */
	xpoll(fd, POLLIN, WAIT_MS);
	fill_pat(reply, sizeof(reply), 0, 6);
	EQ(send(fd, reply, sizeof(reply), 0), (ssize_t)sizeof(reply));
	OK(close(fd));
}

static void close_unread_client(void)
{
	static unsigned char req[UNREAD_REQ], reply[UNREAD_REPLY];
	int fd = client_connect();
	char c;

	fill_pat(req, sizeof(req), 0, 5);
	send_all(fd, req, sizeof(req));
	recv_all(fd, reply, sizeof(reply));
	check_pat(reply, sizeof(reply), 0, 6, "reply");
	ERR(recv(fd, &c, 1, 0), ECONNRESET);
	EQ(recv(fd, &c, 1, 0), 0);
	close(fd);
}

#define LINGER_BYTES	(512 * 1024)

static void linger_server(int lfd)
{
	int fd = server_accept(lfd);
	static unsigned char buf[LINGER_BYTES];

	recv_all(fd, buf, sizeof(buf));
	check_pat(buf, sizeof(buf), 0, 3, "linger data");
	server_finish(fd);
}

static void linger_client(void)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 20 };
	static unsigned char buf[LINGER_BYTES];
	int fd = client_connect();
	unsigned long long t;

	OK(setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	fill_pat(buf, sizeof(buf), 0, 3);
	send_all(fd, buf, sizeof(buf));
	t = now_ms();
	OK(close(fd));
	t = now_ms() - t;
	CHECK(t < 19000, "close with linger took %llu ms", t);
}

/*
 * Clients that connect and at once close (a health check) or abort, all
 * at the same time: the server learns each end from epoll within
 * BURST_MS of accept(), as over TCP, even when the client's close
 * overtook the end of the server's handshake, which the burst makes
 * likely.  The main connection, whose mode the hook checks, stays up
 * meanwhile, so that the burst reuses its link group.
 */
#define BURST_CONNS	100
#define BURST_MS	1000

static void burst_server(int lfd, bool aborted)
{
	int fd = server_accept(lfd), ep = OK(epoll_create1(EPOLL_CLOEXEC));
	struct epoll_event ev;
	unsigned int i;
	char c;

	for (i = 0; i < BURST_CONNS; i++) {
		int nfd = xaccept(lfd);
		int n;

		ev.events = EPOLLIN | EPOLLRDHUP;
		ev.data.fd = nfd;
		OK(epoll_ctl(ep, EPOLL_CTL_ADD, nfd, &ev));
		do {
			n = epoll_wait(ep, &ev, 1, BURST_MS);
		} while (n < 0 && errno == EINTR);
		OK(n);
		CHECK(n == 1, "connection %u of %u: no event within %d ms of accept",
		      i + 1, BURST_CONNS, BURST_MS);
		if (aborted) {
			CHECK(ev.events & EPOLLERR,
			      "connection %u: epoll events 0x%x, no EPOLLERR",
			      i + 1, ev.events);
			ERR(recv(nfd, &c, 1, MSG_DONTWAIT), ECONNRESET);
		} else {
			CHECK(ev.events & EPOLLRDHUP,
			      "connection %u: epoll events 0x%x, no EPOLLRDHUP",
			      i + 1, ev.events);
			EQ(recv(nfd, &c, 1, MSG_DONTWAIT), 0);
		}
		OK(epoll_ctl(ep, EPOLL_CTL_DEL, nfd, NULL));
		close(nfd);
	}
	close(ep);
	send_byte(fd, 'd');
	server_finish(fd);
}

static void burst_client(bool aborted)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	struct pollfd pfd[BURST_CONNS];
	struct sockaddr_storage ss;
	int fd = client_connect();
	unsigned int i, left;
	socklen_t alen;

	alen = make_addr(&ss, opt.host, opt.port);
	for (i = 0; i < BURST_CONNS; i++) {
		pfd[i].fd = xsocket();
		pfd[i].events = POLLOUT;
		set_nonblock(pfd[i].fd, true);
		if (connect(pfd[i].fd, (struct sockaddr *)&ss, alen))
			CHECK(errno == EINPROGRESS, "connect %u: %s", i + 1,
			      strerrorname_np(errno) ?: "?");
	}
	/* each one closes the moment it is connected */
	for (left = BURST_CONNS; left; ) {
		int n = poll(pfd, BURST_CONNS, WAIT_MS);

		if (n < 0 && errno == EINTR)
			continue;
		CHECK(OK(n) > 0, "%u connects still in progress", left);
		for (i = 0; i < BURST_CONNS; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			EQ(sock_error(pfd[i].fd), 0);
			if (aborted)
				OK(setsockopt(pfd[i].fd, SOL_SOCKET, SO_LINGER,
					      &lg, sizeof(lg)));
			OK(close(pfd[i].fd));
			pfd[i].fd = -1;
			left--;
		}
	}
	expect_byte(fd, 'd');
	close(fd);
}

static void connect_close_server(int lfd)
{
	burst_server(lfd, false);
}

static void connect_close_client(void)
{
	burst_client(false);
}

static void connect_abort_server(int lfd)
{
	burst_server(lfd, true);
}

static void connect_abort_client(void)
{
	burst_client(true);
}

/* ---- ioctl ------------------------------------------------------------------- */

static int ioc(int fd, unsigned long req)
{
	int v = -1;

	OK(ioctl(fd, req, &v));
	return v;
}

static struct res op_inq_unconnected(int fd)
{
	int v = -1;

	return mkres(ioctl(fd, SIOCINQ, &v), v);
}

static struct res op_inq_listen(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, NULL, 0);
	int v = -1;

	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 1))
		return mkres(-1, 1000);
	return mkres(ioctl(fd, SIOCINQ, &v), v);
}

static struct res op_outq_unconnected(int fd)
{
	int v = -1;

	return mkres(ioctl(fd, SIOCOUTQ, &v), v);
}

static void ioctl_server(int lfd)
{
	unsigned char buf[1234];
	unsigned long long cnt = 0;
	int fd = server_accept(lfd), ctl;
	ssize_t n;

	expect_byte(fd, 'g');
	fill_pat(buf, sizeof(buf), 0, 5);
	send_all(fd, buf, sizeof(buf));
	/* the client fills its send path, then connects again: drain */
	ctl = xaccept(lfd);
	for (;;) {
		static char big[65536];

		n = recv(fd, big, sizeof(big), 0);
		if (n < 0 && errno == EINTR)
			continue;
		OK(n);
		if (!n)
			break;
		cnt += n;
	}
	/* big-endian on the wire: the hosts may differ in byte order */
	cnt = htobe64(cnt);
	send_all(fd, &cnt, sizeof(cnt));
	server_finish(ctl);
	close(fd);
}

static void ioctl_client(void)
{
	int fd = client_connect(), ctl, outq;
	unsigned long long total = 0, cnt;
	static char big[65536];
	unsigned char buf[1234];
	ssize_t n;

	SAME_AS_TCP(op_inq_unconnected);
	SAME_AS_TCP(op_inq_listen);
	SAME_AS_TCP(op_outq_unconnected);
	EQ(ioc(fd, SIOCINQ), 0);
	EQ(ioc(fd, SIOCOUTQ), 0);
	send_byte(fd, 'g');
	EQ(recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_WAITALL), sizeof(buf));
	EQ(ioc(fd, SIOCINQ), 1234);
	EQ(ioc(fd, FIONREAD), 1234);
	recv_all(fd, buf, 1000);
	EQ(ioc(fd, SIOCINQ), 234);
	recv_all(fd, buf + 1000, 234);
	check_pat(buf, sizeof(buf), 0, 5, "ioctl data");
	EQ(ioc(fd, SIOCINQ), 0);

	/* fill everything up to EAGAIN; the peer is not reading */
	memset(big, 'x', sizeof(big));
	for (;;) {
		n = send(fd, big, sizeof(big), MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EAGAIN) {
			/* the window may still open: wait for writability */
			if (!xpoll(fd, POLLOUT, 200))
				break;
			continue;
		}
		OK(n);
		total += n;
		CHECK(total < (1ULL << 30), "send never blocks");
	}
	outq = ioc(fd, SIOCOUTQ);
	CHECK(outq > 0 && (unsigned long long)outq <= total,
	      "SIOCOUTQ %d with %llu bytes written, peer not reading", outq,
	      total);
	OK(shutdown(fd, SHUT_WR));
	ctl = xconnect_to(opt.port);
	recv_all(fd, &cnt, sizeof(cnt));
	EQ(be64toh(cnt), total);
	/* everything, FIN included, was acked before the count came back */
	EQ(ioc(fd, SIOCOUTQ), 0);
	close(ctl);
	close(fd);
}

/* ---- sendfile / splice ------------------------------------------------------ */

#define SF_BYTES	300000

static int tmpfile_with(size_t len, unsigned int seed)
{
	char name[] = "/tmp/smc_sock_test.XXXXXX";
	static unsigned char buf[SF_BYTES];
	int fd = OK(mkstemp(name));

	unlink(name);
	if (len) {
		fill_pat(buf, len, 0, seed);
		EQ(write(fd, buf, len), len);
	}
	return fd;
}

static void sendfile_server(int lfd)
{
	static unsigned char buf[SF_BYTES];
	int fd = server_accept(lfd);

	recv_all(fd, buf, sizeof(buf));
	check_pat(buf, sizeof(buf), 0, 11, "sendfile data");
	send_byte(fd, 'k');
	server_finish(fd);
}

static void sendfile_client(void)
{
	int fd = client_connect(), f = tmpfile_with(SF_BYTES, 11);
	off_t off = 0;
	ssize_t n;

	while (off < SF_BYTES) {
		n = sendfile(fd, f, &off, SF_BYTES - off);
		CHECK(n > 0, "sendfile: %zd (%s)", n,
		      n < 0 ? strerrorname_np(errno) : "0");
	}
	EQ(off, SF_BYTES);
	expect_byte(fd, 'k');
	close(f);
	close(fd);
}

static void splice_server(int lfd)
{
	static unsigned char buf[SF_BYTES];
	int fd = server_accept(lfd), f = tmpfile_with(0, 0), p[2];
	size_t got = 0, out = 0;
	loff_t off = 0;
	ssize_t n;

	OK(pipe(p));
	/* socket -> pipe -> file */
	while (got < SF_BYTES) {
		n = splice(fd, NULL, p[1], NULL, SF_BYTES - got, 0);
		CHECK(n > 0, "splice socket->pipe: %zd (%s)", n,
		      n < 0 ? strerrorname_np(errno) : "EOF");
		got += n;
		while (n > 0) {
			ssize_t m = splice(p[0], NULL, f, NULL, n, 0);

			CHECK(m > 0, "splice pipe->file: %zd", m);
			n -= m;
		}
	}
	EQ(pread(f, buf, SF_BYTES, 0), SF_BYTES);
	check_pat(buf, SF_BYTES, 0, 13, "spliced data");
	/* file -> pipe -> socket */
	while (out < SF_BYTES) {
		n = splice(f, &off, p[1], NULL, SF_BYTES - out, 0);
		CHECK(n > 0, "splice file->pipe: %zd", n);
		out += n;
		while (n > 0) {
			ssize_t m = splice(p[0], NULL, fd, NULL, n, 0);

			CHECK(m > 0, "splice pipe->socket: %zd (%s)", m,
			      m < 0 ? strerrorname_np(errno) : "0");
			n -= m;
		}
	}
	close(p[0]);
	close(p[1]);
	close(f);
	server_finish(fd);
}

static void splice_client(void)
{
	static unsigned char buf[SF_BYTES];
	int fd = client_connect();

	fill_pat(buf, SF_BYTES, 0, 13);
	send_all(fd, buf, SF_BYTES);
	memset(buf, 0, sizeof(buf));
	recv_all(fd, buf, SF_BYTES);
	check_pat(buf, SF_BYTES, 0, 13, "spliced back");
	close(fd);
}

/* ---- socket options ------------------------------------------------------------ */

static struct res rt_int(int fd, int level, int name, int val)
{
	long rc = setsockopt(fd, level, name, &val, sizeof(val));
	socklen_t len = sizeof(int);
	int v = -1;

	if (rc)
		return mkres(rc, 0);
	rc = getsockopt(fd, level, name, &v, &len);
	return mkres(rc, v);
}

static struct res op_rcvbuf(int fd)
{
	return rt_int(fd, SOL_SOCKET, SO_RCVBUF, 65536);
}

static struct res op_sndbuf(int fd)
{
	return rt_int(fd, SOL_SOCKET, SO_SNDBUF, 65536);
}

static struct res op_sndbuf_tiny(int fd)
{
	return rt_int(fd, SOL_SOCKET, SO_SNDBUF, 1);
}

static struct res op_keepalive(int fd)
{
	return rt_int(fd, SOL_SOCKET, SO_KEEPALIVE, 1);
}

static struct res op_reuseaddr(int fd)
{
	return rt_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
}

static struct res op_type(int fd)
{
	return mkres(0, getint(fd, SOL_SOCKET, SO_TYPE));
}

static struct res op_error(int fd)
{
	return mkres(0, getint(fd, SOL_SOCKET, SO_ERROR));
}

static struct res op_linger(int fd)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 5 }, got = { 0 };
	socklen_t len = sizeof(got);
	long rc = setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));

	if (!rc)
		rc = getsockopt(fd, SOL_SOCKET, SO_LINGER, &got, &len);
	return mkres(rc, got.l_onoff * 1000 + got.l_linger + len * 100000);
}

static struct res op_rcvtimeo(int fd)
{
	struct timeval tv = { .tv_sec = 1, .tv_usec = 500000 }, got = { 0 };
	socklen_t len = sizeof(got);
	long rc = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));

	if (!rc)
		rc = getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &got, &len);
	return mkres(rc, got.tv_sec * 1000000 + got.tv_usec);
}

static struct res op_bogus_sol(int fd)
{
	return rt_int(fd, SOL_SOCKET, 9999, 1);
}

static void check_identity(int fd, bool listening)
{
	EQ(getint(fd, SOL_SOCKET, SO_TYPE), SOCK_STREAM);
	EQ(getint(fd, SOL_SOCKET, SO_DOMAIN),
	   opt.smc && !opt.inet ? AF_SMC : opt.ipv6 ? AF_INET6 : AF_INET);
	if (opt.inet)
		EQ(getint(fd, SOL_SOCKET, SO_PROTOCOL), IPPROTO_SMC);
	else
		EQ(getint(fd, SOL_SOCKET, SO_PROTOCOL),
		   opt.smc ? opt.ipv6 ? SMCPROTO_SMC6 : SMCPROTO_SMC :
		   IPPROTO_TCP);
	EQ(getint(fd, SOL_SOCKET, SO_ACCEPTCONN), listening);
	EQ(getint(fd, SOL_SOCKET, SO_ERROR), 0);
}

static void sol_checks(void)
{
	int s = xsocket();

	check_identity(s, false);
	CHECK(getint(s, SOL_SOCKET, SO_RCVBUF) > 0, "SO_RCVBUF <= 0");
	CHECK(getint(s, SOL_SOCKET, SO_SNDBUF) > 0, "SO_SNDBUF <= 0");
	EQ(getint(s, SOL_SOCKET, SO_KEEPALIVE), 0);
	close(s);
	SAME_AS_TCP(op_rcvbuf);
	SAME_AS_TCP(op_sndbuf);
	SAME_AS_TCP(op_sndbuf_tiny);
	SAME_AS_TCP(op_keepalive);
	SAME_AS_TCP(op_reuseaddr);
	SAME_AS_TCP(op_type);
	SAME_AS_TCP(op_error);
	SAME_AS_TCP(op_linger);
	SAME_AS_TCP(op_rcvtimeo);
	SAME_AS_TCP(op_bogus_sol);
}

static void sockopt_sol_server(int lfd)
{
	int fd;

	check_identity(lfd, true);
	sol_checks();
	fd = server_accept(lfd);
	check_identity(fd, false);
	EQ(getint(fd, SOL_SOCKET, SO_KEEPALIVE), 0);
	setint(fd, SOL_SOCKET, SO_KEEPALIVE, 1);
	EQ(getint(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
	server_finish(fd);
}

static void sockopt_sol_client(void)
{
	int fd;

	sol_checks();
	fd = client_connect();
	check_identity(fd, false);
	setint(fd, SOL_SOCKET, SO_RCVBUF, 200000);
	EQ(getint(fd, SOL_SOCKET, SO_RCVBUF), 400000);
	close(fd);
}

static struct res op_nodelay(int fd)
{
	return rt_int(fd, SOL_TCP, TCP_NODELAY, 1);
}

static struct res op_keepidle(int fd)
{
	return rt_int(fd, SOL_TCP, TCP_KEEPIDLE, 30);
}

static struct res op_keepidle_bad(int fd)
{
	return rt_int(fd, SOL_TCP, TCP_KEEPIDLE, 0);
}

static struct res op_maxseg_get(int fd)
{
	return mkres(0, getint(fd, SOL_TCP, TCP_MAXSEG));
}

static struct res op_maxseg_set(int fd)
{
	return rt_int(fd, SOL_TCP, TCP_MAXSEG, 1200);
}

static int tcpi_state(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	OK(getsockopt(fd, SOL_TCP, TCP_INFO, &ti, &len));
	CHECK(len > 8, "TCP_INFO length %u", len);
	return ti.tcpi_state;
}

static struct res op_tcp_info(int fd)
{
	return mkres(0, tcpi_state(fd));
}

static struct res op_bogus_tcp(int fd)
{
	return rt_int(fd, SOL_TCP, 9999, 1);
}

static void tcp_checks(void)
{
	SAME_AS_TCP(op_nodelay);
	SAME_AS_TCP(op_keepidle);
	SAME_AS_TCP(op_keepidle_bad);
	SAME_AS_TCP(op_maxseg_get);
	SAME_AS_TCP(op_maxseg_set);
	SAME_AS_TCP(op_tcp_info);
	SAME_AS_TCP(op_bogus_tcp);
}

static void check_ulp(int fd)
{
	/* an SMC socket takes no ULP; a TCP one would try to load it */
	if (opt.smc)
		ERR(setsockopt(fd, SOL_TCP, TCP_ULP, "tls", 3), EOPNOTSUPP);
}

static void sockopt_tcp_server(int lfd)
{
	int fd;

	tcp_checks();
	EQ(tcpi_state(lfd), 10 /* TCP_LISTEN */);
	/* before the handshake: after it the client may close at once */
	fd = xaccept(lfd);
	EQ(tcpi_state(fd), 1 /* TCP_ESTABLISHED */);
	handshake_server(fd);
	EQ(getint(fd, SOL_TCP, TCP_NODELAY), 0);
	set_nodelay(fd);
	EQ(getint(fd, SOL_TCP, TCP_NODELAY), 1);
	check_ulp(fd);
	server_finish(fd);
}

static void sockopt_tcp_client(void)
{
	int fd = xsocket(), mss;

	tcp_checks();
	check_ulp(fd);
	/* options set before connect reach the connection */
	set_nodelay(fd);
	setint(fd, SOL_TCP, TCP_MAXSEG, 1000);
	setint(fd, SOL_TCP, TCP_KEEPIDLE, 77);
	{
		struct sockaddr_storage ss;
		socklen_t len = make_addr(&ss, opt.host, opt.port);

		OK(connect(fd, (struct sockaddr *)&ss, len));
	}
	handshake_client(fd);
	EQ(tcpi_state(fd), 1 /* TCP_ESTABLISHED */);
	EQ(getint(fd, SOL_TCP, TCP_NODELAY), 1);
	EQ(getint(fd, SOL_TCP, TCP_KEEPIDLE), 77);
	mss = getint(fd, SOL_TCP, TCP_MAXSEG);
	CHECK(mss > 0 && mss <= 1000, "TCP_MAXSEG %d after setting 1000", mss);
	check_ulp(fd);
	close(fd);
}

static struct res op_tos(int fd)
{
	if (opt.ipv6)
		return rt_int(fd, SOL_IPV6, IPV6_TCLASS, 0x20);
	return rt_int(fd, SOL_IP, IP_TOS, 0x10);
}

static struct res op_bogus_ip(int fd)
{
	return rt_int(fd, opt.ipv6 ? SOL_IPV6 : SOL_IP, 9999, 1);
}

static void tos_on(int fd)
{
	if (opt.ipv6) {
		setint(fd, SOL_IPV6, IPV6_TCLASS, 0x28);
		EQ(getint(fd, SOL_IPV6, IPV6_TCLASS), 0x28);
	} else {
		setint(fd, SOL_IP, IP_TOS, 0x28);
		EQ(getint(fd, SOL_IP, IP_TOS), 0x28);
	}
}

static void sockopt_ip_server(int lfd)
{
	int fd;

	SAME_AS_TCP(op_tos);
	SAME_AS_TCP(op_bogus_ip);
	fd = server_accept(lfd);
	tos_on(fd);
	send_byte(fd, 't');
	server_finish(fd);
}

static void sockopt_ip_client(void)
{
	int fd;

	SAME_AS_TCP(op_tos);
	SAME_AS_TCP(op_bogus_ip);
	fd = client_connect();
	tos_on(fd);
	expect_byte(fd, 't');
	close(fd);
}

static void smc_opt_checks(int fd)
{
	socklen_t len = sizeof(int);
	int v = -1;

	if (!opt.smc) {
		/* the reference: TCP knows no SOL_SMC */
		ERR(setsockopt(fd, SOL_SMC, SMC_LIMIT_HS, &v, sizeof(v)),
		    ENOPROTOOPT);
		ERR(getsockopt(fd, SOL_SMC, SMC_LIMIT_HS, &v, &len),
		    opt.ipv6 ? ENOPROTOOPT : EOPNOTSUPP);
		return;
	}
	/* the per-net default, off unless enabled over netlink */
	EQ(getint(fd, SOL_SMC, SMC_LIMIT_HS), 0);
	setint(fd, SOL_SMC, SMC_LIMIT_HS, 5);
	EQ(getint(fd, SOL_SMC, SMC_LIMIT_HS), 1);
	setint(fd, SOL_SMC, SMC_LIMIT_HS, 0);
	EQ(getint(fd, SOL_SMC, SMC_LIMIT_HS), 0);
	ERR(setsockopt(fd, SOL_SMC, SMC_LIMIT_HS, &v, 1), EINVAL);
	ERR(setsockopt(fd, SOL_SMC, 99, &v, sizeof(v)), SMC_UNKNOWN_OPT_ERRNO);
	ERR(getsockopt(fd, SOL_SMC, 99, &v, &len), SMC_UNKNOWN_OPT_ERRNO);
}

static void sockopt_smc_server(int lfd)
{
	int fd;

	smc_opt_checks(lfd);
	fd = server_accept(lfd);
	smc_opt_checks(fd);
	server_finish(fd);
}

static void sockopt_smc_client(void)
{
	int s = xsocket(), fd;

	smc_opt_checks(s);
	close(s);
	fd = client_connect();
	smc_opt_checks(fd);
	close(fd);
}

/* ---- the table ---------------------------------------------------------------- */

static const struct tcase cases[] = {
	{ "accept4",		NULL, accept4_server, accept4_client },
	{ "accept_block",	NULL, accept_block_server, plain_client },
	{ "accept_nonblock",	accept_nonblock_pre, accept_nonblock_server,
				plain_client },
	{ "accept_timeo",	accept_timeo_pre, plain_server,
				plain_client },
	{ "bind",		NULL, bind_server, bind_client },
	{ "close_unread",	NULL, close_unread_server,
				close_unread_client },
	{ "connect",		NULL, plain_server, connect_client },
	{ "connect_abort",	NULL, connect_abort_server,
				connect_abort_client },
	{ "connect_close",	NULL, connect_close_server,
				connect_close_client },
	{ "connect_nonblock",	NULL, plain_server,
				connect_nonblock_client },
	{ "connect_refused",	connect_refused_pre, connect_refused_server,
				connect_refused_client },
	{ "disconnect",		NULL, disconnect_server, disconnect_client },
	{ "dontwait",		NULL, dontwait_server, dontwait_client },
	{ "epoll",		NULL, epoll_server, epoll_client },
	{ "ioctl",		NULL, ioctl_server, ioctl_client },
	{ "linger",		NULL, linger_server, linger_client },
	{ "linger0",		NULL, linger0_server, linger0_client },
	{ "listen",		NULL, listen_server, listen_client },
	{ "oob",		NULL, oob_server, oob_client },
	{ "oob_inline",		NULL, oob_server, oob_inline_client },
	{ "oob_signal",		NULL, oob_signal_server, oob_signal_client },
	{ "peek",		NULL, peek_server, peek_client },
	{ "poll",		NULL, poll_server, poll_client },
	{ "poll_err",		NULL, poll_err_server, poll_err_client },
	{ "reader_wakeups",	NULL, reader_wakeups_server,
				reader_wakeups_client },
	{ "rw",			NULL, rw_server, rw_client },
	{ "sendfile",		NULL, sendfile_server, sendfile_client },
	{ "shutdown_rd",	NULL, shutdown_rd_server, shutdown_rd_client },
	{ "shutdown_rdwr",	NULL, plain_server,
				shutdown_rdwr_client },
	{ "shutdown_wr",	NULL, shutdown_wr_server, shutdown_wr_client },
	{ "sockopt_ip",		NULL, sockopt_ip_server, sockopt_ip_client },
	{ "sockopt_smc",	NULL, sockopt_smc_server, sockopt_smc_client },
	{ "sockopt_sol",	NULL, sockopt_sol_server, sockopt_sol_client },
	{ "sockopt_tcp",	NULL, sockopt_tcp_server, sockopt_tcp_client },
	{ "splice",		NULL, splice_server, splice_client },
	{ "waitall",		NULL, waitall_server, waitall_client },
};

static const struct tcase *cur;

/*
 * A burst must fit the listen backlog, or TCP itself loses connections
 * (an ACK dropped for a full queue, then the client's reset).
 */
static int case_backlog(const struct tcase *t)
{
	if (t->server == connect_close_server ||
	    t->server == connect_abort_server)
		return 2 * BURST_CONNS;
	return 16;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: smc_sock_test list | probe [--family F] [--ipv6]\n"
		"       smc_sock_test server --case NAME [--port P] [--host BINDADDR]\n"
		"               [--family smc|inet|tcp] [--ipv6] [--daemon --result FILE]\n"
		"               [--hook CMD] [--timeout S] [--smcr] [--verbose]\n"
		"       smc_sock_test client --case NAME --host ADDR --port P\n"
		"               [--family smc|inet|tcp] [--ipv6] [--hook CMD] [--timeout S]\n"
		"               [--smcr]\n"
		"       smc_sock_test wait --result FILE [--kill]\n");
	exit(2);
}

static void run_server_case(int lfd)
{
	cur->server(lfd);
	close(lfd);
	printf("ok server %s\n", cur->name);
}

int main(int argc, char **argv)
{
	size_t i;
	int fd;

	parse_opts(argc, argv);
	switch (opt.role) {
	case ROLE_LIST:
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			printf("%s\n", cases[i].name);
		return 0;
	case ROLE_WAIT:
		return do_wait();
	case ROLE_PROBE:
		fd = new_socket(opt.smc, opt.ipv6);
		if (fd < 0) {
			printf("socket: %s\n", strerrorname_np(errno));
			return 1;
		}
		close(fd);
		return 0;
	default:
		break;
	}
	if (!opt.tcase)
		usage();
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, opt.tcase))
			cur = &cases[i];
	if (!cur)
		FAIL("unknown case '%s' (see 'list')", opt.tcase);
	if (opt.role == ROLE_SERVER) {
		fd = xlisten_socket(opt.host, opt.port, case_backlog(cur));
		if (cur->pre)
			cur->pre(fd);
		return serve(fd, run_server_case);
	}
	arm_watchdog();
	cur->client();
	printf("ok client %s\n", cur->name);
	return 0;
}
