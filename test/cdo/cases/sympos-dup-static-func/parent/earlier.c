#include "kernel-stubs.h"

/* an earlier kernel file with static functions of the same names */
static noinline int parse_opt(int c)
{
	return c == 'n';
}

static noinline int validate(int v)
{
	return v != 7;
}

int earlier_user(const char *s)
{
	return parse_opt(s[1]) + validate(s[2]);
}
