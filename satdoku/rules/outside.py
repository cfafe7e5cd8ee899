"""Clues outside the grid about one row or column: ``sandwich``, ``x-sum``, ``skyscraper``.

Each reads its line's cells from the clue's side (``from``: ``start`` is the left of a row or
the top of a column). Sums over cells that count only sometimes use gated terms
(:func:`.sums.gated_term`): a sandwich cell counts when it lies between the 1 and the N (one
of them before it, the other not, and it is neither), an X-sum cell ``k`` when the first
digit is more than ``k``. A skyscraper is seen when it is taller than the highest before it,
from order literals "highest so far >= t"; the count of those seen is a sum of 0/1 terms.

Pruning tries the line's permutations of candidates while they are few
(:func:`.base.prune_by_search`), after cheap bounds.
"""

from __future__ import annotations

import itertools
import math
from typing import ClassVar

from ..model.geometry import Geometry
from ..records import record
from .base import (Clause, Constraint, bit, line_cells, line_name, prune_by_search,
                   restrict)
from .exchange import FPuzzles
from .fields import Choice, Int, LineName
from .sums import cell_term, encode_sum, gated_term, prune_cell_sum

__all__ = ["Sandwich", "XSum", "Skyscraper"]

SIDES = ("start", "end")
_FROM = Choice("from", SIDES, "side", doc="'start': read from the left or top; 'end': from "
               "the right or bottom")


class _Outside(Constraint):
    """A clue on ``line`` (``'r3'``, ``'c5'``) read from ``side`` (when ``sided``): the
    number in attribute ``number``, written as ``key`` in JSON."""

    geometry: Geometry
    line: str
    side: str = "start"
    sided: ClassVar[bool] = True
    number: ClassVar[str]
    key: ClassVar[str]

    @property
    def value(self) -> int:
        return getattr(self, self.number)

    def describe(self, geometry: Geometry) -> str:
        return f"{self.type} {line_name(self.line, self.side if self.sided else None)} = " \
               f"{self.value}"

    @property
    def cells(self) -> tuple[int, ...]:
        return line_cells(self.geometry, self.line, self.side)

    def draw(self, canvas) -> None:
        """The number outside the grid beside the row or column, on the side it is read from
        (a sandwich, read from neither, to the left of a row and above a column)."""
        row = self.line[0] == "r"
        end = self.sided and self.side == "end"
        side = ("right" if end else "left") if row else ("bottom" if end else "top")
        canvas.outside(side, int(self.line[1:]) - 1, self.value)

    def prune(self, cand: list[int]) -> list[int] | None:
        return prune_by_search(self.cells, cand, self.holds, distinct=True)


def _or_chain(ctx, lits: list[int]) -> tuple[list[int], list[Clause]]:
    """``out[i]`` <-> ``lits[i] or ... or lits[-1]``: suffix ORs with their clauses."""
    out: list[int] = [0] * len(lits)
    clauses: list[Clause] = []
    for i in range(len(lits) - 1, -1, -1):
        if i == len(lits) - 1:
            out[i] = lits[i]
            continue
        g = out[i] = ctx.fresh()
        clauses += [[-lits[i], g], [-out[i + 1], g], [-g, lits[i], out[i + 1]]]
    return out, clauses


