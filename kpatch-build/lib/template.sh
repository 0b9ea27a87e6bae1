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
# the BTF step). The objects that hold no module name are copied from the entry
# (TPL_SHARED_OBJS); the others are compiled again from their saved commands.
# fast_relink then links the module as kbuild would have. When the
# cached build cannot be made or copied, build_module runs make instead.

TPL_PLACEHOLDER=kpngtemplatename
# The template's objects that are the same for every patch of a build tree, taken
# from the cache entry: kbuild's .module-common.o (6.12 and later: vermagic, the
# build salt, the ORC header) and kpatch-hook.o (its messages name the module at
# run time and kmod/patch/Kbuild maps its __FILE__ to the bare file name). Each is
# 0.4-0.7 s of CPU a run. (The .mod.o holds the name; patch-objs.o is the patch.)
TPL_SHARED_OBJS=".module-common.o kpatch-hook.o"

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
# the cached build $1 with this run's name and module directory, into $MOD: its
# text files (objects are rebuilt), the V=1 log as the prebuild log (stdout).
# One awk for every file (a sed each cost a fork each, sixteen a run); the
# strings are replaced as literals, and come through the environment (awk -v
# would read backslashes in them as escapes).
tpl_instantiate() {
	local e=$1 f base out from files=()
	from=$(cat "$e/dir") || return 1
	mkdir -p "$MOD" || return 1
	for f in "$e/mod"/* "$e/mod"/.[!.]* "$e/mod"/..?*; do
		[ -f "$f" ] || continue
		base=${f##*/}
		case $base in *.o|*.ko) continue ;; esac
		out=$MOD/${base//livepatch-$TPL_PLACEHOLDER/$MODNAME}
		: > "$out" || return 1	# (an empty file too: awk opens only those with lines)
		files+=("$f" "$out")
	done
	TPL_FROM=$from TPL_TO=$MOD TPL_NAME1=livepatch-$TPL_PLACEHOLDER TPL_TO1=$MODNAME \
	TPL_NAME2=livepatch_$TPL_PLACEHOLDER TPL_TO2=${MODNAME//-/_} \
	awk '
	function lit(s, a, b,   r, i) {
		r = ""
		while ((i = index(s, a)) > 0) { r = r substr(s, 1, i - 1) b; s = substr(s, i + length(a)) }
		return r s
	}
	BEGIN {
		for (i = 1; i < ARGC - 1; i += 2) out[ARGV[i]] = ARGV[i + 1]
		for (i = 2; i < ARGC - 1; i += 2) delete ARGV[i]
	}
	FNR == 1 { if (o != "") close(o); o = (FILENAME in out) ? out[FILENAME] : "/dev/stdout" }
	{
		s = lit($0, ENVIRON["TPL_FROM"], ENVIRON["TPL_TO"])
		s = lit(s, ENVIRON["TPL_NAME1"], ENVIRON["TPL_TO1"])
		print lit(s, ENVIRON["TPL_NAME2"], ENVIRON["TPL_TO2"]) > o
	}' "${files[@]}" "$e/prebuild.log"
}
# the objects the template build compiled: copied from cache entry $1 when they
# hold no module name, else compiled again from their saved commands
tpl_compile() {
	local e=$1 c o
	for c in "$MOD"/.*.o.cmd; do
		o=${c##*/}; o=${o#.}; o=$MOD/${o%.cmd}
		# (the module's link and its .mod.o: fast_relink's, after modpost)
		case $o in */patch-objs.o|*/"$MODNAME".o|*/"$MODNAME".mod.o) continue ;; esac
		case " $TPL_SHARED_OBJS " in
		*" ${o##*/} "*)
			cp "$e/mod/${o##*/}" "$o" && echo "+ ${o##*/}: the template cache's ($e)" &&
				continue ;;
		esac
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
	tpl_instantiate "$e" && tpl_compile "$e"
}
