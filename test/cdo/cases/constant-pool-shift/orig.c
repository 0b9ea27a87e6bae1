#include "kernel-stubs.h"

/* an 8-byte constant in the mergeable pool .rodata.cst8, as GCC puts them */
#define POOL_CONST(val) ({						\
	unsigned long __v;						\
	asm(".pushsection .rodata.cst8,\"aM\",@progbits,8\n"		\
	    ".balign 8\n"						\
	    "1: .quad " #val "\n"					\
	    ".popsection\n"						\
	    "mov 1b(%%rip), %0" : "=r" (__v));				\
	__v; })

unsigned long mask_low(unsigned long v)
{
	return v & POOL_CONST(0x00ff00ff00ff00ff);
}
