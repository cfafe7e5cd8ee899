"""Solving as a person would: the easiest technique that makes progress, counted step by step.

The native solver (:mod:`satdoku.search`) mixes its techniques for speed. This module applies
them one at a time, easiest first, to say what a puzzle takes:

1. naked single: a cell with one candidate left gets it;
2. hidden single: a digit with one place left in a house goes there (tried only when no naked
   single is left);
3. locked candidates: a digit confined to one segment (the cells a line shares with a box) of
   a box leaves the rest of the line (pointing), or confined to one segment of a line leaves
   the rest of the box (claiming); one elimination step at a time, tried only when no single
   is left.

When none of them makes progress the puzzle *stalls*: the rest takes guessing. The counts are
of placements (singles) and of steps (locked candidates); the givens are not counted. The same
geometry tables serve as in every other module, so any box shape works. This is a grader, not a
fast solver: a 9x9 puzzle takes a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import Grid

__all__ = ["TECHNIQUES", "Steps", "solve_by_techniques"]

#: Technique names, easiest first; ``guessing`` is what a stalled puzzle needs.
TECHNIQUES = ("naked singles", "hidden singles", "locked candidates", "guessing")


@dataclass
class Steps:
    """What solving ``grid`` with :data:`TECHNIQUES` took.

    ``naked`` and ``hidden`` count placements, ``locked`` elimination steps. ``open_cells`` is
    how many cells were still empty when the techniques stalled (0 when they solved it);
    ``contradiction`` is True when they ran into one (the givens allow no solution).
    """

    naked: int = 0
    hidden: int = 0
    locked: int = 0
    open_cells: int = 0
    contradiction: bool = False
    solution: Grid | None = None  # the grid when the techniques completed it

    @property
    def hardest(self) -> str:
        """The hardest technique needed: one of :data:`TECHNIQUES`."""
        if self.open_cells or self.contradiction:
            return "guessing"
        if self.locked:
            return "locked candidates"
        if self.hidden:
            return "hidden singles"
        return "naked singles"

    @property
    def level(self) -> int:
        """0 naked singles only, 1 hidden singles, 2 locked candidates, 3 guessing."""
        return TECHNIQUES.index(self.hardest)

    def as_dict(self) -> dict:
        return {"hardest": self.hardest, "naked_singles": self.naked,
                "hidden_singles": self.hidden, "locked_candidates": self.locked,
                "open_cells": self.open_cells, "contradiction": self.contradiction}


class _Contradiction(Exception):
    pass


class _State:
    """Candidates (bitmask per cell) and which cells are placed."""

    def __init__(self, grid: Grid) -> None:
        geo = grid.geometry
        self.geo = geo
        self.full = (1 << geo.size) - 1
        self.cand = [self.full] * geo.ncells
        self.placed = [False] * geo.ncells
        for cell, d in grid.givens():
            self.place(cell, 1 << (d - 1))

    def place(self, cell: int, bit: int) -> None:
        if not self.cand[cell] & bit:
            raise _Contradiction
        self.cand[cell] = bit
        self.placed[cell] = True
        for p in self.geo.peers[cell]:
            m = self.cand[p]
            if m & bit:
                if self.placed[p] or m == bit:
                    raise _Contradiction
                self.cand[p] = m ^ bit

    def naked_singles(self) -> int:
        """Place every cell down to one candidate; how many there were."""
        cand, placed = self.cand, self.placed
        found = [c for c, m in enumerate(cand) if not placed[c] and not m & (m - 1)]
        for c in found:
            if not cand[c]:
                raise _Contradiction
        for c in found:
            self.place(c, cand[c])
        return len(found)

    def hidden_single(self) -> bool:
        """Place the first hidden single found (house order, then cell); True when there was one."""
        cand, placed = self.cand, self.placed
        for house in self.geo.houses:
            once = twice = 0
            for c in house:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != self.full:
                raise _Contradiction  # a digit has no place left in this house
            single = once & ~twice
            for c in house:
                s = cand[c] & single
                if s and not placed[c]:
                    self.place(c, s & -s)
                    return True
        return False

    def locked_candidates(self) -> bool:
        """One pointing or claiming elimination; True when there was one."""
        geo, cand = self.geo, self.cand
        for seg in geo.segments:  # rows, then columns
            segment = seg.cells
            inside = set(segment)
            line_rest = [x for x in geo.houses[seg.line] if x not in inside]
            box_rest = [x for x in geo.houses[seg.box] if x not in inside]
            if not line_rest or not box_rest:
                continue  # the line is the box (boxes of one row or column)
            seg_digits = line_other = box_other = 0
            for cell in segment:
                seg_digits |= cand[cell]
            for x in line_rest:
                line_other |= cand[x]
            for x in box_rest:
                box_other |= cand[x]
            # pointing: in the box only here, so not elsewhere in the line
            # claiming: in the line only here, so not elsewhere in the box
            for digits, targets in ((seg_digits & ~box_other & line_other, line_rest),
                                    (seg_digits & ~line_other & box_other, box_rest)):
                if digits:
                    for x in targets:
                        if cand[x] & digits:
                            cand[x] &= ~digits
                            if not cand[x]:
                                raise _Contradiction
                    return True
        return False


def solve_by_techniques(grid: Grid) -> Steps:
    """Apply the easiest technique that makes progress until the grid is full or nothing helps.

    >>> from satdoku.geometry import geometry
    >>> steps = solve_by_techniques(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> steps.hardest, steps.naked, steps.open_cells
    ('guessing', 1, 12)
    """
    steps = Steps()
    try:
        state = _State(grid)
        while not all(state.placed):
            placed = state.naked_singles()
            if placed:
                steps.naked += placed
                continue
            if state.hidden_single():
                steps.hidden += 1
                continue
            if state.locked_candidates():
                steps.locked += 1
                continue
            break
    except _Contradiction:
        steps.contradiction = True
        return steps
    steps.open_cells = state.placed.count(False)
    if not steps.open_cells:
        steps.solution = Grid(grid.geometry, tuple(m.bit_length() for m in state.cand))
    return steps
