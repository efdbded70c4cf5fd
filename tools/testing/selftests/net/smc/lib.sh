#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the SMC selftests.  Source it from a test script, or
# run "bash lib.sh <name> [args]" to call smc_lib_<name> (this is how the
# peer host and the tools' --hook reach these functions).
#
# Environment (set by the rig; all optional):
#   SMC_LOCAL_IP, SMC_PEER_IP, SMC_LOCAL_IP6, SMC_PEER_IP6
#   SMC_PEER_EXEC            command prefix running one shell command line
#                            on the peer ("ssh hostB" style); unset means
#                            single-host mode, the peer side runs here
#   SMC_SELFTEST_EXPECT_ALL  1: a skipped test counts as a failure
#   SMC_SELFTEST_FAMILY      tcp: use plain TCP everywhere and skip the
#                            mode checks (to try the tests without smc.ko)
#   SMC_SELFTEST_IMPL        ours (default) or distro: the module the
#                            ours<->ours tests load (distro: to check the
#                            tests themselves against the reference)
#   SMC_LIB_OURS             directory with our smc.ko and smc_diag.ko
#                            (default net/smc; the rig's debug kernel
#                            uses its own build, out/debug/net/smc)
#   SMC_SELFTEST_EXPECT_MODE expected "MODE REASON" of an AF_SMC socket
#                            in an SMC<->SMC connection, either role
#                            (default: see smc_lib_expect)
#   SMC_SELFTEST_QUICK       1: tests that know it run a smaller set of
#                            cases (the rig's slow debug kernel)
#   SMC_SELFTEST_SECONDARY   1: this run repeats the stock x86_64 one on
#                            another kernel or byte order; tests that
#                            know it leave out what depends on neither
#   SMC_TOOLS                the directory of smcss, smcr, smc_pnet,
#                            smc_run and libsmc-preload.so (default: this
#                            project's tools/smc; set it when the tests run
#                            from a kernel tree)
#   SMCSS                    smcss binary (default: $SMC_TOOLS/smcss)

SMC_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SMC_LIB_REPO=$(cd "$SMC_LIB_DIR/../../../../.." && pwd)
SMC_LIB_SOCK_TEST=$SMC_LIB_DIR/smc_sock_test
SMC_LIB_DATA_TEST=$SMC_LIB_DIR/smc_data_test
SMC_LIB_TOOLS=${SMC_TOOLS:-$SMC_LIB_REPO/tools/smc}
SMC_LIB_SMCSS=${SMCSS:-$SMC_LIB_TOOLS/smcss}
SMC_LIB_SMCR=$SMC_LIB_TOOLS/smcr
SMC_LIB_PNET=$SMC_LIB_TOOLS/smc_pnet
SMC_LIB_OURS=${SMC_LIB_OURS:-$SMC_LIB_REPO/net/smc}
SMC_LIB_FAMILY=${SMC_SELFTEST_FAMILY:-smc}
SMC_LIB_HOOK="bash $SMC_LIB_DIR/lib.sh hook"

