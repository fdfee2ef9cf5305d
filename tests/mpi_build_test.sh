#!/usr/bin/env bash
# Builds Jungle Checkers up to 4 pieces with `gamesolver build --mpi` under mpirun over
# loopback and checks the files against the single-process build, byte for byte.
#   mpi_build_test.sh BINARY WORKDIR reference   the single-process build (fixture)
#   mpi_build_test.sh BINARY WORKDIR ranks N     an N-rank build gives identical files
#   mpi_build_test.sh BINARY WORKDIR kill        a worker killed mid-tier: the run ends
#                                                well and the set is complete
#   mpi_build_test.sh BINARY WORKDIR restart     a whole run killed and restarted
#                                                recomputes no finished tier
#   mpi_build_test.sh BINARY WORKDIR hang        a worker that stops answering (SIGSTOP):
#                                                its tier goes to another rank, the
#                                                manager kills it at the end (3 pieces)
set -euo pipefail
bin=$1
work=$2
mode=$3
pieces=4
tiers=jungle/standard
reference=$work/reference
# Ranks run as root in containers and share this machine's 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A run that hangs fails after 5 minutes (a whole 4-piece build takes under one), with
# the log's last lines, rather than at ctest's timeout with nothing.
mpirun=(timeout --kill-after=10 300 mpirun --oversubscribe --bind-to none)

die() {
  echo "FAIL: $*" >&2
  exit 1
}

