#!/usr/bin/env python3
"""Checks the sectors of a standard Nine Men's Morris build against published figures,
and prints the per-sector table for docs/MORRIS.md.

    gamesolver stats morris --start --sectors --json --data DATA | bench/morris_sectors.py

The figures are Gévay & Danner's ("Calculating Ultra-Strong and Extended Solutions for
Nine Men's Morris, Morabaraba, and Lasker Morris"), Table V (win,
draw and loss percentages, rounded; "0+" is above 0 and below 0.5) and the table of the
longest result (win or loss, in plies) of every sector where all stones are placed,
White (to move) with R stones, Black with C, for R and C from 3 to 9. A sector agrees when
every percentage rounds to the published one (0 meaning none at all) and its longest
win or loss is the published number. Exit status 1 if any sector disagrees or is
missing.
"""
import json
import sys

# Rows R = 3..9 (the side to move), columns C = 3..9: "win/draw/loss" percentages.
PERCENT = """
83/0+/17 13/87/0 0+/99/0+ 0/97/3 0/53/47 0/9/91 0/0+/100
10/90/0+ 0+/100/0+ 0+/100/0+ 0+/94/6 0+/27/73 0+/7/93 0+/0+/100
23/77/0 0+/100/0+ 0+/100/0+ 0+/93/7 0+/40/60 0+/12/88 0+/2/98
40/60/0 23/77/0+ 24/76/0+ 15/82/3 7/56/37 2/27/70 1/6/94
91/9/0 92/8/0+ 88/12/0+ 74/25/1 47/38/15 21/37/42 8/16/76
100/0+/0 99/1/0+ 98/2/0+ 94/6/0+ 80/16/4 54/28/18 28/24/47
100/0+/0 100/0+/0+ 100/0+/0+ 99/1/0+ 96/3/1 83/11/7 59/19/22
"""
# The longest win or loss of the sector, in plies.
LONGEST = """
26 33 31 6 30 34 30
32 9 28 156 112 112 110
3 29 57 162 160 160 114
7 157 163 167 184 186 173
31 111 159 185 181 204 202
33 111 153 185 203 196 202
25 103 113 172 201 201 191
"""


def published():
    percent = [row.split() for row in PERCENT.strip().splitlines()]
    longest = [row.split() for row in LONGEST.strip().splitlines()]
    for r in range(3, 10):
        for c in range(3, 10):
            yield f"{r}-{c}-0-0", percent[r - 3][c - 3].split("/"), int(longest[r - 3][c - 3])


def agrees(count, positions, figure):
    share = 100.0 * count / positions
    if figure == "0+":
        return 0 < share < 0.5
    if figure == "0":
        return count == 0
    return abs(share - int(figure)) <= 0.5


def grid(sectors, cell):
    """A table in the paper's layout, R (the side to move's stones) down, C across."""
    print("| R \\ C | " + " | ".join(str(c) for c in range(3, 10)) + " |")
    print("|---:|" + "---:|" * 7)
    for r in range(3, 10):
        rows = [sectors.get(f"{r}-{c}-0-0") for c in range(3, 10)]
        print(f"| {r} | " + " | ".join("" if row is None else cell(row) for row in rows) + " |")


def main():
    body = json.load(sys.stdin)
    sectors = {row["sector"]: row for row in body["sectors"] if row.get("built")}
    bad = 0
    for name, figures, longest in published():
        row = sectors.get(name)
        if row is None:
            print(f"{name}: not in the input", file=sys.stderr)
            bad += 1
            continue
        n = row["positions"]
        ours = [row["wins"], row["draws"], row["losses"]]
        checks = [agrees(count, n, figure) for count, figure in zip(ours, figures)]
        mine = max(row["longest_win"], row["longest_loss"])
        if not all(checks) or mine != longest:
            shares = "/".join(f"{100.0 * count / n:.2f}" for count in ours)
            print(f"{name}: ours {shares}, longest {mine}; published {'/'.join(figures)}, longest {longest}",
                  file=sys.stderr)
            bad += 1
    print(f"{49 - bad} of 49 sectors agree with Gévay & Danner's Table V and longest results", file=sys.stderr)

    # The paper's layout: the side to move's stones down, the other's across.
    print("Sectors with every stone placed: win / draw / loss % for the side to move (R stones, down)")
    print("against C stones (across), and below it the longest win or loss in plies.\n")
    grid(sectors, lambda row: " / ".join(f"{100.0 * row[k] / row['positions']:.1f}"
                                         for k in ("wins", "draws", "losses")))
    print()
    grid(sectors, lambda row: str(max(row["longest_win"], row["longest_loss"])))
    print("\nEvery sector:\n")
    print("| sector | tier | positions | win % | draw % | loss % | longest win | longest loss |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for row in body["sectors"]:
        if not row.get("built"):
            print(f"| | {row['tier']} | not built | | | | | |")
            continue
        n = row["positions"]
        cells = [f"{100.0 * row[k] / n:.2f}" for k in ("wins", "draws", "losses")]
        print(f"| {row['sector']} | {row['tier']} | {n:,} | {' | '.join(cells)} | {row['longest_win']} | "
              f"{row['longest_loss']} |")
    total = body["total"]
    n = total["positions"]
    cells = [f"{100.0 * total[k] / n:.2f}" for k in ("wins", "draws", "losses")]
    print(f"| all | | {n:,} | {' | '.join(cells)} | {total['longest_win']} | {total['longest_loss']} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
