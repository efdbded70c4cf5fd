#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults under SMC-R, broken for real on the rig: the RDMA device of a
# link is deleted (rdma link delete, which unregisters it as a driver
# unbind does) or its port goes down (the netdev set down, IB_EVENT_PORT_ERR),
# while a verified transfer runs over it or while its link group is
# idle.  Each time the deletion must return within DEL_MAX_S with no
# task left in D state, the applications on both hosts must get an
# error (ECONNABORTED, ECONNRESET or ETIMEDOUT, never end of stream) within
# ERR_MAX_S with every byte that did arrive correct, the link groups
# must be gone on both hosts, and after the device or port is back a
# new connection must be SMC-R again.  The client runs here; "here" and
# "peer" say on which host the device breaks.
#
# A removal tells the peer at once (DELETE_LINK).  A port that goes down
# does not: the other host finds the link dead by itself, through the
# TEST_LINK keepalive, within net.smc.smcr_testlink_time plus 2 s for
# the answer (rxe retries a dead path forever, so a busy link is no
# faster).  The test sets smcr_testlink_time to 2 s on both hosts.
#
# RoCEv2 packets dropped as they come into the peer (tc flower on
# clsact ingress) break the link silently and one way: ports and TCP stay
# up, and this host still hears the peer.  Each host must still find the
# link dead by its TEST_LINK, which the peer's own TEST_LINK request
# does not answer.
#
# With RoCEv2 blocked both ways before a connect() (a firewall that drops
# UDP 4791), the first link cannot be confirmed: one side declines, and
# the other must take that Decline off the stream rather than send its
# own, or each application reads the other's Decline as data.
#
# A peer that stops taking messages in (test switch rx_stall: its
# receive completions are dropped and its receive queue no longer
# refilled, as on a host whose kernel no longer gets to it) fails
# nothing at the transport: the transfer just stops when both sides
# run out of RMB space.  Our TEST_LINK goes unanswered and takes the
# link down: both applications get their error within ERR_MAX_S.
#
# A network namespace whose connections use an RDMA device of the initial
# one is deleted under its idle link group, or mid-transfer once its
# client was killed: its groups must go within NETNS_MAX_S, and the
# peer's with them.  Its TCP connection comes from another address than
# the one of its GID, for which the peer has no neighbour entry: the
# peer's server must resolve that address (ARP) to accept SMC-Rv2.
#
# On the debug kernel, which has failslab and fail_page_alloc, GFP_ATOMIC
# allocations made under smc.ko's code fail on each host that runs it
# during verified transfers: each must complete or end in an error,
# never hang.
#
# With the distro smc.ko on the peer, the removal here under an idle
# link group must end the peer's group too.  During a transfer the
# distro module does not survive it: its worker and the application
# hang in D state for good, waiting for RDMA WRITEs to a QP that is
# gone (rxe never fails them), so that case runs between our modules
# only.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
command -v rdma >/dev/null || smc_lib_bail_skip "rdma(8) missing"
# no link group of an earlier test: each case here ends every group
smc_lib_single_host || {
	smc_lib_mod local unload && smc_lib_mod peer unload
} || smc_lib_bail_fail "cannot unload the smc modules"
smc_lib_smcr_setup
SMCR_TOOL=$SMC_LIB_SMCR

SMC_HOOK_EXPECT="SMCR 0x00000000"
SMC_HOOK_EXPECT_PEER="SMCR 0x00000000"
export SMC_HOOK_EXPECT SMC_HOOK_EXPECT_PEER

# SMC_SELFTEST_QUICK=1 (the slow debug kernel): one case of each kind
quick=${SMC_SELFTEST_QUICK:-}
# The bounds hold on the stock kernel.  The debug kernel, 4 to 6 times
# slower under TCG, gets more room: what it checks is memory safety (a
# device deletion there took 7.3 s, a peer's error came after 12.7 s).
slow=0
[ -n "$quick" ] && slow=1
TESTLINK_S=2
DEL_MAX_S=${SMC_FAULT_DEL_MAX_S:-$((10 + 10 * slow))}
# smcr_testlink_time + 2 s, and room for a slow rig
ERR_MAX_S=${SMC_FAULT_ERR_MAX_S:-$((TESTLINK_S + 2 + 8 + 12 * slow))}
# netns deletion with live groups: gone within
NETNS_MAX_S=${SMC_FAULT_NETNS_MAX_S:-15}
# bound of waits for a state that must come (ports, groups); generous
# for the debug kernel
WAIT_S=${SMC_FAULT_WAIT_S:-60}
RES=/tmp/smc_faults.$$
# allocation faults: the debug kernel's failslab and fail_page_alloc
FAULT_DIRS="/sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc"
ALLOC_PAIRS=3
ALLOC_PCT=5
ALLOC_TIMES=10

