"""The human techniques' board: candidates and placed cells, and a finder per technique.

Glossary (besides :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (:mod:`satdoku.model.digits`).
- placed: a cell whose digit is written in (a given, or a technique's placement); its peers
  have lost that digit. An *open* cell is one not placed.
- finder: looks for the next step of one technique on the board, in a fixed order, without
  changing it; the caller applies the step. Both
  :func:`~satdoku.native.techniques.solve_by_techniques` (counts) and
  :func:`~satdoku.native.techniques.solving_steps` (records with reasons) run these finders,
  each in its own order and grain (see there).

A person places digits one at a time and looks for the easiest technique each time, so the
board is simple lists walked in order; the fast passes of search
(:mod:`satdoku.native.propagate`) reach the same fixed point and serve to screen trials
(:func:`leads_to_contradiction`, :func:`finishes`).
"""

from __future__ import annotations

from ..model.digits import full_mask, house_tally
from ..model.geometry import Geometry, Segment
from ..model.grid import Grid
from .propagate import Propagation, propagate
from .tables import tables

__all__ = ["Board", "Contradiction", "ROWS_FIRST", "BOXES_FIRST"]

#: House orders for hidden singles: rows, columns, boxes; or boxes, rows, columns.
ROWS_FIRST = "rows first"
BOXES_FIRST = "boxes first"


class Contradiction(Exception):
    """The board has no solution: a cell without candidates, a digit without a place in a
    house, or a digit twice in one."""


