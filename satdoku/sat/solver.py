"""The SAT backend: python-sat solvers over a full or a reduced formula, one deadline for all.

Glossary (adds to :mod:`satdoku.cnf.encode`):

- engine: one python-sat solver holding one formula, and the way to read its models. A *full*
  engine holds the base formula of a geometry and serves every puzzle of that geometry, clues as
  assumptions: learnt clauses carry over and nothing is rebuilt, which is what makes thousands of
  9x9 puzzles a second possible. A *reduced* engine holds one puzzle's reduced formula (clues
  folded away) and is dropped after it.
- activation literal: a fresh variable ``act`` guarding clauses that must hold for one question
  only: ``[-act, ...]`` counts while ``act`` is assumed, and the unit ``[-act]`` retires it for
  good. Counting blocks each solution found this way, over the true variables of the cells that
  were not given (python-sat's ``enum_models`` leaves its blocking clauses behind; python-sat
  issue 81); variant constraints are added this way per puzzle.

:class:`SatSolver` owns solving, counting, cores and time limits once, whatever the formula.
Which encoding a puzzle gets when none is named is :func:`satdoku.tasks.solvers.choose_encoding`.

Time limits (:class:`~satdoku.deadline.Deadline`): building and loading a formula look at the
deadline between chunks of clauses; the base formula of a geometry is loaded in chunks that a
later puzzle resumes if a deadline cut the loading short. Solving: MiniSat-like solvers have
``interrupt()``, called from one watchdog thread at the deadline; CaDiCaL has none, so it solves
in slices of a conflict budget, each sized from the conflict rate just seen to last half the time
the call has taken so far (at least 0.05 s, at most 4 times the last, and at most half the time
left before the deadline), with the clock read between slices.
"""

from __future__ import annotations

import itertools
import operator
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterator

from pysat.formula import IDPool
from pysat.solvers import Solver as PysatSolver
from pysat.solvers import SolverNames

from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..cnf.decode import decode_model, decode_reduced
from ..cnf.encode import (DEFAULT_AMO, DEFAULT_MAX_CLAUSES, DEFAULT_REDUCED_AMO, ReducedFormula,
                     base_clauses, check_amo, check_encoding, check_size, clue_literals, encode,
                     exclusion_clause, formula_size, reduced_formula)
from ..errors import ModelError, OptionError, SolverError, TooBigError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..model.result import Result, counted_status

__all__ = ["SatSolverInfo", "SAT_SOLVERS", "DEFAULT_SAT_SOLVER", "SatSolver",
           "check_sat_solver", "check_assumptions"]


@dataclass(frozen=True)
class SatSolverInfo:
    """What satdoku knows about one python-sat solver."""

    name: str
    interrupt: bool  # interrupt() works; else the time limit is kept with conflict budgets
    budget: bool  # conf_budget() works; without it or interrupt, no time limit can be kept
    note: str = ""
    # Takes assumptions and clauses after a solve (incremental). Without: one fresh solver per
    # solve call, clues as unit clauses; no cores (explain) and no generate.
    assumptions: bool = True


def _info(name: str, interrupt: bool = True, budget: bool = True, note: str = "",
          assumptions: bool = True) -> SatSolverInfo:
    return SatSolverInfo(name, interrupt, budget, note, assumptions)


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
        # python-sat's Kissat: no interrupt(), a conflict budget for one call only (it cannot
        # resume), no statistics, and no clause after solve(): see _solve_fresh.
        _info("kissat404", interrupt=False, budget=False, assumptions=False,
              note="a fresh solver for every solve (solve, count); no assumptions, so no "
                   "explain, candidates or generate; cannot keep a time limit"),
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

#: Conflict-budget slices (CaDiCaL's time limits): from SLICE_MIN_S, each half the time the
#: call has taken so far, capped by half the time left. Every solve call costs CaDiCaL part of
#: its search state, and the cost grows with the number of calls: fixed 0.05 s slices took
#: 1.3-1.45 times the conflicts of one uninterrupted call on hard 25x25 puzzles; on 64-1 one
#: call found the solution in 20 s (131,296 conflicts), slices doubling from 10 conflicts in
#: 20 s (14 calls), slices of at most 10 s in 67 s (21 calls), and slices of at most 1 s not
#: in 300 s (1.3 million conflicts). The price: SIGTERM waits for the slice under way (at most
#: half the time spent so far); Ctrl-C stops at once (docs/hard-grids.md).
SLICE_MIN_S = 0.05

#: Set on an incremental engine when it starts counting with the decision test: CaDiCaL's
#: lucky phases assign variables without counting decisions, so they must be off for "no
#: decision" to mean "forced" (docs/floor.md). Not in :data:`SOLVER_OPTIONS`: a fresh solver
#: (``rate``'s counts, ``--fresh``) has no assumptions, CaDiCaL 1.9.5 tries lucky phases then,
#: and turning them off changed the conflicts of 121 of 200 top1465 puzzles, so ``rate``'s
#: scores. Under assumptions (the incremental engines) 1.9.5 skips lucky phases anyway.
COUNT_OPTIONS: dict[str, dict[str, int]] = {"cadical195": {"lucky": 0}}

