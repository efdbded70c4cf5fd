#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RoCE device tracking: the SMC_NETLINK_GET_DEV_SMCR dump and
# "smcr device show" list the rig's rxe1 (net1) and rxe2 (net2) with
# their netdev and port state; the port state follows the netdev going
# down and up (port events); the dump is byte-identical to the distro
# module's on the peer, in every namespace, also with PNETIDs; the
# device selection (debugfs ib_select) picks the right port and GID,
# also for TCP over a bond of the RoCE netdevs and a VLAN on it;
# an rxe device can be deleted and re-added, and the module unloaded,
# while devices exist.  Splats are caught by the rig's detector.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

SMC_NL_TEST=$SMC_LIB_DIR/smc_nl_test
SMC_PNET=$SMC_LIB_PNET
SMCR=$SMC_LIB_SMCR
SELECT=/sys/kernel/debug/smc/ib_select
V1_SWITCH=/sys/kernel/debug/smc/v1_on_rocev2
NS=smc_dev_test_$$
BOND=smcbond
# bound of every wait for a port state; generous for the debug kernel
WAIT_S=${SMC_DEV_WAIT_S:-60}

[ "$(id -u)" = 0 ] || smc_lib_bail_skip "must run as root"
for t in "$SMC_NL_TEST" "$SMC_PNET" "$SMCR"; do
	[ -x "$t" ] || smc_lib_bail_skip "$t not built"
done
[ -f "$SMC_LIB_OURS/smc.ko" ] || smc_lib_bail_skip "$SMC_LIB_OURS/smc.ko not built"
command -v rdma >/dev/null || smc_lib_bail_skip "rdma(8) missing"
smc_lib_single_host && smc_lib_bail_skip "needs the peer host of the rig"
for d in rxe1 rxe2; do
	[ -d "/sys/class/infiniband/$d" ] || smc_lib_bail_skip "no $d (rig only)"
done

h=${SMC_LOCAL_IP##*.}
same_order=1
smc_lib_same_byte_order || same_order=0
peer_initial=$(smc_lib_mod peer which 2>/dev/null)
cleanup()
{
	ip netns del "$NS"
	"$SMC_PNET" -f
	bond_down
	echo 0 >"$V1_SWITCH"
	ip addr del "10.9.1.$((100 + h))/24" dev net2
	ip link set net2 up
	[ -d /sys/class/infiniband/rxe2 ] ||
		rdma link add rxe2 type rxe netdev net2
	smc_lib_mod_ensure ours
	smc_lib_peer "$(smc_lib_q "$SMC_PNET" -f)"
	case "$peer_initial" in
	distro) smc_lib_mod peer ensure distro ;;
	none) smc_lib_mod peer unload ;;
	*) smc_lib_mod peer ensure ours ;;
	esac
} >/dev/null 2>&1
trap cleanup EXIT

# port_state <ibdev> <port>: ACTIVE or INACTIVE from "smcr device show"
port_state()
{
	"$SMCR" device show | awk -v d="$1" -v p="$2" '$2 == d && $3 == p { print $4 }'
}

# wait_state <ibdev> <port> <state>: poll the dump, bounded by WAIT_S
wait_state()
{
	local end=$((SECONDS + WAIT_S))

	while [ "$(port_state "$1" "$2")" != "$3" ]; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "FAIL $1 port $2 not $3 after ${WAIT_S}s: '$(port_state "$1" "$2")'"
			return 1
		fi
		sleep 0.1
	done
	echo "$1 port $2 $3"
}

# json_port <ibdev>: the JSON object of the device's port 1
json_port()
{
	"$SMCR" -j device show | grep -o "{[^}]*\"ib_dev\":\"$1\",\"ib_port\":1,[^}]*}"
}

