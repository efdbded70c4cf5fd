# SPDX-License-Identifier: GPL-2.0
#
# What the build scripts under scripts/ share.  A script sets TAG, the
# word its lines start with ("[TAG] ..."), and sources this file:
#
#   top      this tree's top directory
#   KVER     the target kernel (6.12 unless the caller set it)
#   CACHE    downloads, chroots and kernels (SMC_CACHE, ~/.cache/smc-r)
#   log/die  a line to stderr; die also exits 1
#   smc_env  root, and the environment scripts/setup.sh writes
#   chroot_apt, SMC_USER_CHECKPATCH_IGNORE: see below
# shellcheck shell=bash

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KVER=${KVER:-6.12}
CACHE=${SMC_CACHE:-$HOME/.cache/smc-r}
export KVER SMC_CACHE=$CACHE

log() { printf '[%s] %s\n' "$TAG" "$*" >&2; }
die() { printf '[%s] error: %s\n' "$TAG" "$*" >&2; exit 1; }

# smc_env: as root (the build chroot needs it), source the environment of
# scripts/setup.sh for $KVER, running it first when it is missing or
# when the kernel source tarball is
smc_env() {
	local envf=$CACHE/env-$KVER.sh

	[ "$(id -u)" = 0 ] || die "run as root (the build chroot needs it)"
	if [ ! -f "$envf" ] || [ ! -f "$CACHE/src/linux-source-$KVER.tar.xz" ]; then
		"$top/scripts/setup.sh" >/dev/null
	fi
	[ -f "$envf" ] || die "no $envf after scripts/setup.sh"
	# shellcheck source=/dev/null
	. "$envf"
}

# chroot_apt <chroot> <"PKG ..."> [<marker>]: apt-get install into a build
# chroot; with a marker file, only when it does not already name these
# packages, and it names them afterwards
chroot_apt() {
	local root=$1 pkgs=$2 mark=${3:-}

	[ -n "$mark" ] && [ "$(cat "$root/$mark" 2>/dev/null)" = "$pkgs" ] && return 0
	log "installing $pkgs into $root"
	SMC_CHROOT=$root "$top/scripts/chroot-run.sh" /bin/sh -c \
		"export DEBIAN_FRONTEND=noninteractive && apt-get update -qq &&
		 apt-get install -y -qq --no-install-recommends $pkgs" \
		>"$CACHE/chroot-apt.log" 2>&1 ||
		{ tail -n 20 "$CACHE/chroot-apt.log" >&2; die "apt-get install $pkgs failed"; }
	[ -z "$mark" ] || echo "$pkgs" >"$root/$mark"
}

# checkpatch's rules that are for kernel code only, left out for
# userspace C (the tools, the selftests): kernel integer types and
# attribute macros, BIT(), C11 _Static_assert taken for CamelCase, long
# user-visible strings, volatile sig_atomic_t in signal handlers, a
# usage() that prints "usage:"
# shellcheck disable=SC2034 # for the scripts that source this file
SMC_USER_CHECKPATCH_IGNORE=PREFER_KERNEL_TYPES,CAMELCASE,BIT_MACRO,EMBEDDED_FUNCTION_NAME,LONG_LINE_STRING,PREFER_DEFINED_ATTRIBUTE_MACRO,VOLATILE
