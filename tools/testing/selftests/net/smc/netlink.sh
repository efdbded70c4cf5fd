#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The administration interface: generic netlink families SMC_PNETID and
# SMC_GEN_NETLINK, the net.smc.* sysctls, and the smc_pnet and smcr tools.
#
# The same list of requests (good ones and malformed ones) goes to the
# distribution's smc.ko and to ours on this host; every answer and error
# code must be identical, and each must be the one written down here, so
# that a bug shared by the test and one module still fails.  The sysctl
# script runs the same way.  Then the tools run against the distro module
# on the peer and ours here and must print the same.  Our module is loaded
# here at the end, the peer's module is put back.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

SMC_NL_TEST=$SMC_LIB_DIR/smc_nl_test
SMC_PNET=$SMC_LIB_PNET
SMCR=$SMC_LIB_SMCR
NS=smc_nl_test_$$

[ "$(id -u)" = 0 ] || smc_lib_bail_skip "must run as root"
for t in "$SMC_NL_TEST" "$SMC_PNET" "$SMCR"; do
	[ -x "$t" ] || smc_lib_bail_skip "$t not built"
done
[ -f "$SMC_LIB_OURS/smc.ko" ] || smc_lib_bail_skip "$SMC_LIB_OURS/smc.ko not built"
modinfo -F filename smc >/dev/null 2>&1 ||
	smc_lib_bail_skip "no distribution smc module for $(uname -r)"
command -v ip >/dev/null || smc_lib_bail_skip "ip(8) missing"

tmp=$(mktemp -d) || smc_lib_bail_fail "mktemp failed"
cleanup()
{
	ip netns del "$NS" 2>/dev/null
	smc_lib_mod_unload
	smc_lib_mod_ensure ours
	rm -rf "$tmp"
} >/dev/null 2>&1
trap cleanup EXIT

# Requests: EXPECT WHERE [-d] [-u] FAMILY CMD [ATTR...], see smc_nl_test.c.
# EXPECT is the rc= line; WHERE is "init" or "ns" (a fresh netns).
# PNETID: GET 1 ADD 2 DEL 3 FLUSH 4; NAME 1 ETHNAME 2 IBNAME 3 IBPORT 4.
# GEN: SYS_INFO 1, LGR_SMCR 2, LINK_SMCR 3, LGR_SMCD 4, DEV_SMCD 5,
# STATS 7, FBACK 8, UEID dump/add/remove/flush 9-12, SEID 13-15,
# HS_LIMITATION dump/enable/disable 16-18; EID entry 1.
U32=ABCDEFGHIJKLMNOPQRSTUVWXYZ012345
# "A B" blank padded to 32 characters, plus NUL: an interior blank
A_B_HEX=412042$(printf '20%.0s' $(seq 29))00
# The SEID switch answers as upstream's: on s390 enabling succeeds,
# disabling needs a UEID, and removing the last UEID by name gives
# -EAGAIN (success, the SEID is back); elsewhere it is not supported.
if [ "$(uname -m)" = s390x ]; then
	SEID_ON=0 SEID_OFF_NO_UEID=-ENOENT SEID_OFF=0 UEID_LAST=-EAGAIN
else
	SEID_ON=-EOPNOTSUPP SEID_OFF_NO_UEID=-EOPNOTSUPP SEID_OFF=-EOPNOTSUPP
	UEID_LAST=0
