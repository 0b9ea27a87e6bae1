# Guest check: one livepatch built from two patches, one for vmlinux (cmdline_proc_show)
# and one for the module kobject-example (foo_show): two klp_objects.
kp_insmod load-module kobject-example || kp_abort
kp_insmod load livepatch-two-parents || kp_abort
kp_lp_wait_transition transition livepatch_two_parents
kp_contains patched-vmlinux /proc/cmdline "kpatch=1"
kp_contains patched-module /sys/kernel/kobject_example/foo "(patched)"
kp_lp_disable disable livepatch_two_parents
kp_not_contains after-disable /proc/cmdline "kpatch=1"
kp_rmmod unload livepatch_two_parents
