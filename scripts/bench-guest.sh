#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's job on the rig (scripts/bench.sh starts it on host A).
# It only measures and records; scripts/bench_report.py judges and
# summarises afterwards, on the machine.
#
#   bench-guest.sh run        the benchmark, on host A; raw records go to
#                             $SMC_RIG_OUT/raw.jsonl, one JSON object a line
#   bench-guest.sh snap       this host's counters as one JSON line:
#                             /proc/stat's cpu line, "smcr -j stats" (if an
#                             smc module is loaded), rxe1's packet counters
#   bench-guest.sh peer-start ID READY CMD...
#                             start a server in the background, wait
#                             (bounded, by polling) until READY holds, then
#                             print a snapshot.  READY is "line:TEXT" (the
#                             server printed TEXT) or "port:N" (a TCP
#                             socket listens on port N)
#   bench-guest.sh peer-stop ID
#                             print a snapshot, then stop that server
#   bench-guest.sh gid        the index of rxe1's IPv4 (RoCEv2) GID
#
# Host B runs peer-start, peer-stop and gid through $SMC_PEER_EXEC.  The
# settings come from scripts/bench.sh in the environment (BENCH_*).
#
# Every workload runs through every transport in each repetition; the
# order of the transports flips from one (repetition, workload) group to
# the next, so that each transport is measured early and late alike and
# the smc module changes only once per group.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
self=$here/bench-guest.sh
SMCR=$top/tools/smc/smcr
SMC_RUN=$top/tools/smc/smc_run
RSPRELOAD=${BENCH_RSPRELOAD:-/usr/lib/x86_64-linux-gnu/rsocket/librspreload.so}
RXE=rxe1

# ---- helpers used on both hosts ---------------------------------------------
#
# Under TCG every fork and exec costs about 0.1 s, so the per-cell work
# (snapshots, readiness polls, records) sticks to bash builtins.

# json_str <text>: <text> as a JSON string (in $REPLY)
json_str()
{
	local s=$1

	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\n'/\\n}
	s=${s//$'\t'/\\t}
	s=${s//[[:cntrl:]]/}
	REPLY="\"$s\""
}

# json_obj <text>: <text> if it is one JSON object on one line, else
# null (in $REPLY)
json_obj()
{
	REPLY=null
	case $1 in
	*$'\n'*) ;;
	"{"*"}") REPLY=$1 ;;
	esac
}

# jobj NAME VALUE...: a JSON object of these names and JSON values, in
# $REPLY; a value "s:TEXT" is the string TEXT, "o:TEXT" the object TEXT
# if it is one (else null)
jobj()
{
	local s='' v

	while [ $# -ge 2 ]; do
		case $2 in
		s:*) json_str "${2#s:}"; v=$REPLY ;;
		o:*) json_obj "${2#o:}"; v=$REPLY ;;
		*) v=$2 ;;
		esac
		s="$s${s:+,}\"$1\":$v"
		shift 2
	done
	REPLY="{$s}"
}

# bench_snap [smc]: this host's counters as one JSON object in $REPLY;
# with "smc", also "smcr -j stats" if an smc module is loaded (only
# then: asking for the netlink family of an absent module would load the
# distro one)
bench_snap()
{
	local up cpu ncpu=0 smcr=null rxe='' f v l tag rest
	local d=/sys/class/infiniband/$RXE/ports/1/hw_counters

	read -r up _ </proc/uptime
	while read -r tag rest; do
		case $tag in
		cpu) cpu=$rest ;;
		cpu[0-9]*) ncpu=$((ncpu + 1)) ;;
		*) break ;;
		esac
	done </proc/stat
	read -r -a v <<<"$cpu"
	cpu="${v[0]},${v[1]},${v[2]},${v[3]},${v[4]},${v[5]},${v[6]},${v[7]}"
	if [ "${1:-}" = smc ] && [ -d /sys/module/smc ]; then
		l=$("$SMCR" -a -j stats 2>/dev/null)
		json_obj "$l"
		smcr=$REPLY
	fi
	for f in sent_pkts rcvd_pkts duplicate_request completer_retry_err; do
		read -r v 2>/dev/null <"$d/$f" || continue
		rxe="$rxe${rxe:+,}\"$f\":$v"
	done
	printf -v REPLY '{"uptime":%s,"cpu":[%s],"ncpu":%s,"smcr":%s,"rxe":{%s}}' \
		"$up" "$cpu" "$ncpu" "$smcr" "$rxe"
}

bench_gid()
{
	local g v

	for g in "/sys/class/infiniband/$RXE/ports/1/gids/"*; do
		read -r v 2>/dev/null <"$g" || continue
		case $v in
		0000:0000:0000:0000:0000:ffff:*) echo "${g##*/}"; return 0 ;;
		esac
	done
	return 1
}

# srv_alive ID: server ID still runs (a zombie does not count); its pid
# in $REPLY
srv_alive()
{
	local pid st

	read -r pid 2>/dev/null <"/tmp/bench-srv-$1.pid" || return 1
	read -r _ _ st _ 2>/dev/null <"/proc/$pid/stat" || return 1
	[ "$st" != Z ] || return 1
	REPLY=$pid
}

