# 01 /proc text change: meminfo_proc_show() gains a "KpatchNg:" line.
. /lib/kp-suite.sh
check_original() {
	kp_contains "$1-meminfo" /proc/meminfo "MemTotal:"
	kp_not_contains "$1-text" /proc/meminfo "KpatchNg:"
}
check_patched() {
	kp_contains "$1-text" /proc/meminfo "KpatchNg:       patched"
	kp_contains "$1-meminfo" /proc/meminfo "MemTotal:"
}
kps_cycle proc-meminfo
