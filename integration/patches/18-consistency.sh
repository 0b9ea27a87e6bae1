# 18 the consistency model. hrtimer_nanosleep() is patched while a busybox `sleep 1000`
# sits in it (clock_nanosleep -> common_nsleep -> hrtimer_nanosleep -> do_nanosleep):
#   1) the transition stays pending (transition=1, the sleeper's patch_state 0 =
#      unpatched) while the task sleeps there, and completes once it leaves (killed);
#   2) again, completed by livepatch's signals: Linux 6.1 has no per-patch `signal`
#      file (only `force`); the core itself sends a fake signal to the remaining
#      tasks after 15 one-second retries ("livepatch: signaling remaining tasks"),
#      which makes the sleeper leave the function and restart its sleep;
#   3) again, reversed mid-transition (echo 0 > enabled while pending): the patch
#      goes back to unpatched without the sleeper moving, and unloads.
. /lib/kp-suite.sh
LP=livepatch_consistency
D=$(kp_lp_dir $LP)
MSG="kpatch-ng: patched hrtimer_nanosleep runs"
sleeper() { sleep 1000 & S=$!; sleep 0.5; kp_info "sleeper $S: $(cat /proc/$S/wchan 2>/dev/null)"; }
pending() {	# CHECK: after 3 s the transition is still pending, the sleeper unpatched
	sleep 3
	kp_eq "$1" "$(cat $D/transition 2>&1)" 1
	kp_eq "$1-sleeper-unpatched" "$(cat /proc/$S/patch_state 2>&1)" 0
	kp_eq "$1-self-patched" "$(cat /proc/$$/patch_state 2>&1)" 1
}

kp_eq before "$(kps_count_dmesg "$MSG")" 0
# 1) completes once the sleeper leaves
sleeper
kp_insmod load livepatch-consistency || kp_abort
pending pending-while-asleep
kill $S; wait $S 2>/dev/null
kp_lp_wait_transition completes-after-exit $LP 30
kps_dmesg_has patched-code-runs "$MSG"
kp_lp_disable disable $LP 30
kp_rmmod unload livepatch-consistency

# 2) completes after livepatch signals the sleeper
sleeper
kp_insmod load-2 livepatch-consistency || kp_abort
pending pending-2
kp_lp_wait_transition completes-after-signal $LP 40
kps_dmesg_has signal-sent "livepatch: signaling remaining tasks"
kp_check sleeper-survives kill -0 $S
kp_lp_disable disable-2 $LP 30
kp_rmmod unload-2 livepatch-consistency
kill $S; wait $S 2>/dev/null

# 3) reversed mid-transition
sleeper
kp_insmod load-3 livepatch-consistency || kp_abort
pending pending-3
kp_check reverse sh -c "echo 0 > $D/enabled"
kp_wait_gone reversed-and-freed "$D" 30
kp_eq sleeper-still-asleep "$(cat /proc/$S/patch_state 2>&1)" -1
kp_rmmod unload-3 livepatch-consistency
kill $S; wait $S 2>/dev/null
