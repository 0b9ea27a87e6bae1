# kpatch-build/lib/steps.sh: the build's resumable steps (--keep-tmp, --from
# STEP, --scratch DIR; sourced by kpatch-build).
#
# The build after the checks is five steps, each leaving its outputs in the
# scratch directory:
#   original  the original objects (the cached kernel build, a stock kernel's
#             targeted objects, an out-of-tree module's cached build) and the
#             patched overlay of the source ($scratch/src)
#   patched   the affected objects compiled from the overlay ($scratch/obj, the
#             originals beside them in $scratch/orig), the generated-file and
#             CONFIG_MODVERSIONS checks, the pairs to diff ($scratch/diff-list)
#   diff      create-diff-object on each pair ($scratch/diff), the parents'
#             symbols, a stock kernel's binary match
#   module    the differ's outputs linked into the patch module ($scratch/module)
#   convert   klp-convert, signing, the module written to the output directory
# (an out-of-tree module's original and patched builds are one step: --from
# patched runs it from original). At the end of each step the variables the
# later steps read are saved in $scratch/.state/STEP (declare -p); the run's
# inputs are in $scratch/.state/run. A run with --keep-tmp keeps the directory;
# --from STEP reruns the build from STEP in a kept directory (the newest one of
# the patch's name, or --scratch DIR): the checks run again, the inputs must be
# the kept run's, the outputs of STEP and later are removed, the earlier steps'
# variables are restored and their outputs checked, and the directory is kept
# again. Each refusal names the option, the directory and what is missing.

BUILD_STEPS=(original patched diff module convert)
FROM_STEP=''	# --from
RESUME_DIR=''	# --scratch
LOCK_PATH=''	# the lock of the original build's cache entry a run reads

step_index() {	# the position of step $1 in BUILD_STEPS; fails for another name
	local i
	for i in "${!BUILD_STEPS[@]}"; do
		[ "${BUILD_STEPS[i]}" != "$1" ] || { echo "$i"; return 0; }
	done
	return 1
}
# does step $1 run in this run (all of them without --from)?
step_runs() { [ -z "$FROM_STEP" ] || [ "$(step_index "$1")" -ge "$(step_index "$FROM_STEP")" ]; }

