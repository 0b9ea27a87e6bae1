/*
 * A fortified memcpy() into a struct field whose size the compiler cannot
 * check (include/linux/fortify-string.h, 6.1): the warning keeps the call's
 * "field ... at FILE:LINE", __LINE__ stringified into the literal.
 */
extern bool fortify_memcpy_chk(size_t size, size_t p_size_field);

#define fortify_memcpy(p, q, size) ({					\
	size_t __fortify_size = (size_t)(size);				\
	WARN_ONCE(fortify_memcpy_chk(__fortify_size, sizeof(p)),	\
		  "memcpy: detected field-spanning write (size %zu) of single %s (size %zu)\n", \
		  __fortify_size,					\
		  "field \"" #p "\" at " __FILE__ ":" __stringify(__LINE__), \
		  sizeof(p));						\
	__builtin_memcpy(p, q, __fortify_size);				\
})
