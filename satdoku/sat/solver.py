"""The SAT backend: python-sat engines over a full or a reduced formula, one deadline for all.

:class:`SatSolver` owns solving, counting, cores and time limits once, whatever the formula:
engines (:mod:`satdoku.sat.engines`) hold the formulas, :mod:`satdoku.sat.clock` keeps the
time limits, :mod:`satdoku.cnf.formula` builds the rules within the clause budget, and solvers
that take no assumptions solve from scratch (:mod:`satdoku.sat.oneshot`). Counting blocks each
solution found by a clause over the cells that were not given, guarded by an activation literal
(python-sat's ``enum_models`` leaves its blocking clauses behind; python-sat issue 81).
Which encoding a puzzle gets when none is named is :func:`satdoku.cnf.policy.choose_encoding`.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from ..closing import Closing
from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..cnf.encodings import (DEFAULT_AMO, DEFAULT_REDUCED_AMO, check_choices, check_encoding,
                             formula_size)
from ..cnf.formula import encode
from ..cnf.policy import REDUCED_MIN_SIZE, choose_encoding
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import ModelError, OptionError, SolverError, TooBigError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..model.result import Result, counted_status, result_of, status_of
from .catalogue import (CONFIGURABLE, COUNT_OPTIONS, DEFAULT_SAT_SOLVER, OPTIONS_MAX_SIZE,
                        SAT_SOLVERS,
                        check_sat_solver)
from .clock import Clock, pysat_call
from .engines import Engine, FullEngine, ReducedEngine, Settled
from .questions import Questions

__all__ = ["SatSolver", "DEFAULT_SAT_SOLVER", "SAT_SOLVERS", "SETTLE_MAX_SIZE",
           "SETTLED_ENCODINGS"]

#: Grids up to this size take part in :meth:`SatSolver.settle` (a digit of a cell is a byte
#: when the slices are read back, and the 9x9 batches are what it is for).
SETTLE_MAX_SIZE = 16

#: :meth:`SatSolver.settle` gives a batch up when propagation has stopped changing more than
#: this share of its puzzles after a few rounds (:func:`satdoku.sat.sliced.settle`).
SETTLE_BUSY = 0.5

#: The encodings whose batches :meth:`SatSolver.settle` pre-solves (by propagation of the
#: augmented encoding: singles and locked candidates).
SETTLED_ENCODINGS = frozenset({"extended", "augmented"})

#: Conflicts a solve under variant rules may take before their implied constraints are added
#: (:meth:`SatSolver._run`; :mod:`satdoku.rules.implied`, docs/sum-encodings.md).
IMPLIED_AFTER = 300


class SatSolver(Questions, Closing):
    """Solve, count and explain puzzles of any geometry with a python-sat solver.

    Args:
        sat_solver: a name from :data:`SAT_SOLVERS` (python-sat aliases allowed; default
            :data:`DEFAULT_SAT_SOLVER`).
        encoding: a name from :data:`satdoku.cnf.encodings.ENCODINGS`; None picks one by grid size
            (:func:`satdoku.tasks.solvers.choose_encoding`).
        amo: an at-most-one encoding (default: pairwise for full encodings, sequential counter
            for the long lists of the reduced one).
        incremental: keep one full engine per geometry with clues as assumptions (fast); False
            builds a fresh solver with the clues as unit clauses for every puzzle.
        stats: add the solver's conflicts, decisions and propagations to ``Result.stats``
            (two solver calls a puzzle); stage times and formula sizes are always there.
        max_clauses: refuse (status ``refused``) a formula with more clauses.
        reduction: options of :func:`satdoku.cnf.reduced.reduced_formula` for the reduced encoding
            (``propagate``, ``pairwise_max``, ``locked``), for experiments.
        configure: solver options set before any clause (python-sat's ``configure``, CaDiCaL
            1.5.3 and 1.9.5 only), such as ``{'seed': 3, 'phase': 0}``: what a portfolio
            (:mod:`satdoku.sat.portfolio`) varies between the configurations it races.
        fast: take the fast path (:meth:`_solve_ready`: a classic puzzle with no time limit
            on a loaded engine, with no stage bookkeeping) and the batch pass (:meth:`settle`);
            off, every puzzle goes the general way (the contract tests run both).
        reduced_from: the grid size from which ``encoding=None`` means reduced (default
            :data:`satdoku.tasks.solvers.REDUCED_MIN_SIZE`; explain, generate and rate pass
            :data:`~satdoku.tasks.solvers.LARGE_MIN_SIZE`).

    >>> from satdoku.model.geometry import geometry
    >>> with SatSolver() as s:
    ...     r = s.solve(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> r.status, r.solution.cells[:4]
    ('solved', (1, 2, 3, 4))
    """

    #: Batches (:class:`satdoku.tasks.solvers.SolveTask`) set this: from a batch's second puzzle on,
    #: a count steers each new solve away from the solutions found, which is faster but finds a
    #: second solution farther from the first (:meth:`_count`). Off (``explain``, the library
    #: calls), a puzzle with several solutions is counted as it always was.
    steer = False

    def __init__(self, sat_solver: str | None = None, encoding: str | None = None,
                 amo: str | None = None, *, incremental: bool = True, stats: bool = True,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 reduction: dict[str, Any] | None = None,
                 configure: dict[str, int] | None = None,
                 reduced_from: int | None = None, fast: bool = True) -> None:
        self.info = check_sat_solver(sat_solver or DEFAULT_SAT_SOLVER)
        self.reduced_from = reduced_from
        if configure and self.info.name not in CONFIGURABLE:
            raise OptionError(f"{self.info.name} takes no solver options; only "
                              f"{', '.join(CONFIGURABLE)} do")
        self.configure = dict(configure or {})
        self.sat_solver = self.info.name
        self.name = f"sat:{self.info.name}"
        check_choices(encoding, amo)
        self.encoding = encoding
        self.amo = amo
        self.incremental = incremental
        self.stats = stats
        self.max_clauses = max_clauses
        self.reduction = reduction or {}
        self._engines: dict[tuple[Geometry, str], FullEngine] = {}
        # Loaded engines of grids up to OPTIONS_MAX_SIZE whose build and load time a puzzle
        # was charged with, by geometry: :meth:`_solve_ready` serves these.
        self._ready: dict[Geometry, FullEngine] = {}
        self._encodings: dict[int, str] = {}
        self.clock = Clock(self.info)
        self.fast = fast
        self.fast_answers = 0  # puzzles the fast path answered (the contract tests look)
        self.capabilities = dataclasses.replace(self.info.capabilities, settle=fast)

    def encoding_for(self, grid: Grid) -> str:
        """The encoding ``grid`` gets: the one named, else the choice by size."""
        if self.encoding is not None:
            return self.encoding
        encoding = self._encodings.get(grid.size)
        if encoding is None:
            encoding = self._encodings[grid.size] = choose_encoding(
                grid.size, self.reduced_from or REDUCED_MIN_SIZE)
        return encoding

    # Engines.

    def _engine(self, grid: Grid, deadline: Deadline, units: bool = False,
                keep: bool = False) -> Engine:
        """The engine for ``grid``, loaded; per-puzzle engines are the caller's to delete.

        ``keep``: the engine is never rebuilt from now on. :meth:`core` and
        :meth:`other_solution` ask for it: their callers (explain, generate) go by answers that
        depend on what the solver learnt before (conflict budgets, the first solution found),
        and they give the same answers as before rebuilds existed.

        Raises TimeUp, TooBigError, or :class:`Settled` when a reduction decided the puzzle.
        """
        encoding = self.encoding_for(grid)
        geo = grid.geometry
        if check_encoding(encoding).reduced:
            from ..cnf.reduced import reduced_formula
            begun = time.perf_counter()
            formula = reduced_formula(grid, self.amo or DEFAULT_REDUCED_AMO,
                                      max_clauses=self.max_clauses, deadline=deadline,
                                      **self.reduction)
            if formula.contradiction is not None or formula.nmapped == 0:
                raise Settled(formula)
            reduced = ReducedEngine(self.info, formula, deadline, self.configure)
            reduced.encode_s += time.perf_counter() - begun - reduced.load_s
            return reduced
        key = (geo, encoding)
        engine = None if units else self._engines.get(key)
        if engine is not None and keep:
            engine.never_rebuild()
        elif engine is not None and engine.due():
            self._ready.pop(geo, None)  # build and load time to charge again
            engine.rebuild()
        if engine is None:
            amo = self.amo or DEFAULT_AMO
            n = geo.size
            Budget(self.max_clauses).refuse(formula_size(geo, encoding, amo)[1],
                                            f"a {n}x{n} grid in the {encoding} encoding")
            engine = FullEngine(self.info, geo, encoding, amo, units, self.configure)
            if keep:
                engine.never_rebuild()
            if not units:
                self._engines[key] = engine
        try:
            engine.prepare(deadline)
        except BaseException:
            if units:
                engine.delete()
            raise
        engine.uses += 1
        if units:
            pysat_call(engine.solver.append_formula,
                       [[lit] for lit in engine.varmap.clue_literals(grid)])
        return engine

    # Solving.

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple = ()) -> Result:
        """Find one solution of ``grid`` (``limit=1``) or count solutions up to ``limit``.

        ``constraints`` (variant rules) are added for this puzzle only, each guarded by an
        activation literal, within the clause budget. Every stage stops at ``deadline``.
        """
        start = time.perf_counter()
        if self.fast and not constraints and (deadline is None or deadline.seconds is None):
            ready = self._ready.get(grid.geometry)
            if ready is not None and ready.uses < ready.rebuild_every:
                return self._solve_ready(ready, grid, limit, start)
        deadline = deadline or NO_DEADLINE
        if not deadline.unlimited and not self.capabilities.time_limit:
            raise SolverError(f"{self.sat_solver} cannot stop at a time limit; choose one of "
                              f"{', '.join(n for n, i in SAT_SOLVERS.items() if i.budget)}")
        if not self.info.assumptions:
            return self._solve_afresh(grid, limit, deadline, constraints, start)
        stats: dict[str, Any] = {}
        solutions: list[Grid] = []
        engine: Engine | None = None
        status = message = None
        before: dict[str, int] | None = None
        try:
            engine = self._engine(grid, deadline, units=not self.incremental)
            engine.charge(stats)
            if isinstance(engine, FullEngine) and engine.rebuild_every and not engine.per_puzzle:
                self._ready[grid.geometry] = engine
            t0 = time.perf_counter()
            assumptions = engine.assumptions(grid)
            if constraints:
                assumptions = assumptions + engine.rule_acts(
                    constraints, Budget(self.max_clauses, deadline))
            t1 = time.perf_counter()
            stats["encode_ms"] += (t1 - t0) * 1000
            before = engine.solver.accum_stats() if self.stats else None
            try:
                status = self._count(engine, grid, assumptions, limit, deadline, solutions)
            finally:
                stats["solve_ms"] = (time.perf_counter() - t1) * 1000
        except (TimeUp, TooBigError) as error:
            status, message = status_of(error, deadline, len(solutions) if limit > 1 else None)
            if isinstance(error, TimeUp) and engine is None:  # stopped building the formula
                stats.update(encode_ms=(time.perf_counter() - start) * 1000, solve_ms=0.0)
        except Settled as settled:
            stats.update(encode_ms=(time.perf_counter() - start) * 1000, load_ms=0.0,
                         solve_ms=0.0)
            solution = settled.solution(grid, constraints)
            if solution is not None:
                solutions.append(solution)
            status = ("solved" if solution else "unsolvable") if limit < 2 else \
                counted_status(len(solutions))
        finally:
            if engine is not None and not engine.broken:
                stats["variables"] = engine.nvars
                stats["clauses"] = engine.nclauses
                if before is not None:
                    after = engine.solver.accum_stats()
                    for k in ("conflicts", "decisions", "propagations"):
                        stats[k] = after.get(k, 0) - before.get(k, 0)
            if engine is not None and (engine.per_puzzle or engine.broken):
                engine.delete()
        return result_of(status, solutions, limit=limit, solver=self.name,
                         encoding=self.encoding_for(grid),
                         time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                         message=message)

    def settle(self, grids: list[Grid], limit: int = 1) -> list[Result | None]:
        """The results of the ``grids`` (classic, givens checked) that unit propagation alone
        settles, None for the others: :mod:`satdoku.sat.sliced` over all of them at once.

        A batch's pre-pass (:class:`satdoku.tasks.solvers.SolveTask`): a settled grid is solved
        (``limit`` 1) or ``unique`` without a solver call; its ``time_ms`` (and ``cpu_ms``) is
        its share of the pass, and its stats are those of a solver call that needed no
        conflict, decision or propagation (the SAT solver made none; the formula's size is
        the one it would load). Only grids up to :data:`SETTLE_MAX_SIZE` whose encoding is one of :data:`SETTLED_ENCODINGS` take part:
        the weaker encodings are asked for to see them work.
        """
        from .sliced import settle
        out: list[Result | None] = [None] * len(grids)
        by_geometry: dict[Geometry, list[int]] = {}
        for i, grid in enumerate(grids):
            geo = grid.geometry  # sliced: three houses of N cells a cell
            if grid.size <= SETTLE_MAX_SIZE and geo.has_boxes and geo.is_square and \
                    self.encoding_for(grid) in SETTLED_ENCODINGS:
                by_geometry.setdefault(grid.geometry, []).append(i)
        status = "solved" if limit < 2 else "unique"
        count = None if limit < 2 else 1
        for geo, chosen in by_geometry.items():
            begun, cpu = time.perf_counter(), time.process_time()
            settled = settle(geo, [grids[i].cells for i in chosen], busy=SETTLE_BUSY)
            share = (time.perf_counter() - begun) * 1000 / len(chosen)
            cpu_share = (time.process_time() - cpu) * 1000 / len(chosen)
            encoding = self.encoding_for(grids[chosen[0]])
            nvars, nclauses = formula_size(geo, encoding, self.amo or DEFAULT_AMO)
            for i, cells in zip(chosen, settled):
                if cells is not None:
                    stats: dict[str, Any] = {"encode_ms": 0.0, "load_ms": 0.0,
                                             "solve_ms": share, "cpu_ms": cpu_share,
                                             "variables": nvars, "clauses": nclauses}
                    if self.stats:
                        stats.update(conflicts=0, decisions=0, propagations=0)
                    out[i] = Result(status, Grid(geo, cells), count, None, self.name, encoding,
                                    share, stats, None, limit)
        return out

    def _solve_afresh(self, grid: Grid, limit: int, deadline: Deadline, constraints: tuple,
                      start: float) -> Result:
        """:meth:`solve` for a solver without assumptions or clauses after solving (Kissat):
        a fresh solver for every solve call (:mod:`satdoku.sat.oneshot`). Such solvers keep no
        time limit (:meth:`solve` refuses one)."""
        from .oneshot import count_afresh, solve_in_pysat
        encoding = self.encoding_for(grid)
        stats: dict[str, Any] = {"encode_ms": 0.0, "load_ms": 0.0, "solve_ms": 0.0, "runs": 0}
        solutions: list[Grid] = []
        status = message = None
        try:
            begun = time.perf_counter()
            formula = encode(grid, encoding, self.amo, "units", max_clauses=self.max_clauses,
                             deadline=deadline, constraints=constraints)
            stats["encode_ms"] = (time.perf_counter() - begun) * 1000
            stats.update(variables=formula.nvars, clauses=len(formula.clauses))
            run = solve_in_pysat(self.info.name, formula, deadline, stats)
            status = count_afresh(formula, grid, limit, run, solutions)
        except (TimeUp, TooBigError) as error:
            status, message = status_of(error, deadline, len(solutions) if limit > 1 else None)
        except ModelError as error:  # a model that does not describe a grid: a solver fault
            status, message = "error", f"internal error: {self.name} {error.detail}"
        return result_of(status, solutions, limit=limit, solver=self.name, encoding=encoding,
                         time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                         message=message)

    def _solve_ready(self, engine: FullEngine, grid: Grid, limit: int, start: float) -> Result:
        """:meth:`solve` of a grid whose engine is loaded and charged, with no time limit and
        no constraints: a batch's common case after its first puzzle, kept lean (docs/floor.md).
        Same result, same stats in the same order; with :attr:`steer`, counts steer away from
        the solutions found (see :meth:`_count`)."""
        engine.uses += 1
        self.fast_answers += 1
        assumptions = engine.assumptions(grid)
        t1 = time.perf_counter()
        stats: dict[str, Any] = {"encode_ms": (t1 - start) * 1000, "load_ms": 0.0}
        solutions: list[Grid] = []
        solver = engine.solver
        before = solver.accum_stats() if self.stats else None
        try:
            if limit == 1:
                try:  # _run without its layers: the solve call alone
                    answer = pysat_call(solver.solve, assumptions=assumptions)
                except KeyboardInterrupt:
                    self._drop(engine)
                    raise
                if answer:
                    solutions.append(engine.decode(solver.get_model()))
                status = "solved" if answer else "unsolvable"
            else:
                status = self._count(engine, grid, assumptions, limit, NO_DEADLINE, solutions,
                                     steer=self.steer)
        except BaseException:
            if engine.broken:  # Ctrl-C inside the solver (see _run)
                engine.delete()
            raise
        stats["solve_ms"] = (time.perf_counter() - t1) * 1000
        stats["variables"] = engine.nvars
        stats["clauses"] = engine.nclauses
        if before is not None:
            after = solver.accum_stats()
            for k in ("conflicts", "decisions", "propagations"):
                stats[k] = after.get(k, 0) - before.get(k, 0)
        return Result(status, solutions[0] if solutions else None,
                      len(solutions) if limit >= 2 else None,
                      solutions[1] if len(solutions) > 1 else None,
                      self.name, engine.encoding, (time.perf_counter() - start) * 1000, stats,
                      None, limit)

    def _count(self, engine: Engine, grid: Grid, assumptions: list[int], limit: int,
               deadline: Deadline, solutions: list[Grid], steer: bool = False) -> str:
        try:
            return self._counted(engine, grid, assumptions, limit, deadline, solutions, steer)
        except KeyboardInterrupt as stop:  # Ctrl-C: the command line says how far it got
            stop.found = len(solutions) if limit > 1 else None  # type: ignore[attr-defined]
            raise

    def _counted(self, engine: Engine, grid: Grid, assumptions: list[int], limit: int,
                 deadline: Deadline, solutions: list[Grid], steer: bool = False) -> str:
        """Solve, then block each solution and solve again, until ``limit`` solutions or none
        is left; the status. ``solutions`` fills as they come (kept on a timeout).

        With the decision test (:attr:`FullEngine.decision_test`, docs/floor.md), a first
        solve under assumptions that made no decision found the only solution: every variable
        was set by unit propagation from the assumptions over clauses the formula implies, so
        any solution agrees with it (assumed literals are not counted as decisions; learnt
        clauses that used an earlier puzzle's guarded clause hold that puzzle's retired
        activation literal). Without assumptions CaDiCaL does not backtrack before solving: a
        solve right after a satisfiable one keeps the old trail and makes no decision (an
        empty grid counted twice), so the test needs assumptions.

        Each solution found is ruled out by a clause over the true variables of the cells not
        given, guarded by one activation literal for the whole count. ``steer`` (a batch's
        puzzles after its first, see :attr:`SatSolver.steer`) also steers the next solve away
        from the solutions found on engines with the decision test: those variables' phases
        are forced false (``set_phases``), and true after the count. That took 6 to 12% off
        counting (17-clue, top1465, hardest; docs/floor.md), but the second solution it finds
        differs from the first in more cells (27 instead of 6 for 'sampleHard'), so a single
        puzzle is counted as before. Forcing every cell variable's phase true once per solver
        as well ("pos") gained at most 1% more on 17-clue and top1465 and 5% on hardest, and
        would change the first solution too: not done. Only the second solve is steered:
        counting to thousands with every solution's literals forced false took four times as
        long (39,168 6x6 grids, tests/test_counts.py).
        """
        solver = engine.solver
        decided = limit >= 2 and bool(assumptions) and engine.decision_test
        steer = steer and decided
        if decided:
            if not engine.counting:
                solver.solver.configure(COUNT_OPTIONS[self.info.name])
                engine.counting = True
            before = solver.accum_stats()["decisions"]
        answer = self._run(engine, assumptions, deadline)
        act = 0
        avoided: list[int] = []
        try:
            while answer:
                model = solver.get_model()
                solutions.append(engine.decode(model))
                if len(solutions) >= limit:
                    break
                if decided and solver.accum_stats()["decisions"] == before:
                    break  # forced: the only solution
                if not act:
                    act = engine.fresh_var()
                block = engine.varmap.blocking(solutions[-1], grid)
                solver.add_clause([-act] + block)
                if steer and len(solutions) == 1:  # the second solve only (see above)
                    solver.set_phases(block)
                    avoided += block
                decided = False
                answer = self._run(engine, assumptions + [act], deadline)
        finally:
            if act and not engine.broken:
                if avoided:
                    solver.set_phases([-lit for lit in avoided])
                solver.add_clause([-act])
        if answer is None:
            raise TimeUp
        if limit < 2:
            return "solved" if solutions else "unsolvable"
        return counted_status(len(solutions))

    def _run(self, engine: Engine, assumptions: list[int], deadline: Deadline,
             conflicts: int | None = None) -> bool | None:
        """One solve call: True, False, or None when the deadline (or ``conflicts``, a budget
        that gives the same answer on every machine) ran out first. Ctrl-C inside the solver
        leaves it unusable (CaDiCaL aborts on the next call): the engine is marked broken."""
        small = engine.geometry.size <= OPTIONS_MAX_SIZE
        pending = engine.implied
        try:
            if pending is not None and conflicts is None and set(pending[1]) <= set(assumptions):
                if self.info.budget:  # easy puzzles end first, and never pay for them
                    answer = self.clock.solve(engine.solver, assumptions, deadline,
                                              IMPLIED_AFTER, small)
                    if answer is not None or deadline.expired():
                        return answer
                engine.add_implied()
            return self.clock.solve(engine.solver, assumptions, deadline, conflicts, small)
        except KeyboardInterrupt:
            self._drop(engine)
            raise

    def _drop(self, engine: Engine) -> None:
        """Mark ``engine`` broken (interrupted inside the solver) and forget it."""
        engine.broken = True
        for key, cached in list(self._engines.items()):
            if cached is engine:
                del self._engines[key]
        for geo, cached in list(self._ready.items()):
            if cached is engine:
                del self._ready[geo]

    def close(self) -> None:
        """Free every solver (python-sat solvers hold C memory)."""
        for engine in self._engines.values():
            engine.delete()
        self._engines.clear()
        self._ready.clear()


    def __repr__(self) -> str:
        return (f"SatSolver({self.sat_solver!r}, encoding={self.encoding!r}, amo={self.amo!r}, "
                f"incremental={self.incremental})")
