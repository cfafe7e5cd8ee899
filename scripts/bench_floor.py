"""The floor: what python-sat alone costs per 9x9 puzzle, beside what satdoku costs.

For each of the three 9x9 collections (17_clue, magictour_top1465, forum_hardest_1106) it times:

- floor solve: satdoku's base formula (``encode_base``, the default encoding), the same SAT
  solver and ``SOLVER_OPTIONS``, loaded once; per puzzle ``solve(assumptions=clues)`` and
  ``get_model()``, nothing else.
- floor count: the same loop counting to 2 with the cheapest correct method found
  (docs/floor.md): one solve; when it made no decision (CaDiCaL's decision count does not count
  assumptions) unit propagation forced the grid, so it is the only one; else a blocking clause
  over the true non-clue variables guarded by a fresh activation literal, a second solve under
  ``clues + [act]`` with those variables' phases forced negative (positive again after), and
  the unit ``[-act]``. Cell variables' phases are forced positive once per solver, ``lucky`` is
  0, and the solver is rebuilt every ``--rebuild`` puzzles (both loops).
- library: ``satdoku.tasks.solvers.make_solver('sat', stats=False)`` (what the CLI builds, counting
  as a batch does: ``steer``) and ``satdoku.tasks.solvers.solve`` per puzzle, in-process; grids are
  built before the clock starts (so the givens are checked here, by the parser in the CLI).
- end to end: ``satdoku solve FILE --format line`` and ``satdoku count FILE --format line`` in a
  subprocess, stdout to /dev/null: wall time, Python start-up and parsing included, as a user
  waits for it. Start-up alone is measured on a one-puzzle file and printed, and subtracted in
  the last columns. Bytecode is cached in a temporary folder (warmed by an untimed run), as
  after a normal install, even where PYTHONDONTWRITEBYTECODE is set (``--no-bytecode-cache``:
  the environment as it is; recompiling satdoku's modules costs about 100 ms a run).
- start-up: ``satdoku solve PUZZLE --format line`` (the first 17-clue puzzle inline) beside
  ``python -c "import pysat.solvers"`` (the same interpreter and environment), every round.

Reading the files is not timed. The floors' answers are checked once, untimed, against the
library's (solutions and counts). The measured things alternate within a round (A B A B), for
``--rounds`` rounds, and the median is reported, with ``uptime`` and the date. The satdoku
imports sit in the few ``satdoku_*`` functions below, so a renamed API means one edit there.

    python scripts/bench_floor.py                     # every puzzle of the three files
    python scripts/bench_floor.py --first 2000        # the first 2000 of each file
    python scripts/bench_floor.py --first 500 --rounds 1 --only floor,library
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from processes import run_timed, satdoku_command

PUZZLES = Path(os.environ.get("SATDOKU_PUZZLES",
                              Path(__file__).resolve().parents[1].parent / "shared" / "puzzles"))
FILES = {
    "17_clue": "9x9/17_clue.txt",
    "top1465": "9x9/magictour_top1465.txt",
    "hardest": "9x9/forum_hardest_1106.txt",
}
KINDS = ("floor", "library", "e2e")
TASKS = ("solve", "count")
N3 = 729  # variables "cell holds digit" of a 9x9 grid: var(cell, d) = 9*cell + d


# --- the only places that import satdoku -----------------------------------------------------

def satdoku_formula() -> tuple[list[list[int]], dict[str, int], str]:
    """(base clauses, solver options, SAT solver name) as satdoku loads its 9x9 engine."""
    from satdoku.cnf.formula import encode_base
    from satdoku.model.geometry import geometry
    from satdoku.sat import solver as sat
    name = getattr(sat, "DEFAULT_SAT_SOLVER", "cadical195")
    options = dict(getattr(sat, "SOLVER_OPTIONS", {}).get(name) or {})
    return encode_base(geometry(3, 3)).clauses, options, name


def satdoku_clues(puzzles: list[tuple[int, ...]]) -> list[list[int]]:
    """The assumption literals of each puzzle, from satdoku's ``clue_literals``."""
    from satdoku.cnf.varmap import clue_literals
    from satdoku.model.geometry import geometry
    from satdoku.model.grid import Grid
    geo = geometry(3, 3)
    return [clue_literals(Grid(geo, cells)) for cells in puzzles]