devices_listed()
{
	local d n obj idx want rc=0

	"$SMCR" device show
	for n in 1 2; do
		d=rxe$n
		idx=$(cat "/sys/class/net/net$n/ifindex")
		obj=$(json_port "$d")
		echo "$obj"
		want="{\"net_dev\":\"net$n\",\"ifindex\":$idx,\"ib_dev\":\"$d\",\"ib_port\":1,"
		want+="\"state\":\"ACTIVE\",\"pci\":\"n/a\",\"crit\":false,\"links\":0,"
		want+="\"pnetid\":\"\",\"pnet_usr\":false}"
		[[ "$obj" == "$want" ]] || {
			echo "FAIL $d: wrong or missing entry"; rc=1; }
	done
	[ "$("$SMCR" device show | grep -c rxe)" = 2 ] || {
		echo "FAIL not exactly two devices listed"; rc=1; }
	return "$rc"
}

port_follows_netdev()
{
	ip link set net2 down || return 1
	wait_state rxe2 1 INACTIVE || return 1
	[ "$(port_state rxe1 1)" = ACTIVE ] || {
		echo "FAIL rxe1 changed with net2"; return 1; }
	select_is "v2 net2 10.9.2.$h" ENODEV || return 1
	ip link set net2 up || return 1
	wait_state rxe2 1 ACTIVE
}

# dump <local|peer> [netns]: the raw device dump
dump()
{
	local cmd

	cmd=$(smc_lib_q "$SMC_NL_TEST" -d SMC_GEN_NETLINK 6)
	[ -n "${2:-}" ] && cmd="ip netns exec $2 $cmd"
	smc_lib_on "$1" "$cmd"
}

# the ports' ifindexes must agree for a byte-wise comparison; a host's
# interfaces may come up in another order than the peer's
same_ifindex()
{
	local n l p

	for n in 1 2; do
		l=$(cat "/sys/class/net/net$n/ifindex")
		p=$(smc_lib_peer "cat /sys/class/net/net$n/ifindex")
		[ "$l" = "$p" ] || {
			echo "net$n has ifindex $l here, $p on the peer"
			return 1
		}
	done
}

# our dump (and smcr's view of it) against the distro module's on the
# peer; netlink attributes are in host byte order, so the raw dumps are
# compared byte for byte only when both hosts have one byte order and
# the same ifindexes, and smcr's decoded view always, where each host's
# ifindex shows as its netdev's name
like_distro()
{
	local ours peer noidx='s/"ifindex":[0-9]*,//g'

	ours=$(dump local)
	peer=$(dump peer)
	printf '%s\n' "$ours"
	grep -q '^msg 6 ' <<<"$ours" || { echo "FAIL empty dump"; return 1; }
	if [ "$same_order" = 1 ] && same_ifindex; then
		diff -u <(printf '%s\n' "$peer") <(printf '%s\n' "$ours") || {
			echo "FAIL the dump differs from the distro module's"; return 1; }
	else
		grep -q '^msg 6 ' <<<"$peer" || { echo "FAIL empty dump on the peer"; return 1; }
		echo "peer of the other byte order or ifindexes: raw dumps not compared"
	fi
	ours=$("$SMCR" -j device show | sed "$noidx")
	peer=$(smc_lib_peer "$(smc_lib_q "$SMCR" -j device show)" | sed "$noidx")
	diff -u <(printf '%s\n' "$peer") <(printf '%s\n' "$ours") || {
		echo "FAIL smcr shows the devices differently"; return 1; }
}

# as upstream, a namespace sees all devices
netns_like_init()
{
	local where rc=0

	ip netns add "$NS" || return 1
	smc_lib_peer "ip netns add $NS" || return 1
	for where in local peer; do
		diff -u <(dump "$where") <(dump "$where" "$NS") || {
			echo "FAIL $where: the dump in a namespace differs"; rc=1; }
	done
	smc_lib_peer "ip netns del $NS"
	ip netns del "$NS"
	return "$rc"
}

# pnet_both <args>: the same smc_pnet command here and on the peer
pnet_both()
{
	"$SMC_PNET" "$@" || return 1
	smc_lib_peer "$(smc_lib_q "$SMC_PNET" "$@")"
}

