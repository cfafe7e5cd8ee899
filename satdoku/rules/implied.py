"""Implied constraints: sums that follow from a puzzle's rules and its houses, stated once more
so that the SAT solver propagates them (what a search engine derives and a solver uses).

Glossary (adds to :mod:`.sums` and :mod:`.killer`):

- piece: a rule that is one linear equation over digits, ``sum(w * digit) == total``: a killer
  cage with a total, a little killer, an arrow (the circle's cells weigh -1, or -10 and -1 for
  a two-digit circle, the shaft's +1, total 0), an X or V pair.
- region: a union of disjoint houses whose digits sum to ``k * N(N+1)/2`` (k houses): rows i..j,
  columns i..j, one box or region, the whole grid.
- innies and outies (the "45 rule"): a region minus the pieces that lie mostly inside it. The
  cells of the region no piece covers (innies, weight +1) and the cells of those pieces outside
  the region (outies, weight -1) sum to the region's total minus the pieces' totals. A single
  innie is a digit found; a house with its cages removed is a hidden cage.

An implied constraint is an :class:`ImpliedSum`: its cells, weights and total, and ``sources``,
the indices of the rules it was derived from (the houses are always there). It holds in every
solution of those rules, so adding it never changes the set of solutions; an engine that
switches rules on and off with activation literals guards it with all of its sources'.
"""

from __future__ import annotations

import functools
from typing import Sequence

from ..model.geometry import Geometry
from ..records import field, record
from .base import Clause, Constraint, cell_span
from .dots import XV
from .groups import DisjointGroups, Diagonal, ExtraRegion
from .killer import Arrow, Killer, LittleKiller
from .cell_sums import distinct_groups, encode_cell_sum, sum_bounds
from .sums import prune_cell_sum

__all__ = ["ImpliedSum", "implied_constraints", "combined_sums", "outside_sums", "houses",
           "pieces", "regions",
           "MAX_IMPLIED_CELLS", "MAX_SLACK", "RELATED_CELLS"]

#: Implied sums over more cells than this are not kept (a long sum propagates little).
MAX_IMPLIED_CELLS = 9

#: Nor those whose total is further than this from the smallest or the largest sum the cells
#: can make (:func:`.sums.reachable_sums`): a loose sum prunes nothing until most of its cells
#: are known, and costs clauses all the same (``docs/sum-encodings.md``).
MAX_SLACK = 6

Coefficients = dict[int, int]


@record(frozen=True)
class ImpliedSum(Constraint, register=False):
    """``sum(weight * digit) == total`` over ``cells``, implied by the rules ``sources``
    (indices into the puzzle's constraints) and the houses; ``how`` says from what.

    >>> from satdoku.model.geometry import geometry
    >>> s = ImpliedSum((0, 1), (1, -1), 2, (3,), how="row 1")
    >>> s.holds((5, 3)), s.describe(geometry(2, 2))
    (True, 'implied sum r1c1-r1c2 = 2 (row 1)')
    """

    type = "implied-sum"
    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    sources: tuple[int, ...] = ()
    how: str = field(default="", compare=False)

    def describe(self, geometry: Geometry) -> str:
        text = f"implied sum {cell_span(geometry, self.cells)} = {self.total}"
        return f"{text} ({self.how})" if self.how else text

    def encode(self, ctx) -> list[Clause]:
        return encode_cell_sum(ctx, self.cells, self.weights, self.total)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return sum(w * d for w, d in zip(self.weights, digits)) == self.total

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if prune_cell_sum(self.cells, self.weights, cand, {self.total}, changed) is None:
            return None
        return sorted(changed)


def pieces(constraints: Sequence[Constraint]) -> list[tuple[int, Coefficients, int]]:
    """``(index, {cell: weight}, total)`` of every rule that is one linear equation."""
    out = []
    for i, c in enumerate(constraints):
        if isinstance(c, Killer) and c.total is not None:
            out.append((i, dict.fromkeys(c.cells, 1), c.total))
        elif isinstance(c, LittleKiller):
            out.append((i, dict.fromkeys(c.cells, 1), c.total))
        elif isinstance(c, Arrow):
            out.append((i, dict(zip(c.cells, c.weights)), 0))
        elif isinstance(c, XV):
            out.append((i, dict.fromkeys(c.pair, 1), c.total))
    return out


