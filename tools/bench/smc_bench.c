// SPDX-License-Identifier: GPL-2.0
/*
 * smc_bench - the request/response and streaming workloads of the SMC-R
 * papers, over plain TCP or SMC, for comparing the two on one rig.
 *
 *   smc_bench server --family F --port P [--addr ADDR] [--once] [--verify]
 *		[--nodelay] [--rdma-dev DEV]
 *   smc_bench client --family F --addr ADDR --port P --workload rr|crr|str
 *		--clients N --req BYTES --resp BYTES
 *		(--duration SECONDS | --count TRANSACTIONS_PER_CLIENT)
 *		[--warmup SECONDS] [--label TEXT] [--verify] [--nodelay]
 *		[--timeout SECONDS] [--rdma-dev DEV] [--peer-stats]
 *   smc_bench --help
 *
 * F is tcp (AF_INET[6], IPPROTO_TCP), smc (AF_SMC, SMCPROTO_SMC or
 * SMCPROTO_SMC6 by the address) or inet-smc (AF_INET[6], IPPROTO_SMC).
 * ADDR is a numeric IPv4 or IPv6 address; the server binds 0.0.0.0 by
 * default and port 0 picks a free one.  BYTES take a K, M or G suffix
 * (1024-based, an optional trailing B is ignored): 1K, 32K, 20M, 200.
 * SECONDS may be fractional.
 *
 * Workloads, named like the papers' RR1(1KB/1KB) or STR3(1B/20MB): each of
 * the N client threads has a connection of its own, and a transaction is
 *   rr	 send --req bytes, receive exactly --resp bytes, on one connection;
 *   crr connect, send --req, receive --resp, close: a new connection each;
 *   str as rr, for a tiny request and a large (streamed) response.
 *
 * Protocol: a connection starts with a 16-byte header from the client,
 * "SMCB", then version 1, the request and the response size, each a u32
 * in network byte order; it goes out with the first request, in one
 * sendmsg(), lest Nagle hold that request back.  Then the server reads a
 * whole request and answers with a whole response, until end of stream
 * between two requests.  Payload bytes are a pattern that is a function
 * of their offset in the stream, so that --verify (client: responses,
 * server: requests) checks them without generating anything on the
 * sending side.
 *
 * The server prints "listening on ADDR:PORT" ([ADDR]:PORT for IPv6) once
 * it listens, serves each connection in a thread of its own and runs until
 * SIGTERM or SIGINT (exit status 0); with --once it exits after its first
 * connection, 0 if that went well.  A bad header costs that connection
 * only.
 *
 * The client connects its threads, runs --warmup seconds unmeasured, then
 * measures for --duration seconds (each thread finishes the transaction
 * under way at the deadline, and goes on until it has measured one: a
 * transaction begun in the warmup does not count, and one of STR3's can
 * outlast warmup and duration both on the rig) or for --count
 * transactions per thread, and
 * prints one line of JSON to stdout:
 *   label workload family clients req resp duration_s transactions errors
 *   trans_per_s mb_per_s conns_per_s lat_mean_us lat_p50_us lat_p99_us
 *   lat_max_us cpu_user_s cpu_sys_s host_cpu_busy_s cpu_us_per_trans
 *   mb_per_s_trans win_s win_bytes win_ops ops_per_s host_A host_B
 * duration_s runs from the end of the warmup to the end of the last
 * measured transaction; trans_per_s and the latencies count the
 * transactions begun in it.  The window (win_*) runs from the end of the
 * warmup to the deadline exactly: win_bytes is the payload the client
 * sent and received in it, whatever transaction it belonged to, so a
 * long streamed response under way at either edge counts with the part
 * that fell inside.  mb_per_s is win_bytes per second in units of 10^6
 * bytes (mb_per_s_trans the same from whole transactions); win_ops is
 * win_bytes in transactions, ops_per_s those per second; conns_per_s
 * is for crr only.  Latency is per
 * transaction (crr: from connect() to close()), from a log-linear
 * histogram of <= 1.6% wide buckets.  cpu_* is getrusage() of this
 * process, host_cpu_busy_s the non-idle, non-iowait time of all CPUs
 * in /proc/stat (steal included), both over the measurement;
 * cpu_us_per_trans is host_cpu_busy_s per transaction.  host_A (the
 * client's host) and host_B (the server's, with --peer-stats) are that
 * host's counters over the window: busy_s as above, ctxt (context
 * switches), net_rx, irq_poll and tasklet (softirqs), rxe_pkts (packets
 * sent and received by port 1 of --rdma-dev); null where they could not
 * be read.
 * --peer-stats opens one more connection, of the same family, before the
 * warmup: the server answers each byte on it with its host's counters
 * (bench_host.c), so both hosts' are read at the window's edges.  The label
 * defaults to the papers' name of the workload, e.g. RR10(32KB/32KB).
 *
 * Exit status: 0 if transactions were measured and nothing failed, 1 if
 * not (the JSON is printed all the same once the threads ran), 2 for
 * usage errors.  A failed connect, a reset or a short response is an
 * error, in the warmup too: it is counted, reported once per kind on
 * stderr, and the thread retries after 10 ms (rr/str reconnect).
 * --timeout (default: warmup + duration + 60 s, none with --count) ends
 * a run whose threads hang.
 *
 * Sockets keep their defaults, as an unchanged application would;
 * --nodelay sets TCP_NODELAY.  crr makes the client the active closer:
 * without net.ipv4.tcp_tw_reuse=1 a fast rig runs out of ports for
 * connections in TIME_WAIT (EADDRNOTAVAIL).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "bench_host.h"
#include "bench_opts.h"
#include "smc_json.h"

#ifndef AF_SMC
#define AF_SMC			43
#endif
#define SMCPROTO_SMC		0
#define SMCPROTO_SMC6		1
#ifndef IPPROTO_SMC
#define IPPROTO_SMC		256
#endif

#define HDR_MAGIC		"SMCB"
#define STATS_MAGIC		"SMCQ"	/* the statistics connection */
#define HDR_VERSION		1
#define HDR_LEN			16
#define CHUNK			(1 << 20)	/* bytes per send()/recv() */
/* the pattern repeats after a prime, so a shifted stream never matches */
#define PAT_PERIOD		1048573
#define BACKLOG			4096
#define NSEC_PER_SEC		1000000000ULL
#define RETRY_NS		(10 * 1000 * 1000ULL)
#define GIVE_UP_FAILS		100	/* in a row, with --count */
#define TIMEOUT_GRACE_S		60
#define SERVER_STACK		(256 * 1024)
#define STOP_POLL_MS		200

