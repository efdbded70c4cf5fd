#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The two-host Soft-RoCE test rig.
#
#   rig.sh run [options] [--] COMMAND...   boot hosts A and B, run COMMAND
#   rig.sh shell                           boot A and B, interactive shell on A
#
# Options:
#   --on A|B|AB     where COMMAND runs (default A; B and AB go through rigd)
#   --hosts 1|2     one VM (peer tests run locally) or two (default)
#   --out DIR       where logs go (default out/rig-<time>)
#   --timeout SEC   hard limit for the whole run (default 1800)
#   --mem MB        memory per host (default 1536)
#   --cpus N        vCPUs per host (default 1)
#   --append ARGS   extra kernel command line
#   --arch SPEC     amd64 (default), s390x, A=s390x or B=s390x: the
#                   architecture of both hosts or of one; an s390x host
#                   boots Debian's s390x kernel on QEMU's s390-ccw-virtio
#                   with the s390x root of "SMC_ARCH=s390x setup.sh" and
#                   out/s390x/overlay (make module-s390x tools-s390x)
#                   laid over the repository
#   --kernel K      stock (default: Debian's kernel) or debug (the KASAN,
#                   lockdep, kmemleak and KUnit kernel of
#                   scripts/debug-kernel.sh, with our module from
#                   out/debug/net/smc, see "make module-debug") on both
#                   hosts, or A=debug: the debug kernel on A, the stock
#                   one on B (A runs the tests in both roles, and a
#                   peer at stock speed answers sooner)
#   --rxe R         rig (default) or stock: which rdma_rxe.ko the amd64
#                   hosts load, the rig's own build of out/$KVER/rxe, or
#                   out/debug/rxe on the debug kernel (make [KVER=6.1]
#                   rxe-out, make rxe-debug: the stock
#                   rxe fails the distro smc.ko's SMC-R, on 6.1 always,
#                   on 6.12 under load) or the kernel's; without that
#                   build the kernel's.  s390x hosts always load their
#                   own (with its ICRC byte order fixed, make rxe-s390x)
#   --allow-splat   do not fail the run on kernel warnings (for the
#                   splat detector's own test, which expects them)
#   --zpci          give every s390x host one more NIC, a virtio-net-pci
#                   function wrapped in a zPCI device (FID 0x10<h>, UID
#                   0x2<h>, h = 1 on A, 2 on B), named zpci0 in the
#                   guest; two s390x hosts are linked through it
#
# SMC_RIG_QEMU=host in the environment runs the host's QEMU instead of
# trixie's from the build chroot (see scripts/setup.sh, step 3b).
#
# Each host boots Debian's stock kernel from scripts/setup.sh, shares the
# host's root read-only over 9p and has three virtio-net links carried by
# QEMU UDP sockets on 127.0.0.1: mgmt (agent), net1 and net2 (data, one
# rxe device each).  COMMAND's output streams to stdout; the consoles land
# in DIR/console-A.log and DIR/console-B.log.  The run fails if COMMAND
# fails or either console shows a kernel splat (BUG, WARNING, Oops, Call
# Trace, KASAN, lockdep, refcount, hung task, kmemleak).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
KVER=${KVER:-6.12}
CACHE=${SMC_CACHE:-$HOME/.cache/smc-r}
envf=$CACHE/env-$KVER.sh
[ -f "$envf" ] || "$repo/scripts/setup.sh" >/dev/null
# shellcheck source=/dev/null
. "$envf"

mode=${1:-}
shift || true
on=A nhosts=2 timeout=1800 mem=1536 cpus=1 append='' allow_splat=0 zpci=0
arch_A=amd64 arch_B=amd64
kernel_A=stock kernel_B=stock rxe=rig
out=$repo/out/rig-$(date +%Y%m%d-%H%M%S)-$$
while [ $# -gt 0 ]; do
	case "$1" in
	--on) on=$2; shift 2 ;;
	--hosts) nhosts=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--kernel) case "$2" in
		stock|debug) kernel_A=$2 kernel_B=$2 ;;
		A=debug) kernel_A=debug ;;
		*) echo "rig: --kernel takes stock, debug or A=debug" >&2; exit 2 ;;
		esac
		shift 2 ;;
	--rxe) rxe=$2; shift 2 ;;
	--arch)	case "$2" in
		amd64|s390x) arch_A=$2 arch_B=$2 ;;
		A=amd64|A=s390x) arch_A=${2#A=} ;;
		B=amd64|B=s390x) arch_B=${2#B=} ;;
		*) echo "rig: --arch takes amd64, s390x, A=s390x or B=s390x" >&2; exit 2 ;;
		esac
		shift 2 ;;
	--allow-splat) allow_splat=1; shift ;;
	--zpci) zpci=1; shift ;;
	--) shift; break ;;
	-*) echo "rig: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