# awk: field(line, key) is the value of "key" in a one-line JSON object
# (smcss -j), quotes removed
SMC_LIB_AWK_FIELD='
	function field(line, key,   re, v) {
		re = "\"" key "\":(\"[^\"]*\"|[^,}]*)"
		if (!match(line, re))
			return ""
		v = substr(line, RSTART + length(key) + 3,
			   RLENGTH - length(key) - 3)
		gsub(/"/, "", v)
		return v
	}'

# fallback reasons, as smcss prints them (for the sourcing scripts)
# shellcheck disable=SC2034
SMC_LIB_OPTUNSUPP=0x03060000
# shellcheck disable=SC2034
SMC_LIB_PEERNOSMC=0x03010000
SMC_LIB_NOSMCDEV=0x03030000
SMC_LIB_PEERDECL=0x05000000
# a tc filter: RoCEv2 packets (UDP 4791) dropped (for the sourcing scripts)
# shellcheck disable=SC2034
SMC_LIB_ROCE_DROP="protocol ip flower ip_proto udp dst_port 4791 action drop"

SMC_LIB_KSFT_PASS=0
SMC_LIB_KSFT_FAIL=1
SMC_LIB_KSFT_SKIP=4

smc_lib_n=0
smc_lib_pass=0
smc_lib_fail=0
smc_lib_skipped=0
smc_lib_plan_n=0

smc_lib_now_ms()
{
	local us=${EPOCHREALTIME:-}

	# bash's clock: a process costs 0.1-0.2 s under TCG
	if [ -z "$us" ]; then
		date +%s%3N
		return
	fi
	us=${us/[^0-9]/}
	echo $((10#$us / 1000))
}

# ---- KTAP ---------------------------------------------------------------

smc_lib_plan()
{
	smc_lib_plan_n=$1
	echo "TAP version 13"
	echo "1..$1"
}

# prefix every line with "# " (diagnostics)
smc_lib_diag()
{
	local l

	# no sed: a process costs 0.1-0.2 s under TCG
	while IFS= read -r l || [ -n "$l" ]; do
		printf '# %s\n' "$l"
	done
}

smc_lib_skip_allowed()
{
	[ "${SMC_SELFTEST_EXPECT_ALL:-0}" != 1 ]
}

# smc_lib_report <rc> <name> <ms> [reason]: one KTAP result line
smc_lib_report()
{
	local rc=$1 name=$2 ms=$3 reason=${4:-}

	smc_lib_n=$((smc_lib_n + 1))
	if [ "$rc" -eq "$SMC_LIB_KSFT_SKIP" ]; then
		if smc_lib_skip_allowed; then
			smc_lib_skipped=$((smc_lib_skipped + 1))
			echo "ok $smc_lib_n - $name # SKIP ${reason:-skipped}"
			return 0
		fi
		reason="skip not allowed (SMC_SELFTEST_EXPECT_ALL=1): $reason"
		rc=$SMC_LIB_KSFT_FAIL
	fi
	if [ "$rc" -eq 0 ]; then
		smc_lib_pass=$((smc_lib_pass + 1))
		echo "ok $smc_lib_n - $name # time=${ms}ms"
	else
		smc_lib_fail=$((smc_lib_fail + 1))
		[ -n "$reason" ] && echo "# $reason"
		echo "not ok $smc_lib_n - $name # time=${ms}ms"
	fi
}

# smc_lib_run <name> <cmd> [args...]: run one subtest, report it.
# The command's output goes out as diagnostics; exit 4 means skip (the
# last output line is the reason).
smc_lib_run()
{
	local name=$1 t0 out rc

	shift
	t0=$(smc_lib_now_ms)
	out=$("$@" 2>&1)
	rc=$?
	# the last line without tail: a process costs 0.1-0.2 s under TCG
	[ -n "$out" ] && printf '%s\n' "$out" | smc_lib_diag
	smc_lib_report "$rc" "$name" $(($(smc_lib_now_ms) - t0)) \
		"${out##*$'\n'}"
}

# smc_lib_skip <name> <reason>: report a subtest that cannot run
smc_lib_skip()
{
	smc_lib_report "$SMC_LIB_KSFT_SKIP" "$1" 0 "$2"
}

smc_lib_exit()
{
	if [ "$smc_lib_n" -ne "$smc_lib_plan_n" ]; then
		echo "# planned $smc_lib_plan_n tests, ran $smc_lib_n"
		smc_lib_fail=$((smc_lib_fail + 1))
	fi
	echo "# Totals: pass:$smc_lib_pass fail:$smc_lib_fail xfail:0 xpass:0" \
		"skip:$smc_lib_skipped error:0"
	if [ "$smc_lib_fail" -gt 0 ]; then
		exit "$SMC_LIB_KSFT_FAIL"
	fi
	if [ "$smc_lib_pass" -eq 0 ] && [ "$smc_lib_skipped" -gt 0 ]; then
		exit "$SMC_LIB_KSFT_SKIP"
	fi
	exit "$SMC_LIB_KSFT_PASS"
}

# smc_lib_bail_skip <reason>: the whole script cannot run
smc_lib_bail_skip()
{
	echo "TAP version 13"
	if smc_lib_skip_allowed; then
		echo "1..0 # SKIP $1"
		exit "$SMC_LIB_KSFT_SKIP"
	fi
	echo "1..1"
	echo "# $1"
	echo "not ok 1 - prerequisites # skip not allowed (SMC_SELFTEST_EXPECT_ALL=1)"
	exit "$SMC_LIB_KSFT_FAIL"
}

# smc_lib_bail_fail <reason>: the whole script failed before any test
smc_lib_bail_fail()
{
	echo "TAP version 13"
	echo "1..1"
	printf '%s\n' "$1" | smc_lib_diag
	echo "not ok 1 - prerequisites"
	exit "$SMC_LIB_KSFT_FAIL"
}

# ---- hosts ----------------------------------------------------------------

# smc_lib_kernel_ge <major> <minor>: is this kernel at least that?
smc_lib_kernel_ge()
{
	local maj min

	IFS=.- read -r maj min _ <<<"$(uname -r)"
	[ "$maj" -gt "$1" ] || { [ "$maj" = "$1" ] && [ "$min" -ge "$2" ]; }
}

# a command printing the host's byte order: 1 little-, 256 big-endian
SMC_LIB_BYTE_ORDER="printf '\\001\\000' | od -An -tu2 | tr -d ' '"

# smc_lib_big_endian: is this host big-endian (s390x)?
smc_lib_big_endian()
{
	[ "$(eval "$SMC_LIB_BYTE_ORDER")" = 256 ]
}

# smc_lib_byte_order <local|peer>: that host's byte order, 1 or 256
smc_lib_byte_order()
{
	smc_lib_on "$1" "$SMC_LIB_BYTE_ORDER"
}

# smc_lib_same_byte_order: are both hosts of one byte order?
smc_lib_same_byte_order()
{
	local lo po

	lo=$(smc_lib_byte_order local) && po=$(smc_lib_byte_order peer) &&
		[ "$lo" = "$po" ]
}

# smc_lib_distro_smcr: can the distro smc.ko do SMC-R on this rig?  On
# 6.12, yes.  On 6.1 only over the rig's own rdma_rxe.ko on both hosts
# (make KVER=6.1 rxe-out, smc_lib_rxe_no_replay): the stock 6.1 rxe
# leaves cur_qp_state out of ib_query_qp, never signals a CQ armed with
# IB_CQ_SOLICITED_MASK and runs a completed memory registration again
# after a retransmit, and the distro module's link set-up then hangs for
# good in smc_wr_drain_cq.  Ours does not rely on any of that.
# SMC_LIB_DISTRO_SMCR_WHY is the skip reason of the sourcing scripts when
# it is false.
# shellcheck disable=SC2034
SMC_LIB_DISTRO_SMCR_WHY="the distro smc's SMC-R needs 6.12 or, on 6.1,"
SMC_LIB_DISTRO_SMCR_WHY+=" the rig's rxe on both hosts (make KVER=6.1 rxe-out)"
smc_lib_distro_smcr()
{
	smc_lib_kernel_ge 6 12 || smc_lib_rxe_no_replay
}

# smc_lib_distro_state: can this pair run the distro smc.ko's SMC-R?
# "yes"; "skip" when the peer has the module but not what its SMC-R needs
# here (SMC_LIB_DISTRO_SMCR_WHY: a counted skip); "no" without the module
smc_lib_distro_state()
{
	if ! smc_lib_peer "modinfo -F filename smc" >/dev/null 2>&1; then
		echo no
	elif smc_lib_distro_smcr; then
		echo yes
	else
		echo skip
	fi
}

# smc_lib_rxe_no_replay: the distro smc.ko's SMC-R may be loaded hard
# here.  Where rxe carries the links, every host's must be the rig's
# build, which names itself in /sys/module/rdma_rxe/version (smc-rig,
# scripts/rig/rxe/): a stock rxe runs a completed IB_WR_REG_MR again
# after a retransmit and kills the QP, which the distro module,
# registering RMBs on the link's QP, meets under load.  Hosts without
# rxe (RoCE hardware) qualify.
# shellcheck disable=SC2034
SMC_LIB_RXE_NO_REPLAY_WHY="a stock rxe kills the distro smc's links under this load"
SMC_LIB_RXE_NO_REPLAY_WHY+=" (make rxe-out; scripts/rig/rxe/)"
smc_lib_rxe_no_replay()
{
	local h

	for h in local peer; do
		# shellcheck disable=SC2016 # expands on the host
		smc_lib_on "$h" '[ ! -d /sys/module/rdma_rxe ] ||
			[ "$(cat /sys/module/rdma_rxe/version 2>/dev/null)" = smc-rig ]' ||
			return 1
	done
}

# smc_lib_distro_pnet <local|peer>: what the distro smc.ko needs there
# before 6.12 to use an rxe port at all.  6.1's module finds an RDMA
# port's netdev only through the device's get_netdev op, which rxe does
# not have, or through the PNETID table: one PNETID for each data link
# (net1 and rxe1, net2 and rxe2).  Newer modules ask the RDMA core.
smc_lib_distro_pnet()
{
	local l cmd=true

	smc_lib_kernel_ge 6 12 && return 0
	for l in 1 2; do
		cmd="$cmd && { [ ! -e /sys/class/infiniband/rxe$l ] ||
			$(smc_lib_q "$SMC_LIB_PNET" -a "SMCRIG$l" \
				-I "net$l" -D "rxe$l" -P 1); }"
	done
	smc_lib_on "$1" "$cmd"
}

smc_lib_single_host()
{
	[ -z "${SMC_PEER_EXEC:-}" ]
}

# quote arguments into one shell command line
smc_lib_q()
{
	local a s=

	for a in "$@"; do
		printf -v a '%q' "$a"
		s="$s $a"
	done
	printf '%s' "${s# }"
}

# smc_lib_peer <command line>: run it on the peer host
smc_lib_peer()
{
	if smc_lib_single_host; then
		bash -c "$1"
	else
		# the prefix is a command with its own arguments
		# shellcheck disable=SC2086
		$SMC_PEER_EXEC "$1"
	fi
}

# smc_lib_on <local|peer> <command line>
smc_lib_on()
{
	if [ "$1" = local ]; then
		# a subshell, not "bash -c": no exec, which costs 0.1-0.2 s
		# under TCG; no script sets shell options these would inherit,
		# and the command sees no positional parameters, as there
		(smc_lib_on_cmd=$2; set --; eval "$smc_lib_on_cmd")
	else
		smc_lib_peer "$2"
	fi
}

# smc_lib_ip <local|peer> [6]: the data-link address of a host
smc_lib_ip()
{
	local l4=${SMC_LOCAL_IP:-127.0.0.1} l6=${SMC_LOCAL_IP6:-::1}

	if [ "${2:-}" = 6 ]; then
		if [ "$1" = local ] || smc_lib_single_host; then
			echo "$l6"
		else
			echo "${SMC_PEER_IP6:?SMC_PEER_IP6 not set}"
		fi
	elif [ "$1" = local ] || smc_lib_single_host; then
		echo "$l4"
	else
		echo "${SMC_PEER_IP:?SMC_PEER_IP not set}"
	fi
}

# ---- modules ----------------------------------------------------------------

smc_lib_srcversion()
{
	modinfo -F srcversion "$1" 2>/dev/null
}

# prints ours|distro|none|other for this host's smc module
smc_lib_mod_which()
{
	local cur ours distro

	if [ ! -d /sys/module/smc ]; then
		echo none
		return 0
	fi
	cur=$(cat /sys/module/smc/srcversion 2>/dev/null)
	ours=$(smc_lib_srcversion "$SMC_LIB_OURS/smc.ko")
	distro=$(smc_lib_srcversion smc)
	# our module always has a srcversion (MODULE_VERSION); the distro's
	# has one only on kernels built with CONFIG_MODULE_SRCVERSION_ALL
	if [ -n "$cur" ] && [ "$cur" = "$ours" ]; then
		echo ours
	elif [ -z "$cur" ] || [ "$cur" = "$distro" ]; then
		echo distro
	else
		echo other
	fi
}

# smc_lib_mod_wait_idle: wait (bounded) until only the modules that
# depend on smc hold it; sockets still in their close protocol hold it
# too, for a moment after their last connection ended
smc_lib_mod_wait_idle()
{
	local i holders

	for i in $(seq 300); do
		[ -d /sys/module/smc ] || return 0
		holders=$(find /sys/module/smc/holders -mindepth 1 | wc -l)
		[ "$(cat /sys/module/smc/refcnt)" -le "$holders" ] && return 0
		[ "$i" = 1 ] &&
			echo "waiting for smc sockets to go: refcnt $(cat /sys/module/smc/refcnt)"
		sleep 0.1
	done
	echo "smc still in use: refcnt $(cat /sys/module/smc/refcnt), $holders dependent modules"
	return 1
}

smc_lib_mod_unload()
{
	local m

	smc_lib_mod_wait_idle || return 1
	for m in smc_diag smc; do
		if [ -d "/sys/module/$m" ]; then
			rmmod "$m" || return 1
		fi
	done
}

smc_lib_mod_load_ours()
{
	insmod "$SMC_LIB_OURS/smc.ko" && insmod "$SMC_LIB_OURS/smc_diag.ko"
}

smc_lib_mod_load_distro()
{
	modprobe smc && modprobe smc_diag
}

# smc_lib_mod_ensure <ours|distro>: make it the loaded smc (+ smc_diag)
smc_lib_mod_ensure()
{
	local want=$1 have

	have=$(smc_lib_mod_which)
	if [ "$have" != "$want" ]; then
		smc_lib_mod_unload || return 1
		"smc_lib_mod_load_$want" || return 1
	elif [ ! -d /sys/module/smc_diag ]; then
		if [ "$want" = ours ]; then
			insmod "$SMC_LIB_OURS/smc_diag.ko" || return 1
		else
			modprobe smc_diag || return 1
		fi
	fi
	have=$(smc_lib_mod_which)
	if [ "$have" != "$want" ]; then
		echo "wanted the $want smc module, have $have"
		return 1
	fi
}

# smc_lib_mod <local|peer> <which|ensure|unload|...> [args]
smc_lib_mod()
{
	local where=$1 fn=$2

	shift 2
	smc_lib_on "$where" \
		"$(smc_lib_q bash "$SMC_LIB_DIR/lib.sh" "mod_$fn" "$@")"
}

# ---- SMC-R set-up ----------------------------------------------------------------

# the UEID the SMC-R tests give both hosts: SMC-Rv2 needs a common one
SMC_LIB_UEID=SMC-R.SELFTEST

# smc_lib_ueid_set <local|peer> [<ueid>]: make it the host's only UEID
smc_lib_ueid_set()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" ueid flush) && \
		$(smc_lib_q "$SMC_LIB_SMCR" ueid add "${2:-$SMC_LIB_UEID}")"
}

# smc_lib_ueid_flush <local|peer>
smc_lib_ueid_flush()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" ueid flush)"
}

