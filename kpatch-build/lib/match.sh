# kpatch-build/lib/match.sh: the rebuilt originals held to the shipped binary
# (sourced by kpatch-build; a stock kernel's build only).
#
# A self-built kernel's original objects are its own build's. A stock kernel's
# are rebuilt here from its source and configuration, and a live patch is only
# right if they are what the distribution shipped. Each original with a change is
# compiled once more with its exact shipped command (the diffing objects'
# -ffunction-sections -fdata-sections left out: with them, the assembler cannot
# shorten a jump to a function of the same section, so the code differs in
# size). That object must have the shipped compiler and code-generating flags
# (DW_AT_producer of its compilation unit in the -dbg binary), and its changed
# functions the shipped size and bytes apart from relocated fields and
# jump-label sites (kpatch-binary-match against the -dbg vmlinux or debug
# module). Anything else (a compiler update, a configuration that drifted,
# another source) is refused naming the object and the difference, before a
# module is built.

# the flags of a producer string that do not change the code the way they
# affect the comparison: the diffing build's own
MATCH_OWN_FLAGS=" $TARGETED_KCFLAGS "
match_producer_norm() {
	local f out=
	for f in $1; do
		case $MATCH_OWN_FLAGS in *" $f "*) continue ;; esac
		out+="$f "
	done
	echo "${out% }"
}

# object $1 compiled with its shipped command, in a symlink farm of the
# original tree: prints its path. It is an original: kept in the cache entry
# of the original build, by the command's hash (a warm run compiles nothing)
match_exact_object() {
	local o=$1 cmd occ W=$SCRATCH/exact d kept
	cmd=$(obj_cmd "$o")
	occ=${cmd%% -Wp,-MMD,*}
	[ -n "$cmd" ] && [ "$occ" != "$cmd" ] || return 1
	cmd="$CC_CMD ${cmd#"$occ" }"
	case $cmd in *" $TARGETED_KCFLAGS "*) ;; *) return 1 ;; esac
	cmd=${cmd//" $TARGETED_KCFLAGS "/ }
	kept=$ORIG/exact/$o.$(sha256sum <<< "$cmd" | cut -c1-16)
	if [ -f "$kept" ]; then echo "$kept"; return 0; fi
	d=; case $o in */*) d=${o%/*} ;; esac
	wdir "$d" || return 1
	echo "+ (cd $W && $cmd)" >> "$LOG"
	(cd "$W" && sh -c "$cmd") >> "$LOG" 2>&1 && [ -f "$W/$o" ] || return 1
	mkdir -p "${kept%/*}" && cp "$W/$o" "$kept.$$" && mv "$kept.$$" "$kept" || return 1
	echo "$kept"
}

# the producer of source $2 in the shipped units of parent $1
match_shipped_producer() {
	local parent=$1 src=$2
	if [ "$parent" = vmlinux ]; then
		awk -F'\t' -v s="$src" '$1 == s { print $2; exit }' "$SK/units.vmlinux"
	else
		awk -F'\t' -v s="$src" -v m="$parent" '{ b = $1; sub(/.*\//, "", b); sub(/\.ko$/, "", b); gsub(/-/, "_", b); gsub(/-/, "_", m) }
			b == m && $2 == s { print $3; exit }' "$SK/units.modules"
	fi
}

# the first flag in which producers $1 (rebuilt) and $2 (shipped) differ
match_producer_diff() {
	local a b
	a=$(tr ' ' '\n' <<< "$1" | sort); b=$(tr ' ' '\n' <<< "$2" | sort)
	# (diff says 1 when they differ, as here)
	{ diff <(echo "$a") <(echo "$b") || [ $? -eq 1 ]; } |
		sed -n 's/^</rebuilt has/p; s/^>/shipped has/p' | sed -n 1,2p | paste -sd';'
}

binary_match() {
	[ "${STOCK:-0}" = 1 ] || return 0
	local o orig_o patched_o p src mine theirs shipped funcs n=0 nf=0 out bad exact rc
	BINMATCH=$(find_tool kpatch-binary-match) || fail "kpatch-binary-match not found (run 'make' in the kpatch-ng tree)"
	step "holding the rebuilt originals to $STOCK_RELEASE's binaries"
	while read -r o orig_o patched_o p; do
		out=$SCRATCH/diff/${o//\//__}
		[ -f "$out" ] || continue	# (no change in it)
		src=$(awk -v o="$o" '$1 == o { print $2; exit }' "$IDX/objects.idx"); src=${src#"$SRCDIR/"}
		# the compiler and its flags
		theirs=$(match_shipped_producer "$p" "$src")
		[ -n "$theirs" ] || refuse "$o" "$src" "no compilation unit of $src in $STOCK_RELEASE's $p (-dbg): the object is not the shipped one's"
		exact=$(match_exact_object "$o") || fail "$o: compiling it with its shipped flags (no $TARGETED_KCFLAGS) failed"
		mine=$("$DWARF_UNITS" "$exact" 2>/dev/null | awk -F'\t' -v s="/$src" '{ n = "/" $2 } substr(n, length(n) - length(s) + 1) == s { print $3; exit }')
		[ -n "$mine" ] || fail "cannot read the compilation unit of $exact"
		if [ "$(match_producer_norm "$mine")" != "$(match_producer_norm "$theirs")" ]; then
			refuse "$o" "$src" "rebuilt with another compiler or flags than $STOCK_RELEASE's $p ($(match_producer_diff "$(match_producer_norm "$mine")" "$(match_producer_norm "$theirs")")): a compiler update or another configuration?"
		fi
		# the changed functions' code
		mapfile -t funcs < <(sed -n 's/^patched: \([^ ]*\).*/\1/p' "$out.log" | sort -u)
		[ ${#funcs[@]} -gt 0 ] || continue
		if [ "$p" = vmlinux ]; then shipped=$VMLINUX
		else shipped=$(stock_module_file "${p//-/_}") || fail "no debug module $p of $STOCK_RELEASE"
		fi
		echo "+ $BINMATCH $exact $shipped ${funcs[*]}" >> "$LOG"
		rc=0	# (2: a difference)
		bad=$("$BINMATCH" "$exact" "$shipped" "${funcs[@]}" 2>&1) || rc=$?
		case $rc in
		0) ;;
		2) refuse "$o" "$(head -n1 <<< "$bad" | cut -d: -f1)" "the rebuilt original is not $STOCK_RELEASE's: $(head -n1 <<< "$bad" | cut -d: -f2- | sed 's/^ //') (another configuration, compiler or source than the shipped kernel's)" ;;
		*) fail "kpatch-binary-match failed on $o: $bad" ;;
		esac
		n=$((n + 1)); nf=$((nf + ${#funcs[@]}))
	done < "$SCRATCH/diff-list"
	info "$nf changed function(s) of $n object(s): the rebuilt originals match $STOCK_RELEASE's binaries (compiler, flags, code)"
}
