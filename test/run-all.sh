#!/bin/bash
# Every test of the project, as `make check` runs it: the differ's own cases
# and the real-kernel corpus with the ASan/UBSan build, the fuzz smoke run,
# klp-convert, kpatch-build, and the integration smoke boot. Each suite ends
# with "N passed, N failed"; this script adds them up.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
ASAN_CDO=$top/build/asan/bin/create-diff-object
# leaks count too: the differ frees everything on its normal exit paths
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
log=$top/test/out/logs
mkdir -p "$log"

total_pass=0; total_fail=0; failed_suites=()

suite() {
	local name=$1; shift
	local start=$SECONDS rc line p f
	echo "== $name"
	"$@" > "$log/$name.log" 2>&1
	rc=$?
	line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed' "$log/$name.log" | tail -n 1)
	p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	if [ $rc -ne 0 ] && [ "${f:-0}" = 0 ]; then f=1; fi
	total_pass=$((total_pass + ${p:-0})); total_fail=$((total_fail + ${f:-0}))
	if [ $rc -ne 0 ]; then
		failed_suites+=("$name")
		tail -n 25 "$log/$name.log" | sed 's/^/   /'
	fi
	echo "   ${line:-no summary} ($((SECONDS - start)) s, log $log/$name.log)"
}

# the reference kernels (KERNELS, default both: 6.1 and 6.12); the suites that
# boot or build against a real kernel run once per kernel
KERNELS=${KERNELS:-6.1 6.12}
# the reference kernels first (cached; about 3-4 minutes each the first time), so
# that the klp-convert and kpatch-build suites run their kernel cases too
if [ -z "${SKIP_INTEGRATION:-}" ]; then
	for k in $KERNELS; do
		echo "== reference kernel $k (KERNEL=$k integration/kernel-cache.sh)"
		KERNEL=$k integration/kernel-cache.sh --print-env > "$log/kernel-$k.log" 2>&1 ||
			{ tail -n 20 "$log/kernel-$k.log"; echo "reference kernel $k build failed";
			  failed_suites+=("reference-kernel-$k"); total_fail=$((total_fail + 1)); }
	done
fi

suite cdo test/cdo/run-tests.sh "$ASAN_CDO"
suite corpus test/corpus/run.sh "$ASAN_CDO" x86_64
# the other architectures: cases built with Debian's cross compilers, and
# the corpus objects of each architecture ../shared has
for a in aarch64 ppc64le s390x; do
	suite "cdo-$a" test/cdo/run-tests.sh -a "$a" "$ASAN_CDO"
done
for a in aarch64 ppc64le; do
	suite "corpus-$a" test/corpus/run.sh "$ASAN_CDO" "$a"
done
# the ELF model reads and writes back big-endian and ppc64le objects intact
suite elf-roundtrip test/elf/run.sh "$top/build/asan/bin/elf-roundtrip"
suite fuzz test/fuzz/run.sh "${FUZZ_ITERATIONS:-10000}"
[ -x test/klp-convert/run-tests.sh ] && suite klp-convert test/klp-convert/run-tests.sh
# klp-convert on aarch64, ppc64le and s390x patch modules (cross-built)
suite klp-convert-cross test/klp-convert/cross.sh "$ASAN_CDO" "$top/build/asan/bin/klp-convert"
[ -x test/kpatch-build/run-tests.sh ] && suite kpatch-build test/kpatch-build/run-tests.sh
# the kernels were built above unless SKIP_INTEGRATION: then a suite may not skip
require_kernel=1
[ -z "${SKIP_INTEGRATION:-}" ] || require_kernel=
for k in $KERNELS; do
	export KERNEL=$k
	# line shifts in ten big kernel files: no function changes (through
	# kpatch-build, which makes its cached original build of this kernel)
	suite "kernel-lineshift-$k" test/corpus/kernel-lineshift.sh
	# every object of that original build diffed against itself
	KPATCH_REQUIRE_KERNEL=$require_kernel suite "kernel-selfdiff-$k" test/corpus/kernel-selfdiff.sh "$ASAN_CDO"
	if [ -z "${SKIP_INTEGRATION:-}" ]; then
		suite "integration-smoke-$k" integration/smoke.sh
		# the demo patch built by kpatch-build and booted, plus one refusal
		suite "integration-ci-$k" make --no-print-directory integration-ci
		# the whole boot-tested patch suite (about 80 s once the kernels are cached)
		[ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
			suite "integration-$k" make --no-print-directory integration
		# the patch zoo: real-kernel patches built and cycled in one boot
		[ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
			suite "integration-zoo-$k" make --no-print-directory integration-zoo
	fi
done
unset KERNEL
if [ -z "${SKIP_INTEGRATION:-}" ]; then
	# CC="distcc gcc" (two local daemons) and CC="ccache gcc"; the original kernel
	# built through distcc is cached (once per machine, ~5 minutes)
	suite integration-farm integration/farm.sh
	# the runtime manager kpatch in the guest (load/list/info/unload, a pending transition)
	suite kpatch-guest test/kpatch/run-guest-test.sh
	# the Debian package: built, lintian, installed, the demo patch built with it and booted
	[ -n "${SKIP_PACKAGE:-}" ] || suite package test/package/run.sh
fi
# the other architectures (SKIP_CROSS=1 skips them): their cross-built reference
# kernels booted with the kernel's livepatch sample and the harness self-test, kmod/
# built for them, kpatch-build on them (about 4 minutes per kernel the first time),
# and the patch suite built, booted and checked on each
if [ -z "${SKIP_INTEGRATION:-}" ] && [ -z "${SKIP_CROSS:-}" ]; then
	for arch in ppc64le s390x; do
		suite "integration-smoke-$arch" env ARCH=$arch integration/smoke.sh
		suite "kmod-cross-$arch" env ARCH=$arch test/klp-convert/cross-build.sh
		suite "kpatch-build-cross-$arch" env ARCH=$arch test/kpatch-build/cross.sh
		# the boot-tested patch suite on that architecture (about 3 minutes each)
		[ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
			suite "integration-6.1-$arch" env ARCH=$arch KERNEL=6.1 integration/suite.sh
	done
	# a failing guest check fails the suite, naming the patch and the check (ppc64le)
	[ -n "${SKIP_INTEGRATION_SUITE:-}" ] ||
		suite integration-selftest-ppc64le env ARCH=ppc64le KERNEL=6.1 integration/suite-selftest.sh
fi
# every object of the cross-built ppc64le and s390x kernels against itself: the
# boot kernels and kpatch-build's -ffunction-sections original builds of them
# (made just above: there, a missing one is a failure)
require_cross=$require_kernel
[ -z "${SKIP_CROSS:-}" ] || require_cross=
KPATCH_REQUIRE_KERNEL=$require_cross suite cross-selfdiff test/corpus/cross-selfdiff.sh \
	"$top/build/release/bin/create-diff-object"

echo
[ ${#failed_suites[@]} -eq 0 ] || echo "failed suites: ${failed_suites[*]}"
echo "$total_pass passed, $total_fail failed"
[ $total_fail -eq 0 ] && [ ${#failed_suites[@]} -eq 0 ]
