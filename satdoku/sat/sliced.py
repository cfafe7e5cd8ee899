"""Unit propagation of the SAT encodings over a whole batch of puzzles at once, bit-sliced.

A batch's easy puzzles need no SAT search: unit propagation of the clues settles them (44.6% of
the 17-clue collection in the extended encoding, 76% in the augmented one; docs/sat-vs-search.md),
yet a CaDiCaL call costs about as much for them as for a puzzle that needs a few decisions (its
per-call work, the model and its decoding). This module computes that propagation for many
puzzles of one geometry together, in Python's big-int operations, and hands back the puzzles
it settles; the others go to the SAT solver as before.

Glossary (adds to :mod:`satdoku.model.geometry`):

- slice: a Python int whose bit k belongs to puzzle k of the batch. ``cand[cell * N + d - 1]``
  is the slice of the puzzles in which digit d is still a candidate of the cell; one ``&`` or
  ``|`` of two slices does one step for every puzzle of the batch in a C loop. Slices stay
  non-negative: ``x ^ (x & y)``, not ``x & ~y`` (a negative int makes CPython's bitwise
  operations ten times slower at 5,000 bits).
- settled: after propagation, every cell of the puzzle has exactly one candidate. Every rule
  below only removes candidates no solution can have, so a settled grid that is a valid
  solution is the only one (it is still verified by the caller, as every answer is).

The rules are what unit propagation over the encoding's clauses derives (``tests/test_sliced.py``
checks the settled puzzles against :mod:`satdoku.sat.levels`):

- extended: a cell with one candidate holds it (cell >= 1), a digit with one place in a house
  goes there (house >= 1), and a placed digit leaves its peers (cell and house <= 1): naked and
  hidden singles;
- augmented (``locked``): also, a digit of a box confined to one segment (a line's cells in the
  box) leaves the rest of that line, and a digit of a line confined to one box leaves the rest of
  that box: pointing and claiming, which the triads' exactly-one clauses propagate.

These are the passes of :mod:`satdoku.native.propagate` (naked and hidden singles, locked
candidates) written for another data layout: one int a (cell, digit) across the batch rather
than one bitmask a cell for one puzzle, so that each ``&`` and ``|`` serves every puzzle of the
batch at once in C; a puzzle-at-a-time pass would pay the Python loop once a puzzle.
``tests/test_passes_agree.py`` checks that a batch leaves every cell of every puzzle the
candidates native search's passes (and the reduced encoding's, and the ladder's board) leave
it, on random puzzles of several box shapes and a jigsaw.
"""

from __future__ import annotations

import functools
from typing import Sequence

from ..model.geometry import Geometry

__all__ = ["Slicer", "slicer", "settle", "PROBE_ROUNDS"]

#: :func:`settle` may give up on a batch that hardly moves at each look up to this round.
PROBE_ROUNDS = 6

#: Rounds between two looks at whether anything changed (a look copies every slice); locked
#: candidates (half the cost of a round of singles) come in the last round of each, so that a
#: look that sees no change has seen a fixpoint of every rule.
_LOOK_EVERY = 2


