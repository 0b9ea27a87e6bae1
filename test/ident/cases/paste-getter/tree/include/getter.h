/* a getter's name made by pasting: no file writes get_counter in full */
#define DEFINE_GETTER(n) static inline int read_##n(void) { return get_##n(); }