# smc_lib_smcr_setup: the checks and set-up of an SMC-R test between our
# modules on two hosts with a common UEID; an EXIT trap undoes it
smc_lib_smcr_setup()
{
	if [ "$SMC_LIB_FAMILY" = tcp ]; then
		smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
	fi
	if smc_lib_single_host; then
		smc_lib_bail_skip "needs a peer host (SMC_PEER_EXEC unset)"
	fi
	if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
		smc_lib_bail_skip "no RDMA device on this host (rdma_rxe)"
	fi
	[ -x "$SMC_LIB_SMCR" ] || smc_lib_bail_skip "$SMC_LIB_SMCR not built"
	trap smc_lib_smcr_cleanup EXIT
	smc_lib_require_mod local ours
	smc_lib_require_mod peer ours
	smc_lib_ueid_set local || smc_lib_bail_fail "cannot set a UEID here"
	smc_lib_ueid_set peer ||
		smc_lib_bail_fail "cannot set a UEID on the peer"
}

smc_lib_smcr_cleanup()
{
	smc_lib_ueid_flush local >/dev/null 2>&1
	smc_lib_ueid_flush peer >/dev/null 2>&1
	smc_lib_mod peer ensure ours >/dev/null 2>&1
}

# ---- mode checks ---------------------------------------------------------------

