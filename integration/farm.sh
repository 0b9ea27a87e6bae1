#!/bin/bash
# farm.sh: kpatch-build with a compile farm (CC="distcc gcc") and a compiler cache
# (CC="ccache gcc"), end to end on the reference kernel (make integration-farm).
#
#   integration/farm.sh [--timeout SECS]
#
# Two distccd daemons on 127.0.0.1 (ports chosen free, --allow 127.0.0.1, each with
# its own log and temporary directory, stopped on every exit path) are the farm
# (DISTCC_HOSTS). All kpatch-builds here use their own cache, $FARM (default
# $KPATCH_CACHE/farm; its .kernel-build.lock is a link to the machine-wide one),
# so that the original kernel there is built through distcc:
#   1. original: kpatch-build CC="distcc gcc" of 01-proc-meminfo. On a cold cache
#      that builds the whole original kernel through the daemons (minutes; once per
#      machine): the objects each daemon compiled (COMPILE_OK lines of its log naming
#      a source of the tree) are recorded with the cache entry (farm-counts, and the
#      daemons' log lines), and both must be > 0. On a warm cache the record is
#      checked again against those kept log lines. The distcc build time is compared
#      with the local one (build_seconds of the same key in $KPATCH_CACHE, if built).
#   2. a second patch (02-new-function): the original comes from the cache, its
#      patched compile went through a daemon (this run's logs).
#   3. two kpatch-builds of different patches (06-static-inline, 10-constprop-clone)
#      at the same time on the cache: both finish, cached, with their modules.
#   4. CC="ccache gcc" (a private CCACHE_DIR): same cache entry (the key is the real
#      compiler's identity), twice: the second compile is a ccache hit and the module
#      the same as the first.
#   5. a compiler that is not the kernel's behind CC (a wrapper that rewrites the
#      object's .comment, as a farm host with another gcc would make it): refused by
#      kpatch-cc, naming the object and both compilers.
#   6. the modules of 1-3 (and 4's) booted in one qemu run: each one's guest checks
#      (integration/patches/NN-name.guest) pass.
# The last line is "farm: N passed, N failed, N skipped" (test/lib/result.sh); the figures go to $OUT/figures.txt
# (default test/out/farm/).
#
# The script is one compound command (parsed whole before it runs), so that
# replacing it while it runs does not disturb the run.
{
set -uo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PDIR=$HERE/patches
OUT=${KPATCH_OUT:-$ROOT/test/out}/farm
tmo=240
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) tmo=${2:?}; shift ;;
	-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" | sed '$d'; exit 0 ;;
	*) echo "farm: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
for t in distcc distccd ccache qemu-system-x86_64 objcopy; do
	command -v $t >/dev/null || { echo "farm: $t not found (scripts/install-deps)" >&2; exit 1; }
done

# shellcheck source=test/lib/result.sh
. "$ROOT/test/lib/result.sh"
result_init farm "$OUT"
check() { local name=$1 detail=$2; shift 2; if "$@"; then pass "$name" "$detail"; else fail "$name" "$detail"; fi; }
# grep_all REGEX FILE...: every file has a line matching REGEX
# shellcheck disable=SC2317  # (called through check)
grep_all() { local re=$1 f; shift; for f; do grep -qE -- "$re" "$f" || return 1; done; }
finish() { result_summary; exit $?; }

ENV=$("$HERE/kernel-cache.sh" --print-env) || { echo "farm: the reference kernel build failed" >&2; exit 1; }
eval "$ENV"
make -C "$ROOT" -s all >/dev/null || { echo "farm: make (the tools) failed" >&2; exit 1; }
KPB=$ROOT/kpatch-build/kpatch-build
MAIN_CACHE=$KPATCH_CACHE
FARM=${KPATCH_FARM_CACHE:-$MAIN_CACHE/farm}
mkdir -p "$FARM" "$OUT"
# the farm cache builds kernels under the machine-wide lock like every other build
ln -sfn "$(readlink -f "$MAIN_CACHE/.kernel-build.lock")" "$FARM/.kernel-build.lock"
FIG=$OUT/figures.txt
: > "$FIG"
fig() { echo "$*" | tee -a "$FIG"; }

