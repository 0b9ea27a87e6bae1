#!/bin/bash
# test/kpatch/run-guest-test.sh: the runtime manager kpatch (kpatch/kpatch) on the
# kernel KERNEL names in qemu (make check: Debian's stock 6.1; make check-full:
# the 6.1 reference kernel). Builds livepatch-cmdline (examples/cmdline.patch) and
# livepatch-consistency (integration/patches/18-consistency.patch) with kpatch-build,
# checks `kpatch info` on the host (sh, dash, bash, busybox sh), then boots the
# guest script guest-kpatch.sh: load, list, info, unload, install, load --all,
# unload --all, uninstall, and a transition kept pending by a sleeping task: --wait
# returns 1 naming it, list/pending name it, unload reverses, force completes.
# Output: test/out/kpatch/ (modules, build logs, guest.log). Each check (the guest's
# too) through test/lib/result.sh; last line "kpatch-guest: N passed, N failed, N skipped".
set -euo pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${KPATCH_TEST_OUT:-$TOP/test/out/kpatch}
KPATCH=$TOP/kpatch/kpatch
# shellcheck source=test/lib/result.sh
. "$TOP/test/lib/result.sh"

kenv=$("$TOP/integration/kernel-cache.sh" --print-env) || { echo "kpatch-guest: the kernel (integration/kernel-cache.sh) is not available" >&2; exit 1; }
eval "$kenv"
# the kernel's options: Debian's stock kernel by its release (KERNEL=debian-6.1,
# make check), a reference kernel by its source, config and vmlinux
ROOT=$TOP
# shellcheck source=integration/lib/build.sh
. "$ROOT/integration/lib/build.sh"
kp_kernel_args
make -C "$TOP" -s all >/dev/null
rm -rf "$OUT"
result_init kpatch-guest "$OUT"

# the two modules, built by kpatch-build against the reference kernel
build() {	# NAME PATCH
	if "$TOP/kpatch-build/kpatch-build" "${KP_KERNEL_ARGS[@]}" -o "$OUT" -n "$1" "$2" > "$OUT/build-$1.log" 2>&1; then
		pass "build-$1" "kpatch-build livepatch-$1.ko"
	else
		fail "build-$1" "kpatch-build livepatch-$1.ko: $(tail -n 3 "$OUT/build-$1.log" | paste -sd' ')"
		result_summary; exit 1
	fi
}
build cmdline "$TOP/examples/cmdline.patch"
build consistency "$TOP/integration/patches/18-consistency.patch"
# two replaced functions (a changed static inline helper of both)
build static-inline "$TOP/integration/patches/06-static-inline.patch"

# static checks of the script; `info` of the built modules under each shell
for s in sh dash bash; do
	if shellcheck -s "$s" "$KPATCH" > "$OUT/shellcheck-$s.txt" 2>&1; then pass "shellcheck-$s" "shellcheck -s $s kpatch"
	else fail "shellcheck-$s" "shellcheck -s $s kpatch: $(head -n 5 "$OUT/shellcheck-$s.txt" | paste -sd' ')"; fi
done
for sh in dash bash "busybox sh"; do
	# shellcheck disable=SC2086  # "busybox sh" is a command line
	info_out=$($sh "$KPATCH" info "$OUT/livepatch-consistency.ko" 2>&1) || true
	if grep -q '^  vmlinux:$' <<<"$info_out" && grep -q '^    hrtimer_nanosleep$' <<<"$info_out" &&
		grep -q '^name: *livepatch_consistency$' <<<"$info_out"; then
		pass "info-${sh// /-}" "$sh: kpatch info names vmlinux: hrtimer_nanosleep"
	else
		fail "info-${sh// /-}" "$sh: kpatch info: $(paste -sd'|' <<<"$info_out")"
	fi
done
# the functions `kpatch info` decodes (od + awk) are those readelf shows in the
# module's .kpatch.strings (function, object pairs)
for ko in "$OUT"/livepatch-*.ko; do
	want=$(readelf -p .kpatch.strings "$ko" | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | paste -d' ' - - | sort)
	have=$(dash "$KPATCH" info "$ko" | awk '/^  [^ ].*:$/ { o = substr($1, 1, length($1) - 1); next }
		/^    / { print $1, o }' | sort)
	if [ -n "$want" ] && [ "$want" = "$have" ]; then pass "info-$(basename "$ko" .ko)" "$(paste -sd, <<<"$have")"
	else fail "info-$(basename "$ko" .ko)" "readelf: $(paste -sd, <<<"$want"); kpatch: $(paste -sd, <<<"$have")"; fi
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
# each guest check is one of this suite's (its passes counted, not printed)
gp=0 gf=0
while read -r verdict check reason; do
	if [ "$verdict" = KPTEST-PASS ]; then
		RESULT_QUIET_PASS=1 pass "guest/$check"; gp=$((gp + 1))
	else
		fail "guest/$check" "$reason"; gf=$((gf + 1))
	fi
done < <(sed -n 's/.*\(KPTEST-\(PASS\|FAIL\)\) guest-kpatch /\1 /p' "$OUT/guest.log" | tr -d '\r')
if [ $rc -ne 0 ] && [ "$gf" = 0 ]; then fail guest "$(head -n 3 "$OUT/run-guest.out" | paste -sd' ')"; fi
if grep -q 'KPTEST-END' "$OUT/guest.log"; then pass guest "ran to the end ($gp checks passed)"
else fail guest "no KPTEST-END (log $OUT/guest.log)"; fi
# what the guest's kpatch printed for the pending transition
for c in wait-pending list-pending force; do
	echo "--- guest: $(sed -n "s/.*KPTEST-INFO guest-kpatch RUN $c: //p" "$OUT/guest.log")"
	sed -n "s/.*KPTEST-INFO guest-kpatch OUT $c: /    /p" "$OUT/guest.log"
done
result_summary
