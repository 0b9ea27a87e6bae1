# kpatch-build/lib/stock.sh: a distribution's stock kernel, Debian's (sourced by
# kpatch-build).
#
# Nobody patches a kernel they built themselves: a stock kernel is known by its
# release (6.1.0-57-amd64) and its packages. Here the pieces a build needs are
# found, or fetched with apt-get download into $KPATCH_CACHE/debian/debs and
# unpacked into $KPATCH_CACHE/stock/<release>/, never installed:
#   linux-headers-<release> (+ its -common and linux-kbuild packages): the kbuild
#       tree the patch module is built against, the .config, Module.symvers;
#   linux-image-<release>-dbg: only the unstripped vmlinux, and the debug module
#       of a patched module (never the whole 5 GB);
#   linux-source-<major.minor>: the source, whose version must be the image's.
# Which binary an object belongs to is read from the -dbg package's DWARF
# compilation units (kpatch-dwarf-units), not from a build: units.vmlinux at
# once, units.modules (every debug module, one pass over the package) the first
# time a patch touches something vmlinux does not compile. The original objects
# are then built one by one (targeted.sh), not the whole kernel.
# -s/-c/-v/-k still override each piece.

STOCK_RELEASE=${STOCK_RELEASE:-}
STOCK=0

# Is there a stock kernel to patch? --kernel REL, or no piece given and the
# running kernel is a Debian package.
stock_wanted() {
	[ -z "$OOT_MODULE" ] || return 1
	[ -n "$STOCK_RELEASE" ] && return 0
	[ -z "$SRCDIR$CONFIG$VMLINUX$KOBJ" ] || return 1
	[ -f "$KPATCH_CACHE/stock/$UNAME_R/.image-version" ] ||
		stock_image_version "$UNAME_R" >/dev/null 2>&1 || return 1
	STOCK_RELEASE=$UNAME_R
}

# Why the running kernel is not patched as a stock one, for the error that
# names the ways out: a release named like Debian's (6.1.0-57-amd64,
# 6.12.118+deb12-amd64) whose packages apt no longer has (the archive keeps
# the current release only), or a kernel that is no Debian package at all
stock_not_running() {
	local cur
	if [[ $UNAME_R =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?([-+][0-9a-z.+]+)?-(amd64|cloud-amd64|rt-amd64|arm64|ppc64el|s390x)$ ]]; then
		cur=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*\)$/\1/p' | head -n 1)
		echo "the running kernel $UNAME_R is named like a Debian release, but apt has no linux-image-$UNAME_R (Debian's archive keeps only the current release${cur:+, $cur for 6.1}; 'apt-get update'?)"
	else
		echo "the running kernel $UNAME_R is not a Debian kernel package, and its source was not found"
	fi
}

# the version of package $1: installed, else apt's candidate
stock_pkg_version() {
	local v
	v=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null) && [ -n "$v" ] && { echo "$v"; return 0; }
	v=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | head -n1)
	[ -n "$v" ] && [ "$v" != "(none)" ] && echo "$v"
}
# the version of the image package of release $1, as stock_pkg_version of
# linux-image-$1, else of linux-image-$1-unsigned, gives it; apt is asked about
# both in one apt-cache call (a call reads every package list: 3-4 s on a
# system that keeps no binary cache of them, as Debian's container images)
stock_image_version() {
	local img=linux-image-$1 v p cand_img='' cand_uns=''
	v=$(dpkg-query -W -f='${Version}' "$img" 2>/dev/null) && [ -n "$v" ] && { echo "$v"; return 0; }
	# (each package's first Candidate line, as sed | head -n1 read one package's)
	while read -r p v; do
		case $p in
		"$img") cand_img=${cand_img:-$v} ;;
		"$img-unsigned") cand_uns=${cand_uns:-$v} ;;
		esac
	done < <(apt-cache policy "$img" "$img-unsigned" 2>/dev/null |
		awk '/^[^ ].*:$/ { pkg = substr($0, 1, length($0) - 1); next }
		     sub(/^ *Candidate: */, "") { print pkg, $0 }' || true)
	[ -n "$cand_img" ] && [ "$cand_img" != "(none)" ] && { echo "$cand_img"; return 0; }
	v=$(dpkg-query -W -f='${Version}' "$img-unsigned" 2>/dev/null) && [ -n "$v" ] && { echo "$v"; return 0; }
	[ -n "$cand_uns" ] && [ "$cand_uns" != "(none)" ] && echo "$cand_uns"
}

