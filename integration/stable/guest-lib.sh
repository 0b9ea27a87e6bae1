# guest-lib.sh: put before each NN.guest of the stable fixes (stable.sh does):
# a check runs the fix's patched path and proves it ran in the live patch.

# ran FUNC CMD...: CMD runs FUNC's copy in the loaded live patch (ftrace of
# that module's FUNC only, :mod: filter; FUNC or a clone GCC made of it,
# FUNC.part.0 of a partly inlined one: the copy the patch may hold); fails
# when CMD fails or FUNC did not run
ran() {
	f=$1; shift
	t=/sys/kernel/tracing
	[ -e $t/set_ftrace_filter ] || mount -t tracefs nodev $t || return 1
	m=$(ls /sys/kernel/livepatch | head -n1)
	echo "$f:mod:$m" 2>/dev/null > $t/set_ftrace_filter
	echo "$f.*:mod:$m" 2>/dev/null >> $t/set_ftrace_filter
	grep -q . $t/set_ftrace_filter || { echo "no $f in $m to trace"; return 1; }
	echo > $t/trace
	echo function > $t/current_tracer
	"$@"; rc=$?
	# (switching the tracer back empties the buffer: read it first)
	echo 0 > $t/tracing_on
	grep -qE " $f(\.[a-z]+\.[0-9]+)* <-" $t/trace; ran=$?
	echo nop > $t/current_tracer
	echo 1 > $t/tracing_on
	echo > $t/set_ftrace_filter
	[ $ran = 0 ] || { echo "$f of $m did not run"; return 1; }
	return $rc
}

# a cgroup2 hierarchy with CONTROLLER enabled for its children
cgroup2() {
	c=/sys/fs/cgroup
	[ -e $c/cgroup.controllers ] || mount -t cgroup2 none $c || return 1
	echo "+$1" > $c/cgroup.subtree_control
}
