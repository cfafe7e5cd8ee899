"""Clues outside the grid from sigh's Interactive Sudoku Solver: ``numbered-room``,
``hidden-skyscraper``, ``full-rank`` and the option ``full-rank-ties``.

Each reads its row or column from the clue's side (``from``: ``start`` is the left of a row
or the top of a column), as :mod:`.outside` does.

Glossary (full rank): an *entry* is a row or column read as a number from one end: 4N of
them. An entry's *rank* is 1 + how many entries are smaller (ties share a rank). *Ties*: two
entries with the same digits; ``full-rank-ties`` says which may tie: ``none`` (no two entries
anywhere, clued or not), ``only-unclued`` (the default: a clued entry ties with nothing) or
``any``.

Encodings: a numbered room is one clause per first digit k (``first = k -> k-th cell =
clue``). A hidden skyscraper chooses the position of its first hidden cell: the cells before
it never decrease, the one just before it is above the clue, and it holds the clue. A full-rank
clue compares its entry with every other one, digit by digit, from order literals "cell <=
d" (:func:`compare`), and counts the smaller ones (:func:`.tallies.count_in`).
"""

from __future__ import annotations

import functools
import itertools
from typing import Sequence

from ..model.geometry import Geometry
from ..model.grid import Grid, Rule
from ..records import record, replace
from .base import Clause, Constraint, GlobalRule, digits_of, line_cells, sees
from .fields import Choice, Int, LineName
from .outside import _FROM, _Outside
from .tallies import count_in

__all__ = ["NumberedRoom", "HiddenSkyscraper", "FullRank", "FullRankTies", "entries",
           "compare"]

TIES = ("none", "only-unclued", "any")


@record(frozen=True)
class NumberedRoom(_Outside):
    """``numbered-room``: the clue is the digit in the X-th cell from its side, X being the
    first digit (sigh's Numbered Room).

    >>> from satdoku.model.geometry import geometry
    >>> NumberedRoom(geometry(2, 2), "r1", "start", 4).holds((3, 1, 4, 2))
    True
    """

    type = "numbered-room"
    any_shape = True
    geometry: Geometry
    line: str
    side: str = "start"
    digit: int = 1
    number, key = "digit", "digit"
    fields = (LineName("line", doc="the row or column"), _FROM,
              Int("digit", low=1, high="size", doc="the digit in the X-th cell"))

    def encode(self, ctx) -> list[Clause]:
        """X past the line's cells (more digits than a row has cells) is no room (sigh)."""
        cells = self.cells
        return [[-ctx.var(cells[0], k), ctx.var(cells[k - 1], self.digit)]
                if k <= len(cells) else [-ctx.var(cells[0], k)] for k in range(1, ctx.size + 1)]

    def clause_estimate(self, geometry: Geometry) -> int:
        return geometry.size

    def holds(self, digits: tuple[int, ...]) -> bool:
        return 1 <= digits[0] <= len(digits) and digits[digits[0] - 1] == self.digit


