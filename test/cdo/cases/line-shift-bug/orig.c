#include "kernel-stubs.h"

struct item { int refs; int flags; };

void put_item(struct item *it)
{
	BUG_ON(it->refs <= 0);
	it->refs--;
}

void get_item(struct item *it)
{
	BUG_ON(!it);
	it->refs++;
}
