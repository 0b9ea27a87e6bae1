# kpatch-build/lib/report.sh: the build report (--report FILE.json, --report-dot
# FILE; sourced by kpatch-build).
#
# While the build runs, the steps and the differ's findings are kept as "facts",
# tab-separated lines in one shell variable (not in the scratch directory: a run
# refused before it has one must still be reported). The report is written on
# every exit path (cleanup calls report_write), from the facts and the globals the
# other steps set, by one awk program per format: JSON (documented by
# report-schema.json next to kpatch-build) and Graphviz (report-dot.awk).
#
# Fact kinds:  step NAME SECONDS CACHED | obj OBJECT PARENT EXIT | cdo OBJECT LINE
#   (a line of the differ's --debug output) | ref OBJECT FROM TARGET KIND (a
#   relocation of the differ's output: KIND call, data, klp, special, special-klp)
#   | warning MSG

REPORT_FACTS=
REPORT_STEP=checks
REPORT_STEP_T=${T_START:-${EPOCHREALTIME/./}}
STEP_CACHED=0		# set by a step that the cache served
REPORT_ERROR='' REPORT_ERROR_STEP=''

report_fact() {	# kind field...: one fact (tabs and newlines in fields become spaces)
	local f line=$1
	shift
	for f in "$@"; do line+=$'\t'${f//[$'\t\n']/ }; done
	REPORT_FACTS+=$line$'\n'
}
report_wanted() { [ -n "${REPORT_JSON:-}${REPORT_DOT:-}" ]; }

# a step begins (step, step_quiet): the previous one ends
report_step() {
	local now=${EPOCHREALTIME/./} cached=false
	[ "${STEP_CACHED:-0}" = 1 ] && cached=true
	case $REPORT_STEP in *"(cached"*) cached=true ;; esac
	if [ -n "$REPORT_STEP" ]; then
		report_fact step "$REPORT_STEP" "$(( (now - REPORT_STEP_T) / 1000 ))" "$cached"
	fi
	REPORT_STEP=$1 REPORT_STEP_T=$now STEP_CACHED=0
}
report_error() { [ -n "$REPORT_ERROR" ] || { REPORT_ERROR=$1 REPORT_ERROR_STEP=${STEP:-checks}; }; }

# the differ ran on OBJECT (parent PARENT, exit EXIT, its output OUT, its result
# file RESULT): keep its report lines and the references of its output
report_object() {
	local o=$1 parent=$2 rc=$3 out=$4 result=$5 line
	report_wanted || return 0
	report_fact obj "$o" "$parent" "$rc"
	# (only the report lines: the --debug output also explains every comparison)
	while IFS= read -r line; do
		report_fact cdo "$o" "$line"
	done < <(grep -E '^(patched|new|included|klp|exported): |^create-diff-object: ' <<< "$out" || true)	# (exit 3: none)
	[ "$rc" != 2 ] || report_error "$o cannot be live-patched: $(grep -m1 '^create-diff-object: ' <<< "$out" || true)"
	[ "$rc" = 0 ] && [ -f "$result" ] || return 0
	while IFS=$'\t' read -r from target kind; do
		report_fact ref "$o" "$from" "$target" "$kind"
	done < <(report_refs "$result")
}

# FROM TARGET KIND per relocation of an output object that ties a function to
# something: a function or data object it uses (call, data), a klp symbol (klp),
# a special-section entry about it (special: FROM is the function, TARGET the
# section), a klp symbol such entries refer to (special-klp: FROM is the
# section, e.g. a static call key). Boilerplate entries every function has are
# left out.
REPORT_BOILERPLATE='__mcount_loc|__patchable_function_entries|.orc_unwind|.orc_unwind_ip|.return_sites|.call_sites|.retpoline_sites|.ibt_endbr_seal|.kpatch.funcs|.klp.module_relocs.*|.discard.*|.debug_*|.eh_frame'
report_refs() {
	{ readelf -SW "$1"; echo "@@syms"; readelf -sW "$1"; echo "@@relocs"; readelf -rW "$1"; } 2>/dev/null |
	awk -v boiler="^(${REPORT_BOILERPLATE//./\\.})\$" '
	function owner(sec, off,   i, best) {	# the function of section sec holding off
		best = ""
		for (i = 1; i <= nf; i++)
			if (fsec[i] == sec && off >= fval[i] && off < fval[i] + (fsz[i] ? fsz[i] : 1))
				best = fname[i]
		return best
	}
	/^@@syms/ { part = 1; next }
	/^@@relocs/ { part = 2; next }
	part == 0 && /^ *\[ *[0-9]+\]/ { sub(/^ *\[ */, ""); i = $1 + 0; sub(/^[0-9]+\] */, ""); secname[i] = $1; secidx[$1] = i; next }
	part == 1 && $1 ~ /^[0-9]+:$/ && NF >= 8 {
		if ($4 == "FUNC" && $7 ~ /^[0-9]+$/) { nf++; fsec[nf] = secname[$7]; fval[nf] = strtonum16($2); fsz[nf] = ($3 ~ /^0x/) ? strtonum16(substr($3, 3)) : $3 + 0; fname[nf] = $8 }
		if ($7 ~ /^[0-9]+$/ && ($4 == "FUNC" || $4 == "OBJECT")) defined[$8] = $4
		next
	}
	part == 2 && /^Relocation section / { rs = $3; gsub(/\047/, "", rs); sub(/^\.rela/, "", rs); special = (rs !~ /text|altinstr_|^\.(rodata|data|bss|kpatch)/); next }
	part == 2 && $1 ~ /^[0-9a-f]+$/ && NF >= 5 {
		sym = $5; add = (NF >= 7) ? (($6 == "-") ? -strtonum16($7) : strtonum16($7)) : 0
		if (special) {
			if (rs ~ boiler) next
			if (sym ~ /^\.klp\.sym\./) { if (!seen[rs SUBSEP sym]++) print rs "\t" sym "\tspecial-klp"; next }
			f = (sym in defined && defined[sym] == "FUNC") ? sym : owner(sym, add)
			if (f != "" && !seen[f SUBSEP rs]++) print f "\t" rs "\tspecial"
			next
		}
		from = owner(rs, strtonum16($1))
		if (from == "" || sym == "__fentry__") next
		if (sym ~ /^\.klp\.sym\./) kind = "klp"
		else if (sym in defined) kind = (defined[sym] == "FUNC") ? "call" : "data"
		else if (sym ~ /^\.text/ && owner(sym, add + 4) != "") { sym = owner(sym, add + 4); kind = "call" }
		else next
		if (sym != from && !seen[from SUBSEP sym]++) print from "\t" sym "\t" kind
	}
	function strtonum16(h,   n, i, c) {
		n = 0; h = tolower(h)
		for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)); if (!c) break; n = n * 16 + c - 1 }
		return n
	}'
}

