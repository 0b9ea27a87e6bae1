#!/bin/bash
# kpatch-ident without a kernel. Each case of cases/ is a header before and
# after a hunk (orig.h, patched.h): `kpatch-ident changed` must give the
# case's exit code and output (the table below), and nothing for a header
# against itself. A case with a tree/ (a few .c and .h files, the header as
# tree/include/hdr.h) is then indexed, and the names `changed` printed are
# looked up with the header excluded, as the header filter does: the files
# reached must be the table's. Then the index and query on their own
# (--extra, --exclude, the exact lines of a paste), and bad input: exit 2,
# never a crash (ASan/UBSan build), nothing on stdout.
# usage: run.sh [KPATCH_IDENT] (default: the ASan build, as `make check`)
# The last line is "ident: N passed, N failed, N skipped" (test/lib/result.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
KPI=${1:-$top/build/asan/bin/kpatch-ident}
work=$top/test/out/ident
rm -rf "$work"
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
result_init ident "$work"

# case|exit code|what `changed` prints, lines joined by "; " (exit 3: its
# stderr line)|the files of tree/ the names reach (a query with the header
# excluded), when the case has a tree
CASES=(
	"inline-changed|0|function clamp_val changed|user.c"
	"other-inline|0|function base_get changed|include/wrap.h"
	"through-macro|0|function hook_fn changed; macro CALL_HOOK uses:hook_fn|m.c"
	"paste-getter|0|function get_counter changed|g.c include/getter.h"
	"paste-nested|0|function foo_widget changed|include/call.h p.c"
	"macro-changed|0|macro MAX_ITEMS changed|table.c"
	"counter|0|function mtu_forward changed|route.c"
	"enum-changed|0|enumerator BLUE changed; enumerator GREEN changed; enumerator RED changed; enumerator YELLOW added; type color changed|paint.c"
	"added|0|function new_api_hold added; macro NEW_LIMIT added|"
	"removed|0|function old_prepare removed|"
	"paste-in-header|0|function op_read changed; function read_twice uses:op_read; macro call_op uses:op_read|"
	"wrapper|0|function scale changed; function scale_twice uses:scale; macro SCALE_ALL uses:scale_twice|"
	"stub|0|function trace_update changed|"
	"declarations|0|enumerator T_EMPTY changed; enumerator T_FULL changed; enumerator T_HALF added; function lookup_handler changed; function report changed; type entry changed; type handler_fn changed; type table changed; type table_t uses:table; type wire changed; variable active_handler changed; variable counts changed; variable total changed; variable total_pages changed|"
	"arch-override|0|function SOCK_INODE changed; function vcpu_is_preempted changed|"
	"moved|0||"
	"whitespace|0||"
	"ifdef-changed|3|kpatch-ident: patched.h:5: a conditional directive changed (#if defined(CONFIG_FAST) && !defined(CONFIG_SLOW)): cannot name what it changes|"
	"if-uses-macro|3|kpatch-ident: patched.h:7: a conditional directive uses changed HDR_VERSION (#if HDR_VERSION > 2): cannot name what it changes|"
	"include-added|3|kpatch-ident: patched.h:6: an #include added (#include <linux/extra.h>): cannot name what it changes|"
	"invocation-changed|3|kpatch-ident: patched.h:9: a top-level macro invocation changed (__CLEARPAGEFLAG): cannot name what it defines|"
	"invocation-uses|3|kpatch-ident: patched.h:11: a top-level macro invocation uses changed stats (DECLARE_PER_CPU): cannot name what it defines|"
)

# check NAME EXPECTED-RC EXPECTED-OUT RC OUT LOG: one result
check() {
	if [ "$4" = "$2" ] && [ "$5" = "$3" ]; then
		pass "$1" "exit $4${3:+, $3}"
	else
		echo "expected exit $2, \"$3\"; got exit $4, \"$5\"" >> "$6"
		fail "$1" "exit $4, \"$5\" (expected exit $2, \"$3\")" "$6"
	fi
}

# changed_case CASE RC EXPECTED: `changed` in the case's directory (paths in messages short)
changed_case() {
	local c=$1 rc=$2 want=$3 log=$work/$1/log out err got

	mkdir -p "$work/$c"
	out=$(cd "$here/cases/$c" && "$KPI" changed orig.h patched.h 2> "$work/$c/stderr")
	got=$?
	err=$(cat "$work/$c/stderr")
	cat "$work/$c/stderr" >> "$log"
	printf '%s\n' "$out" > "$work/$c/changed"
	if [ "$rc" = 3 ]; then
		[ -z "$out" ] || err="stdout: $out"
		check "$c" "$rc" "$want" "$got" "$err" "$log"
	else
		check "$c" "$rc" "$want" "$got" "$(printf '%s' "$out" | paste -sd';' | sed 's/;/; /g')" "$log"
	fi
	out=$(cd "$here/cases/$c" && "$KPI" changed patched.h patched.h 2>> "$log")
	check "$c-self" 0 "" $? "$out" "$log"
}