def satdoku_library(puzzles: list[tuple[int, ...]], limit: int
                    ) -> Callable[[], list[tuple[str, tuple[int, ...] | None]]]:
    """A function that solves every puzzle through satdoku's library path: (status, solution)."""
    from satdoku.model.geometry import geometry
    from satdoku.model.grid import Grid
    from satdoku.tasks.solvers import make_solver, solve
    geo = geometry(3, 3)
    grids = [Grid(geo, cells) for cells in puzzles]

    def run() -> list[tuple[str, tuple[int, ...] | None]]:
        try:
            solver = make_solver("sat", stats=False)  # what the CLI builds without --stats
        except TypeError:
            solver = make_solver("sat")
        if hasattr(solver, "steer"):
            solver.steer = True  # as a batch of the CLI counts (satdoku.tasks.solvers.SolveTask)
        try:
            results = [solve(solver, grid, limit=limit) for grid in grids]
        finally:
            solver.close()
        return [(r.status, r.solution.cells if r.solution is not None else None)
                for r in results]

    return run


# --- the floors ------------------------------------------------------------------------------

def read_lines(path: Path, first: int | None) -> list[str]:
    """The puzzle lines of a one-puzzle-a-line file (blank and ``#`` lines skipped)."""
    out: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as fp:
        for line in fp:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line[:81])
                if first is not None and len(out) >= first:
                    break
    return out


def cells_of(line: str) -> tuple[int, ...]:
    return tuple(int(ch) if ch in "123456789" else 0 for ch in line)


def digits(model: list[int]) -> tuple[int, ...]:
    return tuple([(v - 1) % 9 + 1 for v in model[:N3] if v > 0])


class Floor:
    """The bare python-sat loops over one solver kind, rebuilt every ``rebuild`` puzzles."""

    def __init__(self, clauses: list[list[int]], options: dict[str, int], name: str,
                 rebuild: int, positive_phases: bool) -> None:
        self.clauses, self.options, self.name = clauses, options, name
        self.rebuild = rebuild
        self.positive_phases = positive_phases

    def new_solver(self):
        from pysat.solvers import Solver
        solver = Solver(name=self.name)
        if self.options:
            solver.solver.configure(self.options)
        solver.append_formula(self.clauses)
        if self.positive_phases:
            solver.set_phases(range(1, N3 + 1))  # forced phases: they persist across solves
        return solver

    def solve(self, clues: list[list[int]], keep: bool = False) -> list:
        """``solve`` + ``get_model`` per puzzle; ``keep``: return the solutions (untimed check)."""
        rebuild = self.rebuild or len(clues) + 1
        out = []
        solver = self.new_solver()
        for i, assumptions in enumerate(clues, 1):
            answer = solver.solve(assumptions=assumptions)
            model = solver.get_model()
            if keep:
                out.append(digits(model) if answer else None)
            if i % rebuild == 0:
                solver.delete()
                solver = self.new_solver()
        solver.delete()
        return out

    def count(self, clues: list[list[int]], keep: bool = False) -> list:
        """Count to 2 per puzzle (see the module docstring); ``keep``: return the counts."""
        rebuild = self.rebuild or len(clues) + 1
        out = []
        solver = self.new_solver()
        top = N3
        decisions = 0
        for i, assumptions in enumerate(clues, 1):
            count = 0
            if solver.solve(assumptions=assumptions):
                count = 1
                model = solver.get_model()
                done = solver.accum_stats()["decisions"]
                if done != decisions:  # a decision was made: look for a second solution
                    top += 1
                    clue_set = set(assumptions)
                    block = [-v for v in model[:N3] if v > 0 and v not in clue_set]
                    solver.add_clause([-top] + block)
                    solver.set_phases(block)  # search away from the first solution
                    if solver.solve(assumptions=assumptions + [top]):
                        count = 2
                        solver.get_model()
                    solver.set_phases([-v for v in block])  # positive again
                    solver.add_clause([-top])
                    done = solver.accum_stats()["decisions"]
                decisions = done
            else:
                decisions = solver.accum_stats()["decisions"]
            if keep:
                out.append(count)
            if i % rebuild == 0:
                solver.delete()
                solver = self.new_solver()
                top, decisions = N3, 0
        solver.delete()
        return out


# --- timing ----------------------------------------------------------------------------------

