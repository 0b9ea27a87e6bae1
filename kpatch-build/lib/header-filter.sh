# kpatch-build/lib/header-filter.sh: a stock kernel's header filter, which of
# the objects that include a patched header can change (sourced by
# kpatch-build, after targeted.sh, which calls targeted_header_filter).
#
# Most objects that include a patched header cannot change: they do not use
# what the patch changes. Two steps cut them, each sound on its own terms:
#
# 1. The identifier step (no compiler): kpatch-ident names what each header
#    hunk changes (the functions, macros, variables, types and enumerators whose
#    definitions differ, and the header's own definitions that use them), and
#    the identifier index of the source tree (built once per source) says which
#    files name one of them, or may build one by token pasting. An object can
#    only compile differently if its unit's text names a changed identifier, and
#    every token of a unit is written in a file of its include closure (or in
#    its -include files, which every unit has); so only the includers that are,
#    or textually include, such a file stay candidates. kpatch-build/README.md
#    ("The header filter") argues it and says what would break it. A hunk the
#    tool cannot classify (a changed #if, a new #include, a macro invocation at
#    file scope) is named in one line and every includer stays a candidate.
# 2. pp-compare: each candidate's unit is preprocessed (its own compile command
#    with -E: kbuild's .i target, replayed) from the original source and from
#    the patched overlay, and kpatch-pp-compare reads the two: the same text
#    (line markers and white space aside), or differing only in static
#    functions nothing else in the unit names, cannot make another object;
#    anything else keeps the object.
# Only the kept ones are built, twice. KPB_HEADER_FILTER=0 builds them all;
# KPB_HEADER_FILTER=full skips step 1; KPB_HEADER_FILTER=check runs step 2 on
# every includer and fails if it keeps one that step 1 set aside.

# an estimate of one kept includer's cost (two preprocessings and two compiles
# of a kernel unit on one core), for the plan line
HF_UNIT_SECONDS=5

# ---------------------------------------------------------------- identifier step
# the identifier index of the source tree, once per source and kpatch-ident
# (next to the include index, keyed by the same marker and by the tool, whose
# fragments it holds: another tool's index is removed)
hf_ident_index() {
	local t0=$SECONDS out base tool
	base=$KPATCH_CACHE/src/.$(basename "$SRCDIR").idents
	tool=$(sha256sum < "$IDENT" | cut -c1-12) || return 1
	IDENT_INDEX=$base-$tool
	[ -s "$IDENT_INDEX" ] && [ "$IDENT_INDEX" -nt "$KPATCH_CACHE/src/.$(basename "$SRCDIR").complete" ] && return 0
	find "$(dirname "$base")" -maxdepth 1 -name "$(basename "$base")*" ! -name '*.tmp' -delete 2>/dev/null || true
	info "indexing the identifiers of $SRCDIR (once per source and kpatch-ident)"
	(cd "$SRCDIR" && find . -type f -name '*.[ch]' | sed 's|^\./||') > "$PP/ident-files" || return 1
	out=$("$IDENT" index "$SRCDIR" "$PP/ident-files" "$IDENT_INDEX" 2>> "$LOG") || return 1
	info "identifier index: $out ($((SECONDS - t0))s)"
}

# the identifiers header $1 changes, "<kind> <name> <why>" lines on stdout;
# 1 with HF_WHY set when kpatch-ident cannot name them
hf_changed() {
	local h=$1 rc=0
	if [ ! -f "$SRCDIR/$h" ] || [ ! -f "$OVL/$h" ]; then
		HF_WHY="$h is new or removed"
		return 1
	fi
	"$IDENT" changed "$SRCDIR/$h" "$OVL/$h" 2> "$PP/changed.err" || rc=$?
	[ $rc -eq 0 ] && return 0
	HF_WHY=$(head -n 1 "$PP/changed.err" | sed "s|$SRCDIR/||g; s|^kpatch-ident: ||")
	[ -n "$HF_WHY" ] || HF_WHY="kpatch-ident changed $h exited $rc"
	return 1
}

