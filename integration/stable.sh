#!/bin/bash
# stable.sh: real 6.1 stable-kernel fixes as live patches (make integration-stable).
#
#   KERNEL=debian-6.1|6.1-vulnerable integration/stable.sh [--only NN[,NN...]] [--no-boot] [--list]
#
# The six fixes that change a header (list.tsv) are built like the others: the
# header filter's identifier step (kpatch-build/lib/header-filter.sh) keeps
# only the includers that can reach what the hunk changes (#12's
# include/net/ip_fib.h: 1,601 compiled includers). With KPB_HEADER_FILTER=check
# in the environment (make check-full) each of them is also held to pp-compare
# on every includer.
#
# The fixes are ../shared/stable-fixes/patches/NN-*.patch (its README: 30 fixes of
# 6.1.187-6.1.189, all in Debian's 6.1.192, file-disjoint). On Debian's stock 6.1
# kernel (KERNEL=debian-6.1, the default) each one is already in the shipped code,
# so its live patch is the fix's revert, made here with diff -u of the fixed and
# the reverted files of the kernel's source: the same functions change.
# KERNEL=6.1-vulnerable is the other way: a kernel built from the same source
# with all 30 fixes reverted (integration/kernel-cache.sh, with a config that
# compiles every fix's code in: configs/6.1-vulnerable-x86_64.config), booted,
# and each fix itself live-patched into it.
#
# The patches and what is expected of them (integration/stable/NN.expect, .guest,
# .check: the format of lib/patchspec.sh, with its overrides) are laid out in
# test/out/stable/$KERNEL.patches/ and run by the zoo: each built with
# kpatch-build (--report), the built ones loaded in one boot of the kernel (a
# patched module's target loaded first; a target the guest cannot load leaves the
# patch deferred), transitioned, checked, disabled and unloaded.
#
# Prints the zoo's table, then the fixes' own (fix, target, build_s, result,
# reason) with the share built and loaded, the share refused by reason and what
# could not run; writes it to test/out/stable/$KERNEL/stable.txt and every fix's
# result with its kpatch-build report to test/out/stable/$KERNEL/results.json.
set -uo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
export KERNEL=${KERNEL:-debian-6.1}
FIXES=${KPATCH_STABLE_FIXES:-$ROOT/../shared/stable-fixes}
OUT=${KPATCH_OUT:-$ROOT/test/out}/stable/$KERNEL
ZARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--only) ZARGS+=(--only "${2:?}"); shift ;;
	--no-boot|--list) ZARGS+=("$1") ;;
	-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" | sed '$d'; exit 0 ;;
	*) echo "stable: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
# (a checkout without ../shared beside it, as a clone into a temporary
# directory: the fixes are not there to run; said, and skipped as the corpus is)
if [ ! -d "$FIXES/patches" ]; then
	echo "SKIP stable-fixes: no fixes in $FIXES/patches (../shared beside the checkout, or KPATCH_STABLE_FIXES)"
	echo "stable: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
case $KERNEL in
debian-6.1|6.1-vulnerable) ;;
*) echo "stable: KERNEL=$KERNEL: the fixes are run on Debian's stock 6.1 kernel (debian-6.1) or on 6.1 with them reverted (6.1-vulnerable)" >&2; exit 2 ;;
esac

# shellcheck source=integration/lib/patchspec.sh
. "$HERE/lib/patchspec.sh"

# the source of the kernel the fixes are reverted from
ENV=$("$HERE/kernel-cache.sh" --print-env) || { echo "stable: unpacking $KERNEL failed" >&2; exit 1; }
eval "$ENV"

# a fix's test name: NN-sNN-<the first words of its title>, short enough for a
# module name (livepatch-sNN-...)
test_name() {
	local b=$1 nn=${1%%-*} rest
	rest=${b#*-}; rest=${rest:0:22}; rest=${rest%-}
	echo "$nn-s$nn-$rest"
}

# the revert of fix $1 against the source tree $2: its files, fixed (a/) and
# reverted (b/), diffed
revert_patch() {
	local fix=$1 src=$2 w f rc=1
	w=$(mktemp -d) || return 1
	while read -r f; do
		if ! { mkdir -p "$w/a/$(dirname "$f")" "$w/b/$(dirname "$f")" &&
			cp "$src/$f" "$w/a/$f" && cp "$src/$f" "$w/b/$f"; }; then
			rm -rf "$w"; return 1
		fi
	done < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$fix")
	if (cd "$w/b" && patch -s -R -p1 --no-backup-if-mismatch < "$fix"); then
		(cd "$w" && diff -ru a b)
		[ $? = 1 ] && rc=0	# (diff: 1 = they differ)
	fi
	rm -rf "$w"
	return $rc
}

# a JSON string of $1
json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}; s=${s//$'\t'/ }; s=${s//$'\n'/ }
	printf '"%s"' "$s"
}

# the reason of test $1's outcome: the refusal or failure line of its build, the
# guest's failed check, or what the guest said about its target module
fix_reason() {
	local t=$1 res=$2 d=$OUT/$1 r=
	case $res in
	refused|FAIL)
		r=$(grep -m1 -E '^kpatch-build: (error|refus)|: refus|error:' "$d/build.log" 2>/dev/null | sed 's/^kpatch-build: error: //')
		[ -n "$r" ] || r=$(grep -m1 "^FAIL $t/" "$OUT/zoo.log" | sed "s|^FAIL $t/||") ;;
	esac
	[ -n "$r" ] || r=$(grep -o "KPTEST-INFO zoo-guest $t: target .*did not load" "$OUT/guest.log" 2>/dev/null | head -n1 | sed 's/.*: target/target/; s/$/: the patch stays deferred/')
	echo "${r:--}"
}

