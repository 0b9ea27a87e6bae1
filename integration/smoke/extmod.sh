# Guest check: an out-of-tree module built against the cached kbuild tree loads,
# works and unloads.
kp_insmod load kptest_smoke || kp_abort
kp_contains proc /proc/kptest_smoke "kptest smoke original"
kp_rmmod unload kptest_smoke
kp_check gone test ! -e /proc/kptest_smoke
