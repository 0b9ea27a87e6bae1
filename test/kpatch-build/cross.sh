#!/bin/bash
# test/kpatch-build/cross.sh: kpatch-build for a kernel of another architecture.
#
#   ARCH=ppc64le|s390x test/kpatch-build/cross.sh
#
# examples/cmdline.patch against the cached cross-built reference kernel of ARCH
# (integration/kernel-cache.sh), with no architecture flags: kpatch-build must find
# the architecture in the kernel config, check the cross compiler, read the struct
# sizes from the vmlinux DWARF, make its original -ffunction-sections build with the
# cross compiler (cached; one kernel build the first time), compile the patched
# object for ARCH, and then either build livepatch-cmdline.ko for ARCH or -- while
# the differ does not know the architecture -- stop at the differ with one clear
# error line naming the object and the machine. Anything else fails.
# Skips (exit 0) when the kernel of ARCH is not built. Each check through
# test/lib/result.sh; last line "kpatch-build-cross-ARCH: N passed, N failed, N skipped".
set -uo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../lib/grepq.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KP_ARCH_TOOL=kpatch-build-cross
# shellcheck source=integration/arch.sh
. "$ROOT/integration/arch.sh"
kp_arch_init
# shellcheck source=test/lib/result.sh
. "$HERE/../lib/result.sh"
result_init "kpatch-build-cross-$KP_ARCH"
finish() { result_summary; exit; }

env=$("$ROOT/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || {
	skip kernel "no cached $KP_ARCH reference kernel (ARCH=$KP_ARCH integration/kernel-cache.sh)"
	finish; }
eval "$env"
make -C "$ROOT" -s all >/dev/null || { fail tools "make failed"; finish; }
case $KP_ARCH in
x86_64) machine='Advanced Micro Devices X86-64' ;;
ppc64le) machine='PowerPC64' ;;
s390x) machine='IBM S/390' ;;
esac
# no ARCH, no CROSS_COMPILE: kpatch-build takes both from the config
unset ARCH CROSS_COMPILE
out=$KPATCH_CACHE/kpatch-build-cross/$KP_ARCH
rm -rf "$out"; mkdir -p "$out"
t0=$SECONDS
"$ROOT/kpatch-build/kpatch-build" -d -s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" -n cmdline -o "$out" \
	"$ROOT/examples/cmdline.patch" > "$out/kpatch-build.out" 2>&1
rc=$?
secs=$((SECONDS - t0))
# this run's own log and scratch directory, as kpatch-build names them (other
# kpatch-builds of a patch named cmdline may run at the same time on this cache)
log=$(sed -n 's/^kpatch-build: log: //p' "$out/kpatch-build.out" | tail -n1)
scratch=$(sed -n 's/^kpatch-build: scratch directory kept: \([^ ]*\).*/\1/p' "$out/kpatch-build.out" | tail -n1)
# (a successful run does not print its log: it is the one that traced this scratch)
[ -n "$log" ] || [ -z "$scratch" ] ||
	log=$(grep -lF "$scratch" "$KPATCH_CACHE"/kpatch-build/logs/cmdline-*.log 2>/dev/null | tail -n1)
echo "kpatch-build-cross: $KP_ARCH: kpatch-build exit $rc in ${secs}s (log ${log:-none}); its output:"
sed 's/^/    /' "$out/kpatch-build.out"

# what kpatch-build found before building anything
if grep -q "ARCH=$KP_KARCH CROSS_COMPILE=$KP_CROSS" "${log:-/dev/null}" 2>/dev/null ||
	grep -q "ARCH=$KP_KARCH CROSS_COMPILE=$KP_CROSS" "$KPATCH_CACHE"/kpatch-build/orig/*/build.log 2>/dev/null; then
	pass make-args "kernel makes ran with ARCH=$KP_KARCH CROSS_COMPILE=$KP_CROSS (from CONFIG_* of $KCONFIG)"
else
	fail make-args "no kernel make with ARCH=$KP_KARCH CROSS_COMPILE=$KP_CROSS in the logs"
fi
if grep -q '^struct sizes: .*EX_STRUCT_SIZE=' "${log:-/dev/null}" 2>/dev/null; then
	pass struct-sizes "from the $KP_ARCH vmlinux DWARF: $(sed -n 's/^struct sizes: //p' "$log" | head -n1)"
else
	fail struct-sizes "no struct sizes read from $KVMLINUX (log ${log:-none})"
fi
# the patched object, compiled for ARCH (kept under -d)
pobj=${scratch:+$scratch/obj/fs/proc/cmdline.o}
if [ -n "$pobj" ] && [ -f "$pobj" ] && readelf -h "$pobj" | grepq "Machine: *$machine"; then
	pass patched-object "fs/proc/cmdline.o compiled for $machine"
else
	fail patched-object "no patched fs/proc/cmdline.o for $machine (${pobj:-no scratch dir})"
fi
if [ $rc -eq 0 ] && readelf -h "$out/livepatch-cmdline.ko" 2>/dev/null | grepq "Machine: *$machine"; then
	pass result "livepatch-cmdline.ko built for $machine"
else
	err=$(grep 'error:' "$out/kpatch-build.out")
	if [ "$(echo "$err" | grep -c .)" -eq 1 ] &&
		echo "$err" | grepq "^kpatch-build: error: fs/proc/cmdline.o: the differ does not support $KP_ARCH objects: create-diff-object: .*unsupported machine\|big-endian"; then
		pass result "stops at the differ with one line: $err"
	else
		fail result "neither a module nor the differ's one-line refusal (exit $rc)"
	fi
fi
[ -z "$scratch" ] || rm -rf "$scratch"
finish
