#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# SMC-R between the two hosts over Soft-RoCE.  With the same UEID on both,
# the CLC handshake agrees on SMC-Rv2 and the data moves through RMBs:
# while each connection is up, smcss on both hosts must show mode SMCR
# with no fallback reason.  First our module on both hosts (data in both
# directions, the socket API cases, link-group reuse), then the
# distribution's smc.ko on the peer, as client and as server.  Our module
# is put back on the peer at the end and the UEIDs are removed.

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_smcr_setup
SMCR_TOOL=$SMC_LIB_SMCR

SMC_HOOK_EXPECT_CLIENT="SMCR 0x00000000"
SMC_HOOK_EXPECT_SERVER="SMCR 0x00000000"
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

CDC_RX=/sys/kernel/debug/smc/cdc_rx

# cdc_rx_faults <local|peer>: the CDC messages our module on that host
# dropped as malformed, old or backwards, plus those whose sequence
# number jumped ("-" where another module runs).  Unknown tokens are left
# out: a late CDC for a connection already gone is harmless.
# shellcheck disable=SC2317 # called through smc_lib_run
cdc_rx_faults()
{
	smc_lib_on "$1" "cat $CDC_RX 2>/dev/null" | awk '
		$1 != "unknown_token" { n += $2; seen = 1 }
		END { print seen ? n : "-" }'
}

# cdc_rx_check <local|peer> <count before>
# shellcheck disable=SC2317 # called through smc_lib_run
cdc_rx_check()
{
	local now

	[ "$2" = - ] && return 0
	now=$(cdc_rx_faults "$1")
	[ "$now" = "$2" ] && return 0
	echo "FAIL CDC receive faults on $1: $2 -> $now"
	smc_lib_on "$1" "cat $CDC_RX" | sed 's/^/    /'
	return 1
}

# run_data <server host> <size> <dir> [<RMB size>]: with an RMB size,
# both ends ask for it with SO_RCVBUF (half of sk_rcvbuf, as TCP uses it)
# and the hook checks that both RMBs have it.  Every CDC message of the
# transfer must be taken in sequence on both hosts.
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
run_data()
{
	local args=(--family smc --size "$2" --dir "$3" --seed 91
		    --timeout "${DATA_TIMEOUT:-240}")
	local SMC_HOOK_RMBE=${4:-${SMC_HOOK_RMBE:-}}
	local faults_l faults_p extra

	[ -n "${4:-}" ] && args+=(--rcvbuf "$4")
	read -ra extra <<<"${DATA_EXTRA:-}"
	args+=("${extra[@]}")
	export SMC_HOOK_RMBE
	faults_l=$(cdc_rx_faults local)
	faults_p=$(cdc_rx_faults peer)
	smc_lib_pair "$SMC_LIB_DATA_TEST" "$1" args args || return 1
	cdc_rx_check local "$faults_l" && cdc_rx_check peer "$faults_p"
}

# seqno_switch <0|1>: the test-only switch of our module on both hosts
# that sends and reads CDC sequence numbers in host byte order
# shellcheck disable=SC2317 # called through smc_lib_run
seqno_switch()
{
	local f=/sys/kernel/debug/smc/cdc_seqno_host_order

	smc_lib_on local "echo $1 >$f" && smc_lib_on peer "echo $1 >$f"
}

# A deliberate endian bug must be caught by the data test exactly when
# the two hosts differ in byte order; within one order it is invisible.
# shellcheck disable=SC2317 # called through smc_lib_run
check_seqno_switch()
{
	local lo po rc

	lo=$(smc_lib_byte_order local) && po=$(smc_lib_byte_order peer) ||
		return 1
	echo "byte order (1 little, 256 big): here $lo, peer $po"
	seqno_switch 1 || { seqno_switch 0; return 1; }
	run_data peer 1048576 both
	rc=$?
	seqno_switch 0 || return 1
	if [ "$lo" = "$po" ]; then
		[ "$rc" = 0 ] || echo "FAIL the switch broke a same-order pair"
		return "$rc"
	fi
	[ "$rc" != 0 ] || {
		echo "FAIL host-order sequence numbers went unnoticed across byte orders"
		return 1
	}
	echo "caught, as it must be across byte orders"
}

