#!/bin/bash
# test/cdo/run-tests.sh - create-diff-object's own test suite.
#
#   run-tests.sh [-a|--arch ARCH] [-c|--compile-only] [-k|--keep] [-v|--verbose]
#                [CDO_BINARY] [CASE...]
#
# Each case test/cdo/cases/NAME/ holds orig.c and patched.c; both are compiled
# by GCC with the Linux 6.1 code-generation flags of ARCH (x86_64, ppc64le,
# s390x or aarch64; default $CDO_ARCH, else x86_64; the others use Debian's
# cross compilers), the differ runs on the pair with -d, and every assertion
# of the case's `expect` file (or `expect.ARCH`, where the outcome on ARCH
# legitimately differs) must hold. A case with an `arches` file runs only on
# the architectures it lists. See test/cdo/README.md for the case layout and
# the assertion language.
#
# CDO_BINARY defaults to $CDO, else create-diff-object/create-diff-object of this
# repository. Work files go to test/out/cdo/NAME/ (x86_64) or
# test/out/cdo-ARCH/NAME/ (kept; -k is accepted for compatibility). Each case
# is reported through test/lib/result.sh; the last line is
# "cdo: N passed, N failed, N skipped" (cdo-ARCH on the other architectures).
set -u
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CASES_DIR=$HERE/cases
INC=$HERE/include
TIMEOUT=${CDO_TIMEOUT:-60}
# shellcheck source=test/lib/result.sh
. "$HERE/../lib/result.sh"

# ---------------------------------------------------------------------------
# The kernel's code-generation flags, Linux 6.1. The generic ones come from
# the top-level Makefile, for a configuration with CONFIG_FUNCTION_TRACER,
# -ffunction-sections -fdata-sections (what kpatch-build forces), no stack
# protector and CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE (-O2); the architecture's
# (arch/<arch>/Makefile) and its CC_FLAGS_FTRACE are in arch/ARCH.conf.
# Deliberately left out: -Werror (CONFIG_WERROR), -Wframe-larger-than.
# -nostdinc keeps the sources honest: only include/kernel-stubs.h and the
# asm-ARCH.h it pulls in are reachable (and include/cpufeature-x86_64.h
# for the cases that name it).
# ---------------------------------------------------------------------------
GENERIC_CFLAGS_HEAD=(
	-nostdinc -D__KERNEL__
	-Wall -Wundef -Werror=strict-prototypes -Wno-trigraphs
	-fno-strict-aliasing -fno-common -fshort-wchar -fno-PIE
	-Werror=implicit-function-declaration -Werror=implicit-int
	-Werror=return-type -Wno-format-security -std=gnu11
)
GENERIC_CFLAGS_TAIL=(
	-fno-delete-null-pointer-checks -Wno-frame-address
	-Wno-format-truncation -Wno-format-overflow -Wno-address-of-packed-member
	-O2 -fno-allow-store-data-races -fno-stack-protector
	-Wno-main -Wno-unused-but-set-variable -Wno-unused-const-variable
	-Wno-dangling-pointer -fno-stack-clash-protection
)
GENERIC_CFLAGS_LAST=(
	-ffunction-sections -fdata-sections
	-Wvla -Wno-pointer-sign -Wcast-function-type -Wno-stringop-truncation
	-Wno-stringop-overflow -Wno-restrict -Wno-maybe-uninitialized
	-Wno-alloc-size-larger-than -Wimplicit-fallthrough=5
	-fno-strict-overflow -fno-stack-check -fconserve-stack
	-Werror=date-time -Werror=incompatible-pointer-types -Werror=designated-init
	-fno-builtin-wcslen
)

usage() {
	sed -n '2,/^set -u/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}

COMPILE_ONLY=0
VERBOSE=0
CDO_ARCH=${CDO_ARCH:-x86_64}
while [ $# -gt 0 ]; do
	case "$1" in
	-a|--arch) CDO_ARCH=${2:-}; shift ;;
	--arch=*) CDO_ARCH=${1#--arch=} ;;
	-c|--compile-only) COMPILE_ONLY=1 ;;
	-k|--keep) ;;
	-v|--verbose) VERBOSE=1 ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) echo "run-tests.sh: unknown option $1" >&2; usage 1 ;;
	*) break ;;
	esac
	shift
