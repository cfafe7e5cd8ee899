"""Grids: a geometry plus one digit per cell (0 empty), and the independent solution checker.

The checker belongs to neither solver: every answer, SAT or native, goes through
:func:`solution_problems` before anyone prints it.
"""

from __future__ import annotations

import functools
import itertools
import operator

from ..errors import PuzzleError
from ..records import record
from .geometry import Geometry

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, ClassVar, Iterator, Protocol, Sequence

if not TYPE_CHECKING:  # at run time a protocol is a plain class
    Protocol = object

__all__ = ["Grid", "Rule", "pack_cells", "unpack_grid", "find_clash", "check_givens", "clash_free", "is_solution",
           "solution_problems", "solutions_right"]


@record(frozen=True, eq=True)
class Grid:
    """An immutable N x N grid: ``cells[i]`` is the digit of cell ``i`` (1..N) or 0 for empty.

    >>> from satdoku.model.geometry import geometry
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

    def __repr__(self) -> str:
        """A summary line, then the grid as rows (:mod:`satdoku.model.display`)."""
        from .display import text_of
        n = self.size
        rows = text_of(self)
        return f"<Grid {n}x{n}, {self.nclues} given>" + (f"\n{rows}" if rows else "")

    def _repr_svg_(self) -> str | None:
        """The grid as a picture, for Jupyter."""
        from .display import svg_of
        return svg_of(self)


def pack_cells(cells: tuple[int, ...] | None, size: int) -> bytes | list[int] | None:
    """Digits in few bytes for another process (None stays None).

    >>> pack_cells((1, 2, 0), 4)
    b'\\x01\\x02\\x00'
    """
    if cells is None:
        return None
    return bytes(cells) if size < 256 else list(cells)


def unpack_grid(geometry: Geometry, data: bytes | list[int] | None) -> Grid | None:
    """The grid :func:`pack_cells` packed."""
    return None if data is None else Grid(geometry, tuple(data))


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

    >>> from satdoku.model.geometry import geometry
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
        raise PuzzleError(f"{geo.value(d)} repeats the given at {geo.cell_name(earlier)}",
                          cell=geo.cell_name(cell))


def clash_free(grid: Grid) -> bool:
    """True when no two givens share a house: :func:`check_givens` would pass.

    :func:`check_givens` names the clashing cells and costs about ten times as much (a 9x9
    takes ~80 us); only a grid that fails here goes through it, for its message.
    """
    geo, cells = grid.geometry, grid.cells
    cell_houses, stride = geo.cell_houses, geo.size + 1
    keys = {h * stride + cells[cell]
            for cell in itertools.compress(range(geo.ncells), cells) for h in cell_houses[cell]}
    given = geo.ncells - cells.count(0)
    if geo.extra:  # cells outside the grid are in no house
        given -= len(geo.extra) - cells[geo.ngrid:].count(0)
    return len(keys) == len(cell_houses[0]) * given


#: Grids up to this size get the table of :func:`_house_sums` (a 16x16 table is ~1 MB).
_HOUSE_SUMS_MAX_SIZE = 16


@functools.lru_cache(maxsize=8)
def _house_sums(geo: Geometry) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``(terms, target)``: a right grid is one whose ``sum(map(getitem, terms, cells))`` is
    ``target``.

    House h owns a slot of ``w`` bits in one big int; digit d in a cell adds ``1 << d`` to the
    slots of the cell's three houses (``terms[cell][d]`` is that sum, precomputed). A slot sums
    N powers of two from ``2**1 .. 2**N``; it equals ``2 + 4 + ... + 2**N`` only when the N digits
    are 1..N once each, since binary is the one way to write a number with that few powers of
    two. Slots are wide enough never to carry into each other, so the whole sum is ``target``
    exactly when every house is right. Digits 0 and N+1 add a bit above every slot, so they miss
    the target; larger ones raise IndexError (negative ones are the caller's to refuse).
    """
    n = geo.size
    w = n + 1 + n.bit_length()  # n * 2**n < 2**w: a slot never carries
    poison = 1 << (w * len(geo.houses))
    terms = tuple(
        (poison,) + tuple(sum(1 << (w * h + d) for h in houses) for d in range(1, n + 1))
        + (poison,)
        for houses in geo.cell_houses)
    full = sum(1 << d for d in range(1, n + 1))
    target = sum(full << (w * h) for h in range(len(geo.houses)))
    return terms, target


