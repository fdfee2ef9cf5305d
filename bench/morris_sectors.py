#!/usr/bin/env python3
"""Checks the sectors of a Nine Men's Morris or Morabaraba build against published figures,
and prints the per-sector table for the docs.

    gamesolver stats morris --start --sectors --json --data DATA | bench/morris_sectors.py
    gamesolver stats morris --variant morabaraba --start --sectors --json --data DATA \
        | bench/morris_sectors.py --variant morabaraba [--built]

The figures are Gévay & Danner's ("Calculating Ultra-Strong and Extended Solutions for
Nine Men's Morris, Morabaraba, and Lasker Morris"): the win, draw and loss percentages
(rounded; "0+" is above 0 and below 0.5) of every sector where all stones are placed,
Table V for the standard game (3 to 9 stones a side) and Table VI for Morabaraba (3 to
12), and their tables of each such sector's longest result (win or loss, in plies).
White (to move) has R stones, Black C. A sector agrees when every percentage rounds to
the published one (0 meaning none at all) and its longest win or loss is the published
number. Exit status 1 if any sector disagrees or is missing; with --built, sectors not
built yet are counted apart and do not fail the check (for a build under way).
"""
import argparse
import json
import sys

# Rows R (the side to move), columns C, from 3 stones: "win/draw/loss" percentages, and
# the longest win or loss of the sector in plies ("-" where it has neither).
STANDARD_PERCENT = """
83/0+/17 13/87/0 0+/99/0+ 0/97/3 0/53/47 0/9/91 0/0+/100
10/90/0+ 0+/100/0+ 0+/100/0+ 0+/94/6 0+/27/73 0+/7/93 0+/0+/100
23/77/0 0+/100/0+ 0+/100/0+ 0+/93/7 0+/40/60 0+/12/88 0+/2/98
40/60/0 23/77/0+ 24/76/0+ 15/82/3 7/56/37 2/27/70 1/6/94
91/9/0 92/8/0+ 88/12/0+ 74/25/1 47/38/15 21/37/42 8/16/76
100/0+/0 99/1/0+ 98/2/0+ 94/6/0+ 80/16/4 54/28/18 28/24/47
100/0+/0 100/0+/0+ 100/0+/0+ 99/1/0+ 96/3/1 83/11/7 59/19/22
"""
STANDARD_LONGEST = """
26 33 31 6 30 34 30
32 9 28 156 112 112 110
3 29 57 162 160 160 114
7 157 163 167 184 186 173
31 111 159 185 181 204 202
33 111 153 185 203 196 202
25 103 113 172 201 201 191
"""
# Morabaraba (full board a draw): 12 against 12 is the full board, drawn at once.
MORABARABA_PERCENT = """
83/0/17 20/78/2 3/92/5 0+/60/40 0/17/83 0/0+/100 0/0/100 0/0/100 0/0/100 0/0/100
21/78/1 6/93/1 1/95/4 0+/36/64 0/8/92 0/0+/100 0/0/100 0/0/100 0/0/100 0/0/100
43/57/0+ 12/88/0+ 9/89/2 3/53/44 1/18/82 0+/2/98 0+/0+/100 0+/0+/100 0+/0+/100 0+/0/100
88/12/0 90/10/0+ 82/18/0+ 52/33/15 19/35/46 3/9/88 0+/1/98 0+/0+/100 0+/0+/100 0+/0+/100
99/1/0 99/1/0 98/2/0+ 88/10/2 60/24/16 25/24/51 6/8/87 1/1/98 0+/0+/100 0+/0+/100
100/0+/0 100/0+/0 100/0+/0+ 99/1/0+ 91/6/3 67/15/18 32/15/53 10/6/84 2/1/96 1/0+/99
100/0/0 100/0/0 100/0+/0+ 100/0+/0+ 99/1/0+ 92/4/4 70/10/21 39/9/52 17/4/79 9/1/90
100/0/0 100/0/0 100/0+/0+ 100/0+/0+ 100/0+/0+ 99/1/1 91/3/7 70/6/24 45/5/50 31/2/67
100/0/0 100/0/0 100/0/0+ 100/0+/0+ 100/0+/0+ 100/0+/0+ 97/1/2 87/2/11 68/3/29 56/0+/44
100/0/0 100/0/0 100/0/0 100/0+/0+ 100/0+/0+ 100/0+/0+ 98/0+/1 91/1/8 75/0+/25 0/100/0
"""
MORABARABA_LONGEST = """
16 23 27 32 34 34 16 8 8 8
22 19 34 46 42 38 20 12 12 10
26 35 33 56 60 56 54 38 27 27
33 45 57 81 86 86 78 56 48 39
33 41 59 87 101 102 96 96 85 69
33 31 55 83 101 103 102 106 108 94
9 13 43 77 95 103 105 108 110 108
7 11 25 53 93 107 109 111 112 114
7 11 26 46 68 94 109 113 103 96
7 9 13 34 51 93 106 106 90 -
"""
VARIANTS = {
    "standard": ("Table V", STANDARD_PERCENT, STANDARD_LONGEST),
    "morabaraba": ("Table VI", MORABARABA_PERCENT, MORABARABA_LONGEST),
}


