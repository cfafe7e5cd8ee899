"""The fast path: a batch's common case, kept lean, as one object that can be turned off.

Two shortcuts make thousands of classic 9x9 puzzles a second possible (docs/floor.md):

- **ready engines**: after a puzzle charged a full engine's build and load, every later
  classic puzzle of its geometry with no time limit and no rules goes straight to the solve
  call (:meth:`FastPath.solve`): no deadline, no stage bookkeeping, the same result and the
  same stats in the same order as the general way of :meth:`satdoku.sat.solver.SatSolver.solve`.
- **the batch pass** (:meth:`FastPath.settle`): the grids of a batch that unit propagation of
  the augmented encoding settles are answered all at once by bit-sliced propagation
  (:mod:`satdoku.sat.sliced`), without a solver call.

:class:`~satdoku.sat.solver.SatSolver` holds a :class:`FastPath` unless it is made with
``fast=False``; then every puzzle goes the general way, and the contract tests
(tests/test_contract.py) hold both to the same answers.
"""

from __future__ import annotations

import time

from ..budget import Budget
from ..cnf.encodings import DEFAULT_AMO, formula_size
from ..deadline import NO_DEADLINE
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..model.result import Result
from .clock import pysat_call
from .counting import count

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from .backend import Backend
    from .engines import FullEngine

__all__ = ["FastPath", "SETTLE_MAX_SIZE", "SETTLE_BUSY", "SETTLED_ENCODINGS", "SLICED_MIN_GRIDS"]

#: Grids up to this size take part in :meth:`FastPath.settle` (a digit of a cell is a byte
#: when the slices are read back, and the 9x9 batches are what it is for).
SETTLE_MAX_SIZE = 16

#: :meth:`FastPath.settle` gives a batch up when propagation has stopped changing more than
#: this share of its puzzles after a few rounds (:func:`satdoku.sat.sliced.settle`).
SETTLE_BUSY = 0.5

#: The encodings whose batches :meth:`FastPath.settle` pre-solves (by propagation of the
#: augmented encoding: singles and locked candidates).
SETTLED_ENCODINGS = frozenset({"extended", "augmented"})

#: Fewer grids of a geometry than this are settled one at a time by native search's passes
#: (:func:`satdoku.native.reduce.reduce_candidates`, the same rules to their fixed point; the
#: bit-sliced pass may give a hard batch up early): a bit-sliced round costs about as much for
#: one grid as for a hundred. 17-clue 9x9, ms a
#: grid, sliced against native: 3.4 / 0.28 alone, 0.87 / 0.26 by 8, 0.30 / 0.27 by 64,
#: 0.08 / 0.27 by 256 (docs/tuning.md).
SLICED_MIN_GRIDS = 64