# srv_ready <READY> <log>: "line:TEXT" is in the log, or a TCP socket
# listens on port N of "port:N" (ss: reading /proc/net/tcp in bash would
# crawl through every TIME_WAIT socket CRR leaves behind)
srv_ready()
{
	local l want

	case $1 in
	line:*)
		want=${1#line:}
		while IFS= read -r l; do
			[[ $l == *"$want"* ]] && return 0
		done <"$2"
		;;
	port:*)
		[ -n "$(ss -Hltn "sport = :${1#port:}")" ] && return 0
		;;
	esac
	return 1
}

# peer-start ID READY CMD...
bench_peer_start()
{
	local id=$1 ready=$2 log i l=

	shift 2
	log=/tmp/bench-srv-$id.log
	# not holding rigd's pipes, or the remote call would wait for it
	setsid "$@" >"$log" 2>&1 </dev/null &
	echo $! >"/tmp/bench-srv-$id.pid"
	# up to about 30 s: a first SMC listen may set up a lot
	for ((i = 0; i < 300; i++)); do
		if srv_ready "$ready" "$log"; then
			bench_snap smc
			printf '%s\n' "$REPLY"
			return 0
		fi
		srv_alive "$id" || break
		sleep 0.1
	done
	while IFS= read -r i; do l="$l $i"; done <"$log"
	echo "server $id not ready ($ready):${l:0:300}" >&2
	bench_peer_kill "$id"
	return 1
}

# bench_peer_kill ID: SIGTERM, and SIGKILL if the server is still there
# 2 s later (an rsocket server may not react); wait up to 2 s more
bench_peer_kill()
{
	local id=$1 pid sig end

	for sig in TERM KILL; do
		srv_alive "$id" || return 0
		pid=$REPLY
		kill -"$sig" -- "-$pid" 2>/dev/null || kill -"$sig" "$pid" 2>/dev/null
		end=$((${EPOCHREALTIME/./} + 2000000))
		while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
			srv_alive "$id" || return 0
			sleep 0.05
		done
	done
	return 0
}

# peer-stop ID: the snapshot on the first line, then the server's output
bench_peer_stop()
{
	local id=$1 l

	bench_snap smc
	printf '%s\n' "$REPLY"
	bench_peer_kill "$id"
	while IFS= read -r l; do
		printf '%s\n' "$l"
	done <"/tmp/bench-srv-$id.log" 2>/dev/null
	return 0
}

# modinfo: the loaded smc module's srcversion and net.smc sysctls
bench_modinfo()
{
	local f v s=

	for f in /proc/sys/net/smc/*; do
		read -r v 2>/dev/null <"$f" || continue
		s="$s${s:+; }net.smc.${f##*/} = $v"
	done
	v=
	read -r v 2>/dev/null </sys/module/smc/srcversion
	jobj srcversion "s:$v" sysctl "s:$s"
	printf '%s\n' "$REPLY"
}

case ${1:-} in
snap) bench_snap smc; printf '%s\n' "$REPLY"; exit 0 ;;
gid) bench_gid; exit $? ;;
modinfo) bench_modinfo; exit $? ;;
peer-start) shift; bench_peer_start "$@"; exit $? ;;
peer-stop) shift; bench_peer_stop "$@"; exit $? ;;
run) ;;
*) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

# ---- the run, on host A -----------------------------------------------------

# shellcheck source=../tools/testing/selftests/net/smc/lib.sh
. "$top/tools/testing/selftests/net/smc/lib.sh"
# shellcheck source=../tools/testing/selftests/net/smc/failover_lib.sh
. "$top/tools/testing/selftests/net/smc/failover_lib.sh"

out=${SMC_RIG_OUT:?run it on the rig (scripts/bench.sh)}
raw=$out/raw.jsonl
logs=$out/logs
mkdir -p "$logs"
: >"$raw"

GEN=${BENCH_GEN:-$top/tools/bench/smc_bench}
GEN_ARGS=${BENCH_GEN_ARGS:-}
REPS=${BENCH_REPS:-3}
DUR=${BENCH_DURATION:-4}
WARM=${BENCH_WARMUP:-1}
read -r -a WORKLOADS <<<"${BENCH_WORKLOADS:-RR1 RR10 STR1 STR3 CRR10 rr1_200B_1KB rr1_200B_30KB}"
read -r -a TRANSPORTS <<<"${BENCH_TRANSPORTS:-tcp tcp_nodelay ours ours_rsbuf distro rsocket rdma rdma_ev}"
read -r -a TOOLS <<<"${BENCH_TOOLS-qperf sockperf}"
read -r -a TOOL_TRANSPORTS <<<"${BENCH_TOOL_TRANSPORTS:-tcp ours distro}"
TOOL_REPS=${BENCH_TOOL_REPS:-$REPS}
TOOL_DUR=${BENCH_TOOL_DURATION:-$DUR}
LAT_ITERS=${BENCH_LAT_ITERS:-2000}
read -r -a FO_WAYS <<<"${BENCH_FO_WAYS-none down rdma-del tc carrier down@A rdma-del@A tc@A carrier@A}"
read -r -a FO_TRANSPORTS <<<"${BENCH_FO_TRANSPORTS:-ours distro}"
FO_REPS=${BENCH_FO_REPS:-1}
# rsocket's default send and receive buffers (librdmacm: def_wmem, def_mem)
RS_MEM=131072

peer_ip=${SMC_PEER_IP:?}
seq_no=0
port_base=$((20000 + RANDOM % 20000))
t_start=$EPOCHSECONDS

