#!/usr/bin/env python3
"""Speed-up of ``--jobs N`` over ``--jobs 1``: the command line end to end, and the library.

Each run is a fresh process, timed from start to exit, stdout to /dev/null:

- ``cli`` (default): ``satdoku solve FILE --format line --jobs N`` and ``satdoku count FILE
  --format line --jobs N``, parsing, solving, verifying and printing, as a user runs it;
- ``library``: a child that passes ``satdoku.io.inputs.iter_inputs([FILE])`` (what the command
  line passes) to ``satdoku.run.stream.stream`` and drops the outcomes: parse, solve and
  verify, no printing; it also reports the peak RSS of the parent and of the largest worker.

The runs alternate within each round (jobs 1, jobs 2, ... for each task, A B A B) and the
median of ``--rounds`` is reported, wall time and CPU time (the process and its workers), with
``uptime`` before and after: the speed-up is only meaningful on a quiet machine (load average
well under 1 beside the run). Bytecode is cached in a temporary folder (warmed by an untimed
run), as after a normal install.

    python scripts/bench_parallel.py                           # 17-clue, solve and count, 1 and 2
    python scripts/bench_parallel.py FILE --jobs 1 2 --tasks solve --rounds 5
    python scripts/bench_parallel.py --mode library --count 10000 --chunk-size 256
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from processes import run_timed, satdoku_command

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "puzzles" / "9x9" / "17_clue.txt"
ENV: dict[str, str] = dict(os.environ)


def _child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from satdoku.io.inputs import iter_inputs
    from satdoku.run.stream import stream
    from satdoku.tasks.solvers import search_options

    options = search_options(1 if args.tasks == "solve" else 2)
    puzzles = iter_inputs([args.child])
    start = time.perf_counter()
    outcomes = stream(puzzles, options, jobs=args.jobs[0], chunk_size=args.chunk_size)
    if args.count:
        outcomes = itertools.islice(outcomes, args.count)
    statuses = collections.Counter(o.result.status for o in outcomes)
    elapsed = time.perf_counter() - start
    total = sum(statuses.values())
    print(json.dumps({
        "puzzles": total, "seconds": elapsed, "statuses": dict(statuses),
        "parent_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }))


def run(cmd: list[str]) -> tuple[float, float, str]:
    """(wall s, CPU s of the process and its workers, stdout) of one run."""
    done = run_timed(cmd, keep_stdout=True, env=ENV)
    if done.code not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {done.code}\n{done.stderr[-1000:]}")
    return done.wall, done.cpu, done.stdout or ""


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "uptime unavailable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tasks", default="solve,count", help="comma-separated: solve, count")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mode", choices=["cli", "library"], default="cli")
    parser.add_argument("--count", type=int, default=None,
                        help="library mode: the first COUNT puzzles only")
    parser.add_argument("--chunk-size", type=int, default=256,
                        help="library mode: lines (puzzles) a task")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args)
        return
    if not args.file.is_file():
        sys.exit(f"{args.file} is absent: put the shared puzzle collections beside the "
                 f"checkout, or name a file")
    tasks = [t for t in args.tasks.split(",") if t]
    print(f"# bench_parallel {time.strftime('%Y-%m-%d %H:%M %Z')}, {args.file.name}, "
          f"mode {args.mode}, {os.cpu_count()} CPUs")
    print(f"# load before: {uptime()}")
    with tempfile.TemporaryDirectory() as tmp:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")

        def cmd(task: str, jobs: int) -> list[str]:
            if args.mode == "cli":
                return satdoku_command() + [task, str(args.file), "--format", "line",
                                            "--jobs", str(jobs)]
            return [sys.executable, __file__, "--child", str(args.file), "--jobs", str(jobs),
                    "--tasks", task, "--chunk-size", str(args.chunk_size)] + (
                        ["--count", str(args.count)] if args.count else [])

        one = Path(tmp) / "one.txt"
        one.write_text(args.file.read_text().splitlines()[-1] + "\n")
        run(satdoku_command() + ["solve", str(one), "--format", "line", "--jobs", "2"])  # warm-up
        times: dict[tuple[str, int], list[tuple[float, float]]] = {}
        extra: dict[tuple[str, int], dict] = {}
        for _ in range(args.rounds):
            for task in tasks:
                for jobs in args.jobs:
                    wall, cpu, out = run(cmd(task, jobs))
                    times.setdefault((task, jobs), []).append((wall, cpu))
                    if args.mode == "library":
                        row = json.loads(out.strip().splitlines()[-1])
                        extra[(task, jobs)] = row
                        times[(task, jobs)][-1] = (row["seconds"], cpu)
                    else:
                        extra[(task, jobs)] = {"puzzles": len(out.splitlines())}
    print(f"# load after: {uptime()}\n")
    print(f"median of {args.rounds} rounds; CPU = the process and its workers")
    print()
    print("| task | jobs | puzzles | wall s | puzzles/s | speed-up (wall) | CPU s | "
          "CPU / jobs 1 |" + (" parent MB | worker MB |" if args.mode == "library" else ""))
    print("|---|---:|---:|---:|---:|---:|---:|---:|" +
          ("---:|---:|" if args.mode == "library" else ""))
    for task in tasks:
        base_wall = base_cpu = None
        for jobs in args.jobs:
            got = times[(task, jobs)]
            wall = statistics.median(w for w, _ in got)
            cpu = statistics.median(c for _, c in got)
            base_wall, base_cpu = base_wall or wall, base_cpu or cpu
            n = extra[(task, jobs)]["puzzles"]
            row = (f"| {task} | {jobs} | {n} | {wall:.2f} | {n / wall:,.0f} | "
                   f"{base_wall / wall:.2f}x | {cpu:.2f} | {cpu / base_cpu:.2f} |")
            if args.mode == "library":
                e = extra[(task, jobs)]
                row += f" {e['parent_mb']:.0f} | {e['worker_mb']:.0f} |"
            print(row)
        print("\n" if task != tasks[-1] else "", end="")
    for task in tasks:
        rounds = ", ".join(f"jobs {j}: " + " ".join(f"{w:.2f}" for w, _ in times[(task, j)])
                           for j in args.jobs)
        print(f"\n{task} wall per round: {rounds}", end="")
    print()


if __name__ == "__main__":
    main()