pnetid_shown()
{
	local obj rc

	pnet_both -a NETA -I net1 || return 1
	pnet_both -a NETA -D rxe1 -P 1 || return 1
	obj=$(json_port rxe1)
	echo "$obj"
	[[ "$obj" == *'"pnetid":"NETA","pnet_usr":true}' ]] || {
		echo "FAIL rxe1 port 1 does not show PNETID NETA"; return 1; }
	# the flush also after a failure: later cases need no PNETIDs
	like_distro
	rc=$?
	pnet_both -f || return 1
	[ "$rc" = 0 ] || return 1
	obj=$(json_port rxe1)
	[[ "$obj" == *'"pnetid":"","pnet_usr":false}' ]] || {
		echo "FAIL PNETID still shown after flush: $obj"; return 1; }
	like_distro
}

# select_is <request> <expected answer>
select_is()
{
	local got

	echo "$1" >"$SELECT" || { echo "FAIL write '$1'"; return 1; }
	got=$(cat "$SELECT")
	echo "$1 -> $got"
	[ "$got" = "$2" ] || { echo "FAIL expected: $2"; return 1; }
}

# select_answer <n> <pnetid|->: expected answer for rxe<n> port 1
select_answer()
{
	local n=$1 gid

	gid=00000000000000000000ffff$(printf '%02x' 10 9 "$n" "$h")
	echo "rxe$n 1 $(gid_index "$n") $gid $(cat "/sys/class/net/net$n/address") v2" \
		"$(cat "/sys/class/net/net$n/ifindex") $2"
}

# gid_index <n>: index of the IPv4-mapped RoCEv2 GID of rxe<n> port 1
gid_index()
{
	gid_index_of "$1" "10.9.$1.$h"
}

selection()
{
	local rc=0 gid

	[ -w "$SELECT" ] || { echo "FAIL $SELECT missing"; return 1; }
	select_is "v2 net1 10.9.1.$h" "$(select_answer 1 -)" || rc=1
	select_is "v2 net2 10.9.2.$h" "$(select_answer 2 -)" || rc=1
	# net1 is not rxe2's netdev, and rxe1 has no GID in 10.9.2.0/24
	select_is "v2 net1 10.9.2.$h" ENODEV || rc=1
	# rxe offers RoCEv2 GIDs only
	select_is "v1 net1" ENODEV || rc=1
	# the test-only switch lets the IPv4-mapped one serve SMC-Rv1
	echo 1 >"$V1_SWITCH" || return 1
	select_is "v1 net1" "$(select_answer 1 -)" || rc=1
	select_is "v1 net2" "$(select_answer 2 -)" || rc=1
	echo 0 >"$V1_SWITCH" || return 1
	select_is "v1 net1" ENODEV || rc=1
	gid=00000000000000000000ffff$(printf '%02x' 10 9 1 "$h")
	select_is "gid $gid" "$(select_answer 1 -)" || rc=1
	select_is "gid 0000000000000000000000000000abcd" ENODEV || rc=1

	# PNETIDs decide over netdevs: net2 and rxe1 on NETA
	"$SMC_PNET" -a NETA -I net2 || return 1
	"$SMC_PNET" -a NETA -D rxe1 -P 1 || return 1
	select_is "v2 net2 10.9.1.$h" "$(select_answer 1 NETA)" || rc=1
	# a PNETID on one side only does not match
	select_is "v2 net2 10.9.2.$h" ENODEV || rc=1
	select_is "v2 net1 10.9.1.$h" ENODEV || rc=1
	"$SMC_PNET" -f || return 1
	select_is "v2 net1 10.9.1.$h" "$(select_answer 1 -)" || rc=1
	return "$rc"
}

# gid_index_of <n> <a.b.c.d>: index of that IPv4-mapped GID of rxe<n>
# port 1, polled for a while: the table follows the netdev's addresses
gid_index_of()
{
	local want f i

	want=$(smc_lib_gid4 "$2")
	# one grep over the table: a cat per entry is slow on the debug kernel
	for ((i = 0; i < 100; i++)); do
		f=$(grep -lxs "$want" /sys/class/infiniband/rxe"$1"/ports/1/gids/* | head -n 1)
		[ -n "$f" ] && { echo "${f##*/}"; return; }
		sleep 0.1
	done
	echo none
}