case "$mode" in
run) [ $# -gt 0 ] || { echo "rig: run needs a command" >&2; exit 2; } ;;
shell) ;;
*) sed -n '3,50p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

# the kernel, its module tree and the build of our module that fits it;
# guest-init.sh exports rig.ours as SMC_LIB_OURS for the selftests
[ "$kernel_A$kernel_B" != stockstock ] && [ "$arch_A$arch_B" != amd64amd64 ] &&
	{ echo "rig: the debug kernel is amd64 only" >&2; exit 2; }
# the test build with its hooks (make [KVER=6.1] module-out);
# SMC_RIG_OURS names another, e.g. net/smc, the production build
declare -A H_KREL H_VMLINUZ H_MODDIR H_ROOT H_INITRD H_OURS
for host in A B; do
	H_KREL[$host]=$SMC_KREL H_VMLINUZ[$host]=$SMC_VMLINUZ
	H_MODDIR[$host]=$SMC_MODDIR
	H_OURS[$host]=${SMC_RIG_OURS:-$repo/out/$KVER/net/smc}
done
if [ "$kernel_A" = debug ]; then
	# shellcheck source=/dev/null
	read -r dkrel dvmlinuz dmoddir < <(
		. "$("$repo/scripts/debug-kernel.sh")"
		echo "$SMC_KREL $SMC_VMLINUZ $SMC_MODDIR")
	for host in A B; do
		k=kernel_$host
		[ "${!k}" = debug ] || continue
		H_KREL[$host]=$dkrel H_VMLINUZ[$host]=$dvmlinuz
		H_MODDIR[$host]=$dmoddir H_OURS[$host]=$repo/out/debug/net/smc
	done
	# ACPI's AML interpreter routing PCI interrupts takes a minute
	# under KASAN, kmemleak and TCG; the BIOS tables do it at once
	append="acpi=noirq $append"
fi
kernel=$kernel_A
[ "$kernel_B" = "$kernel_A" ] || kernel=A=$kernel_A

# the amd64 hosts' rdma_rxe.ko: guest-init.sh insmods rig.rxe, or loads
# the kernel's when it is empty (an s390x host's is in its overlay)
rxe_ko=$repo/out/$KVER/rxe/rdma_rxe.ko
case "$rxe" in
rig)	if [ ! -f "$rxe_ko" ]; then
		echo "rig: no $rxe_ko (make KVER=$KVER rxe-out): the stock rxe" >&2
		rxe_ko=
	fi ;;
stock)	rxe_ko= ;;
*)	echo "rig: --rxe takes rig or stock" >&2; exit 2 ;;
esac

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/rc "$out"/test-start "$out"/console-*.log "$out"/tainted-* "$out"/splat "$out"/stopped

make -s -C "$here" rigd

# trixie's QEMU from the chroot (scripts/rig/qemu.sh); SMC_RIG_QEMU=host
# runs the host's own QEMU instead, for comparison
[ "${SMC_RIG_QEMU:-}" = host ] && SMC_QEMU_ROOT=
export SMC_QEMU_ROOT=${SMC_QEMU_ROOT:-}
"$here/qemu.sh" x86_64 --version | head -n 1 >"$out/qemu-version"

# Each host's kernel, modules, root and initramfs (cached per kernel
# release and init script): amd64 from the env file read above, s390x
# from the s390x one, read in a subshell so the two do not mix.
initsum=$(cat "$here/initramfs-init" "$here/mkinitramfs.sh" | md5sum | cut -c1-8)
for host in A B; do
	a=arch_$host
	if [ "${!a}" = amd64 ]; then
		H_ROOT[$host]=/ bb=/bin/busybox
	else
		f=$CACHE/env-$KVER-${!a}.sh
		[ -f "$f" ] || SMC_ARCH=${!a} "$repo/scripts/setup.sh" >/dev/null
		# shellcheck source=/dev/null
		read -r H_KREL[$host] H_VMLINUZ[$host] H_MODDIR[$host] H_ROOT[$host] < <(
			. "$f"
			echo "$SMC_KREL $SMC_VMLINUZ $SMC_MODDIR $SMC_ROOTFS")
		bb=${H_ROOT[$host]}/bin/busybox
		[ -x "$repo/out/${!a}/overlay/scripts/rig/rigd" ] || {
			echo "rig: no ${!a} build; run make module-${!a} tools-${!a}" >&2
			exit 2
		}
	fi
	H_INITRD[$host]=$CACHE/initramfs-${H_KREL[$host]}-$initsum.cpio.gz
	[ -f "${H_INITRD[$host]}" ] ||
		"$here/mkinitramfs.sh" "${H_KREL[$host]}" "${H_MODDIR[$host]}" \
			"${H_INITRD[$host]}" "$bb"