# smc_lib_smcss_json <local|peer> [smcss options]: "smcss -j" there, or
# the reason it failed
smc_lib_smcss_json()
{
	local where=$1 out

	shift
	if ! out=$(smc_lib_on "$where" "$(smc_lib_q "$SMC_LIB_SMCSS" "$@" -j)" 2>&1)
	then
		echo "smcss failed on $where: $out"
		return 1
	fi
	printf '%s\n' "$out"
}

# Extract mode and fallback reason of the socket <lport> -> <rport> from
# "smcss -a -j" output (one JSON object per line) on stdin.
smc_lib_parse_mode()
{
	awk -v lp="$1" -v rp="$2" '
	'"$SMC_LIB_AWK_FIELD"'
	/"local_port":/ {
		if (field($0, "local_port") != lp || field($0, "peer_port") != rp)
			next
		r = field($0, "fallback_reason")
		if (r == "null" || r == "")
			r = "-"
		else
			r = sprintf("0x%08x", r + 0)
		found = found (found == "" ? "" : " / ") field($0, "mode") " " r
	}
	END { print (found == "" ? "none" : found) }'
}

# smc_lib_mode_of <local|peer> <lport> <rport>: "MODE REASON" or "none"
smc_lib_mode_of()
{
	local out

	out=$(smc_lib_smcss_json "$1" -a) || { echo "$out"; return 1; }
	printf '%s\n' "$out" | smc_lib_parse_mode "$2" "$3"
}

# smc_lib_assert_mode <local|peer> <lport> <rport> <expected>
smc_lib_assert_mode()
{
	local got

	got=$(smc_lib_mode_of "$1" "$2" "$3") || { echo "$got"; return 1; }
	if [ "$got" != "$4" ]; then
		echo "FAIL mode of $1 socket :$2 -> :$3 is '$got', expected '$4'"
		return 1
	fi
	echo "mode $1 :$2 -> :$3: $got"
	case $4 in
	"TCP 0x"*) smc_lib_assert_explain "$1" "$2" "$3" "${4#TCP }" ;;
	esac
}

