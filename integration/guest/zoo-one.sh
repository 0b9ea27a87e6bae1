# shellcheck shell=sh
# integration/guest/zoo-one.sh: the start of the zoo's generated guest script
# (zoo.sh writes one zoo_one line per built patch after it), busybox sh with
# guest/kptest.sh's helpers.
#
# zoo_one TEST MODULE SNIPPET TARGETS...: the target modules loaded (each after
# the ones it depends on, as zoo.sh orders them), then MODULE loaded, its
# transition, enabled, the SNIPPET (/files/SNIPPET, when not empty) while it is
# active, no livepatch error in dmesg, disabled, unloaded
zoo_one() {
	t=$1 m=$2 g=$3; shift 3
	lp=/sys/kernel/livepatch/$(echo "$m" | tr - _)
	for tm in "$@"; do lsmod | grep -q "^$(echo "$tm" | tr - _) " || insmod "/modules/$tm.ko" || kp_info "$t: target $tm did not load"; done
	dmesg -c >/dev/null 2>&1
	kp_insmod "$t/load" "$m" || { kp_info "$t dmesg: $(dmesg | tail -n 5 | tr "\n" "|")"; return 0; }
	kp_wait_value "$t/transition" "$lp/transition" 0 30
	kp_eq "$t/enabled" "$(cat "$lp/enabled" 2>&1)" 1
	if [ -n "$g" ]; then kp_check "$t/patched" sh "/files/$g"; fi
	if dmesg | grep -qE "livepatch: .*(not found|failed|error)"; then kp_fail "$t/klp-log" "$(dmesg | grep -E "livepatch: " | tail -n 3 | tr "\n" "|")"; fi
	kp_lp_disable "$t/disable" "$m" 30
	kp_rmmod "$t/unload" "$m" 30
}
