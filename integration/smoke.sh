#!/bin/bash
# smoke.sh: the integration smoke test. Builds (or reuses) the cached reference kernel,
# boots it in qemu with the kernel's own samples/livepatch/livepatch-sample.ko and checks
# /proc/cmdline before, patched, after disable and after unload
# (guest side: integration/smoke/livepatch-sample.sh), and loads an out-of-tree module
# built against the cached kbuild tree (smoke/extmod/, smoke/extmod.sh) and the in-tree
# sample modules kept as patch targets (smoke/sample-modules.sh) in the same boot.
# Then proves the harness itself
# fails a run whose guest check fails and names that check (smoke/selftest-fail.sh).
#
#   integration/smoke.sh [--no-selftest] [--timeout SECS]
#   ARCH=ppc64le|s390x integration/smoke.sh   the same on that architecture's reference
#                      kernel (cross-built) and qemu guest (make integration-smoke ARCH=...)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
die() { echo "smoke: error: $*" >&2; exit 1; }
KP_ARCH_TOOL=smoke
# shellcheck source=integration/arch.sh
. "$HERE/arch.sh"
kp_arch_init
selftest=1 tmo=180
while [ $# -gt 0 ]; do
	case $1 in
	--no-selftest) selftest=0 ;;
	--timeout) tmo=${2:?}; shift ;;
	*) die "unknown argument $1 (usage: smoke.sh [--no-selftest] [--timeout SECS])" ;;
	esac
	shift
done

if kp_arch_missing >/dev/null ||
	[ ! -r "${KPATCH_KERNEL_TARBALL:-/usr/src/linux-source-${KERNEL:-6.1}.tar.xz}" ] || ! command -v flex >/dev/null; then
	"$ROOT/scripts/install-deps" || die "scripts/install-deps failed"
fi

t0=$(date +%s)
kenv=$("$HERE/kernel-cache.sh" --print-env) || { echo "smoke: the kernel (integration/kernel-cache.sh) is not available" >&2; exit 1; }
eval "$kenv"
t1=$(date +%s)
echo "smoke: $KP_ARCH kernel $KVER ready in $((t1 - t0))s (cached build took ${KBUILD_SECONDS}s): $KBZIMAGE"
# x86_64 keeps the names it always had; other architectures get their own
sfx=; [ "$KP_ARCH" = x86_64 ] || sfx=-$KP_ARCH

ko=$("$HERE/build-extmod.sh" "$HERE/smoke/extmod" "${KPATCH_OUT:-$ROOT/test/out}/smoke/$KERNEL/kptest_smoke$sfx")
echo "smoke: out-of-tree module built against $KOBJ: $ko"

logdir=${KPATCH_OUT:-$ROOT/test/out}/smoke/$KERNEL	# (per checkout)
"$HERE/run-guest.sh" --timeout "$tmo" --log "$logdir/smoke$sfx.log" \
	"$KBZIMAGE" "$HERE/smoke/livepatch-sample.sh" \
	"$KOBJ/samples/livepatch/livepatch-sample.ko" \
	--script "$HERE/smoke/extmod.sh" --module "$ko" \
	--script "$HERE/smoke/sample-modules.sh" --module "$KOBJ/samples/kobject/kobject-example.ko" \
	--module "$KOBJ/samples/livepatch/livepatch-callbacks-mod.ko"

# the sample's cycle in guest seconds, from the printk times of its markers:
# insmod, the patching transition, disable (unpatching), rmmod
awk '$2 ~ /^KPTEST-/ && $3 == "livepatch-sample" || $3 ~ /^KPTEST-/ && $4 == "livepatch-sample" {
	t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t)
	for (i = 1; i <= NF; i++) if ($i == "livepatch-sample") { k = $(i - 1) " " $(i + 1); break }
	if (!(k in at)) at[k] = t
}
END {
	printf "smoke: '"$KP_ARCH"' livepatch-sample.ko (guest s): load %.2f, patch transition %.2f, disable %.2f, unload %.2f\n",
		at["KPTEST-PASS load"] - at["KPTEST-INFO cmdline"], at["KPTEST-PASS transition"] - at["KPTEST-PASS load"],
		at["KPTEST-PASS disable"] - at["KPTEST-PASS patched"], at["KPTEST-PASS unload"] - at["KPTEST-PASS after-disable"]
}' "$logdir/smoke$sfx.log"

if [ $selftest = 1 ]; then
	set +e
	out=$("$HERE/run-guest.sh" --timeout "$tmo" --log "$logdir/smoke-selftest-fail$sfx.log" \
		"$KBZIMAGE" "$HERE/smoke/selftest-fail.sh" 2>&1)
	rc=$?
	set -e
	if [ $rc -eq 1 ] && echo "$out" | grep -q '^run-guest: FAIL selftest-fail deliberate: '; then
		echo "smoke: PASS harness self-test ($KP_ARCH): a failing guest check fails the run and is named:"
		echo "$out" | grep '^run-guest: FAIL ' | sed 's/^/    /'
	else
		echo "$out" | sed 's/^/    /' >&2
		die "harness self-test: expected exit 1 naming 'selftest-fail deliberate', got exit $rc"
	fi
fi
echo "smoke: $KP_ARCH: all passed in $(( $(date +%s) - t0 ))s"
# the guest boot and, with the self-test, the harness's own failure path
echo "$((1 + selftest)) passed, 0 failed"
