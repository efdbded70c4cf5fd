#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The one test of make check's kmemleak proof, run by the kselftest
# runner with KSFT_KMEMLEAK_SCAN=1 on the debug kernel: it leaks an
# object from smc.ko (smc/inject_leak) and passes by itself, so only the
# runner's kmemleak scan after it can fail it.
#
# kmemleak reports an object only once it is 5 s old (MSECS_MIN_AGE, not
# tunable), so the test scans until the report shows the leak, within a
# deadline; then the runner's own scan sees it too.
set -uo pipefail

kmemleak=/sys/kernel/debug/kmemleak
hook=/sys/kernel/debug/smc/inject_leak
deadline=120

[ -w "$kmemleak" ] || { echo "no $kmemleak: kernel without kmemleak"; exit 1; }
[ -w "$hook" ] || { echo "no $hook: smc.ko not loaded or built without kmemleak"; exit 1; }

# written by a child process, which exits: no stale copy of the pointer
# stays on this shell's kernel stack, where kmemleak would find it
sh -c "echo 1 >$hook" || exit 1

while [ "$SECONDS" -lt "$deadline" ]; do
	echo scan >"$kmemleak" || exit 1
	if grep -Eq 'smc_inject_leak|smc inject_leak' "$kmemleak"; then
		echo "kmemleak reports the leak after ${SECONDS}s"
		exit 0
	fi
done
echo "kmemleak did not report smc_inject_leak within ${deadline}s"
exit 1
