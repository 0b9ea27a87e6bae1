# Guest side of boot-template.sh: the kmod/patch template linked with a stand-in
# for the differ's output (template/fake-diff.c), klp-convert'ed.
# livepatch-tcmd.ko: KPATCH_REPLACE default (1); livepatch-tnr.ko: KPATCH_REPLACE=0.
ORIG=$(cat /proc/cmdline)
T=livepatch_tcmd N=livepatch_tnr
kp_info "cmdline before: $ORIG"

kp_insmod load-tcmd livepatch-tcmd || kp_abort
kp_lp_wait_transition transition-tcmd $T
kp_eq patched "$(cat /proc/cmdline)" "$ORIG kpatch-template=1"
kp_check pre-patch-callback sh -c 'dmesg | grep -q "kp-template: pre_patch vmlinux"'
kp_check sysfs-func test -d "$(kp_lp_dir $T)/vmlinux/cmdline_proc_show,1"

# a non-replace patch stacks on top: both stay enabled
kp_insmod load-tnr livepatch-tnr || kp_abort
kp_lp_wait_transition transition-tnr $N
kp_eq tcmd-still-enabled "$(cat "$(kp_lp_dir $T)/enabled" 2>&1)" 1
kp_eq tnr-enabled "$(cat "$(kp_lp_dir $N)/enabled" 2>&1)" 1
kp_lp_disable disable-tnr $N
kp_rmmod unload-tnr $N
kp_lp_disable disable-tcmd $T
kp_check post-unpatch-callback sh -c 'dmesg | grep -q "kp-template: post_unpatch vmlinux"'
kp_eq after-disable "$(cat /proc/cmdline)" "$ORIG"
kp_rmmod unload-tcmd $T

# a replace patch (the default) replaces whatever is enabled
kp_insmod reload-tnr livepatch-tnr || kp_abort
kp_lp_wait_transition transition-tnr2 $N
kp_insmod reload-tcmd livepatch-tcmd || kp_abort
kp_lp_wait_transition transition-tcmd2 $T
kp_wait_gone tnr-replaced "$(kp_lp_dir $N)"
kp_eq patched-again "$(cat /proc/cmdline)" "$ORIG kpatch-template=1"
kp_lp_disable disable-tcmd2 $T
kp_eq original-again "$(cat /proc/cmdline)" "$ORIG"
kp_rmmod unload-tcmd2 $T
kp_rmmod unload-tnr2 $N
