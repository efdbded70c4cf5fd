#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Set up everything the build and the test rig need, on a fresh Debian 12
# x86_64 machine, idempotently.  A warm second run takes seconds.
#
#   KVER=6.12 (default, Debian 13) or KVER=6.1 (Debian 12) picks the target.
#
# What it does:
#   1. installs the host packages (qemu, mmdebstrap, busybox, rdma tools ...);
#   2. resolves the newest target kernel through a private apt configuration
#      (the host's sources stay untouched), downloads image, headers and
#      kbuild into the cache and unpacks the image with dpkg -x;
#   3. builds a Debian build chroot with the compiler the kernel wants
#      (gcc-14 for 6.12) and the kernel headers, with mmdebstrap;
#      It also installs the rig's emulator (trixie's QEMU) into that chroot;
#   4. extracts checkpatch.pl from the matching linux-source package;
#   5. writes $SMC_CACHE/env-$KVER.sh, which the Makefile and the rig read.
#
# Everything lands under ${SMC_CACHE:-~/.cache/smc-r}.
set -euo pipefail

KVER=${KVER:-6.12}
ARCH=${ARCH:-amd64}
CACHE=${SMC_CACHE:-$HOME/.cache/smc-r}

log() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

case "$KVER" in
6.12)	suite=trixie;   abi_re='6\.12\.[0-9]+\+deb13'; cc=gcc-14 ;;
6.1)	suite=bookworm; abi_re='6\.1\.0-[0-9]+';      cc=gcc-12 ;;
*)	die "unknown KVER=$KVER (6.12 or 6.1)" ;;
esac

[ "$(id -u)" = 0 ] || die "run as root (apt, mmdebstrap and chroot need it)"
mkdir -p "$CACHE"

# --- 1. host packages ------------------------------------------------------
host_pkgs=(qemu-system-x86 qemu-utils mmdebstrap busybox-static rdma-core
	   ibverbs-utils perftest iproute2 kmod xz-utils zstd cpio
	   ca-certificates shellcheck codespell sparse make gcc libc6-dev
	   util-linux procps iputils-ping bc binutils socat iperf3 curl python3
	   qperf sockperf gnuplot-nox)
missing=()
for p in "${host_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing host packages: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- 2. private apt view of the target suite --------------------------------
aptdir=$CACHE/apt-$suite-$ARCH
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/etc"
cat >"$aptdir/etc/sources.list" <<EOF
deb http://deb.debian.org/debian $suite main
deb http://deb.debian.org/debian $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF
: >"$aptdir/status"
apt_priv=(-o "Dir::Etc::SourceList=$aptdir/etc/sources.list"
	  -o Dir::Etc::SourceParts=/dev/null
	  -o "Dir::State::Lists=$aptdir/lists"
	  -o "Dir::State::status=$aptdir/status"
	  -o "Dir::Cache=$aptdir/cache"
	  -o "APT::Architecture=$ARCH" -o "APT::Architectures=$ARCH"
	  -o Debug::NoLocking=1)

# Refresh the index once a day; a warm run within the day stays offline.
stamp=$aptdir/updated
if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
	log "refreshing the private $suite package index"
	apt-get "${apt_priv[@]}" -qq update
	touch "$stamp"
fi

flavour=$ARCH
rel=$(apt-cache "${apt_priv[@]}" pkgnames linux-image- |
	sed -nE "s/^linux-image-($abi_re-$flavour)-unsigned\$/\\1/p" |
	sort -V | tail -n 1)
[ -n "$rel" ] || die "no linux-image-$KVER*-$flavour-unsigned in $suite"
log "target kernel: $rel"

