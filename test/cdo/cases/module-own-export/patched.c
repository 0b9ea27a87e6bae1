#include "kernel-stubs.h"

extern int mydrv_helper(int v);
extern int other_api(int v);

int mydrv_users;
EXPORT_SYMBOL_GPL(mydrv_users);

int mydrv_probe(int v)
{
	mydrv_users++;
	return other_api(v) + mydrv_helper(v);
}
