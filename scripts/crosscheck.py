"""Cross-check SAT against native search on every puzzle of ../shared/puzzles.

    python scripts/crosscheck.py                     # every shared file, native timeout 2 s
    python scripts/crosscheck.py --sizes 16x16,25x25 --timeout 120
    python scripts/crosscheck.py --timeout 5 --limit 1000 FILE...

Each puzzle is counted to 2 by the native solver first; where it finishes within --timeout, the
SAT solver counts it too (within --sat-timeout) and the two are compared (solvability, count up
to 2, the solution of a unique puzzle; both answers verified). Prints a table per file and exits
1 on any disagreement. ``--sizes`` picks the shared folders (``large`` is left out unless named).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from satdoku.tasks.agree import disagreements
from satdoku.io.text import read_puzzles
from satdoku.tasks.solvers import make_solver, solve

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "puzzles"


def crosscheck(path: Path, sat, native, timeout: float, sat_timeout: float, limit: int | None):
    """(puzzles, compared, native timeouts, SAT timeouts, disagreement lines) for one file."""
    seen = compared = timeouts = sat_timeouts = 0
    problems = []
    for puzzle in read_puzzles(str(path)):
        if limit is not None and seen >= limit:
            break
        seen += 1
        if puzzle.error is not None:
            problems.append(f"{puzzle.error}")
            continue
        b = solve(native, puzzle.grid, limit=2, timeout=timeout)
        if b.status == "timeout":
            timeouts += 1
            continue
        a = solve(sat, puzzle.grid, limit=2, timeout=sat_timeout)
        if a.status == "timeout":
            sat_timeouts += 1
            continue
        compared += 1
        problems += [f"{path.name}:{puzzle.line}: {d}" for d in disagreements(a, b)]
    return seen, compared, timeouts, sat_timeouts, problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--timeout", type=float, default=2.0, help="native seconds per puzzle")
    parser.add_argument("--limit", type=int, default=None, help="first N puzzles of each file")
    parser.add_argument("--sat-timeout", type=float, default=300.0, help="SAT seconds per puzzle")
    parser.add_argument("--sizes", default=None,
                        help="shared folders to check, comma-separated (default: all but large)")
    parser.add_argument("--sat-solver", default=None)
    args = parser.parse_args(argv)
    sizes = args.sizes.split(",") if args.sizes else None
    files = args.files or sorted(p for p in SHARED.glob("*/*.txt")
                                 if (p.parent.name in sizes if sizes else p.parent.name != "large"))
    if not files:
        print(f"no puzzle files (looked in {SHARED})", file=sys.stderr)
        return 2
    missing = [p for p in files if not p.is_file()]
    if missing:
        print(f"no such puzzle file: {missing[0]}", file=sys.stderr)
        return 2
    sat, native = make_solver("sat", sat_solver=args.sat_solver), make_solver("native")
    print(f"native timeout {args.timeout} s; SAT {sat.name}, timeout {args.sat_timeout} s\n")
    print("| file | puzzles | compared | native timeouts | SAT timeouts | disagreements | "
          "seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    all_problems = []
    for path in files:
        start = time.perf_counter()
        seen, compared, timeouts, sat_timeouts, problems = crosscheck(
            path, sat, native, args.timeout, args.sat_timeout, args.limit)
        all_problems += problems
        print(f"| {path.parent.name}/{path.name} | {seen} | {compared} | {timeouts} | "
              f"{sat_timeouts} | {len(problems)} | {time.perf_counter() - start:.1f} |", flush=True)
    for line in all_problems:
        print(line, file=sys.stderr)
    sat.close()
    return 1 if all_problems else 0


if __name__ == "__main__":
    sys.exit(main())
