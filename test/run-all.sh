#!/bin/bash
# test/run-all.sh [quick|full]: the project's tests in two tiers.
#
# quick (make check, the README's test command and CI's): no kernel is built.
# Every C suite on every architecture (differ cases, corpus, ELF round trip,
# fuzz smoke, klp-convert, pp-compare, ident, static checks), the package built,
# installed and tested as installed (kpatch-build's suite against it), the
# runtime manager, and on Debian's stock 6.1 as shipped (its packages downloaded
# once): the demo's path from an empty cache, kpatch-build --kernel's cases (the
# binary match, refusals, signing), the boot-tested patch suite, and a sample of
# the zoo and of the stable fixes whose patched paths the guest checks. No
# reference kernel is used in this tier, even when one is cached
# (KPATCH_CHECK_TIER=quick: integration/kernel-cache.sh refuses them), so it
# runs the same checks on every machine.
#
# full (make check-full): everything: the quick tier's suites, both reference
# kernels (their suites, line shifts, self-diffs, the demo on them), Debian's
# stock 6.12, ppc64le and s390x, the farm, every zoo patch, every stable fix
# both ways (on stock 6.1 and on a self-built 6.1 with them reverted).
#
# Each suite ends with "N passed, N failed"; this script adds them up.
# The suites run in two lanes at once (LANES=1: one after the other). Most of
# them wait on a single-threaded qemu TCG guest or on sleeps in a transition, so
# the second core has room; the kernel builds still run one at a time (the
# machine-wide lock of integration/kernel-cache.sh and kpatch-build). Every
# suite writes its own test/out directory (keyed by kernel or architecture),
# so the lanes share nothing but the caches, which are built for concurrent use
# (kpatch-build/README.md, "Cache").
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
ASAN_CDO=$top/build/asan/bin/create-diff-object
# leaks count too: the differ frees everything on its normal exit paths
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
log=$top/test/out/logs
results=$top/test/out/results
rm -rf "$results"
mkdir -p "$log" "$results"
LANES=${LANES:-2}
TIER=${1:-quick}
case $TIER in
quick) export KPATCH_CHECK_TIER=quick; fuzz_default=1000 ;;
full) unset KPATCH_CHECK_TIER; fuzz_default=3000 ;;
*) echo "run-all.sh: unknown tier '$TIER' (quick or full)" >&2; exit 2 ;;
esac

# suite NAME CMD...: runs CMD with its output in $log/NAME.log, records
# "NAME PASSED FAILED RC SECONDS CPU-SECONDS" in $results/NAME and prints its
# block in one write (the lanes' blocks do not interleave)
suite() {
	local name=$1; shift
	local start=$SECONDS rc line p f out cpu=- timer=()
	# (the CPU seconds of the suite and all it ran: where the time goes)
	[ ! -x /usr/bin/time ] || timer=(/usr/bin/time -q -f '%U %S' -o "$results/.$name.cpu")
	"${timer[@]}" "$@" > "$log/$name.log" 2>&1
	rc=$?
	[ ! -s "$results/.$name.cpu" ] || cpu=$(awk '{ printf "%.0f", $1 + $2; exit }' "$results/.$name.cpu")
	rm -f "$results/.$name.cpu"
	line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed' "$log/$name.log" | tail -n 1)
	p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	if [ $rc -ne 0 ] && [ "${f:-0}" = 0 ]; then f=1; fi
	echo "$name ${p:-0} ${f:-0} $rc $((SECONDS - start)) $cpu" > "$results/$name"
	out="== $name"$'\n'
	[ $rc -eq 0 ] || out+=$(tail -n 25 "$log/$name.log" | sed 's/^/   /')$'\n'
	out+="   ${line:-no summary} ($((SECONDS - start)) s, $cpu CPU s, log $log/$name.log)"
	printf '%s\n' "$out"
}

# a reference kernel (cached; 3-4 minutes each the first time) before its suites,
# so that they run their kernel cases; a failed build counts as a failed suite
kernel() {
	local k=$1
	if KERNEL=$k integration/kernel-cache.sh --print-env > "$log/kernel-$k.log" 2>&1; then
		printf '== reference kernel %s: %s\n' "$k" "$(grep -o 'kernel [0-9a-f]* cached\|kernel build complete.*' "$log/kernel-$k.log" | tail -n1)"
	else
		printf '== reference kernel %s (KERNEL=%s integration/kernel-cache.sh)\n%s\nreference kernel %s build failed\n' \
			"$k" "$k" "$(tail -n 20 "$log/kernel-$k.log")" "$k"
		echo "reference-kernel-$k 0 1 1 0" > "$results/reference-kernel-$k"
	fi
}