/* log-linear histogram of nanoseconds: 64 buckets an octave above 128 */
#define HIST_SUB_BITS		6
#define HIST_SUB		(1 << HIST_SUB_BITS)
#define HIST_LINEAR		(2 * HIST_SUB)
#define HIST_MSB_MAX		40	/* 2^41 ns, over half an hour */
#define HIST_BUCKETS		(HIST_LINEAR + (HIST_MSB_MAX - HIST_SUB_BITS) * HIST_SUB)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / NSEC_PER_SEC,
		.tv_nsec = t % NSEC_PER_SEC,
	};

	while (!stop &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* ---- errors: counted always, reported once per kind ---------------------- */

enum {
	KEY_EOF = 4096,		/* above any errno */
	KEY_DATA,
	KEY_HEADER,
	KEY_OTHER,
	KEY_MAX,
};

static void report_once(int key, const char *what)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static bool seen[KEY_MAX];
	const char *why;
	bool first;

	if (key < 0 || key >= KEY_MAX)
		key = KEY_OTHER;
	pthread_mutex_lock(&lock);
	first = !seen[key];
	seen[key] = true;
	pthread_mutex_unlock(&lock);
	if (!first)
		return;
	switch (key) {
	case KEY_EOF:
		why = "unexpected end of stream";
		break;
	case KEY_DATA:
		why = "data differ from the pattern";
		break;
	case KEY_HEADER:
		why = "invalid header";
		break;
	case KEY_OTHER:
		why = "failed";
		break;
	default:
		why = strerrordesc_np(key) ?: "unknown error";
		break;
	}
	if (key < KEY_EOF)
		fprintf(stderr, "smc_bench: %s: %s (%s); more of this kind not shown\n",
			what, why, strerrorname_np(key) ?: "?");
	else
		fprintf(stderr, "smc_bench: %s: %s; more of this kind not shown\n",
			what, why);
}

/* ---- sockets -------------------------------------------------------------- */

static int new_socket(int ip_family)
{
	switch (opt.family) {
	case FAM_SMC:
		return socket(AF_SMC, SOCK_STREAM,
			      ip_family == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	case FAM_INET_SMC:
		return socket(ip_family, SOCK_STREAM, IPPROTO_SMC);
	default:
		return socket(ip_family, SOCK_STREAM, IPPROTO_TCP);
	}
}

static void socket_failed(int ip_family, int err)
{
	const char *v6 = ip_family == AF_INET6 ? "6" : "";
	const char *hint = "";

	if (opt.family != FAM_TCP &&
	    (err == EAFNOSUPPORT || err == EPROTONOSUPPORT))
		hint = opt.family == FAM_SMC ?
		       "; is the smc module loaded?" :
		       "; is the smc module loaded, with IPPROTO_SMC (6.11+)?";
	if (opt.family == FAM_SMC)
		fprintf(stderr, "smc_bench: socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC%s): %s%s\n",
			v6, strerrordesc_np(err) ?: "?", hint);
	else
		fprintf(stderr, "smc_bench: socket(AF_INET%s, SOCK_STREAM, %s): %s%s\n",
			v6, opt.family == FAM_TCP ? "IPPROTO_TCP" : "IPPROTO_SMC",
			strerrordesc_np(err) ?: "?", hint);
}

static struct addrinfo *resolve(const char *addr, bool passive)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res;
	int rc;

	if (passive)
		hints.ai_flags |= AI_PASSIVE;
	rc = getaddrinfo(addr, opt.port, &hints, &res);
	if (rc) {
		fprintf(stderr, "smc_bench: address %s port %s: %s\n", addr,
			opt.port, gai_strerror(rc));
		return NULL;
	}
	return res;
}