# run_data_oob <server host> <size> <dir> <RMB size>: run_data with an
# urgent byte ahead of the data each way, read out of band; past 2^16
# laps of a 16 KiB RMB a mark that was never cleared used to swallow a
# byte of the stream
# shellcheck disable=SC2317 # called through smc_lib_run
run_data_oob()
{
	DATA_EXTRA=--oob run_data "$@"
}

# run_data_rmem <server host> <size> <dir> <net.smc.rmem>: the RMBs'
# size from the sysctl on both hosts, not from the socket
# shellcheck disable=SC2317 # called through smc_lib_run
run_data_rmem()
{
	local set old_l old_p rc

	old_l=$(smc_lib_on local "sysctl -n net.smc.rmem") || return 1
	old_p=$(smc_lib_on peer "sysctl -n net.smc.rmem") || return 1
	set="sysctl -qw net.smc.rmem=$4"
	smc_lib_on local "$set" && smc_lib_on peer "$set" || return 1
	SMC_HOOK_RMBE=$4 run_data "$1" "$2" "$3"
	rc=$?
	smc_lib_on local "sysctl -qw net.smc.rmem=$old_l"
	smc_lib_on peer "sysctl -qw net.smc.rmem=$old_p"
	return "$rc"
}

# run_case <server host> <case>
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
run_case()
{
	local args=(--case "$2" --family smc --smcr --timeout 90)

	smc_lib_pair "$SMC_LIB_SOCK_TEST" "$1" args args
}

# run_case_tcp <server host> <case>: the same case over plain TCP, the
# control that shows what an SMC-R case must match
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
run_case_tcp()
{
	local args=(--case "$2" --family tcp --timeout 90)

	SMC_LIB_NOHOOK=1 smc_lib_pair "$SMC_LIB_SOCK_TEST" "$1" args args
}

# run_burst <server host> <case>: a burst case of smc_sock_test (the
# main connection and 100 that connect and close or abort at once);
# each of its 101 connections must count as SMC-R on both hosts.  A
# server running our module holds each handshake 20 ms after the
# Confirm (test switch hs_serv_delay_ms), so that the clients' closes
# and aborts reach it before its handshakes end.
# shellcheck disable=SC2317 # called through smc_lib_run
run_burst()
{
	local l0 p0 l1 p1 rc delay=/sys/kernel/debug/smc/hs_serv_delay_ms

	l0=$(smcr_successes local) && p0=$(smcr_successes peer) || return 1
	smc_lib_on "$1" "[ ! -e $delay ] || echo 20 >$delay"
	run_case "$@"
	rc=$?
	smc_lib_on "$1" "[ ! -e $delay ] || echo 0 >$delay"
	[ "$rc" = 0 ] || { burst_diag; return 1; }
	l1=$(smcr_successes local) && p1=$(smcr_successes peer) || return 1
	echo "SMC-R successes here: $l0 -> $l1, on the peer: $p0 -> $p1"
	[ "$l1" -eq $((l0 + 101)) ] && [ "$p1" -eq $((p0 + 101)) ] && return 0
	echo "FAIL not all 101 connections counted as SMC-R on both hosts"
	return 1
}

# burst_diag: what each host saw when a burst failed, which a rare
# failure must leave in the log: its SMC handshake errors and fallbacks,
# the TCP resets and listen drops, and the end of its kernel log
# shellcheck disable=SC2317 # called from run_burst
burst_diag()
{
	local h

	for h in local peer; do
		echo "-- $h host after the burst:"
		smc_lib_on "$h" "$(smc_lib_q "$SMCR_TOOL" stats) 2>&1;
			nstat -az TcpEstabResets TcpOutRsts TcpExtListenDrops \
				TcpExtListenOverflows TcpExtTCPAbortOnData \
				TcpExtTCPAbortOnClose 2>&1 | tail -n +2;
			dmesg | tail -n 8" | sed 's/^/  /'
	done
}

# fallbacks <local|peer> <client|server> <code>: fallbacks for that
# reason there, as smcr stats counts them
# shellcheck disable=SC2317 # called from run_burst_limited
fallbacks()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMCR_TOOL" -j stats)" 2>/dev/null |
		sed 's/},{/}\n{/g' | awk -v side="\"$2\"" -v code="\"$3\"" '
		'"$SMC_LIB_AWK_FIELD"'
		index($0, "\"side\":" side) && index($0, "\"code\":" code) {
			n += field($0, "count")
		}
		END { print n + 0 }'
}

