#!/usr/bin/env bash
# Probe rate through the library's C++ API, C API and Python module on the same
# positions, one thread (docs/BENCHMARKS.md, "The library"). Builds databases of every
# game up to 3 pieces in build/bench-library/ first (seconds; kept between runs), and
# installs the Python package into a virtual environment there.
#   bench/library_bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$build/bench-library
mkdir -p "$work"
nice ninja -C "$build" gamesolver bench_library gamesolver_python >/dev/null
tests/library_data.sh "$build/gamesolver" "$work/data"
if [ ! -x "$work/venv/bin/python" ]; then
  tests/python/install.sh /usr/bin/python3 "$PWD" "$PWD/$build" "$work/venv" >/dev/null
fi
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
while IFS='|' read -r game variant seed; do
  "$build/bench/bench_library" "$work/data" "$game" "$variant" "$seed" 2000 "$work/$game.positions"
  "$work/venv/bin/python" bench/library_bench.py "$work/data" "$game" "$variant" "$work/$game.positions"
done <<'SEEDS'
jungle|standard|7/2t4/7/7/7/2D1T2/7 w
morris|standard|W:a1,d2,g1 B:a7,d7,b6 w 0 0
checkers|english|B:W18,22:BK6
SEEDS