# port_active <local|peer> <rxeN>
port_active()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMCR_TOOL" device show)" |
		awk -v d="$2" '$2 == d && $3 == 1 && $4 == "ACTIVE" { f = 1 }
		END { exit !f }'
}

# no_dstate <local|peer>: no task stays in uninterruptible sleep there
# (a teardown's bounded waits pass through it for a moment)
no_dstate()
{
	local end=$((SECONDS + DEL_MAX_S))

	while [ -n "$(smc_lib_dstate "$1")" ]; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "FAIL tasks in D state on $1 for ${DEL_MAX_S}s: $(smc_lib_dstate "$1")"
			return 1
		fi
		sleep 0.2
	done
}

# start_busy: a transfer both ways, server on the peer, client here in
# the background; returns once the connection is up in one link group
start_busy()
{
	smc_lib_busy_start "$WAIT_S" "$RES" "$RES.client" 7
}

# end_busy <t0 ms>: both ends must have ended in an error, within
# ERR_MAX_S of t0
end_busy()
{
	smc_lib_busy_end "$1" "$ERR_MAX_S" "$ERR_MAX_S" "$RES" "$RES.client"
}

# cdc_nomem <n>: n CDC allocations fail on each host (test switch
# cdc_nomem) during a verified transfer both ways, after the RDMA WRITEs
# they were to announce: every one must still be announced, so the
# transfer completes, and all n failures must have happened
cdc_nomem()
{
	local f=/sys/kernel/debug/smc/cdc_nomem rc=0 h left
	local args=(--family smc --size "$NOMEM_SIZE" --dir both --seed 9
		    --timeout $((WAIT_S * 2)))

	for h in local peer; do
		smc_lib_on "$h" "echo $1 >$f" || return 1
	done
	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args || rc=1
	for h in local peer; do
		left=$(smc_lib_on "$h" "cat $f; echo 0 >$f")
		echo "CDC allocations still to fail on $h: $left of $1"
		[ "$left" = 0 ] || rc=1
	done
	return "$rc"
}

# timed_delete <local|peer> <rxeN>: rdma link delete, bounded
timed_delete()
{
	local t ms

	t=$(smc_lib_now_ms)
	smc_lib_on "$1" "timeout $((DEL_MAX_S * 3)) rdma link delete $2" || {
		echo "FAIL rdma link delete $2 on $1 failed or hung"
		return 1
	}
	ms=$(($(smc_lib_now_ms) - t))
	echo "rdma link delete $2 on $1 took $ms ms"
	[ "$ms" -le $((DEL_MAX_S * 1000)) ] || {
		echo "FAIL longer than ${DEL_MAX_S}s"; return 1; }
}

