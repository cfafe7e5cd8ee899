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

    # cube-and-conquer against the default, whole processes timed from outside, A B A B
    # (CPU: the process and its workers); each cube run's figures per puzzle
    python scripts/bench_hard.py cubes FILE --limit 1 --timeout 60 --cube 10 --jobs 1

Configurations are written as :func:`satdoku.sat.portfolio.parse_config` reads them
(``SOLVER[/ENCODING][/KEY=VALUE,...]``); ``incremental`` is satdoku's default batch path (one
incremental solver, clues as assumptions), run in this process. Results are docs/hard-grids.md.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
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


CUBE_FIGURES = ("cubes", "cubes_refuted_at_cubing", "cube_s", "cubes_sat", "cubes_unsat",
                "cubes_open", "cube_conflicts_median", "cube_conflicts_max",
                "cube_cpu_s_median", "cube_cpu_s_max", "open_cpu_s", "estimate_s")


def _timed(command: list[str]) -> tuple[float, float, list[dict]]:
    """Wall and CPU seconds of one whole process (and its children), and its JSON answers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if not answers:
        print(done.stderr.strip()[-2000:])
    return wall, cpu, answers


def run_cubes(args: argparse.Namespace) -> None:
    """The default and ``--cube`` on the whole file, A B A B, each a whole process."""
    path = Path(args.file).resolve()
    if args.first:  # the first N puzzle lines, into a file of their own
        lines = [line for line in path.read_text().splitlines()
                 if line.strip() and not line.startswith("#")][:args.first]
        path = Path(tempfile.mkdtemp()) / f"first{args.first}_{path.name}"
        path.write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "satdoku", "solve" if args.limit == 1 else "count",
               str(path), "--timeout", str(args.timeout), "--stats",
               "--format", "json"]
    variants = {"default": command,
                f"cube {args.cube}, jobs {args.jobs}": command + [
                    "--cube", str(args.cube), "--jobs", str(args.jobs)]}
    for round_ in range(args.rounds):
        for label, argv in variants.items():
            wall, cpu, answers = _timed(argv)
            statuses: dict[str, int] = {}
            for a in answers:
                statuses[a["status"]] = statuses.get(a["status"], 0) + 1
            print(f"round {round_ + 1} {label}: {wall:.1f} s wall, {cpu:.1f} s CPU; " +
                  ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())), flush=True)
            for a in answers if "cube" in label else []:
                figures = ", ".join(f"{k} {a['stats'].get(k)}" for k in CUBE_FIGURES)
                print(f"  line {a['line']}: {a['status']} in {a['time_ms'] / 1000:.1f} s; "
                      f"{figures}", flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["configs", "file", "cli", "cubes"])
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
    parser.add_argument("--cube", type=int, default=8, help="cubes: the cube depth")
    parser.add_argument("--rounds", type=int, default=2, help="cubes: A B rounds")
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:len(argv) - len(rest) - (1 if rest else 0)])
    args.rest = rest
    _banner(argv)
    {"configs": run_configs, "file": run_file, "cli": run_cli,
     "cubes": run_cubes}[args.mode](args)


if __name__ == "__main__":
    main(sys.argv[1:])
