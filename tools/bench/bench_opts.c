// SPDX-License-Identifier: GPL-2.0
/*
 * smc_bench's command line: the options of its server and client, their
 * checks and the usage text.  The workloads are in smc_bench.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_opts.h"

#define XFER_MAX		0xffffffffULL	/* sizes are u32 on the wire */
#define CLIENTS_MAX		4096
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* which of the two commands takes an option */
#define FOR_SERVER		1
#define FOR_CLIENT		2
#define FOR_BOTH		(FOR_SERVER | FOR_CLIENT)

const char * const family_names[] = { "tcp", "smc", "inet-smc" };
const char * const workload_names[] = { "rr", "crr", "str" };

struct bench_opts opt = {
	.workload = WL_NONE,
	.clients = 1,
	.timeout = -1,
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: smc_bench server --family F --port P [--addr ADDR] [--once]\n"
		"                        [--verify] [--nodelay] [--rdma-dev DEV]\n"
		"       smc_bench client --family F --addr ADDR --port P\n"
		"                        --workload rr|crr|str --clients N\n"
		"                        --req BYTES --resp BYTES\n"
		"                        (--duration SECONDS | --count TRANSACTIONS)\n"
		"                        [--warmup SECONDS] [--label TEXT] [--verify]\n"
		"                        [--nodelay] [--timeout SECONDS]\n"
		"                        [--rdma-dev DEV] [--peer-stats]\n"
		"       smc_bench --help\n"
		"\n"
		"  --family tcp|smc|inet-smc  TCP, AF_SMC or AF_INET[6]/IPPROTO_SMC\n"
		"  --addr ADDR      numeric IPv4/IPv6 address (server: 0.0.0.0)\n"
		"  --port P         TCP port (server: 0 picks one)\n"
		"  --once           server: exit after the first connection\n"
		"  --workload W     rr: request/response on one connection per client,\n"
		"                   crr: a new connection per transaction,\n"
		"                   str: rr with a streamed response (e.g. 1/20M)\n"
		"  --clients N      threads, each with its own connection (default 1)\n"
		"  --req, --resp    payload sizes, K/M/G suffixes 1024-based\n"
		"  --duration S     measure for S seconds, or\n"
		"  --count N        measure N transactions per client\n"
		"  --warmup S       run S seconds unmeasured first (default 0)\n"
		"  --label TEXT     JSON label (default e.g. RR10(32KB/32KB))\n"
		"  --verify         check the payload pattern (costs CPU)\n"
		"  --nodelay        set TCP_NODELAY (default: socket defaults)\n"
		"  --timeout S      give up on hung threads after S seconds\n"
		"  --rdma-dev DEV   count the packets of port 1 of RDMA device DEV\n"
		"  --peer-stats     client: read the server host's counters too\n"
		"\n"
		"The client prints one JSON line; exit 0 if transactions ran and no\n"
		"errors happened, 1 if not, 2 for usage errors.\n");
}

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("smc_bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'smc_bench --help'.\n", stderr);
	exit(2);
}

static unsigned long long parse_size(const char *name, const char *s)
{
	unsigned long long v, mult = 1;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		usage_error("%s: bad size '%s'", name, s);
	switch (*end) {
	case 'k':
	case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm':
	case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g':
	case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || !v || v > XFER_MAX / mult)
		usage_error("%s: bad size '%s' (1 to 4G-1 bytes)", name, s);
	return v * mult;
}

static unsigned long long parse_uint(const char *name, const char *s,
				     unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || !v || v > max)
		usage_error("%s: bad number '%s' (1 to %llu)", name, s, max);
	return v;
}

static double parse_seconds(const char *name, const char *s, bool zero_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 ||
	    (!zero_ok && v == 0) || v > 1e7)
		usage_error("%s: bad number of seconds '%s'", name, s);
	return v;
}

static int lookup(const char *name, const char *s,
		  const char * const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	usage_error("%s: unknown value '%s'", name, s);
}

enum {
	OPT_FAMILY = 256, OPT_ADDR, OPT_PORT, OPT_ONCE, OPT_WORKLOAD,
	OPT_CLIENTS, OPT_REQ, OPT_RESP, OPT_DURATION, OPT_COUNT, OPT_WARMUP,
	OPT_LABEL, OPT_VERIFY, OPT_NODELAY, OPT_TIMEOUT, OPT_RDMA_DEV,
	OPT_PEER_STATS, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "family",	required_argument, NULL, OPT_FAMILY },
	{ "addr",	required_argument, NULL, OPT_ADDR },
	{ "port",	required_argument, NULL, OPT_PORT },
	{ "once",	no_argument,	   NULL, OPT_ONCE },
	{ "workload",	required_argument, NULL, OPT_WORKLOAD },
	{ "clients",	required_argument, NULL, OPT_CLIENTS },
	{ "req",	required_argument, NULL, OPT_REQ },
	{ "resp",	required_argument, NULL, OPT_RESP },
	{ "duration",	required_argument, NULL, OPT_DURATION },
	{ "count",	required_argument, NULL, OPT_COUNT },
	{ "warmup",	required_argument, NULL, OPT_WARMUP },
	{ "label",	required_argument, NULL, OPT_LABEL },
	{ "verify",	no_argument,	   NULL, OPT_VERIFY },
	{ "nodelay",	no_argument,	   NULL, OPT_NODELAY },
	{ "timeout",	required_argument, NULL, OPT_TIMEOUT },
	{ "rdma-dev",	required_argument, NULL, OPT_RDMA_DEV },
	{ "peer-stats",	no_argument,	   NULL, OPT_PEER_STATS },
	{ "help",	no_argument,	   NULL, OPT_HELP },
	{ }
};

