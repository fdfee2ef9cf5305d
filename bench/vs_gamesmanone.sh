#!/usr/bin/env bash
# gamesolver side by side with GamesmanOne (github.com/GamesCrafters/GamesmanOne, branch
# rs/mills, built by you outside this repository) on the small mill games, each solved
# from nothing from its start, alternated round after round by bench/ab.sh:
#
#   bench/vs_gamesmanone.sh GAMESMAN_BINARY [THREADS] [ROUNDS] [VARIANT...]
#
# THREADS (default 2) is both solvers' thread count (OMP_NUM_THREADS for GamesmanOne),
# ROUNDS (default 2) bench/ab.sh's rounds, VARIANTs among five six seven standard (default
# five six seven). gamesolver is build/gamesolver (GAMESOLVER overrides it), run as
# `build morris --variant V --start`. GamesmanOne's variant number for each is
# (((board * 4 + flying) * 3 + lasker) * 3 + removal) * 2 + misere, its options in the
# order of src/games/mills/variants.h: boards five 0, six 1, seven 2, nine 3; flying 0 (not
# allowed) on the small boards, 1 (with 3 stones) on the large one; the rest 0.
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
gamesman=$(realpath "$1")
threads=${2:-2}
rounds=${3:-2}
shift $(($# < 3 ? $# : 3))
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=(five six seven)
here=$(cd "$(dirname "$0")/.." && pwd)
gamesolver=$(realpath "${GAMESOLVER:-$here/build/gamesolver}")
declare -A number=([five]=0 [six]=72 [seven]=144 [standard]=234)
for variant in "${variants[@]}"; do
  [[ -n ${number[$variant]:-} ]] || { echo "vs_gamesmanone.sh: unknown variant $variant" >&2; exit 2; }
  echo "== $variant (GamesmanOne mills ${number[$variant]}), $threads threads"
  # GamesmanOne makes its data path only when relative: it runs inside {data}.
  "$here/bench/ab.sh" --rounds "$rounds" \
    "cd {data} && OMP_NUM_THREADS=$threads $gamesman solve mills ${number[$variant]} --data-path=d > /dev/null" \
    "$gamesolver build morris --variant $variant --start --threads $threads --quiet --data {data} > /dev/null"
done
