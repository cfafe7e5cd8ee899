"""Implied constraints: sums that follow from a puzzle's rules and its houses, stated once more
so that the SAT solver propagates them (what a search engine derives and a solver uses).

Glossary (adds to :mod:`.sums` and :mod:`.killer`):

- piece: a rule that is one linear equation over digits, ``sum(w * digit) == total``: a killer
  cage with a total, a little killer, an arrow (the circle's cells weigh -1, or -10 and -1 for
  a two-digit circle, the shaft's +1, total 0), an X or V pair.
- region: a union of disjoint houses whose digits sum to ``k * N(N+1)/2`` (k houses): rows i..j,
  columns i..j, one box or region, the whole grid.
- innies and outies (the "45 rule"): a region minus the pieces that lie mostly inside it. The
  cells of the region no piece covers (innies, weight +1) and the cells of those pieces outside
  the region (outies, weight -1) sum to the region's total minus the pieces' totals. A single
  innie is a digit found; a house with its cages removed is a hidden cage.

An implied constraint is an :class:`ImpliedSum`: its cells, weights and total, and ``sources``,
the indices of the rules it was derived from (the houses are always there). It holds in every
solution of those rules, so adding it never changes the set of solutions; an engine that
switches rules on and off with activation literals guards it with all of its sources'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..model.geometry import Geometry
from .base import Clause, Constraint, cell_span
from .dots import XV
from .killer import Arrow, Killer, LittleKiller
from .sums import encode_cell_sum, prune_cell_sum, reachable_sums

__all__ = ["ImpliedSum", "implied_constraints", "pieces", "regions", "MAX_IMPLIED_CELLS",
           "MAX_SLACK"]

#: Implied sums over more cells than this are not kept (a long sum propagates little).
MAX_IMPLIED_CELLS = 9

#: Nor those whose total is further than this from the smallest or the largest sum the cells
#: can make (:func:`.sums.reachable_sums`): a loose sum prunes nothing until most of its cells
#: are known, and costs clauses all the same (``docs/sum-encodings.md``).
MAX_SLACK = 6

Coefficients = dict[int, int]


@dataclass(frozen=True)
class ImpliedSum(Constraint):
    """``sum(weight * digit) == total`` over ``cells``, implied by the rules ``sources``
    (indices into the puzzle's constraints) and the houses; ``how`` says from what.

    >>> from satdoku.model.geometry import geometry
    >>> s = ImpliedSum((0, 1), (1, -1), 2, (3,), how="row 1")
    >>> s.holds((5, 3)), s.describe(geometry(2, 2))
    (True, 'implied sum r1c1-r1c2 = 2 (row 1)')
    """

    type = "implied-sum"
    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    sources: tuple[int, ...] = ()
    how: str = field(default="", compare=False)

    def describe(self, geometry: Geometry) -> str:
        text = f"implied sum {cell_span(geometry, self.cells)} = {self.total}"
        return f"{text} ({self.how})" if self.how else text

    def encode(self, ctx) -> list[Clause]:
        return encode_cell_sum(ctx, self.cells, self.weights, self.total)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return sum(w * d for w, d in zip(self.weights, digits)) == self.total

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if prune_cell_sum(self.cells, self.weights, cand, {self.total}, changed) is None:
            return None
        return sorted(changed)


def pieces(constraints: Sequence[Constraint]) -> list[tuple[int, Coefficients, int]]:
    """``(index, {cell: weight}, total)`` of every rule that is one linear equation."""
    out = []
    for i, c in enumerate(constraints):
        if isinstance(c, Killer) and c.total is not None:
            out.append((i, dict.fromkeys(c.cells, 1), c.total))
        elif isinstance(c, LittleKiller):
            out.append((i, dict.fromkeys(c.cells, 1), c.total))
        elif isinstance(c, Arrow):
            out.append((i, dict(zip(c.cells, c.weights)), 0))
        elif isinstance(c, XV):
            out.append((i, dict.fromkeys(c.pair, 1), c.total))
    return out


def regions(geometry: Geometry) -> list[tuple[str, tuple[int, ...], int]]:
    """``(name, cells, houses)`` of every region tried: rows i..j, columns i..j (j > i when
    the grid is boxed, single rows and columns too), each box or region, the whole grid."""
    n = geometry.size
    houses = geometry.houses
    out = []
    for kind, first in (("row", 0), ("column", n)):
        for i in range(n):
            for j in range(i, n):
                name = f"{kind} {i + 1}" if i == j else f"{kind}s {i + 1}-{j + 1}"
                cells = tuple(c for h in houses[first + i:first + j + 1] for c in h)
                out.append((name, cells, j - i + 1))
    for b in range(n):
        out.append((f"box {b + 1}", houses[2 * n + b], 1))
    return out


def implied_constraints(geometry: Geometry, constraints: Sequence[Constraint], *,
                        max_cells: int = MAX_IMPLIED_CELLS, max_slack: int | None = MAX_SLACK
                        ) -> tuple[ImpliedSum, ...]:
    """The implied sums of the puzzle (innies and outies of every region), each once, over at
    most ``max_cells`` cells with at most ``max_slack`` (None: any), none the same as a rule's
    own equation.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(2, 2)
    >>> [s.describe(g) for s in implied_constraints(g, [Killer((0, 1, 4), 6)], max_cells=1)]
    ['implied sum r2c2 = 4 (box 1)']
    """
    n = geometry.size
    house_total = n * (n + 1) // 2
    found = pieces(constraints)
    seen = {_key(coeff, total) for _, coeff, total in found}
    by_cell: dict[int, list[int]] = {}
    for k, (_, coeff, _) in enumerate(found):
        for c in coeff:
            by_cell.setdefault(c, []).append(k)
    out: list[ImpliedSum] = []
    for name, cells, count in regions(geometry):
        inside = set(cells)
        overlap: dict[int, int] = {}
        for c in cells:
            for k in by_cell.get(c, ()):
                overlap[k] = overlap.get(k, 0) + 1
        if not overlap:
            continue
        coeff: Coefficients = dict.fromkeys(cells, 1)
        total = count * house_total
        used: list[int] = []
        for k in sorted(overlap, key=lambda k: (-overlap[k] / len(found[k][1]), k)):
            _, piece, piece_total = found[k]
            trial = _minus(coeff, piece)
            if len(trial) < len(coeff):
                coeff, total = trial, total - piece_total
                used.append(found[k][0])
        if not used or not 0 < len(coeff) <= max_cells:
            continue
        key = _key(coeff, total)
        if key in seen:
            continue
        seen.add(key)
        ordered = sorted(coeff, key=lambda c: (c not in inside, c))
        weights = [coeff[c] for c in ordered]
        if max_slack is not None and len(ordered) > 1:
            sums = reachable_sums(geometry, ordered, weights)
            if min(total - min(sums), max(sums) - total) > max_slack:
                continue
        out.append(ImpliedSum(tuple(ordered), tuple(weights), total,
                              tuple(sorted(used)), how=name))
    return tuple(out)


def _minus(coeff: Coefficients, piece: Coefficients) -> Coefficients:
    out = dict(coeff)
    for c, w in piece.items():
        v = out.get(c, 0) - w
        if v:
            out[c] = v
        else:
            out.pop(c, None)
    return out


def _key(coeff: Coefficients, total: int) -> tuple:
    """The same equation whatever its sign and order."""
    items = tuple(sorted(coeff.items()))
    if items and items[0][1] < 0:
        items, total = tuple((c, -w) for c, w in items), -total
    return items, total
