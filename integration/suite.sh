#!/bin/bash
# suite.sh: the boot-tested patch suite (make integration).
#
#   integration/suite.sh [--only NN[,NN...]] [--results FILE] [--timeout SECS] [--list]
#
# For every test NN-name in integration/patches/ (its files and what is expected
# of it: lib/patchspec.sh, the format the zoo shares; a file in a subdirectory
# for this kernel or architecture overrides), on the kernel KERNEL selects (6.1
# default, 6.12, debian-6.1, debian-6.12):
#   1. build: kpatch-build NN-name.patch against the kernel (-n name), or the
#      .expect's builds; a refusal test (refuse REGEX) must make kpatch-build fail
#      with output matching REGEX (the reason named), and is not booted; then the
#      optional NN-name.check, host-side checks of the built module;
#   2. boot, once for all the built tests (as the zoo does; 13 boots cost 1-2
#      minutes more per kernel): integration/run-guest.sh with every test's guest
#      script NN-name.guest in turn (each in its own shell and time bound, loading,
#      checking, disabling and unloading its own modules; its kernel-log checks
#      read the log from its own start), every livepatch-name.ko, the .expect's
#      modules and /lib/kp-suite.sh (guest/suite-lib.sh);
#   3. judge: the KPTEST markers of each test: every check passed, and its script
#      finished (KPTEST-DONE).
# Prints a table (patch, build seconds, load, checks, unload, guest seconds, result)
# and writes it to $KPATCH_OUT/$KERNEL/results.txt (default
# test/out/integration/$KERNEL/; results-subset.txt for an --only run); each test's
# build.log goes to $KPATCH_OUT/$KERNEL/NN-name/, the guest's console to
# $KPATCH_OUT/$KERNEL/guest.log. Then a line per test (test/lib/result.sh: PASS
# NN-name, SKIP NN-name: why, FAIL NN-name/<check>: <detail>, the failures last)
# and the closing line "integration: N passed, N failed, N skipped".
# Exit 0 when every test passed; 1 otherwise; 2 on bad usage.
set -uo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
# KPATCH_SUITE_PATCHES: another patch directory (the self-test, suite-selftest.sh)
PDIR=${KPATCH_SUITE_PATCHES:-$HERE/patches}
export KERNEL=${KERNEL:-6.1}
KP_ARCH_TOOL=integration
# shellcheck source=integration/arch.sh
. "$HERE/arch.sh"
kp_arch_init	# ARCH=ppc64le|s390x: that architecture's kernel and guest
# x86_64 keeps its directory names; another architecture's results go to $KERNEL-$ARCH
KDIR=$KERNEL; [ "$KP_ARCH" = x86_64 ] || KDIR=$KERNEL-$KP_ARCH
OUT=${KPATCH_OUT:-$ROOT/test/out/integration}/$KDIR
RESULTS=
ONLY=
QTMO=
LIST=0
while [ $# -gt 0 ]; do
	case $1 in
	--only) ONLY=${2:?}; shift ;;
	--results) RESULTS=${2:?}; shift ;;
	--timeout) QTMO=${2:?}; shift ;;
	--list) LIST=1 ;;
	-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" | sed '$d'; exit 0 ;;
	*) echo "integration: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
# a subset run does not overwrite the whole suite's table
if [ -n "$ONLY" ]; then RESULTS=${RESULTS:-$OUT/results-subset.txt}; else RESULTS=${RESULTS:-$OUT/results.txt}; fi

