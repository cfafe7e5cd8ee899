"""Puzzles per second of the real CLI, ``satdoku solve FILE --format line``, end to end.

For each file and SAT solver it runs the command as a subprocess (stdout to /dev/null) and
reports wall-clock and CPU puzzles/s (CPU: user + system of the child, from ``os.wait4``, which
a loaded machine inflates less than wall time). Then the same with ``--fresh`` (a new solver
per puzzle) on the first ``--fresh-limit`` puzzles, to show what the incremental path buys.
Peter Norvig's published figures (../shared/puzzles/README.md) and his solver timed in the same
run (scripts/norvig.py, --norvig N) are printed beside them. Output is a markdown table.

Every timed run includes Python start-up (~0.3 s): it is part of what a user waits for.

    python scripts/bench_sat.py                  # the three 9x9 sets, three solvers
    python scripts/bench_sat.py --quick          # 300 puzzles a file, default solver only
    python scripts/bench_sat.py --jobs 2         # pass --jobs 2 to the CLI
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from processes import run_timed, satdoku_command

PUZZLES = Path(os.environ.get("SATDOKU_PUZZLES",
                              Path(__file__).resolve().parents[1].parent / "shared" / "puzzles"))

#: (file, Norvig's puzzles/s on this kind of machine) from the shared README.
SETS = {
    "17_clue": ("9x9/17_clue.txt", 453),
    "top1465": ("9x9/magictour_top1465.txt", 167),
    "hardest": ("9x9/forum_hardest_1106.txt", 35),
}
SOLVERS = ("minisat22", "glucose4", "default")


@dataclass
class Run:
    label: str
    solver: str
    mode: str  # incremental / fresh
    jobs: int
    puzzles: int
    wall: float
    cpu: float
    exit_code: int
    norvig: float
    norvig_now: float | None = None  # Norvig's solver timed in this run, same machine and load

    @property
    def rate(self) -> float:
        return self.puzzles / self.wall if self.wall else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.puzzles / self.cpu if self.cpu else 0.0


def count_puzzles(path: Path) -> int:
    """Puzzles in a one-puzzle-a-line file: lines that are not blank or ``#`` comments."""
    with open(path, encoding="utf-8", errors="replace") as fp:
        return sum(1 for line in fp if line.strip() and not line.lstrip().startswith("#"))


def first_puzzles(path: Path, limit: int, directory: str) -> tuple[Path, int]:
    """A file holding the first ``limit`` puzzles of ``path`` (the file itself if it has fewer)."""
    total = count_puzzles(path)
    if total <= limit:
        return path, total
    out = Path(directory) / f"{path.stem}.first{limit}.txt"
    with open(path, encoding="utf-8", errors="replace") as src, open(out, "w") as dst:
        lines = (line for line in src if line.strip() and not line.lstrip().startswith("#"))
        dst.writelines(itertools.islice(lines, limit))
    return out, limit


def cli_has_jobs() -> bool:
    done = subprocess.run(satdoku_command() + ["solve", "--help"], capture_output=True,
                          text=True)
    return "--jobs" in done.stdout


def command(path: Path, solver: str, *, fresh: bool, jobs: int) -> list[str]:
    cmd = satdoku_command() + ["solve", str(path), "--format", "line"]
    if solver != "default":
        cmd += ["--sat-solver", solver]
    if fresh:
        cmd.append("--fresh")
    if jobs != 1:
        cmd += ["--jobs", str(jobs)]
    return cmd


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """(wall s, CPU s of the process and the workers it reaped, exit code) of one run."""
    run = run_timed(cmd)
    if run.code not in (0, 1):
        sys.stderr.write(f"{' '.join(cmd)}: exit {run.code}\n{run.stderr}")
    return run.wall, run.cpu, run.code