say() { echo "bench: $*"; }
# rec: $REPLY (a JSON object from jobj) is the next raw record
rec() { printf '%s\n' "$REPLY" >>"$raw"; }
peer() { $SMC_PEER_EXEC "$1"; }

# workload NAME: "pattern clients req resp" in $REPLY
workload_def()
{
	case $1 in
	RR1) REPLY="rr 1 1K 1K" ;;
	RR10) REPLY="rr 10 32K 32K" ;;
	STR1) REPLY="str 1 1 20M" ;;
	STR3) REPLY="str 3 1 20M" ;;
	CRR10) REPLY="crr 10 64 8K" ;;
	rr1_200B_1KB) REPLY="rr 1 200 1K" ;;
	rr1_200B_30KB) REPLY="rr 1 200 30K" ;;
	*) return 1 ;;
	esac
}

# ---- transports ---------------------------------------------------------------

cur_mod=none cur_mem=default def_mem=''
declare -A skip_reason=()

# set_smc_mem <wmem> <rmem>: net.smc.wmem and rmem on both hosts
set_smc_mem()
{
	local cmd="sysctl -qw net.smc.wmem=$1 net.smc.rmem=$2"

	eval "$cmd" && peer "$cmd"
}

# setup <transport>: load and configure what the transport needs on both
# hosts, once per change; record the configuration.  ours_rsbuf is ours
# with net.smc.wmem and rmem at rsocket's buffer size, ours_w<W>_r<R>
# ours with them at W and R KiB, on both hosts.
setup_transport()
{
	local t=$1 want mem=default msg rc=0 sysA sysB

	case $t in
	ours|distro) want=$t ;;
	ours_rsbuf) want=ours mem="$RS_MEM $RS_MEM" ;;
	ours_w*_r*)
		want=ours mem=${t#ours_w}
		mem="$((${mem%_r*} * 1024)) $((${mem#*_r} * 1024))" ;;
	*) return 0 ;;
	esac
	if [ "$cur_mod" = "$want" ]; then
		setup_mem "$mem"
		return
	fi
	say "switching both hosts to the $want smc module"
	# both hosts at once: a switch costs seconds under TCG
	{ smc_lib_mod peer ensure "$want" && smc_lib_ueid_set peer; } \
		>"$logs/switch-peer.log" 2>&1 &
	msg=$( {
		smc_lib_mod local ensure "$want" && smc_lib_ueid_set local
	} 2>&1) || rc=1
	wait $! || { rc=1; msg="$msg; peer: $(<"$logs/switch-peer.log")"; }
	cur_mod=$want
	[ "$rc" = 0 ] || cur_mod=broken
	sysA=$(bench_modinfo)
	sysB=$(peer "bash $self modinfo" 2>/dev/null)
	jobj kind '"setup"' transport "s:$t" module "s:$want" rc "$rc" \
		msg "s:$msg" ueid "s:$SMC_LIB_UEID" A "o:$sysA" B "o:$sysB"
	rec
	if [ $rc != 0 ]; then
		say "cannot set up $want: $msg"
		return 1
	fi
	# a fresh module has its default sizes
	cur_mem=default
	def_mem="$(</proc/sys/net/smc/wmem) $(</proc/sys/net/smc/rmem)"
	setup_mem "$mem"
}

# setup_mem <"wmem rmem"|default>: the loaded module's buffer sizes, if
# not yet
setup_mem()
{
	local m=$1

	[ "$cur_mem" = "$m" ] && return 0
	[ "$m" = default ] && m=$def_mem
	# shellcheck disable=SC2086 # "wmem rmem"
	set_smc_mem $m || return 1
	say "net.smc.wmem and rmem on both hosts: $m"
	cur_mem=$1
}

# ---- one measurement ---------------------------------------------------------

