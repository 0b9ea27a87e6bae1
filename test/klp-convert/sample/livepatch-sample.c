// SPDX-License-Identifier: GPL-2.0
/*
 * The klp-convert proposal's sample (seed 003): replace cmdline_proc_show(),
 * the function behind /proc/cmdline, with one that prints the saved command
 * line followed by " livepatch=1". saved_command_line is not exported, so
 * the module names it in a KLP_MODULE_RELOC(vmlinux) table and klp-convert
 * turns the reference into a livepatch relocation.
 *
 *	# insmod livepatch-sample.ko
 *	# cat /proc/cmdline
 *	<your cmdline> livepatch=1
 *	# echo 0 > /sys/kernel/livepatch/livepatch_sample/enabled
 *	# cat /proc/cmdline
 *	<your cmdline>
 */
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include "klp-module-reloc.h"

extern char *saved_command_line;

static int sample_cmdline_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s livepatch=1\n", saved_command_line);
	return 0;
}

struct KLP_MODULE_RELOC(vmlinux) sample_vmlinux_relocs[] = {
	{ .sym = &saved_command_line, .sympos = 0 },
};

static struct klp_func sample_funcs[] = {
	{ .old_name = "cmdline_proc_show", .new_func = sample_cmdline_show },
	{ }
};

static struct klp_object sample_objs[] = {
	{ .name = NULL /* vmlinux */, .funcs = sample_funcs },
	{ }
};

static struct klp_patch sample_patch = {
	.mod = THIS_MODULE,
	.objs = sample_objs,
};

static int __init sample_init(void)
{
	return klp_enable_patch(&sample_patch);
}

static void __exit sample_exit(void)
{
}

module_init(sample_init);
module_exit(sample_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
MODULE_DESCRIPTION("klp-convert sample: /proc/cmdline reads '<cmdline> livepatch=1'");
