"""The reduced encoding: variables only for the pairs a puzzle's givens and singles leave open.

The givens, then naked and hidden singles (:mod:`satdoku.native.reduce`), settle what they
can; only the (cell, digit) pairs left open get variables, numbered densely ``1 .. V`` cell by
cell (:class:`~satdoku.cnf.varmap.ReducedMap`). It is what makes 64x64 to 400x400 grids
possible: the full formula has about 2 N**4 clauses. Measurements: ``docs/large-grids.md``.
"""

from __future__ import annotations

import itertools
import time
from array import array

from ..budget import DEFAULT_MAX_CLAUSES, check_size
from ..deadline import NO_DEADLINE, Deadline
from ..model.digits import bits
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..native.reduce import reduce_candidates
from ..records import field, record
from .encodings import (DEFAULT_REDUCED_AMO, PAIRWISE_MAX, Pool, amo_clauses, amo_size,
                        check_amo)
from .varmap import ReducedMap

__all__ = ["ReducedFormula", "reduced_formula"]

Clause = list[int]


@record
class ReducedFormula:
    """A CNF over the open pairs of one puzzle (see the module docstring).

    ``var_cell[v - 1]`` and ``var_digit[v - 1]`` give the pair of variable ``v`` for
    ``v = 1 .. nmapped``; variables ``nmapped + 1 .. nvars`` are auxiliary (cardinality
    encodings). ``settled`` holds the digits known before SAT (0 for open cells);
    ``eliminated`` counts the pairs of the N**3 that got no variable and are not settled.
    When the reduction proves the puzzle unsolvable, ``clauses`` is one empty clause and
    ``contradiction`` says why; when it settles every cell there are no variables.
    """

    geometry: Geometry
    amo: str
    nvars: int
    nmapped: int
    clauses: list[Clause]
    var_cell: array
    var_digit: array
    settled: list[int]
    eliminated: int
    assigned: int
    propagated: bool
    contradiction: str | None = None
    stats: dict = field(default_factory=dict)
    encoding = "reduced"
    parts: list[tuple[str, int, int]] = field(default_factory=list)  # rules: see Formula

    def __post_init__(self) -> None:
        self.varmap = ReducedMap(self.geometry, self.var_cell, self.var_digit, self.settled)

    def pair(self, v: int) -> tuple[int, int]:
        """(cell, digit) of mapped variable ``v``."""
        return self.varmap.pair(v)

    def lit(self, cell: int, d: int) -> int | bool:
        """The variable of (cell, d), or True / False when the reduction decided it."""
        return self.varmap.lit(cell, d)


def reduced_formula(grid: Grid, amo: str = DEFAULT_REDUCED_AMO, propagate: bool = True,
                    pairwise_max: int = PAIRWISE_MAX, locked: bool = False, *,
                    max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                    deadline: Deadline = NO_DEADLINE) -> ReducedFormula:
    """The reduced CNF of ``grid``: variables only for open pairs, clues folded away.

    Args:
        grid: the puzzle (givens already checked for clashes).
        amo: the cardinality encoding for at-most-one lists longer than ``pairwise_max``
            (``'pairwise'`` makes every list pairwise).
        propagate: apply naked and hidden singles before encoding
            (:func:`satdoku.native.reduce.reduce_candidates`).
        pairwise_max: the longest at-most-one list written pairwise.
        locked: with ``propagate``, also apply locked candidates.
        max_clauses: refuse (:class:`TooBigError`) a formula with more clauses; the size is
            known exactly once the reduction is done, before any clause is built.
        deadline: stop (:class:`~satdoku.deadline.TimeUp`) when it passes.

    >>> from satdoku.model.geometry import geometry
    >>> f = reduced_formula(Grid(geometry(1, 2), (1, 0, 0, 0)), propagate=False)
    >>> f.nmapped, f.eliminated, [f.pair(v) for v in range(1, 5)]
    (4, 3, [(1, 2), (2, 2), (3, 1), (3, 2)])
    """
    check_amo(amo)
    t0 = time.perf_counter()
    red = reduce_candidates(grid, propagate, locked, deadline=deadline,
                            max_clauses=max_clauses)
    t1 = time.perf_counter()
    geo = grid.geometry
    n = geo.size
    cells, cand = red.cells, red.cand
    if red.contradiction is not None:
        return ReducedFormula(geo, amo, 0, 0, [[]], array("i"), array("i"), cells, n ** 3,
                              red.assigned, propagate, red.contradiction,
                              {"propagate_ms": (t1 - t0) * 1000})
    var_cell, var_digit, cell_groups, house_lits = _open_pairs(geo, cells, cand, deadline)
    nmapped = len(var_cell)
    clauses, nvars = _clauses(n, cell_groups, house_lits, amo, pairwise_max, max_clauses,
                              deadline)
    # Without propagation a house-digit with no open place and no settled cell, or an open
    # cell without candidates, is a contradiction the clauses alone would not show.
    contradiction = None if propagate else _unplaceable(geo, cells, cand, house_lits)
    if contradiction:
        clauses.append([])
    settled_pairs = sum(1 for d in cells if d)
    t2 = time.perf_counter()
    return ReducedFormula(geo, amo, max(nmapped, nvars), nmapped, clauses, var_cell,
                          var_digit, cells, n ** 3 - nmapped - settled_pairs, red.assigned,
                          propagate, contradiction,
                          {"propagate_ms": (t1 - t0) * 1000, "clauses_ms": (t2 - t1) * 1000})


