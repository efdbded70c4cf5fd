#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Long SMC-R runs between our modules, too long for make check (make
# soak runs them): what only shows after many laps of the RMB rings.
#  - An urgent byte, then a verified stream past 2^16 laps of a 16 KiB
#    RMB (1.1 GB, about 6 minutes on the rig).  An urgent mark that
#    stays behind once passed looks ahead again after 2^15 laps (the
#    16-bit wrap counter compares in serial-number arithmetic): reads
#    stop at it, and at 2^16 laps one byte of the stream is skipped as
#    if urgent.  smcr.sh runs the same with 1 MiB.
#  - 64 MiB both ways at once with the default RMBs (smcr.sh stops at
#    16 MiB).

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_smcr_setup

SMC_HOOK_EXPECT_CLIENT="SMCR 0x00000000"
SMC_HOOK_EXPECT_SERVER="SMCR 0x00000000"
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

URG_SIZE=${SMC_SOAK_URG_SIZE:-1100000000}

# urgent_stream <size>: client here, server on the peer, 16 KiB RMBs
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
urgent_stream()
{
	local args=(--family smc --size "$1" --dir c2s --seed 17 --oob
		    --rcvbuf 16384 --timeout 1800)
	local SMC_HOOK_RMBE=16384

	export SMC_HOOK_RMBE
	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args
}

# both_ways <size>: client here, server on the peer, default RMBs
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
both_ways()
{
	local args=(--family smc --size "$1" --dir both --seed 18
		    --timeout 600)

	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args
}

trap smc_lib_smcr_cleanup EXIT
smc_lib_plan 2
smc_lib_run "data 64 MiB both ways, default RMBs" both_ways 67108864
smc_lib_run "urgent byte, then $URG_SIZE bytes past 2^16 laps of a 16 KiB RMB" \
	urgent_stream "$URG_SIZE"
smc_lib_exit
