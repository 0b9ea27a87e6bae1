#!/bin/bash
# Every object of the real 6.1 kernel (kpatch-build's cached
# -ffunction-sections build) diffed against itself must come out as "no
# changed functions" (exit 3): no spurious change from correlation, special
# statics, call-site data or special sections on real code, and no crash.
# usage: kernel-selfdiff.sh [CDO]; skips when the cache is absent.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
CDO=$(readlink -f "${1:-$top/create-diff-object/create-diff-object}")
cache=${KPATCH_CACHE:-$HOME/.cache/kpatch-ng}
obj=$(ls -d "$cache"/kpatch-build/orig/*/obj 2>/dev/null | head -n 1)
env_out=$("$top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || env_out=
eval "$env_out"
if [ -z "$obj" ] || [ ! -e "$obj/vmlinux" ] || [ -z "${KVMLINUX:-}" ]; then
	echo "kernel-selfdiff: no cached kernel builds (run kpatch-build once), skipped"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
work=$top/test/out/kernel-selfdiff
mkdir -p "$work"
readelf -sW "$KVMLINUX" > "$work/vmlinux.symtab"
export $("$top/kpatch-build/kpatch-struct-sizes" "$KVMLINUX")
# 6.1 struct sizes the DWARF may not name in a small config
export BUG_STRUCT_SIZE=${BUG_STRUCT_SIZE:-12} JUMP_STRUCT_SIZE=${JUMP_STRUCT_SIZE:-16} \
	PARA_STRUCT_SIZE=${PARA_STRUCT_SIZE:-16}
pass=0 fail=0
while read -r o; do
	"$CDO" "$o" "$o" vmlinux "$work/vmlinux.symtab" "$KSYMVERS" selfdiff \
		"$work/out.o" > "$work/log" 2>&1
	rc=$?
	if [ $rc -eq 3 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL ${o#$obj/}: exit $rc: $(head -c 300 "$work/log" | tr '\n' ' ')"
	fi
# 64-bit kernel objects only: realmode and the vdso are built apart
done < <(find "$obj" -name '*.o' ! -name '*.mod.o' ! -name vmlinux.o \
	! -path '*/scripts/*' ! -path '*/tools/*' ! -path '*/realmode/*' \
	! -path '*/vdso/*' | sort)
echo "kernel-selfdiff: $pass objects unchanged against themselves, $fail failed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
