# Guest check for test/kpatch-build/patches/cmdline-string.patch built by kpatch-build:
# /proc/cmdline gains " kpatch=1" while livepatch-cmdline-string is enabled.
PATCHED="kpatch=1"
LP=$(kp_lp_dir livepatch_cmdline_string)
kp_not_contains before /proc/cmdline "$PATCHED"
kp_insmod load livepatch-cmdline-string || kp_abort
kp_lp_wait_transition transition livepatch_cmdline_string
kp_eq enabled "$(cat "$LP/enabled" 2>&1)" 1
kp_contains patched /proc/cmdline "$PATCHED"
kp_info "cmdline patched: $(cat /proc/cmdline)"
kp_lp_disable disable livepatch_cmdline_string
kp_not_contains after-disable /proc/cmdline "$PATCHED"
kp_rmmod unload livepatch_cmdline_string
kp_not_contains after-unload /proc/cmdline "$PATCHED"