@record(frozen=True)
class Sandwich(_Outside):
    """``sandwich``: the digits strictly between the 1 and the N of the line sum to ``total``.

    >>> from satdoku.model.geometry import geometry
    >>> s = Sandwich(geometry(2, 2), "r1", total=5)
    >>> s.describe(geometry(2, 2)), s.holds((1, 2, 3, 4)), s.holds((2, 1, 4, 3))
    ('sandwich row 1 = 5', True, False)
    """

    type = "sandwich"
    geometry: Geometry
    line: str
    total: int = 0
    sided, number, key = False, "total", "sum"
    fields = (LineName("line", doc="the row or column"),
              Int("sum", "total", low=0, doc="the sum between the 1 and the N"))
    fpuzzles = (FPuzzles("sandwichsum", "outside", value="total",
                         how="clue R0Cc or R(N+1)Cc: column c; RrC0 or RrC(N+1): row r"),)

    def encode(self, ctx) -> list[Clause]:
        n, cells = ctx.size, self.cells
        clauses: list[Clause] = []
        # before[i]: the 1 (the N) is in cells[:i], as the OR of a growing prefix
        ones, one_clauses = _or_chain(ctx, [ctx.var(c, 1) for c in reversed(cells)])
        tops, top_clauses = _or_chain(ctx, [ctx.var(c, n) for c in reversed(cells)])
        clauses += one_clauses + top_clauses
        if not ctx.houses:  # alone, the rule must say the line has a 1 and an N
            clauses += [[ones[0]], [tops[0]]]
        terms = []
        for i in range(1, n - 1):
            one_before, top_before = ones[n - i], tops[n - i]
            x1, xn = ctx.var(cells[i], 1), ctx.var(cells[i], n)
            t = ctx.fresh()  # exactly one of them is before cell i
            b = ctx.fresh()  # cell i is between: t, and it is neither the 1 nor the N
            clauses += [[-t, one_before, top_before], [-t, -one_before, -top_before],
                        [t, -one_before, top_before], [t, one_before, -top_before], [-b, t]]
            if ctx.houses:  # one 1 and one N in the line
                clauses += [[-b, -x1], [-b, -xn], [b, -t, x1, xn]]
                term, more = gated_term(ctx, cells[i], b, range(2, n))
            else:  # between the first 1 and the first N; a second 1 or N counts
                clauses += [[-b, -xn, -one_before], [-b, -x1, -top_before],
                            [b, -t, xn, -one_before], [b, -t, x1, -top_before]]
                term, more = gated_term(ctx, cells[i], b, range(1, n + 1))
            terms.append(term)
            clauses += more
        if ctx.houses:  # k different digits of 2..N-1 between them: the 1 and N so far apart
            for i, j in itertools.combinations(range(n), 2):
                k = j - i - 1
                low, high = k * (k + 3) // 2, k * (2 * n - k - 1) // 2
                if not low <= self.total <= high:
                    clauses += [[-ctx.var(cells[i], 1), -ctx.var(cells[j], n)],
                                [-ctx.var(cells[i], n), -ctx.var(cells[j], 1)]]
        return clauses + encode_sum(ctx, terms, self.total, distinct=ctx.houses)

    def holds(self, digits: tuple[int, ...]) -> bool:
        n = len(digits)
        if 1 not in digits or n not in digits:
            return False
        i, j = sorted((digits.index(1), digits.index(n)))
        return sum(digits[i + 1:j]) == self.total

    def prune(self, cand: list[int]) -> list[int] | None:
        cells = self.cells
        n = len(cells)
        ones = [i for i, c in enumerate(cells) if cand[c] & 1]
        tops = [i for i, c in enumerate(cells) if cand[c] >> (n - 1) & 1]
        if len(ones) == 1 and len(tops) == 1 and cand[cells[ones[0]]] == 1 \
                and cand[cells[tops[0]]] == bit(n):
            i, j = sorted((ones[0], tops[0]))
            changed: set[int] = set()
            if prune_cell_sum(cells[i + 1:j], [1] * (j - i - 1), cand, {self.total},
                              changed) is None:
                return None
            return sorted(changed)
        return super().prune(cand)


@record(frozen=True)
class XSum(_Outside):
    """``x-sum``: the first X digits from the clue's side sum to ``total``, X being the first
    digit.

    >>> from satdoku.model.geometry import geometry
    >>> XSum(geometry(2, 2), "c1", "end", 6).holds((3, 1, 2, 4))
    True
    """

    type = "x-sum"
    geometry: Geometry
    line: str
    side: str = "start"
    total: int = 0
    number, key = "total", "sum"
    fields = (LineName("line", doc="the row or column"), _FROM,
              Int("sum", "total", low=1, doc="the sum of the first X digits"))
    fpuzzles = (FPuzzles("xsum", "outside", value="total", source="SudokuSolver's user script",
                         how="from 'start' for a clue in row or column 0, 'end' for N+1"),)

    def encode(self, ctx) -> list[Clause]:
        if ctx.houses:
            return self._encode_by_count(ctx)
        n, cells = ctx.size, self.cells
        first = cells[0]
        # more[k] <-> the first digit is more than k, i.e. cell k counts
        more, clauses = _or_chain(ctx, [ctx.var(first, d) for d in range(2, n + 1)])
        terms = [cell_term(ctx, first)]
        for k in range(1, n):
            term, more_clauses = gated_term(ctx, cells[k], more[k - 1], range(1, n + 1))
            terms.append(term)
            clauses += more_clauses
        return clauses + encode_sum(ctx, terms, self.total)  # alone: digits may repeat

    def _encode_by_count(self, ctx) -> list[Clause]:
        """For each first digit X, guarded by it: the next X - 1 cells, different digits of
        the line other than X, sum to the total less X (a value-set table that knows how many
        digits it holds; X ruled out where no such set exists)."""
        n, cells = ctx.size, self.cells
        clauses: list[Clause] = []
        for x in range(1, n + 1):
            guard = -ctx.var(cells[0], x)
            others = [d for d in range(1, n + 1) if d != x]
            terms = [cell_term(ctx, c, digits=others) for c in cells[1:x]]
            if not terms:
                clauses += [] if x == self.total else [[guard]]
                continue
            clauses += [[guard] + clause for clause in
                        encode_sum(ctx, terms, self.total - x, distinct=True)]
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        return sum(digits[:digits[0]]) == self.total


