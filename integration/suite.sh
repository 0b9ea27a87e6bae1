#!/bin/bash
# suite.sh: the boot-tested patch suite (make integration).
#
#   integration/suite.sh [--only NN[,NN...]] [--results FILE] [--timeout SECS] [--list]
#
# For every test NN-name in integration/patches/ (a NN-name.patch and/or NN-name.conf,
# and a guest script NN-name.sh unless the test is a refusal), on the reference kernel
# KERNEL selects (6.1 default, 6.12); a file of the same name in
# integration/patches/$KERNEL/ replaces the common one for that kernel:
#   1. build: kpatch-build NN-name.patch against the cached reference kernel
#      (-s $KSRC -c $KCONFIG -v $KVMLINUX -n name), or the conf's build_test function;
#      a refusal test (REFUSE=regex in the conf) must make kpatch-build fail with output
#      matching the regex (the reason named), and is not booted;
#   2. boot: integration/run-guest.sh with the guest script, livepatch-name.ko, the
#      conf's extra modules and /lib/kp-suite.sh (guest/suite-lib.sh);
#   3. judge: the KPTEST markers of the test: every check passed, and KPTEST-END seen.
# Prints a table (patch, build seconds, load, checks, unload, boot, result) and writes it
# to $KPATCH_OUT/$KERNEL/results.txt (default test/out/integration/$KERNEL/;
# results-subset.txt for an --only run); each test's build.log and guest.log go to
# $KPATCH_OUT/$KERNEL/NN-name/.
# Exit 0 when every test passed; 1 otherwise, after lines
#   integration: FAIL <patch> <check>: <detail>
# naming each failed patch and check. 2 on bad usage.
#
# NN-name.conf (bash, optional) may set:
#   NAME=...           livepatch name (default: name, i.e. NN- stripped)
#   REFUSE='regex'     refusal test: kpatch-build must fail with output matching regex
#   MACROS=1           the patch includes kpatch-macros.h / kpatch-syscall.h (kmod/include)
#   KPB_ARGS=(...)     more kpatch-build options
#   MODULES=(...)      more modules for the guest (paths relative to $KOBJ, or absolute)
#   TIMEOUT=SECS       qemu wall-clock bound (default 120)
#   ARCHES="x86_64"    the architectures the test applies to (default: all); on another
#   ARCH_REASON=...    one it is listed as skipped, with this reason, in the table
#   SKIP=REASON        not run on this kernel (a per-kernel conf: patches/debian/...)
#   build_test()       a function replacing step 1's kpatch-build; it gets the output
#                      directory as $1 and lists the modules it built in $1/modules.list
#   check_build()      host-side checks of the built module(s) before booting (gets the
#                      output directory as $1; prints one line; non-zero = failure);
#                      lp_funcs KO and lp_klp_syms KO help (patched functions, klp symbols)
set -uo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../test/lib/grepq.sh"
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

# the file $1 of a test for this kernel and architecture: integration/patches/$KERNEL-$ARCH/$1,
# else patches/$ARCH/$1 (another architecture), else patches/$KERNEL/$1, else for a
# stock kernel patches/debian/$1 then patches/$KBASE/$1 (its source's), else the common one
tfile() {
	local d
	# (a stock kernel's own files, else those of the source it is: debian-6.12, 6.12)
	for d in "$KERNEL-$KP_ARCH" "$KP_ARCH" "$KERNEL" ${KSTOCK:+debian} ${KBASE:+"$KBASE"}; do
		[ -e "$PDIR/$d/$1" ] && { echo "$PDIR/$d/$1"; return; }
	done
	echo "$PDIR/$1"
}

tests=()
for f in "$PDIR"/[0-9][0-9]-*.patch "$PDIR"/[0-9][0-9]-*.conf; do
	[ -e "$f" ] || continue
	b=$(basename "$f"); b=${b%.*}
	case " ${tests[*]-} " in *" $b "*) continue ;; esac
	if [ -n "$ONLY" ]; then
		case ",$ONLY," in *",${b%%-*},"*|*",$b,"*) ;; *) continue ;; esac
	fi
	tests+=("$b")
