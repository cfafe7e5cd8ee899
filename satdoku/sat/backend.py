"""The engines of one python-sat configuration: which engine a grid gets, and one solve call.

:class:`Backend` is what solving, counting (:mod:`satdoku.sat.counting`), the questions
(:mod:`satdoku.sat.questions`) and the fast path (:mod:`satdoku.sat.fast`) share: the solver's
name and options, the encoding a grid gets, the full engines kept per geometry (an
:class:`~satdoku.sat.engines.Engine` is one python-sat solver with its formula, its variable
map and the rules guarded by activation literals), the clock that keeps time limits, and
:meth:`Backend.run`, the one solve call of them all. Each of those takes the backend as its
first argument; none depends on a host class.
"""

from __future__ import annotations

import time

from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..cnf.encodings import DEFAULT_AMO, DEFAULT_REDUCED_AMO, check_encoding, formula_size
from ..cnf.policy import REDUCED_MIN_SIZE, choose_encoding
from ..deadline import Deadline
from ..errors import OptionError
from ..model.geometry import Geometry
from ..model.grid import Grid
from .catalogue import CONFIGURABLE, OPTIONS_MAX_SIZE, SatSolverInfo
from .clock import Clock, pysat_call
from .engines import Engine, FullEngine, ReducedEngine, Settled

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Backend", "Escalate", "IMPLIED_AFTER", "ESCALATE_AFTER", "ESCALATE_CLAUSES",
           "KEEP_OWN_MAX_SIZE"]

#: Conflicts a solve under variant rules may take before their implied constraints are added
#: (:meth:`Backend.run`; :mod:`satdoku.rules.implied`, docs/sum-encodings.md).
IMPLIED_AFTER = 300

#: Conflicts a puzzle may take on a shared engine (clues and rules as assumptions) before it
#: gets an engine of its own, where they are unit clauses (:class:`Escalate`; on a hard puzzle
#: the solver ran 1.7-2.5 times as fast there, docs/performance.md).
ESCALATE_AFTER = 2000

#: And one conflict more for this many clauses of the puzzle's rules, which the own engine
#: encodes again (an NFA puzzle of 238,000 clauses took twice the CPU when it escalated at 2,000).
ESCALATE_CLAUSES = 10


#: The largest grid whose escalated engine :meth:`Backend.own` keeps for the puzzle asked again.
KEEP_OWN_MAX_SIZE = 16


class Escalate(Exception):
    """A puzzle used up :data:`ESCALATE_AFTER` conflicts on a shared engine: solve it again on
    one of its own (:meth:`satdoku.sat.solver.SatSolver.solve`)."""


