"""Candidate elimination before SAT: the givens, then naked and hidden singles, folded away.

Used by the reduced encoding (:func:`satdoku.cnf.reduced.reduced_formula`) for big grids, where the
full formula has about 2 N**4 clauses but the givens of real puzzles leave a few thousand
(cell, digit) pairs open. Every step is implied by the givens, so no solution is lost.

Glossary (adds to :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (bit ``d - 1`` for digit ``d``).
- settled: a cell whose digit is known before SAT: a given, or one that propagation assigned.

The passes are native search's (:mod:`satdoku.native.propagate`), on the board of the givens
every board starts from (:func:`~satdoku.native.board.fold_givens`): each house keeps the
positions where each digit may still go, so a placed digit costs the few open cells that held
it rather than its 3 N peers, which matters at 400 x 400 (docs/performance.md, "One board, one
pass"). What was tried against the hard 64x64 and 225x225 puzzles, and what it showed:
``docs/large-grids.md``.
"""

from __future__ import annotations

import itertools

from ..budget import check_size
from ..deadline import NO_DEADLINE, Deadline
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .board import fold_givens
from . import propagate as passes
from .tables import Timeout, need_boxes, tables

__all__ = ["Reduction", "reduce_candidates"]


@record
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
    :func:`~satdoku.native.propagate.locked_candidates`) runs, and singles resume if it removed
    anything. Raises
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
    p = passes.Propagation(tables(geo), locked=locked, deadline=deadline.at)
    p.begin(red.cand, placed)
    deadline.check()  # the tables and positions of a big grid take a while to build
    try:
        settled = passes.propagate(p)
    except Timeout:
        deadline.check()
        raise
    if not settled:
        red.contradiction = p.why()
        return red
    for cell, m in enumerate(red.cand):
        if not cells[cell] and not m & (m - 1):
            cells[cell] = m.bit_length()
            red.assigned += 1
    return red
