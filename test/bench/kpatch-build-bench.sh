#!/bin/bash
# test/bench/kpatch-build-bench.sh: kpatch-build's wall time for a one-file patch
# (fs/proc/cmdline.c, original build cached) against the time to recompile that one
# file with the kernel's flags. Target: ratio <= 3.
#
#   test/bench/kpatch-build-bench.sh [RUNS]     (default 3 runs; the median is used)
#
# Needs the reference kernel (integration/kernel-cache.sh; KERNEL=6.1 or 6.12); the first call also
# builds kpatch-build's cached original (minutes), which is not timed.
# Denominators:
#   kbuild   `make O=<copy of the booted build> fs/proc/cmdline.o` after removing the
#            object: how a kernel developer recompiles one file
#   compiler the object's own command line from its .cmd file (gcc + objtool), run
#            directly: the bare compile, no make at all
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RUNS=${1:-3}
PATCH=$REPO/test/kpatch-build/patches/cmdline-string.patch
OBJ=fs/proc/cmdline.o

ENV=$("$REPO/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || {
	echo "kpatch-build-bench: reference kernel not built; run integration/kernel-cache.sh (skipped)"
	exit 0
}
eval "$ENV"
for t in create-diff-object/create-diff-object klp-convert/klp-convert kmod/patch; do
	[ -e "$REPO/$t" ] || { echo "kpatch-build-bench: $t missing (run make; skipped)"; exit 0; }
done
W=$(mktemp -d /tmp/kpb-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
KPB=("$REPO/kpatch-build/kpatch-build" -s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" -o "$W" -n bench)

echo "kpatch-build-bench: warm-up run (builds the cached original once if needed)"
"${KPB[@]}" "$PATCH" > "$W/warmup.log" 2>&1 || { cat "$W/warmup.log"; echo "kpatch-build-bench: warm-up failed"; exit 1; }

# (wall seconds, and CPU seconds of it and all it ran: on a busy machine, such as
# make check's two lanes, a build takes what CPU it needs)
: > "$W/kpb"; : > "$W/kpb-cpu"
for _ in $(seq 1 "$RUNS"); do
	t0=$(now); /usr/bin/time -f '%U + %S' -o "$W/time" "${KPB[@]}" "$PATCH" > "$W/run.log" 2>&1 ||
		{ cat "$W/run.log"; exit 1; }; t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/kpb"
	bc < "$W/time" >> "$W/kpb-cpu"
done
sed 's/^/  | /' "$W/run.log"

# kbuild recompile of the one file, in a private copy of the booted build tree
cp -a "$KOBJ" "$W/kobj"
make -s -C "$KSRC" O="$W/kobj" "$OBJ" >/dev/null 2>&1   # settle make's view of the copy
: > "$W/kbuild"
for _ in $(seq 1 "$RUNS"); do
	rm -f "$W/kobj/$OBJ"
	t0=$(now); make -s -C "$KSRC" O="$W/kobj" "$OBJ" >/dev/null 2>&1 || { echo "kbuild recompile failed"; exit 1; }; t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/kbuild"
done
# the bare compile command (gcc + objtool) from the .cmd file
# (6.1 writes "cmd_<target> :=", 6.2 and later "savedcmd_<target> :=")
# (make syntax: $(pound) and $$, not shell expansions)
# shellcheck disable=SC2016
cmd=$(sed -n -e "s|^cmd_$OBJ := ||p" -e "s|^savedcmd_$OBJ := ||p" "$W/kobj/fs/proc/.cmdline.o.cmd" | sed 's/\$(pound)/#/g; s/\\#/#/g; s/\$\$/$/g')
: > "$W/cc"; : > "$W/cc-cpu"
for _ in $(seq 1 "$RUNS"); do
	rm -f "$W/kobj/$OBJ"
	t0=$(now); (cd "$W/kobj" && /usr/bin/time -f '%U + %S' -o "$W/time" sh -c "$cmd") ||
		{ echo "bare recompile failed"; exit 1; }; t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/cc"
	bc < "$W/time" >> "$W/cc-cpu"
done

k=$(median < "$W/kpb"); mb=$(median < "$W/kbuild"); c=$(median < "$W/cc")
kc=$(median < "$W/kpb-cpu"); cc=$(median < "$W/cc-cpu")
printf 'kpatch-build (one-file patch, cached original): %.2f s   (runs: %s)\n' "$k" "$(tr '\n' ' ' < "$W/kpb")"
printf 'recompile %s via kbuild (make O=... %s):     %.2f s\n' "$OBJ" "$OBJ" "$mb"
printf 'recompile %s, bare compiler command:             %.2f s\n' "$OBJ" "$c"
printf 'ratio kpatch-build / kbuild recompile:  %.2f  (target <= 3)\n' "$(echo "$k / $mb" | bc -l)"
printf 'ratio kpatch-build / bare compile:      %.2f\n' "$(echo "$k / $c" | bc -l)"
printf 'CPU seconds, kpatch-build: %.2f, bare compile: %.2f; ratio %.2f\n' "$kc" "$cc" "$(echo "$kc / $cc" | bc -l)"
