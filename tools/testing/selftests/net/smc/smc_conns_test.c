// SPDX-License-Identifier: GPL-2.0
/*
 * smc_conns_test - many connections at once over AF_SMC (or TCP).
 *
 *   smc_conns_test server [--port P] [--host BINDADDR] [--family smc|inet|tcp]
 *		[--ipv6] [--daemon --result FILE] --conns N --size S [--seed X]
 *   smc_conns_test client --host ADDR --port P [--hook CMD] --conns N
 *		--size S [--seed X] [options as server]
 *   smc_conns_test wait --result FILE [--kill]
 *
 * The client starts all N non-blocking connects at once, so that their
 * handshakes overlap, or with --window W at most W at a time, then sends
 * S bytes on each connection (with --connect-first only once all are
 * up: no data moves while a handshake is under way).  The server
 * checks them and answers with S bytes of its own, which the client
 * checks.  The hook runs while all N connections are up: on the server
 * once every connection's S bytes are in and before it answers any, on
 * the client once every answer is in (SMC_HOOK_PORT is the server's
 * port, SMC_HOOK_CONNS is N, SMC_HOOK_ROLE says which side runs it).
 * Then the client shuts each connection down and both sides wait for end
 * of stream before they close.
 *
 * With --fail-at B --fail-cmd CMD, CMD runs once (through the shell)
 * when B bytes have come in on this side, over all connections, in the
 * middle of the transfer: a link failure, say, that the connections
 * must survive.  With --fail-sent, when B bytes have gone out instead.
 * With --fail-all-up as well, not before every connection is up
 * (accepted, or connected): no handshake is under way when CMD runs.
 *
 * Each side reports the longest time a connection waited for data
 * between its first byte in and its last, the stall a failover causes;
 * --max-gap MS fails the test if it is longer.
 *
 * Each connection starts with an 8-byte header: "SMCn" and its index,
 * big-endian; the data of connection i in either direction is a stream
 * of its own, generated from the seed and i.
 */
#define _GNU_SOURCE
#include "smc_test_common.h"

#include <poll.h>

#define CONNS_MAX	1000
#define HDR_LEN		8
#define CHUNK		(16 * 1024)

enum cstate {
	C_IDLE,		/* client: not connecting yet (--window) */
	C_CONNECTING,	/* client: connect() in progress */
	C_UP,		/* client: connected, the others not yet */
	C_HEADER,	/* server: reading the header */
	C_RECV,		/* reading the peer's S bytes */
	C_RECEIVED,	/* server: S bytes in, the others not yet */
	C_SEND,		/* sending our S bytes (the client starts here) */
	C_ANSWERED,	/* client: the server's S bytes are in */
	C_EOF,		/* waiting for the peer's end of stream */
	C_DONE,		/* closed */
};

struct conn {
	int fd;
	enum cstate st;
	unsigned int idx;
	unsigned long long sent, rcvd;
	unsigned long long last_in_ms;	/* when data last came in */
	struct gen tx, rx;
	unsigned char hdr[HDR_LEN];
	unsigned int hdr_len;
	unsigned char buf[CHUNK];	/* the next bytes to send */
	size_t pos, len;
};

static struct conn *conns;
static struct pollfd *pfds;
static unsigned long long rcvd_total;	/* over all connections */
static unsigned long long sent_total;
static unsigned long long gap_ms, gap_after;	/* the longest stall */
static unsigned int gap_idx;
static unsigned int conns_up;		/* accepted, or connected */
static unsigned long long failed_at_ms;	/* when --fail-cmd ended */
static unsigned char rxbuf[CHUNK], expbuf[CHUNK];

/* the streams of connection @idx; the client sends seed 1, the server 2 */
static void conn_streams(struct conn *c, bool server)
{
	uint64_t base = opt.seed * 0x10001ULL + c->idx * 4ULL;

	gen_init(&c->tx, base + (server ? 2 : 1));
	gen_init(&c->rx, base + (server ? 1 : 2));
}

static void set_nonblock(int fd)
{
	OK(fcntl(fd, F_SETFL, OK(fcntl(fd, F_GETFL)) | O_NONBLOCK));
}

static bool again(ssize_t n)
{
	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

static const char *cname(const struct conn *c)
{
	static char s[64];

	snprintf(s, sizeof(s), "connection %u (port %u)", c->idx,
		 c->fd >= 0 ? local_port(c->fd) : 0);
	return s;
}

/* the --fail-cmd, once, when --fail-at bytes came in (or went out) */
static void conns_fail(void)
{
	unsigned long long done = opt.fail_sent ? sent_total : rcvd_total;
	unsigned long long t0;
	int rc;

	if (!opt.fail_cmd || failed_at_ms || done < opt.fail_at ||
	    (opt.fail_all_up && conns_up < opt.conns))
		return;
	fflush(NULL);
	t0 = now_ms();
	rc = system(opt.fail_cmd);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc))
		FAIL("fail command failed (status 0x%x): %s", rc,
		     opt.fail_cmd);
	failed_at_ms = now_ms();
	printf("fail command ran after %llu bytes %s, for %llu ms\n",
	       done, opt.fail_sent ? "out" : "in", failed_at_ms - t0);
}

