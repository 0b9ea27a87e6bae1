#!/bin/bash
# demo.sh (make demo): the whole loop for a newcomer. By default on Debian's stock
# kernel (KERNEL=debian-6.1: the release linux-image-amd64 names, as shipped;
# KERNEL=debian-6.12 the 6.12 one), with no kernel build at all; KERNEL=6.1 or 6.12
# selects a reference kernel built from Debian's linux-source-$KERNEL:
#   1. install what is missing (scripts/install-deps), build the tools;
#   2. the kernel: a stock one's image package downloaded and unpacked (cached), or
#      the reference kernel built (cached after the first run, ~3 min);
#   3. kpatch-build examples/cmdline.patch -> livepatch-cmdline.ko: for a stock
#      kernel with --kernel RELEASE (its headers, -dbg vmlinux and source fetched,
#      only fs/proc/cmdline.o built); for a reference kernel with -s -c -v (the
#      first run makes kpatch-build's cached -ffunction-sections build, ~4 min);
#   4. boot the kernel in qemu and show /proc/cmdline before loading the
#      patch, while it is loaded, and after it is disabled and unloaded.
# Exit 0 when every guest check passed. Output: test/out/demo/$KERNEL/ (module, logs;
# test/out/demo/$KERNEL-$ARCH/ for ARCH=ppc64le|s390x).
set -euo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
export KERNEL=${KERNEL:-debian-6.1}
PATCH=${1:-$ROOT/examples/cmdline.patch}
die() { echo "demo: error: $*" >&2; exit 1; }
say() { printf '\n== %s\n' "$*"; }
T0=$(date +%s)
KP_ARCH_TOOL=demo
# shellcheck source=integration/arch.sh
. "$HERE/arch.sh"
kp_arch_init	# ARCH=ppc64le|s390x: that architecture's kernel and guest
# x86_64 keeps its directory; another architecture's output goes to $KERNEL-$ARCH
KDIR=$KERNEL; [ "$KP_ARCH" = x86_64 ] || KDIR=$KERNEL-$KP_ARCH
OUT=${KPATCH_DEMO_OUT:-$ROOT/test/out/demo/$KDIR}

if kp_arch_missing >/dev/null ||
	[ ! -r "${KPATCH_KERNEL_TARBALL:-/usr/src/linux-source-${KERNEL#debian-}.tar.xz}" ] || ! command -v flex >/dev/null ||
	! command -v pahole >/dev/null ||
	! command -v bc >/dev/null; then
	say "installing dependencies (scripts/install-deps)"
	"$ROOT/scripts/install-deps" || die "scripts/install-deps failed"
fi
make -C "$ROOT" -s all >/dev/null || die "building the tools (make) failed"

case $KERNEL in
debian-*)
	say "1/3 Debian's stock kernel (the release Debian's ${KERNEL#debian-} meta package names, as shipped; no kernel build)"
	t=$(date +%s)
	kenv=$("$HERE/kernel-cache.sh" --print-env) || die "fetching Debian's stock kernel failed"
	eval "$kenv"
	echo "kernel $KVER (linux-image-$KVER $KSTOCK_VERSION) ready in $(( $(date +%s) - t ))s: $KBZIMAGE"
	kpb=(--kernel "$KSTOCK") ;;
*)
	say "1/3 reference kernel (Debian linux-source-$KERNEL, integration/configs/$KERNEL-$KP_ARCH.config)"
	t=$(date +%s)
	kenv=$("$HERE/kernel-cache.sh" --print-env) || die "building the reference kernel failed"
	eval "$kenv"
	echo "kernel $KVER ready in $(( $(date +%s) - t ))s (its cached build took ${KBUILD_SECONDS}s): $KBZIMAGE"
	kpb=(-s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX") ;;
esac

say "2/3 kpatch-build ${PATCH#"$ROOT"/}"
sed 's/^/    /' "$PATCH"
rm -rf "$OUT"; mkdir -p "$OUT"
if [ -n "${KSTOCK:-}" ]; then
	echo "+ kpatch-build --kernel $KSTOCK -n cmdline -o ${OUT#"$ROOT"/} ${PATCH#"$ROOT"/}"
else
	echo "+ kpatch-build -s \$KSRC -c \$KCONFIG -v \$KVMLINUX -n cmdline -o ${OUT#"$ROOT"/} ${PATCH#"$ROOT"/}"
fi
t=$(date +%s)
"$ROOT/kpatch-build/kpatch-build" "${kpb[@]}" -n cmdline -o "$OUT" "$PATCH" 2>&1 |
	tee "$OUT/kpatch-build.log" | sed -u 's/^/    /'
[ "${PIPESTATUS[0]}" -eq 0 ] || die "kpatch-build failed (log $OUT/kpatch-build.log)"
echo "livepatch-cmdline.ko built in $(( $(date +%s) - t ))s"

say "3/3 boot it in qemu (TCG): /proc/cmdline before, loaded, unloaded"
set +e
"$HERE/run-guest.sh" --timeout 120 --log "$OUT/guest.log" "$KBZIMAGE" "$HERE/demo/cmdline.sh" \
	"$OUT/livepatch-cmdline.ko" > "$OUT/run.out" 2>&1
rc=$?
set -e
show() { sed -n "s/.*KPTEST-INFO cmdline DEMO $1: //p" "$OUT/guest.log" | head -n1; }
printf '  %-32s %s\n' "before loading the patch:" "$(show before)"
printf '  %-32s %s\n' "livepatch-cmdline.ko loaded:" "$(show loaded)"
printf '  %-32s %s\n' "" "($(show sysfs))"
printf '  %-32s %s\n' "after disabling and unloading:" "$(show unloaded)"
echo
sed 's/^/  /' "$OUT/run.out"
if [ $rc -ne 0 ]; then
	die "the guest checks failed (console log $OUT/guest.log)"
fi
echo "demo: done in $(( $(date +%s) - T0 ))s"
