#!/bin/bash
# Every object of the cross-built reference kernels (ppc64le, s390x; built by
# integration/ for booting, in ${KPATCH_CACHE:-~/.cache/kpatch-ng}/kernel/)
# diffed against itself must come out unchanged (exit 3). Kernels that are
# not built yet are skipped. usage: cross-selfdiff.sh [CDO]; the last line is
# "N passed, N failed" (one per object).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CDO=${1:-$top/build/release/bin/create-diff-object}
cache=${KPATCH_CACHE:-$HOME/.cache/kpatch-ng}
work=$top/test/out/cross-selfdiff
rm -rf "$work"; mkdir -p "$work"
pass=0; fail=0
for v in "$cache"/kernel/*/vmlinux; do
	[ -f "$v" ] || continue
	case "$(readelf -h "$v" 2>/dev/null | sed -n 's/^ *Machine: *//p')" in
	PowerPC64*) a=ppc64le ;;
	"IBM S/390") a=s390x ;;
	*) continue ;;
	esac
	d=$(dirname "$v")
	envs=$(bash -c '. "$1"; echo "${ARCH_STRUCT_SIZES[@]}"' _ "$top/test/cdo/arch/$a.conf")
	n=0; bad=0
	while read -r o; do
		n=$((n + 1))
		readelf -sW "$o" 2>/dev/null | sed 's/\[<localentry>: [0-9]*\]//' > "$work/symtab"
		# shellcheck disable=SC2086
		env $envs timeout 60 "$CDO" "$o" "$o" vmlinux "$work/symtab" /dev/null \
			selfdiff "$work/out.o" > "$work/log" 2>&1
		rc=$?
		if [ $rc = 3 ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)); bad=$((bad + 1))
			echo "FAIL $a ${o#"$d"/}: exit $rc: $(head -n 1 "$work/log")"
		fi
	done < <(find "$d" -name '*.o' ! -name '*.mod.o' ! -name vmlinux.o -size +0 | sort)
	echo "$a ($d): $n objects, $((n - bad)) unchanged"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