@functools.lru_cache(maxsize=16)
def regions(geometry: Geometry) -> list[tuple[str, tuple[int, ...], int]]:
    """``(name, cells, houses)`` of every region tried: rows i..j, columns i..j (j > i when
    the grid is boxed, single rows and columns too), each box or region, the whole grid."""
    n = geometry.size
    houses = geometry.houses
    out: list[tuple[str, tuple[int, ...], int]] = []
    if not geometry.is_square:  # houses of fewer cells than digits have no known sum
        return out
    for kind, first in (("row", 0), ("column", n)):
        for i in range(n):
            for j in range(i, n):
                name = f"{kind} {i + 1}" if i == j else f"{kind}s {i + 1}-{j + 1}"
                cells = tuple(c for h in houses[first + i:first + j + 1] for c in h)
                out.append((name, cells, j - i + 1))
    for b in range(len(houses) - 2 * n):  # none in a grid without boxes
        out.append((f"box {b + 1}", houses[2 * n + b], 1))
    return out


def implied_constraints(geometry: Geometry, constraints: Sequence[Constraint], *,
                        max_cells: int = MAX_IMPLIED_CELLS, max_slack: int | None = MAX_SLACK
                        ) -> tuple[ImpliedSum, ...]:
    """The implied sums of the puzzle (innies and outies of every region), each once, over at
    most ``max_cells`` cells with at most ``max_slack`` (None: any), none the same as a rule's
    own equation.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(2, 2)
    >>> found = {s.how: s.describe(g) for s in implied_constraints(g, [Killer((0, 1, 4), 6)])}
    >>> found['box 1'], found['outside row 1']
    ('implied sum r2c2 = 4 (box 1)', 'implied sum r2c1-r2c3-r2c4 = 6 (outside row 1)')
    """
    n = geometry.size
    if geometry.low != 1:  # a house's values sum to another total: none implied there yet
        return ()
    house_total = n * (n + 1) // 2
    found = pieces(constraints)
    seen = {_key(coeff, total) for _, coeff, total in found}
    by_cell: dict[int, list[int]] = {}
    for k, (_, piece, _) in enumerate(found):
        for c in piece:
            by_cell.setdefault(c, []).append(k)
    out: list[ImpliedSum] = []
    for name, cells, count in regions(geometry):
        inside = set(cells)
        overlap: dict[int, int] = {}
        for c in cells:
            for k in by_cell.get(c, ()):
                overlap[k] = overlap.get(k, 0) + 1
        if not overlap:
            continue
        coeff: Coefficients = dict.fromkeys(cells, 1)
        total = count * house_total
        used: list[int] = []
        for k in sorted(overlap, key=lambda k: (-overlap[k] / len(found[k][1]), k)):
            _, piece, piece_total = found[k]
            trial = _minus(coeff, piece)
            if len(trial) < len(coeff):
                coeff, total = trial, total - piece_total
                used.append(found[k][0])
        if not used or not 0 < len(coeff) <= max_cells:
            continue
        key = _key(coeff, total)
        if key in seen:
            continue
        ordered = sorted(coeff, key=lambda c: (c not in inside, c))
        weights = [coeff[c] for c in ordered]
        if max_slack is not None and len(ordered) > 1:
            low, high = sum_bounds(geometry, ordered, weights)
            if min(total - low, high - total) > max_slack:
                continue
        seen.add(key)
        out.append(ImpliedSum(tuple(ordered), tuple(weights), total,
                              tuple(sorted(used)), how=name))
    return (tuple(out) + outside_sums(geometry, found, houses(geometry, constraints), seen)
            + combined_sums(geometry, found, seen))


def houses(geometry: Geometry, constraints: Sequence[Constraint]
           ) -> list[tuple[str, frozenset[int], int | None]]:
    """``(name, cells, source)`` of every group of N cells holding each digit once: the
    grid's rows, columns and boxes (source None), and the puzzle's diagonals, extra regions
    and disjoint groups (source: the rule's index)."""
    out: list[tuple[str, frozenset[int], int | None]] = [
        (geometry.house_name(h), frozenset(cells), None) for h, cells in enumerate(geometry.houses)
        if geometry.full[h]]  # a house of fewer cells than digits has no known sum
    for i, c in enumerate(constraints):
        if isinstance(c, (Diagonal, ExtraRegion, DisjointGroups)):
            out += [(f"rule {i + 1}", frozenset(g), i) for g in c.groups
                    if len(g) == geometry.size]
    return out


