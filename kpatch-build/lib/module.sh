# kpatch-build/lib/module.sh: patch-module prebuild, parent data, diff, module
# build, klp-convert, signing (sourced by kpatch-build).
#
# Everything that turns the ORIG/PATCHED object pairs into livepatch-NAME.ko: the
# kmod/patch template is copied and prebuilt in the background from the start
# (module_prebuild) so that the final link only replays kbuild's saved commands;
# the booted parents' symtabs and special-section struct sizes are read (cached per
# vmlinux); create-diff-object runs per object (exit 3: nothing changed, 2: refusal);
# the outputs are linked into the template module, converted by klp-convert, signed
# if the kernel wants it, and written atomically to the output directory. Kept
# together because these steps share the module directory and the parents table.

# the patch-module template (its build starts in the background)
module_prebuild() {
	MOD=$SCRATCH/module
	TPL=$(find_kmod_template) || die "the patch-module template kmod/patch was not found"
	# kmod/include (kpatch-macros.h, kpatch-syscall.h) is on the include path of every
	# patched compile, searched last (-idirafter), so patches can #include "kpatch-macros.h"
	KMOD_INC=$(cd "$TPL/../include" 2>/dev/null && pwd) || die "kmod/include not found next to the template $TPL"
	MKARGS=(${KB_MAKE[@]+"${KB_MAKE[@]}"} KPATCH_NAME="$NAME" KPATCH_INCLUDE="$KMOD_INC")
	[ "$NONREPLACE" = 0 ] || MKARGS+=(KPATCH_REPLACE=0)
	PREBUILD_PID='' MOD_READY=0
	# a resumed run (--from) relinks in the module directory of the kept run
	if [ -n "$FROM_STEP" ] && [ -d "$MOD" ]; then
		[ ! -f "$MOD/$MODNAME.ko" ] || MOD_READY=1
		return 0
	fi
	mkdir -p "$MOD" && cp -a "$TPL/." "$MOD/" || die "cannot copy the template $TPL"
	# The template's kbuild files and objects are ready by the time the differ is
	# done (lib/template.sh: built once per kernel, given this run's name), and
	# the final link only replays kbuild's commands (fast_relink).
	: > "$SCRATCH/prebuild.log"
	# (its failure only costs the fast path: no ERR trap or errexit in there).
	# In a process group of its own (set -m, as setsid does for a command), so
	# that a failing run's cleanup stops it and the make it may run at once.
	set -m
	(trap - ERR; set +eE; tpl_prebuild) >> "$SCRATCH/prebuild.log" 2>&1 &
	PREBUILD_PID=$!
	set +m
	PIDS+=("$PREBUILD_PID")
}

# modpost of a CONFIG_MODVERSIONS kernel reads the CRCs of the symbols a module
# exports from the .cmd file of each of its objects (kbuild's gen_symversions
# appends "#SYMVER" lines to it) and fails on a missing one; patch-objs.o is no
# kbuild target, and the patch module exports nothing, so its .cmd file says so
patch_objs_cmdfile() {	# DIR: the module directory
	echo "# patch-objs.o: the differ's outputs, linked by kpatch-build; no exported symbols" \
		> "$1/.patch-objs.o.cmd"
}

