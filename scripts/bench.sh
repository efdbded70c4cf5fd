#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the two-host rig once and run every workload through
# every transport in the same run (plain TCP with and without
# TCP_NODELAY, our SMC-R at its own and at rsocket's buffer size, the
# distro's SMC-R, rsocket, and the raw RDMA limit with perftest, polling
# and event-driven), then the failover row (the longest wait for data of
# a verified transfer when the server's host breaks one of two links,
# each way, ours and the distro's), then write out/bench-<UTC time>/
# with results.md, results.json and one PNG chart per workload.  See
# Documentation/networking/smc-bench.rst.
#
#   QUICK=1        a few minutes: 2 repetitions, 2 s cells, 3 workloads
#   BENCH_SMOKE=1  the harness's own test (make check): 1 repetition,
#                  1 s cells, 3 workloads, tcp, ours (both sizes), distro
#                  and raw RDMA, and ours in the failover row with net2
#                  down; fails if an output is missing, an SMC cell is
#                  not SMC-R or ours loses the transfer in a failover
#
# Any of these overrides the mode's choice:
#   BENCH_REPS, BENCH_DURATION, BENCH_WARMUP (seconds per cell),
#   BENCH_WORKLOADS (RR1 RR10 STR1 STR3 CRR10 rr1_200B_1KB rr1_200B_30KB),
#   BENCH_TRANSPORTS (tcp tcp_nodelay ours ours_rsbuf distro rsocket rdma
#   rdma_ev), BENCH_TOOLS (qperf sockperf, or "" for none),
#   BENCH_TOOL_TRANSPORTS (tcp ours distro), BENCH_TOOL_REPS,
#   BENCH_TOOL_DURATION, BENCH_CPUS and BENCH_MEM (per rig host),
#   BENCH_TIMEOUT (the rig's hard limit), BENCH_OUT (results folder),
#   BENCH_GEN (the workload generator, default tools/bench/smc_bench),
#   BENCH_GEN_ARGS (more options for its server and client, e.g. --nodelay),
#   BENCH_STRICT=1 (fail on invalid cells outside the smoke mode too),
#   BENCH_APPEND (more kernel command line for the rig, e.g. slub_debug),
#   BENCH_OURS (the directory of the smc.ko and smc_diag.ko that are
#   "ours", default net/smc: e.g. another build, for a before/after pair),
#   BENCH_FO_WAYS (none down rdma-del tc carrier, each host B's, the
#   server's, or with @A host A's, the client's: "" for no failover row),
#   BENCH_FO_TRANSPORTS (ours distro), BENCH_FO_REPS, BENCH_FO_LIMIT
#   (seconds without progress that end a failover cell), BENCH_FO_TESTLINK
#   (net.smc.smcr_testlink_time in the failover cells), BENCH_FO_SIZE
#   (bytes per connection and direction; 4 connections), BENCH_FO_SKIP
#   (module/way cells left out, default distro/tc@A: it wedges host B).
#
# The exit status is 0 when the run produced its results; with
# BENCH_SMOKE=1 or BENCH_STRICT=1 every SMC cell must also be SMC-R.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
KVER=${KVER:-6.12}
export KVER

mode=full
[ "${QUICK:-0}" = 1 ] && mode=quick
[ "${BENCH_SMOKE:-0}" = 1 ] && mode=smoke
strict=${BENCH_STRICT:-0}

case $mode in
full)
	reps=5 dur=3 warm=1
	workloads="RR1 RR10 STR1 STR3 CRR10 rr1_200B_1KB rr1_200B_30KB"
	transports="tcp tcp_nodelay ours ours_rsbuf distro rsocket rdma rdma_ev"
	tools="qperf sockperf" tool_reps=3 tool_dur=2 lat_iters=2000
	fo_ways="none down rdma-del tc carrier down@A rdma-del@A tc@A carrier@A"
	fo_transports="ours distro" fo_reps=3
	timeout=3600 ;;
quick)
	reps=2 dur=2 warm=1
	workloads="RR1 STR1 CRR10"
	transports="tcp tcp_nodelay ours ours_rsbuf distro rsocket rdma rdma_ev"
	tools="qperf sockperf" tool_reps=1 tool_dur=2 lat_iters=1000
	fo_ways="none down tc@A" fo_transports="ours distro" fo_reps=1
	timeout=1200 ;;
smoke)
	reps=1 dur=1 warm=0
	workloads="RR1 STR1 CRR10"
	transports="tcp ours ours_rsbuf distro rdma"
	tools="" tool_reps=1 tool_dur=1 lat_iters=200
	fo_ways="down" fo_transports="ours" fo_reps=1
	timeout=420 strict=1 ;;
