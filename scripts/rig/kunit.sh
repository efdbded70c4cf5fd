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
# fails if a case failed, a suite did not finish, none ran, or kmemleak
# finds unreferenced objects afterwards.
set -uo pipefail

ours=${SMC_LIB_OURS:-net/smc}
kunit=/sys/kernel/debug/kunit

fail() { echo "Bail out! $*"; exit 1; }

[ -d "$kunit" ] || fail "no $kunit: not a KUnit kernel with KUNIT_DEBUGFS"
[ -f "$ours/smc_kunit.ko" ] || fail "no $ours/smc_kunit.ko (make module-debug)"
lsmod | grep -q '^smc ' && { rmmod smc_diag 2>/dev/null; rmmod smc || exit 1; }

# The smc_wr suite runs on the Soft-RoCE device rxe1 with a RoCEv2 GID
# on an IPv4 address.  guest-init.sh makes it on net1 of a two-host rig;
# a one-host rig has no NICs, so give rxe1 a veth end of its own.  The
# smc_lgr suite's second links want another device, rxe2, on a veth in
# the same subnet (SMC-Rv2's rule for an alternate path).
veth_rxe() {	# veth_rxe <n> <address/prefix>
	[ -e "/sys/class/infiniband/rxe$1" ] && return
	ip link add "net$1" type veth peer name "net$1p" ||
		fail "no veth for rxe$1"
	ip addr add "$2" dev "net$1"
	ip link set "net$1p" up
	ip link set "net$1" up
	rdma link add "rxe$1" type rxe netdev "net$1" ||
		fail "rdma link add rxe$1"
}
veth_rxe 1 10.9.1.1/24
veth_rxe 2 10.9.1.2/24
# the GID tables fill in asynchronously after the devices appear
for d in rxe1 rxe2; do
	gids=/sys/class/infiniband/$d/ports/1/gids
	for _ in $(seq 100); do
		grep -qs '^0000:0000:0000:0000:0000:ffff:' "$gids"/* && break
		sleep 0.1
	done
	grep -qs '^0000:0000:0000:0000:0000:ffff:' "$gids"/* ||
		fail "$d has no IPv4 RoCEv2 GID"
done
# kmemleak: forget what boot left, so that a leak found later is ours
kmemleak=/sys/kernel/debug/kmemleak
if [ -w "$kmemleak" ]; then
	echo scan >"$kmemleak"
	echo clear >"$kmemleak"
fi
insmod "$ours/smc.ko" || fail "insmod $ours/smc.ko"
insmod "$ours/smc_kunit.ko" need_rdma=1 || fail "insmod $ours/smc_kunit.ko"

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
if [ -w "$kmemleak" ]; then
	# kmemleak reports objects only once they are 5 s old, and the RDMA
	# core frees QP memory that still points at our buffers late: the
	# first scan may find nothing yet, so wait out the age twice
	leaks=
	for _ in 1 2; do
		sleep 6
		echo scan >"$kmemleak"
		leaks=$(cat "$kmemleak")
		[ -n "$leaks" ] && break
	done
	if [ -n "$leaks" ]; then
		echo "# kmemleak: unreferenced objects after the suites:"
		awk '{ print "# " $0 }' <<<"$leaks"
		failed=$((failed + 1))
	fi
fi
echo "# kunit: $((n - failed)) suites passed, $failed failed"
[ "$failed" = 0 ]
