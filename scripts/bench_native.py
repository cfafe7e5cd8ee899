"""Benchmark the native solver on puzzle files: puzzles/s, mean ms, % solved without guessing.

    python scripts/bench_native.py /work/shared/puzzles/9x9/17_clue.txt --limit 5000
    python scripts/bench_native.py FILE... [--limit N] [--count] [--timeout S] [--profile] [--norvig]

Times are CPU seconds of this process (``time.process_time``), so other work on a busy machine
disturbs them less than wall time would; ``--timeout`` is still wall time, as in the solver.
``--norvig`` also times Peter Norvig's solver (``scripts/norvig.py``) on the same 9x9 puzzles in
the same run and prints the ratio, so "x times Norvig" is measured on one machine at one moment.

Every answer is checked with ``grid.is_solution`` after the clock stops, tdoku style; a wrong or
missing answer (a timeout included) is reported and makes the exit code 1. Reads files with ``satdoku.formats`` when
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
sys.path.insert(1, str(Path(__file__).resolve().parent))

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


def bench_file(path: str, limit: int | None, count: bool, timeout: float | None,
               norvig: bool = False) -> bool:
    """Solve the puzzles of one file, print one summary line; True when every answer was right."""
    grids = []
    for grid in read_grids(path):
        grids.append(grid)
        if limit is not None and len(grids) >= limit:
            break
    solver = NativeSolver()
    solve_limit = 2 if count else 1
    results = []
    start = time.process_time()
    for grid in grids:
        results.append(solver.solve(grid, limit=solve_limit, timeout=timeout))
    elapsed = time.process_time() - start
    wrong = timeouts = 0
    expected = "unique" if count else "solved"
    for index, (grid, result) in enumerate(zip(grids, results), 1):
        timeouts += result.status == "timeout"
        if result.status != expected or not is_solution(result.solution, grid):
            wrong += 1
            print(f"{path}: puzzle {index}: {result.status}", file=sys.stderr)
    n = len(grids)
    no_guess = sum(1 for r in results if r.stats["no_guess"])
    guesses = sum(r.stats["guesses"] for r in results)
    name = Path(path).name
    rate = n / elapsed if elapsed else math.inf
    print(f"{name:32} {n:6d} puzzles {rate:9.1f} puzzles/s "
          f"{1000 * elapsed / max(n, 1):9.3f} ms mean  {100 * no_guess / max(n, 1):5.1f}% no guess  "
          f"{guesses / max(n, 1):8.2f} guesses/puzzle  {timeouts} timeouts  {wrong} not solved",
          flush=True)
    if norvig:
        bench_norvig(name, [g for g in grids if g.geometry.shape == "3x3"], rate)
    return wrong == 0


def bench_norvig(name: str, grids: list[Grid], native_rate: float) -> None:
    """Time Norvig's solver (first solution) on ``grids`` and print its rate and native's ratio."""
    import norvig  # scripts/norvig.py, beside this file

    if not grids:
        print(f"{'':32} norvig: no 9x9 puzzles")
        return
    texts = ["".join(str(d) if d else "." for d in g.cells) for g in grids]
    start = time.process_time()
    answers = [norvig.solve(text) for text in texts]
    elapsed = time.process_time() - start
    wrong = sum(1 for g, v in zip(grids, answers) if not v or not is_solution(
        Grid(g.geometry, tuple(map(int, norvig.solution_string(v)))), g))
    rate = len(grids) / elapsed if elapsed else math.inf
    print(f"{'  norvig':32} {len(grids):6d} puzzles {rate:9.1f} puzzles/s "
          f"{1000 * elapsed / len(grids):9.3f} ms mean  native/norvig {native_rate / rate:5.2f}x  "
          f"{wrong} not solved", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=None, help="only the first N puzzles a file")
    parser.add_argument("--count", action="store_true", help="count solutions up to 2 (prove unique)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per puzzle")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile")
    parser.add_argument("--norvig", action="store_true",
                        help="also time Norvig's solver on the same 9x9 puzzles (scripts/norvig.py)")
    args = parser.parse_args(argv)
    ok = True
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    for path in args.files:
        ok &= bench_file(path, args.limit, args.count, args.timeout, args.norvig)
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
