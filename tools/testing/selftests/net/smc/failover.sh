#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Redundant links.  Each host gets a second path first: net2 holds an
# address in net1's subnet as well, so that rxe2 has a GID there, which
# the reference rule for a group's second device asks for in SMC-Rv2 (a
# GID in the subnet of the first link's source address); on 6.1, whose
# distro module wants PNETIDs, both ports get one PNETID.  Then the
# server offers a second link at first contact and the client takes it,
# in each role against the distro module and between our modules: the
# group is SYMMETRIC within 5 s, and connections the server puts on
# either link move verified data.  Then the second link fails in the
# middle of a verified transfer over both links (on one host net2 goes
# down, its RDMA device is deleted, or its address, and with it the
# link's GID, is removed): the connections on it move to the first
# link, every byte arrives, and both ends are SINGLE.  Against
# the distro module the failure is on the server's host: the reference
# implementation's server waits for ever for the sends of a link whose
# peer vanished (failover brief 3.3).  Last, between our modules, both
# paths of the client's host go down mid-transfer: both ends get their
# error within a bound and the groups are freed (both_down below).  The
# paths come back, and last a VLAN over both paths carries a group with
# its id and two links; the client's VLAN on net2 going down moves its
# connections to link 1 and the link returns with the VLAN (vlan_group
# below).
# SMC_SELFTEST_QUICK=1 (the slow debug kernel): ours on both hosts only,
# the port going down with less data, and its recovery;
# SMC_SELFTEST_SECONDARY=1: against the distro module only.
# shellcheck disable=SC2317 # functions run through smc_lib_run and trap

. "$(dirname "$0")/lib.sh"
# shellcheck source=failover_lib.sh
. "$(dirname "$0")/failover_lib.sh"

# link_ids: the link ids our SMC-R sockets use, sorted, unique
link_ids()
{
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCSS" -R -j)" |
		grep -o '"link_id":[0-9]*' | sort -u | tr '\n' ' '
}

# The hook of smc_conns_test with every connection up: modes as always,
# and the connections on two links.
hook_two_links()
{
	local ids

	bash "$SMC_LIB_DIR/lib.sh" hook_conns || return 1
	ids=$(link_ids)
	echo "link ids in use: $ids"
	[ "$(wc -w <<<"$ids")" -eq 2 ] || {
		echo "FAIL the connections use $(wc -w <<<"$ids") link(s)"
		return 1
	}
}

# run as the hook: nothing of the set-up below
if [ "${1:-}" = hook_two_links ]; then
	hook_two_links
	exit $?
fi

SMC_LIB_CONNS_TEST=$SMC_LIB_DIR/smc_conns_test
smc_lib_require_tools
[ -x "$SMC_LIB_CONNS_TEST" ] || smc_lib_bail_skip "$SMC_LIB_CONNS_TEST not built"
smc_lib_smcr_setup
case $(smc_lib_distro_state) in
yes) ;;
skip) smc_lib_bail_skip "$SMC_LIB_DISTRO_SMCR_WHY" ;;
*) smc_lib_bail_skip "the peer has no distribution smc module" ;;
esac

SMC_HOOK_EXPECT_CLIENT="SMCR 0x00000000"
SMC_HOOK_EXPECT_SERVER="SMCR 0x00000000"
export SMC_HOOK_EXPECT_CLIENT SMC_HOOK_EXPECT_SERVER

cleanup()
{
	local h

	VLAN_ON=
	for h in local peer; do
		vlan_paths "$h" del
		heal "$h"
		path2 "$h" del
		smc_lib_kernel_ge 6 12 || pnet_common "$h" flush
	done
	smc_lib_smcr_cleanup
} >/dev/null 2>&1
trap cleanup EXIT

# slow_qps <local|peer>: the debug kernel under TCG can stall for
# seconds (once 3.4 s, and a debug host's link 1 lost its QP to
# "transport retry counter exceeded" while link 2 failed over): there
# our QPs wait 1.1 s for an ACK instead of 134 ms (a test build's
# qp_timeout 18), 8.6 s with their retries
slow_qps()
{
	smc_lib_on "$1" "echo 18 > /sys/kernel/debug/smc/qp_timeout"
}

# peer_module <distro|ours>: ours here, that module on the peer, no
# link group left from before
peer_module()
{
	smc_lib_mod peer unload && smc_lib_mod local unload &&
		smc_lib_mod local ensure ours && smc_lib_ueid_set local &&
		smc_lib_mod peer ensure "$1" || return 1
	if [ "$1" = distro ]; then
		smc_lib_distro_pnet peer || return 1
	fi
	if [ -n "${SMC_SELFTEST_QUICK:-}" ] && [ "$1" = ours ]; then
		slow_qps local && slow_qps peer || return 1
	fi
	smc_lib_ueid_set peer || return 1
	if ! smc_lib_kernel_ge 6 12; then
		pnet_common local add && pnet_common peer add || return 1
	fi
	[ "$(smc_lib_mod peer which)" = "$1" ]
}

# lgr_type_is <SERV|CLNT> <type>: the type of our group in that role,
# from smcr linkgroup show
lgr_type_is()
{
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
		grep -q '"role":"'"$1"'","type":"'"$2"'"'
}