# the files that name (or may paste) an identifier a patched header changes,
# in $PP/named ("<file> <identifier> <how>"); their names in $PP/names
hf_named() {
	local h f extra=() ids
	for f in "${CHANGED_FILES[@]}"; do
		[ ! -f "$OVL/$f" ] || extra+=(--extra "$f=$OVL/$f")
	done
	: > "$PP/named"; : > "$PP/names"
	for h in "${HF_HEADERS[@]}"; do
		hf_changed "$h" > "$PP/changed" || return 1
		sed "s|^|$h |" "$PP/changed" >> "$LOG"
		mapfile -t ids < <(awk '{ print $2 }' "$PP/changed" | sort -u)
		[ ${#ids[@]} -gt 0 ] || continue
		printf '%s\n' "${ids[@]}" >> "$PP/names"
		# (the header's own mentions are in kpatch-ident's "uses:" lines)
		"$IDENT" query "$IDENT_INDEX" "${extra[@]}" --exclude "$h" "${ids[@]}" >> "$PP/named" 2>> "$LOG" ||
			{ HF_WHY="kpatch-ident query failed (log $LOG)"; return 1; }
	done
}

# the files every unit reads first (-include in kbuild's flags): a name in their
# closure reaches every unit
hf_forced_includes() {
	(cd "$SRCDIR" && grep -hoE -- '-include \$\(srctree\)/[^ )]+' Makefile scripts/Makefile.lib 2>/dev/null) |
		sed 's|.*(srctree)/||' | sort -u
}

# the files of list $1 and every file that includes one of them, on stdout
hf_reach() {
	[ -s "$1" ] || return 0
	{ cat "$1"; targeted_includers "" "$1"; } | sort -u
}

# the files that can paste a changed name, appended to $PP/reach: a unit builds
# it from a fragment and a rest only if it reads a file with the fragment and
# one that writes the rest (a number, or a rest that is itself a fragment:
# the fragment's files alone)
hf_paste_reach() {
	local id frag r1 r2
	while read -r id frag; do
		awk -v id="$id" -v f="paste:$frag" '$2 == id && $3 == f { print $1 }' "$PP/named.here" > "$PP/paste.a"
		r1=; r2=
		[ "${id#"$frag"}" = "$id" ] || r1=${id#"$frag"}
		[ "${id%"$frag"}" = "$id" ] || r2=${id%"$frag"}
		awk -v id="$id" -v r1="paste-rest:$r1" -v r2="paste-rest:$r2" '$2 == id && ($3 == r1 || $3 == r2) { print $1 }' \
			"$PP/named.here" > "$PP/paste.r"
		if [ -s "$PP/paste.r" ]; then
			hf_reach "$PP/paste.a" > "$PP/reach.a"
			hf_reach "$PP/paste.r" | awk 'FILENAME == ARGV[1] { a[$1] = 1; next } ($1 in a)' "$PP/reach.a" - >> "$PP/reach"
		else
			hf_reach "$PP/paste.a" >> "$PP/reach"
		fi
	done < <(awk '$3 ~ /^paste:/ { print $2, substr($3, 7) }' "$PP/named.here" | sort -u)
}

# cut $PP/candidates to the includers that can reach a changed identifier
# (into $PP/reached); 1 (HF_WHY set) when step 1 cannot decide
hf_ident_step() {
	local forced
	IDENT=$(find_tool kpatch-ident) || { HF_WHY="kpatch-ident not found"; return 1; }
	hf_ident_index || { HF_WHY="the identifier index of $SRCDIR could not be built (log $LOG)"; return 1; }
	hf_named || return 1
	# (another architecture's files and the build tools' are never compiled
	# here: through their "asm/..." names they would reach every unit)
	awk -v karch="$KB_KARCH" '!(($1 ~ /^arch\// && index($1, "arch/" karch "/") != 1) || $1 ~ /^(tools|scripts|Documentation|usr)\//)' \
		"$PP/named" > "$PP/named.here"
	# the files that name one, and every file that includes one of them
	awk '$3 == "names" { print $1 }' "$PP/named.here" | sort -u > "$PP/naming"
	hf_reach "$PP/naming" > "$PP/reach"
	hf_paste_reach
	sort -u -o "$PP/reach" "$PP/reach"
	forced=$(hf_forced_includes | grep -Fxf - "$PP/reach" | head -n 1) || true
	if [ -n "$forced" ]; then
		HF_WHY="$forced, which every unit reads first (-include), reaches a file that names $(hf_some_names "$PP/names")"
		return 1
	fi
	awk 'FILENAME == ARGV[1] { r[$1] = 1; next } ($1 in r)' "$PP/reach" "$PP/candidates" > "$PP/reached"
}

# "a, b, c and N more" of the names in file $1
hf_some_names() {
	sort -u "$1" | awk '{ a[++n] = $0 } END {
		for (i = 1; i <= n && i <= 3; i++) s = s (i > 1 ? ", " : "") a[i]
		if (n > 3) s = s " and " n - 3 " more"
		print (n ? s : "nothing")
	}'
}
hf_num() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<< "$1"; }

# the plan line: what the filter found before anything is preprocessed
hf_plan() {
	local textual compiled cand vml mods est what
	textual=$(wc -l < "$SCRATCH/includers") compiled=$(wc -l < "$SCRATCH/targets.incl")
	cand=$(wc -l < "$PP/candidates")
	vml=$(awk '$2 == "vmlinux"' "$PP/candidates" | wc -l); mods=$((cand - vml))
	est=$(( (cand * HF_UNIT_SECONDS + JOBS - 1) / JOBS ))
	if [ "$HF_MODE" = fast ]; then
		what="$(hf_num "$cand") reference the changed $(hf_some_names "$PP/names")"
	else
		what="$(hf_num "$cand") preprocessed, all of them ($HF_WHY)"
	fi
	HF_PLAN=("$textual" "$compiled" "$cand" "$vml" "$mods" "$est")
	info "${HF_HEADERS[*]}: $(hf_num "$textual") textual includers, $(hf_num "$compiled") compiled, $what ($vml in vmlinux, $mods in modules): about ${est}s to build at most"
}

# ---------------------------------------------------------------- pp-compare
# the preprocessing command kbuild saved for object $1 (its .i target)
targeted_pp_cmd() {
	local i=${1%.o}.i
	cmd_file_of "$i" "$OBJ"
	kbuild_saved_cmd "$CMD_FILE" "$i"
}

# the job script that preprocesses object $1 (job $2) on both sides and compares
targeted_pp_job() {
	local o=$1 n=$2 cmd ocmd pcmd strict='' PP
	PP=$(printf %q "$SCRATCH/pp")
	cmd=$(targeted_pp_cmd "$o")
	# (no dependency list: the command writes nothing into the cached tree)
	ocmd=$(sed -E 's/ -Wp,-MM?D,[^ ]+//' <<< "$cmd")
	case $ocmd in
	*" -E "*" -o ${o%.o}.i "*) ;;
	*) echo "echo '$o: no preprocessing command of the expected form in its .i.cmd' > $PP/$n.res"; return ;;
	esac
	ocmd=${ocmd/" -o ${o%.o}.i "/" -o $PP/$n.orig.i "}
	pcmd=${ocmd//"$SRCDIR/"/"$OVL/"}
	pcmd=${pcmd/" -o $PP/$n.orig.i "/" -o $PP/$n.new.i "}
	# flags that keep unused static functions: only identical units are the same
	case " $cmd " in
	*" -O0 "*|*" -fkeep-static-functions "*|*" -fkeep-inline-functions "*|*" -fno-toplevel-reorder "*|*" -fno-unit-at-a-time "*)
		strict=--strict ;;
	esac
	cat <<-EOF
	cd $(printf %q "$OBJ") || exit 0
	if [ ! -f $PP/$n.orig.i ] && ! { $ocmd; } > $PP/$n.log 2>&1; then
		echo "$o: preprocessing the original failed" > $PP/$n.res; exit 0
	fi
	if ! { $pcmd; } >> $PP/$n.log 2>&1; then
		rm -f $PP/$n.orig.i; echo "$o: preprocessing the patched source failed" > $PP/$n.res; exit 0
	fi
	r=\$($(printf %q "$PP_COMPARE") $strict $PP/$n.orig.i $PP/$n.new.i 2>> $PP/$n.log); rc=\$?
	$([ ! -f "$SCRATCH/pp/names.awk" ] || echo "awk -f $PP/names.awk $PP/names $PP/headers $PP/$n.new.i > $PP/$n.names 2>> $PP/$n.log")
	rm -f $PP/$n.orig.i $PP/$n.new.i
	echo "\$rc $o \$r" > $PP/$n.res.tmp && mv $PP/$n.res.tmp $PP/$n.res
	EOF
}

