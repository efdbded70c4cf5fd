#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module as the packages install it: scripts/deb.sh has DKMS build
# smc-r-dkms into updates/dkms of a Debian 13 root and the rig loads that
# build as ours (SMC_RIG_OURS).  It must carry no test hook, and move
# verified data between two hosts in SMC-R mode on both ends, in both
# roles.  Not in run_tests: the rig's test build has the hooks.

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
smc_lib_smcr_setup

SMC_HOOK_EXPECT_CLIENT="SMCR 0x00000000"
SMC_HOOK_EXPECT_SERVER="SMCR 0x00000000"
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

# no_hooks: debugfs shows the module's files, and none of a test build
# shellcheck disable=SC2317 # called through smc_lib_run
no_hooks()
{
	local h d=/sys/kernel/debug/smc

	for h in local peer; do
		smc_lib_on "$h" "[ -e $d/failover ]" ||
			{ echo "FAIL no $d/failover on $h"; return 1; }
		smc_lib_on "$h" "[ ! -e $d/inject_warn ] && [ ! -e $d/inject_clc ]" ||
			{ echo "FAIL the module on $h has test hooks"; return 1; }
	done
}

# run_data <server host> <size> <dir>
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
run_data()
{
	local args=(--family smc --size "$2" --dir "$3" --seed 17
		    --timeout 240)

	smc_lib_pair "$SMC_LIB_DATA_TEST" "$1" args args
}

smc_lib_plan 3
smc_lib_run "the installed module, no test hook on either host" no_hooks
smc_lib_run "data 1 MiB both A-client B-server, SMC-R" run_data peer 1048576 both
smc_lib_run "data 4 MiB both B-client A-server, SMC-R" run_data local 4194304 both
smc_lib_exit
