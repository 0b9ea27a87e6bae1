#include <linux/fake.h>

int foo_read(int x)
{
	return x * 2 + fake_value();
}
