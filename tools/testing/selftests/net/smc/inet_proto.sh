#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# IPPROTO_SMC: socket(AF_INET[6], SOCK_STREAM, IPPROTO_SMC) sockets of our
# smc.ko, this host (A) against the peer (B).
#  - creation, SO_PROTOCOL/SO_DOMAIN/SO_TYPE, SOCK_DGRAM refused, the
#    module aliases that let the kernel load smc.ko for these sockets;
#  - smc_sock_test cases (all with SMC_SELFTEST_INET_ALL=1) on IPPROTO_SMC
#    v4 and v6 sockets, while
#    smcss shows both ends in fallback mode TCP after the CLC handshake
#    (client NOSMCDEV, server PEERDECL, see smc_lib_expect); on data and
#    interop runs also with diag family AF_INET/AF_INET6 and the real
#    addresses of the connection;
#  - interop with AF_SMC sockets and plain TCP, both directions;
#  - the distribution's smc.ko on the peer: it is loaded by creating an
#    IPPROTO_SMC socket there (alias autoload) and interoperates; unlike
#    ours, its smc_diag reports these sockets with zero addresses;
#  - the smc_run preload library gets IPPROTO_SMC sockets from us;
#  - unloading: refused while an IPPROTO_SMC socket is open, then the
#    protocol is gone; lockdep knows our sock lock classes (debug kernel).

. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs SMC (SMC_SELFTEST_FAMILY=tcp)"
fi
if smc_lib_single_host; then
	smc_lib_bail_skip "needs a peer host (SMC_PEER_EXEC unset)"
fi
command -v python3 >/dev/null || smc_lib_bail_skip "needs python3"
smc_lib_require_mod local ours
trap 'smc_lib_mod peer ensure ours >/dev/null 2>&1' EXIT
smc_lib_require_mod peer ours

# SMC<->SMC: the client declines, the server falls back on that (lib.sh)
cl=$(smc_lib_expect smc client)
sv=$(smc_lib_expect smc server)
# against plain TCP: no SMC option from the peer, no CLC
fb_tcp="TCP $SMC_LIB_PEERNOSMC"
la=$(smc_lib_ip local)
pa=$(smc_lib_ip peer)
la6=$(smc_lib_ip local 6)
pa6=$(smc_lib_ip peer 6)

# <expect> <expect peer> <diag> <diag peer>: what the hook checks
expect()
{
	SMC_HOOK_EXPECT=$1
	SMC_HOOK_EXPECT_PEER=$2
	SMC_HOOK_DIAG=$3
	SMC_HOOK_DIAG_PEER=$4
	export SMC_HOOK_EXPECT SMC_HOOK_EXPECT_PEER SMC_HOOK_DIAG \
		SMC_HOOK_DIAG_PEER
}

# Creation and identity of IPPROTO_SMC sockets, as upstream defines them
# shellcheck disable=SC2317 # called through smc_lib_run
check_socket()
{
	python3 - <<'EOF'
import errno, socket, sys
IPPROTO_SMC = 256
rc = 0
def check(what, got, want):
    global rc
    print(f"{what}: {got}" + ("" if got == want else f", expected {want}"))
    if got != want:
        rc = 1
for fam in (socket.AF_INET, socket.AF_INET6):
    s = socket.socket(fam, socket.SOCK_STREAM, IPPROTO_SMC)
    g = lambda o: s.getsockopt(socket.SOL_SOCKET, o)
    check(f"{fam.name} SO_PROTOCOL", g(socket.SO_PROTOCOL), IPPROTO_SMC)
    check(f"{fam.name} SO_DOMAIN", g(socket.SO_DOMAIN), int(fam))
    check(f"{fam.name} SO_TYPE", g(socket.SO_TYPE), socket.SOCK_STREAM)
    s.close()
    try:
        socket.socket(fam, socket.SOCK_DGRAM, IPPROTO_SMC).close()
        check(f"{fam.name} SOCK_DGRAM", "created", "EPROTONOSUPPORT")
    except OSError as e:
        check(f"{fam.name} SOCK_DGRAM", errno.errorcode[e.errno],
              "EPROTONOSUPPORT")
sys.exit(rc)
EOF
}

# our smc.ko carries the aliases inet_create() and inet6_create() request
# shellcheck disable=SC2317 # called through smc_lib_run
check_aliases()
{
	local a al rc=0

	al=$(modinfo -F alias "$SMC_LIB_OURS/smc.ko") || return 1
	for a in net-pf-2-proto-256-type-1 net-pf-10-proto-256-type-1; do
		if grep -qx "$a" <<< "$al"; then
			echo "alias $a"
		else
			echo "FAIL alias $a missing"
			rc=1
		fi
	done
	return "$rc"
}