debdir=$CACHE/debs
mkdir -p "$debdir"
fetch() {	# fetch PKG: download the newest PKG .deb into $debdir once
	local pkg=$1 ver
	ver=$(apt-cache "${apt_priv[@]}" show --no-all-versions "$pkg" |
		sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || die "package $pkg not found in $suite"
	local debs=("$debdir/${pkg}_${ver//:/%3a}_"*.deb)
	if [ ! -e "${debs[0]}" ]; then
		log "downloading $pkg $ver"
		(cd "$debdir" && apt-get "${apt_priv[@]}" -qq download "$pkg=$ver")
		debs=("$debdir/${pkg}_${ver//:/%3a}_"*.deb)
	fi
	echo "${debs[0]}"
}
image_deb=$(fetch "linux-image-$rel-unsigned")
src_pkg=linux-source-${KVER}

kdir=$CACHE/kernel/$rel
if [ ! -e "$kdir/.done" ]; then
	log "unpacking $image_deb"
	rm -rf "$kdir"
	mkdir -p "$kdir"
	dpkg -x "$image_deb" "$kdir"
	# merged /usr: modules live under usr/lib/modules; the package has no
	# modules.dep, so make one.
	mroot=$kdir
	[ -d "$kdir/usr/lib/modules/$rel" ] && mroot=$kdir/usr
	depmod -b "$mroot" "$rel"
	touch "$kdir/.done"
fi
mdir=$kdir/lib/modules/$rel
[ -d "$kdir/usr/lib/modules/$rel" ] && mdir=$kdir/usr/lib/modules/$rel
vmlinuz=$kdir/boot/vmlinuz-$rel
[ -f "$vmlinuz" ] || die "no $vmlinuz in the image package"

# --- 3. build chroot -------------------------------------------------------
chroot_dir=$CACHE/chroot-$suite-$ARCH
chroot_pkgs="$cc,make,libc6-dev,bc,bison,flex,libelf-dev,libssl-dev,kmod,xz-utils,sparse,perl,python3,linux-headers-$rel"
want="$chroot_pkgs"
if [ ! -e "$chroot_dir/.done" ] || [ "$(cat "$chroot_dir/.done")" != "$want" ]; then
	log "building the $suite build chroot ($cc, headers $rel)"
	rm -rf "$chroot_dir"
	mmdebstrap --quiet --variant=apt --include="$chroot_pkgs" \
		--architectures="$ARCH" "$suite" "$chroot_dir" \
		"deb http://deb.debian.org/debian $suite main" \
		"deb http://deb.debian.org/debian $suite-updates main" \
		"deb http://deb.debian.org/debian-security $suite-security main"
	# the kernel's Makefile calls plain "gcc"
	ln -sf "$cc" "$chroot_dir/usr/bin/gcc"
	mkdir -p "$chroot_dir/src"
	echo "$want" >"$chroot_dir/.done"
fi
[ -d "$chroot_dir/usr/src/linux-headers-$rel" ] ||
	die "chroot lacks /usr/src/linux-headers-$rel"

# --- 3b. the rig's emulator ------------------------------------------------
# Bookworm's QEMU 7.2 TCG has been seen to hand an x86_64 guest impossible
# RFLAGS under rxe load (reserved bits set, TF among them: a double fault
# in the guest), and its virtio-net-ccw gives 6.12 s390x guests no L2 link.
# The rig therefore runs trixie's QEMU, installed into the trixie chroot
# and started from the host through the chroot's own dynamic loader
# (scripts/rig/qemu.sh), so paths stay the host's.
qemu_root=
if [ "$suite" = trixie ]; then
	qemu_root=$chroot_dir
	qemu_pkgs="qemu-system-x86 qemu-system-s390x"
	if [ "$(cat "$chroot_dir/.qemu" 2>/dev/null)" != "$qemu_pkgs" ]; then
		log "installing $qemu_pkgs into the $suite chroot"
		# shellcheck disable=SC2016,SC2086
		unshare -m --propagation private /bin/sh -c '
			set -e
			mount -t proc proc "$1/proc"
			mount --bind /dev "$1/dev"
			chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				DEBIAN_FRONTEND=noninteractive /bin/sh -c "
				apt-get update -qq &&
				apt-get install -y -qq --no-install-recommends $2"
		' sh "$chroot_dir" "$qemu_pkgs" >"$CACHE/qemu-install.log" 2>&1 ||
			{ cat "$CACHE/qemu-install.log" >&2; die "QEMU install failed"; }
		echo "$qemu_pkgs" >"$chroot_dir/.qemu"
	fi
fi

# --- 4. checkpatch from the matching source package ------------------------
cpdir=$CACHE/checkpatch-$KVER
srctar=$CACHE/src/$src_pkg.tar.xz
if [ ! -e "$cpdir/.done" ] || [ ! -f "$srctar" ]; then
	src_deb=$(fetch "$src_pkg")
	log "extracting checkpatch.pl from $(basename "$src_deb")"
	tmp=$(mktemp -d)
	dpkg -x "$src_deb" "$tmp"
	tarballs=("$tmp"/usr/src/linux-source-*.tar.*)
	tarball=${tarballs[0]}
	rm -rf "$cpdir"
	mkdir -p "$cpdir"
	tar -xf "$tarball" -C "$cpdir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' '*/scripts/kernel-doc*'
	# keep the whole source tarball for the debug-kernel build
	# (scripts/debug-kernel.sh); copied whole or not at all
	mkdir -p "$CACHE/src"
	cp "$tarball" "$srctar.tmp"
	mv "$srctar.tmp" "$srctar"
	rm -rf "$tmp"
	touch "$cpdir/.done"
fi

# --- 5. environment file -----------------------------------------------------
envf=$CACHE/env-$KVER.sh
cat >"$envf.tmp" <<EOF
# generated by scripts/setup.sh; do not edit
SMC_KVER=$KVER
SMC_SUITE=$suite
SMC_KREL=$rel
SMC_KIMG=$kdir
SMC_VMLINUZ=$vmlinuz
SMC_MODDIR=$mdir
SMC_CHROOT=$chroot_dir
SMC_KDIR=/usr/src/linux-headers-$rel
SMC_CHECKPATCH=$cpdir/scripts/checkpatch.pl
SMC_QEMU_ROOT=$qemu_root
EOF
mv "$envf.tmp" "$envf"
log "ready: $envf"
echo "$envf"
