# 04 a shadow variable (klp_shadow_get_or_alloc) attached to each task_struct counts
# reads of /proc/<pid>/status per task; a post-unpatch callback frees them all.
. /lib/kp-suite.sh
reads() { sed -n 's/^KpatchStatusReads:[[:space:]]*//p' "/proc/$1/status"; }
check_original() { kp_not_contains "$1-text" "/proc/$$/status" "KpatchStatusReads"; }
check_patched() {
	a=$(reads $$); b=$(reads $$)
	sleep 60 & other=$!
	c=$(reads $other); d=$(reads $$)
	kill $other; wait $other 2>/dev/null
	kp_eq "$1-own-task" "$a $b $d" "1 2 3"
	kp_eq "$1-other-task" "$c" 1
}
kps_cycle shadow-variable
kps_dmesg_has shadow-freed "kpatch-ng-shadow: freed all status-read counters"
