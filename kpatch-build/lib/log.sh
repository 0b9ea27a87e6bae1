# kpatch-build/lib/log.sh: output, logging, cleanup (sourced by kpatch-build).
#
# Every other part of kpatch-build reports through these helpers: one line per step
# with the elapsed time on the terminal, the full detail in the run's log, and on
# failure the failing step with the last lines of its log. They live apart from the
# build steps because every step uses them and because the exit path (cleanup, on
# EXIT/INT/TERM/HUP) must restore order whatever step was running: stop the
# background process groups, then remove the scratch directory. log_setup creates
# that scratch directory and the log once the inputs are known to be good.

# ---------------------------------------------------------------- output, logging
T_START=${KPB_T_START:-${EPOCHREALTIME/./}}	# (kept when the run starts over)
LOG=
STEP=
STEP_LINE=0
DEBUG=0

elapsed() {
	local now=${EPOCHREALTIME/./}
	local us=$(( now - T_START ))
	printf '%d.%d' $(( us / 1000000 )) $(( (us / 100000) % 10 ))
}
step() {
	STEP=$1
	report_step "$1"
	printf '%s: [%5ss] %s\n' "$TOOLNAME" "$(elapsed)" "$1"
	if [ -n "$LOG" ]; then
		printf '=== [%ss] %s\n' "$(elapsed)" "$1" >> "$LOG"
		STEP_LINE=$(wc -l < "$LOG")
	fi
}
# step_quiet: start a step without printing it (step_show prints its outcome)
step_quiet() {
	STEP=$1
	report_step "$1"
	if [ -n "$LOG" ]; then
		printf '=== [%ss] %s\n' "$(elapsed)" "$1" >> "$LOG"
		STEP_LINE=$(wc -l < "$LOG")
	fi
}
step_show() { printf '%s: [%5ss] %s\n' "$TOOLNAME" "$(elapsed)" "$1"; [ -z "$LOG" ] || echo "$1" >> "$LOG"; }
info() { printf '%s: [%5ss]   %s\n' "$TOOLNAME" "$(elapsed)" "$*"; [ -z "$LOG" ] || echo "$*" >> "$LOG"; }
warn() { echo "$TOOLNAME: warning: $*" >&2; report_fact warning "$*"; [ -z "$LOG" ] || echo "warning: $*" >> "$LOG"; }
# die: one-line error, no log excerpt (checks before building)
die() {
	echo "$TOOLNAME: error: $*" >&2
	report_error "$*"
	[ -z "$LOG" ] || echo "error: $*" >> "$LOG"
	[ -z "$LOG" ] || [ ! -s "$LOG" ] || echo "$TOOLNAME: log: $LOG" >&2
	exit 1
}
# refuse OBJECT SYMBOL REASON: kpatch-build's own refusal of the patch, one line as
# the differ's (exit 2, a refusal in the report)
refuse() {
	echo "$TOOLNAME: error: $1 cannot be live-patched: $2: $3" >&2
	report_fact refusal "$1" "$2" "$3"
	report_error "$1 cannot be live-patched: $2: $3"
	[ -z "$LOG" ] || echo "error: ${STEP:-setup}: $1: $2: $3" >> "$LOG"
	[ -z "$LOG" ] || echo "$TOOLNAME: log: $LOG" >&2
	exit 2
}
# fail: a step failed; show the step, the last lines of its log, the log path
fail() {
	local msg=$1 n
	echo "$TOOLNAME: error: ${STEP:-setup}: $msg" >&2
	report_error "$msg"
	if [ -n "$LOG" ] && [ -f "$LOG" ]; then
		echo "error: ${STEP:-setup}: $msg" >> "$LOG"
		n=$(( $(wc -l < "$LOG") - STEP_LINE ))
		[ $n -gt 25 ] && n=25
		if [ $n -gt 1 ]; then
			echo "---- last lines of the log ----" >&2
			tail -n "$n" "$LOG" | sed '$d' >&2
			echo "-------------------------------" >&2
		fi
		echo "$TOOLNAME: log: $LOG" >&2
	fi
	exit 1
}
# run a command with its output in the log
logrun() { echo "+ [$(elapsed)s] $*" >> "$LOG"; "$@" >> "$LOG" 2>&1; }

# ---------------------------------------------------------------- cleanup
SCRATCH=
KEEP_SCRATCH=0
PIDS=()		# background process groups to stop on exit
CPIDS=()	# the compiles of the patched objects
GPIDS=()	# the replayed generation steps (generated.sh)
BUILD_PID=
cleanup() {
	local rc=$?
	# the cleanup itself is not interruptible: it must always restore order
	trap '' INT TERM HUP
	trap - EXIT
	# stop what we started (each in its own process group: setsid)
	local pid
	local mypg
	mypg=$(cut -d' ' -f5 /proc/$$/stat 2>/dev/null)
	[ -z "${PROGRESS_PID:-}" ] || kill "$PROGRESS_PID" 2>/dev/null
	for pid in ${BUILD_PID:-} "${PIDS[@]}" "${GPIDS[@]}"; do
		[ -n "$pid" ] && [ "$pid" != "${mypg:-}" ] && [ "$pid" != $$ ] || continue
		kill -TERM -- "-$pid" 2>/dev/null
	done
	wait 2>/dev/null
	report_write "$rc"	# (reads the differ's outputs in the scratch directory)
	if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
		if [ $KEEP_SCRATCH = 1 ]; then
			echo "$TOOLNAME: scratch directory kept: $SCRATCH" >&2
		else
			rm -rf "$SCRATCH"
		fi
	fi
	exit $rc
}
on_signal() {
	echo "$TOOLNAME: interrupted" >&2
	[ -z "$LOG" ] || echo "interrupted by signal" >> "$LOG"
	exit 130
}

# ---------------------------------------------------------------- scratch, log
log_setup() {
	mkdir -p "$KB_CACHE/logs" "$KB_CACHE/tmp" || die "cannot create the cache directory $KB_CACHE"
	SCRATCH=$(mktemp -d "$KB_CACHE/tmp/$NAME.XXXXXX") || die "cannot create a scratch directory in $KB_CACHE/tmp"
	LOG=$KB_CACHE/logs/$NAME-$(date +%Y%m%d-%H%M%S)-$$.log
	: > "$LOG" || die "cannot write the log $LOG"
	# keep the 300 newest logs, none older than 30 days
	find "$KB_CACHE/logs" -name '*.log' -mtime +30 -delete 2>/dev/null
	ls -1t "$KB_CACHE/logs/" 2>/dev/null | tail -n +301 | while read -r f; do rm -f "$KB_CACHE/logs/$f"; done
	{
		echo "kpatch-build $KPB_VERSION: ${ARGV[*]}"
		echo "name=$NAME source=$SRCDIR config=$CONFIG vmlinux=$VMLINUX kbuild=$KOBJ cc='$CC_CMD' ($CC_FIRST)"
		echo "patches: ${PATCHES[*]}"
		echo "changed files: ${CHANGED_FILES[*]}"
	} >> "$LOG"
	if [ $DEBUG = 1 ]; then
		exec {XTRACE_FD}>>"$LOG"
		BASH_XTRACEFD=$XTRACE_FD
		set -x
	fi
	# clean up stale scratch directories of runs that were killed (older than a day)
	find "$KB_CACHE/tmp" -mindepth 1 -maxdepth 1 -mtime +1 -exec rm -rf {} + 2>/dev/null
}
