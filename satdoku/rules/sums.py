"""Sums of digits as CNF, and as candidate pruning: shared by killer cages, little killers,
arrows, sandwiches, X-sums, region-sum lines, zippers and skyscraper counts.

Glossary:

- term: an integer the formula knows in one-hot form, a tuple of ``(value, lit)`` pairs of
  which exactly one lit is true. A cell is the term ``((1, x1), ..., (N, xN))``; a weighted
  cell (an arrow's circle digit worth 10) multiplies the values; a gated cell (a sandwich cell
  that counts only between the 1 and the N) adds value 0. Whoever makes a term guarantees its
  exactly-one: a cell's is in the base formula, :func:`one_hot` writes its own.
- sum constraint: ``sum(terms) == target``, the target an int or another term.
- distinct: the terms' non-zero values are all different (a killer cage, cells of one house).

Four encodings, by name in :data:`SUM_ENCODINGS` (``ctx.sum_encoding`` picks one):

- ``table``: the digit combinations a setter lists. For distinct terms, one selector per set
  of values with the right sum (and size); a selector fixes which values are used (a "used"
  variable per value, the OR of its literals), so ruling out a digit anywhere rules out every
  combination with it. Sets that cannot be all different are never listed: a 2-cell 10 has no
  5. Pairwise at-most-one per value keeps it sound on its own. Terms that may repeat a value
  (zipper pairs, skyscraper counts) get a layered table of partial sums instead: one
  variable per reachable prefix sum, with forward and backward clauses through each term.
  The group sums of a little killer or an arrow (:mod:`.cell_sums`) are added by a totalizer
  (:data:`GROUP_SUM_ENCODING`).
- ``mdd``: value sets for distinct terms as in ``table``; for the others the layered states
  with a variable per transition (:func:`.mdd.mdd`), arc-consistent under unit propagation.
- ``totalizer``: a generalized totalizer (Joshi, Martins, Manquinho 2015) over order-encoded
  partial sums: each tree node has a literal "sum >= v" per value it can reach (values above
  the target merged into one), with the clauses for both directions, so it enforces ``==``.
  A term target (an arrow's circle) gets order literals of its own, equal to the sum's at
  every threshold (:func:`_totalizer_to_term`).
- ``chain``: the totalizer's nodes merged one term at a time, left to right (a chain of
  order-encoded prefix sums, "the first i terms sum to >= v"), not as a balanced tree. A
  little killer uses it on its cells one by one (:class:`~.killer.LittleKiller`, measured in
  docs/sum-encodings.md).

Which is faster is measured in ``docs/sum-encodings.md`` (``scripts/bench_sums.py``); the
faster is :data:`DEFAULT_SUM_ENCODING`.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from typing import Sequence

from .base import Clause, at_most_one, bit, contradiction, digits_of, restrict
from .context import sequential_at_most_one
from .mdd import mdd, negated, partial_sums, reachable

__all__ = [
    "Term", "SUM_ENCODINGS", "DEFAULT_SUM_ENCODING", "GROUP_SUM_ENCODING", "sum_method",
    "cell_term", "gated_term", "one_hot",
    "negated", "encode_sum", "combinations",
    "sum_supports", "prune_cell_sum", "PRUNE_WORK", "SETS_LIMIT",
]

Term = tuple[tuple[int, int], ...]

SUM_ENCODINGS = ("table", "mdd", "totalizer", "chain")
DEFAULT_SUM_ENCODING = "table"

#: Under each encoding, how the group sums of a sum whose digits may repeat are added up
#: (:func:`.cell_sums.encode_cell_sum`): the table keeps its value sets inside the groups and
#: adds the groups' sums by a totalizer, which needs about half the conflicts of partial sums on
#: the little killers of sigh_hard (docs/sum-encodings.md, run 4).
GROUP_SUM_ENCODING = {"table": "totalizer", "mdd": "mdd", "totalizer": "totalizer",
                      "chain": "chain"}

#: Above this many value sets the table encoding of distinct terms uses partial sums instead.
COMBINATION_LIMIT = 2000

#: A prune (:func:`prune_cell_sum`) whose partial sums times values would pass this keeps to
#: the bounds: its time stays within some 50 ms whatever the sum (a circle of seven digits
#: spells millions of numbers), so the native solver keeps its deadline.
PRUNE_WORK = 200_000

#: Above this many digit sets a cage's prune skips listing them (:func:`combinations`; the sum
#: prune still runs).
SETS_LIMIT = 20000


def cell_term(ctx, cell: int, weight: int = 1, digits: Sequence[int] | None = None) -> Term:
    """The term "``weight`` times the value of ``cell``" (the value its digit stands for,
    :meth:`~satdoku.model.geometry.Geometry.value`; ``digits``: only those digits, the caller
    rules the others out). Every sum reads cells through here or :mod:`.cell_sums`."""
    digits = range(1, ctx.size + 1) if digits is None else digits
    value = ctx.geometry.value  # the value digit d stands for: d on grids of values 1..N
    return tuple((weight * value(d), ctx.var(cell, d)) for d in digits)


def one_hot(ctx, values: Sequence[int]) -> tuple[Term, list[Clause]]:
    """A new integer variable taking exactly one of ``values``: its term and clauses."""
    lits = [ctx.fresh() for _ in values]
    return tuple(zip(values, lits)), [list(lits)] + sequential_at_most_one(ctx, lits)


def gated_term(ctx, cell: int, gate: int, digits: Sequence[int]) -> tuple[Term, list[Clause]]:
    """The term "``cell``'s digit when ``gate`` holds, else 0": its term and clauses.

    When the gate holds the cell's digit must be one of ``digits``.
    """
    term = [(0, -gate)]
    clauses: list[Clause] = []
    allowed = set(digits)
    for d in range(1, ctx.size + 1):
        x = ctx.var(cell, d)
        if d not in allowed:
            clauses.append([-gate, -x])
            continue
        y = ctx.fresh()  # y <-> gate and x
        clauses += [[-y, gate], [-y, x], [-gate, -x, y]]
        term.append((d, y))
    return tuple(term), clauses


def encode_sum(ctx, terms: Sequence[Term], target: int | Term, *, distinct: bool = False,
               method: str | None = None, outside: Sequence[dict[int, list[int]]] = ()
               ) -> list[Clause]:
    """Clauses for ``sum(terms) == target``.

    Args:
        ctx: the encoding context (``var``, ``fresh``, ``size``).
        terms: one-hot integers (see the module docstring).
        target: an int, or a term (the sum equals that term's value).
        distinct: the terms' non-zero values are all different in every solution (the caller
            knows: a cage, one house). The table encoding then lists value sets, and adds
            at-most-one per value so that it stays sound on its own.
        method: a name from :data:`SUM_ENCODINGS`; None: ``ctx.sum_encoding`` or the default.
        outside: for distinct terms that are the cells of one house (or part of several), per
            such house the literals of each value on its other cells (:func:`house_rest`): a
            value the rest of the house cannot hold is one of the terms' (value sets only).
    """
    method = sum_method(ctx, method)
    terms = [t for t in terms if t]
    if method in ("table", "mdd") and distinct:
        clauses = _combination_table(ctx, terms, target, outside)
        if clauses is not None:
            return clauses
    if not isinstance(target, int) and method in ("totalizer", "chain"):
        return _totalizer_to_term(ctx, terms, target, chain=method == "chain")
    if not isinstance(target, int):
        terms, target = terms + [negated(target)], 0
    if method == "table":
        return partial_sums(ctx, terms, target)
    if method == "mdd":
        return mdd(ctx, terms, target)
    return _totalizer(ctx, terms, target, chain=method == "chain")


def sum_method(ctx, method: str | None = None) -> str:
    """The encoding a sum uses: ``method``, else ``ctx.sum_encoding``, else the default."""
    method = method or getattr(ctx, "sum_encoding", None) or DEFAULT_SUM_ENCODING
    if method not in SUM_ENCODINGS:
        raise ValueError(f"unknown sum encoding {method!r}; choose one of "
                         f"{', '.join(SUM_ENCODINGS)}")
    return method


@functools.lru_cache(maxsize=4096)
def _value_sets(universe: tuple[int, ...], low: int, high: int, sums: frozenset[int]
                ) -> tuple[frozenset, ...]:
    """Sets of ``low..high`` values from ``universe`` (positive) whose sum is in ``sums``
    (at most :data:`COMBINATION_LIMIT` + 1 of them); the same cages come again and again."""
    values = sorted(universe)
    out: list[frozenset] = []
    high = min(high, len(values))  # more terms than values: some terms are 0 (values from 0)
    if not sums or low > high:
        return ()
    top, bottom = max(sums), min(sums)
    # ahead[j][r]: the least sum of r values from values[j:]; big[r]: the largest r values'
    ahead = [[sum(values[j:j + r]) if j + r <= len(values) else None for r in range(high + 1)]
             for j in range(len(values) + 1)]
    big = [sum(values[len(values) - r:]) if r else 0 for r in range(high + 1)]

    def walk(i: int, chosen: list[int], total: int) -> None:
        k = len(chosen)
        if low <= k and total in sums:
            out.append(frozenset(chosen))
        if k == high or total + big[high - k] < bottom:
            return
        need = max(low - k, 1)
        for j in range(i, len(values)):
            least = ahead[j][need]
            if least is None or total + least > top or len(out) > COMBINATION_LIMIT:
                break
            chosen.append(values[j])
            walk(j + 1, chosen, total + values[j])
            chosen.pop()

    walk(0, [], 0)
    return tuple(out)


def _combination_table(ctx, terms: list[Term], target: int | Term,
                       outside: Sequence[dict[int, list[int]]] = ()) -> list[Clause] | None:
    targets = {target: True} if isinstance(target, int) else {v: lit for v, lit in target}
    lits_of: dict[int, list[int]] = {}
    for term in terms:
        for v, lit in term:
            if v:
                lits_of.setdefault(v, []).append(lit)
    if any(v < 0 for v in lits_of):
        return None
    nonzero = sum(1 for term in terms if all(v for v, _ in term))
    sets = _value_sets(tuple(lits_of), nonzero, len(terms), frozenset(targets))
    if len(sets) > COMBINATION_LIMIT:
        return None
    clauses: list[Clause] = []
    for lits in lits_of.values():
        clauses += at_most_one(lits)
    if not sets:
        return clauses + contradiction(ctx)
    used: dict[int, int] = {}
    for v, lits in lits_of.items():
        if len(lits) == 1:
            used[v] = lits[0]
            continue
        u = used[v] = ctx.fresh()
        clauses.append([-u] + lits)
        clauses += [[-lit, u] for lit in lits]
    # Every literal here is a variable (the cells', ``used``'s, the selectors') but for a
    # single set's selector and an int target's, which are True: a clause with one is met.
    for rest in outside:
        clauses += [[u, *rest.get(v, ())] for v, u in used.items()]
    if len(sets) == 1:
        values = sets[0]
        clauses += [[u] if v in values else [-u] for v, u in used.items()]
        lit = targets[sum(values)]
        if lit is not True:
            clauses.append([lit])
        selectors: list = [True]
    else:
        selectors = [ctx.fresh() for _ in sets]
        clauses.append(list(selectors))
        for values, s in zip(sets, selectors):
            clauses += [[-s, u] if v in values else [-s, -u] for v, u in used.items()]
            lit = targets[sum(values)]
            if lit is not True:
                clauses.append([-s, lit])
        for v, u in used.items():
            clauses.append([-u] + [s for values, s in zip(sets, selectors) if v in values])
            clauses.append([u] + [s for values, s in zip(sets, selectors) if v not in values])
    for t, lit in targets.items():
        if lit is not True:
            chosen = [s for values, s in zip(sets, selectors) if sum(values) == t]
            if not any(s is True for s in chosen):
                clauses.append([-lit, *chosen])
    return clauses


# -- totalizer -----------------------------------------------------------------------------

def _totalizer(ctx, terms: list[Term], target: int, chain: bool = False) -> list[Clause]:
    """The generalized totalizer of ``sum(terms) == target``: the terms' order literals
    merged pairwise up a balanced tree, or with ``chain`` one term at a time."""
    shift, top = _bounds(terms)
    target -= shift
    if target < 0 or target > top - shift:
        return contradiction(ctx)
    cap = target + 1  # every value above the target is "too much": one literal for all
    clauses: list[Clause] = []
    root = _tree(ctx, terms, cap, chain, clauses)
    if target and target not in root:
        return clauses + contradiction(ctx)
    if target:
        clauses.append([root[target]])
    if cap in root:
        clauses.append([-root[cap]])
    return clauses


def _bounds(terms: list[Term]) -> tuple[int, int]:
    """The least and the largest value ``sum(terms)`` can take."""
    return sum(min(v for v, _ in t) for t in terms), sum(max(v for v, _ in t) for t in terms)


def _tree(ctx, terms: list[Term], cap: int, chain: bool, clauses: list[Clause]
          ) -> dict[int, int]:
    """The order literals of ``sum(terms)`` less the sum of their least values (values from
    ``cap`` up merged): the terms' leaves merged up a balanced tree, or one at a time."""
    nodes = [_leaf(ctx, t, cap, clauses) for t in terms]
    while chain and len(nodes) > 1:
        nodes[:2] = [_merge(ctx, nodes[0], nodes[1], cap, clauses)]
    while len(nodes) > 1:
        paired = [_merge(ctx, nodes[i], nodes[i + 1], cap, clauses)
                  for i in range(0, len(nodes) - 1, 2)]
        nodes = paired + nodes[len(nodes) - len(nodes) % 2:]
    return nodes[0] if nodes else {}


