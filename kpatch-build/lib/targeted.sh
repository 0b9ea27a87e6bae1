# kpatch-build/lib/targeted.sh: the original objects of a stock kernel, built one
# by one (sourced by kpatch-build, after stock.sh).
#
# A distribution kernel is some 13,500 C objects; a patch changes a few. The
# kernel is configured and prepared once per release (olddefconfig + prepare, with
# the KCFLAGS the objects get, out of tree, cached in $KPATCH_CACHE/kpatch-build/
# targeted/<key>), then only the objects a patch may change are built there, with
# kbuild's own single-object targets, so their .cmd files hold the commands and
# dependency lists the patched build replays (patched.sh). Which objects: a .c
# file's own object, where the -dbg package's units compile it (stock.sh); for a
# header (or a .c file other sources #include), every compiled source that
# includes it, textually, through any chain of headers (the include index of the
# tree, made once per source), cut by the header filter (header-filter.sh) to
# those that can change. The preprocessor's dependency lists of the objects
# built then confirm which ones really include it (find_affected). Each rebuilt
# original is held to the shipped binary (binary_match: once the differ has named
# the changed functions, before a module is built).

TARGETED_RECIPE=1
TARGETED_KCFLAGS="-ffunction-sections -fdata-sections"

targeted_key() {
	local srcid
	srcid=$(cat "$KPATCH_CACHE/src/.$(basename "$SRCDIR").complete" 2>/dev/null) ||
		srcid="$SRCDIR $(stat -c '%s %Y' "$SRCDIR/Makefile")"
	CACHE_KEY=$({
		echo "targeted $TARGETED_RECIPE"
		echo "source $srcid"
		echo "release $STOCK_RELEASE"
		echo "gcc $CC_IDENT"
		echo "kcflags $TARGETED_KCFLAGS"
		sha256sum < "$CONFIG"
	} | sha256sum | cut -c1-16)
	ORIG=$KB_CACHE/targeted/$CACHE_KEY
	OBJ=$ORIG/obj
	IDX=$SCRATCH/index
	mkdir -p "$OBJ" "$IDX" || fail "cannot create $ORIG"
	kver=$(make -s -C "$SRCDIR" kernelversion 2>/dev/null)
}

targeted_make() {	# make in the prepared tree, output to the build log
	echo "+ make O=$OBJ $*" >> "$ORIG/build.log"
	make -C "$SRCDIR" O="$OBJ" ${KB_MAKE[@]+"${KB_MAKE[@]}"} CC="$CC_CMD" \
		"$KERNELRELEASE_ARG" KCFLAGS="$TARGETED_KCFLAGS" "$@" >> "$ORIG/build.log" 2>&1
}

