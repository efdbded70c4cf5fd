// SPDX-License-Identifier: GPL-2.0
/*
 * smc_data_test - move reproducible pseudo-random data over an AF_SMC (or
 * TCP) connection and verify it on the fly, without keeping it.
 *
 *   smc_data_test server [--port P] [--host BINDADDR] [--family smc|inet|tcp]
 *		[--ipv6] [--daemon --result FILE] [--hook CMD]
 *		--size N --dir c2s|s2c|both [--seed S] [--expect-error|--error-ok]
 *		[--oob] [--pace MS]
 *   smc_data_test client --host ADDR --port P [--family smc|inet|tcp] [--ipv6]
 *		[--hook CMD] --size N --dir c2s|s2c|both [--seed S] [--oob]
 *   smc_data_test wait --result FILE [--kill]
 *
 * Both sides must be given the same --size, --dir and --seed.  Each
 * direction is its own stream generated from the seed; read and write
 * sizes are random.  A sender shuts down its direction when done, so
 * the receiver also checks that exactly --size bytes arrived.  With
 * --expect-error (fault tests) the connection must instead end in
 * ECONNABORTED, ECONNRESET or ETIMEDOUT, never in end of stream, and
 * every byte that arrived before must be right.  With --error-ok
 * (allocation faults) it may end either way.  With --oob each
 * sender first sends one urgent byte (MSG_OOB), which its receiver reads
 * out of band; the stream then flows past the mark that byte left.
 * With --pace each sender pauses MS milliseconds after every write: a
 * slow stream that keeps a connection busy for long at little cost.
 */
#define _GNU_SOURCE
#include "smc_test_common.h"

#include <poll.h>

#define MAX_CHUNK	(256 * 1024)

/* random chunk length, spread over all orders of magnitude */
static size_t chunk_len(struct gen *g)
{
	uint64_t r = gen_next(g);
	unsigned int shift = r % 19;			/* 1 .. 256K */
	size_t len = ((r >> 8) & ((1ULL << shift) - 1)) + (1ULL << shift);

	return len > MAX_CHUNK ? MAX_CHUNK : len;
}

struct dir {
	unsigned long long total, done;
	struct gen data, sizes;
	uint64_t sum;
	bool finished;
};

static int so_error(int fd)
{
	socklen_t len = sizeof(int);
	int e = 0;

	getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len);
	return e;
}

static unsigned char txbuf[MAX_CHUNK], rxbuf[MAX_CHUNK], expbuf[MAX_CHUNK];

/*
 * The connection failed with @err.  With --expect-error or --error-ok
 * that is an outcome allowed when it is an error TCP gives for a broken
 * connection; every byte that did arrive was checked already.
 */
static bool ended_by(int err, const char *how, const struct dir *tx,
		     const struct dir *rx)
{
	if (!(opt.expect_err || opt.error_ok) ||
	    (err != ECONNABORTED && err != ECONNRESET && err != ETIMEDOUT))
		return false;
	printf("ok %s dir %s: ended by %s (%s) after sending %llu, receiving %llu\n",
	       opt.role == ROLE_SERVER ? "server" : "client", opt.dir,
	       strerrorname_np(err), how, tx->done, rx->done);
	return true;
}

/* --oob: one urgent byte each way the data goes, read out of band */
static void urgent_byte(int fd, bool tx, bool rx)
{
	struct pollfd p = { .fd = fd, .events = POLLPRI };
	char c;

	if (tx)
		EQ(send(fd, "U", 1, MSG_OOB | MSG_NOSIGNAL), 1);
	if (!rx)
		return;
	if (OK(poll(&p, 1, opt.timeout * 1000)) != 1 ||
	    !(p.revents & POLLPRI))
		FAIL("no urgent data within %u s (revents 0x%x)", opt.timeout,
		     p.revents);
	EQ(recv(fd, &c, 1, MSG_OOB), 1);
	EQ(c, 'U');
}