# run_burst_limited <case>: run_burst's 101 connections to a server on
# the peer with net.smc.limit_smc_hs on there and each handshake held
# 200 ms: past SMC_HS_CONGESTED handshakes per CPU the peer's SYN-ACKs
# carry no SMC option, so some connections must fall back with
# PEERNOSMC on both ends, and each one must be SMC-R or that fallback
# shellcheck disable=SC2317 # called through smc_lib_run
run_burst_limited()
{
	local delay=/sys/kernel/debug/smc/hs_serv_delay_ms rc n l0 p0 l1 p1
	local fl0 fp0 fl1 fp1 peernosmc=0x03010000

	l0=$(smcr_successes local) && p0=$(smcr_successes peer) || return 1
	fl0=$(fallbacks local client "$peernosmc") || return 1
	fp0=$(fallbacks peer server "$peernosmc") || return 1
	smc_lib_on peer "sysctl -qw net.smc.limit_smc_hs=1 && echo 200 >$delay"
	run_case peer "$1"
	rc=$?
	smc_lib_on peer "sysctl -qw net.smc.limit_smc_hs=0; echo 0 >$delay"
	[ "$rc" = 0 ] || return 1
	l1=$(smcr_successes local) && p1=$(smcr_successes peer) || return 1
	fl1=$(fallbacks local client "$peernosmc") || return 1
	fp1=$(fallbacks peer server "$peernosmc") || return 1
	echo "SMC-R here $l0 -> $l1, on the peer $p0 -> $p1;" \
		"PEERNOSMC fallbacks here $fl0 -> $fl1, on the peer $fp0 -> $fp1"
	n=$((fp1 - fp0))
	[ "$n" -gt 0 ] || { echo "FAIL no connection fell back"; return 1; }
	[ "$((fl1 - fl0))" = "$n" ] || {
		echo "FAIL the two ends count different fallbacks"; return 1; }
	if [ "$((p1 - p0 + n))" != 101 ] || [ "$((l1 - l0 + n))" != 101 ]; then
		echo "FAIL connections neither SMC-R nor PEERNOSMC"
		return 1
	fi
}

# the case runner for smc_sock_test case <name>
case_fn()
{
	case $1 in
	connect_close|connect_abort) echo run_burst ;;
	*) echo run_case ;;
	esac
}

# the SMC-R successes smcr stats counts on <local|peer>, client + server
# shellcheck disable=SC2317 # called from check_reuse
smcr_successes()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMCR_TOOL" -j stats)" 2>/dev/null |
		sed 's/[,{}]/\n/g' | awk -F: '
		/"smcr_(client|server)_v[12]"/ { n += $2 }
		END { print n + 0 }'
}

# shellcheck disable=SC2317 # called through smc_lib_run
check_reuse()
{
	local before after

	before=$(smcr_successes local)
	run_data peer 65536 both || return 1
	run_data peer 65536 both || return 1
	after=$(smcr_successes local)
	echo "SMC-R successes here: $before -> $after"
	[ "$after" -eq $((before + 2)) ] || {
		echo "FAIL two connections did not both count as SMC-R"
		return 1
	}
	check_one_lgr
}

# shellcheck disable=SC2317 # called through smc_lib_run
check_one_lgr()
{
	local out n

	out=$(smc_lib_on local "$(smc_lib_q "$SMCR_TOOL" -j linkgroup show)" 2>&1) || {
		echo "FAIL smcr linkgroup show: $out"
		return 1
	}
	# one group per role: the ones from when this host was the server
	# do not count
	n=$(printf '%s\n' "$out" | grep -o '"role":"CLNT"' | wc -l)
	echo "client link groups here: $n"
	printf '%s\n' "$out"
	[ "$n" -eq 1 ]
}

# pnet_both <smc_pnet args>: the same PNETID table change on both hosts
# shellcheck disable=SC2317 # called through smc_lib_run
pnet_both()
{
	local cmd

	cmd=$(smc_lib_q "$SMC_LIB_PNET" "$@")
	smc_lib_on local "$cmd" && smc_lib_on peer "$cmd"
}

