# Harness self-test: one check passes, one fails on purpose. smoke.sh expects run-guest.sh
# to exit 1 and name "selftest-fail deliberate".
kp_check sane test -d /proc/self
kp_eq deliberate "original" "patched"