done

# the architecture: compiler, flags, struct sizes, how records are read
ARCH_CONF=$HERE/arch/$CDO_ARCH.conf
if [ ! -f "$ARCH_CONF" ]; then
	have=$(for f in "$HERE"/arch/*.conf; do basename "$f" .conf; done | xargs)
	echo "run-tests.sh: no architecture '$CDO_ARCH' (have: $have)" >&2
	exit 2
fi
# shellcheck source=/dev/null
. "$ARCH_CONF"
export CDO_ARCH ARCH_ENDIAN
CC=${CC:-${ARCH_TOOL_PREFIX}gcc}
[ "$CDO_ARCH" = x86_64 ] || CC=${CDO_CROSS_CC:-${ARCH_TOOL_PREFIX}gcc}
# The cases' compiles go through ccache when it is there (CDO_CCACHE=0: never):
# the same objects, compiled once per machine and compiler. The cache is kpatch-ng's
# ($KPATCH_CACHE/ccache), its paths relative to the repository, so that a fresh
# clone finds the objects an earlier one compiled.
CC_RUN=("$CC")
if [ "${CDO_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
	CC_RUN=(ccache "$CC")
	export CCACHE_DIR=${KPATCH_CACHE:-$HOME/.cache/kpatch-ng}/ccache CCACHE_BASEDIR=$REPO
fi
LD=${ARCH_TOOL_PREFIX}ld
NM=${ARCH_TOOL_PREFIX}nm
OBJCOPY=${ARCH_TOOL_PREFIX}objcopy
KERNEL_CFLAGS=("${GENERIC_CFLAGS_HEAD[@]}" "${ARCH_CFLAGS[@]}"
	"${GENERIC_CFLAGS_TAIL[@]}" "${ARCH_FTRACE_CFLAGS[@]}"
	"${GENERIC_CFLAGS_LAST[@]}")
DEFAULT_ENV=("${ARCH_STRUCT_SIZES[@]}")
SUITE=cdo
[ "$CDO_ARCH" = x86_64 ] || SUITE=cdo-$CDO_ARCH
OUT_ROOT=${CDO_OUT:-$REPO/test/out/$SUITE}
result_init "$SUITE" "$OUT_ROOT"
if ! command -v "$CC" >/dev/null; then
	fail compiler "no compiler $CC for $CDO_ARCH (scripts/install-deps installs it)"
	result_summary
	exit 2
fi

CDO=${CDO:-$REPO/create-diff-object/create-diff-object}
if [ $# -gt 0 ] && [ ! -d "$1" ] && [ ! -d "$CASES_DIR/$1" ] &&
	{ [[ "$1" == */* ]] || [ -f "$1" ]; }; then
	CDO=$1
	shift
fi
case "$CDO" in /*) ;; *) CDO=$PWD/$CDO ;; esac

if [ $# -gt 0 ]; then
	CASES=("$@")
else
	CASES=()
	for d in "$CASES_DIR"/*/; do
		d=${d%/}
		CASES+=("${d##*/}")
	done
fi

if [ "$COMPILE_ONLY" = 0 ] && [ ! -x "$CDO" ]; then
	echo "run-tests.sh: differ binary '$CDO' is missing or not executable" >&2
	echo "run-tests.sh: build it (make) or pass its path; -c only compiles the cases" >&2
	for c in "${CASES[@]}"; do
		fail "$c" "no differ binary"
	done
	result_summary
	exit 2
fi

# ---------------------------------------------------------------------------
# helpers used by the cases' `mangle` scripts too (and, in asserts.sh, the
# object readers)
# ---------------------------------------------------------------------------

