#!/usr/bin/env bash
# The proof-tree manager on named positions, one run after another, each from an empty
# store: its answer, wall and CPU time, back-end nodes, store size and peak memory.
#
#   bench/prove_positions.sh B GAME DATA POSITIONS [WORKERS=2] [SECONDS=900] [PROVER_TIME=4]
#
# B: a gamesolver binary; POSITIONS: lines "name position" ('#' starts a comment), e.g.
# bench/jungle_six_positions.txt. PROVE_EXTRA in the environment: more options for each
# run (e.g. PROVE_EXTRA=--unit-leaves). Plain df-pn on the same positions, for comparison:
#   B solve GAME "POSITION" --data DATA --algorithm df-pn --time SECONDS --memory 4
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,11p' "$0"; exit 2; }
read -r -a extra <<< "${PROVE_EXTRA:-}"
bin=$1 game=$2 data=$3 positions=$4 workers=${5:-2} seconds=${6:-900} prover_time=${7:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "name | answer | wall s | CPU s | run | store bytes | peak KiB"
while read -r name position; do
  case "$name" in '' | '#'*) continue ;; esac
  /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$bin" prove "$game" "$position" \
    --store "$work/$name.sqlite" --data "$data" --workers "$workers" --prover-time "$prover_time" \
    --time "$seconds" --memory 2 --quiet "${extra[@]}" > "$work/$name.out" 2>&1 || true
  read -r wall user sys peak < "$work/$name.time"
  answer=$(head -1 "$work/$name.out" | sed 's/.*: //')
  run=$(grep -m1 '^run:' "$work/$name.out" | sed 's/^run: //' || true)
  store=$(grep -m1 '^store' "$work/$name.out" | sed 's/.*), //;s/ bytes.*//' || true)
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  echo "$name | $answer | $wall | $cpu | $run | $store | $peak"
done < "$positions"
