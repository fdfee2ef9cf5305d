#!/usr/bin/env python3
"""Writes seed lines for `gamesolver prove --seed-file` from databases that already hold
the position's value (a larger database built by retrograde analysis, used as a guide
only: the proof itself is searched over the databases given to `prove --data` and
checked by `prove --check`).

The first line is a line of best play from the position (the winner's quickest win,
the loser's longest loss) up to the first capture or the end. Then, at each position of
that line where the losing side moves, every other move whose loss is at most SLACK
plies shorter than the best gets its own line: the line up to there, that move, and
best play after it up to the first capture. Those are the alternatives a single line
leaves to the manager, and the ones it finds hardest.

    bench/seed_lines.py B DATA "POSITION" [--slack 8] [--game jungle] > seeds.txt
"""
import argparse
import json
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("binary")
    parser.add_argument("data")
    parser.add_argument("position")
    parser.add_argument("--game", default="jungle")
    parser.add_argument("--slack", type=int, default=8)
    args = parser.parse_args()

    def probe(position):
        out = subprocess.run(
            [args.binary, "probe", args.game, position, "--data", args.data, "--json"],
            capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    def pieces(position):
        return sum(c.isalpha() for c in position.split()[0])

    def best_line(position):
        """Best play from position up to the first capture: moves and positions."""
        start = pieces(position)
        moves, positions = [], [position]
        while True:
            report = probe(position)
            best = report.get("best")
            if not best:
                return moves, positions
            position = next(m["position"] for m in report["moves"] if m["move"] == best)
            moves.append(best)
            positions.append(position)
            if pieces(position) < start:
                return moves, positions

    root = probe(args.position)
    if not root.get("best"):
        sys.exit(f"{args.position}: no move or no value in {args.data}")
    best = next(m for m in root["moves"] if m["move"] == root["best"])
    loser_to_move = best["value"]["outcome"] == "loss"
    main_moves, main_positions = best_line(args.position)
    print("# best play from " + args.position)
    print(" ".join(main_moves))
    lines = 1
    for ply, position in enumerate(main_positions[:-1]):
        # The side to move loses at even plies when the root's side loses, at odd ones
        # when it wins.
        if (ply % 2 == 0) != loser_to_move:
            continue
        report = probe(position)
        longest = max(m["value"].get("depth", 0) for m in report["moves"] if m["value"]["outcome"] == "loss")
        for move in report["moves"]:
            value = move["value"]
            if move["move"] == main_moves[ply] or value["outcome"] != "loss":
                continue
            if value.get("depth", 0) < longest - args.slack:
                continue
            if pieces(move["position"]) < pieces(position):
                continue  # a capture: the databases below settle it
            rest, _ = best_line(move["position"])
            print(" ".join(main_moves[:ply] + [move["move"]] + rest))
            lines += 1
    print(f"{lines} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
