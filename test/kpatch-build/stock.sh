#!/bin/bash
# test/kpatch-build/stock.sh: kpatch-build on Debian's stock kernel, host side.
#
#   KERNEL=debian-6.1|debian-6.12 test/kpatch-build/stock.sh
#
# The release Debian's meta package names (integration/kernel-cache.sh unpacks its
# image and runs kpatch-build --kernel RELEASE --fetch):
#   - a one-file patch builds with --kernel and no other option, building only its
#     object, and the module's vermagic is the release's;
#   - the rebuilt originals are held to the shipped binary: with one option of
#     Debian's config flipped (-c), a patch is refused naming what differs: the
#     compiler flags (CONFIG_STACKPROTECTOR_STRONG off: -fstack-protector) or,
#     with the same flags, the changed function's code (CONFIG_ZSWAP off changes
#     meminfo_proc_show); without the check both would build a module diffed
#     against code the kernel does not run;
#   - refusals before anything is built: a release apt does not know, a kbuild
#     tree of another release (-k), --sign-key without --sign-cert;
#   - the module linked from the template kbuild built once for the kernel
#     (lib/template.sh), with this run's name, without make;
#   - the harness's module dependencies: a softdep's provider named by alias
#     (integration/lib/build.sh kp_with_deps: nf_tables, crc32c_generic);
#   - signing with the user's own key and certificate (--sign-key/--sign-cert);
#   - --keep-tmp, then --from diff: the differ and the binary match again on the
#     kept objects, the same module.
# Each check through test/lib/result.sh; last line
# "kpatch-build-stock-KERNEL: N passed, N failed, N skipped".
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export KERNEL=${KERNEL:-debian-6.1}
OUT=$ROOT/test/out/kpatch-build-stock/$KERNEL
# shellcheck source=test/lib/result.sh
. "$HERE/../lib/result.sh"
result_init "kpatch-build-stock-$KERNEL" "$OUT"
finish() { result_summary; exit; }
# expect NAME WANT-EXIT REGEX RC LOG: kpatch-build exited WANT-EXIT with REGEX in LOG
expect() {
	local name=$1 want=$2 re=$3 rc=$4 log=$5
	if [ "$rc" -eq "$want" ] && grep -qE -- "$re" "$log"; then pass "$name" "$(grep -m1 -E -- "$re" "$log" | cut -c1-200)"
	else fail "$name" "exit $rc (want $want), no /$re/ in $log: $(grep -m1 'error' "$log" || tail -n1 "$log")"; fi
}

env=$("$ROOT/integration/kernel-cache.sh" --print-env 2>"$OUT.kc.log") || {
	fail kernel "integration/kernel-cache.sh failed: $(tail -n1 "$OUT.kc.log")"; finish; }
eval "$env"
make -C "$ROOT" -s all >/dev/null || { fail tools "make failed"; finish; }
# the release as a literal in an extended regex (6.12.118+deb12-amd64 has a '+')
KSTOCK_RE=$(printf '%s' "$KSTOCK" | sed 's/[.+]/[&]/g')
KPB=$ROOT/kpatch-build/kpatch-build
rm -rf "$OUT"; mkdir -p "$OUT"

# 1. zero configuration but the release
"$KPB" --kernel "$KSTOCK" -n cmdline -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/cmdline.log" 2>&1
expect build 0 'rebuilt originals match' $? "$OUT/cmdline.log"
vm=$(modinfo -F vermagic "$OUT/livepatch-cmdline.ko" 2>/dev/null)
case $vm in "$KSTOCK "*) pass vermagic "$vm" ;; *) fail vermagic "'$vm', not $KSTOCK" ;; esac

# 1b. the patch module linked from the template kbuild made once for this kernel
# (lib/template.sh): a second name gets its own module name, nothing of the
# placeholder, and no make run (with module BTF where the tree has a vmlinux)
tname=template-$$
"$KPB" --kernel "$KSTOCK" -n "$tname" -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/template.log" 2>&1
klog=
for f in "${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}/kpatch-build/logs/$tname-"*.log; do klog=$f; done
ko=$OUT/livepatch-$tname.ko
name=$(modinfo -F name "$ko" 2>/dev/null)
btf=absent; [ ! -f "$KOBJ/vmlinux" ] || btf=present
if ! grep -q '^(template: cache ' "${klog:-/dev/null}"; then fail template "no cached template build in ${klog:-no log}"
elif grep -q '^(no fast relink' "$klog"; then fail template "kbuild ran for the module link: $(grep -m1 -B3 '^(no fast relink' "$klog" | head -n1 | cut -c1-160)"
elif [ "$name" != "livepatch_${tname//-/_}" ] || grep -q kpngtemplatename "$ko"; then fail template "module name '$name' (or the placeholder) in $ko"
elif [ $btf = present ] && ! readelf -S "$ko" | grep -q ' \.BTF '; then fail template "no .BTF section though $KOBJ has a vmlinux"
else pass template "$name linked without make, $(grep -o 'template/[0-9a-f]*' "$klog"), BTF base $btf"
fi

