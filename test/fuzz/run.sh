#!/bin/bash
# Fuzz smoke: mutated objects (x86_64, and aarch64, ppc64le and s390x seeds)
# through the ASan/UBSan differ. Any crash,
# sanitizer report or hang fails. usage: run.sh [ITERATIONS]
# The whole run is one check of test/lib/result.sh; last line
# "fuzz: N passed, N failed, N skipped".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
iters=${1:-10000}
CDO=${CDO:-$top/build/asan/bin/create-diff-object}
work=$top/test/out/fuzz
rm -rf "$work"
result_init fuzz "$work"
# a private copy: a rebuild elsewhere must not change the binary mid-run
cp "$CDO" "$work/create-diff-object"
CDO=$work/create-diff-object
gcc -O2 -Wall -Wextra -Werror -o "$work/mutate-run" "$here/mutate-run.c"
# seed: a real object with special sections, built from a differ test case
src=$top/test/cdo/cases/jump-table/orig.c
[ -e "$src" ] || src=$top/test/cdo/cases/simple-change/orig.c
gcc -O2 -pg -mfentry -mrecord-mcount -ffunction-sections -fdata-sections \
	-mcmodel=kernel -fno-pic -mno-red-zone -nostdinc -ffreestanding \
	-I"$top/test/cdo/include" -c "$src" -o "$work/seed.o"
readelf -s --wide "$work/seed.o" > "$work/seed.symtab"
export ASAN_OPTIONS=exitcode=99:detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=98
export BUG_STRUCT_SIZE=12 EX_STRUCT_SIZE=12 ALT_STRUCT_SIZE=12 JUMP_STRUCT_SIZE=16 \
	PARA_STRUCT_SIZE=16 ORC_STRUCT_SIZE=6 STATIC_CALL_STRUCT_SIZE=8
# what failed, by architecture
failed=()
"$work/mutate-run" "$CDO" "$work/seed.o" "$work/seed.symtab" "$work" "$iters" || failed+=(x86_64)

# the other architectures: the same case built with their cross compilers
# and 6.1 flags (test/cdo/arch/ARCH.conf), a tenth of the iterations each
cross_iters=${FUZZ_CROSS_ITERATIONS:-$((iters / 10))}
for a in aarch64 ppc64le s390x; do
	[ "$cross_iters" -gt 0 ] || break
	w=$work/$a
	mkdir -p "$w"
	if ! CDO_OUT=$w/cases "$top/test/cdo/run-tests.sh" -a "$a" -c jump-table \
		>"$w/compile.log" 2>&1; then
		echo "fuzz $a: cannot build the seed ($w/compile.log)"
		failed+=("$a (no seed)")
		continue
	fi
	cp "$w/cases/jump-table/jump-table.ORIG.o" "$w/seed.o"
	readelf -s --wide "$w/seed.o" > "$w/seed.symtab"
	# shellcheck disable=SC2046
	if ! env $(bash -c '. "$1"; echo "${ARCH_STRUCT_SIZES[@]}"' _ \
		"$top/test/cdo/arch/$a.conf") \
		"$work/mutate-run" "$CDO" "$w/seed.o" "$w/seed.symtab" "$w" "$cross_iters"; then
		failed+=("$a")
	fi
done
if [ ${#failed[@]} = 0 ]; then
	pass fuzz "$iters inputs on x86_64, $cross_iters on each other architecture"
else
	fail fuzz "failed on: ${failed[*]}"
fi
result_summary
