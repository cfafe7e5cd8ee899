"""Scratch: where satdoku's per-puzzle time goes on the library path (9x9, incremental SAT).

Replays ``satdoku.tasks.solvers.solve(make_solver('sat'), grid, limit=...)`` step by step with
satdoku's own pieces (``sat._clue_literals``, the engine, ``Result``, ``solvers.verify``) and
a clock around each step, then runs the real library path over the same puzzles so the replay
can be checked against it. Written against the code of 2026-11 (private names: scratch only).

    python scripts/experiments/overhead.py [--first 5000] [--limit 1|2] [--stats]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_floor  # noqa: E402
from satdoku import sat, solvers  # noqa: E402
from satdoku.model.geometry import geometry  # noqa: E402
from satdoku.model.grid import Grid  # noqa: E402
from satdoku.model.result import Result, counted_status  # noqa: E402

STEPS = ("clue literals", "assumptions", "stats before", "solve", "get_model",
         "decode", "Grid", "block clause", "solve 2", "retire", "Result", "stats after",
         "time_ms", "verify")


def replay(grids, limit: int, with_stats: bool, clock=time.perf_counter_ns
           ) -> dict[str, float]:
    """Seconds per step over all grids (one SatSolver, as a batch uses it), less the cost of
    reading the clock once per step."""
    ns = dict.fromkeys(STEPS, 0)
    calls = dict.fromkeys(STEPS, 0)
    solver = sat.SatSolver(stats=with_stats)
    engine = solver._engine(grids[0].geometry)
    py = engine.solver
    n3 = engine.n3
    digit_of = engine.digit_of
    geo = grids[0].geometry
    for grid in grids:
        t0 = clock()
        start = time.perf_counter()  # SatSolver.solve's own clock
        clues = sat._clue_literals(grid)
        t1 = clock()
        engine = solver._engine(grid.geometry)
        assumptions = clues
        clue_set = set(clues) if limit > 1 else None
        t2 = clock()
        before = py.accum_stats() if with_stats else None
        t3 = clock()
        answer = py.solve(assumptions=assumptions)
        t4 = clock()
        model = py.get_model()
        t5 = clock()
        cells = tuple([digit_of[v] for v in model[:n3] if v > 0])
        t6 = clock()
        first = Grid(geo, cells) if answer else None
        t7 = clock()
        ns["clue literals"] += t1 - t0
        ns["assumptions"] += t2 - t1
        ns["stats before"] += t3 - t2
        ns["solve"] += t4 - t3
        ns["get_model"] += t5 - t4
        ns["decode"] += t6 - t5
        ns["Grid"] += t7 - t6
        second = None
        if limit > 1 and answer:
            t8 = clock()
            act = engine.fresh_var()
            py.add_clause([-act] + [-v for v in model[:n3] if v > 0 and v not in clue_set])
            t9 = clock()
            answer2 = py.solve(assumptions=assumptions + [act])
            t10 = clock()
            if answer2:
                model2 = py.get_model()
                second = Grid(geo, tuple([digit_of[v] for v in model2[:n3] if v > 0]))
            t11 = clock()
            py.add_clause([-act])
            t12 = clock()
            ns["block clause"] += t9 - t8
            ns["solve 2"] += t10 - t9
            ns["decode"] += t11 - t10
            ns["retire"] += t12 - t11
        t13 = clock()
        if limit > 1:
            count = (1 if first else 0) + (1 if second else 0)
            result = Result(counted_status(count), first, count=count, second=second)
            result.solver = solver.name
            result.encoding = solver.encoding
        else:
            result = Result("solved" if answer else "unsolvable", first, solver=solver.name,
                            encoding=solver.encoding)
        t14 = clock()
        if before is not None:
            after = py.accum_stats()
            result.stats = {
                "variables": engine.nvars,
                "clauses": engine.nclauses + len(clues),
                **{k: after.get(k, 0) - before.get(k, 0)
                   for k in ("conflicts", "decisions", "propagations")},
            }
        t15 = clock()
        result.time_ms = (time.perf_counter() - start) * 1000.0
        t16 = clock()
        v0 = time.perf_counter()
        result = solvers.verify(result, grid)
        result.stats["verify_ms"] = (time.perf_counter() - v0) * 1000
        t17 = clock()
        ns["Result"] += t14 - t13
        ns["stats after"] += t15 - t14
        ns["time_ms"] += t16 - t15
        ns["verify"] += t17 - t16
    solver.close()
    # one clock reading per step and puzzle (the two-solve steps: per counted puzzle)
    reads = clock_cost(clock)
    n = len(grids)
    for k in ns:
        if ns[k]:
            calls[k] = n
    return {k: max(0.0, (v - reads * calls[k]) / 1e9) for k, v in ns.items()}


def clock_cost(clock) -> float:
    """Nanoseconds one clock reading adds to an interval."""
    best = float("inf")
    for _ in range(5):
        t0 = clock()
        for _ in range(10000):
            clock()
        best = min(best, (clock() - t0) / 10000)
    return best


def real(grids, limit: int, with_stats: bool) -> float:
    solver = solvers.make_solver("sat", stats=with_stats)
    t = time.perf_counter()
    for grid in grids:
        solvers.solve(solver, grid, limit=limit)
    t = time.perf_counter() - t
    solver.close()
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=5000)
    ap.add_argument("--limit", type=int, default=1)
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--file", default="17_clue")
    ap.add_argument("--cpu", action="store_true", help="thread CPU time instead of wall time")
    a = ap.parse_args()
    lines = bench_floor.read_lines(bench_floor.PUZZLES / bench_floor.FILES[a.file], a.first)
    geo = geometry(3, 3)
    grids = [Grid(geo, bench_floor.cells_of(line)) for line in lines]
    n = len(grids)
    gc.collect()
    runs, totals = [], []
    for _ in range(a.rounds):  # A B A B
        runs.append(replay(grids, a.limit, a.stats,
                           time.thread_time_ns if a.cpu else time.perf_counter_ns))
        totals.append(real(grids, a.limit, a.stats))
    best = min(range(a.rounds), key=lambda i: sum(runs[i].values()))
    steps = runs[best]
    total = sum(steps.values())
    print(f"{a.file} first {n}, limit {a.limit}, stats {a.stats}, "
          f"{'thread CPU' if a.cpu else 'wall'} time: replay {total / n * 1e6:.1f} "
          f"us/puzzle (best of {a.rounds}); real library path "
          f"{min(totals) / n * 1e6:.1f} us/puzzle (best); {time.strftime('%Y-%m-%d %H:%M')}")
    print("| step | us/puzzle | share |")
    print("|---|---:|---:|")
    for k in STEPS:
        if steps[k]:
            print(f"| {k} | {steps[k] / n * 1e6:.1f} | {steps[k] / total:.0%} |")
    inside = steps["solve"] + steps["get_model"] + steps["solve 2"]
    print(f"| (python-sat solve + get_model) | {inside / n * 1e6:.1f} | {inside / total:.0%} |")
    print(f"| (real minus replay: wrappers, calls) | {(min(totals) - total) / n * 1e6:.1f} | |")


if __name__ == "__main__":
    main()
