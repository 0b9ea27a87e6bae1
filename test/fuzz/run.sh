#!/bin/bash
# Fuzz smoke: mutated objects through the ASan/UBSan differ. Any crash,
# sanitizer report or hang fails. usage: run.sh [ITERATIONS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
iters=${1:-10000}
CDO=${CDO:-$top/build/asan/bin/create-diff-object}
work=$top/test/out/fuzz
rm -rf "$work"; mkdir -p "$work"
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
if "$work/mutate-run" "$CDO" "$work/seed.o" "$work/seed.symtab" "$work" "$iters"; then
	echo "1 passed, 0 failed"
else
	echo "0 passed, 1 failed"
	exit 1
fi
