/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A host's counters for the benchmark's per-operation costs: busy CPU
 * time, context switches, the softirqs the datapaths run in and the
 * packets Soft-RoCE carried.  See bench_host.c.
 */
#ifndef SMC_BENCH_HOST_H
#define SMC_BENCH_HOST_H

#include <stdbool.h>
#include <stddef.h>

/* the size of a snapshot on the wire: text, NUL-padded */
#define HOST_SNAP_LEN		192

struct host_snap {
	bool ok;			/* /proc/stat and /proc/softirqs read */
	bool rxe_ok;			/* the RDMA device's counters read */
	unsigned long long busy;	/* jiffies of all CPUs, not idle */
	unsigned long long ctxt;	/* context switches */
	unsigned long long net_rx;	/* NET_RX softirqs, all CPUs */
	unsigned long long irq_poll;	/* IRQ_POLL softirqs, all CPUs */
	unsigned long long tasklet;	/* TASKLET softirqs, all CPUs */
	unsigned long long rxe_sent;	/* packets of port 1 of the device */
	unsigned long long rxe_rcvd;
};

void host_snap_take(struct host_snap *s, const char *rdma_dev);
void host_snap_format(const struct host_snap *s, char *buf);
bool host_snap_parse(struct host_snap *s, const char *buf);
double host_snap_busy_s(const struct host_snap *a, const struct host_snap *b);

#endif