# restore <local|peer> <rxeN>: the device (or port) back, ACTIVE
restore()
{
	local net=net${2#rxe}

	smc_lib_on "$1" "ip link set $net up; [ -d /sys/class/infiniband/$2 ] ||
		rdma link add $2 type rxe netdev $net" || return 1
	smc_lib_wait_until "$WAIT_S" "$2 on $1 ACTIVE" port_active "$1" "$2"
}

# fresh_smcr: a new connection is SMC-R again (the hook checks the mode)
fresh_smcr()
{
	# shellcheck disable=SC2034 # used by name
	local args=(--family smc --size 1048576 --dir both --seed 3 --timeout 120)

	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args
}

# the device of the one link here, or of its other end on the peer
link_dev()
{
	local d

	d=$(smc_lib_devs_in_use "$1")
	if [ "$(printf '%s\n' "$d" | grep -c rxe)" != 1 ]; then
		echo "FAIL not exactly one device with links on $1: '$d'" >&2
		return 1
	fi
	echo "$d"
}

# gone_and_back <local|peer> <rxeN>: after the device was deleted there,
# no task stays in D state and no link group is left on either host;
# then the device comes back, and SMC-R with it
gone_and_back()
{
	local rc=0

	no_dstate local || rc=1
	no_dstate peer || rc=1
	smc_lib_wait_until "$WAIT_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	restore "$1" "$2" || return 1
	fresh_smcr || rc=1
	return "$rc"
}

# busy_delete <local|peer>: delete the link's device there mid-transfer
busy_delete()
{
	local where=$1 dev t0 rc=0

	start_busy || return 1
	dev=$(link_dev "$where") || { end_busy 0 >/dev/null; return 1; }
	t0=$(smc_lib_now_ms)
	timed_delete "$where" "$dev" || rc=1
	end_busy "$t0" || rc=1
	gone_and_back "$where" "$dev" || rc=1
	return "$rc"
}

# idle_delete <local|peer>: a link group with no connection, its device
# deleted
idle_delete()
{
	local where=$1 dev rc=0

	fresh_smcr || return 1
	dev=$(link_dev "$where") || return 1
	echo "link groups here $(smc_lib_lgr_count local), on the peer $(smc_lib_lgr_count peer)"
	timed_delete "$where" "$dev" || rc=1
	gone_and_back "$where" "$dev" || rc=1
	return "$rc"
}

# port_down <local|peer>: the netdev under the link's port set down
# mid-transfer: the port error ends the link group there, the other
# host finds the link dead by itself
port_down()
{
	local where=$1 dev net keep t0 rc=0

	start_busy || return 1
	dev=$(link_dev "$where") || { end_busy 0 >/dev/null; return 1; }
	net=net${dev#rxe}
	# IPv6 drops a link's addresses when it goes down, unless told not
	# to: the tests after this one need them
	keep=$(smc_lib_on "$where" "sysctl -n net.ipv6.conf.$net.keep_addr_on_down")
	t0=$(smc_lib_now_ms)
	smc_lib_on "$where" "sysctl -qw net.ipv6.conf.$net.keep_addr_on_down=1 &&
		ip link set $net down" || rc=1
	end_busy "$t0" || rc=1
	smc_lib_wait_until "$WAIT_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	restore "$where" "$dev" || return 1
	smc_lib_on "$where" "sysctl -qw net.ipv6.conf.$net.keep_addr_on_down=${keep:-0}"
	fresh_smcr || rc=1
	return "$rc"
}

# tc_drop <local|peer>: RoCEv2 packets (UDP 4791) dropped as they come
# in on the link's netdev there mid-transfer (tc flower, clsact ingress),
# as a switch that drops them would: a silent break, ports and TCP stay
# up, and nothing fails where the packets are sent (a drop on egress
# would fail the sending QP at once); both hosts must find the link dead
# by themselves
tc_drop()
{
	local where=$1 dev net f t0 rc=0

	start_busy || return 1
	dev=$(link_dev "$where") || { end_busy 0 >/dev/null; return 1; }
	net=net${dev#rxe}
	f=$SMC_LIB_ROCE_DROP
	# the qdisc, and a filter for another port that loads the modules:
	# the real one then takes effect at once
	smc_lib_on "$where" "tc qdisc add dev $net clsact &&
		tc filter add dev $net ingress ${f/4791/9}" || rc=1
	t0=$(smc_lib_now_ms)
	smc_lib_on "$where" "tc filter add dev $net ingress $f" || rc=1
	end_busy "$t0" || rc=1
	smc_lib_wait_until "$WAIT_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	smc_lib_on "$where" "tc -s filter show dev $net ingress | grep Sent;
		tc qdisc del dev $net clsact" || rc=1
	fresh_smcr || rc=1
	return "$rc"
}

# blocked_connect <server> <decider>: RoCEv2 packets dropped (tc, as in
# tc_drop) as they come into either host, then a connect() to a server
# on <server> (local or peer), as behind a firewall that blocks UDP 4791:
# the first link cannot be confirmed.  One side gives up and declines
# (TIMEOUT_CL): our server after 2 s, or our client after 2.5 s when the
# server is the distro's, which looks for a Decline until 3 s and sends
# its own only later.  The other side, <decider>'s peer, takes that
# Decline (PEERDECL) instead of sending one.  Neither Decline may reach an
# application as data, which the checksummed transfer over the fallback
# would show; no group is left.  The next case's transfer shows SMC-R
# back.
blocked_connect()
{
	local srv=$1 where net f t0 ms rc=0
	local srv_mode="TCP 0x02010000" cli_mode="TCP $SMC_LIB_PEERDECL"
	# shellcheck disable=SC2034 # args used by name
	local args=(--family smc --size 65536 --dir both --seed 5 --timeout 60)

	if [ "$2" = client ]; then
		srv_mode="TCP $SMC_LIB_PEERDECL" cli_mode="TCP 0x02010000"
	fi
	# for this case only, through the hook
	if [ "$srv" = local ]; then
		local -x SMC_HOOK_EXPECT=$srv_mode SMC_HOOK_EXPECT_PEER=$cli_mode
	else
		local -x SMC_HOOK_EXPECT=$cli_mode SMC_HOOK_EXPECT_PEER=$srv_mode
	fi
	# a group left from before would be used instead of a first contact
	smc_lib_wait_until "$WAIT_S" "no link group on either host" \
		smc_lib_no_groups || return 1
	f=$SMC_LIB_ROCE_DROP
	for where in local peer; do
		for net in net1 net2; do
			smc_lib_on "$where" "tc qdisc add dev $net clsact &&
				tc filter add dev $net ingress $f" || rc=1
		done
	done
	t0=$(smc_lib_now_ms)
	smc_lib_pair "$SMC_LIB_DATA_TEST" "$srv" args args || rc=1
	ms=$(($(smc_lib_now_ms) - t0))
	echo "fell back and moved the data in $ms ms"
	for where in local peer; do
		for net in net1 net2; do
			smc_lib_on "$where" "tc qdisc del dev $net clsact" || rc=1
		done
	done
	smc_lib_wait_until "$WAIT_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	return "$rc"
}

# lgr_ids: the SMC-R link groups on both hosts, by id
lgr_ids()
{
	local where

	for where in local peer; do
		smc_lib_on "$where" "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
			grep -o '"lgr_id":"[0-9a-f]*"' | tr '\n' ' '
	done
}

# foreign_confirm: a client here whose Confirm on a reused link group
# names a QP the group does not have (test switch confirm_foreign_qpn),
# as a client that copied our peer's identity into its Proposal would:
# the server on the peer takes neither its rtoken nor its alert token,
# resets it (a client past its Confirm reads no Decline), counts a
# handshake error, and keeps the group for its real peer (no out-of-sync
# Decline)
foreign_confirm()
{
	local f=/sys/kernel/debug/smc/confirm_foreign_qpn before after left
	local res=/tmp/smc_faults.$$.foreign port out e0 e1 rc=0
	local args=(--family smc --size 65536 --dir both --seed 7 --timeout 60)

	fresh_smcr || return 1
	before=$(lgr_ids)
	echo "link groups: $before"
	e0=$(smc_lib_server_hs_errors peer)
	port=$(smc_lib_server peer "$SMC_LIB_DATA_TEST" --result "$res" \
		"${args[@]}") || { echo "$port"; return 1; }
	echo 1 >"$f" || rc=1
	# reset before the server's first byte (smc_data_test exits 1)
	out=$("$SMC_LIB_DATA_TEST" client --host "$(smc_lib_ip peer)" \
		--port "$port" "${args[@]}" 2>&1)
	echo "client: $out"
	case $out in
	*"recv(1): ECONNRESET"*) ;;
	*) echo "FAIL the client was not reset"; rc=1 ;;
	esac
	left=$(cat "$f")
	echo 0 >"$f"
	# the server never had a connection to hand out
	smc_lib_on peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait --result "$res" \
		--kill)" >/dev/null 2>&1
	e1=$(smc_lib_server_hs_errors peer)
	echo "server handshake errors on the peer: $e0 -> $e1"
	if [ "$left" != 0 ]; then
		echo "FAIL the Confirm was not altered ($f still $left)"
		rc=1
	fi
	[ "${e1:-0}" -gt "${e0:-0}" ] || rc=1
	after=$(lgr_ids)
	if [ "$after" != "$before" ]; then
		echo "FAIL link groups changed: $after"
		rc=1
	fi
	fresh_smcr || rc=1
	after=$(lgr_ids)
	if [ "$after" != "$before" ]; then
		echo "FAIL the next connection did not reuse the group: $after"
		rc=1
	fi
	return "$rc"
}