def outside_sums(geometry: Geometry, found: list[tuple[int, Coefficients, int]],
                 regions: list[tuple[str, frozenset[int], int | None]],
                 seen: set) -> tuple[ImpliedSum, ...]:
    """For each house that sums of different cells cover (other houses may fill its gaps):
    the cells of those sums and houses outside it sum to their totals minus the house's, less
    any house wholly among them (sigh's "sum intersection"). Kept when the total lies in the
    middle half of what the cells can make, or nearer an end."""
    n = geometry.size
    house_total = n * (n + 1) // 2
    unit = [(i, frozenset(coeff), total) for i, coeff, total in found
            if set(coeff.values()) == {1}]
    by_size = sorted(regions, key=lambda r: (len(r[1]), r[0]))
    out = []
    for name, base, source in regions:
        crossing = sorted((p for p in unit if not p[1].isdisjoint(base)),
                          key=lambda p: (-len(p[1] & base), p[0]))
        covered: set[int] = set()
        total, sources = -house_total, set() if source is None else {source}
        for i, cells, piece_total in crossing:
            if covered.isdisjoint(cells):
                covered |= cells
                total += piece_total
                sources.add(i)
        if not sources - ({source} if source is not None else set()):
            continue
        for _, cells, src in by_size:
            gap = base - covered
            if not gap:
                break
            if covered.isdisjoint(cells) and len(cells & gap) >= 2 and cells & base <= gap:
                covered |= cells
                total += house_total
                sources |= set() if src is None else {src}
        if not base <= covered:
            continue
        outside = covered - base
        for _, cells, src in by_size:
            if cells <= outside:
                outside -= cells
                total -= house_total
                sources |= set() if src is None else {src}
        ordered = tuple(sorted(outside))
        if not ordered:
            continue
        low, high = sum_bounds(geometry, ordered, [1] * len(ordered))
        if high == low or high - low <= 4 * min(total - low, high - total):
            continue
        key = _key(dict.fromkeys(ordered, 1), total)
        if key not in seen:
            seen.add(key)
            out.append(ImpliedSum(ordered, (1,) * len(ordered), total, tuple(sorted(sources)),
                                  how=f"outside {name}"))
    return tuple(out)


#: Two sums are combined only when at least this many cells of the smaller see a cell of the
#: other (the rule of sigh's optimizer): then their cells fall into bigger groups.
RELATED_CELLS = 6


def combined_sums(geometry: Geometry, found: list[tuple[int, Coefficients, int]],
                  seen: set | None = None) -> tuple[ImpliedSum, ...]:
    """Sums of several rules over different cells (cages, little killers), combined while the
    union is tighter than its parts: greedily the best pair first, scored as sigh's optimizer
    does (``sum(k * (N - k) - slack)`` over the union's groups of k cells that differ), kept
    when better than both parts or than their scores together."""
    n = geometry.size
    peers = geometry.peers
    seen = set() if seen is None else seen

    def record(cells: frozenset, total: int, sources: frozenset
               ) -> tuple[frozenset, int, frozenset, int]:
        ordered = sorted(cells)
        low, high = sum_bounds(geometry, ordered, [1] * len(ordered))
        groups = distinct_groups(geometry, ordered, [1] * len(ordered))
        slack = min(total - low, high - total)
        return cells, total, sources, sum(len(g) * (n - len(g)) - slack for g in groups)

    def related(a, b) -> bool:
        small, big = sorted((a[0], b[0]), key=len)
        return len(small) >= RELATED_CELLS and a[0].isdisjoint(b[0]) and sum(
            1 for c in small if not big.isdisjoint(peers[c])) >= RELATED_CELLS

    active: dict[frozenset, tuple[frozenset, int, frozenset, int]] = {}  # record()s by cells
    for i, coeff, total in found:
        if set(coeff.values()) == {1}:
            r = record(frozenset(coeff), total, frozenset([i]))
            active.setdefault(r[0], r)
    originals = set(active)
    while True:
        best = None
        pool = list(active.values())
        for x in range(len(pool)):
            for y in range(x + 1, len(pool)):
                a, b = pool[x], pool[y]
                if not related(a, b) or a[0] | b[0] in active:
                    continue
                m = record(a[0] | b[0], a[1] + b[1], a[2] | b[2])
                if m[3] <= max(a[3], b[3]) and m[3] <= a[3] + b[3]:
                    continue
                if best is None or (m[3], sorted(m[0])) > (best[2][3], sorted(best[2][0])):
                    best = (a, b, m)
        if best is None:
            break
        a, b, m = best
        del active[a[0]], active[b[0]]
        active[m[0]] = m
    out = []
    for cells, total, sources, score in active.values():
        ordered = tuple(sorted(cells))
        key = _key(dict.fromkeys(ordered, 1), total)
        if cells in originals or score <= 0 or key in seen:
            continue
        seen.add(key)
        out.append(ImpliedSum(ordered, (1,) * len(ordered), total, tuple(sorted(sources)),
                              how="combined rules " + "+".join(str(i + 1) for i in
                                                               sorted(sources))))
    return tuple(out)


def _minus(coeff: Coefficients, piece: Coefficients) -> Coefficients:
    out = dict(coeff)
    for c, w in piece.items():
        v = out.get(c, 0) - w
        if v:
            out[c] = v
        else:
            out.pop(c, None)
    return out


def _key(coeff: Coefficients, total: int) -> tuple:
    """The same equation whatever its sign and order."""
    items = tuple(sorted(coeff.items()))
    if items and items[0][1] < 0:
        items, total = tuple((c, -w) for c, w in items), -total
    return items, total