# measure <bench> <transport> <workload> <rep> <ready> <server cmd> <client cmd> <parser>
# Starts the server on B, takes snapshots on both hosts, runs the client
# here, snapshots again, stops the server and records everything.  The
# client gets CELL_LIMIT seconds (default: 4 durations and 2 minutes).
measure()
{
	local bench=$1 t=$2 w=$3 rep=$4 ready=$5 scmd=$6 ccmd=$7 parse=$8
	local id b0 b1 a0 a1 t0 t1 crc out stop result errtxt='' us

	seq_no=$((seq_no + 1))
	id=$seq_no
	if ! b0=$(peer "$(smc_lib_q bash "$self" peer-start "$id" "$ready") $scmd" 2>"$logs/A-$id.peer.err"); then
		errtxt="server did not start: $(<"$logs/A-$id.peer.err")"
		say "$bench $t $w rep $rep: $errtxt"
		jobj kind '"cell"' bench "s:$bench" transport "s:$t" workload "s:$w" \
			rep "$rep" seq "$id" rc -1 error "s:$errtxt" result null
		rec
		peer "$(smc_lib_q bash "$self" peer-stop "$id")" >"$logs/B-$id.log" 2>&1
		return 1
	fi
	bench_snap smc
	a0=$REPLY
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2086 # the command is a word list by design
	out=$(timeout -k 5 "${CELL_LIMIT:-$((DUR * 4 + 120))}" $ccmd 2>"$logs/A-$id.err")
	crc=$?
	t1=$EPOCHREALTIME
	bench_snap smc
	a1=$REPLY
	stop=$(peer "$(smc_lib_q bash "$self" peer-stop "$id")" 2>>"$logs/A-$id.peer.err")
	b1=${stop%%$'\n'*}
	stop=${stop#"$b1"}
	printf '%s\n' "${stop#$'\n'}" >"$logs/B-$id.log"
	printf '%s\n' "$out" >"$logs/A-$id.out"
	"$parse" "$out"
	result=$REPLY
	[ "$crc" = 0 ] || errtxt="client exit $crc: $(<"$logs/A-$id.err")"
	[ "$result" = null ] && [ -z "$errtxt" ] && errtxt="no result in the output"
	us=$((${t1/./} - ${t0/./}))
	jobj kind '"cell"' bench "s:$bench" transport "s:$t" workload "s:$w" \
		rep "$rep" seq "$id" rc "$crc" error "s:${errtxt:0:500}" \
		wall_s "$((us / 1000000)).$(printf %06d $((us % 1000000)))" \
		result "$result" a0 "o:$a0" a1 "o:$a1" b0 "o:$b0" b1 "o:$b1" \
		server "s:$scmd" client "s:$ccmd"
	rec
	[ "$crc" = 0 ] && [ "$result" != null ]
}

# parsers <output>: the tool's result as one JSON object (or null) in
# $REPLY
# shellcheck disable=SC2317 # called by name
parse_gen()
{
	local l

	REPLY=null
	while IFS= read -r l; do
		[[ $l == "{"* ]] && json_obj "$l"
	done <<<"$1"
}

# qperf: "bw = 85.2 MB/sec" or "latency = 360 us", any unit
# shellcheck disable=SC2317 # called by name
parse_qperf()
{
	REPLY=$(awk '
	$1 == "bw" && $2 == "=" {
		f = ($4 ~ /^GB/) ? 1000 : ($4 ~ /^MB/) ? 1 : ($4 ~ /^KB/) ? 0.001 : 0.000001
		printf "{\"mb_per_s\":%.3f}\n", $3 * f; found = 1
	}
	$1 == "latency" && $2 == "=" {
		f = ($4 == "ns") ? 0.001 : ($4 == "us") ? 1 : ($4 == "ms") ? 1000 : 1000000
		printf "{\"lat_mean_us\":%.3f}\n", $3 * f; found = 1
	}
	END { if (!found) print "null" }' <<<"$1")
}

# sockperf: ping-pong (round trips, --full-rtt) or throughput
# shellcheck disable=SC2317 # called by name
parse_sockperf()
{
	# without the colour escapes
	REPLY=$(awk '
	{ gsub(/\033\[[0-9;]*m/, "") }
	/\[Valid Duration\]/ {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^RunTime=/) { split($i, a, "="); rt = a[2] + 0 }
			if ($i ~ /^ReceivedMessages=/) { split($i, a, "="); n = a[2] + 0 }
		}
	}
	/avg-rtt=|avg-latency=/ { sub(/.*avg-(rtt|latency)=/, ""); mean = $1 + 0; pp = 1 }
	/percentile 99.000 =/ { p99 = $NF + 0 }
	/percentile 50.000 =/ { p50 = $NF + 0 }
	/Summary: Message Rate is/ { for (i = 1; i <= NF && !mr; i++) if ($i == "is") mr = $(i + 1) + 0 }
	/Summary: BandWidth is/ { for (i = 1; i <= NF && !bw; i++) if ($i == "is") bw = $(i + 1) + 0 }
	END {
		if (pp)
			printf "{\"lat_mean_us\":%.3f,\"lat_p50_us\":%.3f,\"lat_p99_us\":%.3f,\"trans_per_s\":%.1f}\n",
				mean, p50, p99, (rt > 0 ? n / rt : 0)
		else if (bw)
			printf "{\"mb_per_s\":%.3f,\"msg_per_s\":%.1f}\n", bw * 1.048576, mr
		else
			print "null"
	}' <<<"$1")
}

# perftest: the line after the header, whose first field is the size;
# its MB/sec are MiB/s (2^20), the report's MB/s are 10^6 B/s
# shellcheck disable=SC2317 # called by name
parse_perftest()
{
	REPLY=$(awk '
	/#bytes/ { hdr = $0; bw = (hdr ~ /BW average/); next }
	hdr != "" && $1 ~ /^[0-9]+$/ && NF >= 5 {
		if (bw)
			printf "{\"size\":%d,\"iterations\":%d,\"mib_per_s\":%s,\"bw_peak_mb_per_s\":%.3f,\"mb_per_s\":%.3f,\"msg_rate_mpps\":%s}\n", $1, $2, $4, $3 * 1.048576, $4 * 1.048576, $5
		else
			printf "{\"size\":%d,\"iterations\":%d,\"lat_min_us\":%s,\"lat_max_us\":%s,\"lat_p50_us\":%s,\"lat_mean_us\":%s,\"lat_stdev_us\":%s,\"lat_p99_us\":%s}\n", $1, $2, $3, $4, $5, $6, $7, $8
		done = 1; exit
	}
	END { if (!done) print "null" }' <<<"$1")
}

# ---- the workloads ------------------------------------------------------------

run_gen_cell()
{
	local t=$1 w=$2 rep=$3 pat n req resp fam=tcp port cmd=$GEN
	local args="--rdma-dev $RXE $GEN_ARGS"

	case $t in
	rdma|rdma_ev) run_perftest_cell "$t" "$w" "$rep"; return ;;
	esac
	workload_def "$w" || { say "unknown workload $w"; return 1; }
	read -r pat n req resp <<<"$REPLY"
	case $t in
	ours*|distro) fam=smc ;;
	tcp_nodelay) args="$args --nodelay" ;;
	rsocket) cmd="env LD_PRELOAD=$RSPRELOAD $GEN" ;;
	esac
	port=$((port_base + seq_no + 1))
	say "$w $t rep $rep"
	measure gen "$t" "$w" "$rep" "line:listening on" \
		"$cmd server --family $fam --port $port --addr $peer_ip $args" \
		"$cmd client --family $fam --addr $peer_ip --port $port --workload $pat --clients $n --req $req --resp $resp --duration $DUR --warmup $WARM --timeout $((DUR + WARM + 30)) --label $w/$t/$rep --peer-stats $args" \
		parse_gen
}

