#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many SMC-R connections at once between the two hosts, our module on
# both.  A client keeps 32 connects in progress at a time, so handshakes
# and link-group set-up overlap (all at once, the server's turn-by-turn
# CONFIRM_RKEYs for hundreds of new RMBs outlast the client's CLC wait
# under TCG); data goes both ways on every connection and
# is checked.  While all of them are up, smcss on both hosts must show
# every one in mode SMCR, and the link groups in use must hold exactly
# these connections: 100 connections share one group; 300 need more
# than one, as a group takes at most 255.  Then 100 against the
# distribution's smc.ko, in both roles.  The runs with 16 KiB RMBs move
# 256 KiB per connection, so every ring wraps many times, and register
# RMBs of a size new to the link group while the other connections'
# RDMA WRITEs are in flight.  That is where a registration meets a
# retransmit (smc-rig.rst, the rig's rxe).

. "$(dirname "$0")/lib.sh"

SMC_LIB_CONNS_TEST=$SMC_LIB_DIR/smc_conns_test
smc_lib_require_tools
[ -x "$SMC_LIB_CONNS_TEST" ] || smc_lib_bail_skip "$SMC_LIB_CONNS_TEST not built"
smc_lib_smcr_setup

SMC_HOOK_EXPECT_CLIENT="SMCR 0x00000000"
SMC_HOOK_EXPECT_SERVER="SMCR 0x00000000"
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

# run_conns <server host> <connections> <bytes> <link groups> [rcvbuf]
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; args by name
run_conns()
{
	local args=(--family smc --conns "$2" --size "$3" --seed "$2"
		    --timeout 600 --window 32 ${5:+--rcvbuf "$5"})
	local SMC_LIB_HOOK="bash $SMC_LIB_DIR/lib.sh hook_conns"
	local SMC_HOOK_LGRS=$4

	export SMC_HOOK_LGRS
	smc_lib_pair "$SMC_LIB_CONNS_TEST" "$1" args args || return 1
	conns_gone local && conns_gone peer
}

# conns_gone <local|peer>: every connection has left the host's link
# groups once both ends closed; polled, bounded (closes run in works)
# shellcheck disable=SC2317 # called from run_conns, through smc_lib_run
conns_gone()
{
	local _ use

	for _ in $(seq 100); do
		use="$(smc_lib_lgr_use "$1" CLNT) $(smc_lib_lgr_use "$1" SERV)"
		case $use in
		"0 0 0 0") return 0 ;;
		esac
		sleep 0.2
	done
	echo "FAIL $1: connections left in link groups after the run" \
		"(client groups/conns, server groups/conns): $use"
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCSS" -a -d -W)" 2>&1 |
		grep -v "^State" | head -n 10 | sed "s/^/  $1: /"
	return 1
}

# shellcheck disable=SC2317 # called through smc_lib_run
peer_to_distro()
{
	local m

	smc_lib_mod peer ensure distro && smc_lib_distro_pnet peer &&
		smc_lib_ueid_set peer || return 1
	m=$(smc_lib_mod peer which) || return 1
	echo "peer runs the $m smc module"
	[ "$m" = distro ]
}

if [ -n "${SMC_SELFTEST_QUICK:-}" ]; then
	smc_lib_plan 2
	smc_lib_run "20 connections A-client B-server, one link group" \
		run_conns peer 20 65536 1
	smc_lib_run "20 connections B-client A-server, one link group" \
		run_conns local 20 65536 1
	smc_lib_exit
fi

have_distro=0 distro_skip=0 load_ok=0
case $(smc_lib_distro_state) in
yes)	have_distro=1
	smc_lib_rxe_no_replay && load_ok=1 ;;
skip)	distro_skip=1 ;;
esac
# SMC_SELFTEST_SECONDARY=1 (6.1, the s390x peer): the second link group
# at 255 connections is the stock run's
second_lgr=1
[ -n "${SMC_SELFTEST_SECONDARY:-}" ] && second_lgr=0
smc_lib_plan $((3 + second_lgr + have_distro * (4 + load_ok) + distro_skip))
smc_lib_run "100 connections A-client B-server, one link group" \
	run_conns peer 100 65536 1
smc_lib_run "100 connections A-client B-server, 16 KiB RMBs, 256 KiB each" \
	run_conns peer 100 262144 1 16384
smc_lib_run "100 connections B-client A-server, one link group" \
	run_conns local 100 65536 1
[ "$second_lgr" = 1 ] &&
	smc_lib_run "300 connections A-client B-server, two link groups" \
		run_conns peer 300 65536 2
if [ "$have_distro" = 1 ]; then
	smc_lib_run "peer runs the distro smc with a UEID" peer_to_distro
	smc_lib_run "100 connections ours-client-A distro-server-B" \
		run_conns peer 100 65536 1
	smc_lib_run "100 connections distro-client-B ours-server-A" \
		run_conns local 100 65536 1
	if [ "$load_ok" = 1 ]; then
		name="100 connections distro-client-B ours-server-A,"
		name+=" 16 KiB RMBs, 256 KiB each"
		smc_lib_run "$name" run_conns local 100 262144 1 16384
		name="100 connections ours-client-A distro-server-B,"
		name+=" 16 KiB RMBs, 256 KiB each"
		smc_lib_run "$name" run_conns peer 100 262144 1 16384
	else
		smc_lib_skip "the distro smc with 16 KiB RMBs" "$SMC_LIB_RXE_NO_REPLAY_WHY"
	fi
fi
if [ "$distro_skip" = 1 ]; then
	smc_lib_skip "connections with the distro smc" "$SMC_LIB_DISTRO_SMCR_WHY"
fi
smc_lib_exit
