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
# test/out/cdo-ARCH/NAME/ (kept; -k is accepted for compatibility). The last
# line is "N passed, N failed".
set -u
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CASES_DIR=$HERE/cases
INC=$HERE/include
TIMEOUT=${CDO_TIMEOUT:-60}

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
if [ "$CDO_ARCH" = x86_64 ]; then
	OUT_ROOT=${CDO_OUT:-$REPO/test/out/cdo}
else
	OUT_ROOT=${CDO_OUT:-$REPO/test/out/cdo-$CDO_ARCH}
fi
if ! command -v "$CC" >/dev/null; then
	echo "run-tests.sh: no compiler $CC for $CDO_ARCH (scripts/install-deps installs it)" >&2
	echo "cdo $CDO_ARCH: 0 passed, 1 failed"
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
	echo "cdo: 0 passed, ${#CASES[@]} failed"
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
# assertions: check_one ASSERTION-WORDS...; prints a reason and returns 1 on
# failure. Context: $W (work dir), $OUT, $RC, $ERRF (differ's stderr), $OBJNAME
# ---------------------------------------------------------------------------
FAILMSG=""
fail() { FAILMSG="$*"; return 1; }

need_out() {
	[ -f "$OUT" ] || fail "no output object (differ exited $RC)"
}

check_one() {
	local kw=$1
	shift
	case "$kw" in
	exit)
		[ "$RC" = "$1" ] || fail "exit status $RC, expected $1"
		;;
	funcs)
		need_out || return 1
		local got want
		got=$("$NM" "$OUT" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u | xargs)
		want=$(printf '%s\n' "$@" | sort -u | xargs)
		[ "$got" = "$want" ] || fail "functions in output: [$got], expected [$want]"
		;;
	has-sym)
		need_out || return 1
		symbols "$OUT" | awk -v n="$1" '$2 == n && $1 != "UND" { f = 1 } END { exit !f }' ||
			fail "no defined symbol $1 in output"
		;;
	binding)
		need_out || return 1
		# (ppc64le prints "[<localentry>: 8]" inside the line)
		readelf -sW "$OUT" 2>/dev/null | sed 's/ \[<localentry>: [0-9]*\]//' |
			awk -v n="$1" -v b="$2" '$1 ~ /^[0-9]+:$/ && $8 == n && $7 != "UND" { f = 1; if ($5 != b) bad = $5 }
				END { if (bad) print "binding " bad; exit !f || bad != "" }' >"$W/binding.txt" ||
			fail "symbol $1 is not a defined $2 symbol of the output ($(cat "$W/binding.txt"))"
		;;
	no-sym)
		need_out || return 1
		! symbols "$OUT" | awk -v n="$1" '$2 == n { f = 1 } END { exit !f }' ||
			fail "symbol $1 present in output"
		;;
	undef)
		need_out || return 1
		symbols "$OUT" | awk -v n="$1" '$2 == n && $1 == "UND" { f = 1 } END { exit !f }' ||
			fail "no undefined symbol $1 in output"
		;;
	klp)
		need_out || return 1
		local obj=$1 name=$2 pos=$3 ksym sec lines off bin got
		ksym=".klp.sym.$obj.$name,$pos"
		symbols "$OUT" | awk -v n="$ksym" '$2 == n && $1 == "UND" { f = 1 } END { exit !f }' ||
			fail "no undefined symbol $ksym in output" || return 1
		sec=".klp.module_relocs.$obj"
		lines=$(reloc_table "$OUT" ".rela$sec")
		off=$(awk -v n="$ksym" '$3 == n && $2 == r { print $1; exit }' r="$ARCH_R_ABS64" <<<"$lines")
		[ -n "$off" ] || fail "no $ARCH_R_ABS64 record for $ksym in .rela$sec" || return 1
		bin=$W/klp-sec.bin
		dump_section "$OUT" "$sec" "$bin" || fail "cannot read section $sec" || return 1
		got=$(read_uint "$bin" $((off + 8)) 4)
		[ "$got" = "$pos" ] || fail "$sec record at $off for $ksym has sympos '$got', expected $pos"
		;;
	patched)
		need_out || return 1
		local name=$1 want_old="" want_pos="" want_obj=$OBJNAME a
		shift
		for a in "$@"; do
			case "$a" in
			old=*) want_old=${a#old=} ;;
			sympos=*) want_pos=${a#sympos=} ;;
			obj=*) want_obj=${a#obj=} ;;
			*) fail "bad patched option '$a'"; return 1 ;;
			esac
		done
		local lines off r sym add bin strbin got
		lines=$(reloc_table "$OUT" .rela.kpatch.funcs)
		off=$(awk -v n="$name" '$3 == n && $2 == r && $1 % 32 == 0 {
			print $1; exit }' r="$ARCH_R_ABS64" <<<"$lines")
		[ -n "$off" ] || fail "no .kpatch.funcs record with new_func -> $name" || return 1
		strbin=$W/kpatch-strings.bin
		dump_section "$OUT" .kpatch.strings "$strbin" || fail "no .kpatch.strings" || return 1
		if [ -n "$want_old" ]; then
			r=$(reloc_at "$lines" $((off + 8)))
			add=${r#* }
			got=$(read_cstring "$strbin" "${add:-0}")
			[ "$got" = "$want_old" ] || fail "$name: old_name '$got', expected '$want_old'" || return 1
		fi
		r=$(reloc_at "$lines" $((off + 16)))
		add=${r#* }
		got=$(read_cstring "$strbin" "${add:-0}")
		[ "$got" = "$want_obj" ] || fail "$name: objname '$got', expected '$want_obj'" || return 1
		if [ -n "$want_pos" ]; then
			bin=$W/kpatch-funcs.bin
			dump_section "$OUT" .kpatch.funcs "$bin" || fail "cannot read .kpatch.funcs" || return 1
			got=$(read_uint "$bin" $((off + 24)) 8)
			[ "$got" = "$want_pos" ] || fail "$name: sympos '$got', expected $want_pos"
		fi
		;;
	nfuncs-patched)
		need_out || return 1
		local n
		n=$(section_size "$OUT" .kpatch.funcs)
		n=$(( ${n:-0} / 32 ))
		[ "$n" = "$1" ] || fail ".kpatch.funcs has $n records, expected $1"
		;;
	error)
		grep -E -q -- "^create-diff-object: .*($*)" "$ERRF" ||
			fail "no error line matching /$*/ on stderr"
		;;
	refusal)
		local sym=$1 re
		shift
		re="^create-diff-object: [^ ]+: $(ere_escape "$sym"): .*(${*:-.})"
		grep -E -q -- "$re" "$ERRF" ||
			fail "no refusal line 'create-diff-object: <obj>: $sym: ...' matching /${*:-.}/"
		;;
	debug)
		grep -E -q -- "$*" "$ERRF" || fail "no stderr line matching /$*/"
		;;
	section)
		need_out || return 1
		sections "$OUT" | grep -Fxq -- "$1" || fail "no section $1 in output"
		;;
	no-section)
		need_out || return 1
		! sections "$OUT" | grep -Fxq -- "$1" || fail "section $1 present in output"
		;;
	no-section-re)
		need_out || return 1
		! sections "$OUT" | grep -Eq -- "$1" || fail "a section matching /$1/ is in the output"
		;;
	size)
		need_out || return 1
		local got
		got=$(section_size "$OUT" "$1")
		[ "$got" = "$2" ] || fail "section $1 size '${got:-absent}', expected $2"
		;;
	reloc)
		need_out || return 1
		local sec re
		sec=$(rela_name "$1")
		shift
		re=$*
		relocs "$OUT" "$sec" | grep -E -q -- "$re" || fail "no relocation in $sec matching /$re/"
		;;
	nrelocs)
		need_out || return 1
		local sec n
		sec=$(rela_name "$1")
		n=$(relocs "$OUT" "$sec" | wc -l)
		[ "$n" = "$2" ] || fail "$sec has $n relocations, expected $2"
		;;
	report-complete)
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
		[ -z "$missing" ] || fail "no report line for:$missing"
		;;
	*)
		fail "unknown assertion '$kw'"
		;;
	esac
}

