static inline int add(int a, int b)
{
	return a + b;
}

static inline int clamp_positive(int v)
{
	if (v < 0)
		return 0;
	return v > 1000 ? 1000 : v;
}
