"""gamesolver from Python, notebook style: run it cell by cell, or as
    python examples/probe.py DATA
with databases of every game under DATA (tests/library_data.sh builds them).
"""
import sys

import gamesolver

data = sys.argv[1] if len(sys.argv) > 1 else "data"

# %% The games the library knows.
for game in gamesolver.games():
    print(f"{game.name}: {game.description}")

# %% One position of each game: its value, depth, best move and its first moves' values.
# Dobutsu shogi with lions and chicks only (rule option kinds=C): the whole game is one
# tier of 855 M indices, the sub-game builds in a blink.
positions = {
    ("jungle", "", ()): "7/2t4/7/7/7/2D1T2/7 w",
    ("morris", "standard", ()): "W:a1,d2,g1 B:a7,d7,g7 b 0 0",
    ("checkers", "", ()): "W:W18,K10:B14",
    ("dobutsu", "", ("kinds=C",)): "1l1/1c1/1C1/1L1 b -",
}
for (game, variant, rules), position in positions.items():
    db = gamesolver.open(data, game, variant=variant, rules=rules)
    report = db.probe(position)
    print(f"\n{game} {report.position}: {report.outcome}, depth {report.depth}, best move {report.best}")
    for move in report.moves[:5]:
        print(f"  {move.move:<8} {move.value}")

# %% What the databases hold, per tier (from the files' headers).
db = gamesolver.open(data, "jungle")
stats = db.stats(3)
print(f"\njungle: {len(stats.tiers)} tiers, {stats.total.positions} positions, {stats.missing} not built")
for tier in stats.tiers[:5]:
    print(f"  {tier.tier:<8} {tier.wins:>8} wins {tier.draws:>8} draws {tier.losses:>8} losses")

# %% Errors are Python exceptions with the command's message.
try:
    db.probe("not a position")
except gamesolver.InputError as error:
    print(f"\nInputError: {error}")
