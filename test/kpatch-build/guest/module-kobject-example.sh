# Guest check for test/kpatch-build/patches/module-kobject-example.patch: a livepatch
# for foo_show() of the in-tree module kobject-example (samples/kobject).
F=/sys/kernel/kobject_example/foo
kp_insmod load-module kobject-example || kp_abort
kp_not_contains before "$F" "patched"
kp_insmod load livepatch-module-kobject-example || kp_abort
kp_lp_wait_transition transition livepatch_module_kobject_example
kp_contains patched "$F" "(patched)"
kp_lp_disable disable livepatch_module_kobject_example
kp_not_contains after-disable "$F" "patched"
kp_rmmod unload livepatch_module_kobject_example