# KPB_HEADER_FILTER=check: the first changed identifier (of $PP/names) a
# patched unit (a .i file) names outside the patched headers ($PP/headers), the
# ground truth the identifier step's candidates are held to
# shellcheck disable=SC2016  # (an awk program)
HF_NAMES_AWK='
FILENAME == ARGV[1] { want[$1] = 1; next }
FILENAME == ARGV[2] { hdr["/" $1 "\""] = 1; next }
/^# [0-9]+ "/ {
	skip = 0
	for (h in hdr) if (length($3) >= length(h) && substr($3, length($3) - length(h) + 1) == h) skip = 1
	next
}
skip { next }
{
	l = $0; gsub(/"([^"\\]|\\.)*"/, " ", l)
	n = split(l, t, /[^A-Za-z0-9_$]+/)
	for (i = 1; i <= n; i++) if (t[i] in want) { print t[i]; exit }
}'

# step 1 (mode $1, KPB_HEADER_FILTER's): $PP/candidates cut to the includers
# that can reach what the hunks change (check: all go on to step 2, and step
# 1's set is held to its verdicts); the plan line, and each one set aside in the log
hf_step1() {
	local mode=$1 s p
	HF_MODE=full HF_WHY="KPB_HEADER_FILTER=$mode"
	if [ "$mode" != full ] && hf_ident_step; then
		HF_MODE=fast
		if [ "$mode" = check ]; then
			printf '%s\n' "${HF_HEADERS[@]}" > "$PP/headers"
			printf '%s\n' "$HF_NAMES_AWK" > "$PP/names.awk"
		else
			cp "$PP/reached" "$PP/candidates"
		fi
	fi
	hf_plan
	while read -r s p; do
		echo "ident ${s%.c}.o ($p) set aside: reaches none of the changed identifiers"
	done < <(awk 'FILENAME == ARGV[1] { c[$1] = 1; next } !($1 in c)' "$PP/candidates" "$SCRATCH/targets.incl" |
		awk 'FILENAME == ARGV[1] { own[$1] = 1; next } !($1 in own)' "$SCRATCH/targets.src" -) >> "$LOG"
}