# real clients: plain for tcp, under smc_run for the smc modules
# shellcheck disable=SC2317 # called by name
run_tool_cell()
{
	local t=$1 w=$2 rep=$3 pre='' port

	case $t in
	ours|distro) pre=$SMC_RUN ;;
	esac
	port=$((port_base + seq_no + 1))
	say "$w $t rep $rep"
	case $w in
	qperf_tcp_bw)
		measure qperf "$t" "$w" "$rep" "port:$port" "$pre qperf -lp $port" \
			"$pre qperf -lp $port -t $TOOL_DUR -m 64K $peer_ip tcp_bw" parse_qperf ;;
	qperf_tcp_lat)
		measure qperf "$t" "$w" "$rep" "port:$port" "$pre qperf -lp $port" \
			"$pre qperf -lp $port -t $TOOL_DUR -m 1K $peer_ip tcp_lat" parse_qperf ;;
	sockperf_pp)
		measure sockperf "$t" "$w" "$rep" "port:$port" \
			"$pre sockperf server --tcp -i $peer_ip -p $port" \
			"$pre sockperf ping-pong --tcp --full-rtt -i $peer_ip -p $port -t $TOOL_DUR -m 1024" parse_sockperf ;;
	sockperf_tp)
		measure sockperf "$t" "$w" "$rep" "port:$port" \
			"$pre sockperf server --tcp -i $peer_ip -p $port" \
			"$pre sockperf throughput --tcp -i $peer_ip -p $port -t $TOOL_DUR -m 16384" parse_sockperf ;;
	esac
}

# the raw RDMA limit of a workload, in its round-robin group: rdma
# busy-polls (ib_write_bw, ib_write_lat), rdma_ev sleeps on completion
# events (ib_send_bw -e, ib_send_lat -e: perftest refuses -e for WRITE,
# "Events feature not available on WRITE verb"), and for a number of
# messages (with -e, "Duration mode doesn't work with events"): 150 per
# second of a cell, about as long as the others at this rig's rate.
# Streams: 64 KiB messages on one QP per client; rr: the one-way latency
# of the request size.  Workloads without an RDMA counterpart have no
# raw cell.
gid_a='' gid_b=''
raw_def()
{
	local t=$1 w=$2 base="-F -d $RXE -i 1 -p $3"

	case $t/$w in
	rdma/STR1) REPLY="ib_write_bw $base -s 65536 -D $DUR" ;;
	rdma_ev/STR1) REPLY="ib_send_bw $base -s 65536 -n $((DUR * 150)) -e" ;;
	rdma/STR3) REPLY="ib_write_bw $base -s 65536 -D $DUR -q 3" ;;
	rdma_ev/STR3) REPLY="ib_send_bw $base -s 65536 -n $((DUR * 150)) -q 3 -e" ;;
	rdma/RR1) REPLY="ib_write_lat $base -s 1024 -n $LAT_ITERS" ;;
	rdma_ev/RR1) REPLY="ib_send_lat $base -s 1024 -n $LAT_ITERS -e" ;;
	rdma/RR10) REPLY="ib_write_lat $base -s 32768 -n $((LAT_ITERS / 4))" ;;
	rdma_ev/RR10) REPLY="ib_send_lat $base -s 32768 -n $((LAT_ITERS / 4)) -e" ;;
	*) return 1 ;;
	esac
}

run_perftest_cell()
{
	local t=$1 w=$2 rep=$3 port cmd

	port=$((port_base + seq_no + 1))
	raw_def "$t" "$w" "$port" || return 0
	cmd=$REPLY
	if [ -z "$gid_a" ] || [ -z "$gid_b" ]; then
		skip_reason[$t]="no IPv4 RoCEv2 GID on $RXE"
		jobj kind '"skip"' bench '"perftest"' transport "s:$t" \
			reason "s:${skip_reason[$t]}"
		rec
		return 0
	fi
	say "$w $t ($cmd) rep $rep"
	# a perftest that lost a message waits for ever; its cells last
	# seconds
	CELL_LIMIT=$((DUR * 4 + 30)) measure perftest "$t" "$w" "$rep" \
		"port:$port" "$cmd -x $gid_b" "$cmd -x $gid_a $peer_ip" \
		parse_perftest
}