def run_all(args: argparse.Namespace) -> list[Run]:
    rows: list[Run] = []
    jobs = args.jobs
    if jobs != 1 and not cli_has_jobs():
        print("note: this satdoku has no --jobs; running single-process", file=sys.stderr)
        jobs = 1
    with tempfile.TemporaryDirectory(prefix="bench_sat.") as tmp:
        for label in args.files:
            name, norvig = SETS[label]
            path = PUZZLES / name
            if not path.exists():
                print(f"skipped {label}: {path} not found", file=sys.stderr)
                continue
            inc_path, inc_n = (first_puzzles(path, args.limit, tmp) if args.limit
                               else (path, count_puzzles(path)))
            fresh_path, fresh_n = first_puzzles(path, args.fresh_limit, tmp)
            norvig_now = time_norvig(path, args.norvig) if args.norvig else None
            for solver in args.solvers:
                modes = [("incremental", inc_path, inc_n)]
                if args.fresh_limit:
                    modes.append(("fresh", fresh_path, fresh_n))
                for mode, p, n in modes:
                    best = None
                    for _ in range(args.repeat):
                        wall, cpu, code = timed(command(p, solver, fresh=mode == "fresh",
                                                        jobs=jobs))
                        run = Run(label, solver, mode, jobs, n, wall, cpu, code, norvig,
                                  norvig_now)
                        if best is None or run.wall < best.wall:
                            best = run
                    rows.append(best)
                    print(f"{label} {solver} {mode}: {best.rate:,.0f}/s wall, "
                          f"{best.cpu_rate:,.0f}/s CPU", file=sys.stderr)
    return rows


def time_norvig(path: Path, limit: int) -> float:
    """Puzzles/s (wall) of Peter Norvig's solver (scripts/norvig.py) on the first ``limit``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import norvig
    grids = norvig.read_grids(str(path), limit)
    start = time.perf_counter()
    for grid in grids:
        norvig.solve(grid)
    rate = len(grids) / (time.perf_counter() - start)
    print(f"{path.name}: Norvig {rate:,.1f}/s on {len(grids)} puzzles", file=sys.stderr)
    return rate


def format_table(rows: list[Run]) -> str:
    lines = [
        "| set | solver | mode | jobs | puzzles | wall s | puzzles/s (wall) | puzzles/s (CPU) "
        "| Norvig /s (README) | x Norvig (README) | Norvig /s (this run) | x Norvig (this run) "
        "|",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ratio = r.rate / r.norvig
        now = f"{r.norvig_now:,.0f} | {r.rate / r.norvig_now:.1f}" if r.norvig_now else "- | -"
        note = "" if r.exit_code in (0, 1) else f" (exit {r.exit_code})"
        lines.append(f"| {r.label} | {r.solver} | {r.mode} | {r.jobs} | {r.puzzles:,} "
                     f"| {r.wall:.2f} | {r.rate:,.0f}{note} | {r.cpu_rate:,.0f} | {r.norvig} "
                     f"| {ratio:.1f} | {now} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--solvers", nargs="+", default=list(SOLVERS),
                        help="python-sat names, or 'default' (no --sat-solver)")
    parser.add_argument("--limit", type=int, default=None,
                        help="only the first N puzzles of each file (for development)")
    parser.add_argument("--fresh-limit", type=int, default=500,
                        help="puzzles for the --fresh comparison (0: skip it)")
    parser.add_argument("--jobs", type=int, default=1, help="pass --jobs N to the CLI")
    parser.add_argument("--norvig", type=int, default=1000, metavar="N",
                        help="also time Norvig's solver (scripts/norvig.py) on the first N "
                             "puzzles of each set, in this run (0: skip)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each command; the fastest (wall) is reported")
    parser.add_argument("--quick", action="store_true",
                        help="development run: 300 puzzles a file, default solver, "
                             "100 for --fresh")
    args = parser.parse_args(argv)
    if args.quick:
        args.norvig = min(args.norvig, 100)
        args.limit = args.limit or 300
        args.fresh_limit = min(args.fresh_limit, 100)
        if args.solvers == list(SOLVERS):
            args.solvers = ["default"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = run_all(args)
    print(f"satdoku solve FILE --format line [--sat-solver S] [--fresh] [--jobs N]; "
          f"{platform.node()}, {os.cpu_count()} CPUs, load average {load:.2f} at start, "
          f"{os.getloadavg()[0]:.2f} at end\n")
    print(format_table(rows))
    return 0 if all(r.exit_code in (0, 1) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
