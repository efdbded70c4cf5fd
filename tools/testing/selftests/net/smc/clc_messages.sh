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

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
fi
smc_lib_require_mod local ours
tools=$SMC_LIB_REPO/tools/smc
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

cases=(bad-eyecatcher accept-not-proposal version-0 length-below-header
       proposal-length-plus-1 eid-count-9 decline-length-30 truncated
       decline-from-client v2-foreign-ueid v2-no-ueid v1-other-subnet
       v1-same-subnet)

smc_lib_plan $((${#cases[@]} + 1))
for c in "${cases[@]}"; do
	smc_lib_run "clc: $c" peer "$c"
done
# with a UEID in common, SMC-Rv2 gets as far as the device search
"$tools/smcr" ueid add SMC-SELFTEST-UEID >/dev/null ||
	smc_lib_bail_fail "cannot add a UEID"
smc_lib_run "clc: v2-common-ueid" peer v2-common-ueid
"$tools/smcr" ueid flush >/dev/null
smc_lib_exit
