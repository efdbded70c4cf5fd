#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module handling on this host: while the distribution's smc.ko owns
# AF_SMC, inserting ours must fail with EEXIST ("File exists"); while any
# other module owns AF_SMC ours fails with EEXIST and says why in dmesg;
# once the distro module is gone ours loads, its smc_diag serves
# smcss and AF_SMC sockets work.  The smc module found at the start
# (ours when there was none) is loaded again at the end.

# shellcheck disable=SC2317 # functions run through smc_lib_run and trap
. "$(dirname "$0")/lib.sh"

# dmesg line our smc.ko logs when AF_SMC is taken (extended regex)
SMC_EEXIST_DMESG_RE=${SMC_EEXIST_DMESG_RE:-'smc.*(AF_SMC|family|already|exist|registered|in use)'}

smc_lib_require_tools
if [ "$SMC_LIB_FAMILY" = tcp ]; then
	smc_lib_bail_skip "needs AF_SMC (SMC_SELFTEST_FAMILY=tcp)"
fi
[ -f "$SMC_LIB_OURS/smc.ko" ] || smc_lib_bail_skip "$SMC_LIB_OURS/smc.ko not built"
modinfo -F filename smc >/dev/null 2>&1 ||
	smc_lib_bail_skip "no distribution smc module for $(uname -r)"

initial=$(smc_lib_mod_which)
restore()
{
	case "$initial" in
	distro) smc_lib_mod_ensure distro ;;
	*) smc_lib_mod_ensure ours ;;
	esac
} >/dev/null 2>&1
trap restore EXIT

distro_loads()
{
	smc_lib_mod_unload || return 1
	smc_lib_mod_load_distro || return 1
	[ "$(smc_lib_mod_which)" = distro ] || {
		echo "loaded module is $(smc_lib_mod_which), not distro"
		return 1
	}
}

kmsg_mark=
insmod_out=

ours_refused()
{
	local rc

	[ "$(smc_lib_mod_which)" = distro ] || { echo "distro smc not loaded"; return 1; }
	kmsg_mark="smc_selftest: insmod mark $$.$RANDOM"
	echo "$kmsg_mark" > /dev/kmsg
	insmod_out=$(insmod "$SMC_LIB_OURS/smc.ko" 2>&1)
	rc=$?
	echo "insmod: rc $rc: $insmod_out"
	if [ "$rc" -eq 0 ]; then
		echo "FAIL our smc.ko loaded next to the distro one"
		rmmod smc
		return 1
	fi
	if ! printf '%s\n' "$insmod_out" | grep -q "File exists"; then
		echo "FAIL insmod did not fail with EEXIST (File exists)"
		return 1
	fi
	[ "$(smc_lib_mod_which)" = distro ] || {
		echo "FAIL after the failed insmod the smc module is $(smc_lib_mod_which)"
		return 1
	}
}

