# Guest side of test/package/run.sh: the demo patch, built by the installed
# kpatch-build, loaded and unloaded by the installed kpatch (/bin/kpatch here).
LP=livepatch_cmdline
kp_info "before: $(cat /proc/cmdline)"
kp_not_contains before /proc/cmdline "kpatch_demo=patched"
kp_check load kpatch load --wait 30 /modules/livepatch-cmdline.ko
kp_info "loaded: $(cat /proc/cmdline)"
kp_contains patched /proc/cmdline "kpatch_demo=patched"
kpatch list > /tmp/list.out 2>&1
kp_contains list-enabled /tmp/list.out "$LP [enabled]"
kp_check unload kpatch unload --wait 30 livepatch-cmdline
kp_info "unloaded: $(cat /proc/cmdline)"
kp_not_contains after-unload /proc/cmdline "kpatch_demo=patched"
