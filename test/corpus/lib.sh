# Library sourced by the corpus' NAME.test checks (KPATCH_TEST_LIBRARY).
assert_num_funcs() {
	local want=$1 got
	got=$(nm "$OUTPUT" | grep -ci " t ")
	if [ "$got" != "$want" ]; then
		echo "$(basename "$OUTPUT"): $got function symbols, expected $want" >&2
		exit 1
	fi
}
