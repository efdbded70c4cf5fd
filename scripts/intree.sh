#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build this tree as a kernel subsystem: overlay net/smc/, our uapi headers
# and our drivers/s390/pci/ part onto Debian 13's linux-source-6.12 (the
# tarball scripts/setup.sh fetches), in place of upstream's SMC, and build
# it there with Kbuild and Kconfig, W=1 and sparse (C=1):
#
#   x86_64  CONFIG_SMC=m, and =y with KUnit and the test hooks built in;
#   s390    the same two configurations cross-built;
#
# each net/smc/ with W=1 C=1 in allnoconfig plus what SMC-R needs.  Then
# kunit.py, as a kernel developer runs it, builds a whole x86_64 kernel
# with SMC=y from net/smc/.kunitconfig and boots it in QEMU.
#
# Then the overlay as a git format-patch series against the base, which
# checkpatch --strict must accept.  The selftests step builds
# tools/testing/selftests/net/smc with the tree's own kselftest Makefile
# and lib.mk, and runs two of its scripts on the two-host rig with the
# tree's runner, as "make -C tools/testing/selftests TARGETS=net/smc
# run_tests" does in any kernel tree.  Each configuration keeps its build
# tree under $SMC_CACHE/intree/<key>/ (key: the tarball), so a warm run only
# rebuilds what changed: about 3 minutes, a cold one about 15.
#
#   scripts/intree.sh [build] [kunit] [series]    these by default
#   scripts/intree.sh selftests                   needs the rig
#   INTREE_ARCHES="x86_64" scripts/intree.sh build
#
# Results: out/intree/ (build logs, the series, checkpatch's verdicts).
# Exits non-zero on a failed build, a warning in our files, or a
# checkpatch finding.
set -euo pipefail

KVER=6.12 TAG=intree
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
JOBS=${JOBS:-$(nproc)}
ARCHES=${INTREE_ARCHES:-x86_64 s390}
res=$top/out/intree

smc_env
tarball=$CACHE/src/linux-source-$KVER.tar.xz
[ -f "$tarball" ] || die "no $tarball after scripts/setup.sh"
# the s390x cross compiler in the build chroot
if [[ " $ARCHES " == *" s390 "* ]]; then
	SMC_ARCH=s390x "$top/scripts/setup.sh" >/dev/null
fi

key=$(stat -c '%s %Y' "$tarball" | md5sum | cut -c1-10)
dir=$CACHE/intree/$key
tree=$dir/linux
mkdir -p "$res"

# the files of ours that land in the kernel tree, relative to its top
overlay_files() {
	git -C "$top" ls-files --cached --others --exclude-standard \
		net/smc include/uapi/linux/smc.h \
		include/uapi/linux/smc_diag.h drivers/s390/pci \
		tools/testing/selftests/net/smc
}

# the pristine base, extracted once; the overlay then follows this tree
# file by file, so that make sees only what changed since the last run.
# $dir/base keeps upstream's version of every path the series touches.
extract() {
	local f

	[ -e "$dir/.extracted" ] && return 0
	log "extracting $tarball"
	rm -rf "$dir"
	mkdir -p "$tree" "$dir/base"
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	# upstream's implementation, which the overlay replaces
	find "$tree/net/smc" -type f | sed "s|^$tree/||" | sort >"$dir/base-smc-files"
	{ cat "$dir/base-smc-files"; overlay_files; echo net/Kconfig; echo net/Makefile; } |
		sort -u | while read -r f; do
		[ -f "$tree/$f" ] || continue
		mkdir -p "$(dirname "$dir/base/$f")"
		cp "$tree/$f" "$dir/base/$f"
	done
	touch "$dir/.extracted"
}

overlay() {
	local f keep

	keep=$(overlay_files)
	# upstream's files that ours does not replace go
	while read -r f; do
		grep -qxF "$f" <<<"$keep" || rm -f "$tree/$f"
	done <"$dir/base-smc-files"
	while read -r f; do
		mkdir -p "$(dirname "$tree/$f")"
		cmp -s "$top/$f" "$tree/$f" || cp "$top/$f" "$tree/$f"
	done <<<"$keep"
}

# fragment <arch> <m|y>: the Kconfig lines on top of allnoconfig
fragment() {
	local arch=$1 mode=$2

	cat <<EOT
CONFIG_64BIT=y
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
CONFIG_NET=y
CONFIG_INET=y
CONFIG_IPV6=y
CONFIG_INET_DIAG=y
CONFIG_PCI=y
CONFIG_DEBUG_FS=y
CONFIG_INFINIBAND=y
CONFIG_SMC=$mode
CONFIG_SMC_DIAG=$mode
CONFIG_KUNIT=$mode
CONFIG_SMC_KUNIT_TEST=$mode
EOT
	[ "$mode" = y ] && echo CONFIG_SMC_TEST_HOOKS=y
	return 0
}

