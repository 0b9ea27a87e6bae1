#!/bin/bash
# suite-selftest.sh: the patch suite fails a run whose guest check fails, and names
# the patch and the check. Runs suite.sh on a copy of 01-proc-meminfo whose guest
# script (.guest) has one more check that cannot pass ("patched-deliberate": a text the
# patched /proc/meminfo does not have); the livepatch module is built with
# kpatch-build and booted as usual. Passes when suite.sh exits 1 and prints one
# failure (test/lib/result.sh's line)
#   FAIL 01-proc-meminfo/patched-deliberate: ...
# and the table marks the patch FAIL.
#
#   [ARCH=ppc64le|s390x] integration/suite-selftest.sh
# Last line (test/lib/result.sh) "suite-selftest: N passed, N failed, N skipped".
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KP_ARCH_TOOL=suite-selftest
# shellcheck source=integration/arch.sh
. "$HERE/arch.sh"
kp_arch_init
# shellcheck source=test/lib/result.sh
. "$HERE/../test/lib/result.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kp-suite-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
result_init suite-selftest "$tmp/result"
mkdir -p "$tmp/patches"
cp "$HERE/patches/01-proc-meminfo.patch" "$tmp/patches/"
# the deliberate check runs while the patch is loaded
# shellcheck disable=SC2016  # ($1 is for the guest script)
sed 's|^check_patched() {$|&\n\tkp_contains "$1-deliberate" /proc/meminfo "KpatchNg:       not this text"|' \
	"$HERE/patches/01-proc-meminfo.guest" > "$tmp/patches/01-proc-meminfo.guest"
grep -q 'deliberate' "$tmp/patches/01-proc-meminfo.guest" ||
	{ fail "$KP_ARCH/setup" "could not add the deliberate check"; result_summary; exit 1; }
KPATCH_SUITE_PATCHES=$tmp/patches KPATCH_OUT=$tmp/out "$HERE/suite.sh" > "$tmp/suite.out" 2>&1
rc=$?
fails=$(grep '^FAIL ' "$tmp/suite.out")
row=$(grep '^01-proc-meminfo ' "$tmp"/out/*/results.txt 2>/dev/null)
echo "suite-selftest: $KP_ARCH: suite.sh exited $rc; its failure lines:"
while IFS= read -r l; do echo "    $l"; done <<<"${fails:-(none)}"
echo "    table: ${row:-(none)}"
if [ $rc -eq 1 ] && [ "$(grep -c . <<<"$fails")" -eq 1 ] &&
	grep -q '^FAIL 01-proc-meminfo/patched-deliberate: ' <<<"$fails" &&
	grep -q ' FAIL$' <<<"$row"; then
	pass "$KP_ARCH/named-failure" "a failing guest check fails the suite, naming the patch and the check"
else
	sed 's/^/    /' "$tmp/suite.out" | tail -n 30
	fail "$KP_ARCH/named-failure" "wanted exit 1 and one line 'FAIL 01-proc-meminfo/patched-deliberate: ...'"
fi
result_summary
