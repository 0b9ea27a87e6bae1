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
# For every integration/zoo/NN-name.patch, on the reference kernel KERNEL selects (6.1
# default, 6.12); a file of the same name in integration/zoo/$KERNEL/ replaces the
# common one for that kernel (.patch, .expect, .guest):
#   1. build: kpatch-build -s $KSRC -c $KCONFIG -v $KVMLINUX -n name (module
#      livepatch-name.ko); the expected outcome is NN-name.expect (default "ok"):
#        ok               kpatch-build succeeds and writes livepatch-name.ko
#        refuse REGEX     kpatch-build fails (exit 2: the differ's refusal, or 1) and
#                         its output matches the extended regex REGEX (the reason named)
#        skip REASON      not run on this kernel (e.g. its code is not in that
#                         reference config), listed with REASON under the table
#      optional NN-name.check: host-side checks of the built module (bash script
#      run with the .ko and the kernel's .config; non-zero exit = failure)
#   2. boot (once, all built modules, 2 CPUs, init_on_free=1): for each module in turn, in the guest:
#      insmod (load), /sys/kernel/livepatch/<name>/transition back to 0 (transition),
#      enabled = 1, optional NN-name.guest (a busybox-sh snippet run while the patch
#      is active; exit 0 = pass: check "patched"), echo 0 > enabled and the sysfs dir
#      gone (disable), rmmod (unload). A patch to a module (objname other than
#      vmlinux) gets that module (from $KOBJ, after the modules it depends on) loaded first.
#      The guest log is scanned for "livepatch: ... not found" / klp errors.
# Prints a table (patch, expect, build_s, build, load, transition, disable, unload,
# result) and "N passed, N failed"; writes it to $KPATCH_OUT/zoo/$KERNEL/results.txt
# (default test/out/zoo/$KERNEL/); each patch's build.log is in
# $KPATCH_OUT/zoo/$KERNEL/NN-name/, the guest console in $KPATCH_OUT/zoo/$KERNEL/guest.log.
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

# the .ko in $KOBJ of the module named $1 ("-" and "_" alike), from modules.order,
# which lists "dir/name.ko" up to 6.1 and "dir/name.o" from 6.2 on
# (a stock kernel's: in its image package, modules.order of lib/modules/<release>,
# each file .ko or compressed)
module_path() {
	local dir=$KOBJ p
	[ -z "${KSTOCK:-}" ] || dir=$KMODDIR
	p=$(awk -v a="$1" -v b="$(echo "$1" | tr _ -)" -v k="$dir" '{ n = $0; sub(/.*\//, "", n); sub(/\.(ko|o)$/, "", n) }
		n == a || n == b { sub(/\.o$/, ".ko"); print k "/" $0; exit }' "$dir/modules.order")
	[ -z "$p" ] || [ -f "$p" ] || for p in "$p.xz" "$p.zst" "$p"; do [ -f "$p" ] && break; done
	[ -z "$p" ] || echo "$p"
}

# the modules $@ (paths in $KOBJ) preceded by the modules each one depends on
# (modinfo's depends=, recursively), each once, in an order insmod can load them
with_deps() {
	local m out=() seen=" "
	add() {
		local m=$1 d p
		case $seen in *" $m "*) return 0 ;; esac
		seen="$seen$m "
		for d in $(modinfo -F depends "$m" 2>/dev/null | tr , ' '); do
			p=$(module_path "$d")
			[ -z "$p" ] || add "$p"
		done
		out+=("$m")
	}
	for m in "$@"; do add "$m"; done
	echo "${out[*]}"
}

# the file $1 of a patch for this kernel: integration/zoo/$KERNEL/$1, else for a
# stock kernel zoo/debian/$1, then for a .patch zoo/$KBASE/$1 (its source's: the
# reference kernel's expectations are about its own config), else the common one
zfile() {
	local d base=
	case $1 in *.patch) base=${KBASE:-} ;; esac
	for d in "$KERNEL" ${KSTOCK:+debian $base}; do
		[ -e "$ZDIR/$d/$1" ] && { echo "$ZDIR/$d/$1"; return; }
	done
	echo "$ZDIR/$1"
}