#: A full engine of a grid up to :data:`OPTIONS_MAX_SIZE` gets a new solver after this many
#: puzzles. Over all 49,158 17-clue puzzles (CPU us a puzzle, first and last 8,000, no rebuild
#: -> every 2000): solving 83 -> 102 against 77 -> 73, counting to 2 212 -> 1,272 against
#: 120 -> 127; every 1000 and every 4000 within 10% of 2000; losing the learnt clauses every
#: 500 hard puzzles was within noise (docs/floor.md).
REBUILD_EVERY = 2000

#: Solvers whose decision count is known to leave out assumptions, so that a solve under the
#: clues that made no decision proves the grid forced (checked in CaDiCaL 1.9.5's ``decide``;
#: docs/floor.md), with :data:`COUNT_OPTIONS`. Others count to 2 with a second solve.
DECISION_TEST_SOLVERS = frozenset({"cadical195"})

#: The solvers whose options can be set (python-sat's ``configure``).
CONFIGURABLE = ("cadical153", "cadical195")


def check_sat_solver(name: str) -> SatSolverInfo:
    """The :class:`SatSolverInfo` of ``name`` (python-sat's aliases such as ``m22`` allowed).

    Raises:
        OptionError: the name is unknown.

    >>> check_sat_solver('g4').name
    'glucose4'
    """
    canonical = name
    for full, aliases in vars(SolverNames).items():
        if not full.startswith("_") and isinstance(aliases, tuple) and name.lower() in aliases:
            canonical = full
            break
    choices = ", ".join(SAT_SOLVERS)
    if canonical not in SAT_SOLVERS:
        raise OptionError(f"unknown SAT solver {name!r}; choose one of {choices}")
    return SAT_SOLVERS[canonical]


def check_assumptions(name: str | None, what: str) -> SatSolverInfo:
    """The :class:`SatSolverInfo` of ``name`` (None: the default) when it takes assumptions,
    which ``what`` (``'explain'``, ``'generate'``) needs; else :class:`OptionError`.

    >>> check_assumptions('kissat', 'explain')
    Traceback (most recent call last):
    ...
    satdoku.errors.OptionError: kissat404 ignores assumptions, which explain needs; choose another SAT solver
    """
    info = check_sat_solver(name or DEFAULT_SAT_SOLVER)
    if not info.assumptions:
        raise OptionError(f"{info.name} ignores assumptions, which {what} needs; choose "
                          "another SAT solver")
    return info


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


def _call(method, *args: Any, **kwargs: Any) -> Any:
    """A python-sat call; its "Caught keyboard interrupt" error becomes KeyboardInterrupt."""
    try:
        return method(*args, **kwargs)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # pysolvers.error, the only thing these calls raise
        if "keyboard interrupt" in str(error).lower():
            raise KeyboardInterrupt from None
        raise


class _Engine:
    """One python-sat solver, the formula loaded into it, and how to read its models."""

    per_puzzle = False  # dropped after one puzzle (reduced) or kept for the batch (full)
    rebuild_every = 0  # puzzles before a new solver (0: never)

    def __init__(self, info: SatSolverInfo, geometry: Geometry, options: bool,
                 configure: dict[str, int] | None = None) -> None:
        self.info = info
        self.geometry = geometry
        self.solver = PysatSolver(name=info.name)
        settings = SOLVER_OPTIONS.get(info.name) if options else None
        if configure:  # the caller's options (a portfolio's seeds and phases) come on top
            settings = {**(settings or {}), **configure}
        if settings:
            self.solver.solver.configure(settings)  # before any clause: some options insist
        self.settings = settings  # again on a rebuild
        self.top = 0  # highest variable in use, activation literals included
        self.nvars = 0
        self.nmapped = 0  # variables 1..nmapped describe cells; the rest are auxiliary
        self.nclauses = 0
        self.encode_s = self.load_s = 0.0  # build and load time not yet charged to a puzzle
        self.broken = False  # interrupted inside the solver: no further call is allowed
        self.rules: tuple | None = None  # (key, constraints, activation literals) in force

    def fresh_var(self) -> int:
        self.top += 1
        return self.top

    def load(self, chunks: Iterator[list[list[int]]], deadline: Deadline) -> None:
        """Add the clauses of ``chunks``, timing building and loading apart; stops (TimeUp)
        at the deadline between two chunks, and the next call goes on where this one ended."""
        clock = time.perf_counter
        add = self.solver.append_formula
        while True:
            t0 = clock()
            chunk = next(chunks, None)
            t1 = clock()
            self.encode_s += t1 - t0
            if chunk is None:
                return
            _call(add, chunk)
            self.nclauses += len(chunk)
            self.load_s += clock() - t1
            deadline.check()

    def charge(self, stats: dict[str, Any]) -> None:
        """Put the build and load time so far into a puzzle's ``stats`` (once)."""
        stats["encode_ms"] = stats.get("encode_ms", 0.0) + self.encode_s * 1000
        stats["load_ms"] = stats.get("load_ms", 0.0) + self.load_s * 1000
        self.encode_s = self.load_s = 0.0
        formula = getattr(self, "formula", None)
        if formula is not None:  # what the reduction did (propagate_ms: the singles)
            stats.update(formula.stats, eliminated=formula.eliminated,
                         propagated=formula.assigned)

    def delete(self) -> None:
        if self.broken:
            # Freeing a solver stopped inside a call can crash (CaDiCaL): let it go unfreed.
            inner = self.solver.solver
            for name, value in list(vars(inner).items()):
                if type(value).__name__ == "PyCapsule":
                    setattr(inner, name, None)
        self.solver.delete()


