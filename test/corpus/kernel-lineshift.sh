#!/bin/bash
# __LINE__ on real kernel code: two blank lines at the top of a big kernel
# file shift every WARN, BUG, might_sleep, printk and dynamic-debug line in
# it, and every string that embeds a line (FORTIFY's "field ... at FILE:LINE"
# of Debian's configs, __FILE__ ":" __stringify(__LINE__)). kpatch-build (which
# does not normalize patches) must find no changed function. On the kernel
# KERNEL selects: a reference kernel (6.1 default, 6.12; skipped when it is not
# cached) or Debian's stock one (debian-6.1, debian-6.12: CONFIG_FORTIFY_SOURCE,
# with files rich in fortified copies: networking, KVM, filesystems, some of
# them modules). Each file a check of test/lib/result.sh, its detail the
# functions whose only difference was a moved line; last line
# "kernel-lineshift-KERNEL: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/lib/result.sh
. "$top/test/lib/result.sh"
work=$top/test/out/kernel-lineshift/${KERNEL:-6.1}
result_init "kernel-lineshift-${KERNEL:-6.1}" "$work"
files=(kernel/fork.c kernel/sched/core.c mm/page_alloc.c fs/namei.c
       kernel/workqueue.c lib/vsprintf.c kernel/printk/printk.c
       fs/proc/base.c kernel/time/timer.c kernel/signal.c)
case ${KERNEL:-6.1} in
debian-*) files=(kernel/fork.c mm/page_alloc.c fs/namei.c net/core/skbuff.c
	net/core/dev.c net/ipv4/tcp.c arch/x86/kvm/x86.c fs/ext4/super.c
	net/netfilter/nf_tables_api.c fs/btrfs/ioctl.c) ;;
esac
env_out=$("$top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) || {
	skip kernel "kernel ${KERNEL:-6.1} not cached"
	result_summary
	exit
}
eval "$env_out"
ROOT=$top
# shellcheck source=integration/lib/build.sh
. "$top/integration/lib/build.sh"
kp_kernel_args
rm -rf "$work"; mkdir -p "$work"
for f in "${files[@]}"; do
	[ -e "$KSRC/$f" ] || continue
	n=$(basename "$f" .c)
	mkdir -p "$work/a/$(dirname "$f")" "$work/b/$(dirname "$f")"
	cp "$KSRC/$f" "$work/a/$f"
	{ echo; echo; cat "$KSRC/$f"; } > "$work/b/$f"
	(cd "$work" && diff -u "a/$f" "b/$f" > "$n.patch")
	"$top/kpatch-build/kpatch-build" "${KP_KERNEL_ARGS[@]}" \
		-n "ls-$n" -o "$work/out" "$work/$n.patch" > "$work/$n.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q "diffing ${f%.c}.o: no function changed" "$work/$n.log"; then
		# (the differ's report, in kpatch-build's log of the run)
		log=$(sed -n 's/^kpatch-build: log: //p' "$work/$n.log" | tail -n 1)
		moved=$(grep -c ': only lines moved' "$log" 2>/dev/null)
		strings=$(grep -c ': string differs only in line' "$log" 2>/dev/null)
		pass "$f" "no function changed (${moved:-0} function(s) differing only in moved lines, ${strings:-0} string(s) among them)"
	else
		fail "$f" "exit $rc: $(grep -E 'diffing|error' "$work/$n.log" | head -n 3 | tr '\n' ' ')"
	fi
done
result_summary