def _open_pairs(geo: Geometry, cells: list[int], cand: list[int], deadline: Deadline
                ) -> tuple[array, array, list[range], dict[int, list[int]]]:
    """The variable map of the open pairs (cell by cell, digits increasing): each variable's
    cell and digit, each open cell's variables, and ``house_lits[h * n + d - 1]``, the
    variables of digit d in the open cells of house h, in order."""
    n = geo.size
    var_cell, var_digit = array("i"), array("i")
    cell_groups: list[range] = []
    house_lits: dict[int, list[int]] = {}
    get = house_lits.get
    cell_houses = geo.cell_houses
    v = 0
    for cell, d in enumerate(cells):
        if d:
            continue
        digits = bits(cand[cell])
        lits = range(v + 1, v + 1 + len(digits))
        v += len(digits)
        var_cell.extend([cell] * len(digits))
        var_digit.extend(digits)
        cell_groups.append(lits)
        a, b, c = cell_houses[cell]
        for lit, dd in zip(lits, digits):
            for key in (a * n + dd - 1, b * n + dd - 1, c * n + dd - 1):
                lst = get(key)
                if lst is None:
                    house_lits[key] = [lit]
                else:
                    lst.append(lit)
        if not v & 0xFFF:
            deadline.check()
    return var_cell, var_digit, cell_groups, house_lits


def _clauses(n: int, cell_groups: list[range], house_lits: dict[int, list[int]], amo: str,
             pairwise_max: int, max_clauses: int | None, deadline: Deadline
             ) -> tuple[list[Clause], int]:
    """The clauses (each open cell and each house-digit exactly once) and the highest
    variable, refused before they are built when over ``max_clauses``."""
    nmapped = sum(len(g) for g in cell_groups)

    def list_size(k: int) -> int:
        return amo_size(k, "pairwise" if k <= pairwise_max else amo)

    size = (len(cell_groups) + len(house_lits)
            + sum(list_size(len(g)) for g in cell_groups)
            + sum(list_size(len(g)) for g in house_lits.values()))
    check_size(size, max_clauses, f"the reduced formula of this {n}x{n} puzzle")
    pool = Pool(start_from=nmapped + 1)
    long_amo = amo_clauses(amo, pool)
    pairwise = amo_clauses("pairwise", pool)
    clauses: list[Clause] = [list(lits) for lits in cell_groups]
    for k, lits in enumerate(itertools.chain(cell_groups, house_lits.values())):
        if k >= len(cell_groups):  # a house's list (its own object: kept, not copied)
            clauses.append(lits)  # type: ignore[arg-type]
        if len(lits) > 1:
            clauses.extend(pairwise(lits) if len(lits) <= pairwise_max else long_amo(lits))
        if not k & 0x3FF:
            deadline.check()
    return clauses, pool.top


def _unplaceable(geo: Geometry, cells: list[int], cand: list[int],
                 house_lits: dict[int, list[int]]) -> str | None:
    """What makes an unpropagated reduction unsolvable at once, or None."""
    n = geo.size
    placed = [0] * (3 * n)
    for cell, d in enumerate(cells):
        if d:
            for h in geo.cell_houses[cell]:
                placed[h] |= 1 << (d - 1)
    for h in range(3 * n):
        for d in bits(((1 << n) - 1) & ~placed[h]):
            if (h * n + d - 1) not in house_lits:
                return f"{geo.house_name(h)} has no place left for {d}"
    for cell, d in enumerate(cells):
        if not d and not cand[cell]:
            return f"{geo.cell_name(cell)} has no candidate left"
    return None
