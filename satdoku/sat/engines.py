"""Engines: one python-sat solver holding one formula, and the way to read its models.

Glossary (adds to :mod:`satdoku.cnf.varmap`):

- full engine: the base formula of a geometry, serving every puzzle of that geometry with its
  clues as assumptions: learnt clauses carry over and nothing is rebuilt, which is what makes
  thousands of 9x9 puzzles a second possible.
- reduced engine: one puzzle's reduced formula (clues folded away), dropped after it.
- activation literal: a fresh variable ``act`` guarding clauses that must hold for one
  question only: ``[-act, ...]`` counts while ``act`` is assumed, and the unit ``[-act]``
  retires it for good. A puzzle's rules are added this way (:meth:`Engine.rule_acts`), and
  kept while the same rules come again.
"""

from __future__ import annotations

import time

from ..budget import Budget
from ..cnf.encodings import Pool, base_clauses
from ..cnf.varmap import VarMap, full_map
from ..deadline import Deadline
from ..model.geometry import Geometry
from ..model.grid import Grid
from .catalogue import (COUNT_OPTIONS, DECISION_TEST_SOLVERS, OPTIONS_MAX_SIZE, REBUILD_EVERY,
                        SOLVER_OPTIONS, SatSolverInfo)
from .clock import pysat_call

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # reduced formulas and rules load when a grid takes them
    from typing import Any, Iterator, TypeAlias
    from ..cnf.reduced import ReducedFormula
    from ..cnf.rules import RuleContext

__all__ = ["Engine", "FullEngine", "ReducedEngine", "Settled"]

#: Clauses handed to a solver in one call while loading a formula.
_LOAD_CHUNK = 20_000

#: The rules in force (:attr:`Engine.rules`): their key, the constraints, their activation
#: literals, (act, clauses) of the rules kept for this set only, and the clauses of their
#: implied constraints.
_InForce: TypeAlias = ("tuple[tuple[object, ...], tuple[Any, ...], list[int], "
                       "list[tuple[int, int]], int]")

#: Rules whose implied constraints are not added yet (:attr:`Engine.implied`): the
#: constraints, their activation literals, the context they were encoded in.
_Pending: TypeAlias = "tuple[tuple[Any, ...], list[int], RuleContext]"


