"""`explain --steps` on classic 9x9 puzzles, before and after step paths served every puzzle.

Before: the classic path of native techniques, trials and guesses
(`satdoku.native.techniques.solving_steps`, which `explain --steps` used for classic puzzles).
After: the step path of facts and minimal sets (`satdoku.tasks.steps.step_path`), for every
puzzle. Both are timed on the same puzzles, A B A B interleaved in one run (the solution is
found first and not timed: explain finds it either way); medians and totals per set, with the
date and the load. The shared sets live in ../shared/puzzles (see its README).

It also sets each path's score (`satdoku.tasks.path.path_score`, what `rate` gives a variant
puzzle) beside the classic rating (`satdoku.tasks.rate.Rater`): their means per set, and how
often the two labels agree or are a label apart: the calibration of the path's scale.

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
from satdoku.native.techniques import solving_steps
from satdoku.sat.solver import SatSolver
from satdoku.model.difficulty import LABELS, label_for
from satdoku.tasks.path import path_score
from satdoku.tasks.rate import Rater
from satdoku.tasks.solvers import solve
from satdoku.tasks.steps import step_path

ROOT = Path(__file__).resolve().parents[1]
#: ../shared/puzzles beside the checkout (or beside its folder, for a worktree)
SHARED = next((p / "shared" / "puzzles" / "9x9" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "puzzles").is_dir()), ROOT.parent / "shared")
#: Easiest first: Project Euler's 50 (easy), 17-clue (about half singles only), top1465, the
#: forum's hardest.
SETS = ("project_euler_096.txt", "17_clue.txt", "magictour_top1465.txt",
        "forum_hardest_1106.txt")


def main(count: int) -> None:
    load = os.getloadavg()
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, load {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}, {os.cpu_count()} cores, {count} puzzles a set\n")
    print("| set | before: median | before: total | after: median | after: total | "
          "after: steps by kind |")
    print("|---|---:|---:|---:|---:|---|")
    scales = []
    names = [name for _, name in LABELS]
    for name in SETS:
        before, after, kinds, pairs = [], [], Counter(), []
        with SatSolver() as sat:
            for _, puzzle in zip(range(count), read_puzzles(str(SHARED / name))):
                solution = solve(sat, puzzle.grid, limit=2).solution
                classic = Rater().rate(puzzle.grid).score
                for turn in ("A", "B"):
                    start = time.perf_counter()
                    if turn == "A":
                        solving_steps(puzzle.grid)
                        before.append(time.perf_counter() - start)
                    else:
                        path = step_path(puzzle.grid, solution)
                        after.append(time.perf_counter() - start)
                        kinds.update(s.technique for s in path.steps)
                        pairs.append((classic, path_score(path)[2]))
        top = ", ".join(f"{k} {n}" for k, n in kinds.most_common())
        print(f"| {name} | {statistics.median(before) * 1000:.0f} ms | {sum(before):.2f} s | "
              f"{statistics.median(after) * 1000:.0f} ms | {sum(after):.2f} s | {top} |",
              flush=True)
        apart = [abs(names.index(label_for(a)) - names.index(label_for(b))) for a, b in pairs]
        scales.append(f"| {name} | {statistics.mean(a for a, _ in pairs):.2f} | "
                      f"{statistics.mean(b for _, b in pairs):.2f} | "
                      f"{apart.count(0)} | {apart.count(1)} | {sum(d > 1 for d in apart)} |")
    print("\n| set | classic score: mean | path score: mean | same label | one apart | more |")
    print("|---|---:|---:|---:|---:|---:|")
    print("\n".join(scales))
    load = os.getloadavg()
    print(f"\nload after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", nargs="?", type=int, default=20,
                        help="puzzles of each set (default 20)")
    main(parser.parse_args().count)
