/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpatch-macros.h: what a source patch fed to kpatch-build may use besides
 * ordinary kernel code. Every macro only leaves an entry in a section that
 * create-diff-object reads (see README.md, "Sections that patch sources hand
 * to the differ"); none of them costs anything in the running kernel.
 *
 *   KPATCH_IGNORE_FUNCTION(fn)       changes to fn are not patched
 *   KPATCH_IGNORE_SECTION("name")    changes in section name are not patched
 *   KPATCH_FORCE_UNSAFE(fn)          patch fn even where the differ would refuse
 *   KPATCH_{PRE,POST}_{PATCH,UNPATCH}_CALLBACK(fn)
 *                                    run fn around (un)patching of the object
 *                                    the patched source file belongs to
 *   KPATCH_PRINTK(fmt, ...)          printk that does not make the caller cold
 *   KPATCH_STATIC_CALL(name)         call a static call through its key
 *   patch_object                     the callbacks' argument (struct klp_object)
 *
 * Shadow variables are the kernel's own klp_shadow_*() API (linux/livepatch.h).
 */
#ifndef _KPATCH_MACROS_H
#define _KPATCH_MACROS_H

#include <linux/compiler.h>
#include <linux/livepatch.h>
#include <linux/printk.h>
#include <linux/static_call.h>
#include "kpatch-formats.h"

typedef struct klp_object patch_object;

/* Callback signatures: the same as struct klp_callbacks' members. */
typedef int (*kpatch_pre_patch_call_t)(patch_object *obj);
typedef void (*kpatch_post_patch_call_t)(patch_object *obj);
typedef void (*kpatch_pre_unpatch_call_t)(patch_object *obj);
typedef void (*kpatch_post_unpatch_call_t)(patch_object *obj);

/*
 * One struct kpatch_callback_entry (kpatch-formats.h): the function and the
 * name of the object it belongs to. The differ fills objname (vmlinux or the
 * module) when it carries the entry into the patch; a patch source leaves it
 * NULL.
 */

#define __KPATCH_CALLBACK(kind, type, _fn)				\
	static struct kpatch_callback_entry				\
	__kpatch_cb_##kind##_##_fn __used				\
	__section(KPATCH_CALLBACKS_PREFIX #kind) = {			\
		/* a type error here: _fn has the wrong signature */	\
		.fn = (void *)__builtin_choose_expr(			\
			__builtin_types_compatible_p(typeof(&_fn), type), \
			_fn, (void)0),					\
		.objname = NULL,					\
	}

#define KPATCH_PRE_PATCH_CALLBACK(fn)					\
	__KPATCH_CALLBACK(pre_patch, kpatch_pre_patch_call_t, fn)
#define KPATCH_POST_PATCH_CALLBACK(fn)					\
	__KPATCH_CALLBACK(post_patch, kpatch_post_patch_call_t, fn)
#define KPATCH_PRE_UNPATCH_CALLBACK(fn)					\
	__KPATCH_CALLBACK(pre_unpatch, kpatch_pre_unpatch_call_t, fn)
#define KPATCH_POST_UNPATCH_CALLBACK(fn)				\
	__KPATCH_CALLBACK(post_unpatch, kpatch_post_unpatch_call_t, fn)

/* An 8-byte pointer to the function whose changes are ignored. */
#define KPATCH_IGNORE_FUNCTION(_fn)					\
	static void *__kpatch_ignore_func_##_fn __used			\
	__section(KPATCH_IGNORE_FUNCTIONS_SECTION) = (void *)&(_fn)

/* An 8-byte pointer to the name of the section whose changes are ignored. */
#define KPATCH_IGNORE_SECTION(_name)					\
	static const char *__PASTE(__kpatch_ignore_sec_, __LINE__) __used \
	__section(KPATCH_IGNORE_SECTIONS_SECTION) = (_name)

/* An 8-byte pointer to a function patched despite a refusal (warning). */
#define KPATCH_FORCE_UNSAFE(_fn)					\
	static void *__kpatch_force_func_##_fn __used			\
	__section(KPATCH_FORCE_SECTION) = (void *)&(_fn)

/*
 * printk() is __cold, and gcc lets the cold path it sits on pull the
 * surrounding code into .text.unlikely or out of line: a one-line debug
 * message would then change far more code than the patch did. The empty asm
 * makes the condition opaque, so printk sits on its own (always taken)
 * branch and the caller's layout is what it was without it.
 */
#define KPATCH_PRINTK(_fmt, ...)					\
({									\
	int __kp_on = 1;						\
									\
	asm("" : "+r" (__kp_on));					\
	if (__kp_on)							\
		printk(_fmt, ##__VA_ARGS__);				\
})

/*
 * static_call(name)(args) in patched code would add a .static_call_sites
 * entry pointing at a key in the running kernel, which a live patch cannot
 * carry. KPATCH_STATIC_CALL(name)(args) calls whatever the key currently
 * points at, through an ordinary indirect call.
 */
#define KPATCH_STATIC_CALL(name)					\
	((typeof(&STATIC_CALL_TRAMP(name)))READ_ONCE(STATIC_CALL_KEY(name).func))

#endif /* _KPATCH_MACROS_H */