done

# the job host A runs; its variables expand in the guest
# shellcheck disable=SC2016
{
	echo "# generated by rig.sh"
	printf 'cmd=%q\n' "$*"
	case "$on" in
	A) echo 'eval "$cmd"' ;;
	B) echo '$SMC_PEER_EXEC "cd $PWD && $cmd"' ;;
	AB) echo 'eval "$cmd" & a=$!'
	    echo '$SMC_PEER_EXEC "cd $PWD && $cmd"; b=$?'
	    echo 'wait $a; a=$?; [ $a = 0 ] && [ $b = 0 ]' ;;
	*) echo "rig: --on takes A, B or AB" >&2; exit 2 ;;
	esac
} >"$out/job.sh"
[ "$mode" = shell ] && echo 'exec setsid -c bash -i </dev/hvc0 >/dev/hvc0 2>&1' >"$out/job.sh"

# UDP port pairs for the three links, away from anything bound
pick_base() {
	local b
	for _ in $(seq 50); do
		b=$((20000 + (RANDOM % 4000) * 10))
		ss -Hlun "sport >= :$b and sport <= :$((b + 9))" | grep -q . || {
			echo "$b"
			return
		}
	done
	echo "rig: no free UDP ports" >&2
	exit 1
}
base=$(pick_base)

# QEMU option values contain commas by design
# shellcheck disable=SC2054
qemu_host() {	# qemu_host A|B  -> fills the array Q with QEMU's argv
	local host=$1 h me peer l a k bus cmd z o=${H_OURS[$1]}
	[ "$host" = A ] && h=1 || h=2
	a=arch_$host k=kernel_$host
	# an s390x host's test build lies over net/smc (its overlay)
	[ "${!a}" = amd64 ] || o=$repo/net/smc
	cmd="panic=-1 loglevel=6 rig.host=$host rig.nhosts=$nhosts rig.repo=$repo rig.out=$out rig.kmods=${H_MODDIR[$host]} rig.kernel=${!k} rig.ours=$o"
	# a debug host loads the rig's fixes built for it (make
	# rxe-debug) when there, or its kernel's rxe
	if [ "${!a}" = amd64 ] && [ "${!k}" = stock ] && [ -n "$rxe_ko" ]; then
		cmd="$cmd rig.rxe=$rxe_ko"
	elif [ "${!a}" = amd64 ] && [ "${!k}" = debug ] && [ "$rxe" = rig ] &&
	     [ -f "$repo/out/debug/rxe/rdma_rxe.ko" ]; then
		cmd="$cmd rig.rxe=$repo/out/debug/rxe/rdma_rxe.ko"
	fi
	if [ "${!a}" = amd64 ]; then
		bus=pci
		Q=(timeout -k 10 "$timeout" "$here/qemu.sh" x86_64 -accel tcg -cpu max
		   -append "console=ttyS0 $cmd $append"
		   -serial "file:$out/console-$host.log")
	else
		# s390x: the SCLP console, channel-attached (ccw) virtio devices
		bus=ccw
		# --zpci: a zPCI function; its UDP link (ports base+6 and
		# base+7) leads to the other host's, or nowhere with one host
		z=()
		if [ "$zpci" = 1 ]; then
			cmd="$cmd rig.zpci=$((0x100 + h)):$((0x20 + h))"
			z=(-netdev "socket,id=z0,udp=127.0.0.1:$((base + 8 - h)),localaddr=127.0.0.1:$((base + 5 + h))"
			   -device "zpci,fid=$((0x100 + h)),uid=$((0x20 + h)),target=zpcinet"
			   -device "virtio-net-pci,id=zpcinet,netdev=z0,mac=52:54:00:00:03:0$h,romfile=")
		fi
		Q=(timeout -k 10 "$timeout" "$here/qemu.sh" s390x -M s390-ccw-virtio
		   -accel tcg -cpu max "${z[@]}"
		   -append "console=ttysclp0 rig.arch=${!a} $cmd $append"
		   -chardev "file,id=con,path=$out/console-$host.log"
		   -device sclpconsole,chardev=con
		   -fsdev "local,id=fs4,path=$repo/out/${!a}/overlay,security_model=none,readonly=on"
		   -device virtio-9p-ccw,fsdev=fs4,mount_tag=archtree)
	fi
	# the QMP socket: qmp-watch.py carries out the host's carrier.sh
	# requests on it
	Q+=(-smp "$cpus" -m "$mem" -nographic -no-reboot -nodefaults
	   -qmp "unix:$out/qmp-$host.sock,server=on,wait=off"
	   -kernel "${H_VMLINUZ[$host]}" -initrd "${H_INITRD[$host]}"
	   -device "virtio-serial-$bus" -chardev "stdio,id=job,signal=off"
	   -device virtconsole,chardev=job
	   -fsdev "local,id=fs0,path=${H_ROOT[$host]},security_model=none,readonly=on,multidevs=remap"
	   -device "virtio-9p-$bus,fsdev=fs0,mount_tag=hostroot"
	   -fsdev "local,id=fs1,path=$repo,security_model=none,readonly=on"
	   -device "virtio-9p-$bus,fsdev=fs1,mount_tag=repo"
	   -fsdev "local,id=fs2,path=$out,security_model=none"
	   -device "virtio-9p-$bus,fsdev=fs2,mount_tag=out"
	   -fsdev "local,id=fs3,path=${H_MODDIR[$host]},security_model=none,readonly=on"
	   -device "virtio-9p-$bus,fsdev=fs3,mount_tag=kmods")
	[ "$nhosts" = 1 ] && return
	for l in 0 1 2; do
		me=$((base + l * 2 + h - 1))
		peer=$((base + l * 2 + 2 - h))
		Q+=(-netdev "socket,id=n$l,udp=127.0.0.1:$peer,localaddr=127.0.0.1:$me")
		if [ "$bus" = pci ]; then
			Q+=(-device "virtio-net-pci,id=nic$l,netdev=n$l,mac=52:54:00:00:0$l:0$h,romfile=")
		else
			# with notification suppression (event_idx) on, an
			# s390x guest's receive queue stalls for good under
			# load until the link is set down and up again
			Q+=(-device "virtio-net-ccw,id=nic$l,netdev=n$l,mac=52:54:00:00:0$l:0$h,event_idx=off")
		fi
	done
}