# "SIZE SHA256" of package $1 at version $2, as apt's index gives them
stock_deb_index() {
	apt-cache show "$1=$2" 2>/dev/null | awk '
		/^Size: / { size = $2 } /^SHA256: / { sum = $2 }
		/^$/ { if (size != "" && sum != "") exit; size = sum = "" }
		END { if (size != "" && sum != "") print size, sum }'
}

# Is the cached $1 the package apt's index names (package $2, version $3)? A
# .deb cut short (a full disk, an apt killed by someone else) is not: its size
# or SHA256 differs. The check of a file is kept in $DEBS/.checked/ keyed by
# its size, mtime and inode, so that a 1 GB -dbg package is hashed once, not
# every run. A package apt no longer indexes cannot be checked: it is used.
stock_deb_checked() {
	local f=$1 want have stamp
	want=$(stock_deb_index "$2" "$3") || want=
	[ -n "$want" ] || return 0
	stamp=$DEBS/.checked/$(basename "$f")
	have=$(stat -c '%s %Y %i' "$f") || return 1
	[ "$(cat "$stamp" 2>/dev/null)" = "$have $want" ] && return 0
	if [ "${have%% *}" != "${want%% *}" ]; then
		CHECK_WHY="$(basename "$f") is ${have%% *} bytes, apt's index says ${want%% *} (cut short?)"
		return 1
	fi
	if [ "$(sha256sum < "$f" | cut -d' ' -f1)" != "${want#* }" ]; then
		CHECK_WHY="$(basename "$f") does not have the SHA256 apt's index gives (damaged?)"
		return 1
	fi
	mkdir -p "$DEBS/.checked" && echo "$have $want" > "$stamp.$$" && mv "$stamp.$$" "$stamp"
}

# the .deb of package $1 at version $2 in the download cache, fetched when
# missing or not what apt's index names (then said in one line)
stock_deb() {
	local pkg=$1 ver=$2 f CHECK_WHY=
	mkdir -p "$DEBS" || die "cannot create $DEBS"
	for f in "$DEBS/${pkg}_${ver/:/%3a}_"*.deb; do
		[ -f "$f" ] || continue
		stock_deb_checked "$f" "$pkg" "$ver" && { echo "$f"; return 0; }
		info "cached $CHECK_WHY: downloading it again" >&2
		rm -f "$f" "$DEBS/.checked/$(basename "$f")"
	done
	info "downloading $pkg $ver (apt-get download, into $DEBS)" >&2
	(cd "$DEBS" && apt-get download -q "$pkg=$ver") > "$DEBS/.download-$pkg.log" 2>&1 ||
		return 1
	for f in "$DEBS/${pkg}_${ver/:/%3a}_"*.deb; do
		[ -f "$f" ] && stock_deb_checked "$f" "$pkg" "$ver" && { echo "$f"; return 0; }
	done
	return 1
}
stock_deb_or_die() {
	stock_deb "$1" "$2" ||
		die "cannot download $1 $2 for the stock kernel $STOCK_RELEASE: $(grep -m1 -E '^E: ' "$DEBS/.download-$1.log" 2>/dev/null || echo 'apt-get download failed') (apt sources and 'apt-get update'?)"
}

# the packages the headers package depends on that carry kbuild: its -common
# tree and linux-kbuild-*, at the versions it names
stock_headers_deps() {
	apt-cache depends "linux-headers-$STOCK_RELEASE=$STOCK_VERSION" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\).*/\1/p' | sort -u
}