# two_links_listed <SERV|CLNT>: smcr linkgroup link-show lists our
# group's two links in that role ACTIVE, one on each device
two_links_listed()
{
	local out devs

	out=$(smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup link-show)") ||
		return 1
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup link-show)"
	devs=$(grep -o '{[^}]*}' <<<"$out" | grep "\"role\":\"$1\"" |
		grep '"state":"ACTIVE"' | grep -o '"ib_dev":"rxe[12]"' | sort -u |
		wc -l)
	[ "$devs" -eq 2 ] || {
		echo "FAIL link-show: ACTIVE $1 links on $devs device(s), want 2"
		return 1
	}
}

# first_contact_symmetric <server: local|peer>: the first connection
# makes the group; the server adds its second link right after the
# first one's CONFIRM_LINK.
first_contact_symmetric()
{
	local args=(--family smc --size 65536 --dir both --seed 5 --timeout 120)
	local role=CLNT

	[ "$1" = local ] && role=SERV
	smc_lib_pair "$SMC_LIB_DATA_TEST" "$1" args args || return 1
	smc_lib_wait_until 5 "our $role group SYMMETRIC" \
		lgr_type_is "$role" SYM || {
		smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup show)"
		return 1
	}
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup show)"
	two_links_listed "$role"
}

# both_links_carry <server: local|peer>
# shellcheck disable=SC2034 # args by name
both_links_carry()
{
	local args=(--family smc --conns 8 --size 262144 --seed 8 --timeout 300)
	local SMC_LIB_HOOK="bash $SMC_LIB_DIR/failover.sh hook_two_links"
	local SMC_HOOK_LGRS=1

	export SMC_HOOK_LGRS
	smc_lib_pair "$SMC_LIB_CONNS_TEST" "$1" args args
}

# failovers <local|peer>: links that failed over on that host
failovers()
{
	smc_lib_fo_count "$1" failovers
}

# fail_cause <how>: the causes the failing host may count.  A netdev
# going down with sends in flight: rxe fails a send on it at once,
# which can come before the port event (both seen on the rig).  RoCE
# dropped on its way in: TEST_LINK goes unanswered (rxe retries a send
# for ever; a RoCE NIC would fail it after 7 retries).
fail_cause()
{
	case $1 in
	down | down1 | carrier) echo "port wr_error" ;;
	rdma-del) echo device ;;
	addr-del) echo gid ;;
	vlan-down) echo "gid wr_error" ;;
	tc-in | tc-ack) echo "testlink wr_error" ;;
	esac
}

# fail_cmd <how> <local|peer>: the command that breaks the second path
# of that host (path2_break_cmd), or the VLAN on net2 (vlan-down)
fail_cmd()
{
	case $1 in
	vlan-down) echo "ip link set dev net2.$VLAN_ID down" ;;
	*) path2_break_cmd "$@" ;;
	esac
}

# heal <local|peer>: the second path back (path2_heal), and the VLANs
# on it if the VLAN cases run
heal()
{
	path2_heal "$1" && { [ -z "$VLAN_ON" ] || vlan_paths "$1" up; }
}

heal_both()
{
	heal local && heal peer
}

# cdc_faults <local|peer>: CDCs our module dropped as malformed, out of
# the ring or backwards, and connections found out of sync ("-" where
# another module runs); rewound and jumping ones are a failover's own
cdc_faults()
{
	smc_lib_on "$1" "cat /sys/kernel/debug/smc/cdc_rx 2>/dev/null" |
		awk '$1 == "bad" || $1 == "backwards" || $1 == "out_of_sync" {
			n += $2 } { seen = 1 } END { print seen ? n + 0 : "-" }'
}

