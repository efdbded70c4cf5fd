// SPDX-License-Identifier: GPL-2.0
/*
 * libsmc-preload.so - run unchanged TCP programs over SMC.
 *
 * Loaded with LD_PRELOAD (see smc_run), it replaces socket() so that
 * socket(AF_INET or AF_INET6, SOCK_STREAM, 0 or IPPROTO_TCP) returns an SMC
 * socket.  Everything else is passed through untouched.
 *
 * Which SMC socket:
 *   SMC_SOCK_FAMILY=auto (default)  IPPROTO_SMC if the kernel offers it,
 *                                   else AF_SMC
 *   SMC_SOCK_FAMILY=inet            socket(AF_INET[6], SOCK_STREAM, IPPROTO_SMC)
 *   SMC_SOCK_FAMILY=smc             socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC[6])
 * If no SMC socket can be made (no smc module, say) the program gets the
 * TCP socket it asked for: acceleration is best effort, never a failure.
 *
 * SMC_SNDBUF / SMC_RCVBUF (bytes, k/m/g suffixes) set SO_SNDBUF/SO_RCVBUF
 * on every SMC socket; SMC_DEBUG=1 logs each conversion to stderr.
 *
 * Thread-safe: the real socket() and the settings are looked up once,
 * under pthread_once.  Setuid-safe: in a secure-execution process
 * (AT_SECURE) the environment is not trusted and nothing is converted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef AF_SMC
#define AF_SMC		43
#endif
#ifndef IPPROTO_SMC
#define IPPROTO_SMC	256
#endif
#define SMCPROTO_SMC	0
#define SMCPROTO_SMC6	1

enum smc_mode { SMC_MODE_OFF, SMC_MODE_AUTO, SMC_MODE_INET, SMC_MODE_SMC };

static int (*real_socket)(int domain, int type, int protocol);
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static enum smc_mode mode;
static long sndbuf, rcvbuf;
static int debug;
/*
 * auto: the kernel refused IPPROTO_SMC while AF_SMC worked, so it has no
 * IPPROTO_SMC (before 6.11).  Ask once: each refusal costs the kernel
 * two module requests, each one a modprobe run, serialised.
 */
static int no_inet_smc;

static long parse_size(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || v < 0)
		return 0;
	switch (*end) {
	case 'k': case 'K':
		v <<= 10;
		end++;
		break;
	case 'm': case 'M':
		v <<= 20;
		end++;
		break;
	case 'g': case 'G':
		v <<= 30;
		end++;
		break;
	}
	return *end ? 0 : v;
}

static void preload_init(void)
{
	const char *fam;

	real_socket = dlsym(RTLD_NEXT, "socket");
	if (getauxval(AT_SECURE)) {
		mode = SMC_MODE_OFF;
		return;
	}
	fam = getenv("SMC_SOCK_FAMILY");
	if (!fam || !*fam || !strcmp(fam, "auto"))
		mode = SMC_MODE_AUTO;
	else if (!strcmp(fam, "inet"))
		mode = SMC_MODE_INET;
	else if (!strcmp(fam, "smc"))
		mode = SMC_MODE_SMC;
	else
		mode = SMC_MODE_OFF;
	sndbuf = parse_size(getenv("SMC_SNDBUF"));
	rcvbuf = parse_size(getenv("SMC_RCVBUF"));
	debug = getenv("SMC_DEBUG") && strcmp(getenv("SMC_DEBUG"), "0");
	if (debug && mode == SMC_MODE_OFF)
		fprintf(stderr, "smc-preload: unknown SMC_SOCK_FAMILY '%s', not converting\n",
			fam);
}

static void set_buf(int fd, int opt, int force_opt, long size)
{
	int v = size > 0x7fffffff ? 0x7fffffff : (int)size;

	if (!size)
		return;
	/* the FORCE variants pass rmem_max/wmem_max where privileged */
	if (!setsockopt(fd, SOL_SOCKET, force_opt, &v, sizeof(v)) ||
	    !setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v)))
		return;
	if (debug)
		fprintf(stderr, "smc-preload: setting buffer size %d: %s\n",
			v, strerror(errno));
}

static int smc_socket(int domain, int type)
{
	int saved = errno, fd = -1, unknown = 0;

	if (mode == SMC_MODE_INET ||
	    (mode == SMC_MODE_AUTO &&
	     !__atomic_load_n(&no_inet_smc, __ATOMIC_RELAXED))) {
		fd = real_socket(domain, type, IPPROTO_SMC);
		unknown = fd < 0 && errno == EPROTONOSUPPORT;
	}
	if (fd < 0 && mode != SMC_MODE_INET) {
		fd = real_socket(AF_SMC, type,
				 domain == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
		if (fd >= 0 && unknown) {
			__atomic_store_n(&no_inet_smc, 1, __ATOMIC_RELAXED);
			if (debug)
				fprintf(stderr, "smc-preload: no IPPROTO_SMC in this kernel, AF_SMC from now on\n");
		}
	}
	if (fd < 0) {
		errno = saved;
		return -1;
	}
	set_buf(fd, SO_SNDBUF, SO_SNDBUFFORCE, sndbuf);
	set_buf(fd, SO_RCVBUF, SO_RCVBUFFORCE, rcvbuf);
	errno = saved;
	return fd;
}

/* the interposed socket(3) */
int socket(int domain, int type, int protocol)
{
	int fd;

	pthread_once(&init_once, preload_init);
	if (!real_socket) {
		errno = EAFNOSUPPORT;	/* libc without socket(): nothing to call */
		return -1;
	}
	if (mode == SMC_MODE_OFF ||
	    (domain != AF_INET && domain != AF_INET6) ||
	    (type & 0xf) != SOCK_STREAM ||
	    (protocol != 0 && protocol != IPPROTO_TCP))
		return real_socket(domain, type, protocol);

	fd = smc_socket(domain, type);
	if (debug)
		fprintf(stderr, "smc-preload: socket(%s, SOCK_STREAM) -> %s fd %d\n",
			domain == AF_INET ? "AF_INET" : "AF_INET6",
			fd < 0 ? "TCP (no SMC socket)" : "SMC", fd);
	if (fd >= 0)
		return fd;
	return real_socket(domain, type, protocol);
}
