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
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
die() { echo "smoke: error: $*" >&2; exit 1; }
selftest=1 tmo=180
while [ $# -gt 0 ]; do
	case $1 in
	--no-selftest) selftest=0 ;;
	--timeout) tmo=${2:?}; shift ;;
	*) die "unknown argument $1 (usage: smoke.sh [--no-selftest] [--timeout SECS])" ;;
	esac
	shift
done

if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ] ||
	[ ! -r "${KPATCH_KERNEL_TARBALL:-/usr/src/linux-source-${KERNEL:-6.1}.tar.xz}" ] || ! command -v flex >/dev/null; then
	"$ROOT/scripts/install-deps" || die "scripts/install-deps failed"
fi

t0=$(date +%s)
eval "$("$HERE/kernel-cache.sh" --print-env)"
t1=$(date +%s)
echo "smoke: kernel $KVER ready in $((t1 - t0))s (cached build took ${KBUILD_SECONDS}s): $KBZIMAGE"

ko=$("$HERE/build-extmod.sh" "$HERE/smoke/extmod" "$KPATCH_CACHE/extmod/$KERNEL/kptest_smoke")
echo "smoke: out-of-tree module built against $KOBJ: $ko"

logdir=$KPATCH_CACHE/logs/$KERNEL
"$HERE/run-guest.sh" --timeout "$tmo" --log "$logdir/smoke.log" \
	"$KBZIMAGE" "$HERE/smoke/livepatch-sample.sh" \
	"$KOBJ/samples/livepatch/livepatch-sample.ko" \
	--script "$HERE/smoke/extmod.sh" --module "$ko" \
	--script "$HERE/smoke/sample-modules.sh" --module "$KOBJ/samples/kobject/kobject-example.ko" \
	--module "$KOBJ/samples/livepatch/livepatch-callbacks-mod.ko"

if [ $selftest = 1 ]; then
	set +e
	out=$("$HERE/run-guest.sh" --timeout "$tmo" --log "$logdir/smoke-selftest-fail.log" \
		"$KBZIMAGE" "$HERE/smoke/selftest-fail.sh" 2>&1)
	rc=$?
	set -e
	if [ $rc -eq 1 ] && echo "$out" | grep -q '^run-guest: FAIL selftest-fail deliberate: '; then
		echo "smoke: PASS harness self-test: a failing guest check fails the run and is named"
	else
		echo "$out" | sed 's/^/    /' >&2
		die "harness self-test: expected exit 1 naming 'selftest-fail deliberate', got exit $rc"
	fi
fi
echo "smoke: all passed in $(( $(date +%s) - t0 ))s"
# the guest boot and, with the self-test, the harness's own failure path
echo "$((1 + selftest)) passed, 0 failed"