class Board:
    """Candidates and placements along a solving path."""

    __slots__ = ("geo", "full", "cand", "placed")

    def __init__(self, geo: Geometry, cand: list[int], placed: list[bool]) -> None:
        self.geo = geo
        self.full = full_mask(geo.size)
        self.cand = cand
        self.placed = placed

    @classmethod
    def from_grid(cls, grid: Grid) -> tuple["Board", bool]:
        """The board of ``grid``'s givens, and whether placing them broke nothing (no two
        givens clash, no cell is left without candidates)."""
        geo = grid.geometry
        board = cls(geo, [full_mask(geo.size)] * geo.ncells, [False] * geo.ncells)
        for cell, d in grid.givens():
            board.cand[cell] = 1 << (d - 1)
            board.placed[cell] = True
        ok = True
        for cell, d in grid.givens():
            ok = board.place(cell, 1 << (d - 1)) and ok
        return board, ok

    def copy(self) -> "Board":
        return Board(self.geo, list(self.cand), list(self.placed))

    def place(self, cell: int, bit: int) -> bool:
        """Write digit ``bit`` in ``cell``; its open peers lose it. False when that breaks the
        board: the cell did not have it, an open peer is left without candidates, or a placed
        peer holds it."""
        cand, placed = self.cand, self.placed
        ok = bool(cand[cell] & bit)
        cand[cell] = bit
        placed[cell] = True
        for p in self.geo.peers[cell]:
            m = cand[p]
            if m & bit:
                if placed[p]:
                    ok = False
                else:
                    cand[p] = m ^ bit
                    ok = ok and m != bit
        return ok

    def strike(self, cells, digits: int) -> bool:
        """Take ``digits`` from ``cells``; False when one is left without candidates."""
        cand = self.cand
        ok = True
        for c in cells:
            cand[c] &= ~digits
            ok = ok and bool(cand[c])
        return ok

    def open_cells(self) -> int:
        return self.placed.count(False)

    def solved(self) -> bool:
        return all(self.placed)

    def contradiction(self, name) -> str | None:
        """Why the board has no solution, if it visibly has none: a cell without candidates,
        two placed cells with one digit in a house, or a digit without a place in a house
        (``name`` writes a digit)."""
        cand, placed, geo = self.cand, self.placed, self.geo
        for cell, m in enumerate(cand):
            if not m:
                return f"{geo.cell_name(cell)} has no digit left"
        for h, house in enumerate(geo.houses):
            seen = 0
            anywhere = 0
            for c in house:
                m = cand[c]
                if placed[c]:
                    if seen & m:
                        return f"{name(m.bit_length())} is twice in {geo.house_name(h)}"
                    seen |= m
                anywhere |= m
            if anywhere != self.full:
                missing = (self.full & ~anywhere).bit_length()
                return f"{name(missing)} has no place left in {geo.house_name(h)}"
        return None

    def naked_singles(self) -> list[int]:
        """The open cells with one candidate left (or none), in cell order."""
        cand, placed = self.cand, self.placed
        return [c for c, m in enumerate(cand) if not placed[c] and not m & (m - 1)]

    def hidden_single(self, order: str, by_digit: bool) -> tuple[int, int, int] | None:
        """The first hidden single, as (house, cell, digit bit), in the first house (of
        ``order``) with a digit that has one open place and is not placed: the lowest such
        digit (``by_digit``), or the first cell that is such a digit's place (its lowest).
        Raises :class:`Contradiction` at a house, looked at before, without a place for a
        digit."""
        cand, placed, houses, full = self.cand, self.placed, self.geo.houses, self.full
        n = self.geo.size
        hs = range(3 * n) if order == ROWS_FIRST else [*range(2 * n, 3 * n), *range(2 * n)]
        for h in hs:
            once, twice, done = house_tally(houses[h], cand, placed)
            if once | done != full:
                raise Contradiction
            single = once & ~twice & ~done
            if not single:
                continue
            if by_digit:
                bit = single & -single
                return h, next(c for c in houses[h] if not placed[c] and cand[c] & bit), bit
            cell = next(c for c in houses[h] if not placed[c] and cand[c] & single)
            s = cand[cell] & single
            return h, cell, s & -s
        return None

    def locked_candidates(self) -> tuple[str, Segment, int, tuple[int, ...]] | None:
        """The first locked candidates, segment by segment (:attr:`Geometry.segments` order),
        pointing before claiming: (kind, segment, digits, cells that lose them)."""
        cand = self.cand
        for seg in self.geo.segments:
            line_rest, box_rest = seg.line_rest, seg.box_rest
            if not (line_rest and box_rest):
                continue
            inside = line_other = box_other = 0
            for x in seg.cells:
                inside |= cand[x]
            for x in line_rest:
                line_other |= cand[x]
            for x in box_rest:
                box_other |= cand[x]
            # pointing: in the box only here, so not elsewhere in the line; claiming: the reverse
            pointing = inside & ~box_other & line_other
            if pointing:
                return "pointing", seg, pointing, line_rest
            claiming = inside & ~line_other & box_other
            if claiming:
                return "claiming", seg, claiming, box_rest
        return None

    def fewest_candidates(self) -> int:
        """The open cell with fewest candidates (the first such in cell order)."""
        cand, placed = self.cand, self.placed
        return min((c for c in range(self.geo.ncells) if not placed[c]),
                   key=lambda c: cand[c].bit_count())

    def after(self, cell: int, d: int) -> list[int] | None:
        """The candidates once ``d`` is placed in ``cell`` and the techniques are at their fixed
        point, or None when they run into a contradiction. Screened by search's passes
        (singles, hidden singles, locked candidates: the same techniques reach the same fixed
        point in any order)."""
        t = tables(self.geo)
        cand = list(self.cand)
        cand[cell] = 1 << (d - 1)
        if not all(cand):
            return None
        queue = [c for c, m in enumerate(cand) if not m & (m - 1)]
        if not propagate(Propagation(t, locked=True), cand, [0] * t.nhouses, queue,
                         set(range(t.nhouses))):
            return None
        return cand

    def leads_to_contradiction(self, cell: int, d: int) -> bool:
        """Whether placing ``d`` in ``cell`` leads by the techniques to a contradiction."""
        return self.after(cell, d) is None

    def finishes(self, cell: int, d: int) -> bool:
        """Whether placing ``d`` in ``cell`` lets the techniques fill the grid."""
        cand = self.after(cell, d)
        return cand is not None and all(not m & (m - 1) for m in cand)