class Engine:
    """One python-sat solver, the formula loaded into it, and its variable map."""

    per_puzzle = False  # dropped after one puzzle (reduced) or kept for the batch (full)
    rebuild_every = 0  # puzzles before a new solver (0: never)
    decision_test = False  # counts stop at a solve that made no decision (FullEngine)
    counting = False  # COUNT_OPTIONS set (at the first count, with the decision test)
    # Loaded, its build charged to a puzzle: the fast path may serve it (satdoku.sat.fast).
    fast = False
    varmap: VarMap

    def __init__(self, info: SatSolverInfo, geometry: Geometry, options: bool,
                 configure: dict[str, int] | None = None) -> None:
        self.info = info
        self.geometry = geometry
        settings = SOLVER_OPTIONS.get(info.name) if options else None
        if configure:  # the caller's options (a portfolio's seeds and phases) come on top
            settings = {**(settings or {}), **configure}
        self.settings = settings  # again on a rebuild
        self.solver = self._fresh()
        self.top = 0  # highest variable in use, activation literals included
        self.nvars = 0
        self.nclauses = 0
        self.base = 0  # clauses of the formula itself (not of the rules added to it)
        self.encode_s = self.load_s = 0.0  # build and load time not yet charged to a puzzle
        self.broken = False  # interrupted inside the solver: no further call is allowed
        self.rules: _InForce | None = None  # the rules in force
        # rule -> (activation literal, clauses): rules in the solver
        self.kept: dict[object, tuple[int, int]] = {}
        self.implied: _Pending | None = None  # implied constraints to add (add_implied)
        # The solver's conflict count at which the puzzle being solved must leave this
        # engine for one of its own (satdoku.sat.backend.Escalate); None: never.
        self.escalate_at: int | None = None
        self.retired = 0  # clauses of rules retired for good, still in the solver
        self.stats: dict[str, Any] = {}  # what building the formula did, for each puzzle

    def _fresh(self) -> Any:
        """A new python-sat solver with this engine's settings (python-sat is imported here,
        at the first engine: a run that needs none, such as a puzzle the batch pass settles,
        never loads it)."""
        from .binding import configure, new_solver
        solver = new_solver(self.info.name)
        if self.settings:
            configure(solver, self.settings)  # before any clause: some options insist
        return solver

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
            pysat_call(add, chunk)
            self.nclauses += len(chunk)
            self.load_s += clock() - t1
            deadline.check()

    def charge(self, stats: dict[str, Any]) -> None:
        """Put the build and load time so far into a puzzle's ``stats`` (once)."""
        stats["encode_ms"] = stats.get("encode_ms", 0.0) + self.encode_s * 1000
        stats["load_ms"] = stats.get("load_ms", 0.0) + self.load_s * 1000
        self.encode_s = self.load_s = 0.0
        stats.update(self.stats)

    def assumptions(self, grid: Grid) -> list[int]:
        return self.varmap.clue_literals(grid)

    def measure(self, stats: dict[str, Any], before: dict[str, int] | None,
                rules: bool = False) -> None:
        """Put the size of a puzzle's formula into its ``stats`` (the base formula's clauses,
        and with ``rules`` those of the rules in force: not the clauses of earlier puzzles'
        rules, retired but still in the solver), and the solver's conflicts, decisions and
        propagations since ``before`` (its ``accum_stats``; None: not asked)."""
        stats["variables"] = self.nvars
        stats["clauses"] = self.base + (self.rule_clauses if rules else 0)
        if before is not None:
            after = self.solver.accum_stats()
            for k in ("conflicts", "decisions", "propagations"):
                stats[k] = after.get(k, 0) - before.get(k, 0)

    def decode(self, model: list[int]) -> Grid:
        return self.varmap.decode(model)

    def rule_acts(self, constraints: tuple, budget: Budget) -> list[int]:
        """The activation literals of ``constraints``: each rule's clauses guarded by a literal
        of its own, added on first use (within ``budget``) and kept while the same rule comes
        again, in this puzzle or the next (explain, candidates and a setter's session ask many
        questions of one puzzle; a batch's puzzles share global rules such as anti-knight).
        Rules are the same when equal (they are frozen records); rules of the puzzle before
        that are not asked for again retire for good. A rule that counts on others
        (:attr:`~satdoku.rules.base.Constraint.requires`) has its clauses switched on by its
        literal and theirs together; asked without them (a subset of a puzzle's rules), it is
        bound again to the set at hand first."""
        constraints = tuple(c.bind(constraints) if any(r not in constraints for r in
                                                       getattr(c, "requires", ())) else c
                            for c in constraints)
        try:
            key = tuple(constraints)
            wanted = set(key)
        except TypeError:  # a rule with a field that cannot be hashed: never kept
            key, wanted = tuple(map(id, constraints)), set()
        if self.rules is not None and self.rules[0] == key:
            return self.rules[2]
        if self.rules is not None:
            gone = [rule for rule in self.kept if rule not in wanted]
            dead = [self.kept.pop(rule) for rule in gone] + self.rules[3]
            self.solver.append_formula([[-act] for act, _ in dead])
            self.retired += sum(count for _, count in dead) + self.rules[4]
            self.rules = None
        self.implied = None
        from ..cnf.rules import RuleContext, encode_rules  # the rules' modules: only when needed
        budget.used = self.base + sum(count for _, count in self.kept.values())
        ctx = RuleContext(self.varmap, self.top, budget, fresh=self.fresh_var)
        loose: list[tuple[int, int]] = []  # (act, clauses) of rules for this set only
        needing: list[tuple[int, int, tuple]] = []  # (act, guard, required rules)

        def add(constraint: object, clauses: list[list[int]]) -> None:
            act = guard = self.fresh_var()
            required = getattr(constraint, "requires", ())
            if required:
                guard = self.fresh_var()  # on when act and the required rules' acts are
                needing.append((act, guard, required))
            guarded = [[-guard] + clause for clause in clauses]
            pysat_call(self.solver.append_formula, guarded)
            self.nclauses += len(guarded)
            if wanted:
                self.kept[constraint] = (act, len(guarded))
            else:
                loose.append((act, len(guarded)))

        new = list(dict.fromkeys(c for c in constraints if c not in self.kept)) if wanted \
            else list(constraints)
        encode_rules(new, ctx, add)
        acts = [self.kept[c][0] for c in constraints] if wanted else [a for a, _ in loose]
        if needing:  # each required rule is one of constraints (bound again above if not)
            links = [[-act, guard] + [-acts[constraints.index(r)] for r in required]
                     for act, guard, required in needing]
            pysat_call(self.solver.append_formula, links)
            self.nclauses += len(links)
        if self.per_puzzle:  # true for good: the solver simplifies the guards away, and its
            # learnt clauses do not carry them (assumed, they slowed a hard puzzle 2x)
            pysat_call(self.solver.append_formula, [[act] for act in acts])
        # Holding the constraints keeps their ids (the key) valid; the last, the implied
        # constraints' clauses (add_implied).
        self.rules = (key, tuple(constraints), acts, loose, 0)
        from ..rules.implied import pieces
        if pieces(constraints):  # rules that are sums: they may imply more (add_implied)
            self.implied = (tuple(constraints), acts, ctx)
        return acts

    @property
    def rule_clauses(self) -> int:
        """Clauses of the rules in force (and of their implied constraints) in the solver."""
        if self.rules is None:
            return 0
        wanted = set(self.rules[2])
        return (sum(count for act, count in self.kept.values() if act in wanted)
                + sum(count for _, count in self.rules[3]) + self.rules[4])

    def add_implied(self) -> None:
        """Add the implied constraints of the rules in force (:mod:`satdoku.rules.implied`),
        once: each holds whenever the rules it comes from do, so its clauses are guarded by
        their activation literals. Those that would pass the clause limit are left out (they
        are never needed)."""
        from ..errors import TooBigError
        from ..rules.implied import implied_constraints
        if self.implied is None or self.rules is None:
            return  # nothing pending (rule_acts sets both)
        constraints, acts, ctx = self.implied
        self.implied = None
        before = self.nclauses
        try:
            for implied in implied_constraints(self.geometry, constraints):
                ctx.rule, ctx.made = implied.describe(self.geometry), 0
                clauses = implied.encode(ctx)
                ctx.budget.spend(len(clauses), f"rule {ctx.rule}")
                guard = [-acts[i] for i in implied.sources]
                guarded = [guard + clause for clause in clauses]
                pysat_call(self.solver.append_formula, guarded)
                self.nclauses += len(guarded)
        except TooBigError:
            pass
        key, rules, acts, loose, count = self.rules
        self.rules = (key, rules, acts, loose, count + self.nclauses - before)

    def delete(self) -> None:
        if self.broken:
            from .binding import abandon
            abandon(self.solver)
        self.solver.delete()


