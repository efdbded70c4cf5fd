#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run trixie's QEMU from the build chroot without entering it:
#
#   qemu.sh x86_64|s390x QEMU-ARGS...
#
# The chroot's own dynamic loader and libraries run the binary, and its
# firmware and module directories are passed explicitly, so every path in
# QEMU-ARGS stays a host path.  With no chroot QEMU (SMC_QEMU_ROOT unset
# or empty, as for a bookworm-only setup) the host's QEMU runs instead.
set -eu
target=$1
shift
root=${SMC_QEMU_ROOT:-}
if [ -z "$root" ] || [ ! -x "$root/usr/bin/qemu-system-$target" ]; then
	exec "qemu-system-$target" "$@"
fi
lib=$root/usr/lib/x86_64-linux-gnu
export QEMU_MODULE_DIR="$lib/qemu"
exec "$root/lib64/ld-linux-x86-64.so.2" --library-path "$lib:$root/lib/x86_64-linux-gnu" \
	"$root/usr/bin/qemu-system-$target" \
	-L "$root/usr/share/qemu" -L "$root/usr/share/seabios" "$@"
