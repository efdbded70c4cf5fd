/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smc_bench's command line: what the workloads read (opt), and the
 * parser that fills it (bench_opts.c).
 */
#ifndef SMC_BENCH_OPTS_H
#define SMC_BENCH_OPTS_H

#include <stdbool.h>

enum family { FAM_TCP, FAM_SMC, FAM_INET_SMC };
enum workload { WL_RR, WL_CRR, WL_STR, WL_NONE };

extern const char * const family_names[];
extern const char * const workload_names[];

struct bench_opts {
	bool server;
	enum family family;
	const char *addr;
	const char *port;
	bool once;
	bool verify;
	bool nodelay;
	enum workload workload;
	unsigned int clients;
	unsigned long long req, resp;
	double duration;
	unsigned long long count;
	double warmup;
	double timeout;		/* < 0: the default */
	const char *label;
	const char *rdma_dev;	/* whose packets count, or NULL */
	bool peer_stats;
};

extern struct bench_opts opt;

void parse_opts(int argc, char **argv);

#endif
