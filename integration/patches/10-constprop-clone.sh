# 10 a function GCC clones: cpu_show_common() exists in the kernel only as
# cpu_show_common.constprop.0; the patch changes its "Not affected" text, seen in
# every /sys/devices/system/cpu/vulnerabilities/* file of a bug the CPU lacks.
. /lib/kp-suite.sh
V=/sys/devices/system/cpu/vulnerabilities
n=$(grep -l 'Not affected' $V/* | wc -l)
kp_info "$n vulnerabilities files read 'Not affected'"
kp_check setup-files test "$n" -gt 0
check_original() {
	kp_eq "$1-text" "$(grep -l 'Not affected$' $V/* | wc -l)" "$n"
	kp_eq "$1-no-patch" "$(grep -l 'kpatched' $V/* | wc -l)" 0
}
check_patched() {
	k=$(grep -l 'Not affected (kpatched)$' $V/* | wc -l)
	kp_info "$k of $n 'Not affected' files come from cpu_show_common: $(grep -l 'Not affected (kpatched)$' $V/* | xargs -n1 basename | tr '\n' ' ')"
	kp_check "$1-text" test "$k" -gt 0
	kp_eq "$1-same-files" "$(grep -l 'Not affected' $V/* | wc -l)" "$n"
}
kps_cycle constprop-clone