def _solution_ok(solution: Grid, puzzle: Grid) -> bool:
    """True when ``solution`` is right for ``puzzle``: the common case, in C-level loops.

    Same verdict as the house-by-house check of :func:`solution_problems`, which explains what
    is wrong only when this says False.
    """
    cells, given = solution.cells, puzzle.cells
    if list(itertools.compress(cells, given)) != list(filter(None, given)):
        return False
    geo = solution.geometry  # the puzzle's, or one that refines it
    if geo.size > _HOUSE_SUMS_MAX_SIZE or not geo.is_plain:
        n = geo.size
        if min(cells) < 1 or max(cells) > n:
            return False
        return all(len(set(map(cells.__getitem__, house))) == len(house)
                   for house in geo.houses)
    terms, target = _house_sums(geo)
    try:
        # bytes() refuses anything but 0..255, so no negative digit indexes from the end
        return sum(map(operator.getitem, terms, bytes(cells))) == target
    except (IndexError, TypeError, ValueError):  # not a digit at all
        return False


class Rule(Protocol):
    """A variant rule as the model meets it (the rules themselves are :mod:`satdoku.rules`,
    a layer above): a type name, a description, a check of a finished grid that lists
    what the grid breaks, the pruning of candidates the native solver asks of it
    (``prune(cand)``: :class:`satdoku.native.propagate.Constraint`), and its object in the
    satdoku variant format (``to_json``)."""

    type: ClassVar[str]

    def describe(self, geometry: Geometry) -> str: ...

    def check(self, grid: Grid) -> list[str]: ...

    def bind(self, rules: "Sequence[Rule]") -> "Rule": ...

    def prune(self, cand: list[int]) -> list[int] | None: ...

    def to_json(self, geometry: Geometry) -> dict[str, Any]: ...


def solution_problems(solution: Grid, puzzle: Grid,
                      constraints: tuple[Rule, ...] = ()) -> list[str]:
    """Everything wrong with ``solution`` as an answer to ``puzzle`` (empty when it is right).

    Checked from scratch: same geometry (or regions found for a grid without boxes:
    :meth:`~satdoku.model.geometry.Geometry.refines`; the houses checked are the solution's),
    every cell filled with a digit 1..N, every house holds each digit once (one of fewer cells
    than digits, in a grid of other shape, holds distinct digits), and every given of the
    puzzle kept. A fast check (:func:`_solution_ok`)
    passes right answers; a wrong one is then gone through house by house, for the messages.
    Then each of ``constraints`` (variant rules) checks the grid itself, when it is a grid of
    the puzzle's shape filled with digits 1..N (what a rule's check reads).
    """
    problems = _grid_problems(solution, puzzle)
    if constraints and solution.geometry.refines(puzzle.geometry) and (
            not problems or all(1 <= d <= puzzle.size for d in solution.cells)):
        for constraint in constraints:
            problems += constraint.check(solution)
    return problems


def _grid_problems(solution: Grid, puzzle: Grid) -> list[str]:
    """:func:`solution_problems` without the variant rules."""
    if not solution.geometry.refines(puzzle.geometry):
        return [f"solution is {solution.geometry.shape}, puzzle is {puzzle.geometry.shape}"]
    geo = solution.geometry
    if _solution_ok(solution, puzzle):
        return []
    problems = []
    n = geo.size
    for cell, d in enumerate(solution.cells):
        if not 1 <= d <= n:
            problems.append(f"{geo.cell_name(cell)}: {d} is not a digit 1..{n}")
    if problems:
        return problems
    value = geo.value
    full = set(range(1, n + 1))
    for h, house in enumerate(geo.houses):
        digits = [solution.cells[c] for c in house]
        if len(house) == n and set(digits) != full:
            lacking = ", ".join(str(value(d)) for d in sorted(full - set(digits)))
            problems.append(f"{geo.house_name(h)} lacks {lacking}")
        elif len(set(digits)) < len(digits):  # a house of fewer cells than digits
            twice = sorted({d for d in digits if digits.count(d) > 1})
            repeated = ", ".join(str(value(d)) for d in twice)
            problems.append(f"{geo.house_name(h)} repeats {repeated}")
    for cell, d in puzzle.givens():
        if solution.cells[cell] != d:
            problems.append(f"{geo.cell_name(cell)}: given {value(d)} changed to "
                            f"{value(solution.cells[cell])}")
    return problems


