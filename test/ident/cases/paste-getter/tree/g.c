#include "include/hdr.h"
#include "include/getter.h"

DEFINE_GETTER(counter)

int g(void)
{
	return read_counter();
}
