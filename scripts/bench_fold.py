#!/usr/bin/env python3
"""Time the reduced encoding's folding (naked and hidden singles on its board of open cells a
house and digit, :mod:`satdoku.native.reduce`) against native search's passes
(:mod:`satdoku.native.propagate`) folding the same large grids: what merging the two would cost.
A third engine, ``dual``, is issue 30's candidate design for one implementation of both: each
(house, digit) keeps the bitmask of its positions inside the house where the digit may go; a
placed digit leaves the positions of that mask, an elimination clears one bit in each of the
cell's three houses, and a mask of one bit is a hidden single (no peer walk, no house fold).

    python scripts/bench_fold.py                          # 64x64 to 144x144, 2 rounds
    python scripts/bench_fold.py FILE... --rounds 2       # e.g. the 400x400 puzzle
    python scripts/bench_fold.py FILE --engines reduce,dual   # leave out the slow one

Each run is a fresh child process (one grid, one engine), A B A B for ``--rounds`` rounds; the
figure is the child's CPU seconds for the folding alone (after parsing, the geometry's peers
built beforehand; the dual view builds its own tables inside the clock). All must leave the
same candidates: their total count is printed beside.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LARGE = ROOT.parent / "shared" / "puzzles" / "large"
DEFAULT = ["rkkautsar_sudoku-64-1.txt", "rkkautsar_sudoku-100-1.txt", "rkkautsar_sudoku-144-1.txt"]
ENGINES = ("reduce", "passes", "dual")


def _child(path: str, engine: str) -> None:
    sys.path.insert(0, str(ROOT))
    from satdoku.io.text import read_puzzles
    from satdoku.native.board import fold_givens
    from satdoku.native.propagate import Propagation, propagate
    from satdoku.native.reduce import reduce_candidates
    from satdoku.native.tables import tables
    grid = next(iter(read_puzzles(Path(path)))).grid
    geo = grid.geometry
    geo.peers  # noqa: B018 (built before the clock: both engines' geometry)
    start = time.process_time()
    if engine == "reduce":
        cand = reduce_candidates(grid).cand
    elif engine == "dual":
        cand, placed, _ = fold_givens(geo, grid.cells)
        _dual_fold(geo, list(grid.cells), cand, placed)
    else:
        t = tables(geo)
        cand, placed, _ = fold_givens(geo, grid.cells)
        queue = [c for c, (d, m) in enumerate(zip(grid.cells, cand)) if not d and not m & (m - 1)]
        propagate(Propagation(t, locked=False), cand, placed, queue, set(range(t.nhouses)))
    cpu = time.process_time() - start
    print(json.dumps({"cpu": cpu, "candidates": sum(map(int.bit_count, cand))}))


_DUAL_TABLES: dict = {}


def _dual_tables(geo):
    """The geometry's part of the dual view (built once, as native search's tables are): the
    one-bit masks, and each cell's (house * n, its bit in the house) for its three houses."""
    n = geo.size
    one = [1 << i for i in range(n)]
    slots: list = [[] for _ in range(geo.ncells)]
    for h, house in enumerate(geo.houses):
        hn = h * n
        for i, c in enumerate(house):
            slots[c].append((hn, one[i]))
    _DUAL_TABLES[id(geo)] = one, slots
    return one, slots


def _dual_init(geo, cells, cand):
    """The dual view's tables: the one-bit masks, each cell's (house * n, its bit in the house)
    for its three houses, and the (house, digit) position masks of the open cells."""
    n = geo.size
    one, slots = _DUAL_TABLES.get(id(geo)) or _dual_tables(geo)
    pos = [0] * (3 * n * n)
    for c, d in enumerate(cells):
        if d:
            continue
        x = cand[c]
        sl = slots[c]
        while x:
            low = x & -x
            e = low.bit_length() - 1
            for hn, b in sl:
                pos[hn + e] |= b
            x ^= low
    return one, slots, pos


def _dual_fold(geo, cells, cand, placed):
    """Prototype of issue 30's dual view: for each (house, digit) the bitmask of the positions
    inside the house where the digit may go; naked and hidden singles on it, no 3 N peer walk
    and no whole-house fold. Returns False on a contradiction."""
    n = geo.size
    houses, cell_houses = geo.houses, geo.cell_houses
    one, slots, pos = _dual_init(geo, cells, cand)
    queue = [c for c, d in enumerate(cells) if not d and not cand[c] & (cand[c] - 1)]
    hidden = [k for k in range(3 * n * n) if not placed[k // n] >> (k % n) & 1
              and not pos[k] & (pos[k] - 1)]
    push, lose = queue.append, hidden.append
    while queue or hidden:
        while queue:
            c = queue.pop()
            if cells[c]:
                continue
            m = cand[c]
            if not m:
                return False
            e = m.bit_length() - 1
            cells[c] = e + 1
            for h in cell_houses[c]:
                if placed[h] & m:
                    return False
                placed[h] |= m
            for hn, b in slots[c]:
                k = hn + e
                rest = pos[k] ^ b
                pos[k] = b
                house = houses[hn // n]
                while rest:
                    low = rest & -rest
                    rest ^= low
                    c2 = house[low.bit_length() - 1]
                    x = cand[c2] ^ m
                    cand[c2] = x
                    if not x & (x - 1):
                        push(c2)
                    for hn2, b2 in slots[c2]:
                        k2 = hn2 + e
                        p = pos[k2] ^ b2
                        pos[k2] = p
                        if not p & (p - 1):
                            lose(k2)
        while hidden and not queue:
            k = hidden.pop()
            h, e = divmod(k, n)
            if placed[h] >> e & 1:
                continue
            p = pos[k]
            if not p:
                return False
            if p & (p - 1):
                continue
            c = houses[h][p.bit_length() - 1]
            bit = one[e]
            x = cand[c] ^ bit
            if x:
                cand[c] = bit
                sl = slots[c]
                while x:
                    low = x & -x
                    x ^= low
                    e2 = low.bit_length() - 1
                    for hn2, b2 in sl:
                        k2 = hn2 + e2
                        p = pos[k2] ^ b2
                        pos[k2] = p
                        if not p & (p - 1):
                            lose(k2)
            push(c)
    return True

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help="which of reduce,passes,dual (the first is the base of the ratios)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    files = args.files or [LARGE / name for name in DEFAULT]
    engines = args.engines.split(",")
    base = engines[0]
    print(f"# bench_fold {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{args.rounds} rounds of {' '.join(engines)}, CPU s (median); "
          f"load {open('/proc/loadavg').read()[:14]}")
    print("| file | " + " | ".join(f"{e} s" for e in engines) + " | "
          + " | ".join(f"{e} / {base}" for e in engines[1:]) + " | same candidates |")
    print("|---|" + "---:|" * (2 * len(engines) - 1) + "---|")
    for path in files:
        runs: dict[str, list] = {e: [] for e in engines}
        for _ in range(args.rounds):
            for engine in engines:
                out = subprocess.run([sys.executable, __file__, "--child", str(path), engine],
                                     capture_output=True, text=True, check=True).stdout
                runs[engine].append(json.loads(out))
        cpu = {e: statistics.median(r["cpu"] for r in runs[e]) for e in engines}
        same = len({r["candidates"] for e in engines for r in runs[e]}) == 1
        print(f"| {path.name} | " + " | ".join(f"{cpu[e]:.2f}" for e in engines) + " | "
              + " | ".join(f"{cpu[e] / cpu[base]:.2f}" for e in engines[1:])
              + f" | {'yes' if same else 'NO'} |")
    print(f"load after {open('/proc/loadavg').read()[:14]}")


if __name__ == "__main__":
    main()
