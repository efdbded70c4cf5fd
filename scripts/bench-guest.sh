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

# json_str <text>: <text> as a JSON string
json_str()
{
	local s=$1

	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\n'/\\n}
	s=${s//$'\t'/\\t}
	s=${s//$'\r'/}
	printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\010\013-\037')"
}

# json_obj <text>: <text> if it is one JSON object on one line, else null
json_obj()
{
	case $1 in
	"{"*"}")
		[[ $1 == *$'\n'* ]] || { printf '%s' "$1"; return; } ;;
	esac
	printf null
}

# jobj NAME VALUE...: a JSON object of these names and (JSON) values
jobj()
{
	local s=

	while [ $# -ge 2 ]; do
		s="$s${s:+,}\"$1\":$2"
		shift 2
	done
	printf '{%s}' "$s"
}

bench_snap()
{
	local cpu ncpu smcr=null rxe='' f v d=/sys/class/infiniband/$RXE/ports/1/hw_counters

	cpu=$(awk '$1 == "cpu" { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9; exit }' /proc/stat)
	ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
	# only with a module loaded: asking for the netlink family of an
	# absent module would load the distro one
	if [ -d /sys/module/smc ]; then
		smcr=$(json_obj "$("$SMCR" -a -j stats 2>/dev/null)")
	fi
	for f in sent_pkts rcvd_pkts duplicate_request completer_retry_err; do
		v=$(cat "$d/$f" 2>/dev/null) || continue
		rxe="$rxe${rxe:+,}\"$f\":$v"
	done
	printf '{"uptime":%s,"cpu":[%s],"ncpu":%s,"smcr":%s,"rxe":{%s}}\n' \
		"$(cut -d' ' -f1 /proc/uptime)" "$cpu" "$ncpu" "$smcr" "$rxe"
}

bench_gid()
{
	local g

	for g in "/sys/class/infiniband/$RXE/ports/1/gids/"*; do
		case $(cat "$g" 2>/dev/null) in
		0000:0000:0000:0000:0000:ffff:*) echo "${g##*/}"; return 0 ;;
		esac
	done
	return 1
}

# the pid of server ID, if it still runs (zombies do not count)
srv_alive()
{
	local pid

	pid=$(cat "/tmp/bench-srv-$1.pid" 2>/dev/null) || return 1
	[ -r "/proc/$pid/stat" ] || return 1
	[ "$(awk '{ print $3 }' "/proc/$pid/stat")" != Z ] || return 1
	echo "$pid"
}

srv_ready()
{
	case $1 in
	line:*) grep -qF -- "${1#line:}" "$2" ;;
	port:*) ss -Hltn "sport = :${1#port:}" | grep -q . ;;
	*) return 1 ;;
	esac
}

# peer-start ID READY CMD...
bench_peer_start()
{
	local id=$1 ready=$2 log i

	shift 2
	log=/tmp/bench-srv-$id.log
	# not holding rigd's pipes, or the remote call would wait for it
	setsid "$@" >"$log" 2>&1 </dev/null &
	echo $! >"/tmp/bench-srv-$id.pid"
	# up to 30 s: a first SMC listen can load and set up a lot
	for i in $(seq 600); do
		if srv_ready "$ready" "$log"; then
			bench_snap
			return 0
		fi
		srv_alive "$id" >/dev/null || break
		[ "$i" -lt 600 ] && sleep 0.05
	done
	echo "server $id not ready ($ready): $(tail -n 5 "$log" | tr '\n' ' ')" >&2
	bench_peer_kill "$id"
	return 1
}

bench_peer_kill()
{
	local id=$1 pid i

	pid=$(srv_alive "$id") || return 0
	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
	for i in $(seq 100); do
		srv_alive "$id" >/dev/null || return 0
		sleep 0.05
	done
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
	return 0
}

