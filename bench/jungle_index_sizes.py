#!/usr/bin/env python3
"""Index sizes of Jungle Checkers (games/jungle/jungle.h) against Vos's baseline.

Prints, per piece count 2..8, the tables of docs/JUNGLE_INDEX.md. Exact integer
arithmetic, no dependencies; mirrors Jungle::tiers(), Jungle::size() and the hole rule
of Jungle::unrank(). Check the totals against the engine with

    gamesolver count jungle --pieces 4       # "classes" = non-hole indices, "indices" =
                                             # index size, "Vos 2016" = Vos's total
    gamesolver stats jungle --pieces 4       # per tier: positions = indices - holes

    bench/jungle_index_sizes.py [--markdown] [max pieces, default 8]
"""
import math
import sys

BOARD = 47            # squares that are not dens
D_FILE = 5            # non-den squares on the d-file (d2..d6), fixed by the mirror
PAIRS = 1091          # ordered pairs of distinct squares up to mirroring (ours)
VOS_PAIRS = 26 * 46   # first piece on files a-d (26 squares), second anywhere (Vos)


def falling(n, k):
    return math.prod(range(n - k + 1, n + 1))


def pairs():
    """Recount the 1091 mirror classes of ordered square pairs from the board."""
    squares = [(f, r) for r in range(7) for f in range(7) if (f, r) not in ((3, 0), (3, 6))]
    canonical = 0
    for a in squares:
        for b in squares:
            if a != b and (a[0] < 3 or (a[0] == 3 and b[0] <= 3)):
                canonical += 1
    return canonical


def materials(n):
    """(materials with both colours, colour-symmetric ones) with n pieces."""
    both = 0
    symmetric = 0
    for m in range(256):
        if bin(m).count("1") != n:
            continue
        white = sum(((m >> (2 * s)) & 1) << s for s in range(4))
        black = sum(((m >> (2 * s + 1)) & 1) << s for s in range(4))
        if white == 0 or black == 0:
            continue
        both += 1
        symmetric += white == black
    return both, symmetric


def row(n):
    m, s = materials(n)
    tiers = (m - s) // 2 + s                      # colour classes of materials
    p = PAIRS * falling(BOARD - 2, n - 2)         # placements P(n), one side to move
    ours = s * p + (m - s) // 2 * 2 * p           # = m * p
    # holes: both first pieces on the d-file and the placement not the smaller of it
    # and its mirror image (n > 2; the rest are mirror-invariant only all on the d-file).
    holes_per_p = 0 if n == 2 else (D_FILE * (D_FILE - 1)) * (
        falling(BOARD - 2, n - 2) - falling(D_FILE - 2, n - 2)) // 2
    holes = m * holes_per_p
    v = VOS_PAIRS * falling(BOARD - 2, n - 2)     # Vos: per material and side to move
    vos = tiers * 2 * v                           # Vos: materials halved, both sides stored
    vos_strict = m * v                            # if Vos also dropped the symmetric side
    positions = m * 2 * falling(BOARD, n)         # non-den positions, both sides, all materials
    return dict(n=n, materials=m, symmetric=s, tiers=tiers, p=p, ours=ours, holes=holes,
                classes=ours - holes, vos_per=v, vos=vos, vos_strict=vos_strict,
                positions=positions)


def dash(count, size):
    return f"{size:,}" if count else "—"


def human(nbytes):
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if nbytes < 1000 or unit == "TB":
            return f"{nbytes:.3g} {unit}" if unit != "B" else f"{nbytes:.0f} B"
        nbytes /= 1000
    return ""


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    top = int(args[0]) if args else 8
    assert pairs() == PAIRS, pairs()
    rows = [row(n) for n in range(2, top + 1)]
    if markdown:
        print("| pieces | materials | colour-symmetric | tiers (sym + asym) | index per symmetric tier |"
              " index per asymmetric tier | indices (ours) | of which holes | Vos per material and side |"
              " Vos total | ours / Vos |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            asym = (r['materials'] - r['symmetric']) // 2
            print(f"| {r['n']} | {r['materials']} | {r['symmetric']} | {r['tiers']} ({r['symmetric']} + {asym}) |"
                  f" {dash(r['symmetric'], r['p'])} | {dash(asym, 2 * r['p'])} | {r['ours']:,} | {r['holes']:,} | {r['vos_per']:,} |"
                  f" {r['vos']:,} | {r['ours'] / r['vos']:.4f} |")
        tot = {k: sum(r[k] for r in rows) for k in ("ours", "holes", "vos", "vos_strict", "positions")}
        print(f"| 2..{top} | {sum(r['materials'] for r in rows)} | {sum(r['symmetric'] for r in rows)} |"
              f" {sum(r['tiers'] for r in rows)} | | | {tot['ours']:,} | {tot['holes']:,} | |"
              f" {tot['vos']:,} | {tot['ours'] / tot['vos']:.4f} |")
        print()
        print("| up to pieces | indices (ours) | classes (non-hole) | Vos total | ours / Vos |"
              " ours at 1 byte/index | ours at 2 bits/index | Vos at 1 bit/index |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        ours = classes = vos = 0
        for r in rows:
            ours += r['ours']
            classes += r['classes']
            vos += r['vos']
            print(f"| {r['n']} | {ours:,} | {classes:,} | {vos:,} | {ours / vos:.4f} |"
                  f" {human(ours)} | {human(ours / 4)} | {human(vos / 8)} |")
        return
    cumulative = 0
    print(f"{'n':>2} {'mat':>4} {'sym':>4} {'tiers':>5} {'P(n)':>16} {'indices':>18} {'holes':>14}"
          f" {'classes':>18} {'cumulative':>18} {'Vos total':>18} {'ratio':>7} {'strict':>7}"
          f" {'positions/4':>18}")
    for r in rows:
        cumulative += r["ours"]
        print(f"{r['n']:>2} {r['materials']:>4} {r['symmetric']:>4} {r['tiers']:>5} {r['p']:>16,}"
              f" {r['ours']:>18,} {r['holes']:>14,} {r['classes']:>18,} {cumulative:>18,}"
              f" {r['vos']:>18,} {r['ours'] / r['vos']:>7.4f} {r['ours'] / r['vos_strict']:>7.4f}"
              f" {r['positions'] / 4:>18,.0f}")


if __name__ == "__main__":
    main()
