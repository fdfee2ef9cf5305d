#!/usr/bin/env python3
"""Where a build's time went: its log's per-tier lines summed by kind of tier.

    bench/tier_times.py LOG [--top N]

LOG is the output of `gamesolver build ...` (lines "TIER  N indices  built in S s").
Tiers of the mill games (named W-B-WF-BF) are grouped as placement (stones in hand),
flying (all placed, a side with 3 stones or fewer) and sliding; other games' tiers
are grouped by their number of pieces where the name shows it, else all together.
Tiers built at the same time on several threads each count their own wall time, so
the sums can exceed the run's wall time; their shares are what the table is for.
"""
import argparse
import re
import sys
from collections import defaultdict

LINE = re.compile(r"^(\S+)\s+(\d+) indices\s+built in ([0-9.]+)s")


def kind(tier):
    parts = tier.split("-")
    if len(parts) == 4 and all(p.isdigit() for p in parts):
        w, b, wf, bf = map(int, parts)
        if wf or bf:
            return "placement"
        return "flying" if min(w, b) <= 3 else "sliding"
    letters = sum(c.isalpha() for c in tier)
    return f"{letters} pieces" if letters else "all"


def rate(indices, seconds):
    """Millions of indices a second (0 for no time)."""
    return indices / seconds / 1e6 if seconds else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--top", type=int, default=10, help="the slowest tiers listed (default 10)")
    args = parser.parse_args()
    tiers = []
    with open(args.log, encoding="utf-8", errors="replace") as log:
        for line in log:
            match = LINE.match(line)
            if match:
                tiers.append((match[1], int(match[2]), float(match[3])))
    if not tiers:
        sys.exit(f"{args.log}: no 'built in' lines")
    groups = defaultdict(lambda: [0, 0, 0.0])
    for name, indices, seconds in tiers:
        group = groups[kind(name)]
        group[0] += 1
        group[1] += indices
        group[2] += seconds
    total = sum(seconds for _, _, seconds in tiers)
    print("| kind | tiers | indices | tier seconds | share | M indices/s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (count, indices, seconds) in sorted(groups.items(), key=lambda g: -g[1][2]):
        print(f"| {name} | {count} | {indices:,} | {seconds:,.1f} | {100 * seconds / total:.0f} % "
              f"| {rate(indices, seconds):.2f} |")
    indices = sum(i for _, i, _ in tiers)
    print(f"| all | {len(tiers)} | {indices:,} | {total:,.1f} | 100 % | {rate(indices, total):.2f} |")
    print()
    print(f"The {args.top} slowest tiers:")
    print()
    print("| tier | kind | indices | seconds | M indices/s |")
    print("|---|---|---:|---:|---:|")
    for name, indices, seconds in sorted(tiers, key=lambda t: -t[2])[: args.top]:
        print(f"| {name} | {kind(name)} | {indices:,} | {seconds:,.1f} | {rate(indices, seconds):.2f} |")


if __name__ == "__main__":
    main()
