#include "include/hdr.h"

int user(int v)
{
	return clamp_val(v, 100);
}