def clock(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def cli_env(pycache: Path | None) -> dict[str, str]:
    """The CLI's environment: with ``pycache``, bytecode is cached there (as after a normal
    install) even where PYTHONDONTWRITEBYTECODE is set, and the worktree stays clean."""
    env = dict(os.environ)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


CLI_ENV: dict[str, str] = dict(os.environ)


def run_cli(args: list[str], command: list[str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one CLI run, stdout to /dev/null."""
    run = run_timed((satdoku_command() if command is None else command) + args, env=CLI_ENV)
    if run.code not in (0, 1):
        sys.stderr.write(f"satdoku {' '.join(args)}: exit {run.code}\n{run.stderr[-1000:]}")
    return run.wall, run.cpu


def check_floors(label: str, solve_floor: Floor, count_floor: Floor, clues: list[list[int]],
                 library: dict[str, Callable]) -> None:
    """Untimed: the floors give the library's solutions and counts (warns when they do not)."""
    solutions = solve_floor.solve(clues, keep=True)
    counts = count_floor.count(clues, keep=True)
    lib_solve = library["solve"]()
    lib_count = library["count"]()
    count_of = {"unique": 1, "multiple": 2, "unsolvable": 0, "solved": 1}
    bad = sum(1 for mine, (_, theirs) in zip(solutions, lib_solve) if mine != theirs)
    bad += sum(1 for mine, (status, _) in zip(counts, lib_count)
               if mine != count_of.get(status, -1))
    if bad:
        print(f"warning: {label}: the floors and the library disagree on {bad} answers",
              file=sys.stderr)


def print_table(times: dict, data: dict, kinds: list[str], pick: int, clock_name: str,
                rounds: int) -> None:
    """One markdown table of ``times`` (wall: ``pick`` 0; CPU: 1), medians over the rounds."""

    def median(key: tuple[str, str, str]) -> float | None:
        got = times.get(key)
        return statistics.median(t[pick] for t in got) if got else None

    cpu_note = (" (CPU: this process for floor and library, the child's for e2e)"
                if pick else "")
    print(f"\n{clock_name} time{cpu_note}, median of {rounds} rounds; us = microseconds per "
          f"puzzle, /s = puzzles per second; e2e includes Python start-up\n")
    ratios = [k for k in kinds if k != "floor"] if "floor" in kinds else []
    startup = median(("start-up", "solve", "e2e"))
    head = "| file | puzzles | task |"
    rule = "|---|---:|---|"
    for kind in kinds:
        head += f" {kind} us | {kind} /s |"
        rule += "---:|---:|"
    for kind in ratios:
        head += f" {kind} / floor |"
        rule += "---:|"
    if startup is not None:
        head += " e2e - start-up us | (e2e - start-up) / floor |"
        rule += "---:|---:|"
    print(head)
    print(rule)
    for label, (n, *_rest) in data.items():
        for task in TASKS:
            row = f"| {label} | {n} | {task} |"
            per = {}
            for kind in kinds:
                t = median((label, task, kind))
                per[kind] = t
                row += (f" {t / n * 1e6:,.0f} | {n / t:,.0f} |" if t else " - | - |")
            for kind in ratios:
                row += (f" {per[kind] / per['floor']:.2f} |"
                        if per.get(kind) and per.get("floor") else " - |")
            if startup is not None:
                net = per["e2e"] - startup
                row += f" {net / n * 1e6:,.0f} |"
                row += f" {net / per['floor']:.2f} |" if per.get("floor") else " - |"
            print(row)
    if startup is not None:
        print(f"\nstart-up: `satdoku solve` of a one-puzzle file (the first 17-clue puzzle), "
              f"{clock_name} {startup * 1000:.0f} ms (part of every e2e figure)")
    inline, pysat = median(("start-up", "inline", "e2e")), median(("start-up", "pysat", "e2e"))
    if inline is not None and pysat is not None:
        print(f"start-up: `satdoku solve PUZZLE --format line` {inline * 1000:.1f} ms, "
              f"`python -c 'import pysat.solvers'` {pysat * 1000:.1f} ms, {clock_name}: "
              f"{(inline - pysat) * 1000:.1f} ms more (target: at most 60)")


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "uptime unavailable"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fp:
            cpu = next((line.split(":", 1)[1].strip() for line in fp
                        if line.startswith("model name")), cpu)
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="the first N puzzles of each file (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported")
    parser.add_argument("--startup-runs", type=int, default=5, metavar="N",
                        help="runs of each start-up command per round (default 5)")
    parser.add_argument("--files", default=",".join(FILES),
                        help=f"comma-separated, of {', '.join(FILES)}")
    parser.add_argument("--only", default=",".join(KINDS),
                        help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--rebuild", type=int, default=2000, metavar="N",
                        help="the floors rebuild their solver every N puzzles (0: never)")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="run the CLI in this environment as it is (by default bytecode "
                             "is cached in a temporary folder, as after a normal install)")
    args = parser.parse_args(argv)
    if not PUZZLES.is_dir():
        print(f"bench_floor: no puzzle collections at {PUZZLES} (set SATDOKU_PUZZLES)",
              file=sys.stderr)
        return 2
    files = [f for f in args.files.split(",") if f]
    kinds = [k for k in args.only.split(",") if k]
    unknown = [f for f in files if f not in FILES] + [k for k in kinds if k not in KINDS]
    if unknown:
        print(f"bench_floor: unknown {', '.join(unknown)}", file=sys.stderr)
        return 2

    clauses, options, name = satdoku_formula()
    # solve: exactly satdoku's solver and options; count: plus the forced positive phases
    solve_floor = Floor(clauses, options, name, args.rebuild, positive_phases=False)
    # lucky phases assign without counting decisions: off, so "no decision" means "forced"
    count_floor = Floor(clauses, {**options, "lucky": 0}, name, args.rebuild,
                        positive_phases=True)
    print(f"# bench_floor {time.strftime('%Y-%m-%d %H:%M %Z')}")
    print(f"# {machine()}; {name} options {options}")
    print(f"# load before: {uptime()}")
    print(f"# command: {' '.join([Path(sys.argv[0]).name] + (argv or sys.argv[1:]))}")

    data = {}
    global CLI_ENV
    with tempfile.TemporaryDirectory() as tmp:
        CLI_ENV = cli_env(None if args.no_bytecode_cache else Path(tmp) / "pycache")
        if "e2e" in kinds:
            print(f"# CLI: {' '.join(satdoku_command())}; bytecode "
                  f"{'as the environment has it' if args.no_bytecode_cache else 'cached'} "
                  f"(PYTHONDONTWRITEBYTECODE={CLI_ENV.get('PYTHONDONTWRITEBYTECODE', 'unset')})")
        for label in files:
            path = PUZZLES / FILES[label]
            lines = read_lines(path, args.first)
            puzzles = [cells_of(line) for line in lines]
            clues = satdoku_clues(puzzles)
            library = {task: satdoku_library(puzzles, 1 if task == "solve" else 2)
                       for task in TASKS}
            source = Path(tmp) / f"{label}.txt"
            source.write_text("\n".join(lines) + "\n")
            if "floor" in kinds and "library" in kinds:
                check_floors(label, solve_floor, count_floor, clues, library)
            data[label] = (len(lines), clues, library, source)
        one = Path(tmp) / "one.txt"
        one.write_text(read_lines(PUZZLES / FILES["17_clue"], 1)[0] + "\n")
        if "e2e" in kinds:
            for task in TASKS:  # untimed: fills the bytecode cache, warms the file cache
                run_cli([task, str(one), "--format", "line"])

        things: list[tuple[str, str, str, Callable[[], tuple[float, float]]]] = []
        for label, (n, clues, library, source) in data.items():
            for task in TASKS:
                if "floor" in kinds:
                    loop = solve_floor.solve if task == "solve" else count_floor.count
                    things.append((label, task, "floor",
                                   lambda f=loop, c=clues: clock(lambda: f(c))))
                if "library" in kinds:
                    things.append((label, task, "library",
                                   lambda f=library[task]: clock(f)))
                if "e2e" in kinds:
                    things.append((label, task, "e2e", lambda t=task, s=source: run_cli(
                        [t, str(s), "--format", "line"])))
        if "e2e" in kinds:
            puzzle = read_lines(PUZZLES / FILES["17_clue"], 1)[0]
            for _ in range(args.startup_runs):  # A B A B within the round
                things.append(("start-up", "solve", "e2e",
                               lambda: run_cli(["solve", str(one), "--format", "line"])))
                things.append(("start-up", "inline", "e2e",
                               lambda: run_cli(["solve", puzzle, "--format", "line"])))
                things.append(("start-up", "pysat", "e2e", lambda: run_cli(
                    ["-c", "import pysat.solvers"], [sys.executable])))

        times: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
        for _ in range(args.rounds):
            for label, task, kind, fn in things:
                times.setdefault((label, task, kind), []).append(fn())
    print(f"# load after: {uptime()}")

    for pick, clock_name in ((0, "wall"), (1, "CPU")):
        print_table(times, data, kinds, pick, clock_name, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