# ---------------------------------------------------------------------------
# one case
# ---------------------------------------------------------------------------
PASS=0
FAILED=0
SKIPPED=0
FAILED_NAMES=()

run_case() {
	local name=$1 cdir=$CASES_DIR/$1
	W=$OUT_ROOT/$name
	rm -rf "$W"
	mkdir -p "$W/orig" "$W/patched"
	local log=$W/result.txt
	: >"$log"
	if [ ! -f "$cdir/orig.c" ] || [ ! -f "$cdir/patched.c" ]; then
		echo "case $name: orig.c or patched.c missing" >"$log"
		return 1
	fi
	EXPECT=$cdir/expect
	[ -f "$cdir/expect.$CDO_ARCH" ] && EXPECT=$cdir/expect.$CDO_ARCH
	if [ "$COMPILE_ONLY" = 0 ] && [ ! -f "$EXPECT" ]; then
		echo "case $name: no expect file" >"$log"
		return 1
	fi

	CASE_CFLAGS=()
	local cf
	for cf in "$cdir/cflags" "$cdir/cflags.$CDO_ARCH"; do
		[ -f "$cf" ] || continue
		local more=()
		read -r -a more < <(grep -v '^#' "$cf" | tr '\n' ' ')
		CASE_CFLAGS+=("${more[@]}")
	done
	OBJNAME=vmlinux
	[ -f "$cdir/objname" ] && OBJNAME=$(head -n 1 "$cdir/objname")

	local src=$name.c h
	cp "$cdir/orig.c" "$W/orig/$src"
	cp "$cdir/patched.c" "$W/patched/$src"
	for h in "$cdir"/*.h; do
		[ -f "$h" ] && cp "$h" "$W/orig/" && cp "$h" "$W/patched/"
	done
	ORIG=$W/$name.ORIG.o
	PATCHED=$W/$name.PATCHED.o
	OUT=$W/$name.OUTPUT.o
	if ! cdo_compile "$W/orig/$src" "$ORIG" >"$W/cc-orig.log" 2>&1; then
		{ echo "compiling orig.c failed:"; cat "$W/cc-orig.log"; } >"$log"
		return 1
	fi
	if ! cdo_compile "$W/patched/$src" "$PATCHED" >"$W/cc-patched.log" 2>&1; then
		{ echo "compiling patched.c failed:"; cat "$W/cc-patched.log"; } >"$log"
		return 1
	fi

	# the parent's symbol table
	SYMTAB=$W/parent.symtab
	if [ -d "$cdir/parent" ]; then
		mkdir -p "$W/parent"
		local order=() f objs=()
		if [ -f "$cdir/parent/order" ]; then
			mapfile -t order < <(grep -v '^#' "$cdir/parent/order" | sed '/^$/d')
		else
			order=(ORIG)
			for f in "$cdir"/parent/*.c; do
				[ -f "$f" ] && order+=("$(basename "$f")")
			done
		fi
		for f in "${order[@]}"; do
			if [ "$f" = ORIG ]; then
				objs+=("$ORIG")
				continue
			fi
			cp "$cdir/parent/$f" "$W/parent/$f"
			if ! cdo_compile "$W/parent/$f" "$W/parent/${f%.c}.o" >"$W/cc-parent.log" 2>&1; then
				{ echo "compiling parent/$f failed:"; cat "$W/cc-parent.log"; } >"$log"
				return 1
			fi
			objs+=("$W/parent/${f%.c}.o")
		done
		if ! "$LD" -r -o "$W/parent.o" "${objs[@]}" >"$W/ld-parent.log" 2>&1; then
			{ echo "ld -r of the parent failed:"; cat "$W/ld-parent.log"; } >"$log"
			return 1
		fi
		readelf -s --wide "$W/parent.o" >"$SYMTAB"
	else
		readelf -s --wide "$ORIG" >"$SYMTAB"
	fi

	# Module.symvers: /dev/null (as in the kpatch corpus) unless the case
	# brings one. Undefined symbols of ORIG.o that PARENT_SYMTAB does not
	# define (_printk, __fentry__, ...) are taken as exported by the differ.
	SYMVERS=/dev/null
	if [ -f "$cdir/symvers" ]; then
		SYMVERS=$W/Module.symvers
		cp "$cdir/symvers" "$SYMVERS"
	fi

	# the case may damage or replace the inputs
	if [ -f "$cdir/mangle" ]; then
		if ! (cd "$W" && CASEDIR=$cdir && . "$cdir/mangle") >"$W/mangle.log" 2>&1; then
			{ echo "mangle script failed:"; cat "$W/mangle.log"; } >"$log"
			return 1
		fi
	fi

	[ "$COMPILE_ONLY" = 1 ] && return 0

	# environment
	local envargs=("${DEFAULT_ENV[@]}") unset_args=() line
	if [ -f "$cdir/env" ]; then
		while read -r line; do
			case "$line" in ''|'#'*) continue ;; esac
			if [[ "$line" == *= ]]; then
				unset_args+=(-u "${line%=}")
			else
				envargs+=("$line")
			fi
		done <"$cdir/env"
	fi
	local kept=() e
	for e in "${envargs[@]}"; do
		local skip=0 u
		for ((u = 1; u < ${#unset_args[@]}; u += 2)); do
			[ "${e%%=*}" = "${unset_args[$u]}" ] && skip=1
		done
		[ $skip = 0 ] && kept+=("$e")
	done

	ERRF=$W/stderr.txt
	local cmd=("$CDO" -d "$ORIG" "$PATCHED" "$OBJNAME" "$SYMTAB" "$SYMVERS" "test_$name" "$OUT")
	printf '%q ' env "${unset_args[@]}" "${kept[@]}" "${cmd[@]}" >"$W/command.sh"
	echo >>"$W/command.sh"
	rm -f "$OUT"
	(cd "$W" && timeout -k 5 "$TIMEOUT" env "${unset_args[@]}" "${kept[@]}" "${cmd[@]}") \
		>"$W/stdout.txt" 2>"$ERRF"
	RC=$?

	local ok=0
	if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
		echo "differ timed out after ${TIMEOUT}s" >>"$log"
		ok=1
	elif [ "$RC" -ge 128 ]; then
		echo "differ crashed (signal $((RC - 128)))" >>"$log"
		ok=1
	fi
	if grep -E -q "AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:" "$ERRF"; then
		echo "sanitizer report on stderr" >>"$log"
		ok=1
	fi
	# a written output must be a sane object that ld accepts
	if [ "$RC" = 0 ]; then
		if [ ! -f "$OUT" ]; then
			echo "exit 0 but no output object" >>"$log"
			ok=1
		elif readelf -aW "$OUT" 2>&1 >/dev/null | grep -q .; then
			echo "readelf complains about the output:" >>"$log"
			readelf -aW "$OUT" 2>&1 >/dev/null | head -5 >>"$log"
			ok=1
		elif ! "$LD" -r -o "$W/relink.o" "$OUT" >"$W/relink.log" 2>&1; then
			echo "ld -r rejects the output:" >>"$log"
			head -5 "$W/relink.log" >>"$log"
			ok=1
		fi
	fi

	local lineno=0 raw neg words
	while IFS= read -r raw || [ -n "$raw" ]; do
		lineno=$((lineno + 1))
		line=${raw%%$'\r'}
		line=$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<<"$line")
		case "$line" in ''|'#'*) continue ;; esac
		neg=0
		if [[ "$line" == '!'* ]]; then
			neg=1
			line=$(sed -e 's/^![[:space:]]*//' <<<"$line")
		fi
		read -r -a words <<<"$line"
		FAILMSG=""
		if check_one "${words[@]}"; then
			if [ $neg = 1 ]; then
				echo "expect:$lineno: '$raw' holds but must not" >>"$log"
				ok=1
			fi
		else
			if [ $neg = 0 ]; then
				echo "expect:$lineno: '$raw': $FAILMSG" >>"$log"
				ok=1
			fi
		fi
	done <"$EXPECT"
	return $ok
}