# urg_no_force: both hosts' readers leave out the cursor update they
# force when they pass urgent data (test switch rx_urg_no_force), as a
# peer other than Linux may.  A writer holds what follows its urgent
# byte until the peer has consumed everything, so without that update it
# would wait for good: it asks for the cursor (CONS_UPD_REQ) after 1 s,
# and a verified transfer with an urgent byte each way completes
urg_no_force()
{
	local f=/sys/kernel/debug/smc/rx_urg_no_force where t0 ms rc=0
	# shellcheck disable=SC2034 # args used by name
	local args=(--family smc --size 262144 --dir both --seed 9 --oob --timeout 30)

	for where in local peer; do
		smc_lib_on "$where" "echo 1 >$f" || rc=1
	done
	t0=$(smc_lib_now_ms)
	smc_lib_pair "$SMC_LIB_DATA_TEST" peer args args || rc=1
	ms=$(($(smc_lib_now_ms) - t0))
	echo "an urgent byte each way, then 256 KiB: $ms ms"
	for where in local peer; do
		smc_lib_on "$where" "echo 0 >$f" || rc=1
	done
	return "$rc"
}

# The namespace of netns_delete: its connections go out through a veth
# pair and this host's net2 (proxy ARP both ways), with an address of
# net2's subnet, and use rxe2, which stays in the initial namespace as the
# RDMA core shares it: a PNETID names vx1 (in the namespace's table) and
# rxe2.  Link groups of its connections belong to the namespace.
NS=smc_faults_ns
NS_ADDR=10.9.2.200
ns_up()
{
	local pnet=$SMC_LIB_PNET

	ip netns add "$NS" &&
		ip link add vx0 type veth peer name vx1 &&
		ip link set vx1 netns "$NS" &&
		ip link set vx0 up &&
		sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.vx0.proxy_arp=1 \
			net.ipv4.conf.net2.proxy_arp=1 &&
		ip route add "$NS_ADDR/32" dev vx0 &&
		ip -n "$NS" link set lo up &&
		ip -n "$NS" addr add "$NS_ADDR/24" dev vx1 &&
		ip -n "$NS" link set vx1 up &&
		"$pnet" -a SMCNS -D rxe2 -P 1 &&
		ip netns exec "$NS" "$pnet" -a SMCNS -I vx1
}

