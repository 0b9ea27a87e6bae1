#!/bin/bash
# run-tests.sh: klp-convert unit tests. Each case compiles test sources (src/, or
# written inline) with kernel-like flags, links them with ld -r into a
# relocatable "module", runs klp-convert and asserts on readelf output: one
# check per conversion rule and one case per error (exit status, the one-line
# "klp-convert: <file>: <what>: <reason>" message, no output written). Then the
# seed sample is built against the cached reference kernel (KOBJ), checked and
# booted (boot-sample.sh), and so is the patch-module template
# (boot-template.sh); a SKIP check when there is no cache or qemu.
#
#   test/klp-convert/run-tests.sh [-v] [--no-kernel] [--no-boot]
# KLP_CONVERT=path selects the binary (default: the ASan build if present).
set -uo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../lib/grepq.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
verbose=0 kernel=1 boot=1
for a in "$@"; do
	case $a in
	-v) verbose=1 ;;
	--no-kernel) kernel=0 ;;
	--no-boot) boot=0 ;;
	*) echo "usage: run-tests.sh [-v] [--no-kernel] [--no-boot]" >&2; exit 2 ;;
	esac
done
if [ -z "${KLP_CONVERT:-}" ]; then
	for c in "$ROOT/build/asan/bin/klp-convert" "$ROOT/build/asan/klp-convert" "$ROOT/klp-convert/klp-convert"; do
		[ -x "$c" ] && { KLP_CONVERT=$c; break; }
	done
fi
[ -x "${KLP_CONVERT:-}" ] || { echo "run-tests: klp-convert not built (run make)" >&2; exit 2; }
export KLP_CONVERT ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