# KOBJ: the kbuild tree of the headers package (installed, or unpacked)
stock_headers() {
	local d=/usr/src/linux-headers-$STOCK_RELEASE p v deb
	if [ -f "$d/Module.symvers" ] && [ -f "$d/.config" ]; then KOBJ=$d; return 0; fi
	d=$SK/root/usr/src/linux-headers-$STOCK_RELEASE
	if [ ! -f "$SK/root/.headers-$STOCK_VERSION" ]; then
		info "unpacking linux-headers-$STOCK_RELEASE $STOCK_VERSION into $SK/root"
		for p in "linux-headers-$STOCK_RELEASE" $(stock_headers_deps); do
			v=$(stock_pkg_version "$p") || v=$STOCK_VERSION
			case $p in linux-headers-*) v=$STOCK_VERSION ;; esac
			deb=$(stock_deb_or_die "$p" "$v") || exit 1
			dpkg-deb -x "$deb" "$SK/root" || die "cannot unpack $deb"
		done
		# the arch tree's Makefile includes the -common tree by its installed path
		sed -i "s|^include /usr/src/|include $SK/root/usr/src/|" "$d/Makefile" ||
			die "cannot adjust $d/Makefile"
		touch "$SK/root/.headers-$STOCK_VERSION"
	fi
	[ -f "$d/Module.symvers" ] || die "linux-headers-$STOCK_RELEASE has no Module.symvers ($d)"
	KOBJ=$d
}

# the debug package's data, streamed: tar arguments follow
stock_dbg_tar() {
	local deb
	deb=$(stock_deb_or_die "linux-image-$STOCK_RELEASE-dbg" "$STOCK_VERSION") || exit 1
	# (tar --occurrence stops reading early: dpkg-deb then dies of SIGPIPE)
	{ dpkg-deb --fsys-tarfile "$deb" 2>/dev/null || true; } | tar -x -C "$SK/root" "$@"
}

# VMLINUX: the unstripped vmlinux of the -dbg package; its compilation units
stock_vmlinux() {
	local f=/usr/lib/debug/boot/vmlinux-$STOCK_RELEASE
	[ -f "$f" ] || f=$SK/root/usr/lib/debug/boot/vmlinux-$STOCK_RELEASE
	if [ ! -f "$f" ]; then
		info "unpacking vmlinux-$STOCK_RELEASE from linux-image-$STOCK_RELEASE-dbg"
		mkdir -p "$SK/root"
		stock_dbg_tar --occurrence=1 "./usr/lib/debug/boot/vmlinux-$STOCK_RELEASE" && [ -f "$f" ] || die "linux-image-$STOCK_RELEASE-dbg $STOCK_VERSION has no usr/lib/debug/boot/vmlinux-$STOCK_RELEASE"
	fi
	VMLINUX=$f
}

# compilation units of vmlinux: "<source> <producer>" in $SK/units.vmlinux
stock_units_vmlinux() {
	[ -s "$SK/units.vmlinux" ] && return 0
	"$DWARF_UNITS" "$VMLINUX" 2>/dev/null | cut -f2- > "$SK/units.vmlinux.$$" && [ -s "$SK/units.vmlinux.$$" ] || die "cannot read the compilation units of $VMLINUX (kpatch-dwarf-units)"
	mv "$SK/units.vmlinux.$$" "$SK/units.vmlinux"
}

