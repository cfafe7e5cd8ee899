"""The SAT backend's solver: python-sat engines over a full or a reduced formula, one deadline.

:class:`SatSolver` is the :class:`~satdoku.model.result.Solver` of the SAT backend, made of
parts that each take the :class:`~satdoku.sat.backend.Backend` (the solver's configuration
and its engines, :mod:`satdoku.sat.engines`; :meth:`Backend.run` keeps the time limits with
:mod:`satdoku.sat.clock`):

- counting (:mod:`satdoku.sat.counting`): solve, block the solution, solve again;
- the questions (:mod:`satdoku.sat.questions`): cores, assumed and other solutions, every
  solution, as functions ``core(solver.backend, grid)``;
- the fast path (:mod:`satdoku.sat.fast`): ready engines and the batch pass, one object that
  ``fast=False`` turns off;
- solving afresh (:mod:`satdoku.sat.oneshot`) for solvers that take no assumptions.

:mod:`satdoku.cnf.formula` builds the rules within the clause budget; which encoding a puzzle
gets when none is named is :func:`satdoku.cnf.policy.choose_encoding`.
"""

from __future__ import annotations

import time

from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..cnf.encodings import check_choices
from ..closing import Closing
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import SolverError, TooBigError
from ..model.grid import Grid
from ..model.result import Result, counted_status, result_of, status_of
from ..records import replace
from .backend import ESCALATE_AFTER, ESCALATE_CLAUSES, Backend, Escalate
from .catalogue import DEFAULT_SAT_SOLVER, SAT_SOLVERS, check_sat_solver
from .counting import count
from .engines import Engine, FullEngine, Settled
from .fast import FastPath

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any

__all__ = ["SatSolver", "DEFAULT_SAT_SOLVER", "SAT_SOLVERS"]


