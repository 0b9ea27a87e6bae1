# 03 a new global variable (kpatch_loadavg_reads, in the patch module) counts reads of
# /proc/loadavg: each read shows the next value.
. /lib/kp-suite.sh
check_original() {
	kp_not_contains "$1-text" /proc/loadavg "kpatch_reads="
	kp_eq "$1-fields" "$(awk '{ print NF }' /proc/loadavg)" 5
}
reads() { sed -n 's/.*kpatch_reads=\([0-9]*\).*/\1/p' /proc/loadavg; }
check_patched() {
	a=$(reads); b=$(reads); c=$(reads)
	kp_check "$1-counter" test -n "$a" -a "$b" = "$((a + 1))" -a "$c" = "$((a + 2))"
	kp_info "kpatch_reads: $a $b $c"
}
kps_cycle new-global
