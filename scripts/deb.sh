#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages for production hosts (Debian 13), built in the trixie
# build chroot with dpkg-deb and checked with lintian:
#
#   smc-r-dkms_<v>_all.deb     the module sources and dkms.conf under
#                              /usr/src/smc-r-<v>; DKMS builds smc.ko and
#                              smc_diag.ko for every installed kernel with
#                              headers, into updates/dkms, ahead of the
#                              distro's kernel/net/smc
#   smc-r-tools_<v>_amd64.deb  smcss, smcr, smc_pnet, smc_run and
#                              libsmc-preload.so, man pages, bash
#                              completion; it conflicts with and replaces
#                              upstream's smc-tools, which installs the
#                              same command names
#
#   scripts/deb.sh [build] [test]     both by default
#   scripts/deb.sh install | rig      one half of the test
#
# "test" installs both into a throwaway copy-on-write view of the build
# chroot (a Debian 13 root with the 6.12 headers and the distro's smc
# module), where DKMS must build and install the module; it then boots
# two rig hosts with that module and runs the SMC-R data test on them
# (tools/testing/selftests/net/smc/installed.sh); and removing the
# packages must bring back the distro module.  Results in out/deb/.
set -euo pipefail

KVER=6.12 TAG=deb
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
res=$top/out/deb

smc_env
chroot=$SMC_CHROOT
# dpkg-dev (dpkg-shlibdeps), lintian and dkms in the build chroot
chroot_apt "$chroot" "dpkg-dev lintian dkms" .deb-tools

# the version: the last commit's date and hash, so that each commit's
# packages upgrade the one before
ver=0.1+git$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d).$(git -C "$top" log -1 --format=%h)
date_rfc=$(git -C "$top" log -1 --format=%cd --date=rfc)
maint="SMC-R project <smc-r@lists.invalid>"
dkms_deb=smc-r-dkms_${ver}_all.deb
tools_deb=smc-r-tools_${ver}_amd64.deb

# doc <stage> <package>: copyright and changelog, as Debian wants them
doc() {
	local d=$1/usr/share/doc/$2

	mkdir -p "$d"
	cat >"$d/copyright" <<EOT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: smc-r
Source: https://github.com/smc-r/smc-r

Files: *
Copyright: 2026 the SMC-R project
License: GPL-2
 This program is free software; you can redistribute it and/or modify it
 under the terms of the GNU General Public License version 2 as published
 by the Free Software Foundation.
 .
 On Debian systems, the full text of the GNU General Public License
 version 2 can be found in the file '/usr/share/common-licenses/GPL-2'.
EOT
	cat >"$d/changelog" <<EOT
$2 ($ver) unstable; urgency=medium

  * Built from commit $(git -C "$top" log -1 --format=%h).

 -- $maint  $date_rfc
EOT
	gzip -9n "$d/changelog"
}

# control <stage> <package> <arch> <depends> <extra fields> <description>
control() {
	local s=$1 size

	mkdir -p "$s/DEBIAN"
	(cd "$s" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
		sort -z | xargs -0 md5sum) >"$s/DEBIAN/md5sums"
	size=$(du -sk --exclude=DEBIAN "$s" | cut -f1)
	{
		echo "Package: $2"
		echo "Version: $ver"
		echo "Architecture: $3"
		echo "Maintainer: $maint"
		echo "Installed-Size: $size"
		echo "Depends: $4"
		[ -z "$5" ] || printf '%s\n' "$5"
		echo "Section: kernel"
		echo "Priority: optional"
		echo "Homepage: https://github.com/smc-r/smc-r"
		printf 'Description: %s\n' "$6"
	} >"$s/DEBIAN/control"
}

build_dkms() {
	local s=$res/stage/dkms src f

	src=$s/usr/src/smc-r-$ver
	rm -rf "$s"
	mkdir -p "$src"
	# the module's sources at their paths in the tree (Kbuild reaches
	# drivers/s390/pci from net/smc), KUnit suites and test hooks
	# included: neither is built without its CONFIG_ option
	while read -r f; do
		install -D -m 0644 "$top/$f" "$src/$f"
	done < <(git -C "$top" ls-files net/smc drivers/s390/pci)
	cat >"$src/dkms.conf" <<EOT
PACKAGE_NAME="smc-r"
PACKAGE_VERSION="$ver"
BUILT_MODULE_NAME[0]="smc"
BUILT_MODULE_LOCATION[0]="net/smc/"
DEST_MODULE_LOCATION[0]="/updates/dkms"
BUILT_MODULE_NAME[1]="smc_diag"
BUILT_MODULE_LOCATION[1]="net/smc/"
DEST_MODULE_LOCATION[1]="/updates/dkms"
MAKE[0]="make -C \${kernel_source_dir} M=\${dkms_tree}/\${PACKAGE_NAME}/\${PACKAGE_VERSION}/build/net/smc modules"
CLEAN="make -C \${kernel_source_dir} M=\${dkms_tree}/\${PACKAGE_NAME}/\${PACKAGE_VERSION}/build/net/smc clean"
AUTOINSTALL="yes"
EOT
	doc "$s" smc-r-dkms
	control "$s" smc-r-dkms all "dkms (>= 3)" "" \
"SMC-R kernel module (DKMS): Shared Memory Communications over RDMA
 An AF_SMC socket family and IPPROTO_SMC: TCP applications, unchanged,
 move their data by RDMA over RoCE when both hosts support SMC-R, and
 stay on TCP otherwise.  Wire-compatible with the Linux kernel's own smc
 module, which this one replaces: DKMS builds it for each installed
 kernel into updates/dkms, where modprobe finds it first.  Removing the
 package brings the kernel's module back."
	# the maintainer scripts dh_dkms would write: DKMS's common ones
	cat >"$s/DEBIAN/postinst" <<EOT
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
	/usr/lib/dkms/common.postinst smc-r $ver "" "" "\$2"
fi
EOT
	cat >"$s/DEBIAN/prerm" <<EOT
#!/bin/sh
set -e
case "\$1" in
remove|upgrade|deconfigure)
	if [ "\$(dkms status -m smc-r -v $ver)" ]; then
		dkms remove -m smc-r -v $ver --all
	fi
	;;