fi
cases()
{
	cat <<EOF
0 init -d SMC_PNETID 1
0 init SMC_PNETID 4
0 init SMC_PNETID 2 s:1:net1 s:2:net1
-EEXIST init SMC_PNETID 2 s:1:net1 s:2:net1
-EEXIST init SMC_PNETID 2 s:1:OTHER s:2:net1
0 init SMC_PNETID 2 x:1:204e6574322000 s:2:net2
0 init SMC_PNETID 2 s:1:NET1 s:3:rxe1 u8:4:1
-EEXIST init SMC_PNETID 2 s:1:NET9 s:3:rxe1 u8:4:2
-EINVAL init SMC_PNETID 2 s:1:NET1 s:3:rxe2 u8:4:3
-EINVAL init SMC_PNETID 2 s:1:NET1 s:3:rxe2 u8:4:0
0 init SMC_PNETID 2 s:1:GONE0 s:2:nosuchdev0
-EINVAL init SMC_PNETID 2 s:1:bad-id s:2:net3
-EINVAL init SMC_PNETID 2 s:1:a_b s:2:net3
-EINVAL init SMC_PNETID 2 x:1:20202000 s:2:net3
-EINVAL init SMC_PNETID 2 x:1:4120420000 s:2:net3
-EINVAL init SMC_PNETID 2 s:1:ABCDEFGHIJKLMNOPQ s:2:net3
0 init SMC_PNETID 2 s:1:abcdefghijklmnop s:2:net3
-EINVAL init SMC_PNETID 2 r:1:NONUL s:2:net4
-EINVAL init SMC_PNETID 2 s:2:net4
-EEXIST init SMC_PNETID 2 s:1:NET5
-EINVAL init SMC_PNETID 2 s:1:NET5 s:2:0123456789abcdefg
-EINVAL init SMC_PNETID 2 s:1:NET5 u8:2:1
-EINVAL init SMC_PNETID 2 s:1:NET5 s:3:$U32$U32
0 init SMC_PNETID 2 s:1:NET6 s:3:mlx5_0 u8:4:2 u32:9:7
0 init SMC_PNETID 1 s:1:net1
0 init SMC_PNETID 1 s:1:NET1
-EINVAL init SMC_PNETID 1
0 init -d SMC_PNETID 1
-ENOENT init SMC_PNETID 3 s:1:NOPE
-EINVAL init SMC_PNETID 3
0 init SMC_PNETID 3 s:1:NET2
-EPERM init -u SMC_PNETID 2 s:1:X s:2:net1
-EPERM init -u SMC_PNETID 3 s:1:NET1
-EPERM init -u SMC_PNETID 4
0 init -u -d SMC_PNETID 1
-EOPNOTSUPP init SMC_PNETID 9
-EOPNOTSUPP init SMC_PNETID 0
-EOPNOTSUPP init -d SMC_PNETID 2
-EEXIST ns SMC_PNETID 2 s:1:NSNET s:3:rxe1
0 ns SMC_PNETID 2 s:1:NSNET s:2:lo s:3:rxe2
0 ns -d SMC_PNETID 1
0 init -d SMC_PNETID 1
-ENOENT init SMC_PNETID 3 s:1:NSNET
0 ns SMC_PNETID 4
0 ns -d SMC_PNETID 1
0 init -d SMC_PNETID 1
0 init SMC_PNETID 4
0 init -d SMC_PNETID 1
0 init -d SMC_GEN_NETLINK 1
-EOPNOTSUPP init SMC_GEN_NETLINK 1
-EINVAL init -d SMC_GEN_NETLINK 1 s:1:x
-EINVAL init -d SMC_GEN_NETLINK 1 u32:5:1
0 init -d SMC_GEN_NETLINK 2
0 init -d SMC_GEN_NETLINK 3
0 init -d SMC_GEN_NETLINK 4
0 init -d SMC_GEN_NETLINK 5
0 init -d SMC_GEN_NETLINK 7
0 init -d SMC_GEN_NETLINK 8
0 init -d SMC_GEN_NETLINK 9
0 init SMC_GEN_NETLINK 12
0 init SMC_GEN_NETLINK 10 p:1:ABC:32
-EEXIST init SMC_GEN_NETLINK 10 p:1:ABC:32
0 init SMC_GEN_NETLINK 10 p:1:A.B-C9:32
-EINVAL init SMC_GEN_NETLINK 10 p:1:abc:32
-EINVAL init SMC_GEN_NETLINK 10 p:1:.ABC:32
-EINVAL init SMC_GEN_NETLINK 10 p:1:AB_C:32
-EINVAL init SMC_GEN_NETLINK 10 x:1:$A_B_HEX
-EINVAL init SMC_GEN_NETLINK 10 p:1::32
-EINVAL init SMC_GEN_NETLINK 10 s:1:ABC
-ERANGE init SMC_GEN_NETLINK 10 p:1:ABCD:33
-EINVAL init SMC_GEN_NETLINK 10 r:1:$U32
-EINVAL init SMC_GEN_NETLINK 10
-EINVAL init SMC_GEN_NETLINK 10 u32:2:1
0 init SMC_GEN_NETLINK 10 p:1:$U32:32
0 init SMC_GEN_NETLINK 10 p:1:E5:32
-ERANGE init SMC_GEN_NETLINK 10 p:1:F6:32
-ERANGE init SMC_GEN_NETLINK 10 p:1:ABC:32
0 init -d SMC_GEN_NETLINK 9
0 ns -d SMC_GEN_NETLINK 9
-ENOENT init SMC_GEN_NETLINK 11 p:1:NOPE:32
0 init SMC_GEN_NETLINK 11 p:1:ABC:32
-ENOENT init SMC_GEN_NETLINK 11 p:1:ABC:32
-EINVAL init SMC_GEN_NETLINK 11
-EPERM init -u SMC_GEN_NETLINK 10 p:1:ABC:32
-EPERM init -u SMC_GEN_NETLINK 12
0 init -u -d SMC_GEN_NETLINK 9
0 init SMC_GEN_NETLINK 12
0 init -d SMC_GEN_NETLINK 9
0 init -d SMC_GEN_NETLINK 13
$SEID_ON init SMC_GEN_NETLINK 14
$SEID_OFF_NO_UEID init SMC_GEN_NETLINK 15
0 init SMC_GEN_NETLINK 10 p:1:ABC:32
$SEID_OFF init SMC_GEN_NETLINK 15
0 init -d SMC_GEN_NETLINK 13
$UEID_LAST init SMC_GEN_NETLINK 11 p:1:ABC:32
0 init -d SMC_GEN_NETLINK 9
-EPERM init -u SMC_GEN_NETLINK 14
-EPERM init -u SMC_GEN_NETLINK 15
0 init -d SMC_GEN_NETLINK 16
0 init SMC_GEN_NETLINK 17
0 init -d SMC_GEN_NETLINK 16
0 ns -d SMC_GEN_NETLINK 16
-EPERM init -u SMC_GEN_NETLINK 18
0 init SMC_GEN_NETLINK 18
0 init -d SMC_GEN_NETLINK 16
-EOPNOTSUPP init SMC_GEN_NETLINK 19
-EOPNOTSUPP init -d SMC_GEN_NETLINK 19
EOF
}

