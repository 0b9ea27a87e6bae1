# kpatch-build/lib/generated.sh: files the kernel build generates from files a
# patch changes (sourced by kpatch-build, after patched.sh).
#
# Some sources are not compiled into objects but turned into other files the
# build then uses: arch/*/kernel/asm-offsets.c and kernel/bounds.c into assembly
# whose markers become include/generated/asm-offsets.h and bounds.h (structure
# offsets and sizes that assembly and C code use as constants), syscall tables
# (*.tbl) into syscall headers, cpufeatures.h into capflags.c, linker scripts
# from headers, and the checks of the generated atomic headers. The patched
# objects are compiled against the original build's generated files, so a
# patch that changes what one of them would contain must be refused: the code
# it yields would not be what the patched kernel's build would make.
#
# kbuild records a command for each such file, in a .cmd file like an object's
# (with the dependency list where it has one). For every changed file that one of
# them names, the command is replayed on the patched overlay, beside the patched
# compiles, and its output compared with the original build's: unchanged is fine,
# changed is refused naming the generated file and (for the offset headers) the
# first constant that changes, with its old and new value.

# generated.cmdfiles: the .cmd files of the build's generated C, headers, assembly
# and linker scripts (made once per cache entry, atomically)
gen_cmdfiles() {
	[ -f "$ORIG/generated.cmdfiles" ] && return 0
	(cd "$OBJ" && find . -type f \( -name '.*.h.cmd' -o -name '.*.s.cmd' -o -name '.*.c.cmd' \
		-o -name '.*.lds.cmd' \) | sed 's|^\./||' | sort) > "$ORIG/generated.cmdfiles.$$" &&
		mv -f "$ORIG/generated.cmdfiles.$$" "$ORIG/generated.cmdfiles"
}

# "TARGET CMDFILE CHANGED" for each generated file whose command or dependency
# list names a changed file (paths compared normalized, as in objs_with_dep)
gen_find() {
	local f
	for f in "${CHANGED_FILES[@]}"; do
		# shellcheck disable=SC2016  # (awk's own $1, $i)
		# (xargs says 123 when a grep of it found nothing: the usual case)
		(cd "$OBJ" && { xargs -a "$ORIG/generated.cmdfiles" grep -lF -e "${f##*/}" 2>/dev/null || [ $? -eq 123 ]; } |
			xargs -r awk -v t="$SRCDIR/$f" -v base="${f##*/}" -v rel="$f" "$AWK_NORM"'
			FNR == 1 {
				tgt = $1; sub(/^(saved)?cmd_/, "", tgt)
				if (tgt == $1) nextfile		# not a kbuild command file
			}
			{
				for (i = 1; i <= NF; i++)
					if (index($i, base) && norm($i) == t) { print tgt, FILENAME, rel; nextfile }
			}')
	done | sort -u -k1,1
}

# start replaying the command of each generated file a changed file feeds, in a
# symlink farm of the original object tree of its own ($SCRATCH/gen: the patched
# compiles keep reading the original generated files while these run), the
# directory of each output real and the original output unlinked
gen_start() {
	local tgt cf src cmd d W=$SCRATCH/gen
	GPIDS=() GTARGETS=() GSRCS=() GLOGS=()
	gen_cmdfiles || fail "cannot list the generated files of $OBJ"
	while read -r tgt cf src; do
		[ -e "$OBJ/$tgt" ] || continue
		cmd=$(kbuild_saved_cmd "$OBJ/$cf" "$tgt")
		[ -n "$cmd" ] || fail "$src: no command for the generated $tgt in $OBJ/$cf"
		d=$(dirname "$tgt"); [ "$d" = . ] && d=
		wdir "$d" || fail "cannot prepare $W/$d"
		rm -f "$W/$tgt"
		cmd=${cmd//"$SRCDIR/"/"$OVL/"}
		echo "+ (cd $W && $cmd)" >> "$LOG"
		(cd "$W" && exec setsid sh -c "$cmd") > "$SCRATCH/generate-${tgt//\//_}.log" 2>&1 &
		GPIDS+=($!) GTARGETS+=("$tgt") GSRCS+=("$src") GLOGS+=("$SCRATCH/generate-${tgt//\//_}.log")
	done < <(gen_find)
	[ ${#GTARGETS[@]} -eq 0 ] ||
		info "regenerating ${GTARGETS[*]} from the patched sources to compare"
}

# the asm-offsets markers ("->NAME $VALUE ...") of kbuild's generated assembly,
# as "NAME VALUE" lines
gen_markers() {
	sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"->\([^ "]*\) \$\{0,1\}\([^ "]*\).*/\1 \2/p' "$1"
}

# the header kbuild makes from generated assembly $1 (include/generated/NAME.h)
gen_header_of() {
	local h
	h=include/generated/$(basename "$1" .s).h
	if [ -e "$OBJ/$h" ]; then echo "$h"; else echo "the header made from $1"; fi
}

# wait for the replays and refuse the first generated file that differs
gen_check() {
	local i tgt src diffl W=$SCRATCH/gen
	for i in "${!GPIDS[@]}"; do
		tgt=${GTARGETS[$i]} src=${GSRCS[$i]}
		if ! wait_pid "${GPIDS[$i]}"; then
			sed "s|$OVL/||g" "${GLOGS[$i]}" >> "$LOG"
			die "$src: the build's step that generates $tgt fails with the patch: $(sed "s|$OVL/||g" "${GLOGS[$i]}" | grep -m1 -iE 'error|modified' || tail -n1 "${GLOGS[$i]}")"
		fi
		case $tgt in
		*.s)
			# (diff says 1 when they differ)
			diffl=$({ diff <(gen_markers "$OBJ/$tgt") <(gen_markers "$W/$tgt") || [ $? -eq 1 ]; } |
				sed -n '/^[<>]/p' | sed -n 1,2p | paste -sd' ')
			[ -z "$diffl" ] ||
				die "$src changes $(gen_header_of "$tgt") (generated from $tgt): $(gen_describe "$diffl"); code built against the running kernel's values cannot be patched"
			;;
		*)
			sed "s|$OVL/|$SRCDIR/|g" "$W/$tgt" | cmp -s - "$OBJ/$tgt" ||
				die "$src changes the generated $tgt: kpatch-build compiles against the running kernel's generated files and cannot regenerate them"
			;;
		esac
		info "$tgt: unchanged by the patch"
	done
	GPIDS=()
}

# "< NAME OLD > NAME NEW" (diff lines) as "NAME OLD -> NEW", or an added/removed name
gen_describe() {
	awk '{
		for (i = 1; i <= NF; i += 3) {
			if ($i == "<" && old == "") { old = $(i + 1); ov = $(i + 2) }
			else if ($i == ">" && new == "") { new = $(i + 1); nv = $(i + 2) }
		}
		if (old != "" && old == new) print old " " ov " -> " nv
		else if (old != "") print old " " ov " removed or renamed"
		else print new " " nv " added"
	}' <<<"$1"
}
