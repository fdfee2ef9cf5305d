#!/usr/bin/env bash
# Speed of `gamesolver build --mpi` with 1, 2 and 4 ranks (and the plain build) on one
# machine: wall time, CPU time of the whole job and peak RSS of the largest process.
#   bench/mpi_bench.sh [GAME] [PIECES] [RANKS...]      e.g. bench/mpi_bench.sh jungle 4 1 2 4
# With R ranks, R-1 build (rank 0 hands out tiers) with cores/R threads each.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-jungle}
pieces=${2:-4}
shift $(($# < 2 ? $# : 2))
ranks=("$@")
((${#ranks[@]})) || ranks=(1 2 4)
bin=${GAMESOLVER:-build/gamesolver}  # another build: GAMESOLVER=build-x/gamesolver
work=$(mktemp -d /tmp/mpi-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), nproc $(nproc)," \
  "$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | wall s | CPU s (user+sys) | peak RSS MiB (largest process) | indices/s |"
echo "|---|---:|---:|---:|---:|"
run() {
  local label=$1
  shift
  rm -rf "$work/data"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err"
  read -r wall user sys rss <"$work/time"
  local indices
  indices=$(grep -oE 'built [0-9]+ tiers \(([0-9]+) indices\)' "$work/out" | grep -oE '\([0-9]+' | tr -d '(')
  printf "| %s | %.1f | %.1f | %.0f | %.2f M |\n" "$label" "$wall" "$(echo "$user + $sys" | bc)" \
    "$(echo "$rss / 1024" | bc)" "$(echo "$indices / $wall / 1000000" | bc -l)"
}
run "plain build, $(nproc) threads" "$bin" build "$game" --pieces "$pieces" --data "$work/data" --quiet
for r in "${ranks[@]}"; do
  run "mpirun -np $r --mpi" mpirun --oversubscribe --bind-to none -np "$r" "$bin" build "$game" --pieces "$pieces" \
    --data "$work/data" --mpi --quiet
done