ns_down()
{
	ip netns del "$NS" 2>/dev/null
	ip link del vx0 2>/dev/null
	"$SMC_LIB_PNET" -d SMCNS >/dev/null 2>&1
	sysctl -qw net.ipv4.ip_forward=0 net.ipv4.conf.net2.proxy_arp=0
}

# RC queue pairs on rxe2 here: those of link groups, of any namespace
rxe2_qps()
{
	rdma res show qp link rxe2/1 2>/dev/null | grep -c "type RC"
}

no_rxe2_qps()
{
	[ "$(rxe2_qps)" = 0 ]
}

# peer_groups <n>: the peer has n link groups
peer_groups()
{
	[ "$(smc_lib_lgr_count peer)" = "$1" ]
}

# netns_delete <busy|idle>: a namespace whose connection to the peer
# is SMC-R is deleted: mid-transfer once its client is killed, or under
# its idle link group.  Its groups must go within NETNS_MAX_S, their
# queue pairs with them, and the peer's group too (DELETE_LINK); the
# peer's server gets its error, or its data when idle.
netns_delete()
{
	local how=$1 out port size=1048576 err=() t0 ms rc=0 cpid n0

	[ "$how" = busy ] && size=1073741824 err=(--expect-error)
	# the peer's groups with this host's initial namespace stay
	n0=$(smc_lib_lgr_count peer)
	ns_up || { echo "FAIL namespace setup"; ns_down; return 1; }
	# the peer has not talked to the address of rxe2's GID, which the
	# namespace's Proposal names (its TCP comes from NS_ADDR): its
	# server must resolve it before SMC-Rv2 can take the path
	smc_lib_on peer "ip neigh flush dev net2" || rc=1
	port=$(smc_lib_server peer "$SMC_LIB_DATA_TEST" --result "$RES" \
		--family smc --size "$size" --dir both --seed 9 --timeout 120 \
		"${err[@]}") || { echo "$port"; ns_down; return 1; }
	ip netns exec "$NS" "$SMC_LIB_DATA_TEST" client --host "$SMC_PEER_IP2" \
		--port "$port" --family smc --size "$size" --dir both --seed 9 \
		--timeout 120 "${err[@]}" >"$RES.client" 2>&1 &
	cpid=$!
	if [ "$how" = busy ]; then
		smc_lib_wait_until "$WAIT_S" "the transfer under way" \
			grep -qx transfer "$RES.client" || rc=1
	else
		wait "$cpid" || { echo "FAIL client"; rc=1; }
	fi
	sed 's/^/  client: /' "$RES.client"
	out=$(smc_lib_conn_modes peer "$port" server)
	echo "peer's server connection: $out"
	[ "$how" = idle ] || [ "$out" = "1 SMCR 0x00000000" ] || {
		echo "FAIL not one SMC-R connection"; rc=1; }
	peer_groups $((n0 + 1)) || {
		echo "FAIL not one more link group on the peer"; rc=1; }
	rdma res show qp link rxe2/1 | sed 's/^/  /'
	[ "$(rxe2_qps)" -ge 1 ] || { echo "FAIL no queue pair on rxe2"; rc=1; }
	[ "$how" = busy ] && kill -9 "$cpid" && wait "$cpid"
	t0=$(smc_lib_now_ms)
	ip netns del "$NS" || rc=1
	smc_lib_wait_until "$NETNS_MAX_S" "no queue pair left on rxe2" \
		no_rxe2_qps || rc=1
	ms=$(($(smc_lib_now_ms) - t0))
	echo "the namespace's link group gone here in $ms ms"
	smc_lib_wait_until "$NETNS_MAX_S" "its peer's group gone" \
		peer_groups "$n0" || rc=1
	ms=$(($(smc_lib_now_ms) - t0))
	echo "and on the peer in $ms ms"
	# a killed client with nothing unread closes in order, as over TCP:
	# the server may then see the end of the stream instead of an error
	out=$(smc_lib_peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait \
		--result "$RES")" 2>&1) || { [ "$how" = busy ] &&
		grep -Eq 'EOF after|ended by' <<<"$out"; } ||
		{ echo "FAIL server"; rc=1; }
	printf '%s\n' "$out" | sed 's/^/  server: /'
	ns_down
	[ -z "$(smc_lib_dstate local)" ] || { echo "FAIL D state"; rc=1; }
	fresh_smcr || rc=1
	return "$rc"
}

