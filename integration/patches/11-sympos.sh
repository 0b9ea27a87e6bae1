# 11 references from a patched function (print_cpu_modalias, drivers/base/cpu.c) to a
# non-exported static function (print_cpus_kernel_max, printed with %ps) and to a
# static variable whose name several objects have (dev_attr_modalias: sympos > 0);
# own-attr=1 shows the relocation resolved to this file's variable.
. /lib/kp-suite.sh
M=/sys/devices/system/cpu/modalias
check_original() {
	kp_contains "$1-modalias" $M "cpu:type:"
	kp_not_contains "$1-text" $M "kpatch:"
}
check_patched() {
	kp_contains "$1-modalias" $M "cpu:type:"
	kp_contains "$1-text" $M "kpatch:own-attr=1,fn=print_cpus_kernel_max"
}
kps_cycle sympos
