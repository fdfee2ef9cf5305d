#!/usr/bin/env bash
# The fuzz targets of tests/fuzz/ under libFuzzer, coverage-guided, with AddressSanitizer
# and UndefinedBehaviorSanitizer, for longer than the bounded runs ctest makes (those use
# the seeded mutation driver, tests/fuzz/driver.cpp). Needs clang and libFuzzer (Debian's
# clang and libclang-rt-14-dev; scripts/install-deps.sh --fuzz installs them).
#
#   bench/fuzz.sh [SECONDS] [TARGET...]   each target for SECONDS (default 600); targets:
#                                         positions pdn (default both)
#
# Builds in build-fuzz/ (git-ignored), starts from the committed seeds in
# tests/fuzz/corpus/<target>/ and keeps what libFuzzer finds in build-fuzz/corpus/<target>/
# (so a second run goes on from there). A crash leaves its input in
# build-fuzz/artifacts/<target>/ and makes the script exit non-zero; replay it with
#   build-fuzz/tests/fuzz/fuzz_<target> build-fuzz/artifacts/<target>/crash-...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(positions pdn); fi
build=$root/build-fuzz
if ! command -v clang++ >/dev/null; then
  echo "bench/fuzz.sh: clang++ is not installed (scripts/install-deps.sh --fuzz)" >&2
  exit 1
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DGAMESOLVER_LIBFUZZER=ON -DGAMESOLVER_MPI=OFF -DGAMESOLVER_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
ninja -C "$build" "${targets[@]/#/fuzz_}" >/dev/null
status=0
for target in "${targets[@]}"; do
  corpus=$build/corpus/$target
  artifacts=$build/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  echo "== fuzz_$target for $seconds s"
  if ! "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" \
    "$root/tests/fuzz/corpus/$target" 2>"$build/fuzz_$target.log"; then
    status=1
    echo "fuzz_$target FAILED: see $build/fuzz_$target.log and $artifacts/"
  fi
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)" "$build/fuzz_$target.log" || true
done
exit $status