def solutions_right(solutions: Sequence[Grid], puzzles: Sequence[Grid]) -> bool:
    """True when every one of ``solutions`` is right for its puzzle, checked all at once: then
    :func:`solution_problems` finds nothing wrong with any of them (no variant rules). False
    when one is wrong, or the batch is not one this check takes (mixed or other-shaped
    geometries, more than 16 digits): check each then, for its messages.

    The batch form of :func:`_solution_ok`, for the batch pass's settled puzzles: a digit of
    every grid is a byte, so one Python int holds a cell across the batch, a byte a grid, and
    ``+`` adds the grids' bytes side by side. A byte counts two digits, one a nibble (one
    below 16 x 16, where a house's 16 cells could carry a nibble over), so a house's sum of
    them stays within its byte. Every house holds each digit once exactly when, for each
    (house, pair of digits), that sum is 0x11 in every grid; the givens are kept when the
    solutions, masked by where the puzzles have givens, are the puzzles.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(2, 2)
    >>> right = Grid(g, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
    >>> puzzle = Grid(g, (1,) + (0,) * 15)
    >>> solutions_right([right, right], [puzzle, puzzle])
    True
    >>> solutions_right([right, Grid(g, (2, 1) + right.cells[2:])], [puzzle, puzzle])
    False
    """
    if not solutions or len(solutions) != len(puzzles):
        return not solutions and not puzzles
    geo = puzzles[0].geometry
    if geo.size > _HOUSE_SUMS_MAX_SIZE or not geo.is_plain or \
            any(g.geometry is not geo for g in itertools.chain(solutions, puzzles)):
        return False
    ncells, k = geo.ncells, len(solutions)
    try:  # bytes() refuses anything but 0..255
        solved = b"".join([bytes(s.cells) for s in solutions])
        given = b"".join([bytes(p.cells) for p in puzzles])
    except (TypeError, ValueError):
        return False
    if len(solved) != k * ncells or len(given) != k * ncells:
        return False
    keep = given.translate(_NONZERO)  # 0xff under a given, 0 elsewhere
    if int.from_bytes(solved, "little") & int.from_bytes(keep, "little") != \
            int.from_bytes(given, "little"):
        return False
    columns = [solved[cell::ncells] for cell in range(ncells)]
    for table, each in _counting(geo.size):
        target = int.from_bytes(each * k, "little")
        counts = [int.from_bytes(column.translate(table), "little") for column in columns]
        for house in geo.houses:
            if sum(map(counts.__getitem__, house)) != target:
                return False
    return True


_NONZERO = bytes([0] + [255] * 255)


@functools.lru_cache(maxsize=4)
def _counting(n: int) -> tuple[tuple[bytes, bytes], ...]:
    """``(table, each)`` for each group of digits a byte counts (see :func:`solutions_right`):
    the table turns a digit into its count's place (1 or 0x10, 0 for another digit), and
    ``each`` is the byte a house of digits 1..n sums to."""
    per_byte = 2 if n < 16 else 1
    out = []
    for first in range(1, n + 1, per_byte):
        group = range(first, min(first + per_byte, n + 1))
        table = bytes(sum(16 ** i for i, d in enumerate(group) if v == d) for v in range(256))
        out.append((table, bytes([sum(16 ** i for i in range(len(group)))])))
    return tuple(out)


def is_solution(solution: Grid, puzzle: Grid) -> bool:
    """True when ``solution`` is a complete, valid grid that keeps every given of ``puzzle``."""
    return not solution_problems(solution, puzzle)
