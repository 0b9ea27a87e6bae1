// SPDX-License-Identifier: GPL-2.0
/*
 * The patch-module template: turns the tables create-diff-object wrote
 * (README.md, "What create-diff-object writes") into a struct klp_patch and
 * hands it to the livepatch core.
 *
 *   .kpatch.funcs                  one record per replaced function
 *   .kpatch.callbacks.<kind>       { fn, objname } per KPATCH_*_CALLBACK()
 *
 * One klp_object per object name found in them ("vmlinux" is the object
 * with a NULL name), one klp_func per record, the callbacks of each object in
 * its klp_callbacks. Atomic replace is on unless built with KPATCH_REPLACE=0.
 */
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "kpatch-formats.h"	/* the records, checked against the tools' offsets */

/*
 * Messages name the module at run time, not with KBUILD_MODNAME: this object
 * then holds no module name, and kpatch-build compiles it once per kernel
 * build tree (its template cache) instead of once per patch.
 */
#define hook_err(fmt, ...) pr_err("%s: " fmt, THIS_MODULE->name, ##__VA_ARGS__)

#ifndef KPATCH_REPLACE
#define KPATCH_REPLACE 1
#endif

/* Bounds from kpatch.lds. */
extern struct kpatch_func_record __kpatch_funcs[], __kpatch_funcs_end[];
extern struct kpatch_callback_entry __kpatch_cb_pre_patch[],
	__kpatch_cb_pre_patch_end[], __kpatch_cb_post_patch[],
	__kpatch_cb_post_patch_end[], __kpatch_cb_pre_unpatch[],
	__kpatch_cb_pre_unpatch_end[], __kpatch_cb_post_unpatch[],
	__kpatch_cb_post_unpatch_end[];

/*
 * An empty allocated contribution to each table, so that its output section
 * is allocated (and its bounds valid) even when the differ wrote none.
 */
#define KPATCH_TABLE_ANCHOR(sec, id)					\
	static char __kpatch_anchor_##id[0] __used __aligned(8) __section(sec)
KPATCH_TABLE_ANCHOR(KPATCH_FUNCS_SECTION, funcs);
KPATCH_TABLE_ANCHOR(KPATCH_CALLBACKS_PREFIX "pre_patch", pre_patch);
KPATCH_TABLE_ANCHOR(KPATCH_CALLBACKS_PREFIX "post_patch", post_patch);
KPATCH_TABLE_ANCHOR(KPATCH_CALLBACKS_PREFIX "pre_unpatch", pre_unpatch);
KPATCH_TABLE_ANCHOR(KPATCH_CALLBACKS_PREFIX "post_unpatch", post_unpatch);

enum kpatch_cb_kind { PRE_PATCH, POST_PATCH, PRE_UNPATCH, POST_UNPATCH, NR_CB };

static const struct {
	const char *name;
	struct kpatch_callback_entry *start, *end;
} kpatch_cb_tables[NR_CB] = {
	[PRE_PATCH] = { "pre_patch", __kpatch_cb_pre_patch,
			__kpatch_cb_pre_patch_end },
	[POST_PATCH] = { "post_patch", __kpatch_cb_post_patch,
			 __kpatch_cb_post_patch_end },
	[PRE_UNPATCH] = { "pre_unpatch", __kpatch_cb_pre_unpatch,
			  __kpatch_cb_pre_unpatch_end },
	[POST_UNPATCH] = { "post_unpatch", __kpatch_cb_post_unpatch,
			   __kpatch_cb_post_unpatch_end },
};

static struct klp_patch kpatch_patch;
static struct klp_object *kpatch_objs;	/* ends with an all-zero entry */
static unsigned int kpatch_nr_objs;

static bool kpatch_is_vmlinux(const char *objname)
{
	return !strcmp(objname, KLP_VMLINUX);
}

static bool kpatch_obj_is(const struct klp_object *obj, const char *objname)
{
	if (kpatch_is_vmlinux(objname))
		return !obj->name;
	return obj->name && !strcmp(obj->name, objname);
}

/* Index of @objname's object; with @add, append it when new. */
static int kpatch_find_obj(const char *objname, bool add)
{
	unsigned int i;

	for (i = 0; i < kpatch_nr_objs; i++)
		if (kpatch_obj_is(&kpatch_objs[i], objname))
			return i;
	if (!add)
		return -ENOENT;
	kpatch_objs[i].name = kpatch_is_vmlinux(objname) ? NULL : objname;
	kpatch_nr_objs++;
	return i;
}

static size_t kpatch_nr_callbacks(void)
{
	size_t n = 0;
	int k;

	for (k = 0; k < NR_CB; k++)
		n += kpatch_cb_tables[k].end - kpatch_cb_tables[k].start;
	return n;
}

