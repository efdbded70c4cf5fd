#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, as run on rig host A (see scripts/demo.sh): load our smc.ko on
# both hosts, move 16 MiB each way between an AF_SMC server on B and an
# AF_SMC client on A, and show smcss on both hosts while the connection
# is up.
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

echo "== B: AF_SMC server on $SMC_PEER_IP, A: AF_SMC client"
ready=$(peer "$st/smc_data_test server --family smc --size 16777216 --dir both \
	--daemon --result /tmp/demo.res \
	--hook 'echo \"-- smcss -a on B:\"; $repo/tools/smc/smcss -a'")
port=${ready#READY }
"$st/smc_data_test" client --family smc --host "$SMC_PEER_IP" --port "$port" \
	--size 16777216 --dir both \
	--hook "echo '-- smcss -a on A:'; $repo/tools/smc/smcss -a"
echo "== server side"
peer "$st/smc_data_test wait --result /tmp/demo.res"
echo "== demo done: 16 MiB each way verified.  The connection ran in TCP"
echo "   fallback mode (TCP 0x03010000 = peer did not signal SMC) because this"
echo "   layer of the module does not negotiate SMC-R yet."