mkdir -p "$OUT_ROOT"
for c in "${CASES[@]}"; do
	c=${c%/}
	c=${c##*/}
	if [ ! -d "$CASES_DIR/$c" ]; then
		echo "FAIL $c: no such case"
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("$c")
		continue
	fi
	# a case whose `arches` file does not list this architecture tests
	# something only the listed ones have (paravirt, IBT, ...)
	if [ -f "$CASES_DIR/$c/arches" ] &&
		! grep -v '^#' "$CASES_DIR/$c/arches" | grep -qw -- "$CDO_ARCH"; then
		SKIPPED=$((SKIPPED + 1))
		[ "$VERBOSE" = 1 ] && echo "skip $c (not on $CDO_ARCH)"
		continue
	fi
	if run_case "$c"; then
		PASS=$((PASS + 1))
		if [ "$COMPILE_ONLY" = 1 ]; then echo "ok   $c (compiled)"; else echo "ok   $c"; fi
		[ "$VERBOSE" = 1 ] && [ -s "$W/result.txt" ] && sed 's/^/     /' "$W/result.txt"
	else
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("$c")
		echo "FAIL $c"
		sed 's/^/     /' "$W/result.txt"
		if [ "$VERBOSE" = 1 ] && [ -f "$W/stderr.txt" ]; then
			echo "     --- differ stderr (exit ${RC:-?}):"
			head -40 "$W/stderr.txt" | sed 's/^/     | /'
		fi
	fi
done

if [ $FAILED -gt 0 ]; then
	echo "failed: ${FAILED_NAMES[*]}"
fi
summary=cdo
[ "$CDO_ARCH" = x86_64 ] || summary=cdo-$CDO_ARCH
[ $SKIPPED = 0 ] || echo "$summary: $SKIPPED cases do not apply to $CDO_ARCH (arches files)"
echo "$summary: $PASS passed, $FAILED failed"
[ $FAILED = 0 ]
