/*
 * The header's patch takes a __COUNTER__ value (as a hunk that adds a
 * BUILD_BUG_ON would): every later __UNIQUE_ID_ name is renumbered.
 */
#include "hdr.h"

#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#define __max(t, x, y, ux, uy) ({ t ux = (x); t uy = (y); ux > uy ? ux : uy; })
#define max_t(t, x, y) __max(t, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

int bigger(int a, int b)
{
	return max_t(int, a, b);
}
