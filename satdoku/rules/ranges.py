"""Lines whose digits lie in a range: ``renban``, ``between`` and ``lockout``."""

from __future__ import annotations

import math
from typing import ClassVar

from ..model.geometry import Geometry
from ..records import record
from .base import (CellsRule, Clause, bit, cell_span, contradiction, digits_of, fills,
                   restrict)
from .exchange import FPuzzles
from .fields import Cells, Field, Int
from .groups import encode_distinct, prune_distinct

__all__ = ["Renban", "Between", "Lockout"]


def _interval(low: int, high: int) -> int:
    """The candidate mask of the digits ``low..high``."""
    return ((1 << (high - low + 1)) - 1) << (low - 1) if high >= low else 0


def _prune_by_ends(line, cand: list[int], mask_of) -> list[int] | None:
    """Keep the end digits x, y of ``line`` that ``mask_of(x, y)`` allows (None: not at all)
    with some candidate of each middle cell inside that mask, and those middle candidates;
    the changed cells, or None on a contradiction."""
    a, b, middle = line[0], line[-1], line[1:-1]
    keep_a = keep_b = 0
    keep = [0] * len(middle)
    for x in digits_of(cand[a]):
        for y in digits_of(cand[b]):
            mask = mask_of(x, y)
            if mask is None:
                continue
            inside = [cand[c] & mask for c in middle]
            if all(inside):
                keep_a |= bit(x)
                keep_b |= bit(y)
                keep = [k | m for k, m in zip(keep, inside)]
    changed: set[int] = set()
    for cell, mask in zip((a, b) + middle, [keep_a, keep_b] + keep):
        if not restrict(cand, cell, mask, changed):
            return None
    return sorted(changed)


class _LineCells(CellsRule):
    """A rule on ``line`` (cells in order, a cell may come twice), written as ``cells``."""

    line: tuple[int, ...]
    fields: ClassVar[tuple[Field, ...]] = (Cells("cells", "line", repeats=True, connected=True,
                                                 doc="the line's cells in order"),)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line


@record(frozen=True)
class Renban(_LineCells):
    """``renban``: a set of consecutive digits in any order, no repeats.

    Encoded as no repeats plus one selector per window ``m..m+L-1`` of digits: the selected
    window holds every cell. L different digits inside a window of L are the whole window.

    >>> Renban((0, 1, 2)).holds((3, 1, 2)), Renban((0, 1, 2)).holds((1, 2, 4))
    (True, False)
    """

    type = "renban"
    any_shape = True
    reads_values = False
    line: tuple[int, ...]
    fpuzzles = (FPuzzles("renban", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    @property
    def cells(self) -> tuple[int, ...]:
        """The line's cells, each once: a renban is a set of cells."""
        return tuple(dict.fromkeys(self.line))

    def describe(self, geometry: Geometry) -> str:
        return f"renban {cell_span(geometry, self.cells)}"

    def draw(self, canvas) -> None:
        """A purple line."""
        canvas.line(self.line, "renban")

    def _windows(self, n: int) -> list[range]:
        k = len(self.cells)
        return [range(m, m + k) for m in range(1, n - k + 2)]

    def encode(self, ctx) -> list[Clause]:
        windows = self._windows(ctx.size)
        if not windows:
            return contradiction(ctx)
        clauses = encode_distinct(ctx, self.cells, complete=False)
        if len(windows) == 1:
            return clauses + [[-ctx.var(c, d)] for c in self.cells
                              for d in range(1, ctx.size + 1) if d not in windows[0]]
        select = [ctx.fresh() for _ in windows]
        clauses.append(list(select))
        for s, window in zip(select, windows):
            clauses += [[-s] + [ctx.var(c, d) for d in window] for c in self.cells]
            # L different digits in a window of L fill it: each of its digits is somewhere
            # (the pigeonhole a solver would otherwise learn conflict by conflict).
            clauses += [[-s] + [ctx.var(c, d) for c in self.cells] for d in window]
        for c in self.cells:
            for d in range(1, ctx.size + 1):
                clauses.append([-ctx.var(c, d)] + [s for s, w in zip(select, windows) if d in w])
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if not prune_distinct(self.cells, cand, changed):
            return None
        keep = 0
        for window in self._windows(math.isqrt(len(cand))):
            mask = _interval(window[0], window[-1])
            if fills(self.cells, cand, mask):
                keep |= mask
        for c in self.cells:
            if not restrict(cand, c, keep, changed):
                return None
        return sorted(changed)


@record(frozen=True)
class Between(_LineCells):
    """``between``: the digits of the line's middle cells lie strictly between the digits of
    its two ends (the circles).

    >>> Between((0, 1, 2)).holds((7, 4, 2)), Between((0, 1, 2)).holds((2, 2, 7))
    (True, False)
    """

    type = "between"
    any_shape = True
    reads_values = False
    line: tuple[int, ...]
    fields = (Cells("cells", "line", at_least=2, repeats=True, connected=True,
                    doc="circle, the line's cells, circle"),)
    fpuzzles = (FPuzzles("betweenline", "lines", how="one per line"),)

    def describe(self, geometry: Geometry) -> str:
        name = geometry.cell_name
        return f"between line {name(self.line[0])} to {name(self.line[-1])}"

    def draw(self, canvas) -> None:
        """A grey line with an open circle on both ends."""
        canvas.between(self.line)

    def encode(self, ctx) -> list[Clause]:
        a, b, middle = self.line[0], self.line[-1], self.line[1:-1]
        if not middle:
            return []
        clauses = []
        digits = range(1, ctx.size + 1)
        for x in digits:
            for y in digits:
                inside = range(min(x, y) + 1, max(x, y))
                ends = [-ctx.var(a, x), -ctx.var(b, y)]
                if not inside:
                    clauses.append(ends)
                    continue
                clauses += [ends + [ctx.var(c, d) for d in inside] for c in middle]
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])

    def prune(self, cand: list[int]) -> list[int] | None:
        if len(self.line) < 3:
            return []
        return _prune_by_ends(self.line, cand,
                              lambda x, y: _interval(min(x, y) + 1, max(x, y) - 1))


