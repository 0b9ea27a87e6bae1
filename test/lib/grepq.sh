# shellcheck shell=bash
# grepq [GREP OPTIONS] PATTERN: grep -q for the end of a pipeline, reading
# all of its input. Under pipefail, `readelf -s X | grep -q sym` fails when
# grep finds sym and exits before readelf has written its last buffer:
# readelf dies of SIGPIPE and a passing check is reported as failed.
grepq() {
	local rc=0

	grep -q "$@" || rc=$?
	cat > /dev/null
	return "$rc"
}
