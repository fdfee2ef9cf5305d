#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors and runs the whole test suite
# through ctest: every test in Release, then the fast ones under AddressSanitizer with
# UndefinedBehaviorSanitizer, and under ThreadSanitizer in a build without MPI
# (-DGAMESOLVER_MPI=OFF, which must build and pass too).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# playwright-core, pinned by package-lock.json, for the explorer's browser test.
npm ci --no-audit --no-fund
jobs=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGAMESOLVER_WERROR=ON
ninja -C build
ctest --test-dir build --output-on-failure -j "$jobs"
scripts/lint.sh build

for sanitizer in address,undefined thread; do
  dir="build-${sanitizer%%,*}"
  mpi=ON
  [ "$sanitizer" = thread ] && mpi=OFF
  # -O1 -g1 (line tables, enough for the sanitizers' stack traces) compiles twice as
  # fast as -O2 -g: the sanitizer builds were a third of the suite's time.
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DGAMESOLVER_WERROR=ON -DGAMESOLVER_BENCH=OFF -DGAMESOLVER_SANITIZE="$sanitizer" -DGAMESOLVER_MPI="$mpi"
  ninja -C "$dir"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" -L fast
done
echo "all tests passed"
