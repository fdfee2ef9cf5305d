#!/usr/bin/env bash
# Times `gamesolver build GAME --pieces N` (jungle unless --game) end to end, into a fresh temporary data
# directory, for each N given (default 4), and prints what docs/BENCHMARKS.md reports:
# indices built, wall seconds, indices per second per core (all tiers' indices / wall
# time / threads), CPU time, peak RSS (/usr/bin/time -v) and the databases' total size.
#
#   bench/build_bench.sh [options] [N ...]          time builds (default N = 4)
#   bench/build_bench.sh [options] --profile [N]    where the time goes (default N = 3)
#
# options:
#   --binary PATH   the gamesolver binary (default build/gamesolver)
#   --game NAME     the game (default jungle; any game whose --pieces counts pieces: checkers)
#   --threads T     build threads (default: nproc); --profile always uses 1
#   --keep          keep the data directories (and the callgrind output) under --tmp
#   --tmp DIR       where the temporary directories go (default $TMPDIR or /tmp)
#   --progress      show the engine's progress lines (default --quiet)
#
# --profile runs the build under `valgrind --tool=callgrind` (no perf needed) with one
# thread and prints the functions with the largest self cost (callgrind_annotate),
# then the largest inclusive costs. Expect callgrind to be ~50x slower than native: a
# 3-piece build takes a few minutes, a 4-piece one hours.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

binary=build/gamesolver
game=jungle
threads=$(nproc)
keep=0
profile=0
quiet=--quiet
tmp_root=${TMPDIR:-/tmp}
pieces=()

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --binary=*) binary=${1#*=}; shift ;;
    --game) game=$2; shift 2 ;;
    --game=*) game=${1#*=}; shift ;;
    --threads) threads=$2; shift 2 ;;
    --threads=*) threads=${1#*=}; shift ;;
    --keep) keep=1; shift ;;
    --tmp) tmp_root=$2; shift 2 ;;
    --tmp=*) tmp_root=${1#*=}; shift ;;
    --progress) quiet=; shift ;;
    --profile) profile=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "build_bench.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
      if ! [[ $1 =~ ^[2-8]$ ]]; then
        echo "build_bench.sh: piece count must be 2..8, not '$1'" >&2
        exit 2
      fi
      pieces+=("$1"); shift ;;
  esac
done

if [[ ! -x $binary ]]; then
  echo "build_bench.sh: no gamesolver binary at $binary (build it, or pass --binary PATH)" >&2
  exit 2
fi
[[ -x /usr/bin/time ]] || { echo "build_bench.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

# The machine and the code measured, for the record.
echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
# The commit is the script's checkout's HEAD: when --binary was built from another tree,
# the binary's path and time are what identify it.
echo "commit:  $(bench_commit)"
echo "machine: $(bench_machine)"
echo "binary:  $binary (built $(date -u -r "$binary" '+%Y-%m-%d %H:%M:%S UTC'))"

cleanup_dirs=()
cleanup() {
  if [[ $keep -eq 0 ]]; then
    for d in "${cleanup_dirs[@]}"; do rm -rf -- "$d"; done
  fi
}
trap cleanup EXIT

if [[ $profile -eq 1 ]]; then
  command -v valgrind >/dev/null || { echo "build_bench.sh: valgrind is missing" >&2; exit 2; }
  n=${pieces[0]:-3}
  dir=$(mktemp -d "$tmp_root/gamesolver-profile.XXXXXX")
  cleanup_dirs+=("$dir")
  out=$dir/callgrind.out
  echo "profile: callgrind, gamesolver build $game --pieces $n --threads 1 into $dir"
  start=$(date +%s.%N)
  valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$binary" build "$game" --pieces "$n" --threads 1 --quiet --data "$dir/data" >"$dir/build.log" 2>"$dir/valgrind.log" || {
    echo "build_bench.sh: the profiled build failed:" >&2
    tail -20 "$dir/build.log" "$dir/valgrind.log" >&2
    exit 1
  }
  end=$(date +%s.%N)
  tail -1 "$dir/build.log"
  echo "profiled run took $(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.0f", b-a}')s under callgrind"
  echo
  echo "== where the time goes: self cost (instructions executed in each function) =="
  callgrind_annotate --inclusive=no "$out" 2>/dev/null | sed -n '/^Ir/,$p' | sed -n '1,25p'
  echo
  echo "== inclusive cost (the function and everything it calls) =="
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null | sed -n '/^Ir/,$p' | sed -n '1,25p'
  [[ $keep -eq 1 ]] && echo "callgrind output kept: $out (callgrind_annotate $out)"
  exit 0
