"""Rules a setter writes: ``pair`` (a relation over the digits ``a`` and ``b`` of pairs of
cells, or the pairs allowed, listed), ``regex`` (a line's digits, read in order, match a
regular expression), and ``greater-than`` (each cell above its later neighbours on a list).

The relation is parsed by :mod:`.expression`, never evaluated as Python; the pattern becomes a
state machine (:mod:`.automaton`) unrolled along the line. Both are bounded by the clause
limit: ``clause_estimate`` is the exact count of what ``encode`` writes (for pairs, as for
every pair rule, :meth:`.PairRule.clause_estimate`).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from ..model.geometry import Geometry
from ..records import field, record
from .automaton import LineMachine, parse_pattern
from .base import Constraint, cell_span
from .expression import parse_relation
from .fields import Cells, Choice, Field, Fields, Text
from .pairs import PairRule

__all__ = ["PairRelation", "Regex", "GreaterThan"]


class DigitPairs(Field):
    """A list of digit pairs ``[[1, 2], [2, 4]]``, each a value of the grid (1..N), no pair
    twice."""

    kind = "digit pairs"

    def read(self, f: Fields) -> Any:
        if not f.has(self.name):
            return self.default
        value, geo = f.data[self.name], f.geometry
        if not isinstance(value, list) or not value or not all(
                isinstance(p, list) and len(p) == 2 and all(
                    isinstance(d, int) and not isinstance(d, bool) and
                    geo.low <= d <= geo.high for d in p)
                for p in value):
            raise ValueError(f"'{self.name}' must be a list of pairs of digits "
                             f"{geo.low}..{geo.high}, like [[1, 2], [2, 4]]")
        pairs = tuple(tuple(p) for p in value)
        if len(set(pairs)) != len(pairs):
            raise ValueError(f"'{self.name}' lists a pair twice")
        return pairs

    def write(self, value: Any, geometry: Geometry) -> Any:
        return [list(p) for p in value]

    def omitted(self, value: Any) -> bool:
        return value is None

    def schema(self) -> dict:
        digit = {"type": "integer", "minimum": 1}
        return {"type": "array", "minItems": 1, "items": {
            "type": "array", "items": digit, "minItems": 2, "maxItems": 2}}

    def text(self) -> str:
        return "list of digit pairs [a, b]"


@record(frozen=True)
class PairRelation(PairRule):
    """``pair``: each cell and the next on the line (``between: "all"``: every two of the
    cells, both ways round) satisfy ``relation`` over their digits ``a`` and ``b``, or are
    one of the listed ``pairs``.

    >>> from satdoku.model.geometry import geometry
    >>> rule = PairRelation((0, 1, 2), "a > b")
    >>> rule.holds((3, 2, 1)), rule.holds((3, 1, 2)), rule.describe(geometry(2, 2))
    (True, False, "pair 'a > b' r1c1-r1c2-r1c3")
    """

    type = "pair"
    any_values = True
    line: tuple[int, ...]
    relation: str | None = None
    table: tuple[tuple[int, int], ...] | None = None
    between: str = "next"
    fields = (Cells("cells", "line", at_least=2, repeats=True, doc="the cells, in order"),
              Text("relation", required=False, parse=parse_relation,
                   what="relation over a and b",
                   doc="a truth over a (the first cell's digit) and b (the second's): "
                       "'a > b', 'abs(a - b) == 2 or a * b == 6'"),
              DigitPairs("pairs", "table", required=False,
                         doc="the digit pairs [a, b] allowed (instead of a relation)"),
              Choice("between", ("next", "all"), required=False, default="next",
                     omit_default=True,
                     doc="'next': each cell and the next; 'all': every two cells, both ways"))

    def __post_init__(self) -> None:
        if (self.relation is None) == (self.table is None):
            raise ValueError("a pair rule needs 'relation' or 'pairs' (one of them)")
        if self.between not in ("next", "all"):
            raise ValueError(f"'between' must be 'next' or 'all', not {self.between!r}")

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    @functools.cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        if self.between == "all":
            return tuple(itertools.combinations(self.line, 2))
        return tuple(zip(self.line, self.line[1:]))

    @functools.cached_property
    def _holds(self):
        if self.relation is not None:
            return parse_relation(self.relation)
        table = frozenset(self.table or ())
        return lambda a, b: (a, b) in table

    def allowed(self, x: int, y: int, n: int) -> bool:
        if self.between == "all":
            return self._holds(x, y) and self._holds(y, x)
        return self._holds(x, y)

    def holds(self, digits: tuple[int, ...]) -> bool:
        n = max(digits, default=0)
        at = dict(zip(self.line, digits))
        return all(self.allowed(at[a], at[b], n) for a, b in self.pairs)

    def describe(self, geometry: Geometry) -> str:
        what = repr(self.relation) if self.relation is not None else "of listed pairs"
        every = " (every two)" if self.between == "all" else ""
        return f"pair {what}{every} {cell_span(geometry, self.line)}"

    def draw(self, canvas) -> None:
        """A dark teal line (dotted for every two cells) from a small disc on its first cell
        (``a``); the relation, once for all its lines, in a note under the grid."""
        _draw_line(canvas, self.line, "pair", (0.05, 0.12) if self.between == "all" else None)
        what = self.relation if self.relation is not None else "listed pairs " + ", ".join(
            f"{a}{b}" for a, b in self.table or ())
        canvas.note(f"pair{' (every two)' if self.between == 'all' else ''}: {what}")


@record(frozen=True)
class Regex(LineMachine, Constraint):
    """``regex``: the line's digits, read in order, match the regular expression
    ``pattern`` (the whole line: values ``1``-``9`` then ``A``-``Z`` for 10 and up, ``0`` in
    a grid of values from 0, ``.``, ``[...]``, ``[^...]``, ``(...)``, ``|``, ``*``, ``+``,
    ``?``, ``{n}``, ``{n,}``, ``{n,m}``).

    >>> Regex((0, 1, 2), "1[2-4]+").holds((1, 3, 2)), Regex((0, 1, 2), "1[2-4]+").holds((2, 3, 4))
    (True, False)
    """

    type = "regex"
    any_shape = True
    any_values = True  # its characters are values (0..8 on a 0-8 grid): the masks are shifted
    line: tuple[int, ...]
    pattern: str
    geometry: Geometry | None = field(default=None, compare=False)  # None: digits 1..N
    fields = (Cells("cells", "line", repeats=True, doc="the line's cells in order"),
              Text("pattern", parse=lambda text: parse_pattern(text, 0 if "0" in text else 1),
                   what="regular expression over values",
                   doc="what the values along the line read, the whole of it: '1[2-4]*9'"))

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        try:
            parse_pattern(values["pattern"], geometry.low)
        except ValueError as error:
            raise ValueError(f"'pattern' {values['pattern']!r}: {error}") from None

    def __post_init__(self) -> None:
        self.nfa  # noqa: B018 (a bad pattern is a ValueError here)

    @property
    def nfa(self):
        return parse_pattern(self.pattern, self.geometry.low if self.geometry else 1)

    def holds(self, values: tuple[int, ...]) -> bool:
        low = self.geometry.low if self.geometry is not None else 1
        return self.nfa.accepts(tuple(v - low + 1 for v in values))

    def describe(self, geometry: Geometry) -> str:
        return f"regex {self.pattern!r} {cell_span(geometry, self.line)}"

    def draw(self, canvas) -> None:
        """A dashed brown line from a small disc on its first cell (where the reading
        starts), the pattern, once for all its lines, in a note under the grid."""
        _draw_line(canvas, self.line, "regex", (0.2, 0.1))
        canvas.note(f"regex: {self.pattern}")


@record(frozen=True)
class GreaterThan(PairRule):
    """``greater-than``: each cell's digit is greater than that of every later cell of the
    list that is its orthogonal neighbour (two cells: a ">" between them).

    >>> from satdoku.model.geometry import geometry
    >>> GreaterThan(geometry(2, 2), (0, 1, 5)).pairs
    ((0, 1), (1, 5))
    """

    type = "greater-than"
    any_shape = True
    reads_values = False
    geometry: Geometry
    listed: tuple[int, ...]
    fields = (Cells("cells", "listed", at_least=2, doc="the cells, greater first"),)

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        n, cells = geometry.width, values["listed"]
        alone = [c for c in cells if not any(_adjacent(c, o, n) for o in cells)]
        if alone:
            raise ValueError(f"{geometry.cell_name(alone[0])} has no orthogonal neighbour "
                             f"among the cells")

    @property
    def cells(self) -> tuple[int, ...]:
        return self.listed

    @functools.cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        n = self.geometry.width
        return tuple((a, b) for i, a in enumerate(self.listed) for b in self.listed[i + 1:]
                     if _adjacent(a, b, n))

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x > y

    def describe(self, geometry: Geometry) -> str:
        return f"greater-than {cell_span(geometry, self.listed)}"

    def draw(self, canvas) -> None:
        """A '>' (or '<', '∧', '∨') on the edge of each pair, opening towards the greater."""
        for a, b in self.pairs:
            (ra, ca), (rb, cb) = divmod(a, canvas.cols), divmod(b, canvas.cols)
            sign = {(0, 1): ">", (0, -1): "<", (1, 0): "∨", (-1, 0): "∧"}[rb - ra, cb - ca]
            canvas.edge_text(a, b, sign, size=0.4)


def _draw_line(canvas, line: tuple[int, ...], colour: str, dash) -> None:
    """A setter's line: thin, in ``colour``, from a small disc on its first cell."""
    canvas.line(line, colour, width=0.12, dash=dash)
    canvas.circle(line[0], radius=0.13, stroke=None, fill=colour)


def _adjacent(a: int, b: int, n: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1
