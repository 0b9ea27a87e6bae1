# shellcheck shell=bash
# test/cdo/asserts.sh (sourced by test/cdo/run-tests.sh): the assertion
# language of the cases' `expect` files, kept apart from the runner so that
# the runner reads as the steps of a case and each keyword's check is found
# in one place (README.md lists the keywords):
#
#   object readers   sections, section_size, relocs, symbols, dump_section,
#                    read_uint, read_cstring, reloc_table, reloc_at, ere_escape:
#                    what the assertions read the output object with (through
#                    a listing of it parsed once, and forgotten by
#                    objects_changed); the cases' `mangle` scripts (run in the
#                    runner's shell) use them too
#   assertions       assert_KEYWORD for each `expect` keyword, and check_one,
#                    which runs one assertion line
#   expectations     resolve_expect: `expect` with `expect.ARCH` applied
#
# It needs the runner's $OBJCOPY, $NM, $ARCH_ENDIAN, $ARCH_R_ABS64 and
# $ARCH_BFD_TARGET (the architecture's), and, per case, $W, $OUT, $RC, $ERRF,
# DIFFER_STDERR (the lines of $ERRF) and $OBJNAME. The assertions run in the
# runner's shell (builtins, few processes: a fork costs ~7 ms of CPU on the
# test VMs).

# ---------------------------------------------------------------------------
# object readers, used by the assertions and the cases' `mangle` scripts
#
# Every process costs CPU (~7 ms a fork on the VMs that run make check) and a
# case asserts a dozen things about one output object, so an object's
# `readelf -aW` listing is read once and parsed into the OBJ_* arrays below;
# the readers and assertions filter those with builtins. The cache holds one
# object, by path: objects_changed forgets it, and the runner calls that
# whenever an object may have been rewritten (each case, the differ's run). A
# `mangle` script that reads an object, rewrites it and reads it again calls
# objects_changed in between.
# ---------------------------------------------------------------------------
OBJ_CACHED=""                # the object parsed into the arrays below
OBJ_LISTING_OF=""            # object_listing_file: this object's listing is...
OBJ_LISTING_FILE=""          # ...already in this file
OBJ_SECTIONS=()              # section names, in order ("" for section 0)
declare -A OBJ_SECTION_SIZE  # section name -> size (hex, as readelf prints it)
declare -A OBJ_SECTION_OFF   # section name -> file offset (hex), when it has contents
OBJ_SYMBOL_ROWS=()           # symbol table rows, "[<localentry>: N]" removed
declare -A OBJ_RELOCS        # "'RELASEC'" -> its rows, a newline after each
declare -A OBJ_SECTION_BYTES # section name -> its bytes (hex, space separated)
OBJ_FILE_BYTES=()            # the object's bytes (hex), once a section's are asked for

objects_changed() {
	OBJ_CACHED=""
	OBJ_LISTING_OF=""
	OBJ_LISTING_FILE=""
}

# object_listing_file OBJ FILE: FILE holds `readelf -aW OBJ` (its stdout), which
# the runner has read anyway; the readers parse it instead of running readelf
object_listing_file() {
	objects_changed
	OBJ_LISTING_OF=$1
	OBJ_LISTING_FILE=$2
}