# rsocket: one short RR over rdma_cm must work, and rxe must have
# carried it; if not, the reason is in $REPLY
probe_rsocket()
{
	local before=0 after=0 f=/sys/class/infiniband/$RXE/ports/1/hw_counters/sent_pkts
	local DUR=1 WARM=0

	REPLY="$RSPRELOAD is not installed (rdma-core's librdmacm)"
	[ -f "$RSPRELOAD" ] || return 1
	REPLY="no /dev/infiniband/rdma_cm (rdma_ucm)"
	[ -c /dev/infiniband/rdma_cm ] || return 1
	read -r before <"$f"
	# rep 0: recorded, but not part of the results
	if ! run_gen_cell rsocket RR1 0 >/dev/null 2>&1; then
		REPLY="the generator does not run under librspreload.so: $(tail -n 2 "$logs/A-$seq_no.err" "$logs/B-$seq_no.log" 2>&1 | tr '\n' ' ')"
		return 1
	fi
	read -r after <"$f"
	REPLY="librspreload.so fell back to kernel TCP (rxe1 sent $((after - before)) packets)"
	[ $((after - before)) -ge 10 ]
}

# ---- the failover row ----------------------------------------------------------
#
# A verified bulk transfer over a group with two links (the second path
# of failover_lib.sh on both hosts), and one host breaks its second path
# when a quarter of what it receives is in: net2 down (down), rxe2
# deleted (rdma-del), RoCE dropped as it comes into net2 (tc: only
# TEST_LINK finds it, every FO_TESTLINK s on both hosts here) or net2's
# carrier taken by QEMU (carrier); "none" breaks nothing, the row's
# noise floor.  A way alone is host B's, the server's; WAY@A is host
# A's, the client's.  The figure is the longest time a connection
# waited for data, on either side; a transfer that makes no progress
# for FO_LIMIT s is cut there and recorded as failed.  Each cell starts
# with fresh modules and a fresh group, and with both paths whole.
FO_CONNS=4
FO_SIZE=${BENCH_FO_SIZE:-4194304}
FO_TESTLINK=${BENCH_FO_TESTLINK:-5}
FO_LIMIT=${BENCH_FO_LIMIT:-30}
# module/way cells left out unless asked for: the distro module's server
# host wedged for good in each try of tc@A (its kworkers blocked, the
# module in use until the host was stopped), which ends every later cell
FO_SKIP=${BENCH_FO_SKIP-distro/tc@A}
fo_wedged='' fo_off=''

# fo_break_cmd <way> <local|peer>: the command that breaks that host's
# second path that way
# shellcheck disable=SC2317 # called from run_fo_cell
fo_break_cmd()
{
	case $1 in
	none) echo true ;;
	tc) path2_break_cmd tc-in "$2" ;;
	carrier)
		[ -n "${SMC_RIG_CARRIER:-}" ] || return 1
		path2_break_cmd carrier "$2" ;;
	down | rdma-del) path2_break_cmd "$1" "$2" ;;
	*) return 1 ;;
	esac
}

