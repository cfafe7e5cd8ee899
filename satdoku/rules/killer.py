"""Sums over groups of cells: ``killer`` cages, ``little-killer`` diagonals and ``arrow``s.

The clauses come from :func:`.sums.encode_sum` (the table or totalizer encoding); a killer
cage adds its own no-repeat clauses. Pruning keeps the digits that some choice of candidates
summing right uses (:func:`.sums.prune_cell_sum`, repeats allowed), and for a cage also the
digits of the sets of different digits that fit.
"""

from __future__ import annotations

import math
import re

from ..model.geometry import Geometry
from ..records import record
from .base import Clause, Constraint, cell_span, fills, line_ends, restrict
from .exchange import FPuzzles
from .fields import Cells, Choice, Int, Place
from .groups import encode_distinct, prune_distinct
from .cell_sums import (clause_estimate, encode_cell_sum, house_rest, number_term,
                        reachable_sums)
from .sums import SETS_LIMIT, cell_term, combinations, encode_sum, prune_cell_sum

__all__ = ["Killer", "LittleKiller", "Arrow", "DIRECTIONS", "encode_cage", "prune_cage",
           "cage_problem"]

#: Little killer arrows: (row step, column step) of each direction.
DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}

_CLUE = re.compile(r"r(\d+)c(\d+)")


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def encode_cage(ctx, cells: tuple[int, ...], target, outside=()) -> list[Clause]:
    """A cage's clauses: its digits differ, and (``target`` an int or a one-hot term; None: no
    sum) they sum to it, the sum's clauses that repeat the no-repeat ones left out."""
    clauses = encode_distinct(ctx, cells)
    if target is None:
        return clauses
    terms = [cell_term(ctx, c) for c in cells]
    seen = {tuple(c) for c in clauses}
    return clauses + [c for c in encode_sum(ctx, terms, target, distinct=True, outside=outside)
                      if tuple(c) not in seen]


def prune_cage(cells: tuple[int, ...], cand: list[int], totals: tuple[int, ...]
               ) -> list[int] | None:
    """A cage's prune: no repeats, then (``totals`` given) the digits of the sets of different
    digits that fit one of them (up to SETS_LIMIT sets), then those a choice of candidates
    summing to one of them uses; the cells changed, or None on a contradiction."""
    changed: set[int] = set()
    n = math.isqrt(len(cand))
    if not prune_distinct(cells, cand, changed, complete=len(cells) == n):
        return None
    if not totals:
        return sorted(changed)
    k = len(cells)
    if math.comb(n, k) <= SETS_LIMIT:
        keep = 0
        for total in totals:
            for combo in combinations(n, k, total):
                if fills(cells, cand, combo):
                    keep |= combo
        for c in cells:
            if not restrict(cand, c, keep, changed):
                return None
    if prune_cell_sum(cells, [1] * k, cand, set(totals), changed) is None:
        return None
    return sorted(changed)


def cage_problem(rule: Constraint, geometry: Geometry, digits: tuple[int, ...]) -> str:
    """What a cage's digits break: a repeat, else their sum."""
    if len(set(digits)) != len(digits):
        return "a digit repeats: " + Constraint._explain(rule, geometry, digits)
    return f"the digits sum to {sum(digits)}"


@record(frozen=True)
class Killer(Constraint):
    """``killer``: no repeats in the cage; its digits sum to ``total`` (None: no sum given).

    >>> from satdoku.model.geometry import geometry
    >>> Killer((0, 9), 9).describe(geometry(3, 3)), Killer((0, 9), 9).holds((4, 5))
    ('killer cage r1c1-r2c1 = 9', True)
    """

    type = "killer"
    any_shape = True
    any_values = True
    fields = (Cells(doc="the cage"),
              Int("sum", "total", low=1, required=False, nullable=True, always=True,
                  doc="the cage's total, or null for none"))
    fpuzzles = (FPuzzles("killercage", "killercage", value="total",
                         how="sum = the cage's value, null without one"),
                FPuzzles("extraregion", "extraregion",
                         how="fewer than N cells: a killer without sum"))
    cells: tuple[int, ...]
    total: int | None = None

    def describe(self, geometry: Geometry) -> str:
        text = f"killer cage {cell_span(geometry, self.cells)}"
        return text if self.total is None else f"{text} = {self.total}"

    def draw(self, canvas) -> None:
        """A dashed outline, the sum (when there is one) small in its top-left cell."""
        canvas.cage(self.cells, self.total)

    def encode(self, ctx) -> list[Clause]:
        return encode_cage(ctx, self.cells, self.total, outside=house_rest(ctx, self.cells))

    def clause_estimate(self, geometry: Geometry) -> int:
        """The no-repeat clauses: N digits times the pairs of cells (none past N cells)."""
        k = len(self.cells)
        return geometry.size * k * (k - 1) // 2 if k <= geometry.size else 2

    def holds(self, digits: tuple[int, ...]) -> bool:
        return len(set(digits)) == len(digits) and (self.total is None
                                                    or sum(digits) == self.total)

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        return cage_problem(self, geometry, digits)

    def prune(self, cand: list[int]) -> list[int] | None:
        return prune_cage(self.cells, cand, () if self.total is None else (self.total,))


