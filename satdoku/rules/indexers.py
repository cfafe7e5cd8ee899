"""Indexing cells: ``row-indexer``, ``column-indexer``, ``box-indexer``, and ``rule-159`` (the
column indexers of columns 1, 5 and 9).

An indexer cell X holding v points at its *target*, the v-th cell of one of X's houses, and
says that the target holds X's own *index* in that house (IndexerConstraint.cs in
dclamage/SudokuSolver):

- column indexer r,c = v: r,v holds c (the v-th cell of X's row);
- row indexer r,c = v: v,c holds r (the v-th cell of X's column);
- box indexer at position p of its box (reading order) = v: the v-th cell of the box holds p.

One binary clause per indexer cell and digit: ``X = v -> target = index``. The converse
follows from the house rule (the index appears once in that house), so it is not written;
pruning uses it: a digit X cannot take rules its index out of that target.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .base import Clause, Constraint, GlobalRule, bit, cell_span, restrict
from .exchange import FPuzzles
from .fields import Cells, Field

__all__ = ["RowIndexer", "ColumnIndexer", "BoxIndexer", "Rule159", "ValueIndexing",
           "INDEXING_COLUMNS"]

INDEXING_COLUMNS = (1, 5, 9)


class _Indexer(Constraint):
    """Indexer ``cells``; ``house`` (0 row, 1 column, 2 box) is the house a cell indexes in."""

    geometry: Geometry
    cells: tuple[int, ...]
    noun = ""
    index_house = 0
    tint = "indexer"
    fields: ClassVar[tuple[Field, ...]] = (Cells(doc="the indexer cells"),)

    @functools.cached_property
    def _links(self) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """(cell, ((target, index) for each digit v, 1-based)) for every indexer cell."""
        out = []
        for cell in self.cells:
            members = self._house_of(cell)
            index = members.index(cell) + 1
            out.append((cell, tuple((members[v - 1], index) for v in range(1, len(members) + 1))))
        return tuple(out)

    def _house_of(self, cell: int) -> tuple[int, ...]:
        """The cells of the house ``cell`` indexes, in order (the v-th is the target of v)."""
        geo = self.geometry
        return tuple(sorted(geo.houses[geo.cell_houses[cell][self.index_house]]))

    def describe(self, geometry: Geometry) -> str:
        return f"{self.noun} {cell_span(geometry, self.cells)}"

    def draw(self, canvas) -> None:
        """The indexer cells tinted (as f-puzzles colours them)."""
        canvas.shade(self.cells, self.tint, area=True)

    def encode(self, ctx) -> list[Clause]:
        """Each value v the cell may hold puts its index in the v-th cell of its house; a
        value past the house's cells (more digits than a row has cells) is no index."""
        return [[-ctx.var(cell, v), ctx.var(target, index)]
                for cell, targets in self._links
                for v, (target, index) in enumerate(targets, 1) if target != cell] + \
            [[-ctx.var(cell, v)] for cell, targets in self._links
             for v in range(len(targets) + 1, ctx.size + 1)]

    def check(self, grid: Grid) -> list[str]:
        name, cells, out = grid.geometry.cell_name, grid.cells, []
        for cell, targets in self._links:
            v = cells[cell]
            if v > len(targets):
                out.append(f"{self.describe(grid.geometry)}: {name(cell)} is {v}, past its "
                           f"{self.noun.split()[0]}'s {len(targets)} cells")
                continue
            target, index = targets[v - 1]
            if cells[target] != index:
                out.append(f"{self.describe(grid.geometry)}: {name(cell)} is {v} but "
                           f"{name(target)} is not {index}")
        return out

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        for cell, targets in self._links:
            keep = 0
            for v, (target, index) in enumerate(targets, 1):
                if target == cell or cand[target] & bit(index):
                    keep |= bit(v)
            if not restrict(cand, cell, keep, changed):
                return None
            mask = cand[cell]
            if mask & (mask - 1) == 0:  # placed: its target holds the index
                target, index = targets[mask.bit_length() - 1]
                if target != cell and not restrict(cand, target, bit(index), changed):
                    return None
            for v, (target, index) in enumerate(targets, 1):
                if target != cell and not cand[cell] & bit(v):
                    if not restrict(cand, target, ~bit(index), changed):
                        return None
        return sorted(changed)


@record(frozen=True)
class ColumnIndexer(_Indexer):
    """``column-indexer``: a cell r,c holding v says that r,v holds c.

    >>> from satdoku.model.geometry import geometry
    >>> ColumnIndexer(geometry(2, 2), (4,))._links
    ((4, ((4, 1), (5, 1), (6, 1), (7, 1))),)
    """

    type = "column-indexer"
    any_shape = True
    geometry: Geometry
    cells: tuple[int, ...]
    noun = "column indexer"
    index_house = 0
    fpuzzles = (FPuzzles("columnindexer", "indexer", source="SudokuSolver's user script",
                         how="all entries' cells in one constraint (all of columns 1, 5 and "
                             "9 of a 9x9 grid: rule-159)"),)