class FullEngine(Engine):
    """The base formula of one geometry; clues are assumptions (or, fresh, unit clauses).

    Incremental engines of grids up to :data:`~satdoku.sat.catalogue.OPTIONS_MAX_SIZE` keep
    their base clauses and get a new solver every
    :data:`~satdoku.sat.catalogue.REBUILD_EVERY` puzzles (:meth:`due`, :meth:`rebuild`), and
    count with the decision test where it was checked (:attr:`decision_test`, see
    :func:`satdoku.sat.counting.count`). A fresh engine for one puzzle (``units``)
    keeps the plain ways, so that its counts (``rate``'s conflicts) stay what they were.
    """

    def __init__(self, info: SatSolverInfo, geometry: Geometry, encoding: str, amo: str,
                 units: bool = False, configure: dict[str, int] | None = None,
                 hard: bool = False) -> None:
        small = geometry.size <= OPTIONS_MAX_SIZE
        super().__init__(info, geometry, small and not hard, configure)
        self.varmap = full_map(geometry)
        self.n3 = self.varmap.nmapped
        # Clues as unit clauses: a fresh engine for one puzzle, which keeps the plain ways.
        self.units = self.per_puzzle = units
        self.encoding = encoding
        self.amo = amo
        self.pool = self._pool()
        self.rebuild_every = REBUILD_EVERY if small and not units else 0
        self._kept: list[list[list[int]]] | None = [] if self.rebuild_every else None
        self._pending = self._chunks(base_clauses(geometry, encoding, amo, self.pool))
        self.ready = False
        self.keep = False  # never rebuilt (explain, generate: see Backend.engine)
        self.uses = 0  # puzzles served by this solver (since the last rebuild)
        self.excluded: tuple[tuple[int, ...], int] | None = None  # (solution cells, its act)
        # "No decision made, so the grid is forced" (see satdoku.sat.counting).
        self.decision_test = (small and not units and info.name in DECISION_TEST_SOLVERS
                              and COUNT_OPTIONS.get(info.name, {}).get("lucky") == 0)
        self.counting = False  # COUNT_OPTIONS set (at the first count)
        # The fast path's assumptions and decoding, without the map's method calls.
        self.clue_literals = self.varmap.clue_literals
        self.decode = self.varmap.decode  # type: ignore[method-assign]

    def _chunks(self, chunks: Iterator[list[list[int]]]) -> Iterator[list[list[int]]]:
        kept = self._kept
        for chunk in chunks:
            if kept is not None:
                kept.append(chunk)
            yield chunk

    def _pool(self) -> Any:
        """A pool of auxiliary variables numbered after the cells'."""
        return Pool(start_from=self.n3 + 1)

    def prepare(self, deadline: Deadline) -> None:
        """Finish loading the base formula (resumed where an earlier deadline stopped it)."""
        if not self.ready:
            self.load(self._pending, deadline)
            self.ready = True
            self.nvars = self.top = max(self.n3, self.pool.top)
            self.base = self.nclauses

    def due(self) -> bool:
        """True when this solver has served its REBUILD_EVERY puzzles, or when the clauses of
        the variant rules it retired outnumber its base clauses: a session of variant puzzles
        would otherwise carry every earlier puzzle's rules (a 9x9 puzzle took 4 to 6 times its
        time after a pass over 26 hard ones; docs/tuning.md)."""
        if not self.ready or self.keep:
            return False
        return (bool(self.rebuild_every) and self.uses >= self.rebuild_every
                or self.retired > self.base)

    def never_rebuild(self) -> None:
        self.keep = True
        self.rebuild_every = 0
        self._kept = None

    def rebuild(self) -> None:
        """A new solver with the same base formula (loaded by the next :meth:`prepare`).

        Over a long batch the incremental solver slows down: learnt clauses pile up, and every
        activation literal is one more variable that each ``get_model`` returns. A rebuild of a
        9x9 engine costs about 4 ms (docs/floor.md).
        """
        self.delete()
        self.solver = self._fresh()
        self._pending = (iter(self._kept) if self._kept is not None else
                         base_clauses(self.geometry, self.encoding, self.amo,
                                      self._pool()))
        self.ready = False
        self.retired = 0
        self.nclauses = 0
        self.uses = 0
        self.excluded = None
        self.rules = None  # the variant rules in force: added again when next asked for
        self.kept = {}
        self.implied = None
        self.counting = False
        self.fast = False  # until a solve charges the rebuild

    def assumptions(self, grid: Grid) -> list[int]:
        return [] if self.units else self.clue_literals(grid)

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
        self.solver.add_clause([-act] + self.varmap.exclusion(solution))
        self.excluded = (solution.cells, act)
        return act


