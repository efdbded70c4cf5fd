#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Peer death: the peer host is reset (sysrq-b: no shutdown, no reboot
# notifier, nothing more on the wire, as when its power fails) while
# this host holds SMC-R connections to it in two link groups:
#   - busy: a verified transfer both ways over net1, client here;
#   - idle: two connections over net2 (rxe2, so a group of their own);
#     on one a task here is blocked in recv(), on the other in send(),
#     the peer's RMB full because its application never reads.
# Nothing tells this host.  It must find the peer dead by itself through
# the TEST_LINK keepalive, within net.smc.smcr_testlink_time (2 s here)
# plus 2 s for the answer, and every application must get an error
# (ECONNABORTED, ECONNRESET or ETIMEDOUT), never end of stream, within
# ERR_MAX_S.  Then
# no link group is left, no task is in D state, and smc unloads within
# 15 s.
#
# The peer does not come back: this runs last (it is last in
# TEST_PROGS), and nothing here asks the peer anything after the reset.

# shellcheck disable=SC2317 # functions run through trap
. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
command -v python3 >/dev/null || smc_lib_bail_skip "python3 missing"
smc_lib_single_host && smc_lib_bail_skip "needs the peer host of the rig"
[ -n "${SMC_PEER_IP2:-}" ] || smc_lib_bail_skip "no second data link (rig only)"
for d in rxe1 rxe2; do
	[ -d "/sys/class/infiniband/$d" ] || smc_lib_bail_skip "no $d (rig only)"
done
# only groups made with the keepalive set below
{ smc_lib_mod local unload && smc_lib_mod peer unload; } ||
	smc_lib_bail_fail "cannot unload the smc modules"
smc_lib_smcr_setup

quick=${SMC_SELFTEST_QUICK:-}
slow=0
[ -n "$quick" ] && slow=1
TESTLINK_S=2
# smcr_testlink_time + 2 s, and room for a slow rig (as faults.sh)
ERR_MAX_S=${SMC_FAULT_ERR_MAX_S:-$((TESTLINK_S + 2 + 8 + 12 * slow))}
UNLOAD_MAX_S=15
WAIT_S=60
RES=/tmp/smc_peer_death.$$

SMC_HOOK_EXPECT="SMCR 0x00000000"
SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"
export SMC_HOOK_EXPECT SMC_HOOK_EXPECT_PEER

peer_dead=0 busy_pid='' idle_pids='' idle_port=''
cleanup()
{
	[ -n "$busy_pid" ] && kill "$busy_pid" 2>/dev/null
	# shellcheck disable=SC2086 # a list of pids
	[ -n "$idle_pids" ] && kill $idle_pids 2>/dev/null
	wait
	rm -f "$RES" "$RES".*
	smc_lib_ueid_flush local
	[ "$peer_dead" = 1 ] && return
	smc_lib_peer "pkill -f 'smc_blocked.py hold'; rm -f $RES.hold"
	smc_lib_smcr_cleanup
} >/dev/null 2>&1
trap cleanup EXIT

# the blocked calls here and the listener on the peer that never reads
BLOCKED=$SMC_LIB_DIR/smc_blocked.py

# start_busy: the verified transfer, server on the peer
start_busy()
{
	local rc

	smc_lib_busy_start "$WAIT_S" "$RES" "$RES.busy" 5
	rc=$?
	busy_pid=$smc_lib_busy_pid
	return "$rc"
}

# idle_is <blocking|back>: the blocked recv() and send() are about to
# block, or have both come back
idle_is()
{
	if [ "$1" = blocking ]; then
		grep -q '^recv blocking' "$RES.recv" &&
			grep -q '^send blocking' "$RES.send"
	else
		grep -Eq '^recv (error|returned)' "$RES.recv" &&
			grep -Eq '^send (error|returned)' "$RES.send"
	fi
}

no_groups_here()
{
	[ "$(smc_lib_lgr_count local)" = 0 ]
}

# start_idle: the holder on the peer, the blocked calls here
start_idle()
{
	local port

	smc_lib_peer "setsid python3 $BLOCKED hold $SMC_PEER_IP2 \
		</dev/null >$RES.hold 2>&1 &" || return 1
	smc_lib_wait_until "$WAIT_S" "the holder on the peer" \
		smc_lib_peer "grep -q READY $RES.hold" || return 1
	port=$(smc_lib_ready_port "$(smc_lib_peer "cat $RES.hold")")
	[ -n "$port" ] || {
		echo "no port from the holder"
		smc_lib_peer "cat $RES.hold"
		return 1
	}
	python3 "$BLOCKED" block "$SMC_PEER_IP2" "$port" recv >"$RES.recv" 2>&1 &
	idle_pids=$!
	python3 "$BLOCKED" block "$SMC_PEER_IP2" "$port" send >"$RES.send" 2>&1 &
	idle_pids="$idle_pids $!"
	smc_lib_wait_until "$WAIT_S" "recv() and send() blocking" \
		idle_is blocking || { cat "$RES.recv" "$RES.send"; return 1; }
	idle_port=$port
}

