#!/bin/bash
# gen.sh N OUT_DIR: write orig/gen.c and patched/gen.c with N functions in the shape
# of kernel code (static helpers, a static local, string literals, calls
# between functions, a BUG-like table entry); patched.c changes one function.
set -euo pipefail
n=$1 out=$2
mkdir -p "$out/orig" "$out/patched"
gen() {
	local changed=$1
	echo 'extern int printk(const char *fmt, ...);'
	echo 'extern void might_sleep_hook(const char *f, int l);'
	echo 'static int counter;'
	for ((i = 0; i < n; i++)); do
		cat <<EOC
static __attribute__((noinline)) int f$i(int x)
{
	static int calls;
	calls++;
	if (x > $i)
		printk("f$i: %d over limit\n", x);
	might_sleep_hook(__FILE__, __LINE__);
	return x * $((i % 7 + 2)) + $( [ $i -gt 0 ] && echo "f$((i - 1))(x - 1)" || echo 0) + counter;
}
EOC
	done
	echo "int entry(int x) { return f$((n - 1))(x + $changed); }"
}
# one source name, as for a real file before and after a patch
gen 1 > "$out/orig/gen.c"
gen 2 > "$out/patched/gen.c"