@record(frozen=True)
class HiddenSkyscraper(_Outside):
    """``hidden-skyscraper``: seen from the clue's side (a digit hides every smaller one
    behind it), the first hidden digit is the clue (sigh's Hidden Skyscraper).

    >>> from satdoku.model.geometry import geometry
    >>> HiddenSkyscraper(geometry(2, 2), "r1", "start", 2).holds((1, 3, 2, 4))
    True
    """

    type = "hidden-skyscraper"
    any_values = True
    geometry: Geometry
    line: str
    side: str = "start"
    digit: int = 1
    number, key = "digit", "digit"
    fields = (LineName("line", doc="the row or column"), _FROM,
              Int("digit", doc="the first hidden digit (a value of the grid: 0..8 on 0-8)"))

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        if not geometry.low <= values["digit"] <= geometry.high:
            raise ValueError(f"'digit' must be {geometry.low}..{geometry.high}, not "
                             f"{values['digit']}")

    def encode(self, ctx) -> list[Clause]:  # (the clue as a digit: value 0 is digit 1)
        cells, v, n = self.cells, self.digit - ctx.geometry.low + 1, ctx.size
        var = ctx.var
        clauses: list[Clause] = []
        rising = []  # rising[i]: cells[i] <= cells[i + 1], not hidden (one way suffices)
        for a, b in zip(cells, cells[1:-1]):
            up = ctx.fresh()
            rising.append(up)
            clauses += [[-up, -var(a, d)] + [var(b, e) for e in range(d, n + 1)]
                        for d in range(1, n + 1)]
        chosen = []  # chosen[k - 1]: cells[k] is the first hidden one
        for k in range(1, len(cells)):
            s = ctx.fresh()
            chosen.append(s)
            clauses += [[-s, var(cells[k], v)],
                        [-s] + [var(cells[k - 1], d) for d in range(v + 1, n + 1)]]
            clauses += [[-s, up] for up in rising[:k - 1]]
        return clauses + [chosen]

    def clause_estimate(self, geometry: Geometry) -> int:
        n, k = geometry.size, geometry.size
        return (k - 2) * n + (k - 1) * 2 + (k - 1) * (k - 2) // 2 + 1

    def holds(self, digits: tuple[int, ...]) -> bool:
        top = digits[0]
        for d in digits[1:]:
            if d < top:
                return d == self.digit
            top = d
        return False

    def draw(self, canvas) -> None:
        """The digit outside the grid between bars, ``|3|``, as sigh writes it."""
        row = self.line[0] == "r"
        end = self.side == "end"
        side = ("right" if end else "left") if row else ("bottom" if end else "top")
        canvas.outside(side, int(self.line[1:]) - 1, f"|{self.digit}|")