# compilation units of every debug module: "<module path><TAB><source><TAB><producer>"
# in $SK/units.modules (module path relative to lib/modules/<release>/); one
# pass over the whole debug package, then only the debug modules of the sources
# listed in file $1 are kept
stock_units_modules() {
	local want=$1 tmp=$SK/dbg.tmp mdir
	[ -s "$SK/units.modules" ] && return 0
	step "indexing the debug modules of linux-image-$STOCK_RELEASE-dbg (once per release, about a minute)"
	rm -rf "$tmp"; mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$(stock_deb_or_die "linux-image-$STOCK_RELEASE-dbg" "$STOCK_VERSION")" |
		tar -x -C "$tmp" --wildcards "./usr/lib/debug/lib/modules/$STOCK_RELEASE/*.ko" ||
		fail "unpacking the debug modules failed"
	mdir=$tmp/usr/lib/debug/lib/modules/$STOCK_RELEASE
	(cd "$mdir" && find . -name '*.ko' | sed 's|^\./||' | sort | xargs -r "$DWARF_UNITS") \
		> "$SK/units.modules.$$" 2>> "$LOG" || true
	[ -s "$SK/units.modules.$$" ] || fail "no compilation units in the debug modules of linux-image-$STOCK_RELEASE-dbg"
	mv "$SK/units.modules.$$" "$SK/units.modules"
	info "$(cut -f1 "$SK/units.modules" | sort -u | wc -l) debug modules, $(wc -l < "$SK/units.modules") compilation units"
	# keep the debug modules the patch needs, drop the rest
	local m d
	for m in $(stock_modules_of "$want"); do
		d=.; case $m in */*) d=${m%/*} ;; esac
		mkdir -p "$SK/root/usr/lib/debug/lib/modules/$STOCK_RELEASE/$d"
		mv "$mdir/$m" "$SK/root/usr/lib/debug/lib/modules/$STOCK_RELEASE/$m"
	done
	rm -rf "$tmp"
}

# the module paths whose units compile one of the sources listed in file $1
stock_modules_of() {
	awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($2 in want) { print $1 }' "$1" "$SK/units.modules" | sort -u
}

# the debug modules of the sources listed in file $1, unpacked in one pass over
# the package for all that are missing (one per module would stream it each time)
stock_fetch_modules() {
	local m missing=()
	[ -s "$SK/units.modules" ] || return 0
	for m in $(stock_modules_of "$1"); do
		[ -f "$SK/root/usr/lib/debug/lib/modules/$STOCK_RELEASE/$m" ] ||
			missing+=("./usr/lib/debug/lib/modules/$STOCK_RELEASE/$m")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	info "unpacking ${#missing[@]} debug module(s) from linux-image-$STOCK_RELEASE-dbg"
	stock_dbg_tar --occurrence=1 "${missing[@]}"
}

# the debug module file of module NAME (as the kernel names it: '-' is '_'),
# unpacked when missing
stock_module_file() {
	local name=$1 m f
	m=$(awk -F'\t' -v n="$name" '{ b = $1; sub(/.*\//, "", b); sub(/\.ko$/, "", b); gsub(/-/, "_", b) }
		b == n { print $1; exit }' "$SK/units.modules" 2>/dev/null)
	[ -n "$m" ] || return 1
	f=$SK/root/usr/lib/debug/lib/modules/$STOCK_RELEASE/$m
	if [ ! -f "$f" ]; then
		info "unpacking the debug module $m from linux-image-$STOCK_RELEASE-dbg" >&2
		stock_dbg_tar --occurrence=1 "./usr/lib/debug/lib/modules/$STOCK_RELEASE/$m"
	fi
	[ -f "$f" ] && echo "$f"
}

# SRCDIR: linux-source-<major.minor> at the image's version, unpacked once into
# $KPATCH_CACHE/src/ (the layout and marker integration/kernel-cache.sh uses)
stock_source() {
	local name=linux-source-$STOCK_MAJMIN ver tarball id deb dst mark
	dst=$KPATCH_CACHE/src/$name
	# unpacked already for this version: nothing to ask dpkg (0.07 s) or check
	# (a missing marker is a cold cache: `$(< missing)` would end the shell
	# under set -e + inherit_errexit, `||` or not)
	mark=
	[ ! -f "$KPATCH_CACHE/src/.$name.complete" ] || mark=$(< "$KPATCH_CACHE/src/.$name.complete")
	case $mark in "$name $STOCK_VERSION "*) [ -d "$dst" ] && { SRCDIR=$dst; return 0; } ;; esac
	ver=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || ver=
	tarball=/usr/src/$name.tar.xz
	if [ "$ver" != "$STOCK_VERSION" ] || [ ! -r "$tarball" ]; then
		[ -z "$ver" ] || [ "$ver" = "$STOCK_VERSION" ] ||
			info "installed $name is $ver, not the image's $STOCK_VERSION: using the package of $STOCK_VERSION"
		deb=$(stock_deb "$name" "$STOCK_VERSION") ||
			die "no $name of version $STOCK_VERSION for linux-image-$STOCK_RELEASE $STOCK_VERSION (apt has $name $(stock_pkg_version "$name" || echo none)): the source must be the image's own version; pass -s <its source tree>"
		tarball=$SK/$name.tar.xz
		if [ ! -f "$tarball" ]; then
			dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$name.tar.xz" > "$tarball.$$" ||
				die "cannot extract $name.tar.xz from $deb"
			mv "$tarball.$$" "$tarball"
		fi
	fi
	id="$name $STOCK_VERSION $(stat -c %s "$tarball")"
	mkdir -p "$KPATCH_CACHE/src"
	(
		flock 9
		[ -d "$dst" ] && [ "$(cat "$KPATCH_CACHE/src/.$name.complete" 2>/dev/null)" = "$id" ] && exit 0
		info "unpacking $name $STOCK_VERSION into $dst (once per version, about 40 s)"
		rm -rf "$dst" "$KPATCH_CACHE/src/.$name.complete" "$KPATCH_CACHE/src/.unpack.tmp"
		mkdir "$KPATCH_CACHE/src/.unpack.tmp" &&
			tar -C "$KPATCH_CACHE/src/.unpack.tmp" -xJf "$tarball" &&
			mv "$KPATCH_CACHE/src/.unpack.tmp/$name" "$dst" &&
			rmdir "$KPATCH_CACHE/src/.unpack.tmp" &&
			echo "$id" > "$KPATCH_CACHE/src/.$name.complete"
	) 9>"$KPATCH_CACHE/src/.lock" || die "unpacking $tarball failed"
	SRCDIR=$dst
}

# Every release check, before anything is built: the headers' kernel release
# and the vmlinux's banner are the release's (the source's version is the
# image's: stock_source fetched it so)
stock_checks() {
	local krel
	krel=$(kbuild_release "$KOBJ")
	[ "$krel" = "$STOCK_RELEASE" ] ||
		die "the kbuild tree $KOBJ is kernel release '${krel:-unknown}', not $STOCK_RELEASE"
	grep -qaF -m1 "Linux version $STOCK_RELEASE " "$VMLINUX" ||
		die "$VMLINUX is not the vmlinux of $STOCK_RELEASE (no 'Linux version $STOCK_RELEASE' banner)"
	KERNELRELEASE_ARG=KERNELRELEASE=$krel
}

# find_inputs for a stock kernel: each piece not given on the command line
stock_inputs() {
	STOCK=1
	DEBS=$KPATCH_CACHE/debian/debs
	SK=$KPATCH_CACHE/stock/$STOCK_RELEASE
	DWARF_UNITS=$(find_tool kpatch-dwarf-units) || die "kpatch-dwarf-units not found (run 'make' in the kpatch-ng tree)"
	# (apt-cache takes a second or two: the answer is kept per release, as a
	# release's packages keep their version)
	STOCK_VERSION=$(cat "$SK/.image-version" 2>/dev/null) ||
		STOCK_VERSION=$(stock_image_version "$STOCK_RELEASE") ||
		die "no Debian kernel package linux-image-$STOCK_RELEASE (apt-cache knows none: a release like 6.1.0-57-amd64; 'apt-get update'?)"
	mkdir -p "$SK/root" || die "cannot create $SK"
	echo "$STOCK_VERSION" > "$SK/.image-version"
	case $STOCK_RELEASE in
	[0-9]*.[0-9]*) [[ $STOCK_RELEASE =~ ^([0-9]+\.[0-9]+) ]] && STOCK_MAJMIN=${BASH_REMATCH[1]} ;;
	esac
	[ -n "${STOCK_MAJMIN:-}" ] || die "cannot read a kernel version from the release '$STOCK_RELEASE'"
	info "stock kernel $STOCK_RELEASE: Debian packages of version $STOCK_VERSION (cache $SK)"
	[ -n "$KOBJ" ] || stock_headers
	[ -n "$CONFIG" ] || CONFIG=$KOBJ/.config
	[ -n "$VMLINUX" ] || stock_vmlinux
	[ -n "$SRCDIR" ] || stock_source
	stock_checks
}