# smc_lib_assert_explain <local|peer> <lport> <rport> <reason>: "smcss -x"
# lists the fallback socket with that reason code, its name, its meaning
# and a hint what to change
smc_lib_assert_explain()
{
	local out

	if ! out=$(smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCSS" -x)" 2>&1)
	then
		echo "FAIL smcss -x failed on $1: $out"
		return 1
	fi
	if ! printf '%s\n' "$out" | awk -v lp="$2" -v rp="$3" -v code="$4" '
		# "addr:lport -> addr:rport  inode N  uses TCP", then the reason
		$2 == "->" && $1 ~ (":" lp "$") && $3 ~ (":" rp "$") { sock = NR }
		sock && NR == sock + 1 && $1 == "reason:" && $2 == code &&
			$3 ~ /^[A-Z_0-9]+:$/ && NF > 4 { why = NR }
		why && NR == why + 1 && $1 $2 == "tochange:" && NF > 3 { ok = 1 }
		END { exit !ok }'; then
		echo "FAIL smcss -x on $1 does not explain :$2 -> :$3 ($4):"
		printf '%s\n' "$out"
		return 1
	fi
	echo "smcss -x $1 :$2 -> :$3: $(printf '%s\n' "$out" |
		grep -A1 -E ":$2 -> .*:$3 " | sed -n 's/^ *reason: *//p')"
}

# smc_lib_assert_fields <local|peer> <lport> <rport> <what> <expected>
# <key>...: the values smcss -a -j reports for those keys of that socket,
# joined by blanks, must be <expected>
smc_lib_assert_fields()
{
	local where=$1 lp=$2 rp=$3 what=$4 want=$5 out got

	shift 5
	out=$(smc_lib_smcss_json "$where" -a) || { echo "$out"; return 1; }
	got=$(printf '%s\n' "$out" | awk -v lp="$lp" -v rp="$rp" -v keys="$*" '
	'"$SMC_LIB_AWK_FIELD"'
	/"local_port":/ {
		if (field($0, "local_port") != lp || field($0, "peer_port") != rp)
			next
		n = split(keys, k, " ")
		f = field($0, k[1])
		for (i = 2; i <= n; i++)
			f = f " " field($0, k[i])
		found = found (found == "" ? "" : " / ") f
	}
	END { print (found == "" ? "none" : found) }')
	if [ "$got" != "$want" ]; then
		echo "FAIL $what of $where socket :$lp -> :$rp is '$got', expected '$want'"
		return 1
	fi
	echo "$what $where :$lp -> :$rp: $got"
}

# smc_lib_assert_diag <local|peer> <lport> <rport> <expected>: the
# "diag_family local_addr peer_addr" smcss reports for that socket
smc_lib_assert_diag()
{
	smc_lib_assert_fields "$1" "$2" "$3" diag "$4" \
		diag_family local_addr peer_addr
}

# smc_lib_assert_bufs <local|peer> <lport> <rport> <expected>: the
# "rmbe_size peer_rmbe_size" of that SMC-R socket
smc_lib_assert_bufs()
{
	smc_lib_assert_fields "$1" "$2" "$3" buffers "$4" \
		rmbe_size peer_rmbe_size
}

# The tools' --hook: the connection SMC_HOOK_LPORT -> SMC_HOOK_RPORT of
# this host is up; check it here and its other end on the peer.  With
# SMC_HOOK_DIAG (SMC_HOOK_DIAG_PEER) set, also what smcss reports as
# "diag_family local_addr peer_addr" for this (the peer's) end.  With
# SMC_HOOK_RMBE set, both ends' RMBs must be of that size.
smc_lib_hook()
{
	local rc=0 fd out

	# the peer's end is checked while this one is: every check starts
	# processes, and each costs 0.1-0.2 s under TCG
	exec {fd}< <(smc_lib_hook_end peer 2>&1; echo "smc_lib_hook_rc=$?")
	smc_lib_hook_end local || rc=1
	IFS= read -r -d '' out <&"$fd"
	exec {fd}<&-
	printf '%s' "${out%smc_lib_hook_rc=*}"
	[ "${out##*smc_lib_hook_rc=}" = $'0\n' ] || rc=1
	return $rc
}

# smc_lib_hook_end <local|peer>: the hook's checks of one end
smc_lib_hook_end()
{
	local rc=0 lp=$SMC_HOOK_LPORT rp=$SMC_HOOK_RPORT
	local expect=${SMC_HOOK_EXPECT:?} diag=${SMC_HOOK_DIAG:-}

	if [ "$1" = peer ]; then
		lp=$SMC_HOOK_RPORT rp=$SMC_HOOK_LPORT
		expect=${SMC_HOOK_EXPECT_PEER:?} diag=${SMC_HOOK_DIAG_PEER:-}
	fi
	smc_lib_assert_mode "$1" "$lp" "$rp" "$expect" || rc=1
	if [ -n "$diag" ]; then
		smc_lib_assert_diag "$1" "$lp" "$rp" "$diag" || rc=1
	fi
	if [ -n "${SMC_HOOK_RMBE:-}" ]; then
		smc_lib_assert_bufs "$1" "$lp" "$rp" \
			"$SMC_HOOK_RMBE $SMC_HOOK_RMBE" || rc=1
	fi
	return $rc
}

# smc_lib_conn_modes <local|peer> <port> <client|server>: one line
# "MODE REASON" per connected socket of that host whose peer port (on the
# client) or local port (on the server) is <port>, counted: "N MODE REASON"
smc_lib_conn_modes()
{
	local out

	out=$(smc_lib_smcss_json "$1") || { echo "$out"; return 1; }
	printf '%s\n' "$out" | awk -v port="$2" -v role="$3" '
	'"$SMC_LIB_AWK_FIELD"'
	/"local_port":/ {
		p = field($0, role == "client" ? "peer_port" : "local_port")
		if (p != port || field($0, "state") == "LISTEN")
			next
		r = field($0, "fallback_reason")
		r = (r == "null" || r == "") ? "-" : sprintf("0x%08x", r + 0)
		n[field($0, "mode") " " r]++
	}
	END { for (m in n) print n[m], m }' | sort
}

# smc_lib_lgr_use <local|peer> <CLNT|SERV>: "GROUPS CONNS", the SMC-R link
# groups of that role on the host that have connections, and the sum of
# their connections
smc_lib_lgr_use()
{
	local out

	out=$(smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" 2>&1) || {
		echo "smcr linkgroup show failed on $1: $out"
		return 1
	}
	printf '%s\n' "$out" | sed 's/},{/}\n{/g' | awk -v role="$2" '
	index($0, "\"role\":\"" role "\"") && match($0, /"conns":[0-9]+/) {
		c = substr($0, RSTART + 8, RLENGTH - 8) + 0
		if (c) { g++; n += c }
	}
	END { print g + 0, n + 0 }'
}

# smc_lib_server_hs_errors <local|peer>: server handshake errors there
smc_lib_server_hs_errors()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" -a -j stats)" |
		sed -n 's/.*"server_handshake_errors":\([0-9]*\).*/\1/p'
}

