#!/usr/bin/env bash
# Solves mill games completely and reports what docs/BENCHMARKS.md lists: for each
# variant, `gamesolver extended morris --variant V --max-in-hand K` into a fresh data
# directory (every tier the empty-board starts with 3..K stones a side need), the value
# and depth of the variant's start, the tiers and indices built, wall and CPU seconds,
# indices per second per core (indices / wall / threads) and per CPU-second, and the
# peak RSS (/usr/bin/time -v).
#
#   bench/morris_bench.sh [options] [VARIANT[:K] ...]   (default: five:5 six:6 seven:7)
#
# options:
#   --binary PATH   the gamesolver binary (default build/gamesolver)
#   --threads T     build threads (default: nproc)
#   --memory GIB    the build's memory budget (default 8)
#   --tmp DIR       where the data directories go (default $TMPDIR or /tmp)
#   --keep          keep the data directories
set -euo pipefail

binary=build/gamesolver
threads=$(nproc)
memory=8
tmp_root=${TMPDIR:-/tmp}
keep=0
runs=()

while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --tmp) tmp_root=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "morris_bench.sh: unknown option $1" >&2; exit 2 ;;
    *) runs+=("$1"); shift ;;
  esac
done
[[ ${#runs[@]} -gt 0 ]] || runs=(five:5 six:6 seven:7)
[[ -x $binary ]] || { echo "morris_bench.sh: no binary $binary (build first)" >&2; exit 2; }

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(date -u +%Y-%m-%d)"
printf '%-12s %-4s %-14s %6s %14s %9s %9s %12s %12s %10s\n' variant K start tiers indices wall_s cpu_s \
  "M/s/core" "M/CPU-s" "peak_MiB"
for run in "${runs[@]}"; do
  variant=${run%%:*}
  k=${run#*:}
  [[ $k == "$run" ]] && k=$(case $variant in five) echo 5 ;; six) echo 6 ;; seven) echo 7 ;; *) echo 3 ;; esac)
  dir=$(mktemp -d "$tmp_root/morris-bench-XXXXXX")
  # With --json the build's report goes to stderr, with /usr/bin/time's.
  /usr/bin/time -v "$binary" extended morris --variant "$variant" --max-in-hand "$k" --threads "$threads" \
    --memory "$memory" --data "$dir/data" --quiet --json > "$dir/table.json" 2> "$dir/time.txt" ||
    { cat "$dir/time.txt" >&2; exit 1; }
  summary=$(grep '^built' "$dir/time.txt")
  tiers=$(sed -E 's/^built ([0-9]+) tiers.*/\1/' <<< "$summary")
  indices=$(sed -E 's/^built [0-9]+ tiers \(([0-9]+) indices\).*/\1/' <<< "$summary")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$dir/time.txt")
  user=$(awk -F': ' '/User time/ {print $2}' "$dir/time.txt")
  sys=$(awk -F': ' '/System time/ {print $2}' "$dir/time.txt")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$dir/time.txt")
  start=$(python3 -c "
import json, sys
t = json.load(open('$dir/table.json'))
s = [x for x in t['starts'] if x['white'] == $k and x['black'] == $k][0]
print(s['value'] + ('' if s['depth'] is None else ' ' + str(s['depth'])))")
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.1f", u + s}')
  printf '%-12s %-4s %-14s %6s %14s %9.1f %9s %12.2f %12.2f %10s\n' "$variant" "$k" "$start" "$tiers" "$indices" \
    "$wall" "$cpu" "$(awk -v i="$indices" -v w="$wall" -v t="$threads" 'BEGIN {print i / w / t / 1e6}')" \
    "$(awk -v i="$indices" -v c="$cpu" 'BEGIN {print i / c / 1e6}')" "$rss"
  if [[ $keep == 1 ]]; then echo "  kept $dir"; else rm -rf "$dir"; fi
done