# shellcheck source=integration/lib/patchspec.sh
. "$HERE/lib/patchspec.sh"
mapfile -t tests < <(ps_tests "$PDIR" "$ONLY")
[ ${#tests[@]} -gt 0 ] || { echo "integration: no test selected in $PDIR" >&2; exit 2; }
if [ $LIST = 1 ]; then printf '%s\n' "${tests[@]}"; exit 0; fi

# dependencies, kernel, tools
if kp_arch_missing >/dev/null ||
	[ ! -r "${KPATCH_KERNEL_TARBALL:-/usr/src/linux-source-${KERNEL#debian-}.tar.xz}" ] || ! command -v flex >/dev/null; then
	"$ROOT/scripts/install-deps" || { echo "integration: scripts/install-deps failed" >&2; exit 1; }
fi
t0=$(date +%s)
ENV=$("$HERE/kernel-cache.sh" --print-env) || { echo "integration: building the reference kernel failed" >&2; exit 1; }
eval "$ENV"
echo "integration: $KP_ARCH ${KSTOCK:+stock }kernel $KVER ready in $(( $(date +%s) - t0 ))s (its cached build took ${KBUILD_SECONDS}s): $KBZIMAGE"
make -C "$ROOT" -s all >/dev/null || { echo "integration: make (the tools) failed" >&2; exit 1; }
# shellcheck source=integration/lib/build.sh
. "$HERE/lib/build.sh"
# shellcheck source=integration/lib/report.sh
. "$HERE/lib/report.sh"
[ -x "$KPB" ] || { echo "integration: $KPB missing" >&2; exit 1; }
mkdir -p "$OUT"

# kpatch-build puts kmod/include (kpatch-macros.h, kpatch-syscall.h) on the patched
# compile's include path (kpatch-build/lib/patched.sh); an older one did not, and then
# the compiler command carries it (CC is a command line for kpatch-build). The
# compiler is the kernel's: gcc, or the cross gcc of another architecture.
macros_cc() {
	if grep -qs 'KMOD_INC' "$ROOT/kpatch-build/lib/patched.sh"; then echo "${CC:-}"
	else echo "${CC:-$KP_CC} -I$ROOT/kmod/include"; fi
}

# kpb NAME OUTDIR PATCH... : kpatch-build with the test's settings
kpb() {
	local name=$1 dir=$2 cc=${CC:-}; shift 2
	[ "$PS_MACROS" = 0 ] || cc=$(macros_cc)
	CC=$cc kp_kpb "$name" "$dir" ${PS_KPB_ARGS[@]+"${PS_KPB_ARGS[@]}"} "$@"
}

# build TDIR: the test's modules into TDIR (their list in TDIR/modules.list)
build() {
	local tdir=$1 b
	if [ -n "$PS_BUILD_SCRIPT" ]; then
		kp_run_build_script "$PS_BUILD_SCRIPT" "$tdir"
	elif [ ${#PS_BUILDS[@]} -gt 0 ]; then
		for b in "${PS_BUILDS[@]}"; do
			kpb "${b%% *}" "$tdir" "$(ps_file "$PDIR" "${b#* }")" || return
			echo "$tdir/livepatch-${b%% *}.ko" >> "$tdir/modules.list"
		done
	else
		kpb "$PS_NAME" "$tdir" "$(ps_file "$PDIR" "$t.patch")"
	fi
}

rep_init integration "$OUT" '%-26s %7s  %-5s %-8s %-6s %7s  %s' patch build_s load checks unload guest_s result

# ROW[test]: its row's values after the name (|-separated), in test order at the end
declare -A ROW=() BSEC=()
BOOT_TESTS=() BOOT_SCRIPTS=() BOOT_MODS=() BOOT_TMO=0 BOOT_STMO=0
declare -A BOOT_HAVE=()
boot_module() {	# a module for the one boot, once
	[ -n "${BOOT_HAVE[$1]:-}" ] && return 0
	BOOT_HAVE[$1]=1
	BOOT_MODS+=(--module "$1")
}

TOTAL0=$(date +%s)
# 1. build every test (and judge the refusals and host checks)
for t in "${tests[@]}"; do
	ps_load "$PDIR" "$t"
	NAME=$PS_NAME
	if [ -n "$PS_ERROR" ]; then
		rep_fail "$t" expect "$PS_ERROR (the keys: integration/lib/patchspec.sh)"
		ROW[$t]="-|-|-|-|-|FAIL"
		continue
	fi
	if [ "$PS_OUTCOME" = skip ]; then
		echo "integration: [$t] skipped on $KERNEL $KP_ARCH: $PS_REASON"
		ROW[$t]="-|-|-|-|-|SKIP"
		rep_skip "$t" "$PS_REASON"
		continue
	fi
	tdir=$OUT/$t
	rm -rf "$tdir"; mkdir -p "$tdir"
	blog=$tdir/build.log
	echo "integration: [$t] building"
	b0=$(date +%s.%N)
	build "$tdir" > "$blog" 2>&1; brc=$?
	MODULES=()
	[ -f "$tdir/modules.list" ] && mapfile -t MODULES < "$tdir/modules.list"
	bsec=$(echo "$(date +%s.%N) - $b0" | bc)
	# the first kpatch-build on a machine also makes its cached original build:
	# that time is reported in the header, not in this patch's build time
	ob=$(sed -n 's/.*original build complete (\([0-9]*\)s).*/\1/p' "$blog" | head -n1)
	if [ -n "$ob" ]; then
		echo "integration: [$t] (kpatch-build's original kernel build took ${ob}s; not counted in build_s)"
		bsec=$(echo "$bsec - $ob" | bc)
	fi
	bsec=$(printf '%.1f' "$bsec")

	if [ "$PS_OUTCOME" = refuse ]; then
		reason=$(grep -m1 -E "$PS_REASON" "$blog" || true)
		if [ $brc -ne 0 ] && [ -n "$reason" ]; then
			echo "integration: [$t] refused as expected: $reason"
			ROW[$t]="$bsec|-|refused|-|-|PASS"
		else
			rep_fail "$t" refusal "kpatch-build exited $brc; wanted a refusal matching /$PS_REASON/; last line: $(grep -v '^kpatch-build: log:' "$blog" | tail -n1)"
			ROW[$t]="$bsec|-|-|-|-|FAIL"
		fi
		continue
	fi
	if [ $brc -ne 0 ]; then
		d=$(grep -m1 -E 'error|refus|cannot|failed' "$blog" || tail -n1 "$blog")
		rep_fail "$t" build "$d (log $blog)" "$blog"
		echo "integration: [$t] build FAILED: $d"
		ROW[$t]="$bsec|-|-|-|-|FAIL"
		continue
	fi
	if [ -f "$(ps_file "$PDIR" "$t.check")" ]; then
		if ! d=$(kp_run_check "$(ps_file "$PDIR" "$t.check")" "$tdir/livepatch-$NAME.ko" 2>&1); then
			rep_fail "$t" build-check "${d:-$t.check failed}"
			echo "integration: [$t] build check FAILED: $d"
			ROW[$t]="$bsec|-|-|-|-|FAIL"
			continue
		fi
		echo "integration: [$t] build check: $d"
	fi
	[ -f "$tdir/livepatch-$NAME.ko" ] && boot_module "$tdir/livepatch-$NAME.ko"
	for m in ${MODULES[@]+"${MODULES[@]}"} ${PS_MODULES[@]+"${PS_MODULES[@]}"}; do
		case $m in /*) ;; *) m=$(kp_tree_module "$m") ;; esac
		boot_module "$m"
	done
	BSEC[$t]=$bsec
	BOOT_TESTS+=("$t") BOOT_SCRIPTS+=(--script "$(ps_file "$PDIR" "$t.guest")")
	tmo=${PS_TIMEOUT:-${QTMO:-120}}
	BOOT_TMO=$((BOOT_TMO + tmo))
	[ $((tmo - 10)) -le "$BOOT_STMO" ] || BOOT_STMO=$((tmo - 10))
done

# 2. one boot: every built test's guest script in turn, each in its own shell with
# its own time bound (guest/init), its checks named by it (KPTEST-* markers), its
# kernel-log checks reading the log from its own start (guest/suite-lib.sh); every
# script loads, checks, disables and unloads its own modules
GLOG=$OUT/guest.log
if [ ${#BOOT_TESTS[@]} -gt 0 ]; then
	echo "integration: booting once for ${#BOOT_TESTS[@]} test(s): ${BOOT_TESTS[*]}"
	"$HERE/run-guest.sh" --timeout $((BOOT_TMO + 60)) --script-timeout "$BOOT_STMO" --log "$GLOG" \
		--file "$HERE/guest/suite-lib.sh:/lib/kp-suite.sh" \
		${BOOT_SCRIPTS[@]+"${BOOT_SCRIPTS[@]}"} ${BOOT_MODS[@]+"${BOOT_MODS[@]}"} "$KBZIMAGE" > "$OUT/run.out" 2>&1
	grc=$?
	markers=$(grep -o 'KPTEST-[A-Z]*.*' "$GLOG" 2>/dev/null || true)
	BOOT_S=$(echo "$markers" | sed -n 's/^KPTEST-BOOT uptime=\([0-9.]*\).*/\1/p' | head -1)
	echo "integration: the boot: run-guest.sh exited $grc $(grep -o '(boot to /init[^()]*)' "$OUT/run.out" | tail -n 1)"
fi

# 3. judge each booted test by its markers
st() {	# status of check $2 of test $1: ok / FAIL / -
	if grep -q "^KPTEST-FAIL $1 $2:" <<<"$markers"; then echo FAIL
	elif grep -q "^KPTEST-PASS $1 $2\$" <<<"$markers"; then echo ok
	else echo -; fi
}
prev=${BOOT_S:-0}
for t in ${BOOT_TESTS[@]+"${BOOT_TESTS[@]}"}; do
	npass=$(grep -c "^KPTEST-PASS $t " <<<"$markers" || true)
	nfail=$(grep -c "^KPTEST-FAIL $t " <<<"$markers" || true)
	# the test's seconds in the guest: from the previous test's end (or /init) to its own
	done_s=$(sed -n "s/^KPTEST-DONE $t uptime=\([0-9.]*\).*/\1/p" <<<"$markers")
	gsec=-
	[ -z "$done_s" ] || { gsec=$(printf '%.1f' "$(echo "$done_s - $prev" | bc)"); prev=$done_s; }
	if [ -n "$done_s" ] && [ "$nfail" = 0 ] && [ "$npass" -gt 0 ]; then res=PASS; else res=FAIL; fi
	ROW[$t]="${BSEC[$t]}|$(st "$t" load)|$npass/$((npass + nfail))|$(st "$t" unload)|$gsec|$res"
	if [ $res = FAIL ]; then
		# run-guest's lines "run-guest: FAIL <test> <check>: <detail>"
		while read -r _ _ gt l; do
			[ "$gt" = "$t" ] && rep_fail "$gt" "${l%%:*}" "${l#*: }" "$GLOG"
		done < <(grep '^run-guest: FAIL ' "$OUT/run.out")
		[ -n "${REP_FAILS[$t]:-}" ] || [ -n "$done_s" ] ||
			rep_fail "$t" guest "the guest did not finish the test (run-guest.sh exited $grc: $(grep -m1 'FAIL' "$OUT/run.out" || head -n1 "$OUT/run.out"))" "$GLOG"
		[ -n "${REP_FAILS[$t]:-}" ] || rep_fail "$t" guest "no check ran" "$GLOG"
		echo "integration: [$t] FAILED (log $GLOG)"
	else
		echo "integration: [$t] passed: $npass checks"
	fi
done
# the guest's own failures (a kernel warning, a timeout) not tied to one test
if [ ${#BOOT_TESTS[@]} -gt 0 ] && [ "${grc:-0}" -ne 0 ]; then
	gfail=0
	for t in "${BOOT_TESTS[@]}"; do [ "${ROW[$t]##*|}" = FAIL ] && gfail=1; done
	[ $gfail = 1 ] || rep_fail guest run "run-guest.sh exited $grc: $(grep -m1 'FAIL' "$OUT/run.out" || tail -n1 "$OUT/run.out")" "$GLOG"
fi
for t in "${tests[@]}"; do
	IFS='|' read -ra v <<<"${ROW[$t]}"
	rep_row "$t" "${v[@]}"
done

# kpatch-build's own cached -ffunction-sections build of the same kernel
# (the entry the builds used, as their logs name it; else one made for this config)
ORIG_DIR=$(sed -n 's/.*building original kernel (cached: \(.*\))$/\1/p' "$OUT"/*/build.log 2>/dev/null | head -n1)
[ -n "$ORIG_DIR" ] || ORIG_DIR=$(grep -lx "config=$KCONFIG" "$KPATCH_CACHE"/kpatch-build/orig/*/info 2>/dev/null | head -n1 | xargs -r dirname)
ORIG_S=$(sed -n 's/^build_seconds=//p' "${ORIG_DIR:-/dev/null}/info" 2>/dev/null)
preamble=$(
	if [ -n "${KSTOCK:-}" ]; then
		echo "kpatch-ng integration suite, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), Debian's stock kernel $KSTOCK"
		echo "(linux-image-$KSTOCK $KSTOCK_VERSION, booted as shipped; kpatch-build --kernel $KSTOCK, no kernel build),"
	else
		echo "kpatch-ng integration suite, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $KP_ARCH kernel $KVER ($KC_KEY),"
		echo "reference kernel build ${KBUILD_SECONDS}s, kpatch-build original build ${ORIG_S:-?}s (both cached),"
	fi
	echo "suite wall time $(( $(date +%s) - TOTAL0 ))s, one boot (to /init ${BOOT_S:--}s guest time);"
	echo "build_s = kpatch-build wall time, guest_s = the test's guest seconds in that boot"
)
rep_write "$RESULTS" "$KERNEL $KP_ARCH" <<<"$preamble"