class _FullEngine(_Engine):
    """The base formula of one geometry; clues are assumptions (or, fresh, unit clauses).

    Incremental engines of grids up to :data:`OPTIONS_MAX_SIZE` keep their base clauses and
    get a new solver every :data:`REBUILD_EVERY` puzzles (:meth:`due`, :meth:`rebuild`), and
    count with the decision test where it was checked (:attr:`decision_test`, see
    :meth:`SatSolver._count`). A fresh engine for one puzzle (``units``) keeps the plain
    ways, so that its counts (``rate``'s conflicts) stay what they were.
    """

    def __init__(self, info: SatSolverInfo, geometry: Geometry, encoding: str, amo: str,
                 units: bool = False, configure: dict[str, int] | None = None) -> None:
        small = geometry.size <= OPTIONS_MAX_SIZE
        super().__init__(info, geometry, small, configure)
        n = self.size = geometry.size
        self.n3 = self.nmapped = n ** 3
        # Clues as unit clauses: a fresh engine for one puzzle, which keeps the plain ways.
        self.units = self.per_puzzle = units
        self.encoding = encoding
        self.amo = amo
        self.pool = IDPool(start_from=self.n3 + 1)
        self.rebuild_every = REBUILD_EVERY if small and not units else 0
        self._kept: list[list[list[int]]] | None = [] if self.rebuild_every else None
        self._pending = self._chunks(base_clauses(geometry, encoding, amo, self.pool))
        self.ready = False
        self.uses = 0  # puzzles served by this solver (since the last rebuild)
        self.excluded: tuple[tuple[int, ...], int] | None = None  # (solution cells, its act)
        # digit_of[v] for v = 1..N**3: decoding is one slice and one lookup per true variable.
        self.digit_of = [0] + list(range(1, n + 1)) * geometry.ncells
        # "No decision made, so the grid is forced" (see SatSolver._count).
        self.decision_test = (small and not units and info.name in DECISION_TEST_SOLVERS
                              and COUNT_OPTIONS.get(info.name, {}).get("lucky") == 0)
        self.counting = False  # COUNT_OPTIONS set (at the first count)
        self.cellbase = tuple(range(0, self.n3, n))  # var(cell, d) - d, in cell order
        self.negbase = tuple(-v for v in self.cellbase)  # -var(cell, d) = negbase[cell] - d

    def _chunks(self, chunks: Iterator[list[list[int]]]) -> Iterator[list[list[int]]]:
        kept = self._kept
        for chunk in chunks:
            if kept is not None:
                kept.append(chunk)
            yield chunk

    def prepare(self, deadline: Deadline) -> None:
        """Finish loading the base formula (resumed where an earlier deadline stopped it)."""
        if not self.ready:
            self.load(self._pending, deadline)
            self.ready = True
            self.nvars = self.top = max(self.n3, self.pool.top)

    def due(self) -> bool:
        """True when this solver has served its :data:`REBUILD_EVERY` puzzles."""
        return bool(self.rebuild_every) and self.uses >= self.rebuild_every and self.ready

    def never_rebuild(self) -> None:
        self.rebuild_every = 0
        self._kept = None

    def rebuild(self) -> None:
        """A new solver with the same base formula (loaded by the next :meth:`prepare`).

        Over a long batch the incremental solver slows down: learnt clauses pile up, and every
        activation literal is one more variable that each ``get_model`` returns. A rebuild of a
        9x9 engine costs about 4 ms (docs/floor.md).
        """
        self.delete()
        self.solver = PysatSolver(name=self.info.name)
        if self.settings:
            self.solver.solver.configure(self.settings)
        self._pending = iter(self._kept)
        self.ready = False
        self.nclauses = 0
        self.uses = 0
        self.excluded = None
        self.rules = None  # the variant rules in force: added again when next asked for
        self.counting = False

    def assumptions(self, grid: Grid) -> list[int]:
        if self.units:
            return []
        cells = grid.cells  # clue_literals, without its per-geometry cache lookup
        return list(map(operator.add, itertools.compress(self.cellbase, cells),
                        filter(None, cells)))

    def lit(self, cell: int, d: int) -> int:
        return cell * self.size + d

    def decode(self, model: list[int]) -> Grid:
        # Measured (instructions, 9x9): this list comprehension 137k, map/filter with
        # (0).__lt__ 301k, compress over map(operator.lt) 212k.
        digit_of = self.digit_of
        if len(model) > self.n3:  # activation literals follow the cell variables
            model = model[:self.n3]
        return Grid(self.geometry, tuple([digit_of[v] for v in model if v > 0]))

    def blocking(self, model: list[int], solution: Grid, grid: Grid,
                 given: set[int]) -> list[int]:
        """The literals of a clause that rules out ``solution`` of ``grid``: the negated
        variables of the cells not given, from the decoded cells (3 us on 9x9, against 11 us
        for the same list from the model)."""
        return list(itertools.compress(map(operator.sub, self.negbase, solution.cells),
                                       map(operator.not_, grid.cells)))

    def exclusion(self, solution: Grid) -> int:
        """An activation literal that, assumed, rules out ``solution`` (a complete grid).

        The guarded clause is added once per solution and kept while the same solution is
        asked about again; a new solution retires the old clause for good.
        """
        if self.excluded is not None and self.excluded[0] == solution.cells:
            return self.excluded[1]
        if self.excluded is not None:
            self.solver.add_clause([-self.excluded[1]])
        act = self.fresh_var()
        n = self.size
        self.solver.add_clause([-act] + [-(cell * n + d)
                                         for cell, d in enumerate(solution.cells)])
        self.excluded = (solution.cells, act)
        return act


