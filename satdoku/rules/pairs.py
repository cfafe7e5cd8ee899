"""Rules between pairs of cells, and the global ones among them: ``anti-knight``,
``anti-king``, ``non-consecutive``, ``diagonal-non-consecutive``.

A pair rule is a list of cell pairs ``(a, b)`` and a relation ``allowed(x, y, n)`` between
their digits (different, not consecutive, one smaller...). Dots, thermometers, whispers,
palindromes, clones and entropic lines are pair rules too (:mod:`.dots`, :mod:`.lines`).

Encoding, per pair and per digit ``x`` of ``a``: when ``a = x`` forbids at most two digits of
``b``, a binary clause for each forbidden pair (``-a_x | -b_y``), else one support clause
``-a_x | b_y1 | b_y2 ...`` over the digits allowed; the same from ``b``'s side. Support
clauses make unit propagation keep each pair arc consistent (a thermometer's bounds follow
along its whole length); binary clauses are shorter where the relation only excludes a few
digits. Pruning is one arc-consistency pass over the pairs (the native solver calls again
while something changes).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Sequence

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .base import Clause, Constraint, GlobalRule, bit, orthogonal_pairs
from .exchange import FPuzzles

__all__ = ["PairRule", "AntiKnight", "AntiKing", "NonConsecutive", "DiagonalNonConsecutive",
           "encode_pairs", "offset_pairs", "pair_templates"]

#: A digit of one cell that rules out at most this many of the other's gets binary clauses.
FEW_CONFLICTS = 2


def offset_pairs(geometry: Geometry, offsets: Sequence[tuple[int, int]]
                 ) -> tuple[tuple[int, int], ...]:
    """Every pair of cells (a, b), a < b, whose (row, column) differ by one of ``offsets``."""
    h, w = geometry.height, geometry.width
    out = set()
    for a in range(h * w):
        r, c = divmod(a, w)
        for dr, dc in offsets:
            if 0 <= r + dr < h and 0 <= c + dc < w:
                b = (r + dr) * w + c + dc
                out.add((min(a, b), max(a, b)))
    return tuple(sorted(out))


def encode_pairs(ctx, pairs, allowed) -> list[Clause]:
    """Clauses for ``allowed(digit of a, digit of b, n)`` on every pair (see module docstring).

    Which clauses a pair gets depends on the relation alone: they are worked out once, as
    digits (:func:`_pair_templates`), and written for each pair with its cells' variables.
    """
    n = ctx.size
    supports, conflicts = pair_templates(allowed, n, ctx.geometry.low)
    var = ctx.var
    lits: dict[int, list[int]] = {}
    for pair in pairs:
        for c in pair:
            if c not in lits:
                lits[c] = [0] + [var(c, d) for d in range(1, n + 1)]
    clauses: list[Clause] = []
    for a, b in pairs:
        la, lb = lits[a], lits[b]
        for side, x, good in supports:
            this, other = (la, lb) if side == 0 else (lb, la)
            clauses.append([-this[x]] + [other[y] for y in good] if good else [-this[x]])
        clauses += [[-la[x], -lb[y]] for x, y in conflicts]
    return clauses


def pair_templates(allowed, n: int, low: int = 1) -> tuple[tuple, tuple]:
    """:func:`_pair_templates`, cached when the relation can be hashed."""
    try:
        return _pair_templates(allowed, n, low)
    except TypeError:  # a relation that cannot be hashed (a rule with a list field)
        return _pair_templates.__wrapped__(allowed, n, low)


@functools.lru_cache(maxsize=256)
def _pair_templates(allowed, n: int, low: int = 1) -> tuple[tuple, tuple]:
    """The clauses of one pair ``(a, b)`` as digits: unit and support clauses ``(side, x,
    digits of the other cell allowed)`` (none allowed: a unit clause), in order, and the
    binary conflicts ``(x, y)`` (:data:`FEW_CONFLICTS`) that no unit already covers. The
    relation is asked about the values the digits stand for (digit d is ``low + d - 1``)."""
    digits = range(1, n + 1)
    ok = [[allowed(x + low - 1, y + low - 1, n) for y in digits] for x in digits]
    supports: list[tuple[int, int, tuple[int, ...]]] = []
    gone: set[tuple[int, int]] = set()
    conflicts: set[tuple[int, int]] = set()
    for side in (0, 1):
        for x in digits:
            good = tuple(y for y in digits if (ok[x - 1][y - 1] if side == 0
                                                else ok[y - 1][x - 1]))
            if len(good) == n:
                continue
            if not good:
                gone.add((side, x))
                supports.append((side, x, ()))
            elif n - len(good) <= FEW_CONFLICTS:
                conflicts.update((x, y) if side == 0 else (y, x)
                                 for y in digits if y not in good)
            else:
                supports.append((side, x, good))
    kept = tuple((x, y) for x, y in sorted(conflicts) if (0, x) not in gone and (1, y) not in gone)
    return tuple(supports), kept


class PairRule(Constraint):
    """Base of the pair rules: ``pairs`` (cell pairs) and ``allowed(x, y, n)``."""

    if TYPE_CHECKING:  # a field or a property of each subclass (see Constraint.cells)
        @property
        def pairs(self) -> tuple[tuple[int, int], ...]: ...

    def allowed(self, x: int, y: int, n: int) -> bool:
        """Whether digits ``x`` of a pair's first cell and ``y`` of its second may go
        together in an N x N grid (a rule without a value of its own: a staticmethod)."""
        raise NotImplementedError

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted({c for pair in self.pairs for c in pair}))

    def encode(self, ctx) -> list[Clause]:
        return encode_pairs(ctx, self.pairs, self.allowed)

    def clause_estimate(self, geometry: Geometry) -> int:
        """Exact: each pair gets the clauses of the relation's template."""
        supports, conflicts = pair_templates(self.allowed, geometry.size, geometry.low)
        return len(self.pairs) * (len(supports) + len(conflicts))

    def check(self, grid: Grid) -> list[str]:
        geo, n = grid.geometry, grid.size
        cells = [geo.value(d) for d in grid.cells]  # a relation is over values
        name = geo.cell_name
        return [f"{self.describe(geo)}: {name(a)}={cells[a]} and {name(b)}={cells[b]}"
                for a, b in self.pairs if not self.allowed(cells[a], cells[b], n)]

    @functools.cached_property
    def _masks(self) -> dict[int, tuple[tuple[int, ...], tuple[int, ...]]]:
        return {}

    def prune(self, cand: list[int]) -> list[int] | None:
        if self.allowed is _different:
            return _prune_different(self.pairs, cand)
        n = math.isqrt(len(cand))
        if n not in self._masks:
            self._masks[n] = _supports(self.allowed, n)
        to_b, to_a = self._masks[n]
        changed = set()
        for a, b in self.pairs:
            ma, mb = cand[a], cand[b]
            if a == b:  # a line through a cell twice: the cell against itself
                new_a = new_b = sum(low for low in _bits(ma) if to_b[low.bit_length() - 1] & low)
            else:
                new_a = _supported(ma, mb, to_b)
                new_b = _supported(mb, new_a, to_a)
            if not new_a or not new_b:
                return None
            if new_a != ma:
                cand[a] = new_a
                changed.add(a)
            if new_b != mb:
                cand[b] = new_b
                changed.add(b)
        return sorted(changed)


