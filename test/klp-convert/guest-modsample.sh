# Guest side of boot-modsample.sh: module-specific klp relocations
# (.klp.rela.kobject_example..text) written when the target loads after the patch,
# and when the patch loads after the target.
LP=livepatch_kobj F=/sys/kernel/kobject_example/foo
kp_insmod patch-first livepatch-kobj || kp_abort
kp_lp_wait_transition transition $LP
kp_eq not-yet-patched "$(cat "$(kp_lp_dir $LP)/kobject_example/patched" 2>&1)" 0
kp_insmod target-later kobject-example || kp_abort
kp_lp_wait_transition transition-target $LP
kp_eq object-patched "$(cat "$(kp_lp_dir $LP)/kobject_example/patched" 2>&1)" 1
echo 5 > $F
kp_eq late-patched "$(cat $F)" "5 patched"
kp_lp_disable disable $LP
kp_eq after-disable "$(cat $F)" "5"
kp_rmmod unload $LP
# target already there: the relocation is written when the patch loads
kp_insmod patch-second livepatch-kobj || kp_abort
kp_lp_wait_transition transition2 $LP
echo 7 > $F
kp_eq patched-at-load "$(cat $F)" "7 patched"
kp_lp_disable disable2 $LP
kp_eq after-disable2 "$(cat $F)" "7"
kp_rmmod unload2 $LP
kp_rmmod unload-target kobject_example
