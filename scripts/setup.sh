#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Set up everything the build and the test rig need, on a fresh Debian 12
# x86_64 machine, idempotently.  A warm second run takes seconds.
#
#   KVER=6.12 (default, Debian 13) or KVER=6.1 (Debian 12) picks the target.
#   SMC_ARCH=amd64 (default) or s390x picks its architecture.  An s390x
#   target is cross-built in the amd64 chroot: its headers and the amd64
#   kbuild tools are unpacked into that chroot next to a cross compiler,
#   and its env file is env-$KVER-s390x.sh.
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

TAG=setup
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
# not ARCH: the kernel's own ARCH (x86, s390) may be in the environment
DARCH=${SMC_ARCH:-amd64}

# kbuild: the host-architecture kbuild tools the headers link to, one
# package per ABI on trixie, one per kernel line on bookworm (ABI: the ABI)
case "$KVER" in
6.12)	suite=trixie;   abi_re='6\.12\.[0-9]+\+deb13'; cc=gcc-14
	kbuild=linux-kbuild-ABI ;;
6.1)	suite=bookworm; abi_re='6\.1\.0-[0-9]+';      cc=gcc-12
	kbuild=linux-kbuild-6.1 ;;
*)	die "unknown KVER=$KVER (6.12 or 6.1)" ;;
esac
# the image package's suffix, the kernel's ARCH and the cross prefix
case "$DARCH" in
amd64)	img_sfx=-unsigned; karch=x86;  cross= ;;
s390x)	img_sfx=;          karch=s390; cross=s390x-linux-gnu- ;;
*)	die "unknown SMC_ARCH=$DARCH (amd64 or s390x)" ;;
esac

[ "$(id -u)" = 0 ] || die "run as root (apt, mmdebstrap and chroot need it)"
mkdir -p "$CACHE"

# a foreign target builds in the host's chroot for the same kernel line
if [ "$DARCH" != amd64 ]; then
	SMC_ARCH=amd64 "$0" >/dev/null
fi