class ReducedEngine(Engine):
    """One puzzle's reduced formula: no assumptions, decoded through its variable map."""

    per_puzzle = True

    def __init__(self, info: SatSolverInfo, formula: ReducedFormula, deadline: Deadline,
                 configure: dict[str, int] | None = None) -> None:
        super().__init__(info, formula.geometry, False, configure)
        self.varmap = formula.varmap
        self.nvars = self.top = formula.nvars
        clauses = formula.clauses
        self.load(iter([clauses[i:i + _LOAD_CHUNK] for i in range(0, len(clauses), _LOAD_CHUNK)]),
                  deadline)
        self.base = self.nclauses
        # What the reduction did (propagate_ms: the singles), for each puzzle's stats.
        self.stats = dict(formula.stats, eliminated=formula.eliminated,
                          propagated=formula.assigned)
        formula.clauses = []  # let the memory go while the solver works


class Settled(Exception):
    """The reduction decided the puzzle before any solver was needed."""

    def __init__(self, formula: ReducedFormula) -> None:
        super().__init__()
        self.formula = formula

    def solution(self, grid: Grid, constraints: tuple = ()) -> Grid | None:
        """The one grid the reduction leaves, if it keeps every rule; None: no solution."""
        formula = self.formula
        if formula.contradiction is not None:
            return None
        solved = Grid(grid.geometry, tuple(formula.settled))
        return None if any(c.check(solved) for c in constraints) else solved
