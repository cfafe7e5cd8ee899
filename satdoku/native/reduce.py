"""Candidate elimination before SAT: the givens, then naked and hidden singles, folded away.

Used by the reduced encoding (:func:`satdoku.cnf.reduced.reduced_formula`) for big grids, where the
full formula has about 2 N**4 clauses but the givens of real puzzles leave a few thousand
(cell, digit) pairs open. Every step is implied by the givens, so no solution is lost.

Glossary (adds to :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (bit ``d - 1`` for digit ``d``).
- settled: a cell whose digit is known before SAT: a given, or one that propagation assigned.

Each house keeps a list of its open cells holding each digit (compacted as cells settle), so an
assignment costs the few open cells concerned rather than 3 N, which matters at 400 x 400.
The passes of :mod:`satdoku.native.propagate` walk every peer of an assigned cell (3 N cells
beyond 64 x 64) and fold whole houses for hidden singles, where this module visits only the
open cells that hold the digit. What was tried against the hard 64x64 and 225x225 puzzles, and
what it showed: ``docs/large-grids.md``.

The rules are those of :mod:`satdoku.native.propagate` (:func:`~.propagate.naked_singles`,
:func:`~.propagate.hidden_singles`, :func:`~.propagate.locked_by_segment`) on this other
board, and ``tests/test_passes_agree.py`` checks that both (and the bit-sliced batch pass and
the ladder's board) leave every cell the same candidates. Folding with those passes instead
was measured (2026-11-28, docs/performance.md "One board, one pass"): singles to their fixed
point took 0.65 s CPU against 0.33 s here on the 144x144 puzzle, and 60 s against 3.7 s on
the 400x400 one, so this copy stays. A position mask a (house, digit), the design meant to
serve both (``dual`` in ``scripts/bench_fold.py``), folds as fast as this board; native search
does not use it yet (the same page). The board of the givens is the shared one
(:func:`~satdoku.native.board.fold_givens`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..budget import check_size
from ..deadline import NO_DEADLINE, Deadline
from ..model.geometry import Geometry
from ..model.digits import bits
from ..model.grid import Grid
from .board import fold_givens
from .tables import need_boxes

__all__ = ["Reduction", "reduce_candidates"]


@dataclass
class Reduction:
    """Candidates after folding the givens (and optionally singles) away.

    ``cells[i]`` is the settled digit of cell ``i`` or 0; ``cand[i]`` its candidate bitmask (one
    bit for a settled cell). ``contradiction`` names what went wrong when the puzzle has no
    solution (then the other fields are partial).
    """

    geometry: Geometry
    cells: list[int]
    cand: list[int]
    assigned: int = 0
    contradiction: str | None = None


def reduce_candidates(grid: Grid, propagate: bool = True, locked: bool = False, *,
                      deadline: Deadline = NO_DEADLINE,
                      max_clauses: int | None = None) -> Reduction:
    """The candidates of every cell once the givens are removed from their houses.

    With ``propagate``, naked singles (one candidate left) and hidden singles (one place left for
    a digit in a house) are applied to a fixed point; every such step is implied by the givens,
    so no solution is lost and the count of solutions is unchanged. With ``locked`` too, each
    time singles stall a pass of locked candidates (pointing and claiming, see
    :func:`_locked_pass`) runs, and singles resume if it removed anything. Raises
    :class:`~satdoku.deadline.TimeUp` when ``deadline`` passes, and
    :class:`~satdoku.errors.TooBigError` before any large table is built when the pairs the
    givens leave open would make a formula of more than ``max_clauses`` clauses (each open
    pair takes at least 4: it is in one cell's and three houses' at-most-one).

    >>> from satdoku.model.geometry import geometry
    >>> r = reduce_candidates(Grid(geometry(1, 2), (1, 0, 0, 0)))
    >>> r.cells, r.assigned
    ([1, 2, 2, 1], 3)
    """
    geo = grid.geometry
    need_boxes(geo, "candidate elimination")
    n = geo.size
    cells = list(grid.cells)
    cand, placed, _ = fold_givens(geo, cells)
    red = Reduction(geo, cells, cand)
    if max_clauses is not None:
        pairs = sum(map(int.bit_count, itertools.compress(red.cand, [not d for d in cells])))
        check_size(4 * pairs, max_clauses, f"the reduced formula of this {n}x{n} puzzle",
                   at_least=True)
    if not propagate:
        for cell, m in enumerate(red.cand):
            if not m:
                red.contradiction = f"{geo.cell_name(cell)} has no candidate left"
                break
        return red
    singles = _Singles(red, placed, deadline)
    while True:
        if not singles.run():
            return red
        if not locked or singles.assigned == singles.open_cells or not _locked_pass(
                geo, cells, red.cand, placed, singles.holders, singles.eliminate):
            break
    red.assigned = singles.assigned
    return red


class _Singles:
    """Naked and hidden singles to a fixed point on a :class:`Reduction`: the rules of
    :func:`~satdoku.native.propagate.naked_singles` and
    :func:`~satdoku.native.propagate.hidden_singles` on this module's board (module docstring).

    ``holders[h * n + d - 1]``: the open cells of house h that had candidate d when
    propagation started (later some lose it: look at ``cand``). Walking these instead of whole
    houses keeps the work per assignment to the few cells concerned; with 400-bit masks every
    ``&`` costs. ``places[...]``: how many of those still have d. ``queue``: open cells down to
    one candidate; ``hidden``: (house, digit) keys down to fewer than two places.
    """

    def __init__(self, red: Reduction, placed: list[int], deadline: Deadline) -> None:
        geo = red.geometry
        n = self.n = geo.size
        self.red, self.placed, self.deadline = red, placed, deadline
        self.cells, self.cand, self.cell_houses = red.cells, red.cand, geo.cell_houses
        cells, cand, cell_houses = red.cells, red.cand, geo.cell_houses
        self.queue = [c for c, d in enumerate(cells) if not d and not cand[c] & (cand[c] - 1)]
        holders: list[list[int]] = [[] for _ in range(3 * n * n)]
        for cell, d in enumerate(cells):
            if d:
                continue
            if not cell & 0x3FF:
                deadline.check()
            a, b, c = cell_houses[cell]
            a, b, c = a * n - 1, b * n - 1, c * n - 1
            x = cand[cell]
            while x:
                low = x & -x
                e = low.bit_length()
                holders[a + e].append(cell)
                holders[b + e].append(cell)
                holders[c + e].append(cell)
                x ^= low
        self.holders = holders
        self.places = list(map(len, holders))
        full = (1 << n) - 1
        self.hidden = [h * n + d - 1 for h in range(3 * n) for d in bits(full & ~placed[h])]
        self.assigned = 0
        self.open_cells = sum(1 for d in cells if not d)

    def lose_places(self, c: int, x: int) -> None:
        """Open cell ``c`` lost the digits ``x``: one place fewer for each in each of its
        houses."""
        n, places, hidden = self.n, self.places, self.hidden
        while x:
            low = x & -x
            e = low.bit_length() - 1
            for k in self.cell_houses[c]:
                k = k * n + e
                places[k] -= 1
                if places[k] < 2:
                    hidden.append(k)
            x ^= low

    def eliminate(self, c: int, bit: int, d0: int) -> None:
        """Take digit ``d0 + 1`` (``bit``) from open cell ``c``; queue what becomes single."""
        x = self.cand[c] ^ bit
        self.cand[c] = x
        if not x & (x - 1):
            self.queue.append(c)
        self.lose_places(c, bit)

    def run(self) -> bool:
        """Singles to a fixed point; False on a contradiction (named in the reduction).

        A queued cell is settled: its digit goes into its houses and leaves the open cells
        there that hold it. Then a (house, digit) with fewer than two places is a hidden single
        (:meth:`hidden_single`)."""
        queue, hidden, places, placed, n = self.queue, self.hidden, self.places, self.placed, self.n
        cells, cand, holders, cell_houses = self.cells, self.cand, self.holders, self.cell_houses
        push, lose = queue.append, hidden.append
        while queue or hidden:
            while queue:
                cell = queue.pop()
                if cells[cell]:
                    continue
                if not self.assigned & 0x3FF:
                    self.deadline.check()
                m = cand[cell]
                if not m:
                    return self.fail(f"{self.red.geometry.cell_name(cell)} has no candidate left")
                d = m.bit_length()
                cells[cell] = d
                self.assigned += 1
                hs = cell_houses[cell]
                for h in hs:
                    if placed[h] & m:
                        geo = self.red.geometry
                        return self.fail(f"{geo.cell_name(cell)}: {d} would repeat in "
                                         f"{geo.house_name(h)}")
                    placed[h] |= m
                for h in hs:
                    # A settled cell other than ``cell`` holding d would have failed the check
                    # above, so the hits are ``cell`` and the open cells that lose d.
                    for c in holders[h * n + d - 1]:
                        x = cand[c]
                        if c == cell or not x & m:
                            continue
                        x ^= m
                        cand[c] = x
                        if not x & (x - 1):
                            push(c)
                        for k in cell_houses[c]:  # c's houses have one place fewer for d
                            k = k * n + d - 1
                            places[k] -= 1
                            if places[k] < 2:
                                lose(k)
            while hidden and not queue:
                k = hidden.pop()
                if places[k] > 1 or placed[k // n] >> (k % n) & 1:
                    continue  # two places left after all, or the digit is placed
                if not self.hidden_single(k):
                    return False
        return True

    def fail(self, why: str) -> bool:
        """Name the contradiction in the reduction; False."""
        self.red.contradiction = why
        return False

    def hidden_single(self, k: int) -> bool:
        """Digit ``d0 + 1``, not placed in house ``h`` (``k = h * n + d0``), has fewer than two
        places left there: it goes to the one, or none is a contradiction."""
        h, d0 = divmod(k, self.n)
        bit = 1 << d0
        if not self.places[k]:
            return self.fail(f"{self.red.geometry.house_name(h)} has no place left for {d0 + 1}")
        cand, cells = self.cand, self.cells
        for c in self.holders[k]:
            x = cand[c]
            if x & bit and not cells[c]:
                if x != bit:
                    cand[c] = bit
                    self.lose_places(c, x ^ bit)  # c's other digits lose a place in its houses
                self.queue.append(c)
                return True
        return True


def _locked_pass(geo: Geometry, cells: list[int], cand: list[int], placed: list[int],
                 holders: list[list[int]], eliminate) -> int:
    """One pass of locked candidates over every (house, digit); returns how many pairs went
    (the rule of :func:`~satdoku.native.propagate.locked_by_segment`, module docstring).

    When the places of a digit in a house all lie in one other house, they lie in the segment
    where the two meet (:class:`~satdoku.model.geometry.Segment`), and the digit leaves the rest
    of the other house: a box's places in one line, *pointing*; a line's places in one box,
    *claiming*. The segment is found through the cells' houses rather than
    :attr:`Geometry.segments`, whose rests would hold millions of cells at 400 x 400.
    ``holders`` lists are compacted to their live cells on the way.
    """
    n = geo.size
    full = (1 << n) - 1
    cell_houses = geo.cell_houses
    removed = 0
    for h in range(3 * n):
        free = full & ~placed[h]
        # the other houses a box's places may share (its row, its column), or a line's (its box)
        kinds = (0, 1) if h >= 2 * n else (2,)
        while free:
            bit = free & -free
            free ^= bit
            d0 = bit.bit_length() - 1
            k = h * n + d0
            live = [c for c in holders[k] if cand[c] & bit and not cells[c]]
            holders[k] = live
            if len(live) < 2:
                continue  # a hidden single (or a contradiction) the singles loop sees
            for kind in kinds:
                other = cell_houses[live[0]][kind]
                if all(cell_houses[c][kind] == other for c in live):
                    for c in holders[other * n + d0]:
                        if cand[c] & bit and not cells[c] and h not in cell_houses[c]:
                            eliminate(c, bit, d0)
                            removed += 1
                    break
    return removed
