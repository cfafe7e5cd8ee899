"""Cages from sigh's Interactive Sudoku Solver: ``lunchbox``, ``rellik-cage``,
``equality-cage`` and ``equal-sum``.

Glossary: a cage's cells hold different digits (all but ``equal-sum``, whose segments are
any cells). The *smallest* and *largest* of a lunchbox are its extreme digits, whichever
cells hold them; the cells strictly between them in the cage's order are *between*.

Encodings: a lunchbox writes order literals "cell <= d" per cell, from them "this cell holds
the smallest (largest) digit", then as a sandwich does: a cell is between when exactly one of
the two extremes comes before it and it is neither, and the between cells' digits, gated,
sum to the total (:func:`.sums.gated_term`, :func:`.sums.encode_sum`). A rellik cage forbids
each set of digits that sums to its number (one clause over the "used d" literals). An
equality cage sums +1/-1 per cell twice (even against odd, low against high) to 0. Equal sums
share the region-sum lines' code (:func:`.line_sums._encode_equal_sums`).
"""

from __future__ import annotations

import functools
from typing import Any, Iterator, Sequence

from ..model.geometry import Geometry
from ..model.grid import Rule
from ..records import record, replace
from .base import CellsRule, Clause, Constraint, cell_span, contradiction, prune_by_search
from .cells import Candidates
from .cell_sums import encode_cell_sum
from .fields import Cells, Field, Fields, Int, Ints, parse_cell
from .groups import encode_distinct
from .line_sums import _encode_equal_sums, _prune_equal_sums
from .sums import encode_sum, gated_term
from .tallies import used_digits

__all__ = ["Lunchbox", "RellikCage", "EqualityCage", "EqualSum", "WeightedSum"]


class _Cage(Constraint):
    """A cage whose cells hold different digits; the prune searches over different digits."""

    cells: tuple[int, ...]

    def prune(self, cand: list[int]) -> list[int] | None:
        return prune_by_search(self.cells, cand, self.holds, distinct=True)


def _order(ctx, cell: int) -> tuple[list[int | None], list[Clause]]:
    """``le[d]``: the literal "``cell``'s digit <= d" for d = 1..N-1 (``le[0]`` and ``le[N]``
    are None: false and true)."""
    le: list[int | None] = [None] * (ctx.size + 1)
    clauses: list[Clause] = []
    prev = None
    for d in range(1, ctx.size):
        x = ctx.var(cell, d)
        if prev is not None:  # <= d: <= d - 1, or d
            v = ctx.fresh()
            clauses += [[-prev, v], [-x, v], [-v, prev, x]]
            x = v
        le[d] = prev = x
    return le, clauses


def _extremes(ctx, cells: tuple[int, ...]) -> tuple[list[int], list[int], list[Clause]]:
    """For each cell, literals "it holds the smallest digit" and "it holds the largest",
    with their clauses (the cells' digits differ)."""
    n = ctx.size
    orders, clauses = [], []
    for c in cells:
        le, more = _order(ctx, c)
        orders.append(le)
        clauses += more
    lows, highs = [], []
    for i, c in enumerate(cells):
        low, high = ctx.fresh(), ctx.fresh()
        lows.append(low)
        highs.append(high)
        others = [le for j, le in enumerate(orders) if j != i]
        for d in range(1, n + 1):
            x = ctx.var(c, d)
            below = [v for v in (le[d - 1] for le in others) if v is not None]  # other < d
            upto = [v for v in (le[d] for le in others) if v is not None]  # other <= d
            # low and c = d: every other cell is above d; not low: some other is below d
            clauses += [[-low, -x, -v] for v in upto]
            if d == n and others:
                clauses.append([-low, -x])
            clauses.append([low, -x] + below)
            # high and c = d: every other cell is below d; not high: some other is above d
            clauses += [[-high, -x, v] for v in below]
            if d == 1 and others:
                clauses.append([-high, -x])
            clauses.append([high, -x] + [-v for v in upto])
    return lows, highs, clauses