# link_fails <server: local|peer> <failing host: local|peer> <how>:
# 8 connections over both links; the side on the failing host breaks
# its second path when a quarter of what it receives is in (the server
# during the client's sends, the client during the answers).  Every
# byte arrives, the groups end SINGLE, a host of ours that saw the
# failure counts a failover and a link down by its cause (the port or
# a failed send on it, the device, or the GID), and the other host a
# link down by any cause (the peer's DELETE_LINK, or its own QP's
# retries if they end first).  On the stock x86_64 pair no connection
# waits for data longer than FAIL_GAP_MS (failover brief F2: the
# failure's event, the switch and the rewrite; 0.2-0.4 s on the rig);
# the repeats (SECONDARY) only report it: against the distro module on
# an s390x host, which QEMU emulates, it was 4.6-5.9 s.  A silent
# break (tc-in, tc-ack) must not stall one longer than SILENT_GAP_MS,
# and the retries of a
# second link start (silent_back).  tc-ack: the failing host breaks the
# path when a quarter of what it sends is out, and only the peer's
# acknowledgements and CDCs are lost: the failing host writes again
# bytes the peer has (counted), which the peer takes as no new data.
# shellcheck disable=SC2034 # args by name
link_fails()
{
	local srv=$1 fh=$2 args=(--family smc --conns 8 --size "$FAIL_SIZE"
		--seed 11 --timeout 300)
	local sargs cargs fail h role before faults_l faults_p rc=0
	local oh=local cause by_cause by_any rewrite
	local SMC_LIB_HOOK="bash $SMC_LIB_DIR/lib.sh hook_conns"

	fail=(--fail-at $((8 * FAIL_SIZE / 4)) --fail-cmd "$(fail_cmd "$3" "$fh")")
	[ "$3" = tc-ack ] && fail+=(--fail-sent)
	case $3 in
	tc-*) args+=(--max-gap "$SILENT_GAP_MS") ;;
	*) [ -n "${SMC_SELFTEST_QUICK:-}${SMC_SELFTEST_SECONDARY:-}" ] ||
		args+=(--max-gap "$FAIL_GAP_MS") ;;
	esac
	# the debug kernel: see at FAIL_SIZE below
	if [ -n "${SMC_SELFTEST_QUICK:-}" ]; then
		fail+=(--fail-all-up)
		args+=(--window 2 --connect-first)
	fi
	sargs=("${args[@]}")
	cargs=("${args[@]}")
	if [ "$fh" = "$srv" ]; then
		sargs+=("${fail[@]}")
	else
		cargs+=("${fail[@]}")
	fi
	[ "$fh" = local ] && oh=peer
	cause=$(fail_cause "$3")
	before=$(failovers "$fh")
	by_cause=$(smc_lib_down_count "$fh" "$cause")
	by_any=$(smc_lib_down_count "$oh" all)
	faults_l=$(cdc_faults local)
	faults_p=$(cdc_faults peer)
	case $3 in
	tc-ack) rewrite=$(smc_lib_fo_count "$fh" conns_rewrite) ;;
	esac
	case $3 in
	tc-*)
		echo "$(smc_lib_fo_count local link_add_retries)" \
			"$(smc_lib_fo_count peer link_add_retries)" >"$RES.retries"
		;;
	esac
	smc_lib_pair "$SMC_LIB_CONNS_TEST" "$srv" sargs cargs || rc=1
	for h in local peer; do
		[ "$(failovers "$h")" = - ] && continue
		role=CLNT
		[ "$h" = "$srv" ] && role=SERV
		smc_lib_wait_until 10 "the $role group on $h SINGLE" \
			lgr_type_on "$h" "$role" SINGLE || {
			smc_lib_on "$h" "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup show)"
			rc=1
		}
	done
	if [ "$before" != - ] && [ "$(failovers "$fh")" -le "$before" ]; then
		echo "FAIL no failover counted on $fh ($before before)"
		rc=1
	fi
	if [ "$by_cause" != - ] &&
		[ "$(smc_lib_down_count "$fh" "$cause")" -le "$by_cause" ]; then
		echo "FAIL no link down by $cause counted on $fh ($by_cause before)"
		rc=1
	fi
	if [ "$by_any" != - ] && [ "$(smc_lib_down_count "$oh" all)" -le "$by_any" ]; then
		echo "FAIL no link down counted on $oh ($by_any before)"
		rc=1
	fi
	if [ "$(cdc_faults local)" != "$faults_l" ] ||
		[ "$(cdc_faults peer)" != "$faults_p" ]; then
		echo "FAIL CDC faults: local $faults_l -> $(cdc_faults local)," \
			"peer $faults_p -> $(cdc_faults peer)"
		rc=1
	fi
	if [ "$3" = tc-ack ] && [ "$rewrite" != - ] &&
		[ "$(smc_lib_fo_count "$fh" conns_rewrite)" -le "$rewrite" ]; then
		echo "FAIL no connection wrote bytes again on $fh ($rewrite before)"
		rc=1
	fi
	smc_lib_on local "cat /sys/kernel/debug/smc/failover"
	return "$rc"
}

# new_link_id <SERV|CLNT>: our group in that role has an ACTIVE link
# with an id above 2: the link added again did not take the id of the
# one deleted (ids 1 and 2 were the first two)
new_link_id()
{
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup link-show)" |
		grep -o '{[^}]*}' | grep "\"role\":\"$1\"" |
		grep '"state":"ACTIVE"' | grep -Eq '"link_id":([3-9]|[1-9][0-9]+),'
}

# recovers <failed host: local|peer> <SERV|CLNT>...: the second path
# back on that host; our groups in those roles SYMMETRIC again within
# 10 s (a server offers the link when its port comes back, a client
# asks for it), two ACTIVE links, the new one with a new id
recovers()
{
	local h=$1

	shift
	heal "$h" && symmetric_again "$RECOVER_S" "$@"
}

# symmetric_again <seconds> <SERV|CLNT>...: as recovers, once the path
# is back
symmetric_again()
{
	local s=$1 role

	shift
	for role in "$@"; do
		smc_lib_wait_until "$s" "our $role group SYMMETRIC again" \
			lgr_type_is "$role" SYM || {
			smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup link-show)"
			return 1
		}
		two_links_listed "$role" || return 1
		new_link_id "$role" || {
			echo "FAIL the $role group's new link reused a link id"
			return 1
		}
	done
}

# again <distro|ours> <server: local|peer>: the second path back, fresh
# modules, and a group SYMMETRIC again (a group that lost a link stays
# SINGLE until it is re-added)
again()
{
	heal_both && peer_module "$1" &&
		first_contact_symmetric "$2"
}

