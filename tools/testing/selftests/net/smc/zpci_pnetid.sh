#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PNETIDs from zPCI functions (drivers/s390/pci/smc_zpci_pnetid.c), as
# far as QEMU can show them.  debugfs smc/pnetid tells, per netdev or
# RDMA port, which zPCI function our module finds, what the utility
# string yields and which PNETID SMC-R uses in the end.
#
# On an s390x rig host started with "rig.sh --arch s390x --zpci" the
# netdev zpci0 is a virtio-net-pci function inside a QEMU zpci device.
# The module must find that function with the FID, UID and PCHID that
# sysfs shows (and the rig configured), report no utility string (QEMU
# gives emulated functions none: the availability bit is off and the 64
# bytes are zero), therefore no hardware PNETID, and fall back to the
# PNETID table, also for a VLAN on zpci0, an rxe port on it and the
# device selection.  Elsewhere the look-up must fail with EOPNOTSUPP
# and the table alone count.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

SMC_PNET=$SMC_LIB_PNET
DBG=/sys/kernel/debug/smc/pnetid
SELECT=/sys/kernel/debug/smc/ib_select
ZDEV=zpci0
VLAN=zpci0.7
RXE=rxez
ZADDR=10.9.3.9

[ "$(id -u)" = 0 ] || smc_lib_bail_skip "must run as root"
[ -x "$SMC_PNET" ] || smc_lib_bail_skip "$SMC_PNET not built"
[ -f "$SMC_LIB_OURS/smc.ko" ] || smc_lib_bail_skip "$SMC_LIB_OURS/smc.ko not built"
s390=0
[ "$(uname -m)" = s390x ] && s390=1
if [ $s390 = 1 ] && [ ! -d "/sys/class/net/$ZDEV" ]; then
	smc_lib_bail_skip "no $ZDEV: start the s390x host with rig.sh --zpci"
fi

cleanup()
{
	"$SMC_PNET" -f
	[ -d "/sys/class/infiniband/$RXE" ] && rdma link delete "$RXE"
	ip link del "$VLAN"
	ip addr del "$ZADDR/24" dev "$ZDEV"
} >/dev/null 2>&1
trap cleanup EXIT

# ask <request>: debugfs smc/pnetid's answer
ask()
{
	echo "$1" >"$DBG" || { echo "FAIL write '$1' to $DBG"; return 1; }
	cat "$DBG"
}

# expect <request> <key=value>...: every pair in the answer
expect()
{
	local req=$1 got kv rc=0

	shift
	got=$(ask "$req") || return 1
	echo "$req: $got"
	for kv in "$@"; do
		case " $got " in
		*" $kv "*) ;;
		*) echo "FAIL $req: want $kv"; rc=1 ;;
		esac
	done
	return "$rc"
}

