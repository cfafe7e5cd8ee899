"""Candidate elimination before SAT: the givens, then naked and hidden singles, folded away.

Used by the reduced encoding (:func:`satdoku.cnf.reduced.reduced_formula`) for big grids, where the
full formula has about 2 N**4 clauses but the givens of real puzzles leave a few thousand
(cell, digit) pairs open. Every step is implied by the givens, so no solution is lost.

Glossary (adds to :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (bit ``d - 1`` for digit ``d``).
- settled: a cell whose digit is known before SAT: a given, or one that propagation assigned.

Each house keeps a list of its open cells holding each digit (compacted as cells settle), so an
assignment costs the few open cells concerned rather than 3 N, which matters at 400 x 400.
Reusing :mod:`satdoku.native.search` would need its peer table (gigabytes at 400 x 400). What was tried
against the hard 64x64 and 225x225 puzzles, and what it showed: ``docs/large-grids.md``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..budget import check_size
from ..deadline import NO_DEADLINE, Deadline
from ..model.geometry import Geometry
from ..model.digits import bits
from ..model.grid import Grid

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
    n = geo.size
    full = (1 << n) - 1
    houses, cell_houses = geo.houses, geo.cell_houses
    cells = list(grid.cells)
    placed = [0] * (3 * n)
    for h, house in enumerate(houses):
        m = 0
        for d in map(cells.__getitem__, house):
            if d:
                m |= 1 << (d - 1)
        placed[h] = m
    cand = [0] * len(cells)
    queue: list[int] = []
    red = Reduction(geo, cells, cand)
    for cell, d in enumerate(cells):
        if d:
            cand[cell] = 1 << (d - 1)
            continue
        a, b, c = cell_houses[cell]
        m = full & ~(placed[a] | placed[b] | placed[c])
        cand[cell] = m
        if not m & (m - 1):
            queue.append(cell)
    if max_clauses is not None:
        pairs = sum(map(int.bit_count, itertools.compress(cand, [not d for d in cells])))
        check_size(4 * pairs, max_clauses, f"the reduced formula of this {n}x{n} puzzle",
                   at_least=True)
    if not propagate:
        for cell in queue:
            if not cand[cell]:
                red.contradiction = f"{geo.cell_name(cell)} has no candidate left"
                break
        return red
    # holders[h * n + d - 1]: the open cells of house h that had candidate d when propagation
    # started (later some lose it: look at cand). Walking these instead of whole houses keeps
    # the work per assignment to the few cells concerned; with 400-bit masks every ``&`` costs.
    # places[...]: how many of those still have d.
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
    places = list(map(len, holders))
    hidden = [h * n + d - 1 for h in range(3 * n) for d in bits(full & ~placed[h])]
    assigned = 0
    open_cells = sum(1 for d in cells if not d)

    def eliminate(c: int, bit: int, d0: int) -> None:
        """Take digit ``d0 + 1`` (``bit``) from open cell ``c``; queue what becomes single."""
        x = cand[c] ^ bit
        cand[c] = x
        if not x & (x - 1):
            queue.append(c)
        for k in cell_houses[c]:
            k = k * n + d0
            places[k] -= 1
            if places[k] < 2:
                hidden.append(k)

    while True:
        while queue or hidden:
            while queue:
                cell = queue.pop()
                if cells[cell]:
                    continue
                if not assigned & 0x3FF:
                    deadline.check()
                m = cand[cell]
                if not m:
                    red.contradiction = f"{geo.cell_name(cell)} has no candidate left"
                    return red
                d = m.bit_length()
                cells[cell] = d
                assigned += 1
                hs = cell_houses[cell]
                for h in hs:
                    if placed[h] & m:
                        red.contradiction = (f"{geo.cell_name(cell)}: {d} would repeat in "
                                             f"{geo.house_name(h)}")
                        return red
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
                            queue.append(c)
                        # c's houses have one place fewer for d
                        for k in cell_houses[c]:
                            k = k * n + d - 1
                            places[k] -= 1
                            if places[k] < 2:
                                hidden.append(k)
            while hidden and not queue:
                k = hidden.pop()
                h, d0 = divmod(k, n)
                bit = 1 << d0
                if placed[h] & bit or places[k] > 1:
                    continue
                if not places[k]:
                    red.contradiction = f"{geo.house_name(h)} has no place left for {d0 + 1}"
                    return red
                for c in holders[k]:
                    x = cand[c]
                    if x & bit and not cells[c]:
                        if x != bit:
                            cand[c] = bit
                            # c's other digits lose a place in each of c's houses
                            x ^= bit
                            while x:
                                low = x & -x
                                e = low.bit_length() - 1
                                for k2 in cell_houses[c]:
                                    k2 = k2 * n + e
                                    places[k2] -= 1
                                    if places[k2] < 2:
                                        hidden.append(k2)
                                x ^= low
                        queue.append(c)
                        break
        if not locked or assigned == open_cells or not _locked_pass(
                geo, cells, cand, placed, holders, eliminate):
            break
    red.assigned = assigned
    return red


def _locked_pass(geo: Geometry, cells: list[int], cand: list[int], placed: list[int],
                 holders: list[list[int]], eliminate) -> int:
    """One pass of locked candidates over every (house, digit); returns how many pairs went.

    Pointing: the places of a digit in a box all in one row (column) take it from the rest of
    that line. Claiming: its places in a line all in one box take it from the rest of the box.
    ``holders`` lists are compacted to their live cells on the way.
    """
    n = geo.size
    full = (1 << n) - 1
    cell_houses = geo.cell_houses
    removed = 0
    for h in range(3 * n):
        free = full & ~placed[h]
        is_box = h >= 2 * n
        while free:
            bit = free & -free
            free ^= bit
            d0 = bit.bit_length() - 1
            k = h * n + d0
            live = [c for c in holders[k] if cand[c] & bit and not cells[c]]
            holders[k] = live
            if len(live) < 2:
                continue  # a hidden single (or a contradiction) the singles loop sees
            if is_box:
                row, col = divmod(live[0], n)
                if all(c // n == row for c in live):
                    line = row
                elif all(c % n == col for c in live):
                    line = n + col
                else:
                    continue
                targets = [c for c in holders[line * n + d0] if cell_houses[c][2] != h]
            else:
                box = cell_houses[live[0]][2]
                if any(cell_houses[c][2] != box for c in live):
                    continue
                targets = [c for c in holders[box * n + d0] if h not in cell_houses[c]]
            for c in targets:
                if cand[c] & bit and not cells[c]:
                    eliminate(c, bit, d0)
                    removed += 1
    return removed
