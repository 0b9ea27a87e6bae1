#include "include/hdr.h"

int m(void)
{
	int v = 0;

	CALL_HOOK(v);
	return v;
}
