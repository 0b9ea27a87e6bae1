# Guest check for test/kpatch-build/patches/cmdline-macros.patch: the patch includes
# "kpatch-macros.h" (kpatch-build puts kmod/include on the include path) and registers
# a post-patch callback.
kp_insmod load livepatch-cmdline-macros || kp_abort
kp_lp_wait_transition transition livepatch_cmdline_macros
kp_contains patched /proc/cmdline "kpb-macros"
kp_check callback-ran sh -c 'dmesg | grep -q "kpb: patched"'
kp_lp_disable disable livepatch_cmdline_macros
kp_not_contains after-disable /proc/cmdline "kpb-macros"
kp_rmmod unload livepatch_cmdline_macros