@record(frozen=True)
class Lunchbox(_Cage):
    """``lunchbox``: the cage's digits differ, and those of the cells strictly between (in
    the cage's order) the cell of its smallest digit and the cell of its largest sum to
    ``sum`` (sigh's Lunchbox; a sandwich whose bread is the cage's own extremes).

    >>> Lunchbox((0, 1, 2, 3), 5).holds((2, 5, 6, 1)), Lunchbox((0, 1, 2), 0).holds((3, 1, 2))
    (False, True)
    """

    type = "lunchbox"
    cells: tuple[int, ...]
    total: int
    fields = (Cells(doc="the cage's cells, in order"),
              Int("sum", "total", low=0, doc="the sum between the smallest and the largest"))

    def describe(self, geometry: Geometry) -> str:
        return f"lunchbox {cell_span(geometry, self.cells)} = {self.total}"

    def encode(self, ctx) -> list[Clause]:
        cells, k = self.cells, len(self.cells)
        clauses = encode_distinct(ctx, cells)
        if k <= 2:
            return clauses + ([] if self.total == 0 else contradiction(ctx))
        lows, highs, more = _extremes(ctx, cells)
        clauses += more
        terms = []
        low_before, high_before = lows[0], highs[0]  # an extreme among cells[:i]
        for i in range(1, k - 1):
            t, b = ctx.fresh(), ctx.fresh()  # t: exactly one extreme before; b: between
            clauses += [[-t, low_before, high_before], [-t, -low_before, -high_before],
                        [t, -low_before, high_before], [t, low_before, -high_before],
                        [-b, t], [-b, -lows[i]], [-b, -highs[i]], [b, -t, lows[i], highs[i]]]
            term, gated = gated_term(ctx, cells[i], b, range(1, ctx.size + 1))
            terms.append(term)
            clauses += gated
            low_next, high_next = ctx.fresh(), ctx.fresh()
            for before, here, nxt in ((low_before, lows[i], low_next),
                                      (high_before, highs[i], high_next)):
                clauses += [[-before, nxt], [-here, nxt], [-nxt, before, here]]
            low_before, high_before = low_next, high_next
        return clauses + encode_sum(ctx, terms, self.total, distinct=True)

    def holds(self, digits: tuple[int, ...]) -> bool:
        if len(set(digits)) != len(digits):
            return False
        i, j = sorted((digits.index(min(digits)), digits.index(max(digits))))
        return sum(digits[i + 1:j]) == self.total

    def draw(self, canvas) -> None:
        """A grey tint over the cells, the sum small in the first (as sigh shades it)."""
        canvas.shade(self.cells, "extra_region")
        canvas.cage(self.cells, self.total)


