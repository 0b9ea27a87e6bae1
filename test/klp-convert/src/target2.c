/* the second local_fn of the "running kernel" (see target1.c) */
static int __attribute__((noinline, used)) local_fn(int x) { return x + 7; }
int use2(int x) { return local_fn(x); }
int only_in_vmlinux(void) { return 1; }
