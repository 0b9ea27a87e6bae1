#!/bin/bash
# test/kpatch/run-guest-test.sh: the runtime manager kpatch (kpatch/kpatch) on the
# reference kernel in qemu. Builds livepatch-cmdline (examples/cmdline.patch) and
# livepatch-consistency (integration/patches/18-consistency.patch) with kpatch-build,
# checks `kpatch info` on the host (sh, dash, bash, busybox sh), then boots the
# guest script guest-kpatch.sh: load, list, info, unload, install, load --all,
# unload --all, uninstall, and a transition kept pending by a sleeping task: --wait
# returns 1 naming it, list/pending name it, unload reverses, force completes.
# Output: test/out/kpatch/ (modules, build logs, guest.log). Last line: N passed, N failed.
set -euo pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${KPATCH_TEST_OUT:-$TOP/test/out/kpatch}
KPATCH=$TOP/kpatch/kpatch
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }
finish() { echo "kpatch-guest: $pass passed, $fail failed"; [ $fail -eq 0 ]; }

eval "$("$TOP/integration/kernel-cache.sh" --print-env)"
make -C "$TOP" -s all >/dev/null
rm -rf "$OUT"; mkdir -p "$OUT"

# the two modules, built by kpatch-build against the reference kernel
build() {	# NAME PATCH
	if "$TOP/kpatch-build/kpatch-build" -s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" \
		-o "$OUT" -n "$1" "$2" > "$OUT/build-$1.log" 2>&1; then
		ok "kpatch-build livepatch-$1.ko"
	else
		bad "kpatch-build livepatch-$1.ko" "$(tail -n 3 "$OUT/build-$1.log" | paste -sd' ')"
		finish; exit 1
	fi
}
build cmdline "$TOP/examples/cmdline.patch"
build consistency "$TOP/integration/patches/18-consistency.patch"
# two replaced functions (a changed static inline helper of both)
build static-inline "$TOP/integration/patches/06-static-inline.patch"

# static checks of the script; `info` of the built modules under each shell
for s in sh dash bash; do
	if shellcheck -s "$s" "$KPATCH" > "$OUT/shellcheck-$s.txt" 2>&1; then ok "shellcheck -s $s kpatch"
	else bad "shellcheck -s $s kpatch" "$(head -n 5 "$OUT/shellcheck-$s.txt" | paste -sd' ')"; fi
done
for sh in dash bash "busybox sh"; do
	# shellcheck disable=SC2086  # "busybox sh" is a command line
	out=$($sh "$KPATCH" info "$OUT/livepatch-consistency.ko" 2>&1) || true
	if grep -q '^  vmlinux:$' <<<"$out" && grep -q '^    hrtimer_nanosleep$' <<<"$out" &&
		grep -q '^name: *livepatch_consistency$' <<<"$out"; then
		ok "$sh: kpatch info names vmlinux: hrtimer_nanosleep"
	else
		bad "$sh: kpatch info" "$(paste -sd'|' <<<"$out")"
	fi
done
# the functions `kpatch info` decodes (od + awk) are those readelf shows in the
# module's .kpatch.strings (function, object pairs)
for ko in "$OUT"/livepatch-*.ko; do
	want=$(readelf -p .kpatch.strings "$ko" | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | paste -d' ' - - | sort)
	have=$(dash "$KPATCH" info "$ko" | awk '/^  [^ ].*:$/ { o = substr($1, 1, length($1) - 1); next }
		/^    / { print $1, o }' | sort)
	if [ -n "$want" ] && [ "$want" = "$have" ]; then ok "kpatch info $(basename "$ko"): $(paste -sd, <<<"$have")"
	else bad "kpatch info $(basename "$ko")" "readelf: $(paste -sd, <<<"$want"); kpatch: $(paste -sd, <<<"$have")"; fi
done
echo "--- kpatch info livepatch-cmdline.ko (host, dash):"
dash "$KPATCH" info "$OUT/livepatch-cmdline.ko" | sed 's/^/    /'

# the guest
set +e
"$TOP/integration/run-guest.sh" --timeout 300 --script-timeout 200 --log "$OUT/guest.log" \
	--file "$KPATCH:/bin/kpatch" "$KBZIMAGE" "$TOP/test/kpatch/guest-kpatch.sh" \
	"$OUT/livepatch-cmdline.ko" "$OUT/livepatch-consistency.ko" > "$OUT/run-guest.out" 2>&1
rc=$?
set -e
gp=$(grep -c 'KPTEST-PASS guest-kpatch ' "$OUT/guest.log" || true)
gf=$(grep -c 'KPTEST-FAIL guest-kpatch ' "$OUT/guest.log" || true)
pass=$((pass + gp)); fail=$((fail + gf))
grep 'KPTEST-FAIL' "$OUT/guest.log" | sed 's/.*KPTEST-FAIL /FAIL guest: /' || true
if [ $rc -ne 0 ] && [ "$gf" = 0 ]; then bad "guest" "$(head -n 3 "$OUT/run-guest.out" | paste -sd' ')"; fi
if grep -q 'KPTEST-END' "$OUT/guest.log"; then ok "guest ran to the end ($gp checks passed)"
else bad "guest" "no KPTEST-END (log $OUT/guest.log)"; fi
# what the guest's kpatch printed for the pending transition
for c in wait-pending list-pending force; do
	echo "--- guest: $(sed -n "s/.*KPTEST-INFO guest-kpatch RUN $c: //p" "$OUT/guest.log")"
	sed -n "s/.*KPTEST-INFO guest-kpatch OUT $c: /    /p" "$OUT/guest.log"
done
finish
