#include "kernel-stubs.h"

int f_one(int x) { return x + 1; }
int f_two(int x) { return x + 2; }
int f_three(int x) { return x + 3; }
int f_four(int x) { return x + 4; }
