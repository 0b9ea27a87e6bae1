# 13 the seed's hand-written KLP_MODULE_RELOC sample through klp-convert: its
# cmdline_proc_show replacement reads the unexported saved_command_line through a
# .klp.rela.vmlinux relocation that the module loader resolves.
. /lib/kp-suite.sh
ORIG=$(cat /proc/cmdline)
check_original() { kp_eq "$1-cmdline" "$(cat /proc/cmdline)" "$ORIG"; }
check_patched() { kp_eq "$1-cmdline" "$(cat /proc/cmdline)" "$ORIG livepatch=1"; }
kps_cycle sample
