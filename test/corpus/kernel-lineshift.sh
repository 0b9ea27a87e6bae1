#!/bin/bash
# __LINE__ on real kernel code: two blank lines at the top of a big kernel
# file shift every WARN, BUG, might_sleep, printk and dynamic-debug line in
# it. kpatch-build (which does not normalize patches) must find no changed
# function. On the reference kernel KERNEL selects (6.1 default, 6.12).
# Skips without the reference kernel cache. Each file a check of test/lib/result.sh;
# last line "kernel-lineshift-KERNEL: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/lib/result.sh
. "$top/test/lib/result.sh"
work=$top/test/out/kernel-lineshift/${KERNEL:-6.1}
result_init "kernel-lineshift-${KERNEL:-6.1}" "$work"
files=(kernel/fork.c kernel/sched/core.c mm/page_alloc.c fs/namei.c
       kernel/workqueue.c lib/vsprintf.c kernel/printk/printk.c
       fs/proc/base.c kernel/time/timer.c kernel/signal.c)
env_out=$("$top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || {
	skip kernel "reference kernel not cached"
	result_summary
	exit
}
eval "$env_out"
rm -rf "$work"; mkdir -p "$work"
for f in "${files[@]}"; do
	[ -e "$KSRC/$f" ] || continue
	n=$(basename "$f" .c)
	mkdir -p "$work/a/$(dirname "$f")" "$work/b/$(dirname "$f")"
	cp "$KSRC/$f" "$work/a/$f"
	{ echo; echo; cat "$KSRC/$f"; } > "$work/b/$f"
	(cd "$work" && diff -u "a/$f" "b/$f" > "$n.patch")
	"$top/kpatch-build/kpatch-build" -s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" \
		-n "ls-$n" -o "$work/out" "$work/$n.patch" > "$work/$n.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q "diffing ${f%.c}.o: no function changed" "$work/$n.log"; then
		pass "$f" "no function changed"
	else
		fail "$f" "exit $rc: $(grep -E 'diffing|error' "$work/$n.log" | head -n 3 | tr '\n' ' ')"
	fi
done
result_summary