# cdo_compile SRC OUT [extra flags...]: compile SRC (a path) into OUT with the
# kernel flags, from SRC's directory so that __FILE__ is the bare file name.
cdo_compile() {
	local src=$1 out=$2
	shift 2
	local dir=. base=${src##*/}
	# (dirname and basename, without their two processes)
	[[ "$src" == */* ]] && dir=${src%/*} && dir=${dir:-/}
	case "$out" in /*) ;; *) out=$PWD/$out ;; esac
	(cd "$dir" && "${CC_RUN[@]}" "${KERNEL_CFLAGS[@]}" -I"$INC" -I. "${CASE_CFLAGS[@]}" \
		"$@" -c "$base" -o "$out")
}

# copy_text SRC DST: a copy of the text file SRC (a case's source, header or
# symvers: no NUL bytes) with builtins, without a cp process per file
copy_text() {
	local text=""
	IFS= read -r -d '' text <"$1"
	printf '%s' "$text" >"$2"
}

# ---------------------------------------------------------------------------
# The cases' objects, kept between runs. $OBJCACHE/NAME/ holds a case's
# NAME.ORIG.o and NAME.PATCHED.o, their compile logs and parent.symtab (the
# readelf -s of ORIG), and `key`: the inputs they came from (the case's cflags,
# sources and headers). $OBJCACHE/run-key holds what every case's objects
# depend on: the compiler (its --version line, its driver's and cc1's size and
# mtime), the environment variables GCC takes paths from, the flags and every
# file of include/ (with -nostdinc the only headers a case reaches but its
# own); when that differs the whole cache is dropped. A case whose inputs are
# the same takes its objects with one cp, instead of two compiles through
# ccache and a readelf (~45 ms of CPU, a tenth of a case). Not kept: the
# cases with parent/ objects. CDO_OBJCACHE=0: every case compiled.
# ---------------------------------------------------------------------------
OBJCACHE=
objcache_init() {
	local key drv cc1 stamps f text v stored=""
	[ "${CDO_OBJCACHE:-1}" != 0 ] || return 0
	drv=$(command -v "$CC") && cc1=$("$CC" -print-prog-name=cc1) &&
		stamps=$(stat -L -c '%n %s %Y' "$drv" "$cc1") || return 0
	key="compiler $("$CC" --version 2>/dev/null | head -n 1)"$'\n'"$stamps"
	for v in CPATH C_INCLUDE_PATH GCC_EXEC_PREFIX COMPILER_PATH SOURCE_DATE_EPOCH; do
		key+=$'\n'"$v=${!v-(unset)}"
	done
	key+=$'\n'"flags ${KERNEL_CFLAGS[*]} -I$INC"
	for f in "$INC"/*; do
		text=""
		IFS= read -r -d '' text <"$f"
		key+=$'\n'"file ${f##*/}"$'\n'"$text"
	done
	OBJCACHE=$OUT_ROOT/.objects
	[ -f "$OBJCACHE/run-key" ] && IFS= read -r -d '' stored <"$OBJCACHE/run-key"
	[ "$stored" = "$key" ] && return 0
	rm -rf "$OBJCACHE"
	mkdir -p "$OBJCACHE" && printf '%s' "$key" >"$OBJCACHE/run-key" || OBJCACHE=
}

# objcache_take NAME KEY: the case's objects from the cache, when they were
# compiled from KEY
objcache_take() {
	local dir=$OBJCACHE/$1 stored=""
	[ -n "$OBJCACHE" ] && [ ! -d "$CDIR/parent" ] && [ -f "$dir/key" ] || return 1
	IFS= read -r -d '' stored <"$dir/key"
	[ "$stored" = "$2" ] &&
		cp "$dir/$1.ORIG.o" "$dir/$1.PATCHED.o" "$dir/cc-orig.log" "$dir/cc-patched.log" \
			"$dir/parent.symtab" "$W/"
}

# objcache_keep NAME KEY: the case's objects (compiled, and parent.symtab
# read) into the cache, the key written last: an entry cut short has none
objcache_keep() {
	local dir=$OBJCACHE/$1
	[ -n "$OBJCACHE" ] && [ ! -d "$CDIR/parent" ] || return 0
	[ -d "$dir" ] || mkdir -p "$dir" || return 0
	: >"$dir/key"
	cp "$ORIG" "$PATCHED" "$W/cc-orig.log" "$W/cc-patched.log" "$SYMTAB" "$dir/" &&
		printf '%s' "$2" >"$dir/key"
}

# the assertions of the `expect` files, and the object readers they use
# shellcheck source=test/cdo/asserts.sh
. "$HERE/asserts.sh"

# ---------------------------------------------------------------------------
# one case, in steps; each returns 1 with the reason in $W/result.txt ($LOG)
# ---------------------------------------------------------------------------

# WORKDIR_FRESH[NAME]: the case's work directory was emptied and created by
# workdirs_prepare; a case not in it (run a second time) empties its own
declare -A WORKDIR_FRESH=()

# workdirs_prepare NAME...: the work directories of the cases, emptied and
# created in two processes for all of them (not an rm and a mkdir per case)
workdirs_prepare() {
	local c dirs=()
	for c; do
		dirs+=("$OUT_ROOT/$c")
		WORKDIR_FRESH[$c]=1
	done
	[ ${#dirs[@]} -gt 0 ] || return 0
	rm -rf "${dirs[@]}"
	mkdir -p "${dirs[@]/%//orig}" "${dirs[@]/%//patched}"
}

# case_setup NAME: work directory, expectations, flags, parent name
case_setup() {
	local name=$1 cf more line
	objects_changed
	CDIR=$CASES_DIR/$name
	W=$OUT_ROOT/$name
	LOG=$W/result.txt
	if [ -n "${WORKDIR_FRESH[$name]:-}" ]; then
		unset 'WORKDIR_FRESH[$name]'
	else
		rm -rf "$W"
		mkdir -p "$W/orig" "$W/patched"
	fi
	: >"$LOG"
	if [ ! -f "$CDIR/orig.c" ] || [ ! -f "$CDIR/patched.c" ]; then
		echo "case $name: orig.c or patched.c missing" >"$LOG"
		return 1
	fi
	if [ "$COMPILE_ONLY" = 0 ]; then
		if [ ! -f "$CDIR/expect" ]; then
			echo "case $name: no expect file" >"$LOG"
			return 1
		fi
		local arch_expect=()
		[ -f "$CDIR/expect.$CDO_ARCH" ] && arch_expect=("$CDIR/expect.$CDO_ARCH")
		resolve_expect "$CDIR/expect" "${arch_expect[@]}" >"$W/expect" 2>>"$LOG" ||
			return 1
	fi
	CASE_CFLAGS=()
	for cf in "$CDIR/cflags" "$CDIR/cflags.$CDO_ARCH"; do
		[ -f "$cf" ] || continue
		# the words of its lines that do not start with '#'
		while IFS= read -r line || [ -n "$line" ]; do
			[[ "$line" == '#'* ]] && continue
			read -r -a more <<<"$line"
			CASE_CFLAGS+=("${more[@]}")
		done <"$cf"
	done
	OBJNAME=vmlinux
	if [ -f "$CDIR/objname" ]; then
		OBJNAME=""
		IFS= read -r OBJNAME <"$CDIR/objname" || :
	fi
	return 0
}

# case_compile NAME: ORIG and PATCHED, each from its own directory under the
# name NAME.c (the same STT_FILE and __FILE__), with the case's headers; or
# taken from the object cache (OBJ_TAKEN=1), CASE_KEY their inputs
case_compile() {
	local name=$1 src=$1.c f text
	CASE_KEY="cflags ${CASE_CFLAGS[*]}"
	for f in "$CDIR/orig.c" "$CDIR/patched.c" "$CDIR"/*.h; do
		[ -f "$f" ] || continue
		text=""
		IFS= read -r -d '' text <"$f"
		CASE_KEY+=$'\n'"file ${f##*/}"$'\n'"$text"
		case $f in
		*/orig.c) printf '%s' "$text" >"$W/orig/$src" ;;
		*/patched.c) printf '%s' "$text" >"$W/patched/$src" ;;
		*) printf '%s' "$text" >"$W/orig/${f##*/}" && printf '%s' "$text" >"$W/patched/${f##*/}" ;;
		esac
	done
	ORIG=$W/$name.ORIG.o
	PATCHED=$W/$name.PATCHED.o
	OUT=$W/$name.OUTPUT.o
	OBJ_TAKEN=0
	if objcache_take "$name" "$CASE_KEY"; then
		OBJ_TAKEN=1
		return 0
	fi
	if ! cdo_compile "$W/orig/$src" "$ORIG" >"$W/cc-orig.log" 2>&1; then
		{ echo "compiling orig.c failed:"; cat "$W/cc-orig.log"; } >"$LOG"
		return 1
	fi
	if ! cdo_compile "$W/patched/$src" "$PATCHED" >"$W/cc-patched.log" 2>&1; then
		{ echo "compiling patched.c failed:"; cat "$W/cc-patched.log"; } >"$LOG"
		return 1
	fi
}