# A silent break of the second path (failover brief F2, F3): RoCE
# dropped as it comes into the client's net2, the server on the peer.
# Only TEST_LINK finds it, every SILENT_TESTLINK_S on both hosts here,
# set before the group's first contact (a link's keepalive runs at the
# time it had when it last ran).  No connection waits for data longer
# than the keepalive, its 2 s wait for the answer and SILENT_SLACK_S
# for the switch under TCG.  Without the filter the path passes again,
# with no event at all: the group tries a second link again 2 s after
# the loss, then twice as long each time up to 30 s (SMC_LGR_RETRY_*),
# so it is SYMMETRIC again within SILENT_BACK_S, by such a retry.
SILENT_TESTLINK_S=2
SILENT_SLACK_S=4
SILENT_GAP_MS=$(((SILENT_TESTLINK_S + 2 + SILENT_SLACK_S) * 1000))
SILENT_BACK_S=40

# silent_group: ours on both hosts with the short keepalive, and a
# group SYMMETRIC with the server on the peer
silent_group()
{
	heal_both && peer_module ours &&
		smc_lib_testlink local "$SILENT_TESTLINK_S" &&
		smc_lib_testlink peer "$SILENT_TESTLINK_S" &&
		first_contact_symmetric peer
}

# silent_back: the client's net2 passes RoCE again; only a retry of
# the client's group or the server's finds it (counted since the loss:
# one may be under way already, its new link's first message resent
# until the filter goes)
silent_back()
{
	local retries_l retries_p

	read -r retries_l retries_p <"$RES.retries" || return 1
	rm -f "$RES.retries"
	smc_lib_on local "tc qdisc del dev net2 clsact" || return 1
	symmetric_again "$SILENT_BACK_S" CLNT || return 1
	smc_lib_fo_show
	if [ "$(smc_lib_fo_count local link_add_retries)" = "$retries_l" ] &&
		[ "$(smc_lib_fo_count peer link_add_retries)" = "$retries_p" ]; then
		echo "FAIL SYMMETRIC again, but no retry counted on either host"
		return 1
	fi
}

# Both paths of a group fail (failover brief F4).  The host whose ports
# go down ends its connections within BOTH_LOCAL_MAX_S: each link has
# its port event or a failed send.  The other host's sends meet no
# error (its QPs have nothing in flight then): it finds the links dead
# by TEST_LINK, within the keepalive time, the two 2 s waits for the
# answer and a second more.  The keepalive is 5 s instead of 30 for this
# case (a link takes the time when its keepalive starts).  Then both
# groups are gone within BOTH_GONE_MAX_S and no task stays in D state:
# on the peer within that time; here within 5 s of the paths coming
# back if not before.  rxe's QP destroy waits (up to 50 s) until every
# packet the QP sent is freed, and the rig's virtio-net NICs free the
# packets they sent only when they are up again: seen in 3 of 13 runs,
# a teardown in rxe_destroy_qp() until net1 came back, then gone within
# 0.4 s.
BOTH_TESTLINK_S=5
BOTH_LOCAL_MAX_S=2
BOTH_REMOTE_MAX_S=$((BOTH_TESTLINK_S + 2 * 2 + 1))
BOTH_GONE_MAX_S=10
RES=/tmp/smc_failover.$$

# testlink_group: ours on both hosts with the short keepalive, and a
# group SYMMETRIC with the server on the peer
testlink_group()
{
	heal_both && peer_module ours &&
		smc_lib_testlink local "$BOTH_TESTLINK_S" &&
		smc_lib_testlink peer "$BOTH_TESTLINK_S" &&
		first_contact_symmetric peer
}

# no_dstate <local|peer>: no task in uninterruptible sleep there
no_dstate()
{
	[ -z "$(smc_lib_dstate "$1")" ]
}

# dstate_stacks <local|peer>: the tasks in D state there, with stacks
# shellcheck disable=SC2016 # expanded where it runs
dstate_stacks()
{
	smc_lib_on "$1" 'for p in $(ps -eo stat=,pid= | awk '"'"'$1 ~ /^D/ { print $2 }'"'"'); do
		echo "D task $p $(cat /proc/$p/comm):"; cat /proc/$p/stack; done'
}

# keep_addr "<net1> <net2>": IPv6's keep_addr_on_down of the two netdevs
keep_addr()
{
	local a b

	read -r a b <<<"$1"
	sysctl -qw net.ipv6.conf.net1.keep_addr_on_down="${a:-0}" \
		net.ipv6.conf.net2.keep_addr_on_down="${b:-0}"
}

