"""Generate the project's own puzzle files: unique puzzles of several sizes, dug from random grids.

    python scripts/make_puzzles.py            # writes puzzles/8x8.txt ... puzzles/25x25.txt
    python scripts/make_puzzles.py --seed 7 --count 3 --only 12x12

A random complete grid (satdoku.tasks.generate.full_grid) loses its cells one at a time in random order;
a cell stays empty only if the SAT solver still counts exactly one solution. ``--keep`` stops the
digging early, leaving that share of the cells given, so big grids stay quick to make and solve.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from satdoku.model.alphabet import alphabet_for
from satdoku.io.text import format_grid
from satdoku.tasks.generate import full_grid
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.tasks.solvers import make_solver, solve

ROOT = Path(__file__).resolve().parents[1]

# name -> (box rows, box cols, share of cells left given at the most)
SIZES = {"8x8": (2, 4, 1.0), "12x12": (3, 4, 1.0), "16x16": (4, 4, 0.45), "25x25": (5, 5, 0.5)}


def dig(full: Grid, rng: random.Random, solver, keep: float) -> Grid:
    """Empty cells of ``full`` in random order while the puzzle keeps a unique solution."""
    cells = list(full.cells)
    order = list(range(len(cells)))
    rng.shuffle(order)
    floor = int(keep * len(cells)) if keep < 1 else 0
    given = len(cells)
    for cell in order:
        if given <= floor:
            break
        digit, cells[cell] = cells[cell], 0
        if solve(solver, Grid(full.geometry, tuple(cells)), limit=2).status != "unique":
            cells[cell] = digit
        else:
            given -= 1
    return Grid(full.geometry, tuple(cells))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--count", type=int, default=3, help="puzzles per size")
    parser.add_argument("--only", choices=sorted(SIZES), action="append")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "puzzles")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    solver = make_solver("sat")
    for name in args.only or SIZES:
        r, c, keep = SIZES[name]
        geo = geometry(r, c)
        lines = [f"# {args.count} unique {name} puzzles (boxes {r}x{c}), made by "
                 f"scripts/make_puzzles.py --seed {args.seed}.",
                 f"# One puzzle per line, {geo.ncells} symbols, alphabet "
                 f"{alphabet_for(geo.size).symbols}, '.' empty."]
        for i in range(args.count):
            start = time.perf_counter()
            puzzle = dig(full_grid(geo, rng), rng, solver, keep)
            lines.append(f"{format_grid(puzzle, 'line')}  # {name} #{i + 1}, "
                         f"{puzzle.nclues} clues")
            print(f"{name} #{i + 1}: {puzzle.nclues} clues in {time.perf_counter() - start:.1f} s",
                  file=sys.stderr)
        (args.output / f"{name}.txt").write_text("\n".join(lines) + "\n")
    solver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