esac
EOT
	chmod 0755 "$s/DEBIAN/postinst" "$s/DEBIAN/prerm"
}

build_tools() {
	local s=$res/stage/tools lib=/usr/lib/x86_64-linux-gnu/smc-r

	rm -rf "$s"
	mkdir -p "$s"
	# built in the chroot against Debian 13's glibc, with its hardening
	# flags, into a copy so that the tree's own tools stay as they are
	rm -rf "$res/tools-src"
	mkdir -p "$res/tools-src"
	git -C "$top" ls-files tools/smc include/uapi/linux |
		while read -r f; do install -D -m 0644 "$top/$f" "$res/tools-src/$f"; done
	chmod 0755 "$res/tools-src/tools/smc/smc_run"
	# shellcheck disable=SC2016 # runs in the chroot
	CHROOT_BIND=$res "$top/scripts/chroot-run.sh" /bin/sh -ec '
		cd "$1/tools-src/tools/smc"
		eval "$(dpkg-buildflags --export=sh)"
		make -s CC=gcc VERSION="$2" CFLAGS="$CFLAGS" CPPFLAGS="$CPPFLAGS" \
			LDFLAGS="$LDFLAGS"
		make -s CC=gcc install DESTDIR="$3" PREFIX=/usr LIBDIR="$4"
		strip --remove-section=.comment --remove-section=.note \
			"$3"/usr/sbin/smcss "$3"/usr/sbin/smcr "$3"/usr/sbin/smc_pnet
		strip --strip-unneeded --remove-section=.comment \
			--remove-section=.note "$3$4/libsmc-preload.so"
		gzip -9n "$3"/usr/share/man/man8/*.8
		# dpkg-shlibdeps reads a source package'"'"'s debian/control
		mkdir -p "$1/shlibs/debian"
		printf "Source: smc-r\n\nPackage: smc-r-tools\nArchitecture: amd64\n" \
			>"$1/shlibs/debian/control"
		cd "$1/shlibs"
		dpkg-shlibdeps -O -e "$3/usr/sbin/smcss" -e "$3/usr/sbin/smcr" \
			-e "$3/usr/sbin/smc_pnet" -e "$3$4/libsmc-preload.so" 2>/dev/null |
			sed -n "s/^shlibs:Depends=//p" >"$1/tools.depends"
		grep -q libc6 "$1/tools.depends"
	' sh "$res" "$ver" "$s" "$lib"
	doc "$s" smc-r-tools
	control "$s" smc-r-tools amd64 "$(cat "$res/tools.depends")" \
"Conflicts: smc-tools
Replaces: smc-tools
Recommends: smc-r-dkms" \
"SMC-R administration tools: smcss, smcr, smc_pnet, smc_run
 smcss lists AF_SMC sockets (sock_diag), smcr shows link groups, links,
 devices and statistics, smc_pnet manages the PNETID table (generic
 netlink), and smc_run runs an unchanged TCP program over SMC sockets
 with the LD_PRELOAD library libsmc-preload.so.  They speak the kernel's
 ABI, so they work with the smc-r-dkms module and with the kernel's own
 smc module; they install the command names of upstream's smc-tools,
 which this package replaces."
}

# pack <stage> <deb>: dpkg-deb, then lintian, whose errors fail the build
pack() {
	local out=$res/$2 l

	rm -f "$out"
	# /src is this tree inside the chroot
	"$top/scripts/chroot-run.sh" dpkg-deb --root-owner-group -Zxz \
		--build "/src${1#"$top"}" "/src${out#"$top"}" >/dev/null ||
		die "dpkg-deb $2 failed"
	l=$res/lintian-${2%%_*}.log
	"$top/scripts/chroot-run.sh" lintian --fail-on error \
		"/src${out#"$top"}" >"$l" 2>&1 || {
		cat "$l" >&2
		die "lintian found errors in $2"
	}
	log "$2: lintian: no error, $(grep -c '^[WI]:' "$l") warnings or notes ($l)"
}

build() {
	mkdir -p "$res"
	rm -f "$res"/*.deb
	build_dkms
	build_tools
	pack "$res/stage/dkms" "$dkms_deb"
	pack "$res/stage/tools" "$tools_deb"
}

# The install test: a copy-on-write view of the build chroot, with the
# distro kernel's modules where a Debian 13 host has them.
test_install() {
	local v=$res/root krel=$SMC_KREL

	rm -rf "$v"
	mkdir -p "$v/upper" "$v/work" "$v/mnt" "$res/ko"
	rm -f "$res/ko"/*
	# shellcheck disable=SC2016 # runs in the mount namespace
	unshare -m --propagation private /bin/bash -ec '
		chroot=$1; v=$2; krel=$3; res=$4; dkms_deb=$5; tools_deb=$6
		moddir=$7
		mount -t overlay overlay \
			-o lowerdir="$chroot",upperdir="$v/upper",workdir="$v/work" \
			"$v/mnt"
		mount -t proc proc "$v/mnt/proc"
		mount --bind /dev "$v/mnt/dev"
		mkdir -p "$v/mnt/debs"
		mount --bind "$res" "$v/mnt/debs"
		inr() { chroot "$v/mnt" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
		# an amd64 host: the s390x headers the build chroot holds for
		# cross builds go; the distro kernel'"'"'s modules are there
		rm -rf "$v/mnt/usr/lib/modules/"*-s390x
		m=$v/mnt/usr/lib/modules/$krel
		[ -e "$m/kernel/net/smc" ] || cp -a "$moddir/." "$m/"
		inr depmod "$krel"
		echo "before: $(inr modinfo -k "$krel" -n smc)"
		inr dpkg -i "/debs/$dkms_deb" "/debs/$tools_deb"
		# what the kernel package'"'"'s hook runs on a host; in a
		# chroot, dkms'"'"' postinst builds for the running kernel only,
		# which is the build machine'"'"'s
		inr dkms autoinstall -k "$krel"
		inr dkms status -m smc-r
		m=$(inr modinfo -k "$krel" -n smc)
		echo "installed: $m"
		case $m in */updates/dkms/smc.ko*) ;; *)
			echo "FAIL modprobe would not load the DKMS module"; exit 1 ;;
		esac
		for k in smc smc_diag; do
			f=$(inr modinfo -k "$krel" -n $k)
			case $f in
			*.xz) xz -dc "$v/mnt$f" >"$res/ko/$k.ko" ;;
			*.zst) zstd -qdc "$v/mnt$f" >"$res/ko/$k.ko" ;;
			*) cp "$v/mnt$f" "$res/ko/$k.ko" ;;
			esac
		done
		inr smcss --version >/dev/null 2>&1 || inr smcss -h >/dev/null 2>&1 ||
			{ echo "FAIL smcss does not run"; exit 1; }
		inr dpkg -r smc-r-tools smc-r-dkms
		m=$(inr modinfo -k "$krel" -n smc)
		echo "removed: $m"
		case $m in */kernel/net/smc/smc.ko*) ;; *)
			echo "FAIL the distro module is not back"; exit 1 ;;
		esac
		[ ! -e "$v/mnt/usr/sbin/smcss" ] || { echo "FAIL smcss left"; exit 1; }
	' bash "$chroot" "$v" "$krel" "$res" "$dkms_deb" "$tools_deb" \
		"$SMC_MODDIR" \
		>"$res/install.log" 2>&1 || {
		tail -n 40 "$res/install.log" >&2
		die "install test failed ($res/install.log)"
	}
	rm -rf "$v"
	grep -E '^(before|installed|removed):' "$res/install.log" | sed 's/^/[deb]   /' >&2
	log "DKMS built and installed the module into updates/dkms; removal brought back the distro one"
}

# two rig hosts load the module DKMS built (production: no test hooks)
test_rig() {
	SMC_RIG_OURS=$res/ko "$top/scripts/rig/rig.sh" run --timeout 900 \
		--out "$res/rig" -- \
		'SMC_SELFTEST_EXPECT_ALL=1 make -s -C tools/testing/selftests/net/smc run_tests TEST_PROGS=installed.sh' \
		>"$res/rig.log" 2>&1 || {
		tail -n 30 "$res/rig.log" >&2
		die "the DKMS-built module failed on the rig ($res/rig.log)"
	}
	log "two rig hosts moved verified data in SMC-R mode with the DKMS-built module"
}

steps=${*:-build test}
for s in $steps; do
	case $s in
	build) build ;;
	test | install | rig)
		[ -f "$res/$dkms_deb" ] || build
		[ "$s" = rig ] || test_install
		[ "$s" = install ] || test_rig
		;;
	*) die "unknown step $s (build, test, install, rig)" ;;
	esac
done
