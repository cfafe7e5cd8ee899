"""Benchmark the native solver on puzzle files, alone or A B against another checkout.

    python scripts/bench_native.py --set 9x9 --baseline /tmp/native-old --rounds 3
    python scripts/bench_native.py --set 16x16 --baseline /tmp/native-old
    python scripts/bench_native.py --set variants --baseline /tmp/native-old --rounds 5
    python scripts/bench_native.py --set 25x25                  # gecode_frisch, count to 2, 60 s
    python scripts/bench_native.py FILE... [--first N] [--limit 1|2] [--timeout S] [--profile]
                                   [--baseline CHECKOUT [--rounds K]] [--norvig] [--verbose]

One markdown row per (file, solver): puzzles, solved (before the timeout), solved within the
target (CPU seconds), timeouts, wrong answers, median / max / total seconds, puzzles/s, nodes,
guesses and the share solved without guessing. ``--limit 2`` counts to 2 (proves each puzzle
unique); ``--first N`` takes the first N puzzles of each file. Presets (``--set``) name the files
of ``../shared/puzzles`` (or ``puzzles/variants`` of this checkout, with their rules) with the
limit, target and timeout the targets use; options override them.

Each solver runs in a worker process that imports the ``satdoku`` package of its own checkout
(this one, and ``--baseline CHECKOUT``, e.g. ``git worktree add --detach /tmp/native-old main``),
so any two versions of ``satdoku/native`` compare, however their modules are laid out. Every
puzzle is solved by both, interleaved A B A B for ``--rounds`` rounds (the first of each pair
alternates); a puzzle's time is the median of its rounds, in CPU seconds of the worker
(``time.process_time``), so other work on a busy machine disturbs it less than wall time would;
``--timeout`` is wall time, as in the solver. ``x baseline`` is the baseline's total over this
checkout's. Nodes and guesses are deterministic: the line ``same nodes and guesses`` (or the
puzzles where they differ) follows each file. The load average is printed before and after.

Every answer is checked with this checkout's ``solution_problems`` (the rules included) after
the clock stops, tdoku style; a wrong or missing answer (a timeout included) is reported and
makes the exit code 1. ``--norvig`` also times Peter Norvig's solver (``scripts/norvig.py``) on
the same 9x9 puzzles.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "puzzles"
if not SHARED.is_dir():  # a worktree beside the main checkout: the shared folder one level up
    SHARED = ROOT.parent.parent / "shared" / "puzzles"
VARIANTS = ROOT / "puzzles" / "variants"
#: Variant puzzles left out of ``--set variants``: native search takes 10 s (boxes) or more than
#: 30 s to prove them unique (docs/variants.md).
SLOW_VARIANTS = ("boxes", "eddies", "minimax-sandwich", "quadiagonal", "sandwich", "tiny-scar")

#: Named sets: (file, first N or None), limit, target CPU seconds a puzzle, wall timeout (a busy
#: machine stretches wall time, so it is looser than the target).
PRESETS = {
    "9x9": ([(SHARED / "9x9/17_clue.txt", 2000), (SHARED / "9x9/magictour_top1465.txt", None),
             (SHARED / "9x9/forum_hardest_1106.txt", None)], 1, None, None),
    "16x16": ([(SHARED / "16x16/forum_tarek_first20.1g.txt", None),
               (SHARED / "16x16/forum_blue_ultimate.16.txt", None),
               (SHARED / "16x16/forum_misc.0f.txt", None)], 2, 10.0, 30.0),
    "25x25": ([(SHARED / "25x25/gecode_frisch_25x25.txt", None),
               (SHARED / "25x25/rkkautsar_sudoku-25-1.txt", None)], 2, 60.0, 120.0),
    "variants": ([(path, None) for path in sorted(VARIANTS.glob("*.json"))
                  if path.stem not in SLOW_VARIANTS], 2, None, 60.0),
}

#: What can be timed (--task).
TASKS = ("search", "ladder", "reduce")

HEADER = ("| file | solver | puzzles | solved | within target | timeouts | wrong | median s | "
          "max s | total s | puzzles/s | nodes/puzzle | guesses/puzzle | no guess % | x baseline |")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def read(path: str, first: int | None) -> list:
    """(grid, constraints) of the first ``first`` puzzles of ``path`` (text, or variant JSON),
    read with whichever ``satdoku`` package is imported."""
    out = []
    if path.endswith(".json"):
        from satdoku.io.variant import read_variants
        entries = [(e.grid, e.constraints) if e.error is None else e.error
                   for e in read_variants(path)]
    else:
        from satdoku.io.text import read_puzzles
        entries = [(p.grid, ()) if p.grid is not None else p.error for p in read_puzzles(path)]
    for entry in entries:
        if first is not None and len(out) >= first:
            break
        if isinstance(entry, tuple):
            out.append(entry)
        else:
            print(f"{path}: skipping a puzzle: {entry}", file=sys.stderr)
    return out


def _timed(task: str, solver, grid, constraints, job: dict) -> tuple[float, dict]:
    """(CPU seconds, answer) of one ``task`` on ``grid``; the answer is made after the clock
    stops."""
    import hashlib
    if task == "search":
        from satdoku.deadline import Deadline
        start = time.process_time()
        result = solver.solve(grid, limit=job["limit"], deadline=Deadline(job["timeout"]),
                              constraints=constraints)
        seconds = time.process_time() - start
        return seconds, {"status": result.status, "stats": result.stats,
                         "solution": list(result.solution.cells) if result.solution else None}
    if task == "ladder":
        from satdoku.native.ladder import se_rate
        from satdoku.native.named import describe
        start = time.process_time()
        rating = se_rate(grid)
        seconds = time.process_time() - start
        output = rating.text + "\n" + "\n".join(describe(s, grid.geometry)
                                                for s in rating.steps)
    else:
        from satdoku.native.reduce import reduce_candidates
        start = time.process_time()
        red = reduce_candidates(grid, locked=True)
        seconds = time.process_time() - start
        output = f"{red.cells} {red.cand} {red.assigned} {red.contradiction}"
    return seconds, {"output": hashlib.sha256(output.encode()).hexdigest()}


def worker(profile: bool) -> int:
    """Serve requests, one JSON line each on stdin, with this process's ``satdoku``."""
    import satdoku
    from satdoku.native.search import NativeSolver

    solver = NativeSolver()
    files: dict[tuple[str, int | None], list] = {}
    profiler = None
    if profile:
        import cProfile
        profiler = cProfile.Profile()
    print(json.dumps({"package": str(Path(satdoku.__file__).parent)}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        key = (job["path"], job["first"])
        if key not in files:
            files[key] = read(*key)
        grid, constraints = files[key][job["index"]]
        if profiler:
            profiler.enable()
        seconds, answer = _timed(job["task"], solver, grid, constraints, job)
        if profiler:
            profiler.disable()
        print(json.dumps({"seconds": seconds, **answer}), flush=True)
    if profiler:
        import pstats
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(15)
    return 0


class Worker:
    """A worker process over the ``satdoku`` package of ``checkout``."""

    def __init__(self, checkout: Path, profile: bool) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(checkout.resolve())
        args = [sys.executable, str(Path(__file__).resolve()), "--worker"]
        self.process = subprocess.Popen(args + ["--profile"] * profile, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env,
                                        cwd=checkout)
        self.package = json.loads(self.process.stdout.readline())["package"]

    def solve(self, **job) -> dict:
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def run(workers: dict, task: str, path: str, first, n: int, limit: int, timeout, rounds: int,
        verbose: bool) -> dict:
    """{name: [(median seconds, last answer)] per puzzle}: every puzzle by every worker, A B."""
    out: dict[str, list] = {name: [] for name in workers}
    names = list(workers)
    for index in range(n):
        times: dict[str, list[float]] = {name: [] for name in names}
        answers: dict[str, dict] = {}
        for r in range(rounds):
            for name in (names if r % 2 == 0 else names[::-1]):
                answer = workers[name].solve(task=task, path=path, first=first, index=index,
                                             limit=limit, timeout=timeout)
                times[name].append(answer["seconds"])
                answers[name] = answer
        for name in names:
            out[name].append((statistics.median(times[name]), answers[name]))
            if verbose:
                a = answers[name]
                print(f"  puzzle {index + 1} {name}: {a.get('status', a.get('output'))} "
                      f"{statistics.median(times[name]):.3f} s", file=sys.stderr, flush=True)
    return out


def row(label: str, name: str, puzzles: list, runs: list, limit: int, target,
        baseline_total) -> tuple[str, bool, float]:
    """(markdown row, every answer right, total seconds)."""
    from satdoku.model.grid import Grid, solution_problems
    expected = "unique" if limit >= 2 else "solved"
    n = len(puzzles)
    times = [s for s, _ in runs]
    total = sum(times)
    solved = within = timeouts = wrong = 0
    for index, ((grid, constraints), (seconds, answer)) in enumerate(zip(puzzles, runs), 1):
        cells = answer["solution"]
        if answer["status"] == "timeout":
            timeouts += 1
        elif answer["status"] == expected and not solution_problems(
                Grid(grid.geometry, tuple(cells)), grid, constraints):
            solved += 1
            within += target is None or seconds <= target
        else:
            wrong += 1
            print(f"{label}: puzzle {index}: {name} says {answer['status']}", file=sys.stderr)
    nodes = sum(a["stats"]["nodes"] for _, a in runs) / max(n, 1)
    guesses = sum(a["stats"]["guesses"] for _, a in runs) / max(n, 1)
    no_guess = 100 * sum(1 for _, a in runs if a["stats"]["no_guess"]) / max(n, 1)
    ratio = f"{baseline_total / total:.3f}" if baseline_total and total else "-"
    rate = n / total if total else math.inf
    median = statistics.median(times) if times else 0.0
    text = (f"| {label} | {name} | {n} | {solved} | {within} | {timeouts} | {wrong} | "
            f"{median:.4f} | {max(times, default=0.0):.3f} | {total:.2f} | {rate:,.1f} | "
            f"{nodes:,.1f} | {guesses:,.1f} | {no_guess:.1f} | {ratio} |")
    return text, wrong + timeouts == 0, total


def task_row(label: str, name: str, runs: list, baseline_total) -> tuple[str, float]:
    """The markdown row of a task other than search: times only."""
    times = [s for s, _ in runs]
    total = sum(times)
    ratio = f"{baseline_total / total:.3f}" if baseline_total and total else "-"
    median = statistics.median(times) if times else 0.0
    rate = len(times) / total if total else math.inf
    return (f"| {label} | {name} | {len(times)} | | | | | {median:.4f} | "
            f"{max(times, default=0.0):.3f} | {total:.2f} | {rate:,.1f} | | | | {ratio} |"), total


def same_output(runs: dict) -> str:
    """Whether both workers gave the same output (a SHA-256 of it) on every puzzle."""
    differ = [i + 1 for i, ((_, x), (_, y)) in enumerate(zip(runs["native"], runs["baseline"]))
              if x["output"] != y["output"]]
    if not differ:
        return "  same output on every puzzle"
    return f"  output differs on {len(differ)} puzzles: {differ[:20]}"


def same_search(runs: dict) -> str:
    """Whether both workers took the same nodes and guesses on every puzzle."""
    a, b = runs["native"], runs["baseline"]
    differ = [i + 1 for i, ((_, x), (_, y)) in enumerate(zip(a, b))
              if (x["stats"]["nodes"], x["stats"]["guesses"])
              != (y["stats"]["nodes"], y["stats"]["guesses"])]
    if not differ:
        return "  same nodes and guesses on every puzzle"
    return f"  nodes or guesses differ on {len(differ)} puzzles: {differ[:20]}"


def bench_norvig(grids: list, native_rate: float) -> str:
    """Time Norvig's solver (first solution) on the 9x9 ``grids``: one line with native's ratio."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import norvig  # scripts/norvig.py, beside this file
    from satdoku.model.grid import Grid, is_solution

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
                        help="a named set of puzzles with its limit and timeout")
    parser.add_argument("--first", type=int, default=None, help="only the first N puzzles a file")
    parser.add_argument("--limit", type=int, default=None,
                        help="1: first solution (default); 2: count to 2 (prove unique)")
    parser.add_argument("--timeout", type=float, default=None, help="wall seconds per puzzle")
    parser.add_argument("--target", type=float, default=None,
                        help="CPU seconds a puzzle may take to count as within target")
    parser.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                        help="another checkout of satdoku to run side by side (A B A B)")
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="the checkout measured (default this one; give the baseline's "
                             "too for an A A run that shows the noise)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of A B (each puzzle's "
                        "median round counts)")
    parser.add_argument("--profile", action="store_true",
                        help="print the top of a cProfile of each worker on stderr")
    parser.add_argument("--verbose", action="store_true", help="a line per puzzle on stderr")
    parser.add_argument("--norvig", action="store_true",
                        help="also time Norvig's solver on the same 9x9 puzzles "
                             "(scripts/norvig.py)")
    parser.add_argument("--task", choices=TASKS, default="search",
                        help="what to time: native search (default), SE's ladder ('ladder', "
                             "as rate and explain --steps take it), or reduce_candidates with "
                             "locked candidates")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.profile)
    sys.path.insert(0, str(ROOT))

    jobs = []  # (path, first, limit, target, timeout)
    for name in args.set:
        files, limit, target, timeout = PRESETS[name]
        for path, first in files:
            jobs.append((str(path), args.first if args.first is not None else first,
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

    workers = {"native": Worker(args.checkout, args.profile)}
    if args.baseline:
        workers["baseline"] = Worker(args.baseline, args.profile)
    print(f"# bench_native {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
          f"{max(1, args.rounds)} rounds; "
          + ", ".join(f"{name}: {w.package}" for name, w in workers.items()) + "\n")
    print(HEADER)
    print("|---|---|" + "---:|" * 13)
    ok = True
    totals = {name: 0.0 for name in workers}
    try:
        for path, first, limit, target, timeout in jobs:
            puzzles = read(path, first)
            label = (f"{Path(path).parent.name}/{Path(path).name} (limit {limit}, target "
                     f"{target if target is not None else '-'} s, timeout "
                     f"{timeout if timeout is not None else '-'} s)")
            if args.task != "search":
                label = f"{Path(path).parent.name}/{Path(path).name} ({args.task})"
            load_before = _load()
            runs = run(workers, args.task, path, first, len(puzzles), limit, timeout,
                       max(1, args.rounds), args.verbose)
            base = sum(s for s, _ in runs["baseline"]) if "baseline" in runs else None
            for name in workers:
                totals[name] += sum(s for s, _ in runs[name])
                if args.task != "search":
                    text, total = task_row(label, name, runs[name],
                                           base if name == "native" else None)
                    print(text, flush=True)
                    continue
                text, good, total = row(label, name, puzzles, runs[name], limit, target,
                                        base if name == "native" else None)
                print(text, flush=True)
                if name == "native":
                    ok &= good
                    if args.norvig:
                        grids = [g for g, _ in puzzles]
                        print(bench_norvig(grids, len(grids) / total if total else math.inf))
            if "baseline" in runs:
                if args.task == "search":
                    print(same_search(runs))
                else:
                    same = same_output(runs)
                    ok &= same.startswith("  same")
                    print(same)
            print(f"  load {load_before} before, {_load()} after", flush=True)
        if len(jobs) > 1:
            print("\nall files: " + ", ".join(f"{name} {t:.2f} s" for name, t in totals.items())
                  + (f", x baseline {totals['baseline'] / totals['native']:.3f}"
                     if "baseline" in totals and totals["native"] else ""))
    finally:
        for w in workers.values():
            w.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
