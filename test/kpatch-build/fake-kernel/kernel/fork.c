#include "../include/linux/fake.h"	/* a relative include: dependency paths with ".." */

int nr_forks;

int do_fork(int flags)
{
	nr_forks++;
	return flags + fake_value();
}
