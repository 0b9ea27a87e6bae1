# 02 a new function (kpatch_version_note, not in the running kernel) called from the
# changed version_proc_show(): /proc/version gains a second line.
. /lib/kp-suite.sh
check_original() {
	kp_contains "$1-version" /proc/version "Linux version"
	kp_not_contains "$1-text" /proc/version "kpatch-ng: new function called"
}
check_patched() {
	kp_contains "$1-version" /proc/version "Linux version"
	kp_contains "$1-text" /proc/version "kpatch-ng: new function called"
	kp_eq "$1-lines" "$(wc -l < /proc/version)" 2
}
kps_cycle new-function
