#!/bin/bash
# cross-build.sh: kmod/ for a kernel of another architecture. Against the cached
# cross-built reference kernel of ARCH (integration/kernel-cache.sh), with Debian's
# cross compiler and no flags of our own:
#   1. the seed's KLP_MODULE_RELOC sample (sample/) through klp-module.mk: the module
#      is built for ARCH (ELF machine, livepatch=Y, its 12-byte annotation record);
#      then klp-convert converts it, or (until it learns the architecture's
#      relocations) refuses it in one line;
#   2. KPATCH_SYSCALL_DEFINE0/3/6 (template/syscall-kpatch.c) give the functions and
#      code of the kernel's own SYSCALL_DEFINE* (template/syscall-orig.c) on ARCH, and a
#      small module using them and kpatch-macros.h (template/macros-check.c) carries
#      no syscall metadata or error-injection entry;
#   3. the patch-module template (kmod/patch) links template/fake-diff.o as
#      patch-objs.o into livepatch-tcmd.ko for ARCH.
#
#   ARCH=ppc64le|s390x test/klp-convert/cross-build.sh
#
# Skips (exit 0, a SKIP line) when that kernel is not built. Each check through
# test/lib/result.sh; last line "kmod-cross-ARCH: N passed, N failed, N skipped".
set -uo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../lib/grepq.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KP_ARCH_TOOL=cross-build
# shellcheck source=integration/arch.sh
. "$ROOT/integration/arch.sh"
kp_arch_init
# shellcheck source=test/lib/result.sh
. "$HERE/../lib/result.sh"
result_init "kmod-cross-$KP_ARCH"
finish() { result_summary; exit; }

env=$("$ROOT/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || {
	skip kernel "no cached $KP_ARCH reference kernel (ARCH=$KP_ARCH integration/kernel-cache.sh)"
	finish; }
eval "$env"
[ -x "$ROOT/klp-convert/klp-convert" ] || make -C "$ROOT" >/dev/null
KLPC=${KLP_CONVERT:-$ROOT/klp-convert/klp-convert}
case $KP_ARCH in
x86_64) machine='Advanced Micro Devices X86-64' entry=__x64_sys_kp_six ;;
ppc64le) machine='PowerPC64' entry=sys_kp_six ;;
s390x) machine='IBM S/390' entry=__s390x_sys_kp_six ;;
esac
# the kernel make of the tests must not see our ARCH: klp-module.mk finds its own
unset ARCH CROSS_COMPILE
out=${KPATCH_OUT:-$ROOT/test/out}/klp-convert/cross-$KP_ARCH	# (per checkout)
rm -rf "$out"
mkdir -p "$out"
is_arch() { readelf -h "$1" 2>/dev/null | grepq "Machine: *$machine"; }

# 1. the sample through klp-module.mk (kbuild pass, then klp-convert)
cp -a "$HERE/sample" "$out/sample"
readelf -s --wide "$KVMLINUX" > "$out/vmlinux.symtab"
make -C "$out/sample" KDIR="$KOBJ" KPATCH_KMOD="$ROOT/kmod" KLP_CONVERT="$KLPC" \
	KLP_CONVERT_FLAGS="--symtab vmlinux=$out/vmlinux.symtab" > "$out/sample.log" 2>&1
rc=$?
ko=$out/sample/livepatch-sample.ko
# the annotation (before klp-convert) or its result (after)
annotated() {
	readelf -SW "$1" | grepq ' \.klp\.module_relocs\.vmlinux ' ||
		readelf -sW "$1" | grepq '\.klp\.sym\.vmlinux\.saved_command_line,0$'
}
if [ -f "$ko" ] && is_arch "$ko" && readelf -p .modinfo "$ko" | grepq 'livepatch=Y' && annotated "$ko"; then
	pass sample "livepatch-sample.ko built for $machine by klp-module.mk (KDIR=$KOBJ)"
else
	fail sample "livepatch-sample.ko not built for $machine (log $out/sample.log): $(tail -n 3 "$out/sample.log" | tr '\n' ' ')"
fi
# klp-convert: converted, or one clear line refusing the machine
if [ $rc -eq 0 ] && readelf -sW "$ko" | grepq 'OS \[0xff20\] \.klp\.sym\.vmlinux\.saved_command_line,0$'; then
	pass sample-klp-convert "converted saved_command_line"