# cut $SCRATCH/targets.incl ("<source> <parent>") to the objects that may change
targeted_header_filter() {
	local PP=$SCRATCH/pp t0=$SECONDS s p o n=0 nocmd=() rc total made=""
	PP_COMPARE=$(find_tool kpatch-pp-compare) || fail "kpatch-pp-compare not found (run 'make' in the kpatch-ng tree)"
	rm -rf "$PP"; mkdir -p "$PP/jobs" || fail "cannot create $PP"
	# the changed .c files' own objects are built anyway (the first file of each
	# awk below may be empty: FILENAME, not NR == FNR, tells which one is read)
	[ -f "$SCRATCH/targets.src" ] || : > "$SCRATCH/targets.src"
	awk 'FILENAME == ARGV[1] { own[$1] = 1; next } !($1 in own)' "$SCRATCH/targets.src" "$SCRATCH/targets.incl" > "$PP/candidates"
	total=$(wc -l < "$PP/candidates")
	[ "$total" -gt 0 ] || return 0
	hf_step1 "${KPB_HEADER_FILTER:-1}"
	total=$(wc -l < "$PP/candidates")
	if [ "$total" -eq 0 ]; then
		targeted_pp_verdicts "$PP" 0 0 "$t0" ""
		return 0
	fi
	step "preprocessing the $total object(s) that include ${HF_HEADERS[*]}, original and patched (-j$JOBS)"
	# kbuild's .i targets give each object its preprocessing command, once per
	# cache entry: they write the tree (alone, as building does)
	while read -r s p; do
		o=${s%.c}.o
		[ -n "$(targeted_pp_cmd "$o")" ] || nocmd+=("$o")
	done < "$PP/candidates"
	if [ ${#nocmd[@]} -gt 0 ] && [ "$LOCK_MODE" = -s ]; then
		lock_wait -x; LOCK_MODE=-x
	fi
	: > "$PP/results"
	while read -r s p; do
		o=${s%.c}.o n=$((n + 1))
		echo "$PP/$n.res" >> "$PP/results"
		echo "$n $o" >> "$PP/jobs/index"
	done < "$PP/candidates"
	# the objects without a .i command are made by kbuild a hundred at a time
	# (each made .i is the original side of its job: the disk holds a hundred)
	printf '%s\n' ${nocmd[@]+"${nocmd[@]}"} | awk 'FILENAME == ARGV[1] { job[$2] = $1; next } ($1 in job) { print job[$1], $1 }' \
		"$PP/jobs/index" - | split -l 100 - "$PP/batch."
	awk '{ print $1 }' "$PP/jobs/index" > "$PP/all"
	targeted_pp_run "$PP" &
	BUILD_PID=$!
	PROGRESS_WHAT=preprocessing PROGRESS_CMDS=$PP/results progress_start "$BUILD_PID"
	rc=0; wait $BUILD_PID || rc=$?
	BUILD_PID=
	progress_stop
	[ ${#nocmd[@]} -eq 0 ] || made=${#nocmd[@]}
	[ "$LOCK_MODE" = -s ] || { flock -s "$LOCK_FD"; LOCK_MODE=-s; }
	targeted_pp_verdicts "$PP" "$total" "$rc" "$t0" "$made"
}

# the preprocessing jobs of $1 (the header filter's directory), in the background
targeted_pp_run() {
	local PP=$1 b i o is
	for b in "$PP"/batch.*; do
		[ -e "$b" ] || continue
		# (-k: an object kbuild cannot preprocess keeps its place, unfiltered)
		mapfile -t is < <(awk '{ o = $2; sub(/\.o$/, ".i", o); print o }' "$b")
		targeted_make -j"$JOBS" -k "${is[@]}" || true
		while read -r i o; do
			[ ! -f "$OBJ/${o%.o}.i" ] || mv -f "$OBJ/${o%.o}.i" "$PP/$i.orig.i" || true
			if [ -n "$(targeted_pp_cmd "$o")" ]; then
				targeted_pp_job "$o" "$i" > "$PP/jobs/$i.sh" && echo "$PP/jobs/$i.sh"
			else
				echo "$o: kbuild made no preprocessing command (log $ORIG/build.log)" > "$PP/$i.res"
			fi
		done < "$b" | xargs -r -n 1 -P "$JOBS" sh || true
	done
	# the others (their .i commands cached)
	while read -r i o; do
		[ -f "$PP/$i.res" ] || [ -f "$PP/jobs/$i.sh" ] || { targeted_pp_job "$o" "$i" > "$PP/jobs/$i.sh" && echo "$PP/jobs/$i.sh"; }
	done < "$PP/jobs/index" | xargs -r -n 1 -P "$JOBS" sh || true
}

# the header filter's verdicts in $1 ($2 candidates, preprocessing status $3,
# started at $4, $5 .i commands made by kbuild): the changed .c files' own
# objects and the candidates pp-compare keeps stay in targets.incl
targeted_pp_verdicts() {
	local PP=$1 total=$2 rc=$3 t0=$4 made=$5 kept missed
	# the verdicts: "0 OBJECT same: ..." sets the object aside, anything else keeps it
	# (kpatch-pp-compare exits 0 same, 1 may change or out of memory, 2 bad input)
	[ -f "$PP/results" ] || : > "$PP/results"
	{ echo "---- header filter: the objects that include ${HF_HEADERS[*]} ----"; xargs -a "$PP/results" cat 2>/dev/null || true; } >> "$LOG"
	xargs -a "$PP/results" cat 2>/dev/null | awk '$1 == 0 && $3 == "same:" { print $2 }' > "$PP/same" || true
	awk 'FILENAME == ARGV[1] { own[$1] = 1; next } FILENAME == ARGV[2] { cand[$1] = 1; next }
		FILENAME == ARGV[3] { same[$1] = 1; next }
		{ o = $1; sub(/\.c$/, ".o", o) } ($1 in own) || (($1 in cand) && !(o in same))' \
		"$SCRATCH/targets.src" "$PP/candidates" "$PP/same" "$SCRATCH/targets.incl" > "$PP/kept"
	kept=$(awk 'FILENAME == ARGV[1] { own[$1] = 1; next } !($1 in own)' "$SCRATCH/targets.src" "$PP/kept" | wc -l)
	info "$total candidate(s), $(xargs -a "$PP/results" cat 2>/dev/null | awk '$1 == 0 || $1 == 1' | wc -l) preprocessed, $kept may change ($((SECONDS - t0))s${made:+, $made .i command(s) made by kbuild})"
	report_fact header "${HF_HEADERS[*]}" "${HF_PLAN[@]}" "$kept" "$HF_MODE" "${HF_WHY:-}"
	[ "$rc" -eq 0 ] || warn "preprocessing the includers ended with status $rc: the objects without a verdict are kept (log $LOG)"
	[ "${KPB_HEADER_FILTER:-1}" != check ] || [ "$HF_MODE" != fast ] || hf_check "$PP" "$kept" "$total"
	if [ "$kept" -eq 0 ] && [ ! -s "$SCRATCH/targets.src" ]; then
		fail "none of the $(wc -l < "$SCRATCH/targets.incl") objects that include ${HF_HEADERS[*]} can change with this patch: it changes nothing they use (the verdicts are in $LOG)"
	fi
	mv -f "$PP/kept" "$SCRATCH/targets.incl"
}

# KPB_HEADER_FILTER=check, after pp-compare ran on every includer ($1 the
# filter's directory, $2 kept, $3 preprocessed): each object it keeps that the
# identifier step set aside must name no changed identifier in its patched unit
# (else the step missed it: the run fails); one that names none is kept for
# the changed definitions' own text (a structure, an enum pp-compare cannot
# judge), which the identifier step rightly sets aside
hf_check() {
	local PP=$1 kept=$2 total=$3 o job name miss=() text=()
	while read -r o; do
		o=${o%.c}.o
		job=$(awk -v o="$o" '$2 == o { print $1; exit }' "$PP/jobs/index")
		name=$(cat "$PP/$job.names" 2>/dev/null) || name=
		if [ -n "$name" ]; then miss+=("$o (names $name)"); else text+=("$o"); fi
	done < <(awk 'FILENAME == ARGV[1] { own[$1] = 1; next } FILENAME == ARGV[2] { r[$1] = 1; next }
		!($1 in own) && !($1 in r) { print $1 }' "$SCRATCH/targets.src" "$PP/reached" "$PP/kept")
	[ ${#miss[@]} -eq 0 ] ||
		fail "header filter check: the identifier step set aside ${miss[*]}, which pp-compare keeps"
	if [ ${#text[@]} -eq 0 ]; then
		info "header filter check: the identifier step and the full filter keep the same $kept object(s) ($(wc -l < "$PP/reached") of $total candidates reach a changed identifier)"
	else
		info "header filter check: the full filter keeps $kept object(s), ${#text[@]} of them set aside by the identifier step, whose units name none of the changed identifiers: ${text[*]}"
	fi
}

# every kept object built from a filtered header: its .i command must be its
# compile command with -E for -c (else the filter read another unit)
targeted_pp_check() {
	local o a b
	[ -s "$SCRATCH/pp/same" ] || [ -s "$SCRATCH/pp/all" ] || return 0
	while read -r o; do
		[ -n "$(targeted_pp_cmd "$o")" ] || continue
		# shellcheck disable=SC2001  # (one command line)
		a=$(obj_cmd "$o" | sed -e 's/ ; .*//' -e 's/ -Wp,-MM\{0,1\}D,[^ ]*//' -e "s| -c -o $o | -o OUT |" -e 's/ *$//' | tr -s ' ')
		b=$(targeted_pp_cmd "$o" | sed -e 's/ -Wp,-MM\{0,1\}D,[^ ]*//' -e 's/ -E / /' -e "s| -o ${o%.o}.i | -o OUT |" -e 's/ *$//' | tr -s ' ')
		[ "$a" = "$b" ] ||
			fail "$o: its preprocessing command (.${o##*/}.i.cmd) is not its compile command with -E; the header filter cannot be trusted for this tree: rerun with KPB_HEADER_FILTER=0 (compile: $a; preprocess: $b)"
	done < <(awk '{ print $1 }' "$SCRATCH/targets.obj")
}