# Every tier file in $1 is the reference's file of that tier, byte for byte, there are $2
# of them (by default as many as the reference has), and no temporary is left.
same_as_reference() {
  local dir=$1 count=0
  local expected=${2:-$(find "$reference/$tiers" -name '*.gsdb' | wc -l)}
  for file in "$dir/$tiers"/*.gsdb; do
    cmp "$file" "$reference/$tiers/$(basename "$file")" || die "$(basename "$file") differs from the single-process build"
    count=$((count + 1))
  done
  [ "$count" -eq "$expected" ] || die "$count tier files in $dir, $expected expected"
  [ "$(find "$dir/$tiers" -name '*.tmp-*' | wc -l)" -eq 0 ] || die "temporary files left in $dir"
  echo "$count files identical to the single-process build's"
}

# Waits until a line matching the pattern appears in a file, while the job runs.
wait_for() {
  local pattern=$1 file=$2 job=$3
  until grep -qE "$pattern" "$file" 2>/dev/null; do
    kill -0 "$job" 2>/dev/null || die "the build ended before '$pattern' appeared in $file"
    sleep 0.05
  done
}

case $mode in
  reference)
    rm -rf "$reference"
    "$bin" build jungle --pieces $pieces --data "$reference" --quiet
    ;;
  ranks)
    ranks=$4
    dir=$work/ranks-$ranks
    rm -rf "$dir"
    "${mpirun[@]}" -np "$ranks" "$bin" build jungle --pieces $pieces --data "$dir" --mpi --quiet | tee "$dir.out"
    grep -q "on $((ranks - 1)) worker ranks" "$dir.out" || die "not built by $((ranks - 1)) workers"
    same_as_reference "$dir"
    ;;
  kill)
    dir=$work/kill
    rm -rf "$dir" "$dir.log"
    "${mpirun[@]}" --enable-recovery -np 3 "$bin" build jungle --pieces $pieces --data "$dir" --mpi \
      --mpi-timeout 4 >"$dir.out" 2>"$dir.log" &
    job=$!
    # A worker building a tier of a million indices or more (a second or more) is killed.
    pattern='manager: tier [^ ]+ \([0-9]{7,} indices\) to rank [0-9]+ \(pid [0-9]+\)'
    wait_for "$pattern" "$dir.log" $job
    pid=$(grep -m1 -oE "$pattern" "$dir.log" | sed -E 's/.*pid ([0-9]+)\)/\1/')
    sleep 0.2
    kill -9 "$pid"
    echo "killed worker pid $pid"
    wait $job || die "the run failed after a worker was killed: $(tail -5 "$dir.log")"
    cat "$dir.out"
    grep -E "silent for .* given up; tier .* goes to another rank" "$dir.log" ||
      die "the manager did not hand the killed worker's tier to another rank"
    grep -E "ranks [0-9]+ were lost: ending the job" "$dir.log" || die "the manager did not end the job itself"
    "$bin" verify jungle --pieces $pieces --data "$dir" --checksums >/dev/null
    same_as_reference "$dir"
    ;;
  restart)
    dir=$work/restart
    rm -rf "$dir"
    log=$dir/$tiers/build-progress.log
    "${mpirun[@]}" -np 3 "$bin" build jungle --pieces $pieces --data "$dir" --mpi --quiet >"$dir.out1" 2>&1 &
    job=$!
    # Stop the whole run once 20 tiers are finished (71 in all).
    until [ "$(cat "$log" 2>/dev/null | grep -c '^done ' || true)" -ge 20 ]; do
      kill -0 $job 2>/dev/null || die "the first run ended before 20 tiers were done"
      sleep 0.05
    done
    kill -TERM $job
    wait $job && die "the first run was not stopped"
    sleep 1
    # What the first run finished: complete files, with their inode and modification time.
    finished=$(find "$dir/$tiers" -name '*.gsdb' | sort)
    [ -n "$finished" ] || die "no tier finished before the kill"
    before=$(stat -c '%n %i %Y.%y' $finished)
    [ "$(echo "$finished" | wc -l)" -lt 71 ] || die "the first run finished every tier before it was killed"
    "${mpirun[@]}" -np 3 "$bin" build jungle --pieces $pieces --data "$dir" --mpi >"$dir.out2" 2>"$dir.log2" ||
      die "the restarted run failed: $(tail -5 "$dir.log2")"
    after=$(stat -c '%n %i %Y.%y' $finished)
    [ "$before" = "$after" ] || die "a tier finished in the first run was written again"
    for file in $finished; do
      name=$(basename "$file" .gsdb)
      if grep -qE "^$name +[0-9]+ indices  built" "$dir.out2"; then die "tier $name was built again"; fi
    done
    echo "$(echo "$finished" | wc -l) tiers finished before the kill, none recomputed"
    grep "finished in an earlier run" "$dir.log2"
    same_as_reference "$dir"
    ;;
  hang)
    dir=$work/hang
    rm -rf "$dir" "$dir.log"
    "${mpirun[@]}" --enable-recovery -np 3 "$bin" build jungle --pieces 3 --data "$dir" --mpi --mpi-timeout 3 \
      >"$dir.out" 2>"$dir.log" &
    job=$!
    pattern='manager: tier [^ ]+ \([0-9]+ indices\) to rank 2 \(pid [0-9]+\)'
    wait_for "$pattern" "$dir.log" $job
    pid=$(grep -m1 -oE "$pattern" "$dir.log" | sed -E 's/.*pid ([0-9]+)\)/\1/')
    kill -STOP "$pid"
    echo "stopped worker pid $pid"
    wait $job || die "the run failed after a worker stopped answering: $(tail -5 "$dir.log")"
    kill -9 "$pid" 2>/dev/null || true
    grep -E "rank 2 .* given up; tier .* goes to another rank" "$dir.log" ||
      die "the manager did not hand the stopped worker's tier to another rank"
    grep -E "rank 2 \(pid $pid\) is still running: killing it" "$dir.log" ||
      die "the manager did not end the stopped worker"
    # The stopped worker's temporary (if it had begun writing) goes with the next run.
    "${mpirun[@]}" -np 3 "$bin" build jungle --pieces 3 --data "$dir" --mpi >"$dir.out2" 2>"$dir.log2"
    grep -q "34 finished in an earlier run" "$dir.out2" || die "the next run did not find all 34 tiers finished"
    same_as_reference "$dir" 34
    ;;
  *)
    die "unknown mode $mode"
    ;;
esac
