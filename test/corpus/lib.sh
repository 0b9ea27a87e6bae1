# shellcheck shell=bash
# Library sourced by the corpus' NAME.test checks (KPATCH_TEST_LIBRARY).
assert_num_funcs() {
	local want=$1 got
	# (run.sh names the objects' BFD target: nm then loads no LTO plugin)
	got=$(nm ${KPATCH_NM_TARGET:+--target="$KPATCH_NM_TARGET"} "$OUTPUT" | grep -ci " t ")
	if [ "$got" != "$want" ]; then
		echo "$(basename "$OUTPUT"): $got function symbols, expected $want" >&2
		exit 1
	fi
}
