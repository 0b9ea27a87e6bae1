#!/bin/bash
# build-extmod.sh: build an out-of-tree module against the cached reference kernel
# build, without writing into the source directory (it is copied first).
#
#   integration/build-extmod.sh SRC_DIR [OUT_DIR]
#
# SRC_DIR holds the module's .c files and a Kbuild (or Makefile with obj-m).
# OUT_DIR defaults to $KPATCH_CACHE/extmod/<basename of SRC_DIR>. Prints the paths of the
# built .ko files, one a line, on stdout. Uses KOBJ from the environment when set,
# else integration/kernel-cache.sh (building the kernel if needed). ARCH=ppc64le|s390x
# (integration/arch.sh) cross-builds against that architecture's reference kernel.
set -euo pipefail
die() { echo "build-extmod: error: $*" >&2; exit 1; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KP_ARCH_TOOL=build-extmod
# shellcheck source=integration/arch.sh
. "$HERE/arch.sh"
kp_arch_init

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: build-extmod.sh SRC_DIR [OUT_DIR]"
src=$(cd "$1" 2>/dev/null && pwd) || die "source directory $1 not found"
[ -f "$src/Kbuild" ] || [ -f "$src/Makefile" ] || die "$src has no Kbuild or Makefile"
if [ -z "${KOBJ:-}" ] || [ ! -f "$KOBJ/Module.symvers" ]; then
	kenv=$("$HERE/kernel-cache.sh" --print-env) || die "the kernel (integration/kernel-cache.sh) is not available"
	eval "$kenv"
fi
out=${2:-${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}/extmod/$(basename "$src")}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
[ "$out" != "$src" ] || die "OUT_DIR must differ from SRC_DIR (kbuild writes into it)"

rm -rf "$out"
mkdir -p "$out"
cp -a "$src/." "$out/"
log=$out/build.log
make -C "$KOBJ" ${KP_KMAKE[@]+"${KP_KMAKE[@]}"} M="$out" modules >"$log" 2>&1 || {
	tail -n 20 "$log" >&2
	die "make -C $KOBJ M=$out modules failed (log $log)"
}
kos=$(find "$out" -maxdepth 1 -name '*.ko' | sort)
[ -n "$kos" ] || die "no .ko built in $out (log $log)"
echo "$kos"