class FastPath:
    """The ready engines of a backend, by geometry, and the batch pass.

    Args:
        backend: the engines it serves from.
        stats: put the solver's conflicts, decisions and propagations into each result.
    """

    def __init__(self, backend: Backend, stats: bool = True) -> None:
        self.backend = backend
        self.stats = stats
        self.ready: dict[Geometry, FullEngine] = {}
        self.answers = 0  # puzzles the fast path answered (the contract tests look)

    def admit(self, engine: FullEngine) -> None:
        """Serve ``engine``'s geometry from now on: it is loaded and a puzzle was charged with
        its build and load (the general way does this). Engines kept for questions (never
        rebuilt) and per-puzzle ones are not admitted."""
        if engine.rebuild_every and not engine.per_puzzle:
            engine.fast = True
            self.ready[engine.geometry] = engine

    def engine_for(self, grid: Grid) -> FullEngine | None:
        """The ready engine that may serve ``grid`` (classic, no time limit), or None: none is
        loaded and charged, or its solver is due to be rebuilt (the general way does it)."""
        engine = self.ready.get(grid.geometry)
        if engine is not None and engine.fast and engine.uses < engine.rebuild_every:
            return engine
        return None

    def solve(self, engine: FullEngine, grid: Grid, limit: int, start: float,
              steer: bool = False) -> Result:
        """``grid`` solved (``limit`` 1) or counted on the ready ``engine``; with ``steer``,
        counts steer away from the solutions found (:mod:`satdoku.sat.counting`)."""
        engine.uses += 1
        self.answers += 1
        assumptions = engine.clue_literals(grid)
        t1 = time.perf_counter()
        stats: dict[str, Any] = {"encode_ms": (t1 - start) * 1000, "load_ms": 0.0}
        solutions: list[Grid] = []
        solver = engine.solver
        before = solver.accum_stats() if self.stats else None
        try:
            if limit == 1:
                try:  # Backend.run without its layers: the solve call alone
                    answer = pysat_call(solver.solve, assumptions=assumptions)
                except KeyboardInterrupt:
                    self.backend.drop(engine)
                    raise
                if answer:
                    solutions.append(engine.decode(solver.get_model()))
                status = "solved" if answer else "unsolvable"
            else:
                status = count(self.backend, engine, grid, assumptions, limit, NO_DEADLINE,
                               solutions, steer=steer)
        except BaseException:
            if engine.broken:  # Ctrl-C inside the solver (see Backend.run)
                engine.delete()
            raise
        stats["solve_ms"] = (time.perf_counter() - t1) * 1000
        engine.measure(stats, before)
        return Result(status, solutions[0] if solutions else None,
                      len(solutions) if limit >= 2 else None,
                      solutions[1] if len(solutions) > 1 else None,
                      self.backend.name, engine.encoding, (time.perf_counter() - start) * 1000,
                      stats, None, limit)

    def settle(self, grids: list[Grid], limit: int = 1) -> list[Result | None]:
        """The results of the ``grids`` (classic, givens checked) that unit propagation alone
        settles, None for the others: :mod:`satdoku.sat.sliced` over all of them at once (a
        few, under :data:`SLICED_MIN_GRIDS`, by native search's passes one at a time).

        A batch's pre-pass (:class:`satdoku.tasks.solvers.SolveTask`): a settled grid is solved
        (``limit`` 1) or ``unique`` without a solver call; its ``time_ms`` (and ``cpu_ms``) is
        its share of the pass, and its stats are those of a solver call that needed no
        conflict, decision or propagation (the SAT solver made none; the formula's size is
        the one it would load). Only grids up to :data:`SETTLE_MAX_SIZE` whose encoding is one
        of :data:`SETTLED_ENCODINGS` take part: the weaker encodings are asked for to see them
        work.
        """
        backend = self.backend
        out: list[Result | None] = [None] * len(grids)
        by_geometry: dict[Geometry, list[int]] = {}
        for i, grid in enumerate(grids):
            geo = grid.geometry  # sliced: three houses of N cells a cell
            if grid.size <= SETTLE_MAX_SIZE and geo.has_boxes and geo.is_plain and \
                    backend.encoding_for(grid) in SETTLED_ENCODINGS:
                by_geometry.setdefault(grid.geometry, []).append(i)
        status = "solved" if limit < 2 else "unique"
        counted = None if limit < 2 else 1
        for geo, chosen in by_geometry.items():
            encoding = backend.encoding_for(grids[chosen[0]])
            nvars, nclauses = formula_size(geo, encoding, backend.amo or DEFAULT_AMO)
            if nclauses > Budget(backend.max_clauses).left:
                continue  # the solver's way refuses them (--max-clauses binds every stage)
            begun, cpu = time.perf_counter(), time.process_time()
            if len(chosen) < SLICED_MIN_GRIDS:
                settled = [_settled_alone(grids[i]) for i in chosen]
            else:
                from .sliced import settle
                settled = settle(geo, [grids[i].cells for i in chosen], busy=SETTLE_BUSY)
            share = (time.perf_counter() - begun) * 1000 / len(chosen)
            cpu_share = (time.process_time() - cpu) * 1000 / len(chosen)
            for i, cells in zip(chosen, settled):
                if cells is not None:
                    stats: dict[str, Any] = {"encode_ms": 0.0, "load_ms": 0.0,
                                             "solve_ms": share, "cpu_ms": cpu_share,
                                             "variables": nvars, "clauses": nclauses}
                    if self.stats:
                        stats.update(conflicts=0, decisions=0, propagations=0)
                    out[i] = Result(status, Grid(geo, cells), counted, None, backend.name,
                                    encoding, share, stats, None, limit)
        return out

    def forget(self) -> None:
        """Serve nothing more (the backend's engines are being freed)."""
        self.ready.clear()


def _settled_alone(grid: Grid) -> tuple[int, ...] | None:
    """The grid singles and locked candidates settle ``grid`` to, or None: what
    :func:`satdoku.sat.sliced.settle` gives one grid, run to its fixed point."""
    from ..native.reduce import reduce_candidates
    red = reduce_candidates(grid, locked=True)
    if red.contradiction is not None or any(m & (m - 1) for m in red.cand):
        return None
    return tuple(m.bit_length() for m in red.cand)
