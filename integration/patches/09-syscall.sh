# 09 a system call through KPATCH_SYSCALL_DEFINE1 (kpatch-syscall.h): newuname()
# reports sysname "Linux-kpatched"; busybox `uname -s` shows it.
. /lib/kp-suite.sh
check_original() { kp_eq "$1-uname" "$(uname -s)" Linux; }
check_patched() {
	kp_eq "$1-uname" "$(uname -s)" Linux-kpatched
	kp_eq "$1-release" "$(uname -r)" "$(cat /proc/sys/kernel/osrelease)"
}
kps_cycle syscall