# alt_answer <n> <a.b.c.d> <pnetid|->: expected answer for that GID
alt_answer()
{
	local n=$1 gid a b c d

	IFS=. read -r a b c d <<<"$2"
	gid=00000000000000000000ffff$(printf '%02x' "$a" "$b" "$c" "$d")
	echo "rxe$n 1 $(gid_index_of "$n" "$2") $gid" \
		"$(cat "/sys/class/net/net$n/address") v2" \
		"$(cat "/sys/class/net/net$n/ifindex") $3"
}

# bond_answer <ndev> <a.b.c.d> <pnetid|->: expected answer for the GID
# of that address of <ndev>, a bond (or a VLAN on it) over net2: on
# rxe2, the port of the active slave, with the bond's MAC and ifindex
bond_answer()
{
	local a b c d gid

	IFS=. read -r a b c d <<<"$2"
	gid=00000000000000000000ffff$(printf '%02x' "$a" "$b" "$c" "$d")
	echo "rxe2 1 $(gid_index_of 2 "$2") $gid $(cat "/sys/class/net/$1/address") v2" \
		"$(cat "/sys/class/net/$1/ifindex") $3"
}

# bond_down: net2 back out of the bond, with its address
bond_down()
{
	ip link del "$BOND.7" 2>/dev/null
	ip link set net2 nomaster 2>/dev/null
	ip link del "$BOND" 2>/dev/null
	ip link set net2 up
	ip addr replace "10.9.2.$h/24" dev net2
	wait_state rxe2 1 ACTIVE >/dev/null &&
		[ "$(gid_index_of 2 "10.9.2.$h")" != none ]
}

# TCP over an active-backup bond whose slave is net2, rxe2's netdev (as
# a host bonds its RoCE ports for TCP), and over a VLAN on the bond.
# The RoCE GIDs of the bond's addresses sit on the active slave's port.
# With no PNETID, that GID fits the bond itself; with a PNETID on net2
# and rxe2, the bond and its VLAN have the PNETID of the slave below
# them (the reference implementation looks at the base device too).
bond_selection()
{
	local rc=0 a=10.9.2.$h v=10.9.7.$h

	ip link add "$BOND" type bond mode active-backup miimon 100 || {
		echo "FAIL no bonding device"; return 1; }
	ip addr flush dev net2 scope global
	ip link set net2 down
	ip link set net2 master "$BOND" || rc=1
	ip link set "$BOND" up || rc=1
	ip addr add "$a/24" dev "$BOND" || rc=1
	ip link add link "$BOND" name "$BOND.7" type vlan id 7 || rc=1
	ip addr add "$v/24" dev "$BOND.7" || rc=1
	ip link set "$BOND.7" up || rc=1
	[ "$rc" = 0 ] || { bond_down; return 1; }
	select_is "v2 $BOND $a" "$(bond_answer "$BOND" "$a" -)" || rc=1
	select_is "v2 $BOND.7 $v" "$(bond_answer "$BOND.7" "$v" -)" || rc=1
	"$SMC_PNET" -a NETB -I net2 && "$SMC_PNET" -a NETB -D rxe2 -P 1 || rc=1
	select_is "v2 $BOND $a" "$(bond_answer "$BOND" "$a" NETB)" || rc=1
	select_is "v2 $BOND.7 $v" "$(bond_answer "$BOND.7" "$v" NETB)" || rc=1
	# an entry of the bond's own decides over its slave's
	"$SMC_PNET" -a NETC -I "$BOND" || rc=1
	select_is "v2 $BOND $a" ENODEV || rc=1
	"$SMC_PNET" -f || rc=1
	bond_down || { echo "FAIL net2 and rxe2 not back"; rc=1; }
	return "$rc"
}

