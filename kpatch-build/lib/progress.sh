# kpatch-build/lib/progress.sh: progress of the original build while it runs
# (sourced by kpatch-build; build_original starts and stops it; so do the
# header filter's preprocessing and the patched build, with their own counts).
#
# The original build is minutes of kbuild output that goes to its own log, so a
# watcher in the background reports: objects compiled (kbuild writes a .<obj>.cmd
# file after each successful compile, also for a resumed build) of the expected
# total, elapsed time, and an estimate of the time left once the rate is known.
# The expected total is the booted kernel's own build tree, when -k/-v name a full
# one (same source and config, so the same objects), else the object count of an
# earlier original build of the same kernel version. On a terminal the line is
# updated in place every 2 s; otherwise a line every KPATCH_PROGRESS_SECONDS (10).

PROGRESS_PID=

# (PROGRESS_WHAT: what the line says is running, "original build" by default.
# PROGRESS_CMDS: a file listing the .cmd files of the objects being built, a
# targeted build's, relative to $1; its line count is the total.
# PROGRESS_DONE: a file holding the count done, which the builder keeps). The objects not built yet have no .cmd file
# (ls and so xargs fail), and find may meet files kbuild is replacing: counted
# are the ones there.
progress_count() {
	if [ -n "${PROGRESS_DONE:-}" ]; then
		# (a count the builder keeps: a patched build's compiles that ended)
		cat "$PROGRESS_DONE" 2>/dev/null || echo 0
	elif [ -n "${PROGRESS_CMDS:-}" ]; then
		(cd "$1" && { xargs -a "$PROGRESS_CMDS" ls -d 2>/dev/null || true; } | wc -l)
	else
		{ find "$1" -name '.*.o.cmd' -type f 2>/dev/null || true; } | wc -l
	fi
}
progress_total() {
	local n f
	[ -z "${PROGRESS_CMDS:-}" ] || { wc -l < "$PROGRESS_CMDS"; return; }
	if [ -f "$KOBJ/vmlinux" ] && [ "$KOBJ" != "$OBJ" ]; then
		# (without the objects of the boot image, which vmlinux and modules do not make)
		n=$({ find "$KOBJ" -path "$KOBJ/arch/*/boot" -prune -o -name '.*.o.cmd' -type f -print 2>/dev/null || true; } | wc -l)
		[ "$n" -gt 0 ] && { echo "$n"; return; }
	fi
	# (newest first; kver: the source's version, set by orig_cache_key)
	while IFS= read -r f; do
		grep -qx "kernelversion=${kver:-}" "$f" || continue
		n=$(sed -n 's/^objects=//p' "$f")
		[ -n "$n" ] && { echo "$n"; return; }
	done < <({ find "$KB_CACHE/orig" -mindepth 2 -maxdepth 2 -name info -printf '%T@ %p\n' 2>/dev/null || true; } | sort -rn | cut -d' ' -f2-)	# (none yet: no total)
	echo 0
}
progress_time() { printf '%dm%02ds' $(( $1 / 60 )) $(( $1 % 60 )); }
# one progress line: DONE TOTAL START-COUNT SECONDS
progress_line() {
	local done=$1 total=$2 start=$3 s=$4 line pct
	if [ "$total" -gt 0 ]; then
		pct=$(( done * 100 / total )); [ $pct -le 99 ] || pct=99
		line="${PROGRESS_WHAT:-original build}: $done/$total objects ($pct%), $(progress_time "$s")"
		# the rate of this run's compiles, once there are enough of them
		if [ "$s" -ge 5 ] && [ $(( done - start )) -ge $(( total / 50 > 3 ? total / 50 : 3 )) ]; then
			if [ "$done" -lt "$total" ]; then
				line+=", about $(progress_time $(( (total - done) * s / (done - start) ))) left"
			else
				[ -n "${PROGRESS_WHAT:-}" ] || line+=", linking"
			fi
		fi
	else
		line="${PROGRESS_WHAT:-original build}: $done objects, $(progress_time "$s") (total not known yet)"
	fi
	echo "$line"
}
progress_watch() {	# BUILD-PID: until it ends (or this run does)
	local pid=$1 tty=0 every=${KPATCH_PROGRESS_SECONDS:-10} total start t0=${EPOCHREALTIME/./} last=-1 ms s n line
	[ -t 1 ] && { tty=1; every=2; }
	[[ $every =~ ^[1-9][0-9]*$ ]] || every=10
	total=$(progress_total)
	start=$(progress_count "$OBJ")
	while sleep 1; do
		if ! kill -0 "$pid" 2>/dev/null || ! kill -0 $$ 2>/dev/null; then break; fi
		# (microseconds: whole seconds could put two lines 1 s apart)
		ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 )); s=$(( ms / 1000 ))
		[ "$last" -lt 0 ] || [ $(( ms - last )) -ge $(( every * 1000 - 100 )) ] || continue
		last=$ms
		# (an original build's make waits for the lock before it starts a child)
		if [ -z "${PROGRESS_WHAT:-}" ] && [ -z "$(pgrep -P "$pid" 2>/dev/null)" ]; then
			line="original build: waiting for another kernel build (lock $KPATCH_CACHE/.kernel-build.lock), $(progress_time "$s")"
		else
			n=$(progress_count "$OBJ")
			line=$(progress_line "$n" "$total" "$start" "$s")
		fi
		if [ $tty = 1 ]; then
			printf '\r%s: [%5ss]   %s\033[K' "$TOOLNAME" "$(elapsed)" "$line"
		else
			printf '%s: [%5ss]   %s\n' "$TOOLNAME" "$(elapsed)" "$line"
		fi
	done
}
# (the watcher only reports: nothing failing in it may fail the build. Without
# the ERR trap, which a subshell's failure turns into the whole run's (on_err),
# a count cut short by progress_stop, its pipe's reader killed, ended a good
# build with "wc -l ... exit 141")
progress_start() { ( trap - ERR; set +e; progress_watch "$1" ) & PROGRESS_PID=$!; }
progress_stop() {
	[ -n "$PROGRESS_PID" ] || return 0
	# (the watcher may have ended by itself; killed, it says 143)
	kill "$PROGRESS_PID" 2>/dev/null || true; wait "$PROGRESS_PID" 2>/dev/null || true
	PROGRESS_PID=
	[ ! -t 1 ] || printf '\r\033[K'
}