class Backend:
    """A python-sat solver's configuration and the engines it keeps.

    Args:
        info: the solver (:func:`~satdoku.sat.catalogue.check_sat_solver`'s answer).
        encoding, amo, max_clauses, reduction, configure, reduced_from, incremental: see
            :class:`~satdoku.sat.solver.SatSolver`.
    """

    def __init__(self, info: SatSolverInfo, encoding: str | None = None,
                 amo: str | None = None, *, incremental: bool = True,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 reduction: dict[str, Any] | None = None,
                 configure: dict[str, int] | None = None,
                 reduced_from: int | None = None) -> None:
        if configure and info.name not in CONFIGURABLE:
            raise OptionError(f"{info.name} takes no solver options; only "
                              f"{', '.join(CONFIGURABLE)} do")
        self.info = info
        self.name = f"sat:{info.name}"
        self.encoding = encoding
        self.amo = amo
        self.incremental = incremental
        self.max_clauses = max_clauses
        self.reduction = reduction or {}
        self.configure = dict(configure or {})
        self.reduced_from = reduced_from
        self.clock = Clock(info)
        self.engines: dict[tuple[Geometry, str], FullEngine] = {}
        self._encodings: dict[int, str] = {}
        # The engine of the last puzzle that escalated (:meth:`own`), kept for that puzzle
        # and its rules asked again: (puzzle, engine).
        self._own: tuple[object, FullEngine] | None = None

    def encoding_for(self, grid: Grid) -> str:
        """The encoding ``grid`` gets: the one named, else the choice by size."""
        if self.encoding is not None:
            return self.encoding
        encoding = self._encodings.get(grid.size)
        if encoding is None:
            encoding = self._encodings[grid.size] = choose_encoding(
                grid.size, self.reduced_from or REDUCED_MIN_SIZE)
        return encoding

    def _key(self, grid: Grid) -> tuple[Geometry, str]:
        """Where :attr:`engines` keeps the shared engine of ``grid``."""
        return grid.geometry, self.encoding_for(grid)

    def built(self, grid: Grid) -> bool:
        """Whether the shared engine ``grid`` would get is built."""
        return self._key(grid) in self.engines

    def engine(self, grid: Grid, deadline: Deadline, units: bool = False,
               keep: bool = False, hard: bool = False, rules: tuple | None = None) -> Engine:
        """The engine for ``grid``, loaded; per-puzzle engines are the caller's to
        :meth:`release`.

        ``hard`` (with ``units``): a puzzle known to be hard (it escalated, or is cubed) gets
        the SAT solver's own defaults, not :data:`~satdoku.sat.catalogue.SOLVER_OPTIONS`:
        its long search wants the inprocessing those options leave out (docs/tuning.md).
        With ``rules`` too (the puzzle's, an escalation's), the engine is the one :meth:`own`
        keeps for the puzzle when there is one, else kept there for it.

        ``keep``: the engine is never rebuilt from now on. Cores and other solutions ask for
        it: their callers (explain, generate) go by answers that depend on what the solver
        learnt before (conflict budgets, the first solution found), and they give the same
        answers as before rebuilds existed.

        Raises TimeUp, TooBigError, or :class:`Settled` when a reduction decided the puzzle.
        """
        encoding = self.encoding_for(grid)
        if check_encoding(encoding).reduced:
            return self._reduced(grid, deadline)
        key = self._key(grid)
        mine = None if rules is None or not (units and hard) else self._puzzle(grid, rules)
        kept = self._kept(mine)
        if kept is not None:
            kept.uses += 1
            return kept
        engine = None if units else self.engines.get(key)
        if engine is not None and keep:
            engine.never_rebuild()
        elif engine is not None and engine.due():
            engine.rebuild()  # the fast path passes it by until a solve charged the rebuild
        if engine is None:
            engine = self._full(grid.geometry, encoding, units, keep, hard and units)
            if not units:
                self.engines[key] = engine
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
        if mine is not None and isinstance(engine, FullEngine):
            self._forget_own()
            self._own = (mine, engine)
        return engine

    def own(self, grid: Grid, rules: tuple) -> FullEngine | None:
        """The engine of ``grid`` under ``rules`` when it is the last puzzle that escalated
        (:class:`Escalate`) and the engine is whole: asked again (a setter's next question, a
        count after a solve), the puzzle goes straight to it and finds what it learnt there,
        its clues and rules unit clauses already. An engine kept for another puzzle is freed:
        one is kept while the same puzzle comes again, as the shared engine keeps rules.
        Grids past :data:`KEEP_OWN_MAX_SIZE` are not kept (their engines are big)."""
        if self._own is None:  # the common case: nothing kept, nothing to compare
            return None
        kept = self._kept(self._puzzle(grid, rules))
        if kept is None:
            self._forget_own()
        return kept

    def _kept(self, mine: object | None) -> FullEngine | None:
        own = self._own
        if mine is None or own is None or own[0] != mine or own[1].broken:
            return None
        return own[1]

    @staticmethod
    def _puzzle(grid: Grid, rules: tuple) -> object | None:
        """What :meth:`own` keeps an engine for: the grid and its rules (None: not kept)."""
        if grid.size > KEEP_OWN_MAX_SIZE:
            return None
        mine = (grid.geometry, grid.cells, tuple(rules))
        try:
            hash(mine)
        except TypeError:  # a rule with a field that cannot be hashed
            return None
        return mine

    def _forget_own(self) -> None:
        if self._own is not None:
            self._own[1].delete()
            self._own = None

    def _full(self, geo: Geometry, encoding: str, units: bool, keep: bool,
              hard: bool = False) -> FullEngine:
        """A new full engine, refused (TooBigError) over the clause limit before any work."""
        amo = self.amo or DEFAULT_AMO
        n = geo.size
        Budget(self.max_clauses).refuse(formula_size(geo, encoding, amo)[1],
                                        f"a {n}x{n} grid in the {encoding} encoding")
        engine = FullEngine(self.info, geo, encoding, amo, units, self.configure, hard)
        if keep:
            engine.never_rebuild()
        return engine

    def _reduced(self, grid: Grid, deadline: Deadline) -> ReducedEngine:
        """The reduced formula of ``grid``, loaded; :class:`Settled` when the reduction alone
        decided the puzzle."""
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

    def run(self, engine: Engine, assumptions: list[int], deadline: Deadline,
            conflicts: int | None = None) -> bool | None:
        """One solve call: True, False, or None when the deadline (or ``conflicts``, a budget
        that gives the same answer on every machine) ran out first. Ctrl-C inside the solver
        leaves it unusable (CaDiCaL aborts on the next call): the engine is marked broken.
        Raises :class:`Escalate` once the solver passes ``engine.escalate_at`` conflicts."""
        small = engine.geometry.size <= OPTIONS_MAX_SIZE
        pending = engine.implied
        try:
            cap = self._cap(engine, conflicts)
            if pending is not None and conflicts is None and set(pending[1]) <= set(assumptions):
                if self.info.budget:  # easy puzzles end first, and never pay for them
                    answer = self.clock.solve(engine.solver, assumptions, deadline,
                                              IMPLIED_AFTER if cap is None
                                              else min(cap, IMPLIED_AFTER), small,
                                              settings=engine.settings)
                    if answer is not None or deadline.expired():
                        return answer
                    cap = self._cap(engine, conflicts)
                engine.add_implied()
            answer = self.clock.solve(engine.solver, assumptions, deadline, conflicts, small,
                                      cap, engine.settings)
            if answer is None and cap is not None and not deadline.expired():
                raise Escalate
            return answer
        except KeyboardInterrupt:
            self.drop(engine)
            raise

    @staticmethod
    def _cap(engine: Engine, conflicts: int | None) -> int | None:
        """Conflicts left before ``engine.escalate_at`` (None: no such limit); Escalate when
        none are."""
        if conflicts is not None or engine.escalate_at is None:
            return None
        cap = engine.escalate_at - engine.solver.accum_stats().get("conflicts", 0)
        if cap <= 0:
            raise Escalate
        return cap

    def drop(self, engine: Engine) -> None:
        """Mark ``engine`` broken (interrupted inside the solver) and forget it."""
        engine.broken = True
        engine.fast = False
        for key, cached in list(self.engines.items()):
            if cached is engine:
                del self.engines[key]
        if self._own is not None and self._own[1] is engine:
            self._own = None  # release() frees it

    def release(self, engine: Engine) -> None:
        """Free ``engine`` when it served one puzzle only (and :meth:`own` does not keep it),
        or was broken by an interrupt."""
        if engine.broken or (engine.per_puzzle and not (self._own is not None
                                                        and self._own[1] is engine)):
            engine.delete()

    def close(self) -> None:
        """Free every solver (python-sat solvers hold C memory)."""
        for engine in self.engines.values():
            engine.delete()
        self.engines.clear()
        self._forget_own()
