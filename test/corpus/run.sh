#!/bin/bash
# Run the real-kernel object corpus (../shared/corpus/kpatch-unit-objs) through
# create-diff-object, as its README describes. Usage: run.sh [CDO] [ARCH] [case...]
# ARCH is one directory of the corpus (x86_64, aarch64, ppc64le) or "all":
# every architecture the corpus has, one after the other.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CDO=${1:-$top/create-diff-object/create-diff-object}
ARCH=${2:-x86_64}
shift $(( $# > 2 ? 2 : $# ))
CORPUS=${KPATCH_CORPUS:-$top/../shared/corpus/kpatch-unit-objs}
if [ "$ARCH" = all ]; then
	tp=0; tf=0; rc=0
	for d in "$CORPUS"/*/; do
		[ -d "$d" ] || continue
		a=$(basename "$d")
		log=$("$0" "$CDO" "$a") || rc=1
		grep -v '^[0-9]* passed, [0-9]* failed$' <<<"$log"
		line=$(tail -n 1 <<<"$log")
		tp=$((tp + $(grep -oE '^[0-9]+' <<<"$line" || echo 0)))
		tf=$((tf + $(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)))
	done
	echo "$tp passed, $tf failed"
	exit $rc
fi
if [ ! -d "$CORPUS/$ARCH" ]; then
	echo "corpus: $CORPUS/$ARCH not present, skipped"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
CDO=$(readlink -f "$CDO")
out=${KPATCH_TEST_OUT:-$top/test/out/corpus-$ARCH}
rm -rf "$out"; mkdir -p "$out"
pass=0; fail=0
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
		pass=$((pass + 1)); echo "PASS $ARCH/$name"
	else
		fail=$((fail + 1)); echo "FAIL $ARCH/$name: $result"
	fi
done
echo "corpus $ARCH: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
