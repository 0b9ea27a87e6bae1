# Guest side of test/kpatch/run-guest-test.sh (busybox sh, kptest.sh helpers): the
# runtime manager kpatch (installed as /bin/kpatch) on modules built by kpatch-build:
# livepatch-cmdline (examples/cmdline.patch) and livepatch-consistency
# (integration/patches/18-consistency.patch: hrtimer_nanosleep, in which a
# `sleep 1000` waits, so its transition stays pending).
KVER=$(uname -r)
CMDLINE_LP=livepatch_cmdline
CONS_LP=livepatch_consistency

# kp_run CHECK RC CMD...: CMD (a kpatch command line) exits RC; its output (stdout
# and stderr) is kept in /tmp/CHECK.out and shown as INFO lines on the console
kp_run() {
	_c=$1 _want=$2; shift 2
	"$@" > "/tmp/$_c.out" 2>&1
	_rc=$?
	kp_info "RUN $_c: $* -> exit $_rc"
	while IFS= read -r _l; do kp_info "OUT $_c: $_l"; done < "/tmp/$_c.out"
	kp_eq "$_c-exit" "$_rc" "$_want"
}
# kp_out CHECK TEXT...: the output of the kp_run named CHECK contains each TEXT
kp_out() {
	_c=$1; shift
	for _t in "$@"; do kp_contains "$_c-has-$(echo "$_t" | tr -c 'A-Za-z0-9_\n' '_')" "/tmp/$_c.out" "$_t"; done
}

# ---- load / list / info / unload on livepatch-cmdline
kp_run list-empty 0 kpatch list
kp_out list-empty "Loaded patch modules:" "Installed patch modules:"
kp_not_contains list-empty-no-patch /tmp/list-empty.out "$CMDLINE_LP"
kp_run info-file 0 kpatch info /modules/livepatch-cmdline.ko
kp_out info-file "Patch information for $CMDLINE_LP:" "vmlinux:" "cmdline_proc_show" "livepatch:   Y" "state:       not loaded"
kp_run load 0 kpatch load /modules/livepatch-cmdline.ko
kp_out load "loading patch module: /modules/livepatch-cmdline.ko" "transition complete"
kp_contains patched /proc/cmdline "kpatch_demo=patched"
kp_run list 0 kpatch list
kp_out list "$CMDLINE_LP [enabled]"
kp_run info-loaded 0 kpatch info livepatch-cmdline
kp_out info-loaded "Patch information for $CMDLINE_LP:" "state:       loaded [enabled]" "vmlinux:" "cmdline_proc_show"
kp_run load-again 0 kpatch load /modules/livepatch-cmdline.ko
kp_out load-again "already loaded"
kp_run unload 0 kpatch unload livepatch-cmdline
kp_out unload "disabling patch module: $CMDLINE_LP" "unloading patch module: $CMDLINE_LP"
kp_check unload-module-gone sh -c "! [ -d /sys/module/$CMDLINE_LP ]"
kp_not_contains unpatched /proc/cmdline "kpatch_demo=patched"
kp_run unload-not-loaded 1 kpatch unload livepatch-cmdline
kp_out unload-not-loaded "kpatch: error: patch module $CMDLINE_LP is not loaded"

# ---- install / load --all (what kpatch.service runs at boot) / unload --all / uninstall
kp_run install 0 kpatch install /modules/livepatch-cmdline.ko
kp_check install-file test -f "/var/lib/kpatch/$KVER/livepatch-cmdline.ko"
kp_run list-installed 0 kpatch list
kp_out list-installed "$CMDLINE_LP ($KVER)"
kp_run load-all 0 kpatch load --all
kp_contains load-all-patched /proc/cmdline "kpatch_demo=patched"
kp_run load-by-name 0 kpatch load livepatch-cmdline
kp_out load-by-name "already loaded"
kp_run unload-all 0 kpatch unload --all
kp_not_contains unload-all-unpatched /proc/cmdline "kpatch_demo=patched"
kp_run uninstall 0 kpatch uninstall livepatch-cmdline
kp_out uninstall "uninstalling $CMDLINE_LP ($KVER)"
kp_check uninstall-gone sh -c "! [ -e /var/lib/kpatch/$KVER/livepatch-cmdline.ko ]"

