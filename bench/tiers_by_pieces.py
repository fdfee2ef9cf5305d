#!/usr/bin/env python3
"""Sums the output of `gamesolver stats GAME ... --json` by piece count, as a Markdown
table: tiers built, positions, wins, draws and losses for the side to move, the longest
win in plies and the bytes of the files. Tiers not yet built are counted and named
below the table. With --tiers N, one row per built tier of N pieces follows.

    B stats jungle --pieces 6 --json --data D | bench/tiers_by_pieces.py [--tiers 6]
"""
import argparse
import json
import sys
from collections import defaultdict


def number(value):
    return f"{value:,}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiers", type=int, help="also one row per built tier of this many pieces")
    args = parser.parse_args()
    try:
        stats = json.load(sys.stdin)
        tiers = stats["tiers"]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        sys.exit(f"tiers_by_pieces.py: not the JSON of gamesolver stats: {error}")

    fields = ("positions", "wins", "draws", "losses", "file_bytes")
    rows = defaultdict(lambda: defaultdict(int))
    missing = []
    for tier in tiers:
        if not tier.get("built"):
            missing.append(tier["tier"])
            continue
        row = rows[tier["pieces"]]
        row["tiers"] += 1
        for field in fields:
            row[field] += tier[field]
        row["longest_win"] = max(row["longest_win"], tier["longest_win"])

    header = "| pieces | tiers | positions | wins | draws | losses | longest win | file bytes |"
    print(header)
    print("|---:" * 8 + "|")
    total = defaultdict(int)
    for pieces in sorted(rows):
        row = rows[pieces]
        print(f"| {pieces} | {number(row['tiers'])} | " + " | ".join(
            number(row[field]) for field in fields[:4]) + f" | {row['longest_win']} | {number(row['file_bytes'])} |")
        for field in ("tiers",) + fields:
            total[field] += row[field]
        total["longest_win"] = max(total["longest_win"], row["longest_win"])
    print(f"| all | {number(total['tiers'])} | " + " | ".join(number(total[field]) for field in fields[:4]) +
          f" | {total['longest_win']} | {number(total['file_bytes'])} |")
    if missing:
        print(f"\nNot built: {len(missing)} tiers ({', '.join(missing)}).")

    if args.tiers is not None:
        print("\n| tier | positions | wins | draws | losses | longest win | longest loss | file bytes |")
        print("|---" + "|---:" * 7 + "|")
        for tier in tiers:
            if tier.get("built") and tier["pieces"] == args.tiers:
                print(f"| {tier['tier']} | " + " | ".join(number(tier[field]) for field in fields[:4]) +
                      f" | {tier['longest_win']} | {tier['longest_loss']} | {number(tier['file_bytes'])} |")


if __name__ == "__main__":
    main()
