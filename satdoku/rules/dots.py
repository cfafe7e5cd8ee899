"""Clues between two adjacent cells, and their negative constraints: ``kropki-white``,
``kropki-black``, ``xv``, ``edge-sum``, ``no-kropki``, ``no-xv``.

A negative constraint speaks of the pairs *without* a clue, so it must know the clues: it is
bound to the puzzle's constraints (:meth:`Constraint.bind`, which
:class:`satdoku.model.puzzle.Puzzle` does for every puzzle). An unbound one refuses to
encode, check or prune. As f-puzzles' own solver reads them (KropkiConstraint.ts and
SumConstraint.ts in dclamage/SudokuVariantSolverJS), ``no-kropki`` covers the pairs with no
dot of either colour (a pair with a white dot may still be in ratio 2) and forbids its listed
differences (default 1) and ratios (default 2) whatever the dots' own numbers; ``no-xv``
covers the pairs with no X, V or edge sum and forbids its listed sums (default 5 and 10).
"""

from __future__ import annotations

import functools
from typing import ClassVar, Sequence

from ..model.geometry import Geometry
from ..model.grid import Rule
from ..records import record, replace
from .base import Constraint, GlobalRule, orthogonal_pairs
from .exchange import FPuzzles
from .fields import Int, Ints, Pair
from .pairs import PairRule

__all__ = ["KropkiWhite", "KropkiBlack", "XV", "EdgeSum", "NoKropki", "NoXV"]


class _Dot(PairRule):
    """A clue on one pair of adjacent cells (field ``pair``) with one number: the attribute
    ``number`` names it, written as ``key`` in JSON and left out when it is ``default``
    (None: always written)."""

    pair: tuple[int, int]
    number: ClassVar[str]
    key: ClassVar[str]
    default: ClassVar[int | None] = None
    low: ClassVar[int] = 1

    @property
    def pairs(self):
        return (self.pair,)

    @property
    def value(self) -> int:
        return getattr(self, self.number)

    def draw(self, canvas) -> None:
        """A dot on the pair's edge, white or black, with its number in it unless it is the
        usual one (difference 1, ratio 2)."""
        canvas.dot(*self.pair, black=isinstance(self, KropkiBlack),
                   value=None if self.value == self.default else self.value)

    def _span(self, geometry: Geometry) -> str:
        a, b = self.pair
        extra = f" ({self.number} {self.value})" if self.value != self.default else ""
        return f"{geometry.cell_name(a)}-{geometry.cell_name(b)}{extra}"


@record(frozen=True)
class KropkiWhite(_Dot):
    """``kropki-white``: the two digits differ by exactly ``difference`` (default 1).

    >>> from satdoku.model.geometry import geometry
    >>> KropkiWhite((0, 1), 2).describe(geometry(2, 2))
    'white dot r1c1-r1c2 (difference 2)'
    """

    type = "kropki-white"
    any_shape = True
    reads_values = False
    pair: tuple[int, int]
    difference: int = 1
    number, key, default = "difference", "difference", 1
    fields = (Pair(doc="the two cells"),
              Int("difference", low=1, required=False, default=1, omit_default=True,
                  doc="their difference"))
    fpuzzles = (FPuzzles("difference", "dot", value="difference",
                         how="difference = the dot's value, 1 without one"),)

    def allowed(self, x: int, y: int, n: int) -> bool:
        return abs(x - y) == self.difference

    def describe(self, geometry: Geometry) -> str:
        return f"white dot {self._span(geometry)}"


@record(frozen=True)
class KropkiBlack(_Dot):
    """``kropki-black``: one digit is ``ratio`` (default 2) times the other."""

    type = "kropki-black"
    any_shape = True
    any_values = True
    pair: tuple[int, int]
    ratio: int = 2
    number, key, default = "ratio", "ratio", 2
    fields = (Pair(doc="the two cells"),
              Int("ratio", low=2, required=False, default=2, omit_default=True,
                  doc="one digit is this many times the other"))
    fpuzzles = (FPuzzles("ratio", "dot", value="ratio",
                         how="ratio = the dot's value, 2 without one"),)

    def allowed(self, x: int, y: int, n: int) -> bool:
        return x == self.ratio * y or y == self.ratio * x

    def describe(self, geometry: Geometry) -> str:
        return f"black dot {self._span(geometry)}"


@record(frozen=True)
class XV(_Dot):
    """``xv``: the two digits sum to ``total``, 10 (X) or 5 (V).

    >>> from satdoku.model.geometry import geometry
    >>> XV((0, 4), 5).describe(geometry(2, 2)), XV((0, 4), 5).to_json(geometry(2, 2))
    ('V r1c1-r2c1', {'type': 'xv', 'cells': ['r1c1', 'r2c1'], 'sum': 5})
    """

    type = "xv"
    any_shape = True
    any_values = True
    pair: tuple[int, int]
    total: int = 10
    number, key = "total", "sum"
    fields = (Pair(doc="the two cells"),
              Int("sum", "total", choices=(5, 10), doc="5 (V) or 10 (X)"))
    fpuzzles = (FPuzzles("xv", "dot", value="total", options={"letters": {"X": 10, "V": 5}},
                         how="X: sum 10, V: sum 5"),)

    def __post_init__(self) -> None:
        if self.total not in (5, 10):
            raise ValueError(f"an XV clue sums to 5 or 10, not {self.total}")

    def allowed(self, x: int, y: int, n: int) -> bool:
        return x + y == self.total

    def draw(self, canvas) -> None:
        """The letter X or V on the pair's edge."""
        canvas.edge_text(*self.pair, "X" if self.total == 10 else "V")

    def describe(self, geometry: Geometry) -> str:
        a, b = self.pair
        return f"{'X' if self.total == 10 else 'V'} {geometry.cell_name(a)}-{geometry.cell_name(b)}"


