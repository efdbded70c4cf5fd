#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside the build chroot that scripts/setup.sh made, with
# the source tree bind-mounted at /src.  Mounts live in a private mount
# namespace, so nothing is left behind when the command ends.
#
#   scripts/chroot-run.sh make -C /usr/src/linux-headers-... M=/src/net/smc
#
# CHROOT_BIND="DIR ..." also binds each DIR at the same path inside the
# chroot (the debug kernel's build tree under the cache, for example).
# SMC_CHROOT=DIR in the environment names the chroot directly, for
# setup.sh, which runs before the env file exists.  A make inside runs
# SMC_JOBS jobs at once (default: one per CPU): kbuild with M= is serial
# otherwise.
set -euo pipefail
JOBS=${SMC_JOBS:-$(nproc)}
KVER=${KVER:-6.12}
CACHE=${SMC_CACHE:-$HOME/.cache/smc-r}
if [ -z "${SMC_CHROOT:-}" ]; then
	envf=$CACHE/env-$KVER.sh
	[ -f "$envf" ] || { echo "chroot-run: run scripts/setup.sh first" >&2; exit 1; }
	# shellcheck source=/dev/null
	. "$envf"
fi
top=$(cd "$(dirname "$0")/.." && pwd)
rel=${PWD#"$top"}
[ "$rel" = "$PWD" ] && rel=
# the inner script is single-quoted on purpose: it expands in the namespace
# shellcheck disable=SC2016
exec unshare -m --propagation private /bin/sh -c '
	set -e
	root=$1; top=$2; rel=$3; binds=$4; jobs=$5; shift 5
	mount --bind "$top" "$root/src"
	for d in $binds; do
		mkdir -p "$root$d"
		mount --bind "$d" "$root$d"
	done
	mount -t proc proc "$root/proc"
	mount --bind /dev "$root/dev"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 MAKEFLAGS="-j$jobs" /bin/sh -c "cd \"/src$rel\" && exec \"\$@\"" sh "$@"
' sh "$SMC_CHROOT" "$top" "$rel" "${CHROOT_BIND:-}" "$JOBS" "$@"