# both_down: a verified transfer both ways, the server on the peer; the
# client's host takes net1 and net2 down at once.  Both ends get an
# error within their bounds, every byte that arrived is right, the
# groups end and are freed on both hosts, no task stays in D state (see
# above), ours counts two links down by the port or a failed send, the
# peer at least one by any cause.
both_down()
{
	local t0 t1 rc=0 keep l_ends p_ends l_down p_down h
	local -x SMC_HOOK_EXPECT="SMCR 0x00000000" SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"

	keep=$(sysctl -n net.ipv6.conf.net1.keep_addr_on_down \
		net.ipv6.conf.net2.keep_addr_on_down | tr '\n' ' ')
	# IPv6 keeps the netdevs' addresses (the scripts after this use them)
	keep_addr "1 1" || return 1
	l_ends=$(smc_lib_fo_count local group_ends)
	p_ends=$(smc_lib_fo_count peer group_ends)
	l_down=$(smc_lib_down_count local "port wr_error")
	p_down=$(smc_lib_down_count peer all)
	smc_lib_busy_start 60 "$RES" "$RES.client" 13 || {
		keep_addr "$keep"
		return 1
	}
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" linkgroup link-show)"
	t0=$(smc_lib_now_ms)
	printf 'link set dev net%s down\n' 1 2 | ip -batch - || rc=1
	smc_lib_busy_end "$t0" "$BOTH_LOCAL_MAX_S" "$BOTH_REMOTE_MAX_S" \
		"$RES" "$RES.client" || rc=1
	smc_lib_wait_until "$BOTH_GONE_MAX_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	echo "both groups gone by $(($(smc_lib_now_ms) - t0)) ms"
	smc_lib_wait_until "$BOTH_GONE_MAX_S" "no task in D state on the peer" \
		no_dstate peer || { dstate_stacks peer; rc=1; }
	if ! smc_lib_wait_until "$BOTH_GONE_MAX_S" "D state here" \
		no_dstate local >/dev/null; then
		echo "in D state here ${BOTH_GONE_MAX_S}s after, the paths down:"
		dstate_stacks local
		t1=$(smc_lib_now_ms)
		heal local || rc=1
		echo "paths back here after $(($(smc_lib_now_ms) - t1)) ms"
		smc_lib_wait_until 5 "no task in D state here with the paths back" \
			no_dstate local || { dstate_stacks local; rc=1; }
		echo "no D state here $(($(smc_lib_now_ms) - t1)) ms after the paths came back"
	fi
	smc_lib_fo_show
	if [ "$(smc_lib_fo_count local group_ends)" -le "$l_ends" ] ||
		[ "$(smc_lib_fo_count peer group_ends)" -le "$p_ends" ]; then
		echo "FAIL a group end not counted"
		rc=1
	fi
	[ "$(smc_lib_down_count local "port wr_error")" -ge $((l_down + 2)) ] || {
		echo "FAIL not two links down by the port or a failed send here"; rc=1; }
	[ "$(smc_lib_down_count peer all)" -gt "$p_down" ] || {
		echo "FAIL no link down counted on the peer"; rc=1; }
	keep_addr "$keep"
	return "$rc"
}

# paths_back: both paths back on both hosts, the default keepalive, and
# a new group SYMMETRIC, with the server on the peer
paths_back()
{
	heal_both && smc_lib_testlink local 30 && smc_lib_testlink peer 30 &&
		first_contact_symmetric peer
}

# A VLAN over both paths (between our modules): VLAN_ID on net1 and net2
# of both hosts, net1's with 10.9.7.<host>, net2's with 10.9.7.(100 +
# <host>) as path2 above.  A group over the VLAN's addresses has VLAN_ID
# and its second link on net2's VLAN; that VLAN going down takes its
# GIDs off rxe2 (the port stays up), and the link fails over.
VLAN_ID=7
VLAN_ON=
LOCAL_IP1=$SMC_LOCAL_IP
PEER_IP1=$SMC_PEER_IP

# vlan_addr <local|peer> <1|2>: the host's address on that netdev's VLAN
vlan_addr()
{
	local ip

	if [ "$1" = local ]; then ip=$LOCAL_IP1; else ip=$PEER_IP1; fi
	if [ "$2" = 1 ]; then
		echo "10.9.$VLAN_ID.${ip##*.}"
	else
		echo "10.9.$VLAN_ID.$((100 + ${ip##*.}))"
	fi
}

# vlan_paths <local|peer> <add|up|del>: the VLAN on both netdevs of the
# host made (or set up again, with its addresses), its GIDs on rxe1 and
# rxe2; or deleted
vlan_paths()
{
	local a1 a2 v=$VLAN_ID

	a1=$(vlan_addr "$1" 1)
	a2=$(vlan_addr "$1" 2)
	case $2 in
	add)
		smc_lib_on "$1" "ip link add link net1 name net1.$v type vlan id $v &&
				ip link add link net2 name net2.$v type vlan id $v" ||
			return 1
		;;
	del)
		smc_lib_on "$1" "ip link del net1.$v; ip link del net2.$v"
		return 0
		;;
	esac
	smc_lib_on "$1" "ip link set dev net1.$v up && ip link set dev net2.$v up &&
			ip addr replace $a1/24 dev net1.$v &&
			ip addr replace $a2/24 dev net2.$v metric 100" &&
		smc_lib_wait_until 10 "rxe1 GID of $a1 on $1" smc_lib_gid_has "$1" rxe1 "$a1" &&
		smc_lib_wait_until 10 "rxe2 GID of $a2 on $1" smc_lib_gid_has "$1" rxe2 "$a2"
}

# vlan_use <on|off>: the transfers after this run over the VLAN's
# addresses, or net1's.  A case runs in a subshell (smc_lib_run): the
# script calls this between the cases too.
vlan_use()
{
	if [ "$1" = on ]; then
		VLAN_ON=1
		SMC_LOCAL_IP=$(vlan_addr local 1)
		SMC_PEER_IP=$(vlan_addr peer 1)
	else
		VLAN_ON=
		SMC_LOCAL_IP=$LOCAL_IP1
		SMC_PEER_IP=$PEER_IP1
	fi
	export SMC_LOCAL_IP SMC_PEER_IP
}