bench_peer_stop()
{
	local id=$1

	bench_snap
	bench_peer_kill "$id"
	if [ -n "${SMC_RIG_OUT:-}" ]; then
		mkdir -p "$SMC_RIG_OUT/logs"
		cp "/tmp/bench-srv-$id.log" "$SMC_RIG_OUT/logs/B-$id.log" 2>/dev/null
	fi
	return 0
}

case ${1:-} in
snap) bench_snap; exit $? ;;
gid) bench_gid; exit $? ;;
peer-start) shift; bench_peer_start "$@"; exit $? ;;
peer-stop) shift; bench_peer_stop "$@"; exit $? ;;
run) ;;
*) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

# ---- the run, on host A -----------------------------------------------------

# shellcheck source=../tools/testing/selftests/net/smc/lib.sh
. "$top/tools/testing/selftests/net/smc/lib.sh"

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
read -r -a TRANSPORTS <<<"${BENCH_TRANSPORTS:-tcp ours distro rsocket}"
read -r -a TOOLS <<<"${BENCH_TOOLS:-qperf sockperf perftest}"
read -r -a TOOL_TRANSPORTS <<<"${BENCH_TOOL_TRANSPORTS:-tcp ours distro}"
TOOL_REPS=${BENCH_TOOL_REPS:-$REPS}
TOOL_DUR=${BENCH_TOOL_DURATION:-$DUR}
LAT_ITERS=${BENCH_LAT_ITERS:-2000}

peer_ip=${SMC_PEER_IP:?}
seq_no=0
port_base=$((20000 + RANDOM % 20000))
t_start=$(date +%s)

say() { echo "bench: $*"; }
now_ns() { date +%s%N; }
rec() { printf '%s\n' "$1" >>"$raw"; }
peer() { $SMC_PEER_EXEC "$1"; }

# workload NAME -> "pattern clients req resp"
workload_def()
{
	case $1 in
	RR1) echo "rr 1 1K 1K" ;;
	RR10) echo "rr 10 32K 32K" ;;
	STR1) echo "str 1 1 20M" ;;
	STR3) echo "str 3 1 20M" ;;
	CRR10) echo "crr 10 64 8K" ;;
	rr1_200B_1KB) echo "rr 1 200 1K" ;;
	rr1_200B_30KB) echo "rr 1 200 30K" ;;
	*) return 1 ;;
	esac
}

# ---- transports ---------------------------------------------------------------

cur_mod=none
declare -A skip_reason=()

# setup <transport>: load and configure what the transport needs on both
# hosts, once per change; record the configuration
setup_transport()
{
	local t=$1 want msg rc=0 sysA sysB

	case $t in
	ours|distro) want=$t ;;
	*) return 0 ;;
	esac
	[ "$cur_mod" = "$want" ] && return 0
	say "switching both hosts to the $want smc module"
	msg=$( {
		smc_lib_mod local ensure "$want" &&
		smc_lib_mod peer ensure "$want" &&
		smc_lib_ueid_set local &&
		smc_lib_ueid_set peer
	} 2>&1) || rc=1
	cur_mod=$want
	[ $rc = 0 ] || cur_mod=broken
	sysA=$(sysctl -a 2>/dev/null | grep '^net\.smc\.' | tr '\n' ';')
	sysB=$(peer "sysctl -a 2>/dev/null | grep '^net\\.smc\\.' | tr '\\n' ';'" 2>/dev/null)
	rec "$(jobj kind '"setup"' transport "$(json_str "$t")" \
		module "$(json_str "$want")" rc "$rc" msg "$(json_str "$msg")" \
		ueid "$(json_str "$SMC_LIB_UEID")" \
		srcversion_A "$(json_str "$(cat /sys/module/smc/srcversion 2>/dev/null)")" \
		srcversion_B "$(json_str "$(peer 'cat /sys/module/smc/srcversion' 2>/dev/null)")" \
		sysctl_A "$(json_str "$sysA")" sysctl_B "$(json_str "$sysB")")"
	if [ $rc != 0 ]; then
		say "cannot set up $want: $msg"
		return 1
	fi
}

