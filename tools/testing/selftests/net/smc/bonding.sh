#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# SMC-R under TCP over an active-backup bond of the RoCE netdevs, as
# hosts bond their RoCE ports for TCP, and over a VLAN on the bond,
# between our modules.  Both hosts bond net1 (the primary) and net2, the
# netdevs of rxe1 and rxe2; the RoCE GIDs of the bond's addresses sit on
# the active slave's port.
#  - A verified transfer over the bond, and one over its VLAN, runs
#    SMC-R on the active slave's port; the VLAN's group has VLAN 7.
#  - The groups are SINGLE: a second link needs a GID in the subnet of
#    the first link's source address (SMC-Rv2, as the reference
#    implementation), and the backup slave's port has none.
#  - The active slave's cable is pulled in the middle of a transfer
#    (net1 down on both hosts, as both ends of a cable lose the
#    carrier): the bond moves TCP to net2, and the GIDs move to rxe2.
#    The group has no other link, so both ends get their error within
#    CUT_MAX_S and the groups are freed.
#  - New connections run SMC-R at once on rxe2, the new active port.
#  - The cable back: the bond returns to its primary and the GIDs to
#    rxe1.  The idle groups on rxe2 lose their link by the GID (down_gid)
#    and end; the next connection runs on rxe1 again.
# A RoCE NIC takes RoCE frames at its own port whatever bonds its netdev;
# the rig's rxe does too (scripts/rig/rxe/rxe-6.12-2-below-bond.patch),
# the stock rxe drops the frames a bond hands up.
# shellcheck disable=SC2317 # functions run through smc_lib_run and trap

. "$(dirname "$0")/lib.sh"

BOND=smcbond
VID=7
# both ends' errors after the cable pull: the port event or a failed send
CUT_MAX_S=2
GONE_MAX_S=10
RES=/tmp/smc_bonding.$$

smc_lib_smcr_setup
for d in rxe1 rxe2; do
	[ -d "/sys/class/infiniband/$d" ] || smc_lib_bail_skip "no $d (rig only)"
done
why="a stock rxe drops a bond slave's RoCE frames (make rxe-out; scripts/rig/rxe/)"
# shellcheck disable=SC2016 # expands on the host
for h in local peer; do
	smc_lib_on "$h" '[ ! -d /sys/module/rdma_rxe ] ||
		[ "$(cat /sys/module/rdma_rxe/version 2>/dev/null)" = smc-rig ]' ||
		smc_lib_bail_skip "$why"
done