@record(frozen=True)
class Skyscraper(_Outside):
    """``skyscraper``: seen from the clue's side, ``count`` digits are visible (a digit hides
    every smaller one behind it).

    >>> from satdoku.model.geometry import geometry
    >>> Skyscraper(geometry(2, 2), "r1", count=2).holds((3, 1, 4, 2))
    True
    """

    type = "skyscraper"
    any_shape = True
    any_values = True  # a 0 is no building (sigh): it is not seen
    geometry: Geometry
    line: str
    side: str = "start"
    count: int = 1
    number, key = "count", "count"
    fields = (LineName("line", doc="the row or column"), _FROM,
              Int("count", low=1, high="size", doc="how many digits are seen"))
    fpuzzles = (FPuzzles("skyscraper", "outside", value="count",
                         source="SudokuSolver's user script",
                         how="from as for xsum; count = the clue"),)

    def encode(self, ctx) -> list[Clause]:
        first = ctx.var(self.cells[0], 1)
        if ctx.geometry.low == 0:  # the first cell is seen unless it holds 0, no building
            return self._encode_seen(ctx, [((1, -first), (0, first))], 0)
        return self._encode_seen(ctx, [], 1)

    def _encode_seen(self, ctx, terms: list, first: int) -> list[Clause]:
        """The cells after the first each seen when taller than the highest before; with
        ``terms`` (the first cell's), ``count - first`` of them."""
        n, cells, var = ctx.size, self.cells, ctx.var
        clauses: list[Clause] = []
        # high[t] <-> the highest digit before this cell is >= t (t = 2..n; >= 1 holds)
        high: dict[int, int] = {}
        for k, cell in enumerate(cells):
            if k:  # seen <-> taller than the highest before
                seen = ctx.fresh()
                clauses.append([-var(cell, 1), -seen])
                for d in range(2, n + 1):
                    clauses += [[-var(cell, d), high[d], seen],
                                [-var(cell, d), -high[d], -seen]]
                terms.append(((0, -seen), (1, seen)))
            if k == len(cells) - 1:
                break
            new = {}
            for t in range(2, n + 1):
                g = new[t] = ctx.fresh()
                at_least = [var(cell, d) for d in range(t, n + 1)]
                clauses += [[-lit, g] for lit in at_least]
                if k:
                    clauses += [[-high[t], g], [-g, high[t]] + at_least]
                else:
                    clauses.append([-g] + at_least)
            high = new
        return clauses + encode_sum(ctx, terms, self.count - first)

    def holds(self, digits: tuple[int, ...]) -> bool:
        seen, top = 0, 0
        for d in digits:
            if d > top:
                seen, top = seen + 1, d
        return seen == self.count

    def prune(self, cand: list[int]) -> list[int] | None:
        cells = self.cells
        n = math.isqrt(len(cand))
        changed: set[int] = set()
        for k, cell in enumerate(cells):  # k + 1 seen up to here, at most n - v after it
            top = min(n, n + k + 1 - self.count)
            if not restrict(cand, cell, (1 << top) - 1 if top > 0 else 0, changed):
                return None
        more = super().prune(cand)
        return None if more is None else sorted(changed | set(more))