# gen_cmd <transport>: how to start the generator (server and client)
gen_cmd()
{
	case $1 in
	tcp|ours|distro) echo "$GEN" ;;
	rsocket) echo "env LD_PRELOAD=$RSPRELOAD $GEN" ;;
	esac
}

gen_family()
{
	case $1 in
	ours|distro) echo smc ;;
	*) echo tcp ;;
	esac
}

# ---- one measurement ---------------------------------------------------------

# measure <bench> <transport> <workload> <rep> <ready> <server cmd> <client cmd> <parser>
# Starts the server on B, takes snapshots on both hosts, runs the client
# here, snapshots again, stops the server and records everything.
measure()
{
	local bench=$1 t=$2 w=$3 rep=$4 ready=$5 scmd=$6 ccmd=$7 parse=$8
	local id b0 b1 a0 a1 t0 t1 crc out err result errtxt=

	seq_no=$((seq_no + 1))
	id=$seq_no
	if ! b0=$(peer "$(smc_lib_q bash "$self" peer-start "$id" "$ready") $scmd" 2>"$logs/A-$id.peer.err"); then
		errtxt="server did not start: $(tail -n 3 "$logs/A-$id.peer.err" | tr '\n' ' ')"
		say "$bench $t $w rep $rep: $errtxt"
		rec "$(jobj kind '"cell"' bench "\"$bench\"" transport "\"$t\"" \
			workload "\"$w\"" rep "$rep" seq "$id" rc -1 \
			error "$(json_str "$errtxt")" result null)"
		peer "$(smc_lib_q bash "$self" peer-stop "$id")" >/dev/null 2>&1
		return 1
	fi
	a0=$(bench_snap)
	t0=$(now_ns)
	# shellcheck disable=SC2086 # the command is a word list by design
	out=$(timeout -k 5 $((DUR * 4 + 120)) $ccmd 2>"$logs/A-$id.err")
	crc=$?
	t1=$(now_ns)
	a1=$(bench_snap)
	b1=$(peer "$(smc_lib_q bash "$self" peer-stop "$id")" 2>/dev/null | head -n 1)
	printf '%s\n' "$out" >"$logs/A-$id.out"
	result=$("$parse" <<<"$out")
	err=$(tail -n 3 "$logs/A-$id.err" | tr '\n' ' ')
	[ "$crc" = 0 ] || errtxt="client exit $crc: $err"
	[ "$result" = null ] && [ -z "$errtxt" ] && errtxt="no result in the output: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
	rec "$(jobj kind '"cell"' bench "\"$bench\"" transport "\"$t\"" \
		workload "\"$w\"" rep "$rep" seq "$id" rc "$crc" \
		error "$(json_str "$errtxt")" \
		wall_s "$(((t1 - t0) / 1000000000)).$(printf %03d $(((t1 - t0) / 1000000 % 1000)))" \
		result "$result" a0 "$(json_obj "$a0")" a1 "$(json_obj "$a1")" \
		b0 "$(json_obj "$b0")" b1 "$(json_obj "$b1")" \
		server "$(json_str "$scmd")" client "$(json_str "$ccmd")")"
	[ "$crc" = 0 ] && [ "$result" != null ]
}

# parsers: the tool's output on stdin, one JSON object (or null) out
# shellcheck disable=SC2317 # called by name
parse_gen()
{
	local l

	l=$(grep '^{' | tail -n 1)
	json_obj "$l"
}

