"""The SAT backend: python-sat solvers, one incremental solver per geometry, clues as assumptions.

The base formula of a geometry (:func:`satdoku.encode.encode_base`) goes into a solver once;
each puzzle is then one ``solve(assumptions=clues)`` call. Learnt clauses carry over from puzzle
to puzzle and nothing is rebuilt, which is what makes thousands of 9x9 puzzles a second
possible (``incremental=False`` builds a fresh solver per puzzle, to measure the difference).

Counting (``limit >= 2``) blocks each solution found with a clause guarded by a fresh
activation literal ``act``: ``[-act, -v1, -v2, ...]`` over the true variables of the cells
that were not given, solved under ``clues + [act]``. Afterwards ``[-act]`` is added for good,
which satisfies every guarded clause, so the solver stays reusable. (python-sat's
``enum_models`` leaves its blocking clauses behind; python-sat issue 81.)

Time limits: MiniSat-like solvers have ``interrupt()``, called from one watchdog thread at the
deadline. CaDiCaL has none (called from another thread it raises there and the solve runs on),
so it solves in slices of a conflict budget, checking the clock between slices, each slice
sized from the conflict rate just seen to last about 0.05 s (and at most 4 times the last).
"""

from __future__ import annotations

import functools
import itertools
import operator
import threading
import time
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Solver as PysatSolver
from pysat.solvers import SolverNames

from .encode import DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, AMO_ENCODINGS
from .encode import decode_model, encode_base, formula_size
from .errors import SolverError
from .geometry import Geometry
from .grid import Grid
from .result import Result, counted_status

__all__ = ["SatSolverInfo", "SAT_SOLVERS", "DEFAULT_SAT_SOLVER", "SatSolver", "check_sat_solver",
           "MAX_BASE_CLAUSES"]


@dataclass(frozen=True)
class SatSolverInfo:
    """What satdoku knows about one python-sat solver."""

    name: str
    interrupt: bool  # interrupt() works; else the time limit is kept with conflict budgets
    budget: bool  # conf_budget() works; without it or interrupt, no time limit can be kept
    note: str = ""


def _info(name: str, interrupt: bool = True, budget: bool = True, note: str = "") -> SatSolverInfo:
    return SatSolverInfo(name, interrupt, budget, note)


#: The python-sat solvers offered, each checked on 9x9 puzzles with assumptions in this build.
SAT_SOLVERS: dict[str, SatSolverInfo] = {
    info.name: info for info in [
        _info("minisat22"),
        _info("minisatep"),
        _info("glucose3"),
        _info("glucose4"),
        _info("glucose42"),
        _info("maplesat"),
        _info("maplechrono"),
        _info("maplecm"),
        _info("mergesat3"),
        _info("minicard"),
        _info("gluecard3"),
        _info("gluecard4"),
        _info("cadical103", interrupt=False),
        _info("cadical153", interrupt=False),
        _info("cadical195", interrupt=False),
        _info("lingeling", interrupt=False, budget=False,
              note="licensed for research and evaluation only; cannot keep a time limit"),
    ]
}

#: Fastest on every 9x9 benchmark with the incremental path (puzzles per CPU second, loaded
#: 2-core machine): top1465 1,391 vs minisat22 1,119; hardest_1106 469 vs 391; 17-clue (first
#: 5,000) 3,981 vs 2,787. Glucose, Maple and MiniSat-EP were slower still. It has no interrupt(),
#: so time limits use conflict-budget slices (see the module docstring).
DEFAULT_SAT_SOLVER = "cadical195"

