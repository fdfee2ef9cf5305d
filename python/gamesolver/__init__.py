"""gamesolver's endgame databases from Python (docs/LIBRARY.md).

    import gamesolver
    db = gamesolver.open("data", "morris", variant="standard")
    report = db.probe("W:a1,d2 B:g7 w 7 8")
    report.outcome, report.depth, [(m.move, str(m.value)) for m in report.moves]

Answers are the gamesolver command's (`probe --json` is report.json()). Native work
(probing, stats, build, verify) runs with the GIL released, so threads probe in
parallel. Failures raise gamesolver.Error (InputError, NotFoundError, DatabaseError)
with the message the command prints.
"""

from ._gamesolver import (
    BuildResult,
    Database,
    DatabaseError,
    Error,
    GameInfo,
    InputError,
    MoveValue,
    NotFoundError,
    Report,
    Stats,
    TierStats,
    Value,
    VerifyResult,
    games,
)

__all__ = [
    "BuildResult",
    "Database",
    "DatabaseError",
    "Error",
    "GameInfo",
    "InputError",
    "MoveValue",
    "NotFoundError",
    "Report",
    "Stats",
    "TierStats",
    "Value",
    "VerifyResult",
    "games",
    "open",
]


def open(data, game, variant="", rules=(), *, block_cache_bytes=64 << 20, position_cache_entries=1 << 14,
         require_databases=True):
    """The databases of a game's variant ("" for the default) with rule options
    ("key=value") under data/<game>/<variant>/. Reads nothing: the directory need not
    exist before db.build(). Raises NotFoundError for an unknown game or variant.
    With require_databases=False, probes of a variant without a database directory
    give reports without values instead of NotFoundError."""
    return Database.open(str(data), game, variant, list(rules), block_cache_bytes, position_cache_entries,
                         require_databases)