# lgr_pnetid_is <pnetid>: the client group here shows it
# shellcheck disable=SC2317 # called through smc_lib_run
lgr_pnetid_is()
{
	local out

	out=$(smc_lib_on local "$(smc_lib_q "$SMCR_TOOL" -j linkgroup show)") ||
		return 1
	printf '%s\n' "$out"
	[[ "$out" == *'"role":"CLNT"'*'"pnetid":"'"$1"'"'* ]] || {
		echo "FAIL the group does not show PNETID $1"; return 1; }
}

# A group takes the PNETID of its first link's port, where a second
# link must have it too, and keeps it when the table changes later, as
# upstream's lgr->pnet_id.  The modules are loaded afresh for a new
# group, which the PNETID table of the old ones does not outlive.
# shellcheck disable=SC2317 # called through smc_lib_run
lgr_pnetid()
{
	local rc=0

	smc_lib_mod local unload && smc_lib_mod peer unload &&
		smc_lib_mod local ensure ours && smc_lib_mod peer ensure ours &&
		smc_lib_ueid_set local && smc_lib_ueid_set peer || return 1
	pnet_both -a SMCRPN -I net1 -D rxe1 -P 1 || return 1
	run_data peer 65536 both || rc=1
	lgr_pnetid_is SMCRPN || rc=1
	pnet_both -f || rc=1
	lgr_pnetid_is SMCRPN || rc=1
	return "$rc"
}

# SMC-Rv1 between our modules.  rxe has RoCEv2 GIDs only, so the
# test-only switch smc/v1_on_rocev2 lets an IPv4-mapped RoCEv2 GID serve
# as the v1 GID; all else on the wire is SMC-Rv1 (CLC v1 Accept and
# Confirm, LLC v1, the subnet rule).  Without UEIDs the client offers
# v1 alone.
V1_SWITCH=/sys/kernel/debug/smc/v1_on_rocev2

# shellcheck disable=SC2317 # called through smc_lib_run and trap
v1_switch()
{
	smc_lib_on local "echo $1 >$V1_SWITCH" && smc_lib_on peer "echo $1 >$V1_SWITCH"
}

# shellcheck disable=SC2317 # called through smc_lib_run
v1_begin()
{
	v1_switch 1 && smc_lib_ueid_flush local && smc_lib_ueid_flush peer
}

# shellcheck disable=SC2317 # called through smc_lib_run
v1_end()
{
	v1_switch 0 && smc_lib_ueid_set local && smc_lib_ueid_set peer
}

# smcr_versions <local|peer>: the SMC-R successes there, "v1 v2"
# shellcheck disable=SC2317 # called from v1_only
smcr_versions()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMCR_TOOL" -j stats)" 2>/dev/null |
		sed 's/[,{}]/\n/g' | awk -F: '
		/"smcr_(client|server)_v1"/ { v1 += $2 }
		/"smcr_(client|server)_v2"/ { v2 += $2 }
		END { print v1 + 0, v2 + 0 }'
}

# v1_only <case function> <args...>: the case, and on both hosts it
# must have counted SMC-Rv1 handshakes and no SMC-Rv2 one
# shellcheck disable=SC2317 # called through smc_lib_run
v1_only()
{
	local l0 p0 l1 p1 rc=0

	l0=$(smcr_versions local) && p0=$(smcr_versions peer) || return 1
	"$@" || return 1
	l1=$(smcr_versions local) && p1=$(smcr_versions peer) || return 1
	echo "SMC-R v1 v2 here: $l0 -> $l1, on the peer: $p0 -> $p1"
	if [ "${l1% *}" -le "${l0% *}" ] || [ "${p1% *}" -le "${p0% *}" ]; then
		echo "FAIL no SMC-Rv1 handshake counted on both hosts"
		rc=1
	fi
	if [ "${l1#* }" != "${l0#* }" ] || [ "${p1#* }" != "${p0#* }" ]; then
		echo "FAIL SMC-Rv2 handshakes counted"
		rc=1
	fi
	return "$rc"
}

# shellcheck disable=SC2317 # called through smc_lib_run
check_peer_is()
{
	local m

	m=$(smc_lib_mod peer which) || return 1
	echo "peer runs the $m smc module"
	[ "$m" = "$1" ]
}