# smc_lib_down_count <local|peer> <causes>: links that failed there by
# those causes (blank-separated: wr_error port device gid testlink
# peer, or "all"), counted in debugfs smc/failover; "-" where our module
# does not run
smc_lib_down_count()
{
	smc_lib_on "$1" "cat /sys/kernel/debug/smc/failover 2>/dev/null" |
		awk -v c=" $2 " '
		$1 ~ /^down_/ && (c == " all " ||
			index(c, " " substr($1, 6) " ")) { n += $2 }
		{ seen = 1 } END { print seen ? n + 0 : "-" }'
}

# smc_lib_lgr_count <local|peer>: the SMC-R link groups there
smc_lib_lgr_count()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" -j linkgroup show)" |
		grep -o '"role":"' | wc -l
}

# smc_lib_no_groups: no SMC-R link group on either host
smc_lib_no_groups()
{
	[ "$(smc_lib_lgr_count local)" = 0 ] && [ "$(smc_lib_lgr_count peer)" = 0 ]
}

# smc_lib_testlink <local|peer> [<seconds>]: set
# net.smc.smcr_testlink_time there, or print it
smc_lib_testlink()
{
	local f=/proc/sys/net/smc/smcr_testlink_time

	if [ -n "${2:-}" ]; then
		smc_lib_on "$1" "[ ! -e $f ] || echo $2 >$f"
	else
		smc_lib_on "$1" "cat $f 2>/dev/null"
	fi
}

# smc_lib_devs_in_use <local|peer>: "rxeN" for each rxe port with links
# there
smc_lib_devs_in_use()
{
	smc_lib_on "$1" "$(smc_lib_q "$SMC_LIB_SMCR" -j device show)" |
		sed 's/},{/}\n{/g' | awk '
		'"$SMC_LIB_AWK_FIELD"'
		field($0, "links") + 0 > 0 { print field($0, "ib_dev") }'
}

# smc_lib_dstate <local|peer>: the tasks in uninterruptible sleep there
smc_lib_dstate()
{
	smc_lib_on "$1" "ps -eo stat=,pid=,comm=" | awk '$1 ~ /^D/'
}

# smc_lib_ready_port <server output>: the port of its "READY <port>" line
smc_lib_ready_port()
{
	local l

	while IFS= read -r l; do
		[[ $l =~ ^READY\ ([0-9]+)$ ]] && echo "${BASH_REMATCH[1]}"
	done <<<"$1"
	return 0
}

# smc_lib_server <local|peer> <tool> <server args...>: the tool's server
# started there as a daemon on a free port (--port 0 --daemon go first);
# prints the port, or a FAIL line and returns 1
smc_lib_server()
{
	local where=$1 tool=$2 out port

	shift 2
	out=$(smc_lib_on "$where" "$(smc_lib_q "$tool" server --port 0 \
		--daemon "$@")" 2>&1)
	port=$(smc_lib_ready_port "$out")
	if [ -z "$port" ]; then
		echo "FAIL server did not come up on $where: $out"
		return 1
	fi
	echo "$port"
}

# smc_lib_busy_start <seconds> <result file> <client output> <seed>: a
# verified transfer both ways, too big to end soon, with the server on
# the peer and the client here in the background (its pid in
# smc_lib_busy_pid), both expecting an error (fault tests); returns once
# the transfer is under way, within the seconds
smc_lib_busy_start()
{
	local port big=1073741824

	# read by the callers
	# shellcheck disable=SC2034
	smc_lib_busy_pid=
	port=$(smc_lib_server peer "$SMC_LIB_DATA_TEST" --result "$2" \
		--family smc --size "$big" --dir both --seed "$4" --timeout 120 \
		--expect-error) || { echo "$port"; return 1; }
	"$SMC_LIB_DATA_TEST" client --host "$(smc_lib_ip peer)" --port "$port" \
		--family smc --size "$big" --dir both --seed "$4" --timeout 120 \
		--expect-error --hook "$SMC_LIB_HOOK" >"$3" 2>&1 &
	# shellcheck disable=SC2034
	smc_lib_busy_pid=$!
	smc_lib_wait_until "$1" "the transfer under way" grep -qx transfer "$3"
}

