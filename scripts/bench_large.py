#!/usr/bin/env python3
"""Solve every large puzzle end to end, one child process each, and print a markdown table.

Each puzzle runs in a fresh child process (so peak memory is that puzzle's alone): parse the file,
solve (reduced SAT encoding by default, or the native solver), verify, format the answer. The
child reports the time of every stage and its peak RSS; the table shows them per file.

    python scripts/bench_large.py                         # every file of ../shared/puzzles/large
    python scripts/bench_large.py FILE... --timeout 600
    python scripts/bench_large.py --solver native --timeout 30 FILE...
    python scripts/bench_large.py --sat-solver minisat22 --no-propagate FILE
    python scripts/bench_large.py --locked --timeout 60     # pointing/claiming before SAT

Stages: parse (read the file), encode (singles + reduced CNF; ``propagate`` of it is the singles),
load (clauses into the SAT solver), solve, verify (independent checker), print (format the grid).
``total s`` is wall time from parse to print, ``cpu s`` the child's CPU time over the same span
(the fairer figure on a loaded machine), ``wall s`` includes starting Python.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIR = ROOT.parent / "shared" / "puzzles" / "large"


def _child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from satdoku.io.text import format_grid, read_puzzles
    from satdoku.model.grid import solution_problems

    c0 = time.process_time()
    t0 = time.perf_counter()
    puzzle = next(iter(read_puzzles(args.child)))
    t1 = time.perf_counter()
    if puzzle.error is not None:
        print(json.dumps({"status": "invalid", "message": str(puzzle.error)}))
        return
    grid = puzzle.grid
    from satdoku.deadline import Deadline
    if args.solver == "native":
        from satdoku.native.search import NativeSolver
        solver = NativeSolver()
    else:
        from satdoku.sat.solver import SatSolver
        reduction = {"propagate": args.propagate, "locked": args.locked}
        if args.pairwise_max is not None:
            reduction["pairwise_max"] = args.pairwise_max
        solver = SatSolver(args.sat_solver, "reduced", args.amo, reduction=reduction,
                           max_clauses=None)
    t2 = time.perf_counter()
    result = solver.solve(grid, limit=args.limit, deadline=Deadline(args.timeout, t0))
    t3 = time.perf_counter()
    problems = []
    for answer in (result.solution, result.second):
        if answer is not None:
            problems += solution_problems(answer, grid)
    t4 = time.perf_counter()
    text = format_grid(result.solution, "line", puzzle.alphabet) if result.solution else ""
    t5 = time.perf_counter()
    stats = result.stats
    row = {
        "n": grid.size, "clues": grid.nclues,
        "status": "wrong" if problems else result.status,
        "parse_ms": (t1 - t0) * 1000, "solve_total_ms": (t3 - t2) * 1000,
        "encode_ms": stats.get("encode_ms"), "propagate_ms": stats.get("propagate_ms"),
        "load_ms": stats.get("load_ms"), "solve_ms": stats.get("solve_ms", (t3 - t2) * 1000),
        "verify_ms": (t4 - t3) * 1000, "print_ms": (t5 - t4) * 1000,
        "total_s": (t5 - t0), "cpu_s": time.process_time() - c0,
        "variables": stats.get("variables"),
        "clauses": stats.get("clauses"), "conflicts": stats.get("conflicts"),
        "propagated": stats.get("propagated"), "chars": len(text),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print(json.dumps(row))


def _run(path: Path, args: argparse.Namespace) -> dict:
    cmd = [sys.executable, __file__, "--child", str(path), "--solver", args.solver,
           "--limit", str(args.limit)]
    if args.sat_solver:
        cmd += ["--sat-solver", args.sat_solver]
    if args.amo:
        cmd += ["--amo", args.amo]
    if args.pairwise_max is not None:
        cmd += ["--pairwise-max", str(args.pairwise_max)]
    if args.timeout:
        cmd += ["--timeout", str(args.timeout)]
    if not args.propagate:
        cmd.append("--no-propagate")
    if args.locked:
        cmd.append("--locked")
    start = time.perf_counter()
    # the child keeps its own time limit; this one only catches a solver that ignores it
    hard_limit = None if args.timeout is None else args.timeout * 2 + 120
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=hard_limit)
    except subprocess.TimeoutExpired:
        return {"status": "killed", "total_s": time.perf_counter() - start}
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        return {"status": f"crash ({done.returncode}): {last[-200:]}",
                "total_s": time.perf_counter() - start}
    row = json.loads(lines[-1])
    row["wall_s"] = time.perf_counter() - start  # includes starting Python and imports
    return row


COLUMNS = [("file", "{}"), ("N", "{}"), ("clues", "{}"), ("status", "{}"),
           ("parse ms", "{:.0f}"), ("encode ms", "{:.0f}"), ("(singles ms)", "{:.0f}"),
           ("load ms", "{:.0f}"), ("solve ms", "{:.0f}"), ("verify ms", "{:.0f}"),
           ("print ms", "{:.0f}"), ("vars", "{}"), ("conflicts", "{}"), ("total s", "{:.2f}"),
           ("cpu s", "{:.2f}"), ("wall s", "{:.2f}"), ("peak MB", "{:.0f}")]
KEYS = [None, "n", "clues", "status", "parse_ms", "encode_ms", "propagate_ms", "load_ms",
        "solve_ms", "verify_ms", "print_ms", "variables", "conflicts", "total_s", "cpu_s", "wall_s",
        "peak_mb"]


def _cell(row: dict, key: str | None, fmt: str, name: str) -> str:
    value = name if key is None else row.get(key)
    if value is None:
        return ""
    try:
        return fmt.format(value)
    except (ValueError, TypeError):
        return str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--solver", choices=["sat", "native"], default="sat")
    parser.add_argument("--sat-solver", default=None)
    parser.add_argument("--amo", default=None)
    parser.add_argument("--pairwise-max", type=int, default=None)
    parser.add_argument("--no-propagate", dest="propagate", action="store_false")
    parser.add_argument("--locked", action="store_true",
                        help="locked candidates (pointing, claiming) between singles")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per puzzle")
    parser.add_argument("--limit", type=int, default=1, help="2 also proves uniqueness")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args)
        return
    if not args.files and not DEFAULT_DIR.is_dir():
        sys.exit(f"{DEFAULT_DIR} is absent: put the shared puzzle collections beside the "
                 f"checkout, or name the files")
    files = args.files or sorted(DEFAULT_DIR.glob("*.txt"),
                                 key=lambda p: (int(p.stem.split("-")[-2]), p.name))
    what = args.solver if args.solver == "native" else \
        f"sat:{args.sat_solver or 'default'} reduced" + ("" if args.propagate else " no singles") \
        + (" + locked candidates" if args.locked else "")
    print(f"satdoku large puzzles, {what}, limit {args.limit}, timeout {args.timeout}, "
          f"{os.cpu_count()} cores\n")
    print("| " + " | ".join(name for name, _ in COLUMNS) + " |")
    print("|" + "|".join("---" for _ in COLUMNS) + "|")
    for path in files:
        row = _run(path, args)
        cells = [_cell(row, key, fmt, path.stem if key is None else "")
                 for (name, fmt), key in zip(COLUMNS, KEYS)]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
