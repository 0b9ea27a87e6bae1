// SPDX-License-Identifier: GPL-2.0
/*
 * Stands in for create-diff-object's output (README.md, "What
 * create-diff-object writes") to test the template and klp-convert against
 * the real kernel: a replacement of cmdline_proc_show() reaching the
 * unexported saved_command_line through a symbol the differ would have
 * named ".klp.sym.vmlinux.saved_command_line,0", its .kpatch.funcs record
 * with strings in .kpatch.strings, the annotation record, and pre/post
 * patch callbacks whose objname the differ filled in.
 */
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/seq_file.h>
#include "klp-module-reloc.h"
#include "kpatch-macros.h"

extern char *kp_saved_cmdline __asm__("\".klp.sym.vmlinux.saved_command_line,0\"");

static int kp_cmdline_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s kpatch-template=1\n", kp_saved_cmdline);
	return 0;
}

static int kp_pre_patch(patch_object *obj)
{
	pr_info("kp-template: pre_patch %s\n", obj->name ? obj->name : "vmlinux");
	return 0;
}

static void kp_post_unpatch(patch_object *obj)
{
	pr_info("kp-template: post_unpatch %s\n", obj->name ? obj->name : "vmlinux");
}

static const char kp_str_old[] __used __section(".kpatch.strings") = "cmdline_proc_show";
static const char kp_str_obj[] __used __section(".kpatch.strings") = "vmlinux";

struct kp_func_record {
	void *new_func;
	const char *old_name;
	const char *objname;
	unsigned long sympos;
};

static struct kp_func_record kp_funcs[] __used __section(".kpatch.funcs") = {
	{ kp_cmdline_show, kp_str_old, kp_str_obj, 0 },
};

static struct kpatch_callback_entry kp_pre __used
	__section(".kpatch.callbacks.pre_patch") = { kp_pre_patch, kp_str_obj };
static struct kpatch_callback_entry kp_post __used
	__section(".kpatch.callbacks.post_unpatch") = { kp_post_unpatch, kp_str_obj };

static struct KLP_MODULE_RELOC(vmlinux) kp_relocs[] = {
	{ .sym = &kp_saved_cmdline, .sympos = 0 },
};