done
mapfile -t tests < <(printf '%s\n' "${tests[@]}" | sort)
[ ${#tests[@]} -gt 0 ] && [ -n "${tests[0]}" ] || { echo "integration: no test selected in $PDIR" >&2; exit 2; }
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
KPB=$ROOT/kpatch-build/kpatch-build
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

# kpb NAME OUTDIR PATCH... : run kpatch-build against the reference kernel
kpb() {
	local name=$1 dir=$2; shift 2
	local cc=${CC:-}
	[ "${MACROS:-0}" = 0 ] || cc=$(macros_cc)
	# an empty CC: kpatch-build's default compiler, ${CROSS_COMPILE}gcc
	if [ -n "${KSTOCK:-}" ]; then	# a stock kernel: kpatch-build finds all by itself
		CC=$cc "$KPB" --kernel "$KSTOCK" -o "$dir" -n "$name" ${KPB_ARGS[@]+"${KPB_ARGS[@]}"} "$@"
		return
	fi
	CC=$cc "$KPB" -s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" -o "$dir" -n "$name" \
		${KPB_ARGS[@]+"${KPB_ARGS[@]}"} "$@"
}

# for check_build: the functions a livepatch module replaces ("name objname" pairs
# from .kpatch.strings) and its klp symbols (.klp.sym.<obj>.<name>,<sympos>)
lp_funcs() { readelf -p .kpatch.strings "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | paste -sd' '; }
lp_klp_syms() { readelf -sW "$1" | grep -o '\.klp\.sym\.[^ ]*' | sort -u | paste -sd' '; }
# want WHAT HAVE NEEDLE...: every NEEDLE is a word of HAVE
want() {
	local what=$1 have=" $2 " n; shift 2
	for n in "$@"; do
		case $have in *" $n "*) ;; *) echo "$what lacks '$n' (has:$have)"; return 1 ;; esac
	done
	echo "$what: $*"
}

# a module named by its path in the build tree: the reference kernel's, or a stock
# kernel's in its image package (.ko or .ko.xz)
suite_module() {
	local f
	[ -n "${KSTOCK:-}" ] || { echo "$KOBJ/$1"; return; }
	for f in "$KMODDIR/kernel/$1" "$KMODDIR/kernel/$1.xz" "$KMODDIR/kernel/$1.zst"; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "$KMODDIR/kernel/$1"
}

FAILS=()
SKIPS=()
ROWS=()
row() { ROWS+=("$(printf '%-26s %7s  %-5s %-8s %-6s %6s  %s' "$@")"); }
header=$(printf '%-26s %7s  %-5s %-8s %-6s %6s  %s' patch build_s load checks unload boot_s result)

# first-build note: the cached -ffunction-sections original build of kpatch-build
TOTAL0=$(date +%s)
for t in "${tests[@]}"; do
	# per-test settings
	unset -f build_test check_build
	NAME=${t#[0-9][0-9]-} REFUSE= MACROS=0 KPB_ARGS=() MODULES=() TIMEOUT=${QTMO:-120}
	ARCHES='' ARCH_REASON='' SKIP=''
	conf=$(tfile "$t.conf")
	# shellcheck disable=SC1090
	[ -f "$conf" ] && . "$conf"
	if [ -n "$SKIP" ]; then
		echo "integration: [$t] skipped on $KERNEL: $SKIP"
		row "$t" - - - - - SKIP
		SKIPS+=("$t: $SKIP")
		continue
	fi
	if [ -n "$ARCHES" ] && [[ " $ARCHES " != *" $KP_ARCH "* ]]; then
		echo "integration: [$t] skipped on $KP_ARCH: ${ARCH_REASON:-only for $ARCHES}"
		row "$t" - - - - - SKIP
		SKIPS+=("$t: ${ARCH_REASON:-only for $ARCHES}")
		continue
	fi
	tdir=$OUT/$t
	rm -rf "$tdir"; mkdir -p "$tdir"
	blog=$tdir/build.log
	echo "integration: [$t] building"
	b0=$(date +%s.%N)
	if declare -F build_test >/dev/null; then
		( set -e; build_test "$tdir" ) > "$blog" 2>&1; brc=$?
		# the function's MODULES additions are read back from its record
		[ -f "$tdir/modules.list" ] && mapfile -t MODULES < "$tdir/modules.list"
	else
		kpb "$NAME" "$tdir" "$(tfile "$t.patch")" > "$blog" 2>&1; brc=$?
	fi
	bsec=$(echo "$(date +%s.%N) - $b0" | bc)
	# the first kpatch-build on a machine also makes its cached original build:
	# that time is reported in the header, not in this patch's build time
	ob=$(sed -n 's/.*original build complete (\([0-9]*\)s).*/\1/p' "$blog" | head -n1)
	if [ -n "$ob" ]; then
		echo "integration: [$t] (kpatch-build's original kernel build took ${ob}s; not counted in build_s)"
		bsec=$(echo "$bsec - $ob" | bc)
	fi
	bsec=$(printf '%.1f' "$bsec")

	if [ -n "$REFUSE" ]; then
		reason=$(grep -m1 -E "$REFUSE" "$blog" || true)
		if [ $brc -ne 0 ] && [ -n "$reason" ]; then
			echo "integration: [$t] refused as expected: $reason"
			row "$t" "$bsec" - "refused" - - PASS
		else
			d="kpatch-build exited $brc; wanted a refusal matching /$REFUSE/; last line: $(grep -v '^kpatch-build: log:' "$blog" | tail -n1)"
			FAILS+=("$t refusal: $d")
			row "$t" "$bsec" - - - - FAIL
		fi
		continue
	fi
	if [ $brc -ne 0 ]; then
		d=$(grep -m1 -E 'error|refus|cannot|failed' "$blog" || tail -n1 "$blog")
		FAILS+=("$t build: $d (log $blog)")
		echo "integration: [$t] build FAILED: $d"
		row "$t" "$bsec" - - - - FAIL
		continue
	fi
	if declare -F check_build >/dev/null; then
		if ! d=$(check_build "$tdir" 2>&1); then
			FAILS+=("$t build-check: ${d:-check_build failed}")
			echo "integration: [$t] build check FAILED: $d"
			row "$t" "$bsec" - - - - FAIL
			continue
		fi
		echo "integration: [$t] build check: $d"
	fi
	mods=()
	[ -f "$tdir/livepatch-$NAME.ko" ] && mods+=(--module "$tdir/livepatch-$NAME.ko")
	for m in ${MODULES[@]+"${MODULES[@]}"}; do
		case $m in /*) ;; *) m=$(suite_module "$m") ;; esac
		mods+=(--module "$m")
	done
	echo "integration: [$t] booting"
	glog=$tdir/guest.log
	"$HERE/run-guest.sh" --timeout "$TIMEOUT" --script-timeout $((TIMEOUT - 10)) --log "$glog" \
		--file "$HERE/guest/suite-lib.sh:/lib/kp-suite.sh" \
		"$KBZIMAGE" "$(tfile "$t.sh")" ${mods[@]+"${mods[@]}"} > "$tdir/run.out" 2>&1
	grc=$?
	markers=$(grep -o 'KPTEST-[A-Z]*.*' "$glog" 2>/dev/null || true)
	npass=$(echo "$markers" | grep -c "^KPTEST-PASS $t " || true)
	nfail=$(echo "$markers" | grep -c "^KPTEST-FAIL $t " || true)
	boot=$(echo "$markers" | sed -n 's/^KPTEST-BOOT uptime=\([0-9.]*\).*/\1/p' | head -1)
	st() {	# status of check $1: ok / FAIL / -
		if grep -q "^KPTEST-FAIL $t $1:" <<<"$markers"; then echo FAIL
		elif grep -q "^KPTEST-PASS $t $1\$" <<<"$markers"; then echo ok
		else echo -; fi
	}
	if [ $grc -eq 0 ] && [ "$nfail" = 0 ] && [ "$npass" -gt 0 ]; then res=PASS; else res=FAIL; fi
	row "$t" "$bsec" "$(st load)" "$npass/$((npass + nfail))" "$(st unload)" "${boot:--}" "$res"
	if [ $res = FAIL ]; then
		while IFS= read -r l; do
			case $l in
			"run-guest: FAIL "*) FAILS+=("${l#run-guest: FAIL }") ;;
			esac
		done < "$tdir/run.out"
		[ "$grc" -ne 0 ] && ! grep -q '^run-guest: FAIL ' "$tdir/run.out" &&
			FAILS+=("$t guest: run-guest.sh exited $grc: $(head -n1 "$tdir/run.out")")
		[ "$npass" -gt 0 ] || [ "$grc" -ne 0 ] || FAILS+=("$t guest: no check ran")
		echo "integration: [$t] FAILED (log $glog)"
	else
		echo "integration: [$t] passed: $npass checks"
	fi
done

# kpatch-build's own cached -ffunction-sections build of the same kernel
# (the entry the builds used, as their logs name it; else one made for this config)
ORIG_DIR=$(sed -n 's/.*building original kernel (cached: \(.*\))$/\1/p' "$OUT"/*/build.log 2>/dev/null | head -n1)
[ -n "$ORIG_DIR" ] || ORIG_DIR=$(grep -lx "config=$KCONFIG" "$KPATCH_CACHE"/kpatch-build/orig/*/info 2>/dev/null | head -n1 | xargs -r dirname)
ORIG_S=$(sed -n 's/^build_seconds=//p' "${ORIG_DIR:-/dev/null}/info" 2>/dev/null)
{
	if [ -n "${KSTOCK:-}" ]; then
		echo "kpatch-ng integration suite, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), Debian's stock kernel $KSTOCK"
		echo "(linux-image-$KSTOCK $KSTOCK_VERSION, booted as shipped; kpatch-build --kernel $KSTOCK, no kernel build),"
	else
		echo "kpatch-ng integration suite, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $KP_ARCH kernel $KVER ($KC_KEY),"
		echo "reference kernel build ${KBUILD_SECONDS}s, kpatch-build original build ${ORIG_S:-?}s (both cached),"
	fi
	echo "suite wall time $(( $(date +%s) - TOTAL0 ))s;"
	echo "build_s = kpatch-build wall time, boot_s = guest seconds from kernel start to /init"
	echo
	echo "$header"
	printf '%s\n' "${ROWS[@]}"
	echo
	nfailed=$(printf '%s\n' "${ROWS[@]}" | grep -c ' FAIL$')
	if [ ${#SKIPS[@]} -gt 0 ]; then
		echo "not run on $KERNEL $KP_ARCH:"
		printf '  %s\n' "${SKIPS[@]}"
		echo
	fi
	echo "$(( ${#ROWS[@]} - nfailed - ${#SKIPS[@]} )) passed, $nfailed failed, ${#SKIPS[@]} skipped"
} > "$RESULTS"
echo
cat "$RESULTS"
echo "integration: table written to $RESULTS"
if [ ${#FAILS[@]} -gt 0 ]; then
	for f in "${FAILS[@]}"; do echo "integration: FAIL $f"; done >&2
	exit 1
fi
exit 0
