#include "kernel-stubs.h"

/*
 * the kernel's "inline" implies notrace. GCC keeps this static inline
 * function out of line (too big to inline everywhere, and its address is
 * taken), so the changed copy has no __fentry__ call.
 */
static inline int checksum(const u8 *p, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s = (s << 3) ^ p[i] ^ (s >> 7);
	return s;
}

int (*checksum_fn)(const u8 *, int) = checksum;

int verify(const u8 *p, int n, int want)
{
	return checksum(p, n) == want;
}