class Slicer:
    """The index tables of one geometry that :func:`settle` walks (build with :func:`slicer`)."""

    def __init__(self, geometry: Geometry) -> None:
        n = self.n = geometry.size
        self.geometry = geometry
        self.ncells = geometry.ncells
        #: per house and digit (house-major), the candidate indexes: [cell*N + d0, ...]
        self.flat_houses = [tuple(c * n + d0 for c in house)
                            for house in geometry.houses for d0 in range(n)]
        #: per cell, its candidate indexes, each with the 3 house-digits (flat) it is in
        self.cells = [tuple((cell * n + d0, tuple(h * n + d0 for h in geometry.cell_houses[cell]))
                            for d0 in range(n)) for cell in range(geometry.ncells)]
        segments = geometry.segments
        seg_of: dict[tuple[bool, int], int] = {}  # (is a row segment, cell) -> segment
        for s, seg in enumerate(segments):
            for cell in seg.cells:
                seg_of[seg.line < n, cell] = s
        self.segments = [[[c * n + d0 for c in seg.cells] for d0 in range(n)]
                         for seg in segments]
        line_mates: dict[int, list[int]] = {}
        box_mates: dict[tuple[int, bool], list[int]] = {}
        for s, seg in enumerate(segments):
            line_mates.setdefault(seg.line, []).append(s)
            box_mates.setdefault((seg.box, seg.line < n), []).append(s)
        #: per segment, the other segments of its line, and of its box in its direction
        self.line_others = [[t for t in line_mates[seg.line] if t != s]
                            for s, seg in enumerate(segments)]
        self.box_others = [[t for t in box_mates[seg.box, seg.line < n] if t != s]
                           for s, seg in enumerate(segments)]
        #: per candidate index, the indexes (flat per segment-digit) of its row and column segment
        self.seg_of = [[seg_of[True, i // n] * n + i % n, seg_of[False, i // n] * n + i % n]
                       for i in range(n * n * n)]


@functools.lru_cache(maxsize=4)
def slicer(geometry: Geometry) -> Slicer:
    """The :class:`Slicer` of ``geometry`` (shared)."""
    return Slicer(geometry)


def settle(geometry: Geometry, grids: Sequence[Sequence[int]], *, locked: bool = True,
           busy: float = 0.0) -> list[tuple[int, ...] | None]:
    """For each grid (its cells, 0 for an empty one) of ``geometry``, the grid propagation
    settles it to, or None (not settled: it needs search, or propagation met a clash).

    ``locked`` adds locked candidates (the augmented encoding's propagation) to the singles
    (the extended encoding's). The grids' givens must be clash-free digits. ``busy``: give up
    (every grid None) when, at a look within :data:`PROBE_ROUNDS` rounds, propagation changed
    fewer than this share of the grids since the last look: a batch of hard puzzles stalls
    early, and most easy ones are still moving then (docs/tuning.md).

    >>> from satdoku.model.geometry import geometry
    >>> settle(geometry(2, 2), [(1, 0, 3, 0, 0, 4, 0, 2, 0, 3, 4, 0, 4, 0, 2, 3), (0,) * 16])
    [(1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3), None]
    """
    k = len(grids)
    if not k:
        return []
    sl = slicer(geometry)
    cand = _load(sl, grids)
    if not _propagate(sl, cand, (1 << k) - 1, locked, busy * k):
        return [None] * k
    return _read(sl, cand, k)


def _load(sl: Slicer, grids: Sequence[Sequence[int]]) -> list[int]:
    """The candidate slices of ``grids``: every digit in an empty cell, the given in a given
    one. Bit k is grid k: the bytes of a cell, in reverse, become one binary numeral."""
    n, ncells = sl.n, sl.ncells
    joined = b"".join(map(bytes, reversed(grids)))
    tables = [bytes(48 + (v == 0 or v == d) for v in range(256)) for d in range(1, n + 1)]
    cand: list[int] = []
    for cell in range(ncells):
        column = joined[cell::ncells]
        cand.extend(int(column.translate(table), 2) for table in tables)
    return cand


def _propagate(sl: Slicer, cand: list[int], full: int, locked: bool, busy: float) -> bool:
    """Apply the rules (module docstring) to ``cand`` until nothing changes (True), or give
    up (False) when fewer than ``busy`` grids changed between two looks up to
    :data:`PROBE_ROUNDS`."""
    houses, cells = sl.flat_houses, sl.cells
    rounds = 0
    last: tuple[int, ...] = ()
    while True:  # a round of singles
        # Hidden singles: per house and digit, the puzzles where the digit has one place.
        hidden = []
        for members in houses:
            one = two = 0
            for i in members:
                x = cand[i]
                two |= one & x
                one |= x
            hidden.append(one ^ (one & two))
        # Naked singles, and the candidates that are placed: a naked single, or a hidden one.
        placed = []
        for indexes in cells:
            one = two = 0
            for i, _ in indexes:
                x = cand[i]
                two |= one & x
                one |= x
            single = one ^ (one & two)
            for i, (a, b, c) in indexes:
                placed.append(cand[i] & (single | hidden[a] | hidden[b] | hidden[c]))
        # A placed digit leaves its peers, and the other digits leave its cell.
        taken = []
        for members in houses:
            got = 0
            for i in members:
                got |= placed[i]
            taken.append(got)
        for indexes in cells:
            here = 0
            for i, _ in indexes:
                here |= placed[i]
            for i, (a, b, c) in indexes:
                x = cand[i]
                cand[i] = (x ^ (x & (taken[a] | taken[b] | taken[c] | here))) | placed[i]
        rounds += 1
        if rounds % _LOOK_EVERY:
            continue
        if locked:
            _locked(sl, cand)
        now = tuple(cand)
        if now == last:
            return True
        if busy and rounds <= PROBE_ROUNDS and last:
            moving = 0
            for a, b in zip(now, last):
                moving |= a ^ b
            if bin(moving).count("1") < busy:
                return False
        last = now


def _locked(sl: Slicer, cand: list[int]) -> None:
    """Pointing and claiming: a digit a segment holds alone in its box leaves the rest of its
    line, and one a segment holds alone in its line leaves the rest of its box."""
    n = sl.n
    present = []
    for segment in sl.segments:
        for members in segment:
            got = 0
            for i in members:
                got |= cand[i]
            present.append(got)
    nseg = len(sl.segments)
    kill = [0] * (nseg * n)
    for s in range(nseg):
        line_others, box_others = sl.line_others[s], sl.box_others[s]
        for d0 in range(n):
            here = present[s * n + d0]
            in_box = in_line = 0
            for t in box_others:
                in_box |= present[t * n + d0]
            for t in line_others:
                in_line |= present[t * n + d0]
            pointing = here ^ (here & in_box)  # the box's d lies in this segment alone
            claiming = here ^ (here & in_line)  # the line's d lies in this segment alone
            if pointing:
                for t in line_others:
                    kill[t * n + d0] |= pointing
            if claiming:
                for t in box_others:
                    kill[t * n + d0] |= claiming
    for i, (r, c) in enumerate(sl.seg_of):
        dead = kill[r] | kill[c]
        if dead:
            x = cand[i]
            cand[i] = x ^ (x & dead)


def _read(sl: Slicer, cand: list[int], k: int) -> list[tuple[int, ...] | None]:
    """Each puzzle's grid where every cell has one candidate, else None. A cell's digit comes
    out of its slices as one byte per puzzle: each slice's binary numeral read back as bytes
    (one per bit), times the digit, summed."""
    n, ncells = sl.n, sl.ncells
    spread = bytes.maketrans(b"01", b"\x00\x01")
    settled = (1 << k) - 1
    columns = []
    top = 1 << k
    for base in range(0, ncells * n, n):
        one = two = 0
        digits = 0
        for d0 in range(n):
            x = cand[base + d0]
            two |= one & x
            one |= x
            if x:
                bits = format(x | top, "b")[1:].encode().translate(spread)
                digits += int.from_bytes(bits, "big") * (d0 + 1)
        settled &= one ^ (one & two)
        columns.append(digits.to_bytes(k, "big"))
    if not settled:
        return [None] * k
    joined = b"".join(columns)  # cell-major, puzzle k at offset k - 1 - ... (reversed)
    out: list[tuple[int, ...] | None] = []
    for j in range(k):
        if settled >> j & 1:
            out.append(tuple(joined[k - 1 - j::k]))
        else:
            out.append(None)
    return out
