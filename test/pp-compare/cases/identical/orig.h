#define SCALE(x) ((x) * 2)
/* the old comment */
#define UNUSED_LIMIT 10
