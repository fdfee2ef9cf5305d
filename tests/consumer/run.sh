#!/usr/bin/env bash
# The installed library as other programs use it: `cmake --install` into a prefix, then
# a separate CMake project (this folder) that finds it with find_package(gamesolver),
# and the same sources built through pkg-config, each probing a position of every game
# (C++ API: consumer.cpp; C API: examples/probe.c). Their answers must be those of the
# installed `gamesolver probe --json`, errors included.
#   tests/consumer/run.sh BUILD_DIR SOURCE_DIR WORK_DIR DATA_DIR
set -euo pipefail
build=$1 source=$2 work=$3 data=$4
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
cmake -S "$source/tests/consumer" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DEXAMPLES_DIR="$source/examples" >"$work/configure.log"
cmake --build "$work/cmake" >"$work/build.log"

libdir=$(dirname "$(find "$prefix" -name gamesolver.pc)")/..
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs gamesolver)
# shellcheck disable=SC2086
c++ -std=c++20 "$source/tests/consumer/consumer.cpp" $flags -Wl,-rpath,"$libdir" -o "$work/consumer_pc"
# shellcheck disable=SC2086
cc -std=c99 -Wall -Werror "$source/examples/probe.c" $flags -Wl,-rpath,"$libdir" -o "$work/probe_pc"

gamesolver=$prefix/bin/gamesolver
failed=0
check() {  # name expected actual
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1"
    diff <(echo "$2") <(echo "$3") | head -20
    failed=1
  else
    echo "ok: $1"
  fi
}
# The C example's lines from the command's JSON: "<game> <position>: <value>, best move
# <move>", then a line per move.
c_lines() {  # game json
  python3 -c '
import json, sys
game, report = sys.argv[1], json.loads(sys.argv[2])
def text(v):
    if v is None: return "unknown"
    return v["outcome"] + (" in %d" % v["depth"] if "depth" in v else "")
print("%s %s: %s, best move %s" % (game, report["position"], text(report["value"]), report["best"] or "(none)"))
for m in report["moves"]: print("  %-8s %s" % (m["move"], text(m["value"])))
' "$1" "$2"
}

while IFS='|' read -r game variant rules position; do
  options=()
  [ -n "$rules" ] && options=(--rule "$rules")
  expected=$("$gamesolver" probe "$game" "$position" --variant "$variant" --data "$data" --json "${options[@]}")
  check "$game: find_package, C++ API" "$expected" "$("$work/cmake/consumer_cpp" "$data" "$game" "$variant" "$rules" "$position")"
  check "$game: pkg-config, C++ API" "$expected" "$("$work/consumer_pc" "$data" "$game" "$variant" "$rules" "$position")"
  lines=$(c_lines "$game" "$expected")
  check "$game: find_package, C API" "$lines" "$("$work/cmake/consumer_c" "$data" "$game" "$variant" "$rules" "$position")"
  check "$game: pkg-config, C API" "$lines" "$("$work/probe_pc" "$data" "$game" "$variant" "$rules" "$position")"
done <<'POSITIONS'
jungle|standard||7/2t4/7/7/7/2D1T2/7 w
morris|standard||W:a1,d2,g1 B:a7,d7,b6 w 0 0
checkers|english||W:W18,K10:B14
dobutsu|standard|kinds=C|1l1/1c1/1C1/1L1 b -
POSITIONS

# An error: the same message, after "error <kind>: " (1: bad input) and "probe: ".
message=$("$gamesolver" probe jungle "7/7/7 w" --data "$data" 2>&1 >/dev/null | sed 's/^gamesolver: error: //') || true
check "bad position, C++ API" "error 1: $message" "$("$work/cmake/consumer_cpp" "$data" jungle "" "" "7/7/7 w" || true)"
check "bad position, C API" "probe: $message" "$("$work/cmake/consumer_c" "$data" jungle "" "" "7/7/7 w" 2>&1 || true)"
# Only the public API is exported by the shared library.
if nm -D --defined-only "$libdir"/libgamesolver.so | grep -E ' T ' | grep -v -E ' T (gs_|_ZN10gamesolver|_ZNK10gamesolver)'; then
  echo "FAIL: libgamesolver.so exports symbols outside the public API (above)"
  failed=1
fi
exit "$failed"