# field <request> <key>: the value of key in the answer
field()
{
	ask "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# -- off s390 ---------------------------------------------------------------

no_zpci_off_s390()
{
	expect "ndev lo" zpci=-EOPNOTSUPP hw=-EOPNOTSUPP pnetid=- usr=0
}

table_off_s390()
{
	"$SMC_PNET" -a ztest -I lo || { echo "FAIL smc_pnet -a"; return 1; }
	expect "ndev lo" hw=-EOPNOTSUPP pnetid=ZTEST usr=1 || return 1
	"$SMC_PNET" -f
	expect "ndev lo" pnetid=- usr=0
}

# -- s390 with a QEMU zPCI function ----------------------------------------------

# zpci0 sits on the function sysfs shows, with the rig's FID and UID
finds_function()
{
	local pci fid uid pchid want arg cmdline rc=0

	pci=$(readlink -f "/sys/class/net/$ZDEV/device/..")
	[ -f "$pci/function_id" ] || {
		echo "FAIL $ZDEV is not on a zPCI function ($pci)"
		return 1
	}
	fid=$(cat "$pci/function_id") uid=$(cat "$pci/uid")
	pchid=$(cat "$pci/pchid")
	echo "sysfs $pci: function_id=$fid uid=$uid pchid=$pchid"
	expect "ndev $ZDEV" zpci=ok "$(printf 'fid=0x%08x uid=0x%08x pchid=0x%04x' \
		"$fid" "$uid" "$pchid")" || rc=1
	# rig.sh --zpci passes what it configured as rig.zpci=FID:UID
	read -r -a cmdline </proc/cmdline
	for arg in "${cmdline[@]}"; do
		case "$arg" in rig.zpci=*) want=${arg#rig.zpci=} ;; esac
	done
	if [ -n "${want:-}" ]; then
		if [ $((fid)) != "${want%:*}" ] || [ $((uid)) != "${want#*:}" ]; then
			echo "FAIL the rig configured fid:uid $want"
			rc=1
		fi
	fi
	return "$rc"
}

# QEMU's emulated functions have no utility string: the bit is off and
# sysfs shows 64 zero bytes; so there is no hardware PNETID
no_utility_string()
{
	local pci nonzero

	pci=$(readlink -f "/sys/class/net/$ZDEV/device/..")
	nonzero=$(od -An -v -tx1 "$pci/util_string" | tr -s ' \n' '\n' |
		  grep -cv '^\(00\)\{0,1\}$')
	echo "sysfs util_string: $(stat -c %s "$pci/util_string") bytes, $nonzero not zero"
	[ "$nonzero" = 0 ] || { echo "FAIL util_string not all zero"; return 1; }
	expect "ndev $ZDEV" util=0 hw=-ENODATA pnetid=- usr=0
}

# without a hardware PNETID the table's applies, to a VLAN on top too
table_fallback()
{
	local fid

	"$SMC_PNET" -a znet -I "$ZDEV" || { echo "FAIL smc_pnet -a"; return 1; }
	expect "ndev $ZDEV" hw=-ENODATA pnetid=ZNET usr=1 || return 1
	ip link add link "$ZDEV" name "$VLAN" type vlan id 7 ||
		{ echo "FAIL vlan"; return 1; }
	fid=$(field "ndev $ZDEV" fid)
	expect "ndev $VLAN" zpci=ok "fid=$fid" hw=-ENODATA pnetid=ZNET usr=1
}

# a netdev that is no PCI function, or on none
not_on_pci()
{
	expect "ndev lo" zpci=-ENODEV hw=-ENODEV pnetid=- usr=0
}

# rxe has no parent device, so its port has no zPCI function either;
# the table names it, and the selection pairs it with zpci0 by PNETID
rxe_on_zpci()
{
	local gids="/sys/class/infiniband/$RXE/ports/1/gids" got

	if ! ip addr add "$ZADDR/24" dev "$ZDEV" ||
	   ! ip link set "$ZDEV" up; then
		echo "FAIL address"
		return 1
	fi
	rdma link add "$RXE" type rxe netdev "$ZDEV" || { echo "FAIL rdma link add"; return 1; }
	expect "ib $RXE 1" zpci=-ENODEV hw=-ENODEV pnetid=- usr=0 || return 1
	"$SMC_PNET" -a znet -D "$RXE" -P 1 || { echo "FAIL smc_pnet -a -D"; return 1; }
	expect "ib $RXE 1" hw=-ENODEV pnetid=ZNET usr=1 || return 1
	for _ in $(seq 100); do
		grep -qs '^0000:0000:0000:0000:0000:ffff:' "$gids"/* && break
		sleep 0.1
	done
	echo "v2 $ZDEV $ZADDR" >"$SELECT" || { echo "FAIL ib_select"; return 1; }
	got=$(cat "$SELECT")
	echo "ib_select v2 $ZDEV: $got"
	case "$got" in
	"$RXE 1 "*" ZNET") ;;
	*) echo "FAIL selection did not pick $RXE by PNETID ZNET"; return 1 ;;
	esac
}

smc_lib_mod_ensure ours >/dev/null 2>&1 ||
	smc_lib_bail_fail "cannot load our smc module"
[ -w "$DBG" ] || smc_lib_bail_fail "no $DBG"
"$SMC_PNET" -f >/dev/null 2>&1

if [ $s390 = 0 ]; then
	smc_lib_plan 2
	smc_lib_run "no zPCI look-up off s390: EOPNOTSUPP" no_zpci_off_s390
	smc_lib_run "the table's PNETID when the hardware has none" table_off_s390
	smc_lib_exit
fi

smc_lib_plan 5
smc_lib_run "$ZDEV on the zPCI function of sysfs and the rig" finds_function
smc_lib_run "no utility string from QEMU, no hardware PNETID" no_utility_string
smc_lib_run "the table's PNETID applies, to a VLAN too" table_fallback
smc_lib_run "lo is on no zPCI function" not_on_pci
smc_lib_run "rxe on $ZDEV: no zPCI function, table and selection" rxe_on_zpci
smc_lib_exit
