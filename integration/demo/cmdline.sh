# Guest side of `make demo` (integration/demo.sh): /proc/cmdline before loading the
# live patch built from examples/cmdline.patch, while it is loaded, after disabling
# and unloading it. DEMO lines are what demo.sh shows.
LP=livepatch_cmdline
kp_info "DEMO before: $(cat /proc/cmdline)"
kp_not_contains before /proc/cmdline "kpatch_demo=patched"
kp_insmod load livepatch-cmdline || kp_abort
kp_lp_wait_transition transition $LP 30
kp_info "DEMO loaded: $(cat /proc/cmdline)"
kp_info "DEMO sysfs: $(kp_lp_dir $LP)/enabled=$(cat "$(kp_lp_dir $LP)/enabled") transition=$(cat "$(kp_lp_dir $LP)/transition")"
kp_contains patched /proc/cmdline "kpatch_demo=patched"
kp_lp_disable disable $LP 30
kp_rmmod unload livepatch-cmdline
kp_info "DEMO unloaded: $(cat /proc/cmdline)"
kp_not_contains after-unload /proc/cmdline "kpatch_demo=patched"
