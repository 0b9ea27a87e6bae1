# kpatch-build/lib/checks.sh: tools, inputs and pre-build checks (sourced by kpatch-build).
#
# Everything that can be refused is refused here, before anything is built or
# written: the helper tools are located, the source tree, vmlinux, kbuild tree and
# config are found (or defaulted) and validated, the configuration, compiler and
# signing set-up are checked against the booted kernel, and the patch files are
# parsed for the paths they touch (assembly, early boot code, build files, ... are
# refused). Each refusal is a one-line error (die) with no log excerpt, because
# there is no build output to show yet; the checks are kept together so that this
# promise is easy to keep. find_inputs and the check_* functions set the globals
# (SRCDIR, VMLINUX, KOBJ, CONFIG, CC_CMD, SIGN, CHANGED_FILES, ...) the build uses.

# ---------------------------------------------------------------- tools
find_tool() {
	local t=$1 d
	for d in ${KPATCH_TOOLS_DIR:+"$KPATCH_TOOLS_DIR"} "$SELF_DIR/../$t" "$SELF_DIR" \
		"$SELF_DIR/../libexec/kpatch-ng" "$SELF_DIR/../lib/kpatch-ng" "$SELF_DIR/../../bin"; do
		[ -x "$d/$t" ] && [ -f "$d/$t" ] && { echo "$d/$t"; return 0; }
	done
	command -v "$t" 2>/dev/null
}
find_kmod_template() {
	local d
	for d in ${KPATCH_KMOD_DIR:+"$KPATCH_KMOD_DIR"} "$SELF_DIR/../kmod/patch" \
		"$SELF_DIR/../share/kpatch-ng/kmod/patch" "$SELF_DIR/../../share/kpatch-ng/kmod/patch"; do
		[ -d "$d" ] && { (cd "$d" && pwd); return 0; }
	done
	return 1
}

# ---------------------------------------------------------------- inputs
find_inputs() {
	KPATCH_CACHE=${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}
	KB_CACHE=$KPATCH_CACHE/kpatch-build
	host_release

	find_oot_module
	KERNELRELEASE_ARG=
	if stock_wanted; then
		stock_inputs
	elif [ -n "$FULL_BUILD" ] && [ "$FULL_BUILD" = 1 ]; then
		die "--full-build goes with --kernel (a stock kernel); a self-built kernel's original build is always a full one"
	fi
	find_srcdir
	find_vmlinux
	find_kobj_config
}

# UNAME_R: the running kernel's release, what uname -r prints, read from /proc
# by a builtin (every run asks; uname is a process), uname where /proc has none
host_release() {
	UNAME_R=
	{ read -r UNAME_R < /proc/sys/kernel/osrelease; } 2>/dev/null && [ -n "$UNAME_R" ] ||
		UNAME_R=$(uname -r)
}

