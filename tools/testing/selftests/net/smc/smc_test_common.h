/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared plumbing of the SMC selftest tools: option parsing, socket
 * creation for AF_SMC or plain TCP, the server daemon protocol
 * (READY line, flock'ed result file, watchdog), the connection
 * handshake with its mode-check hook, and failure reporting.
 *
 * Daemon protocol:
 *   server ... --daemon --result F
 *	the parent binds and listens, forks the supervisor and prints
 *	"READY <port>" once the socket is listening, then exits 0.  The
 *	supervisor (own session, stdio on F.log) holds an exclusive flock
 *	on F while the case runs in a grandchild and writes
 *	"STATUS <n>" to F when it is done (124 after the watchdog).
 *   wait --result F [--kill]
 *	blocks on the flock, prints F.log and exits with the status.
 */
#ifndef SMC_TEST_COMMON_H
#define SMC_TEST_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_SMC
#define AF_SMC			43
#endif
#define SMCPROTO_SMC		0
#define SMCPROTO_SMC6		1
#ifndef IPPROTO_SMC
#define IPPROTO_SMC		256
#endif

#define __maybe_unused		__attribute__((unused))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

enum role { ROLE_NONE, ROLE_SERVER, ROLE_CLIENT, ROLE_WAIT, ROLE_LIST,
	    ROLE_PROBE };

struct opts {
	enum role role;
	const char *tcase;
	const char *host;
	unsigned short port;
	bool smc;		/* SMC (default) or plain TCP */
	bool inet;		/* SMC as AF_INET[6]/IPPROTO_SMC, not AF_SMC */
	bool ipv6;
	bool daemon;
	bool kill;
	const char *result;
	const char *hook;
	unsigned int timeout;
	unsigned long long size;
	const char *dir;
	unsigned long long seed;
	unsigned int conns;	/* connections at once (smc_conns_test) */
	int rcvbuf, sndbuf;	/* SO_RCVBUF/SO_SNDBUF if non-zero */
	bool expect_err;	/* smc_data_test: must end in a reset/abort */
	bool error_ok;		/* smc_data_test: may end in one */
	bool smcr;		/* the connection runs over SMC-R */
	bool oob;		/* smc_data_test: an urgent byte leads */
	unsigned int pace_ms;	/* smc_data_test: pause after each write */
	unsigned long long fail_at;	/* smc_conns_test: run fail_cmd once */
	const char *fail_cmd;	/* ... when this many bytes came in */
	bool fail_all_up;	/* ... and every connection is up */
	bool fail_sent;		/* ... counting bytes sent, not received */
	unsigned int max_gap_ms;	/* smc_conns_test: longest stall allowed */
	unsigned int window;	/* smc_conns_test: connects at once, 0 all */
	bool connect_first;	/* smc_conns_test: send once all are up */
	bool verbose;
};

static struct opts opt = {
	.smc = true,
	.timeout = 120,
	.dir = "c2s",
	.seed = 1,
	.conns = 1,
};

static const char *prog_name;
static const char *fail_prefix = "";

static void __attribute__((noreturn, format(printf, 2, 3)))
fail_at(int line, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(stderr, "FAIL %s%s:%d: ", fail_prefix, prog_name, line);
	va_start(ap, fmt);
	errno = saved;
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(NULL);
	exit(1);
}

#define FAIL(...)	fail_at(__LINE__, __VA_ARGS__)
#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fail_at(__LINE__, __VA_ARGS__);			\
	} while (0)
/* expr must succeed (>= 0); evaluates to its value */
#define OK(expr)							\
	({								\
		long __r = (long)(expr);				\
		if (__r < 0)						\
			fail_at(__LINE__, "%s: %s", #expr,		\
				strerrorname_np(errno) ?: "?");		\
		__r;							\
	})
/* expr must fail with exactly errno err */
#define ERR(expr, err)							\
	do {								\
		int __want = (err);					\
		long __r;						\
		errno = 0;						\
		__r = (long)(expr);					\
		if (__r != -1 || errno != __want)			\
			fail_at(__LINE__,				\
				"%s: expected -1/%s, got %ld/%s",	\
				#expr, strerrorname_np(__want),		\
				__r, __r == -1 ?			\
				(strerrorname_np(errno) ?: "?") : "-");	\
	} while (0)
