#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our AF_SMC sockets against plain TCP: our client here (A) to a TCP
# server on the peer (B), and a TCP client on B to our server on A.
# Data and a few socket cases must work; our end must be in fallback
# mode TCP (PEERNOSMC), the TCP end has no SMC socket at all.

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_require_mod local ours

fam=$(smc_lib_fam smc)
if [ "$fam" = tcp ]; then
	SMC_HOOK_EXPECT=none
else
	# the TCP peer's SYN or SYN-ACK lacks the SMC option: no CLC at all
	SMC_HOOK_EXPECT="TCP $SMC_LIB_PEERNOSMC"
fi
SMC_HOOK_EXPECT_PEER=none
export SMC_HOOK_EXPECT SMC_HOOK_EXPECT_PEER

cases=(connect oob poll rw shutdown_wr)

# run_sock <server host> <case>: the A side is AF_SMC, the B side TCP
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; arrays by name
run_sock()
{
	local a=(--case "$2" --family "$fam" --timeout 90)
	local b=(--case "$2" --family tcp --timeout 90)

	if [ "$1" = peer ]; then
		smc_lib_pair "$SMC_LIB_SOCK_TEST" peer b a
	else
		smc_lib_pair "$SMC_LIB_SOCK_TEST" local a b
	fi
}

# run_data <server host> <size> <dir>
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; arrays by name
run_data()
{
	local a=(--family "$fam" --size "$2" --dir "$3" --seed 42)
	local b=(--family tcp --size "$2" --dir "$3" --seed 42)

	if [ "$1" = peer ]; then
		smc_lib_pair "$SMC_LIB_DATA_TEST" peer b a
	else
		smc_lib_pair "$SMC_LIB_DATA_TEST" local a b
	fi
}

smc_lib_plan $((2 * ${#cases[@]} + 4))
smc_lib_run "data 4 MiB both smc-client-A tcp-server-B" \
	run_data peer 4194304 both
smc_lib_run "data 1 MiB c2s smc-client-A tcp-server-B" \
	run_data peer 1048576 c2s
smc_lib_run "data 4 MiB both tcp-client-B smc-server-A" \
	run_data local 4194304 both
smc_lib_run "data 1 MiB s2c tcp-client-B smc-server-A" \
	run_data local 1048576 s2c
for c in "${cases[@]}"; do
	smc_lib_run "$c smc-client-A tcp-server-B" run_sock peer "$c"
	smc_lib_run "$c tcp-client-B smc-server-A" run_sock local "$c"
done
smc_lib_exit
