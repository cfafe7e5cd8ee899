"""Step paths of every shipped variant puzzle: each replayed and checked independently, and
`satdoku explain --steps` timed on each.

For each puzzle of puzzles/variants/*.json:

1. `satdoku explain --steps --format line FILE` is run as a command and timed (wall clock,
   the whole process: start-up, reading, uniqueness, the path);
2. the path is built again in this process and every step is checked by tests/stepcheck.py:
   the cells it cites hold the replay's candidates, its facts force its conclusions (a fresh
   SAT question to CaDiCaL, not the path's solver), no fact can go, and the replay ends at
   the solution.

Usage: python scripts/replay_steps.py [--timeout SECONDS] [FILE...]
(default: every shipped variant puzzle, 120 s each). Writes a Markdown table (puzzle, steps,
the hardest step's rules, score, command time, check) with the date and the load average before
and after; docs/setters-guide.md keeps it. A path the time limit stops is checked as far as it
goes.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from stepcheck import check_path  # noqa: E402

from satdoku.deadline import Deadline  # noqa: E402
from satdoku.io.inputs import iter_inputs  # noqa: E402
from satdoku.sat.solver import SatSolver  # noqa: E402
from satdoku.tasks.path import path_rating  # noqa: E402
from satdoku.tasks.solvers import solve  # noqa: E402
from satdoku.tasks.steps import step_path  # noqa: E402


def timed_command(path: str, timeout: float) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "satdoku", "explain", "--steps", "--format",
                           "line", "--ignore-unknown", "--timeout", str(timeout), path],
                          capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout.strip()


def main(files: list[str], timeout: float) -> int:
    load = os.getloadavg()
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, load {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}, {os.cpu_count()} cores, python-sat solvers: path MiniSat, "
          f"check CaDiCaL\n")
    print("| puzzle | steps | hardest step (rules) | ER | `explain --steps` | check |")
    print("|---|---:|---:|---:|---:|---|")
    failed = 0
    for name in files:
        seconds, line = timed_command(name, timeout)
        puzzle = next(iter(iter_inputs([name], ignore_unknown=True)))
        with SatSolver() as sat:
            result = solve(sat, puzzle.grid, limit=2, constraints=puzzle.constraints)
        path = step_path(puzzle.grid, result.solution, constraints=puzzle.constraints,
                         alphabet=puzzle.alphabet, deadline=Deadline(timeout))
        problems = check_path(puzzle.grid, path, result.solution,
                              partial=path.status == "timeout")
        failed += bool(problems)
        hardest = max((len(s.rules) for s in path.steps), default=0)
        verdict = "every step holds" if not problems else f"{len(problems)} problems: " \
                                                          f"{problems[0]}"
        if path.status == "timeout":
            verdict += f" (stopped at {timeout:g} s)"
        print(f"| {Path(name).stem} | {len(path.steps)} | {hardest} | "
              f"{path_rating(path).er:.1f} | {seconds:.1f} s | {verdict} |", flush=True)
        if not line.startswith("unique"):
            print(f"  the command said: {line}", flush=True)
    load = os.getloadavg()
    print(f"\nload after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="variant puzzles (default: every shipped one)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                        help="time limit of each path (default 120)")
    args = parser.parse_args()
    sys.exit(main(args.files or sorted(glob.glob(str(ROOT / "puzzles" / "variants" / "*.json"))),
                  args.timeout))
