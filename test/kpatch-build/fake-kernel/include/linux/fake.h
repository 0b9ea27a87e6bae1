#ifndef _LINUX_FAKE_H
#define _LINUX_FAKE_H
#define FAKE_VALUE 1
struct seq_file;
int seq_puts(struct seq_file *m, const char *s);
int printk(const char *fmt, ...);
static inline int fake_value(void) { return FAKE_VALUE; }
#endif
