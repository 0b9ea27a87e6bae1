#!/bin/bash
# Run the real-kernel object corpus (../shared/corpus/kpatch-unit-objs) through
# create-diff-object, as its README describes. Usage: run.sh [CDO] [ARCH] [case...]
# ARCH is one directory of the corpus (x86_64, aarch64, ppc64le) or "all":
# every architecture the corpus has, one after the other. Each object a check of
# test/lib/result.sh; last line "corpus-ARCH: N passed, N failed, N skipped".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
CDO=${1:-$top/create-diff-object/create-diff-object}
ARCH=${2:-x86_64}
shift $(( $# > 2 ? 2 : $# ))
CORPUS=${KPATCH_CORPUS:-$top/../shared/corpus/kpatch-unit-objs}
if [ "$ARCH" = all ]; then
	# each architecture's checks again as this run's (its closing line left out)
	result_init corpus-all
	rc=0
	for d in "$CORPUS"/*/; do
		[ -d "$d" ] || continue
		a=$(basename "$d")
		log=$("$0" "$CDO" "$a") || rc=1
		while IFS= read -r line; do
			read -r verdict check reason <<<"$line"
			case $verdict in
			PASS) pass "$check" ;;
			FAIL) fail "${check%:}" "$reason" ;;
			SKIP) skip "${check%:}" "$reason" ;;
			*) grep -qE '^(failed: |corpus-[^ ]+: [0-9]+ passed, )' <<<"$line" || echo "$line" ;;
			esac
		done <<<"$log"
	done
	result_summary || rc=1
	exit $rc
fi
out=${KPATCH_TEST_OUT:-$top/test/out/corpus-$ARCH}
rm -rf "$out"
result_init "corpus-$ARCH" "$out"
if [ ! -d "$CORPUS/$ARCH" ]; then
	skip "$ARCH" "corpus $CORPUS/$ARCH not present"
	result_summary
	exit
fi
CDO=$(readlink -f "$CDO")
# the BFD target nm reads these objects as (lib.sh's assert_num_funcs): named,
# nm does not load the LTO plugins (libLLVM) to try theirs, ~90 ms of CPU a run
for f in "$CORPUS/$ARCH"/*.ORIG.o; do
	KPATCH_NM_TARGET=$(objdump -f "$f" | sed -n 's/.*file format //p')
	export KPATCH_NM_TARGET
	break
done
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
	for f in "$CORPUS/$ARCH"/*.ORIG.o; do
		n=$(basename "$f" .ORIG.o); cases+=("$n")
	done
fi
for name in "${cases[@]}"; do
	orig=$CORPUS/$ARCH/$name.ORIG.o
	patched=$CORPUS/$ARCH/$name.PATCHED.o
	expect_fail=0
	if [ ! -e "$patched" ]; then
		patched=$CORPUS/$ARCH/$name.PATCHED.FAIL.o; expect_fail=1
	fi
	work=$out/$name; mkdir -p "$work"
	readelf -s --wide "$orig" | sed 's/\[<localentry>: [0-9]*\]//' > "$work/$name.symtab"
	envs=$(cat "$CORPUS/$ARCH/struct-sizes.env" "$CORPUS/$ARCH/$name.env" 2>/dev/null)
	# shellcheck disable=SC2086
	(cd "$work" && env $envs "$CDO" "$orig" "$patched" vmlinux "$name.symtab" \
		/dev/null "test_$name" "$name.OUTPUT.o" >"$work/log" 2>&1)
	rc=$?
	result=ok
	if [ $expect_fail = 1 ]; then
		[ $rc -ne 0 ] && [ $rc -lt 128 ] || result="expected a refusal, got exit $rc"
	elif [ $rc -ne 0 ]; then
		result="exit $rc: $(tail -n 3 "$work/log" | tr '\n' ' ')"
	elif [ -e "$CORPUS/$ARCH/$name.test" ]; then
		if ! (cd "$work" && OUTPUT=$work/$name.OUTPUT.o \
		      KPATCH_TEST_LIBRARY=$here/lib.sh \
		      bash "$CORPUS/$ARCH/$name.test" "$work/$name.OUTPUT.o" >>"$work/log" 2>&1); then
			result="check failed: $(tail -n 2 "$work/log" | tr '\n' ' ')"
		fi
	fi
	if [ "$result" = ok ]; then
		pass "$ARCH/$name"
	else
		fail "$ARCH/$name" "$result"
	fi
done
result_summary
