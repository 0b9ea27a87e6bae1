#include <linux/fake.h>

int nr_forks;

int do_fork(int flags)
{
	nr_forks++;
	return flags + fake_value();
}
