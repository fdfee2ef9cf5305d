#!/usr/bin/env bash
# The headline figures of docs/BENCHMARKS.md on the machine at hand, in one command.
# Each step runs a gamesolver command into a fresh temporary data directory under
# /usr/bin/time -v; the script prints the machine and the commit, then a Markdown table:
# figure, wall seconds, CPU seconds (user + sys), millions of indices per CPU-second
# (builds), peak RSS, and notes (files, probe and perft rates).
#
#   bench/run.sh [options]          the default set: a few minutes on 2 cores
#   bench/run.sh --full [options]   the larger set the dashboard quotes (about an hour on 2 cores)
#
# default set: build jungle --pieces 3 and 4, build checkers --pieces 4, build morris
#   --variant six --pieces 6, compress the Jungle 4-piece databases to win/draw/loss,
#   warm probes of those files (bench_probe, skipped if it was not built), perft
#   checkers --depth 10
# --full adds: build jungle --pieces 5, build checkers --pieces 5 and 6, build morris
#   --variant seven --pieces 7, warm probes of the 4-piece files with depths, and uses
#   perft depth 11
#
# options:
#   --binary PATH   the gamesolver binary (default build/gamesolver)
#   --probe PATH    bench_probe (default: bench/bench_probe beside the binary)
#   --threads T     threads for every step (default: nproc)
#   --tmp DIR       where the temporary directories go (default $TMPDIR or /tmp)
#   --keep          keep the data directories and logs
#
# Run it niced on a shared machine (nice -n 15 bench/run.sh): CPU-second rates then stay
# comparable, wall times do not.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

binary=build/gamesolver
probe=
threads=$(nproc)
tmp_root=${TMPDIR:-/tmp}
keep=0
full=0

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --binary=*) binary=${1#*=}; shift ;;
    --probe) probe=$2; shift 2 ;;
    --probe=*) probe=${1#*=}; shift ;;
    --threads) threads=$2; shift 2 ;;
    --threads=*) threads=${1#*=}; shift ;;
    --tmp) tmp_root=$2; shift 2 ;;
    --tmp=*) tmp_root=${1#*=}; shift ;;
    --keep) keep=1; shift ;;
    --full) full=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ -n $probe ]] || probe=$(dirname "$binary")/bench/bench_probe
[[ -x $binary ]] || { echo "run.sh: no gamesolver binary at $binary (build it, or pass --binary PATH)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "run.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d "$tmp_root/gamesolver-run.XXXXXX")
cleanup() { if [[ $keep -eq 0 ]]; then rm -rf -- "$work"; else echo "kept: $work"; fi; }
trap cleanup EXIT

echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit:  $(bench_commit)"
echo "machine: $(bench_machine)"
echo "binary:  $binary (built $(date -u -r "$binary" '+%Y-%m-%d %H:%M UTC')), $threads threads"
echo
echo "| figure | wall s | CPU s | M indices / CPU-s | peak RSS MiB | notes |"
echo "|---|---:|---:|---:|---:|---|"

step=0
# run_step NAME COMMAND...: runs the command under /usr/bin/time into $work/NAME.{log,time};
# sets wall, cpu and rss_mib, or prints the log's end and stops the script.
run_step() {
  local name=$1
  shift
  step=$((step + 1))
  if ! bench_timed "$work/$name.time" "$work/$name.log" "$@"; then
    echo "run.sh: step '$name' failed: $*" >&2
    tail -20 "$work/$name.log" >&2
    keep=1
    exit 1
  fi
  local user sys rss_kb
  read -r wall user sys rss_kb <<<"$(bench_measured "$work/$name.time")"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  rss_mib=$(awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }')
}

# Total bytes of the database files in a directory.
file_bytes() {
  find "$1" \( -name '*.gsdb' -o -name '*.gsdict' \) -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s }'
}

# build_row LABEL GAME PIECES [OPTIONS...]: a build into $work/<label>/data and its row.
build_row() {
  local label=$1 game=$2 pieces=$3
  shift 3
  run_step "$label" "$binary" build "$game" --pieces "$pieces" "$@" --threads "$threads" --quiet \
    --data "$work/$label/data"
  local indices tiers bytes
  indices=$(bench_built_indices "$work/$label.log")
  tiers=$(bench_built_tiers "$work/$label.log")
  bytes=$(file_bytes "$work/$label/data")
  printf '| build %s | %.1f | %.1f | %.2f | %s | %s tiers, %s indices, files %s bytes |\n' \
    "$game ${*:+$* }--pieces $pieces" "$wall" "$cpu" "$(awk -v i="$indices" -v c="$cpu" 'BEGIN { print (c > 0 ? i / c / 1e6 : 0) }')" \
    "$rss_mib" "$tiers" "$indices" "$bytes"
}