# run_cases <out>: every request, its answer, and a mismatch list
run_cases()
{
	local out=$1

	ip netns del "$NS" 2>/dev/null
	ip netns add "$NS" || return 1
	: > "$out"
	: > "$out.bad"
	cases > "$out.in"
	# one smc_nl_test for all: "@@ WHERE REQUEST" heads each answer
	cut -d' ' -f2- "$out.in" |
		"$SMC_NL_TEST" -b "/run/netns/$NS" 2>/dev/null > "$out.raw"
	awk -v out="$out" -v bad="$out.bad" '
		function check() {
			if (n && last != "rc=" want[n])
				printf "case %s (%s): want rc=%s, got:\n%s",
				       n, head, want[n], body >> bad
		}
		NR == FNR { want[FNR] = $1; total = FNR; next }
		/^@@ / {
			check(); n++; head = substr($0, 4)
			print n " " head >> out
			body = ""; last = ""; next
		}
		{ print >> out; body = body $0 "\n"; last = $0 }
		END {
			check()
			if (n != total)
				printf "%d of %d cases answered\n", n, total >> bad
		}' "$out.in" "$out.raw"
	ip netns del "$NS"
}

SYSCTLS="autocorking_size smcr_buf_type smcr_testlink_time wmem rmem"
SYSCTLS+=" smcr_max_links_per_lgr smcr_max_conns_per_lgr limit_smc_hs"

