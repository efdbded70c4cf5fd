#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Interoperability with the distribution's smc.ko: the peer (B) runs the
# distro module, this host (A) ours.  Our client against a distro AF_SMC
# server and a distro AF_SMC client against our server must exchange
# data, and smcss on each host (talking to whichever smc_diag is loaded
# there) must show both ends in fallback mode TCP after a CLC Decline on
# the wire: NOSMCDEV on the client, which has no RoCE port to offer (the
# distro module: no UEID configured; ours: no link layer yet), and
# PEERDECL on the server, which fell back on that Decline.
# Our module is put back on the peer at the end.

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
fi
if smc_lib_single_host; then
	smc_lib_bail_skip "needs a peer host (SMC_PEER_EXEC unset)"
fi
if ! smc_lib_peer "modinfo -F filename smc" >/dev/null 2>&1; then
	smc_lib_bail_skip "the peer has no distribution smc module"
fi
smc_lib_require_mod local ours
trap 'smc_lib_mod peer ensure ours >/dev/null 2>&1' EXIT
smc_lib_require_mod peer distro

SMC_HOOK_EXPECT_CLIENT="TCP $SMC_LIB_NOSMCDEV"
SMC_HOOK_EXPECT_SERVER="TCP $SMC_LIB_PEERDECL"
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

# shellcheck disable=SC2317 # called through smc_lib_run
check_peer_is_distro()
{
	local m

	m=$(smc_lib_mod peer which) || return 1
	echo "peer runs the $m smc module"
	[ "$m" = distro ]
}

# run_data <server host> <size> <dir> [6]
# shellcheck disable=SC2317 # called through smc_lib_run
run_data()
{
	local args=(--family smc --size "$2" --dir "$3" --seed 77 --timeout 120)

	[ "${4:-}" = 6 ] && args+=(--ipv6)
	smc_lib_pair "$SMC_LIB_DATA_TEST" "$1" args args "${4:-}"
}

# run_sock <server host> <case>
# shellcheck disable=SC2317 # called through smc_lib_run
run_sock()
{
	local args=(--case "$2" --family smc --timeout 90)

	smc_lib_pair "$SMC_LIB_SOCK_TEST" "$1" args args
}

# Cases run in both roles.  "connect" also checks local API details of the
# client socket (connect() on a listener must give EISCONN as TCP does);
# the distro module answers EINVAL there, so that case only runs with our
# module as the client: the distro is the wire peer here, not the subject.
cases=(rw shutdown_wr oob linger0)
ours_client_only=(connect)

smc_lib_plan $((6 + 2 * ${#cases[@]} + ${#ours_client_only[@]}))
smc_lib_run "peer runs the distro smc" check_peer_is_distro
smc_lib_run "data 4 MiB both ours-client-A distro-server-B" \
	run_data peer 4194304 both
smc_lib_run "data 1 MiB c2s ours-client-A distro-server-B" \
	run_data peer 1048576 c2s
smc_lib_run "data 4 MiB both distro-client-B ours-server-A" \
	run_data local 4194304 both
smc_lib_run "data 1 MiB s2c distro-client-B ours-server-A" \
	run_data local 1048576 s2c
smc_lib_run "data 1 MiB both ipv6 ours-client-A distro-server-B" \
	run_data peer 1048576 both 6
for c in "${cases[@]}"; do
	smc_lib_run "$c ours-client-A distro-server-B" run_sock peer "$c"
	smc_lib_run "$c distro-client-B ours-server-A" run_sock local "$c"
done
for c in "${ours_client_only[@]}"; do
	smc_lib_run "$c ours-client-A distro-server-B" run_sock peer "$c"
done
smc_lib_exit