@functools.lru_cache(maxsize=None)
def entries(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """Every row and column read from both ends (4N entries): rows from the left, then from
    the right, then columns from the top and from the bottom."""
    n = geometry.size
    out = []
    for kind in "rc":
        for side in ("start", "end"):
            out += [line_cells(geometry, f"{kind}{i}", side) for i in range(1, n + 1)]
    return tuple(out)


def _order(ctx, cell: int, cache: dict) -> list[int]:
    """``le[d]``: "``cell`` <= d" for d = 0..N (``le[0]`` false, ``le[N]`` true, as fixed
    literals), made once per cell of an encoding."""
    if cell not in cache:
        n = ctx.size
        t = ctx.fresh()
        clauses: list[Clause] = [[t]]
        le = [-t]
        for d in range(1, n):
            x = ctx.var(cell, d)
            v = ctx.fresh()
            clauses += [[-le[-1], v], [-x, v], [-v, le[-1], x]]
            le.append(v)
        le.append(t)
        cache[cell] = (le, clauses)
        return le
    return cache[cell][0]


def compare(ctx, a: Sequence[int], b: Sequence[int], cache: dict
            ) -> tuple[int, int, list[Clause]]:
    """Literals "``a`` reads a smaller number than ``b``" and "they read the same", with
    their clauses (exact both ways); ``cache`` keeps each cell's order literals."""
    clauses: list[Clause] = []
    equal = None  # the digits so far are equal (None: no digit yet, true)
    less = ctx.fresh()
    found = []  # found[j]: equal before j and a[j] < b[j]
    for x, y in zip(a, b):
        lx, ly = _order(ctx, x, cache), _order(ctx, y, cache)
        lt, eq = ctx.fresh(), ctx.fresh()
        for d in range(1, ctx.size + 1):
            vx, vy = ctx.var(x, d), ctx.var(y, d)
            clauses += [[-lt, -vx, -ly[d]], [lt, -vx, ly[d]],  # lt <-> x < y
                        [-eq, -vx, vy], [eq, -vx, -vy]]        # eq <-> x == y
        here = lt if equal is None else ctx.fresh()
        if equal is not None:
            clauses += [[-here, equal], [-here, lt], [here, -equal, -lt]]
            both = ctx.fresh()
            clauses += [[-both, equal], [-both, eq], [both, -equal, -eq]]
            equal = both
        else:
            equal = eq
        found.append(here)
    if equal is None:
        raise ValueError("no digits to compare")
    clauses += [[-less] + found] + [[-f, less] for f in found]
    for cell in dict.fromkeys(list(a) + list(b)):
        clauses += cache[cell][1]
        cache[cell] = (cache[cell][0], [])  # written once
    return less, equal, clauses


def _prune_last(rule: Constraint, cand: list[int], most: int = 2) -> list[int] | None:
    """With at most ``most`` cells of the grid left open, keep each open digit that some
    completion the rule's check passes uses (None: no completion passes); with more open,
    nothing."""
    open_cells = [c for c, m in enumerate(cand) if m & (m - 1)]
    if len(open_cells) > most or any(not m for m in cand):
        return [] if len(open_cells) > most else None
    geometry = rule.geometry  # type: ignore[attr-defined]
    digits = [m.bit_length() for m in cand]
    seen = [0] * len(open_cells)
    for choice in itertools.product(*(digits_of(cand[c]) for c in open_cells)):
        for c, d in zip(open_cells, choice):
            digits[c] = d
        if not rule.check(Grid(geometry, tuple(digits))):
            for i, d in enumerate(choice):
                seen[i] |= 1 << (d - 1)
    if open_cells and not seen[0] or not open_cells and rule.check(
            Grid(geometry, tuple(digits))):
        return None
    changed = []
    for c, mask in zip(open_cells, seen):
        if cand[c] != mask:
            cand[c] = mask
            changed.append(c)
    return changed


@record(frozen=True)
class FullRank(_Outside):
    """``full-rank``: read as numbers from their clue's side, every row and column from
    both ends (4N numbers) ranked from the smallest (1) up, this one has rank ``rank``: it
    is greater than exactly rank - 1 of the others. Ties as ``full-rank-ties`` says (by
    default a clued number ties with no other) (sigh's Full Rank).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.model.grid import Grid
    >>> g = geometry(2, 2)
    >>> grid = Grid(g, (1, 2, 4, 3, 3, 4, 1, 2, 2, 1, 3, 4, 4, 3, 2, 1))
    >>> FullRank(g, "r1", "start", 2).check(grid), FullRank(g, "c1", "end", 16).check(grid)
    ([], ['full-rank column 1 from the bottom = 16: its rank is 14'])
    """

    type = "full-rank"
    any_values = True  # numbers compared digit by digit: the same order on any values
    geometry: Geometry
    line: str
    side: str = "start"
    rank: int = 1
    ties: str | None = None
    number, key = "rank", "rank"
    fields = (LineName("line", doc="the row or column"), _FROM,
              Int("rank", low=1, doc="its rank among the 4N numbers, 1 the smallest"))

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        if values["rank"] > 4 * geometry.size:
            raise ValueError(f"'rank' must be 1..{4 * geometry.size}, not {values['rank']}")

    def bind(self, constraints: Sequence[Rule]) -> "FullRank":
        modes = [c.ties for c in constraints if isinstance(c, FullRankTies)]
        return replace(self, ties=modes[0]) if modes else self

    @property
    def strict(self) -> bool:
        return self.ties != "any"

    def encode(self, ctx) -> list[Clause]:
        mine = self.cells
        cache: dict = {}
        clauses: list[Clause] = []
        smaller = []
        for other in entries(self.geometry):
            if other == mine:
                continue
            if ctx.houses and other[0] != mine[0] and sees(self.geometry, other[0], mine[0]):
                # their first digits differ: the first says which is smaller
                less, _, more = compare(ctx, other[:1], mine[:1], cache)
                clauses += more
                smaller.append(less)
                continue
            less, equal, more = compare(ctx, other, mine, cache)
            clauses += more
            smaller.append(less)
            if self.strict:
                clauses.append([-equal])
        if ctx.houses:  # 4 entries begin with each digit: the rank says which
            clauses.append([ctx.var(mine[0], (self.rank + 3) // 4)])
        return clauses + count_in(ctx, smaller, [self.rank - 1])

    def check(self, grid: Grid) -> list[str]:
        mine = tuple(grid.cells[c] for c in self.cells)
        numbers = [tuple(grid.cells[c] for c in e) for e in entries(grid.geometry)
                   if e != self.cells]
        rank = 1 + sum(1 for x in numbers if x < mine)
        if rank != self.rank:
            return [f"{self.describe(grid.geometry)}: its rank is {rank}"]
        if self.strict and mine in numbers:
            return [f"{self.describe(grid.geometry)}: it ties with another"]
        return []

    def prune(self, cand: list[int]) -> list[int] | None:
        """The first cell holds the rank's digit (4 numbers begin with each digit); the
        rest when at most two cells are open."""
        cell, d = self.cells[0], (self.rank + 3) // 4
        if not cand[cell] >> (d - 1) & 1:
            return None
        changed = [] if cand[cell] == 1 << (d - 1) else [cell]
        cand[cell] = 1 << (d - 1)
        more = _prune_last(self, cand)
        return None if more is None else sorted(set(changed) | set(more))

    def draw(self, canvas) -> None:
        """``#rank`` outside the grid, as sigh writes it."""
        row = self.line[0] == "r"
        end = self.side == "end"
        side = ("right" if end else "left") if row else ("bottom" if end else "top")
        canvas.outside(side, int(self.line[1:]) - 1, f"#{self.rank}")


@record(frozen=True)
class FullRankTies(GlobalRule):
    """``full-rank-ties``: which numbers of a full-rank puzzle may tie (read the same):
    ``none`` (no two of the 4N rows and columns read from either end, so this rule binds
    even without full-rank clues), ``only-unclued`` (the default: a clued one ties with
    nothing) or ``any``.

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.model.grid import Grid
    >>> grid = Grid(geometry(2, 2), (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
    >>> FullRankTies(geometry(2, 2), "none").check(grid)[:1]
    ['full-rank ties none: row 4 from the left and row 1 from the right read the same']
    """

    type = "full-rank-ties"
    any_values = True  # numbers compared digit by digit: the same order on any values
    geometry: Geometry
    ties: str = "only-unclued"
    fields = (Choice("ties", TIES, default="only-unclued",
                     doc="'none', 'only-unclued' (a clued number ties with nothing) or 'any'"),)

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    def describe(self, geometry: Geometry) -> str:
        return f"full-rank ties {self.ties}"

    def encode(self, ctx) -> list[Clause]:
        if self.ties != "none":
            return []
        cache: dict = {}
        clauses: list[Clause] = []
        for a, b in itertools.combinations(entries(self.geometry), 2):
            if ctx.houses and a[0] != b[0] and sees(self.geometry, a[0], b[0]):
                continue  # their first digits differ
            _, equal, more = compare(ctx, a, b, cache)
            clauses += more + [[-equal]]
        return clauses

    def check(self, grid: Grid) -> list[str]:
        if self.ties != "none":
            return []
        seen: dict[tuple[int, ...], tuple[int, ...]] = {}
        out = []
        for e in entries(grid.geometry):
            number = tuple(grid.cells[c] for c in e)
            if number in seen:
                out.append(f"{self.describe(grid.geometry)}: {_entry_name(grid.geometry, seen[number])} "
                           f"and {_entry_name(grid.geometry, e)} read the same")
            else:
                seen[number] = e
        return out

    def prune(self, cand: list[int]) -> list[int] | None:
        """Only when at most two cells are open (a tie needs whole numbers)."""
        return _prune_last(self, cand) if self.ties == "none" else []

    def draw(self, canvas) -> None:
        """A note under the grid."""
        canvas.note(self.describe(canvas.geometry))


def _entry_name(geometry: Geometry, entry: tuple[int, ...]) -> str:
    n = geometry.size
    (r0, c0), (r1, c1) = divmod(entry[0], n), divmod(entry[1], n)
    if r0 == r1:
        return f"row {r0 + 1} from the {'left' if c1 > c0 else 'right'}"
    return f"column {c0 + 1} from the {'top' if r1 > r0 else 'bottom'}"
