# 05 a changed function with a static local variable that keeps its running state:
# drop_caches_sysctl_handler()'s "static int stfu" (set by writing 4 to
# /proc/sys/vm/drop_caches, which silences its log line). The patched function
# must use the running kernel's stfu (=4), not a fresh one: it then logs
# "quiet, stfu=4"; with a fresh variable it would log "drop_caches (kpatched): 1".
. /lib/kp-suite.sh
DC=/proc/sys/vm/drop_caches
n0=$(kps_count_dmesg "drop_caches: 1")
echo 1 > $DC
kp_eq setup-logs "$(kps_count_dmesg 'drop_caches: 1')" $((n0 + 1))
echo 4 > $DC	# stfu = 4 from now on
check_original() {
	n=$(kps_count_dmesg drop_caches)
	echo 1 > $DC
	kp_eq "$1-quiet" "$(kps_count_dmesg drop_caches)" "$n"
}
check_patched() {
	echo 1 > $DC
	kps_dmesg_has "$1-state-kept" "drop_caches (kpatched): quiet, stfu=4"
	kp_eq "$1-no-fresh-state" "$(kps_count_dmesg 'drop_caches (kpatched): 1')" 0
}
kps_cycle static-local
