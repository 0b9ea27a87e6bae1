# shellcheck shell=bash
# integration/lib/report.sh (sourced): the results of a runner of patch tests
# (suite.sh, zoo.sh): one table row per test, its failures, and the report
# that ends the run, through test/lib/result.sh.
#
#   rep_init NAME OUTDIR FMT COLUMN...  result_init NAME OUTDIR; FMT is the printf
#                                  format of a row, the COLUMNs the header's words
#   rep_row TEST VALUE...          TEST's row; its last value is PASS, FAIL or SKIP
#   rep_fail TEST CHECK DETAIL [LOG]  a failed check of TEST (LOG: its end is shown);
#                                  a TEST without a row (the guest's own end) is
#                                  one more failure of its own
#   rep_skip TEST REASON           why TEST's row is SKIP
#   rep_write FILE WHERE           writes the preamble (stdin), the table, what was
#                                  not run on WHERE and the count to FILE, prints
#                                  it, then one PASS/SKIP/FAIL line per test (the
#                                  failures last: a runner of suites shows the end of
#                                  a failed one's output) and result.sh's closing
#                                  line "NAME: N passed, N failed, N skipped";
#                                  returns 0 when nothing failed
# shellcheck source=test/lib/result.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../test/lib/result.sh"

rep_init() {
	result_init "$1" "$2"
	REP_FMT=$3; shift 3
	# shellcheck disable=SC2059  # (the runner's format)
	REP_HEADER=$(printf "$REP_FMT" "$@")
	REP_TESTS=() REP_ROWS=() REP_SKIPS=() REP_OTHER=()
	declare -gA REP_RESULT=() REP_FAILS=() REP_LOG=()
}

rep_row() {
	local t=$1
	REP_TESTS+=("$t")
	# shellcheck disable=SC2059
	REP_ROWS+=("$(printf "$REP_FMT" "$@")")
	REP_RESULT[$t]=${!#}
}

rep_fail() {
	REP_FAILS[$1]+="$2: $3"$'\n'
	[ -z "${4:-}" ] || [ -n "${REP_LOG[$1]:-}" ] || REP_LOG[$1]=$4
	case " ${REP_OTHER[*]-} " in *" $1 "*) ;; *) REP_OTHER+=("$1") ;; esac
}

rep_skip() { REP_SKIPS+=("$1: $2"); }

# the failures of test $1 as result.sh lines: the first one counted, the others
# (and the end of its log) shown under it
rep_fail_lines() {
	local t=$1 first more
	first=${REP_FAILS[$t]:-failed: (no detail)$'\n'}
	more=$(mktemp) || return 1
	printf '%s' "${first#*$'\n'}" | sed "s|^|also FAIL $t/|" > "$more"
	[ -z "${REP_LOG[$t]:-}" ] || tail -n 12 "${REP_LOG[$t]}" 2>/dev/null >> "$more"
	first=${first%%$'\n'*}
	fail "$t/${first%%: *}" "${first#*: }" "$more"
	rm -f "$more"
}

rep_write() {
	local file=$1 where=$2 t npass=0 nfail=0 nskip
	for t in ${REP_TESTS[@]+"${REP_TESTS[@]}"}; do
		case ${REP_RESULT[$t]} in PASS) npass=$((npass + 1)) ;; FAIL) nfail=$((nfail + 1)) ;; esac
	done
	nskip=${#REP_SKIPS[@]}
	{
		cat
		echo
		echo "$REP_HEADER"
		printf '%s\n' ${REP_ROWS[@]+"${REP_ROWS[@]}"}
		if [ "$nskip" -gt 0 ]; then
			echo
			echo "not run on $where:"
			printf '  %s\n' "${REP_SKIPS[@]}"
		fi
		echo
		echo "$npass passed, $nfail failed, $nskip skipped"
	} > "$file"
	echo
	cat "$file"
	echo "$RESULT_NAME: table written to $file"
	echo
	for t in ${REP_TESTS[@]+"${REP_TESTS[@]}"}; do
		[ "${REP_RESULT[$t]}" = PASS ] && pass "$t"
	done
	for t in ${REP_SKIPS[@]+"${REP_SKIPS[@]}"}; do skip "${t%%: *}" "${t#*: }"; done
	for t in ${REP_TESTS[@]+"${REP_TESTS[@]}"}; do
		[ "${REP_RESULT[$t]}" = FAIL ] && rep_fail_lines "$t"
	done
	# failures of no test's row (the guest's end, an oops)
	for t in ${REP_OTHER[@]+"${REP_OTHER[@]}"}; do
		[ -n "${REP_RESULT[$t]:-}" ] || rep_fail_lines "$t"
	done
	result_summary
}
