"""Random complete grids and puzzles cut from them, for property tests and experiments.

A complete grid comes from the standard pattern ``(box_cols * (row % box_rows) + row // box_rows
+ col) % N`` shuffled by moves that keep every house valid: relabel digits, permute rows within a
band (a row of boxes), bands, columns within a stack (a column of boxes), and stacks. That reaches
a large, though not uniform, sample of all grids; uniformity does not matter for tests.
"""

from __future__ import annotations

import random

from .geometry import Geometry
from .grid import Grid

__all__ = ["pattern_grid", "full_grid", "make_puzzle"]


def _shuffled_groups(groups: int, per_group: int, rng: random.Random) -> list[int]:
    """Indices ``0 .. groups*per_group-1`` with the groups shuffled and each group shuffled."""
    order = list(range(groups))
    rng.shuffle(order)
    result = []
    for g in order:
        inner = list(range(g * per_group, (g + 1) * per_group))
        rng.shuffle(inner)
        result.extend(inner)
    return result


def pattern_grid(geometry: Geometry) -> Grid:
    """The unshuffled pattern grid: each row the one above shifted by a box width (by one
    more at the start of a band). Deterministic, for tests.

    >>> from satdoku.geometry import geometry
    >>> pattern_grid(geometry(2, 2)).cells[:8]
    (1, 2, 3, 4, 3, 4, 1, 2)
    """
    r, c, n = geometry.box_rows, geometry.box_cols, geometry.size
    return Grid(geometry, tuple((c * (row % r) + row // r + col) % n + 1
                                for row in range(n) for col in range(n)))


def full_grid(geometry: Geometry, rng: random.Random) -> Grid:
    """A random valid complete grid of ``geometry``.

    >>> from satdoku.geometry import geometry
    >>> from satdoku.grid import is_solution
    >>> g = full_grid(geometry(2, 3), random.Random(1))
    >>> is_solution(g, g)
    True
    """
    r, c, n = geometry.box_rows, geometry.box_cols, geometry.size
    # A band is r rows (one row of boxes), there are c of them; a stack is c columns, r of them.
    rows = _shuffled_groups(c, r, rng)
    cols = _shuffled_groups(r, c, rng)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    cells = tuple(digits[(c * (row % r) + row // r + col) % n] for row in rows for col in cols)
    return Grid(geometry, cells)


def make_puzzle(full: Grid, rng: random.Random, holes: int) -> Grid:
    """``full`` with ``holes`` random cells emptied (all of them when ``holes`` is larger).

    >>> from satdoku.geometry import geometry
    >>> make_puzzle(full_grid(geometry(2, 2), random.Random(0)), random.Random(0), 10).nclues
    6
    """
    cells = list(full.cells)
    for cell in rng.sample(range(len(cells)), min(holes, len(cells))):
        cells[cell] = 0
    return Grid(full.geometry, tuple(cells))