@record(frozen=True)
class RowIndexer(_Indexer):
    """``row-indexer``: a cell r,c holding v says that v,c holds r."""

    type = "row-indexer"
    any_shape = True
    geometry: Geometry
    cells: tuple[int, ...]
    noun = "row indexer"
    index_house = 1
    tint = "row_indexer"
    fpuzzles = (FPuzzles("rowindexer", "indexer", source="SudokuSolver's user script",
                         how="all entries' cells in one constraint"),)


@record(frozen=True)
class BoxIndexer(_Indexer):
    """``box-indexer``: a cell at position p of its box (reading order) holding v says that
    the v-th cell of the box holds p."""

    type = "box-indexer"
    needs_boxes = True
    geometry: Geometry
    cells: tuple[int, ...]
    noun = "box indexer"
    index_house = 2
    tint = "box_indexer"
    fpuzzles = (FPuzzles("boxindexer", "indexer", source="SudokuSolver's user script",
                         how="all entries' cells in one constraint"),)


@record(frozen=True)
class Rule159(GlobalRule, ColumnIndexer):
    """``rule-159``: in every row, the digit d in column c (c = 1, 5, 9) says that column d of
    that row holds c: the column indexers of columns 1, 5 and 9. Grids of size 9 or more.

    >>> from satdoku.rules import EncodeContext
    >>> from satdoku.model.geometry import geometry
    >>> len(Rule159(geometry(3, 3)).encode(EncodeContext(geometry(3, 3))))
    216
    """

    type = "rule-159"
    geometry: Geometry
    cells: tuple[int, ...] = ()
    fields = ()
    fpuzzles = (FPuzzles("columnindexer", "indexer", how="all of columns 1, 5 and 9 of a 9x9 "
                                                         "grid"),)

    def __post_init__(self) -> None:
        n = self.geometry.size
        if n < 9:
            raise ValueError(f"rule 1-5-9 needs columns 1 to 9, not a {n}x{n} grid")
        object.__setattr__(self, "cells", tuple(r * n + c - 1 for r in range(n)
                                                for c in INDEXING_COLUMNS))

    def describe(self, geometry: Geometry) -> str:
        return "rule 1-5-9"

    def draw(self, canvas) -> None:
        """Columns 1, 5 and 9 tinted (as f-puzzles colours its column indexers), and a note."""
        ColumnIndexer.draw(self, canvas)
        canvas.note(self.describe(canvas.geometry))


@record(frozen=True)
class ValueIndexing(Constraint):
    """``value-indexing``: the second cell of the line holds k, and the cell k steps after it
    along the line holds the same digit as the first cell (sigh's Value Indexing: an arrow
    from a digit X to the X further on, the second cell saying how far).

    One clause per pair (k, digit): ``second = k and first = d -> line[1 + k] = d``; a k past
    the line's end is ruled out.

    >>> ValueIndexing((0, 1, 2, 3)).holds((4, 2, 1, 4)), ValueIndexing((0, 1, 2)).holds((1, 2, 1))
    (True, False)
    """

    type = "value-indexing"
    line: tuple[int, ...]
    fields = (Cells("cells", "line", at_least=3, repeats=True,
                    doc="the line: the digit, the distance, then the cells it indexes (a "
                        "cell may come twice, as in sigh: the distance also indexed)"),)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def describe(self, geometry: Geometry) -> str:
        return f"value indexing {cell_span(geometry, self.line)}"

    def encode(self, ctx) -> list[Clause]:
        first, second, rest = self.line[0], self.line[1], self.line[2:]
        clauses: list[Clause] = []
        for k in range(1, ctx.size + 1):
            if k > len(rest):
                clauses.append([-ctx.var(second, k)])
                continue
            clauses += [[-ctx.var(second, k), -ctx.var(first, d), ctx.var(rest[k - 1], d)]
                        for d in range(1, ctx.size + 1)]
        return clauses

    def clause_estimate(self, geometry: Geometry) -> int:
        n, far = geometry.size, min(geometry.size, len(self.line) - 2)
        return far * n + (n - far)

    def holds(self, digits: tuple[int, ...]) -> bool:
        k = digits[1]
        return k <= len(digits) - 2 and digits[1 + k] == digits[0]

    def draw(self, canvas) -> None:
        """A dashed line from a small dot on the first cell, a small ring on the second (the
        distance)."""
        canvas.line(self.line, "value_indexing", width=0.08, dash=(0.15, 0.1))
        canvas.circle(self.line[0], radius=0.15, stroke=None, fill="value_indexing")
        canvas.circle(self.line[1], radius=0.15, stroke="value_indexing", fill="none")
