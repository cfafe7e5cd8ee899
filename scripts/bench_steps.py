"""Calibrate the ratings of a variant's steps against Sudoku Explainer's, on classic puzzles.

A classic puzzle is rated by satdoku's SE ladder; a variant puzzle by its step path, whose
steps are valued as the SE steps they are most like (`satdoku.tasks.path.step_rating`). On a
classic puzzle both exist: the ladder's path (`step_path`, as `explain --steps` and `rate` take
it) and the variant-style path (`step_path(..., ladder=False)`). This script sets their ERs
side by side per set: the means, how often the two labels agree or are a label apart, and
the times of both paths, A B A B interleaved in one run (the solution is found first and not
timed), with the date and the load. The shared sets live in ../shared/puzzles (see its README).

Usage: python scripts/bench_steps.py [COUNT]    (COUNT puzzles of each set, default 20)
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time
from collections import Counter
from pathlib import Path

from satdoku.io.text import read_puzzles
from satdoku.model.difficulty import LABELS, label_for
from satdoku.sat.solver import SatSolver
from satdoku.tasks.path import path_rating
from satdoku.tasks.solvers import solve
from satdoku.tasks.steps import step_path

ROOT = Path(__file__).resolve().parents[1]
#: ../shared/puzzles beside the checkout (or beside its folder, for a worktree), or
#: SATDOKU_PUZZLES
SHARED = next((p / "9x9" for p in [Path(os.environ.get("SATDOKU_PUZZLES", "/nonexistent"))]
               + [q / "shared" / "puzzles" for q in (ROOT.parent, ROOT.parent.parent)]
               if p.is_dir()), ROOT.parent / "shared")
#: Easiest first: Project Euler's 50 (easy), 17-clue (about half singles only), top1465, the
#: forum's hardest.
SETS = ("project_euler_096.txt", "17_clue.txt", "magictour_top1465.txt",
        "forum_hardest_1106.txt")


def main(count: int) -> None:
    load = os.getloadavg()
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, load {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}, {os.cpu_count()} cores, {count} puzzles a set\n")
    print("| set | ladder: median | ladder: total | variant-style: median | variant-style: "
          "total | variant-style steps by kind |")
    print("|---|---:|---:|---:|---:|---|")
    scales = []
    names = [name for _, name in LABELS]
    for name in SETS:
        times: dict[bool, list[float]] = {True: [], False: []}
        ers: dict[bool, list[tuple[float, bool]]] = {True: [], False: []}
        kinds: Counter = Counter()
        with SatSolver() as sat:
            for _, puzzle in zip(range(count), read_puzzles(str(SHARED / name))):
                solution = solve(sat, puzzle.grid, limit=2).solution
                for ladder in (True, False):
                    start = time.perf_counter()
                    path = step_path(puzzle.grid, solution, ladder=ladder)
                    times[ladder].append(time.perf_counter() - start)
                    rating = path_rating(path)
                    ers[ladder].append((rating.er, rating.bound))
                    if not ladder:
                        kinds.update(s.technique for s in path.steps)
        top = ", ".join(f"{k} {n}" for k, n in kinds.most_common(6))
        print(f"| {name} | {statistics.median(times[True]) * 1000:.0f} ms | "
              f"{sum(times[True]):.2f} s | {statistics.median(times[False]) * 1000:.0f} ms | "
              f"{sum(times[False]):.2f} s | {top} |", flush=True)
        pairs = [(a, b) for (a, _), (b, _) in zip(ers[True], ers[False])]
        apart = [abs(names.index(label_for(a)) - names.index(label_for(b))) for a, b in pairs]
        bound = sum(b for _, b in ers[True])
        scales.append(f"| {name} | {statistics.mean(a for a, _ in pairs):.2f} | {bound} | "
                      f"{statistics.mean(b for _, b in pairs):.2f} | "
                      f"{apart.count(0)} | {apart.count(1)} | {sum(d > 1 for d in apart)} |")
    print("\n| set | ladder ER: mean | ladder ER a bound | variant-style ER: mean | same label "
          "| one apart | more |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print("\n".join(scales))
    load = os.getloadavg()
    print(f"\nload after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=20,
                        help="puzzles of each set (default 20)")
    main(parser.parse_args().count)