tests=()
for f in "$ZDIR"/[0-9][0-9]-*.patch; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .patch)
	if [ -n "$ONLY" ]; then
		case ",$ONLY," in *",${b%%-*},"*|*",$b,"*) ;; *) continue ;; esac
	fi
	tests+=("$b")
done
[ ${#tests[@]} -gt 0 ] || { echo "zoo: no patch selected in $ZDIR" >&2; exit 2; }
if [ $LIST = 1 ]; then printf '%s\n' "${tests[@]}"; exit 0; fi

ENV=$("$HERE/kernel-cache.sh" --print-env) || { echo "zoo: building the reference kernel failed" >&2; exit 1; }
eval "$ENV"
make -C "$ROOT" -s all >/dev/null || { echo "zoo: make (the tools) failed" >&2; exit 1; }
KPB=$ROOT/kpatch-build/kpatch-build
rm -rf "$OUT"; mkdir -p "$OUT"

declare -A EXP BUILD BSEC KO TARGET
FAILS=() GFAILS=() SKIPS=()
for t in "${tests[@]}"; do
	name=${t#[0-9][0-9]-}
	exp=ok
	[ -f "$(zfile "$t.expect")" ] && exp=$(grep -v '^#' "$(zfile "$t.expect")" | grep -m1 -v '^[[:space:]]*$')
	EXP[$t]=${exp%% *}
	if [ "${exp%% *}" = skip ]; then
		BUILD[$t]=skipped BSEC[$t]=-; SKIPS+=("$t: ${exp#skip }")
		echo "zoo: [$t] not run on $KERNEL: ${exp#skip }"
		continue
	fi
	mkdir -p "$OUT/$t"
	blog=$OUT/$t/build.log
	b0=$(date +%s.%N)
	if [ -n "${KSTOCK:-}" ]; then	# a stock kernel: kpatch-build finds all by itself
		"$KPB" --kernel "$KSTOCK" -o "$OUT/$t" -n "$name" --report "$OUT/$t/report.json" "$(zfile "$t.patch")" > "$blog" 2>&1
	else
		"$KPB" -s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" -o "$OUT/$t" -n "$name" --report "$OUT/$t/report.json" "$(zfile "$t.patch")" > "$blog" 2>&1
	fi
	brc=$?
	BSEC[$t]=$(printf '%.1f' "$(echo "$(date +%s.%N) - $b0" | bc)")
	case $exp in
	ok)
		if [ $brc -eq 0 ] && [ -f "$OUT/$t/livepatch-$name.ko" ]; then
			BUILD[$t]=ok; KO[$t]=$OUT/$t/livepatch-$name.ko
			# objnames other than vmlinux: target modules to load first
			TARGET[$t]=$(readelf -p .kpatch.strings "${KO[$t]}" 2>/dev/null |
				sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | sort -u | while read -r s; do
					module_path "$s"
				done | paste -sd' ')
			# shellcheck disable=SC2086  # (a list of paths)
			TARGET[$t]=$(with_deps ${TARGET[$t]})
			echo "zoo: [$t] built (${BSEC[$t]}s)${TARGET[$t]:+, target $(basename "${TARGET[$t]}")}"
			# NN-name.check: host-side checks of the built module (bash, gets the
			# .ko and the kernel's .config; one line; non-zero = failure)
			if [ -f "$(zfile "$t.check")" ]; then
				if d=$(bash "$(zfile "$t.check")" "${KO[$t]}" "$KCONFIG" 2>&1); then
					echo "zoo: [$t] check: $d"
				else
					BUILD[$t]=FAIL
					FAILS+=("$t check: $d")
					echo "zoo: [$t] check FAILED: $d"
				fi
			fi
		else
			BUILD[$t]=FAIL
			d=$(grep -m1 -E 'error|refus|cannot' "$blog" || tail -n1 "$blog")
			FAILS+=("$t build: kpatch-build exited $brc: $d")
			echo "zoo: [$t] build FAILED: $d"
		fi ;;
	refuse\ *)
		re=${exp#refuse }
		if [ $brc -ne 0 ] && grep -qE -- "$re" "$blog"; then
			BUILD[$t]=refused
			echo "zoo: [$t] refused as expected: $(grep -m1 -E -- "$re" "$blog")"
		else
			BUILD[$t]=FAIL
			FAILS+=("$t refusal: kpatch-build exited $brc; wanted a refusal matching /$re/; got: $(grep -m1 -E 'error|refus|cannot' "$blog" || tail -n1 "$blog")")
			echo "zoo: [$t] expected refusal FAILED (exit $brc)"
		fi ;;
	*)
		BUILD[$t]=FAIL; FAILS+=("$t expect: bad .expect line '$exp' (want 'ok', 'refuse REGEX' or 'skip REASON')") ;;
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
		echo 'zoo_one() {	# zoo_one TEST MODULE SNIPPET TARGETS...'
		echo '	t=$1 m=$2 g=$3; shift 3'
		echo '	lp=/sys/kernel/livepatch/$(echo "$m" | tr - _)'
		echo '	for tm in "$@"; do lsmod | grep -q "^$(echo "$tm" | tr - _) " || insmod /modules/$tm.ko || kp_info "$t: target $tm did not load"; done'
		echo '	dmesg -c >/dev/null 2>&1'
		echo '	kp_insmod $t/load "$m" || { kp_info "$t dmesg: $(dmesg | tail -n 5 | tr "\n" "|")"; return 0; }'
		echo '	kp_wait_value $t/transition $lp/transition 0 30'
		echo '	kp_eq $t/enabled "$(cat $lp/enabled 2>&1)" 1'
		echo '	if [ -n "$g" ]; then kp_check $t/patched sh /files/$g; fi'
		echo '	if dmesg | grep -qE "livepatch: .*(not found|failed|error)"; then kp_fail $t/klp-log "$(dmesg | grep -E "livepatch: " | tail -n 3 | tr "\n" "|")"; fi'
		echo '	kp_lp_disable $t/disable "$m" 30'
		echo '	kp_rmmod $t/unload "$m" 30'
		echo '}'
		for t in "${booted[@]}"; do
			name=${t#[0-9][0-9]-}
			mods+=(--module "${KO[$t]}")
			g=
			if [ -f "$(zfile "$t.guest")" ]; then g=$t.guest; mods+=(--file "$(zfile "$t.guest"):/files/$t.guest"); fi
			tg=()
			for m in ${TARGET[$t]}; do
				b=$(basename "$m"); b=${b%.xz}; b=${b%.zst}
				tg+=("${b%.ko}")
				case $seen in *" $m "*) ;; *) mods+=(--module "$m"); seen="$seen$m " ;; esac
			done
			echo "zoo_one $t livepatch-$name '$g' ${tg[*]}"
		done
	} > "$gs"
	stmo=$(( ${#booted[@]} * 40 + 30 ))
	tmo=${QTMO:-$(( stmo + 60 ))}
	echo "zoo: booting once with ${#booted[@]} patch module(s)"
	# two CPUs (SMP patches: IPIs, per-cpu data); init_on_free=1 turns on a static
	# key the jump-label patches test (31, 32)
	"$HERE/run-guest.sh" --timeout "$tmo" --script-timeout "$stmo" --log "$GLOG" \
		--smp 2 --append "init_on_free=1" \
		"$KBZIMAGE" "$gs" ${mods[@]+"${mods[@]}"} > "$OUT/run.out" 2>&1
	grc=$?
	markers=$(grep -o 'KPTEST-[A-Z]*.*' "$GLOG" 2>/dev/null || true)
	# the guest's own failures come last in the output, with the end of its
	# log: a suite runner shows only the tail of a failed suite's output
	grep -q '^KPTEST-END' <<<"$markers" || GFAILS+=("guest: no KPTEST-END (run-guest exited $grc: $(head -n1 "$OUT/run.out"); log $GLOG)")
	grep -qE 'Oops|Kernel panic|general protection' "$GLOG" && GFAILS+=("guest: the kernel oopsed or panicked (log $GLOG)")
fi

st() {	# st TEST CHECK: ok / FAIL / -
	if grep -q "^KPTEST-FAIL zoo-guest $1/$2:" <<<"${markers:-}"; then echo FAIL
	elif grep -q "^KPTEST-PASS zoo-guest $1/$2\$" <<<"${markers:-}"; then echo ok
	else echo -; fi
}
ROWS=()
fmt='%-32s %-7s %7s  %-8s %-5s %-10s %-7s %-7s %s'
header=$(printf "$fmt" patch expect build_s build load transition disable unload result)
for t in "${tests[@]}"; do
	res=PASS
	case ${BUILD[$t]} in
	FAIL) res=FAIL; row=$(printf "$fmt" "$t" "${EXP[$t]}" "${BSEC[$t]}" FAIL - - - - FAIL) ;;
	refused) row=$(printf "$fmt" "$t" "${EXP[$t]}" "${BSEC[$t]}" refused - - - - PASS) ;;
	skipped) row=$(printf "$fmt" "$t" "${EXP[$t]}" - - - - - - SKIP) ;;
	ok)
		if [ $BOOT = 0 ]; then
			row=$(printf "$fmt" "$t" "${EXP[$t]}" "${BSEC[$t]}" ok - - - - PASS)
		else
			l=$(st "$t" load) tr=$(st "$t" transition) d=$(st "$t" disable) u=$(st "$t" unload)
			[ "$l$tr$d$u" = okokokok ] || res=FAIL
			for c in enabled patched klp-log; do [ "$(st "$t" $c)" = FAIL ] && res=FAIL; done
			if [ $res = FAIL ]; then
				while IFS= read -r m; do FAILS+=("$t guest: ${m#KPTEST-FAIL zoo-guest $t/}"); done \
					< <(echo "$markers" | grep "^KPTEST-FAIL zoo-guest $t/")
				[ "$l" = - ] && FAILS+=("$t guest: never loaded (log $GLOG)")
			fi
			row=$(printf "$fmt" "$t" "${EXP[$t]}" "${BSEC[$t]}" ok "$l" "$tr" "$d" "$u" $res)
		fi ;;
	esac
	ROWS+=("$row")
