#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LLC and CDC messages from a hostile peer.  One host's test build sends
# mutated messages on its link (debugfs fuzz_wr, smc_wire_fuzz.c) while
# a connection runs over the link group; the other host receives them
# through its whole receive path.  In each round the fuzzer alternates:
# the peer fuzzes our client, then we fuzz the peer's server.  Each round
# must:
#  - get CHUNK messages out (a group the receiver ends for a message it
#    does not accept must be gone on both hosts, then a new one takes
#    the rest);
#  - show them parsed on the receiver: its llc_rx and cdc_rx counters
#    (handled requests, drops by reason) grow;
#  - leave both modules unloadable within UNLOAD_MAX_S, link groups and
#    all, with no task stuck.
# The rig fails the run on any splat, KASAN or lockdep report in either
# console, and on the debug kernel on a kmemleak report.  At the end a
# new connection must be SMC-R.  What the messages do to the connection
# (its data, its end) is the hostile peer's right, so it is not checked.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_smcr_setup

SMC_HOOK_EXPECT="SMCR 0x00000000"
SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"
export SMC_HOOK_EXPECT SMC_HOOK_EXPECT_PEER

FUZZ=/sys/kernel/debug/smc/fuzz_wr
# 10,000 messages on every kernel, the debug one too (issue 17); its
# quick run moves less data over the new connection at the end
TOTAL=${SMC_FUZZ_MSGS:-10000}
CHUNK=5000
FRESH_SIZE=1048576
[ -n "${SMC_SELFTEST_QUICK:-}" ] && FRESH_SIZE=262144
ROUNDS=$(((TOTAL + CHUNK - 1) / CHUNK))
UNLOAD_MAX_S=15
WAIT_S=${SMC_FUZZ_WAIT_S:-60}
RES=/tmp/smc_wire_fuzz.$$

smc_lib_on peer "[ -w $FUZZ ]" ||
	smc_lib_bail_skip "no $FUZZ on the peer: not a test build (CONFIG_SMC_TEST_HOOKS)"

# parsed <local|peer>: LLC requests handled or dropped, and CDC messages
# dropped by reason there, since the module loaded
parsed()
{
	smc_lib_on "$1" "cat /sys/kernel/debug/smc/llc_rx /sys/kernel/debug/smc/cdc_rx" |
		awk '{ if ($1 == "requests" || $1 == "unknown" || $1 == "late" ||
			  $1 == "dropped") l += $2; else c += $2 }
		END { print l + 0, c + 0 }'
}

# both hosts run ours, with the UEID the module lost when it unloaded
fresh_modules()
{
	smc_lib_mod local ensure ours >/dev/null &&
		smc_lib_mod peer ensure ours >/dev/null &&
		smc_lib_ueid_set local && smc_lib_ueid_set peer
}

# hold_start: a transfer both ways, client here, server on the peer, in
# the background; returns once it moves data
hold_start()
{
	local port

	port=$(smc_lib_server peer "$SMC_LIB_DATA_TEST" --result "$RES" \
		--family smc --size 1073741824 --dir both --seed 5 --timeout 300 \
		--expect-error --pace 20) || { echo "$port"; return 1; }
	"$SMC_LIB_DATA_TEST" client --host "$(smc_lib_ip peer)" --port "$port" \
		--family smc --size 1073741824 --dir both --seed 5 \
		--timeout 300 --expect-error --pace 20 >"$RES.client" 2>&1 &
	hold_pid=$!
	smc_lib_wait_until "$WAIT_S" "the transfer under way" \
		grep -qx transfer "$RES.client"
}

# hold_end: the connection ends, however it fared
hold_end()
{
	kill -9 "$hold_pid" 2>/dev/null
	wait "$hold_pid" 2>/dev/null
	grep -v '^transfer$' "$RES.client" | sed 's/^/  client: /'
	smc_lib_peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait --result "$RES" --kill)" \
		2>&1 | sed 's/^/  server: /'
	rm -f "$RES.client"
}