class SatSolver(Closing):
    """Solve and count puzzles of any geometry with a python-sat solver.

    Args:
        sat_solver: a name from :data:`SAT_SOLVERS` (python-sat aliases allowed; default
            :data:`DEFAULT_SAT_SOLVER`).
        encoding: a name from :data:`satdoku.cnf.encodings.ENCODINGS`; None picks one by grid size
            (:func:`satdoku.cnf.policy.choose_encoding`).
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
        fast: keep the fast path (:attr:`fast`, :mod:`satdoku.sat.fast`); off (None), every
            puzzle goes the general way (the contract tests run both).
        reduced_from: the grid size from which ``encoding=None`` means reduced (default
            :data:`satdoku.cnf.policy.REDUCED_MIN_SIZE`; explain, generate and rate pass
            :data:`~satdoku.cnf.policy.LARGE_MIN_SIZE`).

    >>> from satdoku.model.geometry import geometry
    >>> with SatSolver() as s:
    ...     r = s.solve(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> r.status, r.solution.cells[:4]
    ('solved', (1, 2, 3, 4))
    """

    #: Batches (:class:`satdoku.tasks.solvers.SolveTask`) set this: from a batch's second puzzle
    #: on, a count on the fast path steers each new solve away from the solutions found, which
    #: is faster but finds a second solution farther from the first (:mod:`satdoku.sat.counting`).
    #: Off (``explain``, the library calls), a puzzle with several solutions is counted as it
    #: always was.
    steer = False

    def __init__(self, sat_solver: str | None = None, encoding: str | None = None,
                 amo: str | None = None, *, incremental: bool = True, stats: bool = True,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 reduction: dict[str, Any] | None = None,
                 configure: dict[str, int] | None = None,
                 reduced_from: int | None = None, fast: bool = True) -> None:
        info = check_sat_solver(sat_solver or DEFAULT_SAT_SOLVER)
        check_choices(encoding, amo)
        self.backend = Backend(info, encoding, amo, incremental=incremental,
                               max_clauses=max_clauses, reduction=reduction,
                               configure=configure, reduced_from=reduced_from)
        self.sat_solver = info.name
        self.name = self.backend.name
        self.encoding = encoding
        self.stats = stats
        #: The fast path, or None when turned off.
        self.fast = FastPath(self.backend, stats) if fast else None
        self.capabilities = replace(info.capabilities, settle=fast)

    def encoding_for(self, grid: Grid) -> str:
        """The encoding ``grid`` gets: the one named, else the choice by size."""
        return self.backend.encoding_for(grid)

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple = ()) -> Result:
        """Find one solution of ``grid`` (``limit=1``) or count solutions up to ``limit``.

        ``constraints`` (variant rules) are added for this puzzle only, each guarded by an
        activation literal, within the clause budget. Every stage stops at ``deadline``.
        """
        start = time.perf_counter()
        fast = self.fast
        if fast is not None and not constraints and (deadline is None or
                                                     deadline.seconds is None):
            ready = fast.engine_for(grid)
            if ready is not None:
                return fast.solve(ready, grid, limit, start, self.steer)
        deadline = deadline or NO_DEADLINE
        info = self.backend.info
        if not deadline.unlimited and not self.capabilities.time_limit:
            raise SolverError(f"{info.name} cannot stop at a time limit; choose one of "
                              f"{', '.join(n for n, i in SAT_SOLVERS.items() if i.budget)}")
        if not info.assumptions:
            from .oneshot import solve_afresh
            return solve_afresh(self.backend, grid, limit, deadline, constraints, start)
        return self._solve_loaded(grid, limit, deadline, constraints, start)

    def _solve_loaded(self, grid: Grid, limit: int, deadline: Deadline, constraints: tuple,
                      start: float) -> Result:
        """:meth:`solve` the general way: on the grid's engine, with the stages timed and the
        time limit, the clause limit and a reduction that decides the puzzle as statuses. A
        puzzle that passes :data:`~satdoku.sat.backend.ESCALATE_AFTER` conflicts on a shared
        engine is counted again, from the start, on an engine of its own."""
        backend = self.backend
        stats: dict[str, Any] = {}
        solutions: list[Grid] = []
        status = message = None
        units = not backend.incremental
        hard = False
        if not units and backend.own(grid, constraints) is not None:
            units = hard = True  # asked again after it escalated: on to the engine it left
        while status is None and message is None:
            solutions.clear()
            try:
                status = self._count_on(grid, limit, deadline, constraints, units, stats,
                                        solutions, hard)
            except Escalate:
                units = hard = True
                stats["escalated"] = 1
            except (TimeUp, TooBigError) as error:
                status, message = status_of(error, deadline,
                                            len(solutions) if limit > 1 else None)
                if isinstance(error, TimeUp) and "solve_ms" not in stats:  # while building
                    stats.update(encode_ms=(time.perf_counter() - start) * 1000, solve_ms=0.0)
            except Settled as settled:
                stats.update(encode_ms=(time.perf_counter() - start) * 1000, load_ms=0.0,
                             solve_ms=0.0)
                status = _settled(settled, grid, constraints, limit, solutions)
        assert status is not None  # every way out of the loop sets it
        return result_of(status, solutions, limit=limit, solver=self.name,
                         encoding=self.encoding_for(grid),
                         time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                         message=message)

    def _count_on(self, grid: Grid, limit: int, deadline: Deadline, constraints: tuple,
                  units: bool, stats: dict[str, Any], solutions: list[Grid],
                  hard: bool = False) -> str:
        """Count ``grid`` on its engine (``units``: one of its own, the clues and rules unit
        clauses; ``hard``: with the solver's defaults, see
        :meth:`~satdoku.sat.backend.Backend.engine`), the stages' times and the solver's
        figures into ``stats``."""
        backend = self.backend
        engine: Engine | None = None
        before: dict[str, int] | None = None
        try:
            engine = backend.engine(grid, deadline, units=units, hard=hard, rules=constraints)
            engine.charge(stats)
            if self.fast is not None and isinstance(engine, FullEngine):
                self.fast.admit(engine)
            t0 = time.perf_counter()
            assumptions = engine.assumptions(grid)
            if constraints:
                assumptions = assumptions + engine.rule_acts(
                    constraints, Budget(backend.max_clauses, deadline))
            t1 = time.perf_counter()
            stats["encode_ms"] += (t1 - t0) * 1000
            shared = not engine.per_puzzle and backend.info.budget
            before = engine.solver.accum_stats() if self.stats or shared else None
            if shared and before is not None:
                # An own engine encodes the rules again: a big encoding waits longer.
                engine.escalate_at = (before.get("conflicts", 0) + ESCALATE_AFTER
                                      + engine.rule_clauses // ESCALATE_CLAUSES)
            try:
                return count(backend, engine, grid, assumptions, limit, deadline, solutions)
            finally:
                stats["solve_ms"] = (stats.get("solve_ms", 0.0)
                                     + (time.perf_counter() - t1) * 1000)
        finally:
            if engine is not None:
                engine.escalate_at = None
                if not engine.broken:
                    engine.measure(stats, before if self.stats else None, bool(constraints))
                backend.release(engine)

    def settle(self, grids: list[Grid], limit: int = 1) -> list[Result | None]:
        """The batch pass of the fast path (:meth:`satdoku.sat.fast.FastPath.settle`): the
        results of the ``grids`` that propagation settles, None for the others (all None
        when the fast path is off)."""
        if self.fast is None:
            return [None] * len(grids)
        return self.fast.settle(grids, limit)

    def warm(self, grids: list[Grid]) -> bool:
        """Whether an engine is built for each of ``grids`` (their geometry and encoding):
        then a batch pass over a few of them costs more than it saves. Before the first one
        the pass may save building it, and importing python-sat: a one-puzzle solve."""
        return all(map(self.backend.built, grids))

    def close(self) -> None:
        """Free every solver (python-sat solvers hold C memory)."""
        if self.fast is not None:
            self.fast.forget()
        self.backend.close()

    def __repr__(self) -> str:
        b = self.backend
        return (f"SatSolver({self.sat_solver!r}, encoding={self.encoding!r}, amo={b.amo!r}, "
                f"incremental={b.incremental})")


def _settled(settled: Settled, grid: Grid, constraints: tuple, limit: int,
             solutions: list[Grid]) -> str:
    """The status of a puzzle the reduction decided; its solution, if any, into ``solutions``."""
    solution = settled.solution(grid, constraints)
    if solution is not None:
        solutions.append(solution)
    if limit < 2:
        return "solved" if solution else "unsolvable"
    return counted_status(len(solutions))
