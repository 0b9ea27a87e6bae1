/* Shared by the klp-convert unit-test sources: what kbuild would add. */
#include "klp-module-reloc.h"
#define LIVEPATCH_MODINFO \
	static const char __modinfo_lp[] __attribute__((section(".modinfo"), used, aligned(1))) = "livepatch=Y"
#define KLP_SYM(obj, name, pos) __asm__("\".klp.sym." #obj "." #name "," #pos "\"")
