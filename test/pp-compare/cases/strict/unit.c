/* as unreferenced/, compared with --strict: only identical units are the same */
#include "hdr.h"

int total(int a, int b)
{
	return add(a, b);
}