def published(variant):
    """(sector, [win, draw, loss] figures, longest) for every sector with all stones placed."""
    _, percent_text, longest_text = VARIANTS[variant]
    percent = [row.split() for row in percent_text.strip().splitlines()]
    longest = [row.split() for row in longest_text.strip().splitlines()]
    for r, (shares, lengths) in enumerate(zip(percent, longest), start=3):
        for c, (figures, length) in enumerate(zip(shares, lengths), start=3):
            yield f"{r}-{c}-0-0", figures.split("/"), 0 if length == "-" else int(length)


def agrees(count, positions, figure):
    share = 100.0 * count / positions
    if figure == "0+":
        return 0 < share < 0.5
    if figure == "0":
        return count == 0
    return abs(share - int(figure)) <= 0.5


def grid(sectors, most, cell):
    """A table in the paper's layout, R (the side to move's stones) down, C across."""
    stones = range(3, most + 1)
    print("| R \\ C | " + " | ".join(str(c) for c in stones) + " |")
    print("|---:|" + "---:|" * len(stones))
    for r in stones:
        rows = [sectors.get(f"{r}-{c}-0-0") for c in stones]
        print(f"| {r} | " + " | ".join("" if row is None else cell(row) for row in rows) + " |")


def main():
    parser = argparse.ArgumentParser(description="Checks a mill game's sectors against Gévay & Danner.")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="standard")
    parser.add_argument("--built", action="store_true",
                        help="check the sectors built so far; those not built do not fail the check")
    args = parser.parse_args()
    table = VARIANTS[args.variant][0]
    body = json.load(sys.stdin)
    sectors = {row["sector"]: row for row in body["sectors"] if row.get("built")}
    expected = list(published(args.variant))
    total = len(expected)
    most = int(expected[-1][0].split("-")[0])  # the most stones a side in the tables
    bad = 0
    missing = 0
    for name, figures, longest in expected:
        row = sectors.get(name)
        if row is None:
            missing += 1
            if not args.built:
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
    checked = total - missing
    agreeing = checked - bad if args.built else total - bad
    print(f"{agreeing} of {checked if args.built else total} sectors agree with Gévay & Danner's {table} "
          f"and longest results" + (f" ({missing} of {total} not built yet)" if args.built and missing else ""),
          file=sys.stderr)

    # The paper's layout: the side to move's stones down, the other's across.
    print("Sectors with every stone placed: win / draw / loss % for the side to move (R stones, down)")
    print("against C stones (across), and below it the longest win or loss in plies.\n")
    grid(sectors, most, lambda row: " / ".join(f"{100.0 * row[k] / row['positions']:.1f}"
                                         for k in ("wins", "draws", "losses")))
    print()
    grid(sectors, most, lambda row: str(max(row["longest_win"], row["longest_loss"])))
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
