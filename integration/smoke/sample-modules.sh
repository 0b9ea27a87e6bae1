# Guest check: the in-tree sample modules kept as patch targets load and work.
kp_insmod kobject-load kobject-example || kp_abort
kp_eq kobject-foo "$(cat /sys/kernel/kobject_example/foo 2>&1)" 0
kp_check kobject-store sh -c 'echo 7 > /sys/kernel/kobject_example/foo'
kp_eq kobject-foo-stored "$(cat /sys/kernel/kobject_example/foo 2>&1)" 7
kp_rmmod kobject-unload kobject_example
kp_insmod callbacks-mod-load livepatch-callbacks-mod
kp_rmmod callbacks-mod-unload livepatch_callbacks_mod