else
	# (klp-convert learns ppc64le/s390x relocations with the architecture model)
	line=$(grep -E '^klp-convert: ' "$out/sample.log")
	if [ -n "$line" ] && [ "$(echo "$line" | wc -l)" -eq 1 ] && [ $rc -ne 0 ]; then
		pass sample-klp-convert "not yet for $KP_ARCH, refuses in one line: $line"
	else
		fail sample-klp-convert "neither converted nor one clear refusal (log $out/sample.log)"
	fi
fi

# 2. the syscall wrappers and the macros, compiled against the kernel
cp "$HERE/template/"* "$out/"
make -C "$KOBJ" "${KP_KMAKE[@]}" M="$out" KPATCH_KMOD="$ROOT/kmod" \
	syscall-orig.o syscall-kpatch.o macros-check.o fake-diff.o > "$out/objs.log" 2>&1 ||
	{ fail objects "compiling the test objects failed: $(grep -m3 -E 'error|Error' "$out/objs.log" | tr '\n' ' ')"; finish; }
for f in orig kpatch; do
	readelf -s -W "$out/syscall-$f.o" | awk '$4 == "FUNC" { print $3, $5, $8 }' |
		sed 's/__kpatch_do_sys/__do_sys/' | sort > "$out/sc-$f.syms"
	"${KP_CROSS}objdump" -dr --section=.text "$out/syscall-$f.o" | tail -n +7 |
		sed 's/__kpatch_do_sys/__do_sys/g' > "$out/sc-$f.dis"
done
if ! grep -q " $entry$" "$out/sc-kpatch.syms"; then
	fail syscall "syscall-kpatch.o has no $entry: $(tr '\n' ' ' < "$out/sc-kpatch.syms")"
elif ! cmp -s "$out/sc-orig.syms" "$out/sc-kpatch.syms"; then
	fail syscall "KPATCH_SYSCALL_DEFINE functions differ from SYSCALL_DEFINE's: $(diff "$out/sc-orig.syms" "$out/sc-kpatch.syms" | grep '^[<>]' | tr '\n' ' ')"
elif ! cmp -s "$out/sc-orig.dis" "$out/sc-kpatch.dis"; then
	fail syscall "KPATCH_SYSCALL_DEFINE code differs from SYSCALL_DEFINE's (diff $out/sc-orig.dis $out/sc-kpatch.dis)"
else
	pass syscall "KPATCH_SYSCALL_DEFINE0/3/6 = SYSCALL_DEFINE0/3/6 ($(awk '{ print $3 }' "$out/sc-kpatch.syms" | grep -v __do_sys | tr '\n' ' '))"
fi
m=$out/macros-check.o
if ! is_arch "$m"; then
	fail macros "macros-check.o is not a $machine object"
elif readelf -S -W "$m" | grepq -E '_error_injection|__syscalls_metadata|ftrace_events'; then
	fail macros "KPATCH_SYSCALL_DEFINE left syscall metadata or error-injection entries in macros-check.o"
elif ! readelf -s -W "$m" | grepq -E " FUNC +GLOBAL +DEFAULT +[0-9]+ $entry$"; then
	fail macros "macros-check.o: no global $entry"
elif ! readelf -S -W "$m" | grepq '\.kpatch\.callbacks\.pre_patch'; then
	fail macros "macros-check.o: no .kpatch.callbacks.pre_patch"
else
	pass macros "kpatch-macros.h sections and the syscall entries, no metadata/error-injection"
fi

# 3. the template, with fake-diff.o standing in for the differ's output
d=$out/tcmd
cp -a "$ROOT/kmod/patch" "$d"
cp "$out/fake-diff.o" "$d/patch-objs.o"
if make -C "$KOBJ" "${KP_KMAKE[@]}" M="$d" KPATCH_NAME=tcmd KPATCH_INCLUDE="$ROOT/kmod/include" > "$out/template.log" 2>&1 &&
	is_arch "$d/livepatch-tcmd.ko" && readelf -S -W "$d/livepatch-tcmd.ko" | grepq '\.kpatch\.funcs'; then
	pass template "livepatch-tcmd.ko linked for $machine with .kpatch.funcs"
else
	fail template "the template did not build for $KP_ARCH (log $out/template.log)"
fi
finish
