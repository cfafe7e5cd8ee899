"""Sets of cells that hold the same values: ``same-values`` (sigh's SameValues over sets of
several cells) and ``region-same-values`` (sigh's RegionSameValues: the largest houses of a
grid with more digits than a house has cells all hold one set of digits).

Glossary (adds to :mod:`satdoku.rules.base`): a *set* is a list of cells; two sets hold the
same values when each digit is on as many cells of one as of the other (counts, as sigh's
handler enforces them). Encoded per digit: the count of its cells in the first set is a
one-hot integer (:func:`.sums.one_hot`) that every set's count equals
(:func:`.sums.encode_sum`). A house holds a digit at most once, so for houses the count is a
"used" literal, the same one for every largest house.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .base import Clause, Constraint, GlobalRule, cell_span
from .chaos import Groups
from .sums import encode_sum, one_hot

__all__ = ["SameValues", "RegionSameValues"]


def _same_counts(ctx, sets) -> list[Clause]:
    """Each digit on as many cells of every set as of the first."""
    clauses: list[Clause] = []
    size = len(sets[0])
    for d in range(1, ctx.size + 1):
        count, made = one_hot(ctx, range(size + 1))
        clauses += made
        for cells in sets:
            terms = [((0, -ctx.var(c, d)), (1, ctx.var(c, d))) for c in cells]
            clauses += encode_sum(ctx, terms, count)
    return clauses


@record(frozen=True)
class SameValues(Constraint):
    """``same-values``: the sets of cells hold the same values, each as often (sigh's
    SameValues with sets of several cells).

    >>> SameValues(((0, 1), (2, 3))).holds((1, 2, 2, 1)), SameValues(((0, 1), (2, 3))).holds((1, 2, 2, 3))
    (True, False)
    """

    type = "same-values"
    any_shape = True
    reads_values = False
    fields = (Groups("sets", doc="2 or more sets of cells, all of one size"),)
    sets: tuple[tuple[int, ...], ...]

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        sets = values["sets"]
        if len(sets) < 2 or len({len(s) for s in sets}) > 1:
            raise ValueError("'sets' must be 2 or more sets of one size")

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(c for s in self.sets for c in s)

    def describe(self, geometry: Geometry) -> str:
        return "same values " + " / ".join(cell_span(geometry, s) for s in self.sets)

    def encode(self, ctx) -> list[Clause]:
        return _same_counts(ctx, self.sets)

    def holds(self, digits: tuple[int, ...]) -> bool:
        k = len(self.sets[0])
        counts = [Counter(digits[i:i + k]) for i in range(0, len(digits), k)]
        return all(c == counts[0] for c in counts)

    def draw(self, canvas) -> None:
        """Each set shaded, with '≡' small in its first cell."""
        for cells in self.sets:
            canvas.shade(cells, "extra_region", area=True)
            canvas.cage(cells[:1], "≡")


@record(frozen=True)
class RegionSameValues(GlobalRule):
    """``region-same-values``: the largest houses (rows, columns, boxes or regions) all hold
    the same digits; binding only where they have fewer cells than the grid has digits
    (sigh's RegionSameValues, a 6x6 grid of digits 1-9).

    >>> from satdoku.model.geometry import shaped
    >>> len(RegionSameValues(shaped(6, 6, 9, box=(2, 3))).houses)
    18
    """

    type = "region-same-values"
    any_shape = True
    reads_values = False
    words: ClassVar[str] = "region same values"
    geometry: Geometry

    @property
    def houses(self) -> tuple[tuple[int, ...], ...]:
        geo = self.geometry
        most = max(len(h) for h in geo.houses)
        return tuple(h for h in geo.houses if len(h) == most) if most < geo.size else ()

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    def describe(self, geometry: Geometry) -> str:
        return "region same values"

    def encode(self, ctx) -> list[Clause]:
        houses = self.houses
        return _same_counts(ctx, houses) if len(houses) > 1 else []

    def check(self, grid: Grid) -> list[str]:
        sets = {frozenset(grid.cells[c] for c in h) for h in self.houses}
        return [] if len(sets) <= 1 else ["region same values: the largest houses hold "
                                          "different digits"]

    def prune(self, cand: list[int]) -> list[int] | None:
        """Nothing: native search refuses a grid whose houses are not all full."""
        return []

    def draw(self, canvas) -> None:
        """A note under the grid."""
        canvas.note("region same values")
