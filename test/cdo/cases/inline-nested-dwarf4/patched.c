#include "kernel-stubs.h"

/* inner() is inlined into outer(), itself inlined into two callers */
static __always_inline int inner(int v)
{
	return v ^ 0x5a;
}

static __always_inline int outer(int v, int w)
{
	return inner(v) + w * 7;
}

/* the innermost inlined instance names the change */
int use_nested(int v, int w)
{
	return outer(v, w) - 1;
}

int use_inner(int v)
{
	return inner(v) << 2;
}
