#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static gates on our sources: checkpatch --strict (from the target's
# linux-source) on the kernel code and the C tools, kernel-doc -Wall on the
# kernel code, shellcheck on the shell scripts, and every lock the code
# declares named in smc-design.rst's lock order.  Exits non-zero on any
# finding.
set -uo pipefail
TAG=checkpatch
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1
# shellcheck source=/dev/null
. "$CACHE/env-$KVER.sh"
rc=0

kfiles=$(git ls-files 'net/smc/*.c' 'net/smc/*.h' 'include/uapi/linux/*.h' \
	'drivers/s390/pci/*.[ch]' | tr '\n' ' ')
cfiles=$(git ls-files 'tools/smc/*.[ch]' 'tools/bench/*.[ch]' \
	'tools/testing/selftests/net/smc/*.c' \
	'tools/testing/selftests/net/smc/*.h' 'scripts/rig/*.c' | tr '\n' ' ')
# userspace C: the kernel-only rules do not apply (scripts/lib.sh)
user_ignore=$SMC_USER_CHECKPATCH_IGNORE
# one checkpatch per file, as many at once as there are CPUs; a file's
# findings print together
# shellcheck disable=SC2317 # called through xargs
checkpatch_one() {
	local f=$1 ign=SPDX_LICENSE_TAG out

	case " $cfiles " in *" $f "*) ign=$ign,$user_ignore ;; esac
	out=$("$SMC_CHECKPATCH" --strict --no-tree --quiet --show-types \
		--ignore "$ign" -f "$f" 2>&1) && return 0
	printf 'checkpatch: %s\n%s\n' "$f" "$out"
	return 1
}
export -f checkpatch_one
export SMC_CHECKPATCH cfiles user_ignore
# shellcheck disable=SC2086,SC2016 # words; $1 expands in that bash
printf '%s\n' $kfiles $cfiles |
	xargs -P "$(nproc)" -I{} bash -c 'checkpatch_one "$1"' _ {} || rc=1

kdoc=$(dirname "$SMC_CHECKPATCH")/kernel-doc
# shellcheck disable=SC2086
out=$(perl "$kdoc" -Wall -none $kfiles 2>&1)
if [ -n "$out" ]; then
	echo "kernel-doc:"
	echo "$out"
	rc=1
fi

mapfile -t sh < <(git ls-files '*.sh' 'scripts/rig/initramfs-init' \
	'tools/smc/completion/*' 'tools/smc/smc_run' '.ci/run')
out=$(shellcheck -x --source-path=SCRIPTDIR "${sh[@]}" 2>&1) || {
	echo "shellcheck:"
	echo "$out"
	rc=1
}
# every lock the code declares is named in smc-design.rst's lock-order
# table (the text from "Lock order" to "Contexts")
table=$(sed -n '/^Lock order$/,/^Contexts$/p' Documentation/networking/smc-design.rst)
mapfile -t lsrc < <(git ls-files 'net/smc/*.[ch]' 'drivers/s390/pci/*.[ch]' | grep -v _kunit)
missing=
for l in $( { grep -hoE '^\s*(spinlock_t|struct mutex|rwlock_t|struct rw_semaphore)\s+\w+' "${lsrc[@]}" |
		awk '{ print $NF }'
	      grep -hoE 'DEFINE_(MUTEX|SPINLOCK|RWLOCK)\(\w+\)' "${lsrc[@]}" |
		sed 's/.*(\(.*\))/\1/'; } | sort -u); do
	grep -qw -- "$l" <<<"$table" || missing="$missing $l"
done
if [ -n "$missing" ]; then
	echo "smc-design.rst: locks not in the lock-order table:$missing"
	rc=1
fi

exit $rc
