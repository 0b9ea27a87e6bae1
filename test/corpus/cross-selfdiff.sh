#!/bin/bash
# Every object of the cross-built ppc64le and s390x 6.1 kernels diffed against
# itself must come out unchanged (exit 3), in two kinds of build:
#   boot  the reference kernels integration/ builds for booting
#         (${KPATCH_CACHE:-~/.cache/kpatch-ng}/kernel/<key>/; plain kbuild flags)
#   orig  kpatch-build's cached original build of that kernel
#         (kpatch-build/orig/<key>/obj; -ffunction-sections -fdata-sections, the
#         objects the differ reads in a real run), with the booted vmlinux's symbol
#         table, Module.symvers and struct sizes, as kpatch-build gives them
# A build that is not there is skipped, unless KPATCH_REQUIRE_KERNEL is set (make
# check made the builds before): then it fails.
# usage: cross-selfdiff.sh [CDO]. One check of test/lib/result.sh per object (PASS
# lines not printed: thousands); the last line is
# "cross-selfdiff: N passed, N failed, N skipped".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CDO=$(readlink -f "${1:-$top/build/release/bin/create-diff-object}")
# shellcheck source=test/lib/kpb-orig.sh
. "$top/test/lib/kpb-orig.sh"
work=$top/test/out/cross-selfdiff
rm -rf "$work"
# shellcheck source=test/lib/result.sh
. "$top/test/lib/result.sh"
result_init cross-selfdiff "$work"
RESULT_QUIET_PASS=1

# selfdiff_objects ARCH KIND DIR PARENT_SYMTAB SYMVERS < objects
selfdiff_objects() {
	local a=$1 kind=$2 d=$3 symtab=$4 symvers=$5 o n=0 bad=0 rc
	while read -r o; do
		n=$((n + 1))
		# boot: no vmlinux symtab given, the object's own (ppc64le's localentry
		# annotations dropped)
		if [ "$4" = - ]; then
			symtab=$work/symtab
			readelf -sW "$o" 2>/dev/null | sed 's/\[<localentry>: [0-9]*\]//' > "$symtab"
		fi
		env "${sizes[@]}" timeout 60 "$CDO" "$o" "$o" vmlinux "$symtab" "$symvers" \
			selfdiff "$work/out.o" > "$work/log" 2>&1
		rc=$?
		if [ $rc = 3 ]; then
			pass "$a/$kind/${o#"$d"/}"
		else
			bad=$((bad + 1))
			fail "$a/$kind/${o#"$d"/}" "exit $rc: $(head -n 1 "$work/log")"
		fi
	done
	echo "$a $kind ($d): $n objects, $((n - bad)) unchanged"
}

# kernel objects only: the vdso, purgatory and the boot wrapper or decompressor
# (arch/*/boot) are built apart
kernel_objects() {
	find "$1" -name '*.o' ! -name '*.mod.o' ! -name vmlinux.o ! -name '.vmlinux.*' \
		! -path '*/scripts/*' ! -path '*/tools/*' ! -path '*/vdso*' \
		! -path '*/purgatory/*' ! -path '*/arch/*/boot/*' -size +0 | sort
}

for a in ppc64le s390x; do
	missing=
	env_out=$(ARCH=$a "$top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) ||
		env_out=
	KOBJ='' KVMLINUX='' KSYMVERS=''
	eval "$env_out"
	# the struct sizes of the arch's special sections (test/cdo/arch/ARCH.conf)
	# shellcheck disable=SC1090
	read -ra sizes < <(. "$top/test/cdo/arch/$a.conf"; echo "${ARCH_STRUCT_SIZES[@]}")
	if [ -z "$KVMLINUX" ] || [ ! -f "$KVMLINUX" ]; then
		missing="$a boot kernel"
	else
		selfdiff_objects "$a" boot "$KOBJ" - /dev/null < <(kernel_objects "$KOBJ")
	fi
	orig=$(kpb_orig_dir "$a") || orig=
	if [ -z "$orig" ] || [ ! -f "$orig/.complete" ] || [ -z "$KVMLINUX" ]; then
		missing="${missing:+$missing, }$a original build (${orig:-no key}; run test/kpatch-build/cross.sh)"
	else
		readelf -sW "$KVMLINUX" > "$work/$a-vmlinux.symtab"
		# what the vmlinux DWARF names wins over the arch's defaults
		read -ra dwarf < <("$top/kpatch-build/kpatch-struct-sizes" "$KVMLINUX" | tr '\n' ' ')
		sizes+=("${dwarf[@]}")
		selfdiff_objects "$a" orig "$orig/obj" "$work/$a-vmlinux.symtab" "$KSYMVERS" \
			< <(kernel_objects "$orig/obj")
	fi
	[ -z "$missing" ] && continue
	if [ -n "${KPATCH_REQUIRE_KERNEL:-}" ]; then
		fail "$a/missing" "$missing"
	else
		skip "$a" "not built: $missing"
	fi
done
result_summary