# RDMA namespace mode back to shared, once the test's namespace is gone
# (the mode changes only while no other namespace exists)
rdma_shared()
{
	rdma system set netns shared 2>/dev/null
}

# netns_exclusive: in the RDMA core's exclusive namespace mode rxe2 stays
# in the initial namespace and is not the test namespace's to use, even
# with the PNETID naming it: the namespace's connection must fall back
# (NOSMCDEV, counted in its statistics), and no group come up
netns_exclusive()
{
	local port n0 stats rc=0
	# shellcheck disable=SC2034 # used by name
	local args=(--family smc --size 65536 --dir both --seed 11 --timeout 60)

	n0=$(smc_lib_lgr_count peer)
	rdma system set netns exclusive || return 1
	if ns_up; then
		port=$(smc_lib_server peer "$SMC_LIB_DATA_TEST" --result "$RES" \
			"${args[@]}") || { echo "$port"; rc=1; }
		ip netns exec "$NS" "$SMC_LIB_DATA_TEST" client \
			--host "$SMC_PEER_IP2" --port "$port" "${args[@]}" || rc=1
		smc_lib_peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait --result "$RES")" ||
			rc=1
		stats=$(ip netns exec "$NS" "$SMCR_TOOL" -j stats)
		printf '%s\n' "$stats" | grep -o '{"side":"client"[^}]*}'
		[[ "$stats" == *'{"side":"client","code":"0x03030000","count":1}'* ]] || {
			echo "FAIL no client fallback for NOSMCDEV"; rc=1; }
		peer_groups "$n0" || { echo "FAIL a link group on the peer"; rc=1; }
	else
		echo "FAIL namespace setup"
		rc=1
	fi
	ns_down
	smc_lib_wait_until "$WAIT_S" "RDMA namespace mode shared again" \
		rdma_shared || rc=1
	rdma system show netns
	return "$rc"
}

# rx_stall: the peer stops taking messages in mid-transfer; this host
# counts the link down by its TEST_LINK
rx_stall()
{
	local f=/sys/kernel/debug/smc/rx_stall t0 rc=0 before after

	before=$(smc_lib_down_count local testlink)
	start_busy || return 1
	t0=$(smc_lib_now_ms)
	smc_lib_on peer "echo 1 >$f" || rc=1
	end_busy "$t0" || rc=1
	smc_lib_on peer "echo 0 >$f" || rc=1
	after=$(smc_lib_down_count local testlink)
	if [ "$before" = - ] || [ "$after" -le "$before" ]; then
		echo "FAIL the link down not counted as down_testlink here"
		grep '^down_' /sys/kernel/debug/smc/failover
		rc=1
	fi
	smc_lib_wait_until "$WAIT_S" "no link group left on either host" \
		smc_lib_no_groups || rc=1
	fresh_smcr || rc=1
	return "$rc"
}

# fault_inject <local|peer> <times>: failslab and fail_page_alloc fail
# that many GFP_ATOMIC allocations there, each with ALLOC_PCT percent,
# when smc.ko's code is on the stack (from its text to the end of its
# core); 0 switches it off.  verbose 0: a stack dump per failure would
# read as a splat.  Prints the times the last setting had left, "slab
# page".
declare -A fault_range
fault_inject()
{
	local start size

	if [ -z "${fault_range[$1]:-}" ]; then
		start=$(smc_lib_on "$1" "cat /sys/module/smc/sections/.text") &&
			size=$(smc_lib_on "$1" "cat /sys/module/smc/coresize") ||
			return 1
		fault_range[$1]="$start $(printf 0x%x $((start + size)))"
	fi
	# shellcheck disable=SC2016 # $d expands where it runs
	smc_lib_on "$1" '
	set -- '"${fault_range[$1]}"'
	for d in '"$FAULT_DIRS"'; do
		printf "%s " "$(cat $d/times)" &&
		echo 0 >$d/verbose &&
		echo Y >$d/ignore-gfp-wait &&
		echo $1 >$d/require-start &&
		echo $2 >$d/require-end &&
		echo 32 >$d/stacktrace-depth &&
		echo 1 >$d/interval &&
		echo '"$ALLOC_PCT"' >$d/probability &&
		echo '"$2"' >$d/times || exit 1
	done
	echo
	echo 0 >/sys/kernel/debug/fail_page_alloc/min-order'
}

