// SPDX-License-Identifier: GPL-2.0
/* Compile check of kpatch-macros.h and kpatch-syscall.h against the kernel. */
#include <linux/kernel.h>
#include <linux/static_call.h>
#include "kpatch-macros.h"
#include "kpatch-syscall.h"

static int kp_pre(patch_object *obj) { return 0; }
static void kp_post(patch_object *obj) { }
static void kp_pre_un(patch_object *obj) { }
static void kp_post_un(patch_object *obj) { }
KPATCH_PRE_PATCH_CALLBACK(kp_pre);
KPATCH_POST_PATCH_CALLBACK(kp_post);
KPATCH_PRE_UNPATCH_CALLBACK(kp_pre_un);
KPATCH_POST_UNPATCH_CALLBACK(kp_post_un);

int kp_ignored(void) { return 1; }
KPATCH_IGNORE_FUNCTION(kp_ignored);
KPATCH_IGNORE_SECTION(".text.kp_ignored");
int kp_forced(void) { return 2; }
KPATCH_FORCE_UNSAFE(kp_forced);

static int kp_static_target(int x) { return x + 1; }
DEFINE_STATIC_CALL(kp_sc, kp_static_target);

int kp_uses(int x)
{
	KPATCH_PRINTK("kp: %d\n", x);
	return KPATCH_STATIC_CALL(kp_sc)(x);
}

KPATCH_SYSCALL_DEFINE0(kp_zero)
{
	return 0;
}

KPATCH_SYSCALL_DEFINE3(kp_three, int, a, unsigned long, b, const char __user *, c)
{
	return a + b + (c != NULL);
}

KPATCH_SYSCALL_DEFINE6(kp_six, int, a, int, b, int, c, int, d, int, e, long, f)
{
	return a + b + c + d + e + f;
}
