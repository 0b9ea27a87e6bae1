#!/bin/bash
# boot-modsample.sh: a hand-written patch of a module (modsample/: foo_show() of
# samples/kobject/kobject-example.ko, reading the module's static foo through
# KLP_MODULE_RELOC(kobject_example)), built with kmod/klp-module.mk and klp-convert
# --symtab of the target module, checked with readelf and booted
# (guest-modsample.sh): patch before and after the target loads.
# Skips (exit 0, with a notice) when the kernel cache or qemu is absent.
set -euo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../lib/grepq.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
tmo=180
[ "${1:-}" = --timeout ] && tmo=${2:?}
skip() { echo "boot-modsample: SKIP: $*"; exit 0; }
die() { echo "boot-modsample: FAIL: $*" >&2; exit 1; }

env=$("$ROOT/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) ||
	skip "no cached reference kernel (run integration/kernel-cache.sh)"
eval "$env"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"
target=$KOBJ/samples/kobject/kobject-example.ko
[ -f "$target" ] || skip "$target not built"
[ -x "$ROOT/klp-convert/klp-convert" ] || make -C "$ROOT" >/dev/null

out=$KPATCH_CACHE/klp-convert/modsample
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

"$ROOT/integration/run-guest.sh" --timeout "$tmo" --log "$KPATCH_CACHE/logs/klp-convert-modsample.log" \
	"$KBZIMAGE" "$HERE/guest-modsample.sh" "$ko" "$target"
