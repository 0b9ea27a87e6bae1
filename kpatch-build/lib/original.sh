# kpatch-build/lib/original.sh: cache key and cached original kernel build
# (sourced by kpatch-build).
#
# The original objects are the kernel built once with -ffunction-sections
# -fdata-sections, out of tree, and kept in $KPATCH_CACHE/kpatch-build/orig/<key>/
# (key: source, version, Makefile, localversion, targets, compiler, config). This is
# the expensive part of kpatch-build (minutes, against about a second for the rest),
# so its rules are kept together: the key, the flock protocol (shared while a run
# reads the entry, exclusive while building), resuming an interrupted build, the
# object index, and the in-place-edit check that, run in the background, may make
# the run start over with a refreshed cache (orig_recheck_newer).

# ---------------------------------------------------------------- cache key
orig_cache_key() {
	kver=$(awk -F' *= *' '/^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION) *=/ { v[$1] = $2 }
		END { printf "%s.%s.%s%s", v["VERSION"], v["PATCHLEVEL"], v["SUBLEVEL"], v["EXTRAVERSION"] }' "$SRCDIR/Makefile")
	KEY_RECIPE=1
	CACHE_KEY=$({
		echo "recipe $KEY_RECIPE"
		echo "source $SRCDIR $kver $(stat -c '%s %Y' "$SRCDIR/Makefile")"
		# (no localversion file is the usual case)
		# shellcheck disable=SC2012  # (as the key was made: a new one rebuilds the cache)
		ls -1 "$SRCDIR" | { grep '^localversion' || true; } | while read -r f; do echo "$f $(cat "$SRCDIR/$f")"; done
		echo "targets ${TARGETS[*]}"
		# the compiler's identity, not its name (gcc, gcc-12, cc, distcc's
		# x86_64-linux-gnu-gcc): "gcc " + it is the line plain gcc gave before
		echo "gcc $CC_IDENT"
		sha256sum < "$CONFIG"
	} | sha256sum | cut -c1-16)
	ORIG=$KB_CACHE/orig/$CACHE_KEY
	OBJ=$ORIG/obj
	IDX=$ORIG	# (the object index find_affected reads: the whole build's)
	MARKER=$ORIG/.complete
	# In the background: was a C source or header of the tree changed in place after
	# the cached original build? The answer is awaited only after the patched compiles
	# (it takes a walk over the whole tree); if yes, the run starts over with the check
	# done first (KPB_SYNC_CHECK=1), which refreshes the cache incrementally.
	if [ -f "$MARKER" ] && [ -z "${KPB_SYNC_CHECK:-}" ]; then
		find "$SRCDIR" -newer "$MARKER" -type f \( -name '*.c' -o -name '*.h' \) -print -quit \
			> "$SCRATCH/newer" 2>/dev/null &
		NEWER_PID=$!
	fi
}

# ---------------------------------------------------------------- original build (cached)
build_original() {
	local blog=$ORIG/build.log t0=$SECONDS started
	# (called as "build_original || ...": errexit does not apply here, every
	# failure is returned explicitly)
	mkdir -p "$OBJ" || return 1
	if [ -f "$OBJ/.config" ] && [ -z "${REFRESH:-}" ]; then
		info "resuming an interrupted build in $OBJ (kbuild rebuilds what is incomplete)"
	fi
	{
		echo "source=$SRCDIR"
		echo "kernelversion=$kver"
		echo "config=$CONFIG"
		echo "config_sha256=$(sha256sum < "$CONFIG" | cut -d' ' -f1)"
		echo "cc=$CC_CMD"
		echo "cc_version=$CC_FIRST"
		echo "targets=${TARGETS[*]}"
	} > "$ORIG/info" || return 1
	cp "$CONFIG" "$OBJ/.config" || return 1
	echo "build log: $blog" >> "$LOG"
	local mk=(make -C "$SRCDIR" O="$OBJ" ${KB_MAKE[@]+"${KB_MAKE[@]}"} ${CC:+CC="$CC_CMD"} ${KERNELRELEASE_ARG:+"$KERNELRELEASE_ARG"})
	{ echo "+ ${mk[*]} olddefconfig"; "${mk[@]}" olddefconfig; } >> "$blog" 2>&1 || return 1
	# (CC_VERSION_TEXT is the wrapper's --version line: distcc says x86_64-linux-gnu-gcc)
	if ! config_same "$CONFIG" "$OBJ/.config"; then
		warn "olddefconfig changed the configuration (source and config do not match?): $(config_diff "$CONFIG" "$OBJ/.config")"
	fi
	echo "+ ${mk[*]} -j$JOBS KCFLAGS=... ${TARGETS[*]}" >> "$blog"
	# one kernel build at a time on this machine (2 cores: two at once only thrash);
	# build_seconds counts from the moment the lock is held
	# shellcheck disable=SC2016  # (sh -c's own $0 and $@)
	setsid flock "$KPATCH_CACHE/.kernel-build.lock" sh -c 'date +%s > "$0" && exec "$@"' "$ORIG/.build-start" \
		"${mk[@]}" -j"$JOBS" KCFLAGS="-ffunction-sections -fdata-sections" "${TARGETS[@]}" >> "$blog" 2>&1 &
	BUILD_PID=$!
	progress_start "$BUILD_PID"
	wait $BUILD_PID || { BUILD_PID=; progress_stop; return 1; }
	BUILD_PID=
	progress_stop
	index_original || return 1
	orig_check_compilers || return 1
	started=$(cat "$ORIG/.build-start" 2>/dev/null) || started=
	[ -n "$started" ] || started=$(( $(date +%s) - SECONDS + t0 ))
	echo "build_seconds=$(( $(date +%s) - started ))" >> "$ORIG/info" || return 1
	echo "done $(date -u +%FT%TZ)" > "$MARKER.tmp" && mv "$MARKER.tmp" "$MARKER"
}

config_lines() { grep '^CONFIG_' "$1" | grep -v '^CONFIG_CC_VERSION_TEXT='; }
# (compared in memory: cmp on two process substitutions stops reading at the
# first difference, and a writer killed by SIGPIPE fails under pipefail)
config_same() { local a b; a=$(config_lines "$1") && b=$(config_lines "$2") && [ "$a" = "$b" ]; }
# the first three differing lines of two configs (diff says 1 when they differ)
config_diff() { diff <(config_lines "$1") <(config_lines "$2") | sed -n '/^[<>]/p' | sed -n 1,3p | tr '\n' ' ' || true; }
# every compiler that went into vmlinux (its .comment: one line per distinct one) is
# the kernel's: a farm host with another compiler would make objects that differ
orig_check_compilers() {
	local c
	while read -r c; do
		[ "$(cc_ident "$c")" = "$CC_IDENT" ] && continue
		echo "original build: vmlinux .comment names '$c', not the kernel's compiler '$CC_FIRST' (a farm host with another compiler?)" >> "$ORIG/build.log"
		return 1
	done < <(readelf -p .comment "$OBJ/vmlinux" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | { grep '^GCC: ' || true; })	# (none: nothing to check)
}

# objects.idx: "<object> <source> <parent>" for every C object of the build;
# parent = vmlinux, a module name, or "-" (linked nowhere)
index_original() {
	local mod mf o members
	declare -A parent=()
	if [ -f "$OBJ/modules.order" ]; then
		while read -r mod; do
			mod=${mod%.ko}; mod=${mod%.o}
			mf=$OBJ/$mod.mod
			[ -f "$mf" ] || continue
			# shellcheck disable=SC2013  # (object names: words of the .mod file)
			for o in $(cat "$mf"); do parent[$o]=$(basename "$mod"); done
		done < "$OBJ/modules.order"
	fi
	for a in vmlinux.a lib/lib.a "arch/$KB_KARCH/lib/lib.a"; do
		[ -f "$OBJ/$a" ] || continue
		members=$(cd "$OBJ" && ar t "$a" | sed "s|^\./||") || return 1
		while read -r o; do
			[ -n "$o" ] || continue
			[ -n "${parent[$o]:-}" ] || parent[$o]=vmlinux
		done <<< "$members"
	done
	(cd "$OBJ" && find . -name '.*.o.cmd' -type f | sed 's|^\./||' | sort) > "$ORIG/cmdfiles" || return 1
	# shellcheck disable=SC2016  # (awk's own $0)
	(cd "$OBJ" && xargs -a "$ORIG/cmdfiles" awk '/^source_/ { sub(/^source_/, ""); split($0, a, " := "); print a[1], a[2]; nextfile }') |
	while read -r o src; do
		echo "$o $src ${parent[$o]:--}"
	done > "$ORIG/objects.idx.tmp" || return 1
	mv "$ORIG/objects.idx.tmp" "$ORIG/objects.idx"
	echo "objects=$(progress_count "$OBJ")" >> "$ORIG/info" || return 1	# (for progress_total)
}

# Readers share the lock for the whole run; a build takes it exclusively.
lock_wait() {
	flock -n "$1" "$LOCK_FD" || {
		info "waiting for another kpatch-build using the original build $CACHE_KEY"
		flock "$1" "$LOCK_FD"
	}
}
# (a directory find cannot read holds no change it could see)
find_newer() { find "$SRCDIR" -newer "$MARKER" -type f \( -name '*.c' -o -name '*.h' \) -print -quit 2>/dev/null || true; }
cache_ready() {
	[ -f "$MARKER" ] || return 1
	[ -z "${NEWER_PID:-}" ] || return 0	# checked later, see above
	newer=$(find_newer)
	[ -z "$newer" ]
}
orig_build_failed() {
	echo "---- tail of $ORIG/build.log ----" >> "$LOG"; tail -n 20 "$ORIG/build.log" >> "$LOG"
	fail "original build failed (build log $ORIG/build.log)"
}
orig_build_cached() {
	mkdir -p "$KB_CACHE/orig"
	exec {LOCK_FD}>>"$KB_CACHE/orig/$CACHE_KEY.lock"
	newer=
	lock_wait -s
	if cache_ready; then
		step "building original kernel (cached: $ORIG)"
	else
		lock_wait -x		# (flock converts: the shared lock is dropped first)
		if cache_ready; then
			step "building original kernel (cached: $ORIG, built by a concurrent run)"
		elif [ -f "$MARKER" ]; then
			step "building original kernel (refreshing the cached build $ORIG)"
			warn "$newer changed after the cached original build; rebuilding it incrementally"
			rm -f "$MARKER"
			REFRESH=1 build_original || orig_build_failed
		else
			step "building original kernel (not cached: $kver, -j$JOBS, into $ORIG; this takes a while)"
			build_original || orig_build_failed
			info "original build complete ($(sed -n 's/^build_seconds=//p' "$ORIG/info")s)"
		fi
		# from here on the cache entry is only read
		flock -s "$LOCK_FD"
	fi
	ORIG_CC=$(sed -n 's/^cc=//p' "$ORIG/info")
	# the original build must be the booted kernel's source and configuration
	krel_orig=$(kbuild_release "$OBJ")
	krel_boot=$(kbuild_release "$KOBJ")
	if [ -n "$krel_orig" ] && [ -n "$krel_boot" ] && [ "$krel_orig" != "$krel_boot" ]; then
		fail "the original build (-s source, -c config) is kernel release $krel_orig, but the booted kernel's tree $KOBJ is $krel_boot: pass the booted kernel's source (-s) and config (-c)"
	fi
}

# the background in-place-edit check started by orig_cache_key: if a C source or
# header is newer than the cached build, start over (KPB_SYNC_CHECK=1)
orig_recheck_newer() {
	if [ -n "${NEWER_PID:-}" ]; then
		wait "$NEWER_PID" || true; NEWER_PID=	# (as find_newer: what it printed counts)
		newer=$(cat "$SCRATCH/newer")
		if [ -n "$newer" ]; then
			warn "$newer changed after the cached original build; starting over with a refreshed cache"
			for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done	# (may have ended)
			wait 2>/dev/null
			# (a kept directory of --from is the run's own again: cleared by it)
			[ -n "$FROM_STEP" ] || rm -rf "$SCRATCH"
			exec {LOCK_FD}>&-
			trap - EXIT INT TERM HUP
			KPB_SYNC_CHECK=1 KPB_T_START=$T_START exec "${ARGV[@]}"
		fi
	fi
}
