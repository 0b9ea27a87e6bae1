# 08 pre/post patch/unpatch callbacks (KPATCH_*_CALLBACK from kpatch-macros.h) print to
# the kernel log, in order, once each; uptime_proc_show() is the changed function.
. /lib/kp-suite.sh
check_original() { kp_not_contains "$1-text" /proc/uptime "callbacks"; }
check_patched() {
	kp_contains "$1-text" /proc/uptime "callbacks"
	kps_dmesg_has "$1-pre_patch" "kpatch-ng-callback: pre_patch vmlinux"
	kps_dmesg_has "$1-post_patch" "kpatch-ng-callback: post_patch vmlinux"
	kp_eq "$1-no-unpatch-yet" "$(kps_count_dmesg 'kpatch-ng-callback: pre_unpatch')" 0
}
order() { dmesg | sed -n 's/.*kpatch-ng-callback: \([a-z_]*\) .*/\1/p' | tr '\n' ' '; }
kps_cycle callbacks
kp_eq callback-order "$(order)" "pre_patch post_patch pre_unpatch post_unpatch "