@record(frozen=True)
class LittleKiller(Constraint):
    """``little-killer``: the digits on a diagonal run sum to ``total`` (repeats allowed where
    the houses allow). ``clue`` (a name like ``'r0c1'``, outside the grid) and ``direction``
    (DR, DL, UR, UL) only say where it is drawn.
    """

    type = "little-killer"
    any_values = True
    any_shape = True  # a square grid of more values too (sigh's 9x9 of 0-9): not other sides
    fields = (Cells(doc="the diagonal run, each cell one step further in one direction"),
              Int("sum", "total", low=1, doc="the run's total"),
              Place("clue", required=False, doc="where the clue is drawn, outside the grid"),
              Choice("direction", tuple(DIRECTIONS), required=False,
                     doc="the arrow's direction as drawn"))
    fpuzzles = (FPuzzles("littlekillersum", "littlekillersum", value="total",
                         how="the diagonal from the clue cell in its direction (DR, DL, UR, "
                             "UL)"),)
    cells: tuple[int, ...]
    total: int
    clue: str | None = None
    direction: str | None = None

    @classmethod
    def refusal(cls, geometry: Geometry) -> tuple[str, str] | None:
        if geometry.height != geometry.width:
            return (f"on a {geometry.height}x{geometry.width} grid", "little-killer is stated "
                    f"for a square grid (its diagonals); this is a {geometry.shape}")
        return super().refusal(geometry)

    def describe(self, geometry: Geometry) -> str:
        where = f"at {self.clue}" if self.clue else cell_span(geometry, self.cells)
        return f"little killer {where} = {self.total}"

    def draw(self, canvas) -> None:
        """The sum outside the grid where the diagonal comes in, with a small arrow along it:
        at ``clue`` when the document gives it, else one step before the end of the run that
        touches the border."""
        place, step = self.placement(canvas.geometry.width)
        canvas.little_killer(place, step, self.total)

    def placement(self, n: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Where the clue goes (0-based row and column, outside an N x N grid) and its arrow's
        (row step, column step).

        >>> LittleKiller((2, 12, 22), 12).placement(9), LittleKiller((22, 12, 2), 12).placement(9)
        (((-1, 1), (1, 1)), ((-1, 1), (1, 1)))
        """
        run = [divmod(c, n) for c in self.cells]

        def outside(r: int, c: int) -> bool:
            return not (0 <= r < n and 0 <= c < n)

        if len(run) > 1:
            step = (run[1][0] - run[0][0], run[1][1] - run[0][1])
        elif self.direction is not None:
            step = DIRECTIONS[self.direction]
        else:  # one cell: a corner, entered from outside the grid
            r, c = run[0]
            step = next((s for s in DIRECTIONS.values() if outside(r - s[0], c - s[1])),
                        (1, 1))
        clue = _CLUE.fullmatch(self.clue) if self.clue is not None else None  # (Place checked it)
        if clue is not None:
            r, c = (int(v) - 1 for v in clue.groups())
            if self.direction is not None:
                return (r, c), DIRECTIONS[self.direction]
            near = min(run, key=lambda p: max(abs(p[0] - r), abs(p[1] - c)))
            return (r, c), (_sign(near[0] - r), _sign(near[1] - c))
        (r0, c0), (r1, c1) = run[0], run[-1]
        if not outside(r0 - step[0], c0 - step[1]) and outside(r1 + step[0], c1 + step[1]):
            run, step = run[::-1], (-step[0], -step[1])  # the run ends at the border
        r, c = run[0]
        while not outside(r, c):
            r, c = r - step[0], c - step[1]
        return (r, c), step

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        cells, n = values["cells"], geometry.width
        steps = {(b // n - a // n, b % n - a % n) for a, b in zip(cells, cells[1:])}
        if len(steps) > 1 or not steps <= set(DIRECTIONS.values()):
            raise ValueError("'cells' must be a diagonal run, each cell one step further "
                             "in the same diagonal direction")

    def encode(self, ctx) -> list[Clause]:
        """The cells summed one at a time by a chain of order-encoded prefix sums (``chain``),
        not grouped by box: a diagonal has at most a box's side of cells in a box, and on the
        hard little killers the groups' value sets cost more search speed than they saved
        conflicts (docs/sum-encodings.md, run 5). A sum encoding chosen for the context
        (``ctx.sum_encoding``, the benchmarks') replaces the chain; the cells stay ungrouped."""
        return encode_cell_sum(ctx, self.cells, [1] * len(self.cells), self.total,
                               method=getattr(ctx, "sum_encoding", None) or "chain",
                               grouped=False)

    def clause_estimate(self, geometry: Geometry) -> int:
        return clause_estimate(geometry, self.cells, [1] * len(self.cells), self.total,
                               self.total)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return sum(digits) == self.total

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        return f"the digits sum to {sum(digits)}"

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if prune_cell_sum(self.cells, [1] * len(self.cells), cand, {self.total}, changed) is None:
            return None
        return sorted(changed)


@record(frozen=True)
class Arrow(Constraint):
    """``arrow``: the digits on the shaft sum to the number in the circle (its cells read as
    decimal digits, most significant first).

    >>> Arrow((0, 1), (2, 3, 4)).holds((1, 2, 3, 4, 5))
    True
    """

    type = "arrow"
    any_shape = True
    any_values = True
    fields = (Cells("circle", doc="the circle: one cell, or several read as one number"),
              Cells("cells", "shaft", doc="the shaft, in order"))
    fpuzzles = (FPuzzles("arrow", "arrow", how="one per line: circle = the entry's cells in "
                                               "their stored order, shaft = the line without "
                                               "the circle"),)
    circle: tuple[int, ...]
    shaft: tuple[int, ...]

    @property
    def cells(self) -> tuple[int, ...]:
        return self.circle + self.shaft

    @property
    def weights(self) -> list[int]:
        """Each cell's weight in ``sum(shaft) - number(circle) == 0``."""
        k = len(self.circle)
        return [-10 ** (k - 1 - i) for i in range(k)] + [1] * len(self.shaft)

    def describe(self, geometry: Geometry) -> str:
        return f"arrow {line_ends(geometry, self.circle[:1] + self.shaft)}"

    def draw(self, canvas) -> None:
        """A circle (a pill around several cells), the shaft from it, an arrowhead at its
        end."""
        canvas.arrow(self.circle, self.shaft)

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        both = set(values["circle"]) & set(values["shaft"])
        if both:
            raise ValueError(f"{geometry.cell_name(min(both))} is in both 'circle' and 'cells'")

    def encode(self, ctx) -> list[Clause]:
        if len(self.circle) == 1:
            return encode_cell_sum(ctx, self.shaft, [1] * len(self.shaft),
                                   cell_term(ctx, self.circle[0]))
        if ctx.size > 9 or ctx.geometry.low != 1:  # a circle digit of 10 or more, or a 0:
            # no decimal reading to list; the weighted sum says the same
            return encode_cell_sum(ctx, self.cells, self.weights, 0)
        shaft = [1] * len(self.shaft)
        reach = reachable_sums(ctx.geometry, self.shaft, shaft) if ctx.houses else \
            set(range(len(shaft), len(shaft) * ctx.size + 1))
        number, clauses = number_term(ctx, self.circle, reach)
        return clauses + encode_cell_sum(ctx, self.shaft, shaft, number)

    def clause_estimate(self, geometry: Geometry) -> int:
        """The shaft's sum against the circle's number (a digit, or up to 10**k - 1)."""
        k = len(self.circle)
        if k == 1 or geometry.size <= 9:
            high = geometry.size if k == 1 else 10 ** k - 1
            return clause_estimate(geometry, self.shaft, [1] * len(self.shaft), 10 ** (k - 1),
                                   high, dense=k == 1)
        return clause_estimate(geometry, self.cells, self.weights, 0, 0)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return sum(w * d for w, d in zip(self.weights, digits)) == 0

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        k = len(self.circle)
        number = -sum(w * d for w, d in zip(self.weights, digits[:k]))
        return f"the shaft sums to {sum(digits[k:])}, the circle holds {number}"

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if prune_cell_sum(self.cells, self.weights, cand, {0}, changed) is None:
            return None
        return sorted(changed)
