#!/usr/bin/env bash
# clang-format and clang-tidy over the project's own sources, warnings as errors.
# Needs a configured build directory (compile_commands.json), by default build/.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mapfile -t sources < <(git ls-files '*.cpp' '*.h')
clang-format --dry-run --Werror "${sources[@]}"
# The units the build compiles (dist/no_mpi.cpp only in a build without MPI).
mapfile -t units < <(git ls-files 'core/*.cpp' 'games/*.cpp' 'db/*.cpp' 'retro/*.cpp' 'app/*.cpp' 'lib/*.cpp' \
  'cli/*.cpp' 'server/*.cpp' 'dist/*.cpp' 'prove/*.cpp' 'bin/*.cpp' 'tests/games/*.cpp' | while read -r unit; do
  grep -q "\"file\": \"$PWD/$unit\"" "$build/compile_commands.json" && echo "$unit"
done)
printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet
# The layers never include upward; the two front ends share app/ and lib/ (the library,
# whose public headers are include/gamesolver/) and nothing else.
layers=(core games db retro search dist prove app lib)
for ((i = 0; i < ${#layers[@]}; i++)); do
  for upper in "${layers[@]:i+1}" cli server bin; do
    if grep -rn "include \"$upper/" "${layers[i]}"; then
      echo "lint: ${layers[i]}/ includes $upper/, a layer above it"
      exit 1
    fi
  done
  if [ "${layers[i]}" != lib ] && grep -rn 'include "gamesolver/' "${layers[i]}"; then
    echo "lint: ${layers[i]}/ includes the library's headers (gamesolver/), a layer above it"
    exit 1
  fi
done
# The public headers include the standard library and each other only.
if grep -n '^#include' include/gamesolver/*.h | grep -v -E '#include <[a-z_]+(\.h)?>|#include "gamesolver/'; then
  echo "lint: a public header (include/gamesolver/) includes more than the standard library and its own"
  exit 1
fi
if grep -rn 'include "server/' cli/ || grep -rn 'include "cli/' server/; then
  echo "lint: cli/ and server/ include each other"
  exit 1
fi
scripts/check-doc-links.sh
echo "lint: clean"