/* send what is due; true once all S bytes are out */
static bool conn_send(struct conn *c)
{
	while (c->sent < opt.size) {
		ssize_t n;

		if (c->pos == c->len) {
			size_t len = opt.size - c->sent;

			if (len > CHUNK)
				len = CHUNK;
			gen_fill(&c->tx, c->buf, len);
			c->pos = 0;
			c->len = len;
		}
		n = send(c->fd, c->buf + c->pos, c->len - c->pos, MSG_NOSIGNAL);
		if (again(n))
			return false;
		if (n <= 0)
			FAIL("%s: send after %llu bytes: %s", cname(c), c->sent,
			     n ? strerrorname_np(errno) ?: "?" : "0");
		c->pos += n;
		c->sent += n;
		sent_total += n;
		conns_fail();
	}
	return true;
}

/* data came in on @c: the time since the last did, the longest yet? */
static void conn_gap(struct conn *c)
{
	unsigned long long t = now_ms();

	if (c->last_in_ms && t - c->last_in_ms > gap_ms) {
		gap_ms = t - c->last_in_ms;
		gap_idx = c->idx;
		gap_after = c->rcvd;
	}
	c->last_in_ms = t;
}

/* the longest stall of a connection that was receiving, and --max-gap */
static void gap_report(const char *role)
{
	printf("%s: the longest wait for data in: %llu ms, connection %u after %llu bytes\n",
	       role, gap_ms, gap_idx, gap_after);
	if (opt.max_gap_ms && gap_ms > opt.max_gap_ms)
		FAIL("connection %u waited %llu ms for data after %llu bytes, --max-gap %u",
		     gap_idx, gap_ms, gap_after, opt.max_gap_ms);
}

/* check what has arrived; true once all S bytes are in */
static bool conn_recv(struct conn *c)
{
	while (c->rcvd < opt.size) {
		size_t want = opt.size - c->rcvd;
		ssize_t n;

		if (want > CHUNK)
			want = CHUNK;
		n = recv(c->fd, rxbuf, want, 0);
		if (again(n))
			return false;
		if (n < 0)
			FAIL("%s: recv after %llu bytes: %s", cname(c), c->rcvd,
			     strerrorname_np(errno) ?: "?");
		if (!n)
			FAIL("%s: EOF after %llu of %llu bytes", cname(c),
			     c->rcvd, opt.size);
		gen_fill(&c->rx, expbuf, n);
		if (memcmp(rxbuf, expbuf, n)) {
			ssize_t i = 0;

			while (rxbuf[i] == expbuf[i])
				i++;
			FAIL("%s: data mismatch at byte %llu: 0x%02x, expected 0x%02x",
			     cname(c), c->rcvd + i, rxbuf[i], expbuf[i]);
		}
		conn_gap(c);
		c->rcvd += n;
		rcvd_total += n;
		conns_fail();
	}
	return true;
}

/* true once the peer's end of stream came, after nothing more */
static bool conn_eof(struct conn *c)
{
	char b;
	ssize_t n = recv(c->fd, &b, 1, 0);

	if (again(n))
		return false;
	if (n)
		FAIL("%s: %s where end of stream was due", cname(c),
		     n > 0 ? "data" : strerrorname_np(errno) ?: "?");
	return true;
}

static void conn_close(struct conn *c, unsigned int *left)
{
	OK(close(c->fd));
	c->fd = -1;
	c->st = C_DONE;
	(*left)--;
}

static short events_of(const struct conn *c)
{
	switch (c->st) {
	case C_CONNECTING:
	case C_SEND:
		return POLLOUT;
	case C_UP:
	case C_RECEIVED:
	case C_DONE:
		return 0;
	default:
		return POLLIN;
	}
}

/* the --hook, with every connection up */
static void conns_hook(const char *role)
{
	char n[16], p[16];
	int rc;

	if (!opt.hook)
		return;
	snprintf(n, sizeof(n), "%u", opt.conns);
	snprintf(p, sizeof(p), "%u", opt.port);
	setenv("SMC_HOOK_CONNS", n, 1);
	setenv("SMC_HOOK_PORT", p, 1);
	setenv("SMC_HOOK_ROLE", role, 1);
	fflush(NULL);
	rc = system(opt.hook);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc))
		FAIL("hook failed (status 0x%x): %s", rc, opt.hook);
}

