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

# sections_to_dump OBJ: "-x N" for every section of OBJ but the string tables
# and the symbol table, into DUMP_ARGS; the input's list is used for its output
# too (a section table that differs fails in the view already)
sections_to_dump() {
	mapfile -t DUMP_ARGS < <(readelf -SW "$1" | awk '/^ *\[ *[0-9]+\]/ {
		s = $0; sub(/^ *\[ */, "", s); i = s; sub(/\].*/, "", i)
		sub(/^[0-9]+\] */, "", s); split(s, f, / +/)
		if (i > 0 && f[1] != ".strtab" && f[1] != ".shstrtab" &&
		    f[1] != ".symtab") { print "-x"; print i } }')
}

# view OBJ COUNT: what must survive, read by one readelf (its warnings
# included) and one awk: the file header without file offsets, the section
# headers without their offset (nor a string table's size), the symbols
# without their index, the relocations without their table's offset, and the
# bytes of the DUMP_ARGS sections. COUNT gets the number of relocations
# without a symbol (R_PPC64_*, four fields). (Eleven processes a view before.)
view() {
	readelf -hSrsW "${DUMP_ARGS[@]}" "$1" 2>&1 | awk -v count="$2" '
	/^ELF Header:/ { blk = "h" }
	/^There are [0-9]+ section headers|^Section Headers:/ { blk = "S" }
	/^Relocation section |^There are no relocations/ { blk = "r" }
	/^Symbol table / { blk = "s" }
	/^Hex dump of section |^Section .* has no data to dump/ { blk = "x" }
	blk == "h" { if ($0 !~ /Start of section headers|Size of this header/) print; next }
	blk == "S" {
		if ($0 ~ /^ *\[ *[0-9]+\]/) {
			sub(/^ *\[ *[0-9]+\] /, ""); $4 = ""; if ($2 == "STRTAB") $5 = ""; print
		}
		next
	}
	blk == "r" { if ($3 ~ /^R_PPC64_/ && NF == 4) symless++; sub(/ at offset 0x[0-9a-f]*/, ""); print; next }
	blk == "s" { sub(/^ *[0-9]*:/, ""); print; next }
	{ print }
	END { print symless + 0 > count }'
}

check() {
	local name=$1 in=$2 out=$work/$1.rt.o
	sections_to_dump "$in"
	view "$in" "$work/$name.symless" > "$work/$name.in.txt"
	read -r SYMLESS < "$work/$name.symless"
	if ! "$RT" "$in" "$out" > "$work/$name.log" 2>&1; then
		fail "$name" "$(tail -n 1 "$work/$name.log")"
		return
	fi
	# (readelf's complaints about the output are in its view: the diff fails)
	view "$out" /dev/null > "$work/$name.out.txt" || :
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
		n=${o##*/}
		SYMLESS=0
		check "ppc64le-${n%.o}" "$o"
		[ "$SYMLESS" = 0 ] || symless=$((symless + 1))
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
