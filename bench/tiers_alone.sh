#!/usr/bin/env bash
# Builds only the named tiers of a game, on one thread (THREADS=N for more), reading
# every other tier from an existing database directory (linked, not copied): a benchmark
# of single tiers for bench/ab.sh, which gives each run a fresh {data}. The built files
# are moved to DATA/TIER.gsdb (so that --same-files compares them) and the links removed.
#
#   bench/tiers_alone.sh BINARY DATA SOURCE PIECES TIER...
#
# SOURCE is a game's directory of tier files, DIR/GAME/VARIANT (e.g. data/morris/standard);
# PIECES is the --pieces the tiers come under, or - to build them with --tier (binaries
# that know it; SOURCE then needs only the files the tiers depend on, e.g. a part of a
# --start build). Example, the two largest placement tiers of Nine Men's Morris up to 6
# stones a side, an old binary against a new one:
#   bench/ab.sh --same-files "bench/tiers_alone.sh OLD {data} data/morris/standard 6 5-6-1-0 5-5-1-1" \
#                            "bench/tiers_alone.sh NEW {data} data/morris/standard 6 5-6-1-0 5-5-1-1"
set -euo pipefail
[[ $# -ge 5 ]] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
binary=$1 data=$2 source=$(realpath "$3") pieces=$4
shift 4
variant=$(basename "$source")
game=$(basename "$(dirname "$source")")
mkdir -p "$data/$game/$variant"
for file in "$source"/*.gsdb; do
  name=$(basename "$file" .gsdb)
  skip=0
  for tier in "$@"; do [[ $name == "$tier" ]] && skip=1; done
  ((skip)) || ln -s "$file" "$data/$game/$variant/"
done
scope=(--pieces "$pieces")
if [[ $pieces == - ]]; then
  scope=()
  for tier in "$@"; do scope+=(--tier "$tier"); done
fi
"$binary" build "$game" --variant "$variant" "${scope[@]}" --threads "${THREADS:-1}" --quiet --data "$data" > /dev/null
for tier in "$@"; do mv "$data/$game/$variant/$tier.gsdb" "$data/$tier.gsdb"; done
rm -rf "${data:?}/$game"