def _totalizer_to_term(ctx, terms: list[Term], goal: Term, chain: bool = False
                       ) -> list[Clause]:
    """The totalizer of ``sum(terms) == goal``, a term: the sum's order literals (up to the
    goal's largest value) and the goal's own, equal at every threshold. Merging the goal's
    negation into the tree instead (as the other encodings take a term target) makes the top
    merge the product of both ranges: 82,857 clauses for the pill arrows of sigh's Triple
    digits, whose circles spell 100-252."""
    shift, top = _bounds(terms)
    clauses: list[Clause] = [[-lit] for v, lit in goal if not shift <= v <= top]
    goal = tuple((v - shift, lit) for v, lit in goal if shift <= v <= top)
    if not goal:
        return clauses + contradiction(ctx)
    cap = max(v for v, _ in goal) + 1  # the sum past the goal's largest value: too much
    total = _tree(ctx, terms, cap, chain, clauses)
    low = min(v for v, _ in goal)
    wanted = {low + v: lit for v, lit in _leaf(ctx, goal, cap, clauses).items()}
    keys, goal_keys = sorted(total), sorted(wanted)
    for t in sorted(set(total) | set(wanted)):  # sum >= t  <->  goal >= t
        a, b = _at_least(total, keys, 0, t), _at_least(wanted, goal_keys, low, t)
        if isinstance(a, bool) and isinstance(b, bool):
            if a != b:
                return clauses + contradiction(ctx)
        elif isinstance(a, bool) or isinstance(b, bool):
            known, lit = (a, b) if isinstance(a, bool) else (b, a)
            clauses.append([lit] if known else [-lit])
        else:
            clauses += [[-a, b], [-b, a]]
    return clauses