# vlan_group: fresh modules, the VLAN on both hosts, the transfers over
# its addresses, and a first contact that makes a SYMMETRIC group with
# the VLAN's id and a link on each device (the server on the peer)
vlan_group()
{
	local h

	peer_module ours || return 1
	for h in local peer; do
		vlan_paths "$h" add || return 1
	done
	vlan_use on
	first_contact_symmetric peer || return 1
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
		grep -q '"role":"CLNT","type":"SYM","vlan":'"$VLAN_ID"',' || {
		echo "FAIL the group has not VLAN $VLAN_ID"
		return 1
	}
}

# vlan_gone: the VLAN deleted on both hosts, the transfers over net1's
# addresses again
vlan_gone()
{
	local h

	vlan_use off
	for h in local peer; do
		vlan_paths "$h" del
	done
	heal_both
}

# Links flap (failover brief F6): <n> times, net2 and net1 of this host
# in turn go down in the middle of 8 concurrent verified transfers (the
# server on the peer) and come back.  Each time the group is SINGLE
# within 10 s and SYMMETRIC again within 10 s of the path's return; the
# transfers run through all of it, every byte arrives, and the group is
# the one from the start: none ended on either host, and no connection
# waited for data longer than FAIL_GAP_MS.  make check runs FLAPS; make
# soak (smcr_soak.sh) runs 100.
FLAPS=${SMC_FAILOVER_FLAPS:-4}

# flaps_begin: what the flaps start from, into the caller's locals:
# addresses kept on down (the setting before in $keep), the SYMMETRIC
# client group ($lgr) and the group ends so far on each host ($ends_l,
# $ends_p), for same_group at the end
# shellcheck disable=SC2034 # the caller's locals
flaps_begin()
{
	keep=$(sysctl -n net.ipv6.conf.net1.keep_addr_on_down \
		net.ipv6.conf.net2.keep_addr_on_down | tr '\n' ' ')
	keep_addr "1 1" || return 1
	lgr=$(smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
		grep -o '"lgr_id":"[0-9a-f]*","role":"CLNT","type":"SYM"')
	[ -n "$lgr" ] || {
		echo "FAIL no SYMMETRIC client group to start"
		keep_addr "$keep"
		return 1
	}
	ends_l=$(smc_lib_fo_count local group_ends)
	ends_p=$(smc_lib_fo_count peer group_ends)
}

# same_group <client group> <group_ends here> <group_ends on the peer>:
# after the flaps, no group ended on either host and the client group
# is the one from the start
same_group()
{
	local rc=0

	smc_lib_fo_show
	if [ "$(smc_lib_fo_count local group_ends)" != "$2" ] ||
		[ "$(smc_lib_fo_count peer group_ends)" != "$3" ]; then
		echo "FAIL a group ended during the flaps"
		rc=1
	fi
	smc_lib_on local "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
		grep -q "$1" || {
		echo "FAIL the client group is not the one from the start ($1)"
		rc=1
	}
	return "$rc"
}

# flaps_each <n>: the flaps on the debug kernel (QUICK), where a data
# rate of 0.7 MB/s and 10-40 s per flap leave no transfer size that
# outlasts them all and ends in time: each flap has verified transfers
# of its own (link_fails: a quarter into the answers the client's net2,
# then net1, goes down, every byte arrives, the groups end SINGLE), and
# the path comes back (recovers).  The group is the one from the start
# and none ended on either host.
flaps_each()
{
	local n=$1 i k lgr ends_l ends_p keep rc=0 t0 cause

	flaps_begin || return 1
	for ((i = 1; i <= n; i++)); do
		k=$((i % 2 ? 2 : 1))
		cause=down
		[ "$k" = 1 ] && cause=down1
		t0=$(smc_lib_now_ms)
		link_fails peer local "$cause" >"$RES.flap" 2>&1 ||
			{ cat "$RES.flap"; echo "FAIL flap $i (net$k)"; rc=1; break; }
		recovers local CLNT >"$RES.flap" 2>&1 ||
			{ cat "$RES.flap"; echo "FAIL flap $i: net$k back"; rc=1; break; }
		echo "flap $i net$k: failed over and back in $(($(smc_lib_now_ms) - t0)) ms"
	done
	rm -f "$RES.flap"
	keep_addr "$keep"
	same_group "$lgr" "$ends_l" "$ends_p" || rc=1
	return "$rc"
}

# two_link_ids: our connections here use two links
two_link_ids()
{
	[ "$(link_ids | wc -w)" -eq 2 ]
}

