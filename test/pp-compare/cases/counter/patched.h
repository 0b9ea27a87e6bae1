#define LIMIT 4
#if __COUNTER__ >= 0
#endif