def _at_least(ge: dict[int, int], keys: list[int], low: int, t: int) -> int | bool:
    """"value >= ``t``" from order literals ``ge`` (``keys``: its thresholds, sorted) of a
    value of at least ``low``: True, False, or the literal of the least threshold from ``t``
    up."""
    if t <= low:
        return True
    i = bisect.bisect_left(keys, t)
    return ge[keys[i]] if i < len(keys) else False


def _leaf(ctx, term: Term, cap: int, clauses: list[Clause]) -> dict[int, int]:
    """Order literals ``{v: lit}`` meaning "value >= v" for the term shifted to start at 0."""
    low = min(v for v, _ in term)
    by_value: dict[int, list[int]] = {}
    for v, lit in term:
        by_value.setdefault(min(v - low, cap), []).append(lit)
    values = sorted(v for v in by_value if v > 0)
    ge: dict[int, int] = {}
    above = None
    for v in reversed(values):  # ge[v] <-> (value is v) or ge[next value]
        lits = by_value[v]
        if above is None and len(lits) == 1:
            ge[v] = lits[0]
        else:
            g = ge[v] = ctx.fresh()
            clauses += [[-lit, g] for lit in lits]
            rest: list[int] = [] if above is None else [above]
            clauses.append([-g] + lits + rest)
            if above is not None:
                clauses.append([-above, g])
        above = ge[v]
    return ge