# smc_lib_gid4 <a.b.c.d>: the IPv4-mapped RoCE GID of the address, as
# sysfs and smcr print it
smc_lib_gid4()
{
	local a b c d

	IFS=. read -r a b c d <<<"$1"
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$a" "$b" "$c" "$d"
}

# smc_lib_gid_has <local|peer> <rxeN> <a.b.c.d>: port 1 of the device
# there has the GID of the address
smc_lib_gid_has()
{
	smc_lib_on "$1" "grep -qsx $(smc_lib_gid4 "$3") /sys/class/infiniband/$2/ports/1/gids/*"
}

# smc_lib_fo_count <local|peer> <name>: that count of debugfs
# smc/failover on the host, "-" where our module does not run
smc_lib_fo_count()
{
	smc_lib_on "$1" "cat /sys/kernel/debug/smc/failover 2>/dev/null" |
		awk -v c="$2" '$1 == c { n = $2 } END { print n == "" ? "-" : n }'
}

# smc_lib_fo_show: debugfs smc/failover of each host on a line
smc_lib_fo_show()
{
	local h

	for h in local peer; do
		smc_lib_on "$h" "cat /sys/kernel/debug/smc/failover" | tr '\n' ' '
		echo "($h)"
	done
}

# smc_lib_busy_end <t0 ms> <client max s> <server max s> <result file>
# <client output>: the transfer of smc_lib_busy_start after a fault at
# t0: the client here and the server on the peer must each have ended in
# an error within their bound after t0 (the client is killed after three
# times its bound).  The bytes that arrived were verified by both.
smc_lib_busy_end()
{
	local t0=$1 cmax=$2 smax=$3 rc=0 crc ms end

	end=$((SECONDS + cmax * 3 + 1))
	while kill -0 "$smc_lib_busy_pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.1
	done
	ms=$(($(smc_lib_now_ms) - t0))
	if kill -0 "$smc_lib_busy_pid" 2>/dev/null; then
		kill "$smc_lib_busy_pid"
		echo "FAIL the client still running $ms ms after the fault"
		rc=1
	fi
	wait "$smc_lib_busy_pid"
	crc=$?
	sed 's/^/  client: /' "$5"
	rm -f "$5"
	echo "the client (here) ended $ms ms after the fault"
	[ "$crc" = 0 ] || { echo "FAIL client exit $crc"; rc=1; }
	[ "$ms" -le $((cmax * 1000)) ] || {
		echo "FAIL the client's error later than ${cmax}s"; rc=1; }
	smc_lib_peer "$(smc_lib_q "$SMC_LIB_DATA_TEST" wait --result "$4")" 2>&1 |
		sed 's/^/  server: /'
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "FAIL server"; rc=1; }
	ms=$(($(smc_lib_now_ms) - t0))
	echo "the server (peer) ended by $ms ms after the fault"
	[ "$ms" -le $((smax * 1000)) ] || {
		echo "FAIL the server's error later than ${smax}s"; rc=1; }
	return "$rc"
}

# smc_lib_wait_until <seconds> <what> <command...>: poll the command
# until it succeeds; after the seconds, "FAIL not within ..." and 1
smc_lib_wait_until()
{
	local max=$1 what=$2 end=$((SECONDS + $1))

	shift 2
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "FAIL not within ${max}s: $what"
			return 1
		fi
		sleep 0.1
	done
}

# The --hook of smc_conns_test: SMC_HOOK_CONNS connections to the
# server's port SMC_HOOK_PORT are up, and this host is their
# SMC_HOOK_ROLE (client or server).  Each one must be in mode
# SMC_HOOK_EXPECT here and SMC_HOOK_EXPECT_PEER on the peer; with
# SMC_HOOK_LGRS set, the link groups in use on each host must be that
# many and hold exactly these connections.
smc_lib_hook_conns()
{
	local n=${SMC_HOOK_CONNS:?} port=${SMC_HOOK_PORT:?} rc=0 got want
	local where role expect lrole

	for where in local peer; do
		role=${SMC_HOOK_ROLE:?} expect=${SMC_HOOK_EXPECT:?}
		if [ "$where" = peer ]; then
			expect=${SMC_HOOK_EXPECT_PEER:?}
			if [ "$role" = client ]; then role=server; else role=client; fi
		fi
		if [ "$role" = client ]; then lrole=CLNT; else lrole=SERV; fi
		want="$n $expect"
		got=$(smc_lib_conn_modes "$where" "$port" "$role") || rc=1
		if [ "$got" != "$want" ]; then
			echo "FAIL $role ($where) connections of port $port:" \
				"'$(printf '%s' "$got" | tr '\n' ';')', expected '$want'"
			rc=1
		else
			echo "$role ($where): $got"
		fi
		[ -n "${SMC_HOOK_LGRS:-}" ] || continue
		got=$(smc_lib_lgr_use "$where" "$lrole") || rc=1
		echo "$role ($where): link groups in use, connections: $got"
		if [ "$got" != "$SMC_HOOK_LGRS $n" ]; then
			echo "FAIL expected $SMC_HOOK_LGRS link groups with $n connections"
			# what else holds a connection there, to tell why
			smc_lib_on "$where" "$(smc_lib_q "$SMC_LIB_SMCSS" -a -d -W)" 2>&1 |
				grep -v -e ":$port " -e "^State" | head -n 10 |
				sed "s/^/  other socket ($where): /"
			rc=1
		fi
	done
	return $rc
}

