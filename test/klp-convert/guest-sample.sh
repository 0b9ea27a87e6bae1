# Guest side of boot-sample.sh (busybox sh, kp_* helpers of integration/guest/kptest.sh):
# the klp-convert'ed seed sample reads the unexported saved_command_line
# through a .klp.rela.vmlinux relocation the module loader applies.
ORIG=$(cat /proc/cmdline)
LP=$(kp_lp_dir livepatch_sample)
kp_info "cmdline before: $ORIG"
kp_check before-sysfs test ! -e "$LP"

kp_insmod load livepatch-sample || kp_abort
kp_lp_wait_transition transition livepatch_sample
kp_eq enabled "$(cat "$LP/enabled" 2>&1)" 1
kp_eq patched "$(cat /proc/cmdline)" "$ORIG livepatch=1"
kp_info "cmdline patched: $(cat /proc/cmdline)"

kp_lp_disable disable livepatch_sample
kp_eq after-disable "$(cat /proc/cmdline)" "$ORIG"
kp_rmmod unload livepatch_sample
kp_check after-unload sh -c '! grep -q "^livepatch_sample " /proc/modules'
kp_eq after-unload-text "$(cat /proc/cmdline)" "$ORIG"