# sysctl_try <where> <name> <value>: write, print the result and value
sysctl_try()
{
	local pre=() f=/proc/sys/net/smc/$2

	[ "$1" = ns ] && pre=(ip netns exec "$NS")
	if "${pre[@]}" sh -c "echo $3 > $f" 2>/dev/null; then
		echo "$1 $2=$3: ok, now $("${pre[@]}" cat "$f")"
	else
		echo "$1 $2=$3: refused, now $("${pre[@]}" cat "$f")"
	fi
}

# run_sysctls <out>: defaults, ranges, per-netns values, netlink link
run_sysctls()
{
	local out=$1 s

	ip netns del "$NS" 2>/dev/null
	ip netns add "$NS" || return 1
	{
		for s in $SYSCTLS; do
			echo "default $s=$(cat "/proc/sys/net/smc/$s")"
		done
		sysctl_try init wmem 16383
		sysctl_try init wmem 16384
		sysctl_try init wmem 1073741824
		sysctl_try init rmem 1073741823
		sysctl_try init rmem 65536
		sysctl_try init wmem 65536
		sysctl_try init smcr_buf_type 3
		sysctl_try init smcr_buf_type 2
		sysctl_try init smcr_buf_type 0
		sysctl_try init smcr_max_links_per_lgr 0
		sysctl_try init smcr_max_links_per_lgr 3
		sysctl_try init smcr_max_links_per_lgr 1
		sysctl_try init smcr_max_conns_per_lgr 15
		sysctl_try init smcr_max_conns_per_lgr 256
		sysctl_try init smcr_max_conns_per_lgr 16
		sysctl_try init smcr_testlink_time 0
		sysctl_try init autocorking_size 0
		sysctl_try init limit_smc_hs 2
		sysctl_try init limit_smc_hs 1
		for s in $SYSCTLS; do
			echo "ns $s=$(ip netns exec "$NS" cat "/proc/sys/net/smc/$s")"
		done
		echo "netlink HS after sysctl 1:" \
			"$("$SMC_NL_TEST" -d SMC_GEN_NETLINK 16 | head -n 1)"
		sysctl_try ns limit_smc_hs 0
		"$SMC_NL_TEST" SMC_GEN_NETLINK 18 >/dev/null
		echo "sysctl after netlink disable: $(cat /proc/sys/net/smc/limit_smc_hs)"
		ip netns exec "$NS" "$SMC_NL_TEST" SMC_GEN_NETLINK 17 >/dev/null
		echo "ns sysctl after ns netlink enable:" \
			"$(ip netns exec "$NS" cat /proc/sys/net/smc/limit_smc_hs)"
		echo "init sysctl after ns netlink enable: $(cat /proc/sys/net/smc/limit_smc_hs)"
	} > "$out" 2>&1
	ip netns del "$NS"
}

# what the defaults and checks must say, whatever module
SYSCTL_EXPECT="default autocorking_size=65536
default smcr_buf_type=0
default smcr_testlink_time=30
default wmem=65536
default rmem=65536
default smcr_max_links_per_lgr=2
default smcr_max_conns_per_lgr=255
default limit_smc_hs=0
init wmem=16383: refused, now 65536
init wmem=16384: ok, now 16384
init wmem=1073741824: refused, now 16384
init rmem=1073741823: ok, now 1073741823
init smcr_buf_type=3: refused, now 0
init smcr_max_links_per_lgr=0: refused, now 2
init smcr_max_links_per_lgr=3: refused, now 2
init smcr_max_conns_per_lgr=15: refused, now 255
init smcr_max_conns_per_lgr=256: refused, now 255
init limit_smc_hs=2: refused, now 0
init limit_smc_hs=1: ok, now 1
ns wmem=65536
ns smcr_max_conns_per_lgr=255
ns limit_smc_hs=0
netlink HS after sysctl 1: msg 16 1=01
sysctl after netlink disable: 0
ns sysctl after ns netlink enable: 1
init sysctl after ns netlink enable: 0"