# ---- a pending transition: a task asleep in hrtimer_nanosleep
kp_run info-consistency 0 kpatch info /modules/livepatch-consistency.ko
kp_out info-consistency "vmlinux:" "hrtimer_nanosleep"
kp_sleeper
kp_info "sleeper pid $S"
kp_run wait-pending 1 kpatch load --wait 3 /modules/livepatch-consistency.ko
kp_out wait-pending "$CONS_LP: patching transition pending for" "  $S sleep: unpatched" \
	"hrtimer_nanosleep" "did not complete in 3 seconds"
kp_eq wait-pending-still-pending "$(cat /sys/kernel/livepatch/$CONS_LP/transition)" 1
kp_run list-pending 0 kpatch list
kp_out list-pending "$CONS_LP [enabling...]" "  $S sleep: unpatched"
kp_run pending 0 kpatch pending
kp_out pending "$CONS_LP: patching transition pending for" "  $S sleep: unpatched"
kp_run load-other-while-pending 1 kpatch load /modules/livepatch-cmdline.ko
kp_out load-other-while-pending "is in transition"
# unload while pending reverses the transition; the sleeper never switched
kp_run unload-reverses 0 kpatch unload --wait 20 livepatch-consistency
kp_out unload-reverses "disabling patch module: $CONS_LP" "unloading patch module: $CONS_LP"
kp_check reversed-module-gone sh -c "! [ -d /sys/module/$CONS_LP ]"
kp_check sleeper-alive kill -0 "$S"

# ---- force: the warning, the tasks named, the transition completes
kp_run wait-pending-2 1 kpatch load --wait 2 /modules/livepatch-consistency.ko
kp_out wait-pending-2 "  $S sleep: unpatched"
kp_run force 0 kpatch force livepatch-consistency
kp_out force "WARNING: forcing $CONS_LP" "  $S sleep: unpatched" "$CONS_LP: transition forced [enabled]"
kp_run list-forced 0 kpatch list
kp_out list-forced "$CONS_LP [enabled]"
kp_run force-not-pending 1 kpatch force livepatch-consistency
kp_out force-not-pending "is not in transition"
# forcing a patching transition leaves the module removable (6.1: only a forced
# removal, or the patches a forced one replaces, keep their modules)
kill "$S"; wait "$S" 2>/dev/null
kp_run unload-after-forced-patching 0 kpatch unload livepatch-consistency
kp_check unload-after-forced-patching-gone sh -c "! [ -d /sys/module/$CONS_LP ]"

# ---- a pending unpatching transition: a task asleep in the new function
kp_run load-3 0 kpatch load /modules/livepatch-consistency.ko
kp_sleeper
kp_info "sleeper in the patched function: pid $S"
kp_run unload-pending 1 kpatch unload --wait 2 livepatch-consistency
kp_out unload-pending "$CONS_LP: unpatching transition pending for" "  $S sleep: patched" \
	"did not complete in 2 seconds; its module stays loaded"
kp_run list-disabling 0 kpatch list
kp_out list-disabling "$CONS_LP [disabling...]" "  $S sleep: patched"
kp_run force-removal 0 kpatch force livepatch-consistency
kp_out force-removal "WARNING: its removal is forced" "  $S sleep: patched" "$CONS_LP: transition forced [disabled]"
kp_check force-removal-freed sh -c "! [ -d /sys/kernel/livepatch/$CONS_LP ]"
# the forced removal keeps the module: kpatch unload says so
kp_run unload-forced 1 kpatch unload --wait 5 livepatch-consistency
kp_out unload-forced "unloading patch module: $CONS_LP" "rmmod $CONS_LP failed"
kp_check forced-module-stays test -d "/sys/module/$CONS_LP"
kp_run list-forced-disabled 0 kpatch list
kp_out list-forced-disabled "$CONS_LP [disabled]"
kill "$S"; wait "$S" 2>/dev/null
