"""The Python package against the gamesolver command: probe answers equal `gamesolver
probe --json` on a sample of positions of every game, errors raise exceptions with the
command's messages, two threads get the same answers, and a small build and verify run
from Python. Run by ctest (library.python) in the virtual environment
tests/python/install.sh makes; GAMESOLVER_BINARY and GAMESOLVER_DATA (tests/library_data.sh)
come from the environment."""

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

import gamesolver

BINARY = os.environ["GAMESOLVER_BINARY"]
DATA = os.environ["GAMESOLVER_DATA"]

# A position of each game in the 3-piece databases, where the samples start.
SEEDS = {
    ("jungle", "standard"): ["7/2t4/7/7/7/2D1T2/7 w", "7/2e4/7/3r3/7/2R4/7 b"],
    ("morris", "standard"): ["W:a1,d2,g1 B:a7,d7,b6 w 0 0", "W:a1,d2,g1 B:a7,d7,g7 b 0 0"],
    ("checkers", "english"): ["W:W18,K10:B14", "B:W18,22:BK6"],
    ("dobutsu", "standard"): ["1l1/1c1/1C1/1L1 b -", "1l1/1c1/LC1/3 w -"],
}
# Rule options of a sample: Dobutsu shogi's lions-and-chicks sub-game (the whole game is
# one tier of 855 M indices).
RULES = {("dobutsu", "standard"): ["kinds=C"]}
PER_GAME = 12


def cli(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True)


def cli_probe(game, variant, position, data=DATA, rules=()):
    options = [option for rule in rules for option in ("--rule", rule)]
    result = cli("probe", game, position, "--variant", variant, "--data", str(data), "--json", *options)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def cli_error(*args):
    result = cli(*args)
    assert result.returncode != 0
    prefix = "gamesolver: error: "
    assert result.stderr.startswith(prefix), result.stderr
    return result.stderr[len(prefix):].rstrip("\n")


def sample(db, seeds, count):
    """Positions reached from the seeds through the reports' moves, breadth first."""
    out, seen, queue = [], set(), list(seeds)
    for position in queue:
        if len(out) == count:
            break
        if position in seen:
            continue
        seen.add(position)
        out.append(position)
        queue.extend(move.position for move in db.probe(position).moves)
    return out


def value_json(value):
    if value is None:
        return None
    out = {"outcome": value.outcome}
    if value.depth is not None:
        out["depth"] = value.depth
    return out


@pytest.mark.parametrize("game,variant", sorted(SEEDS))
def test_probe_answers_as_the_command(game, variant):
    rules = RULES.get((game, variant), [])
    db = gamesolver.open(DATA, game, variant=variant, rules=rules)
    assert (db.game, db.variant) == (game, variant)
    positions = sample(db, SEEDS[(game, variant)], PER_GAME)
    assert len(positions) == PER_GAME
    known = 0
    for position in positions:
        expected = cli_probe(game, variant, position, rules=rules)
        report = db.probe(position)
        assert json.loads(report.json()) == expected
        # The attributes say what the JSON says.
        assert report.position == expected["position"]
        assert value_json(report.value) == expected["value"]
        assert report.outcome == (expected["value"] or {}).get("outcome")
        assert report.depth == (expected["value"] or {}).get("depth")
        assert [m.move for m in report.moves] == [m["move"] for m in expected["moves"]]
        assert [value_json(m.value) for m in report.moves] == [m["value"] for m in expected["moves"]]
        assert report.best == expected["best"]
        assert db.value(position) == report.value
        known += report.value is not None
    assert known >= PER_GAME // 2


def test_errors_raise_with_the_commands_messages():
    db = gamesolver.open(DATA, "jungle")
    with pytest.raises(gamesolver.InputError) as bad:
        db.probe("7/7/7 w")
    assert str(bad.value) == cli_error("probe", "jungle", "7/7/7 w", "--data", DATA)
    assert isinstance(bad.value, gamesolver.Error) and isinstance(bad.value, RuntimeError)
    with pytest.raises(gamesolver.InputError):
        db.probe("7/2t4/7/7/7/2D1T2/7 w", move="Dg7")

    with pytest.raises(gamesolver.NotFoundError) as unknown:
        gamesolver.open(DATA, "chess")
    assert str(unknown.value) == cli_error("probe", "chess", "start", "--data", DATA)

    other = gamesolver.open(DATA, "jungle", rules=["stalemate=loss"])
    with pytest.raises(gamesolver.NotFoundError) as absent:
        other.probe("7/2t4/7/7/7/2D1T2/7 w")
    assert str(absent.value) == cli_error(
        "probe", "jungle", "7/2t4/7/7/7/2D1T2/7 w", "--rule", "stalemate=loss", "--data", DATA)


def test_a_variant_without_databases_can_be_explored():
    lenient = gamesolver.open(DATA, "jungle", rules=["stalemate=loss"], require_databases=False)
    report = lenient.probe("7/2t4/7/7/7/2D1T2/7 w")
    assert report.value is None and report.moves
    assert all(move.value is None for move in report.moves)
    assert json.loads(lenient.inventory_json())["tiers"] == []
    inventory = json.loads(gamesolver.open(DATA, "jungle").inventory_json())
    assert inventory["directory"] == "standard" and inventory["complete_pieces"] == 3
    assert json.loads(lenient.description_json())["start"] == lenient.start


def test_a_damaged_file_raises_database_error(tmp_path):
    db = gamesolver.open(tmp_path, "jungle")
    db.build(pieces=2, threads=1)
    tier = tmp_path / "jungle" / "standard" / "T-d.gsdb"
    tier.write_bytes(tier.read_bytes()[: tier.stat().st_size // 2])
    fresh = gamesolver.open(tmp_path, "jungle")
    with pytest.raises(gamesolver.DatabaseError) as damaged:
        fresh.probe("7/2t4/7/7/7/2D4/7 w")
    assert "T-d.gsdb" in str(damaged.value)
    assert str(damaged.value) == cli_error("probe", "jungle", "7/2t4/7/7/7/2D4/7 w", "--data", str(tmp_path))


def test_two_threads_get_the_same_answers():
    db = gamesolver.open(DATA, "jungle")
    positions = sample(db, SEEDS[("jungle", "standard")], 40)
    expected = [db.probe(position).json() for position in positions]
    fresh = gamesolver.open(DATA, "jungle", block_cache_bytes=1 << 16, position_cache_entries=64)
    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda position: fresh.probe(position).json(), positions * 3))
    assert answers == expected * 3


def test_build_stats_and_verify_from_python(tmp_path):
    db = gamesolver.open(tmp_path, "jungle")
    built = db.build(pieces=2, threads=2)
    assert built.built > 0 and built.skipped == 0
    stats = db.stats(2)
    assert stats.missing == 0 and stats.total.built
    assert len(stats.tiers) == built.built
    assert sum(t.wins + t.draws + t.losses for t in stats.tiers) == stats.total.positions
    assert db.verify(pieces=2).ok
    assert db.verify(pieces=2, checksums=True).ok
    again = db.build(pieces=2)
    assert (again.built, again.skipped) == (0, built.built)
    position = "7/2t4/7/7/7/2D4/7 w"
    assert json.loads(db.probe(position).json()) == cli_probe("jungle", "standard", position, tmp_path)
    with pytest.raises(gamesolver.InputError):
        db.stats(1)


def test_games():
    names = [game.name for game in gamesolver.games()]
    assert {"jungle", "morris", "checkers", "dobutsu"} <= set(names)