static void transfer(int fd, bool server)
{
	bool c2s = strcmp(opt.dir, "s2c"), s2c = strcmp(opt.dir, "c2s");
	struct dir tx = { 0 }, rx = { 0 };
	size_t txpos = 0, txlen = 0;
	unsigned long long t0;
	double secs;

	if (strcmp(opt.dir, "c2s") && strcmp(opt.dir, "s2c") &&
	    strcmp(opt.dir, "both"))
		FAIL("--dir must be c2s, s2c or both");
	tx.total = (server ? s2c : c2s) ? opt.size : 0;
	rx.total = (server ? c2s : s2c) ? opt.size : 0;
	gen_init(&tx.data, opt.seed * 2 + (server ? 2 : 1));
	gen_init(&rx.data, opt.seed * 2 + (server ? 1 : 2));
	gen_init(&tx.sizes, opt.seed ^ (server ? 0x5151 : 0xc1c1));
	gen_init(&rx.sizes, opt.seed ^ (server ? 0x7777 : 0x3333));
	tx.sum = 0xcbf29ce484222325ULL;	/* FNV-1a offset basis */
	rx.sum = tx.sum;

	if (opt.oob)
		urgent_byte(fd, tx.total, rx.total);
	OK(fcntl(fd, F_SETFL, OK(fcntl(fd, F_GETFL)) | O_NONBLOCK));
	if (opt.expect_err) {
		/* a fault test breaks things once this is out */
		printf("transfer\n");
		fflush(stdout);
	}
	t0 = now_ms();
	if (!tx.total) {
		OK(shutdown(fd, SHUT_WR));
		tx.finished = true;
	}
	while (!tx.finished || !rx.finished) {
		struct pollfd p = { .fd = fd };
		ssize_t n;

		if (!tx.finished)
			p.events |= POLLOUT;
		if (!rx.finished)
			p.events |= POLLIN;
		n = poll(&p, 1, opt.timeout * 1000);
		if (n < 0 && errno == EINTR)
			continue;
		OK(n);
		if (!n)
			FAIL("stalled: sent %llu/%llu received %llu/%llu",
			     tx.done, tx.total, rx.done, rx.total);
		if (p.revents & POLLERR) {
			int err = so_error(fd);

			if (ended_by(err, "POLLERR", &tx, &rx))
				return;
			FAIL("POLLERR (%s) after sending %llu, receiving %llu",
			     strerrorname_np(err) ?: "0", tx.done, rx.done);
		}
		if (!tx.finished && (p.revents & POLLOUT)) {
			if (txpos == txlen) {
				size_t len = chunk_len(&tx.sizes);

				if (len > tx.total - tx.done)
					len = tx.total - tx.done;
				gen_fill(&tx.data, txbuf, len);
				csum(&tx.sum, txbuf, len);
				txpos = 0;
				txlen = len;
			}
			n = send(fd, txbuf + txpos, txlen - txpos, MSG_NOSIGNAL);
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				if (ended_by(errno, "send", &tx, &rx))
					return;
				FAIL("send after %llu bytes: %s", tx.done,
				     strerrorname_np(errno) ?: "?");
			}
			if (n > 0) {
				txpos += n;
				tx.done += n;
				if (opt.pace_ms)
					usleep(opt.pace_ms * 1000);
			}
			if (tx.done == tx.total && txpos == txlen) {
				OK(shutdown(fd, SHUT_WR));
				tx.finished = true;
			}
		}
		if (!rx.finished && (p.revents & (POLLIN | POLLHUP))) {
			size_t len = chunk_len(&rx.sizes);

			n = recv(fd, rxbuf, len, 0);
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				if (ended_by(errno, "recv", &tx, &rx))
					return;
				FAIL("recv after %llu bytes: %s", rx.done,
				     strerrorname_np(errno) ?: "?");
			}
			if (n == 0) {
				if (rx.done != rx.total)
					FAIL("EOF after %llu of %llu bytes",
					     rx.done, rx.total);
				rx.finished = true;
			}
			if (n > 0) {
				if (rx.done + n > rx.total)
					FAIL("%llu bytes received, only %llu sent",
					     rx.done + n, rx.total);
				gen_fill(&rx.data, expbuf, n);
				if (memcmp(rxbuf, expbuf, n)) {
					ssize_t i = 0;

					while (rxbuf[i] == expbuf[i])
						i++;
					FAIL("data mismatch at byte %llu: 0x%02x, expected 0x%02x",
					     rx.done + i, rxbuf[i], expbuf[i]);
				}
				csum(&rx.sum, rxbuf, n);
				rx.done += n;
			}
		}
	}
	if (opt.expect_err)
		FAIL("the transfer completed, an error was expected");
	secs = (now_ms() - t0) / 1000.0;
	printf("ok %s dir %s: sent %llu (fnv 0x%016llx) received %llu (fnv 0x%016llx) in %.2f s",
	       server ? "server" : "client", opt.dir, tx.done,
	       (unsigned long long)tx.sum, rx.done,
	       (unsigned long long)rx.sum, secs);
	if (secs > 0)
		printf(", %.1f MB/s", (tx.done + rx.done) / secs / 1e6);
	printf("\n");
}

static void server_body(int lfd)
{
	int fd = xaccept(lfd);

	close(lfd);
	handshake_server(fd);
	transfer(fd, true);
	close(fd);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: smc_data_test server [--port P] [--host BINDADDR] [--family smc|inet|tcp]\n"
		"               [--ipv6] [--daemon --result FILE] [--hook CMD]\n"
		"               --size N --dir c2s|s2c|both [--seed S] [--timeout S]\n"
		"               [--expect-error|--error-ok] [--oob] [--pace MS]\n"
		"       smc_data_test client --host ADDR --port P [options as server]\n"
		"       smc_data_test wait --result FILE [--kill]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int fd;

	parse_opts(argc, argv);
	opt.tcase = opt.dir;
	switch (opt.role) {
	case ROLE_WAIT:
		return do_wait();
	case ROLE_SERVER:
		fd = xlisten_socket(opt.host, opt.port, 4);
		return serve(fd, server_body);
	case ROLE_CLIENT:
		arm_watchdog();
		fd = xconnect_to(opt.port);
		handshake_client(fd);
		transfer(fd, false);
		close(fd);
		return 0;
	default:
		usage();
	}
	return 0;
}