T=$(mktemp -d /tmp/kpatch-farm.XXXXXX)
PORT_a='' PORT_b=''
chmod 755 "$T"
DPIDS=()
# shellcheck disable=SC2317  # (called by the EXIT trap)
stop_daemons() {
	local p
	for p in ${DPIDS[@]+"${DPIDS[@]}"}; do kill -TERM -- "-$p" 2>/dev/null; done
	for p in ${DPIDS[@]+"${DPIDS[@]}"}; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$p" 2>/dev/null || break; sleep 0.2; done
		kill -KILL -- "-$p" 2>/dev/null
	done
	DPIDS=()
}
# the kpatch-builds running (stopped first on exit: a kernel build must not go
# on without the daemons, holding the machine's build lock)
KPIDS=()
# shellcheck disable=SC2317  # (called by the EXIT trap)
stop_builds() {
	local p
	for p in ${KPIDS[@]+"${KPIDS[@]}"}; do kill -TERM "$p" 2>/dev/null; done
	for p in ${KPIDS[@]+"${KPIDS[@]}"}; do wait "$p" 2>/dev/null; done
	KPIDS=()
}
trap 'stop_builds; stop_daemons; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP

# ---------------------------------------------------------------- the farm
port_free() { ! ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
# start_daemon NAME: distccd on 127.0.0.1, its own log and TMPDIR, in its own
# process group (stopped by group); sets PORT_<NAME>
start_daemon() {
	local n=$1 port d=$T/distccd-$1 p
	port=$((20000 + RANDOM % 20000))
	while ! port_free $port; do port=$((20000 + RANDOM % 20000)); done
	mkdir -p "$d/tmp"; chmod 1777 "$d/tmp"; : > "$d/log"; chown nobody "$d/log" "$d"
	TMPDIR=$d/tmp setsid distccd --daemon --no-detach --listen 127.0.0.1 --port $port \
		--allow 127.0.0.1 --jobs 2 --log-file "$d/log" --log-level info --user nobody \
		--pid-file "$d/pid" < /dev/null > "$d/stderr" 2>&1 &
	DPIDS+=($!)
	for _ in $(seq 50); do grep -q 'listening on' "$d/log" 2>/dev/null && break; sleep 0.1; done
	grep -q "listening on 127.0.0.1:$port" "$d/log" || { fail "daemon-$n" "distccd did not start: $(cat "$d/stderr" "$d/log" | tail -n 3)"; finish; }
	printf -v "PORT_$n" %s "$port"
}
start_daemon a
start_daemon b
check daemons "distccd a on 127.0.0.1:$PORT_a, b on 127.0.0.1:$PORT_b (pids ${DPIDS[*]})" true
export DISTCC_HOSTS="127.0.0.1:$PORT_a/2 127.0.0.1:$PORT_b/2"
export DISTCC_DIR=$T/distcc-client
mkdir -p "$DISTCC_DIR"
unset DISTCC_VERBOSE
# compiled(LOG, PATH-PREFIX): the compiles a daemon completed of sources under a prefix
compiled() { grep 'COMPILE_OK' "$1" 2>/dev/null | awk -v p="$2" '{ f = $NF } index(f, p) == 1' | wc -l; }

KSTD=(-s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX")
# kpb_start TAG CC NAME PATCH [OPTIONS]: kpatch-build on the farm cache in the
# background (pid appended to KPIDS), output $T/TAG.out; kpb: the same, waited for
kpb_start() {
	local tag=$1 cc=$2 name=$3 patch=$4; shift 4
	mkdir -p "$T/$tag"
	CC=$cc KPATCH_CACHE=$FARM "$KPB" "${KSTD[@]}" -o "$T/$tag" -n "$name" "$@" "$patch" > "$T/$tag.out" 2>&1 &
	KPIDS+=($!)
}
kpb() {
	local rc
	kpb_start "$@"
	wait "${KPIDS[-1]}"; rc=$?
	unset 'KPIDS[-1]'
	return $rc
}
# the cache entry a run used, from its "building original kernel (...)" line
entry_of() { grep 'building original kernel' "$1" | grep -o "$FARM/kpatch-build/orig/[0-9a-f]*" | tail -n1; }

# ---------------------------------------------------------------- 1. original through the farm
# an entry without the record of its distcc build (interrupted, or made otherwise) is
# not the farm's: build it again through the daemons
for e in "$FARM"/kpatch-build/orig/*/; do
	[ -d "$e" ] || continue
	[ -f "$e/.complete" ] && [ -f "$e/farm-counts" ] && continue
	echo "farm: removing $e (no complete distcc build recorded)"
	rm -rf "$e"
done
t0=$(date +%s)
kpb orig "distcc gcc" proc-meminfo "$PDIR/01-proc-meminfo.patch" -j 4
rc=$?
t_orig=$(( $(date +%s) - t0 ))
ENTRY=$(entry_of "$T/orig.out"); ENTRY=${ENTRY%/}
if [ $rc -ne 0 ] || [ -z "$ENTRY" ] || [ ! -f "$ENTRY/.complete" ]; then
	fail original "kpatch-build exited $rc: $(grep -m1 -E 'error|failed' "$T/orig.out")"
	tail -n 20 "$T/orig.out"
	finish
fi
check original-module "livepatch-proc-meminfo.ko built, cache entry $ENTRY" test -f "$T/orig/livepatch-proc-meminfo.ko"
check original-cc "the cached original was built with CC='distcc gcc'" grep -qx 'cc=distcc gcc' "$ENTRY/info"
nobj=$(awk '$2 ~ /\.c$/' "$ENTRY/objects.idx" | wc -l)
if grep -q 'not cached' "$T/orig.out"; then
	# cold: record what each daemon compiled of the kernel tree
	for n in a b; do
		grep 'COMPILE_OK' "$T/distccd-$n/log" | awk -v p="$KSRC/" 'index($NF, p) == 1' > "$ENTRY/distccd-$n.compiled"
	done
	{
		echo "daemon_a=$(wc -l < "$ENTRY/distccd-a.compiled")"
		echo "daemon_b=$(wc -l < "$ENTRY/distccd-b.compiled")"
		echo "c_objects=$nobj"
		echo "recorded=$(date -u +%FT%TZ)"
	} > "$ENTRY/farm-counts"
	echo "farm: original kernel built through distcc in ${t_orig}s (recorded in $ENTRY/farm-counts)"
else
	echo "farm: original kernel from the farm cache (built through distcc on $(sed -n 's/^recorded=//p' "$ENTRY/farm-counts"))"
fi
na=$(sed -n 's/^daemon_a=//p' "$ENTRY/farm-counts"); nb=$(sed -n 's/^daemon_b=//p' "$ENTRY/farm-counts")
# the record holds to the daemons' own log lines kept with the entry
check distcc-record "recorded counts match the kept daemon log lines" \
	test "$na $nb" = "$(wc -l < "$ENTRY/distccd-a.compiled") $(wc -l < "$ENTRY/distccd-b.compiled")"
check distcc-both-daemons "objects compiled: daemon a $na, daemon b $nb" test "${na:-0}" -gt 0 -a "${nb:-0}" -gt 0
# (a few C files are compiled more than once, e.g. the vdso; assembly stays local)
check distcc-coverage "$((na + nb)) remote compiles for $nobj C objects of the build" \
	test $((na + nb)) -ge $((nobj * 9 / 10))
# build time: build_seconds of the info file, and (the same for any kpatch-build
# version, lock waits excluded) the span of the objects' modification times
# (scripts/kconfig/ is built by olddefconfig, before the lock is taken)
span() {
	[ -d "$1/obj" ] && find "$1/obj" -name '*.o' -not -path '*/scripts/kconfig/*' -printf '%T@\n' |
		sort -n | awk 'NR == 1 { a = $1 } { b = $1 } END { if (NR) printf "%d", b - a }'
}
LOCAL=$MAIN_CACHE/kpatch-build/orig/$(basename "$ENTRY")
dsec=$(sed -n 's/^build_seconds=//p' "$ENTRY/info") dspan=$(span "$ENTRY")
lsec='' lspan=''
if [ -f "$LOCAL/.complete" ]; then lsec=$(sed -n 's/^build_seconds=//p' "$LOCAL/info") lspan=$(span "$LOCAL"); fi
fig "figure: original kernel build (vmlinux modules, $nobj C objects), build_seconds (first to last object): through distcc (2 daemons on this $(nproc)-core machine, -j4) ${dsec}s (${dspan}s); local gcc -j$(nproc), same cache key in $MAIN_CACHE: ${lsec:-not built on this machine}${lsec:+s ($lspan s)}"
fig "figure: objects compiled by daemon a: $na, by daemon b: $nb"

# ---------------------------------------------------------------- 2. a second patch
before_a=$(compiled "$T/distccd-a/log" "$FARM/") before_b=$(compiled "$T/distccd-b/log" "$FARM/")
t0=$(date +%s.%N)
kpb second "distcc gcc" new-function "$PDIR/02-new-function.patch"
rc=$?
t_second=$(printf %.1f "$(echo "$(date +%s.%N) - $t0" | bc)")
check second-patch "kpatch-build of 02-new-function through distcc: exit $rc in ${t_second}s" \
	test $rc -eq 0 -a -f "$T/second/livepatch-new-function.ko"
check second-cached "it used the cached original $ENTRY" grep -q "building original kernel (cached: $ENTRY)" "$T/second.out"
remote=$(( $(compiled "$T/distccd-a/log" "$FARM/") + $(compiled "$T/distccd-b/log" "$FARM/") - before_a - before_b ))
check second-remote "its patched compile ran on a daemon ($remote remote compile(s) of the overlay)" test $remote -ge 1
t0=$(date +%s.%N)
kpb second-local gcc new-function "$PDIR/02-new-function.patch"
rc=$?
t_local=$(printf %.1f "$(echo "$(date +%s.%N) - $t0" | bc)")
check second-local-gcc "the same patch with CC=gcc on the same cache entry: exit $rc in ${t_local}s" \
	grep -q "building original kernel (cached: $ENTRY)" "$T/second-local.out"
fig "figure: one-file patch with the original cached: ${t_second}s through distcc, ${t_local}s with local gcc"

# ---------------------------------------------------------------- 3. two at once
t0=$(date +%s.%N)
kpb_start conc1 "distcc gcc" static-inline "$PDIR/06-static-inline.patch"
kpb_start conc2 "distcc gcc" constprop-clone "$PDIR/10-constprop-clone.patch"
wait "${KPIDS[0]}"; rc1=$?
wait "${KPIDS[1]}"; rc2=$?
KPIDS=()
t_conc=$(printf %.1f "$(echo "$(date +%s.%N) - $t0" | bc)")
check concurrent "06-static-inline and 10-constprop-clone at the same time: exit $rc1 and $rc2 in ${t_conc}s" \
	test $rc1 -eq 0 -a $rc2 -eq 0 -a -f "$T/conc1/livepatch-static-inline.ko" -a -f "$T/conc2/livepatch-constprop-clone.ko"
check concurrent-cached "both used the cached original" \
	grep_all "building original kernel \(cached: $ENTRY" "$T/conc1.out" "$T/conc2.out"
check concurrent-patched "each diffed its own object" \
	test "$(grep -c 'diffing fs/proc/array.o' "$T/conc1.out") $(grep -c 'diffing arch/x86/kernel/cpu/bugs.o' "$T/conc2.out")" = "1 1"
check concurrent-no-scratch "no scratch directory left" test -z "$(ls -A "$FARM/kpatch-build/tmp" 2>/dev/null)"

# ---------------------------------------------------------------- 4. ccache
text_secs() { readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \(\.text[^ ]*\) .*/\1/p'; }
# same_code KO1 KO2: the same .text* sections, byte for byte
# shellcheck disable=SC2317  # (called through check)
same_code() {
	local s
	[ "$(text_secs "$1")" = "$(text_secs "$2")" ] || return 1
	for s in $(text_secs "$1"); do
		objcopy -O binary --only-section="$s" "$1" "$T/a.bin" &&
			objcopy -O binary --only-section="$s" "$2" "$T/b.bin" && cmp -s "$T/a.bin" "$T/b.bin" || return 1
	done
}
export CCACHE_DIR=$T/ccache
ccache_hits() { ccache --print-stats 2>/dev/null | awk -F'\t' '$1 ~ /^(direct|preprocessed)_cache_hit$/ { n += $2 } END { print n + 0 }'; }
kpb ccache1 "ccache gcc" new-function "$PDIR/02-new-function.patch"; rc1=$?
hits0=$(ccache_hits)
kpb ccache2 "ccache gcc" new-function "$PDIR/02-new-function.patch"; rc2=$?
hits=$(( $(ccache_hits) - hits0 ))
check ccache-builds "CC='ccache gcc' twice: exit $rc1 and $rc2" test $rc1 -eq 0 -a $rc2 -eq 0
check ccache-cached "both used the cached original (the key is the compiler's identity)" \
	grep_all "building original kernel \(cached: $ENTRY\)" "$T/ccache1.out" "$T/ccache2.out"
check ccache-hit "the second run's compile was a ccache hit ($hits hit(s))" test "$hits" -ge 1
# the same code as through distcc (the modules differ only in debug info: the
# scratch directory's path)
check ccache-same-code "the code sections ($(text_secs "$T/second/livepatch-new-function.ko" | paste -sd' ')) equal the module built through distcc" \
	same_code "$T/ccache2/livepatch-new-function.ko" "$T/second/livepatch-new-function.ko"
unset CCACHE_DIR

# ---------------------------------------------------------------- 5. another compiler
cat > "$T/other-gcc" <<'EOF'
#!/bin/sh
# gcc, then the object says another gcc made it (what a farm host with GCC 13 gives)
gcc "$@" || exit
out= prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
case $out in *.o) ;; *) exit 0 ;; esac
printf 'GCC: (Other 13.9.0-1) 13.9.0\0' > "$out.comment"
objcopy --remove-section=.comment --add-section .comment="$out.comment" \
	--set-section-flags .comment=contents,readonly "$out" && rm -f "$out.comment"