# The device a group's second link takes, by the reference rule: never
# the first link's, the same PNETID (none on both matches), the group's
# VLAN, and for v2 a GID in the subnet of the first link's source
# address, which rxe2 has only once net2 holds an address in net1's.
alt_selection()
{
	local rc=0 a2=10.9.1.$((100 + h))

	select_is "alt v2 rxe1 - 0 10.9.1.$h" ENODEV || rc=1
	ip addr add "$a2/24" dev net2 || return 1
	select_is "alt v2 rxe1 - 0 10.9.1.$h" "$(alt_answer 2 "$a2" -)" || rc=1
	select_is "alt v2 rxe2 - 0 10.9.1.$h" "$(alt_answer 1 "10.9.1.$h" -)" || rc=1
	select_is "alt v2 rxe1 - 7 10.9.1.$h" ENODEV || rc=1
	select_is "alt v2 rxe1 - 0 10.9.3.$h" ENODEV || rc=1
	"$SMC_PNET" -a NETA -D rxe2 -P 1 || rc=1
	select_is "alt v2 rxe1 - 0 10.9.1.$h" ENODEV || rc=1
	select_is "alt v2 rxe1 NETA 0 10.9.1.$h" "$(alt_answer 2 "$a2" NETA)" || rc=1
	"$SMC_PNET" -f || rc=1
	# rxe offers RoCEv2 GIDs only: no v1 alternate without the switch
	select_is "alt v1 rxe1 - 0" ENODEV || rc=1
	echo "alt v9 rxe1 - 0" 2>/dev/null >"$SELECT" && {
		echo "FAIL a request of version 9 accepted"; rc=1; }
	ip addr del "$a2/24" dev net2 || rc=1
	return "$rc"
}

device_delete_add()
{
	rdma link delete rxe2 || return 1
	"$SMCR" device show
	"$SMCR" device show | grep -q rxe2 && {
		echo "FAIL rxe2 still listed after its deletion"; return 1; }
	select_is "v2 net2 10.9.2.$h" ENODEV || return 1
	rdma link add rxe2 type rxe netdev net2 || return 1
	wait_state rxe2 1 ACTIVE || return 1
	select_is "v2 net2 10.9.2.$h" "$(select_answer 2 -)"
}

unload_with_devices()
{
	smc_lib_mod_unload || { echo "FAIL rmmod"; return 1; }
	smc_lib_mod_ensure ours || return 1
	wait_state rxe1 1 ACTIVE && wait_state rxe2 1 ACTIVE
}

smc_lib_plan 10

smc_lib_mod_ensure ours >/dev/null 2>&1 ||
	smc_lib_bail_fail "cannot load our smc module"
smc_lib_mod peer unload >/dev/null 2>&1
smc_lib_mod peer ensure distro >/dev/null 2>&1 ||
	smc_lib_bail_fail "cannot load the distro smc module on the peer"
"$SMC_PNET" -f >/dev/null 2>&1
if ! wait_state rxe1 1 ACTIVE >/dev/null ||
	! wait_state rxe2 1 ACTIVE >/dev/null; then
	smc_lib_bail_fail "the rxe ports are not active"
fi

smc_lib_run "rxe1 and rxe2 listed with netdev and state" devices_listed
smc_lib_run "port state follows net2 down and up" port_follows_netdev
smc_lib_run "dump identical to the distro module's on the peer" like_distro
smc_lib_run "dump the same in a namespace, as upstream" netns_like_init
smc_lib_run "user PNETID shown, as by the distro module" pnetid_shown
smc_lib_run "device selection by subnet, netdev and PNETID" selection
smc_lib_run "a second link's device by the reference rule" alt_selection
smc_lib_run "device selection through a bond over net2 and a VLAN on it" \
	bond_selection
smc_lib_run "rxe2 deleted and added while loaded" device_delete_add
smc_lib_run "module unloaded and reloaded with devices" unload_with_devices
smc_lib_exit
