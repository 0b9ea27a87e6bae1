/* A "running kernel" for the unannotated cases (with target2.c): its symbol
 * table (readelf -s --wide of the ld -r of both) is what --symtab reads. */
int counter;
int printk(const char *fmt, ...) { return fmt[0]; }
/* an exported symbol, as EXPORT_SYMBOL(printk) leaves it in vmlinux */
static const void *const __ksymtab_printk __attribute__((used)) = printk;
static int __attribute__((noinline, used)) local_fn(int x) { return x * 3; }
int use1(int x) { return local_fn(x); }
