"""Groups of cells whose digits all differ: ``extra-region``, ``diagonal``,
``disjoint-groups`` (and the shared helpers killer cages and renbans use).

A group of N cells is another house: every digit once. A smaller group only forbids repeats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .context import contradiction
from .base import (CellsRule, Clause, Constraint, GlobalRule, at_most_one, cell_span,
                   restrict)
from .exchange import FPuzzles
from .fields import Cells, Choice

__all__ = ["ExtraRegion", "Diagonal", "DisjointGroups", "encode_distinct", "prune_distinct",
           "repeats"]


def encode_distinct(ctx, cells: Sequence[int], complete: bool | None = None) -> list[Clause]:
    """No digit twice among ``cells``; with ``complete`` (default: N cells) every digit once.
    More cells than digits cannot all differ (pigeonholes): a contradiction, not the N pairwise
    lists it would take to find it out.

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.rules.context import EncodeContext
    >>> len(encode_distinct(EncodeContext(geometry(2, 2)), range(5)))
    2
    """
    n = ctx.size
    if len(cells) > n:
        return contradiction(ctx)
    complete = len(cells) == n if complete is None else complete
    clauses: list[Clause] = []
    for d in range(1, n + 1):
        lits = [ctx.var(c, d) for c in cells]
        clauses += at_most_one(lits)
        if complete:
            clauses.append(lits)
    return clauses


def prune_distinct(cells: Sequence[int], cand: list[int], changed: set[int],
                   complete: bool = False) -> bool:
    """Remove each placed digit from the other cells; with ``complete``, also place a digit
    that has one cell left. False on a contradiction."""
    placed = 0
    for c in cells:
        m = cand[c]
        if m & (m - 1) == 0:
            if placed & m:
                return False
            placed |= m
    if placed:
        for c in cells:
            m = cand[c]
            if m & (m - 1) and not restrict(cand, c, ~placed, changed):
                return False
    if complete:
        once = twice = 0
        for c in cells:
            m = cand[c]
            twice |= once & m
            once |= m
        full = (1 << len(cells)) - 1
        if once != full:
            return False
        for c in cells:
            single = cand[c] & once & ~twice
            if single and cand[c] != single:
                if single & (single - 1):
                    return False  # two digits with only this cell left
                cand[c] = single
                changed.add(c)
    return True


def repeats(geometry: Geometry, cells: Sequence[int], grid: Grid) -> list[str]:
    """``'r1c1 and r2c2 both hold 5'`` for every repeated digit among ``cells``."""
    first: dict[int, int] = {}
    out = []
    for c in cells:
        d = grid.cells[c]
        if d in first:
            out.append(f"{geometry.cell_name(first[d])} and {geometry.cell_name(c)} both hold "
                       f"{d}")
        else:
            first[d] = c
    return out


class _AllDifferent(Constraint):
    """Base of the groups: each of ``groups`` (tuples of cells) holds different digits."""

    if TYPE_CHECKING:  # a field or a property of each subclass (see Constraint.cells)
        @property
        def groups(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted({c for g in self.groups for c in g}))

    def encode(self, ctx) -> list[Clause]:
        return [cl for g in self.groups for cl in encode_distinct(ctx, g)]

    def check(self, grid: Grid) -> list[str]:
        geo = grid.geometry
        return [f"{self.describe(geo)}: {msg}" for g in self.groups
                for msg in repeats(geo, g, grid)]

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        for g in self.groups:
            if not prune_distinct(g, cand, changed, complete=len(g) ** 2 == len(cand)):
                return None
        return sorted(changed)


@record(frozen=True)
class ExtraRegion(CellsRule, _AllDifferent):
    """``extra-region``: N more cells that hold every digit once.

    >>> from satdoku.model.geometry import geometry
    >>> ExtraRegion((0, 5, 10, 15)).describe(geometry(2, 2))
    'extra region r1c1-r2c2-r3c3-r4c4'
    """

    type = "extra-region"
    any_shape = True
    reads_values = False
    region: tuple[int, ...]
    fields = (Cells("cells", "region", whole=True, doc="the region's N cells"),)
    fpuzzles = (FPuzzles("extraregion", "extraregion",
                         how="N cells: extra-region; fewer: a killer without sum (no repeats)"),)

    @property
    def groups(self):
        return (self.region,)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.region

    def describe(self, geometry: Geometry) -> str:
        return f"extra region {cell_span(geometry, self.region)}"

    def draw(self, canvas) -> None:
        """The region's cells shaded grey."""
        canvas.shade(self.region, "extra_region", area=True)