# Upstream's limit_smc_hs sysctl is proc_dointvec over a bool, so on a
# big-endian host the sysctl and netlink see different bytes of it: a
# netlink enable reads back as 16777216.  There the distro module is not
# held to, nor compared on, the lines that cross between the two.
SYSCTL_HS_CROSS='^(netlink HS after|sysctl after netlink|ns sysctl after ns|init sysctl after ns)'

# tool_script: the tools' commands, each with its output and exit status
tool_script()
{
	cat <<'EOF'
run() { echo "\$ $*"; "$@" 2>&1; echo "exit $?"; }
P=$1/smc_pnet; R=$1/smcr
run $P -f
run $P
run $P -a NETA -I net1
run $P -a -I net2 netb
run $P -a NETC -D rxe1 -P 2
run $P -a NETC -D rxe1 -P 3
run $P -a NETD
run $P -a bad-id -I net1
run $P
run $P -s NETA
run $P -j
run $P -a NETA -I net1
run $P -d NETA
run $P -d NETA
run $P -f
run $P
run $R ueid flush
run $R ueid add abc
run $R ueid add abc
run $R ueid add a_b
run $R -j ueid show
run $R ueid show
run $R ueid del abc
run $R ueid del abc
run $R ueid flush
run $R linkgroup show
run $R -a stats show
run $R -a stats json
run $R bogus
EOF
}

# shellcheck disable=SC2329 # run through smc_lib_run
same_answers()
{
	local d=$tmp/distro.cases o=$tmp/ours.cases

	if ! diff -u "$d" "$o"; then
		echo "FAIL our answers differ from the distro module's"
		return 1
	fi
	echo "$(grep -c '^rc=' "$o") requests, identical answers"
}

expected_codes()
{
	local impl=$1 f=$tmp/$1.cases.bad

	if [ -s "$f" ]; then
		cat "$f"
		echo "FAIL $impl: unexpected result codes"
		return 1
	fi
	echo "$impl: every result code as expected"
}

# the answers themselves, for the cases where only ours is checked
ours_content()
{
	local o=$tmp/ours.cases rc=0

	grep -q '^msg 1 1="NET1" 2="net1" 3="n/a" 4=ff$' "$o" || {
		echo "FAIL no Ethernet entry NET1/net1 in a dump"; rc=1; }
	grep -q '^msg 1 1="NET1" 2="n/a" 3="rxe1" 4=01$' "$o" || {
		echo "FAIL no RDMA entry NET1/rxe1/1 in a dump"; rc=1; }
	grep -q '^msg 1 1="ABCDEFGHIJKLMNOP" 2="net3"' "$o" || {
		echo "FAIL a 16-character PNETID was not upper-cased"; rc=1; }
	grep -q '^msg 1 1="NSNET" 2="lo" 3="n/a" 4=ff$' "$o" || {
		echo "FAIL no Ethernet entry in the netns dump"; rc=1; }
	grep -q '="NSNET" 2="n/a"' "$o" && {
		echo "FAIL an RDMA entry was added in a netns"; rc=1; }
	grep -q "^msg 9 1=\"$U32\"$" "$o" || {
		echo "FAIL the 32-character UEID is not in the dump"; rc=1; }
	grep -q '^msg 16 1=01$' "$o" || {
		echo "FAIL HS limitation not shown enabled"; rc=1; }
	[ "$rc" = 0 ] && echo "dump contents as expected"
	return "$rc"
}

# the RoCE device dump (details in devices.sh): as the distro module's
devices_like_distro()
{
	cat "$tmp/ours.dev"
	grep -q '^msg 6 ' "$tmp/ours.dev" || {
		echo "FAIL no SMC-R device reported"; return 1; }
	diff -u "$tmp/distro.dev" "$tmp/ours.dev" || {
		echo "FAIL the device dump differs from the distro module's"
		return 1
	}
}

