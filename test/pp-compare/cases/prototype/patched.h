static inline void prepare_destroy(int *state)
{
	*state = 0;
}
