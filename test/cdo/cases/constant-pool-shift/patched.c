#include "kernel-stubs.h"

/*
 * An 8-byte constant in the mergeable pool .rodata.cst8, as GCC puts
 * them, loaded the way each architecture's code reaches it (ppc64le as
 * with -mcmodel=large: through a .toc slot pointing at it).
 */
#if defined(__x86_64__)
#define POOL_LOAD	"mov 1b(%%rip), %0"
#define POOL_REG	"=r"
#elif defined(__aarch64__)
#define POOL_LOAD	"adrp %0, 1b\n\tldr %0, [%0, #:lo12:1b]"
#define POOL_REG	"=r"
#elif defined(__powerpc64__)
#define POOL_LOAD	".pushsection .toc, \"aw\"\n2: .quad 1b\n.popsection\n\t" \
			"addis %0, 2, 2b@toc@ha\n\tld %0, 2b@toc@l(%0)\n\tld %0, 0(%0)"
#define POOL_REG	"=b"
#elif defined(__s390x__)
#define POOL_LOAD	"larl %0, 1b\n\tlg %0, 0(%0)"
#define POOL_REG	"=a"
#endif
#define POOL_CONST(val) ({						\
	unsigned long __v;						\
	asm(".pushsection .rodata.cst8,\"aM\",@progbits,8\n"		\
	    ".balign 8\n"						\
	    "1: .quad " #val "\n"					\
	    ".popsection\n\t"						\
	    POOL_LOAD : POOL_REG (__v));				\
	__v; })

/* new, and its constant comes first in the pool */
unsigned long mask_high(unsigned long v)
{
	return v & POOL_CONST(0xff00ff00ff00ff00);
}

unsigned long mask_low(unsigned long v)
{
	return v & POOL_CONST(0x00ff00ff00ff00ff);
}
