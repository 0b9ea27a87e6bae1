#include "include/hdr.h"
#include "include/call.h"

int p(void)
{
	return CALL_FOO(widget);
}
