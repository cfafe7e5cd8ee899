"""Scratch: the cheapest correct "count to 2" for one incremental CaDiCaL under clue assumptions.

Every method gets the same solver (satdoku's base formula and SOLVER_OPTIONS, python-sat's
``Solver`` wrapper as satdoku uses it) and returns, per puzzle, the count (0, 1, 2) and the first
solution as a tuple of 81 digits. Methods (``--methods``, comma-separated):

- ``today``: satdoku's method. Fresh activation literal per puzzle, guarded blocking clause over
  the true non-clue variables, ``solve(clues + [act])``, retire with the unit ``[-act]``.
- ``bulkK``: as today but the units ``[-act]`` are added K at a time (the acts of the last K
  puzzles stay unassigned in between).
- ``rebuildK``: as today, and every K puzzles the solver is deleted and rebuilt from the base
  formula, so the activation variables start again at 730 (the C++ harness does this).
- ``prop``: ``propagate(clues)`` first; when unit propagation alone fixes every cell, that grid
  is the one solution (nothing left to search), else today's method.
- ``dec``: no second solve when the first solve made no decision (CaDiCaL's decision count,
  from ``accum_stats``, does not count assumptions): the grid was forced, so it is the only one.
- ``decrebuildK``: ``dec`` with rebuilds.
- ``pos``: as today with every cell variable's phase forced positive once (``set_phases``).
- ``decpos``: ``dec`` + ``pos``; ``decposrebuildK`` with rebuilds.
- ``decphase``: ``dec`` + ``phase``; ``decphaserebuildK`` with rebuilds.
- ``decposavoid``: ``decpos``, and the second solve with the first solution's non-clue cell
  variables forced negative (set back positive after); ``decposavoidrebuildK`` with rebuilds
  (the recommendation, K=2000).
- ``solve``: not a count, one solve (the control for drift); ``solvepos``, ``solverebuildK``,
  ``solveposrebuildK`` likewise.
- ``proprebuildK``: ``prop`` with the rebuilds of ``rebuildK``.
- ``full81``: as today but the blocking clause holds all 81 true variables (no set difference
  in Python; the 17 clue literals are false under the assumptions anyway).
- ``phase``: as today, plus ``set_phases`` of the negated first solution before the second solve.
- ``stable``: as today, but the second solve runs with ``configure({'stable': 0})`` (and the
  first with ``stable: 1``): an option change for the second solve only.

Times are CPU (``process_time``), A B A B over the methods, median of ``--rounds``. Results and
the recommendation: docs/floor.md.

Run: python scripts/experiments/uniqueness.py [--rounds 3] [--first 2000] [--methods ...]
     python scripts/experiments/uniqueness.py --drift 49158 --window 8000 \
         --methods today,decposrebuild2000
     python scripts/experiments/uniqueness.py --check   (correctness on unique + multiple puzzles)
"""

from __future__ import annotations

import argparse
import statistics
import os
import subprocess
import sys
import time
from pathlib import Path

from pysat.solvers import Solver

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
PUZZLES = Path(os.environ.get("SATDOKU_PUZZLES", ROOT.parent / "shared" / "puzzles")) / "9x9"
SETS = {"17_clue": "17_clue.txt", "top1465": "magictour_top1465.txt",
        "hardest": "forum_hardest_1106.txt"}
N3 = 729


def read(path: Path, first: int | None) -> list[tuple[int, ...]]:
    out = []
    with open(path, encoding="utf-8") as fp:
        for line in fp:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            out.append(tuple(0 if ch in ".0" else int(ch) for ch in line[:81]))
            if first and len(out) >= first:
                break
    return out


def base():
    from satdoku.cnf.formula import encode_base
    from satdoku.model.geometry import geometry
    from satdoku.sat.catalogue import SOLVER_OPTIONS
    return encode_base(geometry(3, 3)).clauses, SOLVER_OPTIONS.get("cadical195", {})


CLAUSES, OPTIONS = base()


def clue_lits(cells):
    return [9 * c + d for c, d in enumerate(cells) if d]


def new_solver():
    s = Solver(name="cadical195")
    if OPTIONS:
        s.solver.configure(OPTIONS)
    s.append_formula(CLAUSES)
    return s


def digits(model):
    return tuple([(v - 1) % 9 + 1 for v in model[:N3] if v > 0])