# run_sock <server host> <case> <server family> <client family> [6]
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; arrays by name
run_sock()
{
	local s=(--case "$2" --family "$3" --timeout 90)
	local c=(--case "$2" --family "$4" --timeout 90)

	if [ "${5:-}" = 6 ]; then
		s+=(--ipv6)
		c+=(--ipv6)
	fi
	smc_lib_pair "$SMC_LIB_SOCK_TEST" "$1" s c "${5:-}"
}

# run_data <server host> <server family> <client family> [6]
# shellcheck disable=SC2317,SC2034 # called through smc_lib_run; arrays by name
run_data()
{
	local s=(--family "$2" --size 1048576 --dir both --seed 7)
	local c=(--family "$3" --size 1048576 --dir both --seed 7)

	if [ "${4:-}" = 6 ]; then
		s+=(--ipv6)
		c+=(--ipv6)
	fi
	smc_lib_pair "$SMC_LIB_DATA_TEST" "$1" s c "${4:-}"
}

py_socket='import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256).close()'

# With smc unloaded on the peer, creating an IPPROTO_SMC socket there
# must load the distribution's smc.ko through its alias.
# shellcheck disable=SC2317 # called through smc_lib_run
peer_autoload()
{
	local m

	smc_lib_mod peer unload || return 1
	m=$(smc_lib_mod peer which) || return 1
	[ "$m" = none ] || { echo "FAIL smc still loaded on the peer: $m"; return 1; }
	smc_lib_peer "$(smc_lib_q python3 -c "$py_socket")" || return 1
	m=$(smc_lib_mod peer which) || return 1
	echo "socket(AF_INET, SOCK_STREAM, IPPROTO_SMC) loaded the $m smc"
	[ "$m" = distro ] || return 1
	smc_lib_mod peer ensure distro
}

# rmmod is refused while IPPROTO_SMC sockets are open; once they are
# closed it succeeds and the protocol is gone from /proc/net/protocols.
# shellcheck disable=SC2317 # called through smc_lib_run
unload()
{
	local rc=0

	python3 - <<'EOF' || rc=1
import socket, subprocess, sys
l = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256)
l.bind(("127.0.0.1", 0))
l.listen()
s6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, 256)
r = subprocess.run(["rmmod", "smc_diag", "smc"], capture_output=True, text=True)
print(f"rmmod with open sockets: rc {r.returncode} {r.stderr.strip()}")
if r.returncode == 0:
    sys.exit(1)
l.close()
s6.close()
EOF
	[ "$rc" -eq 0 ] || return 1
	smc_lib_mod_unload || { echo "FAIL rmmod after close"; return 1; }
	if grep -q "SMC" /proc/net/protocols; then
		echo "FAIL /proc/net/protocols still lists SMC:"
		grep SMC /proc/net/protocols
		rc=1
	else
		echo "no SMC protocol left after rmmod"
	fi
	smc_lib_mod_ensure ours || rc=1
	grep -q "^INET_SMC " /proc/net/protocols ||
		{ echo "FAIL INET_SMC not registered after reload"; rc=1; }
	return "$rc"
}

# smc_run's preload library prefers IPPROTO_SMC, which our module offers
# shellcheck disable=SC2317 # called through smc_lib_run
preload()
{
	local run out

	run=$(cd "$SMC_LIB_DIR/../../../../smc" && pwd)/smc_run
	[ -x "$run" ] || { echo "FAIL $run not built"; return 1; }
	out=$("$run" python3 -c '
import socket
for fam in (socket.AF_INET, socket.AF_INET6):
    s = socket.socket(fam, socket.SOCK_STREAM)
    print(s.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN),
          s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL))
' 2>&1)
	echo "SO_DOMAIN SO_PROTOCOL under smc_run: ${out//$'\n'/, }"
	[ "$out" = "$(printf '2 256\n10 256')" ]
}

# On a lockdep kernel our socks must use their own lock classes.
# shellcheck disable=SC2317 # called through smc_lib_run
lock_classes()
{
	local c rc=0

	if [ ! -r /proc/lockdep ]; then
		echo "no lockdep in this kernel: classes cannot be listed"
		grep -q "^INET_SMC " /proc/net/protocols
		return
	fi
	for c in sk_lock-AF_INET-SMC sk_lock-AF_INET6-SMC; do
		if grep -q -- "$c" /proc/lockdep; then
			echo "lockdep class $c"
		else
			echo "FAIL lockdep class $c not in /proc/lockdep"
			rc=1
		fi
	done
	return "$rc"
}

# SMC_SELFTEST_INET_ALL=1: every smc_sock_test case on v4 and v6 (about
# 15 minutes on the rig's stock kernel, over 25 on the debug one, too
# long for the kselftest timeout); by default the cases that cover
# identity, connection set-up, data, urgent data and shutdown
if [ "${SMC_SELFTEST_INET_ALL:-0}" = 1 ]; then
	mapfile -t cases < <("$SMC_LIB_SOCK_TEST" list)
	[ "${#cases[@]}" -gt 0 ] ||
		smc_lib_bail_fail "smc_sock_test list gave no cases"
	cases6=("${cases[@]}")
