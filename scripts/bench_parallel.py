#!/usr/bin/env python3
"""Puzzles per second and peak memory of a batch with 1, 2, ... worker processes.

Each run is a fresh child process that reads the file, solves every puzzle through
``satdoku.batch.solve_batch`` (what ``satdoku solve --jobs N`` calls) and drops the outcomes,
so the figures are parse + solve + verify, without printing.

    python scripts/bench_parallel.py                      # 17-clue file, jobs 1 and 2
    python scripts/bench_parallel.py FILE --jobs 1 2 4 --count 10000 --chunk-size 256

Peak RSS is the largest resident set of the parent and of any worker (the pool's workers are
the parent's children).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "puzzles" / "9x9" / "17_clue.txt"


def _child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from satdoku.batch import SolveOptions, solve_batch
    from satdoku.formats import read_puzzles

    options = SolveOptions(solver=args.solver, sat_solver=args.sat_solver, stats=False)
    puzzles = read_puzzles(args.child)
    if args.count:
        puzzles = itertools.islice(puzzles, args.count)
    start = time.perf_counter()
    statuses = collections.Counter(o.result.status for o in solve_batch(
        puzzles, options, jobs=args.jobs[0], chunk_size=args.chunk_size))
    elapsed = time.perf_counter() - start
    total = sum(statuses.values())
    print(json.dumps({
        "jobs": args.jobs[0], "puzzles": total, "seconds": elapsed, "per_s": total / elapsed,
        "statuses": dict(statuses),
        "parent_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--count", type=int, default=None, help="first COUNT puzzles only")
    parser.add_argument("--chunk-size", type=int, default=256)
    parser.add_argument("--solver", choices=["sat", "native"], default="sat")
    parser.add_argument("--sat-solver", default=None)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args)
        return
    if not args.file.is_file():
        sys.exit(f"{args.file} is absent: put the shared puzzle collections beside the "
                 f"checkout, or name a file")
    print(f"{args.file.name}, {args.solver}{':' + args.sat_solver if args.sat_solver else ''}, "
          f"chunk {args.chunk_size}\n")
    print("| jobs | puzzles | seconds | puzzles/s | speed-up | statuses | parent MB | worker MB |")
    print("|---|---|---|---|---|---|---|---|")
    base = None
    for jobs in args.jobs:
        cmd = [sys.executable, __file__, "--child", str(args.file), "--jobs", str(jobs),
               "--chunk-size", str(args.chunk_size), "--solver", args.solver]
        if args.count:
            cmd += ["--count", str(args.count)]
        if args.sat_solver:
            cmd += ["--sat-solver", args.sat_solver]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            print(f"| {jobs} | crashed: {done.stderr.strip()[-300:]} |")
            continue
        row = json.loads(done.stdout.strip().splitlines()[-1])
        base = base or row["per_s"]
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(row["statuses"].items()))
        print(f"| {jobs} | {row['puzzles']} | {row['seconds']:.2f} | {row['per_s']:.0f} | "
              f"{row['per_s'] / base:.2f}x | {statuses} | {row['parent_mb']:.0f} | "
              f"{row['worker_mb']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
