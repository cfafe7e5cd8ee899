"""Rules that count digits in a group of cells, from sigh's Interactive Sudoku Solver:
``counting-circles``, ``count-distinct``, ``contain-at-least``, ``contain-exact`` and
``look-and-say``.

Glossary: a *count* is how many of the cells hold a digit d, the sum of the 0/1 terms
"cell holds d" (:func:`count_in`); "used d" is the OR of the cells' literals of d.

Every count is a sum of 0/1 terms (:func:`.sums.encode_sum`, whichever sum encoding the
context names) against an int, or against a one-hot integer over the counts allowed. The
prune is the exact search over the cells' candidates (:func:`.base.prune_by_search`).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Sequence

from ..model.geometry import Geometry
from ..records import record
from .base import CellsRule, Clause, Constraint, cell_span, contradiction
from .fields import Cells, Ints, Text
from .sums import cell_term, encode_sum, one_hot

__all__ = ["CountingCircles", "CountDistinct", "ContainAtLeast", "ContainExact", "LookAndSay",
           "count_in", "used_digits"]


def count_in(ctx, lits: Sequence[int], counts: Sequence[int]) -> list[Clause]:
    """Clauses saying that the number of true ``lits`` is one of ``counts``.

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.rules.context import EncodeContext
    >>> count_in(EncodeContext(geometry(2, 2)), [1, 2], [0])
    [[-1], [-2]]
    """
    reachable = sorted({k for k in counts if 0 <= k <= len(lits)})
    if not reachable:
        return contradiction(ctx)
    if reachable == [0]:
        return [[-lit] for lit in lits]
    if reachable == [len(lits)]:
        return [[lit] for lit in lits]
    if reachable == list(range(1, len(lits) + 1)):
        return [list(lits)]
    if len(reachable) == len(lits) + 1:
        return []
    terms = [((0, -lit), (1, lit)) for lit in lits]
    if len(reachable) == 1:
        return encode_sum(ctx, terms, reachable[0])
    target, clauses = one_hot(ctx, reachable)
    return clauses + encode_sum(ctx, terms, target)


def used_digits(ctx, cells: Sequence[int]) -> tuple[dict[int, int], list[Clause]]:
    """For each digit d, a literal "some cell of ``cells`` holds d", and its clauses."""
    used: dict[int, int] = {}
    clauses: list[Clause] = []
    for d in range(1, ctx.size + 1):
        lits = [ctx.var(c, d) for c in cells]
        u = used[d] = ctx.fresh()
        clauses.append([-u] + lits)
        clauses += [[-lit, u] for lit in lits]
    return used, clauses


@record(frozen=True)
class CountingCircles(CellsRule):
    """``counting-circles``: the digit in each circle is how many of the circles hold that
    digit (a 3 in a circle: exactly three circles hold 3), as sigh's Counting Circles.

    >>> CountingCircles((0, 1, 2)).holds((1, 2, 2)), CountingCircles((0, 1, 2)).holds((2, 1, 1))
    (True, False)
    """

    type = "counting-circles"
    any_shape = True
    any_values = True
    cells: tuple[int, ...]
    fields = (Cells(doc="the circled cells (one set: each counts the others)"),)

    def describe(self, geometry: Geometry) -> str:
        return f"counting circles {cell_span(geometry, self.cells)}"

    def encode(self, ctx) -> list[Clause]:
        clauses: list[Clause] = []
        for d in range(1, ctx.size + 1):  # as many circles hold d as its value, or none
            clauses += count_in(ctx, [ctx.var(c, d) for c in self.cells],
                                (0, ctx.geometry.value(d)))
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        have = Counter(digits)
        return all(have[d] == d for d in have)

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        have = Counter(digits)
        wrong = sorted(d for d in have if have[d] != d)
        return ", ".join(f"{have[d]} circle{'s' if have[d] > 1 else ''} hold {d}"
                         for d in wrong)

    def draw(self, canvas) -> None:
        """A grey circle in each cell, as sigh draws them."""
        for c in self.cells:
            canvas.circle(c, radius=0.42)


@record(frozen=True)
class CountDistinct(Constraint):
    """``count-distinct``: the digit of the control cell is how many different digits the
    other cells hold (sigh's CountDistinct).

    >>> CountDistinct(0, (1, 2, 3)).holds((2, 4, 1, 4)), CountDistinct(0, (1, 2)).holds((2, 3, 3))
    (True, False)
    """

    type = "count-distinct"
    control: int
    counted: tuple[int, ...]
    fields = (Cells("control", single=True, doc="the control cell, whose digit is the count"),
              Cells("cells", "counted", doc="the cells whose different digits are counted"))

    def __post_init__(self) -> None:
        if self.control in self.counted:
            raise ValueError("the control cell is also one of the counted 'cells'")

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.control,) + self.counted

    def describe(self, geometry: Geometry) -> str:
        return (f"count-distinct {geometry.cell_name(self.control)} counts "
                f"{cell_span(geometry, self.counted)}")

    def encode(self, ctx) -> list[Clause]:
        used, clauses = used_digits(ctx, self.counted)
        terms = [((0, -u), (1, u)) for u in used.values()]
        return clauses + encode_sum(ctx, terms, cell_term(ctx, self.control))

    def holds(self, digits: tuple[int, ...]) -> bool:
        return digits[0] == len(set(digits[1:]))

    def draw(self, canvas) -> None:
        """An outline around the cells, a circle in the control cell."""
        canvas.cage(self.cells)
        canvas.circle(self.control, radius=0.4)


@record(frozen=True)
class ContainAtLeast(Constraint):
    """``contain-at-least``: each of ``digits`` appears among the cells, a digit listed k
    times at least k times (sigh's ContainAtLeast; a quadruple over any cells).

    >>> ContainAtLeast((0, 1, 2), (1, 1)).holds((1, 3, 1)), ContainAtLeast((0, 1), (2,)).holds((1, 3))
    (True, False)
    """

    type = "contain-at-least"
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    fields = (Cells(doc="the cells"),
              Ints("digits", what="digits",
                   doc="digits that appear among them (a digit listed twice, at least twice)"))
    exact = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "digits", tuple(sorted(self.digits)))

    @property
    def counts(self) -> dict[int, int]:
        return dict(Counter(self.digits))

    def describe(self, geometry: Geometry) -> str:
        return f"{self.type} {cell_span(geometry, self.cells)}: {self._listed()}"

    def _listed(self) -> str:
        return ",".join(map(str, self.digits))

    def encode(self, ctx) -> list[Clause]:
        k, clauses = len(self.cells), []
        for d, m in self.counts.items():
            wanted = [m] if self.exact else range(m, k + 1)
            clauses += count_in(ctx, [ctx.var(c, d) for c in self.cells], wanted)
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        have = Counter(digits)
        return all(have[d] == m if self.exact else have[d] >= m
                   for d, m in self.counts.items())

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        have = Counter(digits)
        return ", ".join(f"{have[d]} of {d} (want {'' if self.exact else 'at least '}{m})"
                         for d, m in self.counts.items()
                         if (have[d] != m if self.exact else have[d] < m))

    def draw(self, canvas) -> None:
        """A shaded outline, the digits small in its first cell (sigh's striped region)."""
        canvas.shade(self.cells, "extra_region")
        canvas.cage(self.cells, self._listed())


@record(frozen=True)
class ContainExact(ContainAtLeast):
    """``contain-exact``: each of ``digits`` appears among the cells exactly as many times as
    it is listed; other digits are free (sigh's ContainExact).

    >>> ContainExact((0, 1, 2), (1, 1)).holds((1, 3, 1)), ContainExact((0, 1, 2), (1,)).holds((1, 3, 1))
    (True, False)
    """

    type = "contain-exact"
    fields = (Cells(doc="the cells"),
              Ints("digits", what="digits",
                   doc="digits that appear exactly as often as listed (twice: exactly twice)"))
    exact = True


def parse_look_and_say(text: str) -> dict[int, int]:
    """The counts a look-and-say clue reads: pairs (count, digit), ``'2312'`` is two 3s and
    one 2; a count 0 says the digit is absent; a digit twice is refused.

    >>> parse_look_and_say("2312"), parse_look_and_say("05")
    ({3: 2, 2: 1}, {5: 0})
    """
    if not text.isdigit() or len(text) % 2:
        raise ValueError("must be pairs of a count and a digit, like '2312' (two 3s, one 2)")
    out: dict[int, int] = {}
    for i in range(0, len(text), 2):
        count, digit = int(text[i]), int(text[i + 1])  # a value: 0 on grids of values from 0
        if digit in out:
            raise ValueError(f"names digit {digit} twice")
        out[digit] = count
    return out


@record(frozen=True)
class LookAndSay(Constraint):
    """``look-and-say``: the clue read as pairs (count, digit) says how many times each named
    digit appears among the cells: ``'2312'`` is exactly two 3s and one 2, ``'05'`` no 5;
    digits the clue does not name are free (sigh's Look and Say).

    >>> LookAndSay((0, 1, 2), "2312").holds((3, 2, 3)), LookAndSay((0, 1), "05").holds((5, 1))
    (True, False)
    """

    type = "look-and-say"
    any_values = True
    cells: tuple[int, ...]
    clue: str
    fields = (Cells(doc="the cells"),
              Text("clue", parse=parse_look_and_say, what="look-and-say clue",
                   doc="pairs (count, digit): '2312' is two 3s and one 2; '05' is no 5"))

    def __post_init__(self) -> None:
        parse_look_and_say(self.clue)

    @functools.cached_property
    def counts(self) -> dict[int, int]:
        return parse_look_and_say(self.clue)

    def describe(self, geometry: Geometry) -> str:
        return f"look-and-say {self.clue} {cell_span(geometry, self.cells)}"

    def encode(self, ctx) -> list[Clause]:
        clauses: list[Clause] = []
        for v, m in self.counts.items():
            d = v - ctx.geometry.low + 1  # the digit of value v
            if not 1 <= d <= ctx.size:
                clauses += [] if m == 0 else contradiction(ctx)
                continue
            clauses += count_in(ctx, [ctx.var(c, d) for c in self.cells], [m])
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        have = Counter(digits)
        return all(have[d] == m for d, m in self.counts.items())

    def draw(self, canvas) -> None:
        """A shaded outline, the clue small in its first cell."""
        canvas.shade(self.cells, "extra_region")
        canvas.cage(self.cells, self.clue)