t0=$(date +%s.%N)
pids=()
# carrier loss on request (scripts/rig/carrier.sh in a guest)
rm -f "$out"/qmp-*.sock "$out"/carrier-*
python3 "$here/qmp-watch.py" "$out" &
watcher=$!
trap 'kill "$watcher" 2>/dev/null || true' EXIT
if [ "$nhosts" = 2 ]; then
	qemu_host B
	"${Q[@]}" </dev/null >"$out/stdout-B.log" 2>&1 &
	pids+=($!)
fi
if [ "$mode" = shell ]; then
	echo "rig: host A shell; 'poweroff -f' or Ctrl-D ends the run" >&2
	qemu_host A
	"${Q[@]}" || true
else
	qemu_host A
	"${Q[@]}" </dev/null | tee "$out/job.log" || true
fi
# Host A asks B to power off when its job ends; a B that a test left
# wedged (tasks stuck in the kernel can keep its power-off from
# finishing) gets 60 s, then its QEMU is stopped, so that the run ends
# with its results instead of at the hard limit
for p in "${pids[@]}"; do
	for ((i = 0; i < 60; i++)); do
		kill -0 "$p" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$p" 2>/dev/null; then
		echo "rig: host B still running 60 s after host A: stopped" >&2
		echo "B did not power off within 60 s of A" >>"$out/stopped"
		kill "$p" 2>/dev/null
	fi
	wait "$p" || true
done
t1=$(date +%s.%N)
kill "$watcher" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true
rm -f "$out"/qmp-*.sock

rc=$(cat "$out/rc" 2>/dev/null || echo 124)
status=0
[ "$rc" = 0 ] || status=1

# Kernel splats in either console fail the run.
splat_re='(BUG:|WARNING:|Oops|general protection|Call Trace:|RIP:|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|refcount_t:|INFO: task .* blocked|unreferenced object|Kernel panic|kernel BUG)'
for c in "$out"/console-*.log; do
	[ -f "$c" ] || continue
	if grep -Eq "$splat_re" "$c"; then
		echo "rig: kernel splat in $(basename "$c"):" >&2
		grep -En -A3 "$splat_re" "$c" | head -n 40 >&2
		[ "$allow_splat" = 1 ] || status=1
		basename "$c" >>"$out/splat"
	fi
done

# A WARN or an oops also taints the kernel (bits 9 and 7): a second signal
# that does not depend on what reached the console.
for t in "$out"/tainted-*; do
	[ -f "$t" ] || continue
	v=$(cat "$t")
	if [ $((v & (1 << 9 | 1 << 7))) != 0 ]; then
		echo "rig: $(basename "$t") = $v: the kernel WARNed or oopsed" >&2
		[ "$allow_splat" = 1 ] || status=1
		basename "$t" >>"$out/splat"
	fi
done

start=$(cat "$out/test-start" 2>/dev/null || echo "?")
printf 'rig: kernel=%s hosts=%s boot-to-test=%ss total=%.1fs job-rc=%s logs=%s\n' \
	"$kernel" "$nhosts" "$start" "$(echo "$t1 - $t0" | bc)" "$rc" "$out" >&2
exit $status