# has_failslab <local|peer>: that host's kernel injects allocation faults
has_failslab()
{
	smc_lib_on "$1" "[ -e /sys/kernel/debug/failslab/require-start ]"
}

# alloc_faults: up to ALLOC_TIMES GFP_ATOMIC allocations under smc fail
# on each debug host during each of ALLOC_PAIRS verified transfers both ways,
# each on a new connection.  Each transfer must complete or end in an
# error (a lost LLC message may take a link down), never hang, with
# every byte right; a connect() may fail with ENOMEM or ENOBUFS, as over
# TCP.  Failures must have happened on each; afterwards SMC-R
# works again (and the rig's kmemleak scan finds no leak).
alloc_faults()
{
	local h i out port rc=0 left done=0 ended=0 refused=0 hosts=()
	local -A failed=([local]=0 [peer]=0)
	# shellcheck disable=SC2034 # used by name
	local args=(--family smc --size 1048576 --dir both --timeout 60
		    --error-ok)

	# the hosts on the debug kernel (make check runs the stock one on B)
	for h in local peer; do
		has_failslab "$h" && hosts+=("$h")
	done
	for i in $(seq "$ALLOC_PAIRS"); do
		for h in "${hosts[@]}"; do
			fault_inject "$h" "$ALLOC_TIMES" >/dev/null || {
				echo "FAIL cannot set up fault injection on $h"
				return 1
			}
		done
		port=$(smc_lib_server peer "$SMC_LIB_DATA_TEST" --result "$RES" \
			--seed "$i" "${args[@]}") || { echo "$port"; rc=1; break; }
		if out=$("$SMC_LIB_DATA_TEST" client --host "$(smc_lib_ip peer)" \
			--port "$port" --seed "$i" "${args[@]}" 2>&1); then
			out="$out
$(smc_lib_peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait --result "$RES")" 2>&1)" ||
				rc=1
		elif grep -Eq 'connect\(.*\): (ENOMEM|ENOBUFS)$' <<<"$out"; then
			# as over TCP: no memory for the connection
			refused=$((refused + 1))
			smc_lib_peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait \
				--result "$RES" --kill)" >/dev/null 2>&1
		else
			rc=1
		fi
		printf '%s\n' "$out" | sed "s/^/  $i: /"
		done=$((done + $(grep -c '^ok .* sent ' <<<"$out")))
		ended=$((ended + $(grep -c '^ok .* ended by ' <<<"$out")))
		for h in "${hosts[@]}"; do
			# "slab page": times still to fail
			left=$(fault_inject "$h" 0 | xargs) || rc=1
			echo "  $i: allocations failed on $h (slab page):" \
				"$((ALLOC_TIMES - ${left%% *})) $((ALLOC_TIMES - ${left##* }))"
			failed[$h]=$((failed[$h] + ALLOC_TIMES - ${left%% *}))
		done
	done
	for h in "${hosts[@]}"; do
		echo "slab allocations failed on $h: ${failed[$h]};" \
			"LLC messages dropped:" \
			"$(smc_lib_on "$h" "sed -n 's/^dropped //p' /sys/kernel/debug/smc/llc_rx")"
		[ "${failed[$h]}" -gt 0 ] || {
			echo "FAIL no slab allocation failed on $h"; rc=1; }
	done
	echo "ends: $done completed, $ended by an error; connects refused: $refused"
	[ "$rc" = 0 ] || return 1
	fresh_smcr
}

# the keepalive at TESTLINK_S on both hosts, for groups made from now on
# shellcheck disable=SC2317 # called through smc_lib_run
fast_testlink()
{
	smc_lib_testlink local "$TESTLINK_S" && smc_lib_testlink peer "$TESTLINK_S"
}

# shellcheck disable=SC2317 # called through smc_lib_run
peer_to_distro()
{
	smc_lib_mod peer ensure distro && smc_lib_distro_pnet peer &&
		smc_lib_ueid_set peer && fast_testlink
}

