#!/usr/bin/env bash
# The proof-tree manager (one worker) against plain df-pn at the same wall-clock budget,
# on a list of positions, the two runs side by side (one core each).
#
#   bench/prove_vs_dfpn.sh B GAME DATA POSITIONS [SECONDS=20]
#
# B: a gamesolver binary; POSITIONS: a file with one position text per line (e.g.
# bench/jungle_play_positions.txt: 7- and 8-piece Jungle positions from alpha-beta games,
# `match jungle --white alphabeta:4 --black alphabeta:2` and 3 against 3, seeds 1-6).
# Prints a line per position: the manager's answer and run, df-pn's result and nodes.
# PROVER_TIME (default 1) sets the manager's seconds per back-end job.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,12p' "$0"; exit 2; }
bin=$1 game=$2 data=$3 positions=$4 seconds=${5:-20} prover_time=${PROVER_TIME:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
while read -r position; do
  [ -n "$position" ] || continue
  n=$((n + 1))
  "$bin" prove "$game" "$position" --store "$work/$n.sqlite" --data "$data" --workers 1 --prover-time "$prover_time" \
    --time "$seconds" --quiet > "$work/$n.prove" 2>&1 &
  "$bin" solve "$game" "$position" --data "$data" --algorithm df-pn --time "$seconds" --memory 1 \
    --quiet > "$work/$n.dfpn" 2>&1 &
  wait
  manager=$(head -1 "$work/$n.prove" | sed 's/.*: //')
  echo "$n | $position | manager: $manager, $(grep -m1 '^run:' "$work/$n.prove" || true)" \
    "| df-pn: $(grep -m1 '^result' "$work/$n.dfpn" || true), $(grep -m1 '^nodes:' "$work/$n.dfpn" || true)"
done < "$positions"
