#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Data integrity over AF_SMC connections, our smc.ko on both hosts:
# reproducible pseudo-random data of 1 B .. 16 MiB client->server,
# server->client and both ways at once, checked on the fly; once over
# IPv6 and once with the server here.  While it is up the connection
# must be in fallback mode TCP after the CLC handshake on both ends
# (client NOSMCDEV, server PEERDECL: see smc_lib_expect).

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_require_mod local ours
smc_lib_require_mod peer ours

fam=$(smc_lib_fam smc)
SMC_HOOK_EXPECT_CLIENT=$(smc_lib_expect "$fam" client)
SMC_HOOK_EXPECT_SERVER=$(smc_lib_expect "$fam" server)
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

sizes=(1 1000 65536 1048576 16777216)
dirs=(c2s s2c both)
seed=0

# run_data <server host> <size> <dir> [6]
# shellcheck disable=SC2317 # called through smc_lib_run
run_data()
{
	local args=(--family "$fam" --size "$2" --dir "$3" --seed "$seed"
		    --timeout 240)

	[ "${4:-}" = 6 ] && args+=(--ipv6)
	smc_lib_pair "$SMC_LIB_DATA_TEST" "$1" args args "${4:-}"
}

smc_lib_plan $((${#sizes[@]} * ${#dirs[@]} + 2))
for s in "${sizes[@]}"; do
	for d in "${dirs[@]}"; do
		seed=$((seed + 1))
		smc_lib_run "data $s bytes $d" run_data peer "$s" "$d"
	done
done
seed=$((seed + 1))
smc_lib_run "data 16777216 bytes both ipv6" run_data peer 16777216 both 6
seed=$((seed + 1))
smc_lib_run "data 1048576 bytes both server-A" run_data local 1048576 both
smc_lib_exit
