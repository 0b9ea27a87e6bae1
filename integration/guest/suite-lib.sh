# suite-lib.sh: guest helpers for the patch suite (integration/patches/*.sh), installed
# as /lib/kp-suite.sh by integration/suite.sh. Sourced by a patch's guest script after
# kptest.sh. The script defines
#   check_original PHASE   checks of the running kernel's behaviour (names PHASE-...)
#   check_patched PHASE    checks of the patched behaviour
# and calls `kps_cycle NAME`, which runs the standard sequence on livepatch-NAME.ko:
#   before (original) -> load -> transition back to 0, enabled=1 -> patched ->
#   disable (sysfs dir gone once unpatching completes) -> after-disable (original) ->
#   unload (rmmod) -> after-unload (original)
# Check names "load" and "unload" are what integration/suite.sh puts in its table.

kps_lp() { echo "livepatch_$(echo "$1" | tr - _)"; }

# kps_load NAME: insmod + transition + enabled (stops the script if insmod fails)
kps_load() {
	kp_insmod load "livepatch-$1" || kp_abort
	kp_lp_wait_transition transition "$(kps_lp "$1")" 30
	kp_eq enabled "$(cat "$(kp_lp_dir "$(kps_lp "$1")")/enabled" 2>&1)" 1
	# the per-object attribute of the vmlinux klp object, when the patch has one
	if [ -d "$(kp_lp_dir "$(kps_lp "$1")")/vmlinux" ]; then
		kp_eq vmlinux-patched "$(cat "$(kp_lp_dir "$(kps_lp "$1")")/vmlinux/patched" 2>&1)" 1
	fi
}

# kps_unload NAME: disable, wait for the sysfs dir to vanish, rmmod
kps_unload() {
	kp_lp_disable disable "$(kps_lp "$1")" 30
	check_original after-disable
	kp_rmmod unload "livepatch-$1"
}

kps_cycle() {
	check_original before
	kps_load "$1"
	check_patched patched
	kps_unload "$1"
	check_original after-unload
}

# kps_dmesg: the kernel log since this test's script began (/init's KPTEST-BEGIN
# marker): the suite's tests share one boot
kps_dmesg() { dmesg | sed -n "/KPTEST-BEGIN $KP_NAME\$/,\$p"; }
# kps_dmesg_has CHECK TEXT: the test's kernel log contains TEXT
kps_dmesg_has() {
	if kps_dmesg | grep -qF -- "$2"; then kp_pass "$1"
	else kp_fail "$1" "dmesg has no '$2' since the test began; last lines: $(dmesg | tail -n 5 | tr '\n' '|')"; fi
}
# kps_count_dmesg TEXT: how many of the test's kernel log lines contain TEXT
kps_count_dmesg() { kps_dmesg | grep -cF -- "$1"; }
