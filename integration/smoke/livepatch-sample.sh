# Guest check: the kernel's own samples/livepatch/livepatch-sample.ko replaces
# cmdline_proc_show(); /proc/cmdline must show the patched text while it is enabled
# and the original before and after.
PATCHED="this has been live patched"
LP=$(kp_lp_dir livepatch_sample)

kp_not_contains before /proc/cmdline "$PATCHED"
kp_check before-sysfs test ! -e "$LP"
kp_info "cmdline before: $(cat /proc/cmdline)"

kp_insmod load livepatch-sample || kp_abort
kp_lp_wait_transition transition livepatch_sample
kp_eq enabled "$(cat "$LP/enabled" 2>&1)" 1
kp_contains patched /proc/cmdline "$PATCHED"
kp_info "cmdline patched: $(cat /proc/cmdline)"

kp_lp_disable disable livepatch_sample
kp_not_contains after-disable /proc/cmdline "$PATCHED"
kp_rmmod unload livepatch_sample
kp_check after-unload sh -c '! grep -q "^livepatch_sample " /proc/modules'
kp_not_contains after-unload-text /proc/cmdline "$PATCHED"
