#!/bin/bash
# boot-sample.sh: build the seed 003 sample (test/klp-convert/sample/) against the
# cached reference kernel with kmod/klp-module.mk, check the converted module with
# readelf, then boot it with integration/run-guest.sh: after insmod /proc/cmdline
# reads "<cmdline> livepatch=1", after disabling the patch the original text is
# back, and rmmod works (guest side: guest-sample.sh).
# Skips (exit 0, with a notice) when the kernel cache or qemu is absent.
#
#   test/klp-convert/boot-sample.sh [--timeout SECS] [--no-boot] [--no-table]
# --no-boot: build, convert and check with readelf only (run-tests.sh uses it).
# --no-table: the sample without its KLP_MODULE_RELOC table, built without
# KLP_CONVERT_FLAGS: klp-module.mk gives klp-convert the symbol table of
# $KOBJ/vmlinux, where saved_command_line is unique, so the result is the same.
set -euo pipefail
BOOT_NAME='boot-sample'
# shellcheck source=test/klp-convert/boot-lib.sh
. "$(dirname "$0")/boot-lib.sh"
tmo=180 boot=1 table=1
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) tmo=${2:?}; shift ;;
	--no-boot) boot=0 ;;
	--no-table) table=0 ;;
	*) echo "usage: boot-sample.sh [--timeout SECS] [--no-boot] [--no-table]" >&2; exit 2 ;;
	esac
	shift
done

if [ $boot = 0 ]; then boot_kernel_env --no-qemu; else boot_kernel_env --qemu; fi

out=${KPATCH_OUT:-$ROOT/test/out}/klp-convert/sample	# (per checkout: runs of two checkouts at once do not meet)
[ $table = 1 ] || out=$out-no-table
rm -rf "$out"
mkdir -p "$out"
cp "$HERE/sample/Makefile" "$HERE/sample/livepatch-sample.c" "$out/"
if [ $table = 1 ]; then
	flags="--symtab vmlinux=$out/vmlinux.symtab"
	readelf -s --wide "$KVMLINUX" > "$out/vmlinux.symtab"
else
	# the table (struct KLP_MODULE_RELOC(vmlinux) ... };) goes
	flags=
	sed -i '/^struct KLP_MODULE_RELOC(vmlinux)/,/^};/d' "$out/livepatch-sample.c"
	! grep -q '^struct KLP_MODULE_RELOC(' "$out/livepatch-sample.c" || die "removing the table failed"
fi
make -C "$out" KDIR="$KOBJ" KPATCH_KMOD="$ROOT/kmod" \
	KLP_CONVERT="${KLP_CONVERT:-$ROOT/klp-convert/klp-convert}" \
	KLP_CONVERT_FLAGS="$flags" >"$out/build.log" 2>&1 < /dev/null ||
	{ tail -n 20 "$out/build.log" >&2; die "building the sample failed (log $out/build.log)"; }
ko=$out/livepatch-sample.ko
if [ $table = 0 ]; then
	grep -qx "klp-convert: livepatch-sample.ko: saved_command_line: not exported, the only one in vmlinux: .klp.sym.vmlinux.saved_command_line,0" "$out/build.log" ||
		die "klp-convert did not report converting the unannotated saved_command_line (log $out/build.log)"
	[ -s "$out/.vmlinux.symtab" ] || die "klp-module.mk made no symbol table of $KOBJ/vmlinux"
fi

readelf -S --wide "$ko" | grep -E '\.klp\.rela\.vmlinux\.\.text' | grepq ' AIo ' ||
	die "no .klp.rela.vmlinux..text section with flags AIo in $ko"
readelf -t "$ko" | grep -A3 '\.klp\.rela\.vmlinux\.\.text' | grepq 'OS (0000000000100000)' ||
	die ".klp.rela.vmlinux..text lacks SHF_RELA_LIVEPATCH (0x00100000)"
readelf -s --wide "$ko" | grepq -E 'NOTYPE +GLOBAL +DEFAULT +OS \[0xff20\] \.klp\.sym\.vmlinux\.saved_command_line,0$' ||
	die "no .klp.sym.vmlinux.saved_command_line,0 with Ndx 0xff20"
! readelf -S --wide "$ko" | grepq 'klp.module_relocs' || die "annotation section left in $ko"
echo "boot-sample: $ko converted:"
readelf -S --wide "$ko" | grep -E 'klp' | sed 's/^/    /'
readelf -s --wide "$ko" | grep -E 'klp' | sed 's/^/    /'
[ $boot = 1 ] || exit 0

"$ROOT/integration/run-guest.sh" --timeout "$tmo" --log "$out/guest.log" \
	"$KBZIMAGE" "$HERE/guest-sample.sh" "$ko"
