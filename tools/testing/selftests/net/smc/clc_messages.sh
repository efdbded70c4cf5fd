#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The server side of the CLC handshake against a peer that sends unusual
# or malformed first messages (smc_clc_peer.py, through the module's
# inject_clc test hook), over loopback with our smc.ko:
#  - malformed messages (bad eyecatcher, unexpected type, version 0,
#    bad lengths, too many UEIDs, truncated) reset the connection, are
#    never accepted and count as server handshake errors;
#  - a Decline instead of a Proposal makes the server fall back with
#    PEERDECL and the peer's diagnosis;
#  - well-formed proposals get the Decline an upstream server without a
#    usable RoCE device sends, byte for byte: NOSMCDEV, NOSMCRDEV (common
#    UEID), NOUEID, DIFFPREFIX, in the proposal's CLC version.
# Then the same messages go to the distro smc.ko on the peer, the
# reference: it must answer as we expect of ours (it closes instead of
# resetting after a bad message it read completely, and with RoCE ports
# and the UEID in common it answers SMC-Rv2 with an Accept), which shows
# that ours answers as upstream does.  SMC_SELFTEST_QUICK=1 (the slow
# debug kernel, which checks our parser for memory errors) leaves the
# reference out: the stock kernel's run holds ours to it.

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
fi
smc_lib_require_mod local ours
tools=$SMC_LIB_TOOLS
if [ ! -x "$tools/smc_run" ] || [ ! -x "$tools/smcr" ]; then
	smc_lib_bail_fail "smc_run or smcr not built in $tools"
fi
[ -w /sys/kernel/debug/smc/inject_clc ] ||
	smc_lib_bail_fail "no /sys/kernel/debug/smc/inject_clc"

# shellcheck disable=SC2317 # called through smc_lib_run
peer()	# peer <case>
{
	"$tools/smc_run" python3 "$SMC_LIB_DIR/smc_clc_peer.py" \
		"$SMC_LIB_SMCSS" "$tools/smcr" "$1"
}

# shellcheck disable=SC2317 # called through smc_lib_run
remote()	# remote <case> <port>: play <case> against the peer's listener
{
	local d=/tmp/smc_clc_peer.$$.$1 out rc got want e0 e1

	e0=$(smc_lib_server_hs_errors peer)
	out=$(smc_lib_peer "rm -rf $d && mkdir $d && $(smc_lib_q \
		"$tools/smc_run" python3 "$SMC_LIB_DIR/smc_clc_peer.py" serve \
		"$SMC_LIB_SMCSS" "$2" "$d")" 2>&1)
	if [ "$out" != READY ]; then
		echo "FAIL the listener on the peer did not start: $out"
		return 1
	fi
	out=$("$tools/smc_run" python3 "$SMC_LIB_DIR/smc_clc_peer.py" client \
		"$1" "$(smc_lib_ip peer)" "$2" 2>&1)
	rc=$?
	echo "$out"
	# the listener answers once told to stop; FIFOs, no polling
	got=$(smc_lib_peer "echo stop >$d/ctl && timeout 30 cat $d/res; rm -rf $d")
	want=$(sed -n 's/^server: //p' <<<"$out")
	e1=$(smc_lib_server_hs_errors peer)
	echo "peer server: $got (want $want), handshake errors $e0 -> $e1"
	[ "$rc" = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] || return 1
	# a connection that never reached accept() failed its handshake
	if [ "$want" = none ] && [ "$e1" -le "$e0" ]; then
		echo "FAIL the peer did not count a server handshake error"
		return 1
	fi
}

cases=(bad-eyecatcher accept-not-proposal version-0 length-below-header
       proposal-length-plus-1 eid-count-9 decline-length-30 truncated
       decline-from-client v2-foreign-ueid v2-no-ueid v1-other-subnet
       v1-same-subnet)

remote_cases=("${cases[@]}" v2-common-ueid)
[ -n "${SMC_SELFTEST_QUICK:-}" ] && remote_cases=()
if smc_lib_single_host ||
   ! smc_lib_peer "modinfo -F filename smc" >/dev/null 2>&1; then
	smc_lib_bail_fail "needs a peer host with the distribution smc module"
fi

smc_lib_plan $((${#cases[@]} + 1 + ${#remote_cases[@]}))
for c in "${cases[@]}"; do
	smc_lib_run "clc: $c" peer "$c"
done
# with a UEID in common, SMC-Rv2 gets as far as the device search
"$tools/smcr" ueid add SMC-SELFTEST-UEID >/dev/null ||
	smc_lib_bail_fail "cannot add a UEID"
smc_lib_run "clc: v2-common-ueid" peer v2-common-ueid
"$tools/smcr" ueid flush >/dev/null

# the reference: the distro smc.ko on the peer, with the UEID in common
[ "${#remote_cases[@]}" -gt 0 ] || smc_lib_exit
trap 'smc_lib_mod peer ensure ours >/dev/null 2>&1' EXIT
smc_lib_require_mod peer distro
smc_lib_peer "$(smc_lib_q "$tools/smcr" ueid add SMC-SELFTEST-UEID)" \
	>/dev/null || smc_lib_bail_fail "cannot add a UEID on the peer"
port=7890
for c in "${remote_cases[@]}"; do
	port=$((port + 1))
	smc_lib_run "clc: $c against the distro smc.ko" remote "$c" "$port"
done
smc_lib_peer "$(smc_lib_q "$tools/smcr" ueid flush)" >/dev/null
smc_lib_exit