# case_parent NAME: the parent's symbol table, of ORIG alone or of ORIG linked
# with the case's parent/*.c
case_parent() {
	SYMTAB=$W/parent.symtab
	if [ ! -d "$CDIR/parent" ]; then
		# (a cached case's came with its objects)
		[ "$OBJ_TAKEN" = 1 ] && return 0
		readelf -s --wide "$ORIG" >"$SYMTAB" && objcache_keep "$1" "$CASE_KEY"
		return 0
	fi
	mkdir -p "$W/parent"
	local order=() f objs=()
	if [ -f "$CDIR/parent/order" ]; then
		# its lines, but comments and empty ones
		while IFS= read -r f || [ -n "$f" ]; do
			[[ -z "$f" || "$f" == '#'* ]] || order+=("$f")
		done <"$CDIR/parent/order"
	else
		order=(ORIG)
		for f in "$CDIR"/parent/*.c; do
			[ -f "$f" ] && order+=("${f##*/}")
		done
	fi
	for f in "${order[@]}"; do
		if [ "$f" = ORIG ]; then
			objs+=("$ORIG")
			continue
		fi
		copy_text "$CDIR/parent/$f" "$W/parent/$f"
		if ! cdo_compile "$W/parent/$f" "$W/parent/${f%.c}.o" >"$W/cc-parent.log" 2>&1; then
			{ echo "compiling parent/$f failed:"; cat "$W/cc-parent.log"; } >"$LOG"
			return 1
		fi
		objs+=("$W/parent/${f%.c}.o")
	done
	if ! "$LD" -r -o "$W/parent.o" "${objs[@]}" >"$W/ld-parent.log" 2>&1; then
		{ echo "ld -r of the parent failed:"; cat "$W/ld-parent.log"; } >"$LOG"
		return 1
	fi
	readelf -s --wide "$W/parent.o" >"$SYMTAB"
}