else
	cases=(accept4 connect listen oob rw shutdown_wr sockopt_smc sockopt_sol)
	cases6=(connect connect_refused rw sockopt_ip sockopt_sol)
fi
reverse=(connect rw)
interop=(connect rw)
distro=(rw shutdown_wr)

smc_lib_plan $((5 + ${#cases[@]} + ${#cases6[@]} + ${#reverse[@]} + \
	4 * ${#interop[@]} + 4 + 1 + 2 * ${#distro[@]} + 1 + 1 + 1))

smc_lib_run "socket, SO_PROTOCOL/SO_DOMAIN, SOCK_DGRAM" check_socket
smc_lib_run "module aliases" check_aliases
smc_lib_run "smc_run gets IPPROTO_SMC sockets" preload

# the diag family and addresses on data runs, the mode on every case
expect "$cl" "$sv" "2 $la $pa" "2 $pa $la"
smc_lib_run "data 1 MiB both inet-client-A inet-server-B" \
	run_data peer inet inet
expect "$cl" "$sv" "10 $la6 $pa6" "10 $pa6 $la6"
smc_lib_run "data 1 MiB both inet6-client-A inet6-server-B" \
	run_data peer inet inet 6
expect "$cl" "$sv" "" ""
for c in "${cases[@]}"; do
	smc_lib_run "$c inet A-client B-server" run_sock peer "$c" inet inet
done
for c in "${cases6[@]}"; do
	smc_lib_run "$c inet6 A-client B-server" \
		run_sock peer "$c" inet inet 6
done
expect "$sv" "$cl" "2 $la $pa" "2 $pa $la"
for c in "${reverse[@]}"; do
	smc_lib_run "$c inet B-client A-server" run_sock local "$c" inet inet
done

# AF_SMC and IPPROTO_SMC sockets are the same protocol on the wire
expect "$cl" "$sv" "2 $la $pa" "43 $pa $la"
for c in "${interop[@]}"; do
	smc_lib_run "$c inet-client-A smc-server-B" run_sock peer "$c" smc inet
done
expect "$sv" "$cl" "2 $la $pa" "43 $pa $la"
for c in "${interop[@]}"; do
	smc_lib_run "$c smc-client-B inet-server-A" run_sock local "$c" inet smc
done
# against plain TCP the peer has no SMC socket at all
expect "$fb_tcp" none "2 $la $pa" ""
for c in "${interop[@]}"; do
	smc_lib_run "$c inet-client-A tcp-server-B" run_sock peer "$c" tcp inet
	smc_lib_run "$c tcp-client-B inet-server-A" run_sock local "$c" inet tcp
done
smc_lib_run "data 1 MiB both inet-client-A tcp-server-B" \
	run_data peer tcp inet
smc_lib_run "data 1 MiB both tcp-client-B inet-server-A" \
	run_data local inet tcp
expect "$cl" "$sv" "2 $la $pa" "43 $pa $la"
smc_lib_run "data 1 MiB both inet-client-A smc-server-B" \
	run_data peer smc inet
expect "$sv" "$cl" "2 $la $pa" "2 $pa $la"
smc_lib_run "data 1 MiB both inet-client-B inet-server-A" \
	run_data local inet inet

# the distribution's module on the peer; its diag zeroes the addresses
if smc_lib_peer "modinfo -F filename smc" >/dev/null 2>&1; then
	smc_lib_run "peer: IPPROTO_SMC socket autoloads the distro smc" \
		peer_autoload
	# and it allocates an accepted socket as AF_SMC, not AF_INET
	expect "$cl" "$sv" "2 $la $pa" "43 0.0.0.0 0.0.0.0"
	for c in "${distro[@]}"; do
		smc_lib_run "$c inet ours-client-A distro-server-B" \
			run_sock peer "$c" inet inet
	done
	smc_lib_run "data 1 MiB both inet ours-client-A distro-server-B" \
		run_data peer inet inet
	expect "$sv" "$cl" "2 $la $pa" "2 0.0.0.0 0.0.0.0"
	for c in "${distro[@]}"; do
		smc_lib_run "$c inet distro-client-B ours-server-A" \
			run_sock local "$c" inet inet
	done
	smc_lib_mod peer ensure ours >/dev/null
else
	smc_lib_run "the peer has a distribution smc module" false
fi

smc_lib_run "lockdep classes of IPPROTO_SMC socks" lock_classes
smc_lib_run "rmmod with and without IPPROTO_SMC sockets" unload
smc_lib_exit
