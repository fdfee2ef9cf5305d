#!/usr/bin/env bash
# Runs two commands side by side, alternated round after round so that both see the
# same load, and prints each run's CPU seconds (user + sys) and wall seconds, the
# medians, and the ratio of the medians (A over B: above 1, B is faster). Either
# command may be gamesolver or an anchor solver (Malom, GamesmanOne, ...): a command
# is a shell line, and `{data}` in it becomes a fresh, empty directory for that run.
#
#   bench/ab.sh [--rounds N] [--same-files] [--together] "COMMAND A" "COMMAND B"
#
# --rounds N     rounds of A then B (default 3)
# --same-files   also check that both commands wrote identical files into {data}
#                (two gamesolver binaries: a speed change must not change a database)
# --together     run A and B at the same time in each round (each needs a core of its
#                own): on a machine shared with other work, both then see the same
#                load, where one after the other they may not
# --tmp DIR      where the data directories go (default $TMPDIR or /tmp)
#
# Example, an old and a new binary on the standard mill game up to 5 stones a side:
#   bench/ab.sh --same-files "old/gamesolver build morris --pieces 5 --threads 1 --quiet --data {data}" \
#                            "build/gamesolver build morris --pieces 5 --threads 1 --quiet --data {data}"
set -euo pipefail

rounds=3
same_files=0
together=0
tmp_root=${TMPDIR:-/tmp}
commands=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --same-files) same_files=1; shift ;;
    --together) together=1; shift ;;
    --tmp) tmp_root=$2; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
    *) commands+=("$1"); shift ;;
  esac
done
[[ ${#commands[@]} -eq 2 ]] || { echo "ab.sh: give two commands (see --help)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ab.sh: --rounds takes a positive number" >&2; exit 2; }

work=$(mktemp -d "$tmp_root/ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
declare -a cpu_a cpu_b
# Runs one side's command into a fresh {data}; its times go to $work/time.SIDE.
run_side() {
  local side=$1 command=${commands[0]}
  [[ $side == b ]] && command=${commands[1]}
  local data="$work/$side"
  rm -rf "$data"
  mkdir -p "$data"
  /usr/bin/time -o "$work/time.$side" -f "%U %S %e %M" bash -c "${command//\{data\}/$data}" >"$work/log.$side" 2>&1
}
for ((round = 1; round <= rounds; ++round)); do
  if ((together)); then
    run_side a & pid_a=$!
    run_side b & pid_b=$!
    status_a=0 status_b=0
    wait "$pid_a" || status_a=$?
    wait "$pid_b" || status_b=$?
  else
    status_a=0 status_b=0
    run_side a || status_a=$?
    ((status_a)) || run_side b || status_b=$?
  fi
  for side in a b; do
    status=$status_a
    [[ $side == b ]] && status=$status_b
    if ((status)); then
      echo "ab.sh: command $side failed:" >&2
      tail -5 "$work/log.$side" >&2
      exit 1
    fi
    read -r user sys wall rss <"$work/time.$side"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')
    printf 'round %d %s: %8.2f CPU-s %8.2f s wall %8d KiB peak\n' "$round" "$side" "$cpu" "$wall" "$rss"
    if [[ $side == a ]]; then cpu_a+=("$cpu"); else cpu_b+=("$cpu"); fi
  done
  if ((same_files)); then
    if diff -r -q "$work/a" "$work/b" >"$work/diff"; then
      echo "round $round: the files are identical"
    else
      echo "ab.sh: the two commands wrote different files:" >&2
      head -5 "$work/diff" >&2
      exit 1
    fi
  fi
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
a=$(median "${cpu_a[@]}")
b=$(median "${cpu_b[@]}")
awk -v a="$a" -v b="$b" 'BEGIN {printf "median CPU-s: A %s, B %s; A/B %.3f\n", a, b, a / b}'
