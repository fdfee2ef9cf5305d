#!/usr/bin/env bash
# The verify of a long build (bench/full_build.sh) in the background of a session: every
# tier GAME's start position needs, each value re-derived from its successors, at the
# lowest priority, its log appended to DATA/GAME-verify.log. The tiers found consistent
# are recorded in DATA/GAME-verify.journal (verify --journal): rerun it to go on where
# it stopped. JOURNAL=FILE names another journal, such as one kept in the repository
# (bench/journals/): a journal line holds the values checksums of a tier's file and its
# children's, so it vouches for any build whose files hold the same values, and a
# rebuild of lost files goes on from the tiers verified before.
#
#   bench/full_verify.sh BINARY DATA GAME [THREADS] [VERIFY OPTION...]
#
# Example, the complete standard Nine Men's Morris on 2 threads, started so that it
# outlives the shell:
#   (setsid nohup bench/full_verify.sh build-native/gamesolver data morris 2 > /dev/null 2>&1 &)
# With --pieces N (or --tier T) among the verify options, those tiers instead of --start.
# Each tier's check holds its file and its children's decompressed: pass --memory GIB
# where a tier needs more than the default 8 GiB (verify names the tier and its need).
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
binary=$(realpath "$1") data=$2 game=$3 threads=${4:-2}
shift $(($# < 4 ? $# : 4))
log="$data/$game-verify.log"
journal=${JOURNAL:-$data/$game-verify.journal}
scope=(--start)
for option in "$@"; do [[ $option == --pieces || $option == --tier ]] && scope=(); done
echo "=== $(date -u) $binary verify $game ${scope[*]} --threads $threads $*" >> "$log"
exec nice -n 19 /usr/bin/time -v "$binary" verify "$game" "${scope[@]}" --threads "$threads" --data "$data" \
  --journal "$journal" "$@" >> "$log" 2>&1
