#!/usr/bin/env python3
"""Hard grids: which solver configurations to race, and the end-to-end targets of issue 12.

Three modes (every run prints the date, the load average and the command first):

    # each configuration alone on each puzzle (counting to 2 unless --limit 1), one racer
    # process each, killed at --timeout; then the best pairs and triples (the time of the
    # fastest member on each puzzle, as racing them on that many free cores would give)
    python scripts/bench_hard.py configs FILE --config cadical195/reduced \\
        --config cadical195/extended --config kissat404 --config "exec:cadical -q" --timeout 60

    # a whole file as 'satdoku count FILE' answers it, through the library (stream with
    # the given SolveOptions): the default, a named configuration, or a portfolio of K
    python scripts/bench_hard.py file FILE --portfolio 2 --timeout 120
    python scripts/bench_hard.py file FILE --sat-solver cadical195 --encoding reduced --fresh

    # the command a user types, timed (any satdoku options after --)
    python scripts/bench_hard.py cli FILE -- count --portfolio --jobs 2

Configurations are written as :func:`satdoku.sat.portfolio.parse_config` reads them
(``SOLVER[/ENCODING][/KEY=VALUE,...]``); ``incremental`` is satdoku's default batch path (one
incremental solver, clues as assumptions), run in this process. Results are docs/hard-grids.md.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from satdoku.run.stream import stream  # noqa: E402
from satdoku.tasks.solvers import search_options  # noqa: E402
from satdoku.deadline import Deadline  # noqa: E402
from satdoku.io.text import read_puzzles  # noqa: E402
from satdoku.sat.portfolio import PortfolioSolver, parse_config  # noqa: E402
from satdoku.tasks.solvers import make_solver, solve  # noqa: E402


def _banner(argv: list[str]) -> None:
    load = os.getloadavg()
    print(f"# {datetime.datetime.now():%Y-%m-%d %H:%M}, load {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}, {os.cpu_count()} cores")
    print(f"# python scripts/bench_hard.py {' '.join(shlex.quote(a) for a in argv)}\n",
          flush=True)


def _puzzles(path: str, first: int | None, only: list[int] | None):
    puzzles = [p for p in read_puzzles(path) if p.grid is not None]
    if only:
        puzzles = [puzzles[i] for i in only]
    return puzzles[:first] if first else puzzles


def run_configs(args: argparse.Namespace) -> None:
    labels = args.config or ["incremental", "cadical195/reduced", "cadical195/extended"]
    configs = {label: None if label == "incremental" else parse_config(label)
               for label in labels}
    puzzles = _puzzles(args.file, args.first, args.only)
    times: dict[str, list[float]] = {label: [] for label in labels}
    print("| puzzle | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels), flush=True)
    incremental = make_solver() if "incremental" in labels else None
    for i, puzzle in enumerate(puzzles):
        row = []
        for label, config in configs.items():
            start, cpu = time.perf_counter(), time.process_time()
            deadline = Deadline(args.timeout)
            if config is None:
                result = solve(incremental, puzzle.grid, limit=args.limit, deadline=deadline)
                result.stats["cpu_s"] = time.process_time() - cpu
            else:
                with PortfolioSolver([config], jobs=1) as racer:
                    result = racer.solve(puzzle.grid, limit=args.limit, deadline=deadline)
            seconds = time.perf_counter() - start
            answered = result.status in ("solved", "unique", "multiple", "unsolvable")
            # CPU seconds rank the configurations (the machine is shared); wall is shown too.
            cpu = result.stats.get("cpu_s", seconds)
            times[label].append(cpu if answered else float("inf"))
            row.append(f"{cpu:.2f} ({seconds:.1f})" if answered else
                       "t/o" if result.status == "timeout" else result.status)
        print(f"| {puzzle.line or i + 1} | " + " | ".join(row) + " |", flush=True)
    cap = args.timeout

    def total(values: list[float]) -> str:
        solved = sum(1 for v in values if v != float("inf"))
        return f"{solved}/{len(values)} answered, {sum(min(v, cap) for v in values):.1f} s"

    print("\ncells: CPU seconds of the solving process (wall seconds); ranked by CPU")
    print("\nalone (a timeout counts at the limit):")
    for label in labels:
        print(f"- {label}: {total(times[label])}")
    for k in (2, 3):
        if len(labels) < k:
            continue
        ranked = sorted(itertools.combinations(labels, k), key=lambda group: sum(
            min(min(times[g][i] for g in group), cap) for i in range(len(puzzles))))
        print(f"\nbest {k} together (fastest member per puzzle):")
        for group in ranked[:5]:
            best = [min(times[g][i] for g in group) for i in range(len(puzzles))]
            print(f"- {' + '.join(group)}: {total(best)}")


def run_file(args: argparse.Namespace) -> None:
    fresh = {"fresh": True} if args.fresh else {}
    options = search_options(args.limit, sat_solver=args.sat_solver, encoding=args.encoding,
                             timeout=args.timeout, racers=args.portfolio, stats=True, **fresh)
    puzzles = _puzzles(args.file, args.first, args.only)
    start = time.perf_counter()
    cpu0 = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF,
               resource.RUSAGE_CHILDREN) for f in ("ru_utime", "ru_stime"))
    statuses: dict[str, int] = {}
    for outcome in stream(puzzles, options, jobs=args.jobs):
        r = outcome.result
        statuses[r.status] = statuses.get(r.status, 0) + 1
        print(f"{outcome.puzzle.line}: {r.status} in {r.time_ms / 1000:.2f} s by {r.solver}",
              flush=True)
    wall = time.perf_counter() - start
    cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF,
              resource.RUSAGE_CHILDREN) for f in ("ru_utime", "ru_stime")) - cpu0
    print(f"\n{len(puzzles)} puzzles in {wall:.1f} s wall, {cpu:.1f} s CPU (this process and "
          "every process it started): " + ", ".join(f"{k} {v}" for k, v in
                                                    sorted(statuses.items())))


def run_cli(args: argparse.Namespace) -> None:
    extra = args.rest or ["count"]
    command = [sys.executable, "-m", "satdoku", *extra[:1], args.file, *extra[1:],
               "--format", "line"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    lines = done.stdout.splitlines()
    print("\n".join(lines[:40]))
    if done.stderr.strip():
        print(done.stderr.strip()[-2000:])
    print(f"\nexit {done.returncode}, {len(lines)} lines, {wall:.1f} s wall")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["configs", "file", "cli"])
    parser.add_argument("file")
    parser.add_argument("--config", action="append", help="configs: a configuration; repeat")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--limit", type=int, default=2, help="2 counts (default), 1 solves")
    parser.add_argument("--first", type=int, help="only the first N puzzles")
    parser.add_argument("--only", type=lambda s: [int(x) for x in s.split(",")],
                        help="only these puzzles (0-based indexes, comma-separated)")
    parser.add_argument("--sat-solver")
    parser.add_argument("--encoding")
    parser.add_argument("--fresh", action="store_true", help="file: a fresh solver per puzzle")
    parser.add_argument("--portfolio", type=int, default=0, help="file: race K configurations")
    parser.add_argument("--jobs", type=int, default=1)
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:len(argv) - len(rest) - (1 if rest else 0)])
    args.rest = rest
    _banner(argv)
    {"configs": run_configs, "file": run_file, "cli": run_cli}[args.mode](args)


if __name__ == "__main__":
    main(sys.argv[1:])
