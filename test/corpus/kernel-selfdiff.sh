#!/bin/bash
# Every object of a real reference kernel (KERNEL=6.1, the default, or 6.12;
# kpatch-build's cached -ffunction-sections build of it) diffed against itself
# must come out as "no changed functions" (exit 3): no spurious change from
# correlation, special statics, call-site data or special sections on real
# code, and no crash.
# usage: kernel-selfdiff.sh [CDO [SANITIZED_CDO]]; skips when the cache is absent.
# With SANITIZED_CDO (make check: the ASan/UBSan build) every fourth object
# (KPATCH_SELFDIFF_SANITIZE_EVERY) is diffed by it, the others by CDO (the
# release build): the sanitized build costs 0.2 s a process here, most of it
# reading vmlinux's 35,000 symbols, against 0.05 s. Each object a
# check of test/lib/result.sh (PASS lines not printed: thousands); last line
# "kernel-selfdiff-KERNEL: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/lib/result.sh
. "$top/test/lib/result.sh"
work=$top/test/out/kernel-selfdiff/${KERNEL:-6.1}
result_init "kernel-selfdiff-${KERNEL:-6.1}" "$work"
RESULT_QUIET_PASS=1
CDO=$(readlink -f "${1:-$top/create-diff-object/create-diff-object}")
SAN_CDO=${2:+$(readlink -f "$2")}
SAN_EVERY=${KPATCH_SELFDIFF_SANITIZE_EVERY:-4}
cache=${KPATCH_CACHE:-$HOME/.cache/kpatch-ng}
env_out=$("$top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || env_out=
eval "$env_out"
# kpatch-build's original build of this reference kernel (its info names the config)
obj=
info=$(grep -lx "config=${KCONFIG:-none}" "$cache"/kpatch-build/orig/*/info 2>/dev/null | head -n 1)
[ -z "$info" ] || obj=$(dirname "$info")/obj
if [ -z "$obj" ] || [ ! -e "$obj/vmlinux" ] || [ -z "${KVMLINUX:-}" ]; then
	# make check builds the kernels first: there, a missing build is a failure
	if [ -n "${KPATCH_REQUIRE_KERNEL:-}" ]; then
		fail kernel "no complete original build of kernel ${KERNEL:-6.1} (config ${KCONFIG:-none}) in $cache/kpatch-build/orig"
		result_summary
		exit 1
	fi
	skip kernel "no cached kernel builds (run kpatch-build once)"
	result_summary
	exit
fi
readelf -sW "$KVMLINUX" > "$work/vmlinux.symtab"
# shellcheck disable=SC2046 # NAME=SIZE words
export $("$top/kpatch-build/kpatch-struct-sizes" "$KVMLINUX")
# 6.1 struct sizes the DWARF may not name in a small config
export BUG_STRUCT_SIZE=${BUG_STRUCT_SIZE:-12} JUMP_STRUCT_SIZE=${JUMP_STRUCT_SIZE:-16} \
	PARA_STRUCT_SIZE=${PARA_STRUCT_SIZE:-16}
# the parent of each compiled object, as kpatch-build diffs it (objects.idx:
# "object source parent", paths normalized): a module's objects against the
# module's symbols; objects linked nowhere ("-") against vmlinux's
declare -A parent
while read -r o p; do parent[$o]=$p; done < <(awk '{
	n = split($1, c, "/"); k = 0
	for (i = 1; i <= n; i++) if (c[i] == ".." && k > 0) k--; else if (c[i] != ".") s[++k] = c[i]
	o = s[1]; for (i = 2; i <= k; i++) o = o "/" s[i]
	print o, $3 }' "$(dirname "$obj")/objects.idx")
# PARENT PARENT_SYMTAB for parent $1 (a module's symtab made once)
parent_args() {
	local m=$1 ko
	if [ "$m" = vmlinux ] || [ "$m" = - ]; then echo "vmlinux $work/vmlinux.symtab"; return; fi
	if [ ! -f "$work/$m.symtab" ]; then
		ko=$(grep -E "(^|/)$m\.(ko|o)\$" "$KOBJ/modules.order" | head -n1)
		readelf -sW "$KOBJ/${ko%.*}.ko" > "$work/$m.symtab" 2>/dev/null || return 1
	fi
	echo "$m $work/$m.symtab"
}
links=0 n=0 nsan=0
while read -r o; do
	rel=${o#"$obj"/}
	# not compiled from a source of the build: a module of several objects
	# linked into one (ld -r), the kallsyms tables of the vmlinux link
	if [ -z "${parent[$rel]:-}" ]; then links=$((links + 1)); continue; fi
	read -r pname psymtab < <(parent_args "${parent[$rel]}") ||
		{ fail "$rel" "no symbols of its module ${parent[$rel]}"; continue; }
	cdo=$CDO
	if [ -n "$SAN_CDO" ] && [ $((n++ % SAN_EVERY)) -eq 0 ]; then
		cdo=$SAN_CDO nsan=$((nsan + 1))
	fi
	"$cdo" "$o" "$o" "$pname" "$psymtab" "$KSYMVERS" selfdiff \
		"$work/out.o" > "$work/log" 2>&1
	rc=$?
	if [ $rc -eq 3 ]; then
		pass "$rel"
	else
		fail "$rel" "exit $rc ($cdo): $(head -c 300 "$work/log" | tr '\n' ' ')"
	fi
# 64-bit kernel objects only: realmode and the vdso are built apart
done < <(find "$obj" -name '*.o' ! -name '*.mod.o' ! -name vmlinux.o \
	! -path '*/scripts/*' ! -path '*/tools/*' ! -path '*/realmode/*' \
	! -path '*/vdso/*' | sort)
by=${SAN_CDO:+ ($nsan of them by $SAN_CDO)}
echo "kernel-selfdiff: kernel ${KVER:-?}: $RESULT_PASSED objects unchanged against themselves$by, $RESULT_FAILED failed ($links objects that no compile made left out: modules linked from several, kallsyms tables)"
result_summary