same_sysctls()
{
	local f skip='^$'

	if smc_lib_big_endian; then
		skip=$SYSCTL_HS_CROSS
		echo "big-endian: the limit_smc_hs sysctl/netlink lines not compared"
	fi
	for f in distro ours; do
		grep -Ev "$skip" "$tmp/$f.sysctl" >"$tmp/$f.sysctl.cmp"
	done
	diff -u "$tmp/distro.sysctl.cmp" "$tmp/ours.sysctl.cmp" || {
		echo "FAIL our sysctls behave differently"
		return 1
	}
	echo "identical sysctl behaviour"
}

expected_sysctls()
{
	local impl=$1 miss want=$SYSCTL_EXPECT

	if [ "$impl" = distro ] && smc_lib_big_endian; then
		want=$(grep -Ev "$SYSCTL_HS_CROSS" <<<"$want")
		echo "big-endian: distro not held to the limit_smc_hs sysctl/netlink lines"
	fi
	miss=$(grep -vxF -f "$tmp/$impl.sysctl" <<<"$want")
	if [ -n "$miss" ]; then
		echo "$impl: missing lines:"
		echo "$miss"
		cat "$tmp/$impl.sysctl"
		return 1
	fi
	echo "$impl: sysctl defaults, ranges and netns separation as expected"
}

genl_alias()
{
	local a

	a=$(modinfo -F alias "$SMC_LIB_OURS/smc.ko" "$SMC_LIB_OURS/smc_diag.ko")
	echo "$a"
	grep -qx 'net-pf-16-proto-16-family-SMC_GEN_NETLINK' <<<"$a" &&
		grep -qx 'net-pf-16-proto-16-family-SMC_PNETID' <<<"$a"
}

tools_like_distro()
{
	local ours peer b64

	ours=$(bash -s "$SMC_LIB_TOOLS" < <(tool_script) 2>&1)
	# one line for the peer: the script travels base64-encoded
	b64=$(tool_script | base64 -w 0)
	peer=$(smc_lib_peer "echo $b64 | base64 -d | bash -s $(printf '%q' "$SMC_LIB_TOOLS")" 2>&1)
	if ! diff -u <(printf '%s\n' "$peer") <(printf '%s\n' "$ours"); then
		echo "FAIL the tools print differently on distro (peer) and ours"
		return 1
	fi
	printf '%s\n' "$ours"
	grep -q '^NETA net1 n/a 255$' <<<"$ours" || {
		echo "FAIL smc_pnet did not list NETA"; return 1; }
	grep -q '^NETC n/a rxe1 2$' <<<"$ours" || {
		echo "FAIL smc_pnet did not list NETC"; return 1; }
	grep -q '^ABC$' <<<"$ours" || {
		echo "FAIL smcr ueid show did not list ABC"; return 1; }
}

# one AF_SMC connection over loopback: both ends fall back after the CLC
# handshake, the client with NOSMCDEV, the server with PEERDECL
fallbacks_counted()
{
	local res=$tmp/data.res out port want json

	out=$("$SMC_LIB_DATA_TEST" server --port 0 --host 127.0.0.1 \
		--family smc --daemon --result "$res" --size 1000 --dir c2s 2>&1)
	port=$(smc_lib_ready_port "$out")
	[ -n "$port" ] || { echo "server did not start: $out"; return 1; }
	"$SMC_LIB_DATA_TEST" client --host 127.0.0.1 --port "$port" \
		--family smc --size 1000 --dir c2s || return 1
	"$SMC_LIB_DATA_TEST" wait --result "$res" || return 1
	json=$("$SMCR" -a -j stats 2>&1)
	echo "$json"
	[[ "$json" == *'"client_fallbacks":1,"server_fallbacks":1,'* ]] &&
		[[ "$json" == *'{"side":"server","code":"0x05000000","count":1}'* ]] &&
		[[ "$json" == *'{"side":"client","code":"0x03030000","count":1}'* ]]
}