# fo_lgr_type: the type of the client's group here (in $REPLY)
# shellcheck disable=SC2317 # called from run_fo_cell
fo_lgr_type()
{
	local l

	l=$("$SMC_LIB_SMCR" -j linkgroup show 2>/dev/null)
	REPLY=none
	[[ $l =~ \"role\":\"CLNT\",\"type\":\"([A-Z_]+)\" ]] &&
		REPLY=${BASH_REMATCH[1]}
	return 0
}

# fo_unload <local|peer>: no smc module there, or false with what was
# in the way on stdout.  A module that stays in use (its sockets do not
# go within 30 s) is unloaded after the host's rxe2 is deleted and added
# again: the device's removal ends the links on it, and their sockets
# with them.  Unless tasks there are stuck in the kernel: then the host
# is wedged (fo_wedged), and the device's removal would hang as well.
# shellcheck disable=SC2317 # called from run_fo_cell
fo_unload()
{
	local m d

	m=$(smc_lib_mod "$1" which 2>/dev/null)
	smc_lib_mod "$1" unload >/dev/null 2>&1 && return 0
	d=$(smc_lib_dstate "$1" | awk '{ printf "%s%s", s, $3; s = " " }')
	if [ -n "$d" ]; then
		fo_wedged="host $1 wedged with its $m module in use, in D state: $d"
		echo "$fo_wedged"
		return 1
	fi
	echo "host $1's $m module stayed in use 30 s; rxe2 there deleted and added again"
	smc_lib_on "$1" "rdma link delete rxe2" >/dev/null 2>&1
	path2_heal "$1" >/dev/null 2>&1
	smc_lib_mod "$1" unload >/dev/null 2>&1 && return 1
	echo "and still in use"
	return 1
}

# fo_fresh <ours|distro>: both paths whole, that module freshly loaded
# on both hosts with the short TEST_LINK; the reason in $REPLY if not
# shellcheck disable=SC2317 # called from run_fo_cell
fo_fresh()
{
	local m=$1 h msg rc=0

	for h in local peer; do
		msg=$(path2_heal "$h" 2>&1) || { REPLY="path 2 of $h: $msg"; return 1; }
	done
	# the generator cells leave their module loaded
	for h in local peer; do
		fo_unload "$h" >"$logs/fo-unload.log" 2>&1 || {
			REPLY="unloading on $h: $(<"$logs/fo-unload.log")"
			return 1
		}
	done
	# the generator cells load their module again
	cur_mod=none
	{ smc_lib_mod peer ensure "$m" &&
		{ smc_lib_kernel_ge 6 12 || pnet_common peer add; } &&
		smc_lib_ueid_set peer &&
		smc_lib_testlink peer "$FO_TESTLINK"; } >"$logs/fo-peer.log" 2>&1 &
	msg=$( { smc_lib_mod local ensure "$m" &&
		{ smc_lib_kernel_ge 6 12 || pnet_common local add; } &&
		smc_lib_ueid_set local &&
		smc_lib_testlink local "$FO_TESTLINK"; } 2>&1) || rc=1
	wait $! || { rc=1; msg="$msg; peer: $(<"$logs/fo-peer.log")"; }
	REPLY="loading $m: ${msg:0:300}"
	[ "$rc" = 0 ]
}

# fo_longest <output>: the longest wait for data of either side in ms
# (in $REPLY, null if neither reported one)
# shellcheck disable=SC2317 # called from run_fo_cell
fo_longest()
{
	local l v

	REPLY=null
	while IFS= read -r l; do
		[[ $l =~ the\ longest\ wait\ for\ data\ in:\ ([0-9]+)\ ms ]] || continue
		v=${BASH_REMATCH[1]}
		[ "$REPLY" = null ] || [ "$v" -gt "$REPLY" ] && REPLY=$v
	done <<<"$1"
}

# run_fo_cell <ours|distro> <way> <rep>: one cell of the failover row
# shellcheck disable=SC2034,SC2317 # args by name; called by name
run_fo_cell()
{
	local t=$1 way=$2 rep=$3 cmd start sym_ms='null' rc=0 out='' gap err=''
	local t0=${EPOCHREALTIME/./} fh=peer after=null cleanup='' h
	local first=(--family smc --conns 1 --size 65536
		--seed "$rep" --timeout 30)
	local sargs cargs SMC_LIB_HOOK="bash $SMC_LIB_DIR/lib.sh hook_conns"

	[ "${way%@A}" = "$way" ] || fh=local
	# run_groups runs no cell whose skip_reason is set
	if [[ " $FO_SKIP " == *" $t/$way "* ]]; then
		skip_reason[$t/$way]="left out (BENCH_FO_SKIP): it wedges a host"
	elif [ -n "$fo_off" ]; then
		skip_reason[$t/$way]="not run: $fo_off"
	elif ! cmd=$(fo_break_cmd "${way%@A}" "$fh"); then
		skip_reason[$t/$way]="no way to break the path by $way here"
	fi
	if [ -n "${skip_reason[$t/$way]:-}" ]; then
		jobj kind '"skip"' bench '"failover"' transport "s:$t" \
			workload "s:$way" reason "s:${skip_reason[$t/$way]}"
		rec
		return 0
	fi
	seq_no=$((seq_no + 1))
	say "failover $way $t rep $rep"
	if ! fo_fresh "$t"; then
		err=$REPLY rc=-1
		[ -z "$fo_wedged" ] || fo_off=$fo_wedged
	else
		# the first connection makes the group; its second link
		# follows the first CONFIRM_LINK
		start=${EPOCHREALTIME/./}
		if ! out=$(smc_lib_pair "$SMC_LIB_CONNS_TEST" peer first first 2>&1); then
			err="first connection: ${out: -300}" rc=-1
		elif ! smc_lib_wait_until 10 "the client's group SYMMETRIC" \
			lgr_type_on local CLNT SYM >/dev/null; then
			err="the client's group not SYMMETRIC within 10 s" rc=-1
		else
			sym_ms=$(((${EPOCHREALTIME/./} - start) / 1000))
		fi
	fi
	if [ "$rc" = 0 ]; then
		cargs=(--family smc --conns "$FO_CONNS" --size "$FO_SIZE"
			--seed "$rep" --timeout "$FO_LIMIT")
		sargs=("${cargs[@]}")
		if [ "$fh" = peer ]; then
			sargs+=(--fail-at $((FO_CONNS * FO_SIZE / 4)) --fail-cmd "$cmd")
		else
			cargs+=(--fail-at $((FO_CONNS * FO_SIZE / 4)) --fail-cmd "$cmd")
		fi
		out=$(smc_lib_pair "$SMC_LIB_CONNS_TEST" peer sargs cargs 2>&1) || rc=1
		printf '%s\n' "$out" >"$logs/fo-$seq_no.log"
		[ "$rc" = 0 ] || err=$(grep -m 3 -E 'FAIL|stalled' <<<"$out" | tr '\n' ' ')
		fo_lgr_type
		json_str "$REPLY"
		after=$REPLY
	fi
	fo_longest "$out"
	gap=$REPLY
	# the cell ends with both modules unloaded: one that cannot be
	# (fo_unload) is this cell's doing
	for h in local peer; do
		fo_unload "$h" >"$logs/fo-unload.log" 2>&1 && continue
		if [ -z "$fo_wedged" ]; then
			cleanup="$cleanup${cleanup:+; }$(<"$logs/fo-unload.log")"
			continue
		fi
		fo_off="after $way $t rep $rep: $fo_wedged"
		err="${err:+$err; }$fo_wedged" rc=2
		break
	done
	jobj kind '"failover"' transport "s:$t" way "s:$way" rep "$rep" \
		seq "$seq_no" rc "$rc" error "s:${err:0:500}" \
		longest_wait_ms "$gap" symmetric_ms "$sym_ms" \
		client_group_after "$after" cleanup "s:$cleanup" limit_s "$FO_LIMIT" \
		testlink_s "$FO_TESTLINK" conns "$FO_CONNS" size "$FO_SIZE" \
		break "s:$cmd" wall_s $(((${EPOCHREALTIME/./} - t0) / 1000000))
	rec
	[ "$rc" = 0 ]
}

# ---- main -------------------------------------------------------------------

say "reps $REPS, ${DUR}s per cell (+${WARM}s warm-up), workloads: ${WORKLOADS[*]}"
say "transports: ${TRANSPORTS[*]}; real clients: ${TOOLS[*]:-none} over ${TOOL_TRANSPORTS[*]}"

# on both hosts: the verbs devices for perftest and rdma_cm for rsocket;
# TIME_WAIT reuse, or CRR (the client closes first) runs out of ports
prep='modprobe -a ib_uverbs rdma_ucm 2>/dev/null; sysctl -qw net.ipv4.tcp_tw_reuse=1; true'
eval "$prep"
peer "$prep"
gid_a=$(bench_gid) || gid_a=
gid_b=$(peer "bash $(smc_lib_q "$self") gid") || gid_b=

jobj kind '"meta"' kernel "s:$(uname -r)" kernel_B "s:$(peer 'uname -r')" \
	ncpu "$(nproc)" mem_kb "$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)" \
	reps "$REPS" duration_s "$DUR" warmup_s "$WARM" \
	tool_reps "$TOOL_REPS" tool_duration_s "$TOOL_DUR" \
	workloads "s:${WORKLOADS[*]}" transports "s:${TRANSPORTS[*]}" \
	tools "s:${TOOLS[*]}" tool_transports "s:${TOOL_TRANSPORTS[*]}" \
	fo_ways "s:${FO_WAYS[*]}" fo_transports "s:${FO_TRANSPORTS[*]}" \
	fo_reps "$FO_REPS" \
	generator "s:$GEN" generator_args "s:$GEN_ARGS" \
	ours_srcversion "s:$(smc_lib_srcversion "$SMC_LIB_OURS/smc.ko")" \
	distro_module "s:$(modinfo -F filename smc 2>/dev/null)" \
	gid_index_A "s:$gid_a" gid_index_B "s:$gid_b" \
	rxe "s:$(rdma link show "$RXE/1" 2>/dev/null)"
rec

for t in "${TRANSPORTS[@]}"; do
	[ "$t" = rsocket ] || continue
	if probe_rsocket; then
		say "rsocket runs over rxe"
		REPLY='{"kind":"rsocket","ok":true}'
		rec
	else
		say "rsocket left out: $REPLY"
		skip_reason[rsocket]=$REPLY
		jobj kind '"rsocket"' ok false reason "s:$REPLY"
		rec
	fi
done

# run_groups <kind> <reps> <workloads> <transports>: every (rep, workload)
# group runs every transport; the order flips from group to group
group=0
run_groups()
{
	local kind=$1 reps=$2 rep w t i
	local -n rg_w=$3 rg_t=$4
	local order=()

	for rep in $(seq "$reps"); do
		for w in "${rg_w[@]}"; do
			order=()
			for i in "${!rg_t[@]}"; do
				if [ $((group % 2)) = 0 ]; then
					order+=("${rg_t[$i]}")
				else
					order=("${rg_t[$i]}" "${order[@]}")
				fi
			done
			group=$((group + 1))
			for t in "${order[@]}"; do
				[ -n "${skip_reason[$t]:-}" ] && continue
				[ -n "${skip_reason[$t/$w]:-}" ] && continue
				# a failover cell loads its modules itself
				[ "$kind" = fo ] || setup_transport "$t" || continue
				"run_${kind}_cell" "$t" "$w" "$rep" && continue
				# rsocket hangs in some workloads: once is enough
				if [ "$t" = rsocket ]; then
					skip_reason[$t/$w]="failed in repetition $rep"
					jobj kind '"skip"' bench "s:$kind" transport "s:$t" \
						workload "s:$w" reason "s:failed in repetition $rep, not run again"
					rec
				fi
			done
		done
	done
}

run_groups gen "$REPS" WORKLOADS TRANSPORTS

tool_w=()
for tool in "${TOOLS[@]}"; do
	case $tool in
	qperf) tool_w+=(qperf_tcp_bw qperf_tcp_lat) ;;
	sockperf) tool_w+=(sockperf_pp sockperf_tp) ;;
	esac
