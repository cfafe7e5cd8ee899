"""Uniqueness techniques on the Sudoku Explainer ladder: unique rectangles and BUG type 1.

They assume the puzzle has one solution (the ladder runs only on such puzzles): a pattern
that would let two digits swap, or leave every cell two candidates, cannot be the end state.

- unique rectangle (4.5): four open cells in two rows, two columns and two boxes all holding
  digits a and b. Type 1: one cell has more digits, so it loses a and b. Type 2: the cells
  with more digits have one extra digit x between them, so cells seeing all of them lose x.
  Type 4: two of them share a house where a has no other place, so they lose b.
- BUG type 1 (5.6): every open cell has two candidates but one cell, and taking digit b from
  that cell would leave every digit two places (or none) in every house: that cell is b.

SE's unique loops (six cells and more, 4.6 and up) and rectangle type 3 are not here yet:
:data:`FLOOR` is the lowest rating a missing rung has.
"""

from __future__ import annotations

from .board import Board
from .named import NamedStep, _cells

__all__ = ["unique_rectangle", "bug_type1", "FLOOR"]

#: The lowest SE rating of a technique the ladder does not have (unique loops, UR type 3).
FLOOR = 4.6


def _rectangles(board: Board):
    """(pair mask, the four cells in cell order) of every rectangle in two boxes whose four
    open cells all hold the two digits of a bivalue corner."""
    geo, cand, placed = board.geo, board.cand, board.placed
    n = geo.size
    box = [h[2] for h in geo.cell_houses]
    seen = set()
    for corner in range(geo.ncells):
        pair = cand[corner]
        if placed[corner] or pair.bit_count() != 2:
            continue
        r0, c0 = geo.row_col(corner)
        for r1 in range(n):
            for c1 in range(n):
                if r1 == r0 or c1 == c0:
                    continue
                cells = tuple(sorted((corner, geo.cell(r0, c1), geo.cell(r1, c0),
                                      geo.cell(r1, c1))))
                if (pair, cells) in seen or len({box[c] for c in cells}) != 2:
                    continue
                if all(not placed[c] and cand[c] & pair == pair for c in cells):
                    seen.add((pair, cells))
                    yield pair, cells


def unique_rectangle(board: Board) -> NamedStep | None:
    """The first unique rectangle of type 1, then 2, then 4 (all 4.5 on SE's scale)."""
    found = {1: None, 2: None, 4: None}
    for pair, cells in _rectangles(board):
        for kind, removes in _ur_types(board, pair, cells):
            if removes and found[kind] is None:
                a, b = [d for d in range(1, board.geo.size + 1) if pair >> (d - 1) & 1]
                found[kind] = NamedStep(f"Unique Rectangle type {kind}", 4.5,
                                        f"on {a}{b} ({_cells(board.geo, cells)})", removes)
        if found[1] is not None:
            break
    return next((s for s in found.values() if s is not None), None)


def _ur_types(board: Board, pair: int, cells):
    geo, cand, placed = board.geo, board.cand, board.placed
    digits = range(1, geo.size + 1)
    extras = [c for c in cells if cand[c] != pair]
    if len(extras) == 1:
        x = extras[0]
        yield 1, tuple((x, d) for d in digits if pair & cand[x] & (1 << (d - 1)))
        return
    extra = 0
    for c in extras:
        extra |= cand[c] & ~pair
    if extra.bit_count() == 1 and all(cand[c].bit_count() == 3 for c in extras):
        seen = set.intersection(*(set(geo.peers[c]) for c in extras)) - set(cells)
        yield 2, tuple((c, extra.bit_length()) for c in sorted(seen)
                       if not placed[c] and cand[c] & extra)
    if len(extras) == 2:
        shared = set(geo.cell_houses[extras[0]]) & set(geo.cell_houses[extras[1]])
        for h in sorted(shared):
            for keep in (pair & -pair, pair & (pair - 1)):
                places = [c for c in geo.houses[h] if not placed[c] and cand[c] & keep]
                if set(places) == set(extras):
                    lose = (pair & ~keep).bit_length()
                    yield 4, tuple((c, lose) for c in extras)


def bug_type1(board: Board) -> NamedStep | None:
    """BUG type 1 (5.6): see the module docstring."""
    geo, cand, placed = board.geo, board.cand, board.placed
    odd = [c for c in range(geo.ncells) if not placed[c] and cand[c].bit_count() != 2]
    if len(odd) != 1 or cand[odd[0]].bit_count() != 3:
        return None
    x = odd[0]
    for d in range(1, geo.size + 1):
        bit = 1 << (d - 1)
        if not cand[x] & bit:
            continue
        trial = list(cand)
        trial[x] &= ~bit
        if all(_two_or_none(geo.houses[h], trial, placed, geo.size)
               for h in range(len(geo.houses))):
            removes = tuple((x, e) for e in range(1, geo.size + 1)
                            if e != d and cand[x] & (1 << (e - 1)))
            return NamedStep("BUG type 1", 5.6, f"on {d} ({geo.cell_name(x)})", removes)
    return None


def _two_or_none(house, cand, placed, size: int) -> bool:
    counts = [0] * size
    for c in house:
        if not placed[c]:
            m = cand[c]
            while m:
                low = m & -m
                counts[low.bit_length() - 1] += 1
                m ^= low
    return all(k in (0, 2) for k in counts)

