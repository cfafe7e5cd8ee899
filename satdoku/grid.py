"""Grids: a geometry plus one digit per cell (0 empty), and the independent solution checker.

The checker belongs to neither solver: every answer, SAT or native, goes through
:func:`solution_problems` before anyone prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from .errors import PuzzleError
from .geometry import Geometry

__all__ = ["Grid", "find_clash", "check_givens", "is_solution", "solution_problems"]


@dataclass(frozen=True, eq=True)
class Grid:
    """An immutable N x N grid: ``cells[i]`` is the digit of cell ``i`` (1..N) or 0 for empty.

    >>> from satdoku.geometry import geometry
    >>> g = Grid(geometry(2, 2), (1, 0, 3, 0) + (0,) * 12)
    >>> g.size, g.nclues, list(g.givens())[:2]
    (4, 2, [(0, 1), (2, 3)])
    """

    geometry: Geometry
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != self.geometry.ncells:
            raise ValueError(f"{len(self.cells)} cells for a {self.geometry.size}x"
                             f"{self.geometry.size} grid")

    @classmethod
    def from_cells(cls, geometry: Geometry, cells: Sequence[int]) -> "Grid":
        """A grid from any sequence of digits (0 empty)."""
        return cls(geometry, tuple(cells))

    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def nclues(self) -> int:
        """How many cells are given."""
        return sum(1 for d in self.cells if d)

    def givens(self) -> Iterator[tuple[int, int]]:
        """(cell, digit) for every given cell, in cell order."""
        return ((cell, d) for cell, d in enumerate(self.cells) if d)

    def is_complete(self) -> bool:
        return all(self.cells)

    def differences(self, other: "Grid") -> list[int]:
        """Cells where this grid and ``other`` hold different digits."""
        return [i for i, (a, b) in enumerate(zip(self.cells, other.cells)) if a != b]

    def __hash__(self) -> int:
        return hash((self.geometry.shape, self.cells))


def find_clash(grid: Grid) -> tuple[int, int, int] | None:
    """The first (cell, earlier_cell, digit) where a given repeats a given in one of its houses.

    Cells are scanned in order, so the reported cell is the later of the two.
    """
    geo = grid.geometry
    seen: dict[tuple[int, int], int] = {}
    for cell, d in enumerate(grid.cells):
        if not d:
            continue
        for h in geo.cell_houses[cell]:
            earlier = seen.get((h, d))
            if earlier is not None:
                return cell, earlier, d
        for h in geo.cell_houses[cell]:
            seen[(h, d)] = cell
    return None


def check_givens(grid: Grid) -> None:
    """Raise :class:`PuzzleError` naming the cell when two givens clash or a digit is out of range.

    >>> from satdoku.geometry import geometry
    >>> check_givens(Grid(geometry(2, 2), (1, 1) + (0,) * 14))
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: r1c2: 1 repeats the given at r1c1
    """
    geo = grid.geometry
    for cell, d in enumerate(grid.cells):
        if not 0 <= d <= geo.size:
            raise PuzzleError(f"{d} is not a digit of a {geo.size}x{geo.size} grid",
                              cell=geo.cell_name(cell))
    clash = find_clash(grid)
    if clash:
        cell, earlier, d = clash
        raise PuzzleError(f"{d} repeats the given at {geo.cell_name(earlier)}",
                          cell=geo.cell_name(cell))


def solution_problems(solution: Grid, puzzle: Grid) -> list[str]:
    """Everything wrong with ``solution`` as an answer to ``puzzle`` (empty when it is right).

    Checked from scratch: same geometry, every cell filled with a digit 1..N, every house holds
    each digit once, and every given of the puzzle kept.
    """
    geo = puzzle.geometry
    if solution.geometry is not geo:
        return [f"solution is {solution.geometry.shape}, puzzle is {geo.shape}"]
    problems = []
    n = geo.size
    for cell, d in enumerate(solution.cells):
        if not 1 <= d <= n:
            problems.append(f"{geo.cell_name(cell)}: {d} is not a digit 1..{n}")
    if problems:
        return problems
    full = set(range(1, n + 1))
    for h, house in enumerate(geo.houses):
        digits = {solution.cells[c] for c in house}
        if digits != full:
            missing = sorted(full - digits)
            problems.append(f"{geo.house_name(h)} lacks {', '.join(map(str, missing))}")
    for cell, d in puzzle.givens():
        if solution.cells[cell] != d:
            problems.append(f"{geo.cell_name(cell)}: given {d} changed to {solution.cells[cell]}")
    return problems


def is_solution(solution: Grid, puzzle: Grid) -> bool:
    """True when ``solution`` is a complete, valid grid that keeps every given of ``puzzle``."""
    return not solution_problems(solution, puzzle)
