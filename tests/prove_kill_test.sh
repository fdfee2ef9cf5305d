#!/usr/bin/env bash
# `gamesolver prove` killed with SIGKILL at random moments and restarted from its store
# ends with the same answer and the same store (every node, answer and sequence number)
# as a run that was never interrupted; a second run on a store in use is refused.
#   prove_kill_test.sh BINARY WORKDIR
set -euo pipefail
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
die() {
  echo "FAIL: $*" >&2
  exit 1
}
"$bin" build jungle --pieces 3 --data "$work/data" --quiet >/dev/null
# Four pieces, above the three-piece databases; small reproducible back-end jobs, so the
# run takes many passes.
position="7/2e4/7/3d3/7/7/R1D4 w"
options=(--data "$work/data" --prover-time 0 --prover-nodes 30 --workers 2 --quiet)
dump() { sqlite3 "$1" "SELECT * FROM nodes ORDER BY key"; }

start=$(date +%s%N)
"$bin" prove jungle "$position" --store "$work/whole.db" "${options[@]}" --json >"$work/whole.json"
whole_ms=$((($(date +%s%N) - start) / 1000000))
echo "uninterrupted: $(grep '"result"' "$work/whole.json") in $whole_ms ms"

kills=0
runs=0
while true; do
  "$bin" prove jungle "$position" --store "$work/killed.db" "${options[@]}" --json >"$work/killed.json" &
  pid=$!
  runs=$((runs + 1))
  # Between 0.05 and 0.5 s (the first run: long enough to take the lock, then a second
  # run must be refused).
  sleep "0.$(printf '%02d' $((5 + RANDOM % 45)))"
  if [ "$runs" = 1 ] && kill -0 "$pid" 2>/dev/null; then
    if "$bin" prove jungle "$position" --store "$work/killed.db" "${options[@]}" 2>"$work/second.err"; then
      die "a second run on a store in use was let in"
    fi
    grep -q "in use by another run" "$work/second.err" || die "second run: $(cat "$work/second.err")"
    "$bin" prove jungle "$position" --store "$work/killed.db" --data "$work/data" --status >/dev/null ||
      die "--status failed while a run holds the store"
  fi
  if kill -9 "$pid" 2>/dev/null; then
    { wait "$pid"; } 2>/dev/null || true
    kills=$((kills + 1))
    if [ "$kills" -ge 10 ]; then break; fi
  else
    wait "$pid" || die "a run failed"
    # The run ended before its kill: its store must be the uninterrupted run's; then
    # again from an empty store until there have been ten kills.
    dump "$work/whole.db" >"$work/whole.dump"
    dump "$work/killed.db" >"$work/killed.dump"
    diff -q "$work/whole.dump" "$work/killed.dump" >/dev/null || die "run $runs: the stores differ"
    [ "$kills" -ge 10 ] && break
    echo "run $runs finished with the uninterrupted run's store ($kills kills so far): again from the start"
    rm -f "$work/killed.db" "$work/killed.db-wal" "$work/killed.db-shm"
  fi
done
"$bin" prove jungle "$position" --store "$work/killed.db" "${options[@]}" --json >"$work/killed.json"
echo "after $kills kills in $runs runs: $(grep '"result"' "$work/killed.json")"
[ "$(grep '"result"' "$work/whole.json")" = "$(grep '"result"' "$work/killed.json")" ] || die "the answers differ"
dump "$work/whole.db" >"$work/whole.dump"
dump "$work/killed.db" >"$work/killed.dump"
diff -q "$work/whole.dump" "$work/killed.dump" >/dev/null || die "the stores differ: $(diff "$work/whole.dump" "$work/killed.dump" | head -5)"
echo "stores identical: $(wc -l <"$work/whole.dump") nodes"
"$bin" prove jungle "$position" --store "$work/killed.db" --data "$work/data" --check --check-nodes 200000 ||
  die "the checker failed"
