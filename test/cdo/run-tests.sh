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
		CASES+=("$(basename "$d")")
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
# helpers used by the cases' `mangle` scripts too
# ---------------------------------------------------------------------------

# cdo_compile SRC OUT [extra flags...]: compile SRC (a path) into OUT with the
# kernel flags, from SRC's directory so that __FILE__ is the bare file name.
cdo_compile() {
	local src=$1 out=$2
	shift 2
	local dir base
	dir=$(dirname "$src")
	base=$(basename "$src")
	case "$out" in /*) ;; *) out=$PWD/$out ;; esac
	(cd "$dir" && "$CC" "${KERNEL_CFLAGS[@]}" -I"$INC" -I. "${CASE_CFLAGS[@]}" \
		"$@" -c "$base" -o "$out")
}

# sections OBJ: section names, one a line
sections() {
	readelf -SW "$1" 2>/dev/null |
		sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p'
}

# section_size OBJ NAME: size in bytes (empty when absent)
# (no gawk-only strtonum anywhere: Debian's default awk is mawk)
section_size() {
	local h
	h=$(readelf -SW "$1" 2>/dev/null | awk -v n="$2" '
		{ sub(/^ *\[ *[0-9]+\] /, "") }
		$1 == n { print $5; exit }')
	[ -n "$h" ] && echo $((16#$h))
}

# relocs OBJ RELASEC: the relocation lines of RELASEC (readelf -rW format)
relocs() {
	readelf -rW "$1" 2>/dev/null | awk -v s="$2" '
		/^Relocation section / { on = ($3 == "\x27" s "\x27"); next }
		on && /^ *[0-9a-f]+ +[0-9a-f]+ +R_/ { print }
		/^$/ { on = 0 }'
}

rela_name() {
	case "$1" in
	.rela*) echo "$1" ;;
	*) echo ".rela$1" ;;
	esac
}

# symbols OBJ: "NDX NAME" for every symbol (NDX is UND for undefined)
symbols() {
	readelf -sW "$1" 2>/dev/null | sed 's/ \[<localentry>: [0-9]*\]//' |
		awk '$1 ~ /^[0-9]+:$/ && NF >= 8 { print $7, $8 }'
}

# dump_section OBJ NAME FILE: raw bytes of a section
dump_section() {
	"$OBJCOPY" --dump-section "$2=$3" "$1" /dev/null 2>/dev/null
}

# read_uint FILE OFFSET BYTES: unsigned integer in the target's byte order
read_uint() {
	local v="" hex
	if [ "$ARCH_ENDIAN" = little ]; then
		v=$(od -An -tu"$3" -j "$2" -N "$3" "$1" 2>/dev/null | tr -d ' ')
	else
		hex=$(od -An -tx1 -v -j "$2" -N "$3" "$1" 2>/dev/null | tr -d ' \n')
		[ ${#hex} = $(($3 * 2)) ] && v=$((16#$hex))
	fi
	echo "${v:-}"
}

# read_cstring FILE OFFSET
read_cstring() {
	tail -c +"$(($2 + 1))" "$1" 2>/dev/null | tr '\0' '\n' | head -n 1
}

# reloc_table OBJ RELASEC: "OFFSET TYPE SYMBOL ADDEND" a line, numbers in decimal
reloc_table() {
	local off info type val name sign add rest
	relocs "$1" "$2" | while read -r off info type val name sign add rest; do
		if [ -z "$sign" ]; then
			name=""
			add=0
		elif [ "$sign" = "-" ]; then
			add=$((-16#$add))
		else
			add=$((16#$add))
		fi
		echo "$((16#$off)) $type ${name:--} $add"
	done
}

# reloc_at TABLE OFFSET: "SYMBOL ADDEND" of the relocation at OFFSET
reloc_at() {
	awk -v off="$2" '$1 == off { print $3, $4; exit }' <<<"$1"
}

ere_escape() {
	sed -e 's/[][\.*^$+?(){}|/]/\\&/g' <<<"$1"
}

# ---------------------------------------------------------------------------
# assertions: check_one ASSERTION-WORDS... runs assert_KEYWORD (dashes as
# underscores), which returns 1 on failure with the reason in $WHY (why()).
# Context: $W (work dir), $OUT, $RC, $ERRF (differ's stderr), $OBJNAME
# ---------------------------------------------------------------------------
WHY=""
why() { WHY="$*"; return 1; }

need_out() {
	[ -f "$OUT" ] || why "no output object (differ exited $RC)"
}

assert_exit() {
	[ "$RC" = "$1" ] || why "exit status $RC, expected $1"
}

assert_funcs() {
	need_out || return 1
	local got want
	got=$("$NM" "$OUT" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u | xargs)
	want=$(printf '%s\n' "$@" | sort -u | xargs)
	[ "$got" = "$want" ] || why "functions in output: [$got], expected [$want]"
}

assert_has_sym() {
	need_out || return 1
	symbols "$OUT" | awk -v n="$1" '$2 == n && $1 != "UND" { f = 1 } END { exit !f }' ||
		why "no defined symbol $1 in output"
}

assert_binding() {
	need_out || return 1
	# (ppc64le prints "[<localentry>: 8]" inside the line)
	readelf -sW "$OUT" 2>/dev/null | sed 's/ \[<localentry>: [0-9]*\]//' |
		awk -v n="$1" -v b="$2" '$1 ~ /^[0-9]+:$/ && $8 == n && $7 != "UND" { f = 1; if ($5 != b) bad = $5 }
			END { if (bad) print "binding " bad; exit !f || bad != "" }' >"$W/binding.txt" ||
		why "symbol $1 is not a defined $2 symbol of the output ($(cat "$W/binding.txt"))"
}

assert_no_sym() {
	need_out || return 1
	! symbols "$OUT" | awk -v n="$1" '$2 == n { f = 1 } END { exit !f }' ||
		why "symbol $1 present in output"
}

assert_undef() {
	need_out || return 1
	symbols "$OUT" | awk -v n="$1" '$2 == n && $1 == "UND" { f = 1 } END { exit !f }' ||
		why "no undefined symbol $1 in output"
}

assert_klp() {
	need_out || return 1
	local obj=$1 name=$2 pos=$3 ksym sec lines off bin got
	ksym=".klp.sym.$obj.$name,$pos"
	symbols "$OUT" | awk -v n="$ksym" '$2 == n && $1 == "UND" { f = 1 } END { exit !f }' ||
		why "no undefined symbol $ksym in output" || return 1
	sec=".klp.module_relocs.$obj"
	lines=$(reloc_table "$OUT" ".rela$sec")
	off=$(awk -v n="$ksym" '$3 == n && $2 == r { print $1; exit }' r="$ARCH_R_ABS64" <<<"$lines")
	[ -n "$off" ] || why "no $ARCH_R_ABS64 record for $ksym in .rela$sec" || return 1
	bin=$W/klp-sec.bin
	dump_section "$OUT" "$sec" "$bin" || why "cannot read section $sec" || return 1
	got=$(read_uint "$bin" $((off + 8)) 4)
	[ "$got" = "$pos" ] || why "$sec record at $off for $ksym has sympos '$got', expected $pos"
}

assert_patched() {
	need_out || return 1
	local name=$1 want_old="" want_pos="" want_obj=$OBJNAME a
	shift
	for a in "$@"; do
		case "$a" in
		old=*) want_old=${a#old=} ;;
		sympos=*) want_pos=${a#sympos=} ;;
		obj=*) want_obj=${a#obj=} ;;
		*) why "bad patched option '$a'"; return 1 ;;
		esac
	done
	local lines off r sym add bin strbin got
	lines=$(reloc_table "$OUT" .rela.kpatch.funcs)
	off=$(awk -v n="$name" '$3 == n && $2 == r && $1 % 32 == 0 {
		print $1; exit }' r="$ARCH_R_ABS64" <<<"$lines")
	[ -n "$off" ] || why "no .kpatch.funcs record with new_func -> $name" || return 1
	strbin=$W/kpatch-strings.bin
	dump_section "$OUT" .kpatch.strings "$strbin" || why "no .kpatch.strings" || return 1
	if [ -n "$want_old" ]; then
		r=$(reloc_at "$lines" $((off + 8)))
		add=${r#* }
		got=$(read_cstring "$strbin" "${add:-0}")
		[ "$got" = "$want_old" ] || why "$name: old_name '$got', expected '$want_old'" || return 1
	fi
	r=$(reloc_at "$lines" $((off + 16)))
	add=${r#* }
	got=$(read_cstring "$strbin" "${add:-0}")
	[ "$got" = "$want_obj" ] || why "$name: objname '$got', expected '$want_obj'" || return 1
	if [ -n "$want_pos" ]; then
		bin=$W/kpatch-funcs.bin
		dump_section "$OUT" .kpatch.funcs "$bin" || why "cannot read .kpatch.funcs" || return 1
		got=$(read_uint "$bin" $((off + 24)) 8)
		[ "$got" = "$want_pos" ] || why "$name: sympos '$got', expected $want_pos"
	fi
}

assert_nfuncs_patched() {
	need_out || return 1
	local n
	n=$(section_size "$OUT" .kpatch.funcs)
	n=$(( ${n:-0} / 32 ))
	[ "$n" = "$1" ] || why ".kpatch.funcs has $n records, expected $1"
}

assert_error() {
	grep -E -q -- "^create-diff-object: .*($*)" "$ERRF" ||
		why "no error line matching /$*/ on stderr"
}