# ---------------------------------------------------------------- writing
report_meta() {	# key=value lines for the awk writers (values may be empty)
	local st=$1 rc=$2 krel='' bid='' csum='' ko_sum='' p
	[ -z "${KOBJ:-}" ] || krel=$(kbuild_release "$KOBJ")
	[ -n "$krel" ] || [ -z "${OBJ:-}" ] || krel=$(cat "$OBJ/include/config/kernel.release" 2>/dev/null)
	[ -z "${VMLINUX:-}" ] || [ ! -f "$VMLINUX" ] || bid=$(readelf -nW "$VMLINUX" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -n1)
	[ -z "${CONFIG:-}" ] || [ ! -f "$CONFIG" ] || csum=$(sha256sum < "$CONFIG" | cut -d' ' -f1)
	[ "$st" != success ] || ko_sum=$(sha256sum < "$OUTDIR/$MODNAME.ko" | cut -d' ' -f1)
	printf '%s\n' "status=$st" "exit_code=$rc" "name=${NAME:-}" "seconds=$(elapsed)" \
		"started=${REPORT_STARTED:-}" "version=$KPB_VERSION" "compiler=${CC_FIRST:-}" \
		"release=$krel" "kernelversion=${kver:-}" "config=${CONFIG:-}" "config_sha256=$csum" \
		"vmlinux=${VMLINUX:-}" "build_id=$bid" "source=${SRCDIR:-}" "kbuild=${KOBJ:-}" \
		"oot_module=${OOT_MODULE:-}" "cache_key=${CACHE_KEY:-}" "replace=$([ "${NONREPLACE:-0}" = 1 ] && echo false || echo true)" \
		"module=$([ "$st" = success ] && echo "$OUTDIR/$MODNAME.ko")" "module_sha256=$ko_sum" \
		"error=$REPORT_ERROR" "error_step=$REPORT_ERROR_STEP"
	for p in "${PATCHES[@]}"; do
		[ -f "$p" ] && echo "patch=$(readlink -f "$p")"$'\t'"$(sha256sum < "$p" | cut -d' ' -f1)"
	done
	for p in "${CHANGED_FILES[@]}"; do echo "changed_file=$p"; done
}
report_status() {	# exit code -> success, refused, no-change, interrupted, failed
	case $1 in
	0) echo success ;;
	2) echo refused ;;
	130) echo interrupted ;;
	*)	case $REPORT_ERROR in
		*": changes "*": "*|*"cannot be live-patched"*) echo refused ;;
		*"no function changed"*) echo no-change ;;
		*) echo failed ;;
		esac ;;
	esac
}
# cleanup calls this with the exit code, before the scratch directory goes
report_write() {
	local rc=$1 st meta
	report_wanted && [ -n "${REPORT_STARTED:-}" ] || return 0
	report_step ""
	st=$(report_status "$rc")
	meta=$(report_meta "$st" "$rc")
	[ -z "${REPORT_JSON:-}" ] || report_emit json "$REPORT_JSON" "$meta"
	[ -z "${REPORT_DOT:-}" ] || report_emit dot "$REPORT_DOT" "$meta"
}
report_emit() {	# FORMAT FILE META: write FILE atomically
	local tmp=$2.tmp.$$
	if printf '%s\n@@facts\n%s' "$3" "$REPORT_FACTS" |
		awk -f "$KPB_LIB/report-facts.awk" -f "$KPB_LIB/report-$1.awk" > "$tmp"; then
		mv -f "$tmp" "$2"
	else
		rm -f "$tmp"; echo "$TOOLNAME: warning: cannot write the $1 report $2" >&2
	fi
}
# the report paths are made absolute at the start (the build changes directories)
report_setup() {
	local f
	# (date -u +%FT%TZ, by bash's printf: no process; TZ for it alone)
	TZ=UTC0 printf -v REPORT_STARTED '%(%FT%TZ)T' -1
	for f in REPORT_JSON REPORT_DOT; do
		[ -n "${!f}" ] || continue
		case ${!f} in /*) ;; *) printf -v "$f" '%s/%s' "$PWD" "${!f}" ;; esac
		if ! [ -d "$(dirname "${!f}")" ] || ! [ -w "$(dirname "${!f}")" ]; then
			die "cannot write the report ${!f}: its directory is missing or not writable"
		fi
	done
}
