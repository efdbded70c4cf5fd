#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sock_diag is per network namespace: with SMC sockets (a listener, a
# client and the accepted socket, over loopback) held open in two fresh
# namespaces X and Y, an AF_SMC diag dump in X lists X's three sockets
# and none of Y's, and the other way round; the initial namespace sees
# neither, and smcss in a namespace shows only that namespace's sockets.
# The dump client is a raw netlink one (python), independent of smcss.
# The same runs against the distribution's smc.ko and against ours; ours
# is loaded at the end.  SMC_SELFTEST_QUICK=1 (the debug kernel) runs
# ours only.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
fi
[ "$(id -u)" = 0 ] || smc_lib_bail_skip "must run as root"
[ -f "$SMC_LIB_OURS/smc.ko" ] || smc_lib_bail_skip "$SMC_LIB_OURS/smc.ko not built"
modinfo -F filename smc >/dev/null 2>&1 ||
	smc_lib_bail_skip "no distribution smc module for $(uname -r)"
command -v ip >/dev/null || smc_lib_bail_skip "ip(8) missing"
command -v python3 >/dev/null || smc_lib_bail_skip "python3 missing"

NSX=smc_diag_x_$$
NSY=smc_diag_y_$$
# fixed listener ports: the namespaces' port spaces are separate, so a
# port alone would not tell the namespaces apart, but fixed ones do
PORTX=7101
PORTY=7201

tmp=$(mktemp -d) || smc_lib_bail_fail "mktemp failed"
holders=()
release()
{
	local fd

	# closing a holder's stdin ends it
	for fd in "${holders[@]}"; do
		exec {fd}>&-
	done
	holders=()
	wait
	ip netns del "$NSX" 2>/dev/null
	ip netns del "$NSY" 2>/dev/null
}
cleanup()
{
	release
	smc_lib_mod_unload
	smc_lib_mod_ensure ours
	rm -rf "$tmp"
} >/dev/null 2>&1
trap cleanup EXIT

# In a namespace: an AF_SMC listener on the given port, a client
# connected to it and the accepted socket; prints "ready" and holds them
# until stdin closes.
# (libc through ctypes: python has no addresses for family 43)
HOLDER='
import ctypes, os, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
def ck(r):
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r
port = int(sys.argv[1])
sin = struct.pack("=H", socket.AF_INET) + struct.pack(">H", port) + \
    socket.inet_aton("127.0.0.1") + bytes(8)
one = ctypes.c_int(1)
l = ck(libc.socket(43, socket.SOCK_STREAM, 0))
ck(libc.setsockopt(l, socket.SOL_SOCKET, socket.SO_REUSEADDR,
                   ctypes.byref(one), 4))
ck(libc.bind(l, sin, len(sin)))
ck(libc.listen(l, 8))
c = ck(libc.socket(43, socket.SOCK_STREAM, 0))
ck(libc.connect(c, sin, len(sin)))
a = ck(libc.accept(l, None, None))
print("ready", flush=True)
sys.stdin.read()
'

# One SOCK_DIAG_BY_FAMILY dump for AF_SMC; one line per socket:
# "<local port> <peer port> <inode>".
DUMP='
import os, socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 4)  # SOCK_DIAG
# smc_diag_req: family, pad[2], diag_ext, inet_diag_sockid (48 bytes)
req = struct.pack("=BxxB", 43, 0) + bytes(40) + struct.pack("=II", 0xffffffff, 0xffffffff)
hdr = struct.pack("=IHHII", 16 + len(req), 20, 0x301, 1, 0)
s.sendto(hdr + req, (0, 0))
done = False
while not done:
    buf = s.recv(65536)
    off = 0
    while off + 16 <= len(buf):
        ln, typ, fl, seq, pid = struct.unpack_from("=IHHII", buf, off)
        if ln < 16:
            raise SystemExit("bad netlink length")
        if typ == 3:  # NLMSG_DONE
            done = True
            break
        if typ == 2:  # NLMSG_ERROR
            err = struct.unpack_from("=i", buf, off + 16)[0]
            raise SystemExit("diag dump error %d" % err)
        if typ == 20:
            p = off + 16
            sport, dport = struct.unpack_from(">HH", buf, p + 4)
            inode = struct.unpack_from("=Q", buf, p + 56)[0]
            print(sport, dport, inode)
        off += (ln + 3) & ~3
'

# hold <ns> <port>: start a holder there and wait until its sockets are up
hold()
{
	local fd line

	mkfifo "$tmp/$1.in" "$tmp/$1.out" || return 1
	ip netns exec "$1" python3 -c "$HOLDER" "$2" \
		<"$tmp/$1.in" >"$tmp/$1.out" 2>"$tmp/$1.err" &
	exec {fd}>"$tmp/$1.in"
	holders+=("$fd")
	if ! read -r -t 60 line <"$tmp/$1.out" || [ "$line" != ready ]; then
		echo "holder in $1 did not come up: $(cat "$tmp/$1.err")"
		return 1
	fi
}

