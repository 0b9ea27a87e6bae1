#!/bin/bash
# zoo.sh: the build-and-load zoo (make integration-zoo): many small, realistic live
# patches against the reference kernel, each built with kpatch-build and, when built,
# loaded in ONE boot.
#
#   integration/zoo.sh [--only NN[,NN...]] [--timeout SECS] [--no-boot] [--list]
#                      [--dir DIR --out DIR --title TEXT]
#
# --dir: the patches (and their .expect/.guest/.check files) are DIR's, not
# integration/zoo/'s (the stable-fix suite's generated patches); --out: the
# results directory; --title: the table's first words.
#
# For every integration/zoo/NN-name.patch (its files and what is expected of it:
# lib/patchspec.sh, the format the suite shares; a file in a subdirectory for
# this kernel overrides), on the kernel KERNEL selects (6.1 default, 6.12,
# debian-6.1, debian-6.12):
#   1. build: kpatch-build -n name (--report); the expected outcome is NN-name.expect's:
#        ok               kpatch-build succeeds and writes livepatch-name.ko
#        refuse REGEX     kpatch-build fails (exit 2: the differ's refusal, or 1) and
#                         its output matches the extended regex REGEX (the reason named)
#        skip REASON      not run on this kernel (e.g. its code is not in that
#                         reference config), listed with REASON under the table
#      then the optional NN-name.check: host-side checks of the built module
#   2. boot (once, all built modules, 2 CPUs, init_on_free=1): for each module in turn, in the guest:
#      insmod (load), /sys/kernel/livepatch/<name>/transition back to 0 (transition),
#      enabled = 1, optional NN-name.guest (a busybox-sh snippet run while the patch
#      is active; exit 0 = pass: check "patched"), echo 0 > enabled and the sysfs dir
#      gone (disable), rmmod (unload). A patch to a module (objname other than
#      vmlinux) gets that module (from $KOBJ, after the modules it depends on) loaded first.
#      The guest log is scanned for "livepatch: ... not found" / klp errors.
# Prints a table (patch, expect, build_s, build, load, transition, disable, unload,
# result) and writes it to $KPATCH_OUT/zoo/$KERNEL/results.txt
# (default test/out/zoo/$KERNEL/); each patch's build.log is in
# $KPATCH_OUT/zoo/$KERNEL/NN-name/, the guest console in $KPATCH_OUT/zoo/$KERNEL/guest.log.
# Then a line per patch (test/lib/result.sh: PASS, SKIP, FAIL NN-name/<check>:
# <detail>, the failures last) and the closing line "zoo: N passed, N failed, N skipped".
# Exit 0 when every patch passed, 1 otherwise, 2 on bad usage.
set -uo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ZDIR=$HERE/zoo
export KERNEL=${KERNEL:-6.1}
OUT=${KPATCH_OUT:-$ROOT/test/out}/zoo/$KERNEL
TITLE="kpatch-ng patch zoo"
ONLY='' QTMO='' BOOT=1 LIST=0
while [ $# -gt 0 ]; do
	case $1 in
	--only) ONLY=${2:?}; shift ;;
	--timeout) QTMO=${2:?}; shift ;;
	--no-boot) BOOT=0 ;;
	--list) LIST=1 ;;
	--dir) ZDIR=$(cd "${2:?}" && pwd) || exit 2; shift ;;
	--out) OUT=${2:?}; shift ;;
	--title) TITLE=${2:?}; shift ;;
	-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" | sed '$d'; exit 0 ;;
	*) echo "zoo: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done