def _merge(ctx, a: dict[int, int], b: dict[int, int], cap: int,
           clauses: list[Clause]) -> dict[int, int]:
    """The order literals of the sum of two nodes, with the clauses linking them."""
    va, vb = [0] + sorted(a), [0] + sorted(b)
    sums = sorted({min(x + y, cap) for x in va for y in vb} - {0})
    s = {v: ctx.fresh() for v in sums}
    for lower, upper in zip(sums, sums[1:]):
        clauses.append([-s[upper], s[lower]])
    nxt_a = dict(zip(va, va[1:]))
    nxt_b = dict(zip(vb, vb[1:]))
    nxt_s = dict(zip([0] + sums, sums))
    for x in va:
        for y in vb:
            total = min(x + y, cap)
            if total:  # a >= x and b >= y  ->  sum >= x + y
                clause = [-a[x]] if x else []
                clause += [-b[y]] if y else []
                clauses.append(clause + [s[total]])
            above = nxt_s.get(x + y) if x + y < cap else None
            if above is not None:  # a < next(x) and b < next(y)  ->  sum < next(x + y)
                clause = [-s[above]]
                clause += [a[nxt_a[x]]] if x in nxt_a else []
                clause += [b[nxt_b[y]]] if y in nxt_b else []
                clauses.append(clause)
    return s