/* poll the connections, with @lfd for new ones if >= 0 */
static void wait_events(unsigned int n, int lfd, const char *what)
{
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		pfds[i].fd = conns[i].st == C_DONE || conns[i].st == C_IDLE ?
			     -1 : conns[i].fd;
		pfds[i].events = events_of(&conns[i]);
		pfds[i].revents = 0;
	}
	pfds[n].fd = lfd;
	pfds[n].events = POLLIN;
	pfds[n].revents = 0;
	do {
		rc = poll(pfds, n + 1, opt.timeout * 1000);
	} while (rc < 0 && errno == EINTR);
	OK(rc);
	if (!rc)
		FAIL("stalled %s", what);
}

/* ---- server --------------------------------------------------------------- */

static void server_header(struct conn *c)
{
	ssize_t n = recv(c->fd, c->hdr + c->hdr_len, HDR_LEN - c->hdr_len, 0);
	uint32_t idx;

	if (again(n))
		return;
	if (n <= 0)
		FAIL("connection header: %s", n ? strerrorname_np(errno) ?: "?" :
		     "EOF");
	c->hdr_len += n;
	if (c->hdr_len < HDR_LEN)
		return;
	if (memcmp(c->hdr, "SMCn", 4))
		FAIL("bad connection header");
	memcpy(&idx, c->hdr + 4, 4);
	c->idx = ntohl(idx);
	if (c->idx >= opt.conns)
		FAIL("connection index %u, only %u connections", c->idx,
		     opt.conns);
	conn_streams(c, true);
	c->st = C_RECV;
}

static void server_body(int lfd)
{
	unsigned int accepted = 0, left = opt.conns, received = 0, polled, i;

	opt.port = local_port(lfd);
	set_nonblock(lfd);
	while (left) {
		polled = accepted;
		wait_events(polled, accepted < opt.conns ? lfd : -1,
			    "serving connections");
		if (pfds[polled].revents & POLLIN) {
			int fd = accept(lfd, NULL, NULL);

			if (fd < 0 && !again(fd))
				FAIL("accept: %s", strerrorname_np(errno) ?: "?");
			if (fd >= 0) {
				set_nonblock(fd);
				conns[accepted].fd = fd;
				conns[accepted].st = C_HEADER;
				accepted++;
				conns_up++;
			}
		}
		for (i = 0; i < polled; i++) {
			struct conn *c = &conns[i];

			if (!pfds[i].revents || pfds[i].fd < 0)
				continue;
			if (pfds[i].revents & POLLERR)
				FAIL("%s: POLLERR", cname(c));
			if (c->st == C_HEADER)
				server_header(c);
			if (c->st == C_RECV && conn_recv(c)) {
				c->st = C_RECEIVED;
				if (++received == opt.conns) {
					gap_report("server");
					conns_hook("server");
					for (i = 0; i < opt.conns; i++)
						conns[i].st = C_SEND;
					break;
				}
			}
			if (c->st == C_SEND && conn_send(c))
				c->st = C_EOF;
			if (c->st == C_EOF && conn_eof(c))
				conn_close(c, &left);
		}
	}
	close(lfd);
	if (opt.fail_cmd && !failed_at_ms)
		FAIL("--fail-at %llu: only %llu bytes came in", opt.fail_at,
		     rcvd_total);
	printf("ok server: %u connections, %llu bytes each way on each\n",
	       opt.conns, opt.size);
}

/* ---- client --------------------------------------------------------------- */

/*
 * Start the next connects, up to --window in progress at once (all of
 * them without it).  Under TCG a server that announces each new RMB in
 * turn (CONFIRM_RKEY) answers the last of hundreds of simultaneous
 * handshakes only after the client's CLC wait: a window keeps them
 * overlapping without that.
 */
static void client_connect_more(void)
{
	static struct sockaddr_storage ss;
	static socklen_t len;
	static unsigned int next;
	unsigned int i, connecting = 0;

	if (!len)
		len = make_addr(&ss, opt.host, opt.port);
	for (i = 0; i < next; i++)
		connecting += conns[i].st == C_CONNECTING;
	for (i = next; i < opt.conns; i++, next++) {
		struct conn *c = &conns[i];
		uint32_t idx = htonl(i);

		if (opt.window && connecting >= opt.window)
			break;
		connecting++;
		c->idx = i;
		c->fd = xsocket();
		set_nonblock(c->fd);
		if (connect(c->fd, (struct sockaddr *)&ss, len) &&
		    errno != EINPROGRESS)
			FAIL("connect %u: %s", i, strerrorname_np(errno) ?: "?");
		c->st = C_CONNECTING;
		conn_streams(c, false);
		memcpy(c->hdr, "SMCn", 4);
		memcpy(c->hdr + 4, &idx, 4);
	}
}

