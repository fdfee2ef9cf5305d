#!/usr/bin/env bash
# `gamesolver prove --mpi` under mpirun over loopback against `prove --workers 2` on
# threads, with the same reproducible budgets (--prover-time 0 and a node budget): the
# same answer and the same store (every node, answer and sequence number, and the meta
# table). A Jungle position of four pieces above the three-piece databases.
#   mpi_prove_test.sh BINARY WORKDIR ranks   3 ranks (2 workers) against 2 threads
#   mpi_prove_test.sh BINARY WORKDIR kill    a worker rank killed (SIGKILL) mid-run: its
#                                            job goes to the other worker, the run ends
#                                            well, with the same answer and store
#   mpi_prove_test.sh BINARY WORKDIR hang    a worker rank that takes its first job and
#                                            never answers it while its heartbeats go on
#                                            (the test hook GAMESOLVER_TEST_HANG_RANK): the
#                                            job's time limit (--prover-time) gives it up,
#                                            its job goes to the other worker, the run ends
#                                            well with the same answer
#   mpi_prove_test.sh BINARY WORKDIR hang-nodes  the same with budgets in nodes only: rank
#                                            2 hangs on its third job, the limit the
#                                            manager learnt from the jobs answered gives
#                                            it up, and the store is the threads' own
set -euo pipefail
bin=$1
work=$2/$3
mode=$3
rm -rf "$work"
mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A run that hangs fails after 5 minutes (one takes a few seconds) with its log's end.
mpirun=(timeout --kill-after=10 300 mpirun --oversubscribe --bind-to none)

die() {
  echo "FAIL: $*" >&2
  exit 1
}

"$bin" build jungle --pieces 3 --data "$work/data" --quiet >/dev/null
position="7/2e4/7/3d3/7/7/R1T4 w"
options=(--data "$work/data" --prover-time 0 --prover-nodes 100 --memory 0.125)
dump() {
  sqlite3 "$1" "SELECT * FROM nodes ORDER BY key"
  sqlite3 "$1" "SELECT * FROM meta ORDER BY name"
}
result() { grep -E '"(result|position|nodes|proven|threshold)"' "$1"; }

"$bin" prove jungle "$position" --store "$work/threads.db" "${options[@]}" --workers 2 --quiet --json \
  >"$work/threads.json"
dump "$work/threads.db" >"$work/threads.dump"
echo "threads: $(grep -o '"result": "[a-z ]*"' "$work/threads.json"), $(wc -l <"$work/threads.dump") rows"
[ "$(grep -c . "$work/threads.dump")" -gt 100 ] || die "the threads-only run made too small a store"

same_as_threads() {
  local name=$1
  dump "$work/$name.db" >"$work/$name.dump"
  cmp -s "$work/threads.dump" "$work/$name.dump" ||
    die "$name: the store differs from the threads-only run's: $(diff "$work/threads.dump" "$work/$name.dump" | head -5)"
  # What --status reads back from the store, too.
  "$bin" prove jungle "$position" --store "$work/$name.db" --data "$work/data" --status --json >"$work/$name.status"
  "$bin" prove jungle "$position" --store "$work/threads.db" --data "$work/data" --status --json >"$work/threads.status"
  [ "$(result "$work/$name.status")" = "$(result "$work/threads.status")" ] || die "$name: --status differs"
  [ "$(grep '"result"' "$work/$name.json")" = "$(grep '"result"' "$work/threads.json")" ] || die "$name: the answers differ"
  echo "$name: $(grep -o '"result": "[a-z ]*"' "$work/$name.json"), store identical to the threads-only run's"
}