#define EQ(got, want)							\
	do {								\
		long long __g = (long long)(got);			\
		long long __w = (long long)(want);			\
		if (__g != __w)						\
			fail_at(__LINE__, "%s = %lld (0x%llx), expected %lld (0x%llx)", \
				#got, __g, (unsigned long long)__g,	\
				__w, (unsigned long long)__w);		\
	} while (0)

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static __maybe_unused void note(const char *fmt, ...)
{
	va_list ap;

	if (!opt.verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* ---- sockets ---------------------------------------------------------- */

/* --family smc: AF_SMC, inet: AF_INET[6]/IPPROTO_SMC, tcp: plain TCP */
static int new_socket(bool smc, bool ipv6)
{
	if (smc && !opt.inet)
		return socket(AF_SMC, SOCK_STREAM,
			      ipv6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	return socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM,
		      smc ? IPPROTO_SMC : 0);
}

static const char *family_name(void)
{
	if (!opt.smc)
		return "TCP";
	return opt.inet ? "IPPROTO_SMC" : "AF_SMC";
}

/*
 * A socket of the family under test, with --rcvbuf/--sndbuf if given:
 * they choose the RMB and send buffer sizes of an SMC connection, and a
 * listener passes them on to the sockets it accepts.
 */
static int xsocket(void)
{
	int fd = new_socket(opt.smc, opt.ipv6);

	if (fd < 0)
		FAIL("socket(%s, %s): %s", family_name(),
		     opt.ipv6 ? "v6" : "v4", strerrorname_np(errno) ?: "?");
	if (opt.rcvbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &opt.rcvbuf,
		       sizeof(opt.rcvbuf)))
		FAIL("SO_RCVBUF %d: %s", opt.rcvbuf, strerrorname_np(errno) ?: "?");
	if (opt.sndbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &opt.sndbuf,
		       sizeof(opt.sndbuf)))
		FAIL("SO_SNDBUF %d: %s", opt.sndbuf, strerrorname_np(errno) ?: "?");
	return fd;
}

/* A plain TCP socket of the same IP version, the reference behaviour */
static __maybe_unused int xtcp_socket(void)
{
	return OK(new_socket(false, opt.ipv6));
}

static socklen_t make_addr(struct sockaddr_storage *ss, const char *host,
			   unsigned short port)
{
	memset(ss, 0, sizeof(*ss));
	if (opt.ipv6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		if (host && inet_pton(AF_INET6, host, &s6->sin6_addr) != 1)
			FAIL("bad IPv6 address '%s'", host);
		return sizeof(*s6);
	}

	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_port = htons(port);
	if (host && inet_pton(AF_INET, host, &s4->sin_addr) != 1)
		FAIL("bad IPv4 address '%s'", host);
	return sizeof(*s4);
}

static unsigned short addr_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

static unsigned short local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	OK(getsockname(fd, (struct sockaddr *)&ss, &len));
	return addr_port(&ss);
}

static unsigned short remote_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	OK(getpeername(fd, (struct sockaddr *)&ss, &len));
	return addr_port(&ss);
}

static int xlisten_socket(const char *host, unsigned short port, int backlog)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, host, port);
	int fd = xsocket(), one = 1;

	OK(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)));
	OK(bind(fd, (struct sockaddr *)&ss, len));
	OK(listen(fd, backlog));
	return fd;
}

static __maybe_unused int xconnect_to(unsigned short port)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, opt.host, port);
	int fd = xsocket();

	OK(connect(fd, (struct sockaddr *)&ss, len));
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			FAIL("send(%zu): %s", len,
			     n ? strerrorname_np(errno) ?: "?" : "0");
		p += n;
		len -= n;
	}
}

static void recv_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			FAIL("recv(%zu): %s", len, strerrorname_np(errno) ?: "?");
		if (n == 0)
			FAIL("recv: unexpected EOF, %zu bytes missing", len);
		p += n;
		len -= n;
	}
}

static void send_byte(int fd, char c)
{
	send_all(fd, &c, 1);
}

static void expect_byte(int fd, char want)
{
	char c;

	recv_all(fd, &c, 1);
	if (c != want)
		FAIL("control byte '%c' (0x%02x), expected '%c'", c,
		     (unsigned char)c, want);
}