# build <arch> <m|y>: configure and build one configuration in the
# chroot: the subsystem's directory, whose objects and composite smc.o
# (or built-in.a) are what an in-tree build adds to our out-of-tree one
build() {
	local arch=$1 mode=$2 o=$dir/o-$1-$2 cross='' l t

	l=$res/build-$arch-$mode.log
	[ "$arch" = s390 ] && cross=s390x-linux-gnu-
	mkdir -p "$o"
	fragment "$arch" "$mode" >"$o/fragment.config"
	t=$(date +%s)
	# the inner script is single-quoted on purpose: it runs in the chroot
	# shellcheck disable=SC2016
	if ! CHROOT_BIND=$dir "$top/scripts/chroot-run.sh" /bin/sh -ec '
		tree=$1; o=$2; arch=$3; cross=$4; jobs=$5; shift 5
		cd "$tree"
		mk() { make -s O="$o" ARCH="$arch" CROSS_COMPILE="$cross" "$@"; }
		mk KCONFIG_ALLCONFIG="$o/fragment.config" allnoconfig
		bad=
		while read -r line; do
			grep -qxF "$line" "$o/.config" || bad="$bad $line"
		done <"$o/fragment.config"
		[ -z "$bad" ] || { echo "Kconfig did not take:$bad"; exit 1; }
		mk -j"$jobs" W=1 C=1 net/smc/
	' sh "$tree" "$o" "$arch" "$cross" "$JOBS" >"$l" 2>&1; then
		tail -n 30 "$l" >&2
		die "$arch CONFIG_SMC=$mode: the build failed ($l)"
	fi
	# a warning or sparse finding in our files fails the run
	if grep -E '(net/smc|drivers/s390/pci/smc_)[^ ]*:[0-9]+:[0-9]+: (warning|error)' "$l" >&2; then
		die "$arch CONFIG_SMC=$mode: warnings in our files ($l)"
	fi
	log "$arch CONFIG_SMC=$mode: net/smc/ built in $(($(date +%s) - t)) s, no warning in net/smc"
}

# kunit.py, the upstream way, with net/smc/.kunitconfig on x86_64 under
# QEMU (UML has no DMA, so no INFINIBAND, which SMC needs), in a build
# directory of its own: the whole kernel with SMC built in, linked and
# booted.  Every case of the 19 suites must pass, except those of the
# three that need a Soft-RoCE device, which must skip (the rig runs
# them).
kunit() {
	# the JSON through /src, which is this tree in the chroot
	local l=$res/kunit.log j=$res/kunit.json t

	t=$(date +%s)
	# shellcheck disable=SC2016 # runs in the chroot
	if ! CHROOT_BIND=$dir "$top/scripts/chroot-run.sh" /bin/sh -ec '
		cd "$1"
		python3 tools/testing/kunit/kunit.py run --kunitconfig=net/smc \
			--arch=x86_64 --build_dir="$2" --jobs="$3" \
			--timeout=900 --json="$4"
	' sh "$tree" "$dir/kunit-x86_64" "$JOBS" "/src${j#"$top"}" >"$l" 2>&1; then
		tail -n 40 "$l" >&2
		die "kunit.py failed ($l)"
	fi
	python3 - "$j" <<'EOT' || die "kunit.py: not every suite ran as it must ($l)"
import json, sys
rdma = {"smc_wr", "smc_lgr", "smc_data"}
doc = json.load(open(sys.argv[1]))
bad, seen, n = [], set(), {}
def cases(g):
    yield from g["test_cases"]
    for s in g["sub_groups"]:
        yield from cases(s)
for suite in doc["sub_groups"]:
    name = suite["name"]
    if not name.startswith("smc_"):
        continue
    seen.add(name)
    for c in cases(suite):
        n[c["status"]] = n.get(c["status"], 0) + 1
        if c["status"] != ("SKIP" if name in rdma else "PASS"):
            bad.append(f'{name}.{c["name"]}: {c["status"]}')
for s in sorted(rdma - seen):
    bad.append(f"{s}: did not run")
print("suites:", len(seen), "cases:", ", ".join(f"{v} {k}" for k, v in sorted(n.items())))
if len(seen) < 19 or bad:
    print("\n".join(bad) or f"only {len(seen)} suites")
    sys.exit(1)
EOT
	log "kunit.py on x86_64 QEMU: every suite passed, the RDMA ones skipped, in $(($(date +%s) - t)) s"
}