class Today:
    """satdoku's method (satdoku.sat.counting.count), inlined."""

    rebuild = 0  # puzzles between rebuilds; 0 never
    bulk = 1  # retire units added every `bulk` puzzles

    def __init__(self):
        self.s = new_solver()
        self.top = N3
        self.done = 0
        self.pending = []

    def maybe_rebuild(self):
        """Rebuild every ``rebuild`` puzzles (so at most that many activation variables)."""
        self.done += 1
        if self.rebuild and self.done % self.rebuild == 0:
            self.s.delete()
            self.s = new_solver()
            self.top = N3
            self.pending = []
            self.rebuilt = True

    def block(self, model, clues):
        clue_set = set(clues)
        return [-v for v in model[:N3] if v > 0 and v not in clue_set]

    def second(self, clues, model):
        s = self.s
        self.top += 1
        act = self.top
        s.add_clause([-act] + self.block(model, clues))
        answer = s.solve(assumptions=clues + [act])
        other = s.get_model() if answer else None
        if self.bulk == 1:
            s.add_clause([-act])
        else:
            self.pending.append(act)
            if len(self.pending) >= self.bulk:
                for a in self.pending:
                    s.add_clause([-a])
                self.pending = []
        return other

    def count(self, clues):
        s = self.s
        if not s.solve(assumptions=clues):
            self.maybe_rebuild()
            return 0, None
        model = s.get_model()
        other = self.second(clues, model)
        self.maybe_rebuild()
        return (2 if other else 1), digits(model)

    def close(self):
        self.s.delete()


class SolveOnly(Today):
    """Not a count: one solve + get_model, the control for drift."""

    def count(self, clues):
        s = self.s
        answer = s.solve(assumptions=clues)
        out = (1, digits(s.get_model())) if answer else (0, None)
        self.maybe_rebuild()  # solverebuildK: a new solver every K puzzles
        return out


class SolvePos(SolveOnly):
    """``solve`` with every cell variable's phase forced positive once per solver."""

    def __init__(self):
        super().__init__()
        self.s.set_phases(range(1, N3 + 1))

    def maybe_rebuild(self):
        before = self.s
        super().maybe_rebuild()
        if self.s is not before:
            self.s.set_phases(range(1, N3 + 1))


class Full81(Today):
    def block(self, model, clues):
        return [-v for v in model[:N3] if v > 0]


class Phase(Today):
    def second(self, clues, model):
        self.s.set_phases([-v for v in model[:N3]])
        return super().second(clues, model)


class Stable(Today):
    """Different CaDiCaL options for the second solve only (set back afterwards)."""

    second_options = {"stable": 0}
    first_options = {"stable": 1}

    def second(self, clues, model):
        self.s.solver.configure(self.second_options)
        try:
            return super().second(clues, model)
        finally:
            self.s.solver.configure(self.first_options)


class Prop(Today):
    """Unit propagation first: a grid forced by propagation alone is the only solution."""

    def count(self, clues):
        s = self.s
        ok, lits = s.propagate(assumptions=clues)
        if not ok:
            self.maybe_rebuild()
            return 0, None
        true = sorted([v for v in lits if 0 < v <= N3])
        if len(true) == 81:
            self.maybe_rebuild()
            return 1, tuple([(v - 1) % 9 + 1 for v in true])
        return super().count(clues)


class Dec(Today):
    """No second solve when the first made no decision: every cell was then forced by unit
    propagation from the clues (assumption levels are not decisions in CaDiCaL's count), so
    the grid found is the only one."""

    def __init__(self):
        super().__init__()
        self.decisions = 0

    def count(self, clues):
        s = self.s
        if not s.solve(assumptions=clues):
            self.decisions = s.accum_stats()["decisions"]
            self.maybe_rebuild()
            return 0, None
        model = s.get_model()
        d = s.accum_stats()["decisions"]
        forced = d == self.decisions
        self.decisions = d
        if forced:
            self.maybe_rebuild()
            return 1, digits(model)
        other = self.second(clues, model)
        self.decisions = s.accum_stats()["decisions"]
        self.maybe_rebuild()
        return (2 if other else 1), digits(model)

    def maybe_rebuild(self):
        self.rebuilt = False
        super().maybe_rebuild()
        if self.rebuilt:
            self.decisions = 0


class Pos(Dec):
    """``dec`` with every cell variable's phase forced positive once per solver (CaDiCaL's
    forced phases persist across solves), so decisions try "cell holds digit" first."""

    skip_dec = False

    def __init__(self):
        super().__init__()
        self.s.set_phases(range(1, N3 + 1))

    def maybe_rebuild(self):
        before = self.s
        super().maybe_rebuild()
        if self.s is not before:
            self.s.set_phases(range(1, N3 + 1))

    def count(self, clues):
        if self.skip_dec:
            return Today.count(self, clues)
        return super().count(clues)


class PosAvoid(Pos):
    """``decpos``, and for the second solve the first solution's non-clue cell variables are
    forced negative (set back to positive afterwards): search away from the known solution."""

    def second(self, clues, model):
        clue_set = set(clues)
        true = [v for v in model[:N3] if v > 0 and v not in clue_set]
        self.s.set_phases([-v for v in true])
        try:
            return super().second(clues, model)
        finally:
            self.s.set_phases(true)


class DecPhase(Dec):
    def second(self, clues, model):
        self.s.set_phases([-v for v in model[:N3]])
        return super().second(clues, model)


