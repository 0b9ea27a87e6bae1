#include "include/wrap.h"

int caller(void)
{
	return wrap_get();
}
