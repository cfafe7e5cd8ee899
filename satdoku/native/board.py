"""The board of Sudoku Explainer's ladder (:mod:`satdoku.native.ladder`): candidates and placed
cells.

Glossary (besides :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (:mod:`satdoku.model.digits`).
- placed: a cell whose digit is written in (a given, or a technique's placement); its peers
  have lost that digit. An *open* cell is one not placed.
- finder: looks for the next step of one technique on the board, in a fixed order, without
  changing it; the ladder applies the step (the finders are in :mod:`satdoku.native.named`,
  :mod:`~satdoku.native.uniqueness` and :mod:`~satdoku.native.chains`).

A person places digits one at a time and looks for the easiest technique each time, so the
board is simple lists walked in order.
"""

from __future__ import annotations

from ..model.digits import full_mask
from ..model.geometry import Geometry
from ..model.grid import Grid
from .propagate import positions
from .tables import need_boxes, tables

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Sequence, TypeVar

if TYPE_CHECKING:
    _B = TypeVar("_B", bound="Board")

__all__ = ["Board", "fold_givens"]


class Board:
    """Candidates and placements along a solving path: the ladder's (:mod:`.ladder`) and the
    step path's (:mod:`satdoku.tasks.steps`), which also asks it what changed
    (:meth:`changes`)."""

    __slots__ = ("geo", "full", "cand", "placed", "pos", "_seen")

    def __init__(self, geo: Geometry, cand: list[int], placed: list[bool],
                 pos: list[int] | None = None) -> None:
        self.geo = geo
        self.full = full_mask(geo.size)
        self.cand = cand
        self.placed = placed
        # the open cells' positions (:mod:`satdoku.native.tables`), given by whoever made the
        # board (a dynamic chain's propagation keeps them as it goes) or worked out when first
        # asked (:meth:`places`), and dropped when a step changes the board
        self.pos = pos
        self._seen: tuple[tuple[int, ...], tuple[bool, ...]] | None = None

    def positions(self) -> list[int]:
        """The open cells' positions (:mod:`satdoku.native.tables`), worked out once a board
        state; not to be changed by the caller."""
        if self.pos is None:
            t = tables(self.geo)
            self.pos = positions(t, [0 if p else m for m, p in zip(self.cand, self.placed)],
                                 [0] * t.nhouses)
        return self.pos

    def places(self, h: int) -> list[int]:
        """Per digit (index 1..N), the mask of its places among house ``h``'s open cells (bit
        ``i``: the house's ``i``-th cell); index 0 is 0."""
        stride = tables(self.geo).stride
        return self.positions()[h * stride:(h + 1) * stride]

    @classmethod
    def from_grid(cls, grid: Grid) -> tuple["Board", bool]:
        """The board of ``grid``'s givens, and whether placing them broke nothing (no two
        givens clash, no cell is left without candidates); for the ladder, which needs boxes
        (:func:`of_givens` takes any geometry, as the step path does)."""
        need_boxes(grid.geometry, "the ladder of techniques")
        return cls.of_givens(grid)

    @classmethod
    def of_givens(cls: type[_B], grid: Grid) -> tuple[_B, bool]:
        """What :meth:`from_grid` returns, on any geometry."""
        geo = grid.geometry
        cand, _, clash_free = fold_givens(geo, grid.cells)
        return cls(geo, cand, [bool(d) for d in grid.cells]), clash_free and all(cand)

    def copy(self) -> "Board":
        return Board(self.geo, list(self.cand), list(self.placed))

    def place(self, cell: int, bit: int) -> bool:
        """Write digit ``bit`` in ``cell``; its open peers lose it. False when that breaks the
        board: the cell did not have it, an open peer is left without candidates, or a placed
        peer holds it."""
        cand, placed = self.cand, self.placed
        self.pos = None
        ok = bool(cand[cell] & bit)
        cand[cell] = bit
        placed[cell] = True
        houses = self.geo.houses
        # the peers, house by house (a peer in two of them is seen twice, the second time
        # without the digit): a big grid's table of peers costs seconds to build
        for p in (p for h in self.geo.cell_houses[cell] for p in houses[h] if p != cell):
            m = cand[p]
            if m & bit:
                if placed[p]:
                    ok = False
                else:
                    cand[p] = m ^ bit
                    ok = ok and m != bit
        return ok

    def apply(self, removes: Iterable[tuple[int, int]],
              places: Iterable[tuple[int, int]]) -> bool:
        """Take a step: strike each (cell, digit) of ``removes``, then place each (cell,
        digit) of ``places``; False when that breaks the board (never on a unique puzzle)."""
        ok = True
        for cell, d in removes:
            ok = self.strike((cell,), 1 << (d - 1)) and ok
        for cell, d in places:
            ok = self.place(cell, 1 << (d - 1)) and ok
        return ok

    def strike(self, cells, digits: int) -> bool:
        """Take ``digits`` from ``cells``; False when one is left without candidates."""
        cand = self.cand
        self.pos = None
        ok = True
        for c in cells:
            cand[c] &= ~digits
            ok = ok and bool(cand[c])
        return ok

    def open_cells(self) -> list[int]:
        return [c for c, done in enumerate(self.placed) if not done]

    def solved(self) -> bool:
        return all(self.placed)

    def naked_singles(self) -> list[int]:
        """The open cells with one candidate left (or none), in cell order."""
        cand, placed = self.cand, self.placed
        return [c for c, m in enumerate(cand) if not placed[c] and not m & (m - 1)]

    def snapshot(self) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """The candidates and placed flags as they stand (a copy)."""
        return tuple(self.cand), tuple(self.placed)

    def changes(self) -> set[int]:
        """The cells whose candidates or placed flag changed since the last call (at first,
        every cell)."""
        now, seen = self.snapshot(), self._seen
        self._seen = now
        if seen is None:
            return set(range(len(self.cand)))
        return {c for c, (a, b, p, q) in enumerate(zip(now[0], seen[0], now[1], seen[1]))
                if a != b or p != q}