build_row jungle3 jungle 3
build_row jungle4 jungle 4
[[ $full -eq 1 ]] && build_row jungle5 jungle 5
build_row checkers4 checkers 4
if [[ $full -eq 1 ]]; then
  build_row checkers5 checkers 5
  build_row checkers6 checkers 6
fi
build_row morris6 morris 6 --variant six
[[ $full -eq 1 ]] && build_row morris7 morris 7 --variant seven

# Win/draw/loss files for probing: compress a copy of the Jungle 4-piece databases.
cp -r "$work/jungle4" "$work/jungle4-wdl"
positions=$("$binary" stats jungle --pieces 4 --data "$work/jungle4/data" | awk '$1 == "total" { print $2 }')
before=$(file_bytes "$work/jungle4/data")
run_step compress "$binary" compress jungle --pieces 4 --encoding wdl --threads "$threads" --data "$work/jungle4-wdl/data"
after=$(file_bytes "$work/jungle4-wdl/data")
printf '| compress jungle --pieces 4 --encoding wdl | %.1f | %.1f | | %s | %s positions: %s bytes (depth, as built, %.1f positions/byte) to %s (%.1f positions/byte) |\n' \
  "$wall" "$cpu" "$rss_mib" "$positions" "$before" "$(awk -v p="$positions" -v b="$before" 'BEGIN { print p / b }')" \
  "$after" "$(awk -v p="$positions" -v b="$after" 'BEGIN { print p / b }')"

# probe_row LABEL FILES DATA: warm probes per second (wall time, all threads together) on
# one thread and on every core, by index and by position, and the CPU time of a probe
# (the figure to compare on a loaded machine).
probe_row() {
  local label=$1 files=$2 data=$3
  run_step "probe-$label" env GAMESOLVER_BENCH_GAME=jungle GAMESOLVER_BENCH_PIECES=4 GAMESOLVER_BENCH_DATA="$data" \
    "$probe" --benchmark_filter=Warm --benchmark_min_time=1 --benchmark_out="$work/probe-$label.json" \
    --benchmark_out_format=json
  local rates
  rates=$(python3 -c '
import json, re, sys
report = json.load(open(sys.argv[1]))
rates = {}
for b in report["benchmarks"]:
    m = re.match(r"BM_Warm(Index|Position)/\w+/.*threads:(\d+)", b["name"])
    if m: rates[(m.group(1).lower(), int(m.group(2)))] = (b["items_per_second"] / 1e6, b["cpu_time"])
parts = []
for (kind, threads), (rate, cpu) in sorted(rates.items()):
    on = "1 thread" if threads == 1 else "%d threads" % threads
    parts.append("by %s on %s: %.2f M/s (%.0f ns CPU a probe)" % (kind, on, rate, cpu))
print("; ".join(parts))
' "$work/probe-$label.json")
  printf '| warm probes, jungle <= 4, %s | %.1f | %.1f | | %s | %s |\n' "$files" "$wall" "$cpu" "$rss_mib" "$rates"
}
if [[ -x $probe ]]; then
  probe_row wdl "win/draw/loss files" "$work/jungle4-wdl/data"
  [[ $full -eq 1 ]] && probe_row depth "files with depths" "$work/jungle4/data"
else
  echo "| warm probes | | | | | skipped: no bench_probe at $probe (build it, or pass --probe PATH) |"
fi

depth=10
[[ $full -eq 1 ]] && depth=11
run_step perft "$binary" perft checkers --depth "$depth"
nodes=$(sed -n 's/.*depth [0-9]*: \([0-9]*\) nodes.*/\1/p' "$work/perft.log")
printf '| perft checkers --depth %s | %.1f | %.1f | | %s | %s nodes, %.1f M nodes per CPU-second |\n' \
  "$depth" "$wall" "$cpu" "$rss_mib" "$nodes" "$(awk -v n="$nodes" -v c="$cpu" 'BEGIN { print (c > 0 ? n / c / 1e6 : 0) }')"