static int set_nodelay(int fd)
{
	int one = 1;

	if (!opt.nodelay)
		return 0;
	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* ---- payload -------------------------------------------------------------- */

/*
 * The byte at stream offset o is pattern[o % PAT_PERIOD]; the array runs
 * on for a CHUNK beyond the period, so that any chunk starting inside
 * the period is one contiguous piece of it, to send or compare as is.
 */
static unsigned char pattern[PAT_PERIOD + CHUNK];

static void pattern_init(void)
{
	size_t i;

	for (i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint32_t)((i % PAT_PERIOD) * 2654435761u) >> 24;
}

enum io { IO_OK, IO_EOF, IO_ERR, IO_SHORT, IO_DATA };

/* the error key of an io result; errno is still that of IO_ERR */
static int io_key(enum io rc)
{
	switch (rc) {
	case IO_SHORT:
		return KEY_EOF;
	case IO_DATA:
		return KEY_DATA;
	default:
		return errno;
	}
}

static enum io send_iov(int fd, struct iovec *iov, int cnt)
{
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = cnt };

	while (msg.msg_iovlen) {
		ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return IO_ERR;
		while (msg.msg_iovlen && (size_t)n >= msg.msg_iov->iov_len) {
			n -= msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen) {
			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= n;
		}
	}
	return IO_OK;
}

/* a connection's header: @magic, the version, the request and response sizes */
static void hdr_fill(unsigned char *hdr, const char *magic, uint32_t req,
		     uint32_t resp)
{
	uint32_t w[3] = { htonl(HDR_VERSION), htonl(req), htonl(resp) };

	memcpy(hdr, magic, 4);
	memcpy(hdr + 4, w, sizeof(w));
}

/* add @n to a worker's byte count, which the main thread reads */
static void count_bytes(uint64_t *moved, uint64_t n)
{
	if (moved)
		__atomic_store_n(moved, *moved + n, __ATOMIC_RELAXED);
}

/*
 * Send @len pattern bytes from stream offset *@off, after @hdr if given;
 * add the payload sent to *@moved if given.
 */
static enum io send_pattern(int fd, uint64_t *off, uint64_t len,
			    const unsigned char *hdr, uint64_t *moved)
{
	struct iovec iov[2];

	do {
		size_t chunk = len < CHUNK ? len : CHUNK;
		int cnt = 0;

		if (hdr) {
			iov[cnt].iov_base = (void *)hdr;
			iov[cnt++].iov_len = HDR_LEN;
			hdr = NULL;
		}
		iov[cnt].iov_base = pattern + *off % PAT_PERIOD;
		iov[cnt++].iov_len = chunk;
		if (send_iov(fd, iov, cnt) != IO_OK)
			return IO_ERR;
		*off += chunk;
		len -= chunk;
		count_bytes(moved, chunk);
	} while (len);
	return IO_OK;
}

/*
 * Receive exactly @len bytes into @buf (@buf_len at a time), checking
 * them against the pattern at *@off if @off is given and --verify, and
 * adding each piece to *@moved if given.
 * IO_EOF is end of stream before the first byte, IO_SHORT after it.
 */