EOF
chmod +x "$T/other-gcc"
kpb other "$T/other-gcc" other "$PDIR/02-new-function.patch"
rc=$?
check other-compiler-fails "kpatch-build exit $rc" test $rc -ne 0
check other-compiler-named "$(grep -m1 -o 'kpatch-cc: .*' "$T/other.out")" \
	grep -qE "kpatch-cc: fs/proc/version.o: compiled by GCC .\(Other 13.9.0-1\) 13.9.0., not by" "$T/other.out"

# ---------------------------------------------------------------- 6. boot
args=()
for m in orig/livepatch-proc-meminfo:01-proc-meminfo second/livepatch-new-function:02-new-function \
	conc1/livepatch-static-inline:06-static-inline conc2/livepatch-constprop-clone:10-constprop-clone; do
	args+=(--script "$PDIR/${m#*:}.guest" --module "$T/${m%%:*}.ko")
done
if "$HERE/run-guest.sh" --timeout "$tmo" --log "$OUT/guest.log" \
	--file "$HERE/guest/suite-lib.sh:/lib/kp-suite.sh" "$KBZIMAGE" "${args[@]}" > "$T/guest.out" 2>&1; then
	pass boot "$(tail -n1 "$T/guest.out")"
else
	fail boot "$(head -n3 "$T/guest.out" | paste -sd' ') (console $OUT/guest.log)"
fi
for t in orig second second-local conc1 conc2 ccache1 ccache2 other; do cp "$T/$t.out" "$OUT/$t.log" 2>/dev/null; done
for n in a b; do cp "$T/distccd-$n/log" "$OUT/distccd-$n.log"; done
finish
}