# -- pruning -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=4096)
def combinations(n: int, count: int, total: int) -> tuple[int, ...]:
    """Bitmasks of the sets of ``count`` different digits 1..``n`` summing to ``total``.

    >>> [digits_of(m) for m in combinations(9, 2, 4)]
    [[1, 3]]
    """
    return tuple(sum(bit(d) for d in combo)
                 for combo in itertools.combinations(range(1, n + 1), count)
                 if sum(combo) == total)


def sum_supports(domains: Sequence[Sequence[int]], targets: set[int],
                 work: int | None = None) -> tuple[list[set[int]], set[int]] | None:
    """The values of each domain that some choice summing into ``targets`` uses, and the
    targets reached; None when there is no such choice (repeats allowed).

    With ``work``, when the partial sums times the values would pass that (a circle of many
    digits, a long sum on a big grid), only the bounds are kept: the values that fit between the
    least and the greatest the other domains can add (fewer removed, never a wrong one).

    >>> sum_supports([[1, 2, 3], [1, 2, 3]], {5})
    ([{2, 3}, {2, 3}], {5})
    >>> sum_supports([[1000, 2000], [1, 2, 3]], {1002, 2009}, work=4)
    ([{1000}, {2}], {1002})
    """
    if any(not values for values in domains):
        return None
    low = sum(min(values) for values in domains)
    high = sum(max(values) for values in domains)
    targets = {t for t in targets if low <= t <= high}
    if not targets:
        return None
    live = reachable(domains, targets, work)
    if live is None:
        return _bound_supports(domains, targets, low, high)
    if not live[0]:
        return None
    supports = [{v for v in values if any(a + v in live[i + 1] for a in live[i])}
                for i, values in enumerate(domains)]
    return supports, live[-1]


def _bound_supports(domains: Sequence[Sequence[int]], targets: set[int], low: int, high: int
                    ) -> tuple[list[set[int]], set[int]] | None:
    """:func:`sum_supports` by bounds alone, to a fixed point: each value must leave the rest
    able to reach some target between their least and their greatest sums."""
    sets = [set(values) for values in domains]
    while True:
        t_low, t_high = min(targets), max(targets)
        changed = False
        for values in sets:
            least, most = min(values), max(values)
            rest_low, rest_high = low - least, high - most
            keep = {v for v in values if t_low - rest_high <= v <= t_high - rest_low}
            if not keep:
                return None
            if keep != values:
                values.intersection_update(keep)
                low += min(keep) - least
                high += max(keep) - most
                changed = True
        targets = {t for t in targets if low <= t <= high}
        if not targets:
            return None
        if not changed:
            return sets, targets


def prune_cell_sum(cells: Sequence[int], weights: Sequence[int], cand: list[int],
                   targets: set[int], changed: set[int]) -> set[int] | None:
    """Prune ``cells`` so that ``sum(weight * digit)`` can land in ``targets``; the targets
    still reachable, or None on a contradiction."""
    domains = [[w * d for d in digits_of(cand[c])] for c, w in zip(cells, weights)]
    found = sum_supports(domains, targets, PRUNE_WORK)
    if found is None:
        return None
    supports, reached = found
    for cell, w, values in zip(cells, weights, supports):
        if not restrict(cand, cell, sum(bit(v // w) for v in values), changed):
            return None
    return reached
