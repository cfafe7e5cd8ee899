"""Members of a puzzle, the words cores and fixes speak in: its givens and its rules.

A member is ``("given", cell)`` or ``("rule", index into the puzzle's constraints)``
(:mod:`satdoku.tasks.explain`, :mod:`satdoku.tasks.disambiguate`).
"""

from __future__ import annotations

from typing import Iterable

from ..model.grid import Grid

__all__ = ["Member", "puzzle_members", "puzzle_subset"]

#: A member: ``("given", cell)`` or ``("rule", index into the puzzle's constraints)``.
Member = tuple[str, int]


def puzzle_subset(grid: Grid, constraints: tuple,
                  members: Iterable[Member]) -> tuple[Grid, tuple]:
    """The puzzle with only ``members``: those givens and those rules."""
    cells, rules = set(), []
    for kind, index in members:
        if kind == "given":
            cells.add(index)
        else:
            rules.append(index)
    digits = tuple(d if i in cells else 0 for i, d in enumerate(grid.cells))
    return Grid(grid.geometry, digits), tuple(constraints[i] for i in sorted(rules))


def puzzle_members(grid: Grid, constraints: tuple) -> list[Member]:
    """Every member of a puzzle: its givens, then its rules."""
    return [("given", c) for c, _ in grid.givens()] + [("rule", i)
                                                          for i in range(len(constraints))]