class _ReducedEngine(_Engine):
    """One puzzle's reduced formula: no assumptions, decoded through its variable map."""

    per_puzzle = True

    def __init__(self, info: SatSolverInfo, formula: ReducedFormula, deadline: Deadline,
                 configure: dict[str, int] | None = None) -> None:
        super().__init__(info, formula.geometry, False, configure)
        self.formula = formula
        self.nvars = self.top = formula.nvars
        self.nmapped = formula.nmapped
        clauses = formula.clauses
        self.load(iter([clauses[i:i + 20_000] for i in range(0, len(clauses), 20_000)]),
                  deadline)
        formula.clauses = []  # let the memory go while the solver works

    def assumptions(self, grid: Grid) -> list[int]:
        return []

    def lit(self, cell: int, d: int) -> int | bool:
        return self.formula.lit(cell, d)

    def blocking(self, model: list[int], solution: Grid, grid: Grid,
                 given: set[int]) -> list[int]:
        """The literals of a clause that rules out the solution in ``model``."""
        return [-v for v in model[:self.nmapped] if v > 0 and v not in given]

    def decode(self, model: list[int]) -> Grid:
        f = self.formula
        cells = list(f.settled)
        var_cell, var_digit = f.var_cell, f.var_digit
        for lit in model[:f.nmapped]:
            if lit > 0:
                cells[var_cell[lit - 1]] = var_digit[lit - 1]
        return Grid(f.geometry, tuple(cells))


class _Settled(Exception):
    """The reduction decided the puzzle before any solver was needed."""

    def __init__(self, formula: ReducedFormula) -> None:
        super().__init__()
        self.formula = formula


