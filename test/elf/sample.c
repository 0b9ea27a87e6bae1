/* Compiled for s390x (big-endian) by test/elf/run.sh: code, data with
 * pointers (64-bit relocations in data), strings, a jump table and bss. */
struct entry {
	const char *name;
	int (*fn)(int);
	unsigned long flags;
};

static int counter;
long big_value = 0x0102030405060708L;
const char *greeting = "hello, big-endian";

static int twice(int x)
{
	return 2 * x + counter;
}

int add_one(int x)
{
	return x + 1;
}

struct entry table[] = {
	{ "twice", twice, 0x11223344 },
	{ "add_one", add_one, 0x55667788 },
};

int pick(int which, int x)
{
	switch (which) {
	case 0: return table[0].fn(x);
	case 1: return table[1].fn(x);
	case 2: return x * 7;
	case 3: return x - 3;
	case 4: return x ^ 0x5a;
	case 5: return (int)big_value;
	default: return greeting[x & 7];
	}
}
