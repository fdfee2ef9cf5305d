#!/usr/bin/env bash
# Databases of every game up to 3 pieces (Jungle, Nine Men's Morris, English checkers;
# Dobutsu shogi's lions-and-chicks sub-game whole)
# for the tests of the library as other programs use it (tests/consumer/,
# tests/python/, examples/). A few seconds; complete tiers are kept between runs.
#   tests/library_data.sh GAMESOLVER_BINARY DATA_DIR
set -euo pipefail
gamesolver=$1 data=$2
mkdir -p "$data"
for game in jungle "morris --variant standard" checkers "dobutsu --rule kinds=C"; do
  # shellcheck disable=SC2086
  "$gamesolver" build $game --pieces 3 --data "$data" --quiet | tail -n 1
done