@record(frozen=True)
class EdgeSum(_Dot):
    """``edge-sum``: the two digits sum to ``total`` (a number on their edge; XV with any sum).

    >>> from satdoku.model.geometry import geometry
    >>> EdgeSum((0, 1), 7).describe(geometry(2, 2)), EdgeSum((0, 1), 7).allowed(3, 4, 4)
    ('edge sum r1c1-r1c2 = 7', True)
    """

    type = "edge-sum"
    any_values = True
    pair: tuple[int, int]
    total: int = 10
    number, key = "total", "sum"
    fields = (Pair(doc="the two cells"), Int("sum", "total", low=2, doc="their sum"))
    fpuzzles = (FPuzzles("sum", "dot", value="total", source="f-puzzles' solver",
                         how="sum = the value"),)

    def allowed(self, x: int, y: int, n: int) -> bool:
        return x + y == self.total

    def draw(self, canvas) -> None:
        """The sum small on the pair's edge."""
        canvas.edge_text(*self.pair, str(self.total), size=0.3)

    def describe(self, geometry: Geometry) -> str:
        a, b = self.pair
        return f"edge sum {geometry.cell_name(a)}-{geometry.cell_name(b)} = {self.total}"


class _Negative(GlobalRule, PairRule):
    """Every orthogonally adjacent pair not in ``marked`` (set by :meth:`bind`)."""

    geometry: Geometry
    marked: frozenset | None
    clue_types: ClassVar[tuple[type[_Dot], ...]] = ()

    @functools.cached_property
    def pairs(self):
        if self.marked is None:
            raise ValueError(f"{self.type} must be bound to its puzzle's constraints first "
                             f"(Constraint.bind)")
        return tuple(p for p in orthogonal_pairs(self.geometry)
                     if frozenset(p) not in self.marked)

    def bind(self, constraints: Sequence[Rule]) -> "_Negative":
        marked = frozenset(frozenset(c.pair) for c in constraints
                           if isinstance(c, self.clue_types))
        # (a field of each subclass, a record: _Negative is none, so mypy cannot see it)
        return replace(self, marked=marked)  # type: ignore[call-arg]


def _values(values: Sequence[int]) -> str:
    return ", ".join(map(str, values))


@record(frozen=True)
class NoKropki(_Negative):
    """``no-kropki``: adjacent cells without a dot (white or black) differ by none of
    ``differences`` (default 1) and are in none of ``ratios`` (default 2).

    ``"ratios": []`` is "all white dots given", ``"differences": []`` "all black dots given".

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(2, 2)
    >>> NoKropki(g).allowed(2, 4, 4), NoKropki(g, ratios=()).allowed(2, 4, 4)
    (False, True)
    """

    type = "no-kropki"
    any_values = True
    geometry: Geometry
    marked: frozenset | None = None
    differences: tuple[int, ...] = (1,)
    ratios: tuple[int, ...] = (2,)
    clue_types = (KropkiWhite, KropkiBlack)
    fields = (Ints("differences", low=1, high=None, min_items=0, unique=True, required=False,
                   default=(1,), omit_default=True, what="differences",
                   doc="the differences forbidden between cells without a dot"),
              Ints("ratios", low=2, high=None, min_items=0, unique=True, required=False,
                   default=(2,), omit_default=True, what="ratios",
                   doc="the ratios forbidden between cells without a dot"))
    fpuzzles = (FPuzzles("nonconsecutive", "negative",
                         how="with kropki dots: difference 1 between cells without a dot"),
                FPuzzles("negative", "negative",
                         how="'ratio': the black dots' ratios and 2; 'difference': the white "
                             "dots' differences; 'xv': sums 5 and 10; 'sum': the edge sums"))

    def allowed(self, x: int, y: int, n: int) -> bool:
        return abs(x - y) not in self.differences and not any(
            x == r * y or y == r * x for r in self.ratios)

    def describe(self, geometry: Geometry) -> str:
        if (self.differences, self.ratios) == ((1,), (2,)):
            return "no other kropki dots"
        parts = []
        if self.differences:
            parts.append(f"no other white dots (difference {_values(self.differences)})")
        if self.ratios:
            parts.append(f"no other black dots (ratio {_values(self.ratios)})")
        return " and ".join(parts) or "no-kropki forbidding nothing"


@record(frozen=True)
class NoXV(_Negative):
    """``no-xv``: adjacent cells without an X, V or edge sum sum to none of ``sums`` (default
    5 and 10)."""

    type = "no-xv"
    any_values = True
    geometry: Geometry
    marked: frozenset | None = None
    sums: tuple[int, ...] = (5, 10)
    clue_types = (XV, EdgeSum)
    fields = (Ints("sums", low=2, high=None, min_items=0, unique=True, required=False,
                   default=(5, 10), omit_default=True, what="sums",
                   doc="the sums forbidden between cells without a clue"),)
    fpuzzles = (FPuzzles("negative", "negative", how="see no-kropki"),)

    def allowed(self, x: int, y: int, n: int) -> bool:
        return x + y not in self.sums

    def describe(self, geometry: Geometry) -> str:
        if self.sums == (5, 10):
            return "no other X or V"
        return f"no other edge sums ({_values(self.sums)})"