#: Options set on a new solver of a grid up to :data:`OPTIONS_MAX_SIZE` before its clauses
#: (python-sat's ``configure``; CaDiCaL only). Instructions inside ``solve()`` per puzzle
#: (callgrind, deterministic; top1465 first 300 / hardest first 100 / 17-clue first 1000),
#: defaults -> these: 1.95M -> 1.72M / 8.78M -> 6.54M / 306k -> 267k. One at a time on hardest:
#: chrono=0 (no chronological backtracking: the assumption levels are re-propagated anyway)
#: -19%, eagersubsume=0 -9%, inprocessing=0 -5%, bumpreason=0 -6%. Tried and not kept: reduce=0
#: (-9%, but the learnt clauses would grow without bound over a long batch), lucky=0, stable=0,
#: restart=0, minimize=0, phase=0 (no effect or <2%), shrink=0 (+58%), all phases False
#: (+36%). Larger grids keep CaDiCaL's defaults: their long searches want inprocessing.
SOLVER_OPTIONS: dict[str, dict[str, int]] = {
    "cadical195": {"chrono": 0, "eagersubsume": 0, "bumpreason": 0, "inprocessing": 0},
}
OPTIONS_MAX_SIZE = 9

_REFUSED = {
    "kissat404": "kissat ignores assumptions, which satdoku needs for clues",
}


def check_sat_solver(name: str) -> SatSolverInfo:
    """The :class:`SatSolverInfo` of ``name`` (python-sat's aliases such as ``m22`` allowed).

    Raises:
        SolverError: the name is unknown, or the solver cannot serve satdoku (Kissat).

    >>> check_sat_solver('g4').name
    'glucose4'
    """
    canonical = name
    for full, aliases in vars(SolverNames).items():
        if not full.startswith("_") and isinstance(aliases, tuple) and name.lower() in aliases:
            canonical = full
            break
    choices = ", ".join(SAT_SOLVERS)
    if canonical in _REFUSED:
        raise SolverError(f"{_REFUSED[canonical]}; choose one of {choices}")
    if canonical not in SAT_SOLVERS:
        raise SolverError(f"unknown SAT solver {name!r}; choose one of {choices}")
    return SAT_SOLVERS[canonical]


