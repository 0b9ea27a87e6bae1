void prepare_destroy(int *state);