T=$(mktemp -d "${TMPDIR:-/tmp}/klpc-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
CFLAGS="-O2 -g -mcmodel=kernel -fno-pic -fno-common -ffreestanding -mno-red-zone -fno-asynchronous-unwind-tables -I$ROOT/kmod/include -I$HERE/src"
# shellcheck source=test/lib/result.sh
. "$HERE/../lib/result.sh"
result_init klp-convert
# a case's checks are hundreds: their PASS lines only with -v
[ $verbose = 1 ] || RESULT_QUIET_PASS=1
case=

# begin CASE: the check name of what follows (pass/fail "$case" WHAT)
begin() { case=$1; }
check() { local what=$1; shift; if "$@" >/dev/null 2>&1; then pass "$case" "$what"; else fail "$case" "$what (command: $*)"; fi; }

# build NAME SRC...: compile each source (src/X.c or an absolute path) and ld -r into $T/NAME.ko
build() {
	local name=$1 s o objs=(); shift
	for s in "$@"; do
		case $s in /*) ;; *) s=$HERE/src/$s ;; esac
		o=$T/$name.$(basename "$s" .c).o
		case $s in
		*.s) as -o "$o" "$s" ;;
		*) gcc $CFLAGS ${XCFLAGS:-} -c -o "$o" "$s" ;;
		esac || { fail "$case" "compile $s"; return 1; }
		objs+=("$o")
	done
	ld -r -o "$T/$name.ko" "${objs[@]}" || { fail "$case" "ld -r $name"; return 1; }
}
# src NAME: write stdin to $T/NAME (a test source written inline)
src() { cat > "$T/$1"; echo "$T/$1"; }

# convert NAME [ARGS...]: klp-convert $T/NAME.ko -> $T/NAME.out.ko; stderr in $T/err
convert() {
	local name=$1; shift
	rm -f "$T/$name.out.ko"
	ASAN_OPTIONS=${CONVERT_ASAN:-$ASAN_OPTIONS} \
		"$KLP_CONVERT" "$@" "$T/$name.ko" "$T/$name.out.ko" 2>"$T/err"
}
expect_ok() {
	if convert "$@"; then pass "$case" "converts"; else fail "$case" "converts" "$T/err"; return 1; fi
}
# expect_err NAME 'WHAT: REASON-REGEX' [ARGS...]: fails with exactly one matching line
expect_err() {
	local name=$1 re=$2; shift 2
	# an error exits at once: what is still allocated then is no leak
	if CONVERT_ASAN=detect_leaks=0 convert "$name" "$@"; then fail "$case" "refused: klp-convert exited 0"; return; fi
	pass "$case" "refused (exit non-zero)"
	if [ "$(wc -l < "$T/err")" = 1 ] && grep -qE "^klp-convert: [^:]*$name\.ko: $re" "$T/err"; then
		pass "$case" "one-line error names it: $(cut -c1-100 "$T/err")"
	else
		fail "$case" "error message /$re/" "$T/err"
	fi
	[ ! -e "$T/$name.out.ko" ] && pass "$case" "no output written" || fail "$case" "no output written"
}

out() { echo "$T/$1.out.ko"; }
# section flags as a hex number (readelf -t)
sec_flags() {
	readelf -t -W "$1" | awk -v n="$2" '
		$1 ~ /^\[[0-9a-f]+\]:$/ { if (cur == n) { f = $1; gsub(/[\[\]:]/, "", f); print f; exit } next }
		/^ *\[ *[0-9]+\] / { cur = $0; sub(/^ *\[ *[0-9]+\] /, "", cur) }'
}
has_sec() { readelf -S -W "$1" | grepq -E "\] $2 "; }
# sym_line FILE NAME: the readelf -s line of NAME (exact)
sym_line() { readelf -s -W "$1" | awk -v n="$2" '$NF == n' | head -1; }
is_livepatch_sym() { sym_line "$1" "$2" | grepq -E ' NOTYPE +GLOBAL +DEFAULT +OS \[0xff20\] '; }
# relocs FILE SECTION: "TYPE SYMBOL" per relocation of SECTION
relocs() {
	readelf -r -W "$1" | awk -v s="$2" '
		/^Relocation section/ { on = ($3 == "'"'"'" s "'"'"'"); next }
		on && NF >= 5 && $1 ~ /^[0-9a-f]+$/ { print $3, $5 }'
}
rela_has() { relocs "$1" "$2" | grepq -E " $3( |$)"; }
rela_count() { relocs "$1" "$2" | grep -cE " $3( |$)"; }

# ---- conversion rules ----
begin basic
if build basic basic.c && expect_ok basic; then
	o=$(out basic)
	check "section .klp.rela.vmlinux..text exists" has_sec "$o" '\.klp\.rela\.vmlinux\.\.text'
	f=$(sec_flags "$o" .klp.rela.vmlinux..text)
	[ "$f" = 0000000000100042 ] && pass "$case" "flags 0x100042 = SHF_RELA_LIVEPATCH|SHF_INFO_LINK|SHF_ALLOC" || fail "$case" "flags: got '$f'"
	readelf -S -W "$o" | grep -E '\.klp\.rela\.vmlinux\.\.text' | grepq -E ' RELA .* 18 AIo ' && pass "$case" "type RELA, entsize 24, AIo" || fail "$case" "readelf -S line"
	info=$(readelf -S -W "$o" | awk '/\.klp\.rela\.vmlinux\.\.text/ { print $(NF-1) }')
	tidx=$(readelf -S -W "$o" | awk '$2 == ".text" || $3 == ".text" { gsub(/[\[\]]/, "", $1); print $1+0; exit }')
	tidx=$(readelf -S -W "$o" | sed -n 's/^ *\[ *\([0-9]*\)\] \.text .*/\1/p')
	[ "$info" = "$tidx" ] && pass "$case" "sh_info = .text ($tidx)" || fail "$case" "sh_info '$info' != .text index '$tidx'"
	check "symbol .klp.sym.vmlinux.saved_command_line,0 with Ndx 0xff20" is_livepatch_sym "$o" .klp.sym.vmlinux.saved_command_line,0
	check "old name gone" test -z "$(sym_line "$o" saved_command_line)"
	n=$(rela_count "$o" .klp.rela.vmlinux..text '\.klp\.sym\.vmlinux\.saved_command_line,0')
	n0=$(rela_count "$T/basic.ko" .rela.text saved_command_line)
	[ "$n" = "$n0" ] && [ "$n" -ge 1 ] && pass "$case" "all $n relocations moved to .klp.rela" || fail "$case" "moved $n of $n0"
	check ".rela.text keeps no klp relocation" sh -c "! readelf -r -W '$o' | awk '/^Relocation section .\.rela\.text/{on=1;next} /^Relocation section/{on=0} on' | grep -q klp"
	check "exported printk stays in .rela.text" rela_has "$o" .rela.text printk
	check "printk stays plain undefined" sh -c "readelf -s -W '$o' | grep -qE ' UND printk$'"
	check "annotation section removed" sh -c "! readelf -S -W '$o' | grep -q module_relocs"
	check "annotation table symbol removed" test -z "$(sym_line "$o" relocs)"
	check "debug info still there" has_sec "$o" '\.debug_info'
	# idempotent: converting the output again changes nothing
	cp "$o" "$T/again.ko"
	if convert again; then
		if [ "$(readelf -S -s -r -W "$(out again)")" = "$(readelf -S -s -r -W "$o")" ]; then
			pass "$case" "idempotent"; else fail "$case" "second conversion changed the module"; fi
	else fail "$case" "second conversion" "$T/err"; fi
fi

begin sections
if XCFLAGS=-ffunction-sections build sections sections.c && expect_ok sections; then
	o=$(out sections)
	check "sympos 2 in the name" is_livepatch_sym "$o" .klp.sym.vmlinux.local_fn,2
	check "sympos 0" is_livepatch_sym "$o" .klp.sym.vmlinux.counter,0
	check ".klp.rela.vmlinux..text.a" rela_has "$o" .klp.rela.vmlinux..text.a '\.klp\.sym\.vmlinux\.local_fn,2'
	check ".klp.rela.vmlinux..text.b" rela_has "$o" .klp.rela.vmlinux..text.b '\.klp\.sym\.vmlinux\.counter,0'
	check ".klp.rela.vmlinux..data (function pointer)" rela_has "$o" .klp.rela.vmlinux..data '\.klp\.sym\.vmlinux\.local_fn,2'
	check "R_X86_64_64 type kept" sh -c "readelf -r -W '$o' | grep -A3 'klp.rela.vmlinux..data' | grep -q R_X86_64_64"
	check "emptied .rela.text.a removed" sh -c "! readelf -S -W '$o' | grep -qE '\] \.rela\.text\.a '"
	[ "$(sec_flags "$o" .klp.rela.vmlinux..data)" = 0000000000100042 ] && pass "$case" ".data klp rela flags" || fail "$case" ".data klp rela flags"
fi

begin symtab
if XCFLAGS=-ffunction-sections build symtab sections.c && expect_ok symtab --symtab vmlinux="$HERE/src/symtab.txt"; then
	pass "$case" "--symtab accepts sympos 2 of 3 and a unique name with 0"
fi
begin symtab-ambiguous
sed 's/\.sympos = 2/.sympos = 0/' "$HERE/src/sections.c" > "$T/amb.c"
build symtab-ambiguous "$T/amb.c" &&
	expect_err symtab-ambiguous 'local_fn: ambiguous: vmlinux has 3 symbols named .local_fn.; give the sympos' --symtab vmlinux="$HERE/src/symtab.txt"
begin symtab-too-far
sed 's/\.sympos = 2/.sympos = 4/' "$HERE/src/sections.c" > "$T/far.c"
build symtab-too-far "$T/far.c" &&
	expect_err symtab-too-far 'local_fn: sympos 4, but vmlinux has only 3 symbol' --symtab vmlinux="$HERE/src/symtab.txt"
begin symtab-missing
build symtab-missing basic.c && sed '/saved_command_line/d' "$HERE/src/symtab.txt" > "$T/st2.txt" &&
	expect_err symtab-missing "saved_command_line: no symbol 'saved_command_line' in vmlinux" --symtab vmlinux="$T/st2.txt"
begin symtab-not-readelf
echo "hello" > "$T/junk.txt"
if build symtab-not-readelf basic.c; then
	if CONVERT_ASAN=detect_leaks=0 convert symtab-not-readelf --symtab vmlinux="$T/junk.txt"; then
		fail "$case" "refused"
	else
		grep -qE "^klp-convert: $T/junk.txt: --symtab: no symbols: not the output of readelf -s --wide$" "$T/err" &&
			pass "$case" "names the bad symtab file" || fail "$case" "bad symtab file message" "$T/err"
	fi
fi

# ---- unannotated undefined symbols, resolved through the --symtab tables ----
# the "running kernel": two real objects with a static local_fn each (target*.c)
begin unannotated-target
if build target target1.c target2.c; then
	readelf -s --wide "$T/target.ko" > "$T/target.symtab"
	begin unannotated
	if build unannotated unannotated.c && expect_ok unannotated --symtab vmlinux="$T/target.symtab"; then
		o=$(out unannotated)
		check "unique unexported counter: .klp.sym.vmlinux.counter,0 (0xff20)" is_livepatch_sym "$o" .klp.sym.vmlinux.counter,0
		check "its relocation in .klp.rela.vmlinux..text" rela_has "$o" .klp.rela.vmlinux..text '\.klp\.sym\.vmlinux\.counter,0'
		check "exported printk (__ksymtab_printk) stays undefined" sh -c "readelf -s -W '$o' | grep -qE ' UND printk$'"
		check "undefined_here (in no table) stays undefined" sh -c "readelf -s -W '$o' | grep -qE ' UND undefined_here$'"
		check "the conversion is named on stderr" grep -qx "klp-convert: $T/unannotated.ko: counter: not exported, the only one in vmlinux: .klp.sym.vmlinux.counter,0" "$T/err"
	fi
	begin unannotated-no-symtab
	if expect_ok unannotated; then
		check "without --symtab counter stays undefined" sh -c "readelf -s -W '$(out unannotated)' | grep -qE ' UND counter$'"
	fi
	begin unannotated-symvers
	printf '0x00000000\tcounter\tvmlinux\tEXPORT_SYMBOL\t\n' > "$T/Module.symvers"
	if expect_ok unannotated --symtab vmlinux="$T/target.symtab" --symvers "$T/Module.symvers"; then
		check "listed in --symvers: counter stays undefined" sh -c "readelf -s -W '$(out unannotated)' | grep -qE ' UND counter$'"
	fi
	# --strict: a name nothing exports or defines is refused
	begin unannotated-symvers-unresolved
	printf '0x00000000\tcounter\tvmlinux\tEXPORT_SYMBOL\t\n' > "$T/Module.symvers"
	expect_err unannotated 'undefined_here: undefined, not exported by the kernel and not in a KLP_MODULE_RELOC table$' \
		--strict --symtab vmlinux="$T/target.symtab" --symvers "$T/Module.symvers"
	begin unannotated-ambiguous
	build unannotated-amb unannotated-amb.c &&
		expect_err unannotated-amb 'local_fn: not exported and not in a KLP_MODULE_RELOC table, and ambiguous: 2 candidates: local_fn,1 in vmlinux file target1.c; local_fn,2 in vmlinux file target2.c; name the one you mean in a KLP_MODULE_RELOC\(vmlinux\) table with its sympos$' \
		--symtab vmlinux="$T/target.symtab"
	begin unannotated-two-objects
	expect_err unannotated 'counter: not exported .* ambiguous: 2 candidates: counter,0 in vmlinux \(global\); counter,0 in other_mod \(global\);' \
		--symtab vmlinux="$T/target.symtab" --symtab other-mod="$T/target.symtab"
fi

begin module
if build module module.c && expect_ok module --object my-mod; then
	o=$(out module)
	check "'-' becomes '_': .klp.rela.my_mod..text" rela_has "$o" .klp.rela.my_mod..text '\.klp\.sym\.my_mod\.mod_state,0'
	check "vmlinux symbol in its own section" rela_has "$o" .klp.rela.vmlinux..text '\.klp\.sym\.vmlinux\.vm_state,0'
	check "no vmlinux symbol in the module's section" sh -c "! readelf -r -W '$o' | awk '/klp.rela.my_mod/{on=1;next} /^Relocation/{on=0} on' | grep -q vmlinux"
	check ".klp.sym.my_mod.mod_state,0 Ndx 0xff20" is_livepatch_sym "$o" .klp.sym.my_mod.mod_state,0
fi

begin differ
if build differ differ.c && expect_ok differ; then
	o=$(out differ)
	check "differ-named symbol with matching record" is_livepatch_sym "$o" .klp.sym.vmlinux.dup_fn,3
	check "differ-named symbol without record, object from .kpatch.funcs" is_livepatch_sym "$o" .klp.sym.ext4.ext4_state,0
	check ".klp.rela.ext4..text" rela_has "$o" .klp.rela.ext4..text '\.klp\.sym\.ext4\.ext4_state,0'
	check ".klp.rela.vmlinux..text" rela_has "$o" .klp.rela.vmlinux..text '\.klp\.sym\.vmlinux\.dup_fn,3'
	check ".kpatch.funcs untouched" rela_has "$o" .rela.kpatch.funcs g
fi

begin multi-object
if build multi multi1.c multi2.c; then
	sz=$(readelf -S -W "$T/multi.ko" | awk '/\] \.klp\.module_relocs\.vmlinux / { print $6 }')
	sz=$((0x${sz:-0}))
	[ "${sz:-0}" -gt 36 ] && pass "$case" "ld -r padded the tables ($sz bytes for 3 records)" || fail "$case" "expected padding, size $sz"
	if expect_ok multi; then
		o=$(out multi)
		check "m1" is_livepatch_sym "$o" .klp.sym.vmlinux.m1,0
		check "m2" is_livepatch_sym "$o" .klp.sym.vmlinux.m2,0
		check "m3 sympos 1 after padding" is_livepatch_sym "$o" .klp.sym.vmlinux.m3,1
	fi
fi

begin nothing-to-do
printf 'int plain(void) { return 1; }\n' > "$T/plain.c"
build plain "$T/plain.c" && expect_ok plain && check "no klp section" sh -c "! readelf -S -W '$(out plain)' | grep -q klp"

# ---- errors ----
begin err-no-relocs
src noreloc.s <<'A' >/dev/null
	.section .klp.module_relocs.vmlinux,"aw"
	.zero 12
	.section .modinfo,"a"
	.string "livepatch=Y"
A
build err-no-relocs "$T/noreloc.s" && expect_err err-no-relocs '\.klp\.module_relocs\.vmlinux: annotation section has no relocations'

begin err-count
src count.s <<'A' >/dev/null
	.section .klp.module_relocs.vmlinux,"aw"
	.quad foo
	.long 0
	.zero 12
	.section .modinfo,"a"
	.string "livepatch=Y"
A
build err-count "$T/count.s" && expect_err err-count '\.klp\.module_relocs\.vmlinux: entry count mismatch: 24 bytes hold 2 records of 12 bytes but there are 1 relocations'

begin err-objname-long
long=$(printf 'o%.0s' $(seq 56))
printf '#include "common.h"\nextern int x;\nLIVEPATCH_MODINFO;\nint f(void) { return x; }\nstatic struct KLP_MODULE_RELOC(%s) r[] = { { &x, 0 } };\n' "$long" > "$T/objlong.c"
build err-objname-long "$T/objlong.c" && expect_err err-objname-long "\.klp\.module_relocs\.$long: object name '$long' is 56 characters, over the kernel's limit of 55"

begin err-objname-55-ok
ok55=$(printf 'o%.0s' $(seq 55))
sed "s/$long/$ok55/" "$T/objlong.c" > "$T/obj55.c"
build obj55 "$T/obj55.c" && expect_ok obj55 --object "$ok55" && check "55 characters accepted" has_sec "$(out obj55)" "\.klp\.rela\.$ok55\.\.text"

begin err-symname-long
sl=$(printf 's%.0s' $(seq 512))
printf '#include "common.h"\nextern int %s;\nLIVEPATCH_MODINFO;\nint f(void) { return %s; }\nstatic struct KLP_MODULE_RELOC(vmlinux) r[] = { { &%s, 0 } };\n' "$sl" "$sl" "$sl" > "$T/symlong.c"
build err-symname-long "$T/symlong.c" && expect_err err-symname-long "$sl: symbol name is 512 characters, over the kernel's limit of 511"
begin symname-511-ok
s511=$(printf 's%.0s' $(seq 511))
sed "s/$sl/$s511/g" "$T/symlong.c" > "$T/sym511.c"
build sym511 "$T/sym511.c" && expect_ok sym511 && check "511 characters accepted" is_livepatch_sym "$(out sym511)" ".klp.sym.vmlinux.$s511,0"

begin err-unknown-object
build err-unknown-object module.c && expect_err err-unknown-object "\.klp\.module_relocs\.my-mod: unknown object 'my_mod'"

begin err-bad-objname
src dotobj.s <<'A' >/dev/null
	.section .klp.module_relocs.a.b,"aw"
	.quad foo
	.long 0
A
build err-bad-objname "$T/dotobj.s" && expect_err err-bad-objname "\.klp\.module_relocs\.a\.b: object name 'a\.b' is not a module name"

begin err-not-relocatable
printf 'int main(void) { return 0; }\n' > "$T/prog.c"
gcc -o "$T/err-exec.ko" "$T/prog.c" -no-pie && expect_err err-exec 'ELF header: not a relocatable object \(ELF type 2, executable\)'
gcc -shared -fPIC -o "$T/err-dyn.ko" "$T/prog.c" && expect_err err-dyn 'ELF header: not a relocatable object \(ELF type 3, shared object\)'
echo "not an elf" > "$T/err-text.ko" && expect_err err-text 'ELF header: not an ELF file'

begin err-sympos-mismatch
sed 's/{ { dup_fn, 3 } }/{ { dup_fn, 1 } }/' "$HERE/src/differ.c" > "$T/mism.c"
build err-sympos-mismatch "$T/mism.c" && expect_err err-sympos-mismatch '\.klp\.sym\.vmlinux\.dup_fn,3: the name says sympos 3, record at 0x0 says 1'

begin err-object-mismatch
sed 's/KLP_MODULE_RELOC(vmlinux) r\[\] = { { dup_fn, 3 } }/KLP_MODULE_RELOC(ext4) r[] = { { dup_fn, 3 } }/' "$HERE/src/differ.c" > "$T/omism.c"
build err-object-mismatch "$T/omism.c" && expect_err err-object-mismatch '\.klp\.sym\.vmlinux\.dup_fn,3: the name says object vmlinux, record at 0x0 says ext4'

begin err-defined-here
printf '#include "common.h"\nstatic int mine;\nLIVEPATCH_MODINFO;\nint f(void) { return mine++; }\nstatic struct KLP_MODULE_RELOC(vmlinux) r[] = { { &mine, 0 } };\n' > "$T/def.c"
build err-defined-here "$T/def.c" && expect_err err-defined-here '[^:]+: record at 0x0: the symbol is defined in the patch module'

begin err-twice
printf '#include "common.h"\nextern int x;\nLIVEPATCH_MODINFO;\nint f(void) { return x; }\nstatic struct KLP_MODULE_RELOC(vmlinux) r[] = { { &x, 0 }, { &x, 1 } };\n' > "$T/twice.c"
build err-twice "$T/twice.c" && expect_err err-twice 'x: annotated twice: as vmlinux,0 and as vmlinux,1'

begin err-no-modinfo
sed '/LIVEPATCH_MODINFO/d' "$HERE/src/basic.c" > "$T/nomi.c"
build err-no-modinfo "$T/nomi.c" && expect_err err-no-modinfo '\.modinfo: no livepatch=Y'

begin err-module-init
printf '#include "common.h"\nextern int ms;\nLIVEPATCH_MODINFO;\n__attribute__((section(".init.text"))) int i(void) { return ms; }\nstatic struct KLP_MODULE_RELOC(foo) r[] = { { &ms, 0 } };\n' > "$T/init.c"
build err-module-init "$T/init.c" && expect_err err-module-init '\.klp\.sym\.foo\.ms,0: referenced from \.init\.text, which is gone when module foo loads' --object foo

begin err-malformed-klp-name
printf '#include "common.h"\nextern int y __asm__(".klp.sym.vmlinux.y");\nLIVEPATCH_MODINFO;\nint f(void) { return y; }\n' > "$T/malf.c"
build err-malformed-klp-name "$T/malf.c" && expect_err err-malformed-klp-name '\.klp\.sym\.vmlinux\.y: malformed klp symbol name'

begin err-table-referenced
printf '#include "common.h"\nextern int z;\nLIVEPATCH_MODINFO;\nstruct KLP_MODULE_RELOC(vmlinux) tab[] = { { &z, 0 } };\nvoid *leak(void) { return tab; }\n' > "$T/ref.c"
build err-table-referenced "$T/ref.c" && expect_err err-table-referenced 'tab: annotation table referenced from \.text'

begin err-usage
"$KLP_CONVERT" >/dev/null 2>&1 && fail "$case" "no arguments accepted" || pass "$case" "no arguments: non-zero exit"

# ---- against the reference kernel: the seed sample and the template, booted ----
# boot-sample.sh / boot-template.sh build against KOBJ, check readelf and boot in
# qemu (a few seconds each); --no-boot stops the sample after readelf.
kernel_suite() {
	local name=$1 what=$2 outp; shift 2
	begin "$name"
	if outp=$("$@" 2>&1); then
		if echo "$outp" | grep -q SKIP; then
			skip "$name" "$(echo "$outp" | grep SKIP)"
		else
			pass "$name" "$what"
			[ $verbose = 1 ] && echo "$outp"
		fi
	else
		echo "$outp" > "$T/$name.log"
		fail "$name" "$*" "$T/$name.log"
	fi
}
# the sample plus a reference to an unexported symbol nobody annotated
mk_strict() {
	local d=$T/mk-strict
	local kenv
	kenv=$("$ROOT/integration/kernel-cache.sh" --no-build --print-env) || return 1
	eval "$kenv"
	mkdir -p "$d" && cp "$HERE/sample/Makefile" "$d/"
	sed -e 's/^static int sample_cmdline_show/extern int kp_not_exported;\n&/' \
	    -e 's/seq_printf(m, "%s livepatch=1\\n", saved_command_line);/seq_printf(m, "%s %d\\n", saved_command_line, kp_not_exported);/' \
		"$HERE/sample/livepatch-sample.c" > "$d/livepatch-sample.c"
	grep -q "kp_not_exported)" "$d/livepatch-sample.c" || { echo "test source edit failed"; return 1; }
	if make -C "$d" KDIR="$KOBJ" KPATCH_KMOD="$ROOT/kmod" KLP_CONVERT="$KLP_CONVERT" \
		>"$d/log" 2>&1 </dev/null; then
		echo "make succeeded"; return 1
	fi
	grep -q '^klp-convert: livepatch-sample.ko: kp_not_exported: undefined, not exported by the kernel and not in a KLP_MODULE_RELOC table$' "$d/log" ||
		{ cat "$d/log"; return 1; }
}
# the sample without its table, referring also to s_show, which vmlinux has
# several of: klp-convert (given vmlinux's table by klp-module.mk) names them all
mk_ambiguous() {
	local d=$T/mk-ambiguous
	local kenv
	kenv=$("$ROOT/integration/kernel-cache.sh" --no-build --print-env) || return 1
	eval "$kenv"
	mkdir -p "$d" && cp "$HERE/sample/Makefile" "$d/"
	sed -e '/^struct KLP_MODULE_RELOC(vmlinux)/,/^};/d' \
	    -e 's/^static int sample_cmdline_show/extern int s_show(void *, void *);\n&/' \
	    -e 's/seq_printf(m, "%s livepatch=1\\n", saved_command_line);/seq_printf(m, "%s %p\\n", saved_command_line, s_show);/' \
		"$HERE/sample/livepatch-sample.c" > "$d/livepatch-sample.c"
	grep -q "saved_command_line, s_show)" "$d/livepatch-sample.c" || { echo "test source edit failed"; return 1; }
	if make -C "$d" KDIR="$KOBJ" KPATCH_KMOD="$ROOT/kmod" KLP_CONVERT="$KLP_CONVERT" \
		>"$d/log" 2>&1 </dev/null; then
		echo "make succeeded"; return 1
	fi
	grep -E '^klp-convert: livepatch-sample.ko: s_show: not exported and not in a KLP_MODULE_RELOC table, and ambiguous: [0-9]+ candidates: s_show,1 in vmlinux file [^ ;]+\.c; s_show,2 in vmlinux file [^ ;]+\.c; .*name the one you mean in a KLP_MODULE_RELOC\(vmlinux\) table with its sympos$' "$d/log" ||
		{ cat "$d/log"; return 1; }
}
if [ $kernel = 0 ]; then
	skip kernel "--no-kernel"
elif ! "$ROOT/integration/kernel-cache.sh" --no-build --print-env >/dev/null 2>&1; then
	skip kernel "no cached reference kernel (run integration/kernel-cache.sh)"
else
	kernel_suite seed-sample "seed sample builds against KOBJ and converts: .klp.rela.vmlinux..text (0x00100000), .klp.sym.vmlinux.saved_command_line,0 (0xff20)" \
		"$HERE/boot-sample.sh" --no-boot
	kernel_suite klp-module-mk-strict "klp-module.mk refuses an unexported symbol missing from KLP_MODULE_RELOC" \
		mk_strict
	kernel_suite seed-sample-no-table "seed sample without its KLP_MODULE_RELOC table: klp-module.mk finds vmlinux, saved_command_line (unique) becomes .klp.sym.vmlinux.saved_command_line,0" \
		"$HERE/boot-sample.sh" --no-table --no-boot
	kernel_suite klp-module-mk-ambiguous "an unannotated name vmlinux has several of (s_show) is refused, every candidate named" \
		mk_ambiguous
	if [ $boot = 1 ]; then
		kernel_suite seed-sample-boot "seed sample booted: <cmdline> livepatch=1, disable restores, rmmod" \
			"$HERE/boot-sample.sh"
		kernel_suite seed-sample-no-table-boot "seed sample without its table booted: <cmdline> livepatch=1, disable restores, rmmod" \
			"$HERE/boot-sample.sh" --no-table
		kernel_suite modsample-boot "module patch booted: .klp.rela.kobject_example written when the target loads later and when it is already there" \
			"$HERE/boot-modsample.sh"
		kernel_suite template-boot "template + klp-convert booted: replace on/off, callbacks, disable, rmmod" \
			"$HERE/boot-template.sh"
	else
		skip boot "--no-boot"
	fi
fi

result_summary
