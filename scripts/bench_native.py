"""Benchmark the native solver on puzzle files, alone or side by side with another search.py.

    python scripts/bench_native.py --set 16x16                  # every 16x16 file, count to 2, 10 s
    python scripts/bench_native.py --set 25x25                  # gecode_frisch, count to 2, 60 s
    python scripts/bench_native.py --set 9x9 --baseline /tmp/search.py --rounds 2
    python scripts/bench_native.py FILE... [--first N] [--limit 1|2] [--timeout S] [--profile]
                                   [--baseline PATH [--rounds K]] [--norvig] [--verbose]

One markdown row per (file, solver): puzzles, solved (before the timeout), solved within the
target (CPU seconds), timeouts, wrong answers, median / max / total seconds, puzzles/s, nodes,
guesses and the share solved without guessing. ``--limit 2`` counts to 2 (proves each puzzle
unique); ``--first N`` takes the first N puzzles of each file. Presets (``--set``) name the files
of ``../shared/puzzles`` with the limit, target and timeout the targets use; options override
them.

Times are CPU seconds of this process (``time.process_time``) per puzzle, so other work on a
busy machine disturbs them less than wall time would; ``--timeout`` is wall time, as in the
solver. ``--baseline PATH`` loads another copy of ``search.py`` (for example the one at the
start of a branch) and solves every puzzle with both, interleaved A B A B for ``--rounds``
rounds; each puzzle's time is its fastest round, and ``x baseline`` is the baseline's total
over this solver's. ``--norvig`` also times Peter Norvig's solver (``scripts/norvig.py``) on the
same 9x9 puzzles.

Every answer is checked with ``grid.is_solution`` after the clock stops, tdoku style; a wrong or
missing answer (a timeout included) is reported and makes the exit code 1.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import math
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "scripts"))

from satdoku.io.text import read_puzzles  # noqa: E402
from satdoku.model.grid import Grid, is_solution  # noqa: E402
from satdoku.native.search import NativeSolver  # noqa: E402

SHARED = ROOT.parent / "shared" / "puzzles"

#: Named sets: (file under ../shared/puzzles, first N or None), limit, target CPU seconds a
#: puzzle, wall timeout (a busy machine stretches wall time, so it is looser than the target).
PRESETS = {
    "9x9": ([("9x9/17_clue.txt", 2000), ("9x9/magictour_top1465.txt", None),
             ("9x9/forum_hardest_1106.txt", None)], 1, None, None),
    "16x16": ([("16x16/forum_tarek_first20.1g.txt", None),
               ("16x16/forum_blue_ultimate.16.txt", None),
               ("16x16/forum_misc.0f.txt", None)], 2, 10.0, 30.0),
    "25x25": ([("25x25/gecode_frisch_25x25.txt", None), ("25x25/rkkautsar_sudoku-25-1.txt", None)],
              2, 60.0, 120.0),
}

HEADER = ("| file | solver | puzzles | solved | within target | timeouts | wrong | median s | "
          "max s | total s | puzzles/s | nodes/puzzle | guesses/puzzle | no guess % | x baseline |")


def _time_limit(solver, timeout: float | None) -> dict:
    """The time limit as the solver takes it: a deadline (satdoku today), or seconds (an older
    copy given with --baseline)."""
    import inspect
    if "deadline" in inspect.signature(solver.solve).parameters:
        from satdoku.deadline import Deadline
        return {"deadline": Deadline(timeout)}
    return {"timeout": timeout}


def load_search(path: str):
    """Another copy of search.py as a module of the satdoku package (its relative imports work)."""
    spec = importlib.util.spec_from_file_location("satdoku._baseline_search", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def read_grids(path: str, first: int | None) -> list[Grid]:
    grids = []
    for puzzle in read_puzzles(path):
        if first is not None and len(grids) >= first:
            break
        if puzzle.grid is None:
            print(f"{path}: skipping a puzzle: {puzzle.error}", file=sys.stderr)
        else:
            grids.append(puzzle.grid)
    return grids


def run(solvers: dict, grids: list[Grid], limit: int, timeout: float | None, rounds: int,
        verbose: bool = False):
    """{name: [(seconds, result)] per puzzle}: every puzzle by every solver, A B A B."""
    out: dict[str, list] = {name: [] for name in solvers}
    for index, grid in enumerate(grids, 1):
        best: dict[str, tuple[float, object]] = {}
        for _ in range(rounds):
            for name, solver in solvers.items():
                start = time.process_time()
                result = solver.solve(grid, limit=limit, **_time_limit(solver, timeout))
                seconds = time.process_time() - start
                if name not in best or seconds < best[name][0]:
                    best[name] = (seconds, result)
        for name in solvers:
            out[name].append(best[name])
            if verbose:
                seconds, result = best[name]
                print(f"  puzzle {index} {name}: {result.status} {seconds:.2f} s "
                      f"{result.stats['nodes']} nodes", file=sys.stderr, flush=True)
    return out


def row(label: str, name: str, grids: list[Grid], runs: list, limit: int,
        target: float | None, baseline_total: float | None) -> tuple[str, bool, float]:
    """(markdown row, every answer right, total seconds)."""
    expected = "unique" if limit >= 2 else "solved"
    n = len(grids)
    times = [s for s, _ in runs]
    total = sum(times)
    solved = within = timeouts = wrong = 0
    for index, (grid, (seconds, result)) in enumerate(zip(grids, runs), 1):
        if result.status == "timeout":
            timeouts += 1
        elif result.status == expected and is_solution(result.solution, grid):
            solved += 1
            within += target is None or seconds <= target
        else:
            wrong += 1
            print(f"{label}: puzzle {index}: {name} says {result.status}", file=sys.stderr)
    nodes = sum(r.stats["nodes"] for _, r in runs) / max(n, 1)
    guesses = sum(r.stats["guesses"] for _, r in runs) / max(n, 1)
    no_guess = 100 * sum(1 for _, r in runs if r.stats["no_guess"]) / max(n, 1)
    ratio = f"{baseline_total / total:.2f}" if baseline_total and total else "-"
    rate = n / total if total else math.inf
    median = statistics.median(times) if times else 0.0
    text = (f"| {label} | {name} | {n} | {solved} | {within} | {timeouts} | {wrong} | "
            f"{median:.3f} | "
            f"{max(times, default=0.0):.3f} | {total:.2f} | {rate:,.1f} | {nodes:,.1f} | "
            f"{guesses:,.1f} | {no_guess:.1f} | {ratio} |")
    return text, wrong + timeouts == 0, total


def bench_norvig(grids: list[Grid], native_rate: float) -> str:
    """Time Norvig's solver (first solution) on the 9x9 ``grids``: one line with native's ratio."""
    import norvig  # scripts/norvig.py, beside this file

    grids = [g for g in grids if g.geometry.shape == "3x3"]
    if not grids:
        return "  norvig: no 9x9 puzzles"
    texts = ["".join(str(d) if d else "." for d in g.cells) for g in grids]
    start = time.process_time()
    answers = [norvig.solve(text) for text in texts]
    elapsed = time.process_time() - start
    wrong = sum(1 for g, v in zip(grids, answers) if not v or not is_solution(
        Grid(g.geometry, tuple(map(int, norvig.solution_string(v)))), g))
    rate = len(grids) / elapsed if elapsed else math.inf
    return (f"  norvig: {len(grids)} puzzles, {rate:.1f} puzzles/s, native/norvig "
            f"{native_rate / rate:.2f}x, {wrong} not solved")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--set", choices=sorted(PRESETS), action="append", default=[],
                        help="a named set of ../shared/puzzles with its limit and timeout")
    parser.add_argument("--first", type=int, default=None, help="only the first N puzzles a file")
    parser.add_argument("--limit", type=int, default=None,
                        help="1: first solution (default); 2: count to 2 (prove unique)")
    parser.add_argument("--timeout", type=float, default=None, help="wall seconds per puzzle")
    parser.add_argument("--target", type=float, default=None,
                        help="CPU seconds a puzzle may take to count as within target")
    parser.add_argument("--baseline", default=None, metavar="SEARCH_PY",
                        help="another search.py to run side by side (A B A B)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of A B (each puzzle's "
                        "fastest round counts)")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile")
    parser.add_argument("--verbose", action="store_true", help="a line per puzzle on stderr")
    parser.add_argument("--norvig", action="store_true",
                        help="also time Norvig's solver on the same 9x9 puzzles "
                             "(scripts/norvig.py)")
    args = parser.parse_args(argv)

    jobs = []  # (path, first, limit, target, timeout)
    for name in args.set:
        files, limit, target, timeout = PRESETS[name]
        if not SHARED.is_dir():
            print(f"--set {name}: the shared puzzles are absent ({SHARED})", file=sys.stderr)
            return 2
        for rel, first in files:
            jobs.append((str(SHARED / rel), args.first if args.first is not None else first,
                         args.limit or limit, args.target if args.target is not None else target,
                         args.timeout if args.timeout is not None else timeout))
    for path in args.files:
        jobs.append((path, args.first, args.limit or 1, args.target, args.timeout))
    if not jobs:
        parser.error("give puzzle files or --set")
    missing = [path for path, *_ in jobs if not Path(path).is_file()]
    if missing:
        print(f"no such puzzle file: {missing[0]} (is ../shared present?)", file=sys.stderr)
        return 2

    solvers = {"native": NativeSolver()}
    if args.baseline:
        solvers["baseline"] = load_search(args.baseline).NativeSolver()
    profiler = cProfile.Profile() if args.profile else None
    print(HEADER)
    print("|---|---|" + "---:|" * 13)
    ok = True
    for path, first, limit, target, timeout in jobs:
        grids = read_grids(path, first)
        label = (f"{Path(path).parent.name}/{Path(path).name} (limit {limit}, target "
                 f"{target if target is not None else '-'} s, timeout "
                 f"{timeout if timeout is not None else '-'} s)")
        if profiler:
            profiler.enable()
        runs = run(solvers, grids, limit, timeout, max(1, args.rounds), args.verbose)
        if profiler:
            profiler.disable()
        base_total = sum(s for s, _ in runs["baseline"]) if "baseline" in runs else None
        for name in solvers:
            text, good, total = row(label, name, grids, runs[name], limit, target,
                                    base_total if name == "native" else None)
            print(text, flush=True)
            if name == "native":
                ok &= good
                if args.norvig:
                    print(bench_norvig(grids, len(grids) / total if total else math.inf))
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
