#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner.sh <collection> <test>... - run tests of the current directory
# and report them as KTAP, one result line per test; the tests' own
# output goes out as "# " diagnostics.  The time limit of each test is
# "timeout=<s>" from ./settings (default 45, 0 = none).  Exit status 4
# of a test means skipped, which counts as a failure when
# SMC_SELFTEST_EXPECT_ALL=1.  Exits 1 if any test failed.
#
# KSFT_KMEMLEAK_SCAN=1 (the rig sets it on its debug kernel): scan
# kmemleak after each test; new unreferenced objects fail that test.
# kmemleak reports only objects older than 5 s, so a leak from the last
# seconds of one test may surface after the next; after the last test
# the runner waits out that age once and scans again.

collection=$1
shift

timeout=45
if [ -f settings ]; then
	t=$(sed -n 's/^timeout=\([0-9]*\)$/\1/p' settings)
	[ -n "$t" ] && timeout=$t
fi
# as upstream's run_kselftest.sh --override-timeout: long runs (make soak)
[ -n "${kselftest_override_timeout:-}" ] && timeout=$kselftest_override_timeout

kmemleak=/sys/kernel/debug/kmemleak
kmemleak_new() {	# print what a fresh scan finds ("# " lines), then forget it
	[ "${KSFT_KMEMLEAK_SCAN:-0}" = 1 ] || return 0
	echo scan >"$kmemleak" || return 0
	sed -e 's/^/# /' "$kmemleak"
	echo clear >"$kmemleak"
}
# leaks from before the first test (boot) are not the tests' fault
kmemleak_new >/dev/null

echo "TAP version 13"
echo "1..$#"
n=0
failed=0
for test in "$@"; do
	n=$((n + 1))
	name="selftests: $collection: $test"
	echo "# $name"
	if [ -x "$test" ]; then
		cmd=("./$test")
	else
		cmd=(bash "./$test")
	fi
	t0=$(date +%s%3N)
	if [ "$timeout" -gt 0 ]; then
		timeout --foreground -k 10 "$timeout" "${cmd[@]}" 2>&1 |
			sed -e 's/^/# /'
	else
		"${cmd[@]}" 2>&1 | sed -e 's/^/# /'
	fi
	rc=${PIPESTATUS[0]}
	ms=$(($(date +%s%3N) - t0))
	leaks=$(kmemleak_new)
	if [ -n "$leaks" ]; then
		echo "# kmemleak: unreferenced objects after $test:"
		echo "$leaks"
		echo "not ok $n $name # kmemleak time=${ms}ms"
		failed=$((failed + 1))
	elif [ "$rc" -eq 0 ]; then
		echo "ok $n $name # time=${ms}ms"
	elif [ "$rc" -eq 4 ] && [ "${SMC_SELFTEST_EXPECT_ALL:-0}" != 1 ]; then
		echo "ok $n $name # SKIP"
	elif [ "$rc" -eq 124 ] && [ "$timeout" -gt 0 ]; then
		echo "# TIMEOUT $timeout seconds"
		echo "not ok $n $name # TIMEOUT $timeout seconds time=${ms}ms"
		failed=$((failed + 1))
	else
		echo "not ok $n $name # exit=$rc time=${ms}ms"
		failed=$((failed + 1))
	fi
done
if [ "${KSFT_KMEMLEAK_SCAN:-0}" = 1 ]; then
	# not synchronisation: kmemleak's minimum object age (5 s)
	sleep 6
	leaks=$(kmemleak_new)
	if [ -n "$leaks" ]; then
		echo "# kmemleak: unreferenced objects after the last test ($test):"
		echo "$leaks"
		failed=$((failed + 1))
	fi
fi
[ "$failed" -eq 0 ]
