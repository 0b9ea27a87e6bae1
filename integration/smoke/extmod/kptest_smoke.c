// SPDX-License-Identifier: GPL-2.0
/*
 * kptest_smoke: a tiny out-of-tree module built against the cached kernel build
 * (make -C $KOBJ M=...), proving that tree works as a kbuild tree for external
 * modules. It shows one line in /proc/kptest_smoke.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

static noinline int kptest_smoke_show(struct seq_file *m, void *v)
{
	seq_puts(m, "kptest smoke original\n");
	return 0;
}

static int __init kptest_smoke_init(void)
{
	if (!proc_create_single("kptest_smoke", 0444, NULL, kptest_smoke_show))
		return -ENOMEM;
	return 0;
}

static void __exit kptest_smoke_exit(void)
{
	remove_proc_entry("kptest_smoke", NULL);
}

module_init(kptest_smoke_init);
module_exit(kptest_smoke_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kpatch-ng integration smoke: out-of-tree module");