static enum io recv_exact(int fd, unsigned char *buf, size_t buf_len,
			  uint64_t *off, uint64_t len, uint64_t *moved)
{
	uint64_t got = 0;

	while (got < len) {
		size_t want = len - got < buf_len ? len - got : buf_len;
		ssize_t n = recv(fd, buf, want, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return IO_ERR;
		if (!n)
			return got ? IO_SHORT : IO_EOF;
		if (off) {
			if (opt.verify &&
			    memcmp(buf, pattern + *off % PAT_PERIOD, n))
				return IO_DATA;
			*off += n;
		}
		got += n;
		count_bytes(moved, n);
	}
	return IO_OK;
}

static size_t buf_size(unsigned long long len)
{
	return len < CHUNK ? len : CHUNK;
}

/* ---- server --------------------------------------------------------------- */

static unsigned long conns_served, server_errors;
static int once_pipe[2] = { -1, -1 };
static int once_status;

static void server_error(int key, const char *what)
{
	__atomic_fetch_add(&server_errors, 1, __ATOMIC_RELAXED);
	report_once(key, what);
}

/*
 * The statistics connection: for each byte the client sends, this host's
 * counters (bench_host.c), until the client closes it.
 */
static int serve_stats(int fd)
{
	unsigned char q;
	char buf[HOST_SNAP_LEN];
	struct host_snap s;
	struct iovec iov;
	enum io rc;

	for (;;) {
		rc = recv_exact(fd, &q, 1, NULL, 1, NULL);
		if (rc == IO_EOF)
			return 0;
		if (rc != IO_OK) {
			server_error(io_key(rc), "server: statistics request");
			return 1;
		}
		host_snap_take(&s, opt.rdma_dev);
		host_snap_format(&s, buf);
		/* send_iov() moves the iovec along */
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		if (send_iov(fd, &iov, 1) != IO_OK) {
			server_error(errno, "server: statistics");
			return 1;
		}
	}
}

/* one connection, until the client ends it; 0 if it went well */
static int serve(int fd)
{
	unsigned char hdr[HDR_LEN], *buf;
	uint64_t rxoff = 0, txoff = 0;
	uint32_t w[3];
	enum io rc;

	rc = recv_exact(fd, hdr, HDR_LEN, NULL, HDR_LEN, NULL);
	if (rc == IO_EOF)
		return 0;	/* a port probe, not a client */
	if (rc != IO_OK) {
		server_error(io_key(rc), "server: receiving the header");
		return 1;
	}
	memcpy(w, hdr + 4, sizeof(w));
	if (!memcmp(hdr, STATS_MAGIC, 4) && ntohl(w[0]) == HDR_VERSION)
		return serve_stats(fd);
	if (memcmp(hdr, HDR_MAGIC, 4) || ntohl(w[0]) != HDR_VERSION ||
	    !ntohl(w[1]) || !ntohl(w[2])) {
		server_error(KEY_HEADER, "server");
		return 1;
	}
	buf = malloc(buf_size(ntohl(w[1])));
	if (!buf) {
		server_error(ENOMEM, "server: request buffer");
		return 1;
	}
	for (;;) {
		rc = recv_exact(fd, buf, buf_size(ntohl(w[1])), &rxoff,
				ntohl(w[1]), NULL);
		if (rc == IO_EOF)
			break;
		if (rc != IO_OK) {
			server_error(io_key(rc), "server: receiving a request");
			break;
		}
		if (send_pattern(fd, &txoff, ntohl(w[2]), NULL, NULL) != IO_OK) {
			rc = IO_ERR;
			server_error(errno, "server: sending a response");
			break;
		}
	}
	free(buf);
	return rc == IO_EOF ? 0 : 1;
}

static void *serve_thread(void *arg)
{
	int fd = (int)(intptr_t)arg;
	int rc = serve(fd);

	close(fd);
	if (opt.once) {
		__atomic_store_n(&once_status, rc, __ATOMIC_RELEASE);
		/* the main thread waits for this byte in poll() */
		if (write(once_pipe[1], "", 1) != 1)
			exit(rc);
	}
	return NULL;
}

static void print_listening(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned int port = 0;

	if (!getsockname(fd, (struct sockaddr *)&ss, &len)) {
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
			port = ntohs(s6->sin6_port);
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
			port = ntohs(s4->sin_port);
		}
	}
	if (ss.ss_family == AF_INET6)
		printf("listening on [%s]:%u\n", host, port);
	else
		printf("listening on %s:%u\n", host, port);
	fflush(stdout);
}

static int server_main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct pollfd pfd[2];
	pthread_attr_t attr;
	struct addrinfo *ai;
	int fd, one = 1;
	int status = 0;

	ai = resolve(opt.addr ?: "0.0.0.0", true);
	if (!ai)
		return 2;
	fd = new_socket(ai->ai_family);
	if (fd < 0) {
		socket_failed(ai->ai_family, errno);
		return 1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		perror("smc_bench: SO_REUSEADDR");
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, BACKLOG)) {
		fprintf(stderr, "smc_bench: listening on %s port %s: %s\n",
			opt.addr ?: "0.0.0.0", opt.port, strerror(errno));
		return 1;
	}
	freeaddrinfo(ai);
	/* a connection gone between poll() and accept() must not block us */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (opt.once && pipe(once_pipe)) {
		perror("smc_bench: pipe");
		return 1;
	}

	/*
	 * poll() and accept(), not ppoll() and accept4(): the rsocket
	 * preload library intercepts only those.  So the loop polls with a
	 * timeout for a signal that hit another thread or came just before
	 * poll().
	 */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, SERVER_STACK);

	print_listening(fd);
	pfd[0].fd = fd;
	pfd[0].events = POLLIN;
	pfd[1].fd = once_pipe[0];
	pfd[1].events = POLLIN;
	while (!stop) {
		pthread_t tid;
		int cfd, err, fl;

		if (poll(pfd, 2, STOP_POLL_MS) < 0) {
			if (errno == EINTR)
				continue;
			perror("smc_bench: poll");
			return 1;
		}
		if (pfd[1].revents) {
			status = __atomic_load_n(&once_status, __ATOMIC_ACQUIRE);
			break;
		}
		if (!pfd[0].revents)
			continue;
		cfd = accept(fd, NULL, NULL);
		if (cfd < 0) {
			if (errno != EAGAIN && errno != EINTR &&
			    errno != ECONNABORTED)
				server_error(errno, "server: accept");
			continue;
		}
		/* Linux does not pass the listener's O_NONBLOCK on; rsockets may */
		fl = fcntl(cfd, F_GETFL);
		if (fl > 0 && (fl & O_NONBLOCK))
			fcntl(cfd, F_SETFL, fl & ~O_NONBLOCK);
		__atomic_fetch_add(&conns_served, 1, __ATOMIC_RELAXED);
		if (set_nodelay(cfd))
			server_error(errno, "server: TCP_NODELAY");
		err = pthread_create(&tid, &attr, serve_thread,
				     (void *)(intptr_t)cfd);
		if (err) {
			server_error(err, "server: pthread_create");
			close(cfd);
			continue;
		}
		if (opt.once)
			pfd[0].fd = -1;	/* no more connections */
	}
	fprintf(stderr, "smc_bench: server: %lu connections, %lu errors\n",
		__atomic_load_n(&conns_served, __ATOMIC_RELAXED),
		__atomic_load_n(&server_errors, __ATOMIC_RELAXED));
	return status;
}

