# kpatch-build/lib/oot.sh: original and patched build of an out-of-tree module
# (sourced by kpatch-build; --oot-module/--oot-module-src).
#
# An out-of-tree module needs no kernel source and no cached original kernel build:
# it is built twice in one private copy of its source (same paths, so __FILE__ and
# the compile commands match), first with -ffunction-sections -fdata-sections as the
# original, then patched; kbuild recompiles what the patch changed. build_oot
# replaces the in-tree steps (original.sh, patched.sh) and leaves the same result
# for the diff step: $SCRATCH/diff-list and SYMVERS.

# ---------------------------------------------------------------- out-of-tree module
# compiled objects: the ones whose .cmd names a source
oot_objects() {
	(cd "$OOT_DIR" && find . -name '.*.o.cmd' -type f) | while read -r c; do
		d=${c%/*}; b=${c##*/}; b=${b#.}; o=${d#./}/${b%.cmd}; o=${o#./}; o=${o#/}
		case $o in *.mod.o) continue ;; esac
		grep -q '^source_' "$OOT_DIR/$c" && [ -f "$OOT_DIR/$o" ] && echo "$o"
	done
}
build_oot() {
	OOT_DIR=$SCRATCH/oot
	OOT_KCFLAGS="-ffunction-sections -fdata-sections -idirafter $KMOD_INC"
	step "building original out-of-tree module $OOT_NAME from $OOT_SRC"
	mkdir -p "$OOT_DIR" && cp -a "$OOT_SRC/." "$OOT_DIR/" || fail "cannot copy $OOT_SRC"
	for p in "${PATCHES[@]}"; do
		pabs=$(readlink -f "$p")
		out=$(cd "$OOT_DIR" && patch -p1 --dry-run -t -N --no-backup-if-mismatch -i "$pabs" 2>&1) ||
			die "patch $p does not apply to $OOT_SRC: $(echo "$out" | grep -m1 -iE 'FAILED|can.t find|No such|malformed|Reversed|garbage' || echo "$out" | tail -n1)"
		echo "$out" | grep -q 'with fuzz' && warn "patch $p applies with fuzz: $(echo "$out" | grep -m1 'with fuzz')"
	done
	logrun make -C "$KOBJ" ${KB_MAKE[@]+"${KB_MAKE[@]}"} M="$OOT_DIR" KCFLAGS="$OOT_KCFLAGS" -j"$JOBS" modules ||
		fail "building the original module failed"
	mkdir -p "$SCRATCH/orig"
	for o in $(oot_objects); do
		mkdir -p "$SCRATCH/orig/$(dirname "$o")" && cp -p "$OOT_DIR/$o" "$SCRATCH/orig/$o"
	done
	touch "$SCRATCH/oot-stamp"; sleep 0.01
	step "building patched objects of $OOT_NAME"
	for p in "${PATCHES[@]}"; do
		logrun patch -d "$OOT_DIR" -p1 -t -N --no-backup-if-mismatch -s -i "$(readlink -f "$p")" || fail "applying $p failed"
	done
	STEP_LINE=$(wc -l < "$LOG")
	logrun make -C "$KOBJ" ${KB_MAKE[@]+"${KB_MAKE[@]}"} M="$OOT_DIR" KCFLAGS="$OOT_KCFLAGS" -j"$JOBS" modules ||
		fail "building the patched module failed"
	: > "$SCRATCH/diff-list"
	for o in $(oot_objects); do
		[ "$OOT_DIR/$o" -nt "$SCRATCH/oot-stamp" ] || continue
		[ -f "$SCRATCH/orig/$o" ] || { info "$o: new object (not in the booted module), ignored"; continue; }
		echo "$o $SCRATCH/orig/$o $OOT_DIR/$o $OOT_NAME" >> "$SCRATCH/diff-list"
	done
	info "$(wc -l < "$SCRATCH/diff-list") object(s) recompiled: $(cut -d' ' -f1 "$SCRATCH/diff-list" | paste -sd' ')"
	[ -s "$SCRATCH/diff-list" ] || fail "the patch changes no object of $OOT_NAME"
	cat "$KOBJ/Module.symvers" "$OOT_DIR/Module.symvers" > "$SCRATCH/Module.symvers" 2>/dev/null
	SYMVERS=$SCRATCH/Module.symvers
}
