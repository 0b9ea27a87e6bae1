# kpatch-build/lib/oot.sh: original and patched build of an out-of-tree module
# (sourced by kpatch-build; --oot-module/--oot-module-src).
#
# An out-of-tree module needs no kernel source and no cached original kernel build.
# Its original build (-ffunction-sections -fdata-sections) is cached like the
# kernel's, in $KPATCH_CACHE/kpatch-build/oot/<key>/tree (key: the module source's
# content, the booted kbuild tree's release, config and Module.symvers, the
# compiler, the flags), built once under an exclusive flock and only read after
# its .complete marker. Each run copies it into its scratch directory, patches the
# copy and rebuilds it there. Both builds map their own directory away
# (-ffile-prefix-map=DIR/=), so that __FILE__ and the debug paths are the same in
# the two and an unchanged object comes out byte for byte the same: the objects
# that differ from the cached ones are the ones the patch changed. build_oot
# replaces the in-tree steps (original.sh, patched.sh) and leaves the same result
# for the diff step: $SCRATCH/diff-list and SYMVERS.

# ---------------------------------------------------------------- out-of-tree module
# compiled objects of the module tree $1: the ones whose .cmd names a source
oot_objects() {
	(cd "$1" && find . -name '.*.o.cmd' -type f) | while read -r c; do
		d=${c%/*}; b=${c##*/}; b=${b#.}; o=${d#./}/${b%.cmd}; o=${o#./}; o=${o#/}
		case $o in *.mod.o) continue ;; esac
		if grep -q '^source_' "$1/$c" && [ -f "$1/$o" ]; then echo "$o"; fi
	done
}
# make the module in directory $1 (its own path mapped away)
oot_make() {
	logrun make -C "$KOBJ" ${KB_MAKE[@]+"${KB_MAKE[@]}"} M="$1" \
		KCFLAGS="$OOT_KCFLAGS -ffile-prefix-map=$1/=" -j"$JOBS" modules
}
oot_cache_key() {
	OOT_KCFLAGS="-ffunction-sections -fdata-sections -idirafter $KMOD_INC"
	OOT_KEY=$({
		echo "oot recipe 1"
		echo "kbuild $(readlink -f "$KOBJ") $(cat "$KOBJ/include/config/kernel.release" 2>/dev/null || true)"
		sha256sum < "$KOBJ/.config"
		sha256sum < "$KOBJ/Module.symvers" 2>/dev/null
		echo "gcc $CC_IDENT make ${KB_MAKE[*]+"${KB_MAKE[*]}"} kcflags $OOT_KCFLAGS"
		# the source by content (paths, modes and bytes)
		(cd "$OOT_SRC" && find . -type f -printf '%P %m\n' | LC_ALL=C sort &&
			find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
	} | sha256sum | cut -c1-16)
	OOT_CACHE=$KB_CACHE/oot/$OOT_KEY
}
# the cached original build (made here under the lock when it is not there yet)
oot_original_cached() {
	local lock_fd t0=$SECONDS
	mkdir -p "$KB_CACHE/oot" || fail "cannot create $KB_CACHE/oot"
	exec {lock_fd}>>"$OOT_CACHE.lock"
	if [ -f "$OOT_CACHE/.complete" ]; then
		step "building original out-of-tree module $OOT_NAME (cached: $OOT_CACHE)"
		exec {lock_fd}>&-
		return 0
	fi
	flock -n "$lock_fd" || { info "waiting for a concurrent build of $OOT_CACHE"; flock "$lock_fd"; }
	if [ -f "$OOT_CACHE/.complete" ]; then
		step "building original out-of-tree module $OOT_NAME (cached: $OOT_CACHE, built by a concurrent run)"
	else
		step "building original out-of-tree module $OOT_NAME from $OOT_SRC (not cached: into $OOT_CACHE)"
		rm -rf "$OOT_CACHE"
		mkdir -p "$OOT_CACHE/tree" && cp -a "$OOT_SRC/." "$OOT_CACHE/tree/" || fail "cannot copy $OOT_SRC"
		if ! oot_make "$OOT_CACHE/tree"; then
			rm -rf "$OOT_CACHE"
			fail "building the original module failed"
		fi
		echo "build_seconds=$((SECONDS - t0))" > "$OOT_CACHE/info"
		touch "$OOT_CACHE/.complete"
		# keep the 20 newest entries
		# shellcheck disable=SC2012  # (the entries are named by hex keys)
		ls -1td "$KB_CACHE"/oot/*/ 2>/dev/null | tail -n +21 | while read -r d; do
			rm -rf "$d" "${d%/}.lock"; done
	fi
	exec {lock_fd}>&-
}
build_oot() {
	local p pabs out o d
	OOT_DIR=$SCRATCH/oot
	for p in "${PATCHES[@]}"; do
		pabs=$(readlink -f "$p")
		out=$(cd "$OOT_SRC" && patch -p1 --dry-run -t -N --no-backup-if-mismatch -i "$pabs" 2>&1) ||
			die "patch $p does not apply to $OOT_SRC: $(grep -m1 -iE 'FAILED|can.t find|No such|malformed|Reversed|garbage' <<< "$out" || tail -n1 <<< "$out")"
		if grep -q 'with fuzz' <<< "$out"; then warn "patch $p applies with fuzz: $(grep -m1 'with fuzz' <<< "$out")"; fi
	done
	oot_cache_key
	oot_original_cached
	mkdir -p "$OOT_DIR" "$SCRATCH/orig" && cp -a "$OOT_CACHE/tree/." "$OOT_DIR/" ||
		fail "cannot copy the cached original build $OOT_CACHE"
	step "building patched objects of $OOT_NAME"
	for p in "${PATCHES[@]}"; do
		logrun patch -d "$OOT_DIR" -p1 -t -N --no-backup-if-mismatch -s -i "$(readlink -f "$p")" || fail "applying $p failed"
	done
	log_mark "--- the patched module's build"
	oot_make "$OOT_DIR" || fail "building the patched module failed"
	: > "$SCRATCH/diff-list"
	for o in $(oot_objects "$OOT_DIR"); do
		if [ ! -f "$OOT_CACHE/tree/$o" ]; then
			info "$o: new object (not in the booted module), ignored"; continue
		fi
		cmp -s "$OOT_CACHE/tree/$o" "$OOT_DIR/$o" && continue
		d=.; case $o in */*) d=${o%/*} ;; esac
		mkdir -p "$SCRATCH/orig/$d" && cp -p "$OOT_CACHE/tree/$o" "$SCRATCH/orig/$o" ||
			fail "cannot keep the original $o"
		echo "$o $SCRATCH/orig/$o $OOT_DIR/$o $OOT_NAME" >> "$SCRATCH/diff-list"
	done
	info "$(wc -l < "$SCRATCH/diff-list") object(s) changed: $(cut -d' ' -f1 "$SCRATCH/diff-list" | paste -sd' ')"
	[ -s "$SCRATCH/diff-list" ] || fail "the patch changes no object of $OOT_NAME"
	cat "$KOBJ/Module.symvers" > "$SCRATCH/Module.symvers"
	# (kbuild writes none for a module that exports nothing)
	[ ! -f "$OOT_DIR/Module.symvers" ] || cat "$OOT_DIR/Module.symvers" >> "$SCRATCH/Module.symvers"
	SYMVERS=$SCRATCH/Module.symvers
}