static __maybe_unused void expect_eof(int fd)
{
	char c;
	ssize_t n;

	do {
		n = recv(fd, &c, 1, 0);
	} while (n < 0 && errno == EINTR);
	if (n != 0)
		FAIL("expected EOF, recv returned %zd (%s)", n,
		     n < 0 ? strerrorname_np(errno) ?: "?" : "data");
}

/* ---- test data ---------------------------------------------------------- */

/* xorshift64*: a reproducible byte stream */
struct gen {
	uint64_t s;
	uint64_t word;
	unsigned int left;	/* bytes of word not yet used */
};

static __maybe_unused void gen_init(struct gen *g, uint64_t seed)
{
	g->s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	if (!g->s)
		g->s = 1;
	g->left = 0;
}

static __maybe_unused uint64_t gen_next(struct gen *g)
{
	g->s ^= g->s >> 12;
	g->s ^= g->s << 25;
	g->s ^= g->s >> 27;
	return g->s * 0x2545f4914f6cdd1dULL;
}

static __maybe_unused void gen_fill(struct gen *g, unsigned char *b, size_t len)
{
	while (len) {
		if (!g->left) {
			g->word = gen_next(g);
			g->left = 8;
		}
		*b++ = (unsigned char)g->word;
		g->word >>= 8;
		g->left--;
		len--;
	}
}

/* FNV-1a over a stream */
static __maybe_unused void csum(uint64_t *h, const unsigned char *b, size_t len)
{
	while (len--) {
		*h ^= *b++;
		*h *= 0x100000001b3ULL;
	}
}

/* ---- mode-check hook ---------------------------------------------------- */

static bool hook_done;

/*
 * Run the --hook command once, while @fd is connected and the peer is
 * blocked waiting for us: it checks both ends' mode with smcss.
 */
static void run_hook(int fd)
{
	char lport[16], rport[16];
	int rc;

	if (!opt.hook || hook_done)
		return;
	hook_done = true;
	snprintf(lport, sizeof(lport), "%u", local_port(fd));
	snprintf(rport, sizeof(rport), "%u", remote_port(fd));
	setenv("SMC_HOOK_LPORT", lport, 1);
	setenv("SMC_HOOK_RPORT", rport, 1);
	setenv("SMC_HOOK_CASE", opt.tcase ?: "", 1);
	fflush(NULL);
	rc = system(opt.hook);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc))
		FAIL("mode check hook failed (status 0x%x): %s", rc, opt.hook);
}

/*
 * Three-step handshake on a fresh connection; each side runs the hook
 * while the other one is known to be connected and waiting.
 */
static __maybe_unused void handshake_server(int fd)
{
	send_byte(fd, 'A');
	expect_byte(fd, 'B');
	run_hook(fd);
	send_byte(fd, 'C');
}

static __maybe_unused void handshake_client(int fd)
{
	expect_byte(fd, 'A');
	run_hook(fd);
	send_byte(fd, 'B');
	expect_byte(fd, 'C');
}

static __maybe_unused int xaccept(int lfd)
{
	int fd;

	do {
		fd = accept(lfd, NULL, NULL);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		FAIL("accept: %s", strerrorname_np(errno) ?: "?");
	return fd;
}

/* ---- daemon / result file ----------------------------------------------- */

static volatile sig_atomic_t got_alarm, got_term;

static void supervisor_sig(int sig)
{
	if (sig == SIGALRM)
		got_alarm = 1;
	else
		got_term = 1;
}

static void client_watchdog(int sig)
{
	static const char msg[] = "FAIL watchdog: timed out\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(125);
	_exit(124);
}

static void arm_watchdog(void)
{
	signal(SIGALRM, client_watchdog);
	alarm(opt.timeout);
}

static void write_status(int rfd, int status, const char *why)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "STATUS %d %s\n", status, why);

	if (write(rfd, buf, n) != n)
		perror("write result");
}

/*
 * Server side: @lfd is listening.  Without --daemon just run @body.
 * With it, hand over to a supervised grandchild and report READY.
 */