# -m/--oot-module: the module, its source and its name
find_oot_module() {
	if [ -n "$OOT_MODULE" ]; then
		[ -f "$OOT_MODULE" ] || die "out-of-tree module $OOT_MODULE not found"
		[ -d "$OOT_SRC" ] || die "out-of-tree module source $OOT_SRC not found"
		[ -f "$OOT_SRC/Kbuild" ] || [ -f "$OOT_SRC/Makefile" ] || die "$OOT_SRC has no Kbuild or Makefile"
		OOT_MODULE=$(readlink -f "$OOT_MODULE"); OOT_SRC=$(readlink -f "$OOT_SRC")
		# (a module modinfo cannot read: its file name)
		OOT_NAME=$(modinfo -F name "$OOT_MODULE" 2>/dev/null) || OOT_NAME=
		[ -n "$OOT_NAME" ] || OOT_NAME=$(basename "$OOT_MODULE" .ko)
		OOT_NAME=${OOT_NAME//-/_}
	fi
}

# the kernel source: -s, or the running kernel's; a clean tree (builds are O=)
find_srcdir() {
	local d f
	if [ -n "$OOT_MODULE" ] && [ -z "$SRCDIR" ]; then
		:	# the kernel source is not needed to rebuild an out-of-tree module
	elif [ -z "$SRCDIR" ]; then
		for d in "/lib/modules/$UNAME_R/source" "/usr/src/linux-source-${UNAME_R%%-*}" \
			"/usr/src/linux-$UNAME_R"; do
			[ -f "$d/Makefile" ] && [ -d "$d/kernel" ] && { SRCDIR=$d; break; }
		done
		[ -n "$SRCDIR" ] || die "$(stock_not_running): pass --kernel RELEASE for a Debian kernel release, or -s SRC -c CONFIG -v VMLINUX for a kernel you built (for the reference kernel: -s \$KSRC -c \$KCONFIG -v \$KVMLINUX from 'integration/kernel-cache.sh --print-env')"
	fi
	if [ -z "$OOT_MODULE" ]; then
		[ -f "$SRCDIR/Makefile" ] && [ -d "$SRCDIR/kernel" ] || die "$SRCDIR does not look like a kernel source tree (no Makefile/kernel/)"
		SRCDIR=$(readlink -f "$SRCDIR")
		for f in .config include/config include/generated "$SRCDIR"/arch/*/include/generated; do
			f=${f#"$SRCDIR/"}
			[ ! -e "$SRCDIR/$f" ] || die "source tree $SRCDIR is not clean ($f exists); kpatch-build builds out of tree (O=) and kbuild refuses a built-in tree: use a clean copy or 'make mrproper' it"
		done
	fi
}

# the booted kernel's vmlinux: -v, or next to -c, or the debug package's
find_vmlinux() {
	local f
	if [ -z "$VMLINUX" ]; then
		# -c inside a kernel build tree (the reference kernel: -c $KOBJ/.config): its vmlinux
		for f in ${CONFIG:+"$(dirname "$CONFIG")/vmlinux"} "/usr/lib/debug/boot/vmlinux-$UNAME_R" "/usr/lib/debug/lib/modules/$UNAME_R/vmlinux" \
			"/lib/modules/$UNAME_R/build/vmlinux"; do
			[ -f "$f" ] && { VMLINUX=$f; break; }
		done
		[ -n "$VMLINUX" ] || die "the booted kernel's vmlinux not found; pass -v <vmlinux of the booted kernel>"
		info "using vmlinux $VMLINUX"
	fi
	[ -f "$VMLINUX" ] || die "vmlinux $VMLINUX not found"
	VMLINUX=$(readlink -f "$VMLINUX")
	head -c 4 "$VMLINUX" | grep -q 'ELF' || die "$VMLINUX is not an ELF file"
}

# the kbuild tree (-k; Module.symvers) and the config (-c) of the booted kernel
find_kobj_config() {
	local d f
	if [ -z "$KOBJ" ]; then
		d=${VMLINUX%/*}; d=${d:-/}	# (its directory: VMLINUX is canonical)
		if [ -f "$d/Module.symvers" ] && [ -f "$d/Makefile" ]; then KOBJ=$d
		elif [ -f "/lib/modules/$UNAME_R/build/Module.symvers" ]; then KOBJ=/lib/modules/$UNAME_R/build
		else die "the booted kernel's kbuild tree (Module.symvers, Makefile) not found next to $VMLINUX; pass -k <dir>"
		fi
	fi
	[ -f "$KOBJ/Makefile" ] && [ -f "$KOBJ/Module.symvers" ] || die "$KOBJ is not a kbuild output tree (needs Makefile and Module.symvers)"
	KOBJ=$(readlink -f "$KOBJ")

	if [ -z "$CONFIG" ]; then
		for f in "$KOBJ/.config" "/boot/config-$UNAME_R"; do
			[ -f "$f" ] && { CONFIG=$f; break; }
		done
		[ -n "$CONFIG" ] || die "kernel config not found; pass -c <the booted kernel's .config>"
	fi
	[ -f "$CONFIG" ] || die "config file $CONFIG not found"
	CONFIG=$(readlink -f "$CONFIG")
}

# the kernel release of kbuild tree $1: UTS_RELEASE, which a distribution's
# headers tree has right (Debian's include/config/kernel.release says 6.1.192
# for 6.1.0-57-amd64: its build passes KERNELRELEASE on the command line)
kbuild_release() {
	local r
	# (either file may be missing: a tree that has not been prepared says '')
	r=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$1/include/generated/utsrelease.h" 2>/dev/null) || r=
	[ -n "$r" ] || r=$(cat "$1/include/config/kernel.release" 2>/dev/null) || r=
	echo "$r"
}

# The kernel configuration's values, read once per $CONFIG into KCFG (one sed
# and an eval, 0.08 s for Debian's 10,000 lines, where a sed per question cost
# 0.01 s each, twenty times a run). Values keep their quotes, as .config has them.
declare -A KCFG=()
KCFG_FILE=''
cfg_load() {
	[ "$KCFG_FILE" != "$CONFIG" ] || return 0
	KCFG=()
	# (each value single-quoted for the eval: nothing in it is expanded)
	eval "$(sed -n -e "s/'/'\\\\''/g" -e "s/^CONFIG_\([A-Za-z0-9_]*\)=\(.*\)/KCFG[\1]='\2'/p" "$CONFIG")"
	KCFG_FILE=$CONFIG
}
cfg() { cfg_load; echo "${KCFG[$1]:-}"; }
cfg_y() { cfg_load; [ "${KCFG[$1]:-}" = y ]; }	# is CONFIG_$1=y?
unquote() { local v=${1#\"}; echo "${v%\"}"; }
# cfg_unquoted VAR NAME: unquote of cfg NAME, into VAR (the checks of every run
# ask for a few: a $(...) each is a fork); its local is named apart from the
# callers' variables it sets
cfg_unquoted() { cfg_load; local cfgu_v=${KCFG[$2]:-}; cfgu_v=${cfgu_v#\"}; printf -v "$1" '%s' "${cfgu_v%\"}"; }

# ---------------------------------------------------------------- checks
# kernel configuration
check_config() {
	for opt in MODULES LIVEPATCH HAVE_LIVEPATCH DYNAMIC_FTRACE_WITH_REGS KALLSYMS_ALL; do
		cfg_y $opt || die "CONFIG_$opt is not enabled in $CONFIG: the kernel cannot load live patches built this way"
	done
	check_arch
}

# architecture: the kernel's, from its config (arch_of_config sets KPB_ARCH:
# x86_64, ppc64le, s390x, ...). KB_KARCH (kbuild's ARCH), KB_CROSS
# (CROSS_COMPILE) and KB_MAKE, the arguments every kernel make of the run gets:
# empty for a native build, ARCH= and CROSS_COMPILE= for a kernel of another
# architecture. ARCH and CROSS_COMPILE from
# the environment are honoured (ARCH must name the config's architecture) and then
# removed from it, so that they reach make only through KB_MAKE.
arch_of_config() {
	if cfg_y X86_64; then KPB_ARCH=x86_64
	elif cfg_y PPC64 && cfg_y CPU_LITTLE_ENDIAN; then KPB_ARCH=ppc64le
	elif cfg_y PPC64; then KPB_ARCH=ppc64-big-endian
	elif cfg_y S390; then KPB_ARCH=s390x
	elif cfg_y ARM64; then KPB_ARCH=arm64
	elif cfg_y X86_32 || cfg_y X86; then KPB_ARCH=i386
	else KPB_ARCH=unknown
	fi
}
check_arch() {
	local host want env_arch=${ARCH:-}
	arch_of_config
	case $KPB_ARCH in
	x86_64) KB_KARCH=x86 KB_CROSS=x86_64-linux-gnu- ;;
	ppc64le) KB_KARCH=powerpc KB_CROSS=powerpc64le-linux-gnu- ;;
	s390x) KB_KARCH=s390 KB_CROSS=s390x-linux-gnu- ;;
	arm64) die "$CONFIG is an arm64 configuration: arm64 is not supported (no Debian kernel selects arm64 livepatch; supported: x86_64, ppc64le, s390x)" ;;
	ppc64-big-endian) die "$CONFIG is a big-endian ppc64 configuration: only little-endian ppc64le is supported (CONFIG_CPU_LITTLE_ENDIAN)" ;;
	*) die "$CONFIG is a $KPB_ARCH configuration: not supported (supported: x86_64, ppc64le, s390x)" ;;
	esac
	if [ -n "$env_arch" ]; then
		case $env_arch in
		x86|x86_64|amd64) want=x86_64 ;;
		powerpc|ppc64le|ppc64el) want=ppc64le ;;
		s390|s390x) want=s390x ;;
		*) want=$env_arch ;;
		esac
		[ "$want" = "$KPB_ARCH" ] || die "ARCH=$env_arch in the environment, but $CONFIG is a $KPB_ARCH configuration"
	fi
	case "$(uname -m)" in
	x86_64) host=x86_64 ;; ppc64le) host=ppc64le ;; s390x) host=s390x ;; *) host=other ;;
	esac
	if [ -n "${CROSS_COMPILE+set}" ]; then
		KB_CROSS=$CROSS_COMPILE
	elif [ "$host" = "$KPB_ARCH" ]; then
		KB_CROSS=
	fi
	KB_MAKE=()
	[ -z "$KB_CROSS" ] && [ -z "$env_arch" ] || KB_MAKE=(ARCH="$KB_KARCH" CROSS_COMPILE="$KB_CROSS")
	unset ARCH CROSS_COMPILE
	# make ARCH=... above us puts it into MAKEFLAGS, where it beats KB_MAKE's ARCH=
	if [ -n "${MAKEFLAGS:-}" ]; then
		MAKEFLAGS=$(printf '%s' "$MAKEFLAGS" | sed -E 's/(^| )ARCH=[^ ]*//g; s/(^| )-- *$//')
		export MAKEFLAGS
	fi
	unset MAKEOVERRIDES
	check_ftrace_mode
}
# the ftrace call each architecture's livepatch redirects
check_ftrace_mode() {
	case $KPB_ARCH in
	x86_64)
		cfg_y HAVE_FENTRY || die "CONFIG_HAVE_FENTRY is not set in $CONFIG: x86_64 live patching needs -mfentry ftrace" ;;
	ppc64le)
		cfg_y MPROFILE_KERNEL || die "CONFIG_MPROFILE_KERNEL is not set in $CONFIG: ppc64le live patching needs -mprofile-kernel ftrace (a compiler that supports it)" ;;
	s390x)
		cfg_y HAVE_FENTRY && cfg_y FTRACE_MCOUNT_USE_CC ||
			die "CONFIG_HAVE_FENTRY and CONFIG_FTRACE_MCOUNT_USE_CC are not both set in $CONFIG: s390x live patching needs -mfentry -mnop-mcount -mrecord-mcount ftrace" ;;
	esac
}