@record(frozen=True)
class Diagonal(_AllDifferent):
    """``diagonal``: no repeats on a main diagonal. ``'-'`` runs from r1c1 down to rNcN,
    ``'+'`` from rNc1 up to r1cN.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(2, 2)
    >>> Diagonal(g, "+").cells, Diagonal(g, "+").describe(g)
    ((12, 9, 6, 3), 'diagonal r4c1-r1c4')
    """

    type = "diagonal"
    any_shape = True  # on a square grid (more digits than rows: its cells differ)
    reads_values = False
    geometry: Geometry
    direction: str = "-"
    fields = (Choice("direction", "+-", doc="'-' from r1c1 down to rNcN, '+' from rNc1 up to "
                     "r1cN"),)
    fpuzzles = (FPuzzles("diagonal+", "flag", when={"direction": "+"},
                         how="direction '+' (bottom left to top right)"),
                FPuzzles("diagonal-", "flag", when={"direction": "-"},
                         how="direction '-' (top left to bottom right)"))

    def __post_init__(self) -> None:
        if self.geometry.height != self.geometry.width:
            raise ValueError("a diagonal needs a square grid")
        if self.direction not in "+-" or len(self.direction) != 1:
            raise ValueError(f"direction must be '+' or '-', not {self.direction!r}")

    @property
    def cells(self) -> tuple[int, ...]:
        n = self.geometry.width
        if self.direction == "-":
            return tuple(i * n + i for i in range(n))
        return tuple((n - 1 - i) * n + i for i in range(n))

    @property
    def groups(self):
        return (self.cells,)

    def describe(self, geometry: Geometry) -> str:
        return f"diagonal {geometry.cell_name(self.cells[0])}-{geometry.cell_name(self.cells[-1])}"

    def draw(self, canvas) -> None:
        """A thin blue line corner to corner."""
        canvas.diagonal(anti=self.direction == "+")


@record(frozen=True)
class DisjointGroups(GlobalRule, _AllDifferent):
    """``disjoint-groups``: cells in the same position of their boxes hold different digits
    (N more houses; regular boxes only).

    >>> from satdoku.model.geometry import geometry
    >>> DisjointGroups(geometry(2, 2)).groups[0]
    (0, 2, 8, 10)
    """

    type = "disjoint-groups"
    any_shape = True
    needs_boxes = True
    reads_values = False
    geometry: Geometry
    fpuzzles = (FPuzzles("disjointgroups", "flag"),)

    def __post_init__(self) -> None:
        if not self.geometry.is_boxed:
            raise ValueError("disjoint groups need regular boxes, not a jigsaw")

    @property
    def groups(self):
        geo = self.geometry
        boxes = geo.houses[geo.height + geo.width:]
        return tuple(tuple(box[p] for box in boxes) for p in range(geo.box_rows * geo.box_cols))

    def describe(self, geometry: Geometry) -> str:
        return "disjoint groups"

    def check(self, grid: Grid) -> list[str]:
        geo = grid.geometry
        return [f"disjoint group {p + 1}: {msg}" for p, g in enumerate(self.groups)
                for msg in repeats(geo, g, grid)]


@record(frozen=True)
class Windoku(GlobalRule, _AllDifferent):
    """``windoku``: the windows hold different digits: box-sized regions one cell in from the
    border and one cell apart (four on 9x9: r2-4c2-4, r2-4c6-8, r6-8c2-4, r6-8c6-8; one on
    4x4 and 6x6), as sigh's solver places them.

    >>> from satdoku.model.geometry import geometry
    >>> Windoku(geometry(2, 2)).groups
    ((5, 6, 9, 10),)
    """

    type = "windoku"
    needs_boxes = True
    reads_values = False
    geometry: Geometry

    def __post_init__(self) -> None:
        if not self.geometry.is_boxed:
            raise ValueError("windoku needs regular boxes, not a jigsaw")

    @property
    def groups(self):
        n, br, bc = self.geometry.size, self.geometry.box_rows, self.geometry.box_cols
        return tuple(tuple((r + i) * n + c + j for i in range(br) for j in range(bc))
                     for r in range(1, n - br, br + 1) for c in range(1, n - bc, bc + 1))

    def describe(self, geometry: Geometry) -> str:
        return "windoku"

    def draw(self, canvas) -> None:
        """The windows shaded grey."""
        for window in self.groups:
            canvas.shade(window, "extra_region", area=True)