# qperf: "bw = 85.2 MB/sec" or "latency = 360 us", any unit
# shellcheck disable=SC2317 # called by name
parse_qperf()
{
	awk '
	$1 == "bw" && $2 == "=" {
		f = ($4 ~ /^GB/) ? 1000 : ($4 ~ /^MB/) ? 1 : ($4 ~ /^KB/) ? 0.001 : 0.000001
		printf "{\"mb_per_s\":%.3f}\n", $3 * f; found = 1
	}
	$1 == "latency" && $2 == "=" {
		f = ($4 == "ns") ? 0.001 : ($4 == "us") ? 1 : ($4 == "ms") ? 1000 : 1000000
		printf "{\"lat_mean_us\":%.3f}\n", $3 * f; found = 1
	}
	END { if (!found) print "null" }'
}

# sockperf: ping-pong (round trips, --full-rtt) or throughput
# shellcheck disable=SC2317 # called by name
parse_sockperf()
{
	sed 's/\x1b\[[0-9;]*m//g' | awk '
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
	}'
}

# perftest: the line after the header, whose first field is the size
# shellcheck disable=SC2317 # called by name
parse_perftest()
{
	awk '
	/#bytes/ { hdr = $0; bw = (hdr ~ /BW average/); next }
	hdr != "" && $1 ~ /^[0-9]+$/ && NF >= 5 {
		if (bw)
			printf "{\"size\":%d,\"iterations\":%d,\"bw_peak_mb_per_s\":%s,\"mb_per_s\":%s,\"msg_rate_mpps\":%s}\n", $1, $2, $3, $4, $5
		else
			printf "{\"size\":%d,\"iterations\":%d,\"lat_min_us\":%s,\"lat_max_us\":%s,\"lat_p50_us\":%s,\"lat_mean_us\":%s,\"lat_stdev_us\":%s,\"lat_p99_us\":%s}\n", $1, $2, $3, $4, $5, $6, $7, $8
		done = 1; exit
	}
	END { if (!done) print "null" }'
}

# ---- the workloads ------------------------------------------------------------

run_gen_cell()
{
	local t=$1 w=$2 rep=$3 def pat n req resp fam port cmd

	def=$(workload_def "$w") || { say "unknown workload $w"; return 1; }
	read -r pat n req resp <<<"$def"
	fam=$(gen_family "$t")
	cmd=$(gen_cmd "$t")
	port=$((port_base + seq_no + 1))
	say "$w $t rep $rep"
	measure gen "$t" "$w" "$rep" "line:listening on" \
		"$cmd server --family $fam --port $port --addr $peer_ip $GEN_ARGS" \
		"$cmd client --family $fam --addr $peer_ip --port $port --workload $pat --clients $n --req $req --resp $resp --duration $DUR --warmup $WARM --label $w/$t/$rep $GEN_ARGS" \
		parse_gen
}

# real clients: plain for tcp, under smc_run for the smc modules
# shellcheck disable=SC2317 # called by name
tool_prefix()
{
	case $1 in
	ours|distro) echo "$SMC_RUN" ;;
	*) echo "" ;;
	esac
}

# shellcheck disable=SC2317 # called by name
run_tool_cell()
{
	local t=$1 w=$2 rep=$3 pre port

	pre=$(tool_prefix "$t")
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

gid_a='' gid_b=''
run_perftest_cell()
{
	local w=$1 rep=$2 port common

	port=$((port_base + seq_no + 1))
	say "$w rep $rep"
	case $w in
	ib_write_bw_64K) common="ib_write_bw -F -d $RXE -i 1 -p $port -s 65536 -D $TOOL_DUR" ;;
	ib_write_bw_1K) common="ib_write_bw -F -d $RXE -i 1 -p $port -s 1024 -D $TOOL_DUR" ;;
	ib_write_lat_1K) common="ib_write_lat -F -d $RXE -i 1 -p $port -s 1024 -n $LAT_ITERS" ;;
	ib_write_lat_32K) common="ib_write_lat -F -d $RXE -i 1 -p $port -s 32768 -n $((LAT_ITERS / 4))" ;;
	esac
	measure perftest rdma "$w" "$rep" "port:$port" "$common -x $gid_b" \
		"$common -x $gid_a $peer_ip" parse_perftest
}