done
if [ ${#tool_w[@]} -gt 0 ]; then
	run_groups tool "$TOOL_REPS" tool_w TOOL_TRANSPORTS
fi

if [ ${#FO_WAYS[@]} -gt 0 ] && [ ${#FO_TRANSPORTS[@]} -gt 0 ]; then
	SMC_LIB_CONNS_TEST=$SMC_LIB_DIR/smc_conns_test
	SMC_HOOK_EXPECT_CLIENT="SMCR 0x00000000"
	SMC_HOOK_EXPECT_SERVER="SMCR 0x00000000"
	export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER
	if topo=$(topology 2>&1); then
		run_groups fo "$FO_REPS" FO_WAYS FO_TRANSPORTS
	else
		say "no failover row: the second path did not come up: $topo"
		jobj kind '"skip"' bench '"failover"' reason "s:second path: $topo"
		rec
	fi
	for h in local peer; do
		path2_heal "$h" && path2 "$h" del
	done >/dev/null 2>&1
fi

# leave both hosts as the selftests expect them
smc_lib_ueid_flush local >/dev/null 2>&1
smc_lib_ueid_flush peer >/dev/null 2>&1
jobj kind '"end"' wall_s $((EPOCHSECONDS - t_start))
rec
say "done in $((EPOCHSECONDS - t_start)) s"
exit 0
