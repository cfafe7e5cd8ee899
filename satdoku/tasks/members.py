"""Members of a puzzle, the words cores and fixes speak in: its givens and its rules.

A member is ``("given", cell)`` or ``("rule", index into the puzzle's constraints)``
(:mod:`satdoku.tasks.explain`, :mod:`satdoku.tasks.disambiguate`), and which of them a unique
puzzle could do without (:func:`redundant_members`).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..deadline import Deadline, TimeUp
from ..errors import InternalError
from ..model.grid import Grid

__all__ = ["Member", "puzzle_members", "puzzle_subset", "redundant_members", "describe_member"]

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


def describe_member(grid: Grid, constraints: tuple, member: Member, alphabet: Any = None) -> str:
    """``'r1c6=5'`` for a given (its digit in ``alphabet``, default by size), the rule's name
    (``'killer cage r1c1-r2c1 = 9'``) for a rule."""
    from ..model.alphabet import alphabet_for
    geo = grid.geometry
    kind, index = member
    if kind == "rule":
        return constraints[index].describe(geo)
    alphabet = alphabet or alphabet_for(geo.size, geo.low)
    return f"{geo.cell_name(index)}={alphabet.symbol(grid.cells[index])}"


def puzzle_members(grid: Grid, constraints: tuple) -> list[Member]:
    """Every member of a puzzle: its givens, then its rules."""
    return [("given", c) for c, _ in grid.givens()] + [("rule", i)
                                                          for i in range(len(constraints))]


def redundant_members(solver: Any, grid: Grid, constraints: tuple = (), *,
                      deadline: Deadline | None = None, kept: bool = True,
                      ) -> tuple[list[Member], list[Member], int]:
    """For a unique puzzle: the members that could each be removed alone with the puzzle
    still unique, a minimal set of members that still gives exactly one solution (found
    greedily; without ``kept``, all of them), and the SAT calls it took (each a count to 2 by
    ``solver``, a :class:`~satdoku.sat.solver.SatSolver`, verified).

    Raises :class:`~satdoku.deadline.TimeUp` when ``deadline`` passes.
    """
    calls = 0

    def unique(members: list[Member]) -> bool:
        nonlocal calls
        calls += 1
        subset, rules = puzzle_subset(grid, constraints, members)
        from .solvers import solve
        result = solve(solver, subset, limit=2, deadline=deadline, constraints=rules)
        if result.status == "timeout":
            raise TimeUp
        if result.status not in ("unique", "multiple"):
            raise InternalError(f"{solver.name} said {result.status} for a subset of a "
                                f"puzzle with a solution")
        return result.status == "unique"

    members = puzzle_members(grid, constraints)
    removable = [m for m in members if unique([x for x in members if x != m])]
    least = list(members)
    for member in removable if kept else ():  # only one removable alone can go from fewer
        trial = [x for x in least if x != member]
        if unique(trial):
            least = trial
    return removable, least, calls