# shellcheck disable=SC2317 # called through smc_lib_run
peer_to_distro()
{
	smc_lib_mod peer ensure distro && smc_lib_distro_pnet peer &&
		smc_lib_ueid_set peer && check_peer_is distro
}

mapfile -t cases < <("$SMC_LIB_SOCK_TEST" list)
[ "${#cases[@]}" -gt 0 ] || smc_lib_bail_fail "smc_sock_test list gave no cases"
reverse=(linger0 oob poll rw shutdown_wr splice)
# Where the distro module's own end differs from TCP, a case runs only
# with ours on the end it checks.  oob checks SIOCATMARK on the client
# after the urgent byte was read out of band: TCP says 1 at the mark,
# the distro module 0, so oob runs with ours as the client only.
# linger0 checks ECONNRESET on the server when the client closes with
# SO_LINGER 0: the distro module closes in order there, and as server
# it reports the abort ours sends as an orderly end (recv() 0), so
# linger0 runs between our modules only, and so does connect_abort,
# 100 clients that close with SO_LINGER 0.
distro_cases=(rw shutdown_wr poll oob_inline connect_close)
distro_ours_client=(oob oob_signal)
# cases whose TCP behaviour is not obvious also run over TCP, as control
tcp_controls=(close_unread disconnect oob_signal)
have_distro=0 distro_skip=
case $(smc_lib_distro_state) in
yes)	have_distro=1 ;;
skip)	distro_skip=$SMC_LIB_DISTRO_SMCR_WHY ;;
esac
# SMC_SELFTEST_QUICK=1 (the slow debug kernel): the close and data cases,
# in one direction; not what only checks behaviour the stock kernel runs
# already (the TCP controls, the handshake limit, more data sizes, the
# host-order seqno switch, SMC-Rv1 data), full=0 quick=1
# SMC_SELFTEST_SECONDARY=1 (6.1, the s390x peer): fewer sizes, and the
# cases whose data, urgent byte and close flags cross the wire in CDC
# messages; the socket API cases, the TCP controls and the larger
# transfers only depend on what the stock run has
full=1 quick=0
if [ -n "${SMC_SELFTEST_QUICK:-}" ]; then
	cases=(rw shutdown_wr linger0 oob poll waitall close_unread)
	reverse=()
	tcp_controls=()
	have_distro=0 distro_skip=
	full=0 quick=1
fi

v1_cases=(shutdown_wr linger0 oob)
[ -n "${SMC_SELFTEST_QUICK:-}" ] && v1_cases=(shutdown_wr)
trap 'v1_switch 0 >/dev/null 2>&1; smc_lib_smcr_cleanup' EXIT

# every RMB size SO_RCVBUF reaches under the default net.core.rmem_max,
# with 1 MiB of random-sized writes each way, so that the rings wrap
# many times at odd offsets; then the sizes from 1 byte to 16 MiB (make
# soak moves 64 MiB both ways)
rmbs=(16384 32768 65536 131072 262144)
sizes=(1 1000 16777216)
if [ -n "${SMC_SELFTEST_SECONDARY:-}" ]; then
	rmbs=(16384 262144)
	sizes=(1 1000)
	tcp_controls=()
	cases=(close_unread connect_abort connect_close linger0 oob oob_inline
	       poll rw shutdown_rd shutdown_wr splice waitall)
	# 100 handshakes of the distro module at once on an emulated
	# s390x: under host load one in a few runs, one of its connects
	# ends in ECONNRESET while our server counts no handshake error
	# (make check's x86_64 pair runs the case with the distro client)
	[ "$(smc_lib_byte_order peer)" = 256 ] &&
		mapfile -t distro_cases < <(printf '%s\n' "${distro_cases[@]}" |
					    grep -vx connect_close)
	full=0
fi
if [ -n "${SMC_SELFTEST_QUICK:-}" ]; then
	rmbs=(16384)
	sizes=()
fi

