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
STEP_MARK=''	# the log line after which a failure's excerpt starts (log_mark)
DEBUG=0

# The helpers below run tens of times a build: they set variables rather than
# print into a command substitution, as each $(...) is a fork (6-8 ms here).
# ELAPSED: the seconds since the start, one decimal
elapsed_set() {
	local us=$(( ${EPOCHREALTIME/./} - T_START ))
	printf -v ELAPSED '%d.%d' $(( us / 1000000 )) $(( (us / 100000) % 10 ))
}
elapsed() { elapsed_set; echo "$ELAPSED"; }
# a line in the log after which a failure shows the log's lines (fail)
log_mark() { [ -z "$LOG" ] || { STEP_MARK=$1; echo "$1" >> "$LOG"; }; }
step() {
	STEP=$1
	report_step "$1"
	elapsed_set
	printf '%s: [%5ss] %s\n' "$TOOLNAME" "$ELAPSED" "$1"
	log_mark "=== [${ELAPSED}s] $1"
}
# step_quiet: start a step without printing it (step_show prints its outcome)
step_quiet() {
	STEP=$1
	report_step "$1"
	elapsed_set
	log_mark "=== [${ELAPSED}s] $1"
}
step_show() { elapsed_set; printf '%s: [%5ss] %s\n' "$TOOLNAME" "$ELAPSED" "$1"; [ -z "$LOG" ] || echo "$1" >> "$LOG"; }
info() { elapsed_set; printf '%s: [%5ss]   %s\n' "$TOOLNAME" "$ELAPSED" "$*"; [ -z "$LOG" ] || echo "$*" >> "$LOG"; }
warn() { echo "$TOOLNAME: warning: $*" >&2; report_fact warning "$*"; [ -z "$LOG" ] || echo "warning: $*" >> "$LOG"; }
# die: one-line error, no log excerpt (checks before building)
die() {
	[ ! -e "$ERR_MARK" ] || exit 1	# (follows from an error a subshell reported)
	err_mark
	echo "$TOOLNAME: error: $*" >&2
	report_error "$*"
	[ -z "$LOG" ] || echo "error: $*" >> "$LOG"
	[ -z "$LOG" ] || [ ! -s "$LOG" ] || echo "$TOOLNAME: log: $LOG" >&2
	exit 1
}
# refuse OBJECT SYMBOL REASON: kpatch-build's own refusal of the patch, one line as
# the differ's (exit 2, a refusal in the report)
refuse() {
	[ ! -e "$ERR_MARK" ] || exit 2
	err_mark
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
	[ ! -e "$ERR_MARK" ] || exit 1
	err_mark
	echo "$TOOLNAME: error: ${STEP:-setup}: $msg" >&2
	report_error "$msg"
	if [ -n "$LOG" ] && [ -f "$LOG" ]; then
		echo "error: ${STEP:-setup}: $msg" >> "$LOG"
		n=$(awk -v m="$STEP_MARK" 'm != "" && $0 == m { at = NR } END { print NR - at }' "$LOG")
		[ "$n" -le 25 ] || n=25
		if [ "$n" -gt 1 ]; then
			echo "---- last lines of the log ----" >&2
			tail -n "$n" "$LOG" | sed '$d' >&2
			echo "-------------------------------" >&2
		fi
		echo "$TOOLNAME: log: $LOG" >&2
	fi
	exit 1
}
# run a command with its output in the log
logrun() { elapsed_set; echo "+ [${ELAPSED}s] $*" >> "$LOG"; "$@" >> "$LOG" 2>&1; }

