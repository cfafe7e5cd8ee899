#!/usr/bin/env python3
"""Time to solve and to prove unique each variant puzzle, SAT against native search.

    python scripts/bench_variants.py                          # puzzles/variants/*.json
    python scripts/bench_variants.py FILE... --rounds 5 --timeout 60

Each puzzle gets a fresh SAT solver (so the figure includes encoding its rules) and the native
solver with the rules' pruning; both find a solution (limit 1) and count to 2 (the proof of
uniqueness a setter wants). The four measurements alternate within each round (A B A B) and
the median of the rounds is printed in ms, with the status; every answer is verified.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satdoku.deadline import Deadline  # noqa: E402
from satdoku.sat.solver import SatSolver  # noqa: E402
from satdoku.native.search import NativeSolver  # noqa: E402
from satdoku.tasks.solvers import solve  # noqa: E402
from satdoku.io.variant import read_variants  # noqa: E402


def measure(make, puzzle, limit: int, timeout: float) -> tuple[float, str]:
    """(ms, status) of one verified solve with a solver made for it."""
    solver = make()
    try:
        start = time.perf_counter()
        result = solve(solver, puzzle.givens, limit=limit, deadline=Deadline(timeout),
                       constraints=puzzle.constraints)
        return (time.perf_counter() - start) * 1000, result.status
    finally:
        solver.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path,
                        default=sorted((ROOT / "puzzles" / "variants").glob("*.json")))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per measurement")
    args = parser.parse_args(argv)
    puzzles = []
    for path in args.files:
        for entry in read_variants(str(path)):
            if entry.error is not None:
                print(f"skipped: {entry.error}", file=sys.stderr)
            else:
                puzzles.append((path.stem, entry.puzzle))
    kinds = [("SAT solve", lambda: SatSolver(None, "extended"), 1),
             ("native solve", NativeSolver, 1),
             ("SAT unique", lambda: SatSolver(None, "extended"), 2),
             ("native unique", NativeSolver, 2)]
    load = os.getloadavg()[0]
    print(f"satdoku variant puzzles, median of {args.rounds} rounds (ms; A B A B), timeout "
          f"{args.timeout:g} s, {time.strftime('%Y-%m-%d %H:%M')} UTC, load {load:.2f}\n")
    print("| puzzle | size | rules | " + " | ".join(k for k, _, _ in kinds) + " | status |")
    print("|---|---:|---:|" + "---:|" * len(kinds) + "---|")
    for name, puzzle in puzzles:
        times: dict[str, list[float]] = {k: [] for k, _, _ in kinds}
        statuses: dict[str, str] = {}
        for _ in range(args.rounds):
            for kind, make, limit in kinds:
                ms, status = measure(make, puzzle, limit, args.timeout)
                times[kind].append(ms)
                statuses[kind] = status
        cells = [f"{statistics.median(times[k]):,.1f}" +
                 ("" if statuses[k] in ("solved", "unique") else f" ({statuses[k]})")
                 for k, _, _ in kinds]
        print(f"| {name} | {puzzle.geometry.size} | {len(puzzle.constraints)} | "
              + " | ".join(cells) + f" | {statuses['SAT unique']} |", flush=True)
    print(f"\nload {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
