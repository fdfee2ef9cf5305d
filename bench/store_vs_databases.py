#!/usr/bin/env python3
"""Every answer a `gamesolver prove` store holds, checked against databases that hold its positions.

The manager's answers are "win?" and "at least a draw?" for the side to move (prove/store.h).
Where databases of more pieces than the proof was given hold a node's position (the six-piece
tier of a six-piece benchmark, built by retrograde analysis), each proven answer can be compared
with the position's exact value: an independent check of every node proven so far, before the
root is, and of a finished proof beside `prove --check`. Prints the counts and every
disagreement; exits 1 if any answer disagrees, 2 on bad input.

    bench/store_vs_databases.py B STORE --data D [--game jungle] [--swap XY]

B is the gamesolver binary (its `probe --json` reads each position's value from D), STORE the
proof store (read only: a run may be writing it). `--swap XY` exchanges the pieces X and Y (both
colours) in each position before probing it: in Jungle Checkers without tigers the dog stands
between rat and elephant as the tiger does without dogs (docs/JUNGLE.md), so `--swap dt` checks the
no-tiger benchmark's store against the no-dog position's tier, RTE-rte.
"""
import argparse
import json
import sqlite3
import subprocess
import sys

# The store's answers (prove/store.h).
UNKNOWN, NO, YES = -1, 0, 1


def expected(answer_win, answer_draw, outcome):
    """Whether the store's two answers agree with the databases' outcome for the side to move."""
    ok = True
    if answer_win != UNKNOWN:
        ok &= (answer_win == YES) == (outcome == "win")
    if answer_draw != UNKNOWN:
        ok &= (answer_draw == YES) == (outcome != "loss")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("binary")
    parser.add_argument("store")
    parser.add_argument("--data", required=True)
    parser.add_argument("--game", default="jungle")
    parser.add_argument("--swap", default="", help="two piece letters to exchange before probing")
    args = parser.parse_args()
    if args.swap and (len(args.swap) != 2 or not args.swap.isalpha() or args.swap[0].lower() == args.swap[1].lower()):
        print("store_vs_databases.py: --swap takes two different piece letters, as dt", file=sys.stderr)
        sys.exit(2)
    a, b = args.swap.lower() if args.swap else ("", "")
    swap = str.maketrans(a + b + a.upper() + b.upper(), b + a + b.upper() + a.upper())

    try:
        store = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
        nodes = list(store.execute("SELECT position, win, draw FROM nodes WHERE win != ? OR draw != ?",
                                   (UNKNOWN, UNKNOWN)))
    except sqlite3.Error as error:
        print(f"store_vs_databases.py: cannot read the store {args.store}: {error}", file=sys.stderr)
        sys.exit(2)

    agree, disagree, not_held = 0, 0, 0
    for position, win, draw in nodes:
        run = subprocess.run([args.binary, "probe", args.game, position.translate(swap), "--json", "--quiet",
                              "--data", args.data], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"store_vs_databases.py: probing {position}: {run.stderr.strip()}", file=sys.stderr)
            sys.exit(2)
        value = json.loads(run.stdout)["value"]
        if value is None:
            not_held += 1
            continue
        if expected(win, draw, value["outcome"]):
            agree += 1
        else:
            disagree += 1
            print(f"DISAGREES: {position}: store win={win} draw={draw}, databases {value['outcome']} "
                  f"in {value.get('depth')}")
    print(f"{len(nodes)} nodes with an answer: {agree} agree with the databases, {disagree} disagree, "
          f"{not_held} not held by them")
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