def make(name: str):
    import re
    m = re.fullmatch(r"([a-z0-9]+?)(\d*)", name)
    kind, k = m.group(1), int(m.group(2) or 0)
    cls = {"today": Today, "bulk": Today, "rebuild": Today, "prop": Prop,
           "proprebuild": Prop, "full": Full81, "phase": Phase, "stable": Stable,
           "dec": Dec, "decrebuild": Dec,
           "decpos": Pos, "solve": SolveOnly, "solverebuild": SolveOnly,
           "solvepos": SolvePos, "solveposrebuild": SolvePos, "decposrebuild": Pos, "pos": Pos,
           "decphase": DecPhase, "decphaserebuild": DecPhase, "decposavoid": PosAvoid,
           "decposavoidrebuild": PosAvoid}[kind]
    obj = cls()
    if kind == "pos":
        obj.skip_dec = True
    if kind == "bulk":
        obj.bulk = k
    if kind in ("rebuild", "proprebuild", "decrebuild", "decposrebuild", "solverebuild",
                "solveposrebuild", "decphaserebuild", "decposavoidrebuild"):
        obj.rebuild = k
    return obj


def run(name, puzzles):
    clues = [clue_lits(p) for p in puzzles]
    m = make(name)
    out = []
    t0 = time.process_time()
    for c in clues:
        out.append(m.count(c))
    t = time.process_time() - t0
    m.close()
    return t, out


def run_drift(name, puzzles, window):
    clues = [clue_lits(p) for p in puzzles]
    m = make(name)
    times = []
    t0 = time.process_time()
    for i, c in enumerate(clues):
        m.count(c)
        if (i + 1) % window == 0:
            t1 = time.process_time()
            times.append((t1 - t0) / window * 1e6)
            t0 = t1
    m.close()
    return times


def check(methods):
    """Counts and first solutions agree with `today` on unique puzzles and on 16-clue variants
    (a 17-clue puzzle is minimal, so dropping any clue leaves several solutions), each
    repeated twice in the batch (repeats catch blocking clauses that leak between puzzles)."""
    src = read(PUZZLES / SETS["17_clue"], 300)
    batch = []
    for i, p in enumerate(src):
        batch.append(p)
        if i % 2:
            j = next(k for k, d in enumerate(p) if d)
            q = p[:j] + (0,) + p[j + 1:]
            batch += [q, q]
    _, ref = run("today", batch)
    print(f"check: {len(batch)} puzzles, {sum(1 for c, _ in ref if c == 2)} multiple")
    for name in methods:
        _, got = run(name, batch)
        bad = [i for i, (a, b) in enumerate(zip(ref, got)) if a[0] != b[0]]
        print(f"  {name}: {'ok' if not bad else f'{len(bad)} counts differ, first at {bad[0]}'}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--methods", default="today,bulk64,rebuild1000,prop,proprebuild1000")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--first", type=int, default=2000, help="puzzles of 17_clue")
    ap.add_argument("--sets", default="17_clue,top1465,hardest")
    ap.add_argument("--drift", type=int, default=0, help="puzzles of 17_clue for the drift run")
    ap.add_argument("--window", type=int, default=2000)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    methods = a.methods.split(",")
    print(time.strftime("%Y-%m-%d %H:%M"), subprocess.run(["uptime"], capture_output=True,
                                                          text=True).stdout.strip())
    if a.check:
        check(methods)
        return
    if a.drift:
        puzzles = read(PUZZLES / SETS["17_clue"], a.drift)
        print(f"drift: us/puzzle per window of {a.window}, 17_clue first {len(puzzles)}")
        for name in methods:
            times = run_drift(name, puzzles, a.window)
            print(f"  {name:>16}: " + " ".join(f"{t:.0f}" for t in times))
        return
    for label in a.sets.split(","):
        puzzles = read(PUZZLES / SETS[label], a.first if label == "17_clue" else None)
        times = {m: [] for m in methods}
        results = {}
        for _ in range(a.rounds):
            for m in methods:
                t, out = run(m, puzzles)
                times[m].append(t)
                results.setdefault(m, [c for c, _ in out])
        ref = results[methods[0]]
        base_t = statistics.median(times[methods[0]])
        print(f"{label} ({len(puzzles)} puzzles, median of {a.rounds} rounds, A B A B)")
        for m in methods:
            t = statistics.median(times[m])
            agree = "ok" if results[m] == ref else "DIFFERENT COUNTS"
            print(f"  {m:>16}: {t / len(puzzles) * 1e6:8.1f} us/puzzle {len(puzzles) / t:8.0f}/s"
                  f"  x{base_t / t:.2f} vs {methods[0]}  {agree}  "
                  f"[{' '.join(f'{x / len(puzzles) * 1e6:.0f}' for x in times[m])}]")


if __name__ == "__main__":
    main()