/* the commands an option is for, by OPT_* - OPT_FAMILY */
static const unsigned char opt_for[] = {
	FOR_BOTH, FOR_BOTH, FOR_BOTH, FOR_SERVER, FOR_CLIENT,
	FOR_CLIENT, FOR_CLIENT, FOR_CLIENT, FOR_CLIENT, FOR_CLIENT, FOR_CLIENT,
	FOR_CLIENT, FOR_BOTH, FOR_BOTH, FOR_CLIENT, FOR_BOTH, FOR_CLIENT,
	FOR_BOTH,
};

void parse_opts(int argc, char **argv)
{
	bool have_family = false;
	int c, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			exit(0);
		}
	}
	if (argc < 2)
		usage_error("server or client?");
	if (!strcmp(argv[1], "server"))
		opt.server = true;
	else if (strcmp(argv[1], "client"))
		usage_error("unknown command '%s'", argv[1]);

	optind = 2;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		if (c < OPT_FAMILY || c > OPT_HELP)
			usage_error("bad option");
		if (!(opt_for[c - OPT_FAMILY] &
		      (opt.server ? FOR_SERVER : FOR_CLIENT)))
			usage_error("--%s is not a %s option",
				    long_opts[c - OPT_FAMILY].name, argv[1]);
		switch (c) {
		case OPT_FAMILY:
			opt.family = lookup("--family", optarg, family_names,
					    ARRAY_SIZE(family_names));
			have_family = true;
			break;
		case OPT_ADDR:
			opt.addr = optarg;
			break;
		case OPT_PORT:
			/* getaddrinfo() takes 65536 for 0 */
			if (strspn(optarg, "0123456789") != strlen(optarg) ||
			    !*optarg || strlen(optarg) > 5 || atoi(optarg) > 65535)
				usage_error("--port: bad port '%s'", optarg);
			opt.port = optarg;
			break;
		case OPT_ONCE:
			opt.once = true;
			break;
		case OPT_WORKLOAD:
			opt.workload = lookup("--workload", optarg,
					      workload_names,
					      ARRAY_SIZE(workload_names));
			break;
		case OPT_CLIENTS:
			opt.clients = parse_uint("--clients", optarg,
						 CLIENTS_MAX);
			break;
		case OPT_REQ:
			opt.req = parse_size("--req", optarg);
			break;
		case OPT_RESP:
			opt.resp = parse_size("--resp", optarg);
			break;
		case OPT_DURATION:
			opt.duration = parse_seconds("--duration", optarg,
						     false);
			break;
		case OPT_COUNT:
			opt.count = parse_uint("--count", optarg, 1ULL << 40);
			break;
		case OPT_WARMUP:
			opt.warmup = parse_seconds("--warmup", optarg, true);
			break;
		case OPT_LABEL:
			opt.label = optarg;
			break;
		case OPT_VERIFY:
			opt.verify = true;
			break;
		case OPT_NODELAY:
			opt.nodelay = true;
			break;
		case OPT_TIMEOUT:
			opt.timeout = parse_seconds("--timeout", optarg, true);
			break;
		case OPT_RDMA_DEV:
			if (!*optarg || strchr(optarg, '/') ||
			    strlen(optarg) > 64)
				usage_error("--rdma-dev: bad device name '%s'",
					    optarg);
			opt.rdma_dev = optarg;
			break;
		case OPT_PEER_STATS:
			opt.peer_stats = true;
			break;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!have_family)
		usage_error("--family is required");
	if (!opt.port)
		usage_error("--port is required");
	if (!opt.server && !atoi(opt.port))
		usage_error("--port: the client needs a port other than 0");
	if (opt.server)
		return;
	if (!opt.addr)
		usage_error("--addr is required");
	if (opt.workload == WL_NONE)
		usage_error("--workload is required");
	if (!opt.req || !opt.resp)
		usage_error("--req and --resp are required");
	if (!opt.duration == !opt.count)
		usage_error("one of --duration and --count is required");
}

