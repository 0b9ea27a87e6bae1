// SPDX-License-Identifier: GPL-2.0
/*
 * Live patch of a module symbol: /sys/kernel/kobject_example/foo reads
 * "<foo> patched". foo is a static variable of kobject_example, reached
 * through a .klp.rela.kobject_example relocation that the livepatch core
 * writes when that module is (or becomes) loaded.
 */
#include <linux/kobject.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/sysfs.h>
#include "klp-module-reloc.h"

extern int foo;

static ssize_t kobj_foo_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d patched\n", foo);
}

static struct KLP_MODULE_RELOC(kobject_example) kobj_relocs[] = {
	{ .sym = &foo, .sympos = 0 },
};

static struct klp_func kobj_funcs[] = {
	{ .old_name = "foo_show", .new_func = kobj_foo_show },
	{ }
};

static struct klp_object kobj_objs[] = {
	{ .name = "kobject_example", .funcs = kobj_funcs },
	{ }
};

static struct klp_patch kobj_patch = {
	.mod = THIS_MODULE,
	.objs = kobj_objs,
};

static int __init kobj_patch_init(void)
{
	return klp_enable_patch(&kobj_patch);
}

static void __exit kobj_patch_exit(void)
{
}

module_init(kobj_patch_init);
module_exit(kobj_patch_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
