#!/usr/bin/env bash
# clang-format and clang-tidy over the project's own sources, warnings as errors.
# Needs a configured build directory (compile_commands.json), by default build/.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mapfile -t sources < <(git ls-files '*.cpp' '*.h')
clang-format --dry-run --Werror "${sources[@]}"
# The units the build compiles (dist/no_mpi.cpp only in a build without MPI).
mapfile -t units < <(git ls-files 'core/*.cpp' 'games/*.cpp' 'db/*.cpp' 'retro/*.cpp' 'app/*.cpp' 'cli/*.cpp' \
  'server/*.cpp' 'dist/*.cpp' 'tests/games/*.cpp' | while read -r unit; do
  grep -q "\"file\": \"$PWD/$unit\"" "$build/compile_commands.json" && echo "$unit"
done)
printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet
echo "lint: clean"