def _supports(allowed, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each digit x of a, the mask of digits of b it allows; and each y of b, of a."""
    digits = range(1, n + 1)
    to_b = tuple(sum(bit(y) for y in digits if allowed(x, y, n)) for x in digits)
    to_a = tuple(sum(bit(x) for x in digits if allowed(x, y, n)) for y in digits)
    return to_b, to_a


def _bits(mask: int):
    """Each set bit of ``mask`` alone."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _supported(mine: int, theirs: int, support: tuple[int, ...]) -> int:
    """The digits of ``mine`` that some digit of ``theirs`` supports."""
    keep = 0
    m = mine
    while m:
        low = m & -m
        if support[low.bit_length() - 1] & theirs:
            keep |= low
        m ^= low
    return keep


def _different(x: int, y: int, n: int) -> bool:
    return x != y


def _prune_different(pairs, cand: list[int]) -> list[int] | None:
    """Arc consistency for "different": only a cell down to one digit removes anything."""
    changed = set()
    for a, b in pairs:
        ma, mb = cand[a], cand[b]
        if mb & (mb - 1) == 0 and ma & mb:
            ma = cand[a] = ma & ~mb
            changed.add(a)
        if ma & (ma - 1) == 0 and mb & ma:
            mb = cand[b] = mb & ~ma
            changed.add(b)
        if not ma or not mb:
            return None
    return sorted(changed)


@record(frozen=True)
class _GlobalPairs(GlobalRule, PairRule):
    """A pair rule over the whole grid, built from its geometry."""

    geometry: Geometry


@record(frozen=True)
class AntiKnight(_GlobalPairs):
    """``anti-knight``: cells a chess knight's move apart hold different digits.

    >>> from satdoku.model.geometry import geometry
    >>> len(AntiKnight(geometry(3, 3)).pairs)
    224
    """

    type = "anti-knight"
    any_shape = True
    reads_values = False
    allowed = staticmethod(_different)
    fpuzzles = (FPuzzles("antiknight", "flag"),)

    @functools.cached_property
    def pairs(self):
        return offset_pairs(self.geometry, [(1, 2), (2, 1), (1, -2), (2, -1)])


@record(frozen=True)
class AntiKing(_GlobalPairs):
    """``anti-king``: cells a king's move apart (diagonal neighbours too) hold different
    digits."""

    type = "anti-king"
    any_shape = True
    reads_values = False
    allowed = staticmethod(_different)
    fpuzzles = (FPuzzles("antiking", "flag"),)

    @functools.cached_property
    def pairs(self):
        return offset_pairs(self.geometry, [(0, 1), (1, 0), (1, 1), (1, -1)])


def _not_consecutive(x: int, y: int, n: int) -> bool:
    return abs(x - y) != 1


@record(frozen=True)
class NonConsecutive(_GlobalPairs):
    """``non-consecutive``: orthogonally adjacent cells do not hold consecutive digits."""

    type = "non-consecutive"
    reads_values = False
    allowed = staticmethod(_not_consecutive)
    fpuzzles = (FPuzzles("nonconsecutive", "negative",
                         how="on a grid without kropki dots (with dots it is no-kropki)"),)

    @functools.cached_property
    def pairs(self):
        return tuple(orthogonal_pairs(self.geometry))


@record(frozen=True)
class DiagonalNonConsecutive(_GlobalPairs):
    """``diagonal-non-consecutive``: diagonally adjacent cells do not hold consecutive digits.

    As DiagonalNonconsecutiveConstraint.cs in dclamage/SudokuSolver reads it.

    >>> from satdoku.model.geometry import geometry
    >>> len(DiagonalNonConsecutive(geometry(2, 2)).pairs)
    18
    """

    type = "diagonal-non-consecutive"
    reads_values = False
    allowed = staticmethod(_not_consecutive)

    def describe(self, geometry: Geometry) -> str:
        return "diagonal non-consecutive"

    @functools.cached_property
    def pairs(self):
        return offset_pairs(self.geometry, [(1, 1), (1, -1)])
