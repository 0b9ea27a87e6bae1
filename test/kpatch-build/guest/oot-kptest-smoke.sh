# Guest check for test/kpatch-build/patches/oot-kptest-smoke.patch (--oot-module):
# the livepatch replaces kptest_smoke_show() of the out-of-tree module kptest_smoke.
LP=$(kp_lp_dir livepatch_oot_kptest_smoke)
kp_insmod load-module kptest_smoke || kp_abort
kp_contains before /proc/kptest_smoke "kptest smoke original"
kp_insmod load livepatch-oot-kptest-smoke || kp_abort
kp_lp_wait_transition transition livepatch_oot_kptest_smoke
kp_contains patched /proc/kptest_smoke "kptest smoke patched"
kp_lp_disable disable livepatch_oot_kptest_smoke
kp_contains after-disable /proc/kptest_smoke "kptest smoke original"
kp_rmmod unload livepatch_oot_kptest_smoke
