#!/bin/bash
# kpatch-pp-compare without a kernel: each case of cases/ is a unit (unit.c)
# that includes "hdr.h", preprocessed here with gcc -E once with orig.h and
# once with patched.h as hdr.h, as kpatch-build/lib/targeted.sh preprocesses
# an object's unit from the original and the patched source; the two .i files
# compared must give the case's exit code and line (the table below). Then
# bad input: it must exit 2 and never print "same".
# usage: run.sh [KPATCH_PP_COMPARE] (default: the ASan build, as `make check`)
# The last line is "pp-compare: N passed, N failed, N skipped" (test/lib/result.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PPC=${1:-$top/build/asan/bin/kpatch-pp-compare}
work=$top/test/out/pp-compare
rm -rf "$work"
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
result_init pp-compare "$work"

# case|options|exit code|the line it prints
CASES=(
	"identical||0|same: identical"
	"unreferenced||0|same: only unreferenced static functions or prototypes differ: clamp_positive"
	"prototype||0|same: only unreferenced static functions or prototypes differ: prepare_destroy"
	"prototype-used||1|may change: function prepare_destroy (used in the unit)"
	"prototype-weak||1|may change: (removed) __attribute__((weak)) void arch_hook(void);"
	"counter||0|same: identical but for the numbers of __COUNTER__ names"
	"used||1|may change: function add (used in the unit)"
	"struct||1|may change: struct pair { int a; int extra; int b; };"
	"removed||1|may change: (removed) int legacy_count = 1;"
	"strict|--strict|1|may change: static inline int clamp_positive(int v) { if (v < 0) return 0; return v > 1000 ? 1000 : v; }"
)

# the case's unit preprocessed with header $2 (orig, patched) into $work/$1/$2.i
preprocess() {
	local c=$1 side=$2 dir=$work/$1/$2

	mkdir -p "$dir" && cp "$here/cases/$c/$side.h" "$dir/hdr.h" &&
		gcc -E -I "$dir" "$here/cases/$c/unit.c" -o "$work/$c/$side.i" 2>> "$work/$c/log"
}

# run NAME EXPECTED-RC EXPECTED-LINE ARGS...: the tool's exit code and stdout
run() {
	local name=$1 rc=$2 line=$3 out got
	shift 3
	out=$("$PPC" "$@" 2>> "$work/$name.stderr")
	got=$?
	if [ "$got" = "$rc" ] && [ "$out" = "$line" ]; then
		pass "$name" "exit $got${line:+, $line}"
	else
		echo "expected exit $rc, \"$line\"; got exit $got, \"$out\"" >> "$work/$name.stderr"
		fail "$name" "exit $got, \"$out\" (expected exit $rc, \"$line\")" "$work/$name.stderr"
	fi
}

if [ ! -x "$PPC" ]; then
	fail setup "no $PPC (make tools; VARIANT=asan for the default)"
	result_summary
	exit 1
fi

for entry in "${CASES[@]}"; do
	IFS='|' read -r c opts rc line <<<"$entry"
	mkdir -p "$work/$c"
	if ! preprocess "$c" orig || ! preprocess "$c" patched; then
		fail "$c" "gcc -E failed" "$work/$c/log"
		continue
	fi
	# shellcheck disable=SC2086 # (options: none or one word)
	run "$c" "$rc" "$line" $opts "$work/$c/orig.i" "$work/$c/patched.i"
	# a unit against itself is identical, with or without --strict
	[ -n "$opts" ] ||
		run "$c-self" 0 "same: identical" --strict "$work/$c/patched.i" "$work/$c/patched.i"
done

# bad input: exit 2, nothing on stdout (never "same")
i=$work/identical/orig.i
run missing-file 2 "" "$i" "$work/no-such.i"
run directory 2 "" "$work" "$i"
run usage 2 "" "$i"
run usage-strict 2 "" --strict "$i" "$i" "$i"
if grep -q "cannot open $work/no-such.i" "$work/missing-file.stderr" 2>/dev/null; then
	pass missing-file-message "kpatch-pp-compare: cannot open ..."
else
	fail missing-file-message "no \"cannot open\" on stderr" "$work/missing-file.stderr"
fi
result_summary