# ---------------------------------------------------------------- strict mode
# The driver runs under set -Eeuo pipefail and inherit_errexit: a command whose
# failure nothing tests stops the build, also inside functions, command and
# process substitutions and pipelines. on_err (the ERR trap) prints one line, the
# step, file:line and the command (for a pipeline, the stage that failed), and
# exits 1 through the EXIT trap's cleanup. A failure that only a subshell sees (a
# process substitution "< <(...)", a background job) is passed to the main shell
# with SIGUSR1. The first error of a run is the one shown: die, fail, refuse and
# on_err leave the mark ERR_MARK (shared with every subshell of the run), and a
# failure that follows from a reported one (the "x=$(...)" around a failed
# command substitution) exits quietly.
ERR_MARK=${TMPDIR:-/tmp}/kpatch-build-err.$$
err_mark() { : > "$ERR_MARK" 2>/dev/null || true; }
# (an rm only when there is one: most runs end without an error)
err_mark_clear() { [ ! -e "$ERR_MARK" ] && [ ! -L "$ERR_MARK" ] || rm -f "$ERR_MARK"; }
# the stage I (0-based) of the last N stages of the pipeline in source line $1;
# fails when the line does not split into N stages
pipe_stage() {
	local s=$1 n=$2 i=$3 q='' c cur='' k
	local -a parts=()
	for (( k = 0; k < ${#s}; k++ )); do
		c=${s:k:1}
		if [ -n "$q" ]; then
			[ "$c" != "$q" ] || q=''
			cur+=$c; continue
		fi
		case $c in
		\\) cur+=${s:k:2}; k=$(( k + 1 )); continue ;;
		\'|\") q=$c ;;
		'|')	if [ "${s:k+1:1}" = '|' ]; then cur+='||'; k=$(( k + 1 )); continue; fi
			parts+=("$cur"); cur=''; continue ;;
		esac
		cur+=$c
	done
	parts+=("$cur")
	[ ${#parts[@]} -ge "$n" ] || return 1
	cur=${parts[${#parts[@]} - n + i]}
	# (the pipeline inside "x=$(a | b)" or "< <(a | b)")
	# shellcheck disable=SC2016  # (the characters themselves)
	local cs='$(' ps='<(' op='(' cp=')'
	if [ "$i" = 0 ]; then cur=${cur##*"$cs"}; cur=${cur##*"$ps"}; fi
	if [ $(( i + 1 )) = "$n" ]; then
		c=${cur//[^"$op"]/} k=${cur//[^"$cp"]/}
		[ ${#k} -le ${#c} ] || cur=${cur%"$cp"*}
	fi
	cur=${cur#"${cur%%[![:space:]]*}"}; cur=${cur%"${cur##*[![:space:]]}"}
	[ -n "$cur" ] && printf '%s' "$cur"
}
# the line of source $1 that has the failed command $3 (a pipeline of $4 stages,
# $3 its last one): line $2, except in a process substitution, where bash gives
# the line of the function's start: then the first line after it that has it
err_locate() {
	local src=$1 line=$2 cmd=$3 n=$4 l=$2 text
	while IFS= read -r text; do
		if [ "$n" -gt 1 ]; then
			[ "$(pipe_stage "$text" "$n" $(( n - 1 )))" != "$cmd" ] || { echo "$l"; return; }
		else
			[[ $text != *"$cmd"* ]] || { echo "$l"; return; }
		fi
		[ "$l" = "$line" ] || [[ $text != "}"* ]] || break
		l=$(( l + 1 ))
	done < <(sed -n "$line,\$p" "$src" 2>/dev/null)
	echo "$line"
}
# on_err STATUS COMMAND PIPESTATUS...: the ERR trap
on_err() {
	local rc=$1 cmd=$2 src=${BASH_SOURCE[1]:-$0} line=${BASH_LINENO[0]:-0} where msg i=-1 k st
	shift 2
	local -a ps=("$@")
	trap - ERR
	set +eu
	if [ ! -e "$ERR_MARK" ]; then
		err_mark
		line=$(err_locate "$src" "$line" "$cmd" "${#ps[@]}")
		if [ ${#ps[@]} -gt 1 ]; then
			# the stage that failed: the first non-zero status that is not
			# SIGPIPE's (a stage after it that stopped reading), else the last one
			for k in "${!ps[@]}"; do
				[ "${ps[k]}" = 0 ] || [ "${ps[k]}" = 141 ] || { i=$k; break; }
			done
			if [ "$i" -lt 0 ]; then
				for k in "${!ps[@]}"; do [ "${ps[k]}" = 0 ] || i=$k; done
			fi
			if [ "$i" -ge 0 ]; then
				rc=${ps[i]}
				st=$(pipe_stage "$(sed -n "${line}p" "$src" 2>/dev/null)" "${#ps[@]}" "$i") && cmd=$st
				cmd="$cmd (stage $(( i + 1 )) of a pipeline of ${#ps[@]})"
			fi
		fi
		case $src in "$SELF_DIR"/*) where=${src#"$SELF_DIR"/} ;; *) where=${src##*/} ;; esac
		msg="$where:$line: command failed (exit $rc): $cmd"
		echo "$TOOLNAME: error: ${STEP:-setup}: $msg" >&2
		report_error "$msg"
		[ -z "$LOG" ] || [ ! -f "$LOG" ] || echo "error: ${STEP:-setup}: $msg" >> "$LOG"
	fi
	# a subshell's failure stops the main shell too (see above)
	[ "$BASHPID" = $$ ] || kill -USR1 $$ 2>/dev/null
	exit 1
}
on_err_signal() { exit 1; }	# (SIGUSR1: a subshell's on_err)

# ---------------------------------------------------------------- cleanup
SCRATCH=
KEEP_SCRATCH=0
PIDS=()		# background process groups to stop on exit
CPIDS=()	# the compiles of the patched objects
GPIDS=()	# the replayed generation steps (generated.sh)
BUILD_PID=
cleanup() {
	local rc=$?
	# the cleanup itself is not interruptible: it must always restore order, and
	# nothing it does stops it half-way (it ends with exit $rc)
	trap '' INT TERM HUP USR1
	trap - EXIT ERR
	set +eu
	# stop what we started (each in its own process group: setsid)
	local pid
	local mypg
	# (the fifth field of /proc/$$/stat, as cut -d' ' -f5 gives it, by builtins)
	mypg=
	if { read -r mypg < /proc/$$/stat; } 2>/dev/null; then
		local i
		for i in 1 2 3 4; do mypg=${mypg#* }; done
		mypg=${mypg%% *}
	fi
	[ -z "${PROGRESS_PID:-}" ] || kill "$PROGRESS_PID" 2>/dev/null
	for pid in ${BUILD_PID:-} "${PIDS[@]}" "${GPIDS[@]}"; do
		[ -n "$pid" ] && [ "$pid" != "${mypg:-}" ] && [ "$pid" != $$ ] || continue
		kill -TERM -- "-$pid" 2>/dev/null
	done
	wait 2>/dev/null
	report_write "$rc"	# (reads the differ's outputs in the scratch directory)
	if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
		if [ $KEEP_SCRATCH = 1 ]; then
			echo "$TOOLNAME: scratch directory kept: $SCRATCH (rerun from a step of it: --from STEP --scratch $SCRATCH)" >&2
		else
			rm -rf "$SCRATCH"
		fi
	fi
	err_mark_clear
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
	if [ -n "$FROM_STEP" ]; then
		SCRATCH=$RESUME_DIR	# (resume_check chose and checked it)
	else
		SCRATCH=$(mktemp -d "$KB_CACHE/tmp/$NAME.XXXXXX") || die "cannot create a scratch directory in $KB_CACHE/tmp"
		mkdir -p "$SCRATCH/.state" && run_identity > "$SCRATCH/.state/run" ||
			die "cannot write $SCRATCH/.state/run"
	fi
	# (a kept directory is not a stale one: the clean-up below leaves it)
	[ "$KEEP_SCRATCH" = 0 ] || : > "$SCRATCH/.kept"
	LOG=$KB_CACHE/logs/$NAME-$(date +%Y%m%d-%H%M%S)-$$.log
	: > "$LOG" || die "cannot write the log $LOG"
	# keep the 300 newest logs, none older than 30 days
	# (best effort: a concurrent run may be removing the same files)
	find "$KB_CACHE/logs" -name '*.log' -mtime +30 -delete 2>/dev/null || true
	# shellcheck disable=SC2012  # (our names: NAME-date-pid.log, NAME is [A-Za-z0-9_-])
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
	# clean up stale scratch directories of runs that were killed (older than a
	# day), not the ones kept for --from
	find "$KB_CACHE/tmp" -mindepth 1 -maxdepth 1 -mtime +1 ! -exec test -e '{}/.kept' ';' \
		-exec rm -rf {} + 2>/dev/null || true
}
