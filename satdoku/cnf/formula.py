"""One builder for every formula: base clauses, clues and a puzzle's rules, within a budget.

:func:`encode` builds the formula of a puzzle in any encoding, ready to write as DIMACS or to
solve from scratch; the SAT engines, which keep a geometry's base formula loaded and add each
puzzle's rules guarded by activation literals, use the same pieces: :func:`rule_clauses`
encodes rules against a :class:`RuleContext`, which maps cells through the formula's
:class:`~satdoku.cnf.varmap.VarMap` (so rules serve the reduced encoding too: a pair the
reduction settled is a variable fixed true, a pair it ruled out one fixed false) and keeps the
:class:`~satdoku.budget.Budget`: the deadline is looked at while a rule makes auxiliary
variables, and a rule that would pass the clause limit is refused, by name, before its
clauses are all built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from pysat.formula import IDPool

from ..budget import DEFAULT_MAX_CLAUSES, Budget, guarded
from ..deadline import NO_DEADLINE, Deadline
from ..errors import OptionError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..rules.context import EncodeContext
from .encodings import (DEFAULT_AMO, DEFAULT_ENCODING, DEFAULT_REDUCED_AMO, base_clauses,
                        base_formula, check_encoding, formula_size)
from .reduced import ReducedFormula, reduced_formula
from .varmap import FullMap, VarMap, full_map

__all__ = ["Formula", "RuleContext", "encode_rules", "encode", "encode_base"]

Clause = list[int]

#: Auxiliary variables a rule makes between two looks at the deadline and the budget.
_CHECK_EVERY = 1024


@dataclass
class Formula:
    """A CNF formula over the variables ``1 .. nvars`` of one geometry (full encodings).

    The variables ``1 .. N**3`` mean "cell holds digit" (:attr:`varmap`); those above are
    auxiliary. ``parts`` names a variant puzzle's rules with the clauses each owns:
    (description, first clause, last clause), 1-based.
    """

    geometry: Geometry
    encoding: str
    amo: str
    nvars: int
    clauses: list[Clause]
    parts: list[tuple[str, int, int]] = field(default_factory=list)
    contradiction = None  # only a reduction decides a puzzle before SAT

    @property
    def varmap(self) -> FullMap:
        return full_map(self.geometry)

    @property
    def nmapped(self) -> int:
        """``N**3``: the variables that mean "cell holds digit"; the only ones decoded."""
        return self.geometry.size ** 3

    def lit(self, cell: int, d: int) -> int:
        return cell * self.geometry.size + d


class RuleContext(EncodeContext):
    """The context rules encode against in a formula: cells through ``varmap``, auxiliary
    variables counted against ``budget`` (and the deadline looked at) as they are made.

    With a reduced map, a settled pair is the variable :attr:`true` and a ruled-out pair
    :attr:`false`, each fixed by a unit clause in :attr:`units` (made on first use): every
    rule's clauses stay sound and complete without knowing about the reduction.
    """

    def __init__(self, varmap: VarMap, top: int, budget: Budget, *,
                 fresh=None, sum_encoding: str | None = None) -> None:
        super().__init__(varmap.geometry, top, fresh=fresh, sum_encoding=sum_encoding)
        self.varmap = varmap
        self.budget = budget
        self.made = 0  # auxiliary variables made for the rule being encoded
        self.rule = ""  # its description, for a refusal
        self.units: list[Clause] = []
        self.true = self.false = 0
        if not isinstance(varmap, FullMap):
            self.var = self._mapped_var  # type: ignore[method-assign]

    def _mapped_var(self, cell: int, d: int) -> int:
        v = self.varmap.lit(cell, d)
        if v is True:
            if not self.true:
                self.true = self.fresh()
                self.units.append([self.true])
            return self.true
        if v is False:
            if not self.false:
                self.false = self.fresh()
                self.units.append([-self.false])
            return self.false
        return v

    def fresh(self) -> int:
        self.made += 1
        if not self.made % _CHECK_EVERY:
            self.budget.deadline.check()
            # Each auxiliary variable is defined by at least one clause of its own.
            self.budget.refuse(self.made, f"rule {self.rule}", at_least=True)
        return super().fresh()


def encode_rules(constraints: Sequence, ctx: RuleContext,
                 add: Callable[[object, list[Clause]], None]) -> None:
    """Encode each rule in turn and hand it with its clauses to ``add``, within
    ``ctx.budget``: each rule's clauses are charged to it, TooBigError names a rule that does
    not fit, TimeUp stops at the deadline, and the whole is :class:`~satdoku.budget.guarded`
    (a rule whose encoding outgrows the limit is stopped in the middle). The unit clauses of
    :attr:`RuleContext.units` come with the first rule that needs them."""
    geometry = ctx.geometry
    with guarded(ctx.budget, lambda: f"rule {ctx.rule}"):
        for constraint in constraints:
            ctx.rule, ctx.made = constraint.describe(geometry), 0
            units = len(ctx.units)
            clauses = constraint.encode(ctx)
            clauses = ctx.units[units:] + clauses
            ctx.budget.spend(len(clauses), f"rule {ctx.rule}")
            ctx.budget.deadline.check()
            add(constraint, clauses)


def encode(grid: Grid, encoding: str = DEFAULT_ENCODING, amo: str | None = None,
           clues: str = "units", *, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
           deadline: Deadline = NO_DEADLINE, constraints: tuple = ()
           ) -> Formula | ReducedFormula:
    """The formula of ``grid`` (under a variant puzzle's ``constraints``) in ``encoding``,
    ready to write as DIMACS or to solve from scratch.

    Args:
        grid: the puzzle.
        encoding: a name from :data:`~satdoku.cnf.encodings.ENCODINGS`; ``'reduced'`` folds
            the clues away.
        amo: an at-most-one encoding (default pairwise; reduced: pairwise for short lists).
        clues: full encodings only: ``'units'`` appends the givens as unit clauses, ``'none'``
            leaves them out (pass the map's ``clue_literals`` as assumptions instead).
        max_clauses: refuse (:class:`~satdoku.errors.TooBigError`) a formula with more
            clauses, the rules' included.
        deadline: stop (:class:`~satdoku.deadline.TimeUp`) when it passes.
        constraints: rules (:mod:`satdoku.rules`), appended after the clues with their
            clause ranges in ``parts``.

    >>> from satdoku.model.geometry import geometry
    >>> len(encode(Grid(geometry(2, 2), (1,) + (0,) * 15)).clauses)
    449
    """
    budget = Budget(max_clauses, deadline)
    if check_encoding(encoding).reduced:
        formula: Formula | ReducedFormula = reduced_formula(
            grid, amo or DEFAULT_REDUCED_AMO, max_clauses=max_clauses, deadline=deadline)
        if formula.contradiction is not None:
            return formula
    else:
        formula = _full(grid, encoding, amo or DEFAULT_AMO, clues, budget)
    budget.used = len(formula.clauses)
    if constraints:
        ctx = RuleContext(formula.varmap, formula.nvars, budget)

        def add(constraint: object, clauses: list[Clause]) -> None:
            first = len(formula.clauses) + 1
            formula.clauses.extend(clauses)
            formula.parts.append((ctx.rule, first, len(formula.clauses)))

        encode_rules(constraints, ctx, add)
        formula.nvars = ctx.top
    return formula


def _full(grid: Grid, encoding: str, amo: str, clues: str, budget: Budget) -> Formula:
    if clues not in ("units", "none"):
        raise OptionError(f"clues must be 'units' or 'none', not {clues!r}")
    n = grid.size
    budget.refuse(formula_size(grid.geometry, encoding, amo)[1],
                  f"a {n}x{n} grid in the {encoding} encoding")
    pool = IDPool(start_from=n ** 3 + 1)
    clauses: list[Clause] = []
    for chunk in base_clauses(grid.geometry, encoding, amo, pool):
        clauses.extend(chunk)
        budget.deadline.check()
    if clues == "units":
        clauses.extend([lit] for lit in full_map(grid.geometry).clue_literals(grid))
    return Formula(grid.geometry, encoding, amo, max(n ** 3, pool.top), clauses)


def encode_base(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                amo: str = DEFAULT_AMO) -> Formula:
    """The base formula of ``geometry`` without clues (its clauses shared through a cache: do
    not modify them).

    >>> from satdoku.model.geometry import geometry
    >>> f = encode_base(geometry(3, 3))
    >>> f.nvars, len(f.clauses)
    (729, 11988)
    """
    nvars, clauses = base_formula(geometry, encoding, amo)
    return Formula(geometry, encoding, amo, nvars, clauses)  # type: ignore[arg-type]