# the kernels are built by the lanes unless SKIP_INTEGRATION: then a suite may skip
require_kernel=1
[ -z "${SKIP_INTEGRATION:-}" ] || require_kernel=

# the integration targets of the Makefile, called directly (no `make deps all`
# from two lanes at once; `make check` built the tools)
integration_ci() { integration/demo.sh &&
	integration/suite.sh --only 14 --results "test/out/integration/$KERNEL/ci-results.txt"; }

# one reference kernel's suites (KERNEL=$1)
kernel_suites() {
	export KERNEL=$1
	# line shifts in ten big kernel files: no function changes (through
	# kpatch-build, which makes its cached original build of this kernel)
	suite "kernel-lineshift-$KERNEL" test/corpus/kernel-lineshift.sh
	# every object of that original build diffed against itself (one in four
	# by the ASan/UBSan build, the others by the release build)
	KPATCH_REQUIRE_KERNEL=$require_kernel suite "kernel-selfdiff-$KERNEL" test/corpus/kernel-selfdiff.sh \
		"$top/build/release/bin/create-diff-object" "$ASAN_CDO"
	if [ -z "${SKIP_INTEGRATION:-}" ]; then
		suite "integration-smoke-$KERNEL" integration/smoke.sh
		# the demo patch built by kpatch-build and booted, plus one refusal
		suite "integration-ci-$KERNEL" integration_ci
		# the whole boot-tested patch suite and the patch zoo (real-kernel
		# patches built and cycled in one boot)
		if [ -z "${SKIP_INTEGRATION_SUITE:-}" ]; then
			suite "integration-$KERNEL" integration/suite.sh
			# the zoo runs on Debian's stock kernels of the same sources
			# (stock_suites); on the reference kernels only with SKIP_STOCK
			[ -z "${SKIP_STOCK:-}" ] || suite "integration-zoo-$KERNEL" integration/zoo.sh
		fi
	fi
	unset KERNEL
}

