#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, as run on rig host A (see scripts/demo.sh): load our smc.ko on
# both hosts, give both the same UEID so that the handshake agrees on
# SMC-Rv2 over Soft-RoCE, move 16 MiB each way between an AF_SMC server on
# B and an AF_SMC client on A, and show smcss and the link group on both
# hosts while the connection is up.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
st=$repo/tools/testing/selftests/net/smc
peer() { $SMC_PEER_EXEC "$*"; }
# expanded on each host, not here
# shellcheck disable=SC2016
load='for m in smc_diag smc; do [ -d /sys/module/$m ] && rmmod $m; done;
      insmod '"$repo"'/net/smc/smc.ko && insmod '"$repo"'/net/smc/smc_diag.ko'

echo "== loading our smc.ko on A and B"
eval "$load"
peer "$load"
echo "A: $(modinfo -F version "$repo/net/smc/smc.ko") $(cat /sys/module/smc/srcversion)"

echo "== the same UEID on A and B: SMC-Rv2 between them"
ueid="$repo/tools/smc/smcr ueid add SMC-R.DEMO"
$ueid
peer "$ueid"

echo "== B: AF_SMC server on $SMC_PEER_IP, A: AF_SMC client"
ready=$(peer "$st/smc_data_test server --family smc --size 16777216 --dir both \
	--daemon --result /tmp/demo.res \
	--hook 'echo \"-- smcss -a on B:\"; $repo/tools/smc/smcss -a; \
		$repo/tools/smc/smcr linkgroup show'")
port=${ready#READY }
"$st/smc_data_test" client --family smc --host "$SMC_PEER_IP" --port "$port" \
	--size 16777216 --dir both \
	--hook "echo '-- smcss -a on A:'; $repo/tools/smc/smcss -a; \
		$repo/tools/smc/smcr linkgroup show"
echo "== server side"
peer "$st/smc_data_test wait --result /tmp/demo.res"
echo "== SMC-R statistics on A"
"$repo/tools/smc/smcr" stats
echo "== demo done: 16 MiB each way verified, moved by RDMA WRITE into the"
echo "   peer's RMB (mode SMCR above; TCP 0x... would be a fallback)."