# 1c. the harness loads a module target's dependencies first: nf_tables (stable
# fix 27) needs libcrc32c, whose softdep "pre: crc32c" names an alias, which
# crc32c_generic provides (found in .modinfo; in 6.12's .ko.xz through depmod)
# (in a subshell: build.sh is the harness's, its variables stay there)
# shellcheck source=/dev/null
deps=$(. "$ROOT/integration/lib/build.sh" && kp_with_deps "$(kp_module_path nf_tables)" | tr ' ' '\n' | sed 's|.*/||' | paste -sd' ')
case " $deps " in
*" crc32c_generic.ko"*" libcrc32c.ko"*" nf_tables.ko"*) pass module-deps "nf_tables after its providers: $deps" ;;
*) fail module-deps "nf_tables' softdep provider crc32c_generic not before libcrc32c: $deps" ;;
esac

# 2. the binary match, with Debian's config and one option flipped
flipped() {	# OPTION: Debian's config with CONFIG_OPTION off
	sed "s/^CONFIG_$1=.*/# CONFIG_$1 is not set/" "$KOBJ/.config" > "$OUT/config-no-$1"
	echo "$OUT/config-no-$1"
}
"$KPB" --kernel "$KSTOCK" -c "$(flipped STACKPROTECTOR_STRONG)" -n flags -o "$OUT" \
	"$ROOT/examples/cmdline.patch" > "$OUT/flags.log" 2>&1
expect refused-flags 2 'cannot be live-patched: fs/proc/cmdline.c: rebuilt with another compiler or flags.*-fstack-protector' $? "$OUT/flags.log"
"$KPB" --kernel "$KSTOCK" -c "$(flipped ZSWAP)" -n code -o "$OUT" \
	"$ROOT/integration/patches/01-proc-meminfo.patch" > "$OUT/code.log" 2>&1
expect refused-code 2 "cannot be live-patched: meminfo_proc_show: the rebuilt original is not $KSTOCK_RE's" $? "$OUT/code.log"

# 3. refusals before any build
"$KPB" --kernel 6.1.0-999-amd64 -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/norel.log" 2>&1
expect unknown-release 1 'no Debian kernel package linux-image-6.1.0-999-amd64' $? "$OUT/norel.log"
other=$(mktemp -d "$OUT/kbuild.XXXXXX")
cp -a "$KOBJ/." "$other/"
sed -i 's/#define UTS_RELEASE ".*"/#define UTS_RELEASE "6.1.0-0-amd64"/' "$other/include/generated/utsrelease.h"
"$KPB" --kernel "$KSTOCK" -k "$other" -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/release.log" 2>&1
expect other-release-kbuild 1 "is kernel release '6.1.0-0-amd64', not $KSTOCK_RE" $? "$OUT/release.log"
rm -rf "$other"
"$KPB" --kernel "$KSTOCK" --sign-key /dev/null -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/signarg.log" 2>&1
expect sign-key-alone 1 'sign-key and --sign-cert go together' $? "$OUT/signarg.log"

# 4. signed with the user's own key
openssl req -new -nodes -utf8 -sha256 -days 1 -batch -x509 -subj "/CN=kpatch-ng test key/" \
	-outform PEM -keyout "$OUT/key.pem" -out "$OUT/cert.pem" > /dev/null 2>&1
KPATCH_SIGN_KEY=$OUT/key.pem KPATCH_SIGN_CERT=$OUT/cert.pem \
	"$KPB" --kernel "$KSTOCK" -n signed -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/signed.log" 2>&1
rc=$?
signer=$(modinfo -F signer "$OUT/livepatch-signed.ko" 2>/dev/null)
if [ $rc -eq 0 ] && [ "$signer" = "kpatch-ng test key" ]; then pass signed "with the user's key (signer: $signer)"
else fail signed "exit $rc, signer '$signer' (log $OUT/signed.log)"; fi

# 5. kept, then from the differ on
# the same module but for its .BTF: on 6.12 the module's BTF (pahole) is not
# byte-identical from one build to the next (seen: only .BTF differed)
same_module() {
	local a b rc
	a=$(mktemp) b=$(mktemp)
	objcopy --remove-section=.BTF "$1" "$a" && objcopy --remove-section=.BTF "$2" "$b" && cmp -s "$a" "$b"
	rc=$?
	rm -f "$a" "$b"
	return $rc
}
"$KPB" --kernel "$KSTOCK" -n kept --keep-tmp -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/kept.log" 2>&1
rc=$?
kept=$(sed -n 's/^kpatch-build: scratch directory kept: \([^ ]*\) .*/\1/p' "$OUT/kept.log")
cp "$OUT/livepatch-kept.ko" "$OUT/kept-first.ko" 2>/dev/null
"$KPB" --kernel "$KSTOCK" -n kept --from diff -o "$OUT" "$ROOT/examples/cmdline.patch" > "$OUT/from-diff.log" 2>&1
rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -n "$kept" ] && grep -q "resuming from step diff in $kept" "$OUT/from-diff.log" &&
	grep -q 'rebuilt originals match' "$OUT/from-diff.log" && same_module "$OUT/kept-first.ko" "$OUT/livepatch-kept.ko"; then
	pass from-diff "--keep-tmp, then --from diff: the same module ($(grep -o '\[ *[0-9.]*s\] done' "$OUT/kept.log"), then $(grep -o '\[ *[0-9.]*s\] done' "$OUT/from-diff.log"))"
else
	fail from-diff "exit $rc, then $rc2 (logs $OUT/kept.log, $OUT/from-diff.log)"
fi
[ -z "$kept" ] || rm -rf "$kept"
finish