n=$((6 - quick + 6 * full + ${#rmbs[@]} + ${#sizes[@]} + ${#cases[@]}))
n=$((n + ${#reverse[@]} + 3 - quick + ${#v1_cases[@]} + ${#tcp_controls[@]}))
[ "$have_distro" = 1 ] &&
	n=$((n + 5 + 2 * ${#distro_cases[@]} + ${#distro_ours_client[@]}))
[ -n "$distro_skip" ] && n=$((n + 1))
smc_lib_plan "$n"

smc_lib_run "data 1 MiB both A-client B-server" run_data peer 1048576 both
[ "$full" = 1 ] &&
	smc_lib_run "data 4 MiB c2s A-client B-server" run_data peer 4194304 c2s
[ "$full" = 1 ] &&
	smc_lib_run "data 4 MiB s2c B-client A-server" run_data local 4194304 s2c
smc_lib_run "data 1 MiB both B-client A-server" run_data local 1048576 both
smc_lib_run "second connection reuses the link group" check_reuse
smc_lib_run "the group keeps its first link's PNETID" lgr_pnetid
for r in "${rmbs[@]}"; do
	smc_lib_run "data 1 MiB both RMB $r A-client B-server" \
		run_data peer 1048576 both "$r"
done
smc_lib_run "data 1 MiB both RMB 1 MiB from net.smc.rmem B-client A-server" \
	run_data_rmem local 1048576 both 1048576
[ "$full" = 1 ] &&
	smc_lib_run "urgent byte, then data 1 MiB both RMB 16384 A-client B-server" \
		run_data_oob peer 1048576 both 16384
for z in "${sizes[@]}"; do
	smc_lib_run "data $z bytes both A-client B-server" run_data peer "$z" both
done
for c in "${cases[@]}"; do
	smc_lib_run "$c A-client B-server" "$(case_fn "$c")" peer "$c"
done
for c in "${reverse[@]}"; do
	smc_lib_run "$c B-client A-server" "$(case_fn "$c")" local "$c"
done
for c in "${tcp_controls[@]}"; do
	smc_lib_run "$c over TCP, the control, A-client B-server" \
		run_case_tcp peer "$c"
done
[ "$full" = 1 ] &&
	smc_lib_run "connect_close with limit_smc_hs on the server: congested, falls back" \
		run_burst_limited connect_close
[ "$quick" = 0 ] &&
	smc_lib_run "CDC seqno in host order: caught exactly across byte orders" \
		check_seqno_switch

smc_lib_run "SMC-Rv1: switch on, no UEIDs" v1_begin
[ "$quick" = 0 ] &&
	smc_lib_run "SMC-Rv1: data 1 MiB both A-client B-server" \
		v1_only run_data peer 1048576 both
[ "$full" = 1 ] &&
	smc_lib_run "SMC-Rv1: data 4 MiB s2c B-client A-server" \
		v1_only run_data local 4194304 s2c
[ "$full" = 1 ] &&
	smc_lib_run "SMC-Rv1: data 1 MiB both RMB 16384 A-client B-server" \
		v1_only run_data peer 1048576 both 16384
for c in "${v1_cases[@]}"; do
	smc_lib_run "SMC-Rv1: $c A-client B-server" v1_only run_case peer "$c"
done
smc_lib_run "SMC-Rv1: switch off, UEIDs back" v1_end

if [ "$have_distro" = 1 ]; then
	smc_lib_run "peer runs the distro smc with a UEID" peer_to_distro
	smc_lib_run "data 4 MiB both ours-client-A distro-server-B" \
		run_data peer 4194304 both
	smc_lib_run "data 1 MiB c2s ours-client-A distro-server-B" \
		run_data peer 1048576 c2s
	smc_lib_run "data 4 MiB both distro-client-B ours-server-A" \
		run_data local 4194304 both
	smc_lib_run "data 1 MiB s2c distro-client-B ours-server-A" \
		run_data local 1048576 s2c
	for c in "${distro_cases[@]}"; do
		smc_lib_run "$c ours-client-A distro-server-B" \
			"$(case_fn "$c")" peer "$c"
		smc_lib_run "$c distro-client-B ours-server-A" \
			"$(case_fn "$c")" local "$c"
	done
	for c in "${distro_ours_client[@]}"; do
		smc_lib_run "$c ours-client-A distro-server-B" run_case peer "$c"
	done
fi
if [ -n "$distro_skip" ]; then
	smc_lib_skip "SMC-R with the distro smc" "$distro_skip"
fi
smc_lib_exit
