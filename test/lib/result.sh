# shellcheck shell=bash
# test/lib/result.sh (sourced): the one way every suite reports a result.
#
#   result_init NAME [DIR]   counters to zero; NAME prefixes the closing line;
#                            DIR (created) is where the suite keeps its logs
#                            ($RESULT_DIR; default test/out/NAME of the checkout)
#   pass CHECK [DETAIL]      "PASS CHECK[: DETAIL]" (counted, not printed with
#                            RESULT_QUIET_PASS=1: suites of thousands of checks)
#   fail CHECK REASON [LOG]  "FAIL CHECK: REASON", then the last 15 lines of LOG
#                            (when given and not empty) indented by "    | "
#   skip CHECK REASON        "SKIP CHECK: REASON"
#   result_summary           "NAME: N passed, N failed, N skipped"; returns 0 when
#                            nothing failed and something passed or was skipped
#
# test/run-all.sh adds up the closing lines of all suites; a suite prints exactly
# one, last. A check's name is one word (no spaces): a case, or case/step.
RESULT_NAME=
RESULT_DIR=
RESULT_PASSED=0
RESULT_FAILED=0
RESULT_SKIPPED=0
RESULT_FAILED_CHECKS=()

result_init() {
	local top

	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	RESULT_NAME=$1
	RESULT_DIR=${2:-$top/test/out/$1}
	RESULT_PASSED=0 RESULT_FAILED=0 RESULT_SKIPPED=0
	RESULT_FAILED_CHECKS=()
	mkdir -p "$RESULT_DIR"
}

pass() {
	RESULT_PASSED=$((RESULT_PASSED + 1))
	[ -n "${RESULT_QUIET_PASS:-}" ] || echo "PASS $1${2:+: $2}"
	return 0
}

fail() {
	RESULT_FAILED=$((RESULT_FAILED + 1))
	RESULT_FAILED_CHECKS+=("$1")
	echo "FAIL $1: ${2:-failed}"
	if [ -n "${3:-}" ] && [ -s "$3" ]; then
		tail -n 15 "$3" | sed 's/^/    | /'
	fi
	return 0
}

skip() {
	RESULT_SKIPPED=$((RESULT_SKIPPED + 1))
	echo "SKIP $1: ${2:-skipped}"
	return 0
}

result_summary() {
	[ "$RESULT_FAILED" = 0 ] || echo "failed: ${RESULT_FAILED_CHECKS[*]}"
	echo "${RESULT_NAME:+$RESULT_NAME: }$RESULT_PASSED passed, $RESULT_FAILED failed, $RESULT_SKIPPED skipped"
	[ "$RESULT_FAILED" = 0 ] && [ $((RESULT_PASSED + RESULT_SKIPPED)) -gt 0 ]
}
