"""Lines whose parts sum alike: ``region-sum`` (the same sum in each segment of the line, a
segment being a maximal run of the line inside one box or region), ``zipper`` (cells at
equal distance from the centre sum to the same total) and ``double-arrow`` (the two ends sum
to the cells between them).

The common total is a term: the zipper's centre cell for an odd length, else a new one-hot
integer over the totals the parts can reach; each part is a sum equal to it
(:func:`.sums.encode_sum`). Pruning intersects the totals every part can still reach, then
prunes each part to those totals.
"""

from __future__ import annotations

import functools
from collections import Counter

from ..model.geometry import Geometry
from ..records import record
from .base import CellsRule, Clause, Constraint, bit, digits_of, line_ends, restrict, sees
from .exchange import FPuzzles
from .fields import Cells
from .sums import cell_term, encode_sum, one_hot, prune_cell_sum

__all__ = ["RegionSum", "Zipper", "DoubleArrow"]


def _sums(domains) -> set[int]:
    """Every sum of one value from each domain."""
    sums = {0}
    for values in domains:
        sums = {s + v for s in sums for v in values}
    return sums


def _weighted(part) -> tuple[list[int], list[int]]:
    """A part's distinct cells and how often each occurs (a line may visit a cell twice)."""
    counts = Counter(part)
    return list(counts), list(counts.values())


def _encode_equal_sums(ctx, parts, total_term=None) -> list[Clause]:
    """Every part sums to the same total (``total_term``, or a new one-hot integer)."""
    clauses: list[Clause] = []
    digits = [ctx.geometry.value(d) for d in range(1, ctx.size + 1)]  # values, as cell_term
    if total_term is None:
        values = set.intersection(*(
            _sums([[w * d for d in digits] for w in _weighted(part)[1]]) for part in parts))
        total_term, clauses = one_hot(ctx, sorted(values))
    for part in parts:
        cells, weights = _weighted(part)
        terms = [cell_term(ctx, c, w) for c, w in zip(cells, weights)]
        distinct = ctx.houses and len(cells) == len(part) and all(
            sees(ctx.geometry, a, b) for a in part for b in part if a < b)
        clauses += encode_sum(ctx, terms, total_term, distinct=distinct)
    return clauses


def _prune_equal_sums(parts, cand: list[int], changed: set[int],
                      totals: set[int] | None = None) -> set[int] | None:
    """Prune each part to the totals every part (and ``totals``, when given) can reach:
    those totals, or None on a contradiction."""
    weighted = [_weighted(part) for part in parts]
    for cells, weights in weighted:
        reach = _sums([w * d for d in digits_of(cand[c])] for c, w in zip(cells, weights))
        totals = reach if totals is None else totals & reach
    if not totals:
        return None
    for cells, weights in weighted:
        if prune_cell_sum(cells, weights, cand, totals, changed) is None:
            return None
    return totals