fi

[[ ${#pieces[@]} -gt 0 ]] || pieces=(4)
echo "threads: $threads"
echo
rows=()
for n in "${pieces[@]}"; do
  dir=$(mktemp -d "$tmp_root/gamesolver-bench.XXXXXX")
  cleanup_dirs+=("$dir")
  log=$dir/build.log
  timing=$dir/time.txt
  echo "== gamesolver build $game --pieces $n --threads $threads --data $dir/data"
  # shellcheck disable=SC2086
  if ! /usr/bin/time -v -o "$timing" "$binary" build "$game" --pieces "$n" --threads "$threads" $quiet \
      --data "$dir/data" 2>&1 | tee "$log"; then
    echo "build_bench.sh: the build failed (see $log)" >&2
    keep=1
    exit 1
  fi
  if [[ $(bench_time_field "Exit status" "$timing") != 0 ]]; then
    echo "build_bench.sh: the build exited with status $(bench_time_field "Exit status" "$timing")" >&2
    keep=1
    exit 1
  fi
  read -r wall user sys rss_kb <<<"$(bench_measured "$timing")"
  cpu_pct=$(bench_time_field "Percent of CPU this job got" "$timing")
  indices=$(bench_built_indices "$log")
  tiers=$(bench_built_tiers "$log")
  positions=$("$binary" stats "$game" --pieces "$n" --data "$dir/data" | awk '$1 == "total" { print $2 }')
  bytes=$(find "$dir/data" -name '*.gsdb' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }')
  echo
  awk -v n="$n" -v tiers="$tiers" -v idx="$indices" -v pos="$positions" -v wall="$wall" -v user="$user" \
      -v sys="$sys" -v cpu="$cpu_pct" -v t="$threads" -v rss="$rss_kb" -v bytes="$bytes" 'BEGIN {
    printf "pieces %d: %d tiers, %.0f indices (%.0f positions, holes excluded)\n", n, tiers, idx, pos
    printf "  wall %.2f s, CPU %.2f s user + %.2f s sys (%s of %d threads)\n", wall, user, sys, cpu, t
    printf "  %.3fM indices/s, %.3fM indices/s per core (%d threads)\n", idx / wall / 1e6, idx / wall / t / 1e6, t
    printf "  %.3fM indices per CPU-second (user+sys)\n", idx / (user + sys) / 1e6
    printf "  positions (holes excluded): %.3fM/s per core, %.3fM per CPU-second\n", pos / wall / t / 1e6, pos / (user + sys) / 1e6
    printf "  peak RSS %.1f MiB\n", rss / 1024
    printf "  files %.0f bytes (%.1f MiB), %.3f bytes per index\n", bytes, bytes / 1048576, bytes / idx
  }'
  rows+=("$(printf '%s %s %s %s %s %s %s %s' "$n" "$indices" "$wall" "$threads" "$rss_kb" "$bytes" "$user" "$sys")")
  echo
done

echo "summary:"
printf '%-6s %14s %10s %14s %14s %12s %14s\n' pieces indices seconds "M idx/s" "M idx/s/core" "peak RSS MiB" "file bytes"
for row in "${rows[@]}"; do
  read -r n idx wall t rss bytes _ _ <<<"$row"
  awk -v n="$n" -v idx="$idx" -v wall="$wall" -v t="$t" -v rss="$rss" -v bytes="$bytes" 'BEGIN {
    printf "%-6d %14.0f %10.2f %14.3f %14.3f %12.1f %14.0f\n", n, idx, wall, idx / wall / 1e6, idx / wall / t / 1e6, rss / 1024, bytes
  }'
done