def fold_givens(geo: Geometry, cells: Sequence[int]) -> tuple[list[int], list[int], bool]:
    """The board of the givens ``cells`` (a digit, or 0 for an open cell), before any
    technique: each cell's candidates (its given, or the digits none of its houses holds), each
    house's given digits (bitmasks, by house number), and whether no digit repeats in a house.

    The one start of every board: the ladder's and the step path's (:class:`Board`), native
    search's (:mod:`satdoku.native.search`), the reduced encoding's folding
    (:mod:`satdoku.native.reduce`). A pass over the cells and their houses, not over their
    peers: 3 N**2 steps, which matters at 400 x 400.

    >>> from satdoku.model.geometry import geometry
    >>> fold_givens(geometry(1, 2), (1, 0, 0, 0))
    ([1, 2, 2, 3], [1, 0, 1, 0, 1, 0], True)
    """
    given = []
    for house in geo.houses:
        m = 0
        for d in map(cells.__getitem__, house):
            if d:
                m |= 1 << (d - 1)
        given.append(m)
    cell_houses = geo.cell_houses
    full = full_mask(geo.size)
    outside = [1 << (d - 1) if d else full for d in cells[geo.ngrid:]]  # in no house
    if outside:
        cells = cells[:geo.ngrid]
    # each given is one digit in each of its houses: fewer there, and two givens share one
    clash_free = sum(map(int.bit_count, given)) == (len(cells) - cells.count(0)) * len(
        cell_houses[0])
    if len(cell_houses[0]) == 2:  # no boxes: a cell's houses as three, its column twice
        cell_houses = tuple((a, b, b) for a, b in cell_houses)
    cand = [0] * len(cells)
    for cell, d in enumerate(cells):
        if d:
            cand[cell] = 1 << (d - 1)
        else:
            a, b, c = cell_houses[cell]
            cand[cell] = full & ~(given[a] | given[b] | given[c])
    return cand + outside, given, clash_free
