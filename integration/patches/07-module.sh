# 07 a patch to a loadable module, samples/kobject/kobject-example.ko (foo_show of
# /sys/kernel/kobject_example/foo): A) module loaded before the patch; B) module loaded
# after the patch (the klp object is patched when the module comes), then unloaded
# while patched; C) on 6.3 and later (6.12 here) the module unloaded and loaded again,
# twice, while the patch stays loaded: patched each time it comes. The per-object
# "patched" attribute follows the module. C is not run on 6.1, which refuses the
# second load ("x86/modules: Skipping invalid relocation target, existing value is
# nonzero": klp relocations into the patch are not cleared when the target module
# goes; fixed upstream in 6.3 by "livepatch,x86: Clear relocation targets on a module
# removal").
# shellcheck source=integration/guest/suite-lib.sh
. /lib/kp-suite.sh
FOO=/sys/kernel/kobject_example/foo
check_original() { kp_eq "$1-foo" "$(cat $FOO 2>&1)" 0; }
check_patched() { kp_eq "$1-foo" "$(cat $FOO 2>&1)" "0 kpatched"; }
# A
kp_insmod module-load kobject-example || kp_abort
kps_cycle module
kp_rmmod module-unload kobject-example
# B
kp_insmod B-load livepatch-module || kp_abort
kp_lp_wait_transition B-transition livepatch_module 30
kp_check B-module-absent test ! -e $FOO
# the per-object sysfs attribute: the klp object of a module not loaded is not patched
OBJP=/sys/kernel/livepatch/livepatch_module/kobject_example/patched
kp_eq B-object-unpatched "$(cat $OBJP 2>&1)" 0
kp_insmod B-module-load kobject-example || kp_abort
check_patched B-patched-on-load
kp_eq B-object-patched "$(cat $OBJP 2>&1)" 1
kp_rmmod B-module-unload kobject-example
kp_check B-module-gone test ! -e $FOO
kp_eq B-object-unpatched-again "$(cat $OBJP 2>&1)" 0
# C
kver=$(uname -r); kmajor=${kver%%.*}; kminor=${kver#*.}; kminor=${kminor%%.*}
if [ "$kmajor" -gt 6 ] || { [ "$kmajor" -eq 6 ] && [ "$kminor" -ge 3 ]; }; then
	for i in 1 2; do
		kp_insmod C-module-reload-$i kobject-example || kp_abort
		check_patched C-patched-on-reload-$i
		kp_eq C-object-patched-$i "$(cat $OBJP 2>&1)" 1
		kp_rmmod C-module-unload-$i kobject-example
		kp_eq C-object-unpatched-$i "$(cat $OBJP 2>&1)" 0
	done
fi
kp_lp_disable B-disable livepatch_module 30
kp_rmmod B-unload livepatch-module
kp_insmod B-module-load-unpatched kobject-example
check_original B-after-unload
kp_rmmod B-module-unload-2 kobject-example