# flaps <n>
flaps()
{
	local n=$1 i k rc=0 port cpid ends_l ends_p lgr keep size t0 t1 t2
	local args out=$RES.flaps
	local -x SMC_HOOK_EXPECT="SMCR 0x00000000" SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"

	# per connection and way: enough to outlast the flaps under TCG
	size=$(((2 * n + 16) * 1048576))
	args=(--family smc --conns 8 --size "$size" --seed 31 --timeout $((60 + 20 * n))
		--max-gap "$FAIL_GAP_MS")
	flaps_begin || return 1
	port=$(smc_lib_server peer "$SMC_LIB_CONNS_TEST" --result "$out" \
		"${args[@]}") || { echo "$port"; keep_addr "$keep"; return 1; }
	"$SMC_LIB_CONNS_TEST" client --host "$(smc_lib_ip peer)" --port "$port" \
		--hook "bash $SMC_LIB_DIR/lib.sh hook_conns" "${args[@]}" \
		>"$out.client" 2>&1 &
	cpid=$!
	smc_lib_wait_until 30 "the connections on both links" two_link_ids ||
		rc=1
	for ((i = 1; i <= n && rc == 0; i++)); do
		k=$((i % 2 ? 2 : 1))
		kill -0 "$cpid" 2>/dev/null || {
			echo "FAIL the transfers ended before flap $i"; rc=1; break; }
		t0=$(smc_lib_now_ms)
		ip link set dev "net$k" down
		smc_lib_wait_until 10 "flap $i: SINGLE with net$k down" \
			lgr_type_is CLNT SINGLE || rc=1
		t1=$(smc_lib_now_ms)
		heal local >/dev/null || { echo "FAIL flap $i: net$k not back"; rc=1; }
		t2=$(smc_lib_now_ms)
		smc_lib_wait_until 10 "flap $i: SYMMETRIC with net$k back" \
			lgr_type_is CLNT SYM || rc=1
		echo "flap $i net$k: SINGLE in $((t1 - t0)) ms," \
			"the path back in $((t2 - t1)) ms," \
			"SYMMETRIC in $(($(smc_lib_now_ms) - t2)) ms"
	done
	echo "$((i - 1)) flaps"
	kill -0 "$cpid" 2>/dev/null || {
		echo "FAIL the transfers ended during the flaps (raise their size)"; rc=1; }
	wait "$cpid" || rc=1
	sed 's/^/  client: /' "$out.client"
	rm -f "$out.client"
	smc_lib_peer "$(smc_lib_q "$SMC_LIB_CONNS_TEST" wait --result "$out")" 2>&1 |
		sed 's/^/  server: /'
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "FAIL server"; rc=1; }
	keep_addr "$keep"
	same_group "$lgr" "$ends_l" "$ends_p" || rc=1
	return "$rc"
}

FAIL_SIZE=4194304
FAIL_GAP_MS=2000
RECOVER_S=10
# On the debug kernel (SMC_SELFTEST_QUICK) under TCG, "rdma link delete"
# takes 8-24 s in the RDMA core (our remove callback 0.1 s of it), and a
# handshake under way then may miss the client's CLC wait (6 s, connect
# ETIMEDOUT); and handshakes while data moves, or eight at once, can
# keep a debug host from answering within the client's CLC wait or the
# peer's CONFIRM_RKEY within its LLC wait (2 s, a decline ERR_REGBUF).
# So there two connect at a time, data moves once all are up, and the
# link fails after that.  The stock kernel runs the burst, with data,
# and handshakes in flight through the failure.  Once a deletion took
# 60 s and stalled the debug host's rxe1 as well, past the QPs' retries
# on link 1 (the group ended): the debug host's link fails by the port
# event, which the stock pair runs too, device removal is the stock
# pair's case, and the QPs retry longer (slow_qps).
if [ -n "${SMC_SELFTEST_QUICK:-}" ]; then
	FAIL_SIZE=1048576
	RECOVER_S=30
	FLAPS=${SMC_FAILOVER_FLAPS:-2}
	smc_lib_plan 7
	smc_lib_run "net2 holds an address in net1's subnet on both hosts" topology
	smc_lib_run "ours on both hosts: SYMMETRIC within 5 s" again ours local
	smc_lib_run "ours/ours: the server's net2 goes down mid-transfer, all verified on link 1" \
		link_fails local local down
	smc_lib_run "ours/ours: the server's net2 back, SYMMETRIC again" \
		recovers local SERV
	smc_lib_run "ours/ours, the server on the peer: SYMMETRIC within 5 s" \
		first_contact_symmetric peer
	name="ours/ours: $FLAPS flaps of the client's net2 and net1 in turn,"
	name+=" each under verified transfers, one group throughout"
	smc_lib_run "$name" flaps_each "$FLAPS"
	smc_lib_run "both paths back" heal_both
	smc_lib_exit
fi

# SMC_SELFTEST_SECONDARY=1 (6.1, s390x): the cases against the distro
# module, which there is another release or byte order; ours against
# ours runs in the stock x86_64 pair
if [ -n "${SMC_SELFTEST_SECONDARY:-}" ]; then
	smc_lib_plan 13
else
	smc_lib_plan 40
fi
smc_lib_run "net2 holds an address in net1's subnet on both hosts" topology
smc_lib_run "ours here, the distro module on the peer" peer_module distro
smc_lib_run "ours-client distro-server: SYMMETRIC within 5 s" \
	first_contact_symmetric peer
smc_lib_run "8 connections over both links, verified" both_links_carry peer
name="ours-client distro-server: the server's net2 goes down mid-transfer,"
name+=" all verified on link 1"
smc_lib_run "$name" link_fails peer peer down
smc_lib_run "ours-client distro-server: the server's net2 back, SYMMETRIC again" \
	recovers peer CLNT