class SatSolver:
    """Solve, count and explain puzzles of any geometry with a python-sat solver.

    Args:
        sat_solver: a name from :data:`SAT_SOLVERS` (python-sat aliases allowed; default
            :data:`DEFAULT_SAT_SOLVER`).
        encoding: a name from :data:`satdoku.cnf.encode.ENCODINGS`; None picks one by grid size
            (:func:`satdoku.tasks.solvers.choose_encoding`).
        amo: an at-most-one encoding (default: pairwise for full encodings, sequential counter
            for the long lists of the reduced one).
        incremental: keep one full engine per geometry with clues as assumptions (fast); False
            builds a fresh solver with the clues as unit clauses for every puzzle.
        stats: add the solver's conflicts, decisions and propagations to ``Result.stats``
            (two solver calls a puzzle); stage times and formula sizes are always there.
        max_clauses: refuse (status ``refused``) a formula with more clauses.
        reduction: options of :func:`satdoku.cnf.encode.reduced_formula` for the reduced encoding
            (``propagate``, ``pairwise_max``, ``locked``), for experiments.
        configure: solver options set before any clause (python-sat's ``configure``, CaDiCaL
            1.5.3 and 1.9.5 only), such as ``{'seed': 3, 'phase': 0}``: what a portfolio
            (:mod:`satdoku.sat.portfolio`) varies between the configurations it races.
        reduced_from: the grid size from which ``encoding=None`` means reduced (default
            :data:`satdoku.tasks.solvers.REDUCED_MIN_SIZE`; explain, generate and rate pass
            :data:`~satdoku.tasks.solvers.LARGE_MIN_SIZE`).

    >>> from satdoku.model.geometry import geometry
    >>> with SatSolver() as s:
    ...     r = s.solve(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> r.status, r.solution.cells[:4]
    ('solved', (1, 2, 3, 4))
    """

    #: Batches (:class:`satdoku.run.batch.BatchSolver`) set this: from a batch's second puzzle on,
    #: a count steers each new solve away from the solutions found, which is faster but finds a
    #: second solution farther from the first (:meth:`_count`). Off (``explain``, the library
    #: calls), a puzzle with several solutions is counted as it always was.
    steer = False

    def __init__(self, sat_solver: str | None = None, encoding: str | None = None,
                 amo: str | None = None, *, incremental: bool = True, stats: bool = True,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 reduction: dict[str, Any] | None = None,
                 configure: dict[str, int] | None = None,
                 reduced_from: int | None = None) -> None:
        self.info = check_sat_solver(sat_solver or DEFAULT_SAT_SOLVER)
        self.reduced_from = reduced_from
        if configure and self.info.name not in CONFIGURABLE:
            raise OptionError(f"{self.info.name} takes no solver options; only "
                              f"{', '.join(CONFIGURABLE)} do")
        self.configure = dict(configure or {})
        self.sat_solver = self.info.name
        self.name = f"sat:{self.info.name}"
        if encoding is not None:
            check_encoding(encoding)
        if amo is not None:
            check_amo(amo)
        self.encoding = encoding
        self.amo = amo
        self.incremental = incremental
        self.stats = stats
        self.max_clauses = max_clauses
        self.reduction = reduction or {}
        self._engines: dict[tuple[Geometry, str], _FullEngine] = {}
        # Loaded engines of grids up to OPTIONS_MAX_SIZE whose build and load time a puzzle
        # was charged with, by geometry: :meth:`_solve_ready` serves these.
        self._ready: dict[Geometry, _FullEngine] = {}
        self._encodings: dict[tuple[int, bool], str] = {}
        self._watchdog: _Watchdog | None = None

    takes_constraints = True  # variant rules: see solve()

    def encoding_for(self, grid: Grid, variant: bool = False) -> str:
        """The encoding ``grid`` gets: the one named, else the registry's choice by size (and
        by whether it has variant rules)."""
        if self.encoding is not None:
            return self.encoding
        encoding = self._encodings.get((grid.size, variant))
        if encoding is None:
            from ..tasks.solvers import REDUCED_MIN_SIZE, choose_encoding
            encoding = self._encodings[grid.size, variant] = choose_encoding(
                grid.size, self.reduced_from or REDUCED_MIN_SIZE, variant=variant)
        return encoding

    # Engines.

    def _engine(self, grid: Grid, deadline: Deadline, units: bool = False,
                keep: bool = False, variant: bool = False) -> _Engine:
        """The engine for ``grid``, loaded; per-puzzle engines are the caller's to delete.

        ``keep``: the engine is never rebuilt from now on. :meth:`core` and
        :meth:`other_solution` ask for it: their callers (explain, generate) go by answers that
        depend on what the solver learnt before (conflict budgets, the first solution found),
        and they give the same answers as before rebuilds existed.

        Raises TimeUp, TooBigError, or :class:`_Settled` when a reduction decided the puzzle.
        """
        encoding = self.encoding_for(grid, variant)
        geo = grid.geometry
        if check_encoding(encoding).reduced:
            begun = time.perf_counter()
            formula = reduced_formula(grid, self.amo or DEFAULT_REDUCED_AMO,
                                      max_clauses=self.max_clauses, deadline=deadline,
                                      **self.reduction)
            if formula.contradiction is not None or formula.nmapped == 0:
                raise _Settled(formula)
            engine = _ReducedEngine(self.info, formula, deadline, self.configure)
            engine.encode_s += time.perf_counter() - begun - engine.load_s
            return engine
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
            check_size(formula_size(geo, encoding, amo)[1], self.max_clauses,
                       f"a {n}x{n} grid in the {encoding} encoding")
            engine = _FullEngine(self.info, geo, encoding, amo, units, self.configure)
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
            _call(engine.solver.append_formula, [[lit] for lit in clue_literals(grid)])
        return engine

    # Solving.

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple = ()) -> Result:
        """Find one solution of ``grid`` (``limit=1``) or count solutions up to ``limit``.

        ``constraints`` (variant rules) are added for this puzzle only, each guarded by an
        activation literal. Every stage stops at ``deadline``.
        """
        start = time.perf_counter()
        if not constraints and (deadline is None or deadline.seconds is None):
            engine = self._ready.get(grid.geometry)
            if engine is not None and engine.uses < engine.rebuild_every:
                return self._solve_ready(engine, grid, limit, start)
        deadline = deadline or NO_DEADLINE
        if not deadline.unlimited and not (self.info.interrupt or self.info.budget):
            raise SolverError(f"{self.sat_solver} cannot stop at a time limit; choose one of "
                              f"{', '.join(n for n, i in SAT_SOLVERS.items() if i.budget)}")
        if not self.info.assumptions:
            return self._solve_fresh(grid, limit, deadline, constraints, start)
        encoding = self.encoding_for(grid, bool(constraints))
        stats: dict[str, Any] = {}
        solutions: list[Grid] = []
        engine: _Engine | None = None
        status = message = None
        before: dict[str, int] | None = None
        try:
            engine = self._engine(grid, deadline, units=not self.incremental,
                                  variant=bool(constraints))
            engine.charge(stats)
            if engine.rebuild_every and not engine.per_puzzle:
                self._ready[grid.geometry] = engine
            t0 = time.perf_counter()
            assumptions = engine.assumptions(grid)
            if constraints:
                assumptions = assumptions + self._rule_acts(engine, constraints)
            t1 = time.perf_counter()
            stats["encode_ms"] += (t1 - t0) * 1000
            before = engine.solver.accum_stats() if self.stats else None
            try:
                status = self._count(engine, grid, assumptions, limit, deadline, solutions)
            finally:
                stats["solve_ms"] = (time.perf_counter() - t1) * 1000
        except TimeUp:
            status, message = "timeout", deadline.message(len(solutions) if limit > 1 else None)
            if engine is None:  # stopped while building or loading the formula
                stats.update(encode_ms=(time.perf_counter() - start) * 1000, solve_ms=0.0)
        except TooBigError as error:
            status, message = "refused", error.message
        except _Settled as settled:
            formula = settled.formula
            stats.update(encode_ms=(time.perf_counter() - start) * 1000, load_ms=0.0,
                         solve_ms=0.0)
            if formula.contradiction is None:
                solutions.append(Grid(grid.geometry, tuple(formula.settled)))
                status = "solved" if limit < 2 else "unique"
            else:
                status = "unsolvable"
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
        if status == "timeout" and limit < 2:
            solutions.clear()
        return Result(status, solutions[0] if solutions else None,
                      count=len(solutions) if limit >= 2 and status != "refused" else None,
                      second=solutions[1] if len(solutions) > 1 else None,
                      solver=self.name, encoding=encoding,
                      time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                      message=message, limit=limit)

    def _solve_fresh(self, grid: Grid, limit: int, deadline: Deadline, constraints: tuple,
                     start: float) -> Result:
        """:meth:`solve` for a solver without assumptions or clauses after solving (Kissat):
        every solve call gets a fresh solver with the puzzle's formula (clues as unit clauses,
        or folded away when reduced), the variant constraints, and one clause ruling out each
        solution found so far. Such solvers keep no time limit (:meth:`solve` refuses one)."""
        encoding = self.encoding_for(grid, bool(constraints))
        geo = grid.geometry
        stats: dict[str, Any] = {"encode_ms": 0.0, "load_ms": 0.0, "solve_ms": 0.0, "runs": 0}
        solutions: list[Grid] = []
        status = message = None
        try:
            begun = time.perf_counter()
            if check_encoding(encoding).reduced:
                if constraints:
                    raise OptionError("variant constraints need a full encoding (minimal, "
                                      "natural or extended), not the reduced one")
                formula = reduced_formula(grid, self.amo or DEFAULT_REDUCED_AMO,
                                          max_clauses=self.max_clauses, deadline=deadline,
                                          **self.reduction)
                stats.update(formula.stats, eliminated=formula.eliminated,
                             propagated=formula.assigned)
                reduced: ReducedFormula | None = formula
            else:
                formula = encode(grid, encoding, self.amo or DEFAULT_AMO, "units",
                                 max_clauses=self.max_clauses, deadline=deadline)
                if constraints:
                    from ..rules import EncodeContext
                    context = EncodeContext(geo, formula.nvars)
                    for constraint in constraints:
                        formula.clauses.extend(constraint.encode(context))
                    formula.nvars = context.top
                reduced = None
            stats["encode_ms"] = (time.perf_counter() - begun) * 1000
            stats.update(variables=formula.nvars, clauses=len(formula.clauses))
            if reduced is not None and reduced.contradiction is not None:
                status = "unsolvable"
            elif reduced is not None and reduced.nmapped == 0:
                solutions.append(Grid(geo, tuple(reduced.settled)))
                status = "solved" if limit < 2 else "unique"
            blocks: list[list[int]] = []
            while status is None:
                model = self._fresh_run(formula.clauses + blocks, deadline, stats)
                if model is None:
                    break
                solution = (decode_reduced(reduced, model) if reduced is not None
                            else decode_model(model, geo))
                solutions.append(solution)
                if len(solutions) >= limit:
                    break
                block = exclusion_clause(grid, solution, model, reduced)
                if not block:
                    break
                blocks.append(block)
            if status is None:
                status = (counted_status(len(solutions)) if limit >= 2 else
                          "solved" if solutions else "unsolvable")
        except TimeUp:
            status, message = "timeout", deadline.message(len(solutions) if limit > 1 else None)
        except TooBigError as error:
            status, message = "refused", error.message
        except ModelError as error:  # a model that does not describe a grid: a solver fault
            status, message = "error", f"internal error: {self.name} {error.detail}"
            solutions.clear()
        if status == "timeout" and limit < 2:
            solutions.clear()
        return Result(status, solutions[0] if solutions else None,
                      count=(len(solutions) if limit >= 2 and status not in ("refused", "error")
                             else None),
                      second=solutions[1] if len(solutions) > 1 else None,
                      solver=self.name, encoding=encoding,
                      time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                      message=message, limit=limit)

    def _fresh_run(self, clauses: list[list[int]], deadline: Deadline,
                   stats: dict[str, Any]) -> list[int] | None:
        """Load ``clauses`` into a new solver and solve once: the model, or None (UNSAT)."""
        t0 = time.perf_counter()
        solver = PysatSolver(name=self.info.name)
        try:
            for i in range(0, len(clauses), 20_000):
                _call(solver.append_formula, clauses[i:i + 20_000])
                deadline.check()
            t1 = time.perf_counter()
            stats["load_ms"] += (t1 - t0) * 1000
            try:
                answer = _call(solver.solve)
            finally:
                stats["solve_ms"] += (time.perf_counter() - t1) * 1000
                stats["runs"] += 1
            return solver.get_model() if answer else None
        finally:
            solver.delete()

    def _solve_ready(self, engine: _FullEngine, grid: Grid, limit: int, start: float) -> Result:
        """:meth:`solve` of a grid whose engine is loaded and charged, with no time limit and
        no constraints: a batch's common case after its first puzzle, kept lean (docs/floor.md).
        Same result, same stats in the same order; with :attr:`steer`, counts steer away from
        the solutions found (see :meth:`_count`)."""
        engine.uses += 1
        assumptions = engine.assumptions(grid)
        t1 = time.perf_counter()
        stats: dict[str, Any] = {"encode_ms": (t1 - start) * 1000, "load_ms": 0.0}
        solutions: list[Grid] = []
        solver = engine.solver
        before = solver.accum_stats() if self.stats else None
        try:
            if limit == 1:
                try:  # _run without its layers: the solve call alone
                    answer = _call(solver.solve, assumptions=assumptions)
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

    def _rule_acts(self, engine: _Engine, constraints: tuple) -> list[int]:
        """The activation literals of ``constraints`` in ``engine``: added on first use and
        kept while the same rules come again (explain, candidates and batches of one variant
        ask many questions of one puzzle); other rules retire them for good."""
        key = tuple(map(id, constraints))
        if engine.rules is not None and engine.rules[0] == key:
            return engine.rules[2]
        if engine.rules is not None:
            engine.solver.append_formula([[-act] for act in engine.rules[2]])
        acts = self._add_constraints(engine, constraints)
        engine.rules = (key, tuple(constraints), acts)  # holding them keeps their ids valid
        return acts

    def _add_constraints(self, engine: _Engine, constraints: tuple) -> list[int]:
        """Each constraint's clauses guarded by a fresh activation literal; the literals."""
        if not isinstance(engine, _FullEngine):
            raise OptionError("variant constraints need a full encoding (minimal, natural or "
                              "extended), not the reduced one")
        from ..rules import EncodeContext
        context = EncodeContext(engine.geometry, fresh=engine.fresh_var)
        acts = []
        for constraint in constraints:
            act = engine.fresh_var()
            clauses = [[-act] + clause for clause in constraint.encode(context)]
            _call(engine.solver.append_formula, clauses)
            engine.nclauses += len(clauses)
            acts.append(act)
        return acts

    def _count(self, engine: _Engine, grid: Grid, assumptions: list[int], limit: int,
               deadline: Deadline, solutions: list[Grid], steer: bool = False) -> str:
        """Solve, then block each solution and solve again, until ``limit`` solutions or none
        is left; the status. ``solutions`` fills as they come (kept on a timeout).

        With the decision test (:attr:`_FullEngine.decision_test`, docs/floor.md), a first
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
        would change the first solution too: not done.
        """
        solver = engine.solver
        decided = limit >= 2 and assumptions and getattr(engine, "decision_test", False)
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
                    act, given = engine.fresh_var(), set(assumptions)
                block = engine.blocking(model, solutions[-1], grid, given)
                solver.add_clause([-act] + block)
                if steer:
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

    def _run(self, engine: _Engine, assumptions: list[int], deadline: Deadline,
             conflicts: int | None = None) -> bool | None:
        """One solve call: True, False, or None when the deadline (or ``conflicts``, a budget
        that gives the same answer on every machine) ran out first. Ctrl-C inside the solver
        leaves it unusable (CaDiCaL aborts on the next call): the engine is marked broken."""
        try:
            return self._solve_call(engine, assumptions, deadline, conflicts)
        except KeyboardInterrupt:
            self._drop(engine)
            raise

    def _drop(self, engine: _Engine) -> None:
        """Mark ``engine`` broken (interrupted inside the solver) and forget it."""
        engine.broken = True
        for key, cached in list(self._engines.items()):
            if cached is engine:
                del self._engines[key]
        for geo, cached in list(self._ready.items()):
            if cached is engine:
                del self._ready[geo]

    def _solve_call(self, engine: _Engine, assumptions: list[int], deadline: Deadline,
                    conflicts: int | None) -> bool | None:
        solver = engine.solver
        if conflicts is not None:
            solver.conf_budget(conflicts)
            return _call(solver.solve_limited, assumptions=assumptions)
        if deadline.unlimited and (engine.geometry.size <= OPTIONS_MAX_SIZE
                                   or not self.info.budget):
            return _call(solver.solve, assumptions=assumptions)
        # Bigger grids solve in slices even without a limit, so that Python gets control back
        # often enough to act on SIGTERM and SIGHUP (only Ctrl-C reaches into a solve call).
        if deadline.expired():
            return None
        if self.info.interrupt and not deadline.unlimited:
            if self._watchdog is None:
                self._watchdog = _Watchdog()
            self._watchdog.arm(deadline.at, solver.interrupt)
            try:
                return _call(solver.solve_limited, assumptions=assumptions,
                             expect_interrupt=True)
            finally:
                self._watchdog.disarm()
                solver.clear_interrupt()
        # Start small: on a 25x25 puzzle CaDiCaL may manage only 1,000 conflicts a second.
        budget = 10
        first = time.perf_counter()
        while True:
            begun = time.perf_counter()
            conflicts_before = solver.accum_stats().get("conflicts", 0)
            solver.conf_budget(budget)
            answer = _call(solver.solve_limited, assumptions=assumptions)
            if answer is not None:
                return answer
            now = time.perf_counter()
            if now >= deadline.at:
                return None
            # Size the next slice at the rate just seen: half the time this call has taken so
            # far, at least SLICE_MIN_S, and at most half of what is left, so that a slower
            # rate than the one just seen still ends it before the deadline.
            done = max(1, solver.accum_stats().get("conflicts", 0) - conflicts_before)
            rate = done / max(now - begun, 1e-6)
            target = min(max(SLICE_MIN_S, (now - first) / 2), (deadline.at - now) / 2)
            budget = max(10, min(4 * budget, int(rate * target)))

    # Questions beyond solving (explain, generate).

    def core(self, grid: Grid, *, deadline: Deadline | None = None, constraints: tuple = ()
             ) -> tuple[tuple[list[int], list[int]] | None, Grid | None]:
        """Givens and rules that cannot all hold together, or a solution when there are none.

        Returns ``((cells, rules), None)`` when ``grid`` under ``constraints`` has no solution:
        with a full encoding they come from the solver's final conflict over the assumptions
        (``get_core``: a clue literal per given, an activation literal per rule; ``rules`` are
        indices into ``constraints``), an unsatisfiable subset but not necessarily a minimal one
        (:func:`satdoku.tasks.explain.minimal_core` shrinks it); the reduced encoding has no
        assumptions and gives every given. Returns ``(None, solution)`` otherwise.
        Raises TimeUp at the deadline, TooBigError for a formula over the limit.
        """
        deadline = deadline or NO_DEADLINE
        check_assumptions(self.sat_solver, "explain")
        everything = ([c for c, _ in grid.givens()], list(range(len(constraints))))
        try:
            engine = self._engine(grid, deadline, keep=True, variant=bool(constraints))
        except _Settled as settled:
            if settled.formula.contradiction is None:
                return None, Grid(grid.geometry, tuple(settled.formula.settled))
            return everything, None
        acts: list[int] = []
        try:
            clues = engine.assumptions(grid)
            acts = self._rule_acts(engine, constraints) if constraints else []
            answer = self._run(engine, clues + acts, deadline)
            if answer is None:
                raise TimeUp
            if answer:
                return None, engine.decode(engine.solver.get_model())
            if not isinstance(engine, _FullEngine):
                return everything, None
            core = set(engine.solver.get_core() or ())
            n = grid.size
            cells = sorted({(lit - 1) // n for lit in core if lit <= engine.n3})
            return (cells, [i for i, act in enumerate(acts) if act in core]), None
        finally:
            if engine.per_puzzle or engine.broken:
                engine.delete()

    def first_solution(self, grid: Grid, *, assume: tuple[tuple[int, int], ...] = (),
                       constraints: tuple = (), deadline: Deadline | None = None
                       ) -> Grid | None:
        """A solution of ``grid`` under ``constraints`` in which each (cell, digit) of
        ``assume`` holds, or None when there is none (not verified: the caller checks).
        Raises TimeUp at the deadline."""
        deadline = deadline or NO_DEADLINE
        try:
            engine = self._engine(grid, deadline, variant=bool(constraints))
        except _Settled as settled:
            if settled.formula.contradiction is not None:
                return None
            solved = Grid(grid.geometry, tuple(settled.formula.settled))
            return solved if all(solved.cells[c] == d for c, d in assume) else None
        acts: list[int] = []
        try:
            extra = []
            for cell, d in assume:
                lit = engine.lit(cell, d)
                if lit is False:
                    return None
                if lit is not True:
                    extra.append(lit)
            acts = self._rule_acts(engine, constraints) if constraints else []
            answer = self._run(engine, engine.assumptions(grid) + extra + acts, deadline)
            if answer is None:
                raise TimeUp
            return engine.decode(engine.solver.get_model()) if answer else None
        finally:
            if engine.per_puzzle or engine.broken:
                engine.delete()

    def other_solution(self, grid: Grid, solution: Grid, *, cells: list[int] | None = None,
                       conflicts: int | None = None) -> tuple[str, Grid | None]:
        """A solution of ``grid`` other than ``solution`` (a complete grid), if there is one.

        Args:
            cells: look only for solutions that differ from ``solution`` in one of these cells
                (one solve call per cell, each assuming that cell's digit is not the
                solution's: faster than ruling out the whole solution, see
                :mod:`satdoku.tasks.generate`). None: anywhere, in one call with a clause ruling out
                ``solution`` (kept while the same solution is asked about again).
            conflicts: a budget per solve call; unlike a time limit it gives the same answer
                on every machine.

        Returns:
            ``('unique', None)`` when there is none, ``('multiple', other)``, or
            ``('unknown', None)`` when the budget ran out.
        """
        check_assumptions(self.sat_solver, "generate")
        if conflicts is not None and not self.info.budget:
            raise SolverError(f"{self.sat_solver} cannot keep a conflict budget")
        if conflicts is not None and conflicts < 1:
            # (python-sat solvers read a budget of 0 as no budget at all)
            raise SolverError(f"a conflict budget must be at least 1, not {conflicts}")
        try:
            engine = self._engine(grid, NO_DEADLINE, keep=True)
        except _Settled:
            return "unique", None  # the reduction leaves one solution (or none) to the givens
        try:
            clues = engine.assumptions(grid)
            if cells is None:
                if isinstance(engine, _FullEngine):
                    tries = [clues + [engine.exclusion(solution)]]
                else:
                    lits = [engine.lit(c, d) for c, d in enumerate(solution.cells)]
                    engine.solver.add_clause([-v for v in lits if v is not True and v])
                    tries = [clues]
            else:
                tries = []
                for c in cells:
                    v = engine.lit(c, solution.cells[c])
                    if v is not True and v is not False:
                        tries.append(clues + [-v])
            unknown = False
            for assumptions in tries:
                answer = self._run(engine, assumptions, NO_DEADLINE, conflicts)
                if answer:
                    return "multiple", engine.decode(engine.solver.get_model())
                unknown |= answer is None
            return ("unknown", None) if unknown else ("unique", None)
        finally:
            if engine.per_puzzle:
                engine.delete()

    def close(self) -> None:
        """Free every solver (python-sat solvers hold C memory)."""
        for engine in self._engines.values():
            engine.delete()
        self._engines.clear()
        self._ready.clear()

    def __enter__(self) -> "SatSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"SatSolver({self.sat_solver!r}, encoding={self.encoding!r}, amo={self.amo!r}, "
                f"incremental={self.incremental})")
