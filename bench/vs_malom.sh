#!/usr/bin/env bash
# gamesolver side by side with Gevay & Danner's Malom solver (github.com/ggevay/malom,
# folder Malom_megoldas: its strong, not its ultra-strong, build, ported to Linux and built
# by you outside this repository) on the moving-phase sectors of Nine Men's Morris up to
# 5 stones a side, both on one thread:
#
#   bench/vs_malom.sh [options] MALOM_BINARY GAMESOLVER_BINARY [SECTOR...]
#
# SECTORs among 3-3 3-4+4-3 4-4 3-5+5-3 4-5+5-4 5-5 (default: all six; 3-4 or 4-3 names
# 3-4+4-3, and so on). Malom solves one work unit per process, `MALOM W B 0 0 -solve` in
# its data directory, a unit being a sector (W stones of the side to move, B of the other,
# none left to place) and its colour-swapped twin; it needs the units below solved first,
# so every unit up to the last SECTOR is solved, in the order above, and each is timed
# (wall seconds of the process, its start-up included: it reads its 192 MiB of
# move-generation tables, std.movegen, each time; the script prints what that costs,
# from a -verify of 3-3). gamesolver builds
# everything up to the largest SECTOR's stones, `build morris --pieces N --threads 1`,
# placement tiers included; its seconds are the per-tier "built in" of the W-B-0-0 tier
# (one tier holds both sides to move: 3-4+4-3 is its tier 4-3-0-0). The table's ratio
# is Malom's seconds over gamesolver's (above 1: gamesolver is faster).
#
# options:
#   --check    also compare each unit's wins, draws and losses (Malom's -analyze, over its
#              symmetry-reduced positions) with gamesolver stats for the tier
#   --cpu N    pin both solvers to core N (taskset)
#   --tmp DIR  where the data directories go (default $TMPDIR or /tmp)
#   --keep     keep the data directories
#
# Example, the smallest sector only, counts compared:
#   bench/vs_malom.sh --check ../anchors/malom/bin/malom_strong build/gamesolver 3-3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