smc_lib_run "8 connections over both links again, verified" \
	both_links_carry peer
smc_lib_run "distro-client ours-server: SYMMETRIC within 5 s" \
	first_contact_symmetric local
smc_lib_run "8 connections over both links of our server, verified" \
	both_links_carry local
smc_lib_run "distro-client ours-server: our net2 goes down mid-transfer, all verified on link 1" \
	link_fails local local down
smc_lib_run "our net2 back: both groups SYMMETRIC again" \
	recovers local SERV CLNT
smc_lib_run "8 connections over both links of our server again, verified" \
	both_links_carry local
if [ -n "${SMC_SELFTEST_SECONDARY:-}" ]; then
	smc_lib_run "both paths back" heal_both
	smc_lib_exit
fi
smc_lib_run "ours on both hosts: SYMMETRIC within 5 s" again ours local
smc_lib_run "8 connections over both links of ours, verified" \
	both_links_carry local
smc_lib_run "ours-client ours-server, the other way: SYMMETRIC within 5 s" \
	first_contact_symmetric peer
smc_lib_run "8 connections over both links of ours, the other way, verified" \
	both_links_carry peer
smc_lib_run "ours/ours: the client's net2 goes down mid-answer, all verified on link 1" \
	link_fails local peer down
smc_lib_run "ours/ours: the peer's net2 back, both groups SYMMETRIC again" \
	recovers peer SERV CLNT
smc_lib_run "ours/ours: the server's rxe2 is deleted mid-transfer, all verified on link 1" \
	link_fails local local rdma-del
smc_lib_run "ours/ours: our rxe2 back, both groups SYMMETRIC again" \
	recovers local SERV CLNT
name="ours/ours: the server's net2 address (rxe2's GID) goes mid-transfer,"
name+=" all verified on link 1"
smc_lib_run "$name" link_fails local local addr-del
smc_lib_run "ours/ours: our net2 address back, both groups SYMMETRIC again" \
	recovers local SERV CLNT
# carrier loss: the rig's QEMU takes it from the server's net2, whose NIC
# then drops both ways, while the client's side stays up and hears
# nothing (scripts/rig/carrier.sh)
name="ours/ours: the server's net2 loses its carrier mid-transfer (QEMU set_link),"
name+=" all verified on link 1"
if [ -n "${SMC_RIG_CARRIER:-}" ]; then
	smc_lib_run "$name" link_fails local local carrier
	smc_lib_run "ours/ours: our net2 carrier back, both groups SYMMETRIC again" \
		recovers local SERV CLNT
else
	smc_lib_skip "$name" "not on the rig (SMC_RIG_CARRIER): no QEMU to ask"
	smc_lib_skip "ours/ours: our net2 carrier back" "not on the rig"
fi
smc_lib_run "8 connections over both links of ours again, verified" \
	both_links_carry local
smc_lib_run "ours/ours, the server on the peer: SYMMETRIC within 5 s" \
	first_contact_symmetric peer
name="ours/ours: $FLAPS flaps of net2 and net1 in turn under 8 verified transfers,"
name+=" one group throughout"
smc_lib_run "$name" flaps "$FLAPS"
smc_lib_run "ours/ours, TEST_LINK after ${SILENT_TESTLINK_S}s: SYMMETRIC, the server on the peer" \
	silent_group
name="ours/ours: RoCE into the client's net2 dropped mid-answer, TEST_LINK finds it,"
name+=" all verified on link 1, no wait over $((SILENT_GAP_MS / 1000))s"
smc_lib_run "$name" link_fails peer local tc-in
smc_lib_run "ours/ours: RoCE passes again, SYMMETRIC again by a retry within ${SILENT_BACK_S}s" \
	silent_back
name="ours/ours: only the answers into the client's net2 dropped mid-send,"
name+=" the rewritten bytes no new data, all verified on link 1"
smc_lib_run "$name" link_fails peer local tc-ack
smc_lib_run "ours/ours: RoCE passes again, SYMMETRIC again by a retry" \
	silent_back
smc_lib_run "ours/ours, TEST_LINK after ${BOTH_TESTLINK_S}s: SYMMETRIC, the server on the peer" \
	testlink_group
name="ours/ours: both of the client's paths go down mid-transfer,"
name+=" errors within ${BOTH_LOCAL_MAX_S}s here and ${BOTH_REMOTE_MAX_S}s there, groups freed"
smc_lib_run "$name" both_down
smc_lib_run "both paths back: a new group SYMMETRIC" paths_back
smc_lib_run "ours/ours over VLAN $VLAN_ID on both paths: a VLAN group SYMMETRIC within 5 s" \
	vlan_group
vlan_use on
smc_lib_run "8 connections over both links of the VLAN group, verified" \
	both_links_carry peer
smc_lib_run "ours/ours: the client's VLAN on net2 goes down mid-transfer, all verified on link 1" \
	link_fails peer local vlan-down
smc_lib_run "ours/ours: the client's VLAN on net2 back, SYMMETRIC again" \
	recovers local CLNT
vlan_use off
smc_lib_run "the VLAN gone, both paths as before" vlan_gone
smc_lib_exit