# object_parse OBJ: fills the OBJ_* arrays for OBJ unless they hold it. Each
# part is read from its own block of the listing, with the filter the readers
# once applied to `readelf -SW`, `-sW` or `-rW` alone (a section group's member
# list also looks like a section header row)
object_parse() {
	[ "$OBJ_CACHED" = "$1" ] && return 0
	local listing_lines=() line block="" rel="" fields=() pre rest digits
	local section_row='^ *\[ *[0-9]*\] ([^ ]*) ' size_row_prefix='^ *\[ *[0-9]+\] '
	local reloc_row='^ *[0-9a-f]+ +[0-9a-f]+ +R_'
	if [ "$OBJ_LISTING_OF" = "$1" ]; then
		mapfile -t listing_lines <"$OBJ_LISTING_FILE"
	else
		mapfile -t listing_lines < <(readelf -aW "$1" 2>/dev/null)
	fi
	OBJ_SECTIONS=() OBJ_SECTION_SIZE=() OBJ_SECTION_OFF=() OBJ_SYMBOL_ROWS=() OBJ_RELOCS=()
	OBJ_SECTION_BYTES=() OBJ_FILE_BYTES=()
	for line in "${listing_lines[@]}"; do
		case "$line" in
		'Section Headers:') block=sections; continue ;;
		'Key to Flags:') block=""; continue ;;
		"Symbol table '"*) block=symbols; continue ;;
		'Relocation section '*)
			read -r -a fields <<<"$line"
			rel=${fields[2]}
			block=relocs
			continue ;;
		'') block=""; continue ;;
		esac
		case "$block" in
		sections)
			[[ "$line" =~ $section_row ]] && OBJ_SECTIONS+=("${BASH_REMATCH[1]}")
			# (section_size's old awk: the row without "[ N] ", split
			# into fields; the first row of a name wins)
			[[ "$line" =~ $size_row_prefix ]] || continue
			read -r -a fields <<<"${line#"${BASH_REMATCH[0]}"}"
			if [ -n "${fields[0]:-}" ] && [ -z "${OBJ_SECTION_SIZE[${fields[0]}]+set}" ]; then
				OBJ_SECTION_SIZE[${fields[0]}]=${fields[4]:-}
				# (a NOBITS section has no contents to read)
				[ "${fields[1]:-}" = NOBITS ] || OBJ_SECTION_OFF[${fields[0]}]=${fields[3]:-}
			fi
			;;
		symbols)
			# (ppc64le prints "[<localentry>: 8]" inside the row)
			if [[ "$line" == *' [<localentry>: '* ]]; then
				pre=${line%%' [<localentry>: '*}
				rest=${line#*' [<localentry>: '}
				digits=${rest%%[!0-9]*}
				rest=${rest#"$digits"}
				[[ "$rest" == ']'* ]] && line=$pre${rest#]}
			fi
			read -r -a fields <<<"$line"
			[[ "${fields[0]:-}" =~ ^[0-9]+:$ ]] && OBJ_SYMBOL_ROWS+=("$line")
			;;
		relocs)
			[[ "$line" =~ $reloc_row ]] && OBJ_RELOCS[$rel]+=$line$'\n'
			;;
		esac
	done
	OBJ_CACHED=$1
}

# sections OBJ: section names, one a line
sections() {
	object_parse "$1"
	[ ${#OBJ_SECTIONS[@]} = 0 ] || printf '%s\n' "${OBJ_SECTIONS[@]}"
}

# section_size OBJ NAME: size in bytes (empty when absent)
section_size() {
	local h
	object_parse "$1"
	h=${OBJ_SECTION_SIZE[$2]:-}
	[ -n "$h" ] && echo $((16#$h))
}

# section_size_to VAR OBJ NAME: section_size into VAR (no subshell)
section_size_to() {
	local h
	object_parse "$2"
	h=${OBJ_SECTION_SIZE[$3]:-}
	printf -v "$1" '%s' "${h:+$((16#$h))}"
}

# relocs OBJ RELASEC: the relocation lines of RELASEC (readelf -rW format)
relocs() {
	object_parse "$1"
	printf '%s' "${OBJ_RELOCS["'$2'"]:-}"
}

rela_name() {
	case "$1" in
	.rela*) echo "$1" ;;
	*) echo ".rela$1" ;;
	esac
}

# symbols OBJ: "NDX NAME" for every symbol (NDX is UND for undefined)
symbols() {
	local row fields
	object_parse "$1"
	for row in "${OBJ_SYMBOL_ROWS[@]}"; do
		read -r -a fields <<<"$row"
		[ ${#fields[@]} -ge 8 ] && echo "${fields[6]} ${fields[7]}"
	done
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

# section_bytes OBJ NAME: the section's bytes into SECTION_BYTES (hex, one
# element a byte); 1 when the section cannot be read (absent, without contents,
# past the end of the file). The bytes are cut from one od of the whole object
# (small: a few KB), at the offset and size its section header gives, not
# dumped by objcopy and read by od for each section
section_bytes() {
	local off size
	object_parse "$1"
	if [ -z "${OBJ_SECTION_BYTES[$2]+set}" ]; then
		off=${OBJ_SECTION_OFF[$2]:-}
		size=${OBJ_SECTION_SIZE[$2]:-}
		[[ "$off" =~ ^[0-9a-f]+$ && "$size" =~ ^[0-9a-f]+$ ]] || return 1
		off=$((16#$off)) size=$((16#$size))
		[ ${#OBJ_FILE_BYTES[@]} -gt 0 ] ||
			read -r -d '' -a OBJ_FILE_BYTES < <(od -An -v -tx1 "$1" 2>/dev/null)
		[ $((off + size)) -le ${#OBJ_FILE_BYTES[@]} ] || return 1
		OBJ_SECTION_BYTES[$2]=${OBJ_FILE_BYTES[*]:off:size}
	fi
	read -r -a SECTION_BYTES <<<"${OBJ_SECTION_BYTES[$2]}"
}

# uint_at VAR OFFSET BYTES: read_uint of the SECTION_BYTES, into VAR: empty when
# OFFSET is past the end; a short read is zero-padded on little-endian
# targets (as od does) and empty on big-endian ones
uint_at() {
	local off=$2 n=$3 hex="" i
	printf -v "$1" '%s' ""
	[ "$off" -ge 0 ] && [ "$off" -lt ${#SECTION_BYTES[@]} ] || return 0
	if [ "$ARCH_ENDIAN" = little ]; then
		for ((i = n - 1; i >= 0; i--)); do
			hex+=${SECTION_BYTES[off + i]:-00}
		done
		printf -v "$1" '%u' $((16#$hex))
	elif [ $((off + n)) -le ${#SECTION_BYTES[@]} ]; then
		for ((i = 0; i < n; i++)); do
			hex+=${SECTION_BYTES[off + i]}
		done
		printf -v "$1" '%s' $((16#$hex))
	fi
}

# cstring_at VAR OFFSET: read_cstring of the SECTION_BYTES, into VAR: the bytes
# from OFFSET to a NUL or newline (tail -c +0 starts at the start too)
cstring_at() {
	local off=$2 s="" ch i
	printf -v "$1" '%s' ""
	[ "$off" -ge -1 ] || return 0
	[ "$off" -ge 0 ] || off=0
	for ((i = off; i < ${#SECTION_BYTES[@]}; i++)); do
		case "${SECTION_BYTES[i]}" in 00 | 0a) break ;; esac
		printf -v ch '%b' "\\x${SECTION_BYTES[i]}"
		s+=$ch
	done
	printf -v "$1" '%s' "$s"
}

# reloc_table OBJ RELASEC: "OFFSET TYPE SYMBOL ADDEND" a line, numbers in decimal
reloc_table() {
	local row
	reloc_rows "$1" "$2"
	for row in "${RELOC_ROWS[@]}"; do
		echo "$row"
	done
}

# reloc_rows OBJ RELASEC: reloc_table's lines into the array RELOC_ROWS
reloc_rows() {
	local off info type val name sign add rest line lines=()
	RELOC_ROWS=()
	object_parse "$1"
	line=${OBJ_RELOCS["'$2'"]:-}
	[ -n "$line" ] && mapfile -t lines <<<"${line%$'\n'}"
	# shellcheck disable=SC2034  # (info, val: readelf's columns, skipped)
	for line in "${lines[@]}"; do
		read -r off info type val name sign add rest <<<"$line"
		if [ -z "$sign" ]; then
			name=""
			add=0
		elif [ "$sign" = "-" ]; then
			add=$((-16#$add))
		else
			add=$((16#$add))
		fi
		RELOC_ROWS+=("$((16#$off)) $type ${name:--} $add")
	done
}

# reloc_row_where VAR SYMBOL TYPE [ALIGN]: the offset of the first of the
# RELOC_ROWS of that symbol and relocation type (at a multiple of ALIGN), into VAR
reloc_row_where() {
	local row fields
	printf -v "$1" '%s' ""
	for row in "${RELOC_ROWS[@]}"; do
		read -r -a fields <<<"$row"
		if [ "${fields[2]}" = "$2" ] && [ "${fields[1]}" = "$3" ] &&
			[ $((fields[0] % ${4:-1})) = 0 ]; then
			printf -v "$1" '%s' "${fields[0]}"
			return 0
		fi
	done
}

# reloc_addend_at VAR OFFSET: the addend of the first of the RELOC_ROWS at
# OFFSET, into VAR (empty when there is none)
reloc_addend_at() {
	local row fields
	printf -v "$1" '%s' ""
	for row in "${RELOC_ROWS[@]}"; do
		read -r -a fields <<<"$row"
		[ "${fields[0]}" = "$2" ] || continue
		printf -v "$1" '%s' "${fields[3]}"
		return 0
	done
}

# reloc_at TABLE OFFSET: "SYMBOL ADDEND" of the relocation at OFFSET
reloc_at() {
	awk -v off="$2" '$1 == off { print $3, $4; exit }' <<<"$1"
}

# ere_escape_to VAR TEXT: TEXT with the ERE metacharacters escaped, into VAR
ere_escape_to() {
	local text=$2 escaped="" ch i special='][\.*^$+?(){}|/'
	for ((i = 0; i < ${#text}; i++)); do
		ch=${text:i:1}
		[[ "$special" == *"$ch"* ]] && escaped+=\\
		escaped+=$ch
	done
	printf -v "$1" '%s' "$escaped"
}

ere_escape() {
	local escaped
	ere_escape_to escaped "$1"
	printf '%s\n' "$escaped"
}

# ---------------------------------------------------------------------------
# assertions: check_one ASSERTION-WORDS... runs assert_KEYWORD (dashes as
# underscores), which returns 1 on failure with the reason in $WHY (why()).
# Context: $W (work dir), $OUT, $RC, $ERRF (differ's stderr), $OBJNAME
# ---------------------------------------------------------------------------
WHY=""
# ASSERT_INVALID: set (with WHY, which then stays) when an assertion line
# cannot be checked at all (an unknown keyword, a regular expression that does
# not compile); the runner fails such a line whatever it returned and even
# under '!' (an assertion over a pattern that matches nothing holds, or never)
ASSERT_INVALID=0
# shellcheck disable=SC2034  # (the runner's case_expect reads WHY)
why() { [ "$ASSERT_INVALID" = 1 ] || WHY="$*"; return 1; }
# shellcheck disable=SC2034
invalid() { WHY="$*"; ASSERT_INVALID=1; return 1; }

# ere_valid REGEX: REGEX compiles (=~ returns 2 for one that does not)
ere_valid() {
	[[ "" =~ $1 ]]
	[ $? != 2 ] || invalid "invalid regular expression /$1/"
}

need_out() {
	[ -f "$OUT" ] || why "no output object (differ exited $RC)"
}

# DIFFER_STDERR: the lines of $ERRF, read by the runner once the differ ran;
# differ_stderr_has KIND TEXT: a line ends with TEXT (KIND "suffix"), or is
# "...klp: ... -> TEXT" (KIND "klp"), or has TEXT followed by a blank or the
# line's end (KIND "word"): the literal forms of report-complete's checks
DIFFER_STDERR=()
differ_stderr_has() {
	local line
	for line in "${DIFFER_STDERR[@]}"; do
		case "$1" in
		suffix) [[ "$line" == *"$2" ]] && return 0 ;;
		klp) [[ "$line" == *"klp: "*" -> $2" ]] && return 0 ;;
		word) [[ "$line" == *"$2" || "$line" == *"$2 "* ]] && return 0 ;;
		esac
	done
	return 1
}

# sort_unique_to VAR WORD...: the words sorted (byte order: LC_ALL=C) without
# repeats, space-separated, into VAR; what `sort -u | xargs` gives for a few words
sort_unique_to() {
	local var=$1 sorted=() word i j
	shift
	for word in "$@"; do
		[ -n "$word" ] || continue
		for ((i = 0; i < ${#sorted[@]}; i++)); do
			[[ "${sorted[i]}" < "$word" ]] || break
		done
		[ $i -lt ${#sorted[@]} ] && [ "${sorted[i]}" = "$word" ] && continue
		for ((j = ${#sorted[@]}; j > i; j--)); do
			sorted[j]=${sorted[j - 1]}
		done
		sorted[i]=$word
	done
	printf -v "$var" '%s' "${sorted[*]}"
}

# symbol_row_fields ROW: the fields of a symbol table row into SYM_FIELDS
symbol_row_fields() {
	read -r -a SYM_FIELDS <<<"$1"
}

# have_symbol NAME [defined|undefined]: OUT has a symbol NAME (of that kind)
have_symbol() {
	local row
	object_parse "$OUT"
	for row in "${OBJ_SYMBOL_ROWS[@]}"; do
		symbol_row_fields "$row"
		[ ${#SYM_FIELDS[@]} -ge 8 ] || continue
		[ "${SYM_FIELDS[7]}" = "$1" ] || continue
		case "${2:-any}" in
		defined) [ "${SYM_FIELDS[6]}" != UND ] && return 0 ;;
		undefined) [ "${SYM_FIELDS[6]}" = UND ] && return 0 ;;
		*) return 0 ;;
		esac
	done
	return 1
}

# have_section NAME: OUT has a section NAME
have_section() {
	local name
	object_parse "$OUT"
	for name in "${OBJ_SECTIONS[@]}"; do
		[ "$name" = "$1" ] && return 0
	done
	return 1
}

assert_exit() {
	[ "$RC" = "$1" ] || why "exit status $RC, expected $1"
}

assert_funcs() {
	need_out || return 1
	local got want type name functions=()
	# (nm, not the symbol table: its t/T are the symbols in code sections;
	# the architecture's BFD target named, so that it does not load the LTO
	# plugins to try theirs)
	while read -r _ type name; do
		[[ "$type" == [tT] ]] && functions+=("$name")
	done < <("$NM" --target="$ARCH_BFD_TARGET" "$OUT" 2>/dev/null)
	sort_unique_to got "${functions[@]}"
	sort_unique_to want "$@"
	[ "$got" = "$want" ] || why "functions in output: [$got], expected [$want]"
}

assert_has_sym() {
	need_out || return 1
	have_symbol "$1" defined || why "no defined symbol $1 in output"
}

assert_binding() {
	need_out || return 1
	local row found=0 bad=""
	object_parse "$OUT"
	for row in "${OBJ_SYMBOL_ROWS[@]}"; do
		symbol_row_fields "$row"
		[ "${SYM_FIELDS[7]:-}" = "$1" ] || continue
		[ "${SYM_FIELDS[6]:-}" != UND ] || continue
		found=1
		[ "${SYM_FIELDS[4]:-}" != "$2" ] && bad=${SYM_FIELDS[4]:-}
	done
	[ $found = 1 ] && [ -z "$bad" ] && return 0
	why "symbol $1 is not a defined $2 symbol of the output (${bad:+binding $bad})"
}

assert_no_sym() {
	need_out || return 1
	! have_symbol "$1" || why "symbol $1 present in output"
}

assert_undef() {
	need_out || return 1
	have_symbol "$1" undefined || why "no undefined symbol $1 in output"
}

assert_klp() {
	need_out || return 1
	local obj=$1 name=$2 pos=$3 ksym sec off got
	ksym=".klp.sym.$obj.$name,$pos"
	have_symbol "$ksym" undefined ||
		why "no undefined symbol $ksym in output" || return 1
	sec=".klp.module_relocs.$obj"
	reloc_rows "$OUT" ".rela$sec"
	reloc_row_where off "$ksym" "$ARCH_R_ABS64"
	[ -n "$off" ] || why "no $ARCH_R_ABS64 record for $ksym in .rela$sec" || return 1
	section_bytes "$OUT" "$sec" || why "cannot read section $sec" || return 1
	uint_at got $((off + 8)) 4
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
	local off add got
	reloc_rows "$OUT" .rela.kpatch.funcs
	reloc_row_where off "$name" "$ARCH_R_ABS64" 32
	[ -n "$off" ] || why "no .kpatch.funcs record with new_func -> $name" || return 1
	section_bytes "$OUT" .kpatch.strings || why "no .kpatch.strings" || return 1
	if [ -n "$want_old" ]; then
		reloc_addend_at add $((off + 8))
		cstring_at got "${add:-0}"
		[ "$got" = "$want_old" ] || why "$name: old_name '$got', expected '$want_old'" || return 1
	fi
	reloc_addend_at add $((off + 16))
	cstring_at got "${add:-0}"
	[ "$got" = "$want_obj" ] || why "$name: objname '$got', expected '$want_obj'" || return 1
	if [ -n "$want_pos" ]; then
		section_bytes "$OUT" .kpatch.funcs || why "cannot read .kpatch.funcs" || return 1
		uint_at got $((off + 24)) 8
		[ "$got" = "$want_pos" ] || why "$name: sympos '$got', expected $want_pos"
	fi
}

assert_nfuncs_patched() {
	need_out || return 1
	local n
	section_size_to n "$OUT" .kpatch.funcs
	n=$(( ${n:-0} / 32 ))
	[ "$n" = "$1" ] || why ".kpatch.funcs has $n records, expected $1"
}

# stderr_match_ere REGEX: a line of the differ's stderr (DIFFER_STDERR) matches
# REGEX, an ERE as grep -E reads it (bash's =~: the same regcomp dialect; no
# grep process per assertion)
stderr_match_ere() {
	local line
	ere_valid "$1" || return 1
	for line in "${DIFFER_STDERR[@]}"; do
		[[ "$line" =~ $1 ]] && return 0
	done
	return 1
}

assert_error() {
	stderr_match_ere "^create-diff-object: .*($*)" ||
		why "no error line matching /$*/ on stderr"
}

assert_refusal() {
	local sym=$1 re
	shift
	ere_escape_to re "$sym"
	re="^create-diff-object: [^ ]+: $re: .*(${*:-.})"
	stderr_match_ere "$re" ||
		why "no refusal line 'create-diff-object: <obj>: $sym: ...' matching /${*:-.}/"
}

assert_debug() {
	stderr_match_ere "$*" || why "no stderr line matching /$*/"
}

assert_section() {
	need_out || return 1
	have_section "$1" || why "no section $1 in output"
}

assert_no_section() {
	need_out || return 1
	! have_section "$1" || why "section $1 present in output"
}

# lines_match_ere TEXT REGEX: a line of TEXT (newline-terminated lines) matches
# REGEX (as grep -E; no line at all matches nothing)
lines_match_ere() {
	local line lines=()
	ere_valid "$2" || return 1
	[ -n "$1" ] || return 1
	mapfile -t lines <<<"${1%$'\n'}"
	for line in "${lines[@]}"; do
		[[ "$line" =~ $2 ]] && return 0
	done
	return 1
}

assert_no_section_re() {
	need_out || return 1
	local names=""
	object_parse "$OUT"
	[ ${#OBJ_SECTIONS[@]} = 0 ] || printf -v names '%s\n' "${OBJ_SECTIONS[@]}"
	! lines_match_ere "$names" "$1" || why "a section matching /$1/ is in the output"
}

assert_size() {
	need_out || return 1
	local got
	section_size_to got "$OUT" "$1"
	[ "$got" = "$2" ] || why "section $1 size '${got:-absent}', expected $2"
}

# rela_name_to VAR SECTION: rela_name into VAR
rela_name_to() {
	case "$2" in
	.rela*) printf -v "$1" '%s' "$2" ;;
	*) printf -v "$1" '%s' ".rela$2" ;;
	esac
}

assert_reloc() {
	need_out || return 1
	local sec re
	rela_name_to sec "$1"
	shift
	re=$*
	object_parse "$OUT"
	lines_match_ere "${OBJ_RELOCS["'$sec'"]:-}" "$re" || why "no relocation in $sec matching /$re/"
}

assert_nrelocs() {
	need_out || return 1
	local sec lines n
	rela_name_to sec "$1"
	object_parse "$OUT"
	lines=${OBJ_RELOCS["'$sec'"]:-}
	lines=${lines//[!$'\n']/}
	n=${#lines}
	[ "$n" = "$2" ] || why "$sec has $n relocations, expected $2"
}

assert_report_complete() {
	# every function/object the output defines has a reason in the
	# report, every klp symbol its "klp:" line and every other
	# undefined symbol its "exported:" line
	need_out || return 1
	local row ndx type name missing=""
	object_parse "$OUT"
	for row in "${OBJ_SYMBOL_ROWS[@]}"; do
		symbol_row_fields "$row"
		ndx=${SYM_FIELDS[6]:-} type=${SYM_FIELDS[3]:-} name=${SYM_FIELDS[7]:-}
		case "$ndx:$type:$name" in
		UND:*:.klp.sym.*)
			differ_stderr_has klp "$name" || missing+=" klp:$name" ;;
		UND:*:?*)
			differ_stderr_has suffix "exported: $name" || missing+=" exported:$name" ;;
		*:FUNC:?* | *:OBJECT:?*)
			differ_stderr_has word "patched: $name" ||
				differ_stderr_has word "new: $name" ||
				differ_stderr_has word "included: $name" || missing+=" $name" ;;
		esac
	done
	[ -z "$missing" ] || why "no report line for:$missing"
}

check_one() {
	local kw=$1

	shift
	if ! declare -F "assert_${kw//-/_}" >/dev/null; then
		invalid "unknown assertion '$kw'"
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
# a line the base already has (a whole file of the old form, which repeated it):
# a message on stderr each, and the status 1. Builtins only (it was an awk
# process per case). Blank lines and '#' comments are skipped; a line is
# compared without its blanks (spaces, tabs) at either end and a CR at its end.
resolve_expect() {
	local archfile=${2:-} arch line no i n=0 bad=0 text=() from=()
	arch=${archfile##*/}
	no=0
	while IFS= read -r line || [ -n "$line" ]; do
		no=$((no + 1))
		expect_trim line "$line"
		[[ -z "$line" || "$line" == '#'* ]] && continue
		n=$((n + 1))
		text[n]=$line
		from[n]=expect:$no
	done <"$1"
	no=0
	while [ -n "$archfile" ] && { IFS= read -r line || [ -n "$line" ]; }; do
		no=$((no + 1))
		expect_trim line "$line"
		[[ -z "$line" || "$line" == '#'* ]] || expect_arch_line "$line"
	done < "${archfile:-/dev/null}"
	for i in "${!text[@]}"; do
		printf '%s\t%s\n' "${from[i]}" "${text[i]}"
	done
	return $bad
}

# expect_arch_line LINE: applies line $no of the architecture's file $arch to
# resolve_expect's text, from, n and bad (its locals, which bash lets this
# function see)
expect_arch_line() {
	local line=$1 i k ki
	if [ "$line" = "-*" ]; then
		text=()
		return
	fi
	if [[ "$line" == -* ]]; then
		expect_trim line "${line:1}"
		for ((i = 1; i <= n; i++)); do
			[ -n "${text[i]+set}" ] && [ "${text[i]}" = "$line" ] && break
		done
		if ((i > n)); then
			printf '%s:%d: removes "%s", which expect does not have\n' \
				"$arch" "$no" "$line" >&2
			bad=1
		fi
		unset 'text[i]'
		return
	fi
	for ((i = 1; i <= n; i++)); do
		if [ -n "${text[i]+set}" ] && [ "${text[i]}" = "$line" ] &&
			[[ "${from[i]}" == expect:* ]]; then
			printf '%s:%d: repeats %s (only what differs belongs here)\n' \
				"$arch" "$no" "${from[i]}" >&2
			bad=1
		fi
	done
	expect_key k "$line"
	i=$((n + 1))
	if [ -n "$k" ]; then
		for ((i = 1; i <= n; i++)); do
			[ -n "${text[i]+set}" ] || continue
			expect_key ki "${text[i]}"
			[ "$ki" = "$k" ] && break
		done
	fi
	if ((i > n)); then
		n=$((n + 1))
		i=$n
	fi
	text[i]=$line
	from[i]=$arch:$no
}

# expect_trim VAR TEXT: TEXT without a CR at its end, then without blanks
# (spaces, tabs) at either end, into VAR
expect_trim() {
	local s=${2%$'\r'}
	s=${s#"${s%%[!$' \t']*}"}
	s=${s%"${s##*[!$' \t']}"}
	printf -v "$1" '%s' "$s"
}

# expect_key VAR LINE: the key of a single-valued assertion into VAR ("exit",
# "funcs", "nfuncs-patched", "size SECTION", "nrelocs SECTION"; else empty)
expect_key() {
	local w=()
	read -r -a w <<<"$2"
	case "${w[0]:-}" in
	exit | funcs | nfuncs-patched) printf -v "$1" '%s' "${w[0]}" ;;
	size | nrelocs) printf -v "$1" '%s' "${w[1]:+${w[0]} ${w[1]}}" ;;
	*) printf -v "$1" '%s' "" ;;
	esac
}