esac
reps=${BENCH_REPS:-$reps}
dur=${BENCH_DURATION:-$dur}
warm=${BENCH_WARMUP:-$warm}
workloads=${BENCH_WORKLOADS:-$workloads}
transports=${BENCH_TRANSPORTS:-$transports}
tools=${BENCH_TOOLS-$tools}
tool_transports=${BENCH_TOOL_TRANSPORTS:-tcp ours distro}
tool_reps=${BENCH_TOOL_REPS:-$tool_reps}
tool_dur=${BENCH_TOOL_DURATION:-$tool_dur}
cpus=${BENCH_CPUS:-1}
mem=${BENCH_MEM:-1536}
timeout=${BENCH_TIMEOUT:-$timeout}
gen=${BENCH_GEN:-$top/tools/bench/smc_bench}
fo_ways=${BENCH_FO_WAYS-$fo_ways}
fo_transports=${BENCH_FO_TRANSPORTS:-$fo_transports}
fo_reps=${BENCH_FO_REPS:-$fo_reps}

stamp=$(date -u +%Y%m%dT%H%M%SZ)
res=${BENCH_OUT:-$top/out/bench-$stamp}
mkdir -p "$res"
res=$(cd "$res" && pwd)

die() { echo "bench: $*" >&2; exit 1; }

ours_dir=${BENCH_OURS:-$top/net/smc}
for f in "$ours_dir/smc.ko" "$ours_dir/smc_diag.ko" tools/smc/smcr \
	 tools/smc/smcss tools/smc/libsmc-preload.so; do
	[ -f "$f" ] || die "$f is missing: run make (or make bench) first"
done
[ -x "$gen" ] || die "$gen is missing: make -C tools/bench"
[ -z "$fo_ways" ] || [ -x tools/testing/selftests/net/smc/smc_conns_test ] ||
	die "smc_conns_test is missing: make tools"
for t in $tools; do
	command -v "$t" >/dev/null || die "$t missing: scripts/setup.sh"
done
case " $transports " in
*" rdma "*|*" rdma_ev "*)
	for t in ib_write_bw ib_write_lat ib_send_bw ib_send_lat; do
		command -v $t >/dev/null || die "$t missing: scripts/setup.sh"
	done ;;
esac
command -v gnuplot >/dev/null || die "gnuplot missing: scripts/setup.sh"

rev=$(git describe --always --dirty 2>/dev/null || echo unknown)
echo "bench: $mode run, results in $res"
echo "bench: $reps x $dur s per cell, workloads: $workloads; transports: $transports"
echo "bench: failover row: ${fo_ways:-none}${fo_ways:+ x $fo_transports, $fo_reps repetition(s)}"

# the settings travel to the guest in the job's command line
job=$(printf 'BENCH_%s=%q ' REPS "$reps" DURATION "$dur" WARMUP "$warm" \
	WORKLOADS "$workloads" TRANSPORTS "$transports" TOOLS "$tools" \
	TOOL_TRANSPORTS "$tool_transports" TOOL_REPS "$tool_reps" \
	TOOL_DURATION "$tool_dur" LAT_ITERS "${BENCH_LAT_ITERS:-$lat_iters}" \
	GEN "$gen" GEN_ARGS "${BENCH_GEN_ARGS:-}" FO_WAYS "$fo_ways" \
	FO_TRANSPORTS "$fo_transports" FO_REPS "$fo_reps" \
	FO_LIMIT "${BENCH_FO_LIMIT:-30}" FO_TESTLINK "${BENCH_FO_TESTLINK:-5}" \
	FO_SIZE "${BENCH_FO_SIZE:-4194304}" FO_SKIP "${BENCH_FO_SKIP-distro/tc@A}")
t0=$(date +%s)
# the production module (net/smc), not the rig's test build
SMC_RIG_OURS=$ours_dir \
"$top/scripts/rig/rig.sh" run --cpus "$cpus" --mem "$mem" --timeout "$timeout" \
	${BENCH_APPEND:+--append "$BENCH_APPEND"} \
	--out "$res/rig" -- "${job}bash scripts/bench-guest.sh run"
rig_rc=$?
t1=$(date +%s)
echo "bench: rig run took $((t1 - t0)) s (exit $rig_rc)"

[ -s "$res/rig/raw.jsonl" ] || die "no raw results (rig exit $rig_rc): see $res/rig"

args=(--raw "$res/rig/raw.jsonl" --out "$res" --mode "$mode" --git "$rev"
      --cpus "$cpus" --mem "$mem" --rig-rc "$rig_rc" --wall "$((t1 - t0))")
[ "$strict" = 1 ] && args+=(--strict)
"$top/scripts/bench_report.py" "${args[@]}"
rc=$?

for f in results.md results.json; do
	[ -s "$res/$f" ] || { echo "bench: $f is missing" >&2; rc=1; }
done
compgen -G "$res/*.png" >/dev/null || { echo "bench: no chart" >&2; rc=1; }
[ "$rig_rc" = 0 ] || rc=1
echo "bench: $res/results.md"
exit $rc