done
npass=$(printf '%s\n' "${ROWS[@]}" | grep -c ' PASS$')
nfail=$(printf '%s\n' "${ROWS[@]}" | grep -c ' FAIL$')
nskip=${#SKIPS[@]}
{
	if [ -n "${KSTOCK:-}" ]; then
		echo "$TITLE, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), Debian's stock kernel $KSTOCK (linux-image-$KSTOCK $KSTOCK_VERSION, booted as shipped; kpatch-build --kernel, no kernel build)"
	else
		echo "$TITLE, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $KVER ($KC_KEY)"
	fi
	echo
	echo "$header"
	printf '%s\n' "${ROWS[@]}"
	if [ "$nskip" -gt 0 ]; then
		echo
		echo "not run on $KERNEL:"
		printf '  %s\n' "${SKIPS[@]}"
	fi
	echo
	echo "$npass passed, $nfail failed${SKIPS[0]:+, $nskip skipped}"
} > "$OUT/results.txt"
echo
cat "$OUT/results.txt"
echo "zoo: table written to $OUT/results.txt"
if [ ${#FAILS[@]} -gt 0 ] || [ ${#GFAILS[@]} -gt 0 ]; then
	for f in ${FAILS[@]+"${FAILS[@]}"}; do echo "zoo: FAIL $f"; done >&2
	if [ ${#GFAILS[@]} -gt 0 ]; then
		echo "zoo: run-guest said: $(tail -n 3 "$OUT/run.out" | tr '\n' '|')" >&2
		echo "zoo: the guest log ends:" >&2
		tail -n 12 "$GLOG" 2>/dev/null | sed 's/^/   | /' >&2
		for f in "${GFAILS[@]}"; do echo "zoo: FAIL $f"; done >&2
	fi
	exit 1
fi
exit 0
