# kpatch-build/lib/modversions.sh: CONFIG_MODVERSIONS (sourced by kpatch-build,
# after patched.sh).
#
# With module versioning, every exported symbol has a CRC of its type as genksyms
# sees it in the preprocessed source (kbuild's gen_symversions appends
# "#SYMVER <symbol> 0x<crc>" lines to the object's .cmd file; modpost puts them
# into vmlinux, Module.symvers and each module's __versions). Modules built against
# the running kernel carry those CRCs, and the patch module is built against its
# Module.symvers, so the CRCs themselves are right as long as the patch does not
# change one. A patch that does (a changed struct an exported function sees, a new
# #include that completes a type above the exports, a changed prototype) changes
# the ABI of the export, which a live patch cannot do: callers built against the
# old CRC keep running. The replayed compile of kpatch-build makes objects only, so
# genksyms is run here on each recompiled object that exports versioned symbols,
# the way kbuild runs it (cmd_gensymtypes_c: $(CPP) -D__GENKSYMS__ $(c_flags) $< |
# genksyms -r <.symref or /dev/null>), and its CRCs compared with the ones the
# original build recorded. A difference is refused naming the symbol, its old and
# new CRC. The replay is checked against the original build first: genksyms on the
# unpatched source must give the recorded CRCs, or kpatch-build fails rather than
# refuse on a CRC it cannot reproduce.

# "SYMBOL CRC" lines recorded by the original build for object $1; a stock
# kernel's objects are rebuilt, so the CRCs are the shipped Module.symvers's
# (for the symbols the rebuilt object exports)
modv_recorded() {
	local cmdf
	cmd_file_of "$1" "$OBJ"
	cmdf=$CMD_FILE
	if [ "${STOCK:-0}" = 1 ]; then
		awk 'NR == FNR { if ($1 == "#SYMVER") want[$2] = 1; next }
			($2 in want) { print $2, $1 }' "$cmdf" "$KOBJ/Module.symvers" 2>/dev/null
		return
	fi
	sed -n 's/^#SYMVER \([^ ]*\) \(0x[0-9a-f]*\)$/\1 \2/p' "$cmdf" 2>/dev/null
}

# the genksyms pipeline of object $1 from its compile command; $2 = "patched" reads
# the overlay, anything else the pristine source. Prints a shell command.
modv_command() {
	local o=$1 which=$2 cmd occ flags src symref
	cmd=$(obj_cmd "$o")
	# kbuild: $(CC) -Wp,-MMD,<depfile> $(c_flags) -c -o $@ $< [; objtool ...]
	occ=${cmd%% -Wp,-MMD,*}
	[ "$occ" != "$cmd" ] || return 1
	flags=${cmd#"$occ" -Wp,-MMD,}
	flags=${flags#* }			# (the depfile)
	case $flags in *" -c -o $o "*) ;; *) return 1 ;; esac
	src=${flags#*" -c -o $o "}; src=${src%% *}
	flags=${flags%%" -c -o $o "*}
	symref=$OBJ/${o%.o}.symref
	[ -f "$symref" ] || symref=/dev/null
	if [ "$which" = patched ]; then
		flags=${flags//"$SRCDIR/"/"$OVL/"}
		src=${src//"$SRCDIR/"/"$OVL/"}
	fi
	# (kmod/include searched last, as in the patched compile: a patch may include
	# kpatch-macros.h or kpatch-syscall.h)
	printf '%s -E -D__GENKSYMS__ -idirafter %q %s %s | %q -r %q\n' "$CC_CMD" "$KMOD_INC" \
		"$flags" "$src" "$OBJ/scripts/genksyms/genksyms" "$symref"
}

# run the genksyms pipeline of object $1 ($2: patched|original) in the object tree
# the compile ran in; "SYMBOL CRC" lines
modv_crcs() {
	local c tree=$OBJ
	c=$(modv_command "$1" "$2") || return 1
	[ "$2" != patched ] || tree=$W
	echo "+ (cd $tree && $c)" >> "$LOG"
	(cd "$tree" && sh -c "$c" 2>> "$LOG") |
		sed -n 's/^#SYMVER \([^ ]*\) \(0x[0-9a-f]*\)$/\1 \2/p'
}

# first "SYMBOL OLD NEW" where the CRCs of $2 (new) differ from those of $1 (old),
# for symbols both have
modv_first_change() {
	awk 'NR == FNR { old[$1] = $2; next } ($1 in old) && old[$1] != $2 { print $1, old[$1], $2; exit }' \
		<(printf '%s\n' "$1") <(printf '%s\n' "$2")
}

modversions_check() {
	local o rec new orig chg sym old newcrc
	cfg_y MODVERSIONS || return 0
	[ -x "$OBJ/scripts/genksyms/genksyms" ] ||
		fail "CONFIG_MODVERSIONS is set but the original build has no scripts/genksyms/genksyms"
	while read -r o; do
		rec=$(modv_recorded "$o")
		[ -n "$rec" ] || continue	# (exports nothing versioned)
		new=$(modv_crcs "$o" patched) ||
			fail "$o: genksyms on the patched source failed (its command is derived from the compile command; see the log)"
		[ -n "$new" ] ||
			fail "$o: genksyms on the patched source gives no CRCs (its command is derived from the compile command; see the log)"
		chg=$(modv_first_change "$rec" "$new")
		if [ -z "$chg" ]; then
			info "$o: CRCs of its $(wc -l <<< "$rec") exported symbol(s) unchanged"
			continue
		fi
		# a difference: the replay must reproduce the original build's CRCs
		orig=$(modv_crcs "$o" original) || orig=	# (failed: no CRCs, the failure below)
		if [ -z "$orig" ] || [ -n "$(modv_first_change "$rec" "$orig")" ]; then
			fail "$o: genksyms on the unpatched source does not give the CRCs the original build recorded (${chg%% *}); cannot check the patch's CRCs"
		fi
		read -r sym old newcrc <<< "$chg"
		refuse "$o" "$sym" "the CRC of this exported symbol changes from $old to $newcrc (CONFIG_MODVERSIONS): the patch changes its type as callers see it, and modules built against the running kernel use the old one"
	done < <(sort -u "$KPATCH_CC_LOG")
}
