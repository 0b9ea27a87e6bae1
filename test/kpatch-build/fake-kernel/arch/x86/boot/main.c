void boot_main(void) { }
