#!/bin/bash
# boot-modsample.sh: a hand-written patch of a module (modsample/: foo_show() of
# samples/kobject/kobject-example.ko, reading the module's static foo through
# KLP_MODULE_RELOC(kobject_example)), built with kmod/klp-module.mk and klp-convert
# --symtab of the target module, checked with readelf and booted
# (guest-modsample.sh): patch before and after the target loads.
# Skips (exit 0, with a notice) when the kernel cache or qemu is absent.
set -euo pipefail
BOOT_NAME='boot-modsample'
# shellcheck source=test/klp-convert/boot-lib.sh
. "$(dirname "$0")/boot-lib.sh"
boot_timeout_arg "$@"
boot_kernel_env --qemu
target=$KOBJ/samples/kobject/kobject-example.ko
[ -f "$target" ] || boot_skip "$target not built"

out=${KPATCH_OUT:-$ROOT/test/out}/klp-convert/modsample	# (per checkout: runs of two checkouts at once do not meet)
rm -rf "$out"
mkdir -p "$out"
cp "$HERE/modsample/Makefile" "$HERE/modsample/livepatch-kobj.c" "$out/"
readelf -s --wide "$target" > "$out/kobject_example.symtab"
make -C "$out" KDIR="$KOBJ" KPATCH_KMOD="$ROOT/kmod" KLP_CONVERT="${KLP_CONVERT:-$ROOT/klp-convert/klp-convert}" \
	KLP_CONVERT_FLAGS="--symtab kobject_example=$out/kobject_example.symtab" \
	>"$out/build.log" 2>&1 </dev/null || { tail -n 20 "$out/build.log" >&2; die "build failed (log $out/build.log)"; }
ko=$out/livepatch-kobj.ko
readelf -S --wide "$ko" | grep -E '\] \.klp\.rela\.kobject_example\.\.text ' | grepq ' AIo ' ||
	die "no .klp.rela.kobject_example..text (AIo) in $ko"
readelf -s --wide "$ko" | grepq -E 'OS \[0xff20\] \.klp\.sym\.kobject_example\.foo,0$' ||
	die "no .klp.sym.kobject_example.foo,0 (0xff20) in $ko"

"$ROOT/integration/run-guest.sh" --timeout "$tmo" --log "$out/guest.log" \
	"$KBZIMAGE" "$HERE/guest-modsample.sh" "$ko" "$target"
