#!/bin/bash
# test/demo/fresh.sh: the path a new user runs first, `make demo` on Debian's
# stock 6.1, with an empty cache: no unpacked source, prepared tree, marker,
# template or original object, only the release's .deb files (hard links to the
# ones in $KPATCH_CACHE, so no 1 GB download; fetched there first when missing).
# Two of those are spoiled first, as a full disk or a killed apt leaves them:
# the headers package cut short (its size is not apt's) and the linux-kbuild
# package with one byte changed (its SHA256 is not apt's); each must be named in
# one line and downloaded again (the two smallest: the download is not the test). Then the demo must pass: /proc/cmdline before,
# patched and after unloading, in Debian's own vmlinuz under qemu.
# Output: test/out/demo-fresh/ (the demo's transcript, its module and logs).
# Each check through test/lib/result.sh; last line "demo-fresh: N passed, N failed, N skipped".
set -uo pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=test/lib/result.sh
. "$TOP/test/lib/result.sh"
OUT=${KPATCH_TEST_OUT:-$TOP/test/out/demo-fresh}
rm -rf "$OUT"
result_init demo-fresh "$OUT"
CACHE=${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}
export KERNEL=debian-6.1

# the release's packages in the shared cache (downloaded once; later suites use them)
if ! kenv=$(KPATCH_CACHE=$CACHE "$TOP/integration/kernel-cache.sh" --print-env 2> "$OUT/shared-cache.log"); then
	fail shared-cache "Debian's stock 6.1 not fetched into $CACHE: $(tail -n 1 "$OUT/shared-cache.log")" "$OUT/shared-cache.log"
	result_summary; exit 1
fi
eval "$kenv"
pass shared-cache "$KSTOCK ($KSTOCK_VERSION) in $CACHE"

# the empty cache, on the same filesystem (hard links); one an interrupted run
# left (hours old: not a run going on beside this one) goes first
find "$CACHE" -maxdepth 1 -name '.fresh-test.*' -mmin +240 -exec rm -rf {} + 2>/dev/null
FRESH=$(mktemp -d "$CACHE/.fresh-test.XXXXXX") || { fail fresh-cache "cannot create a directory in $CACHE"; result_summary; exit 1; }
trap 'rm -rf "$FRESH"' EXIT
mkdir -p "$FRESH/debian/debs"
n=0
for f in "$CACHE/debian/debs/"*.deb; do
	ln "$f" "$FRESH/debian/debs/" && n=$((n + 1))
done
# spoiled copies (new files: the shared cache's stay intact)
cut=$(compgen -G "$FRESH/debian/debs/linux-headers-${KSTOCK}_${KSTOCK_VERSION/:/%3a}_*.deb" | head -n 1)
damaged=$(compgen -G "$FRESH/debian/debs/linux-kbuild-${KBASE}_${KSTOCK_VERSION/:/%3a}_*.deb" | head -n 1)
if [ -z "$cut" ] || [ -z "$damaged" ]; then
	fail fresh-cache "the headers or linux-kbuild package of $KSTOCK is not in $CACHE/debian/debs"
	result_summary; exit 1
fi
# (DEMO_FRESH_SPOIL=0: none spoiled, the empty cache alone)
if [ "${DEMO_FRESH_SPOIL:-1}" = 1 ]; then
	head -c 300000 "$cut" > "$cut.cut" && rm "$cut" && mv "$cut.cut" "$cut"
	cp "$damaged" "$damaged.bad" && printf 'X' | dd of="$damaged.bad" bs=1 seek=2000 conv=notrunc status=none &&
		rm "$damaged" && mv "$damaged.bad" "$damaged"
	pass fresh-cache "$n .deb files linked into $FRESH, nothing else; $(basename "$cut") cut to 300,000 bytes, one byte of $(basename "$damaged") changed"
else
	pass fresh-cache "$n .deb files linked into $FRESH, nothing else"
fi

# the release before this one, as a cache that has run before holds it (Debian
# replaces a release without notice): the new one must be named and fetched afresh
mkdir -p "$FRESH/stock/$KBASE.0-0-amd64/image" && : > "$FRESH/stock/$KBASE.0-0-amd64/image/.kpatch-ng-complete"

# the demo, as a new user runs it (make demo = integration/demo.sh)
t0=$SECONDS
KPATCH_CACHE=$FRESH KPATCH_DEMO_OUT=$OUT/demo "$TOP/integration/demo.sh" > "$OUT/demo.log" 2>&1
rc=$?
secs=$((SECONDS - t0))
if [ $rc -eq 0 ] && grep -q '^demo: done in' "$OUT/demo.log"; then
	pass demo "make demo's path with an empty cache: passed in $secs s"
else
	fail demo "exit $rc after $secs s (log $OUT/demo.log)" "$OUT/demo.log"
fi
# it started from nothing: the source unpacked and the tree prepared in the empty cache
if grep -q "unpacking linux-source-.* into $FRESH/src/" "$OUT/demo.log"; then pass cold-source "the source unpacked into the empty cache"
else fail cold-source "no 'unpacking linux-source ... into $FRESH/src/' in the demo's log" "$OUT/demo.log"; fi
if grep -q "Debian's $KBASE kernel is now $KSTOCK (this cache holds $KBASE.0-0-amd64): fetching and preparing it afresh" "$OUT/demo.log"; then
	pass release-moved "$(grep -m1 -o "Debian's $KBASE kernel is now.*" "$OUT/demo.log")"
else
	fail release-moved "no line naming the new release $KSTOCK beside the cached $KBASE.0-0-amd64" "$OUT/demo.log"
fi
# the spoiled packages: one line each, and downloaded again
[ "${DEMO_FRESH_SPOIL:-1}" = 1 ] || { cut=; damaged=; }
for f in ${cut:+"$cut"} ${damaged:+"$damaged"}; do
	b=$(basename "$f")
	if grep -qE "cached $b (is [0-9]+ bytes, apt's index says [0-9]+ \(cut short\?\)|does not have the SHA256 apt's index gives \(damaged\?\)): downloading it again" "$OUT/demo.log"; then
		pass "redownload-${b%%_*}" "$(grep -m1 -o "cached $b.*" "$OUT/demo.log")"
	else
		fail "redownload-${b%%_*}" "no line naming the spoiled $b" "$OUT/demo.log"
	fi
done
# what the demo showed (the guest's view of /proc/cmdline): patched only while loaded
for step in before loaded unloaded; do
	line=$(sed -n "s/.*KPTEST-INFO cmdline DEMO $step: //p" "$OUT/demo/guest.log" 2>/dev/null | head -n 1)
	patched=0; grep -q 'kpatch_demo=patched' <<<"$line" && patched=1
	if [ -n "$line" ] && [ $patched = "$([ $step = loaded ] && echo 1 || echo 0)" ]; then
		pass "cmdline-$step" "$line"
	else
		fail "cmdline-$step" "got '${line:-nothing}'"
	fi
done
result_summary