# shellcheck source=integration/lib/patchspec.sh
. "$HERE/lib/patchspec.sh"
mapfile -t tests < <(ps_tests "$ZDIR" "$ONLY")
[ ${#tests[@]} -gt 0 ] || { echo "zoo: no patch selected in $ZDIR" >&2; exit 2; }
if [ $LIST = 1 ]; then printf '%s\n' "${tests[@]}"; exit 0; fi

ENV=$("$HERE/kernel-cache.sh" --print-env) || { echo "zoo: building the reference kernel failed" >&2; exit 1; }
eval "$ENV"
make -C "$ROOT" -s all >/dev/null || { echo "zoo: make (the tools) failed" >&2; exit 1; }
# shellcheck source=integration/lib/build.sh
. "$HERE/lib/build.sh"
# shellcheck source=integration/lib/report.sh
. "$HERE/lib/report.sh"
rm -rf "$OUT"; mkdir -p "$OUT"
rep_init zoo "$OUT" '%-32s %-7s %7s  %-8s %-5s %-10s %-7s %-7s %s' \
	patch expect build_s build load transition disable unload result

declare -A EXP BUILD BSEC KO TARGET
for t in "${tests[@]}"; do
	ps_load "$ZDIR" "$t"
	name=$PS_NAME
	EXP[$t]=$PS_OUTCOME
	if [ -n "$PS_ERROR" ]; then
		BUILD[$t]=FAIL BSEC[$t]=-; rep_fail "$t" expect "$PS_ERROR (the keys: integration/lib/patchspec.sh)"
		continue
	fi
	if [ "$PS_OUTCOME" = skip ]; then
		BUILD[$t]=skipped BSEC[$t]=-; rep_skip "$t" "$PS_REASON"
		echo "zoo: [$t] not run on $KERNEL: $PS_REASON"
		continue
	fi
	mkdir -p "$OUT/$t"
	blog=$OUT/$t/build.log
	b0=$(date +%s.%N)
	kp_kpb "$name" "$OUT/$t" --report "$OUT/$t/report.json" "$(ps_file "$ZDIR" "$t.patch")" > "$blog" 2>&1
	brc=$?
	BSEC[$t]=$(printf '%.1f' "$(echo "$(date +%s.%N) - $b0" | bc)")
	case $PS_OUTCOME in
	ok)
		if [ $brc -eq 0 ] && [ -f "$OUT/$t/livepatch-$name.ko" ]; then
			BUILD[$t]=ok; KO[$t]=$OUT/$t/livepatch-$name.ko
			# objnames other than vmlinux: target modules to load first
			TARGET[$t]=$(readelf -p .kpatch.strings "${KO[$t]}" 2>/dev/null |
				sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | sort -u | while read -r s; do
					kp_module_path "$s"
				done | paste -sd' ')
			# shellcheck disable=SC2086  # (a list of paths)
			TARGET[$t]=$(kp_with_deps ${TARGET[$t]})
			echo "zoo: [$t] built (${BSEC[$t]}s)${TARGET[$t]:+, target $(basename "${TARGET[$t]}")}"
			if [ -f "$(ps_file "$ZDIR" "$t.check")" ]; then
				if d=$(kp_run_check "$(ps_file "$ZDIR" "$t.check")" "${KO[$t]}" 2>&1); then
					echo "zoo: [$t] check: $d"
				else
					BUILD[$t]=FAIL
					rep_fail "$t" check "$d"
					echo "zoo: [$t] check FAILED: $d"
				fi
			fi
		else
			BUILD[$t]=FAIL
			d=$(grep -m1 -E 'error|refus|cannot' "$blog" || tail -n1 "$blog")
			rep_fail "$t" build "kpatch-build exited $brc: $d" "$blog"
			echo "zoo: [$t] build FAILED: $d"
		fi ;;
	refuse)
		re=$PS_REASON
		if [ $brc -ne 0 ] && grep -qE -- "$re" "$blog"; then
			BUILD[$t]=refused
			echo "zoo: [$t] refused as expected: $(grep -m1 -E -- "$re" "$blog")"
		else
			BUILD[$t]=FAIL
			rep_fail "$t" refusal "kpatch-build exited $brc; wanted a refusal matching /$re/; got: $(grep -m1 -E 'error|refus|cannot' "$blog" || tail -n1 "$blog")"
			echo "zoo: [$t] expected refusal FAILED (exit $brc)"
		fi ;;
	esac
done

