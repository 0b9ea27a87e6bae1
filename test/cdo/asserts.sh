# shellcheck shell=bash
# test/cdo/asserts.sh (sourced by test/cdo/run-tests.sh): the assertion
# language of the cases' `expect` files, kept apart from the runner so that
# the runner reads as the steps of a case and each keyword's check is found
# in one place (README.md lists the keywords):
#
#   object readers   sections, section_size, relocs, symbols, dump_section,
#                    read_uint, read_cstring, reloc_table, reloc_at, ere_escape:
#                    what the assertions read the output object with; the
#                    cases' `mangle` scripts (run in the runner's shell) use
#                    them too
#   assertions       assert_KEYWORD for each `expect` keyword, and check_one,
#                    which runs one assertion line
#   expectations     resolve_expect: `expect` with `expect.ARCH` applied
#                    (its awk program is test/cdo/resolve-expect.awk)
#
# It needs the runner's $OBJCOPY, $NM, $ARCH_ENDIAN and $ARCH_R_ABS64 (the
# architecture's), and, per case, $W, $OUT, $RC, $ERRF and $OBJNAME.
CDO_ASSERTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# ---------------------------------------------------------------------------
# object readers, used by the assertions and the cases' `mangle` scripts
# ---------------------------------------------------------------------------

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
	# shellcheck disable=SC2034  # (info, val: readelf's columns, skipped)
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
# shellcheck disable=SC2034  # (the runner's case_expect reads WHY)
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

	awk -v arch="${arch##*/}" -f "$CDO_ASSERTS_DIR/resolve-expect.awk" "$@"
}
