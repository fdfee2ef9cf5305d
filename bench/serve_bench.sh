#!/usr/bin/env bash
# Position requests per second and latency of `gamesolver serve` on loopback with a warm
# cache. Builds (or reuses) Jungle Checkers databases up to PIECES pieces in
# BUILD/bench-data, starts the server there, gathers POSITIONS positions by following
# moves from a 4-piece position, requests each once to warm the caches, then sends
# REQUESTS requests over CONNECTIONS keep-alive connections (bench/serve_load.cpp) and
# prints the rate and latency percentiles with the machine and the commit, as a section
# for docs/BENCHMARKS.md. Build from a clean export of a commit for numbers to publish.
#
#   bench/serve_bench.sh [BUILD] [PIECES]        (defaults: build 4)
#   CONNECTIONS=8 REQUESTS=100000 POSITIONS=2000 THREADS=16 bench/serve_bench.sh build 4
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
pieces=${2:-4}
connections=${CONNECTIONS:-8}
requests=${REQUESTS:-100000}
positions=${POSITIONS:-2000}
threads=${THREADS:-16}
seed="7/2t1d2/7/7/7/2D1T2/7 w"

ninja -C "$build" gamesolver serve_load >/dev/null
data="$build/bench-data"
"$build/gamesolver" build jungle --pieces "$pieces" --data "$data" --quiet >/dev/null
log=$(mktemp)
# All the load comes from one address: no bound on connections per address.
"$build/gamesolver" serve --port 0 --data "$data" --threads "$threads" --max-connections-per-address 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
port=""
for _ in $(seq 100); do
  port=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | grep -o '[0-9]*/$' | tr -d / || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$log"; echo "serve_bench: the server did not start" >&2; exit 1; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
result=$("$build/serve_load" --port "$port" --seed "$seed" --positions "$positions" \
  --connections "$connections" --requests "$requests" --seconds 300)
# The commit the binary was built from: its source tree's, or the .commit file of an
# exported tree (git archive), marked when the tree has uncommitted changes.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if commit=$(git -C "$source_dir" rev-parse --short HEAD 2>/dev/null); then
  [ -z "$(git -C "$source_dir" status --porcelain --untracked-files=no)" ] || commit="$commit with uncommitted changes"
elif [ -f "$source_dir/.commit" ]; then
  commit="$(cat "$source_dir/.commit") (exported tree)"
else
  commit="unknown"
fi
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
memory=$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
cat <<REPORT
## Explorer server: position requests on loopback (bench/serve_bench.sh)

- command: \`bench/serve_bench.sh $build $pieces\` (CONNECTIONS=$connections REQUESTS=$requests POSITIONS=$positions THREADS=$threads)
- machine: $(nproc) cores, $memory, $cpu; client and server share the cores; load average before the run $load
- date: $(date -u +%Y-%m-%d), commit $commit
- data: Jungle Checkers up to $pieces pieces; positions gathered from \`$seed\`; one warm-up pass

$result
REPORT
