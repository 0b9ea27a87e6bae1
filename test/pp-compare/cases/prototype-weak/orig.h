__attribute__((weak)) void arch_hook(void);