assert_refusal() {
	local sym=$1 re
	shift
	re="^create-diff-object: [^ ]+: $(ere_escape "$sym"): .*(${*:-.})"
	grep -E -q -- "$re" "$ERRF" ||
		why "no refusal line 'create-diff-object: <obj>: $sym: ...' matching /${*:-.}/"
}

assert_debug() {
	grep -E -q -- "$*" "$ERRF" || why "no stderr line matching /$*/"
}

assert_section() {
	need_out || return 1
	sections "$OUT" | grep -Fxq -- "$1" || why "no section $1 in output"
}

assert_no_section() {
	need_out || return 1
	! sections "$OUT" | grep -Fxq -- "$1" || why "section $1 present in output"
}

assert_no_section_re() {
	need_out || return 1
	! sections "$OUT" | grep -Eq -- "$1" || why "a section matching /$1/ is in the output"
}

assert_size() {
	need_out || return 1
	local got
	got=$(section_size "$OUT" "$1")
	[ "$got" = "$2" ] || why "section $1 size '${got:-absent}', expected $2"
}

assert_reloc() {
	need_out || return 1
	local sec re
	sec=$(rela_name "$1")
	shift
	re=$*
	relocs "$OUT" "$sec" | grep -E -q -- "$re" || why "no relocation in $sec matching /$re/"
}