# A module named smc is refused by the module loader before its init runs,
# so our own -EEXIST path is exercised with a copy of the distribution's
# smc.ko renamed to "smx" (same length, patched in .gnu.linkonce.this_module)
# owning AF_SMC: then our smc.ko must fail with EEXIST and say why in dmesg.
family_taken_logged()
{
	local tmp=/tmp/smc_selftest.$$.smx mark out rc log src dep off

	smc_lib_mod_unload || return 1
	src=$(modinfo -F filename smc) || return 1
	for dep in $(modinfo -F depends smc | tr , ' '); do
		modprobe "$dep" || return 1
	done
	case "$src" in
	*.xz) xz -dc "$src" >"$tmp.in" ;;
	*.zst) zstd -qdc "$src" >"$tmp.in" ;;
	*) cp "$src" "$tmp.in" ;;
	esac
	# patch the name in place: rewriting the ELF would drop the
	# relocations that fill in the init and exit pointers
	off=$(readelf -SW "$tmp.in" |
	      awk '$2 == ".gnu.linkonce.this_module" { print $5 }')
	[ -n "$off" ] || { echo "FAIL no .gnu.linkonce.this_module"; return 1; }
	off=$((16#$off + 24))
	[ "$(od -An -c -j "$off" -N 4 "$tmp.in" | tr -d ' ')" = 'smc\0' ] || {
		echo "FAIL module name not at offset 24 of this_module"
		return 1
	}
	cp "$tmp.in" "$tmp.ko"
	# drop the appended signature, which no longer matches: magic
	# (28 bytes) after a 12-byte header whose last 4 are the BE length
	if [ "$(tail -c 28 "$tmp.ko")" = "~Module signature appended~" ]; then
		local size siglen
		size=$(stat -c %s "$tmp.ko")
		siglen=$(tail -c 32 "$tmp.ko" | head -c 4 | od -An -tu1 |
			 awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
		truncate -s $((size - 28 - 12 - siglen)) "$tmp.ko"
	fi
	printf x | dd of="$tmp.ko" bs=1 seek=$((off + 2)) conv=notrunc status=none
	insmod "$tmp.ko" || { echo "FAIL the renamed copy did not load"; return 1; }
	mark="smc_selftest: insmod mark $$.$RANDOM"
	echo "$mark" >/dev/kmsg
	out=$(insmod "$SMC_LIB_OURS/smc.ko" 2>&1)
	rc=$?
	log=$(dmesg | awk -v m="$mark" 'f; index($0, m) { f = 1 }')
	rmmod smx
	rm -f "$tmp.ko" "$tmp.in"
	printf 'insmod: rc %s: %s\ndmesg since the insmod:\n%s\n' "$rc" "$out" "$log"
	if [ "$rc" -eq 0 ]; then
		rmmod smc
		echo "FAIL our smc.ko loaded although AF_SMC was taken"
		return 1
	fi
	printf '%s\n' "$out" | grep -q "File exists" || {
		echo "FAIL insmod did not fail with EEXIST (File exists)"
		return 1
	}
	printf '%s\n' "$log" | grep -Eiq "$SMC_EEXIST_DMESG_RE" || {
		echo "FAIL no dmesg line matching '$SMC_EEXIST_DMESG_RE'"
		return 1
	}
}

ours_loads()
{
	smc_lib_mod_unload || return 1
	insmod "$SMC_LIB_OURS/smc.ko" || return 1
	[ "$(smc_lib_mod_which)" = ours ] || {
		echo "FAIL loaded module is $(smc_lib_mod_which), not ours"
		return 1
	}
	"$SMC_LIB_SOCK_TEST" probe --family smc &&
	"$SMC_LIB_SOCK_TEST" probe --family smc --ipv6
}

diag_serves_smcss()
{
	local res=/tmp/smc_selftest.$$.diag out port rc=0 args

	if [ ! -d /sys/module/smc_diag ]; then
		insmod "$SMC_LIB_OURS/smc_diag.ko" || return 1
	fi
	[ "$(modinfo -F srcversion "$SMC_LIB_OURS/smc_diag.ko")" = \
	  "$(cat /sys/module/smc_diag/srcversion 2>/dev/null)" ] || {
		echo "FAIL the loaded smc_diag is not ours"
		return 1
	}
	args=(--case accept_block --family smc --timeout 60)
	out=$("$SMC_LIB_SOCK_TEST" server --port 0 --daemon --result "$res" \
	      "${args[@]}") || { echo "$out"; return 1; }
	port=${out#READY }
	out=$("$SMC_LIB_SMCSS" -a -j) || { echo "FAIL smcss: $out"; rc=1; }
	if ! printf '%s\n' "$out" | grep "\"local_port\":$port," |
	     grep -q '"state":"LISTEN"'; then
		echo "FAIL smcss shows no listening socket on port $port:"
		printf '%s\n' "$out"
		rc=1
	fi
	"$SMC_LIB_SOCK_TEST" client --host 127.0.0.1 --port "$port" \
		"${args[@]}" || rc=1
	"$SMC_LIB_SOCK_TEST" wait --result "$res" || rc=1
	return "$rc"
}

smc_lib_plan 6
smc_lib_run "distro smc loads" distro_loads
smc_lib_run "ours refused with EEXIST while distro owns AF_SMC" ours_refused
smc_lib_run "ours loads after distro unload" ours_loads
smc_lib_run "AF_SMC owned elsewhere: EEXIST explained in dmesg" \
	family_taken_logged
smc_lib_run "ours loads again" ours_loads
smc_lib_run "our smc_diag serves smcss" diag_serves_smcss
smc_lib_exit
