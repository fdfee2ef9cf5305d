"""Probe rate through the Python module on the positions bench_library sampled
(bench/library_bench.sh): a full report and a value only, one thread.
    python bench/library_bench.py DATA GAME VARIANT POSITIONS_FILE"""
import sys
import time

import gamesolver


def rate(positions, probe):
    for position in positions:  # warm: files open, blocks cached
        probe(position)
    start = time.perf_counter()
    probes = 0
    while True:
        for position in positions:
            probe(position)
        probes += len(positions)
        seconds = time.perf_counter() - start
        if seconds >= 1.0:
            return probes / seconds


data, game, variant, path = sys.argv[1:5]
with open(path) as file:
    positions = [line.rstrip("\n") for line in file if line.strip()]
db = gamesolver.open(data, game, variant=variant)
report = rate(positions, db.probe)
value = rate(positions, db.value)
print(f"{game:<9} {len(positions):5d} positions  Python report {report:9.0f}/s  value {value:9.0f}/s")