case $mode in
  ranks)
    "${mpirun[@]}" -np 3 "$bin" prove jungle "$position" --store "$work/ranks.db" "${options[@]}" --mpi --json \
      >"$work/ranks.json" 2>"$work/ranks.log" || die "the mpirun failed: $(tail -5 "$work/ranks.log")"
    grep -q '"worker_ranks": 2' "$work/ranks.json" || die "not proven by 2 worker ranks"
    grep -q '"lost_ranks": \[\]' "$work/ranks.json" || die "a rank was lost"
    same_as_threads ranks
    ;;
  kill)
    "${mpirun[@]}" --enable-recovery -np 3 "$bin" prove jungle "$position" --store "$work/kill.db" "${options[@]}" \
      --mpi --mpi-timeout 2 --json >"$work/kill.json" 2>"$work/kill.log" &
    job=$!
    until grep -q "manager: rank 2 is pid" "$work/kill.log" 2>/dev/null; do
      kill -0 $job 2>/dev/null || die "the run ended before rank 2 said hello: $(tail -5 "$work/kill.log")"
      sleep 0.05
    done
    pid=$(grep -oE "manager: rank 2 is pid [0-9]+" "$work/kill.log" | grep -oE "[0-9]+$")
    # Mid-run: once a few hundred nodes are stored (about a third of the proof).
    until [ "$(sqlite3 "$work/kill.db" 'SELECT COUNT(*) FROM nodes' 2>/dev/null || echo 0)" -ge 200 ]; do
      kill -0 $job 2>/dev/null || die "the run ended before it was a third done"
      sleep 0.05
    done
    kill -9 "$pid"
    echo "killed rank 2 (pid $pid)"
    wait $job || die "the run failed after a worker was killed: $(tail -5 "$work/kill.log")"
    grep -E "rank 2 \(pid $pid\) silent for 2 s: given up" "$work/kill.log" || die "rank 2 was not given up"
    grep -E "ranks 2 were lost: ending the job" "$work/kill.log" || die "the manager did not end the job itself"
    grep -q '"lost_ranks": \[' "$work/kill.json" && tr -d ' \n' <"$work/kill.json" | grep -q '"lost_ranks":\[2\]' ||
      die "the result does not name rank 2 as lost"
    same_as_threads kill
    ;;
  hang)
    # Time budgets (0.2 s a job, far more than 1,000 nodes take) so that a job has a time
    # limit: 3 x 0.2 s + the 2 s timeout. Rank 2 keeps beating, so only that limit can
    # give it up: without it the run would wait for rank 2 forever (failed by timeout).
    GAMESOLVER_TEST_HANG_RANK=2 timeout --kill-after=10 120 mpirun --oversubscribe --bind-to none \
      -x GAMESOLVER_TEST_HANG_RANK --enable-recovery -np 3 "$bin" prove jungle "$position" --store "$work/hang.db" \
      --data "$work/data" --prover-time 0.2 --prover-nodes 1000 --memory 0.125 --mpi --mpi-timeout 2 --json \
      >"$work/hang.json" 2>"$work/hang.log" || die "the run with a hung worker failed: $(tail -5 "$work/hang.log")"
    pid=$(grep -oE "manager: rank 2 is pid [0-9]+" "$work/hang.log" | grep -oE "[0-9]+$") ||
      die "rank 2 never said hello: $(tail -5 "$work/hang.log")"
    grep -E "rank 2 \(pid $pid\) no answer to its job within its limit of 2\.6 s: given up; its job goes to another rank" \
      "$work/hang.log" || die "rank 2 was not given up for its job's time limit: $(tail -5 "$work/hang.log")"
    ! grep -E "silent for" "$work/hang.log" || die "a rank fell silent: the heartbeats should have gone on"
    grep -E "rank 2 \(pid $pid\) is still running: killing it" "$work/hang.log" ||
      die "the manager did not end the hung rank"
    kill -0 "$pid" 2>/dev/null && die "the hung rank (pid $pid) still runs"
    tr -d ' \n' <"$work/hang.json" | grep -q '"lost_ranks":\[2\]' || die "the result does not name rank 2 as lost"
    tr -d ' \n' <"$work/hang.json" | grep -q '"worker_ranks":2' || die "the result does not count 2 worker ranks"
    [ "$(grep '"result"' "$work/hang.json")" = "$(grep '"result"' "$work/threads.json")" ] ||
      die "the answers differ: $(grep '"result"' "$work/hang.json") against $(grep '"result"' "$work/threads.json")"
    "$bin" prove jungle "$position" --store "$work/hang.db" --data "$work/data" --check >"$work/hang.check" ||
      die "the store of the run with a hung worker fails the checker: $(tail -3 "$work/hang.check")"
    echo "hang: $(grep -o '"result": "[a-z ]*"' "$work/hang.json"), rank 2 given up at its job's time limit"
    ;;
  hang-nodes)
    # Budgets in nodes only: no job has a time budget, so the limit is learnt from the
    # jobs answered before rank 2 hangs on its third (3 x the slowest seconds per budget
    # unit x the job's budget + the 2 s timeout). Without it the run would wait forever.
    GAMESOLVER_TEST_HANG_RANK=2:3 timeout --kill-after=10 120 mpirun --oversubscribe --bind-to none \
      -x GAMESOLVER_TEST_HANG_RANK --enable-recovery -np 3 "$bin" prove jungle "$position" --store "$work/hang-nodes.db" \
      "${options[@]}" --mpi --mpi-timeout 2 --json >"$work/hang-nodes.json" 2>"$work/hang-nodes.log" ||
      die "the run with a hung worker failed: $(tail -5 "$work/hang-nodes.log")"
    pid=$(grep -oE "manager: rank 2 is pid [0-9]+" "$work/hang-nodes.log" | grep -oE "[0-9]+$") ||
      die "rank 2 never said hello: $(tail -5 "$work/hang-nodes.log")"
    grep -E "rank 2 \(pid $pid\) no answer to its job within its limit of [0-9.]+ s: given up; its job goes to another rank" \
      "$work/hang-nodes.log" || die "rank 2 was not given up for its learnt limit: $(tail -5 "$work/hang-nodes.log")"
    ! grep -E "silent for" "$work/hang-nodes.log" || die "a rank fell silent: the heartbeats should have gone on"
    kill -0 "$pid" 2>/dev/null && die "the hung rank (pid $pid) still runs"
    tr -d ' \n' <"$work/hang-nodes.json" | grep -q '"lost_ranks":\[2\]' || die "the result does not name rank 2 as lost"
    same_as_threads hang-nodes
    ;;
  *)
    die "unknown mode $mode"
    ;;
esac