@record(frozen=True)
class Lockout(_LineCells):
    """``lockout``: the line's two ends (its diamonds) differ by at least ``difference``
    (default 4), and no digit on the line lies between them or equals one of them.

    As LockoutConstraint.ts in dclamage/SudokuVariantSolverJS and sigh's Lockout read it.

    >>> Lockout((0, 1, 2)).holds((2, 9, 7)), Lockout((0, 1, 2)).holds((2, 5, 7))
    (True, False)
    """

    type = "lockout"
    reads_values = False
    line: tuple[int, ...]
    difference: int = 4
    fields = (Cells("cells", "line", at_least=2, repeats=True, connected=True,
                    doc="diamond, the line's cells, diamond"),
              Int("difference", low=1, required=False, default=4, omit_default=True,
                  doc="the least difference between the diamonds"))
    fpuzzles = (FPuzzles("lockout", "lines", value="difference",
                         options={"default": "floor-half"}, source="f-puzzles' solver",
                         how="one per line, difference = the value, floor(N/2) without one "
                             "(4 on 9x9)"),)

    def describe(self, geometry: Geometry) -> str:
        name = geometry.cell_name
        extra = f" (difference {self.difference})" if self.difference != 4 else ""
        return f"lockout line {name(self.line[0])} to {name(self.line[-1])}{extra}"

    def draw(self, canvas) -> None:
        """A line with a diamond on both ends."""
        canvas.lockout(self.line)

    def encode(self, ctx) -> list[Clause]:
        a, b, middle = self.line[0], self.line[-1], self.line[1:-1]
        clauses = []
        digits = range(1, ctx.size + 1)
        for x in digits:
            for y in digits:
                ends = [-ctx.var(a, x), -ctx.var(b, y)]
                if abs(x - y) < self.difference:
                    clauses.append(ends)
                    continue
                clauses += [ends + [-ctx.var(c, d)] for c in middle
                            for d in range(min(x, y), max(x, y) + 1)]
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        low, high = sorted((digits[0], digits[-1]))
        return high - low >= self.difference and all(d < low or d > high for d in digits[1:-1])

    def prune(self, cand: list[int]) -> list[int] | None:
        full = (1 << math.isqrt(len(cand))) - 1
        return _prune_by_ends(self.line, cand, lambda x, y: None if abs(x - y) < self.difference
                              else ~_interval(min(x, y), max(x, y)) & full)
