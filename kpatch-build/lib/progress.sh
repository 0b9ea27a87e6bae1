# kpatch-build/lib/progress.sh: progress of the original build (sourced by kpatch-build).
progress_start() { :; }
progress_stop() { :; }
