"""Benchmark the native solver on puzzle files: puzzles/s, mean ms, % solved without guessing.

    python scripts/bench_native.py /work/shared/puzzles/9x9/17_clue.txt --limit 5000
    python scripts/bench_native.py FILE... [--limit N] [--count] [--timeout S] [--profile]

Every answer is checked with ``grid.is_solution`` after the clock stops, tdoku style; a wrong or
missing answer is reported and makes the exit code 1. Reads files with ``satdoku.formats`` when
that module exists, else with a small reader of one-puzzle-a-line files (81 or N*N symbols,
``#`` comments, any line ends).
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import sys
import time
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.geometry import default_box, geometry, integer_sqrt  # noqa: E402
from satdoku.grid import Grid, is_solution  # noqa: E402
from satdoku.search import NativeSolver  # noqa: E402

_ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_line_puzzles(path: str) -> Iterator[Grid]:
    """One puzzle a line (N*N symbols, '.' or '0' empty); '#' lines and trailing comments skipped."""
    with open(path, encoding="utf-8", newline=None) as f:
        for line in f:
            text = line.split("#", 1)[0].strip().split()
            if not text:
                continue
            symbols = text[0]
            n = integer_sqrt(len(symbols))
            box = default_box(n) if n else None
            if box is None:
                print(f"{path}: skipping a line of {len(symbols)} symbols", file=sys.stderr)
                continue
            digits = tuple(0 if ch in ".0" else _ALPHABET.index(ch.upper()) + 1 for ch in symbols)
            yield Grid(geometry(*box), digits)


def read_grids(path: str) -> Iterator[Grid]:
    """Grids from ``path`` through satdoku.formats if it exists, else the line reader."""
    try:
        from satdoku.formats import read_puzzles
    except ImportError:
        yield from read_line_puzzles(path)
        return
    for puzzle in read_puzzles(path):
        if puzzle.grid is None:
            print(f"{path}: skipping a puzzle: {puzzle.error}", file=sys.stderr)
        else:
            yield puzzle.grid


def bench_file(path: str, limit: int | None, count: bool, timeout: float | None) -> bool:
    """Solve the puzzles of one file, print one summary line; True when every answer was right."""
    grids = []
    for grid in read_grids(path):
        grids.append(grid)
        if limit is not None and len(grids) >= limit:
            break
    solver = NativeSolver()
    solve_limit = 2 if count else 1
    results = []
    start = time.perf_counter()
    for grid in grids:
        results.append(solver.solve(grid, limit=solve_limit, timeout=timeout))
    elapsed = time.perf_counter() - start
    wrong = 0
    expected = "unique" if count else "solved"
    for index, (grid, result) in enumerate(zip(grids, results), 1):
        if result.status != expected or not is_solution(result.solution, grid):
            wrong += 1
            print(f"{path}: puzzle {index}: {result.status}", file=sys.stderr)
    n = len(grids)
    no_guess = sum(1 for r in results if r.stats["no_guess"])
    guesses = sum(r.stats["guesses"] for r in results)
    name = Path(path).name
    print(f"{name:32} {n:6d} puzzles {n / elapsed if elapsed else math.inf:9.1f} puzzles/s "
          f"{1000 * elapsed / max(n, 1):9.3f} ms mean  {100 * no_guess / max(n, 1):5.1f}% no guess  "
          f"{guesses / max(n, 1):8.2f} guesses/puzzle  {wrong} not solved", flush=True)
    return wrong == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles a file")
    parser.add_argument("--count", action="store_true", help="count solutions up to 2 (prove unique)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per puzzle")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile")
    args = parser.parse_args(argv)
    ok = True
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    for path in args.files:
        ok &= bench_file(path, args.limit, args.count, args.timeout)
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