/* Objects in first-seen order; every record and entry must name one. */
static int kpatch_collect_objects(void)
{
	struct kpatch_func_record *r;
	struct kpatch_callback_entry *e;
	int k;

	for (r = __kpatch_funcs; r < __kpatch_funcs_end; r++) {
		if (!r->objname || !r->old_name || !r->new_func) {
			hook_err("function record %ld is incomplete\n",
				 (long)(r - __kpatch_funcs));
			return -EINVAL;
		}
		kpatch_find_obj(r->objname, true);
	}
	for (k = 0; k < NR_CB; k++)
		for (e = kpatch_cb_tables[k].start;
		     e < kpatch_cb_tables[k].end; e++) {
			if (!e->objname || !e->fn) {
				hook_err("%s callback without object name\n",
					 kpatch_cb_tables[k].name);
				return -EINVAL;
			}
			kpatch_find_obj(e->objname, true);
		}
	return 0;
}

/* Each object's klp_func array, terminated by an empty entry. */
static int kpatch_fill_funcs(void)
{
	struct kpatch_func_record *r;
	unsigned int i;

	for (i = 0; i < kpatch_nr_objs; i++) {
		struct klp_object *obj = &kpatch_objs[i];
		struct klp_func *f;
		size_t n = 0;

		for (r = __kpatch_funcs; r < __kpatch_funcs_end; r++)
			n += kpatch_obj_is(obj, r->objname);
		f = kcalloc(n + 1, sizeof(*f), GFP_KERNEL);
		if (!f)
			return -ENOMEM;
		obj->funcs = f;
		for (r = __kpatch_funcs; r < __kpatch_funcs_end; r++) {
			if (!kpatch_obj_is(obj, r->objname))
				continue;
			f->old_name = r->old_name;
			f->new_func = r->new_func;
			f->old_sympos = r->sympos;
			f++;
		}
	}
	return 0;
}

static int kpatch_set_callback(struct klp_object *obj, int kind, void *fn)
{
	struct klp_callbacks *cb = &obj->callbacks;
	void **slot;

	switch (kind) {
	case PRE_PATCH:
		slot = (void **)&cb->pre_patch;
		break;
	case POST_PATCH:
		slot = (void **)&cb->post_patch;
		break;
	case PRE_UNPATCH:
		slot = (void **)&cb->pre_unpatch;
		break;
	default:
		slot = (void **)&cb->post_unpatch;
		break;
	}
	if (*slot) {
		hook_err("two %s callbacks for %s\n",
			 kpatch_cb_tables[kind].name,
			 obj->name ? obj->name : KLP_VMLINUX);
		return -EINVAL;
	}
	*slot = fn;
	return 0;
}

static int kpatch_fill_callbacks(void)
{
	struct kpatch_callback_entry *e;
	int k, ret;

	for (k = 0; k < NR_CB; k++)
		for (e = kpatch_cb_tables[k].start;
		     e < kpatch_cb_tables[k].end; e++) {
			int i = kpatch_find_obj(e->objname, false);

			ret = kpatch_set_callback(&kpatch_objs[i], k, e->fn);
			if (ret)
				return ret;
		}
	return 0;
}

static void kpatch_free(void)
{
	unsigned int i;

	if (!kpatch_objs)
		return;
	for (i = 0; i < kpatch_nr_objs; i++)
		kfree(kpatch_objs[i].funcs);
	kfree(kpatch_objs);
	kpatch_objs = NULL;
	kpatch_nr_objs = 0;
}

static int __init kpatch_init(void)
{
	size_t max = (__kpatch_funcs_end - __kpatch_funcs) +
		     kpatch_nr_callbacks() + 1;
	int ret;

	if (max == 1) {
		hook_err("no function records and no callbacks: nothing to patch\n");
		return -EINVAL;
	}
	kpatch_objs = kcalloc(max, sizeof(*kpatch_objs), GFP_KERNEL);
	if (!kpatch_objs)
		return -ENOMEM;
	ret = kpatch_collect_objects();
	if (!ret)
		ret = kpatch_fill_funcs();
	if (!ret)
		ret = kpatch_fill_callbacks();
	if (ret)
		goto err;

	kpatch_patch.mod = THIS_MODULE;
	kpatch_patch.objs = kpatch_objs;
	kpatch_patch.replace = KPATCH_REPLACE;
	ret = klp_enable_patch(&kpatch_patch);
	if (ret)
		goto err;
	return 0;
err:
	kpatch_free();
	return ret;
}

static void __exit kpatch_exit(void)
{
	/* the livepatch core released the patch before the module can go */
	kpatch_free();
}

module_init(kpatch_init);
module_exit(kpatch_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
MODULE_DESCRIPTION("live patch built by kpatch-build");
