#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs the main job on a small
# default: builds build/gamesolver, builds the Jungle Checkers databases up to 4 pieces
# into ./data, prints their summary and probes a sample position.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C build gamesolver
build/gamesolver build jungle --pieces 4 --data data
build/gamesolver stats jungle --pieces 4 --data data
build/gamesolver probe jungle "7/2t1d2/7/7/7/2D1T2/7 w" --data data
