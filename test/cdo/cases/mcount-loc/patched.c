#include "kernel-stubs.h"

static noinline int f_new(int x) { return x * 7; }

int f_one(int x) { return x + 1; }
int f_two(int x) { return f_new(x) + 2; }
int f_three(int x) { return x + 3; }
int f_four(int x) { return x - 4; }
