#!/usr/bin/env python3
"""Nodes that `solve --question value` spends on a list of positions, by result: for
comparing two binaries (or two settings) on the same positions, one after the other.

    bench/solve_nodes.py B GAME DATA POSITIONS [--time S] [--memory GIB] [--algorithm A]
                         [--against B2]

POSITIONS: a file of position texts, one per line ('#' starts a comment; text after '|'
is ignored). DATA: the database directory the search's leaves are read from (a folder of
links to the smaller tiers makes the positions themselves searched). With --against, B2
runs the same positions and the table shows both; results that differ are reported and
make the exit status 1.
"""
import argparse
import json
import subprocess
import sys


def run(binary, args, position):
    command = [binary, "solve", args.game, position, "--data", args.data, "--question", "value",
               "--algorithm", args.algorithm, "--time", str(args.time), "--memory", str(args.memory),
               "--json", "--quiet"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    return report["result"], report["nodes"], len(report["questions"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("game")
    parser.add_argument("data")
    parser.add_argument("positions")
    parser.add_argument("--time", type=float, default=10)
    parser.add_argument("--memory", type=float, default=0.5)
    parser.add_argument("--algorithm", default="df-pn")
    parser.add_argument("--against")
    args = parser.parse_args()
    binaries = [args.binary] + ([args.against] if args.against else [])
    positions = []
    with open(args.positions, encoding="utf-8") as f:
        for line in f:
            text = line.split("#", 1)[0].split("|", 1)[0].strip()
            if text:
                positions.append(text)
    totals = {}
    differ = 0
    for position in positions:
        runs = [run(b, args, position) for b in binaries]
        print(position, " | ".join(f"{r} {n} nodes, {q} question(s)" for r, n, q in runs), sep=" | ")
        if len({r for r, _, _ in runs}) > 1:
            differ += 1
            print(f"  results differ: {position}", file=sys.stderr)
        row = totals.setdefault(runs[0][0], [0, [0] * len(runs)])
        row[0] += 1
        for i, (_, n, _) in enumerate(runs):
            row[1][i] += n
    print()
    for result, (count, nodes) in sorted(totals.items()):
        ratio = f", ratio {nodes[0] / nodes[1]:.2f}" if len(nodes) == 2 and nodes[1] else ""
        print(f"{result}: {count} positions, nodes {' against '.join(map(str, nodes))}{ratio}")
    all_nodes = [sum(row[1][i] for row in totals.values()) for i in range(len(binaries))]
    print(f"all: {len(positions)} positions, nodes {' against '.join(map(str, all_nodes))}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