@record(frozen=True)
class RegionSum(Constraint):
    """``region-sum``: the line falls into segments, each a maximal run of consecutive line
    cells inside one box (or region); every segment has the same sum.

    A line that leaves a box and comes back starts a new segment there, as f-puzzles,
    SudokuSolver, SudokuStudio and sigh read it (RegionSumLinesConstraint.cs in
    dclamage/SudokuSolver). A cell the line visits twice counts twice.

    >>> from satdoku.model.geometry import geometry
    >>> RegionSum(geometry(2, 2), (0, 1, 2, 3)).parts, RegionSum(geometry(2, 2), (0, 1, 2, 5)).parts
    (((0, 1), (2, 3)), ((0, 1), (2,), (5,)))
    """

    type = "region-sum"
    any_values = True
    needs_boxes = True
    geometry: Geometry
    line: tuple[int, ...]
    fields = (Cells("cells", "line", repeats=True, connected=True,
                    doc="the line's cells in order"),)
    fpuzzles = (FPuzzles("regionsumline", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    @functools.cached_property
    def parts(self) -> tuple[tuple[int, ...], ...]:
        """The segments: maximal runs of the line inside one box, in the line's order."""
        runs: list[list[int]] = []
        box = None
        for c in self.line:
            here = self.geometry.cell_houses[c][2]
            if here != box:
                runs.append([])
                box = here
            runs[-1].append(c)
        return tuple(map(tuple, runs))

    def describe(self, geometry: Geometry) -> str:
        return f"region-sum line {line_ends(geometry, self.line)}"

    def draw(self, canvas) -> None:
        """A blue line."""
        canvas.line(self.line, "region_sum")

    def encode(self, ctx) -> list[Clause]:
        return _encode_equal_sums(ctx, self.parts) if len(self.parts) > 1 else []

    def holds(self, digits: tuple[int, ...]) -> bool:
        value = dict(zip(self.line, digits))
        return len({sum(value[c] for c in part) for part in self.parts}) <= 1

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        value = dict(zip(self.line, digits))
        sums = [str(sum(value[c] for c in part)) for part in self.parts]
        return f"the segments' sums are {', '.join(sums)}"

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if len(self.parts) > 1 and _prune_equal_sums(self.parts, cand, changed) is None:
            return None
        return sorted(changed)


@record(frozen=True)
class Zipper(CellsRule):
    """``zipper``: cells at equal distance from the line's centre sum to the same total; on a
    line of odd length that total is the centre cell's digit.

    >>> Zipper((0, 1, 2, 3, 4)).holds((1, 2, 5, 3, 4)), Zipper((0, 1, 2, 3)).holds((1, 2, 4, 3))
    (True, False)
    """

    type = "zipper"
    any_values = True
    line: tuple[int, ...]
    fields = (Cells("cells", "line", repeats=True, connected=True,
                    doc="the line's cells in order"),)
    fpuzzles = (FPuzzles("zipperline", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        k = len(self.line)
        return tuple((self.line[i], self.line[k - 1 - i]) for i in range(k // 2))

    @property
    def centre(self) -> int | None:
        return self.line[len(self.line) // 2] if len(self.line) % 2 else None

    def describe(self, geometry: Geometry) -> str:
        return f"zipper line {line_ends(geometry, self.line)}"

    def draw(self, canvas) -> None:
        """A pink line."""
        canvas.line(self.line, "zipper")

    def encode(self, ctx) -> list[Clause]:
        if len(self.pairs) + (self.centre is not None) < 2:
            return []
        centre = None if self.centre is None else cell_term(ctx, self.centre)
        return _encode_equal_sums(ctx, self.pairs, centre)

    def holds(self, digits: tuple[int, ...]) -> bool:
        k = len(digits)
        sums = {digits[i] + digits[k - 1 - i] for i in range(k // 2)}
        if k % 2:
            sums.add(digits[k // 2])
        return len(sums) <= 1

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        totals = None if self.centre is None else set(digits_of(cand[self.centre]))
        totals = _prune_equal_sums(self.pairs, cand, changed, totals)
        if totals is None:
            return None
        if self.centre is not None and not restrict(
                cand, self.centre, sum(bit(t) for t in totals), changed):
            return None
        return sorted(changed)


@record(frozen=True)
class DoubleArrow(CellsRule):
    """``double-arrow``: the digits of the line's two end cells (its circles) sum to the
    digits of the cells between them.

    As DoubleArrowConstraint.cs in dclamage/SudokuSolver reads it. One sum with weights: +1
    for each end, -1 for each middle cell (a cell the line visits twice counts twice), equal
    to 0.

    >>> DoubleArrow((0, 1, 2, 3)).holds((4, 2, 3, 1)), DoubleArrow((0, 1, 2)).weights
    (True, ((0, 1), (1, -1), (2, 1)))
    """

    type = "double-arrow"
    any_shape = True
    any_values = True
    line: tuple[int, ...]
    fields = (Cells("cells", "line", at_least=3, repeats=True, connected=True,
                    doc="circle, the line's cells, circle"),)
    fpuzzles = (FPuzzles("doublearrow", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    @functools.cached_property
    def weights(self) -> tuple[tuple[int, int], ...]:
        """(cell, weight) of each distinct cell: ends +1, middle cells -1, summed."""
        out: dict[int, int] = {}
        for i, c in enumerate(self.line):
            out[c] = out.get(c, 0) + (1 if i in (0, len(self.line) - 1) else -1)
        return tuple((c, w) for c, w in out.items() if w)

    def describe(self, geometry: Geometry) -> str:
        name = geometry.cell_name
        return f"double arrow {name(self.line[0])} to {name(self.line[-1])}"

    def draw(self, canvas) -> None:
        """A line with an open circle on both ends, in the double arrow's colour."""
        canvas.between(self.line, colour="double_arrow")

    def encode(self, ctx) -> list[Clause]:
        return encode_sum(ctx, [cell_term(ctx, c, w) for c, w in self.weights], 0)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return digits[0] + digits[-1] == sum(digits[1:-1])

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        return f"the circles sum to {digits[0] + digits[-1]}, the line to {sum(digits[1:-1])}"

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        cells = [c for c, _ in self.weights]
        if prune_cell_sum(cells, [w for _, w in self.weights], cand, {0}, changed) is None:
            return None
        return sorted(changed)