# fbo_pair <server family> <client family>: one 1000-byte transfer over
# loopback in $NS
fbo_pair()
{
	local res=$tmp/fbo.res out port

	out=$(ip netns exec "$NS" "$SMC_LIB_DATA_TEST" server --port 0 \
		--host 127.0.0.1 --family "$1" --daemon --result "$res" \
		--size 1000 --dir c2s 2>&1)
	port=$(smc_lib_ready_port "$out")
	[ -n "$port" ] || { echo "server did not start: $out"; return 1; }
	ip netns exec "$NS" "$SMC_LIB_DATA_TEST" client --host 127.0.0.1 \
		--port "$port" --family "$2" --size 1000 --dir c2s || return 1
	"$SMC_LIB_DATA_TEST" wait --result "$res"
}

# run_fback_order <out>: in a fresh netns (counters at zero) a client
# fallback for TCP Fast Open (OPTUNSUPP, 0x03060000) comes first, then a
# server and a client fallback against plain TCP (PEERNOSMC, 0x03010000);
# <out> gets the reasons the generic netlink stats dump lists.  Plain TCP
# peers make PEERNOSMC certain with either module: two distro modules
# over loopback would negotiate SMC.
run_fback_order()
{
	local rc=0

	ip netns del "$NS" 2>/dev/null
	ip netns add "$NS" || return 1
	ip -n "$NS" link set lo up || rc=1
	# AF_SMC, TCP_FASTOPEN_CONNECT (30) before connect: fallback at once
	ip netns exec "$NS" python3 -c '
import socket
s = socket.socket(43, socket.SOCK_STREAM, 0)
s.setsockopt(socket.IPPROTO_TCP, 30, 1)
s.close()' || rc=1
	fbo_pair smc tcp >>"$tmp/fbo.log" 2>&1 || rc=1
	fbo_pair tcp smc >>"$tmp/fbo.log" 2>&1 || rc=1
	ip netns exec "$NS" "$SMCR" -a -j stats |
		sed -n 's/.*"fallback_reasons":\(.*\)}$/\1/p' >"$1" || rc=1
	ip netns del "$NS"
	[ $rc = 0 ] || cat "$tmp/fbo.log" >>"$1"
	rm -f "$tmp/fbo.log"
}

# the fallback reasons of run_fback_order, each side in first-seen order
expected_fback_order()
{
	local want got

	want='[{"side":"server","code":"0x03010000","count":1},'
	want+='{"side":"client","code":"0x03060000","count":1},'
	want+='{"side":"client","code":"0x03010000","count":1}]'
	got=$(cat "$tmp/$1.fback")
	echo "$1: $got"
	[ "$got" = "$want" ] || { echo "FAIL expected $want"; return 1; }
}

# "stats reset" keeps its baseline in a private directory, and "show"
# counts from there while -a still shows the absolute numbers
stats_reset_private()
{
	local dir out rel abs

	dir=$(mktemp -d) || return 1
	chmod 700 "$dir"
	out=$(XDG_RUNTIME_DIR=$dir "$SMCR" stats reset 2>&1) || {
		echo "stats reset failed: $out"; rm -rf "$dir"; return 1; }
	rel=$(XDG_RUNTIME_DIR=$dir "$SMCR" -j stats)
	abs=$(XDG_RUNTIME_DIR=$dir "$SMCR" -a -j stats)
	out=$(find "$dir" -ls)
	printf '%s\n' "$out" "relative: $rel" "absolute: $abs"
	rm -rf "$dir"
	# a 0700 directory of ours holding only the baseline
	grep -q 'drwx------.*smcr$' <<<"$out" &&
		grep -q -- '-rw-------.*stats-[0-9]*$' <<<"$out" &&
		[ "$(grep -c . <<<"$out")" = 3 ] &&
		[[ "$rel" == *'"client_fallbacks":0,"server_fallbacks":0,'* ]] &&
		[[ "$rel" == *'{"side":"client","code":"0x03030000","count":0}'* ]] &&
		[[ "$abs" == *'"client_fallbacks":1,'* ]]
}