class _Watchdog:
    """One thread that calls a function at a deadline: cheaper than a Timer thread per puzzle."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._deadline = 0.0
        self._action: Any = None
        self._thread: threading.Thread | None = None

    def arm(self, deadline: float, action: Any) -> None:
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="satdoku-watchdog",
                                                daemon=True)
                self._thread.start()
            self._deadline, self._action = deadline, action
            self._cond.notify()

    def disarm(self) -> None:
        # Under the lock: once this returns, the action can no longer fire.
        with self._cond:
            self._action = None

    def _run(self) -> None:
        with self._cond:
            while True:
                if self._action is None:
                    self._cond.wait()
                    continue
                remaining = self._deadline - time.perf_counter()
                if remaining > 0:
                    self._cond.wait(remaining)
                    continue
                action, self._action = self._action, None
                action()


#: Pairwise base formulas larger than this are refused rather than built: 64x64 (33 million
#: clauses, a few GB as Python lists) is allowed, 81x81 (85 million) would exhaust memory.
MAX_BASE_CLAUSES = 40_000_000


@functools.lru_cache(maxsize=None)
def _cell_base(geometry: Geometry) -> tuple[int, ...]:
    """``var(cell, d) - d`` for every cell, in cell order."""
    n = geometry.size
    return tuple(range(0, n ** 3, n))


def _clue_literals(grid: Grid) -> list[int]:
    """:func:`satdoku.encode.clue_literals` with C-level loops (``compress``, ``map``)."""
    cells = grid.cells
    return list(map(operator.add, itertools.compress(_cell_base(grid.geometry), cells),
                    filter(None, cells)))


class _Engine:
    """One python-sat solver loaded with the base formula of one geometry."""

    def __init__(self, sat_solver: str, geometry: Geometry, encoding: str, amo: str,
                 units: list[int] | None = None) -> None:
        if amo == "pairwise":
            clauses = formula_size(geometry, encoding)[1]
            if clauses > MAX_BASE_CLAUSES:
                n = geometry.size
                raise SolverError(f"a {n}x{n} grid needs {clauses:,} clauses with pairwise "
                                  f"at-most-one, more than satdoku builds "
                                  f"({MAX_BASE_CLAUSES:,}); use the native solver or a linear "
                                  f"at-most-one encoding such as seqcounter")
        formula = encode_base(geometry, encoding, amo)
        self.geometry = geometry
        self.size = geometry.size
        self.n3 = geometry.size ** 3
        self.nvars = formula.nvars
        self.top = formula.nvars  # highest variable used, activation literals included
        self.nclauses = len(formula.clauses)
        self.solver = PysatSolver(name=sat_solver)
        options = SOLVER_OPTIONS.get(sat_solver) if self.size <= OPTIONS_MAX_SIZE else None
        if options:
            self.solver.solver.configure(options)  # before any clause: some options insist
        self.solver.append_formula(formula.clauses)
        if units:
            self.solver.append_formula([[lit] for lit in units])
        self.excluded: tuple[tuple[int, ...], int] | None = None  # (solution cells, its act)
        # digit_of[v] for v = 1..N**3: decoding is one slice and one lookup per true variable.
        self.digit_of = [0] + [d for _ in range(geometry.ncells) for d in range(1, self.size + 1)]

    def fresh_var(self) -> int:
        self.top += 1
        return self.top

    def exclusion(self, solution: Grid) -> int:
        """An activation literal that, assumed, rules out ``solution`` (a complete grid).

        The guarded clause ``[-act, -x(cell, digit) for every cell]`` is added once per solution
        and kept while the same solution is asked for again; a new solution retires the old
        clause for good with the unit ``[-act]``.
        """
        if self.excluded is not None and self.excluded[0] == solution.cells:
            return self.excluded[1]
        if self.excluded is not None:
            self.solver.add_clause([-self.excluded[1]])
        act = self.fresh_var()
        self.solver.add_clause([-act] + [-(base + d) for base, d in
                                         zip(_cell_base(self.geometry), solution.cells)])
        self.excluded = (solution.cells, act)
        return act

    def decode(self, model: list[int]) -> Grid:
        n3 = self.n3
        digit_of = self.digit_of
        # Measured (instructions, 9x9): this list comprehension 137k, map/filter with
        # (0).__lt__ 301k, compress over map(operator.lt) 212k.
        cells = tuple([digit_of[v] for v in model[:n3] if v > 0])
        if len(cells) != self.geometry.ncells:
            # Cannot happen with satdoku's encodings; decode_model says which cell is wrong.
            return decode_model(model[:n3], self.geometry)
        return Grid(self.geometry, cells)

    def delete(self) -> None:
        self.solver.delete()


class SatSolver:
    """Solve puzzles of any geometry with a python-sat solver (the :class:`Solver` protocol).

    Args:
        sat_solver: a name from :data:`SAT_SOLVERS` (python-sat aliases allowed).
        encoding: a name from :data:`satdoku.encode.ENCODINGS`.
        amo: a name from :data:`satdoku.encode.AMO_ENCODINGS`.
        incremental: keep one solver per geometry and pass clues as assumptions (fast); False
            builds a fresh solver with the clues as unit clauses for every puzzle.
        stats: fill ``Result.stats`` (variables, clauses, conflicts, decisions, propagations);
            False leaves it empty and saves two solver calls and a dict per puzzle.

    >>> from satdoku.geometry import geometry
    >>> with SatSolver() as s:
    ...     r = s.solve(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> r.status, r.solution.cells[:4]
    ('solved', (1, 2, 3, 4))
    """

    def __init__(self, sat_solver: str = DEFAULT_SAT_SOLVER, encoding: str = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO, incremental: bool = True, stats: bool = True) -> None:
        info = check_sat_solver(sat_solver)
        if encoding not in ENCODINGS:
            raise SolverError(f"unknown encoding {encoding!r}; choose one of "
                              f"{', '.join(ENCODINGS)}")
        if amo not in AMO_ENCODINGS:
            raise SolverError(f"unknown at-most-one encoding {amo!r}; choose one of "
                              f"{', '.join(AMO_ENCODINGS)}")
        self.info = info
        self.sat_solver = info.name
        self.name = f"sat:{info.name}"
        self.encoding = encoding
        self.amo = amo
        self.incremental = incremental
        self.stats = stats
        self._engines: dict[Geometry, _Engine] = {}
        self._watchdog: _Watchdog | None = None

    def solve(self, grid: Grid, *, limit: int = 1, timeout: float | None = None) -> Result:
        """Find one solution of ``grid`` (``limit=1``) or count solutions up to ``limit``.

        ``timeout`` is in seconds, counted from when the geometry's solver is ready (building
        a geometry's base formula happens once and is not charged to one puzzle).
        """
        start = time.perf_counter()
        if timeout is not None and not (self.info.interrupt or self.info.budget):
            raise SolverError(f"{self.sat_solver} cannot stop at a time limit; choose one of "
                              f"{', '.join(n for n, i in SAT_SOLVERS.items() if i.budget)}")
        clues = _clue_literals(grid)
        if self.incremental:
            engine = self._engine(grid.geometry)
            assumptions = clues
        else:
            engine = _Engine(self.sat_solver, grid.geometry, self.encoding, self.amo, clues)
            assumptions = []
        solver = engine.solver
        try:
            deadline = None if timeout is None else time.perf_counter() + timeout
            before = solver.accum_stats() if self.stats else None
            if limit <= 1:
                if deadline is None:
                    answer = solver.solve(assumptions=assumptions)
                else:
                    answer = self._run(engine, assumptions, deadline)
                solution = engine.decode(solver.get_model()) if answer else None
                status = "timeout" if answer is None else "solved" if answer else "unsolvable"
                result = Result(status, solution, solver=self.name, encoding=self.encoding)
            else:
                result = self._count(engine, assumptions, set(clues), limit, deadline)
                result.solver = self.name
                result.encoding = self.encoding
            if before is not None:
                after = solver.accum_stats()
                result.stats = {
                    "variables": engine.nvars,
                    "clauses": engine.nclauses + len(clues),
                    **{k: after.get(k, 0) - before.get(k, 0)
                       for k in ("conflicts", "decisions", "propagations")},
                }
        finally:
            if not self.incremental:
                engine.delete()
        result.time_ms = (time.perf_counter() - start) * 1000.0
        return result

    def _count(self, engine: _Engine, assumptions: list[int], clue_set: set[int], limit: int,
               deadline: float | None) -> Result:
        solutions: list[Grid] = []
        act = 0
        answer = self._run(engine, assumptions, deadline)
        while answer:
            model = engine.solver.get_model()
            solutions.append(engine.decode(model))
            if len(solutions) >= limit:
                break
            if not act:
                act = engine.fresh_var()
            size3 = engine.size ** 3
            engine.solver.add_clause([-act] + [-v for v in model[:size3]
                                               if v > 0 and v not in clue_set])
            answer = self._run(engine, assumptions + [act], deadline)
        if act:
            engine.solver.add_clause([-act])
        first = solutions[0] if solutions else None
        second = solutions[1] if len(solutions) > 1 else None
        if answer is None:
            return Result("timeout", first, count=len(solutions), second=second,
                          message=f"time limit reached after {len(solutions)} solution(s)")
        return Result(counted_status(len(solutions)), first, count=len(solutions), second=second)

    def _run(self, engine: _Engine, assumptions: list[int], deadline: float | None) -> bool | None:
        """One solve call: True, False, or None when the deadline passed first."""
        solver = engine.solver
        if deadline is None:
            return solver.solve(assumptions=assumptions)
        if time.perf_counter() >= deadline:
            return None
        if self.info.interrupt:
            if self._watchdog is None:
                self._watchdog = _Watchdog()
            self._watchdog.arm(deadline, solver.interrupt)
            try:
                return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                self._watchdog.disarm()
                solver.clear_interrupt()
        # Start small: on a 25x25 puzzle CaDiCaL may manage only 1,000 conflicts a second.
        budget = 10
        while True:
            begun = time.perf_counter()
            conflicts = solver.accum_stats().get("conflicts", 0)
            solver.conf_budget(budget)
            answer = solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            now = time.perf_counter()
            if now >= deadline:
                return None
            # Size the next slice to about 0.05 s (or what is left) at the rate just seen.
            done = max(1, solver.accum_stats().get("conflicts", 0) - conflicts)
            rate = done / max(now - begun, 1e-6)
            budget = max(10, min(4 * budget, int(rate * min(0.05, deadline - now))))

    def _engine(self, geometry: Geometry) -> _Engine:
        """The incremental engine of ``geometry``, built on first use."""
        engine = self._engines.get(geometry)
        if engine is None:
            engine = self._engines[geometry] = _Engine(self.sat_solver, geometry, self.encoding,
                                                       self.amo)
        return engine

    def core(self, grid: Grid, *, timeout: float | None = None
             ) -> tuple[list[int] | None, Grid | None]:
        """Cells of givens that cannot all hold together, or a solution when there are none.

        Returns ``(cells, None)`` when ``grid`` has no solution: the cells come from the
        solver's final conflict over the clue assumptions (``get_core``), an unsatisfiable
        subset of the givens but not necessarily a minimal one
        (:func:`satdoku.explain.minimal_core` shrinks it). Returns ``(None, solution)``
        otherwise. Raises :class:`SolverError` when ``timeout`` seconds pass first.
        """
        engine = self._engine(grid.geometry)
        deadline = None if timeout is None else time.perf_counter() + timeout
        answer = self._run(engine, _clue_literals(grid), deadline)
        if answer is None:
            raise SolverError(f"time limit of {timeout:g} s reached looking for a core")
        if answer:
            return None, engine.decode(engine.solver.get_model())
        n = grid.size
        return sorted({(lit - 1) // n for lit in engine.solver.get_core() or ()}), None

    def other_solution(self, grid: Grid, solution: Grid, *, cells: list[int] | None = None,
                       conflicts: int | None = None) -> tuple[str, Grid | None]:
        """A solution of ``grid`` other than ``solution`` (a complete grid), if there is one.

        Args:
            cells: look only for solutions that differ from ``solution`` in one of these cells
                (one solve call per cell, each assuming that cell's digit is not the
                solution's: faster than ruling out the whole solution, see
                :mod:`satdoku.generate`).
                Digging a puzzle that has one solution, a second solution of the puzzle with
                some cells emptied must differ in one of them. None: anywhere, in one call
                with a clause ruling out ``solution`` (kept while the same solution is asked
                about again).
            conflicts: a budget per solve call; unlike a time limit it gives the same answer
                on every machine.

        Returns:
            ``('unique', None)`` when there is none, ``('multiple', other)``, or
            ``('unknown', None)`` when the budget ran out.
        """
        engine = self._engine(grid.geometry)
        clues = _clue_literals(grid)
        if cells is None:
            tries = [clues + [engine.exclusion(solution)]]
        else:
            base = _cell_base(grid.geometry)
            tries = [clues + [-(base[c] + solution.cells[c])] for c in cells]
        solver = engine.solver
        if conflicts is not None and not self.info.budget:
            raise SolverError(f"{self.sat_solver} cannot keep a conflict budget")
        if conflicts is not None and conflicts < 1:
            # (python-sat solvers read a budget of 0 as no budget at all)
            raise SolverError(f"a conflict budget must be at least 1, not {conflicts}")
        unknown = False
        for assumptions in tries:
            if conflicts is None:
                answer = solver.solve(assumptions=assumptions)
            else:
                solver.conf_budget(conflicts)
                answer = solver.solve_limited(assumptions=assumptions)
            if answer:
                return "multiple", engine.decode(solver.get_model())
            unknown |= answer is None
        return ("unknown", None) if unknown else ("unique", None)

    def close(self) -> None:
        """Free every solver (python-sat solvers hold C memory)."""
        for engine in self._engines.values():
            engine.delete()
        self._engines.clear()

    def __enter__(self) -> "SatSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"SatSolver({self.sat_solver!r}, encoding={self.encoding!r}, amo={self.amo!r}, "
                f"incremental={self.incremental})")
