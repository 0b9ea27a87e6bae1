#include "kernel-stubs.h"

static noinline int parse_opt(int c)
{
	return c == 'y' || c == '1';
}

static noinline int validate(int v)
{
	return v > 0;
}

int apply_opt(const char *s, int v)
{
	return parse_opt(s[0]) && validate(v);
}
