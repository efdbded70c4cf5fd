#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unchanged programs under smc_run (LD_PRELOAD libsmc-preload.so): a Python
# socket echo, socat, curl against Python's http.server, and iperf3.  Each
# server runs on this host, each client on the peer, both under smc_run.
# Every case proves the program's sockets were SMC sockets: the server's
# listener (and, for the echo, both ends of the live connection) appear in
# smcss with the expected mode and fallback reason, and the client's
# preload log shows the conversion; the data must arrive intact.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
fi

tools=$SMC_LIB_TOOLS
run=$tools/smc_run
if [ ! -x "$run" ] || [ ! -f "$tools/libsmc-preload.so" ]; then
	smc_lib_bail_fail "smc_run or libsmc-preload.so not built in $tools"
fi
for p in python3 socat curl iperf3; do
	command -v "$p" >/dev/null || smc_lib_bail_fail "$p is not installed"
done
# the expected modes of our sockets while SMC-R is not negotiated yet
expect_client=$(smc_lib_expect smc client)
expect_server=$(smc_lib_expect smc server)

work=$(mktemp -d /tmp/smc_run_test.XXXXXX)
bg_pid=
cleanup()
{
	[ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

srv_ip=$(smc_lib_ip local)

# bg_start <name> <pattern> <cmd...>: start a server in the background and
# return once its output shows <pattern> (event-driven: a FIFO, no polling);
# fails if the server exits first.  Output goes to $work/<name>.log.
bg_start()
{
	local name=$1 pat=$2 fifo state

	shift 2
	fifo=$work/$name.ready
	mkfifo "$fifo"
	(
		# the watchdog turns a server that never gets ready into a
		# prompt failure instead of a hang
		sh -c 'echo $$ >"$0"; exec timeout 120 "$@"' "$work/$name.pid" "$@" 2>&1 |
		tee -p "$work/$name.log" |
		{
			if grep -q -m1 -- "$pat"; then
				echo ready >"$fifo"
			else
				echo exited >"$fifo"
			fi
			cat >/dev/null
		}
	) &
	read -r state <"$fifo"
	bg_pid=$(cat "$work/$name.pid")
	[ "$state" = ready ] || {
		echo "FAIL $name did not start:"
		cat "$work/$name.log"
		return 1
	}
}

bg_stop()
{
	[ -n "$bg_pid" ] && kill "$bg_pid" 2>/dev/null
	wait 2>/dev/null
	bg_pid=
}

# listener_is_smc <port>: the listening socket on <port> is an SMC socket
listener_is_smc()
{
	"$SMC_LIB_SMCSS" -l -j | grep "\"local_port\":$1," |
		grep -q '"state":"LISTEN"' || {
		echo "FAIL no SMC listener on port $1:"
		"$SMC_LIB_SMCSS" -a
		return 1
	}
	echo "SMC listener on port $1"
}

# conn_is_smc <host local|peer> <port> <mode>: a connection with local
# or peer port <port> is an SMC socket in mode <mode> ("MODE REASON")
conn_is_smc()
{
	local line expect=$3 expect_rsn=$((${3#* }))

	line=$(smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCSS" -a -j)" |
	       grep -E "\"(local|peer)_port\":$2," | grep -v '"LISTEN"' | head -n 1)
	case "$line" in
	*"\"mode\":\"${expect%% *}\""*"\"fallback_reason\":$expect_rsn,"* |\
	*"\"fallback_reason\":$expect_rsn,"*"\"mode\":\"${expect%% *}\""*)
		echo "$1: SMC connection on port $2 in mode $expect" ;;
	*)
		echo "FAIL $1: no SMC connection on port $2 in mode $expect: $line"
		return 1 ;;
	esac
}

client_converted()	# the preload log of the client shows SMC sockets
{
	grep -q 'SOCK_STREAM) -> SMC fd' <<<"$1" || {
		echo "FAIL the client's sockets were not converted:"
		echo "$1"
		return 1
	}
}

python_echo()
{
	local port=7801 out rc hook

	bg_start echo READY "$run" python3 -u "$SMC_LIB_DIR/smc_run_echo.py" \
		server "$srv_ip" "$port" || return 1
	listener_is_smc "$port" || { bg_stop; return 1; }
	# the client checks the live connection on both hosts through a hook
	# it runs between two echoes
	hook="bash $SMC_LIB_DIR/smc_run.sh check-conn %d"
	out=$(smc_lib_on peer "SMC_DEBUG=1 $(smc_lib_q "$run" python3 \
		"$SMC_LIB_DIR/smc_run_echo.py" client "$srv_ip" "$port" "$hook")" 2>&1)
	rc=$?
	echo "$out"
	bg_stop
	[ "$rc" = 0 ] && grep -q 'echo ok' <<<"$out" && client_converted "$out"
}

socat_echo()
{
	local port=7802 out

	bg_start socat 'listening on' "$run" socat -d -d \
		"TCP-LISTEN:$port,bind=$srv_ip,reuseaddr" EXEC:cat || return 1
	listener_is_smc "$port" || { bg_stop; return 1; }
	out=$(smc_lib_on peer "echo hello-socat |
		SMC_DEBUG=1 $(smc_lib_q "$run") socat - TCP:$srv_ip:$port" 2>&1)
	echo "$out"
	bg_stop
	grep -qx 'hello-socat' <<<"$out" && client_converted "$out"
}

curl_http()
{
	local port=7803 out sum

	mkdir -p "$work/www"
	head -c 1048576 /dev/urandom >"$work/www/blob"
	sum=$(md5sum <"$work/www/blob")
	bg_start http 'Serving HTTP' "$run" python3 -u -m http.server "$port" \
		--bind "$srv_ip" --directory "$work/www" || return 1
	listener_is_smc "$port" || { bg_stop; return 1; }
	out=$(smc_lib_on peer "SMC_DEBUG=1 $(smc_lib_q "$run") curl -sS \
			-o /tmp/smc_run_blob http://$srv_ip:$port/blob &&
		md5sum </tmp/smc_run_blob" 2>&1)
	echo "$out"
	bg_stop
	grep -qF "$sum" <<<"$out" || { echo "FAIL the download differs"; return 1; }
	client_converted "$out"
}

iperf3_run()
{
	local port=7804 out

	# --forceflush: iperf3 buffers its output when it is not a terminal
	bg_start iperf3 'Server listening' "$run" iperf3 -s -1 --forceflush \
		-B "$srv_ip" -p "$port" ||
		return 1
	listener_is_smc "$port" || { bg_stop; return 1; }
	out=$(smc_lib_on peer "SMC_DEBUG=1 timeout 120 $(smc_lib_q "$run") \
		iperf3 -c $srv_ip -p $port -n 8M" 2>&1)
	local rc=$?
	echo "$out" | tail -n 6
	bg_stop
	[ "$rc" = 0 ] || { echo "FAIL iperf3 client exit $rc"; return 1; }
	client_converted "$out"
}

# 16 threads x 10 sockets at once (the race is in the first calls):
# every one must come out as SMC.  The kernel's module requests are
# counted through a kernel.modprobe wrapper: a kernel without
# IPPROTO_SMC (6.1) runs modprobe twice for each refusal, so the library
# may ask for IPPROTO_SMC at most once per thread, not once per socket.
threads_convert()
{
	local helper wrapper=/tmp/smc_run_modprobe.sh log=/tmp/smc_run_modprobe.log
	local requests rc

	helper=$(cat /proc/sys/kernel/modprobe) || return 1
	printf '#!/bin/sh\necho "$*" >>%s\nexec %s "$@"\n' "$log" "$helper" >"$wrapper" &&
		chmod +x "$wrapper" && : >"$log" &&
		echo "$wrapper" >/proc/sys/kernel/modprobe || return 1
	smc_run_out=$("$run" python3 -c '
import socket, threading
bad = []
def work():
    for _ in range(10):
        s = socket.socket()
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN) != 43 and \
           s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL) != 256:
            bad.append(s)
        s.close()
t = [threading.Thread(target=work) for _ in range(16)]
[x.start() for x in t]
[x.join() for x in t]
print("non-SMC sockets:", len(bad))
' 2>&1)
	rc=$?
	echo "$helper" >/proc/sys/kernel/modprobe
	requests=$(wc -l <"$log")
	echo "$smc_run_out"
	echo "module requests: $requests"
	[ "$rc" = 0 ] && grep -qx 'non-SMC sockets: 0' <<<"$smc_run_out" || return 1
	[ "$requests" -le 32 ] || { echo "FAIL more than 2 module requests per thread"; return 1; }
}

buffers_honoured()
{
	local out

	out=$("$run" -r 256k -t 512k python3 -c '
import socket
s = socket.socket()
print(s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF),
      s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF))
' 2>&1)
	echo "SO_RCVBUF SO_SNDBUF: $out (the kernel doubles what is set)"
	[ "$out" = "524288 1048576" ]
}

if [ "${1:-}" = check-conn ]; then
	# hook of python_echo, run on the client host: $2 = client's port
	conn_is_smc local "$2" "$expect_client" &&
		conn_is_smc peer "$2" "$expect_server"
	exit
fi

smc_lib_mod local ensure ours >/dev/null || smc_lib_bail_fail "cannot load our smc.ko"
smc_lib_mod peer ensure ours >/dev/null || smc_lib_bail_fail "cannot load our smc.ko on the peer"

smc_lib_plan 6
smc_lib_run "python socket echo under smc_run" python_echo
smc_lib_run "socat under smc_run" socat_echo
smc_lib_run "curl and python http.server under smc_run" curl_http
smc_lib_run "iperf3 under smc_run" iperf3_run
smc_lib_run "threads: every socket converted" threads_convert
smc_lib_run "smc_run -r/-t set the buffer sizes" buffers_honoured
smc_lib_exit