# ---------------------------------------------------------------- parent data
# symtab (readelf -s --wide) and special-section struct sizes of the booted
# vmlinux, cached by its identity
# the path (relative to the build tree) of module $1's .ko from modules.order, which
# lists "dir/name.ko" up to 6.1 and "dir/name.o" from 6.2 on
module_ko_path() {
	local m
	m=$(grep -m1 -E "(^|/)$1\.(ko|o)$" "$OBJ/modules.order" 2>/dev/null) || return 1
	echo "${m%.*}.ko"
}
parent_symtab() {	# $1 parent name -> path of its symtab
	local p=$1 ko f
	if [ "$p" = vmlinux ]; then echo "$PCACHE/vmlinux.symtab"; return 0; fi
	if [ -n "$OOT_MODULE" ] && [ "$p" = "$OOT_NAME" ]; then
		readelf -s --wide "$OOT_MODULE" > "$SCRATCH/$p.symtab" || return 1
		echo "$SCRATCH/$p.symtab"; return 0
	fi
	f=$PCACHE/$p.symtab
	if [ ! -s "$f" ]; then
		ko=$(module_file "$p") || return 1
		module_readelf "$ko" -s --wide > "$f.$$" && mv "$f.$$" "$f" || return 1
	fi
	echo "$f"
}
# the booted module $1's file: a stock kernel's debug module, else the build
# tree's, else the installed one (.ko, .ko.xz or .ko.zst)
module_file() {
	local p=$1 ko rel
	if [ "${STOCK:-0}" = 1 ]; then
		stock_module_file "${p//-/_}" && return 0
	fi
	ko=$(module_ko_path "$p") && [ -f "$KOBJ/$ko" ] && { echo "$KOBJ/$ko"; return 0; }
	rel=$(kbuild_release "$KOBJ")
	[ -n "$rel" ] && [ -d "/lib/modules/$rel" ] || return 1
	# (an unreadable directory holds nothing find can return)
	ko=$(find "/lib/modules/$rel" \( -name "$p.ko" -o -name "$p.ko.xz" -o -name "$p.ko.zst" \
		-o -name "${p//_/-}.ko" -o -name "${p//_/-}.ko.xz" -o -name "${p//_/-}.ko.zst" \) -print -quit 2>/dev/null) || true
	[ -n "$ko" ] && echo "$ko"
}
# readelf on a module that may be compressed
module_readelf() {
	local ko=$1 t rc=0; shift
	case $ko in
	*.xz|*.zst)
		t=$(mktemp "${SCRATCH:-/tmp}/module.XXXXXX") || return 1
		{ case $ko in *.xz) xz -dc "$ko" ;; *) zstd -qdc "$ko" ;; esac > "$t" &&
			readelf "$@" "$t"; } || rc=$?
		rm -f "$t"; return $rc ;;
	*) readelf "$@" "$ko" ;;
	esac
}
read_parent_data() {
	step_quiet "reading symbols and special-section struct sizes of $VMLINUX"
	vid=$(stat -c '%n %s %Y' "$VMLINUX" | sha256sum | cut -c1-16)
	PCACHE=$KB_CACHE/parent/$vid
	mkdir -p "$PCACHE"
	[ -s "$PCACHE/vmlinux.symtab" ] && [ -f "$PCACHE/struct-sizes" ] && STEP_CACHED=1
	if [ ! -s "$PCACHE/vmlinux.symtab" ]; then
		readelf -s --wide "$VMLINUX" > "$PCACHE/vmlinux.symtab.$$" 2>>"$LOG" &&
			mv "$PCACHE/vmlinux.symtab.$$" "$PCACHE/vmlinux.symtab" || fail "readelf -s $VMLINUX failed"
	fi
	if [ ! -f "$PCACHE/struct-sizes" ]; then
		SS=$(find_tool kpatch-struct-sizes) || fail "kpatch-struct-sizes not found (run 'make' in the kpatch-ng tree)"
		"$SS" "$VMLINUX" > "$PCACHE/struct-sizes.$$" 2>>"$LOG" &&
			mv "$PCACHE/struct-sizes.$$" "$PCACHE/struct-sizes" ||
			fail "reading special-section struct sizes from the debug info of $VMLINUX failed (needs CONFIG_DEBUG_INFO)"
	fi
	while IFS='=' read -r k v; do
		case $k in *_STRUCT_SIZE) export "$k=$v" ;; esac
	done < "$PCACHE/struct-sizes"
	echo "struct sizes: $(tr '\n' ' ' < "$PCACHE/struct-sizes")" >> "$LOG"
}

