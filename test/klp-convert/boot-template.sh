#!/bin/bash
# boot-template.sh: build the patch-module template (kmod/patch) the way kpatch-build
# does -- patch-objs.o (here template/fake-diff.c, compiled against the reference
# kernel, standing in for the differ's output) + make -C $KOBJ M=dir KPATCH_NAME=..
# [KPATCH_REPLACE=0] + klp-convert -- and boot both modules (guest-template.sh):
# function replaced, callbacks run, sysfs names, replace on by default and off
# with KPATCH_REPLACE=0, disable restores, rmmod works.
# Skips (exit 0, with a notice) when the kernel cache or qemu is absent.
set -euo pipefail
BOOT_NAME='boot-template'
# shellcheck source=test/klp-convert/boot-lib.sh
. "$(dirname "$0")/boot-lib.sh"
boot_timeout_arg "$@"
boot_kernel_env --qemu
KLPC=${KLP_CONVERT:-$ROOT/klp-convert/klp-convert}

out=${KPATCH_OUT:-$ROOT/test/out}/klp-convert/template	# (per checkout: runs of two checkouts at once do not meet)
rm -rf "$out"
mkdir -p "$out/objs"
cp "$HERE/template/"* "$out/objs/"
make -C "$KOBJ" M="$out/objs" KPATCH_KMOD="$ROOT/kmod" fake-diff.o macros-check.o \
	syscall-orig.o syscall-kpatch.o >"$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log" >&2; die "compiling the test objects failed (log $out/build.log)"; }

# KPATCH_SYSCALL_DEFINE* gives the functions and code SYSCALL_DEFINE* gives,
# but for the body's name (__kpatch_do_sys_*: see kpatch-syscall.h)
for f in orig kpatch; do
	readelf -s -W "$out/objs/syscall-$f.o" | awk '$4 == "FUNC" { print $3, $5, $8 }' |
		sed 's/__kpatch_do_sys/__do_sys/' | sort > "$out/sc-$f.syms"
	objdump -d --section=.text "$out/objs/syscall-$f.o" | tail -n +7 |
		sed 's/__kpatch_do_sys/__do_sys/g' > "$out/sc-$f.dis"
done
grep -q __x64_sys_kp_six "$out/sc-kpatch.syms" || die "syscall-kpatch.o: no __x64_sys_kp_six"
cmp -s "$out/sc-orig.syms" "$out/sc-kpatch.syms" ||
	die "KPATCH_SYSCALL_DEFINE functions differ from SYSCALL_DEFINE's: $(diff "$out/sc-orig.syms" "$out/sc-kpatch.syms" | tr '\n' ' ')"
cmp -s "$out/sc-orig.dis" "$out/sc-kpatch.dis" || die "KPATCH_SYSCALL_DEFINE code differs from SYSCALL_DEFINE's"

# kpatch-macros.h and kpatch-syscall.h against the real kernel headers
m=$out/objs/macros-check.o
for s in .kpatch.callbacks.pre_patch .kpatch.callbacks.post_patch .kpatch.callbacks.pre_unpatch \
	.kpatch.callbacks.post_unpatch .kpatch.ignore.functions .kpatch.ignore.sections .kpatch.force; do
	size=$(readelf -S -W "$m" | awk -v s="$s" '$2 == s { print $6 }')
	want=8; case $s in .kpatch.callbacks.*) want=10 ;; esac	# hex: 16 or 8 bytes
	[ "$size" = "0000$want" ] || [ "$size" = "00000$want" ] || [ "$((0x${size:-0}))" = "$((0x$want))" ] ||
		die "macros-check.o: section $s has size '${size}', want 0x$want"
done
for sym in __x64_sys_kp_zero __x64_sys_kp_three __x64_sys_kp_six; do
	readelf -s -W "$m" | grepq -E " FUNC +GLOBAL +DEFAULT +[0-9]+ $sym$" || die "macros-check.o: no global $sym"
done
readelf -S -W "$m" | grepq -E '_error_injection|__syscalls_metadata|ftrace_events' &&
	die "macros-check.o: KPATCH_SYSCALL_DEFINE left syscall metadata or error-injection entries"
echo "boot-template: kpatch-macros.h sections and KPATCH_SYSCALL_DEFINE0/3/6 entry points ok"
# name:make-args
for v in tcmd: tnr:KPATCH_REPLACE=0; do
	name=${v%%:*}
	d=$out/$name
	cp -a "$ROOT/kmod/patch" "$d"
	cp "$out/objs/fake-diff.o" "$d/patch-objs.o"
	make -C "$KOBJ" M="$d" KPATCH_NAME="$name" KPATCH_INCLUDE="$ROOT/kmod/include" ${v#*:} >>"$out/build.log" 2>&1 ||
		{ tail -n 20 "$out/build.log" >&2; die "building the template ($name) failed"; }
	"$KLPC" "$d/livepatch-$name.ko" "$out/livepatch-$name.ko" ||
		die "klp-convert of livepatch-$name.ko failed"
	readelf -s --wide "$out/livepatch-$name.ko" |
		grep -q 'OS \[0xff20\] \.klp\.sym\.vmlinux\.saved_command_line,0$' ||
		die "livepatch-$name.ko: no converted klp symbol"
done

"$ROOT/integration/run-guest.sh" --timeout "$tmo" --log "$out/guest.log" \
	"$KBZIMAGE" "$HERE/guest-template.sh" "$out/livepatch-tcmd.ko" "$out/livepatch-tnr.ko"
