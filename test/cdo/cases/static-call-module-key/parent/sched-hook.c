#include "kernel-stubs.h"

/* the module's own static call: key and trampoline (not exported) */
struct static_call_key { void *func; } __SCK__sched_hook = { (void *)0 };
asm(".pushsection .static_call.text, \"ax\"\n"
    ".globl __SCT__sched_hook\n"
    ".type __SCT__sched_hook, @function\n"
    "__SCT__sched_hook: jmp schedule\n"
    ".size __SCT__sched_hook, 5\n"
    ".popsection\n");
