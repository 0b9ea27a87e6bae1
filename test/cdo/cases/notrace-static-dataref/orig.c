#include "kernel-stubs.h"

static noinline notrace int scale(int v)
{
	return v * 3 + 1;
}

int scale_a(int v)
{
	return scale(v) + 10;
}

/* a function pointer in data keeps reaching the old copy */
struct scaler {
	int (*fn)(int);
};

struct scaler default_scaler = { .fn = scale };
