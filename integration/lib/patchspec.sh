# shellcheck shell=bash
# integration/lib/patchspec.sh (sourced): the one format of a patch test and of
# what is expected of it, read by suite.sh, zoo.sh and stable.sh, and the one
# resolver of its per-kernel and per-architecture overrides.
#
# A test NN-name of a directory DIR (integration/patches, integration/zoo, the
# stable fixes' generated one) is made of:
#   NN-name.patch   the patch, built with kpatch-build -n name
#   NN-name.expect  what is expected (optional: "ok"); the keys below
#   NN-name.guest   the guest check: for the suite a whole guest script (it sources
#                   /lib/kp-suite.sh and runs kps_cycle), for the zoo a busybox-sh
#                   snippet run while the patch is active (exit 0: "patched")
#   NN-name.check   host-side checks of the built module: `bash NN-name.check KO
#                   KCONFIG` with KVMLINUX, KP_ARCH, KERNEL and KP_CHECK_LIB
#                   (lib/checklib.sh: lp_funcs, lp_klp_syms, want) in the
#                   environment; one line of output, non-zero exit = failure
#
# NN-name.expect: one setting a line, "KEY [VALUE]"; a line starting with #
# is a comment. The outcome, one of
#   ok                    kpatch-build succeeds (the default)
#   refuse REGEX          kpatch-build fails, its output matching the extended REGEX
#   skip REASON           not run here (REASON listed under the table)
# and, for what a test needs beyond one kpatch-build of its patch:
#   name NAME             the livepatch name (default: the test's name without NN-)
#   macros                the patch includes kpatch-macros.h / kpatch-syscall.h
#   kpatch-build-args A.. more kpatch-build options (split on blanks)
#   module PATH           one more module for the guest (relative to the kernel's
#                         build tree, or absolute); one line per module
#   timeout SECS          the guest's time bound
#   arches LIST           the architectures the test applies to (default: all);
#   arch-reason TEXT      on another one it is skipped with this reason
#   build NAME FILE       instead of the one build: kpatch-build -n NAME FILE (a
#                         file of DIR); one line per module, loaded in this order
#   build-script FILE     instead of kpatch-build: bash FILE OUTDIR (a file of DIR,
#                         run with the kernel's variables exported) builds the
#                         modules and lists them in OUTDIR/modules.list
# A key stated twice in one file: its last value (module and build: all lines).
#
# Overrides: a file of the same name in a subdirectory of DIR, a layer. Layers,
# the most specific first: $KERNEL-$KP_ARCH, $KP_ARCH, $KERNEL, then for a stock
# kernel debian and, for its source files only (.patch, .diff: the code is that of
# its source, the expectations are about the config), $KBASE. A .expect is read
# from the common file through every layer that has one, the most specific last,
# each key it states replacing the one before: an override states only what
# differs. Any other file: the most specific one replaces the others.
#
# Needs KERNEL; KP_ARCH (default x86_64), KSTOCK and KBASE when they are known.

# the layers for file $1, the most specific first, one a line
ps_layers() {
	local l
	for l in "$KERNEL-${KP_ARCH:-x86_64}" "${KP_ARCH:-x86_64}" "$KERNEL"; do echo "$l"; done
	[ -n "${KSTOCK:-}" ] || return 0
	echo debian
	case $1 in *.patch|*.diff) [ -z "${KBASE:-}" ] || echo "$KBASE" ;; esac
}

# ps_file DIR FILE: the path of FILE for this kernel and architecture (the common
# one when no layer has it; it need not exist)
ps_file() {
	local l
	while read -r l; do
		[ -e "$1/$l/$2" ] && { echo "$1/$l/$2"; return; }
	done < <(ps_layers "$2")
	echo "$1/$2"
}

# ps_tests DIR [ONLY]: the tests of DIR (a .patch or a .expect), sorted; ONLY
# is "NN,NN-name,..." (empty: all)
ps_tests() {
	local f b
	for f in "$1"/[0-9][0-9]-*.patch "$1"/[0-9][0-9]-*.expect; do
		[ -e "$f" ] || continue
		b=${f##*/}; b=${b%.*}
		if [ -n "${2:-}" ]; then
			case ",$2," in *",${b%%-*},"*|*",$b,"*) ;; *) continue ;; esac
		fi
		echo "$b"
	done | sort -u
}

# the keys of a .expect, in the order ps_expect prints them
PS_KEYS=(outcome name macros kpatch-build-args module timeout arches arch-reason build build-script)

