#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of a rig host (started by the initramfs on the shared host root).
#
# Brings up the links and their Soft-RoCE devices, starts the rigd agent on
# the management link and, on host A, runs the job the controller left in
# the output share, then powers both hosts off.
#
#   links (MAC 52:54:00:00:<link>:<host>, host 1 = A, 2 = B):
#     mgmt 10.9.0.<h>/24                    agent traffic only
#     net1 10.9.1.<h>/24 fd00:9:1::<h>/64   rxe1   data link 1
#     net2 10.9.2.<h>/24 fd00:9:2::<h>/64   rxe2   data link 2
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp/home LANG=C.UTF-8 TERM=dumb
mkdir -p "$HOME"

# the lower layer shows the host's own /proc and /sys: mount fresh ones
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
# what udev would provide: process substitution needs /dev/fd
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null

read -r -a cmdline </proc/cmdline
for arg in "${cmdline[@]}"; do
	case "$arg" in
	rig.host=*) host=${arg#rig.host=} ;;
	rig.nhosts=*) nhosts=${arg#rig.nhosts=} ;;
	rig.repo=*) repo=${arg#rig.repo=} ;;
	rig.out=*) out=${arg#rig.out=} ;;
	rig.kernel=*) kernel=${arg#rig.kernel=} ;;
	rig.ours=*) ours=${arg#rig.ours=} ;;
	rig.rxe=*) rxe=${arg#rig.rxe=} ;;
	esac
done
case "$host" in A) h=1 ;; B) h=2 ;; *) h=1 host=A ;; esac
peer_h=$((3 - h))
hostname "$host"

log() { echo "rig[$host]: $*" >/dev/console; }

poweroff_now() {
	cat /proc/sys/kernel/tainted >"$out/tainted-$host" 2>/dev/null
	sync
	# Once the power-off has taken the 9p root away no program can be
	# started, and init must not exit (that panics): start the sleeper
	# first and wait with a builtin.
	sleep 100000 &
	echo o >/proc/sysrq-trigger
	while :; do wait; done
}

# no udev here: load the NIC driver ourselves, and the console the job
# writes to (both built in on 6.12, modules on 6.1)
modprobe virtio_net
modprobe virtio_console
ip link set lo up
for dev in /sys/class/net/*; do
	name=${dev##*/}
	mac=$(cat "$dev/address")
	case "$mac" in
	52:54:00:00:00:*) new=mgmt ;;
	52:54:00:00:01:*) new=net1 ;;
	52:54:00:00:02:*) new=net2 ;;
	52:54:00:00:03:*) new=zpci0 ;;	# rig.sh --zpci
	*) continue ;;
	esac
	ip link set dev "$name" name "$new"
done
for l in 0 1 2; do
	dev=net$l
	[ $l = 0 ] && dev=mgmt
	ip link show "$dev" >/dev/null 2>&1 || continue
	ip addr add "10.9.$l.$h/24" dev "$dev"
	[ $l != 0 ] && ip -6 addr add "fd00:9:$l::$h/64" dev "$dev" nodad
	ip link set "$dev" up
done

# The rig's own rdma_rxe.ko where the stock one falls short
# (scripts/rig/rxe/): an s390x host's overlay carries one whose ICRC is
# little-endian, so that it talks to x86_64 hosts, and an amd64 host
# gets the one with the fixes the distro smc.ko needs as rig.rxe
# (rig.sh --rxe).  Load its dependencies from the kernel, then it; a
# rig.rxe that does not load leaves the host on the stock rxe, which
# the log and /sys/module/rdma_rxe/version tell.
load_rxe() {
	local own=${rxe:-$repo/scripts/rig/rxe/rdma_rxe.ko} m
	if [ -f "$own" ]; then
		for m in ib_core ib_uverbs udp_tunnel ip6_udp_tunnel; do
			modprobe "$m" || return 1
		done
		if insmod "$own"; then
			log "rdma_rxe from $own, version $(cat /sys/module/rdma_rxe/version 2>/dev/null || echo none)"
			return
		fi
		log "$own did not load"
	fi
	modprobe rdma_rxe && log "rdma_rxe: the kernel's"
}
modprobe crc32_generic 2>/dev/null
if load_rxe; then
	for l in 1 2; do
		ip link show "net$l" >/dev/null 2>&1 &&
			rdma link add "rxe$l" type rxe netdev "net$l"
	done
else
	log "rdma_rxe did not load"
fi

export SMC_RIG_HOST=$host
export SMC_LOCAL_IP=10.9.1.$h SMC_PEER_IP=10.9.1.$peer_h
export SMC_LOCAL_IP2=10.9.2.$h SMC_PEER_IP2=10.9.2.$peer_h
export SMC_LOCAL_IP6=fd00:9:1::$h SMC_PEER_IP6=fd00:9:1::$peer_h
export SMC_PEER_EXEC="$repo/scripts/rig/rigd exec 10.9.0.$peer_h"
export SMC_RIG_OUT=$out
# carrier loss on request, through rig.sh (scripts/rig/carrier.sh)
export SMC_RIG_CARRIER=$repo/scripts/rig/carrier.sh
# which kernel (stock or debug) and which build of our module fits it;
# the kselftest runner scans kmemleak after each test on the debug kernel
export SMC_RIG_KERNEL=${kernel:-stock}
[ -n "${ours:-}" ] && export SMC_LIB_OURS=$ours
[ -w /sys/kernel/debug/kmemleak ] && export KSFT_KMEMLEAK_SCAN=1
if [ "${nhosts:-2}" = 1 ]; then
	# one host, no links: tests run their peer side locally over loopback
	unset SMC_PEER_EXEC
	export SMC_LOCAL_IP=127.0.0.1 SMC_PEER_IP=127.0.0.1
	export SMC_LOCAL_IP6=::1 SMC_PEER_IP6=::1
fi

# after the exports: commands run through rigd see the same environment
"$repo/scripts/rig/rigd" serve "10.9.0.$h" &

log "ready after $(cut -d' ' -f1 /proc/uptime)s"
if [ "$host" != A ]; then
	wait
	poweroff_now
fi

if [ "${nhosts:-2}" != 1 ] && ! "$repo/scripts/rig/rigd" wait "10.9.0.$peer_h" 120; then
	log "peer did not come up"
	echo 255 >"$out/rc"
	poweroff_now
fi
# IPv6 addresses are nodad, but the links must be up before tests start
for l in 1 2; do
	ip link show "net$l" >/dev/null 2>&1 || continue
	ping -c 1 -W 5 -I "net$l" "10.9.$l.$peer_h" >/dev/null 2>&1 ||
		[ "${nhosts:-2}" = 1 ] || log "net$l: peer does not answer"
done
log "test start after $(cut -d' ' -f1 /proc/uptime)s"
cut -d' ' -f1 /proc/uptime >"$out/test-start"
cd "$repo" || poweroff_now
bash "$out/job.sh" >/dev/hvc0 2>&1 </dev/null
echo $? >"$out/rc"
log "job finished rc=$(cat "$out/rc")"
# (a peer that a test has reset for good does not answer)
[ "${nhosts:-2}" = 1 ] || ! ping -c 1 -W 2 "10.9.0.$peer_h" >/dev/null 2>&1 ||
	timeout 10 "$repo/scripts/rig/rigd" exec "10.9.0.$peer_h" \
		'sync; (sleep 0.3; echo o >/proc/sysrq-trigger) </dev/null >/dev/null 2>&1 &' \
		>/dev/null 2>&1
poweroff_now
