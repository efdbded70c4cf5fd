#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the rig's initramfs: busybox plus the few modules that mounting the
# host's root over virtio-9p, under a RAM overlay, needs.  Its /init mounts the shares and hands
# over to scripts/rig/guest-init.sh on the shared root.
#
#   mkinitramfs.sh KREL MODDIR OUT.cpio.gz [BUSYBOX]
#
# BUSYBOX is a static busybox of the guest's architecture (the host's by
# default).
set -euo pipefail
krel=$1 moddir=$2 out=$3 busybox=${4:-/bin/busybox}
here=$(cd "$(dirname "$0")" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,dev,proc,sys,newroot,mods}
cp "$busybox" "$tmp/bin/busybox"

# Module load order from the kernel's own dependency data.
base=${moddir%/lib/modules/"$krel"}
: >"$tmp/mods/order"
# The virtio PCI transport is built in from 6.12 on, a module on 6.1
# (and absent on s390x, whose transport is CCW).
{
	for m in 9p 9pnet_virtio overlay; do
		modprobe -d "$base" -S "$krel" --show-depends "$m"
	done
	modprobe -d "$base" -S "$krel" --show-depends virtio_pci 2>/dev/null ||
		true
} |
while read -r kind path _; do
	[ "$kind" = insmod ] || continue
	name=$(basename "$path")
	name=${name%.xz}
	[ -e "$tmp/mods/$name" ] && continue
	case "$path" in
	*.xz) xz -dc "$path" >"$tmp/mods/$name" ;;
	*) cp "$path" "$tmp/mods/$name" ;;
	esac
	echo "$name" >>"$tmp/mods/order"
done

cp "$here/initramfs-init" "$tmp/init"
chmod +x "$tmp/init"
(cd "$tmp" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
