# shellcheck shell=bash
# Shell functions the bench/ scripts share (source it; it runs nothing by itself):
# running a command under /usr/bin/time -v and reading what it measured, and reading
# what a `gamesolver build` reports on its last line.

# Seconds from /usr/bin/time's "h:mm:ss" or "m:ss.ss".
bench_to_seconds() {
  awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; printf "%.2f", s }' <<<"$1"
}

# The value of a /usr/bin/time -v field ("User time (seconds)") in its output file.
bench_time_field() {
  grep -F "$1" "$2" | head -1 | sed 's/.*: //'
}

# bench_timed TIMING LOG COMMAND...: runs COMMAND under /usr/bin/time -v, its stdout and
# stderr into LOG and the measurements into TIMING; returns COMMAND's exit status.
bench_timed() {
  local timing=$1 log=$2
  shift 2
  /usr/bin/time -v -o "$timing" "$@" >"$log" 2>&1
}

# "WALL USER SYS RSS_KB" from a TIMING file of bench_timed.
bench_measured() {
  printf '%s %s %s %s\n' "$(bench_to_seconds "$(bench_time_field "Elapsed (wall clock) time" "$1")")" \
    "$(bench_time_field "User time (seconds)" "$1")" "$(bench_time_field "System time (seconds)" "$1")" \
    "$(bench_time_field "Maximum resident set size (kbytes)" "$1")"
}

# The tiers and the indices a build log reports on its last line, "built T tiers (I
# indices) in ...": bench_built_tiers LOG, bench_built_indices LOG.
bench_built_tiers() {
  sed -n 's/^built \([0-9]*\) tiers.*/\1/p' "$1" | tail -1
}
bench_built_indices() {
  sed -n 's/^built [0-9]* tiers (\([0-9]*\) indices).*/\1/p' "$1" | tail -1
}

# The machine, for the record: cores, memory, processor model, load.
bench_machine() {
  echo "$(nproc) cores, $(free -g | awk '/^Mem:/{print $2}') GiB, $(
    grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
}

# The commit of the checkout the scripts are in, marked when the tree has changes.
bench_commit() {
  local root
  root=$(dirname "${BASH_SOURCE[0]}")/..
  echo "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
    git -C "$root" diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')"
}
