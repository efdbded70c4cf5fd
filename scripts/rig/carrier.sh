#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# carrier.sh <net1|net2> <up|down>: on a rig host, make its QEMU take that
# link's carrier away or give it back (QMP set_link on the NIC): the
# guest sees carrier loss, and the NIC drops what it sends and what
# comes in, while the other host's side of the link stays up and hears
# nothing.  The request goes through the shared out/ directory to
# rig.sh's watcher (qmp-watch.py).  Returns when the guest's carrier
# shows the new state, or fails after 10 s.
set -u

dev=${1:-} state=${2:-}
case "$dev $state" in
net[12]\ up | net[12]\ down) ;;
*) echo "usage: carrier.sh <net1|net2> <up|down>" >&2; exit 2 ;;
esac
if [ -z "${SMC_RIG_HOST:-}" ] || [ ! -d "${SMC_RIG_OUT:-}" ]; then
	echo "carrier.sh: not on a rig host" >&2
	exit 2
fi

want=1
[ "$state" = down ] && want=0
req=$SMC_RIG_OUT/carrier-$SMC_RIG_HOST-$$.$RANDOM
echo "nic${dev#net} $state" >"$req.tmp"
mv "$req.tmp" "$req.req"
# the watcher's answer, then the guest's own view of the link
for ((i = 0; i < 500; i++)); do
	[ -f "$req.done" ] && break
	sleep 0.02
done
if [ ! -f "$req.done" ]; then
	rm -f "$req.req"
	echo "carrier.sh: no answer from the rig's QMP watcher in 10 s" >&2
	exit 1
fi
answer=$(cat "$req.done")
rm -f "$req.done"
[ "$answer" = ok ] || { echo "carrier.sh: QEMU: $answer" >&2; exit 1; }
for ((i = 0; i < 500; i++)); do
	[ "$(cat "/sys/class/net/$dev/carrier" 2>/dev/null)" = "$want" ] && exit 0
	sleep 0.02
done
echo "carrier.sh: $dev carrier not $state 10 s after QEMU's set_link" >&2
exit 1