assert_nrelocs() {
	need_out || return 1
	local sec n
	sec=$(rela_name "$1")
	n=$(relocs "$OUT" "$sec" | wc -l)
	[ "$n" = "$2" ] || why "$sec has $n relocations, expected $2"
}

assert_report_complete() {
	# every function/object the output defines has a reason in the
	# report, every klp symbol its "klp:" line and every other
	# undefined symbol its "exported:" line
	need_out || return 1
	local ndx type name missing=""
	while read -r ndx type name; do
		case "$ndx:$type:$name" in
		UND:*:.klp.sym.*)
			grep -E -q -- "klp: .* -> $(ere_escape "$name")\$" "$ERRF" ||
				missing+=" klp:$name" ;;
		UND:*:?*)
			grep -E -q -- "exported: $(ere_escape "$name")\$" "$ERRF" ||
				missing+=" exported:$name" ;;
		*:FUNC:?* | *:OBJECT:?*)
			grep -E -q -- "(patched|new|included): $(ere_escape "$name")( |\$)" "$ERRF" ||
				missing+=" $name" ;;
		esac
	done < <(readelf -sW "$OUT" 2>/dev/null |
		sed 's/ \[<localentry>: [0-9]*\]//' | awk '$1 ~ /^[0-9]+:$/ { print $7, $4, $8 }')
	[ -z "$missing" ] || why "no report line for:$missing"
}

check_one() {
	local kw=$1

	shift
	if ! declare -F "assert_${kw//-/_}" >/dev/null; then
		why "unknown assertion '$kw'"
		return 1
	fi
	"assert_${kw//-/_}" "$@"
}

# ---------------------------------------------------------------------------
# a case's expectations: `expect`, with `expect.ARCH` applied on ARCH
# ---------------------------------------------------------------------------

