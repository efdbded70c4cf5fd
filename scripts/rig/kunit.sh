#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run our KUnit suites on a rig host with the debug kernel, e.g.
#
#   scripts/rig/rig.sh run --kernel debug --hosts 1 -- scripts/rig/kunit.sh
#
# Loads our smc.ko and then smc_kunit.ko from $SMC_LIB_OURS (KUnit runs
# the suites while the module loads), prints each smc_* suite's results
# from /sys/kernel/debug/kunit/<suite>/results as one KTAP document and
# fails if a case failed, a suite did not finish, or none ran.
set -uo pipefail

ours=${SMC_LIB_OURS:-net/smc}
kunit=/sys/kernel/debug/kunit

fail() { echo "Bail out! $*"; exit 1; }

[ -d "$kunit" ] || fail "no $kunit: not a KUnit kernel with KUNIT_DEBUGFS"
[ -f "$ours/smc_kunit.ko" ] || fail "no $ours/smc_kunit.ko (make module-debug)"
lsmod | grep -q '^smc ' && { rmmod smc_diag 2>/dev/null; rmmod smc || exit 1; }
insmod "$ours/smc.ko" || fail "insmod $ours/smc.ko"
insmod "$ours/smc_kunit.ko" || fail "insmod $ours/smc_kunit.ko"

suites=()
for d in "$kunit"/smc_*; do
	[ -f "$d/results" ] && suites+=("${d##*/}")
done
[ ${#suites[@]} -gt 0 ] || fail "no smc_* suites in $kunit"

echo "KTAP version 1"
echo "1..${#suites[@]}"
n=0 failed=0
for s in "${suites[@]}"; do
	n=$((n + 1))
	# the suite's own document, its cases as subtests
	res=$(cat "$kunit/$s/results")
	sed -n -e '/^KTAP version/d' -e '/^1\.\.[0-9]*$/d' \
		-e '/^\(not \)\{0,1\}ok [0-9]* /!p' <<<"$res"
	if grep -q 'not ok' <<<"$res" ||
	   ! grep -Eq "^ok [0-9]+ $s\$" <<<"$res"; then
		echo "not ok $n $s"
		failed=$((failed + 1))
	else
		echo "ok $n $s"
	fi
done
rmmod smc_kunit && rmmod smc || failed=$((failed + 1))
echo "# kunit: $((n - failed)) suites passed, $failed failed"
[ "$failed" = 0 ]
