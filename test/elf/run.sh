#!/bin/bash
# The ELF model's round trip: objects read into the model and written back
# (elf-roundtrip) must be the same object, section by section: every
# section's bytes (relocation tables included: libelf translates them
# back to the file's byte order), every header field but file offsets,
# and the symbol table as readelf decodes it (the string tables are laid
# out afresh, so only their strings must survive). Inputs: a big-endian
# s390x object compiled here from sample.c, every ppc64le object of the
# kpatch corpus (some carry relocations without a symbol, R_PPC64_ENTRY),
# and an x86_64 object. usage: run.sh [ELF_ROUNDTRIP]
# The last line is "elf-roundtrip: N passed, N failed, N skipped" (test/lib/result.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
RT=${1:-$top/build/asan/bin/elf-roundtrip}
CORPUS=${KPATCH_CORPUS:-$top/../shared/corpus/kpatch-unit-objs}
work=$top/test/out/elf
rm -rf "$work"
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
result_init elf-roundtrip "$work"
symless=0

# what must survive: headers without file offsets, decoded symbols, bytes
view() {
	readelf -hW "$1" | grep -vE 'Start of section headers|Size of this header'
	readelf -SW "$1" | awk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ *[0-9]+\] /, "");
		$4 = ""; if ($2 == "STRTAB") $5 = ""; print }'
	readelf -sW "$1" | sed 's/^ *[0-9]*://'
	readelf -rW "$1" | sed 's/ at offset 0x[0-9a-f]*//'
	local args=()
	# every section but the string tables and the symbol table, in one call
	mapfile -t args < <(readelf -SW "$1" | awk '/^ *\[ *[0-9]+\]/ {
		s = $0; sub(/^ *\[ */, "", s); i = s; sub(/\].*/, "", i)
		sub(/^[0-9]+\] */, "", s); split(s, f, / +/)
		if (i > 0 && f[1] != ".strtab" && f[1] != ".shstrtab" &&
		    f[1] != ".symtab") { print "-x"; print i } }')
	[ ${#args[@]} -eq 0 ] || readelf "${args[@]}" "$1" 2>&1
}

check() {
	local name=$1 in=$2 out=$work/$1.rt.o
	if ! "$RT" "$in" "$out" > "$work/$name.log" 2>&1; then
		fail "$name" "$(tail -n 1 "$work/$name.log")"
		return
	fi
	view "$in" > "$work/$name.in.txt"
	view "$out" > "$work/$name.out.txt"
	if diff -u "$work/$name.in.txt" "$work/$name.out.txt" > "$work/$name.diff"; then
		pass "$name"
	else
		fail "$name" "differs ($work/$name.diff)"
		head -n 20 "$work/$name.diff"
	fi
}

# big-endian: s390x, as the kernel compiles it
if command -v s390x-linux-gnu-gcc > /dev/null; then
	s390x-linux-gnu-gcc -O2 -ffunction-sections -fdata-sections -pg -mfentry \
		-mrecord-mcount -mnop-mcount -fno-pic -c "$here/sample.c" \
		-o "$work/s390x-sample.o"
	[ "$(readelf -hW "$work/s390x-sample.o" | awk '/Data:/ { print $NF, $(NF-1) }')" = "endian big" ] ||
		{ echo "s390x-sample.o is not big-endian"; exit 1; }
	check s390x-sample "$work/s390x-sample.o"
else
	fail s390x "s390x-linux-gnu-gcc missing (scripts/install-deps)"
fi

if [ -d "$CORPUS/ppc64le" ]; then
	for o in "$CORPUS"/ppc64le/*.o; do
		n=$(basename "$o" .o)
		if readelf -rW "$o" | awk '$3 ~ /^R_PPC64_/ && NF == 4 { f = 1 } END { exit !f }'; then
			symless=$((symless + 1))
		fi
		check "ppc64le-$n" "$o"
	done
	if [ $symless = 0 ]; then
		fail ppc64le "no object with a symbol-less relocation"
	fi
	echo "ppc64le objects with symbol-less relocations: $symless"
else
	skip ppc64le "corpus $CORPUS/ppc64le not present"
fi

gcc -O2 -ffunction-sections -fdata-sections -pg -mfentry -c "$here/sample.c" \
	-o "$work/x86_64-sample.o"
check x86_64-sample "$work/x86_64-sample.o"

result_summary
