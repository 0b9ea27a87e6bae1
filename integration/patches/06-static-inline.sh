# 06 a changed static inline helper, get_task_state() in fs/proc/array.c: both its
# callers are patched -- /proc/<pid>/status "State:" (proc_pid_status) and the state
# field of /proc/<pid>/stat (do_task_stat): a sleeping task reads as 's'.
. /lib/kp-suite.sh
sleep 120 & S=$!
sleep 0.3
state() { sed -n 's/^State:[[:space:]]*//p' "/proc/$S/status"; }
statc() { awk '{ print $3 }' "/proc/$S/stat"; }
check_original() {
	kp_eq "$1-status" "$(state)" "S (sleeping)"
	kp_eq "$1-stat" "$(statc)" S
}
check_patched() {
	kp_eq "$1-status" "$(state)" "s (sleeping, kpatched)"
	kp_eq "$1-stat" "$(statc)" s
}
kps_cycle static-inline
kill $S; wait $S 2>/dev/null