testlink_l=$(smc_lib_testlink local) testlink_p=$(smc_lib_testlink peer)
cleanup()
{
	local h n

	for h in local peer; do
		for n in 1 2; do
			smc_lib_on "$h" "tc qdisc del dev net$n clsact" >/dev/null 2>&1
			restore "$h" "rxe$n" >/dev/null 2>&1
		done
	done
	ip netns list | grep -qw "$NS" && ns_down
	rdma_shared
	smc_lib_on peer "[ ! -e /sys/kernel/debug/smc/rx_stall ] ||
		echo 0 >/sys/kernel/debug/smc/rx_stall"
	if [ "$have_faults" = 1 ]; then
		for h in local peer; do
			smc_lib_on "$h" "for d in $FAULT_DIRS; do
				[ ! -d \$d ] || echo 0 >\$d/times; done"
		done
	fi
	smc_lib_testlink local "${testlink_l:-30}"
	smc_lib_testlink peer "${testlink_p:-30}"
	smc_lib_smcr_cleanup
	rm -f "$RES" "$RES.client"
}
trap cleanup EXIT

have_distro=0 distro_skip=
case $(smc_lib_distro_state) in
yes)	have_distro=1 ;;
skip)	distro_skip=$SMC_LIB_DISTRO_SMCR_WHY ;;
esac
# enough CDCs for 20 failures on each host, even at 1 MiB
NOMEM_SIZE=4194304
[ -n "$quick" ] && NOMEM_SIZE=1048576
[ -n "$quick" ] && have_distro=0 distro_skip=

n=17
[ -n "$quick" ] && n=5
have_faults=0
has_failslab local && have_faults=1
n=$((n + have_faults))
[ "$have_distro" = 1 ] && n=$((n + 4))
[ -n "$distro_skip" ] && n=$((n + 1))
smc_lib_plan "$n"

smc_lib_run "TEST_LINK every ${TESTLINK_S}s on both hosts" fast_testlink
# the debug kernel has no clsact or flower
if [ -z "$quick" ]; then
	name="RoCE blocked both ways (tc), server on the peer: both fall back,"
	name+=" no Decline read as data"
	smc_lib_run "$name" blocked_connect peer server
	name="RoCE blocked both ways (tc), server here: both fall back,"
	name+=" no Decline read as data"
	smc_lib_run "$name" blocked_connect local server
	smc_lib_run "Confirm naming a QP the reused group lacks: reset, group kept" \
		foreign_confirm
	smc_lib_run "peer forces no cursor update after urgent data: the writer asks" \
		urg_no_force
fi
smc_lib_run "CDC allocations fail after the writes: all announced" \
	cdc_nomem 20
smc_lib_run "device deleted here during a transfer" busy_delete local
[ -n "$quick" ] ||
	smc_lib_run "device deleted on the peer during a transfer" busy_delete peer
[ -n "$quick" ] ||
	smc_lib_run "device deleted here under an idle link group" idle_delete local
[ -n "$quick" ] ||
	smc_lib_run "device deleted on the peer under an idle link group" idle_delete peer
smc_lib_run "port down here during a transfer" port_down local
[ -n "$quick" ] ||
	smc_lib_run "port down on the peer during a transfer" port_down peer
[ -n "$quick" ] ||
	smc_lib_run "peer stops taking messages in during a transfer: TEST_LINK finds it" \
		rx_stall
name="RoCE packets into the peer dropped during a transfer (tc): TEST_LINK finds it"
[ -n "$quick" ] ||
	smc_lib_run "$name" tc_drop peer
[ -n "$quick" ] ||
	smc_lib_run "namespace deleted under an idle link group: the group goes" \
		netns_delete idle
smc_lib_run "namespace deleted mid-transfer, its client killed: the group goes" \
	netns_delete busy
[ -n "$quick" ] ||
	smc_lib_run "exclusive RDMA namespaces: no device of another namespace used" \
		netns_exclusive
# only the debug kernel has fault injection
name="GFP_ATOMIC allocations under smc fail on the debug hosts: transfers end or complete"
[ "$have_faults" = 1 ] &&
	smc_lib_run "$name" alloc_faults
if [ "$have_distro" = 1 ]; then
	smc_lib_run "peer runs the distro smc with a UEID" peer_to_distro
	name="distro peer: RoCE blocked both ways (tc), server on the peer: both fall back,"
	name+=" our client declines"
	smc_lib_run "$name" blocked_connect peer client
	name="distro peer: RoCE blocked both ways (tc), server here: both fall back,"
	name+=" our server declines"
	smc_lib_run "$name" blocked_connect local server
	smc_lib_run "distro peer: device deleted here under an idle link group" \
		idle_delete local
fi
if [ -n "$distro_skip" ]; then
	smc_lib_skip "faults with the distro smc" "$distro_skip"
fi
smc_lib_exit
