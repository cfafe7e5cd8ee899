"""Sums over cells of the grid whose digits may repeat (a little killer across boxes, an
arrow's shaft, an implied sum): cells that share a house are taken together, since their
digits differ.

Glossary (adds to :mod:`.sums`):

- group: cells of one house with one weight (:func:`distinct_groups`); its sum is a term of
  its own, tied to its cells by value sets of different digits.
- number term: the number the cells of a pill arrow's circle spell (:func:`number_term`).
- bounds and reachable sums: what a weighted sum over cells can be, as far as the groups show
  (:func:`sum_bounds`, :func:`reachable_sums`).
"""

from __future__ import annotations

import functools
import math
from typing import Sequence

from .context import Clause, contradiction
from .sums import (COMBINATION_LIMIT, GROUP_SUM_ENCODING, Term, cell_term, encode_sum, one_hot,
                   sum_method, sum_supports)

__all__ = ["encode_cell_sum", "clause_estimate", "complement_sum", "number_term",
           "distinct_groups", "house_rest", "reachable_sums", "sum_bounds"]


def encode_cell_sum(ctx, cells: Sequence[int], weights: Sequence[int], target: int | Term, *,
                    digits: dict[int, Sequence[int]] | None = None,
                    method: str | None = None, grouped: bool = True) -> list[Clause]:
    """Clauses for ``sum(weight * digit) == target`` over ``cells`` whose digits may repeat.

    The cells are split into groups that share a house and a weight (:func:`distinct_groups`),
    and each group's sum is one term: a group of one is its cell; a bigger group gets a one-hot
    sum tied to its cells by value sets of different digits (so a 6-cell row segment is known to
    sum to 21..39 before any digit is placed). Only the group sums that some choice reaching the
    target uses are written (:func:`sum_supports`): a tight sum, such as a long arrow whose
    circle is barely big enough, leaves each group few sums, and a group left one sum is a plain
    cage. The group sums are then added up by :func:`encode_sum` in the encoding
    :data:`~.sums.GROUP_SUM_ENCODING` gives (under ``table``, a totalizer).
    ``digits``: a cell's possible digits where fewer than all (the caller rules the others out).
    ``grouped`` False: every cell a term of its own (a little killer's: see
    :class:`~.killer.LittleKiller`).
    First of all, a sum over most of the houses it touches is stated over the rest of them
    (:func:`complement_sum`, which reads ``digits`` for those houses' other cells too: they
    must hold wherever these clauses do).
    """
    outside = complement_sum(ctx.geometry, cells, target, digits) if ctx.houses and \
        isinstance(target, int) and set(weights) == {1} else None
    if outside is not None:
        (cells, target), weights = outside, [1] * len(outside[0])
        if not cells:
            return [] if target == 0 else contradiction(ctx)
    digits = digits or {}
    full = range(1, ctx.size + 1)
    value = ctx.geometry.value  # sums are of the values digits stand for (0-8 grids...)
    targets = {target} if isinstance(target, int) else {v for v, _ in target}
    groups = distinct_groups(ctx.geometry, cells, weights) if ctx.houses and grouped else \
        [[i] for i in range(len(cells))]
    domains = []
    for group in groups:
        w = weights[group[0]]
        values = sorted({value(d) for i in group for d in digits.get(cells[i], full)})
        domains.append(sorted(w * t for t in _subset_sums(tuple(values), len(group))))
    found = sum_supports(domains, targets)
    if found is None:
        return contradiction(ctx)
    supports, reached = found
    clauses: list[Clause] = []
    terms: list[Term] = []
    offset = 0
    for group, support in zip(groups, supports):
        w = weights[group[0]]
        if len(group) == 1:
            cell = cells[group[0]]
            clauses += [[-ctx.var(cell, d)] for d in digits.get(cell, full)
                        if w * value(d) not in support]
            terms.append(tuple((w * value(d), ctx.var(cell, d)) for d in digits.get(cell, full)
                               if w * value(d) in support))
            continue
        members = [cell_term(ctx, cells[i], 1, digits.get(cells[i])) for i in group]
        rest = house_rest(ctx, [cells[i] for i in group])
        if len(support) == 1:
            total = next(iter(support))
            clauses += encode_sum(ctx, members, total // w, distinct=True, method=method,
                                  outside=rest)
            offset += total
            continue
        if len(groups) == 1 and w == 1 and not isinstance(target, int):
            exact = tuple((v, lit) for v, lit in target if v in reached)
            clauses += [[-lit] for v, lit in target if v not in reached]
            return clauses + encode_sum(ctx, members, exact, distinct=True, method=method,
                                        outside=rest)
        term, one = one_hot(ctx, sorted(t // w for t in support))
        clauses += one + encode_sum(ctx, members, term, distinct=True, method=method,
                                    outside=rest)
        terms.append(tuple((w * v, lit) for v, lit in term))
    if isinstance(target, int):
        goal: int | Term = target - offset
    else:
        clauses += [[-lit] for v, lit in target if v not in reached]
        goal = tuple((v - offset, lit) for v, lit in target if v in reached)
    if not terms:
        return clauses if isinstance(goal, int) else clauses + [[lit] for v, lit in goal if not v]
    terms.sort(key=lambda t: max(v for v, _ in t) - min(v for v, _ in t))  # fewer states
    outer = GROUP_SUM_ENCODING[sum_method(ctx, method)]
    return clauses + encode_sum(ctx, terms, goal, method=outer)


def clause_estimate(geometry, cells: Sequence[int], weights: Sequence[int], low: int,
                    high: int, dense: bool = True) -> int:
    """About how many clauses :func:`encode_cell_sum` writes for a target between ``low`` and
    ``high``, without writing them: the forward and backward clauses of its partial sums over
    the groups (:func:`distinct_groups`), each layer's live sums counted as an interval (the
    groups' own tables come on top, and the values no live sum uses are left out).
    ``dense``: every number from ``low`` to ``high`` may be the target (else the last layer,
    whose sums some targets miss, is not counted: a pill arrow's circle spells no 0).

    >>> from satdoku.model.geometry import geometry
    >>> clause_estimate(geometry(3, 3), [0, 10, 20, 30, 40, 50, 60, 70, 80], [1] * 9, 45, 45)
    1444
    """
    if low == high and set(weights) == {1}:
        outside = complement_sum(geometry, cells, low)
        if outside is not None:
            cells, low = outside
            high, weights = low, [1] * len(cells)
    n = geometry.size
    spans = []
    for group in distinct_groups(geometry, cells, weights):
        w, k = weights[group[0]], len(group)
        least, most = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        spans.append(tuple(sorted((w * least, w * most))) + (abs(w),))
    spans.sort(key=lambda t: t[1] - t[0])
    rest_low, rest_high = sum(s[0] for s in spans), sum(s[1] for s in spans)
    total, before = 0, (0, 0)
    for i, (lo, hi, step) in enumerate(spans):
        rest_low, rest_high = rest_low - lo, rest_high - hi
        after = (max(before[0] + lo, low - rest_high), min(before[1] + hi, high - rest_low))
        if after[0] > after[1]:
            return total
        # Counted only where every sum of the interval is live: a weight of 10 (a pill's
        # tens on a big grid) leaves one sum in ten.
        if all(s[2] == 1 for s in spans) and (dense or i < len(spans) - 1):
            values = max(0, min(hi, after[1] - before[0]) - max(lo, after[0] - before[1]) + 1)
            for a, b in (before, after):  # forward clauses from, backward clauses to a layer
                total += (b - a + 1) * values if b > a else 0
        before = after
    return total


def complement_sum(geometry, cells: Sequence[int], total: int,
                   digits: dict[int, Sequence[int]] | None = None
                   ) -> tuple[list[int], int] | None:
    """The same sum stated over fewer cells, when there is one: ``cells`` (each once, weight 1)
    summing to ``total`` lie in the houses of one kind they touch (rows, columns or boxes);
    when each of those houses has as many cells as its cells have digits between them (all of
    the grid's, or fewer by ``digits``: a cell's possible digits where fewer than all), it
    holds each of those once, so the rest of those houses sums to their total less ``total``.
    The kind that leaves the fewest cells, when fewer than ``cells``: (the rest, its total);
    None when no kind does (or a cell is outside the grid, or listed twice).
    A rectangle of 8 x 8 cells in a 9x9 grid is its rows but one column's 8 cells.

    >>> from satdoku.model.geometry import geometry
    >>> complement_sum(geometry(2, 2), [0, 1, 2, 4, 5, 6], 15)
    ([3, 7], 5)
    >>> complement_sum(geometry(2, 2), [0, 1, 4, 5], 10), complement_sum(geometry(2, 2), [0, 5], 4)
    (([], 0), None)
    """
    houses = geometry.cell_houses
    if not cells or len(set(cells)) != len(cells) or any(not houses[c] for c in cells):
        return None
    digits = digits or {}
    full = range(1, geometry.size + 1)
    inside, best = set(cells), None
    for kind in range(min(len(houses[c]) for c in cells)):
        touched = {houses[c][kind] for c in cells}
        whole = 0  # what the touched houses sum to
        for h in touched:
            held = {d for c in geometry.houses[h] for d in digits.get(c, full)}
            if len(held) != len(geometry.houses[h]):
                break
            whole += sum(geometry.value(d) for d in held)
        else:
            rest = sorted(c for h in touched for c in geometry.houses[h] if c not in inside)
            if len(rest) < len(cells) and (best is None or len(rest) < len(best[0])):
                best = (rest, whole - total)
    return best


def reachable_sums(geometry, cells: Sequence[int], weights: Sequence[int],
                   digits: dict[int, Sequence[int]] | None = None) -> set[int]:
    """The values ``sum(weight * digit)`` over ``cells`` can take, as far as the digits of
    each group of :func:`distinct_groups` differing shows."""
    digits = digits or {}
    full = range(1, geometry.size + 1)
    sums = {0}
    for group in distinct_groups(geometry, cells, weights):
        w = weights[group[0]]
        values = sorted({geometry.value(d) for i in group for d in digits.get(cells[i], full)})
        sums = {a + w * t for a in sums for t in _subset_sums(tuple(values), len(group))}
    return sums


def sum_bounds(geometry, cells: Sequence[int], weights: Sequence[int]) -> tuple[int, int]:
    """The least and the greatest ``sum(weight * digit)`` over ``cells``, as far as the
    digits of each group of :func:`distinct_groups` differing shows.

    >>> from satdoku.model.geometry import geometry
    >>> sum_bounds(geometry(3, 3), [0, 1, 2, 80], [1, 1, 1, -1])
    (-3, 23)
    """
    n = geometry.size
    low = high = 0
    for group in distinct_groups(geometry, cells, weights):
        w, k = weights[group[0]], len(group)
        least, most = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        low += w * (least if w > 0 else most)
        high += w * (most if w > 0 else least)
    return low, high


@functools.lru_cache(maxsize=1024)
def _subset_sums(values: tuple[int, ...], k: int) -> frozenset[int]:
    """The sums of ``k`` different numbers of ``values``."""
    reach = [{0}] + [set() for _ in range(k)]
    for v in values:
        for j in range(k, 0, -1):
            reach[j] |= {s + v for s in reach[j - 1]}
    return frozenset(reach[k])


def house_rest(ctx, cells: Sequence[int]) -> list[dict[int, list[int]]]:
    """For each house holding all of ``cells`` (fewer than N), each digit's literals on the
    house's other cells: the ``outside`` of :func:`encode_sum` (none when the context keeps
    the rules apart from the houses)."""
    geo = ctx.geometry
    if not cells or len(cells) >= geo.size or not ctx.houses:
        return []
    common = set(geo.cell_houses[cells[0]]).intersection(*(geo.cell_houses[c] for c in cells))
    inside = set(cells)
    return [{geo.value(d): [ctx.var(c, d) for c in geo.houses[h] if c not in inside]
             for d in range(1, ctx.size + 1)} for h in sorted(common)
            if geo.full[h]]  # a house with a cell for every digit: each is in it once


def distinct_groups(geometry, cells: Sequence[int], weights: Sequence[int]) -> list[list[int]]:
    """Indices into ``cells`` in groups whose cells share a house (so their digits differ) and
    a weight: greedily the house holding the most cells left, while it holds two; the rest
    one a group. A group is cut to a size with at most :data:`COMBINATION_LIMIT` value sets.

    >>> from satdoku.model.geometry import geometry
    >>> distinct_groups(geometry(2, 2), [0, 1, 4, 15], [1, 1, 1, 1])
    [[0, 1, 2], [3]]
    """
    n = geometry.size
    index = {c: i for i, c in enumerate(cells)}
    touched = sorted({h for c in index for h in geometry.cell_houses[c]})
    inside = {h: [index[c] for c in geometry.houses[h] if c in index] for h in touched}
    left = set(range(len(cells)))
    groups: list[list[int]] = []
    while True:
        best: list[int] = []
        for h in touched:
            by_weight: dict[int, list[int]] = {}
            for i in inside[h]:
                if i in left:
                    by_weight.setdefault(weights[i], []).append(i)
            for members in by_weight.values():
                if len(members) > len(best):
                    best = members
        while math.comb(n, len(best)) > COMBINATION_LIMIT:
            best = best[:-1]
        if len(best) < 2:
            break
        groups.append(sorted(best))
        left -= set(best)
    groups += [[i] for i in sorted(left)]
    return sorted(groups)


# -- table: value sets for distinct terms --------------------------------------------------

def number_term(ctx, cells: Sequence[int], values: set[int]) -> tuple[Term, list[Clause]]:
    """The number ``cells`` spell in decimal (most significant first; a pill arrow's circle)
    as a one-hot term over those of ``values`` it can be: its term and clauses. Digits must be
    1..9 (a grid up to 9x9); each number's literal implies its digits, and each digit one of
    the numbers that have it there, so a digit ruled out rules its numbers out.
    """
    k = len(cells)
    low = ctx.geometry.low
    if low != 1:
        raise ValueError("a number spelt by several cells is read on values 1..N only")
    numbers = [v for v in sorted(values) if 10 ** (k - 1) <= v < 10 ** k
               and all(1 <= int(ch) <= ctx.size for ch in str(v))]
    lits = [ctx.fresh() for _ in numbers]
    clauses: list[Clause] = [list(lits)]
    having: dict[tuple[int, int], list[int]] = {}
    for v, lit in zip(numbers, lits):
        for cell, ch in zip(cells, str(v)):
            x = ctx.var(cell, int(ch))
            clauses.append([-lit, x])
            having.setdefault((cell, int(ch)), []).append(lit)
    for cell in cells:
        for d in range(1, ctx.size + 1):
            clauses.append([-ctx.var(cell, d)] + having.get((cell, d), []))
    return tuple(zip(numbers, lits)), clauses