# resolve_expect BASE [ARCHFILE]: the assertions in effect, "ORIGIN<TAB>LINE" a
# line (ORIGIN is file:line, for the failure messages). ARCHFILE states only
# what differs on its architecture (README.md, "expect.ARCH"): "-ASSERTION"
# drops that line of the base, "-*" all of them; a line of a single-valued
# assertion (exit, funcs, nfuncs-patched, size SECTION, nrelocs SECTION)
# replaces the base's line of the same key; any other line is added. A removal
# the base does not have fails the case (the base changed under it), and so does
# a line the base already has (a whole file of the old form, which repeated it).
resolve_expect() {
	local arch=${2:-}

	awk -v arch="${arch##*/}" '
	function trim(s) {
		sub(/\r$/, "", s)
		gsub(/^[ \t]+|[ \t]+$/, "", s)
		return s
	}
	function key(s, w, n) {
		n = split(s, w, /[ \t]+/)
		if (w[1] == "exit" || w[1] == "funcs" || w[1] == "nfuncs-patched")
			return w[1]
		if ((w[1] == "size" || w[1] == "nrelocs") && n >= 2)
			return w[1] " " w[2]
		return ""
	}
	FNR == 1 { file++ }
	{ line = trim($0) }
	line == "" || line ~ /^#/ { next }
	file == 1 { n++; text[n] = line; from[n] = "expect:" FNR; next }
	line == "-*" { for (i = 1; i <= n; i++) delete text[i]; next }
	line ~ /^-/ {
		line = trim(substr(line, 2))
		for (i = 1; i <= n; i++)
			if ((i in text) && text[i] == line)
				break
		if (i > n) {
			printf "%s:%d: removes \"%s\", which expect does not have\n",
				arch, FNR, line > "/dev/stderr"
			bad = 1
		}
		delete text[i]
		next
	}
	{
		for (i = 1; i <= n; i++)
			if ((i in text) && text[i] == line && from[i] ~ /^expect:/) {
				printf "%s:%d: repeats %s (only what differs belongs here)\n",
					arch, FNR, from[i] > "/dev/stderr"
				bad = 1
			}
		k = key(line)
		for (i = 1; k != "" && i <= n; i++)
			if ((i in text) && key(text[i]) == k)
				break
		if (k == "" || i > n)
			i = ++n
		text[i] = line
		from[i] = arch ":" FNR
	}
	END {
		for (i = 1; i <= n; i++)
			if (i in text)
				printf "%s\t%s\n", from[i], text[i]
		exit bad
	}' "$@"
}

# ---------------------------------------------------------------------------
# one case, in steps; each returns 1 with the reason in $W/result.txt ($LOG)
# ---------------------------------------------------------------------------

# case_setup NAME: work directory, expectations, flags, parent name
case_setup() {
	local name=$1 cf more
	CDIR=$CASES_DIR/$name
	W=$OUT_ROOT/$name
	LOG=$W/result.txt
	rm -rf "$W"
	mkdir -p "$W/orig" "$W/patched"
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
		more=()
		read -r -a more < <(grep -v '^#' "$cf" | tr '\n' ' ')
		CASE_CFLAGS+=("${more[@]}")
	done
	OBJNAME=vmlinux
	[ -f "$CDIR/objname" ] && OBJNAME=$(head -n 1 "$CDIR/objname")
	return 0
}

