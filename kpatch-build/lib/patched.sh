# kpatch-build/lib/patched.sh: patched overlay, affected objects, patched build
# (sourced by kpatch-build).
#
# The patched objects are made without make and without touching the user's tree:
# the patches are applied to a symlink farm of the source (apply_patches), the
# objects compiled from the changed files are found from the cached build's index
# and kbuild dependency lists (find_affected), and each one's own compile command is
# replayed through kpatch-cc, -j at a time, in a symlink farm of the cached object
# tree (build_patched). patched_diff_list then pairs each recompiled object with its
# original for the diff. These steps share the overlay and object-tree layout, which
# is why they are one file.

# ---------------------------------------------------------------- patched overlay
# $OVL mirrors $SRCDIR with symlinks; the directories on the path of each changed
# file are real directories and each changed file a private copy, so patch(1)
# writes only inside the scratch directory.
ovl_dir() {	# make OVL/$1 (a directory of the tree, "" = root) a real directory
	local rel=$1 parent entry name
	[ -z "$rel" ] && [ -d "$OVL" ] && [ ! -L "$OVL" ] && return 0
	if [ -n "$rel" ]; then
		parent=; case $rel in */*) parent=${rel%/*} ;; esac
		ovl_dir "$parent" || return 1
		[ -d "$OVL/$rel" ] && [ ! -L "$OVL/$rel" ] && return 0
		rm -f "$OVL/$rel" || return 1
	fi
	mkdir -p "$OVL${rel:+/$rel}" || return 1
	[ -d "$SRCDIR${rel:+/$rel}" ] || return 0
	local entries=()
	for entry in "$SRCDIR${rel:+/$rel}"/* "$SRCDIR${rel:+/$rel}"/.[!.]*; do
		[ -e "$entry" ] || [ -L "$entry" ] || continue
		entries+=("$entry")
	done
	[ ${#entries[@]} -eq 0 ] || ln -s "${entries[@]}" "$OVL${rel:+/$rel}/" || return 1
}
ovl_file() {	# private copy of file $1 in the overlay (absent if the source lacks it)
	local rel=$1 d
	d=; case $rel in */*) d=${rel%/*} ;; esac
	ovl_dir "$d" || return 1
	if [ -L "$OVL/$rel" ]; then
		rm -f "$OVL/$rel" || return 1
		[ -d "$SRCDIR/$rel" ] && return 1
		cp -p "$SRCDIR/$rel" "$OVL/$rel" || return 1
	fi
	return 0
}

apply_patches() {
	OVL=$SCRATCH/src
	step "applying ${#PATCHES[@]} patch(es) to a private overlay of $SRCDIR"
	for f in "${CHANGED_FILES[@]}"; do
		ovl_file "$f" || fail "cannot prepare $f in the overlay"
	done
	for p in "${PATCHES[@]}"; do
		pabs=$(readlink -f "$p")
		rc=0
		out=$(cd "$OVL" && patch -p1 --dry-run -t -N --no-backup-if-mismatch -i "$pabs" 2>&1) || rc=$?
		echo "$out" >> "$LOG"
		if [ $rc -ne 0 ]; then
			die "patch $p does not apply to $SRCDIR: $(grep -m1 -iE 'FAILED|can.t find|No such|malformed|Reversed|garbage|Only garbage' <<< "$out" || tail -n1 <<< "$out")"
		fi
		if grep -q 'with fuzz' <<< "$out"; then
			warn "patch $p applies with fuzz: $(grep -m1 'with fuzz' <<< "$out") — check that it does what you mean"
		fi
		logrun patch -d "$OVL" -p1 -t -N --no-backup-if-mismatch -s -i "$pabs" ||
			fail "applying $p failed after a successful dry run"
	done
}

# ---------------------------------------------------------------- affected objects
# awk: norm(path) removes "." and "dir/.." components (dependency lists keep
# paths as the preprocessor built them: ".../vdso/../../lib/vdso/x.c")
AWK_NORM='function norm(p,   n, i, k, parts, st, out) {
	n = split(p, parts, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "." || (parts[i] == "" && i > 1)) continue
		if (parts[i] == ".." && k > 1 && st[k] != "..") { k--; continue }
		st[++k] = parts[i]
	}
	out = st[1]; for (i = 2; i <= k; i++) out = out "/" st[i]
	return out
}'
# objects whose dependency list names file $1 (absolute, normalized): grep for the
# base name first, then compare normalized paths
objs_with_dep() {
	local t=$1 base=${1##*/}
	# (xargs says 123 when a grep of it found nothing: the usual case)
	# shellcheck disable=SC2016  # (awk's own $1)
	(cd "$OBJ" && { xargs -a "$IDX/cmdfiles" grep -lF -e "$base" 2>/dev/null || [ $? -eq 123 ]; } |
		xargs -r awk -v t="$t" -v base="$base" "$AWK_NORM"'
		FNR == 1 { obj = "" }
		/^source_/ { sub(/^source_/, ""); split($0, a, " := "); obj = a[1]; next }
		obj != "" && /^  [^ ]* \\$/ && index($1, base) && norm($1) == t { print obj; nextfile }')
}
find_affected() {
	step "finding objects affected by ${#CHANGED_FILES[@]} changed file(s)"
	# cincludes.idx: "<included .c> <object>" for .c files that other objects #include
	# (made once per cache entry, atomically: concurrent runs write the same content)
	if [ ! -f "$IDX/cincludes.idx" ]; then
		# shellcheck disable=SC2016  # (awk's own $0, $1)
		(cd "$OBJ" && xargs -a "$IDX/cmdfiles" awk "$AWK_NORM"'
			FNR == 1 { obj = "" }
			/^source_/ { sub(/^source_/, ""); split($0, a, " := "); obj = a[1]; src = a[2]; next }
			obj != "" && /^  [^ ]*\.c \\$/ && $1 != src { print norm($1), obj }') > "$IDX/cincludes.idx.$$" &&
			mv -f "$IDX/cincludes.idx.$$" "$IDX/cincludes.idx" || fail "cannot index the .c files other objects include ($IDX/cincludes.idx)"
	fi
	: > "$SCRATCH/affected"
	for f in "${CHANGED_FILES[@]}"; do
		case $f in
		*.c)
			{
				awk -v s="$SRCDIR/$f" '$2 == s { print $1 }' "$IDX/objects.idx"
				awk -v s="$SRCDIR/$f" '$1 == s { print $2 }' "$IDX/cincludes.idx"
			} > "$SCRATCH/aff.one" ;;
		*.h)
			objs_with_dep "$SRCDIR/$f" > "$SCRATCH/aff.one" ;;
		*)
			info "$f: not a C source or header, ignored"; continue ;;
		esac
		# only objects of the index (compiled from a source: C or assembly)
		n=$(awk 'NR == FNR { idx[$1] = 1; next } ($1 in idx) && !seen[$1]++' \
			"$IDX/objects.idx" "$SCRATCH/aff.one" | tee -a "$SCRATCH/affected" | wc -l)
		case $f in
		*.c) [ "$n" -gt 0 ] || info "$f: not compiled in this configuration (no object), ignored" ;;
		*.h) info "$f: included by $n object(s) of this build" ;;
		esac
	done
	# files the build generates from changed files: replayed while the objects compile
	gen_start
	declare -gA OBJ_PARENT=()
	OBJECTS=()
	while read -r o p; do
		OBJECTS+=("$o"); OBJ_PARENT[$o]=$p
	done < <(sort -u "$SCRATCH/affected" | awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { print $1, $3 }' - "$IDX/objects.idx" | sort)
	[ ${#OBJECTS[@]} -gt 0 ] || gen_check	# (a changed generated file is the reason)
	[ ${#OBJECTS[@]} -gt 0 ] || fail "the patch changes no object of this kernel build (files: ${CHANGED_FILES[*]})"
	# objects scripts/link-vmlinux.sh links beside vmlinux.a (6.2+:
	# init/version-timestamp.o) are vmlinux's too
	local linked
	# (none before 6.2; no script in a tree without one)
	linked=" $({ grep -oE '\binit/[a-z0-9_-]+\.o\b' "$SRCDIR/scripts/link-vmlinux.sh" 2>/dev/null || true; } | sort -u | paste -sd' ') "
	for o in "${OBJECTS[@]}"; do
		case $linked in *" $o "*) [ "${OBJ_PARENT[$o]}" != - ] || OBJ_PARENT[$o]=vmlinux ;; esac
		[ "${OBJ_PARENT[$o]}" != - ] || gen_check	# (the more basic reason first)
		[ "${OBJ_PARENT[$o]}" != - ] || fail "$o is compiled but linked into neither vmlinux nor a module of this build"
	done
	echo "objects: ${OBJECTS[*]}" >> "$LOG"
}

# ---------------------------------------------------------------- patched build
# W mirrors the original object tree with symlinks; the directory of each
# affected object is real and holds no build products, so the replayed compile
# writes only there. Source paths in the command point at the overlay.
wdir() {
	local rel=$1 parent entry name
	if [ -z "$rel" ]; then
		[ -d "$W" ] && return 0
		mkdir -p "$W" || return 1
	else
		parent=; case $rel in */*) parent=${rel%/*} ;; esac
		wdir "$parent" || return 1
		[ -d "$W/$rel" ] && [ ! -L "$W/$rel" ] && return 0
		rm -f "$W/$rel" && mkdir -p "$W/$rel" || return 1
	fi
	local entries=()
	for entry in "$OBJ${rel:+/$rel}"/* "$OBJ${rel:+/$rel}"/.[!.]*; do
		[ -e "$entry" ] || [ -L "$entry" ] || continue
		name=${entry##*/}
		# build products are not linked: the compile must create them afresh
		case $name in
		*.o|*.ko|*.a|*.mod|*.mod.c|*.d|*.cmd|*.s|*.i|*.lst|.tmp*|*.order|*.symvers|*.dwo|vmlinux*)
			[ -d "$entry" ] || continue ;;
		esac
		entries+=("$entry")
	done
	[ ${#entries[@]} -eq 0 ] || ln -s "${entries[@]}" "$W${rel:+/$rel}/" || return 1
}
# the command kbuild saved for target $2 in .cmd file $1, unescaped from make syntax
# (Kbuild.include make-cmd: '$' is written '$$', '#' is '$(pound)', older '\#').
# The variable is "cmd_<target> :=" up to 6.1 and "savedcmd_<target> :=" from 6.2 on:
# whichever the file has. Nothing (and success) when there is none.
kbuild_saved_cmd() {
	local f=$1 t=$2
	[ -f "$f" ] || return 0
	# (one sed: this runs for every object and relink step)
	# shellcheck disable=SC2016  # (make's $(pound) and $$)
	sed -n -e "\\|^\\(saved\\)\\{0,1\\}cmd_$t := |"'{s|||; s/\$(pound)/#/g; s/\\#/#/g; s/\$\$/$/g; p; q;}' "$f"
}
# CMD_FILE: kbuild's .cmd file of target $1 (in directory $2, if given); no
# dirname/basename forks, as this runs for every object
cmd_file_of() {
	local t=$1 d=.
	case $t in */*) d=${t%/*} ;; esac
	CMD_FILE=${2:+$2/}$d/.${t##*/}.cmd
}
# the compile command of object $1
obj_cmd() {
	cmd_file_of "$1" "$OBJ"
	kbuild_saved_cmd "$CMD_FILE" "$1"
}

# The flags the diffed objects of some architectures need, to reach the running
# kernel's data from a module (the kernel is built without them):
#   ppc64le  -mcmodel=large: every data reference through a .toc slot (a TOC-relative
#            reference cannot leave the module's TOC);
#   s390x    -mno-pic-data-is-text-relative (the kernel is -fPIE): every data
#            reference through a GOT slot (the loader's R_390_GOTENT), as 6.1 puts
#            modules more than 4 GB away from the kernel, out of reach of a
#            PC-relative larl/lrl. Not -fPIC: its semantic interposition would stop
#            GCC inlining global functions the kernel's build inlines.
# Rather than a second cached kernel build, both the original and the patched version
# of each affected object are compiled with them (the original one from the pristine
# source, into $SCRATCH/orig): one more compile per object.
diff_cflags() {
	case $KPB_ARCH in
	ppc64le) echo "-mcmodel=large" ;;
	s390x) echo "-mno-pic-data-is-text-relative" ;;
	esac
}
with_diff_cflags() {	# $1 with $2 after the kernel's own flags (the last one wins)
	case $1 in
	*" -c -o "*) echo "${1/ -c -o / $2 -c -o }" ;;
	*) return 1 ;;
	esac
}
# replay_compile TREE OBJECT CMD: run CMD (a compile of OBJECT) in the symlink farm TREE
replay_compile() {
	local W=$1 o=$2 cmd=$3 d
	d=; case $o in */*) d=${o%/*} ;; esac
	wdir "$d" || fail "cannot prepare $W/$d"
	[ ! -e "$W/$o" ] || fail "internal: $W/$o exists before the compile"
	echo "+ (cd $W && $cmd)" >> "$LOG"
	(cd "$W" && exec setsid sh -c "$cmd") > "$SCRATCH/compile-${W##*/}-${o//\//_}.log" 2>&1 &
	CPIDS+=($!); CLOGS+=("$SCRATCH/compile-${W##*/}-${o//\//_}.log"); COBJS+=("$o"); PIDS+=($!)
	# at most $JOBS compiles at a time
	local n pid
	while :; do
		n=0; for pid in "${CPIDS[@]}"; do ! kill -0 "$pid" 2>/dev/null || n=$((n + 1)); done
		# (the compiles that ended, for the progress line)
		[ ! -f "$SCRATCH/patched-done" ] || echo $(( ${#CPIDS[@]} - n )) > "$SCRATCH/patched-done"
		[ $n -ge "$JOBS" ] || break
		reap_one
	done
}
# "wait -n" takes the status of the job it reaps: a later "wait PID" of that job
# finds no child and says 127. reap_one keeps each status it takes, wait_pid
# looks there first (a patch of 300 objects lost 4 compiles' statuses so).
declare -gA JOB_STATUS=()
reap_one() {
	local p='' st=0
	wait -n -p p || st=$?
	[ -z "$p" ] || JOB_STATUS[$p]=$st
}
wait_pid() {
	if [ -n "${JOB_STATUS[$1]+set}" ]; then return "${JOB_STATUS[$1]}"; fi
	wait "$1"
}

build_patched() {
	local dflags ocmd
	W=$SCRATCH/obj
	step "building patched objects: ${#OBJECTS[@]} affected"
	export KPATCH_CC_REAL="$CC_CMD" KPATCH_CC_LOG="$SCRATCH/changed-objects" \
		KPATCH_CC_ORIG_TREE="$OBJ" KPATCH_CC_KEEP="$SCRATCH/orig"
	dflags=$(diff_cflags)
	if [ -n "$dflags" ]; then
		# the originals are compiled afresh (below), not kept from the cache
		unset KPATCH_CC_ORIG_TREE
		info "$KPB_ARCH: original and patched objects compiled with $dflags (data through slots the loader fills)"
	fi
	: > "$KPATCH_CC_LOG"
	CPIDS=() CLOGS=() COBJS=()
	# (a header's patch recompiles hundreds of objects: minutes; with
	# $dflags, each one twice)
	{ printf '%s\n' "${OBJECTS[@]}"; [ -z "$dflags" ] || printf '%s\n' "${OBJECTS[@]}"; } > "$SCRATCH/patched-objects"
	echo 0 > "$SCRATCH/patched-done"
	PROGRESS_WHAT="patched build" PROGRESS_CMDS=$SCRATCH/patched-objects PROGRESS_DONE=$SCRATCH/patched-done \
		progress_start $$
	for o in "${OBJECTS[@]}"; do
		cmd=$(obj_cmd "$o")
		[ -n "$cmd" ] || fail "no compile command for $o in $OBJ (.cmd file)"
		# kbuild: cmd_cc_o_c = $(CC) -Wp,-MMD,<depfile> ... ; the compiler is what precedes
		occ=${cmd%% -Wp,-MMD,*}
		[ "$occ" != "$cmd" ] || occ=$ORIG_CC
		case "$cmd " in
		"$occ "*) ;;
		*) fail "$o: cannot find the compiler in its compile command (original build with '$ORIG_CC')" ;;
		esac
		cmd="$KPATCH_CC -idirafter $(printf %q "$KMOD_INC") ${cmd#"$occ" }"
		if [ -n "$dflags" ]; then
			cmd=$(with_diff_cflags "$cmd" "$dflags") || fail "$o: no ' -c -o ' in its compile command to add $dflags to"
			# the original: pristine source, the real compiler (not recorded as changed)
			ocmd="$CC_CMD ${cmd#"$KPATCH_CC "}"
			replay_compile "$SCRATCH/orig" "$o" "$ocmd"
		fi
		cmd=${cmd//"$SRCDIR/"/"$OVL/"}
		replay_compile "$W" "$o" "$cmd"
	done
	bad=()
	i=0
	log_mark "--- the compilers' output"	# (a failure shows it, not the commands)
	for o in "${COBJS[@]}"; do
		wait_pid "${CPIDS[$i]}" || bad+=("$o")
		echo $((i + 1)) > "$SCRATCH/patched-done"
		# paths in the private overlay read as source-relative paths
		sed -e "/^objtool: Can't open/d" -e "s|$OVL/||g" "${CLOGS[$i]}" >> "$LOG"
		i=$((i + 1))
	done
	progress_stop
	PIDS=(); [ -z "${PREBUILD_PID:-}" ] || PIDS=("$PREBUILD_PID")
	[ ${#bad[@]} -eq 0 ] || fail "compiling the patched ${bad[*]} failed"
	info "$(sort -u "$KPATCH_CC_LOG" | wc -l) object(s) recompiled: $(sort -u "$KPATCH_CC_LOG" | paste -sd' ')"
	gen_check
}

# ORIG PATCHED PARENT per recompiled object
patched_diff_list() {
	: > "$SCRATCH/diff-list"
	while read -r o; do
		orig_o=$SCRATCH/orig/$o
		[ -f "$orig_o" ] || orig_o=$OBJ/$o
		echo "$o $orig_o $W/$o ${OBJ_PARENT[$o]}" >> "$SCRATCH/diff-list"
	done < <(sort -u "$KPATCH_CC_LOG")
	SYMVERS=$KOBJ/Module.symvers
}
