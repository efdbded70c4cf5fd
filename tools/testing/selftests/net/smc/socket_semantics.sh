#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Socket API semantics of AF_SMC sockets between two hosts, our smc.ko
# on both: every smc_sock_test case with the client here (A) and the
# server on the peer (B), a subset the other way round and over IPv6.
# While each case's first connection is up, smcss on both hosts must
# show it in fallback mode TCP after the CLC handshake (client NOSMCDEV,
# server PEERDECL: see smc_lib_expect).

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_require_mod local ours
smc_lib_require_mod peer ours

fam=$(smc_lib_fam smc)
SMC_HOOK_EXPECT_CLIENT=$(smc_lib_expect "$fam" client)
SMC_HOOK_EXPECT_SERVER=$(smc_lib_expect "$fam" server)
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

mapfile -t cases < <("$SMC_LIB_SOCK_TEST" list)
[ "${#cases[@]}" -gt 0 ] || smc_lib_bail_fail "smc_sock_test list gave no cases"
reverse=(connect linger0 oob poll rw sendfile shutdown_wr sockopt_sol splice)
ipv6=(connect connect_refused poll rw sockopt_ip)

# run_case <server host> <case> [6]
# shellcheck disable=SC2317 # called through smc_lib_run
run_case()
{
	local srv_args=(--case "$2" --family "$fam" --timeout 90)
	local cli_args=(--case "$2" --family "$fam" --timeout 90)

	if [ "${3:-}" = 6 ]; then
		srv_args+=(--ipv6)
		cli_args+=(--ipv6)
	fi
	smc_lib_pair "$SMC_LIB_SOCK_TEST" "$1" srv_args cli_args "${3:-}"
}

smc_lib_plan $((${#cases[@]} + ${#reverse[@]} + ${#ipv6[@]}))
for c in "${cases[@]}"; do
	smc_lib_run "$c A-client B-server" run_case peer "$c"
done
for c in "${reverse[@]}"; do
	smc_lib_run "$c B-client A-server" run_case local "$c"
done
for c in "${ipv6[@]}"; do
	smc_lib_run "$c ipv6 A-client B-server" run_case peer "$c" 6
done
smc_lib_exit