# index DIR OUT-PREFIX: the .c and .h files of DIR listed and indexed (its summary line printed)
index_tree() {
	(cd "$1" && find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort) > "$2.list" &&
		"$KPI" index "$1" "$2.list" "$2.idx" 2>> "$2.log"
}

# reach_case CASE EXPECTED: the files the names of `changed` reach in the case's tree
reach_case() {
	local c=$1 want=$2 names got

	if ! index_tree "$here/cases/$c/tree" "$work/$c/tree" > "$work/$c/summary"; then
		fail "$c-reach" "the index of its tree failed" "$work/$c/tree.log"
		return
	fi
	mapfile -t names < <(awk '{ print $2 }' "$work/$c/changed" | sort -u)
	"$KPI" query "$work/$c/tree.idx" --exclude include/hdr.h "${names[@]}" > "$work/$c/query" 2>> "$work/$c/log"
	got=$?
	check "$c-reach" 0 "$want" "$got" "$(awk '{ print $1 }' "$work/$c/query" | LC_ALL=C sort -u | paste -sd' ')" "$work/$c/log"
}

if [ ! -x "$KPI" ]; then
	fail setup "no $KPI (make tools; VARIANT=asan for the default)"
	result_summary
	exit 1
fi

for entry in "${CASES[@]}"; do
	IFS='|' read -r c rc want reach <<<"$entry"
	changed_case "$c" "$rc" "$want"
	[ ! -d "$here/cases/$c/tree" ] || reach_case "$c" "$reach"
done

# ---- the index and the query on their own (the tree of inline-changed, paste-getter)
t=$work/index
mkdir -p "$t"
summary=$(index_tree "$here/cases/inline-changed/tree" "$t/inline")
if [[ $summary =~ ^3\ files,\ [0-9]+\ identifiers,\ ([0-9]+)\ bytes$ ]] &&
	[ "${BASH_REMATCH[1]}" = "$(stat -c %s "$t/inline.idx")" ] && [ ! -e "$t/inline.idx.tmp" ]; then
	pass index-summary "$summary"
else
	fail index-summary "\"$summary\" (expected \"3 files, N identifiers, <its size> bytes\", no .tmp left)" "$t/inline.log"
fi

# query NAME EXPECTED-LINES ARGS...: the query's exact output (lines joined by "; ")
query() {
	local name=$1 want=$2 out got
	shift 2
	out=$("$KPI" query "$@" 2>> "$t/$name.log")
	got=$?
	check "$name" 0 "$want" "$got" "$(printf '%s' "$out" | paste -sd';' | sed 's/;/; /g')" "$t/$name.log"
}

query query-names "include/hdr.h clamp_val names; user.c clamp_val names" "$t/inline.idx" clamp_val
query query-exclude "user.c clamp_val names" "$t/inline.idx" --exclude include/hdr.h clamp_val
query query-none "" "$t/inline.idx" no_such_name
# the patched header given for its entry, a .c file without the call, a new file
printf 'int user(int v)\n{\n\treturn v;\n}\n' > "$t/user.c"
printf '#include "include/hdr.h"\nint added(void) { return clamp_val(3, 2); }\n' > "$t/added.c"
query query-extra "added.c clamp_val names; include/hdr.h clamp_val names" "$t/inline.idx" \
	--extra include/hdr.h="$here/cases/inline-changed/patched.h" --extra user.c="$t/user.c" \
	--extra added.c="$t/added.c" clamp_val
# the changed header itself read with --extra and left out with --exclude, either order
query query-extra-excluded "added.c clamp_val names; user.c clamp_val names" "$t/inline.idx" \
	--extra include/hdr.h="$here/cases/inline-changed/patched.h" --exclude include/hdr.h \
	--extra added.c="$t/added.c" clamp_val
query query-excluded-extra "added.c clamp_val names; user.c clamp_val names" "$t/inline.idx" --exclude include/hdr.h \
	--extra include/hdr.h="$here/cases/inline-changed/patched.h" --extra added.c="$t/added.c" clamp_val
index_tree "$here/cases/paste-getter/tree" "$t/getter" > /dev/null
query query-paste "g.c get_counter paste-rest:counter; g.c get_counter paste:counter; include/getter.h get_counter paste-rest:get_; include/getter.h get_counter paste:get_" \
	"$t/getter.idx" --exclude include/hdr.h get_counter
# an --extra file's own paste macro, and the index's
printf '#define MAKE(n) int make_##n;\nMAKE(thing)\nint x = DEFINE_GETTER_USE;\n' > "$t/own.c"
query query-extra-paste "own.c make_thing paste-rest:make_; own.c make_thing paste-rest:thing; own.c make_thing paste:make_; own.c make_thing paste:thing" \
	"$t/getter.idx" --extra own.c="$t/own.c" make_thing
# a variadic parameter pasted: every argument from its position is a fragment
printf '#define CAT(a, ...) a ## __VA_ARGS__\nint CAT(pre_, mid, post);\n' > "$t/cat.c"
query query-variadic-paste "cat.c pre_post paste-rest:post; cat.c pre_post paste-rest:pre_; cat.c pre_post paste:post; cat.c pre_post paste:pre_" \
	"$t/getter.idx" --extra cat.c="$t/cat.c" pre_post