# the overlay as a patch series against the base, in a small git
# repository of the files it touches
series() {
	local g=$dir/series f n kunit_re='_kunit\.c$\|/smc_kunit[._]\|/\.kunitconfig$'
	local -a files
	local -a subj=(
		"net/smc: remove the implementation that the next patches replace"
		"uapi: smc: the SMC netlink and sock_diag ABI, unchanged in number"
		"net/smc: SMC-R, a new implementation"
		"net/smc: KUnit suites for the wire codecs, cursors, close and link groups"
		"selftests: net/smc: SMC-R between two hosts over Soft-RoCE"
	)

	rm -rf "$g" "$res/series"
	mkdir -p "$g" "$res/series"
	git -C "$g" init -q
	git -C "$g" config user.name "smc-r intree"
	git -C "$g" config user.email "smc-r@localhost"
	# the base: upstream's versions of every path a patch touches
	cp -a "$dir/base/." "$g/"
	# and the two files patch 5 edits, which the overlay never writes
	mkdir -p "$g/tools/testing/selftests"
	cp "$tree/tools/testing/selftests/Makefile" "$g/tools/testing/selftests/"
	cp "$tree/MAINTAINERS" "$g/"
	git -C "$g" add -A
	git -C "$g" commit -q -m "base: linux-source-$KVER"

	# 1: upstream's net/smc goes, and with it the build's references
	git -C "$g" rm -q -r net/smc
	sed -i '/^source "net\/smc\/Kconfig"$/d' "$g/net/Kconfig"
	# shellcheck disable=SC2016 # a make variable, not a shell one
	sed -i '/^obj-$(CONFIG_SMC)[[:space:]]*+= smc\/$/d' "$g/net/Makefile"
	git -C "$g" add -A
	commit "$g" "${subj[0]}" "The SMC-R implementation of the following patches replaces the one
in net/smc as a whole.  Remove it first, with its Kconfig and Makefile
entries, so that the tree builds at every step of the series."
	# 2: the uapi headers
	copy_ours "$g" include/uapi/linux/smc.h include/uapi/linux/smc_diag.h
	commit "$g" "${subj[1]}" "The generic netlink families SMC_PNETID and SMC_GEN_NETLINK and the
AF_SMC sock_diag messages, with every number as before, so that
existing tools work unchanged."
	# 3: the implementation, built again from net/Kconfig and
	# net/Makefile; its Kconfig and Kbuild without the KUnit suites,
	# which patch 4 adds
	mapfile -t files < <(overlay_files |
		grep -v -e "$kunit_re" -e '^include/' -e '^tools/')
	copy_ours "$g" "${files[@]}"
	awk '/^config SMC_KUNIT_TEST$/ { skip = 1 } /^config / && !/SMC_KUNIT_TEST/ { skip = 0 }
	     !skip' "$top/net/smc/Kconfig" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' \
		>"$g/net/smc/Kconfig"
	# shellcheck disable=SC2016 # make variables
	sed -e '/^obj-$(CONFIG_SMC_KUNIT_TEST)/d' -e '/^smc_kunit-y/d' \
		"$top/net/smc/Kbuild" >"$g/net/smc/Kbuild"
	cp "$dir/base/net/Kconfig" "$g/net/Kconfig"
	cp "$dir/base/net/Makefile" "$g/net/Makefile"
	git -C "$g" add -A
	commit "$g" "${subj[2]}" "Shared Memory Communications over RDMA (RFC 7609, SMC-Rv2 and v2.1):
the AF_SMC family and IPPROTO_SMC over an internal TCP socket, the CLC
rendezvous, link groups with up to two links and failover between
them, LLC and CDC, the close protocol, fallback to TCP, the netlink
and sock_diag interfaces, and PNETIDs from s390 zPCI functions.
Documentation/networking/smc-design.rst of the project maps the files."
	# 4: the KUnit suites
	mapfile -t files < <(overlay_files | grep -e "$kunit_re")
	copy_ours "$g" "${files[@]}" net/smc/Kconfig net/smc/Kbuild
	commit "$g" "${subj[3]}" "Suites of pure functions (codecs, cursors, close state, handshake
checks, buffer sizes, zPCI parsing) and suites that need a Soft-RoCE
device rxe1 (link groups, the data path), which skip without one."
	# 5: the selftests, a target of the kselftest Makefile like the other
	# net/ directories, and a path of the SMC entry in MAINTAINERS
	mapfile -t files < <(overlay_files | grep '^tools/')
	copy_ours "$g" "${files[@]}"
	sed -i '/^TARGETS += net\/rds$/a TARGETS += net/smc' \
		"$g/tools/testing/selftests/Makefile"
	sed -i '/^SHARED MEMORY COMMUNICATIONS (SMC) SOCKETS$/,/^$/ {
		/^F:\tnet\/smc\/$/a F:\ttools/testing/selftests/net/smc/
	}' "$g/MAINTAINERS"
	grep -qx 'TARGETS += net/smc' "$g/tools/testing/selftests/Makefile" ||
		die "no net/rds line in tools/testing/selftests/Makefile to add net/smc after"
	grep -q '^F:.tools/testing/selftests/net/smc/$' "$g/MAINTAINERS" ||
		die "no SMC entry with F: net/smc/ in MAINTAINERS"
	git -C "$g" add -A
	commit "$g" "${subj[4]}" "Two hosts with Soft-RoCE devices, one running the tests and the other
