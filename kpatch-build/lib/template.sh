# kpatch-build/lib/template.sh: the patch-module template, built once per kernel
# build tree and given each run's name and directory (sourced by kpatch-build).
#
# A kbuild run of the template costs 2-5 s of CPU before and besides its three
# small compiles (the kernel's Makefiles probe the compiler some thirty times), as
# much as all the rest of a one-function patch's build. So the template is built
# with make once, under a placeholder name, per build tree, template and make
# arguments (cache $KB_CACHE/template/KEY). Each run copies that directory's
# kbuild files into its module directory with its own name and directory put in
# (the saved commands of the .cmd files, the object lists, the V=1 log that holds
# the BTF step) and recompiles the objects from those commands: the objects carry
# the module name (kpatch-hook.o's messages, the .mod.o), so none is taken from
# the cache. fast_relink then links the module as kbuild would have. When the
# cached build cannot be made or copied, build_module runs make instead.

TPL_PLACEHOLDER=kpngtemplatename

# the make arguments of the template build: the run's, with the placeholder name
tpl_make_args() {
	local a
	for a in "${MKARGS[@]}"; do
		case $a in
		KPATCH_NAME=*) echo "KPATCH_NAME=$TPL_PLACEHOLDER" ;;
		*) echo "$a" ;;
		esac
	done
}
# what the cached build depends on: the build tree (its identity files), the make
# arguments, the compiler, the template and kmod/include
tpl_cache_key() {
	{
		echo "$KOBJ"
		stat -L -c '%n %s %Y' "$KOBJ/Makefile" "$KOBJ/.config" "$KOBJ/Module.symvers" \
			"$KOBJ/include/generated/autoconf.h" "$KOBJ/vmlinux" 2>/dev/null || true
		tpl_make_args; echo "$CC_CMD"
		cat "$TPL"/* "$KMOD_INC"/*
	} | sha256sum | cut -c1-16
}
# build the template into cache entry $1 (in a temporary directory renamed into
# place: a concurrent run may win, and then its entry is used)
tpl_cache_build() {
	local e=$1 tmp args
	mkdir -p "$(dirname "$e")" && tmp=$(mktemp -d "$e.tmp.XXXXXX") || return 1
	mapfile -t args < <(tpl_make_args)
	cp -a "$TPL/." "$tmp/mod/" && echo "$tmp/mod" > "$tmp/dir" &&
		${CC_CMD} -c -x c /dev/null -o "$tmp/mod/patch-objs.o" &&
		patch_objs_cmdfile "$tmp/mod" &&
		make -C "$KOBJ" M="$tmp/mod" "${args[@]}" V=1 -j"$JOBS" > "$tmp/prebuild.log" 2>&1 &&
		[ -f "$tmp/mod/livepatch-$TPL_PLACEHOLDER.ko" ] || { rm -rf "$tmp"; return 1; }
	mv -T "$tmp" "$e" 2>/dev/null || rm -rf "$tmp"
	[ -f "$e/dir" ]
}
sed_literal() { printf '%s' "$1" | sed 's/[][\\/.^$*|&]/\\&/g'; }
# the cached build $1 with this run's name and module directory, into $MOD: its
# text files (objects are rebuilt), the V=1 log as the prebuild log
tpl_instantiate() {
	local e=$1 from f base sub
	from=$(cat "$e/dir") || return 1
	sub=(-e "s|$(sed_literal "$from")|$(sed_literal "$MOD")|g"
		-e "s|livepatch-$TPL_PLACEHOLDER|$MODNAME|g"
		-e "s|livepatch_$TPL_PLACEHOLDER|${MODNAME//-/_}|g")
	mkdir -p "$MOD" || return 1
	for f in "$e/mod"/* "$e/mod"/.[!.]* "$e/mod"/..?*; do
		[ -f "$f" ] || continue
		base=${f##*/}
		case $base in *.o|*.ko) continue ;; esac
		sed "${sub[@]}" "$f" > "$MOD/${base//livepatch-$TPL_PLACEHOLDER/$MODNAME}" || return 1
	done
	sed "${sub[@]}" "$e/prebuild.log"
}
# the objects the template build compiled, compiled again from their saved commands
tpl_compile() {
	local c o
	for c in "$MOD"/.*.o.cmd; do
		o=${c##*/}; o=${o#.}; o=$MOD/${o%.cmd}
		# (the module's link and its .mod.o: fast_relink's, after modpost)
		case $o in */patch-objs.o|*/"$MODNAME".o|*/"$MODNAME".mod.o) continue ;; esac
		mod_replay "$o" || return 1
	done
}
# module_prebuild's background job: the template's kbuild files for this run, its
# objects compiled; output: the prebuild log (LOG too, in this subshell)
tpl_prebuild() {
	local e
	LOG=$SCRATCH/prebuild.log
	e=$KB_CACHE/template/$(tpl_cache_key) || return 1
	[ -f "$e/dir" ] || tpl_cache_build "$e" || { echo "(the template build failed)"; return 1; }
	echo "(template: cache $e)"
	# (entries unused for 30 days go, and what killed builds left)
	touch "$e"
	find "$KB_CACHE/template" -mindepth 1 -maxdepth 1 -mtime +30 -exec rm -rf {} + 2>/dev/null
	tpl_instantiate "$e" && tpl_compile
}