# Debian's stock kernel KERNEL=$1 (debian-6.1, debian-6.12), as shipped: its
# packages downloaded once (cached), kpatch-build --kernel on the host (the
# binary match, refusals, signing), then the patch suite and the zoo booted on it
stock_suites() {
	local k=$1
	suite "kpatch-build-stock-$k" env KERNEL="$k" test/kpatch-build/stock.sh
	# line shifts in ten files rich in fortified copies (strings that embed a line)
	suite "kernel-lineshift-$k" env KERNEL="$k" test/corpus/kernel-lineshift.sh
	if [ -z "${SKIP_INTEGRATION:-}" ] && [ -z "${SKIP_INTEGRATION_SUITE:-}" ]; then
		suite "integration-$k" env KERNEL="$k" integration/suite.sh
		suite "integration-zoo-$k" env KERNEL="$k" integration/zoo.sh
	fi
}
# the suites of Debian's stock 6.1 only (lane 2, the shorter one, after 6.12's)
stock_61_suites() {
	# the header patch filter (its patches are written for 6.1's fs/proc/internal.h)
	suite "kpatch-build-header-filter" test/kpatch-build/header-filter.sh
	# real 6.1 stable fixes live-patched into the shipped kernel (make
	# integration-stable: here and on a self-built kernel with them reverted)
	[ -n "${SKIP_INTEGRATION:-}" ] || [ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
		suite "integration-stable-debian-6.1" env KERNEL=debian-6.1 KPB_HEADER_FILTER=check integration/stable.sh ${stable_only[@]+"${stable_only[@]}"}
}
# the same fixes the other way: 6.1 with all 30 reverted, built (cached: its
# kernel ~16 minutes, its original build ~15, the first time), booted, and each
# fix live-patched back in (lane 1, last)
stable_selfbuilt_suites() {
	[ -z "${SKIP_INTEGRATION:-}" ] && [ -z "${SKIP_INTEGRATION_SUITE:-}" ] &&
		[ -z "${SKIP_STABLE_SELFBUILT:-}" ] || return 0
	kernel 6.1-vulnerable
	suite "integration-stable-6.1-vulnerable" env KERNEL=6.1-vulnerable integration/stable.sh ${stable_only[@]+"${stable_only[@]}"}
}
# Both ways, every fix (on the stock kernel the six header fixes with
# KPB_HEADER_FILTER=check: the header filter's identifier step held to pp-compare
# on every includer); STABLE_CHECK_ONLY=04,16 runs those only
stable_only=()
[ -z "${STABLE_CHECK_ONLY:-}" ] || stable_only=(--only "$STABLE_CHECK_ONLY")

# the tools' structure, the differ, the ELF model, the fuzzer, klp-convert and
# kpatch-build
tool_suites() {
	# static checks of the C sources (test/static/run.sh)
	suite static test/static/run.sh
	suite cdo test/cdo/run-tests.sh "$ASAN_CDO"
	suite corpus test/corpus/run.sh "$ASAN_CDO" x86_64
	# the other architectures: cases built with Debian's cross compilers, and
	# the corpus objects of each architecture ../shared has
	local a
	for a in aarch64 ppc64le s390x; do
		suite "cdo-$a" test/cdo/run-tests.sh -a "$a" "$ASAN_CDO"
	done
	for a in aarch64 ppc64le; do
		suite "corpus-$a" test/corpus/run.sh "$ASAN_CDO" "$a"
	done
	# the ELF model reads and writes back big-endian and ppc64le objects intact
	suite elf-roundtrip test/elf/run.sh "$top/build/asan/bin/elf-roundtrip"
	# (the smoke run: 1,000 inputs in the quick tier, 3,000 in the full one;
	# FUZZ_ITERATIONS=10000 or more for a deep one)
	suite fuzz test/fuzz/run.sh "${FUZZ_ITERATIONS:-$fuzz_default}"
	suite klp-convert test/klp-convert/run-tests.sh
	# kpatch-build's header filter on units preprocessed here (no kernel)
	suite pp-compare test/pp-compare/run.sh "$top/build/asan/bin/kpatch-pp-compare"
	# the identifiers a header hunk changes, and the files that reach them
	suite ident test/ident/run.sh "$top/build/asan/bin/kpatch-ident"
	# klp-convert on aarch64, ppc64le and s390x patch modules (cross-built)
	suite klp-convert-cross test/klp-convert/cross.sh "$ASAN_CDO" "$top/build/asan/bin/klp-convert"
	# kpatch-build's suite in the repository only when the package suite does not
	# run: that one runs the same cases against the installed package
	# (test/package/run.sh; the time of make check stays the same)
	if [ -n "${SKIP_INTEGRATION:-}" ] || [ -n "${SKIP_PACKAGE:-}" ]; then
		suite kpatch-build test/kpatch-build/run-tests.sh
	fi
}

# kpatch-build through distcc and ccache, the runtime manager, the package
ecosystem_suites() {
	[ -z "${SKIP_INTEGRATION:-}" ] || return 0
	# CC="distcc gcc" (two local daemons) and CC="ccache gcc"; the original kernel
	# built through distcc is cached (once per machine, ~5 minutes)
	suite integration-farm integration/farm.sh
	# the runtime manager kpatch in the guest (load/list/info/unload, a pending transition)
	suite kpatch-guest test/kpatch/run-guest-test.sh
	# the Debian package: built, lintian, installed, the demo patch built with it
	# and booted, then kpatch-build's suite against the installed tools
	# (run-tests.sh --installed /usr, outside the repository)
	[ -n "${SKIP_PACKAGE:-}" ] || suite package test/package/run.sh
}

# ppc64le and s390x (SKIP_CROSS=1 skips them): their cross-built reference kernels
# booted with the kernel's livepatch sample and the harness self-test, kmod/ built
# for them, kpatch-build on them (about 4 minutes per kernel the first time), the
# patch suite built, booted and checked on each; then every object of those kernels
# (boot and -ffunction-sections builds) diffed against itself
cross_suites() {
	local arch require_cross=$require_kernel
	if [ -z "${SKIP_INTEGRATION:-}" ] && [ -z "${SKIP_CROSS:-}" ]; then
		for arch in ppc64le s390x; do
			suite "integration-smoke-$arch" env ARCH=$arch integration/smoke.sh
			suite "kmod-cross-$arch" env ARCH=$arch test/klp-convert/cross-build.sh
			suite "kpatch-build-cross-$arch" env ARCH=$arch test/kpatch-build/cross.sh
			[ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
				suite "integration-6.1-$arch" env ARCH=$arch KERNEL=6.1 integration/suite.sh
		done
		# a failing guest check fails the suite, naming the patch and the check (ppc64le)
		[ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
			suite integration-selftest-ppc64le env ARCH=ppc64le KERNEL=6.1 integration/suite-selftest.sh
	fi
	[ -z "${SKIP_CROSS:-}" ] || require_cross=
	KPATCH_REQUIRE_KERNEL=$require_cross suite cross-selfdiff test/corpus/cross-selfdiff.sh \
		"$top/build/release/bin/create-diff-object"
}

# the reference kernels (KERNELS, default both: 6.1 and 6.12); the suites that
# boot or build against a real kernel run once per kernel
read -ra kernels <<<"${KERNELS:-6.1 6.12}"

# the quick tier's stock 6.1 suites: the demo's path from an empty cache first
# (it fetches the release into the shared cache the others use), then
# kpatch-build --kernel's cases, the patch suite, and samples of the zoo and of
# the stable fixes (the zoo's: vmlinux patches the guest checks and a refusal;
# the fixes': patched paths the guest runs, 27 a module target, nf_tables; the
# full tier runs them all)
QUICK_ZOO=${QUICK_ZOO:-01,02,06,09,16,20,31,41}
QUICK_STABLE=${QUICK_STABLE:-04,16,20,27}
quick_stock_suites() {
	suite demo-fresh test/demo/fresh.sh
	suite "kpatch-build-stock-debian-6.1" env KERNEL=debian-6.1 test/kpatch-build/stock.sh
	suite "integration-debian-6.1" env KERNEL=debian-6.1 integration/suite.sh
	suite "integration-zoo-debian-6.1" env KERNEL=debian-6.1 integration/zoo.sh --only "$QUICK_ZOO"
	suite "integration-stable-debian-6.1" env KERNEL=debian-6.1 integration/stable.sh --only "$QUICK_STABLE"
}
# the runtime manager and the package, on Debian's stock 6.1
quick_ecosystem_suites() {
	suite kpatch-guest env KERNEL=debian-6.1 test/kpatch/run-guest-test.sh
	[ -n "${SKIP_PACKAGE:-}" ] || suite package env KERNEL=debian-6.1 test/package/run.sh
}

full_lane1() {
	[ -n "${SKIP_INTEGRATION:-}" ] || kernel "${kernels[0]}"
	tool_suites
	kernel_suites "${kernels[0]}"
	ecosystem_suites
	[ -n "${SKIP_STOCK:-}" ] || stock_suites debian-6.1
	stable_selfbuilt_suites
}

full_lane2() {
	local k
	for k in "${kernels[@]:1}"; do
		[ -n "${SKIP_INTEGRATION:-}" ] || kernel "$k"
		kernel_suites "$k"
	done
	cross_suites
	[ -n "${SKIP_STOCK:-}" ] || { suite demo-fresh test/demo/fresh.sh; stock_suites debian-6.12; stock_61_suites; }
}

quick_lane1() {
	tool_suites
	quick_ecosystem_suites
}
quick_lane2() {
	quick_stock_suites
}

if [ "$LANES" -ge 2 ]; then
	"${TIER}_lane1" & pid1=$!
	"${TIER}_lane2" & pid2=$!
	# an interrupted run stops both lanes and what they started (all in
	# this process group, as they were when the suites ran one after the other)
	trap 'trap "" INT TERM; kill -TERM 0; wait; exit 130' INT TERM
	wait "$pid1" "$pid2"
else
	"${TIER}_lane1"
	"${TIER}_lane2"
fi
failed_suites=() total_pass=0 total_fail=0
for r in "$results"/*; do
	read -r name p f rc _ < "$r"
	total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
	[ "$rc" -eq 0 ] && [ "$f" -eq 0 ] || failed_suites+=("$name")
done
echo
[ ${#failed_suites[@]} -eq 0 ] || echo "failed suites: ${failed_suites[*]}"
echo "$TIER: $total_pass passed, $total_fail failed"
[ $total_fail -eq 0 ] && [ ${#failed_suites[@]} -eq 0 ]