reached through SMC_PEER_EXEC: SMC-R against TCP and the distro module,
the CLC and LLC messages, failover between two links, faults, the
netlink and sock_diag interfaces.  Without a second host or RDMA devices
the scripts skip with the reason."

	git -C "$g" format-patch -q -o "$res/series" HEAD~5
	n=$(find "$res/series" -name '*.patch' | wc -l)
	[ "$n" = 5 ] || die "format-patch wrote $n patches, not 5"
	# the series as a whole must apply to the base and give the overlay
	git -C "$g" checkout -q HEAD~5
	git -C "$g" am -q --whitespace=error "$res/series"/*.patch ||
		die "the series does not apply to its base"
	while read -r f; do
		cmp -s "$top/$f" "$g/$f" || die "the series leaves $f unlike ours"
	done < <(overlay_files)
	local rc=0 p out ign
	for p in "$res/series"/*.patch; do
		# FILE_PATH_CHANGES asks of every new or deleted file whether
		# MAINTAINERS needs updating: its SMC entry names net/smc/
		ign=FILE_PATH_CHANGES
		# the selftests are userspace C and shell, whose argument
		# lists repeat words ("args args", "inet inet")
		[[ $p == */0005-* ]] && ign=$ign,$SMC_USER_CHECKPATCH_IGNORE,REPEATED_WORD
		out=$("$SMC_CHECKPATCH" --strict --no-tree --quiet --show-types \
			--ignore "$ign" "$p" 2>&1) || {
			printf 'checkpatch: %s\n%s\n' "${p##*/}" "$out" >&2
			rc=1
		}
	done
	[ "$rc" = 0 ] || die "checkpatch --strict found problems in the series"
	log "series: $n patches in $res/series, checkpatch --strict clean"
}

# the selftests as a kernel tree has them: built by the tree's kselftest
# Makefile and lib.mk on this host (the rig's guests run its userland),
# then run on the two-host rig by the tree's runner, with our module and
# tools from this project's out-of-tree build.  Two scripts by default:
# module_load.sh (ours against the distro module) and smcr.sh in its
# quick set (verified data and the close cases in SMC-R mode); make
# check runs them all, in full, from our tree.
INTREE_TESTS=${INTREE_TESTS:-module_load.sh smcr.sh}
selftests() {
	local l=$res/selftests-build.log r=$res/selftests.log t s n
	local ks=$tree/tools/testing/selftests

	t=$(date +%s)
	{
		make -s -C "$top" module-out rxe-out tools &&
		make -C "$ks" TARGETS=net/smc
	} >"$l" 2>&1 || { tail -n 30 "$l" >&2; die "the selftests' build failed ($l)"; }
	if grep -E '^[^ ]*\.[ch]:[0-9]+:[0-9]+: (warning|error)' "$l" >&2; then
		die "warnings in the selftests' build ($l)"
	fi
	"$top/scripts/rig/rig.sh" run --timeout 900 --out "$res/rig-selftests" -- \
		"SMC_SELFTEST_EXPECT_ALL=1 SMC_SELFTEST_QUICK=1 SMC_TOOLS=$top/tools/smc make -s -C $ks TARGETS=net/smc run_tests TEST_PROGS='$INTREE_TESTS'" \
		>"$r" 2>&1 || { tail -n 40 "$r" >&2; die "the selftests failed on the rig ($r)"; }
	for s in $INTREE_TESTS; do
		grep -q "^ok [0-9]* selftests: net/smc: $s" "$r" ||
			die "no passing $s in $r"
	done
	n=$(grep -Ec '^# ok [0-9]+ - ' "$r")
	log "selftests: make -C tools/testing/selftests TARGETS=net/smc run_tests in the tree ran $INTREE_TESTS on the rig: $n subtests passed, in $(($(date +%s) - t)) s"
}

copy_ours() {
	local g=$1 f

	shift
	for f in "$@"; do
		mkdir -p "$(dirname "$g/$f")"
		cp "$top/$f" "$g/$f"
	done
	git -C "$g" add -A
}

commit() {
	git -C "$1" commit -q -s -m "$2" -m "$3"
}

steps=${*:-build kunit series}
extract
overlay
for s in $steps; do
	case $s in
	build)
		for a in $ARCHES; do
			build "$a" m
			build "$a" y
		done
		;;
	series) series ;;
	kunit) kunit ;;
	selftests) selftests ;;
	*) die "unknown step $s (build, kunit, series, selftests)" ;;
	esac
done