# ---------------------------------------------------------------- diff
diff_objects() {
	CDO=$(find_tool create-diff-object) || fail "create-diff-object not found (run 'make' in the kpatch-ng tree, or set KPATCH_TOOLS_DIR)"
	mkdir -p "$SCRATCH/diff"
	DIFFED=()
	declare -gA PARENTS=()	# parent name -> its symtab
	while read -r o orig_o patched_o p; do
		pname=${p//-/_}
		step_quiet "diffing $o"
		symtab=$(parent_symtab "$p") || fail "cannot find the booted module $p for $o (looked in ${STOCK_RELEASE:+the debug modules of $STOCK_RELEASE, }$KOBJ and /lib/modules/$(kbuild_release "$KOBJ"), as .ko, .ko.xz, .ko.zst)"
		out=$SCRATCH/diff/${o//\//__}
		# (a stock kernel's binary match reads the changed functions from -d)
		cdo_args=(); { [ "$DEBUG" = 1 ] || report_wanted || [ "${STOCK:-0}" = 1 ]; } && cdo_args=(--debug)
		echo "+ $CDO ${cdo_args[*]} $orig_o $patched_o $pname $symtab $SYMVERS $MODNAME $out" >> "$LOG"
		rc=0	# (0: a change, 3: none, 2: a refusal, 1: a failure)
		cdo_out=$("$CDO" "${cdo_args[@]}" "$orig_o" "$patched_o" "$pname" "$symtab" "$SYMVERS" "$MODNAME" "$out" 2>&1 < /dev/null) || rc=$?
		echo "$cdo_out" >> "$LOG"
		echo "$cdo_out" > "$out.log"
		report_object "$o" "$p" "$rc" "$cdo_out" "$out"
		case $rc in
		0)
			nf=$(readelf -SW "$out" | sed -n 's/^ *\[ *[0-9]*\] \.kpatch\.funcs  *[A-Z_]*  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p' | sed -n 1p)
			nf=$(( 16#${nf:-0} / 32 ))
			changed=$(sed -n 's/.*changed function: *//p' <<< "$cdo_out" | tr '\n' ' ')
			step_show "diffing $o: $nf function(s) changed${changed:+: $changed}"
			# the differ's warnings (a module's tracepoint disabled, a
			# forced refusal) are the user's to read
			while IFS= read -r w; do warn "${w#create-diff-object: warning: }"
			done < <(grep '^create-diff-object: warning: ' <<< "$cdo_out" || true)
			DIFFED+=("$out"); PARENTS[$pname]=$symtab ;;
		3) step_show "diffing $o: no function changed" ;;
		2) echo "$TOOLNAME: error: $o cannot be live-patched: $(grep -m1 '^create-diff-object: ' <<< "$cdo_out" || grep -m1 -v '^$' <<< "$cdo_out" || true)" >&2
		   echo "$TOOLNAME: log: $LOG" >&2; exit 2 ;;
		1) if grep -qE 'unsupported machine|big-endian objects are not supported' <<< "$cdo_out"; then
			die "$o: the differ does not support $KPB_ARCH objects: $(grep -m1 '^create-diff-object: ' <<< "$cdo_out" || true)"
		   fi
		   fail "create-diff-object failed on $o (exit $rc): $(tail -n1 <<< "$cdo_out")" ;;
		*) fail "create-diff-object failed on $o (exit $rc): $(tail -n1 <<< "$cdo_out")" ;;
		esac
	done < "$SCRATCH/diff-list"
	STEP="diffing $(wc -l < "$SCRATCH/diff-list") object(s)"
	[ ${#DIFFED[@]} -gt 0 ] || fail "no function changed: the patch changes nothing that can be live-patched (only line numbers, comments or unused code?)"
}

# ---------------------------------------------------------------- module
# Relink fast: replay kbuild's own saved commands of the prebuild (.cmd files of
# the module directory) for the link, modpost, the .mod.o if modpost changed the
# .mod.c, the .ko link and module BTF; make is the fallback.
mod_replay() {	# $1: a target in $MOD; runs the command kbuild saved for it, in $KOBJ
	local t=$1 c
	cmd_file_of "$t"
	c=$(kbuild_saved_cmd "$CMD_FILE" "$t")
	[ -n "$c" ] || return 1
	elapsed_set
	echo "+ [${ELAPSED}s] (cd $KOBJ && $c)" >> "$LOG"
	(cd "$KOBJ" && kbuild_env sh -c "$c") >> "$LOG" 2>&1
}
# what kbuild's make exports to the commands it runs, which they may read:
# SRCARCH picks the architecture's objtool in Debian's headers (tools/objtool/objtool
# is a dispatcher to objtool.real-$SRCARCH)
kbuild_env() { SRCARCH=$KB_KARCH ARCH=$KB_KARCH "$@"; }
# The module BTF step kbuild ran on the prebuilt .ko $1 (kbuild saves no command
# for it; the prebuild's V=1 log shows it): its pahole and resolve_btfids
# commands, without the test for vmlinux around them. Nothing if there is none.
prebuild_btf_cmd() {
	grep -F -e '--btf_base' "$SCRATCH/prebuild.log" | grep -F -e "$1" | tail -n 1 |
		awk -F';' '{ for (i = 1; i <= NF; i++) if ($i ~ /--btf_base|resolve_btfids/) {
			c = $i; sub(/^ *((then|else) +)?/, "", c); out = out (out == "" ? "" : "; ") c } }
			END { if (out != "") print out }'
}
fast_relink() {
	local m=$MOD/$MODNAME btf=
	# (kbuild makes a module's BTF only against $KOBJ/vmlinux: a distribution's
	# headers tree may have none, and then the .ko link is all there is)
	if cfg_y DEBUG_INFO_BTF_MODULES && [ -f "$KOBJ/vmlinux" ]; then
		btf=$(prebuild_btf_cmd "$m.ko") && [ -n "$btf" ] || return 1
	fi
	[ -f "$m.mod.c" ] || return 1
	cp -p "$m.mod.c" "$SCRATCH/mod.c.prev" || return 1
	mod_replay "$m.o" && mod_replay "$MOD/Module.symvers" || return 1
	if [ ! -f "$m.mod.o" ] || ! cmp -s "$m.mod.c" "$SCRATCH/mod.c.prev"; then
		mod_replay "$m.mod.o" || return 1
	fi
	rm -f "$m.ko" && mod_replay "$m.ko" && [ -s "$m.ko" ] || return 1
	[ -n "$btf" ] || return 0
	elapsed_set
	echo "+ [${ELAPSED}s] (cd $KOBJ && $btf)" >> "$LOG"
	(cd "$KOBJ" && kbuild_env sh -c "set -e; $btf") >> "$LOG" 2>&1
}
# Does kbuild run objtool on the linked patch module? It does where objtool is
# delayed to link time (X86_KERNEL_IBT, LTO_CLANG: objtool --link on vmlinux.o and on
# each multi-object module) instead of running on each object. Read from the
# template's prebuild (what this kernel's kbuild did), else from the config.
objtool_at_module_link() {
	local c
	c=$(kbuild_saved_cmd "$MOD/.$MODNAME.o.cmd" "$MOD/$MODNAME.o")
	if [ -n "$c" ]; then
		case $c in *objtool*) return 0 ;; *) return 1 ;; esac
	fi
	cfg_y X86_KERNEL_IBT || cfg_y LTO_CLANG
}
# Sections objtool makes from the code of a whole object. When objtool runs on the
# patch module it makes them for all of it, but skips the whole section when the
# input already has one (a differ output of an object objtool saw at compile time:
# single-object modules): drop the differ's copies so that objtool writes them for
# the patch module's own code too, with endbr64 sealing decided on the module.
OBJTOOL_SECTIONS=(.orc_unwind .orc_unwind_ip .orc_header .return_sites .call_sites
	.retpoline_sites .ibt_endbr_seal)
