#!/usr/bin/env bash
# Runs one build at several thread counts, one after another, and prints for each its
# wall seconds, CPU seconds (user + sys), the speedup over the first count, the
# utilisation (CPU seconds over wall seconds times threads), the peak RSS the build
# reports and a digest of the files written; it checks that every run wrote the same
# files (the digest compares them with another binary's).
#
#   bench/scaling.sh [--log DIR] "THREADS..." "COMMAND"
#
# COMMAND is a shell line in which {threads} becomes the thread count and {data} a
# fresh, empty directory. --log DIR keeps each run's output (its per-tier lines) as
# DIR/NAME-tTHREADS.log, NAME being the command's game and piece count.
#
# Example, 1, 4 and 16 threads on Jungle Checkers up to 4 pieces:
#   bench/scaling.sh "1 4 16" "build/gamesolver build jungle --pieces 4 --threads {threads} --data {data}"
set -euo pipefail

log_dir=
copies=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --log) log_dir=$2; shift 2 ;;
    --copies)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: --copies needs a count" >&2; exit 2; }
      copies=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "scaling.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -eq 2 ]] || { echo "scaling.sh: give the thread counts and one command (see --help)" >&2; exit 2; }
read -r -a counts <<<"$1"
command=$2
[[ ${#counts[@]} -gt 0 ]] || { echo "scaling.sh: no thread count" >&2; exit 2; }
for count in "${counts[@]}"; do
  [[ $count =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: '$count' is not a thread count" >&2; exit 2; }
done

name=$(awk '{for (i = 1; i < NF; ++i) if ($i == "build") {g = $(i + 1)} else if ($i == "--pieces" || $i == "--variant") {p = p "-" $(i + 1)}} END {print g p}' <<<"$command")
[[ -n $name ]] || name=run
work=$(mktemp -d "${TMPDIR:-/tmp}/scaling.XXXXXX")
trap 'rm -rf "$work"' EXIT
[[ -z $log_dir ]] || mkdir -p "$log_dir"

# A digest of every file under a directory, by path.
digest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16); }

first_wall=
first_digest=
for count in "${counts[@]}"; do
  data="$work/data"
  rm -rf "$data"
  mkdir -p "$data"
  run=${command//\{data\}/$data}
  run=${run//\{threads\}/$count}
  log="$work/log"
  [[ -z $log_dir ]] || log="$log_dir/$name-t$count.log"
  TIMEFORMAT='%R %U %S'
  if ! { time bash -c "$run" >"$log" 2>&1; } 2>"$work/time"; then
    echo "scaling.sh: the run on $count threads failed:" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  read -r wall user sys <"$work/time"
  digest=$(digest "$data")
  peak=$(grep -o 'peak RSS [0-9.]* [KMG]iB' "$log" | tail -1 || true)
  [[ -n $first_wall ]] || { first_wall=$wall; first_digest=$digest; }
  same="identical ($digest)"
  [[ $digest == "$first_digest" ]] || same="DIFFERENT ($digest)"
  awk -v n="$name" -v t="$count" -v w="$wall" -v u="$user" -v s="$sys" -v f="$first_wall" \
      -v p="${peak:-peak RSS ?}" -v d="$same" \
    'BEGIN {cpu = u + s; printf "%-16s %3d threads: %8.2f s wall %9.2f CPU-s  speedup %5.2fx  utilisation %3.0f%%  %s  files %s\n", n, t, w, cpu, f / w, 100 * cpu / (w * t), p, d}'
  [[ $digest == "$first_digest" ]] || exit 1
done

[[ $copies -gt 0 ]] || exit 0
# N copies on one thread each, at once; each writes its own directory and its times.
run=${command//\{threads\}/1}
for ((k = 1; k <= copies; ++k)); do
  mkdir -p "$work/copy$k"
  ( TIMEFORMAT='%R %U %S'
    { time bash -c "${run//\{data\}/$work/copy$k}" >"$work/copy$k.log" 2>&1; } 2>"$work/copy$k.time" ) &
done
failed=0
for job in $(jobs -p); do wait "$job" || failed=1; done
for ((k = 1; k <= copies; ++k)); do
  digest=$(digest "$work/copy$k")
  [[ $digest == "$first_digest" ]] || failed=1
done
[[ $failed -eq 0 ]] || { echo "scaling.sh: a copy failed or wrote other files" >&2; exit 1; }
cat "$work"/copy*.time | awk -v n="$name" -v c="$copies" -v f="$first_wall" \
  '{w += $1; cpu += $2 + $3} END {w /= NR; cpu /= NR; printf "%-16s %3d copies on 1 thread each: %8.2f s mean wall %9.2f mean CPU-s  a copy %.2fx slower than the first run: at most %.1fx on %d threads\n", n, c, w, cpu, w / f, c * f / w, c}'