# the fixes' table and results.json, from the zoo's results and reports
# shellcheck disable=SC2094  # (results.txt is only read; stable.txt is complete before the awk reads it)
stable_table() {
	local out=$1 list=$2 t nn fix target bs res reason n=0 nl=0 nr=0 nf=0 ns=0 first=1
	local fmt='%-44s %-14s %7s  %-8s %-7s %s' ran fixname
	{
		head -n1 "$out/results.txt" | sed 's/^kpatch-ng stable fixes (reverted)/kpatch-ng stable fixes/'
		echo
		# shellcheck disable=SC2059
		printf "$fmt\n" fix target build_s result path reason
	} > "$out/stable.txt"
	printf '{\n  "schema": "kpatch-ng-stable-results/1",\n  "kernel": %s,\n  "fixes": [' "$(json_str "$KERNEL ${KSTOCK:-} ${KSTOCK_VERSION:-}")" > "$out/results.json"
	while read -r t _ bs build l _ _ _ result; do
		case $t in *:) continue ;; [0-9][0-9]-s*) ;; *) continue ;; esac	# (not the skipped list)
		nn=${t%%-*} n=$((n + 1))
		fixname=$(awk -F'\t' -v n="$nn" '$1 == n { print $2 }' "$list"); fix=${fixname:0:44}
		target=$(awk -F'\t' -v n="$nn" '$1 == n { print $10 }' "$list")
		case $build/$result in
		refused/PASS) res=refused nr=$((nr + 1)) ;;
		ok/PASS) if [ "$l" = - ]; then res=built; else res=loaded nl=$((nl + 1)); fi ;;
		*/SKIP) res=skipped ns=$((ns + 1)) ;;
		*) res=FAIL nf=$((nf + 1)) ;;
		esac
		reason=$(fix_reason "$t" "$res")
		[ "$res" = skipped ] && reason=$(sed -n "s/^  $t: //p" "$out/results.txt")
		ran=-	# the patched path run in the guest, ftrace saw it (NN.guest's "ran FUNC CMD")
		[ "$res" = loaded ] && grep -qE '^[^#]*(^|[^a-z_])ran [a-z_]' "$P/$t.guest" 2>/dev/null && ran=ran
		# shellcheck disable=SC2059
		printf "$fmt\n" "$fix" "$target" "$bs" "$res" "$ran" "$reason" >> "$out/stable.txt"
		[ $first = 1 ] || printf ',' >> "$out/results.json"
		first=0
		printf '\n    {"fix": %s, "test": %s, "target": %s, "build_seconds": %s, "result": %s, "path_ran": %s, "reason": %s, "report": %s}' \
			"$(json_str "$fixname")" "$(json_str "$t")" "$(json_str "$target")" \
			"$( [ "$bs" = - ] && echo null || echo "$bs")" "$(json_str "$res")" "$( [ "$ran" = ran ] && echo true || echo false)" "$(json_str "$reason")" \
			"$( [ -s "$out/$t/report.json" ] && cat "$out/$t/report.json" || echo null)" >> "$out/results.json"
	done < "$out/results.txt"
	printf '\n  ]\n}\n' >> "$out/results.json"
	{
		echo
		echo "path: ran = the fix's patched path run in the guest, ftrace saw the live patch's copy (integration/stable/NN.guest)"
		echo "$n fixes: $nl built and loaded ($((n ? nl * 100 / n : 0))%), $nr refused ($((n ? nr * 100 / n : 0))%), $nf failed, $ns not run"
		[ $nr = 0 ] || { echo "refused, by reason:"; awk '$4 == "refused" { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print "  " $0 }' "$out/stable.txt" | sort | uniq -c; }
	} >> "$out/stable.txt"
	echo
	cat "$out/stable.txt"
	[ $nf = 0 ]
}

P=$OUT.patches	# (the zoo empties its --out directory)
rm -rf "$P"; mkdir -p "$P"
for fix in "$FIXES"/patches/[0-9][0-9]-*.patch; do
	b=$(basename "$fix" .patch) nn=${b%%-*}
	t=$(test_name "$b")
	if [ "$KERNEL" = 6.1-vulnerable ]; then
		cp "$fix" "$P/$t.patch"	# (the base has it reverted: the fix is the live patch)
	else
		revert_patch "$fix" "$KSRC" > "$P/$t.patch" ||
			{ echo "stable: the revert of $b does not apply to $KSRC" >&2; exit 1; }
	fi
	# what is expected of fix NN: integration/stable/NN.* (lib/patchspec.sh's
	# format and overrides), resolved for this kernel, under the test's name
	ps_expect "$HERE/stable" "$nn" > "$P/$t.expect"
	[ -s "$P/$t.expect" ] || rm -f "$P/$t.expect"
	f=$(ps_file "$HERE/stable" "$nn.check")
	[ -f "$f" ] && cp "$f" "$P/$t.check"
	f=$(ps_file "$HERE/stable" "$nn.guest")
	[ -f "$f" ] && cat "$HERE/stable/guest-lib.sh" "$f" > "$P/$t.guest"
done

"$HERE/zoo.sh" --dir "$P" --out "$OUT" --title "kpatch-ng stable fixes (reverted)" ${ZARGS[@]+"${ZARGS[@]}"} 2>&1 |
	tee "$OUT.zoo.log"
zrc=${PIPESTATUS[0]}
mv "$OUT.zoo.log" "$OUT/zoo.log" 2>/dev/null
for a in ${ZARGS[@]+"${ZARGS[@]}"}; do [ "$a" = --list ] && exit "$zrc"; done
[ -f "$OUT/results.txt" ] || exit 1
stable_table "$OUT" "$FIXES/list.tsv" || zrc=1
exit "$zrc"