# ---- client/server runs ----------------------------------------------------------

smc_lib_tmp_n=0

# smc_lib_pair <tool> <server host> <server args> <client args> [<v6>]
#
# Start the tool's server as a daemon on <server host> (local|peer), run
# its client on the other host against it, then collect the server.
# The side running here gets the mode-check hook unless SMC_LIB_NOHOOK
# is set, with expectations from SMC_HOOK_EXPECT (this host) and
# SMC_HOOK_EXPECT_PEER (the other one).  Args are arrays given by name.
smc_lib_pair()
{
	local tool=$1 srv=$2 v6=${5:-} cli res out port crc src kill=
	local -n smc_lib_pair_sa=$3 smc_lib_pair_ca=$4
	local shook=() chook=()

	if [ "$srv" = local ]; then cli=peer; else cli=local; fi
	# role-based expectations, if the script gives them
	if [ -n "${SMC_HOOK_EXPECT_CLIENT:-}" ]; then
		if [ "$srv" = local ]; then
			SMC_HOOK_EXPECT=$SMC_HOOK_EXPECT_SERVER
			SMC_HOOK_EXPECT_PEER=$SMC_HOOK_EXPECT_CLIENT
		else
			SMC_HOOK_EXPECT=$SMC_HOOK_EXPECT_CLIENT
			SMC_HOOK_EXPECT_PEER=$SMC_HOOK_EXPECT_SERVER
		fi
		export SMC_HOOK_EXPECT SMC_HOOK_EXPECT_PEER
	fi
	if [ -z "${SMC_LIB_NOHOOK:-}" ]; then
		if [ "$srv" = local ]; then
			shook=(--hook "$SMC_LIB_HOOK")
		else
			chook=(--hook "$SMC_LIB_HOOK")
		fi
	fi
	smc_lib_tmp_n=$((smc_lib_tmp_n + 1))
	res=/tmp/smc_selftest.$$.$smc_lib_tmp_n
	port=$(smc_lib_server "$srv" "$tool" --result "$res" "${shook[@]}" \
		"${smc_lib_pair_sa[@]}") || { echo "$port"; return 1; }
	smc_lib_on "$cli" "$(smc_lib_q "$tool" client \
		--host "$(smc_lib_ip "$srv" "$v6")" --port "$port" \
		"${chook[@]}" "${smc_lib_pair_ca[@]}")" 2>&1
	crc=$?
	[ "$crc" -ne 0 ] && kill=--kill
	smc_lib_on "$srv" "$(smc_lib_q "$tool" wait --result "$res" $kill)" 2>&1
	src=$?
	if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
		echo "FAIL client ($cli) exit $crc, server ($srv) exit $src"
		return 1
	fi
	return 0
}

# family option for a side: smc unless SMC_SELFTEST_FAMILY=tcp
smc_lib_fam()
{
	if [ "$SMC_LIB_FAMILY" = tcp ]; then echo tcp; else echo "${1:-smc}"; fi
}

# smc_lib_expect <fam> <client|server>: expected mode of the AF_SMC
# socket in that role when both ends are SMC sockets.  Both ask for SMC
# in the TCP handshake; the client finds no RoCE port it can use (our
# module has no SMC-R link layer yet; the distro's has no UEID here) and
# declines with NOSMCDEV, and the server falls back on that Decline
# (PEERDECL).
smc_lib_expect()
{
	if [ "$1" = tcp ]; then
		echo none
	elif [ -n "${SMC_SELFTEST_EXPECT_MODE:-}" ]; then
		echo "$SMC_SELFTEST_EXPECT_MODE"
	elif [ "$2" = server ]; then
		echo "TCP $SMC_LIB_PEERDECL"
	else
		echo "TCP $SMC_LIB_NOSMCDEV"
	fi
}

# check the tools (and smcss, unless in plain TCP mode) are built
smc_lib_require_tools()
{
	local t

	for t in "$SMC_LIB_SOCK_TEST" "$SMC_LIB_DATA_TEST"; do
		[ -x "$t" ] || smc_lib_bail_skip "$t not built (make -C $SMC_LIB_DIR)"
	done
	if [ "$SMC_LIB_FAMILY" = tcp ]; then
		SMC_LIB_NOHOOK=1
		return 0
	fi
	[ -x "$SMC_LIB_SMCSS" ] ||
		smc_lib_bail_skip "$SMC_LIB_SMCSS not built (make -C tools/smc, or set SMC_TOOLS)"
	[ "$(id -u)" = 0 ] || smc_lib_bail_skip "must run as root"
}

# make <impl> (ours|distro) the smc module on <local|peer>
smc_lib_require_mod()
{
	local out impl=$2

	[ "$SMC_LIB_FAMILY" = tcp ] && return 0
	[ "$impl" = ours ] && impl=${SMC_SELFTEST_IMPL:-ours}
	set -- "$1" "$impl"
	if [ "$2" = ours ] && [ ! -f "$SMC_LIB_OURS/smc.ko" ]; then
		smc_lib_bail_skip "$SMC_LIB_OURS/smc.ko not built"
	fi
	out=$(smc_lib_mod "$1" ensure "$2" 2>&1) ||
		smc_lib_bail_fail "cannot load the $2 smc module on $1: $out"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	if [ $# -lt 1 ] || ! declare -F "smc_lib_$1" >/dev/null; then
		echo "usage: $0 <function> [args]" >&2
		exit 2
	fi
	smc_lib_cmd=$1
	shift
	"smc_lib_$smc_lib_cmd" "$@"
	exit $?
fi