def _digit_sets(n: int, total: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every set of 1 to ``most`` different digits 1..n that sums to ``total``."""
    def walk(low: int, left: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if left == 0 and chosen:
            yield chosen
            return
        if len(chosen) == most:
            return
        for d in range(low, min(n, left) + 1):
            yield from walk(d + 1, left - d, chosen + (d,))
    return walk(1, total, ())


@record(frozen=True)
class RellikCage(_Cage):
    """``rellik-cage``: the cage's digits differ, and no one or more of them sum to ``sum``
    (sigh's Rellik Cage: a killer cage in reverse).

    >>> RellikCage((0, 1, 2), 5).holds((1, 3, 6)), RellikCage((0, 1, 2), 5).holds((1, 4, 6))
    (True, False)
    """

    type = "rellik-cage"
    cells: tuple[int, ...]
    total: int
    fields = (Cells(doc="the cage's cells"),
              Int("sum", "total", low=1, doc="the sum no set of its digits makes"))

    def describe(self, geometry: Geometry) -> str:
        return f"rellik cage {cell_span(geometry, self.cells)} != {self.total}"

    def encode(self, ctx) -> list[Clause]:
        clauses = encode_distinct(ctx, self.cells)
        used, more = used_digits(ctx, self.cells)
        clauses += more
        for digits in _digit_sets(ctx.size, self.total, len(self.cells)):
            clauses.append([-used[d] for d in digits])
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        if len(set(digits)) != len(digits):
            return False
        sums = {0}
        for d in digits:
            sums |= {s + d for s in sums}
        return self.total not in sums

    def draw(self, canvas) -> None:
        """A dashed outline, '≠' and the sum small in the first cell."""
        canvas.cage(self.cells, f"≠{self.total}")


@record(frozen=True)
class EqualityCage(_Cage, CellsRule):
    """``equality-cage``: the cage's digits differ, as many are even as odd and as many are
    low (the lower half of 1..N) as high (the upper half); when N is odd its middle digit is
    in neither half and stays out (sigh's Equality Cage). An even number of cells.

    >>> from satdoku.model.geometry import geometry
    >>> c = EqualityCage(geometry(3, 3), (0, 1, 2, 3))
    >>> c.holds((1, 2, 8, 9)), c.holds((1, 3, 8, 9)), c.holds((1, 5, 8, 6))
    (True, False, False)
    """

    type = "equality-cage"
    any_values = True
    geometry: Geometry
    cells: tuple[int, ...]
    fields = (Cells(doc="the cage's cells (an even number)"),)

    def __post_init__(self) -> None:
        if len(self.cells) % 2:
            raise ValueError(f"an equality cage needs an even number of cells, not "
                             f"{len(self.cells)}")

    def describe(self, geometry: Geometry) -> str:
        return f"equality cage {cell_span(geometry, self.cells)}"

    def _halves(self, d: int) -> tuple[int, int]:
        """(+1 even / -1 odd value, +1 low / -1 high / 0 middle) of digit d."""
        n = self.geometry.size
        low = 1 if 2 * d < n + 1 else -1 if 2 * d > n + 1 else 0
        return (1 if self.geometry.value(d) % 2 == 0 else -1), low

    def encode(self, ctx) -> list[Clause]:
        clauses = encode_distinct(ctx, self.cells)
        n = ctx.size
        if n % 2:
            clauses += [[-ctx.var(c, (n + 1) // 2)] for c in self.cells]
        digits = [d for d in range(1, n + 1) if self._halves(d)[1]]
        for side in (0, 1):
            terms = [tuple((self._halves(d)[side], ctx.var(c, d)) for d in digits)
                     for c in self.cells]
            clauses += encode_sum(ctx, terms, 0)
        return clauses

    def holds(self, values: tuple[int, ...]) -> bool:
        digits = [v - self.geometry.low + 1 for v in values]
        halves = [self._halves(d) for d in digits]
        return (len(set(digits)) == len(digits) and all(low for _, low in halves)
                and sum(p for p, _ in halves) == 0 and sum(low for _, low in halves) == 0)

    def draw(self, canvas) -> None:
        """A dashed outline, '=' small in the first cell."""
        canvas.cage(self.cells, "=")


class Segments(Field):
    """A list of 2 or more segments, each a non-empty list of cell names (a cell may come in
    several segments, and twice in one: it then counts twice)."""

    kind = "segments"

    def read(self, f: Fields) -> Any:
        value = f.data.get(self.name)
        if not isinstance(value, list) or len(value) < 2 or not all(
                isinstance(s, list) and s for s in value):
            raise ValueError(f"'{self.name}' must be a list of 2 or more lists of cell names")
        out = []
        for i, segment in enumerate(value):
            try:
                out.append(tuple(parse_cell(c, f.geometry) for c in segment))
            except ValueError as error:
                raise ValueError(f"'{self.name}'[{i}]: {error}") from None
        return tuple(out)

    def write(self, value: Any, geometry: Geometry) -> Any:
        return [[geometry.cell_name(c) for c in s] for s in value]

    def schema(self) -> dict:
        return {"type": "array", "minItems": 2,
                "items": {"type": "array", "items": {"$ref": "#/$defs/cell"}, "minItems": 1}}

    def text(self) -> str:
        return "2 or more lists of cells"


@record(frozen=True)
class EqualSum(Constraint):
    """``equal-sum``: every segment's digits have the same sum (sigh's Equal Sum; digits
    may repeat).

    >>> EqualSum(((0, 1), (2,), (3, 4))).holds((1, 4, 5, 2, 3)), EqualSum(((0,), (1,))).holds((1, 2))
    (True, False)
    """

    type = "equal-sum"
    segments: tuple[tuple[int, ...], ...]
    fields = (Segments("segments", doc="the segments, each a list of cells"),)

    @functools.cached_property
    def cells(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(c for s in self.segments for c in s)

    def describe(self, geometry: Geometry) -> str:
        return "equal sum " + " | ".join(cell_span(geometry, s) for s in self.segments)

    def encode(self, ctx) -> list[Clause]:
        return _encode_equal_sums(ctx, self.segments)

    def holds(self, digits: tuple[int, ...]) -> bool:
        at, sums = 0, set()
        for s in self.segments:
            sums.add(sum(digits[at:at + len(s)]))
            at += len(s)
        return len(sums) == 1

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        if _prune_equal_sums(self.segments, cand, changed) is None:
            return None
        return sorted(changed)

    def draw(self, canvas) -> None:
        """Each segment in a dashed outline with '=' small in its first cell."""
        for s in self.segments:
            canvas.cage(s, "=")


@record(frozen=True)
class WeightedSum(Constraint):
    """``sum``: the cells' values, each times its weight (default 1), add up to ``total``; a
    cell may come twice (it counts twice) and the values may repeat (sigh's Sum).

    >>> WeightedSum((0, 1, 0), (1, 1, 1), 7).holds((2, 3, 2)), WeightedSum((0, 1), (10, -1), 9).holds((1, 1))
    (True, True)
    """

    type = "sum"
    any_shape = True
    any_values = True
    fields = (Cells(repeats=True, doc="the cells (one listed twice counts twice)"),
              Ints("weights", low=-10 ** 6, high=None, required=False, default=None,
                   omit_default=True, doc="each cell's weight, in order (default: all 1)"),
              Int("sum", "total", low=-10 ** 6, doc="the total"))
    cells: tuple[int, ...]
    weights: tuple[int, ...] | None = None
    total: int = 0
    # The puzzle's top-level candidates rules (set by :meth:`bind`; not a field of the
    # format): the sum is encoded over the values they leave (:attr:`domains`).
    given: tuple[Candidates, ...] = ()

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        if values["weights"] is not None and len(values["weights"]) != len(values["cells"]):
            raise ValueError("'weights' must give one weight a cell")

    def bind(self, constraints: Sequence[Rule]) -> "WeightedSum":
        """A copy that knows the puzzle's ``candidates`` rules (a 9x9 of values 1-15 whose
        grid cells are 1-9: Rectangle Sums), so that the sum's encoding counts on the values
        they leave and on the houses those fill; bound to a set without any, it knows none."""
        given = tuple(r for r in constraints if isinstance(r, Candidates))
        return self if given == self.given else replace(self, given=given)

    @property
    def requires(self) -> tuple[Constraint, ...]:
        return self.given

    @functools.cached_property
    def domains(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(cell, values) for each cell the ``candidates`` rules it is bound to restrict."""
        domains: dict[int, set[int]] = {}
        for rule in self.given:
            for c in rule.cells:
                domains[c] = domains.get(c, set(rule.digits)) & set(rule.digits)
        return tuple((c, tuple(sorted(v))) for c, v in sorted(domains.items()))

    @functools.cached_property
    def merged(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each cell once with its weights added up (cells of weight 0 left out)."""
        weight: dict[int, int] = {}
        for c, w in zip(self.cells, self.weights or (1,) * len(self.cells)):
            weight[c] = weight.get(c, 0) + w
        kept = [(c, w) for c, w in weight.items() if w]
        return tuple(c for c, _ in kept), tuple(w for _, w in kept)

    def describe(self, geometry: Geometry) -> str:
        return f"sum {cell_span(geometry, self.cells)} = {self.total}"

    def encode(self, ctx) -> list[Clause]:
        cells, weights = self.merged
        if not cells:
            return [] if self.total == 0 else contradiction(ctx)
        value = ctx.geometry.value
        # Not where each rule's clauses must say only that rule (a step path's facts).
        digits: dict[int, Sequence[int]] = {
            c: [d for d in range(1, ctx.size + 1) if value(d) in values]
            for c, values in self.domains} if ctx.houses else {}
        return encode_cell_sum(ctx, cells, weights, self.total, digits=digits)

    def holds(self, values: tuple[int, ...]) -> bool:
        weights = self.weights or (1,) * len(self.cells)
        return sum(w * v for w, v in zip(weights, values)) == self.total

    def prune(self, cand: list[int]) -> list[int] | None:
        cells, weights = self.merged  # each cell once: its digit is one (values 1..N here)
        if not cells:
            return [] if self.total == 0 else None
        return prune_by_search(cells, cand, lambda ds: sum(
            w * d for w, d in zip(weights, ds)) == self.total)

    def draw(self, canvas) -> None:
        """A dashed outline with ``Σ`` and the total in its first cell (weights, when any,
        in a note under the grid)."""
        canvas.cage(self.cells, f"Σ{self.total}")
        if self.weights is not None:
            canvas.note(f"sum with weights {', '.join(map(str, self.weights))}")