# compiler
# "gcc (Debian 12.2.0-14) 12.2.0" -> "(Debian 12.2.0-14) 12.2.0" ; same for GCC: lines
cc_ident() { local cci_out; cc_ident_to cci_out "$1"; echo "$cci_out"; }
# cc_ident_to VAR LINE: cc_ident into VAR (no fork; its local is named apart
# from the callers' variables it sets)
cc_ident_to() {
	local cci_s=$2
	cci_s=${cci_s#GCC: }
	case $cci_s in \(*) ;; *) cci_s=${cci_s#* } ;; esac
	printf -v "$1" '%s' "$cci_s"
}
# The compiler behind the wrappers of a farm: CC="ccache gcc", "distcc gcc", a
# masquerade link (/usr/lib/distcc/gcc -> distcc) or a bare wrapper (CC=distcc runs
# cc). Its first --version line is the compiler's identity for the cache key and the
# checks: the objects do not depend on the wrapper, and distcc names the compiler
# by its target triplet (x86_64-linux-gnu-gcc), which must not make another key.
CC_WRAPPERS=" ccache distcc icecc sccache "
cc_is_wrapper() { local t; t=$(readlink -f "$1" 2>/dev/null) && [[ $CC_WRAPPERS == *" ${t##*/} "* ]]; }
cc_real() {
	local -a words dirs
	local w d
	read -ra words <<< "$1"
	while [ ${#words[@]} -gt 0 ] && [[ $CC_WRAPPERS == *" ${words[0]##*/} "* ]]; do
		words=("${words[@]:1}")
	done
	[ ${#words[@]} -gt 0 ] || words=(cc)
	w=$(command -v "${words[0]}" 2>/dev/null) || { echo "${words[*]}"; return; }
	if cc_is_wrapper "$w"; then	# masquerade link: the same name further down PATH
		IFS=: read -ra dirs <<< "$PATH"
		for d in "${dirs[@]}"; do
			[ -x "$d/${w##*/}" ] && ! cc_is_wrapper "$d/${w##*/}" && { words[0]=$d/${w##*/}; break; }
		done
	fi
	echo "${words[*]}"
}
check_compiler() {
	# the kernel's own compiler command when it is here (Debian's: gcc-12)
	local kcc ident
	cfg_unquoted kcc CC_VERSION_TEXT; kcc=${kcc%% *}
	case $kcc in "${KB_CROSS}gcc"*) command -v "$kcc" >/dev/null 2>&1 || kcc= ;; *) kcc= ;; esac
	CC_CMD=${CC:-${kcc:-${KB_CROSS}gcc}}
	CC_REAL=$(cc_real "$CC_CMD")
	# (one --version run when CC is the compiler itself, no wrapper: its first
	# line, and whether it ran; two when a wrapper is in front of it)
	local cc_out='' cc_rc=0
	cc_out=$($CC_REAL --version 2>/dev/null) || cc_rc=$?
	CC_FIRST=${cc_out%%$'\n'*}
	if [ -z "$CC_FIRST" ] && [ -n "$KB_CROSS" ] && [ -z "${CC:-}" ]; then
		die "cross compiler '$CC_CMD' for the $KPB_ARCH kernel not found (install gcc-${KB_CROSS%-}, or set CROSS_COMPILE or CC)"
	fi
	if [ "$CC_REAL" != "$CC_CMD" ]; then
		cc_rc=0
		$CC_CMD --version > /dev/null 2>&1 || cc_rc=$?
	fi
	[ "$cc_rc" = 0 ] || die "compiler '$CC_CMD' not found or not runnable (set CC)"
	[ -n "$CC_FIRST" ] || die "compiler '$CC_REAL' (of CC='$CC_CMD') not found or not runnable (set CC)"
	if [ -n "$KB_CROSS" ]; then
		command -v "${KB_CROSS}ld" >/dev/null || die "cross linker '${KB_CROSS}ld' for the $KPB_ARCH kernel not found (install binutils-${KB_CROSS%-})"
	fi
	# kpatch-cc holds every patched object to it (a farm host with another compiler)
	cc_ident_to CC_IDENT "$CC_FIRST"
	export KPATCH_CC_IDENT=$CC_IDENT
	if [ "$SKIP_CC_CHECK" = 0 ]; then
		cfg_unquoted want CC_VERSION_TEXT
		cc_ident_to ident "$want"
		if [ -n "$want" ] && [ "$ident" != "$CC_IDENT" ]; then
			die "compiler mismatch: the kernel was built with '$want' (CONFIG_CC_VERSION_TEXT), '$CC_CMD' is '$CC_FIRST' (set CC, or --skip-compiler-check)"
		fi
		vcomment=$(readelf -p .comment "$VMLINUX" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | grep -m1 '^GCC: ' || true)
		cc_ident_to ident "$vcomment"
		if [ -n "$vcomment" ] && [ "$ident" != "$CC_IDENT" ]; then
			die "compiler mismatch: $VMLINUX was built with '${vcomment#GCC: }' (.comment), '$CC_CMD' is '$CC_FIRST' (set CC, or --skip-compiler-check)"
		fi
	fi
}

# module signing: with the user's own key and certificate (--sign-key,
# --sign-cert), else the kernel's own key where its build tree still has it (a
# self-built kernel; a distribution throws its key away after the build)
sig_enforced() {
	cfg_y MODULE_SIG_FORCE && return 0
	# the running kernel, when it is the one patched: module.sig_enforce=1 or lockdown
	[ "$(kbuild_release "$KOBJ")" = "$UNAME_R" ] &&
		[ "$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null || true)" = Y ]
}
check_signing() {
	SIGN=0
	SIGFILE=$KOBJ/scripts/sign-file
	cfg_unquoted SIGHASH MODULE_SIG_HASH; SIGHASH=${SIGHASH:-sha256}
	if [ -n "$SIGN_KEY$SIGN_CERT" ]; then
		[ -n "$SIGN_KEY" ] && [ -n "$SIGN_CERT" ] || die "--sign-key and --sign-cert go together (KPATCH_SIGN_KEY, KPATCH_SIGN_CERT)"
		[ -r "$SIGN_KEY" ] || die "signing key $SIGN_KEY not found or not readable"
		[ -r "$SIGN_CERT" ] || die "signing certificate $SIGN_CERT not found or not readable"
		[ -x "$SIGFILE" ] || die "$SIGFILE not found: the kbuild tree $KOBJ cannot sign modules"
		SIGKEY=$(readlink -f "$SIGN_KEY") SIGCERT=$(readlink -f "$SIGN_CERT") SIGN=1
		return 0
	fi
	cfg_y MODULE_SIG || return 0
	cfg_unquoted SIGKEY MODULE_SIG_KEY; SIGKEY=${SIGKEY:-certs/signing_key.pem}
	case $SIGKEY in /*) ;; pkcs11:*) ;; *) SIGKEY=$KOBJ/$SIGKEY ;; esac
	SIGCERT=$KOBJ/certs/signing_key.x509
	if [ -r "$SIGKEY" ] && [ -x "$SIGFILE" ] && [ -r "$SIGCERT" ]; then
		SIGN=1
	elif sig_enforced; then
		die "kernel $(kbuild_release "$KOBJ") only loads signed modules (CONFIG_MODULE_SIG_FORCE or module.sig_enforce) and its signing key $SIGKEY is not available: pass your own key and its enrolled certificate with --sign-key and --sign-cert"
	else
		warn "module signing key not found ($SIGKEY): the module will be unsigned and taint the kernel (--sign-key/--sign-cert sign it with yours)"
	fi
}

# patch files: which paths they touch, refusals
# prints "old<TAB>new" per file of a unified diff (-p1 stripped; /dev/null kept)
patch_files() {
	awk '
	function strip(p) { sub(/\t.*/, "", p); sub(/^"/, "", p); sub(/"$/, "", p)
		if (p == "/dev/null") return p; sub(/^[^\/]*\//, "", p); return p }
	# inside a hunk: count its lines, so that a removed line "-- x" is not a header
	left_old > 0 || left_new > 0 {
		c = substr($0, 1, 1)
		if (c == " " || $0 == "") { left_old--; left_new-- }
		else if (c == "-") left_old--
		else if (c == "+") left_new--
		else if (c != "\\") { left_old = 0; left_new = 0 }
		if (c == " " || c == "-" || c == "+" || c == "\\" || $0 == "") next
	}
	/^@@ / {
		split($2, a, ","); left_old = (2 in a) ? a[2] + 0 : 1
		split($3, b, ","); left_new = (2 in b) ? b[2] + 0 : 1
		next
	}
	/^diff --git / { gitold = "" }
	/^rename from / { gitold = substr($0, 13) } /^rename to / { print gitold "\t" substr($0, 11) }
	/^copy from / { gitold = substr($0, 11) } /^copy to / { print "/dev/null\t" substr($0, 9) }
	/^GIT binary patch/ || /^Binary files / { print "BINARY\tBINARY" }
	/^--- / { old = strip(substr($0, 5)); next }
	/^\+\+\+ / && old != "" { print old "\t" strip(substr($0, 5)); old = ""; next }
	' "$1"
}
check_patches() {
	CHANGED_FILES=()	# relative paths (new names) the patches change, unique
	declare -gA SEEN_FILE=()
	for p in "${PATCHES[@]}"; do
		n=0
		while IFS=$'\t' read -r old new; do
			n=$((n + 1))
			[ "$old" != BINARY ] || die "$p: binary patches are not supported"
			for f in "$old" "$new"; do
				[ "$f" != /dev/null ] || continue
				case $f in
				*/../*|../*|/*) die "$p: suspicious path '$f' (patches are applied with -p1 in the source root)" ;;
				*.lds|*.lds.S|*.lds.h)
					die "$p: changes linker script $f: cannot be live-patched" ;;
				*.S|*.s) die "$p: changes assembly source $f: assembly cannot be live-patched" ;;
				*/vdso/*|*/vdso32/*|*/vsyscall/*) die "$p: changes vdso code $f: it runs in user space and cannot be live-patched" ;;
				arch/*/boot/*|arch/x86/realmode/*|arch/x86/purgatory/*|arch/x86/kernel/head64.c|arch/x86/kernel/head32.c|arch/x86/kernel/head_*|arch/x86/mm/mem_encrypt_identity.c|arch/x86/kernel/ebda.c|arch/x86/platform/pvh/*)
					die "$p: changes early boot code $f: it has run before live patching exists and cannot be patched" ;;
				Makefile|*/Makefile|Kbuild|*/Kbuild|Kconfig*|*/Kconfig*|*.mk)
					die "$p: changes build file $f: the build configuration of the running kernel cannot change" ;;
				*.bc) die "$p: changes $f, from which kbuild generates a header (timeconst.h) that the patched objects cannot see: cannot be live-patched" ;;
				scripts/*|tools/*|usr/*) die "$p: changes build tool or user-space code $f: not part of the running kernel" ;;
				esac
			done
			if [ "$new" != /dev/null ] && [ -z "${SEEN_FILE[$new]:-}" ]; then
				SEEN_FILE[$new]=1; CHANGED_FILES+=("$new")
			fi
			if [ "$new" = /dev/null ] && [ -z "${SEEN_FILE[$old]:-}" ]; then
				SEEN_FILE[$old]=1; CHANGED_FILES+=("$old")
			fi
		done < <(patch_files "$p")
		[ $n -gt 0 ] || die "$p: not a unified diff (no '--- a/...' / '+++ b/...' file headers)"
	done
}