# ---- bad input: exit 2 and one line on stderr, nothing on stdout
b=$work/bad
mkdir -p "$b"
# bad NAME ARGS...
bad() {
	local name=$1 out got
	shift
	out=$("$KPI" "$@" 2> "$b/$name.stderr")
	got=$?
	if [ "$got" = 2 ] && [ -z "$out" ] && [ "$(wc -l < "$b/$name.stderr")" = 1 ]; then
		pass "$name" "exit 2: $(cat "$b/$name.stderr")"
	else
		fail "$name" "exit $got, stdout \"$out\" (expected exit 2, one line on stderr)" "$b/$name.stderr"
	fi
}

o=$here/cases/inline-changed/orig.h
idx=$t/inline.idx
printf 'user.c\nno-such.c\n' > "$b/list"
head -c 200 "$idx" > "$b/truncated.idx"
bad usage
bad usage-changed changed "$o"
bad usage-command frobnicate "$o" "$o"
bad changed-missing changed "$o" "$b/no-such.h"
bad changed-directory changed "$b" "$o"
bad index-missing-list index "$here/cases/inline-changed/tree" "$b/no-such.list" "$b/out.idx"
bad index-missing-file index "$here/cases/inline-changed/tree" "$b/list" "$b/out.idx"
bad index-missing-srcdir index "$b/no-such-dir" "$t/inline.list" "$b/out.idx"
bad query-missing-index query "$b/no-such.idx" clamp_val
bad query-not-an-index query "$o" clamp_val
bad query-truncated query "$b/truncated.idx" clamp_val
bad query-binary query "$KPI" clamp_val
bad query-bad-identifier query "$idx" 1abc
bad query-extra-form query "$idx" --extra user.c clamp_val
bad query-extra-missing query "$idx" --extra user.c="$b/no-such.c" clamp_val
bad query-option-last query "$idx" clamp_val --exclude
if [ ! -e "$b/out.idx" ] && [ ! -e "$b/out.idx.tmp" ]; then
	pass index-nothing-written
else
	fail index-nothing-written "an index written for bad input"
fi

# an index's bytes changed in turn (every fourth: the low byte of each
# header field, and throughout its tables): exit 0 or 2, never a crash
n=0 bad_rc=
size=$(stat -c %s "$idx")
for ((off = 0; off < size; off += 4)); do
	cp "$idx" "$b/flip.idx"
	printf '\xa5' | dd of="$b/flip.idx" bs=1 seek="$off" conv=notrunc status=none
	"$KPI" query "$b/flip.idx" clamp_val widget_size size zz > /dev/null 2>> "$b/flip.log"
	rc=$?
	n=$((n + 1))
	[ "$rc" = 0 ] || [ "$rc" = 2 ] || bad_rc+=" $off:$rc"
done
if [ -z "$bad_rc" ]; then
	pass index-corrupt "$n one-byte corruptions: exit 0 or 2"
else
	fail index-corrupt "offset:exit$bad_rc" "$b/flip.log"
fi

# pathological C: `changed` exits 0 or 3, index 0, never a crash
p=$b/patho
mkdir -p "$p"
printf '%.0s(' {1..20000} > "$p/parens.h"
printf '%.0s{' {1..20000} > "$p/braces.h"
{ printf 'int x = (%.0s' {1..5000}; printf 'int (*%.0s' {1..3000}; } > "$p/declarator.h"
printf 'struct a {%.0s' {1..3000} > "$p/structs.h"
printf '#endif\n}\n)\n' > "$p/unbalanced.h"
printf '#if X\nint a;\n' > "$p/open-if.h"
printf '/* unterminated\nint a;\n' > "$p/comment.h"
printf '"unterminated\n'"'"'x\nint a;\\\n' > "$p/literals.h"
printf 'int a\0b;\n#define N(x, ...) x ## ## __VA_ARGS__ ## \n#define\n#\n' > "$p/nul.h"
printf 'enum { A = (1, B(2), };\ntypedef ;\nstruct;\n' > "$p/odd.h"
head -c 30000 "$KPI" > "$p/binary.h"
bad_rc=
for f in "$p"/*.h; do
	"$KPI" changed "$o" "$f" > /dev/null 2>> "$p/log"
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || bad_rc+=" $(basename "$f"):$rc"
	"$KPI" changed "$f" "$f" > /dev/null 2>> "$p/log" || bad_rc+=" $(basename "$f")-self:$?"
done
(cd "$p" && find . -name '*.h' | sed 's|^\./||') > "$p/list"
"$KPI" index "$p" "$p/list" "$p/idx" > /dev/null 2>> "$p/log" || bad_rc+=" index:$?"
"$KPI" query "$p/idx" --extra x.h="$p/nul.h" --extra y.h="$p/binary.h" a N > /dev/null 2>> "$p/log" ||
	bad_rc+=" query:$?"
if [ -z "$bad_rc" ]; then
	pass pathological "$(wc -l < "$p/list") files: changed 0 or 3, index and query 0"
else
	fail pathological "file:exit$bad_rc" "$p/log"
fi
result_summary