# ps_parse FILE: FILE's settings as "KEY<TAB>VALUE" lines, the outcome lines
# under the key "outcome"; a bad line is a key "error"
ps_parse() {
	local line k v
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '#'*|'') continue ;; esac
		[ -n "${line//[[:space:]]/}" ] || continue
		k=${line%%[[:space:]]*} v=
		[ "$k" = "$line" ] || v=${line#"$k"}; v=${v#"${v%%[![:space:]]*}"}
		case $k in
		ok) printf 'outcome\tok\n' ;;
		refuse|skip) printf 'outcome\t%s %s\n' "$k" "$v" ;;
		macros) printf 'macros\t1\n' ;;
		name|kpatch-build-args|module|timeout|arches|arch-reason|build|build-script)
			printf '%s\t%s\n' "$k" "$v" ;;
		*) printf 'error\tbad .expect line %s in %s\n' "'$line'" "$1" ;;
		esac
	done < "$1"
}

# ps_expect DIR TEST: the resolved expectation of TEST, as a .expect (the keys
# in PS_KEYS' order); the .expect stable.sh lays out, and what ps_load reads
ps_expect() {
	local f l k v files=() keys
	declare -A M=() L
	while read -r l; do
		[ -f "$1/$l/$2.expect" ] && files=("$1/$l/$2.expect" ${files[@]+"${files[@]}"})
	done < <(ps_layers "$2.expect")
	[ -f "$1/$2.expect" ] && files=("$1/$2.expect" ${files[@]+"${files[@]}"})
	for f in ${files[@]+"${files[@]}"}; do
		L=()
		while IFS=$'\t' read -r k v; do
			case $k in
			module|build|error) L[$k]+=$v$'\n' ;;
			*) L[$k]=$v$'\n' ;;
			esac
		done < <(ps_parse "$f")
		for k in "${!L[@]}"; do M[$k]=${L[$k]}; done
	done
	keys=("${PS_KEYS[@]}" error)
	for k in "${keys[@]}"; do
		[ -n "${M[$k]+set}" ] || continue
		while IFS= read -r v; do
			case $k in
			outcome) echo "$v" ;;
			macros) echo macros ;;
			*) echo "$k $v" ;;
			esac
		done <<<"${M[$k]%$'\n'}"
	done
}

# ps_load DIR TEST: TEST's expectation for this kernel and architecture in
#   PS_OUTCOME ok|refuse|skip   PS_REASON (refuse: the regex; skip: why)
#   PS_NAME PS_MACROS(0/1) PS_KPB_ARGS() PS_MODULES() PS_TIMEOUT ("": the runner's)
#   PS_ARCHES PS_ARCH_REASON PS_BUILDS() ("NAME FILE") PS_BUILD_SCRIPT (a path)
#   PS_ERROR (a bad .expect line: the runner fails the test with it)
# shellcheck disable=SC2034  # (the PS_ variables are the runners')
ps_load() {
	local k v
	PS_OUTCOME=ok PS_REASON='' PS_NAME=${2#[0-9][0-9]-} PS_MACROS=0 PS_KPB_ARGS=()
	PS_MODULES=() PS_TIMEOUT='' PS_ARCHES='' PS_ARCH_REASON='' PS_BUILDS=()
	PS_BUILD_SCRIPT='' PS_ERROR=''
	while read -r k v; do
		case $k in
		ok) PS_OUTCOME=ok ;;
		refuse|skip) PS_OUTCOME=$k PS_REASON=$v ;;
		name) PS_NAME=$v ;;
		macros) PS_MACROS=1 ;;
		kpatch-build-args) read -ra PS_KPB_ARGS <<<"$v" ;;
		module) PS_MODULES+=("$v") ;;
		timeout) PS_TIMEOUT=$v ;;
		arches) PS_ARCHES=$v ;;
		arch-reason) PS_ARCH_REASON=$v ;;
		build) PS_BUILDS+=("$v") ;;
		build-script) PS_BUILD_SCRIPT=$(ps_file "$1" "$v") ;;
		error) PS_ERROR=${PS_ERROR:-$v} ;;
		esac
	done < <(ps_expect "$1" "$2")
	# a test for other architectures is skipped here, saying why
	if [ "$PS_OUTCOME" != skip ] && [ -n "$PS_ARCHES" ] && [[ " $PS_ARCHES " != *" ${KP_ARCH:-x86_64} "* ]]; then
		PS_OUTCOME=skip PS_REASON=${PS_ARCH_REASON:-only for $PS_ARCHES}
	fi
	return 0
}