check=0
pin=()
tmp_root=${TMPDIR:-/tmp}
keep=0
args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --check) check=1; shift ;;
    --cpu) pin=(taskset -c "$2"); shift 2 ;;
    --tmp) tmp_root=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "vs_malom.sh: unknown option $1" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ ${#args[@]} -ge 2 ]] || { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
malom=$(realpath "${args[0]}")
gamesolver=$(realpath "${args[1]}")
[[ -x $malom ]] || { echo "vs_malom.sh: no binary $malom" >&2; exit 2; }
[[ -x $gamesolver ]] || { echo "vs_malom.sh: no binary $gamesolver" >&2; exit 2; }

# The units in dependency order, each as "FEWER MORE" stones (Malom's W B of the unit).
order=("3 3" "3 4" "4 4" "3 5" "4 5" "5 5")
unit_name() { # FEWER MORE
  if [[ $1 == "$2" ]]; then echo "$1-$2"; else echo "$1-$2+$2-$1"; fi
}
wanted=()
if [[ ${#args[@]} -eq 2 ]]; then
  wanted=("${order[@]}")
else
  for sector in "${args[@]:2}"; do
    [[ $sector =~ ^([3-5])-([3-5])(\+([3-5])-([3-5]))?$ ]] ||
      { echo "vs_malom.sh: unknown sector $sector (3-3 ... 5-5)" >&2; exit 2; }
    a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
    if ((a <= b)); then wanted+=("$a $b"); else wanted+=("$b $a"); fi
  done
fi
last=0 pieces=3
for unit in "${wanted[@]}"; do
  for i in "${!order[@]}"; do [[ ${order[i]} == "$unit" ]] && ((i > last)) && last=$i; done
  more=${unit#* }
  ((more > pieces)) && pieces=$more
done

work=$(mktemp -d "$tmp_root/vs_malom.XXXXXX")
if ((keep)); then echo "data in $work"; else trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/malom" "$work/gamesolver"
echo "machine: $(bench_machine); gamesolver $(bench_commit)"
read -r w b <<<"${order[last]}"
echo "Malom: $malom; gamesolver: $gamesolver; up to unit $(unit_name "$w" "$b"), gamesolver --pieces $pieces"

# Malom's move-generation lookup tables (std.movegen, 192 MiB), made once, not timed.
(cd "$work/malom" && "$malom" -writemovegenlookups > movegen.log 2>&1) ||
  { echo "vs_malom.sh: $malom -writemovegenlookups failed:" >&2; tail -5 "$work/malom/movegen.log" >&2; exit 1; }

declare -A malom_s malom_cpu malom_rss gs_s
for ((i = 0; i <= last; ++i)); do
  read -r w b <<<"${order[i]}"
  name=$(unit_name "$w" "$b")
  if ! (cd "$work/malom" && bench_timed "time_$w$b" "log_$w$b" "${pin[@]}" "$malom" "$w" "$b" 0 0 -solve); then
    echo "vs_malom.sh: Malom failed on $name:" >&2
    tail -5 "$work/malom/log_$w$b" >&2
    exit 1
  fi
  grep -q 'Running in legacy mode' "$work/malom/log_$w$b" ||
    { echo "vs_malom.sh: $malom is the ultra-strong (DD) build; build the strong one" >&2; exit 1; }
  read -r wall user sys rss < <(bench_measured "$work/malom/time_$w$b")
  malom_s[$name]=$wall
  malom_cpu[$name]=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
  malom_rss[$name]=$((rss / 1024))
  printf 'Malom %-8s %8.2f s wall %8.2f CPU-s %6d MiB peak\n' "$name" "$wall" "${malom_cpu[$name]}" "${malom_rss[$name]}"
done
# What a Malom process spends before solving (mostly reading std.movegen): a -verify of
# 3-3, whose own work is small, for the reader of the small units' ratios; not subtracted.
(cd "$work/malom" && bench_timed time_verify log_verify "${pin[@]}" "$malom" 3 3 0 0 -verify) ||
  { echo "vs_malom.sh: Malom -verify of 3-3 failed:" >&2; tail -5 "$work/malom/log_verify" >&2; exit 1; }
read -r wall user sys rss < <(bench_measured "$work/malom/time_verify")
echo "Malom start-up and a -verify of 3-3: $wall s wall (included in every unit's seconds above, not subtracted)"

bench_timed "$work/gamesolver/time" "$work/gamesolver/log" "${pin[@]}" "$gamesolver" build morris \
  --pieces "$pieces" --threads 1 --quiet --data "$work/gamesolver" ||
  { echo "vs_malom.sh: gamesolver failed:" >&2; tail -5 "$work/gamesolver/log" >&2; exit 1; }
read -r wall user sys rss < <(bench_measured "$work/gamesolver/time")
echo "gamesolver build --pieces $pieces (every tier): $wall s wall, $((rss / 1024)) MiB peak"
# gamesolver's name of a unit's tier: the more stones first, or the other way round.
gs_tier() { # FEWER MORE
  awk -v a="$2-$1-0-0" -v b="$1-$2-0-0" '$1 == a || $1 == b {print $1; exit}' "$work/gamesolver/log"
}
for unit in "${wanted[@]}"; do
  read -r w b <<<"$unit"
  tier=$(gs_tier "$w" "$b")
  [[ -n $tier ]] || { echo "vs_malom.sh: gamesolver built no tier $b-$w-0-0" >&2; exit 1; }
  gs_s[$(unit_name "$w" "$b")]=$(awk -v t="$tier" '$1 == t {for (i = 1; i < NF; ++i) if ($i == "in") {sub(/s$/, "", $(i + 1)); print $(i + 1)}}' \
    "$work/gamesolver/log")
done

if ((check)); then
  "$gamesolver" stats morris --pieces "$pieces" --data "$work/gamesolver" > "$work/gamesolver/stats"
  for unit in "${wanted[@]}"; do
    read -r w b <<<"$unit"
    # Malom's -analyze writes SECTOR.analyze: line 4 is "wins draws losses".
    sectors=("$w $b")
    [[ $w != "$b" ]] && sectors+=("$b $w")
    for sector in "${sectors[@]}"; do
      read -r x y <<<"$sector"
      (cd "$work/malom" && "$malom" "$x" "$y" 0 0 -analyze > "analyze_$x$y.log" 2>&1) ||
        { echo "vs_malom.sh: Malom -analyze failed on $x-$y" >&2; exit 1; }
    done
    malom_wdl=$(for sector in "${sectors[@]}"; do sed -n 4p "$work/malom/std_${sector/ /_}_0_0.analyze"; done |
      awk '{w += $1; d += $2; l += $3} END {print w + d + l, w, d, l}')
    tier=$(gs_tier "$w" "$b")
    gs_wdl=$(awk -v t="$tier" '$1 == t {print $2, $3, $4, $5}' "$work/gamesolver/stats")
    if [[ $malom_wdl == "$gs_wdl" ]]; then verdict=same; else verdict=DIFFERENT; fi
    printf 'check %-8s positions wins draws losses: Malom %s, gamesolver %s (%s): %s\n' \
      "$(unit_name "$w" "$b")" "$malom_wdl" "$tier" "$gs_wdl" "$verdict"
    [[ $verdict == same ]] || status=1
  done
fi

echo
printf '%-10s %10s %14s %8s %12s %10s\n' sector "Malom s" "gamesolver s" ratio "Malom CPU-s" "Malom MiB"
for unit in "${wanted[@]}"; do
  read -r w b <<<"$unit"
  name=$(unit_name "$w" "$b")
  awk -v n="$name" -v m="${malom_s[$name]}" -v g="${gs_s[$name]}" -v c="${malom_cpu[$name]}" -v r="${malom_rss[$name]}" \
    'BEGIN {printf "%-10s %10.2f %14.2f %8s %12.2f %10d\n", n, m, g, (g > 0 ? sprintf("%.2f", m / g) : "-"), c, r}'
done
exit "${status:-0}"
