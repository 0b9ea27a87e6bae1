# 12 two patches in sequence with atomic replace: b (cmdline only) replaces a
# (cmdline + version): a is disabled by the kernel, its sysfs dir vanishes, its
# /proc/version change is gone, and it can be unloaded while b stays.
. /lib/kp-suite.sh
A=livepatch_atomic_replace_a B=livepatch_atomic_replace_b
check_original() {
	kp_not_contains "$1-cmdline" /proc/cmdline kpatch_replace
	kp_not_contains "$1-version" /proc/version kpatch_replace
}
check_original before
kp_insmod load livepatch-atomic-replace-a || kp_abort
kp_lp_wait_transition A-transition $A 30
kp_contains A-cmdline /proc/cmdline "kpatch_replace=A"
kp_contains A-version /proc/version "kpatch_replace=A"
kp_insmod load-b livepatch-atomic-replace-b || kp_abort
kp_lp_wait_transition B-transition $B 30
kp_wait_gone A-replaced "$(kp_lp_dir $A)" 30
kp_contains B-cmdline /proc/cmdline "kpatch_replace=B"
kp_not_contains B-no-A-cmdline /proc/cmdline "kpatch_replace=A"
kp_not_contains B-no-A-version /proc/version "kpatch_replace"
kp_rmmod A-unload livepatch-atomic-replace-a
kp_contains B-still /proc/cmdline "kpatch_replace=B"
kp_lp_disable disable $B 30
check_original after-disable
kp_rmmod unload livepatch-atomic-replace-b
check_original after-unload
