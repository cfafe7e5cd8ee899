"""What a rule writes its clauses against: the encoding context, and the smallest clause helpers.

Glossary (adds to :mod:`satdoku.cnf.encodings`): ``ctx.var(cell, d)`` is the one-hot variable
"cell holds d" (``cell*N + d``), ``ctx.fresh()`` a new auxiliary variable, ``ctx.size`` and
``ctx.geometry`` the grid's. Every cell's exactly-one-digit clauses are already in the formula
a rule's clauses join.
"""

from __future__ import annotations

import itertools
from typing import Callable, Sequence

from ..model.geometry import Geometry

__all__ = ["Clause", "EncodeContext", "at_most_one", "sequential_at_most_one", "contradiction"]

Clause = list[int]


def contradiction(ctx) -> list[Clause]:
    """Clauses that cannot all hold (a fresh variable and its negation).

    An empty clause would do in DIMACS, but guarded by an activation literal it must still be
    a clause of its own; this form survives both.
    """
    v = ctx.fresh()
    return [[v], [-v]]


def at_most_one(lits: Sequence[int]) -> list[Clause]:
    """Pairwise at-most-one over ``lits``."""
    return [[-a, -b] for a, b in itertools.combinations(lits, 2)]


def sequential_at_most_one(ctx, lits: Sequence[int]) -> list[Clause]:
    """At-most-one over ``lits`` with ``len(lits) - 1`` auxiliaries from ``ctx.fresh()`` and
    about 3 clauses a literal (Sinz's sequential counter), pairwise up to 6 literals."""
    if len(lits) <= 6:
        return at_most_one(lits)
    seen = [ctx.fresh() for _ in lits[:-1]]  # seen[i]: one of lits[0..i] holds
    clauses = [[-lits[0], seen[0]]]
    for i in range(1, len(lits) - 1):
        clauses += [[-lits[i], seen[i]], [-seen[i - 1], seen[i]], [-lits[i], -seen[i - 1]]]
    clauses.append([-lits[-1], -seen[-1]])
    return clauses


class EncodeContext:
    """Variables for constraint clauses: ``var(cell, d)`` and ``fresh()`` auxiliaries.

    Args:
        geometry: the grid shape.
        top: the highest variable already in use (default ``N**3``: the cell variables).
        fresh: a function returning a new variable, to share a SAT backend's counter (then
            ``top`` is not used).
        sum_encoding: how sums become clauses, a name from
            :data:`satdoku.rules.sums.SUM_ENCODINGS` (None: the default).
        houses: whether a rule's clauses may use what the houses imply (digits of cells
            that share a house differ), as sums do to propagate more; False where each rule
            must say only itself (the facts of a step path, :mod:`satdoku.sat.facts`).

    >>> from satdoku.model.geometry import geometry
    >>> ctx = EncodeContext(geometry(2, 2))
    >>> ctx.var(0, 1), ctx.var(15, 4), ctx.fresh(), ctx.fresh()
    (1, 64, 65, 66)
    """

    def __init__(self, geometry: Geometry, top: int | None = None, *,
                 fresh: Callable[[], int] | None = None, sum_encoding: str | None = None,
                 houses: bool = True) -> None:
        self.geometry = geometry
        self.houses = houses
        self.size = geometry.size
        self.top = geometry.ncells * geometry.size if top is None else top
        self._fresh = fresh
        self.sum_encoding = sum_encoding

    def var(self, cell: int, d: int) -> int:
        """The variable "``cell`` holds ``d``"."""
        return cell * self.size + d

    def fresh(self) -> int:
        """A new auxiliary variable."""
        if self._fresh is not None:
            return self._fresh()
        self.top += 1
        return self.top