# case_inputs: Module.symvers, then the case's mangle script
case_inputs() {
	# /dev/null (as in the kpatch corpus) unless the case brings one.
	# Undefined symbols of ORIG.o that PARENT_SYMTAB does not define
	# (_printk, __fentry__, ...) are taken as exported by the differ.
	SYMVERS=/dev/null
	if [ -f "$CDIR/symvers" ]; then
		SYMVERS=$W/Module.symvers
		copy_text "$CDIR/symvers" "$SYMVERS"
	fi
	# the case may damage or replace the inputs
	[ -f "$CDIR/mangle" ] || return 0
	# shellcheck disable=SC2034,SC1091  # (CASEDIR is for the script, which is per case)
	if ! (cd "$W" && CASEDIR=$CDIR && . "$CDIR/mangle") >"$W/mangle.log" 2>&1; then
		{ echo "mangle script failed:"; cat "$W/mangle.log"; } >"$LOG"
		return 1
	fi
}

# case_env: the differ's environment, the defaults and the case's `env` file:
# ENV_SET (VAR=value words), ENV_UNSET (-u VAR pairs; a default it names is
# dropped from ENV_SET)
case_env() {
	local envargs=("${DEFAULT_ENV[@]}") line e u skip
	ENV_UNSET=()
	if [ -f "$CDIR/env" ]; then
		while read -r line; do
			case "$line" in ''|'#'*) continue ;; esac
			if [[ "$line" == *= ]]; then
				ENV_UNSET+=(-u "${line%=}")
			else
				envargs+=("$line")
			fi
		done <"$CDIR/env"
	fi
	ENV_SET=()
	for e in "${envargs[@]}"; do
		skip=0
		for ((u = 1; u < ${#ENV_UNSET[@]}; u += 2)); do
			[ "${e%%=*}" = "${ENV_UNSET[$u]}" ] && skip=1
		done
		[ $skip = 0 ] && ENV_SET+=("$e")
	done
	return 0
}

# case_differ NAME: runs the differ (RC, stderr in $ERRF; the command line in
# command.sh, to rerun by hand)
case_differ() {
	local cmd=("$CDO" -d "$ORIG" "$PATCHED" "$OBJNAME" "$SYMTAB" "$SYMVERS" "test_$1" "$OUT") u e

	ERRF=$W/stderr.txt
	printf '%q ' env "${ENV_UNSET[@]}" "${ENV_SET[@]}" "${cmd[@]}" >"$W/command.sh"
	echo >>"$W/command.sh"
	# (rm only when there is something to remove: the case's work directory is new)
	if [ -e "$OUT" ] || [ -L "$OUT" ]; then
		rm -f "$OUT"
	fi
	# (what command.sh's env does, with builtins in the subshell: one process fewer)
	(
		cd "$W" || exit 1
		for ((u = 1; u < ${#ENV_UNSET[@]}; u += 2)); do
			unset "${ENV_UNSET[u]}"
		done
		for e in "${ENV_SET[@]}"; do
			export "${e?}"
		done
		exec timeout -k 5 "$TIMEOUT" "${cmd[@]}"
	) >"$W/stdout.txt" 2>"$ERRF"
	RC=$?
	objects_changed
	mapfile -t DIFFER_STDERR <"$ERRF"
}

# output_listing_complains: reads the output with `readelf -aW`, its listing
# kept for the assertions' readers (asserts.sh); 0 when readelf printed a
# warning (a line on stderr)
output_listing_complains() {
	local complaints="" listing=$W/readelf-a.txt

	readelf -aW "$OUT" >"$listing" 2>"$W/readelf-a.stderr"
	object_listing_file "$OUT" "$listing"
	read -r -d '' complaints <"$W/readelf-a.stderr"
	[[ "$complaints" == *[!$'\n']* ]]
}

# differ_stderr_has_sanitizer_report: ASan's or UBSan's words on a line
differ_stderr_has_sanitizer_report() {
	local line
	for line in "${DIFFER_STDERR[@]}"; do
		[[ "$line" == *AddressSanitizer* || "$line" == *UndefinedBehaviorSanitizer* ||
			"$line" == *"runtime error:"* ]] && return 0
	done
	return 1
}

# case_sane: what fails a run whatever the expectations say (a timeout, a
# crash, a sanitizer report, an exit 0 without a sane output object)
case_sane() {
	local ok=0
	if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
		echo "differ timed out after ${TIMEOUT}s" >>"$LOG"
		ok=1
	elif [ "$RC" -ge 128 ]; then
		echo "differ crashed (signal $((RC - 128)))" >>"$LOG"
		ok=1
	fi
	if differ_stderr_has_sanitizer_report; then
		echo "sanitizer report on stderr" >>"$LOG"
		ok=1
	fi
	[ "$RC" = 0 ] || return $ok
	# a written output must be a sane object that ld accepts
	if [ ! -f "$OUT" ]; then
		echo "exit 0 but no output object" >>"$LOG"
		ok=1
	elif output_listing_complains; then
		echo "readelf complains about the output:" >>"$LOG"
		head -5 "$W/readelf-a.stderr" >>"$LOG"
		ok=1
	elif ! "$LD" -r -o "$W/relink.o" "$OUT" >"$W/relink.log" 2>&1; then
		echo "ld -r rejects the output:" >>"$LOG"
		head -5 "$W/relink.log" >>"$LOG"
		ok=1
	fi
	return $ok
}

# case_expect: every assertion in effect ($W/expect) holds
case_expect() {
	local ok=0 from line neg words held
	while IFS=$'\t' read -r from line; do
		neg=0
		if [[ "$line" == '!'* ]]; then
			neg=1
			line=${line#!}
			line=${line#"${line%%[![:space:]]*}"}
		fi
		read -r -a words <<<"$line"
		WHY=""
		ASSERT_INVALID=0
		check_one "${words[@]}"
		held=$?
		if [ "$ASSERT_INVALID" = 1 ]; then
			[ $neg = 0 ] || line="!$line"
			echo "$from: '$line': $WHY" >>"$LOG"
			ok=1
		elif [ $held = 0 ] && [ $neg = 1 ]; then
			echo "$from: '!$line' holds but must not" >>"$LOG"
			ok=1
		elif [ $held != 0 ] && [ $neg = 0 ]; then
			echo "$from: '$line': $WHY" >>"$LOG"
			ok=1
		fi
	done <"$W/expect"
	return $ok
}

run_case() {
	local ok=0

	case_setup "$1" && case_compile "$1" && case_parent "$1" && case_inputs || return 1
	[ "$COMPILE_ONLY" = 1 ] && return 0
	case_env
	case_differ "$1"
	case_sane || ok=1
	case_expect || ok=1
	return $ok
}

# arches_list FILE: a line of FILE not starting with '#' has $CDO_ARCH as a
# word (grep -w: not inside a longer run of letters, digits and _)
arches_list() {
	local line word_re="(^|[^[:alnum:]_])${CDO_ARCH}([^[:alnum:]_]|\$)"
	while IFS= read -r line || [ -n "$line" ]; do
		[[ "$line" != '#'* && "$line" =~ $word_re ]] && return 0
	done <"$1"
	return 1
}

# report_case NAME: runs it and reports it (the whole of result.txt on a
# failure; with -v the differ's stderr too)
report_case() {
	local c=$1 detail

	if [ ! -d "$CASES_DIR/$c" ]; then
		fail "$c" "no such case"
		return
	fi
	# a case whose `arches` file does not list this architecture tests
	# something only the listed ones have (paravirt, IBT, ...)
	if [ -f "$CASES_DIR/$c/arches" ] && ! arches_list "$CASES_DIR/$c/arches"; then
		skip "$c" "not on $CDO_ARCH (arches)"
		return
	fi
	RC=
	if run_case "$c"; then
		detail=""
		[ "$COMPILE_ONLY" = 1 ] && detail=compiled
		pass "$c" "$detail"
		[ "$VERBOSE" = 1 ] && [ -s "$W/result.txt" ] && sed 's/^/     /' "$W/result.txt"
		return
	fi
	fail "$c" "$(head -n 1 "$W/result.txt")"
	sed '1d; s/^/     /' "$W/result.txt"
	if [ "$VERBOSE" = 1 ] && [ -f "$W/stderr.txt" ]; then
		echo "     --- differ stderr (exit ${RC:-?}):"
		head -40 "$W/stderr.txt" | sed 's/^/     | /'
	fi
}

objcache_init

# the cases that run (named, existing, on this architecture), their work
# directories made ready at once
run_cases=()
for c in "${CASES[@]}"; do
	c=${c%/}
	c=${c##*/}
	[ -d "$CASES_DIR/$c" ] || continue
	[ -f "$CASES_DIR/$c/arches" ] && ! arches_list "$CASES_DIR/$c/arches" && continue
	run_cases+=("$c")
done
workdirs_prepare ${run_cases[@]+"${run_cases[@]}"}

for c in "${CASES[@]}"; do
	c=${c%/}
	report_case "${c##*/}"
done
result_summary