# unload_both: no socket, then both modules out within UNLOAD_MAX_S
unload_both()
{
	local h t ms rc=0

	for h in local peer; do
		t=$(smc_lib_now_ms)
		smc_lib_on "$h" "timeout $((UNLOAD_MAX_S * 2)) \
				bash $(smc_lib_q "$SMC_LIB_DIR/lib.sh") mod_unload" ||
			{ echo "FAIL smc does not unload on $h"; rc=1; }
		ms=$(($(smc_lib_now_ms) - t))
		echo "smc unloaded on $h in $ms ms"
		[ "$ms" -le $((UNLOAD_MAX_S * 1000)) ] ||
			{ echo "FAIL longer than ${UNLOAD_MAX_S}s"; rc=1; }
	done
	return "$rc"
}

# fuzz_round <fuzzer: local|peer> <seed>: CHUNK messages from the fuzzer
fuzz_round()
{
	local fuzzer=$1 seed=$2 rx sent=0 n e out try before after rc=0

	if [ "$fuzzer" = peer ]; then rx=local; else rx=peer; fi
	fresh_modules || return 1
	before=$(parsed "$rx")
	for try in 1 2 3 4 5; do
		[ "$sent" -lt "$CHUNK" ] || break
		hold_start || { hold_end; return 1; }
		out=$(smc_lib_on "$fuzzer" "echo $((CHUNK - sent)) $((seed * 8 + try)) >$FUZZ &&
			cat $FUZZ")
		hold_end
		n=$(printf '%s\n' "$out" | awk '$1 == "sent" { print $2 }')
		e=$(printf '%s\n' "$out" | awk '$1 == "sent" { print $4 }')
		sent=$((sent + ${n:-0}))
		echo "try $try, seed $((seed * 8 + try)): $out; $sent of $CHUNK"
		if [ "$sent" -lt "$CHUNK" ] || [ "${e:-0}" != 0 ]; then
			# the receiver ended the group: on both hosts, cleanly
			smc_lib_wait_until "$WAIT_S" \
				"the link groups gone on both hosts" \
				smc_lib_no_groups || rc=1
		fi
	done
	after=$(parsed "$rx")
	echo "on the receiver ($rx), LLC and CDC messages parsed: before $before, after $after"
	[ "$sent" -ge "$CHUNK" ] || { echo "FAIL only $sent sent"; rc=1; }
	# shellcheck disable=SC2086 # two numbers each
	set -- $before $after
	[ "$3" -gt "$1" ] || { echo "FAIL no LLC message handled or dropped"; rc=1; }
	[ "$4" -gt "$2" ] || { echo "FAIL no CDC message dropped"; rc=1; }
	unload_both || rc=1
	# subtests run in a subshell: the count adds up in a file
	echo $(($(cat "$RES.total") + sent)) >"$RES.total"
	return "$rc"
}

# fresh_smcr: a new connection is SMC-R (the hook checks the mode)
fresh_smcr()
{
	# shellcheck disable=SC2034 # used by name
	local args=(--family smc --size "$FRESH_SIZE" --dir both --seed 3 --timeout 120)
	local total

	fresh_modules || return 1
	total=$(cat "$RES.total")
	echo "$total messages sent in all"
	[ "$total" -ge "$TOTAL" ] || { echo "FAIL fewer than $TOTAL"; return 1; }
	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args
}

cleanup()
{
	[ -n "${hold_pid:-}" ] && kill -9 "$hold_pid" 2>/dev/null
	rm -f "$RES" "$RES.client" "$RES.total"
	smc_lib_mod local ensure ours
	smc_lib_smcr_cleanup
} >/dev/null 2>&1
trap cleanup EXIT

echo 0 >"$RES.total"
smc_lib_plan $((ROUNDS + 1))
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		smc_lib_run "round $r: $CHUNK messages from the peer to our client" \
			fuzz_round peer "$r"
	else
		smc_lib_run "round $r: $CHUNK messages to the peer's server" \
			fuzz_round local "$r"
	fi
done
smc_lib_run "a new connection is SMC-R after $TOTAL messages" fresh_smcr
smc_lib_exit
