"""``connected-values``: the cells holding any of some digits form one orthogonally connected
region (sigh's ConnectedValues over the grid or over a group of its cells).

Glossary: a cell is *in* when it holds one of the digits; the *root* is the first cell in
(reading order of the group); a cell is *reached in k steps* when a path of k steps through
cells in leads to it from the root.

Encoding: "in" per cell (the OR of its digits' literals), the root (in, and no earlier cell
in), and layers of "reached within k steps", each reached cell in and reached before or next
to a cell reached before; every cell in is reached in the last layer. The layers need no more
steps than cells can be in (|digits| per house: |digits| x N cells at most), so the clauses
are some 3 x cells x steps. Sound: a reached cell has a path of cells in from the root;
complete: in a connected region, "within k" is "at distance <= k".

The prune keeps the cells in to the part that can still reach a cell surely in, and puts in a
cell without which the cells surely in would fall apart.
"""

from __future__ import annotations

import functools
from collections import deque
from typing import Iterable

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .base import Clause, Constraint, bit, cell_span, restrict
from .fields import Cells, Int, Ints
from .tallies import count_in

__all__ = ["ConnectedValues"]


@record(frozen=True)
class ConnectedValues(Constraint):
    """``connected-values``: the cells (default: the whole grid) holding any of ``digits``
    form one orthogonally connected region, of ``size`` cells when a size is given (sigh's
    ConnectedValues). With ``columns``, the cells are laid out in reading order in rows of
    that many, and neighbours are neighbours there (sigh's over an ``RxC`` group of cells
    outside the grid); else they are the grid's neighbours.

    >>> from satdoku.model.geometry import geometry
    >>> rule = ConnectedValues(geometry(2, 2), (1, 2))
    >>> rule.check(Grid(geometry(2, 2), (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)))
    ['connected-values 1,2: r1c1 and r2c3 are not connected']
    """

    type = "connected-values"
    geometry: Geometry
    digits: tuple[int, ...]
    group: tuple[int, ...] | None = None
    size: int | None = None
    columns: int | None = None
    fields = (Ints("digits", unique=True, what="digits", doc="the digits whose cells connect"),
              Cells("cells", "group", required=False, omit_default=True,
                    doc="the cells it is about (default: the whole grid)"),
              Int("size", low=1, required=False, doc="how many cells hold the digits"),
              Int("columns", low=1, required=False,
                  doc="lay the cells out in rows of this many, in reading order (needed for "
                      "cells outside the grid)"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "digits", tuple(sorted(self.digits)))
        if self.columns is None and max(self.cells, default=0) >= self.geometry.ngrid:
            raise ValueError(f"{self.geometry.cell_name(max(self.cells))} is outside the grid: "
                             "give 'columns' to lay the cells out in rows")

    @property
    def cells(self) -> tuple[int, ...]:
        return self.group if self.group is not None else tuple(range(self.geometry.ngrid))

    @functools.cached_property
    def neighbours(self) -> dict[int, tuple[int, ...]]:
        """Each cell's orthogonal neighbours within the cells."""
        h, w, members = self.geometry.height, self.geometry.width, set(self.cells)
        if self.columns is not None:
            return _laid_out(self.cells, self.columns)
        out = {}
        for c in self.cells:
            r, col = divmod(c, w)
            out[c] = tuple(x for x in ((r - 1) * w + col if r else None,
                                       (r + 1) * w + col if r + 1 < h else None,
                                       c - 1 if col else None, c + 1 if col + 1 < w else None)
                           if x is not None and x in members)
        return out

    def describe(self, geometry: Geometry) -> str:
        where = "" if self.group is None else f" in {cell_span(geometry, self.group)}"
        size = "" if self.size is None else f", {self.size} cells"
        return f"connected-values {','.join(map(str, self.digits))}{where}{size}"

    def _steps(self, n: int, houses: bool) -> int:
        """Steps enough to reach every cell in: one less than how many can be in (with the
        houses, each digit N times at most)."""
        most = min(len(self.cells), len(self.digits) * n) if houses else len(self.cells)
        return max(0, (self.size or most) - 1)

    def encode(self, ctx) -> list[Clause]:
        cells, clauses = self.cells, []
        inside = {}
        for c in cells:
            lits = [ctx.var(c, d) for d in self.digits if d <= ctx.size]
            v = inside[c] = ctx.fresh()
            clauses += [[-v] + lits] + [[-x, v] for x in lits]
        reach = {}
        none_before = None  # no cell before this one is in
        for c in cells:
            root = reach[c] = ctx.fresh()  # the root: in, and none before it in
            clauses += [[-root, inside[c]]]
            if none_before is None:
                clauses.append([root, -inside[c]])
            else:
                clauses += [[-root, none_before], [root, -inside[c], -none_before]]
            later = ctx.fresh()
            clauses += [[-later, -inside[c]]] + ([[-later, none_before]] if none_before else [])
            clauses.append([later, inside[c]] + ([-none_before] if none_before else []))
            none_before = later
        in_houses = ctx.houses and max(cells) < self.geometry.ngrid  # N of a digit at most
        for _ in range(self._steps(ctx.size, in_houses)):
            step = {}
            for c in cells:
                v = step[c] = ctx.fresh()
                clauses += [[-v, inside[c]],
                            [-v, reach[c]] + [reach[x] for x in self.neighbours[c]]]
            reach = step
        clauses += [[-inside[c], reach[c]] for c in cells]
        if self.size is not None:
            clauses += count_in(ctx, [inside[c] for c in cells], [self.size])
        return clauses

    def _parts(self, members: Iterable[int]) -> list[set[int]]:
        """The connected parts of ``members`` (within the cells)."""
        left, parts = set(members), []
        while left:
            part = _flood(self.neighbours, left.pop(), left | set())
            left -= part
            parts.append(part)
        return parts

    def check(self, grid: Grid) -> list[str]:
        inside = [c for c in self.cells if grid.cells[c] in self.digits]
        name, out = grid.geometry.cell_name, []
        parts = self._parts(inside)
        if len(parts) > 1:
            a, b = sorted(min(p) for p in parts)[:2]
            out.append(f"{self.describe(grid.geometry)}: {name(a)} and {name(b)} are not "
                       f"connected")
        if self.size is not None and len(inside) != self.size:
            out.append(f"{self.describe(grid.geometry)}: {len(inside)} cells hold the digits")
        return out

    def prune(self, cand: list[int]) -> list[int] | None:
        mask = sum(bit(d) for d in self.digits)
        sure = [c for c in self.cells if cand[c] and not cand[c] & ~mask]
        maybe = {c for c in self.cells if cand[c] & mask}
        if not sure:
            return []
        part = _flood(self.neighbours, sure[0], maybe)
        if any(c not in part for c in sure):
            return None
        changed: set[int] = set()
        for c in maybe - part:
            if not restrict(cand, c, ~mask, changed):
                return None
        for c in part.difference(sure):
            if len(_flood(self.neighbours, sure[0], part - {c}) & set(sure)) < len(sure):
                if not restrict(cand, c, mask, changed):
                    return None
        if self.size is not None:
            sure = [c for c in part if not cand[c] & ~mask]
            if not len(sure) <= self.size <= len(part):
                return None
            if self.size in (len(sure), len(part)):  # the rest all out, or all in
                keep = ~mask if self.size == len(sure) else mask
                for c in part.difference(sure):
                    if not restrict(cand, c, keep, changed):
                        return None
        return sorted(changed)

    def draw(self, canvas) -> None:
        """The group's cells tinted (when it is not the whole grid), the rule in a note."""
        if self.group is not None:
            canvas.shade(self.group, "extra_region")
        canvas.note(self.describe(canvas.geometry))


def _laid_out(cells: tuple[int, ...], columns: int) -> dict[int, tuple[int, ...]]:
    """Each cell's orthogonal neighbours with ``cells`` in rows of ``columns``, reading order.

    >>> _laid_out((20, 21, 22, 23), 2)
    {20: (22, 21), 21: (23, 20), 22: (20, 23), 23: (21, 22)}
    """
    out = {}
    for i, c in enumerate(cells):
        r, col = divmod(i, columns)
        out[c] = tuple(cells[j] for j in (i - columns if r else -1, i + columns,
                                          i - 1 if col else -1,
                                          i + 1 if col + 1 < columns else -1)
                       if 0 <= j < len(cells))
    return out


def _flood(neighbours: dict[int, tuple[int, ...]], start: int, allowed: set[int]) -> set[int]:
    """The cells of ``allowed`` reached from ``start`` (itself included) through
    ``allowed``."""
    seen, todo = {start}, deque([start])
    while todo:
        for x in neighbours[todo.popleft()]:
            if x in allowed and x not in seen:
                seen.add(x)
                todo.append(x)
    return seen
