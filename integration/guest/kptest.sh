# kptest.sh: helpers for guest-side checks (busybox sh). Sourced by /init for every test
# script; KP_NAME is the test's name. Markers go to /dev/kmsg so that they are whole
# lines on the serial console, never interleaved with kernel messages (boot with
# printk.devkmsg=on so they are not rate-limited). The protocol (one line each):
#   KPTEST-BOOT uptime=S kernel=R      /init started
#   KPTEST-BEGIN name                  a test script starts
#   KPTEST-PASS name check             a check passed
#   KPTEST-FAIL name check: detail     a check failed
#   KPTEST-INFO name text              anything worth keeping in the log
#   KPTEST-DONE name uptime=S          the test script finished
#   KPTEST-END pass=N fail=M uptime=S  all scripts ran; the guest reboots (= powers off)

kp_marker() {
	# one line, no control characters, bounded length
	_kp_line=$(printf '%s' "$*" | tr '\n\r\t' '   ' | cut -c1-900)
	if [ -w /dev/kmsg ]; then
		echo "$_kp_line" > /dev/kmsg
	else
		echo "$_kp_line"
	fi
}

kp_info() { kp_marker "KPTEST-INFO $KP_NAME $*"; }
kp_pass() { kp_marker "KPTEST-PASS $KP_NAME $1"; echo "$KP_NAME $1" >> /tmp/kp.pass; }
# kp_fail CHECK DETAIL...
kp_fail() {
	_kp_c=$1; shift
	kp_marker "KPTEST-FAIL $KP_NAME $_kp_c: $*"
	echo "$KP_NAME $_kp_c" >> /tmp/kp.fail
	return 1
}
# kp_abort: stop this test script (after a failed check whose followers make no sense)
kp_abort() { kp_info "aborted after a failed check"; exit 0; }

# kp_check CHECK CMD [ARGS...]: pass when CMD exits 0; the detail is CMD's output.
kp_check() {
	_kp_c=$1; shift
	if _kp_out=$("$@" 2>&1); then
		kp_pass "$_kp_c"
	else
		kp_fail "$_kp_c" "'$*' failed (status $?): $_kp_out"
	fi
}

# kp_require CHECK CMD...: like kp_check, but stops the test script on failure.
kp_require() { kp_check "$@" || kp_abort; }

# kp_contains CHECK FILE TEXT / kp_not_contains CHECK FILE TEXT
kp_contains() {
	if grep -qF -- "$3" "$2" 2>/dev/null; then kp_pass "$1"
	else kp_fail "$1" "$2 does not contain '$3'; it has: $(head -c 300 "$2" 2>&1)"; fi
}
kp_not_contains() {
	if [ ! -r "$2" ]; then kp_fail "$1" "$2 is not readable"
	elif grep -qF -- "$3" "$2"; then kp_fail "$1" "$2 contains '$3': $(head -c 300 "$2")"
	else kp_pass "$1"; fi
}

# kp_eq CHECK ACTUAL EXPECTED
kp_eq() {
	if [ "$2" = "$3" ]; then kp_pass "$1"
	else kp_fail "$1" "got '$2', expected '$3'"; fi
}

# kp_wait_value CHECK FILE VALUE [SECONDS=15]: poll until FILE's content equals VALUE.
kp_wait_value() {
	_kp_n=$(( ${4:-15} * 10 ))
	while [ $_kp_n -gt 0 ]; do
		[ "$(cat "$2" 2>/dev/null)" = "$3" ] && { kp_pass "$1"; return 0; }
		sleep 0.1
		_kp_n=$((_kp_n - 1))
	done
	kp_fail "$1" "$2 is '$(cat "$2" 2>&1)' after ${4:-15}s, expected '$3'"
}

# kp_wait_gone CHECK PATH [SECONDS=15]: poll until PATH no longer exists.
kp_wait_gone() {
	_kp_n=$(( ${3:-15} * 10 ))
	while [ $_kp_n -gt 0 ]; do
		[ -e "$2" ] || { kp_pass "$1"; return 0; }
		sleep 0.1
		_kp_n=$((_kp_n - 1))
	done
	kp_fail "$1" "$2 still exists after ${3:-15}s"
}

# kp_insmod CHECK MODULE[.ko] [PARAMS...]: load /modules/MODULE.ko
kp_insmod() {
	_kp_c=$1; _kp_m=$2; shift 2
	case $_kp_m in /*) ;; *) _kp_m=$KP_MODDIR/${_kp_m%.ko}.ko ;; esac
	kp_check "$_kp_c" insmod "$_kp_m" "$@"
}

# kp_rmmod CHECK MODULE [SECONDS=15]: unload, retrying while the module is busy
# (a disabled livepatch module is released once its transition completes).
kp_rmmod() {
	_kp_m=$(basename "${2%.ko}" | tr - _)
	_kp_n=$(( ${3:-15} * 10 ))
	while [ $_kp_n -gt 0 ]; do
		_kp_out=$(rmmod "$_kp_m" 2>&1) && { kp_pass "$1"; return 0; }
		sleep 0.1
		_kp_n=$((_kp_n - 1))
	done
	kp_fail "$1" "rmmod $_kp_m: $_kp_out"
}

# livepatch sysfs helpers; NAME is the patch module's name with '-' as '_'
kp_lp_dir() { echo "/sys/kernel/livepatch/$(echo "$1" | tr - _)"; }
# kp_lp_wait_transition CHECK NAME [SECONDS=15]: transition back to 0
kp_lp_wait_transition() { kp_wait_value "$1" "$(kp_lp_dir "$2")/transition" 0 "${3:-15}"; }
# kp_lp_disable CHECK NAME [SECONDS=15]: write 0 to enabled, wait for the sysfs dir to vanish
kp_lp_disable() {
	_kp_d=$(kp_lp_dir "$2")
	if _kp_out=$(echo 0 2>&1 > "$_kp_d/enabled"); then
		kp_wait_gone "$1" "$_kp_d" "${3:-15}"
	else
		kp_fail "$1" "echo 0 > $_kp_d/enabled: $_kp_out"
	fi
}

# kp_sleeper: `sleep 1000` in the background ($S), returned once it is asleep
# (state S: in nanosleep, the only wait a sleep has), at most 10 s: a task
# that keeps a transition pending must be in the function first, and a fixed
# half second was not always enough on a loaded TCG host
kp_sleeper() {
	sleep 1000 & S=$!
	_kp_n=100
	while [ $_kp_n -gt 0 ]; do
		[ "$(cut -d' ' -f3 "/proc/$S/stat" 2>/dev/null)" = S ] && return 0
		sleep 0.1
		_kp_n=$((_kp_n - 1))
	done
	kp_info "sleeper $S not asleep after 10 s"
}