# STEP_VARS: the variables step $1 leaves for the later steps
step_vars() {
	case $1 in
	original) STEP_VARS=(ORIG OBJ IDX CACHE_KEY MARKER kver ORIG_CC OVL LOCK_PATH OOT_DIR OOT_CACHE SYMVERS) ;;
	patched) STEP_VARS=(W OBJECTS OBJ_PARENT SYMVERS KPATCH_CC_LOG) ;;
	diff) STEP_VARS=(DIFFED PARENTS PCACHE) ;;
	module) STEP_VARS=(inko) ;;
	convert) STEP_VARS=() ;;
	esac
}
# step $1 is done: save its variables (declare -p, in the shell: no fork; the
# state directory is made by log_setup)
step_done() {
	step_vars "$1"
	: > "$SCRATCH/.state/$1.tmp"
	# (a variable this kind of build does not set is left out; no names at all
	# would print every variable)
	[ ${#STEP_VARS[@]} -eq 0 ] ||
		declare -p "${STEP_VARS[@]}" > "$SCRATCH/.state/$1.tmp" 2>/dev/null || true
	mv -f "$SCRATCH/.state/$1.tmp" "$SCRATCH/.state/$1"
}
# read back step $1's variables as globals (resume_load is a function)
step_restore() {
	# shellcheck source=/dev/null  # (declare lines written by step_done)
	. <(sed -E 's/^declare -(-|[A-Za-z]+) /declare -g\1 /; s/^declare -g- /declare -g /' "$SCRATCH/.state/$1")
}

# the inputs of a run, one per line: a resumed run must have the kept run's
run_identity() {
	local p
	echo "name=$NAME"
	for p in "${PATCHES[@]}"; do echo "patch=$(sha256sum < "$p" | cut -d' ' -f1)"; done
	echo "source=$SRCDIR"
	echo "config=$(sha256sum < "$CONFIG" | cut -d' ' -f1)"
	echo "vmlinux=$VMLINUX"
	echo "kbuild=$KOBJ"
	echo "oot=$OOT_MODULE $OOT_SRC"
	echo "stock=${STOCK_RELEASE:-} full=$FULL_BUILD"
	echo "targets=${TARGETS[*]}"
	echo "replace=$((1 - NONREPLACE))"
	echo "compiler=$CC_IDENT"
	echo "cache=$KB_CACHE"
}

# --from: the kept scratch directory (RESUME_DIR), checked before anything is
# written: it holds a kept run of the same inputs that finished every step
# before FROM_STEP
resume_check() {
	local d s want have first
	[ -n "$FROM_STEP" ] || return 0
	if [ -n "$OOT_MODULE" ] && [ "$FROM_STEP" = patched ]; then
		info "--from patched: an out-of-tree module's original and patched builds are one step: from original"
		FROM_STEP=original
	fi
	if [ -z "$RESUME_DIR" ]; then
		# the newest kept directory of this name
		for d in "$KB_CACHE/tmp/$NAME".*/; do
			[ -f "$d.state/run" ] || continue
			[ -z "$RESUME_DIR" ] || [ "$d.state/run" -nt "$RESUME_DIR/.state/run" ] || continue
			RESUME_DIR=${d%/}
		done
		[ -n "$RESUME_DIR" ] || die "--from $FROM_STEP: no scratch directory kept for $NAME in $KB_CACHE/tmp (build with --keep-tmp first, or name one with --scratch)"
	fi
	[ -d "$RESUME_DIR" ] || die "--from $FROM_STEP: scratch directory $RESUME_DIR not found"
	RESUME_DIR=$(cd "$RESUME_DIR" && pwd)
	[ -f "$RESUME_DIR/.state/run" ] ||
		die "--from $FROM_STEP: $RESUME_DIR lacks the outputs of step original (not a scratch directory kept with --keep-tmp)"
	want=$(run_identity)
	have=$(cat "$RESUME_DIR/.state/run")
	if [ "$want" != "$have" ]; then
		first=$({ diff <(echo "$have") <(echo "$want") || [ $? -eq 1 ]; } | sed -n 's/^> //p' | sed -n 1p)
		die "--from $FROM_STEP: $RESUME_DIR was kept by a run with other inputs (now ${first:-?}): build it anew without --from"
	fi
	for s in "${BUILD_STEPS[@]}"; do
		[ "$s" != "$FROM_STEP" ] || break
		[ -f "$RESUME_DIR/.state/$s" ] ||
			die "--from $FROM_STEP: $RESUME_DIR lacks the outputs of step $s (its run did not finish it): start from $s or an earlier step"
	done
}

# a resumed run, after log_setup: the outputs of FROM_STEP and later removed,
# the earlier steps' variables restored and their outputs checked, the original
# build's cache entry read-locked as the kept run had it
resume_load() {
	local s started=0
	[ -n "$FROM_STEP" ] || return 0
	for s in "${BUILD_STEPS[@]}"; do
		[ "$s" != "$FROM_STEP" ] || started=1
		if [ $started = 1 ]; then
			rm -f "$SCRATCH/.state/$s"
			step_clear "$s"
			continue
		fi
		step_restore "$s"
		step_check "$s"
	done
	[ "$FROM_STEP" = original ] || step "resuming from step $FROM_STEP in $SCRATCH (kept: $(resume_kept))"
	if [ -n "$LOCK_PATH" ] && [ "$FROM_STEP" != original ]; then
		exec {LOCK_FD}>>"$LOCK_PATH"
		flock -s "$LOCK_FD"
	fi
}
resume_kept() {	# the steps before FROM_STEP, comma separated
	local s out=''
	for s in "${BUILD_STEPS[@]}"; do
		[ "$s" != "$FROM_STEP" ] || break
		out+="${out:+, }$s"
	done
	echo "$out"
}
# remove what step $1 makes (it runs again)
step_clear() {
	case $1 in
	original)	# everything: the run starts over in this directory
		find "$SCRATCH" -mindepth 1 -maxdepth 1 ! -name .state ! -name .kept -exec rm -rf {} +
		run_identity > "$SCRATCH/.state/run" ;;
	patched) rm -rf "$SCRATCH/obj" "$SCRATCH/orig" "$SCRATCH/gen" "$SCRATCH/diff-list" "$SCRATCH/changed-objects" ;;
	diff) rm -rf "$SCRATCH/diff" "$SCRATCH/exact" ;;
	module) rm -f "$SCRATCH/mod.c.prev" ;;
	convert) rm -f "$SCRATCH/$MODNAME.ko" ;;
	esac
}
# the outputs of step $1 (restored) are there
step_check() {
	local what='' o orig_o patched_o p f
	case $1 in
	original)
		if [ -n "$OOT_MODULE" ]; then
			[ -f "$OOT_CACHE/.complete" ] || what="the cached original module build $OOT_CACHE"
		else
			[ -d "$OBJ" ] || what="the original build $OBJ"
			[ -d "$OVL" ] || what="the patched overlay $OVL"
		fi ;;
	patched)
		if [ ! -s "$SCRATCH/diff-list" ]; then what="$SCRATCH/diff-list"
		else
			while read -r o orig_o patched_o p; do
				[ -f "$orig_o" ] || { what="$orig_o"; break; }
				[ -f "$patched_o" ] || { what="$patched_o"; break; }
			done < "$SCRATCH/diff-list"
		fi ;;
	diff)
		for f in "${DIFFED[@]}"; do [ -f "$f" ] || { what=$f; break; }; done ;;
	module)
		[ -f "${inko:-}" ] || what=${inko:-the module} ;;
	esac
	[ -z "$what" ] ||
		die "--from $FROM_STEP: $SCRATCH lacks the outputs of step $1 ($what is gone): start from $1 or an earlier step"
}
