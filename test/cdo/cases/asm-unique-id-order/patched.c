#include "kernel-stubs.h"

/*
 * As kvm's emulator: assembly inside the C file defines small stubs in .text,
 * each a function named with __UNIQUE_ID() (so __COUNTER__ numbers them), at
 * the address of a plain label the C code knows; a read-only table points to
 * them.
 */
#define STUB(label, val, n)							\
	asm(".pushsection .text\n\t.align 16\n"				\
	    #label ":\n"						\
	    ".type " __stringify(__PASTE(__UNIQUE_ID_stub, n)) ", @function\n" \
	    __stringify(__PASTE(__UNIQUE_ID_stub, n)) ":\n\t"		\
	    "movl $" #val ", %eax\n\tret\n\tint3\n"			\
	    ".size " __stringify(__PASTE(__UNIQUE_ID_stub, n)) ", .-"	\
	    __stringify(__PASTE(__UNIQUE_ID_stub, n)) "\n\t.popsection");	\
	void label(void)
#define STUB_N(label, val, n) STUB(label, val, n)

/* one more use of __COUNTER__ before the stubs: each gets another number */
static int __PASTE(counter_user_, __COUNTER__) __attribute__((used));
STUB_N(stub_a, 1, __COUNTER__);
STUB_N(stub_b, 2, __COUNTER__);
STUB_N(stub_c, 3, __COUNTER__);

static void (*const stub_table[])(void) = { stub_a, stub_b, stub_c, stub_a };

noinline int run_stub(unsigned int i)
{
	if (i >= (int)(sizeof(stub_table) / sizeof(stub_table[0])))
		return -1;
	stub_table[i]();
	return 0;
}

noinline int count_stubs(void)
{
	return (int)(sizeof(stub_table) / sizeof(stub_table[0])) + 1;
}
