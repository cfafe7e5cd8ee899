"""Rules on single cells: ``odd``, ``even``, ``candidates`` (pencil-mark givens: the digits a
cell may hold), ``minimum``, ``maximum``."""

from __future__ import annotations

import functools
import math

from ..model.geometry import Geometry
from ..records import record
from .base import CellsRule, Clause, bit, cell_span, restrict
from .exchange import FPuzzles
from .fields import Cells, Ints
from .pairs import PairRule

__all__ = ["Odd", "Even", "Candidates", "Minimum", "Maximum"]


@functools.lru_cache(maxsize=None)
def _parity_mask(n: int, remainder: int) -> int:
    return sum(bit(d) for d in range(1, n + 1) if d % 2 == remainder)


class _Parity(CellsRule):
    """Every cell of ``cells`` holds a digit of one parity (``remainder`` mod 2)."""

    remainder: int

    def encode(self, ctx) -> list[Clause]:
        return [[-ctx.var(c, d)] for c in self.cells
                for d in range(1, ctx.size + 1) if d % 2 != self.remainder]

    def holds(self, digits: tuple[int, ...]) -> bool:
        return all(d % 2 == self.remainder for d in digits)

    def prune(self, cand: list[int]) -> list[int] | None:
        mask = _parity_mask(math.isqrt(len(cand)), self.remainder)
        changed: set[int] = set()
        for c in self.cells:
            if not restrict(cand, c, mask, changed):
                return None
        return sorted(changed)

    def describe(self, geometry: Geometry) -> str:
        return f"{self.type} {cell_span(geometry, self.cells)}"


@record(frozen=True)
class Odd(_Parity):
    """``odd``: each cell holds an odd digit."""

    type = "odd"
    cells: tuple[int, ...]
    remainder = 1
    fpuzzles = (FPuzzles("odd", "each-cell", how="all the cells in one constraint"),
                FPuzzles("parity", "parity", how="a grid cell's \"parity\": \"Odd\""))

    def draw(self, canvas) -> None:
        """A grey disc in each cell."""
        for c in self.cells:
            canvas.odd(c)


@record(frozen=True)
class Even(_Parity):
    """``even``: each cell holds an even digit."""

    type = "even"
    cells: tuple[int, ...]
    remainder = 0
    fpuzzles = (FPuzzles("even", "each-cell", how="all the cells in one constraint"),
                FPuzzles("parity", "parity", how="a grid cell's \"parity\": \"Even\""))

    def draw(self, canvas) -> None:
        """A grey square in each cell."""
        for c in self.cells:
            canvas.even(c)


@record(frozen=True)
class Candidates(CellsRule):
    """``candidates``: each cell holds one of ``digits`` (pencil marks given as clues, as in
    sukaku puzzles and f-puzzles' given pencil marks).

    >>> from satdoku.model.geometry import geometry
    >>> Candidates((0, 5), (1, 3)).describe(geometry(2, 2)), Candidates((0,), (2, 4)).holds((4,))
    ('candidates r1c1-r2c2: 1, 3', True)
    """

    type = "candidates"
    any_values = True
    any_shape = True  # a restriction of each cell's digits, whatever the grid
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    fields = (Cells(doc="the cells"),
              Ints("digits", min_items=1, unique=True, what="digits", values=True,
                   doc="the digits (values: 0..8 on a 0-8 grid) each of them may hold"))
    fpuzzles = (FPuzzles("givenPencilMarks", "pencilmarks",
                         how="a grid cell's given pencil marks; cells with the same marks in "
                             "one constraint"),)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digits", tuple(sorted(self.digits)))

    @property
    def mask(self) -> int:
        return sum(bit(d) for d in self.digits)

    def encode(self, ctx) -> list[Clause]:
        value = ctx.geometry.value
        return [[-ctx.var(c, d)] for c in self.cells
                for d in range(1, ctx.size + 1) if value(d) not in self.digits]

    def holds(self, digits: tuple[int, ...]) -> bool:
        return all(d in self.digits for d in digits)

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        for c in self.cells:
            if not restrict(cand, c, self.mask, changed):
                return None
        return sorted(changed)

    def describe(self, geometry: Geometry) -> str:
        return f"candidates {cell_span(geometry, self.cells)}: {', '.join(map(str, self.digits))}"

    def draw(self, canvas) -> None:
        """The digits small in each cell, where a solver writes pencil marks."""
        for c in self.cells:
            canvas.pencil_marks(c, [canvas.symbol(v - canvas.geometry.low + 1)
                                    for v in self.digits])


class _Extreme(PairRule):
    """``cell`` compared with each orthogonal neighbour."""

    geometry: Geometry
    cell: int
    fields = (Cells("cells", "cell", single=True, doc="the cell"),)

    @functools.cached_property
    def pairs(self):
        n = self.geometry.size
        r, c = divmod(self.cell, n)
        return tuple((self.cell, (r + dr) * n + c + dc)
                     for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                     if 0 <= r + dr < n and 0 <= c + dc < n)

    def describe(self, geometry: Geometry) -> str:
        return f"{self.type} {geometry.cell_name(self.cell)}"

    def draw(self, canvas) -> None:
        """The cell shaded, a chevron at each neighbour: out of a maximum, into a minimum."""
        canvas.extreme(self.cell, [b for _, b in self.pairs], maximum=self.type == "maximum")


@record(frozen=True)
class Minimum(_Extreme):
    """``minimum``: the cell is less than each orthogonal neighbour.

    >>> from satdoku.model.geometry import geometry
    >>> Minimum(geometry(2, 2), 0).pairs
    ((0, 1), (0, 4))
    """

    type = "minimum"
    reads_values = False
    geometry: Geometry
    cell: int
    fpuzzles = (FPuzzles("minimum", "extremes", how="see [minimum and maximum]"
                         "(#minimum-and-maximum)"),)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x < y


@record(frozen=True)
class Maximum(_Extreme):
    """``maximum``: the cell is greater than each orthogonal neighbour."""

    type = "maximum"
    reads_values = False
    geometry: Geometry
    cell: int
    fpuzzles = (FPuzzles("maximum", "extremes", how="see [minimum and maximum]"
                         "(#minimum-and-maximum)"),)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x > y