strip_objtool_sections() {
	local a=() s
	for s in "${OBJTOOL_SECTIONS[@]}"; do a+=(--remove-section="$s" --remove-section=".rela$s"); done
	logrun objcopy "${a[@]}" "$1"
}
build_module() {
	step "building $MODNAME.ko (${#DIFFED[@]} object(s)) against $KOBJ"
	if [ -n "${PREBUILD_PID:-}" ]; then
		rc=0; wait_pid "$PREBUILD_PID" || rc=$?
		cat "$SCRATCH/prebuild.log" >> "$LOG"
		# a failed prebuild only costs the fast path: make below reports real errors
		[ $rc -eq 0 ] || { echo "(prebuild failed, exit $rc)" >> "$LOG"; PREBUILD_PID=; }
	fi
	rm -f "$MOD/patch-objs.o"
	logrun "${KB_CROSS}ld" -r -o "$MOD/patch-objs.o" "${DIFFED[@]}" || fail "ld -r of the differ outputs failed"
	patch_objs_cmdfile "$MOD" || fail "cannot write $MOD/.patch-objs.o.cmd"
	if objtool_at_module_link; then
		echo "objtool runs on the linked patch module: its sections are made there" >> "$LOG"
		strip_objtool_sections "$MOD/patch-objs.o" || fail "objcopy of $MOD/patch-objs.o failed"
	fi
	# (after a prebuild, or in a kept run's module directory: --from)
	if { [ -n "${PREBUILD_PID:-}" ] || [ "$MOD_READY" = 1 ]; } && fast_relink; then
		:
	else
		echo "(no fast relink: running kbuild)" >> "$LOG"
		logrun make -C "$KOBJ" M="$MOD" "${MKARGS[@]}" -j"$JOBS" || fail "kbuild of the patch module failed"
	fi
	inko=
	for f in "$MOD"/*.ko; do [ ! -f "$f" ] || { inko=$f; break; }; done
	[ -n "$inko" ] || fail "kbuild built no .ko in $MOD"
}

convert_klp() {
	step "converting klp relocations"
	KLPC=$(find_tool klp-convert) || fail "klp-convert not found (run 'make' in the kpatch-ng tree)"
	final=$SCRATCH/$MODNAME.ko
	klpc_args=(--symvers "$KOBJ/Module.symvers")	# (exported: left to the loader)
	for p in "${!PARENTS[@]}"; do
		klpc_args+=(--symtab "$p=${PARENTS[$p]}")
		[ "$p" = vmlinux ] || klpc_args+=(--object "$p")
	done
	logrun "$KLPC" "${klpc_args[@]}" "$inko" "$final" || fail "klp-convert $inko failed"
	if [ "$SIGN" = 1 ]; then
		step "signing with $SIGKEY"
		logrun "$SIGFILE" "$SIGHASH" "$SIGKEY" "$SIGCERT" "$final" ||
			fail "signing the module failed"
	fi
	cp -f "$final" "$OUTDIR/$MODNAME.ko.tmp.$$" && mv -f "$OUTDIR/$MODNAME.ko.tmp.$$" "$OUTDIR/$MODNAME.ko" ||
		fail "cannot write $OUTDIR/$MODNAME.ko"
}
