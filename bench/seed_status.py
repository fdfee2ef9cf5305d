#!/usr/bin/env python3
"""How far a seeded `gamesolver prove` has got along its seed lines, read from its store.

The manager proves a seed line's positions from the last one back to the root, so a
line's progress is the first ply from which every position to the line's end has its
outcome proven (in the store, or given by the databases or the rules: a line that ends
on a den entry or a capture into the databases ends on a position the store never
holds). For each line this prints that ply (or "none": its last position is still open),
and with --line N every ply of line N with the answer the store holds.

    bench/seed_status.py B STORE SEED_FILE "POSITION" [--game jungle] [--data D] [--line N]

B is the gamesolver binary (its `probe --pdn` replays each line, reading the databases
of D, default data, where they hold a position: any that `prove --data` was given will
do), STORE the proof store (read only: a run may be writing it), SEED_FILE the
file given to `prove --seed-file`, POSITION the proof's root as given to `prove`.
"""
import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile

# The store's answers: -1 unknown, 0 no, 1 yes, to "win?" and "at least a draw?" for
# the side to move (prove/store.h).
UNKNOWN, NO, YES = -1, 0, 1


def outcome(win, draw):
    """The outcome the two answers prove for the side to move, or None."""
    if win == YES:
        return "win"
    if draw == NO:
        return "loss"
    if win == NO and draw == YES:
        return "draw"
    return None


def replay(binary, game, data, root, moves):
    """The positions before each ply of the line, then the one after its last move."""
    with tempfile.NamedTemporaryFile("w", suffix=".pdn") as pdn:
        pdn.write(f'[FEN "{root}"]\n\n{moves} *\n')
        pdn.flush()
        run = subprocess.run([binary, "probe", game, "--pdn", pdn.name, "--json", "--quiet",
                              "--data", data], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"seed_status.py: replaying a line: {run.stderr.strip()}")
    game = json.loads(run.stdout)
    plies, final = game["plies"], game["final"]
    # Whether the position's value is known without the store: from the databases (a
    # capture into them) or from the rules (the line ends where the game does, as on a
    # den entry); the manager stores neither kind.
    return [(p["ply"], p["move"], p["position"], p["value"] is not None) for p in plies] + \
        ([(len(plies) + 1, None, plies[-1]["after"],
           final.get("terminal", False) or final.get("value") is not None)] if plies else [])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("binary")
    parser.add_argument("store")
    parser.add_argument("seed_file")
    parser.add_argument("position")
    parser.add_argument("--game", default="jungle")
    parser.add_argument("--data", default="data")
    parser.add_argument("--line", type=int, help="print every ply of this line (from 1)")
    args = parser.parse_args()

    try:
        store = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
        answers = {position: (win, draw) for position, win, draw in
                   store.execute("SELECT position, win, draw FROM nodes")}
    except sqlite3.Error as error:
        sys.exit(f"seed_status.py: cannot read the store {args.store}: {error}")
    with open(args.seed_file, encoding="utf-8") as seeds:
        lines = [line.strip() for line in seeds if line.strip() and not line.startswith("#")]
    if args.line is not None and not 1 <= args.line <= len(lines):
        sys.exit(f"seed_status.py: --line takes 1 to {len(lines)}")

    complete = 0
    for number, moves in enumerate(lines, start=1):
        if args.line is not None and number != args.line:
            continue
        steps = replay(args.binary, args.game, args.data, args.position, moves)
        proven_from = None
        for ply, _move, position, known in reversed(steps):
            if not known and outcome(*answers.get(position, (UNKNOWN, UNKNOWN))) is None:
                break
            proven_from = ply
        if proven_from == 1:
            complete += 1
        if args.line is None:
            print(f"line {number}: {len(steps) - 1} plies, proven from ply "
                  f"{proven_from if proven_from is not None else 'none'}")
            continue
        for ply, move, position, known in steps:
            answer = answers.get(position)
            if answer is not None:
                shown = outcome(*answer) or "open"
            else:
                shown = "known (rules, databases)" if known else "not in the store"
            print(f"ply {ply:3} {position:40} {shown:24} {move or '(end of line)'}")
    if args.line is None:
        root = outcome(*answers.get(args.position, (UNKNOWN, UNKNOWN))) or "unknown"
        print(f"{complete} of {len(lines)} lines proven back to the root; root: {root}")


if __name__ == "__main__":
    main()
