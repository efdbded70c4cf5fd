// SPDX-License-Identifier: GPL-2.0
/*
 * A host's counters, read at the two edges of the measured window: by the
 * client for its own host, and by the server for its host when the client
 * asks over the statistics connection (smc_bench.c).  Reading them in the
 * generator, not around the whole cell, keeps connection set-up, warm-up
 * and tear-down out of the per-operation costs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench_host.h"

/* the sum of the per-CPU columns of /proc/softirqs' row @name */
static bool softirq_sum(const char *line, const char *name,
			unsigned long long *sum)
{
	size_t len = strlen(name);
	const char *p = line;
	unsigned long long v;
	int n;

	while (*p == ' ')
		p++;
	if (strncmp(p, name, len) || p[len] != ':')
		return false;
	p += len + 1;
	*sum = 0;
	while (sscanf(p, " %llu%n", &v, &n) == 1) {
		*sum += v;
		p += n;
	}
	return true;
}

static bool read_ull(const char *path, unsigned long long *v)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu", v) == 1;
	fclose(f);
	return ok;
}

static bool read_stat(struct host_snap *s)
{
	/* user nice system idle iowait irq softirq steal */
	unsigned long long v[8] = { 0 };
	bool cpu = false, ctxt = false;
	char line[4096];
	FILE *f;

	f = fopen("/proc/stat", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* "cpu " only: sscanf() would take "cpu0 5" for "cpu 0 5" */
		if (!strncmp(line, "cpu ", 4) &&
		    sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) >= 4) {
			s->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
			cpu = true;
		} else if (sscanf(line, "ctxt %llu", &s->ctxt) == 1) {
			ctxt = true;
		}
	}
	fclose(f);
	return cpu && ctxt;
}

static bool read_softirqs(struct host_snap *s)
{
	bool rx = false, poll = false, tasklet = false;
	char line[4096];
	FILE *f;

	f = fopen("/proc/softirqs", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		rx = rx || softirq_sum(line, "NET_RX", &s->net_rx);
		poll = poll || softirq_sum(line, "IRQ_POLL", &s->irq_poll);
		tasklet = tasklet || softirq_sum(line, "TASKLET", &s->tasklet);
	}
	fclose(f);
	return rx && poll && tasklet;
}

/**
 * host_snap_take() - read this host's counters now
 * @s: filled in; ok and rxe_ok say which parts could be read
 * @rdma_dev: the RDMA device whose port 1 packets count, or NULL
 */
void host_snap_take(struct host_snap *s, const char *rdma_dev)
{
	char path[256];

	memset(s, 0, sizeof(*s));
	s->ok = read_stat(s) && read_softirqs(s);
	if (!rdma_dev)
		return;
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/sent_pkts",
		 rdma_dev);
	s->rxe_ok = read_ull(path, &s->rxe_sent);
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/rcvd_pkts",
		 rdma_dev);
	s->rxe_ok = s->rxe_ok && read_ull(path, &s->rxe_rcvd);
}

/**
 * host_snap_format() - a snapshot as the statistics connection carries it
 * @s: the snapshot
 * @buf: HOST_SNAP_LEN bytes, filled with text and NUL padding
 */
void host_snap_format(const struct host_snap *s, char *buf)
{
	memset(buf, 0, HOST_SNAP_LEN);
	snprintf(buf, HOST_SNAP_LEN, "%d %d %llu %llu %llu %llu %llu %llu %llu",
		 s->ok, s->rxe_ok, s->busy, s->ctxt, s->net_rx, s->irq_poll,
		 s->tasklet, s->rxe_sent, s->rxe_rcvd);
}

/**
 * host_snap_parse() - the snapshot a peer sent
 * @s: filled in
 * @buf: HOST_SNAP_LEN bytes from host_snap_format()
 *
 * Return: false if @buf is not a snapshot.
 */
bool host_snap_parse(struct host_snap *s, const char *buf)
{
	char text[HOST_SNAP_LEN + 1];
	int ok, rxe_ok;

	memcpy(text, buf, HOST_SNAP_LEN);
	text[HOST_SNAP_LEN] = 0;
	memset(s, 0, sizeof(*s));
	if (sscanf(text, "%d %d %llu %llu %llu %llu %llu %llu %llu", &ok,
		   &rxe_ok, &s->busy, &s->ctxt, &s->net_rx, &s->irq_poll,
		   &s->tasklet, &s->rxe_sent, &s->rxe_rcvd) != 9)
		return false;
	s->ok = ok;
	s->rxe_ok = rxe_ok;
	return true;
}

/**
 * host_snap_busy_s() - busy CPU seconds of all CPUs between two snapshots
 * @a: the earlier snapshot
 * @b: the later one
 */
double host_snap_busy_s(const struct host_snap *a, const struct host_snap *b)
{
	return (double)(b->busy - a->busy) / sysconf(_SC_CLK_TCK);
}