LOCAL_N=${SMC_LOCAL_IP##*.}
PEER_N=${SMC_PEER_IP##*.}
LOCAL_IP1=$SMC_LOCAL_IP
PEER_IP1=$SMC_PEER_IP

# host_n <local|peer>: the host's number in the rig's addresses
host_n()
{
	if [ "$1" = local ]; then echo "$LOCAL_N"; else echo "$PEER_N"; fi
}

# over <bond|vlan>: the transfers after this run over the bond's
# addresses or its VLAN's
over()
{
	local net=3

	[ "$1" = vlan ] && net=$VID
	SMC_LOCAL_IP=10.9.$net.$LOCAL_N
	SMC_PEER_IP=10.9.$net.$PEER_N
	export SMC_LOCAL_IP SMC_PEER_IP
}

# gids_on <rxeN>: the GIDs of the bond's and the VLAN's addresses are
# on that device on both hosts
gids_on()
{
	local h n

	for h in local peer; do
		n=$(host_n "$h")
		smc_lib_wait_until 10 "the bond's GIDs on $1 on $h" \
			smc_lib_gid_has "$h" "$1" "10.9.3.$n" || return 1
		smc_lib_wait_until 10 "the VLAN's GIDs on $1 on $h" \
			smc_lib_gid_has "$h" "$1" "10.9.$VID.$n" || return 1
	done
}

# bond_up <local|peer>: net1 and net2 under the bond, net1 the primary,
# and a VLAN on it; IPv6 keeps the slaves' addresses while they are down
bond_up()
{
	local n

	n=$(host_n "$1")
	smc_lib_on "$1" "sysctl -qw net.ipv6.conf.net1.keep_addr_on_down=1 \
			net.ipv6.conf.net2.keep_addr_on_down=1 &&
		ip link add $BOND type bond mode active-backup miimon 100 &&
		ip link set net1 down && ip link set net2 down &&
		ip link set net1 master $BOND && ip link set net2 master $BOND &&
		echo net1 > /sys/class/net/$BOND/bonding/primary &&
		ip link set $BOND up && ip addr add 10.9.3.$n/24 dev $BOND &&
		ip link add link $BOND name $BOND.$VID type vlan id $VID &&
		ip link set $BOND.$VID up && ip addr add 10.9.$VID.$n/24 dev $BOND.$VID"
}

# bond_down <local|peer>: the slaves back as they were, with their
# addresses and rxe GIDs
bond_down()
{
	local n

	n=$(host_n "$1")
	smc_lib_on "$1" "ip link del $BOND.$VID;
		ip link set net1 nomaster; ip link set net2 nomaster;
		ip link del $BOND; ip link set net1 up; ip link set net2 up;
		ip addr replace 10.9.1.$n/24 dev net1;
		ip addr replace 10.9.2.$n/24 dev net2;
		sysctl -qw net.ipv6.conf.net1.keep_addr_on_down=0 \
			net.ipv6.conf.net2.keep_addr_on_down=0" >/dev/null 2>&1
	smc_lib_wait_until 10 "rxe1's GID back on $1" smc_lib_gid_has "$1" rxe1 "10.9.1.$n" &&
		smc_lib_wait_until 10 "rxe2's GID back on $1" smc_lib_gid_has "$1" rxe2 "10.9.2.$n"
}

cleanup()
{
	local h

	for h in local peer; do
		smc_lib_on "$h" "ip link set net1 up"
		bond_down "$h"
	done
	rm -f "$RES" "$RES.client"
	smc_lib_smcr_cleanup
} >/dev/null 2>&1
trap cleanup EXIT

# topology: the bond and its VLAN on both hosts, their GIDs on rxe1
topology()
{
	local h

	for h in local peer; do
		bond_up "$h" || return 1
	done
	gids_on rxe1
}

# link_is <rxeN> <vlan>: our client group over the current addresses
# has one ACTIVE link, on that device, with the client's address as its
# GID, and that VLAN
link_is()
{
	local gid out groups

	gid=$(smc_lib_gid4 "$SMC_LOCAL_IP")
	out=$(smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup link-show)")
	groups=$(smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)")
	grep -o '{[^}]*}' <<<"$out" | grep "\"gid\":\"$gid\"" |
		grep '"state":"ACTIVE"' | grep -q "\"ib_dev\":\"$1\"" || {
		echo "FAIL no ACTIVE link on $1 with GID $gid:"
		smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup link-show)"
		return 1
	}
	grep -o '{[^}]*}' <<<"$groups" | grep '"role":"CLNT"' |
		grep -q "\"type\":\"SINGLE\",\"vlan\":$2," || {
		echo "FAIL no SINGLE client group with VLAN $2:"
		smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup show)"
		return 1
	}
}

# carries <bond|vlan> <rxeN>: a verified transfer both ways over the
# bond or its VLAN, SMC-R on both ends, on a link of that device
# shellcheck disable=SC2034 # args by name
carries()
{
	local args=(--family smc --size 1048576 --dir both --seed 21 --timeout 60)
	local vlan=0
	local -x SMC_HOOK_EXPECT="SMCR 0x00000000" SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"

	[ "$1" = vlan ] && vlan=$VID
	over "$1"
	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args || return 1
	link_is "$2" "$vlan"
}