# case_compile NAME: ORIG and PATCHED, each from its own directory under the
# name NAME.c (the same STT_FILE and __FILE__), with the case's headers
case_compile() {
	local name=$1 src=$1.c h
	cp "$CDIR/orig.c" "$W/orig/$src"
	cp "$CDIR/patched.c" "$W/patched/$src"
	for h in "$CDIR"/*.h; do
		[ -f "$h" ] && cp "$h" "$W/orig/" && cp "$h" "$W/patched/"
	done
	ORIG=$W/$name.ORIG.o
	PATCHED=$W/$name.PATCHED.o
	OUT=$W/$name.OUTPUT.o
	if ! cdo_compile "$W/orig/$src" "$ORIG" >"$W/cc-orig.log" 2>&1; then
		{ echo "compiling orig.c failed:"; cat "$W/cc-orig.log"; } >"$LOG"
		return 1
	fi
	if ! cdo_compile "$W/patched/$src" "$PATCHED" >"$W/cc-patched.log" 2>&1; then
		{ echo "compiling patched.c failed:"; cat "$W/cc-patched.log"; } >"$LOG"
		return 1
	fi
}

# case_parent: the parent's symbol table, of ORIG alone or of ORIG linked with
# the case's parent/*.c
case_parent() {
	SYMTAB=$W/parent.symtab
	if [ ! -d "$CDIR/parent" ]; then
		readelf -s --wide "$ORIG" >"$SYMTAB"
		return 0
	fi
	mkdir -p "$W/parent"
	local order=() f objs=()
	if [ -f "$CDIR/parent/order" ]; then
		mapfile -t order < <(grep -v '^#' "$CDIR/parent/order" | sed '/^$/d')
	else
		order=(ORIG)
		for f in "$CDIR"/parent/*.c; do
			[ -f "$f" ] && order+=("$(basename "$f")")
		done
	fi
	for f in "${order[@]}"; do
		if [ "$f" = ORIG ]; then
			objs+=("$ORIG")
			continue
		fi
		cp "$CDIR/parent/$f" "$W/parent/$f"
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
		cp "$CDIR/symvers" "$SYMVERS"
	fi
	# the case may damage or replace the inputs
	[ -f "$CDIR/mangle" ] || return 0
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
	local cmd=("$CDO" -d "$ORIG" "$PATCHED" "$OBJNAME" "$SYMTAB" "$SYMVERS" "test_$1" "$OUT")

	ERRF=$W/stderr.txt
	printf '%q ' env "${ENV_UNSET[@]}" "${ENV_SET[@]}" "${cmd[@]}" >"$W/command.sh"
	echo >>"$W/command.sh"
	rm -f "$OUT"
	(cd "$W" && timeout -k 5 "$TIMEOUT" env "${ENV_UNSET[@]}" "${ENV_SET[@]}" "${cmd[@]}") \
		>"$W/stdout.txt" 2>"$ERRF"
	RC=$?
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
	if grep -E -q "AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:" "$ERRF"; then
		echo "sanitizer report on stderr" >>"$LOG"
		ok=1
	fi
	[ "$RC" = 0 ] || return $ok
	# a written output must be a sane object that ld accepts
	if [ ! -f "$OUT" ]; then
		echo "exit 0 but no output object" >>"$LOG"
		ok=1
	elif readelf -aW "$OUT" 2>&1 >/dev/null | grep -q .; then
		echo "readelf complains about the output:" >>"$LOG"
		readelf -aW "$OUT" 2>&1 >/dev/null | head -5 >>"$LOG"
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
	local ok=0 from line neg words
	while IFS=$'\t' read -r from line; do
		neg=0
		if [[ "$line" == '!'* ]]; then
			neg=1
			line=$(sed -e 's/^![[:space:]]*//' <<<"$line")
		fi
		read -r -a words <<<"$line"
		WHY=""
		if check_one "${words[@]}"; then
			if [ $neg = 1 ]; then
				echo "$from: '!$line' holds but must not" >>"$LOG"
				ok=1
			fi
		elif [ $neg = 0 ]; then
			echo "$from: '$line': $WHY" >>"$LOG"
			ok=1
		fi
	done <"$W/expect"
	return $ok
}

run_case() {
	local ok=0

	case_setup "$1" && case_compile "$1" && case_parent && case_inputs || return 1
	[ "$COMPILE_ONLY" = 1 ] && return 0
	case_env
	case_differ "$1"
	case_sane || ok=1
	case_expect || ok=1
	return $ok
}

# report_case NAME: runs it and reports it (the whole of result.txt on a
# failure; with -v the differ's stderr too)
report_case() {
	local c=$1

	if [ ! -d "$CASES_DIR/$c" ]; then
		fail "$c" "no such case"
		return
	fi
	# a case whose `arches` file does not list this architecture tests
	# something only the listed ones have (paravirt, IBT, ...)
	if [ -f "$CASES_DIR/$c/arches" ] &&
		! grep -v '^#' "$CASES_DIR/$c/arches" | grep -qw -- "$CDO_ARCH"; then
		skip "$c" "not on $CDO_ARCH (arches)"
		return
	fi
	RC=
	if run_case "$c"; then
		pass "$c" "$([ "$COMPILE_ONLY" = 1 ] && echo compiled)"
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

for c in "${CASES[@]}"; do
	c=${c%/}
	report_case "${c##*/}"
done
result_summary