# the guest script: one block per built module, in order
booted=()
for t in "${tests[@]}"; do [ "${BUILD[$t]}" = ok ] && booted+=("$t"); done
GLOG=$OUT/guest.log
if [ $BOOT = 1 ] && [ ${#booted[@]} -gt 0 ]; then
	gs=$OUT/zoo-guest.sh
	mods=() seen=" "
	{
		echo '# generated by integration/zoo.sh'
		cat "$HERE/guest/zoo-one.sh"
		for t in "${booted[@]}"; do
			mods+=(--module "${KO[$t]}")
			g=
			gf=$(ps_file "$ZDIR" "$t.guest")
			if [ -f "$gf" ]; then g=$t.guest; mods+=(--file "$gf:/files/$t.guest"); fi
			tg=()
			for m in ${TARGET[$t]}; do
				b=$(basename "$m"); b=${b%.xz}; b=${b%.zst}
				tg+=("${b%.ko}")
				case $seen in *" $m "*) ;; *) mods+=(--module "$m"); seen="$seen$m " ;; esac
			done
			echo "zoo_one $t $(basename "${KO[$t]}" .ko) '$g' ${tg[*]}"
		done
	} > "$gs"
	stmo=$(( ${#booted[@]} * 40 + 30 ))
	tmo=${QTMO:-$(( stmo + 60 ))}
	echo "zoo: booting once with ${#booted[@]} patch module(s)"
	# two CPUs (SMP patches: IPIs, per-cpu data); init_on_free=1 turns on a static
	# key the jump-label patches test (31, 32). The two vCPUs take turns on one
	# host thread (thread=single): with qemu's multi-threaded TCG, a 6.12 guest
	# whose kernel rewrites static call sites while the other vCPU runs oopses
	# with "int3" at a rewritten site (each 6.12 klp transition retargets every
	# cond_resched site; `echo full > /sys/kernel/debug/sched/preempt` under
	# load does the same with no live patch loaded: integration/README.md)
	"$HERE/run-guest.sh" --timeout "$tmo" --script-timeout "$stmo" --log "$GLOG" \
		--smp 2 --accel tcg,thread=single --append "init_on_free=1" \
		"$KBZIMAGE" "$gs" ${mods[@]+"${mods[@]}"} > "$OUT/run.out" 2>&1
	grc=$?
	markers=$(grep -o 'KPTEST-[A-Z]*.*' "$GLOG" 2>/dev/null || true)
	# the guest's own failures: no row's, reported last with the end of its log
	grep -q '^KPTEST-END' <<<"$markers" ||
		rep_fail guest end "no KPTEST-END (run-guest exited $grc: $(head -n1 "$OUT/run.out"); log $GLOG)" "$GLOG"
	grep -qE 'Oops|Kernel panic|general protection' "$GLOG" &&
		rep_fail guest kernel "the kernel oopsed or panicked (log $GLOG)" "$GLOG"
fi

st() {	# st TEST CHECK: ok / FAIL / -
	if grep -q "^KPTEST-FAIL zoo-guest $1/$2:" <<<"${markers:-}"; then echo FAIL
	elif grep -q "^KPTEST-PASS zoo-guest $1/$2\$" <<<"${markers:-}"; then echo ok
	else echo -; fi
}
for t in "${tests[@]}"; do
	case ${BUILD[$t]} in
	FAIL) rep_row "$t" "${EXP[$t]}" "${BSEC[$t]}" FAIL - - - - FAIL ;;
	refused) rep_row "$t" "${EXP[$t]}" "${BSEC[$t]}" refused - - - - PASS ;;
	skipped) rep_row "$t" "${EXP[$t]}" - - - - - - SKIP ;;
	ok)
		if [ $BOOT = 0 ]; then
			rep_row "$t" "${EXP[$t]}" "${BSEC[$t]}" ok - - - - PASS
			continue
		fi
		res=PASS
		l=$(st "$t" load) tr=$(st "$t" transition) d=$(st "$t" disable) u=$(st "$t" unload)
		[ "$l$tr$d$u" = okokokok ] || res=FAIL
		for c in enabled patched klp-log; do [ "$(st "$t" $c)" = FAIL ] && res=FAIL; done
		if [ $res = FAIL ]; then
			while IFS= read -r m; do
				m=${m#KPTEST-FAIL zoo-guest "$t"/}
				rep_fail "$t" "${m%%:*}" "${m#*: }"
			done < <(echo "$markers" | grep "^KPTEST-FAIL zoo-guest $t/")
			[ "$l" = - ] && rep_fail "$t" load "never loaded (log $GLOG)"
		fi
		rep_row "$t" "${EXP[$t]}" "${BSEC[$t]}" ok "$l" "$tr" "$d" "$u" $res ;;
	esac
done
if [ -n "${KSTOCK:-}" ]; then
	preamble="$TITLE, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), Debian's stock kernel $KSTOCK (linux-image-$KSTOCK $KSTOCK_VERSION, booted as shipped; kpatch-build --kernel, no kernel build)"
else
	preamble="$TITLE, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $KVER ($KC_KEY)"
fi
rep_write "$OUT/results.txt" "$KERNEL" <<<"$preamble"
