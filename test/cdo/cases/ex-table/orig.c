#include "kernel-stubs.h"

/*
 * get_user_goto (asm-<arch>.h): a get_user()-like faulting load (6.1 style:
 * asm goto + an __ex_table entry whose fixup target is a label of the same
 * function)
 */

int read_flag(int *uptr)
{
	int v;

	get_user_goto(v, uptr, efault);
	return v & 1;
efault:
	return -14;
}

int read_word(int *uptr)
{
	int v;

	get_user_goto(v, uptr, efault);
	return v;
efault:
	return -14;
}
