#!/bin/bash
# test/kpatch-build/header-filter.sh: the header filter of a stock kernel's
# targeted build (kpatch-build/lib/targeted.sh, kpatch-pp-compare).
#
#   test/kpatch-build/header-filter.sh
#
# On Debian's stock 6.1 kernel, already cached (KPATCH_CACHE: its packages
# unpacked and its source; otherwise every check is skipped, saying why), three
# patches to fs/proc/internal.h (25 includers), each built with --kernel and
# KPB_HEADER_FILTER=check (the identifier step's candidates held to pp-compare's
# verdicts on every includer: the run fails if pp-compare keeps one it set aside):
#   inline  a static inline's body changes: the objects whose .c calls it are
#           kept, and some of those that do not are set aside, by the identifier
#           step already; the module builds;
#   macro   a macro's value changes: every object whose .c expands it is kept;
#   struct  a structure gains a member: every includer that reaches it (names
#           struct proc_inode or a definition that uses it) is kept.
# The verdicts are read from the run's log ("RC OBJECT same|may change: ...",
# "ident OBJECT (PARENT) set aside: ...").
# Warm (the objects and .i commands cached): about 2 minutes.
set -Eeuo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/result.sh
. "$ROOT/test/lib/result.sh"
result_init kpatch-build-header-filter
OUT=$RESULT_DIR
CACHE=${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}
KPB=$ROOT/kpatch-build/kpatch-build
HDR=fs/proc/internal.h