# rsocket: one short RR over rdma_cm must work, and rxe must have carried it
probe_rsocket()
{
	local before after line

	[ -f "$RSPRELOAD" ] || { echo "$RSPRELOAD is not installed (rdma-core's librdmacm)"; return 1; }
	[ -c /dev/infiniband/rdma_cm ] || { echo "no /dev/infiniband/rdma_cm (rdma_ucm)"; return 1; }
	before=$(cat "/sys/class/infiniband/$RXE/ports/1/hw_counters/sent_pkts" 2>/dev/null || echo 0)
	local DUR=1 WARM=0
	if ! run_gen_cell rsocket probe 0 >/dev/null 2>&1; then
		line=$(tail -n 1 "$raw")
		echo "the generator does not run under librspreload: $(sed -n 's/.*"error":"\([^"]*\)".*/\1/p' <<<"$line")"
		return 1
	fi
	after=$(cat "/sys/class/infiniband/$RXE/ports/1/hw_counters/sent_pkts" 2>/dev/null || echo 0)
	if [ $((after - before)) -lt 10 ]; then
		echo "librspreload fell back to kernel TCP (rxe1 sent $((after - before)) packets)"
		return 1
	fi
	return 0
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

rec "$(jobj kind '"meta"' kernel "$(json_str "$(uname -r)")" \
	kernel_B "$(json_str "$(peer 'uname -r')")" ncpu "$(nproc)" \
	mem_kb "$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)" \
	reps "$REPS" duration_s "$DUR" warmup_s "$WARM" \
	tool_reps "$TOOL_REPS" tool_duration_s "$TOOL_DUR" \
	workloads "$(json_str "${WORKLOADS[*]}")" \
	transports "$(json_str "${TRANSPORTS[*]}")" \
	tools "$(json_str "${TOOLS[*]}")" \
	tool_transports "$(json_str "${TOOL_TRANSPORTS[*]}")" \
	generator "$(json_str "$GEN")" generator_args "$(json_str "$GEN_ARGS")" \
	ours_srcversion "$(json_str "$(smc_lib_srcversion "$SMC_LIB_OURS/smc.ko")")" \
	distro_module "$(json_str "$(modinfo -F filename smc 2>/dev/null)")" \
	gid_index_A "$(json_str "$gid_a")" gid_index_B "$(json_str "$gid_b")" \
	rxe "$(json_str "$(rdma link show "$RXE/1" 2>/dev/null)")")"

for t in "${TRANSPORTS[@]}"; do
	[ "$t" = rsocket ] || continue
	if reason=$(probe_rsocket); then
		say "rsocket runs over rxe"
		rec '{"kind":"rsocket","ok":true}'
	else
		say "rsocket left out: $reason"
		skip_reason[rsocket]=$reason
		rec "$(jobj kind '"rsocket"' ok false reason "$(json_str "$reason")")"
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
				setup_transport "$t" || continue
				"run_${kind}_cell" "$t" "$w" "$rep"
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

if [[ " ${TOOLS[*]} " == *" perftest "* ]]; then
	if [ -z "$gid_a" ] || [ -z "$gid_b" ]; then
		say "perftest left out: no IPv4 GID on $RXE"
		rec '{"kind":"skip","bench":"perftest","reason":"no IPv4 RoCEv2 GID on rxe1"}'
	else
		for rep in $(seq "$TOOL_REPS"); do
			for w in ib_write_bw_64K ib_write_bw_1K ib_write_lat_1K ib_write_lat_32K; do
				run_perftest_cell "$w" "$rep"
			done
		done
	fi
fi

# leave both hosts as the selftests expect them
smc_lib_ueid_flush local >/dev/null 2>&1
smc_lib_ueid_flush peer >/dev/null 2>&1
rec "$(jobj kind '"end"' wall_s $(($(date +%s) - t_start)))"
say "done in $(($(date +%s) - t_start)) s"
exit 0
