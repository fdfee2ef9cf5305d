#!/usr/bin/env bash
# The per-core goals of issue 17 measured on one machine at one time: builds the commit
# a goal's base figure was measured at (in a git worktree under SCRATCH, outside this
# work tree; built once, then reused) and runs its build against the given binary side
# by side with bench/ab.sh --together, one thread each, so that both see the same
# machine and the same load. A base figure measured on another machine, or under
# another load, is no base for a ratio: this is.
#
#   bench/base_ab.sh BINARY BASE_COMMIT SCRATCH ROUNDS BUILD_ARGS...
#
# Prints ab.sh's lines: CPU seconds of each side, and BASE/BINARY, the speed-up.
# The goals' bases (docs/BENCHMARKS.md, "The speed goals at a glance"):
#   bench/base_ab.sh build/gamesolver 8fb0de5 /tmp/base 1 jungle --pieces 5
#   bench/base_ab.sh build/gamesolver 5154c5f /tmp/base 1 checkers --pieces 6
set -euo pipefail
[[ $# -ge 5 ]] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
binary=$(realpath "$1") base=$2 scratch=$3 rounds=$4
shift 4
here=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$here" rev-parse --verify --short "$base^{commit}")
tree=$scratch/gamesolver-$commit
if [[ ! -x $tree/build/gamesolver ]]; then
  mkdir -p "$scratch"
  [[ -d $tree ]] || git -C "$here" worktree add --detach "$tree" "$commit" >&2
  cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
  ninja -C "$tree/build" gamesolver >&2
fi
args="$*"
exec "$here/bench/ab.sh" --together --rounds "$rounds" \
  "$tree/build/gamesolver build $args --threads 1 --quiet --data {data}" \
  "$binary build $args --threads 1 --quiet --data {data}"