# cable_pulled: a verified transfer both ways over the bond, server on
# the peer; net1 goes down on both hosts.  Both ends get an error within
# CUT_MAX_S, the groups are freed, each host counts its link down by the
# port (or a failed send) and the group's end, and the bond's GIDs are
# on rxe2.
cable_pulled()
{
	local t0 rc=0 h ends=() downs=() i=0
	local -x SMC_HOOK_EXPECT="SMCR 0x00000000" SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"

	over bond
	for h in local peer; do
		ends+=("$(smc_lib_fo_count "$h" group_ends)")
		downs+=("$(smc_lib_down_count "$h" "port wr_error")")
	done
	smc_lib_busy_start 60 "$RES" "$RES.client" 22 || return 1
	t0=$(smc_lib_now_ms)
	ip link set dev net1 down
	smc_lib_peer "ip link set dev net1 down"
	smc_lib_busy_end "$t0" "$CUT_MAX_S" "$CUT_MAX_S" "$RES" "$RES.client" ||
		rc=1
	smc_lib_wait_until "$GONE_MAX_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	smc_lib_fo_show
	for h in local peer; do
		[ "$(smc_lib_fo_count "$h" group_ends)" -gt "${ends[$i]}" ] || {
			echo "FAIL no group end counted on $h"; rc=1; }
		[ "$(smc_lib_down_count "$h" "port wr_error")" -gt "${downs[$i]}" ] || {
			echo "FAIL no link down by the port or a failed send on $h"; rc=1; }
		i=$((i + 1))
	done
	smc_lib_on local "grep 'Currently Active Slave' /proc/net/bonding/$BOND"
	gids_on rxe2 || rc=1
	return "$rc"
}

# cable_back: net1 up again on both hosts: the bond returns to it, the
# GIDs to rxe1; the idle groups on rxe2 end by the GID within
# GONE_MAX_S, counted as down_gid on both hosts
cable_back()
{
	local rc=0 h gone=() i=0

	for h in local peer; do
		gone+=("$(smc_lib_down_count "$h" gid)")
	done
	ip link set dev net1 up
	smc_lib_peer "ip link set dev net1 up"
	gids_on rxe1 || rc=1
	smc_lib_wait_until "$GONE_MAX_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	for h in local peer; do
		[ "$(smc_lib_down_count "$h" gid)" -gt "${gone[$i]}" ] || {
			echo "FAIL no link down by the GID counted on $h"; rc=1; }
		i=$((i + 1))
	done
	return "$rc"
}

# undo: the slaves out of the bond, their addresses as before
undo()
{
	local h

	SMC_LOCAL_IP=$LOCAL_IP1
	SMC_PEER_IP=$PEER_IP1
	export SMC_LOCAL_IP SMC_PEER_IP
	for h in local peer; do
		bond_down "$h" || return 1
	done
}

smc_lib_plan 10
smc_lib_run "TCP over an active-backup bond of net1 and net2 and a VLAN on it, GIDs on rxe1" \
	topology
smc_lib_run "SMC-R over the bond, verified, on the active slave's port" \
	carries bond rxe1
smc_lib_run "SMC-R over the VLAN on the bond, verified, a VLAN $VID group" \
	carries vlan rxe1
name="the active slave's cable pulled mid-transfer: errors within ${CUT_MAX_S}s,"
name+=" groups freed, GIDs on rxe2"
smc_lib_run "$name" cable_pulled
smc_lib_run "SMC-R over the bond on the new active slave's port" \
	carries bond rxe2
smc_lib_run "SMC-R over the VLAN on the new active slave's port" \
	carries vlan rxe2
smc_lib_run "the cable back: GIDs on rxe1, idle groups on rxe2 end by the GID" \
	cable_back
smc_lib_run "SMC-R over the bond on the primary's port again" \
	carries bond rxe1
smc_lib_run "SMC-R over the VLAN on the primary's port again" \
	carries vlan rxe1
smc_lib_run "the slaves out of the bond, their addresses back" undo
smc_lib_exit
