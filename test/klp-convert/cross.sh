#!/bin/bash
# klp-convert on the other architectures (aarch64, ppc64le, s390x): patch objects the differ made from
# the C-source cases with each architecture's cross compiler, plus
# hand-written annotation tables (KLP_MODULE_RELOC), are linked into a
# livepatch module with ld -r and converted; the .klp.rela.* sections,
# .klp.sym.* symbols and relocation types must be what that architecture's
# module loader applies, and a relocation type it cannot apply to a symbol of
# the running kernel must be refused.
#
#   cross.sh [CDO [KLP_CONVERT]]
# Each check through test/lib/result.sh; last line
# "klp-convert-cross: N passed, N failed, N skipped".
set -uo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../lib/grepq.sh"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CDO=${1:-$top/build/release/bin/create-diff-object}
KLPC=${2:-$top/build/release/bin/klp-convert}
out=$top/test/out/klp-convert-cross
rm -rf "$out"
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
result_init klp-convert-cross "$out"

# the relocation type a call and a pointer carry on each architecture
declare -A CALL=([aarch64]=R_AARCH64_CALL26 [ppc64le]=R_PPC64_REL24 [s390x]=R_390_PLT32DBL)
declare -A PTR=([aarch64]=R_AARCH64_ABS64 [ppc64le]=R_PPC64_ADDR64 [s390x]=R_390_64)

prefix() { sed -n 's/^ARCH_TOOL_PREFIX=//p' "$top/test/cdo/arch/$1.conf"; }

# link OBJ... into OUT.ko with livepatch=Y in .modinfo
link_module() {
	local a=$1 ko=$2 p
	shift 2
	p=$(prefix "$a")
	printf 'static const char lp[] __attribute__((section(".modinfo"), used, aligned(1))) = "livepatch=Y";\n' >"$out/$a/modinfo.c"
	"${p}gcc" -c "$out/$a/modinfo.c" -o "$out/$a/modinfo.o" &&
		"${p}ld" -r -o "$ko" "$@" "$out/$a/modinfo.o"
}

# convert_case ARCH CASE SYMBOL SECTION TYPE: the differ's output of CASE,
# converted: SYMBOL is an SHN_LIVEPATCH symbol, referenced from
# .klp.rela.vmlinux.SECTION with TYPE, no annotation table is left
convert_case() {
	local a=$1 c=$2 sym=$3 sec=$4 type=$5 w ko
	w=$out/$a/$c
	mkdir -p "$w"
	if ! CDO_OUT=$out/$a/cdo "$top/test/cdo/run-tests.sh" -a "$a" "$CDO" "$c" >"$w/cdo.log" 2>&1; then
		fail "$a/$c" "the differ case failed ($w/cdo.log)"
		return
	fi
	ko=$w/in.ko
	if ! link_module "$a" "$ko" "$out/$a/cdo/$c/$c.OUTPUT.o" >"$w/ld.log" 2>&1; then
		fail "$a/$c" "ld -r failed ($w/ld.log)"
		return
	fi
	if ! "$KLPC" "$ko" "$w/out.ko" >"$w/klpc.log" 2>&1; then
		fail "$a/$c" "klp-convert failed: $(head -1 "$w/klpc.log")"
		return
	fi
	check_converted "$a/$c" "$w/out.ko" "$sym" ".klp.rela.vmlinux.$sec" "$type"
}

check_converted() {
	local name=$1 ko=$2 sym=$3 rsec=$4 type=$5 flags
	if ! readelf -sW "$ko" | grepq -E "NOTYPE +GLOBAL +DEFAULT +OS \[0xff20\] ${sym//./\\.}\$"; then
		fail "$name" "no SHN_LIVEPATCH symbol $sym"
		return
	fi
	flags=$(readelf -SW "$ko" | awk -v n="$rsec" '{ sub(/^ *\[ *[0-9]+\] /, "") } $1 == n { print $7 }')
	case "$flags" in
	*A*o* | *o*A*) ;;
	*) fail "$name" "section $rsec missing or flags '$flags' (need SHF_ALLOC and SHF_RELA_LIVEPATCH)"; return ;;
	esac
	if ! readelf -rW "$ko" | awk -v s="'$rsec'" '/^Relocation section/ { on = ($3 == s) } on' |
		grep -qE " $type +[0-9a-f]+ ${sym//./\\.}"; then
		fail "$name" "no $type against $sym in $rsec"
		return
	fi
	if readelf -SW "$ko" | grepq 'klp.module_relocs'; then
		fail "$name" "an annotation table is left"
		return
	fi
	pass "$name"
}