# olddefconfig + prepare, once per cache entry (under its exclusive lock)
targeted_prepare() {
	local t0=$SECONDS
	[ -f "$ORIG/.prepared" ] && return 0
	step "configuring and preparing $STOCK_RELEASE (once per release: olddefconfig, prepare)"
	cp "$CONFIG" "$OBJ/.config" || fail "cannot copy $CONFIG"
	targeted_make olddefconfig || fail "make olddefconfig failed (log $ORIG/build.log)"
	if ! config_same "$CONFIG" "$OBJ/.config"; then
		warn "olddefconfig changed the configuration of $STOCK_RELEASE (a tool version differs?): $(config_diff "$CONFIG" "$OBJ/.config")"
	fi
	targeted_make -j"$JOBS" prepare || fail "make prepare failed (log $ORIG/build.log)"
	echo "prepare_seconds=$((SECONDS - t0))" > "$ORIG/info"
	touch "$ORIG/.prepared"
	info "prepared in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- which sources
# the parent of each compiled source: "<source> <parent>" lines (vmlinux, or a
# module name) for the sources listed in file $1 (one a line) that a unit compiles
targeted_parents() {
	awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($1 in want) && !seen[$1]++ { print $1, "vmlinux" }' \
		"$1" "$SK/units.vmlinux"
	[ -s "$SK/units.modules" ] || return 0
	awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($2 in want) && !seen[$2]++ {
		m = $1; sub(/.*\//, "", m); sub(/\.ko$/, "", m); print $2, m }' "$1" "$SK/units.modules"
}

# the include index of the source tree: "<file><TAB>=<path>" for a quoted include
# found next to the file, else "<file><TAB>~<name as written>"; once per source
targeted_include_index() {
	local idx t0=$SECONDS
	idx=$KPATCH_CACHE/src/.$(basename "$SRCDIR").includes
	INCLUDES=$idx
	[ -s "$idx" ] && [ "$idx" -nt "$KPATCH_CACHE/src/.$(basename "$SRCDIR").complete" ] && return 0
	info "indexing the #include lines of $SRCDIR (once per source)"
	(cd "$SRCDIR" && {
		find . -type f -name '*.[ch]' | sed 's|^\./||; s|^|F |'
		grep -rHoE --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]+[>"]' . |
			sed 's|^\./||'
	}) | awk "$AWK_NORM"'
		/^F / { have[substr($0, 3)] = 1; next }
		{
			i = index($0, ":"); f = substr($0, 1, i - 1); s = substr($0, i + 1)
			q = (s ~ /"/); sub(/^[^<"]*[<"]/, "", s); sub(/[>"].*$/, "", s)
			d = f; sub(/\/[^\/]*$/, "", d); if (d == f) d = ""
			p = norm((d == "" ? "" : d "/") s)
			if (q && (p in have)) print f "\t=" p; else print f "\t~" s
		}' > "$idx.$$" || fail "indexing the includes of $SRCDIR failed"
	mv "$idx.$$" "$idx"
	info "include index: $(wc -l < "$idx") #include lines ($((SECONDS - t0))s)"
}

# every file of the tree that includes one of the files $1 (space separated)
# or of file $2 (one a line), directly or through other files: the textual
# include closure (not the files it starts from). Files of
# another architecture (arch/sh/include/asm/elf.h includes linux/utsname.h, and
# every "asm/elf.h" would match it) and of the build tools are never part of
# this kernel's compiles, so the closure does not go through them.
targeted_includers() {
	awk -F'\t' -v start="$1" -v startfile="${2:-}" -v karch="$KB_KARCH" '
	function foreign(f) {
		return (f ~ /^arch\// && index(f, "arch/" karch "/") != 1) || f ~ /^(tools|scripts|Documentation|usr)\//
	}
	{
		r = substr($2, 2)
		if (substr($2, 1, 1) == "=") exact[r] = exact[r] SUBSEP $1
		else suffix[r] = suffix[r] SUBSEP $1
	}
	function add(list,   n, a, i) {
		n = split(list, a, SUBSEP)
		for (i = 2; i <= n; i++) if (!(a[i] in seen) && !foreign(a[i])) { seen[a[i]] = 1; queue[++qn] = a[i] }
	}
	END {
		qn = split(start, queue, " ")
		if (startfile != "") while ((getline l < startfile) > 0) if (l != "") queue[++qn] = l
		ns = qn
		for (i = 1; i <= qn; i++) seen[queue[i]] = 1
		for (qi = 1; qi <= qn; qi++) {
			t = queue[qi]
			if (t in exact) add(exact[t])
			s = t
			while (1) {	# t and every tail of it after a "/"
				if (s in suffix) add(suffix[s])
				j = index(s, "/"); if (!j) break
				s = substr(s, j + 1)
			}
			if (qi > ns) print t
		}
	}' "$INCLUDES"
}

# "<object> <parent>" of every object the patch may change, in $SCRATCH/targets
targeted_targets() {
	local f srcs=() incl=() n
	for f in "${CHANGED_FILES[@]}"; do
		case $f in
		*.c) srcs+=("$f") ;;
		*.h) incl+=("$f") ;;
		*) info "$f: not a C source or header, ignored" ;;
		esac
	done
	stock_units_vmlinux
	: > "$SCRATCH/targets"
	if [ ${#srcs[@]} -gt 0 ]; then
		printf '%s\n' "${srcs[@]}" > "$SCRATCH/srcs"
		targeted_parents "$SCRATCH/srcs" > "$SCRATCH/targets.src"
		# a .c file vmlinux does not compile: a module's, or one others include
		if [ "$(wc -l < "$SCRATCH/targets.src")" -lt ${#srcs[@]} ]; then
			stock_units_modules "$SCRATCH/srcs"
			targeted_parents "$SCRATCH/srcs" > "$SCRATCH/targets.src"
		fi
		for f in "${srcs[@]}"; do
			grep -q "^$f " "$SCRATCH/targets.src" || incl+=("$f")
		done
		cat "$SCRATCH/targets.src" >> "$SCRATCH/targets"
	fi
	if [ ${#incl[@]} -gt 0 ]; then
		local t0=$SECONDS
		step "finding the objects that include ${incl[*]}"
		targeted_include_index
		targeted_includers "${incl[*]}" | { grep '\.c$' || true; } > "$SCRATCH/includers"	# (none: no object)
		stock_units_modules "$SCRATCH/includers"
		targeted_parents "$SCRATCH/includers" > "$SCRATCH/targets.incl"
		n=$(wc -l < "$SCRATCH/targets.incl")
		info "$(wc -l < "$SCRATCH/includers") source file(s) include them textually, $n of them compiled in $STOCK_RELEASE ($((SECONDS - t0))s)"
		HF_HEADERS=("${incl[@]}")
		[ "$n" -eq 0 ] || [ "${KPB_HEADER_FILTER:-1}" = 0 ] || targeted_header_filter
		cat "$SCRATCH/targets.incl" >> "$SCRATCH/targets"
	fi
	# the debug modules of the module objects, in one pass
	awk '$2 != "vmlinux" { print $1 }' "$SCRATCH/targets" > "$SCRATCH/module-srcs"
	stock_fetch_modules "$SCRATCH/module-srcs"
	# source -> object
	sort -u "$SCRATCH/targets" | awk '{ o = $1; sub(/\.c$/, ".o", o); print o, $1, $2 }' > "$SCRATCH/targets.obj"
}

# build the original objects the patch may change (kbuild single targets)
targeted_build_objects() {
	local objs=() o s p todo=0 t0=$SECONDS
	while read -r o s p; do
		objs+=("$o")
		[ -f "$OBJ/$o" ] || todo=$((todo + 1))
	done < "$SCRATCH/targets.obj"
	[ ${#objs[@]} -gt 0 ] || fail "the patch changes no object compiled in $STOCK_RELEASE (files: ${CHANGED_FILES[*]})"
	if [ $todo -gt 0 ] && [ "$LOCK_MODE" = -s ]; then
		# building writes the tree: alone (readers of other objects wait)
		lock_wait -x; LOCK_MODE=-x
		todo=0
		for o in "${objs[@]}"; do [ -f "$OBJ/$o" ] || todo=$((todo + 1)); done
	fi
	if [ $todo -eq 0 ]; then
		step "building original objects (cached: ${#objs[@]} in $OBJ)"
	else
		step "building original objects: $todo of ${#objs[@]} not cached (-j$JOBS)"
		printf '%s\n' "${objs[@]}" | sed 's|\([^/]*\)$|.\1.cmd|' > "$SCRATCH/progress.cmds"
		targeted_make -j"$JOBS" -k "${objs[@]}" &
		BUILD_PID=$!
		PROGRESS_CMDS=$SCRATCH/progress.cmds progress_start "$BUILD_PID"
		rc=0; wait $BUILD_PID || rc=$?
		BUILD_PID=
		progress_stop
		[ $rc -eq 0 ] || { echo "---- tail of $ORIG/build.log ----" >> "$LOG"; tail -n 20 "$ORIG/build.log" >> "$LOG"
			fail "building the original objects failed (log $ORIG/build.log)"; }
		info "$todo original object(s) built in $((SECONDS - t0))s"
	fi
	# the index find_affected reads: this run's objects only
	while read -r o s p; do
		[ -f "$OBJ/$o" ] || fail "kbuild made no $o (is $s compiled in $STOCK_RELEASE?)"
		echo "$o $SRCDIR/$s $p"
	done < "$SCRATCH/targets.obj" > "$IDX/objects.idx"
	awk '{ o = $1; d = o; sub(/\/[^\/]*$/, "", d); b = o; sub(/.*\//, "", b)
		print (d == o ? "" : d "/") "." b ".cmd" }' "$IDX/objects.idx" > "$IDX/cmdfiles"
}

# the original build of a stock kernel: prepared tree + the objects of the patch
targeted_original() {
	targeted_key
	mkdir -p "$KB_CACHE/targeted"
	exec {LOCK_FD}>>"$KB_CACHE/targeted/$CACHE_KEY.lock"
	# shared while the tree is only read (a warm run: prepared, its objects
	# built), exclusive while it is written (flock converts the lock in place)
	LOCK_MODE=-s
	lock_wait -s
	if [ ! -f "$ORIG/.prepared" ]; then
		lock_wait -x; LOCK_MODE=-x
		targeted_prepare
	fi
	targeted_targets
	targeted_build_objects
	targeted_pp_check
	[ "$LOCK_MODE" = -s ] || flock -s "$LOCK_FD"
	ORIG_CC=$CC_CMD
}