# the stock 6.1 release whose pieces are all in the cache, else nothing
stock_release() {
	local d r
	for d in "$CACHE"/stock/6.1.*; do
		[ -f "$d/.image-version" ] || continue
		r=${d##*/}
		[ -n "$(find "$d/root" -maxdepth 1 -name '.headers-*' -print -quit 2>/dev/null)" ] || continue
		[ -f "$d/root/usr/lib/debug/boot/vmlinux-$r" ] || continue
		echo "$r"
		return 0
	done
	return 1
}
REL=$(stock_release) || REL=
SRC=$CACHE/src/linux-source-6.1
if [ -z "$REL" ] || [ ! -f "$CACHE/src/.linux-source-6.1.complete" ] || [ ! -f "$SRC/$HDR" ]; then
	for c in inline macro struct; do
		skip "$c" "Debian's stock 6.1 kernel is not cached in $CACHE (integration/kernel-cache.sh with KERNEL=debian-6.1 fetches it)"
	done
	result_summary
	exit
fi
make -C "$ROOT" -s all > "$OUT/make.log" 2>&1 || { fail tools "make failed" "$OUT/make.log"; result_summary; exit 1; }

# mkpatch NAME SED-SCRIPT: a patch of $HDR made with sed, in $OUT/NAME.patch
mkpatch() {
	local w=$OUT/$1.tree rc=0
	rm -rf "$w"; mkdir -p "$w/a/${HDR%/*}" "$w/b/${HDR%/*}"
	cp "$SRC/$HDR" "$w/a/$HDR"
	sed "$2" "$SRC/$HDR" > "$w/b/$HDR"
	(cd "$w" && diff -u "a/$HDR" "b/$HDR") > "$OUT/$1.patch" || rc=$?
	rm -rf "$w"
	[ "$rc" = 1 ] || { echo "header-filter: the sed script of $1 changes nothing in $HDR" >&2; exit 1; }
}

# build NAME: kpatch-build on $OUT/NAME.patch; its exit status in RC, its
# verdicts ("RC OBJECT ...") in $OUT/NAME.verdicts
build() {
	local log
	RC=0
	KPB_HEADER_FILTER=check "$KPB" --kernel "$REL" -n "hf-$1" -o "$OUT" "$OUT/$1.patch" > "$OUT/$1.log" 2>&1 || RC=$?
	log=$(find "$CACHE/kpatch-build/logs" -name "hf-$1-*.log" -newer "$OUT/$1.patch" -printf '%T@ %p\n' 2>/dev/null |
		sort -rn | head -n1 | cut -d' ' -f2-)
	if [ -n "$log" ]; then
		grep -E '^[0-9]+ [^ ]+\.o (same|may change):' "$log" > "$OUT/$1.verdicts" || true
		grep -E '^ident [^ ]+\.o .* set aside' "$log" | awk '{ print $2 }' > "$OUT/$1.ident" || true
	else
		: > "$OUT/$1.verdicts"; : > "$OUT/$1.ident"
	fi
}

# the compiled includers (one object a line) whose .c names word $1
users() {
	local o
	awk '{ print $2 }' "$OUT/$2.verdicts" | while read -r o; do
		! grep -qw -- "$1" "$SRC/${o%.o}.c" || echo "$o"
	done
}
kept() { awk '$1 != 0 { print $2 }' "$OUT/$1.verdicts"; }
# what the run then built: K of its "N candidate(s), M preprocessed, K may change"
built() { sed -n 's/.* preprocessed, \([0-9]*\) may change.*/\1/p' "$OUT/$1.log" | head -n1; }
dropped() { awk '$1 == 0 { print $2 }' "$OUT/$1.verdicts"; }
# check_same CASE: the identifier step's set and the full filter's agreed
check_same() {
	if grep -qE 'header filter check: (the identifier step and the full filter keep the same|the full filter keeps .* whose units name none of the changed identifiers)' "$OUT/$1.log"; then
		pass "$1/check" "$(grep -m1 -o 'header filter check: .*' "$OUT/$1.log" | cut -c1-200); $(wc -l < "$OUT/$1.ident") set aside by the identifier step"
	else
		fail "$1/check" "no agreement line of KPB_HEADER_FILTER=check (exit $RC)" "$OUT/$1.log"
	fi
}

# check_users CASE WORD: every includer whose .c names WORD is kept
check_users() {
	local u missing
	u=$(users "$2" "$1")
	if [ -z "$u" ]; then
		fail "$1" "no includer's .c names $2 (verdicts: $OUT/$1.verdicts)"
		return
	fi
	missing=$(comm -23 <(sort <<< "$u") <(kept "$1" | sort))
	if [ "$(built "$1")" != "$(kept "$1" | wc -l)" ]; then
		fail "$1" "the run built $(built "$1") includer(s), its verdicts keep $(kept "$1" | wc -l)" "$OUT/$1.log"
	elif [ -n "$missing" ]; then
		fail "$1" "set aside though its .c uses $2: $(paste -sd' ' <<< "$missing")" "$OUT/$1.verdicts"
	else
		pass "$1/users" "kept the $(wc -l <<< "$u") object(s) whose .c uses $2: $(paste -sd' ' <<< "$u")"
	fi
}

# 1. a static inline the .c files of two includers call
mkpatch inline '/^static inline bool is_empty_pde(/,/^}/s/return S_ISDIR(pde->mode) && !pde->proc_iops;/return S_ISDIR(pde->mode) \&\& !pde->proc_iops \&\& !pde->proc_ops;/'
build inline
n=$(wc -l < "$OUT/inline.verdicts")
if [ "$n" -eq 0 ]; then
	fail inline "no verdicts of the header filter (exit $RC)" "$OUT/inline.log"
else
	check_users inline is_empty_pde
	d=$(dropped inline | wc -l)
	if [ "$d" -gt 0 ]; then
		pass inline/dropped "$d of $n includers set aside, e.g. $(dropped inline | head -n3 | paste -sd' ')"
	else
		fail inline "no includer set aside: all $n kept" "$OUT/inline.verdicts"
	fi
	# the identifier step alone: the includers that never name is_empty_pde
	check_same inline
	if [ -s "$OUT/inline.ident" ] && ! grep -qwf "$OUT/inline.ident" <(users is_empty_pde inline); then
		pass inline/ident "set aside before preprocessing: $(head -n3 "$OUT/inline.ident" | paste -sd' ')"
	else
		fail inline/ident "the identifier step set aside none, or one whose .c calls is_empty_pde" "$OUT/inline.log"
	fi
	if [ "$RC" -eq 0 ] && grep -q 'is_empty_pde\|function(s) changed' "$OUT/inline.log"; then
		pass inline/build "$(grep -m1 'includers,' "$OUT/inline.log" | sed 's/^kpatch-build: \[[ 0-9.]*s\] *//')"
	else
		fail inline/build "kpatch-build exited $RC" "$OUT/inline.log"
	fi
fi

# 2. a macro that two .c files expand
mkpatch macro 's/^#define PROC_NUMBUF 13$/#define PROC_NUMBUF 16/'
build macro
if [ ! -s "$OUT/macro.verdicts" ]; then
	fail macro "no verdicts of the header filter (exit $RC)" "$OUT/macro.log"
else
	check_users macro PROC_NUMBUF
	check_same macro
fi

# 3. a structure every includer sees
mkpatch struct '/^struct proc_inode {$/,/^}/s/^\tstruct inode vfs_inode;$/\tunsigned long kpatch_test;\n&/'
build struct
n=$(wc -l < "$OUT/struct.verdicts")
if [ "$n" -eq 0 ]; then
	fail struct "no verdicts of the header filter (exit $RC)" "$OUT/struct.log"
elif [ "$(dropped struct | wc -l)" -eq 0 ] && [ "$(built struct)" = "$n" ]; then
	pass struct "all $n candidates (the includers that reach struct proc_inode) kept and built"
	check_same struct
else
	fail struct "set aside by pp-compare though struct proc_inode changes: $(dropped struct | paste -sd' '); built $(built struct) of $n" "$OUT/struct.log"
fi

result_summary
