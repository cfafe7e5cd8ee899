"""A puzzle's rules as clauses of a formula, within the budget.

:func:`encode_rules` encodes rules against a :class:`RuleContext`, which maps cells through
the formula's :class:`~satdoku.cnf.varmap.VarMap` (so rules serve the reduced encoding too: a
pair the reduction settled is a variable fixed true, a pair it ruled out one fixed false) and
keeps the :class:`~satdoku.budget.Budget`: the deadline is looked at while a rule makes
auxiliary variables, and a rule that would pass the clause limit is refused, by name, before
its clauses are all built. Imported only when a puzzle has rules: it loads every rule class.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..budget import Budget, guarded
from ..rules.context import EncodeContext
from .varmap import FullMap, VarMap

__all__ = ["RuleContext", "encode_rules"]

Clause = list[int]

#: Auxiliary variables a rule makes between two looks at the deadline and the budget.
_CHECK_EVERY = 1024


class RuleContext(EncodeContext):
    """The context rules encode against in a formula: cells through ``varmap``, auxiliary
    variables counted against ``budget`` (and the deadline looked at) as they are made.

    With a reduced map, a settled pair is the variable :attr:`true` and a ruled-out pair
    :attr:`false`, each fixed by a unit clause in :attr:`units` (made on first use): every
    rule's clauses stay sound and complete without knowing about the reduction.
    """

    def __init__(self, varmap: VarMap, top: int, budget: Budget, *,
                 fresh=None, sum_encoding: str | None = None, houses: bool = True) -> None:
        super().__init__(varmap.geometry, top, fresh=fresh, sum_encoding=sum_encoding,
                         houses=houses)
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
    for constraint in constraints:  # up front, before any clause is built
        estimate = constraint.clause_estimate(geometry)
        if estimate is not None:
            ctx.budget.refuse(estimate, f"rule {constraint.describe(geometry)}", at_least=True)
    with guarded(ctx.budget, lambda: f"rule {ctx.rule}"):
        for constraint in constraints:
            ctx.rule, ctx.made = constraint.describe(geometry), 0
            units = len(ctx.units)
            clauses = constraint.encode(ctx)
            clauses = ctx.units[units:] + clauses
            ctx.budget.spend(len(clauses), f"rule {ctx.rule}")
            ctx.budget.deadline.check()
            add(constraint, clauses)