static int serve(int lfd, void (*body)(int lfd))
{
	char logname[4096], buf[64];
	struct sigaction sa;
	pid_t sup, child;
	int rfd, lfdl, st, n;

	if (!opt.daemon) {
		printf("READY %u\n", local_port(lfd));
		fflush(stdout);
		arm_watchdog();
		body(lfd);
		return 0;
	}
	if (!opt.result)
		FAIL("--daemon needs --result FILE");
	rfd = OK(open(opt.result, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0644));
	OK(flock(rfd, LOCK_EX));
	snprintf(logname, sizeof(logname), "%s.log", opt.result);
	lfdl = OK(open(logname, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	fflush(NULL);
	sup = OK(fork());
	if (sup) {
		/* the supervisor shares the open file and so the lock */
		close(rfd);
		close(lfdl);
		printf("READY %u\n", local_port(lfd));
		fflush(stdout);
		_exit(0);
	}
	setsid();
	n = open("/dev/null", O_RDONLY);
	dup2(n, STDIN_FILENO);
	close(n);
	dup2(lfdl, STDOUT_FILENO);
	dup2(lfdl, STDERR_FILENO);
	close(lfdl);
	n = snprintf(buf, sizeof(buf), "PID %d\n", (int)getpid());
	if (write(rfd, buf, n) != n)
		_exit(1);

	child = fork();
	if (child < 0)
		_exit(1);
	if (!child) {
		close(rfd);
		signal(SIGALRM, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		body(lfd);
		fflush(NULL);
		_exit(0);
	}
	close(lfd);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = supervisor_sig;	/* no SA_RESTART: waitpid EINTRs */
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	alarm(opt.timeout);
	for (;;) {
		if (waitpid(child, &st, 0) == child)
			break;
		if (errno != EINTR)
			_exit(1);
		if (got_alarm || got_term) {
			fprintf(stderr, "FAIL %s: server case %s\n",
				got_alarm ? "watchdog timeout" : "killed",
				opt.tcase ?: "");
			kill(child, SIGKILL);
			waitpid(child, &st, 0);
			write_status(rfd, 124, got_alarm ? "watchdog" : "killed");
			_exit(0);
		}
	}
	if (WIFEXITED(st))
		write_status(rfd, WEXITSTATUS(st), "exited");
	else
		write_status(rfd, 128 + WTERMSIG(st), "signalled");
	_exit(0);
}

static int do_wait(void)
{
	char logname[4096], buf[256];
	int rfd, status = -1, pid = 0, fd;
	ssize_t n;
	FILE *f;

	if (!opt.result)
		FAIL("wait needs --result FILE");
	rfd = open(opt.result, O_RDONLY);
	if (rfd < 0)
		FAIL("open %s: %s", opt.result, strerrorname_np(errno) ?: "?");
	if (opt.kill && flock(rfd, LOCK_EX | LOCK_NB)) {
		f = fopen(opt.result, "r");
		if (f && fscanf(f, "PID %d", &pid) == 1 && pid > 1)
			kill(pid, SIGTERM);
		if (f)
			fclose(f);
	}
	arm_watchdog();
	OK(flock(rfd, LOCK_EX));
	alarm(0);
	snprintf(logname, sizeof(logname), "%s.log", opt.result);
	fd = open(logname, O_RDONLY);
	if (fd >= 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(STDOUT_FILENO, buf, n) != n)
				break;
		close(fd);
	}
	f = fopen(opt.result, "r");
	if (f) {
		while (fgets(buf, sizeof(buf), f))
			if (sscanf(buf, "STATUS %d", &status) == 1)
				break;
		fclose(f);
	}
	if (status < 0) {
		printf("FAIL server left no status in %s\n", opt.result);
		status = 1;
	}
	unlink(logname);
	unlink(opt.result);
	return status;
}

/* ---- option parsing ------------------------------------------------------ */

static void usage(void);

static void parse_opts(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "case",	required_argument, NULL, 'c' },
		{ "host",	required_argument, NULL, 'H' },
		{ "port",	required_argument, NULL, 'p' },
		{ "family",	required_argument, NULL, 'f' },
		{ "ipv6",	no_argument,	   NULL, '6' },
		{ "daemon",	no_argument,	   NULL, 'd' },
		{ "kill",	no_argument,	   NULL, 'k' },
		{ "result",	required_argument, NULL, 'r' },
		{ "hook",	required_argument, NULL, 'x' },
		{ "timeout",	required_argument, NULL, 't' },
		{ "size",	required_argument, NULL, 's' },
		{ "dir",	required_argument, NULL, 'D' },
		{ "seed",	required_argument, NULL, 'S' },
		{ "conns",	required_argument, NULL, 'n' },
		{ "rcvbuf",	required_argument, NULL, 'R' },
		{ "sndbuf",	required_argument, NULL, 'W' },
		{ "expect-error", no_argument,	   NULL, 'E' },
		{ "error-ok",	no_argument,	   NULL, 'e' },
		{ "smcr",	no_argument,	   NULL, 'M' },
		{ "oob",	no_argument,	   NULL, 'O' },
		{ "pace",	required_argument, NULL, 'P' },
		{ "fail-at",	required_argument, NULL, 'F' },
		{ "fail-cmd",	required_argument, NULL, 'C' },
		{ "fail-all-up", no_argument,	   NULL, 'U' },
		{ "fail-sent",	no_argument,	   NULL, 'T' },
		{ "max-gap",	required_argument, NULL, 'G' },
		{ "window",	required_argument, NULL, 'w' },
		{ "connect-first", no_argument,	   NULL, 'o' },
		{ "verbose",	no_argument,	   NULL, 'v' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ }
	};
	const char *cmd;
	int c;

	prog_name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (argc < 2)
		usage();
	cmd = argv[1];
	if (!strcmp(cmd, "server"))
		opt.role = ROLE_SERVER;
	else if (!strcmp(cmd, "client"))
		opt.role = ROLE_CLIENT;
	else if (!strcmp(cmd, "wait"))
		opt.role = ROLE_WAIT;
	else if (!strcmp(cmd, "list"))
		opt.role = ROLE_LIST;
	else if (!strcmp(cmd, "probe"))
		opt.role = ROLE_PROBE;
	else
		usage();
	optind = 2;
	while ((c = getopt_long(argc, argv, "c:H:p:f:6dkr:x:t:s:D:S:n:R:W:EMOP:F:C:vh", lo,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.tcase = optarg;
			break;
		case 'H':
			opt.host = optarg;
			break;
		case 'p':
			opt.port = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			opt.smc = strcmp(optarg, "tcp") != 0;
			opt.inet = !strcmp(optarg, "inet");
			if (strcmp(optarg, "smc") && strcmp(optarg, "tcp") &&
			    !opt.inet)
				usage();
			break;
		case '6':
			opt.ipv6 = true;
			break;
		case 'd':
			opt.daemon = true;
			break;
		case 'k':
			opt.kill = true;
			break;
		case 'r':
			opt.result = optarg;
			break;
		case 'x':
			opt.hook = optarg;
			break;
		case 't':
			opt.timeout = strtoul(optarg, NULL, 0);
			break;
		case 's':
			opt.size = strtoull(optarg, NULL, 0);
			break;
		case 'D':
			opt.dir = optarg;
			break;
		case 'S':
			opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			opt.conns = strtoul(optarg, NULL, 0);
			break;
		case 'R':
			opt.rcvbuf = strtol(optarg, NULL, 0);
			break;
		case 'E':
			opt.expect_err = true;
			break;
		case 'e':
			opt.error_ok = true;
			break;
		case 'W':
			opt.sndbuf = strtol(optarg, NULL, 0);
			break;
		case 'M':
			opt.smcr = true;
			break;
		case 'O':
			opt.oob = true;
			break;
		case 'P':
			opt.pace_ms = strtoul(optarg, NULL, 0);
			break;
		case 'F':
			opt.fail_at = strtoull(optarg, NULL, 0);
			break;
		case 'C':
			opt.fail_cmd = optarg;
			break;
		case 'w':
			opt.window = strtoul(optarg, NULL, 0);
			break;
		case 'U':
			opt.fail_all_up = true;
			break;
		case 'T':
			opt.fail_sent = true;
			break;
		case 'G':
			opt.max_gap_ms = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			opt.connect_first = true;
			break;
		case 'v':
			opt.verbose = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if (opt.role == ROLE_CLIENT && (!opt.host || !opt.port))
		FAIL("client needs --host and --port");
	signal(SIGPIPE, SIG_IGN);
}

#endif /* SMC_TEST_COMMON_H */
