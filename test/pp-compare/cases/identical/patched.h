#define SCALE(x) ((x) * 2)

/*
 * a new comment, over more lines
 */
#define UNUSED_LIMIT 20