# up: both connections SMC-R, each in a group of its own device
up()
{
	local devs modes rc=0

	start_busy || return 1
	start_idle || return 1
	cat "$RES.recv" "$RES.send"
	devs=$(smc_lib_devs_in_use local | sort | xargs)
	echo "devices with links here: $devs; link groups $(smc_lib_lgr_count local)"
	[ "$devs" = "rxe1 rxe2" ] || { echo "FAIL not one link on each device"; rc=1; }
	modes=$(smc_lib_conn_modes local "$idle_port" client)
	echo "idle connections: $modes"
	[ "$modes" = "2 SMCR 0x00000000" ] || {
		echo "FAIL the idle connections (to port $idle_port) are not both SMC-R:"
		"$SMC_LIB_SMCSS" -a
		rc=1
	}
	return "$rc"
}

# reset_peer: sysrq-b on the peer (the caller marks it dead); prints the
# time it was asked (ms)
reset_peer()
{
	local t

	t=$(smc_lib_now_ms)
	# a command with its own arguments; the peer never answers
	# shellcheck disable=SC2086
	timeout 5 $SMC_PEER_EXEC \
		"(echo b >/proc/sysrq-trigger) </dev/null >/dev/null 2>&1 &" \
		>/dev/null 2>&1
	echo "$t"
}

# busy_ended <t0>: the transfer ended in an error within ERR_MAX_S
busy_ended()
{
	local t0=$1 end=$((SECONDS + WAIT_S)) ms rc=0

	while kill -0 "$busy_pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.1
	done
	ms=$(($(smc_lib_now_ms) - t0))
	kill -0 "$busy_pid" 2>/dev/null && {
		echo "FAIL the client did not end within ${WAIT_S}s"
		kill "$busy_pid"
		rc=1
	}
	wait "$busy_pid" || { echo "FAIL client exit $?"; rc=1; }
	busy_pid=
	sed 's/^/client: /' "$RES.busy"
	echo "client ended $ms ms after the reset"
	[ "$ms" -le $((ERR_MAX_S * 1000)) ] ||
		{ echo "FAIL later than ${ERR_MAX_S}s"; rc=1; }
	return "$rc"
}

# idle_ended <t0>: the blocked recv() and send() returned errors within
# ERR_MAX_S
idle_ended()
{
	local t0=$1 rc=0 call how what ms

	smc_lib_wait_until "$WAIT_S" "recv() and send() back" \
		idle_is back || rc=1
	# shellcheck disable=SC2086 # a list of pids
	kill $idle_pids 2>/dev/null
	# shellcheck disable=SC2086
	wait $idle_pids
	idle_pids=
	cat "$RES.recv" "$RES.send"
	while read -r call how what ms; do
		ms=$((ms - t0))
		echo "$call() came back $ms ms after the reset: $how $what"
		case "$how $what" in
		"error ECONNABORTED"|"error ECONNRESET"|"error ETIMEDOUT") ;;
		*) echo "FAIL $call() must end in an error"; rc=1 ;;
		esac
		[ "$ms" -le $((ERR_MAX_S * 1000)) ] ||
			{ echo "FAIL later than ${ERR_MAX_S}s"; rc=1; }
	done < <(cat "$RES.recv" "$RES.send" | grep -E '^(recv|send) (error|returned)')
	return "$rc"
}

# clean: no group, no D state, and smc unloads within UNLOAD_MAX_S
clean()
{
	local rc=0 t ms

	smc_lib_wait_until "$WAIT_S" "no link group left here" no_groups_here ||
		rc=1
	[ -z "$(smc_lib_dstate local)" ] ||
		{ echo "FAIL tasks in D state: $(smc_lib_dstate local)"; rc=1; }
	t=$(smc_lib_now_ms)
	smc_lib_mod_unload || { echo "FAIL smc does not unload"; rc=1; }
	ms=$(($(smc_lib_now_ms) - t))
	echo "smc unloaded in $ms ms"
	[ "$ms" -le $((UNLOAD_MAX_S * 1000)) ] ||
		{ echo "FAIL later than ${UNLOAD_MAX_S}s"; rc=1; }
	return "$rc"
}

{ smc_lib_testlink local "$TESTLINK_S" && smc_lib_testlink peer "$TESTLINK_S" &&
	[ "$(smc_lib_testlink local)$(smc_lib_testlink peer)" = "$TESTLINK_S$TESTLINK_S" ]; } ||
	smc_lib_bail_fail "cannot set smcr_testlink_time to $TESTLINK_S s"

# here_run <name> <function> [args]: smc_lib_run in this shell, not a
# subshell: the applications started in the background stay its children
here_run()
{
	local name=$1 t rc

	shift
	t=$(smc_lib_now_ms)
	"$@" >"$RES.out" 2>&1
	rc=$?
	smc_lib_diag <"$RES.out"
	smc_lib_report "$rc" "$name" $(($(smc_lib_now_ms) - t)) "$(tail -n 1 "$RES.out")"
	return "$rc"
}

smc_lib_plan 4

here_run "a transfer on one link group, recv() and send() blocked on another" up ||
	smc_lib_exit

peer_dead=1
t0=$(reset_peer)
echo "# peer reset"
here_run "peer host reset: the transfer ends in an error within ${ERR_MAX_S}s" \
	busy_ended "$t0"
here_run "peer host reset: the blocked recv() and send() end in errors within ${ERR_MAX_S}s" \
	idle_ended "$t0"
smc_lib_run "no link group, no task in D state, smc unloads within ${UNLOAD_MAX_S}s" \
	clean
smc_lib_exit