# setup <impl>: that module loaded, X and Y with their sockets held; in
# this shell, not a subtest's subshell, so that the holders stay
setup()
{
	local ns

	release
	rm -f "$tmp"/*.in "$tmp"/*.out "$tmp"/*.err
	smc_lib_mod_ensure "$1" || return 1
	for ns in "$NSX" "$NSY"; do
		ip netns add "$ns" && ip -n "$ns" link set lo up || return 1
	done
	hold "$NSX" "$PORTX" && hold "$NSY" "$PORTY"
}

# dump <ns|init> <file>: the raw diag dump of that namespace
dump()
{
	if [ "$1" = init ]; then
		python3 -c "$DUMP" >"$2"
	else
		ip netns exec "$1" python3 -c "$DUMP" >"$2"
	fi
}

# own <file> <port>: the listener, client and accepted socket of <port>
own()
{
	awk -v p="$2" '
		$1 == p && $2 == 0 { l++ }
		$1 != p && $2 == p { c++; cp = $1 }
		$1 == p && $2 != 0 { a[$2]++ }
		END { exit !(l == 1 && c == 1 && a[cp] == 1) }' "$1"
}

# none <file> <port>: no socket of that listener's connections
none()
{
	awk -v p="$2" '$1 == p || $2 == p { bad = 1 } END { exit bad }' "$1"
}

# inodes of <file a> and <file b> are disjoint
disjoint()
{
	[ -z "$(comm -12 <(awk '{ print $3 }' "$1" | sort -u) \
		<(awk '{ print $3 }' "$2" | sort -u))" ]
}

# diag_isolated: the raw dumps of X, Y and init (sockets held by setup)
diag_isolated()
{
	local x=$tmp/dump.x y=$tmp/dump.y i=$tmp/dump.init rc=0

	dump "$NSX" "$x" && dump "$NSY" "$y" && dump init "$i" || return 1
	echo "X: $(tr '\n' ';' <"$x")"
	echo "Y: $(tr '\n' ';' <"$y")"
	echo "init: $(tr '\n' ';' <"$i")"
	own "$x" "$PORTX" || { echo "FAIL X's dump lacks X's sockets"; rc=1; }
	own "$y" "$PORTY" || { echo "FAIL Y's dump lacks Y's sockets"; rc=1; }
	none "$x" "$PORTY" || { echo "FAIL X's dump shows Y's sockets"; rc=1; }
	none "$y" "$PORTX" || { echo "FAIL Y's dump shows X's sockets"; rc=1; }
	if ! none "$i" "$PORTX" || ! none "$i" "$PORTY"; then
		echo "FAIL the initial netns dump shows X's or Y's sockets"
		rc=1
	fi
	disjoint "$x" "$y" || { echo "FAIL X and Y share socket inodes"; rc=1; }
	if ! disjoint "$x" "$i" || ! disjoint "$y" "$i"; then
		echo "FAIL a namespace shares socket inodes with init"
		rc=1
	fi
	return "$rc"
}

# smcss_isolated: smcss in X lists X's listener and not Y's (sockets of
# diag_isolated, still held)
smcss_isolated()
{
	local ns own_port other out rc=0

	for ns in "$NSX" "$NSY"; do
		if [ "$ns" = "$NSX" ]; then
			own_port=$PORTX other=$PORTY
		else
			own_port=$PORTY other=$PORTX
		fi
		out=$(ip netns exec "$ns" "$SMC_LIB_SMCSS" -a -j) ||
			{ echo "smcss failed in $ns: $out"; return 1; }
		echo "$ns: $out"
		grep -q "\"local_port\":$own_port," <<<"$out" ||
			{ echo "FAIL smcss in $ns lacks port $own_port"; rc=1; }
		if grep -q "_port\":$other," <<<"$out"; then
			echo "FAIL smcss in $ns shows port $other of the other netns"
			rc=1
		fi
	done
	return "$rc"
}

impls=(distro ours)
[ -n "${SMC_SELFTEST_QUICK:-}" ] && impls=(ours)
smc_lib_plan $((2 * ${#impls[@]}))
for impl in "${impls[@]}"; do
	if setup "$impl" >"$tmp/setup.log" 2>&1; then
		smc_lib_run "$impl: a diag dump shows only its netns' sockets" \
			diag_isolated
		smc_lib_run "$impl: smcss shows only its netns' sockets" \
			smcss_isolated
	else
		why=$(tail -n 1 "$tmp/setup.log")
		smc_lib_diag <"$tmp/setup.log"
		smc_lib_report 1 "$impl: a diag dump shows only its netns' sockets" 0 "$why"
		smc_lib_report 1 "$impl: smcss shows only its netns' sockets" 0 "$why"
	fi
done
release
smc_lib_exit
