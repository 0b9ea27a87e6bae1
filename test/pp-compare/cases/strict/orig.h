static inline int add(int a, int b)
{
	return a + b;
}

static inline int clamp_positive(int v)
{
	return v < 0 ? 0 : v;
}
