#!/usr/bin/env python3
"""OEIS A109252 a(4): how many 4x4 Sudoku puzzles with 4 clues have one solution: 25,728.

    python scripts/a109252.py                 # all 288 grids x 1820 clue sets (~1 min)
    python scripts/a109252.py --grids 0:2     # a slice of the grids (tests/test_counts.py)
    python scripts/a109252.py --clues 5       # other clue counts (no published figure here)

A puzzle here is a complete 4x4 grid and a set of cells whose digits are given: 288 grids times
C(16, 4) = 1820 sets = 524,160 puzzles, of which A109252 counts 25,728 with a unique solution.
The 288 grids come from a plain backtracking search in this script (independent of satdoku);
satdoku counts each puzzle's solutions up to 2 on one SAT solver (the batch path of
``satdoku count``), each distinct clue pattern once (a pattern that several grids share has
as many solutions, so it is never unique). The same ``--grids`` slice always means the same
grids: they are enumerated in lexicographic order.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time

from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.tasks.solvers import make_solver, solve

#: OEIS A109252: a(4), 4x4 puzzles with 4 clues and a unique solution (of 524,160).
PUBLISHED = {4: 25_728}


def all_grids() -> list[tuple[int, ...]]:
    """Every complete 4x4 Sudoku grid (2x2 boxes), in lexicographic order, by backtracking."""
    out: list[tuple[int, ...]] = []
    cells = [0] * 16

    def peers_ok(i: int, d: int) -> bool:
        r, c = divmod(i, 4)
        box = (r // 2 * 2, c // 2 * 2)
        for j in range(i):
            rj, cj = divmod(j, 4)
            if cells[j] == d and (rj == r or cj == c or (rj // 2 * 2, cj // 2 * 2) == box):
                return False
        return True

    def fill(i: int) -> None:
        if i == 16:
            out.append(tuple(cells))
            return
        for d in range(1, 5):
            if peers_ok(i, d):
                cells[i] = d
                fill(i + 1)
        cells[i] = 0

    fill(0)
    return out


def unique_puzzles(grids: list[tuple[int, ...]], clues: int = 4) -> tuple[int, int]:
    """(puzzles, unique): the (grid, clue set) pairs of ``grids`` with ``clues`` given cells,
    and how many of them satdoku counts exactly one solution for."""
    geo = geometry(2, 2)
    patterns: dict[tuple[int, ...], int] = {}
    for grid in grids:
        for chosen in itertools.combinations(range(16), clues):
            cells = [0] * 16
            for i in chosen:
                cells[i] = grid[i]
            key = tuple(cells)
            patterns[key] = patterns.get(key, 0) + 1
    unique = 0
    with make_solver("sat", stats=False) as solver:
        solver.steer = True  # as satdoku count does on a batch
        for cells, pairs in patterns.items():
            result = solve(solver, Grid(geo, cells), limit=2, givens_checked=True)
            if result.status == "unique":
                unique += pairs  # always 1: a pair's own grid is a solution
            elif result.status != "multiple":
                raise SystemExit(f"unexpected {result.status} for {cells}: {result.message}")
    return len(grids) * len(list(itertools.combinations(range(16), clues))), unique


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:5]))
    parser.add_argument("--grids", default=":", metavar="START:STOP",
                        help="a slice of the 288 grids (default: all)")
    parser.add_argument("--clues", type=int, default=4, help="given cells (default: 4)")
    args = parser.parse_args(argv)
    try:
        start, _, stop = args.grids.partition(":")
        chosen = slice(int(start) if start else None, int(stop) if stop else None)
    except ValueError:
        parser.error(f"--grids: START:STOP, not {args.grids!r}")
    if not 0 <= args.clues <= 16:
        parser.error("--clues: 0 to 16")
    begun = time.perf_counter()
    grids = all_grids()
    puzzles, unique = unique_puzzles(grids[chosen], args.clues)
    whole = chosen == slice(None, None)
    print(f"4x4 grids: {len(grids)}; used {len(grids[chosen])}; puzzles with {args.clues} clues: "
          f"{puzzles:,}; unique: {unique:,} ({time.perf_counter() - begun:.1f} s, load "
          f"{os.getloadavg()[0]:.2f})")
    if whole and args.clues in PUBLISHED:
        match = unique == PUBLISHED[args.clues]
        print(f"OEIS A109252 a({args.clues}) = {PUBLISHED[args.clues]:,}: "
              f"{'reproduced' if match else 'NOT reproduced'}")
        return 0 if match else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