/* --connect-first: every connection is up, all of them send now */
static void client_all_up(void)
{
	unsigned int i;

	for (i = 0; i < opt.conns; i++)
		if (conns[i].st == C_UP)
			conns[i].st = C_SEND;
}

/* the header first, then the S bytes */
static bool client_send(struct conn *c)
{
	while (c->hdr_len < HDR_LEN) {
		ssize_t n = send(c->fd, c->hdr + c->hdr_len,
				 HDR_LEN - c->hdr_len, MSG_NOSIGNAL);

		if (again(n))
			return false;
		if (n <= 0)
			FAIL("%s: sending the header: %s", cname(c),
			     n ? strerrorname_np(errno) ?: "?" : "0");
		c->hdr_len += n;
	}
	return conn_send(c);
}

static void client_run(void)
{
	unsigned int left = opt.conns, answered = 0, i;
	unsigned long long t0 = now_ms(), t1;

	client_connect_more();
	while (answered < opt.conns) {
		wait_events(opt.conns, -1, "before all answers were in");
		for (i = 0; i < opt.conns; i++) {
			struct conn *c = &conns[i];

			if (!pfds[i].revents)
				continue;
			if (c->st == C_CONNECTING) {
				socklen_t sl = sizeof(int);
				int e = 0;

				OK(getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e,
					      &sl));
				if (e)
					FAIL("connect %u: %s", i,
					     strerrorname_np(e) ?: "?");
				c->st = opt.connect_first ? C_UP : C_SEND;
				if (++conns_up == opt.conns)
					client_all_up();
				client_connect_more();
			}
			if (pfds[i].revents & POLLERR)
				FAIL("%s: POLLERR", cname(c));
			if (c->st == C_SEND && client_send(c))
				c->st = C_RECV;
			if (c->st == C_RECV && conn_recv(c)) {
				c->st = C_ANSWERED;
				answered++;
			}
		}
	}
	t1 = now_ms();
	gap_report("client");
	if (opt.fail_cmd && !failed_at_ms)
		FAIL("--fail-at %llu: only %llu bytes came in", opt.fail_at,
		     rcvd_total);
	printf("ok client: %u connections up and %llu bytes each way on each in %.2f s\n",
	       opt.conns, opt.size, (t1 - t0) / 1000.0);
	if (failed_at_ms)
		printf("ok client: all in %.2f s after the fail command\n",
		       (t1 - failed_at_ms) / 1000.0);
	conns_hook("client");
	for (i = 0; i < opt.conns; i++) {
		OK(shutdown(conns[i].fd, SHUT_WR));
		conns[i].st = C_EOF;
	}
	while (left) {
		wait_events(opt.conns, -1, "closing");
		for (i = 0; i < opt.conns; i++)
			if (pfds[i].revents && conns[i].st == C_EOF &&
			    conn_eof(&conns[i]))
				conn_close(&conns[i], &left);
	}
	printf("ok client: %u connections closed in %.2f s\n", opt.conns,
	       (now_ms() - t1) / 1000.0);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: smc_conns_test server [--port P] [--host BINDADDR] [--family smc|inet|tcp]\n"
		"               [--ipv6] [--daemon --result FILE] [--rcvbuf B] [--sndbuf B]\n"
		"               --conns N --size S [--seed X] [--timeout S]\n"
		"       smc_conns_test client --host ADDR --port P [--hook CMD] [--window W]\n"
		"               [--connect-first]\n"
		"               [options as server]\n"
		"       (both: [--fail-at BYTES --fail-cmd CMD [--fail-all-up] [--fail-sent]]\n"
		"              [--max-gap MS])\n"
		"       smc_conns_test wait --result FILE [--kill]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int lfd;

	parse_opts(argc, argv);
	opt.tcase = "conns";
	if (opt.role == ROLE_WAIT)
		return do_wait();
	if (opt.role != ROLE_SERVER && opt.role != ROLE_CLIENT)
		usage();
	if (!opt.conns || opt.conns > CONNS_MAX)
		FAIL("--conns must be 1..%d", CONNS_MAX);
	conns = calloc(opt.conns, sizeof(*conns));
	pfds = calloc(opt.conns + 1, sizeof(*pfds));
	if (!conns || !pfds)
		FAIL("out of memory");
	if (opt.role == ROLE_SERVER) {
		lfd = xlisten_socket(opt.host, opt.port, opt.conns);
		return serve(lfd, server_body);
	}
	arm_watchdog();
	client_run();
	return 0;
}
