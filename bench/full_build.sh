#!/usr/bin/env bash
# A long resumable build in the background of a session: the tiers GAME's start position
# needs (build --start), at the lowest priority, its log appended to DATA/GAME-full.log.
# Rerun it to go on: finished tiers are kept, an interrupted tier starts again.
#
#   bench/full_build.sh BINARY DATA GAME [THREADS] [MEMORY_GIB] [BUILD OPTION...]
#
# Example, the complete standard Nine Men's Morris on 2 threads in 10 GiB, started so
# that it outlives the shell, paused and resumed around benchmarks:
#   (setsid nohup bench/full_build.sh build-native/gamesolver data morris 2 10 > /dev/null 2>&1 &)
#   pkill -STOP -f "gamesolver build morris --start"; pkill -CONT -f "..."
# With --pieces N (or --tier T) among the build options, those tiers instead of --start,
# e.g. checkers up to 7 pieces: bench/full_build.sh B data checkers 2 20 --pieces 7.
# Progress: BINARY stats GAME --start --data DATA --json (or the same --pieces).
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
binary=$(realpath "$1") data=$2 game=$3 threads=${4:-2} memory=${5:-10}
shift $(($# < 5 ? $# : 5))
log="$data/$game-full.log"
scope=(--start)
for option in "$@"; do [[ $option == --pieces || $option == --tier ]] && scope=(); done
mkdir -p "$data"
echo "=== $(date -u) $binary build $game ${scope[*]} --threads $threads --memory $memory $*" >> "$log"
exec nice -n 19 /usr/bin/time -v "$binary" build "$game" "${scope[@]}" --threads "$threads" \
  --memory "$memory" --data "$data" "$@" >> "$log" 2>&1
