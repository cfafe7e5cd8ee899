"""``quadruple``: digits written on the corner of four cells all appear among them."""

from __future__ import annotations

import itertools
from collections import Counter

from ..model.geometry import Geometry
from ..records import record
from .base import Clause, Constraint, bit, cell_span, contradiction, prune_by_search
from .exchange import FPuzzles
from .fields import Corner, Ints

__all__ = ["Quadruple"]


@record(frozen=True)
class Quadruple(Constraint):
    """``quadruple``: each of ``digits`` appears among ``cells`` (a digit listed twice, at
    least twice).

    At least k of the cells hold d is: every choice of ``len(cells) - k + 1`` cells has one
    holding d (one clause each).

    >>> q = Quadruple((0, 1, 4, 5), (1, 1, 3))
    >>> q.holds((1, 2, 3, 1)), q.holds((1, 2, 3, 4))
    (True, False)
    """

    type = "quadruple"
    any_shape = True
    any_values = True
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    fields = (Corner(doc="the 4 cells around a corner"),
              Ints("digits", min_items=1, max_items=4, what="digits", values=True,
                   doc="digits that appear among them (a digit listed twice appears twice)"))
    fpuzzles = (FPuzzles("quadruple", "quadruple", how="digits = values"),)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digits", tuple(sorted(self.digits)))

    @property
    def counts(self) -> Counter:
        return Counter(self.digits)

    def describe(self, geometry: Geometry) -> str:
        return f"quadruple {cell_span(geometry, self.cells)}: {', '.join(map(str, self.digits))}"

    def draw(self, canvas) -> None:
        """A white circle on the corner the four cells share, with the digits small in it."""
        n = canvas.cols
        row, col = max(c // n for c in self.cells), max(c % n for c in self.cells)
        low = canvas.geometry.low  # the digits are values
        canvas.quadruple(row, col, [canvas.symbol(v - low + 1) for v in self.digits])

    def encode(self, ctx) -> list[Clause]:
        k = len(self.cells)
        clauses: list[Clause] = []
        for d, count in self.counts.items():
            if count > k:
                return contradiction(ctx)
            d -= ctx.geometry.low - 1  # the digit of value d
            clauses += [[ctx.var(c, d) for c in group]
                        for group in itertools.combinations(self.cells, k - count + 1)]
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        have = Counter(digits)
        return all(have[d] >= k for d, k in self.counts.items())

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        have = Counter(digits)
        missing = [str(d) for d, k in self.counts.items() if have[d] < k]
        return f"{', '.join(missing)} missing"

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        for d, count in self.counts.items():
            places = [c for c in self.cells if cand[c] & bit(d)]
            if len(places) < count:
                return None
            if len(places) == count:
                for c in places:
                    if cand[c] != bit(d):
                        cand[c] = bit(d)
                        changed.add(c)
        if sum(self.counts.values()) > len(self.cells):
            return None
        more = prune_by_search(self.cells, cand, self.holds)
        return None if more is None else sorted(changed | set(more))