# The distro module is the reference for the ABI ours serves from 6.12 on.
# 6.1's predates the v2.1 sysctls and attributes and cannot name an rxe
# port's netdev, so there ours is held to what is written down only, and
# the four byte-for-byte comparisons with the distro module are not run.
distro_ref=1
smc_lib_kernel_ge 6 12 || distro_ref=0
if [ "$distro_ref" = 1 ]; then
	smc_lib_plan 15
else
	echo "kernel $(uname -r): the distro module is an older ABI release" |
		smc_lib_diag
	smc_lib_plan 11
fi

smc_lib_mod_unload >/dev/null 2>&1
smc_lib_mod_ensure distro >/dev/null 2>&1 ||
	smc_lib_bail_fail "cannot load the distro smc module"
run_cases "$tmp/distro.cases"
"$SMC_NL_TEST" -d SMC_GEN_NETLINK 6 >"$tmp/distro.dev" 2>&1
run_sysctls "$tmp/distro.sysctl"
run_fback_order "$tmp/distro.fback"
smc_lib_mod_unload >/dev/null 2>&1
smc_lib_mod_ensure ours >/dev/null 2>&1 ||
	smc_lib_bail_fail "cannot load our smc module"
run_cases "$tmp/ours.cases"
"$SMC_NL_TEST" -d SMC_GEN_NETLINK 6 >"$tmp/ours.dev" 2>&1
run_sysctls "$tmp/ours.sysctl"
run_fback_order "$tmp/ours.fback"

smc_lib_run "distro module: result codes as written down" expected_codes distro
smc_lib_run "ours: result codes as written down" expected_codes ours
[ "$distro_ref" = 1 ] &&
	smc_lib_run "ours: every answer identical to the distro module's" same_answers
smc_lib_run "ours: dump contents, netns isolation, UEID and HS state" ours_content
if [ "$distro_ref" = 1 ]; then
	smc_lib_run "ours: SMC-R devices dumped as by the distro module" devices_like_distro
	smc_lib_run "distro module: sysctls as written down" expected_sysctls distro
fi
smc_lib_run "ours: sysctls as written down" expected_sysctls ours
[ "$distro_ref" = 1 ] &&
	smc_lib_run "ours: sysctls identical to the distro module's" same_sysctls
smc_lib_run "ours: genl family module aliases" genl_alias
smc_lib_run "ours: fallbacks and their reasons counted" fallbacks_counted
smc_lib_run "distro module: fallback reasons in first-seen order" \
	expected_fback_order distro
smc_lib_run "ours: fallback reasons in first-seen order, as the distro's" \
	expected_fback_order ours
smc_lib_run "smcr stats reset: baseline in a private directory" stats_reset_private

if smc_lib_single_host; then
	smc_lib_skip "tools: distro on the peer and ours print the same" "needs a peer host"
	smc_lib_skip "tools: peer restored" "needs a peer host"
else
	peer_initial=$(smc_lib_mod peer which 2>/dev/null)
	smc_lib_mod peer unload >/dev/null 2>&1
	if smc_lib_mod peer ensure distro >/dev/null 2>&1; then
		smc_lib_mod_unload >/dev/null 2>&1
		smc_lib_mod_ensure ours >/dev/null 2>&1
		smc_lib_run "tools: distro on the peer and ours print the same" tools_like_distro
	else
		smc_lib_report 1 "tools: distro on the peer and ours print the same" 0 \
			"cannot load the distro module on the peer"
	fi
	case "$peer_initial" in
	distro|ours) ;;
	*) peer_initial=ours ;;
	esac
	smc_lib_run "tools: peer restored" smc_lib_mod peer ensure "$peer_initial"
fi

smc_lib_exit