/* ---- latency histogram ---------------------------------------------------- */

struct hist {
	uint64_t n, sum, max;
	uint64_t bucket[HIST_BUCKETS];
};

static unsigned int hist_index(uint64_t v)
{
	unsigned int msb;

	if (v < HIST_LINEAR)
		return v;
	msb = 63 - __builtin_clzll(v);
	if (msb > HIST_MSB_MAX)
		return HIST_BUCKETS - 1;
	return HIST_LINEAR + (msb - HIST_SUB_BITS - 1) * HIST_SUB +
	       ((v >> (msb - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* the middle of bucket @i */
static double hist_value(unsigned int i)
{
	unsigned int k, msb;
	uint64_t width;

	if (i < HIST_LINEAR)
		return i;
	k = i - HIST_LINEAR;
	msb = k / HIST_SUB + HIST_SUB_BITS + 1;
	width = 1ULL << (msb - HIST_SUB_BITS);
	return (HIST_SUB + k % HIST_SUB) * width + (width - 1) / 2.0;
}

static void hist_add(struct hist *h, uint64_t v)
{
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	h->bucket[hist_index(v)]++;
}

static void hist_merge(struct hist *to, const struct hist *from)
{
	unsigned int i;

	to->n += from->n;
	to->sum += from->sum;
	if (from->max > to->max)
		to->max = from->max;
	for (i = 0; i < HIST_BUCKETS; i++)
		to->bucket[i] += from->bucket[i];
}

/* the @q quantile in ns, no more than the largest value seen */
static double hist_quantile(const struct hist *h, double q)
{
	uint64_t rank = q * h->n, seen = 0;
	unsigned int i;
	double v;

	if (!h->n)
		return 0;
	if (rank < q * h->n || !rank)
		rank++;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	v = hist_value(i);
	return v < h->max ? v : h->max;
}

/* ---- client --------------------------------------------------------------- */

struct worker {
	pthread_t tid;
	int fd;
	bool fresh;		/* the header still goes with the next request */
	uint64_t txoff, rxoff;
	uint64_t moved;		/* payload bytes sent and received, ever */
	unsigned char *buf;
	size_t buf_len;
	unsigned int fails;	/* in a row */
	/* written by the worker until done, then read by the main thread */
	unsigned long long trans, errors;
	uint64_t last_end;
	bool done;
	struct hist hist;
};

static struct {
	struct addrinfo *ai;
	unsigned char hdr[HDR_LEN];
	uint64_t start, deadline;	/* of the measurement */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* for the main thread */
	pthread_cond_t go_cond;		/* for the workers */
	unsigned int nready, ndone;
	bool go;
} run = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.go_cond = PTHREAD_COND_INITIALIZER,
};

static void worker_error(struct worker *w, int key, const char *what)
{
	w->errors++;
	report_once(key, what);
}

/* a connected socket, or -1 with the error counted; @t0: connect() start */
static int open_conn(struct worker *w, uint64_t *t0)
{
	int fd = new_socket(run.ai->ai_family);

	if (fd < 0) {
		worker_error(w, errno, "client: socket");
		return -1;
	}
	if (set_nodelay(fd)) {
		worker_error(w, errno, "client: TCP_NODELAY");
		close(fd);
		return -1;
	}
	if (t0)
		*t0 = now_ns();
	if (connect(fd, run.ai->ai_addr, run.ai->ai_addrlen)) {
		worker_error(w, errno, "client: connect");
		close(fd);
		return -1;
	}
	w->fresh = true;
	w->txoff = 0;
	w->rxoff = 0;
	return fd;
}

static void account(struct worker *w, uint64_t t0, uint64_t t1)
{
	/* a transaction begun in the warmup does not count */
	if (t0 < run.start)
		return;
	w->trans++;
	w->last_end = t1;
	hist_add(&w->hist, t1 - t0);
}

/* one request and its response: the header goes with the first request */
static bool exchange(struct worker *w, int fd)
{
	enum io rc;

	if (send_pattern(fd, &w->txoff, opt.req,
			 w->fresh ? run.hdr : NULL, &w->moved) != IO_OK) {
		worker_error(w, errno, "client: sending a request");
		return false;
	}
	w->fresh = false;
	rc = recv_exact(fd, w->buf, w->buf_len, &w->rxoff, opt.resp,
			&w->moved);
	if (rc != IO_OK) {
		worker_error(w, rc == IO_EOF ? KEY_EOF : io_key(rc),
			     "client: receiving a response");
		return false;
	}
	return true;
}

static bool rr_once(struct worker *w)
{
	uint64_t t0;

	if (w->fd < 0) {
		w->fd = open_conn(w, NULL);
		if (w->fd < 0)
			return false;
	}
	t0 = now_ns();
	if (!exchange(w, w->fd)) {
		close(w->fd);
		w->fd = -1;
		return false;
	}
	account(w, t0, now_ns());
	return true;
}

static bool crr_once(struct worker *w)
{
	uint64_t t0;
	int fd = open_conn(w, &t0);
	bool ok;

	if (fd < 0)
		return false;
	ok = exchange(w, fd);
	close(fd);
	if (ok)
		account(w, t0, now_ns());
	return ok;
}

static bool worker_finished(struct worker *w)
{
	if (stop)
		return true;
	if (opt.count)
		return w->trans >= opt.count;
	return w->trans && now_ns() >= run.deadline;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->fd = -1;
	w->buf_len = buf_size(opt.resp);
	w->buf = malloc(w->buf_len);
	if (!w->buf) {
		worker_error(w, ENOMEM, "client: response buffer");
		stop = 1;
	} else if (opt.workload != WL_CRR) {
		w->fd = open_conn(w, NULL);
	}
	/* connected (or not): wait until all are, for a common start */
	pthread_mutex_lock(&run.lock);
	run.nready++;
	pthread_cond_signal(&run.cond);
	while (!run.go)
		pthread_cond_wait(&run.go_cond, &run.lock);
	pthread_mutex_unlock(&run.lock);

	while (!worker_finished(w)) {
		bool ok = opt.workload == WL_CRR ? crr_once(w) : rr_once(w);

		if (ok) {
			w->fails = 0;
			continue;
		}
		/* give the server a moment, and a dead one an end */
		if (opt.count && ++w->fails >= GIVE_UP_FAILS)
			break;
		sleep_until(now_ns() + RETRY_NS);
	}

	pthread_mutex_lock(&run.lock);
	w->done = true;
	run.ndone++;
	pthread_cond_signal(&run.cond);
	pthread_mutex_unlock(&run.lock);

	if (w->fd >= 0)
		close(w->fd);
	free(w->buf);
	return NULL;
}

/* ---- the measured window ------------------------------------------------- */

/* the statistics connection to the server's host, or -1 */
static int stats_fd = -1;

static int stats_open(void)
{
	unsigned char hdr[HDR_LEN];
	struct iovec iov = { .iov_base = hdr, .iov_len = HDR_LEN };
	int fd = new_socket(run.ai->ai_family);

	if (fd < 0)
		return -1;
	hdr_fill(hdr, STATS_MAGIC, 1, 1);
	if (connect(fd, run.ai->ai_addr, run.ai->ai_addrlen) ||
	    send_iov(fd, &iov, 1) != IO_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

/* the server host's counters now; false, and no more asking, if not */
static bool stats_query(struct host_snap *s)
{
	unsigned char q = 'q', buf[HOST_SNAP_LEN];
	struct iovec iov = { .iov_base = &q, .iov_len = 1 };

	if (stats_fd < 0)
		return false;
	if (send_iov(stats_fd, &iov, 1) == IO_OK &&
	    recv_exact(stats_fd, buf, sizeof(buf), NULL, sizeof(buf),
		       NULL) == IO_OK &&
	    host_snap_parse(s, (char *)buf))
		return true;
	fprintf(stderr, "smc_bench: no counters from the server's host\n");
	close(stats_fd);
	stats_fd = -1;
	return false;
}

/* one edge of the window: the time, the bytes moved, both hosts' counters */
struct window_mark {
	uint64_t t;
	uint64_t moved;
	struct host_snap a, b;
	bool b_ok;
};

static void window_mark(struct window_mark *m, struct worker *workers)
{
	unsigned int i;

	m->t = now_ns();
	m->moved = 0;
	for (i = 0; i < opt.clients; i++)
		m->moved += __atomic_load_n(&workers[i].moved,
					    __ATOMIC_RELAXED);
	host_snap_take(&m->a, opt.rdma_dev);
	m->b_ok = stats_query(&m->b);
}

struct cpu_snap {
	struct rusage ru;
	struct host_snap host;	/* its busy time */
};

static void cpu_snap(struct cpu_snap *s)
{
	getrusage(RUSAGE_SELF, &s->ru);
	host_snap_take(&s->host, NULL);
}

static double tv_delta(const struct timeval *a, const struct timeval *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_usec - a->tv_usec) / 1e6;
}

static bool json_more;	/* a key was printed: the next needs a comma */

static void json_key(const char *key)
{
	printf("%s\"%s\":", json_more ? "," : "{", key);
	json_more = true;
}

static void json_string(const char *key, const char *s)
{
	json_key(key);
	smc_json_str(s);
}

static void json_uint(const char *key, unsigned long long v)
{
	json_key(key);
	printf("%llu", v);
}

static void json_num(const char *key, double v, int prec)
{
	json_key(key);
	printf("%.*f", prec, isfinite(v) ? v : 0.0);
}

/* a host's counters over the window, or null */
static void json_host(const char *key, const struct host_snap *a,
		      const struct host_snap *b, bool ok)
{
	json_key(key);
	if (!ok || !a->ok || !b->ok) {
		printf("null");
		return;
	}
	json_more = false;
	json_num("busy_s", host_snap_busy_s(a, b), 6);
	json_uint("ctxt", b->ctxt - a->ctxt);
	json_uint("net_rx", b->net_rx - a->net_rx);
	json_uint("irq_poll", b->irq_poll - a->irq_poll);
	json_uint("tasklet", b->tasklet - a->tasklet);
	if (a->rxe_ok && b->rxe_ok)
		json_uint("rxe_pkts", b->rxe_sent - a->rxe_sent +
			  b->rxe_rcvd - a->rxe_rcvd);
	printf("}");
	json_more = true;
}

/* 1KB, 20MB, 200B: how the papers name sizes */
static void size_name(char *s, size_t len, unsigned long long v)
{
	if (v && !(v % (1024 * 1024)))
		snprintf(s, len, "%lluMB", v / (1024 * 1024));
	else if (v && !(v % 1024))
		snprintf(s, len, "%lluKB", v / 1024);
	else
		snprintf(s, len, "%lluB", v);
}

static void print_result(const struct hist *h, unsigned long long errors,
			 double dur, const struct cpu_snap *a,
			 const struct cpu_snap *b, const struct window_mark *w0,
			 const struct window_mark *w1)
{
	double win = w1->t > w0->t ? (w1->t - w0->t) / 1e9 : 0;
	uint64_t bytes = w1->moved - w0->moved;
	const char *name = workload_names[opt.workload];
	char label[96], req[24], resp[24];
	double busy = 0, tps, ops;
	unsigned int i;

	if (a->host.ok && b->host.ok)
		busy = host_snap_busy_s(&a->host, &b->host);
	tps = dur > 0 ? h->n / dur : 0;
	ops = (double)bytes / (opt.req + opt.resp);
	size_name(req, sizeof(req), opt.req);
	size_name(resp, sizeof(resp), opt.resp);
	for (i = 0; name[i]; i++)
		label[i] = name[i] - 'a' + 'A';
	snprintf(label + i, sizeof(label) - i, "%u(%s/%s)", opt.clients,
		 req, resp);

	json_string("label", opt.label ?: label);
	json_string("workload", name);
	json_string("family", family_names[opt.family]);
	json_uint("clients", opt.clients);
	json_uint("req", opt.req);
	json_uint("resp", opt.resp);
	json_num("duration_s", dur, 6);
	json_uint("transactions", h->n);
	json_uint("errors", errors);
	json_num("trans_per_s", tps, 3);
	json_num("mb_per_s", win > 0 ? bytes / win / 1e6 : 0, 3);
	json_num("mb_per_s_trans", tps * (opt.req + opt.resp) / 1e6, 3);
	json_num("conns_per_s", opt.workload == WL_CRR ? tps : 0, 3);
	json_num("lat_mean_us", h->n ? (double)h->sum / h->n / 1e3 : 0, 3);
	json_num("lat_p50_us", hist_quantile(h, 0.50) / 1e3, 3);
	json_num("lat_p99_us", hist_quantile(h, 0.99) / 1e3, 3);
	json_num("lat_max_us", h->max / 1e3, 3);
	json_num("cpu_user_s", tv_delta(&a->ru.ru_utime, &b->ru.ru_utime), 6);
	json_num("cpu_sys_s", tv_delta(&a->ru.ru_stime, &b->ru.ru_stime), 6);
	json_num("host_cpu_busy_s", busy, 6);
	json_num("cpu_us_per_trans", h->n ? busy * 1e6 / h->n : 0, 3);
	json_num("win_s", win, 6);
	json_uint("win_bytes", bytes);
	json_num("win_ops", ops, 3);
	json_num("ops_per_s", win > 0 ? ops / win : 0, 3);
	json_host("host_A", &w0->a, &w1->a, true);
	json_host("host_B", &w0->b, &w1->b, w0->b_ok && w1->b_ok);
	printf("}\n");
	fflush(stdout);
}

/* with run.lock held: until *@count reaches the clients or @limit passes */
static bool wait_for(unsigned int *count, uint64_t limit)
{
	struct timespec ts = {
		.tv_sec = limit / NSEC_PER_SEC,
		.tv_nsec = limit % NSEC_PER_SEC,
	};

	while (*count < opt.clients) {
		if (!limit)
			pthread_cond_wait(&run.cond, &run.lock);
		else if (pthread_cond_timedwait(&run.cond, &run.lock, &ts) ==
			 ETIMEDOUT)
			return *count >= opt.clients;
	}
	return true;
}

static int client_main(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct cpu_snap snap0, snap1;
	struct window_mark win0, win1;
	unsigned long long errors = 0;
	uint64_t t, end, limit = 0;
	pthread_condattr_t cattr;
	struct worker *workers;
	sigset_t block, old;
	struct hist *total;
	unsigned int i;
	int fd, rc;

	run.ai = resolve(opt.addr, false);
	if (!run.ai)
		return 2;
	/* fail early and clearly where the family is missing */
	fd = new_socket(run.ai->ai_family);
	if (fd < 0) {
		socket_failed(run.ai->ai_family, errno);
		return 1;
	}
	close(fd);

	hdr_fill(run.hdr, HDR_MAGIC, opt.req, opt.resp);
	pattern_init();

	workers = calloc(opt.clients, sizeof(*workers));
	total = calloc(1, sizeof(*total));
	if (!workers || !total) {
		fprintf(stderr, "smc_bench: out of memory\n");
		return 1;
	}
	if (opt.peer_stats) {
		stats_fd = stats_open();
		if (stats_fd < 0)
			fprintf(stderr, "smc_bench: no statistics connection: %s\n",
				strerror(errno));
	}
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&run.cond, &cattr);

	if (opt.timeout < 0 && !opt.count)
		opt.timeout = opt.warmup + opt.duration + TIMEOUT_GRACE_S;
	if (opt.timeout > 0)
		limit = now_ns() + (uint64_t)(opt.timeout * NSEC_PER_SEC);

	/* the workers inherit blocked signals: SIGINT only ends the wait */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < opt.clients; i++) {
		int err = pthread_create(&workers[i].tid, NULL, worker_main,
					 &workers[i]);

		if (err) {
			fprintf(stderr, "smc_bench: pthread_create: %s\n",
				strerror(err));
			exit(1);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/*
	 * All connected (or failed to): the clock starts.  A thread hung in
	 * connect() is left behind, the others end at once: the timeout is
	 * over.
	 */
	pthread_mutex_lock(&run.lock);
	if (!wait_for(&run.nready, limit))
		stop = 1;
	t = now_ns();
	run.start = t + (uint64_t)(opt.warmup * NSEC_PER_SEC);
	run.deadline = opt.count ? UINT64_MAX :
		       run.start + (uint64_t)(opt.duration * NSEC_PER_SEC);
	run.go = true;
	pthread_cond_broadcast(&run.go_cond);
	pthread_mutex_unlock(&run.lock);

	sleep_until(run.start);
	cpu_snap(&snap0);
	window_mark(&win0, workers);
	/* the window closes at the deadline, whatever is under way then */
	if (!opt.count) {
		sleep_until(run.deadline);
		window_mark(&win1, workers);
	}

	pthread_mutex_lock(&run.lock);
	wait_for(&run.ndone, limit);
	cpu_snap(&snap1);
	if (opt.count)
		window_mark(&win1, workers);
	end = run.start;
	for (i = 0; i < opt.clients; i++) {
		struct worker *wk = &workers[i];

		if (!wk->done) {
			errors++;
			continue;
		}
		errors += wk->errors;
		hist_merge(total, &wk->hist);
		if (wk->last_end > end)
			end = wk->last_end;
	}
	if (run.ndone < opt.clients) {
		fprintf(stderr, "smc_bench: %u of %u threads did not finish in %.0f s\n",
			opt.clients - run.ndone, opt.clients, opt.timeout);
		end = now_ns();
	}
	pthread_mutex_unlock(&run.lock);
	if (!total->n && end < now_ns())
		end = now_ns();

	print_result(total, errors, end > run.start ?
		     (end - run.start) / 1e9 : 0, &snap0, &snap1, &win0, &win1);
	if (stats_fd >= 0)
		close(stats_fd);
	if (run.ndone < opt.clients)
		exit(1);	/* the hung threads go with us */
	for (i = 0; i < opt.clients; i++)
		pthread_join(workers[i].tid, NULL);
	rc = total->n && !errors ? 0 : 1;
	freeaddrinfo(run.ai);
	free(workers);
	free(total);
	return rc;
}

int main(int argc, char **argv)
{
	parse_opts(argc, argv);
	signal(SIGPIPE, SIG_IGN);
	if (opt.server) {
		pattern_init();
		return server_main();
	}
	return client_main();
}