# --- 1. host packages ------------------------------------------------------
host_pkgs=(qemu-system-x86 qemu-utils mmdebstrap busybox-static rdma-core file patch
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
aptdir=$CACHE/apt-$suite-$DARCH
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/etc"
cat >"$aptdir/etc/sources.list" <<EOF
deb http://deb.debian.org/debian $suite main
deb http://deb.debian.org/debian $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF
: >"$aptdir/status"
apt_view() {	# apt_view DIR ARCH: apt-get options for that private view
	printf '%s\n' -o "Dir::Etc::SourceList=$1/etc/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State::Lists=$1/lists" -o "Dir::State::status=$1/status" \
		-o "Dir::Cache=$1/cache" \
		-o "APT::Architecture=$2" -o "APT::Architectures=$2" \
		-o Debug::NoLocking=1
}
mapfile -t apt_priv < <(apt_view "$aptdir" "$DARCH")
# the host's view, from the amd64 run above, for the kbuild tools
mapfile -t host_apt < <(apt_view "$CACHE/apt-$suite-amd64" amd64)

# Refresh the index once a day; a warm run within the day stays offline.
stamp=$aptdir/updated
if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
	log "refreshing the private $suite package index"
	# the mirror's foreign-architecture indices of the update suites are
	# sometimes caught mid-sync; what main has is enough for those
	if ! apt-get "${apt_priv[@]}" -qq update; then
		[ "$DARCH" != amd64 ] || die "apt-get update failed"
		log "some $DARCH indices failed; going on with what arrived"
	fi
	touch "$stamp"
fi

debdir=$CACHE/debs
mkdir -p "$debdir"
try_fetch() {	# try_fetch PKG[=VER] [APT-OPTS...]: that (or the newest) .deb, once
	local pkg=${1%%=*} ver=
	[ "$pkg" = "$1" ] || ver=${1#*=}
	shift
	[ $# -gt 0 ] || set -- "${apt_priv[@]}"
	[ -n "$ver" ] ||
		ver=$(apt-cache "$@" show --no-all-versions "$pkg" 2>/dev/null |
			sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || return 1
	local debs=("$debdir/${pkg}_${ver//:/%3a}_"*.deb)
	if [ ! -e "${debs[0]}" ]; then
		log "downloading $pkg $ver"
		(cd "$debdir" && apt-get "$@" -qq download "$pkg=$ver") ||
			return 1
		debs=("$debdir/${pkg}_${ver//:/%3a}_"*.deb)
	fi
	echo "${debs[0]}"
}
fetch() {	# fetch PKG: as try_fetch, but it must work
	try_fetch "$1" || die "cannot download $1 from $suite"
}

# the newest kernel whose packages the mirror really serves: a foreign
# architecture's pool can lag behind its index
cands=$(apt-cache "${apt_priv[@]}" pkgnames linux-image- |
	sed -nE "s/^linux-image-($abi_re-$DARCH)$img_sfx\$/\\1/p" | sort -rV)
[ -n "$cands" ] || die "no linux-image-$KVER*-$DARCH$img_sfx in $suite"
# the choice holds until the index is refreshed
relf=$aptdir/rel
rel=
if [ -s "$relf" ] && [ "$relf" -nt "$stamp" ]; then
	read -r rel <"$relf"
	printf '%s\n' "$cands" | grep -qxF "$rel" && cands=$rel
	rel=
fi
src_pkg=linux-source-${KVER}
src_versions=
if [ "$DARCH" = amd64 ]; then
	src_versions=$(apt-cache "${apt_priv[@]}" madison "$src_pkg" |
		awk '{ print $3 }')
fi
for r in $cands; do
	if [ "$DARCH" = amd64 ]; then
		# the rig rebuilds rxe from exactly the image's source (3d):
		# the newest image whose source is listed too, else the newest
		rel=${rel:-$r}
		v=$(apt-cache "${apt_priv[@]}" show --no-all-versions \
			"linux-image-$r$img_sfx" | sed -n 's/^Version: //p' | head -n 1)
		if grep -qxF "$v" <<<"$src_versions"; then
			rel=$r
			break
		fi
		log "no $src_pkg $v on the mirror for the $r image; trying an older one"
		continue
	fi
	# the headers, their common part and the host's kbuild tools too
	abi=${r%-"$DARCH"}
	if try_fetch "linux-image-$r" >/dev/null &&
	   try_fetch "linux-headers-$r" >/dev/null &&
	   try_fetch "linux-headers-$abi-common" >/dev/null &&
	   try_fetch "${kbuild/ABI/$abi}" "${host_apt[@]}" >/dev/null; then
		rel=$r
		break
	fi
	log "$r is not fully on the mirror; trying an older one"
done
[ -n "$rel" ] || die "no $DARCH kernel of $KVER can be downloaded"
echo "$rel" >"$relf"
log "target kernel: $rel"
image_deb=$(fetch "linux-image-$rel$img_sfx")

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
chroot_dir=$CACHE/chroot-$suite-amd64
if [ "$DARCH" = amd64 ]; then
	chroot_pkgs="$cc,make,libc6-dev,bc,bison,flex,libelf-dev,libssl-dev,kmod,xz-utils,sparse,perl,python3,linux-headers-$rel"
	want="$chroot_pkgs"
	if [ ! -e "$chroot_dir/.done" ] || [ "$(cat "$chroot_dir/.done")" != "$want" ]; then
		log "building the $suite build chroot ($cc, headers $rel)"
		rm -rf "$chroot_dir"
		mmdebstrap --quiet --variant=apt --include="$chroot_pkgs" \
			--architectures=amd64 "$suite" "$chroot_dir" \
			"deb http://deb.debian.org/debian $suite main" \
			"deb http://deb.debian.org/debian $suite-updates main" \
			"deb http://deb.debian.org/debian-security $suite-security main"
		# the kernel's Makefile calls plain "gcc"
		ln -sf "$cc" "$chroot_dir/usr/bin/gcc"
		mkdir -p "$chroot_dir/src"
		echo "$want" >"$chroot_dir/.done"
	fi
else
	# The foreign headers and the host kbuild they link to are unpacked,
	# not installed: dpkg in the chroot knows only amd64.
	chroot_apt "$chroot_dir" "gcc-$DARCH-linux-gnu" ".cross-$DARCH"
	abi=${rel%-"$DARCH"}
	if [ ! -e "$chroot_dir/usr/src/linux-headers-$rel/.done" ]; then
		log "unpacking the $rel headers into the chroot"
		for d in "$(fetch "linux-headers-$abi-common")" \
			 "$(fetch "linux-headers-$rel")" \
			 "$(try_fetch "${kbuild/ABI/$abi}" "${host_apt[@]}")"; do
			# as dpkg would: /lib stays the merged-/usr symlink
			dpkg-deb --fsys-tarfile "$d" |
				tar -x --keep-directory-symlink -C "$chroot_dir"
		done
		touch "$chroot_dir/usr/src/linux-headers-$rel/.done"
	fi
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
# (bookworm's rig borrows it when the trixie chroot has it)
qemu_root=
trixie_qemu=$CACHE/chroot-trixie-amd64
if [ "$suite" != trixie ] && [ -e "$trixie_qemu/.qemu" ]; then
	qemu_root=$trixie_qemu
elif [ "$suite" = trixie ]; then
	qemu_root=$chroot_dir
	chroot_apt "$chroot_dir" "qemu-system-x86 qemu-system-s390x" .qemu
fi

# --- 3c. a foreign rig host's root --------------------------------------------
# An amd64 rig host runs on the host's own root (over 9p); an s390x host
# needs s390x programs: the packages the rig and the tests use, unpacked
# (mmdebstrap's extract variant runs nothing, so no s390x emulation is
# needed).  Bookworm's, because this mirror's trixie s390x pool lags its
# index; the kernel and modules are still the target's.  Its libc6-dev is
# the sysroot the s390x tools are linked against, so that they run on
# this root's glibc.
rootfs=
if [ "$DARCH" != amd64 ]; then
	rootfs=$CACHE/rootfs-bookworm-$DARCH
	root_pkgs="bash,dash,coreutils,findutils,diffutils,grep,sed,gawk,gzip,xz-utils,binutils,tar,procps,util-linux,mount,kmod,hostname,iproute2,iputils-ping,python3,iperf3,socat,curl,make,busybox-static,libc-bin,libc6-dev,rdma-core,ibverbs-utils,perftest"
	if [ "$(cat "$rootfs/.done" 2>/dev/null)" != "$root_pkgs" ]; then
		log "unpacking a bookworm $DARCH root for the rig"
		rm -rf "$rootfs"
		mmdebstrap --quiet --variant=extract --architectures="$DARCH" \
			--include="$root_pkgs" bookworm "$rootfs" \
			"deb http://deb.debian.org/debian bookworm main"
		# what maintainer scripts would have made: alternatives
		ln -sf gawk "$rootfs/usr/bin/awk"
		echo "$root_pkgs" >"$rootfs/.done"
	fi
fi

# --- 3d. rxe's source, for a rig-built rdma_rxe.ko ----------------------------
# The rig builds its own rdma_rxe.ko (scripts/rig/rxe/), from exactly the
# source of the kernel it loads into, where the stock one falls short:
# - 6.12 (make rxe-out, make rxe-s390x): after a retransmit stock rxe
#   runs a completed IB_WR_REG_MR again and kills the QP, which the
#   distro smc.ko meets under load; s390x also needs its ICRC sent in
#   the wire's byte order, or an s390x rxe and an x86_64 one drop each
#   other's every packet.  6.1 is built for s390x, not run;
# - amd64 6.1 (make KVER=6.1 rxe-out): bookworm's rxe lacks more of what
#   the distro smc.ko's SMC-R needs (cur_qp_state, solicited-only CQ
#   arming, the same replay fix).
rxe_src=
if [ "$DARCH" = amd64 ] || [ "$suite" = trixie ]; then
	rxe_src=$CACHE/rxe-src-${rel%-"$DARCH"}
	kver=$(dpkg-deb -f "$image_deb" Version)
	# The source of exactly the image's version, never a neighbour: the
	# mirror keeps only current sources, and the image is the newest, so
	# they match unless the mirror is mid-update (make rxe-* then says
	# there is no source, and the rig uses the stock rxe).
	if [ ! -e "$rxe_src/.done" ] &&
	   ! src_deb=$(try_fetch "$src_pkg=$kver" "${host_apt[@]}"); then
		log "no $src_pkg $kver (the $rel image's source) on the mirror: no rig-built rxe"
		log "the mirror serves $src_pkg $(apt-cache "${host_apt[@]}" madison "$src_pkg" |
			awk '{ printf "%s%s", s, $3; s = ", " }')"
		rxe_src=
	elif [ ! -e "$rxe_src/.done" ]; then
		log "extracting rxe from $src_pkg $kver"
		rm -rf "$rxe_src"
		mkdir -p "$rxe_src"
		# the source tarball inside the .deb, and rxe inside that
		dpkg-deb --fsys-tarfile "$src_deb" |
			tar -xOf - --wildcards './usr/src/linux-source-*.tar.xz' |
			tar -xJf - -C "$rxe_src" --strip-components=5 \
				--wildcards '*/drivers/infiniband/sw/rxe/*'
		[ -f "$rxe_src/rxe_icrc.c" ] || die "no rxe in $src_deb"
		rm -f "$src_deb"
		touch "$rxe_src/.done"
	fi
fi

# --- 4. checkpatch from the matching source package ------------------------
# (a second kernel line uses the first one's: the style rules are the same
# and the source package is large)
cpdir=$CACHE/checkpatch-$KVER
srctar=$CACHE/src/$src_pkg.tar.xz
if [ "$KVER" != 6.12 ] && [ -e "$CACHE/checkpatch-6.12/.done" ]; then
	cpdir=$CACHE/checkpatch-6.12
elif [ "$DARCH" = amd64 ] && { [ ! -e "$cpdir/.done" ] || [ ! -f "$srctar" ]; }; then
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
[ "$DARCH" = amd64 ] || envf=$CACHE/env-$KVER-$DARCH.sh
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
SMC_DARCH=$DARCH
SMC_KARCH=$karch
SMC_CROSS=$cross
SMC_ROOTFS=$rootfs
SMC_RXE_SRC=$rxe_src
EOF
mv "$envf.tmp" "$envf"
log "ready: $envf"
echo "$envf"
