# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A second path between the rig's hosts, and ways to break it: for
# failover.sh and for the failover row of make bench
# (scripts/bench-guest.sh).  Sourced after lib.sh.  net2 holds an
# address in net1's subnet as well, so that rxe2 has a GID there, which
# the reference rule for a group's second device asks for in SMC-Rv2 (a
# GID in the subnet of the first link's source address); before 6.12,
# whose distro module wants PNETIDs, both ports get one PNETID.

# the second path's address of a host: 10.9.1.(100 + host number)
path2_addr()
{
	local ip

	if [ "$1" = local ]; then ip=$SMC_LOCAL_IP; else ip=$SMC_PEER_IP; fi
	echo "10.9.1.$((100 + ${ip##*.}))"
}

# path2 <local|peer> <add|del>: net2's address in net1's subnet, its
# route behind net1's (TCP stays on net1 whichever came up last); no
# ARP answers for one netdev's addresses on the other meanwhile
path2()
{
	local a cmd

	a=$(path2_addr "$1")
	if [ "$2" = add ]; then
		cmd="sysctl -qw net.ipv4.conf.all.arp_ignore=1 \
				net.ipv4.conf.all.arp_announce=2 &&
			ip addr add $a/24 dev net2 metric 100"
	else
		cmd="ip addr del $a/24 dev net2;
			sysctl -qw net.ipv4.conf.all.arp_ignore=0 \
				net.ipv4.conf.all.arp_announce=0"
	fi
	smc_lib_on "$1" "$cmd"
}

# pnet_common <local|peer> <add|flush>: one PNETID on both ports
pnet_common()
{
	local p=$SMC_LIB_PNET cmd

	if [ "$2" = flush ]; then
		cmd=$(smc_lib_q "$p" -f)
	else
		cmd="$(smc_lib_q "$p" -f) &&
			$(smc_lib_q "$p" -a SMCRIG -I net1 -D rxe1 -P 1) &&
			$(smc_lib_q "$p" -a SMCRIG -I net2 -D rxe2 -P 1)"
	fi
	smc_lib_on "$1" "$cmd"
}

# gid_up <local|peer>: rxe2 has the GID of the second path's address
gid_up()
{
	smc_lib_gid_has "$1" rxe2 "$(path2_addr "$1")"
}

# topology: the second path on both hosts, until rxe2 has its GID
topology()
{
	local h

	for h in local peer; do
		path2 "$h" add || return 1
		smc_lib_kernel_ge 6 12 || pnet_common "$h" add || return 1
	done
	for h in local peer; do
		smc_lib_wait_until 10 "rxe2 GID of $(path2_addr "$h") on $h" gid_up "$h" ||
			return 1
	done
}

# lgr_type_on <local|peer> <SERV|CLNT> <type>: the type of that host's
# group in that role (ours: smcr; the distro module: its smcr tool
# is not there, so its netlink dump through ours would do, but ours is
# unloaded there: the peer's type is read only where ours runs)
lgr_type_on()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
		grep -q '"role":"'"$2"'","type":"'"$3"'"'
}

# path2_break_cmd <how> <local|peer>: the command that breaks the
# second path of that host, where it runs: net2 down (or net1: down1),
# rxe2 deleted, net2's address (and with it rxe2's GID of the link)
# removed, its carrier taken by the rig's QEMU, or RoCE dropped as it
# comes in on net2 (tc), silently as a switch would: ports and GIDs
# stay, and TCP passes
path2_break_cmd()
{
	case $1 in
	down) echo "ip link set dev net2 down" ;;
	down1) echo "ip link set dev net1 down" ;;
	rdma-del) echo "rdma link delete rxe2" ;;
	addr-del) echo "ip addr del $(path2_addr "$2")/24 dev net2" ;;
	carrier) echo "$SMC_RIG_CARRIER net2 down" ;;
	tc-in | tc-ack)
		echo "tc qdisc add dev net2 clsact &&" \
			"tc filter add dev net2 ingress $SMC_LIB_ROCE_DROP"
		;;
	*) return 1 ;;
	esac
}

# path2_heal <local|peer>: the second path back as topology() made it, with
# its address (and the first, after both_down: net1 first, so that its
# route to the subnet comes first again, as the peer answers ARP for its
# net1 address only on net1)
path2_heal()
{
	smc_lib_on "$1" "tc qdisc del dev net2 clsact 2>/dev/null;
			rdma link show rxe2/1 >/dev/null 2>&1 ||
				rdma link add rxe2 type rxe netdev net2;
			printf 'link set dev net%s up\\n' 1 2 | ip -batch - &&
				${SMC_RIG_CARRIER:+$SMC_RIG_CARRIER net2 up &&}
				ip addr replace $(path2_addr "$1")/24 dev net2 metric 100" &&
		smc_lib_wait_until 10 "rxe2 GID of $(path2_addr "$1") on $1" \
			gid_up "$1" &&
		smc_lib_wait_until 10 "rxe1 GID of $(smc_lib_ip "$1") on $1" \
			smc_lib_gid_has "$1" rxe1 "$(smc_lib_ip "$1")"
}