# a hand-written patch: a pointer to and a call of the running kernel's
# symbols through KLP_MODULE_RELOC, read back from the target-order records
manual_case() {
	local a=$1 w p
	w=$out/$a/manual
	mkdir -p "$w"
	p=$(prefix "$a")
	cat >"$w/patch.c" <<'SRC'
#include "klp-module-reloc.h"
extern int hidden_counter;
extern void hidden_helper(int);
static struct KLP_MODULE_RELOC(vmlinux) relocs[] = {
	{ .sym = &hidden_counter, .sympos = 2 },
	{ .sym = hidden_helper, .sympos = 0 },
};
int *counter_ptr __attribute__((section(".data.counter_ptr"))) = &hidden_counter;
int calls;
void patched_fn(int x) { hidden_helper(x + 1); calls++; }
SRC
	if ! "${p}gcc" -O2 -fno-PIE -ffunction-sections -fdata-sections -I"$top/kmod/include" \
		-c "$w/patch.c" -o "$w/patch.o" >"$w/cc.log" 2>&1 ||
		! link_module "$a" "$w/in.ko" "$w/patch.o" >"$w/ld.log" 2>&1; then
		fail "$a/manual" "build failed ($w/cc.log, $w/ld.log)"
		return
	fi
	if ! "$KLPC" "$w/in.ko" "$w/out.ko" >"$w/klpc.log" 2>&1; then
		fail "$a/manual" "klp-convert failed: $(head -1 "$w/klpc.log")"
		return
	fi
	check_converted "$a/manual-data-sympos2" "$w/out.ko" ".klp.sym.vmlinux.hidden_counter,2" ".klp.rela.vmlinux..data.counter_ptr" "${PTR[$a]}"
	check_converted "$a/manual-call" "$w/out.ko" ".klp.sym.vmlinux.hidden_helper,0" ".klp.rela.vmlinux..text.patched_fn" "${CALL[$a]}"
}

# ppc64le: a TOC-relative access (the medium model, symbol bound locally)
# to a klp symbol is something no module loader can apply: refused
toc16_case() {
	local w=$out/ppc64le/toc16 p
	mkdir -p "$w"
	p=$(prefix ppc64le)
	cat >"$w/patch.c" <<'SRC'
#include "klp-module-reloc.h"
extern int near_counter __attribute__((visibility("hidden")));
static struct KLP_MODULE_RELOC(vmlinux) relocs[] = {
	{ .sym = &near_counter, .sympos = 0 },
};
int read_counter(void) { return near_counter; }
SRC
	if ! "${p}gcc" -O2 -mcmodel=medium -ffunction-sections -I"$top/kmod/include" \
		-c "$w/patch.c" -o "$w/patch.o" >"$w/cc.log" 2>&1 ||
		! link_module ppc64le "$w/in.ko" "$w/patch.o" >"$w/ld.log" 2>&1; then
		fail "ppc64le/toc16" "build failed"
		return
	fi
	if "$KLPC" "$w/in.ko" "$w/out.ko" >"$w/klpc.log" 2>&1; then
		fail "ppc64le/toc16" "klp-convert accepted a TOC16 klp relocation"
	elif grep -q "near_counter.*relocation type 50 .*cannot be a klp relocation on ppc64le" "$w/klpc.log"; then
		pass ppc64le/toc16 "refused: $(head -1 "$w/klpc.log" | cut -c1-80)..."
	else
		fail "ppc64le/toc16" "unexpected message: $(head -1 "$w/klpc.log")"
	fi
}

for a in aarch64 ppc64le s390x; do
	mkdir -p "$out/$a"
	if ! command -v "$(prefix "$a")gcc" >/dev/null; then
		fail "$a" "no cross compiler $(prefix "$a")gcc"
		continue
	fi
	convert_case "$a" call-nonexported-global .klp.sym.vmlinux.internal_counter_add,0 .text.note_event "${CALL[$a]}"
	manual_case "$a"
done
toc16_case
result_summary
