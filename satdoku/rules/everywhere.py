"""Global rules from sigh's Interactive Sudoku Solver: ``global-entropy``, ``global-mod``,
``anti-taxicab``, ``dutch-flatmates`` and ``doppelganger``. They have no cells of their own: they hold
everywhere on the grid.

Glossary: a *square* is any 2x2 block of cells ((N-1)^2 of them, overlapping); a *class* is
one of three groups of digits: low, middle, high for entropy (1-3, 4-6, 7-9 on 9x9; other
sizes as entropic lines split them), remainders mod 3 for global mod. The *taxicab distance*
of two cells is the number of rows plus the number of columns between them.

Encodings, one clause each: a square holds a digit of a class (the OR of 4 x |class|
literals); two cells at taxicab distance d are not both d; a middle digit has a 1 above it
or an N below it. A doppelganger grid (values 0..N on N x N) gets a variable "house h misses
value v" per house and value 1..N (true exactly when no cell of h holds v), a clause per
house for its 0, at most one house of a kind missing each value, and at each cell "a 0 here
and two of its houses missing v" ruled out.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .base import Clause, GlobalRule, bit, restrict, sees
from .lines import _ranks

__all__ = ["GlobalEntropy", "GlobalMod", "AntiTaxicab", "DutchFlatmates", "Doppelganger",
           "squares"]


@functools.lru_cache(maxsize=None)
def squares(geometry: Geometry) -> tuple[tuple[int, int, int, int], ...]:
    """Every 2x2 block of cells, in reading order of its top-left cell."""
    w = geometry.width
    return tuple((r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1)
                 for r in range(geometry.height - 1) for c in range(w - 1))


class _Squares(GlobalRule):
    """Every square holds a digit of each of three classes (``klass(d, n)``: 0, 1 or 2)."""

    geometry: Geometry
    words: ClassVar[str] = ""

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    def klass(self, d: int, n: int) -> int:
        raise NotImplementedError

    def _classes(self, n: int) -> list[list[int]]:
        return [[d for d in range(1, n + 1) if self.klass(d, n) == k] for k in range(3)]

    def encode(self, ctx) -> list[Clause]:
        classes = self._classes(ctx.size)
        return [[ctx.var(c, d) for c in square for d in digits]
                for square in squares(self.geometry) for digits in classes]

    def clause_estimate(self, geometry: Geometry) -> int:
        return 3 * (geometry.height - 1) * (geometry.width - 1)

    def check(self, grid: Grid) -> list[str]:
        n, name = grid.size, grid.geometry.cell_name
        out = []
        for square in squares(grid.geometry):
            have = {self.klass(grid.cells[c], n) for c in square}
            if len(have) < 3:
                missing = [self.words.split(",")[k] for k in range(3) if k not in have]
                out.append(f"{self.describe(grid.geometry)}: the square at {name(square[0])} "
                           f"has no {' or '.join(missing)} digit")
        return out

    def prune(self, cand: list[int]) -> list[int] | None:
        """A class that only one cell of a square can hold goes there."""
        n = self.geometry.size
        masks = [sum(bit(d) for d in digits) for digits in self._classes(n)]
        changed: set[int] = set()
        for square in squares(self.geometry):
            for mask in masks:
                places = [c for c in square if cand[c] & mask]
                if not places:
                    return None
                if len(places) == 1 and not restrict(cand, places[0], mask, changed):
                    return None
        return sorted(changed)


@record(frozen=True)
class GlobalEntropy(_Squares):
    """``global-entropy``: every 2x2 square of cells holds a low, a middle and a high digit
    (1-3, 4-6, 7-9 on 9x9; on other sizes the thirds of entropic lines: 1 / 2-3 / 4 on 4x4)
    (sigh's Global Entropy).

    >>> from satdoku.model.geometry import geometry
    >>> GlobalEntropy(geometry(2, 2))._classes(4), len(squares(geometry(3, 3)))
    ([[1], [2, 3], [4]], 64)
    """

    type = "global-entropy"
    any_shape = True
    geometry: Geometry
    words = "low,middle,high"

    def klass(self, d: int, n: int) -> int:
        return _ranks(n)[d]

    def describe(self, geometry: Geometry) -> str:
        return "global entropy"


@record(frozen=True)
class GlobalMod(_Squares):
    """``global-mod``: every 2x2 square of cells holds digits of all three remainders mod 3
    (one of 1, 4, 7; one of 2, 5, 8; one of 3, 6, 9) (sigh's Global Mod 3).

    >>> from satdoku.model.geometry import geometry
    >>> GlobalMod(geometry(2, 2))._classes(4)
    [[3], [1, 4], [2]]
    """

    type = "global-mod"
    any_shape = True
    geometry: Geometry
    words = "3-6-9,1-4-7,2-5-8"

    def klass(self, d: int, n: int) -> int:
        return d % 3

    def describe(self, geometry: Geometry) -> str:
        return "global mod 3"


@record(frozen=True)
class AntiTaxicab(GlobalRule):
    """``anti-taxicab``: a cell holding d has no d at taxicab distance d (d rows and
    columns away in all, counted as a taxi drives) (sigh's Anti-Taxicab).

    >>> from satdoku.model.geometry import geometry
    >>> AntiTaxicab(geometry(2, 2)).away[1][:3]
    ((0, 1), (0, 4), (1, 2))
    """

    type = "anti-taxicab"
    geometry: Geometry

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    @functools.cached_property
    def away(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """For each distance d = 1..N, the pairs of cells (a < b) that far apart."""
        n = self.geometry.size
        out: dict[int, list[tuple[int, int]]] = {d: [] for d in range(1, n + 1)}
        for a in range(n * n):
            for b in range(a + 1, n * n):
                d = abs(a // n - b // n) + abs(a % n - b % n)
                if d <= n:
                    out[d].append((a, b))
        return {d: tuple(pairs) for d, pairs in out.items()}

    def describe(self, geometry: Geometry) -> str:
        return "anti-taxicab"

    def encode(self, ctx) -> list[Clause]:
        return [[-ctx.var(a, d), -ctx.var(b, d)] for d, pairs in self.away.items()
                for a, b in pairs if not (ctx.houses and sees(self.geometry, a, b))]

    def clause_estimate(self, geometry: Geometry) -> int:
        return sum(1 for pairs in self.away.values() for a, b in pairs
                   if not sees(geometry, a, b))

    def check(self, grid: Grid) -> list[str]:
        name, cells = grid.geometry.cell_name, grid.cells
        return [f"anti-taxicab: {name(a)} and {name(b)} both hold {d}, {d} apart"
                for d, pairs in self.away.items() for a, b in pairs
                if cells[a] == d and cells[b] == d]

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        for d, pairs in self.away.items():
            m = bit(d)
            for a, b in pairs:
                if cand[a] == m and not restrict(cand, b, ~m, changed):
                    return None
                if cand[b] == m and not restrict(cand, a, ~m, changed):
                    return None
        return sorted(changed)


@record(frozen=True)
class DutchFlatmates(GlobalRule):
    """``dutch-flatmates``: every middle digit (5 on 9x9; N/2 rounded up) has a 1 right
    above it or an N right below it, or both (sigh's Dutch Flatmates).

    >>> from satdoku.model.geometry import geometry
    >>> DutchFlatmates(geometry(2, 2)).middle
    2
    """

    type = "dutch-flatmates"
    any_shape = True
    geometry: Geometry

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    @property
    def middle(self) -> int:
        return (self.geometry.size + 1) // 2

    def _mates(self, cell: int) -> list[tuple[int, int]]:
        """(cell above, 1) and (cell below, N), those inside the grid."""
        w, geo = self.geometry.width, self.geometry
        out = []
        if cell >= w:
            out.append((cell - w, 1))
        if cell + w < geo.ngrid:
            out.append((cell + w, geo.size))
        return out

    def describe(self, geometry: Geometry) -> str:
        return "dutch flatmates"

    def encode(self, ctx) -> list[Clause]:
        return [[-ctx.var(c, self.middle)] + [ctx.var(m, d) for m, d in self._mates(c)]
                for c in range(self.geometry.ngrid)]

    def clause_estimate(self, geometry: Geometry) -> int:
        return geometry.ngrid

    def check(self, grid: Grid) -> list[str]:
        name, cells = grid.geometry.cell_name, grid.cells
        return [f"dutch flatmates: {name(c)} holds {self.middle} with no 1 above and no "
                f"{grid.size} below" for c in range(grid.geometry.ngrid)
                if cells[c] == self.middle
                and not any(cells[m] == d for m, d in self._mates(c))]

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        mid = bit(self.middle)
        for c in range(len(cand)):
            if not cand[c] & mid:
                continue
            able = [(m, d) for m, d in self._mates(c) if cand[m] & bit(d)]
            if not able and not restrict(cand, c, ~mid, changed):
                return None
            if len(able) == 1 and cand[c] == mid:
                m, d = able[0]
                if not restrict(cand, m, bit(d), changed):
                    return None
        return sorted(changed)


@record(frozen=True)
class Doppelganger(GlobalRule):
    """``doppelganger``: on an N x N grid of values 0..N, every row, column and box holds 0
    and all of 1..N but one; no two rows (columns, boxes) miss the same value; at each 0,
    its row, column and box miss three different values (sigh's Doppelganger).

    >>> from satdoku.model.geometry import shaped
    >>> Doppelganger(shaped(4, 4, 5, box=(2, 2), low=0)).kinds[0]
    ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15))
    """

    type = "doppelganger"
    any_shape = True
    any_values = True  # it names the value 0
    geometry: Geometry

    @classmethod
    def refusal(cls, geometry: Geometry) -> tuple[str, str] | None:
        n = geometry.height
        if geometry.width != n or geometry.low != 0 or geometry.size != n + 1 or any(
                len(h) != n for h in geometry.houses):
            shape = f"{geometry.height}x{geometry.width} grid of values {geometry.values_text}"
            return (f"on a {shape}", "doppelganger is stated for an N x N grid of values 0..N "
                    f"with houses of N cells; this is a {shape}")
        return None

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    @functools.cached_property
    def kinds(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The houses by kind: rows, columns, and boxes when the grid has them."""
        houses, n = self.geometry.houses, self.geometry.height
        kinds = (houses[:n], houses[n:2 * n], houses[2 * n:])
        return kinds if kinds[2] else kinds[:2]

    def encode(self, ctx) -> list[Clause]:
        n, zero = self.geometry.height, 1  # value v is digit v + 1
        clauses: list[Clause] = []
        missing: list[list[list[int]]] = []  # [kind][house][v - 1]
        for kind in self.kinds:
            missing.append([])
            for house in kind:
                clauses.append([ctx.var(c, zero) for c in house])
                row = [ctx.fresh() for _ in range(n)]
                missing[-1].append(row)
                for v, m in enumerate(row, start=1):
                    clauses += [[-m, -ctx.var(c, v + 1)] for c in house]
                    clauses.append([m] + [ctx.var(c, v + 1) for c in house])
            for v in range(n):
                ms = [row[v] for row in missing[-1]]
                clauses += [[-a, -b] for i, a in enumerate(ms) for b in ms[i + 1:]]
        house_of = self._house_of()
        for cell in range(self.geometry.ngrid):
            mine = [missing[k][house_of[k][cell]] for k in range(len(self.kinds))]
            for v in range(n):
                clauses += [[-ctx.var(cell, zero), -a[v], -b[v]]
                            for i, a in enumerate(mine) for b in mine[i + 1:]]
        return clauses

    def _house_of(self) -> list[list[int]]:
        out = []
        for kind in self.kinds:
            index = [0] * self.geometry.ngrid
            for h, house in enumerate(kind):
                for c in house:
                    index[c] = h
            out.append(index)
        return out

    def clause_estimate(self, geometry: Geometry) -> int:
        n, k = geometry.height, len(self.kinds)
        pairs = k * (k - 1) // 2
        return k * n * (1 + n * (n + 1)) + k * n * n * (n - 1) // 2 + n * n * n * pairs

    def missing(self, grid: Grid) -> list[list[set[int]]]:
        """The values 1..N each house of each kind lacks."""
        value = grid.geometry.value
        return [[set(range(1, grid.geometry.height + 1)) - {value(grid.cells[c]) for c in h}
                 for h in kind] for kind in self.kinds]

    def check(self, grid: Grid) -> list[str]:
        geo, value = grid.geometry, grid.geometry.value
        lacks = self.missing(grid)
        names = {h: geo.house_name(i) for i, h in enumerate(geo.houses)}
        out = [f"doppelganger: {names[h]} has no 0" for kind in self.kinds for h in kind
               if all(value(grid.cells[c]) != 0 for c in h)]
        out += [f"doppelganger: {names[h]} misses {sorted(gone)}, not one value"
                for kind, gones in zip(self.kinds, lacks) for h, gone in zip(kind, gones)
                if len(gone) != 1]
        for kind, gones in zip(self.kinds, lacks):
            for i, h in enumerate(kind):
                twin = next((names[g] for g, other in zip(kind[i + 1:], gones[i + 1:])
                             if other & gones[i]), None)
                if twin is not None:
                    out.append(f"doppelganger: {names[h]} and {twin} miss the same value")
        if out:
            return out
        house_of = self._house_of()
        for cell in range(geo.ngrid):
            gone = [min(lacks[k][house_of[k][cell]]) for k in range(len(self.kinds))]
            if value(grid.cells[cell]) == 0 and len(set(gone)) < len(gone):
                out.append(f"doppelganger: the 0 at {geo.cell_name(cell)} has houses that "
                           f"miss the same value ({gone})")
        return out

    def prune(self, cand: list[int]) -> list[int] | None:
        """A house's 0 goes to its only cell that can hold it."""
        changed: set[int] = set()
        for kind in self.kinds:
            for house in kind:
                able = [c for c in house if cand[c] & 1]
                if not able:
                    return None
                if len(able) == 1 and not restrict(cand, able[0], 1, changed):
                    return None
        return sorted(changed)
