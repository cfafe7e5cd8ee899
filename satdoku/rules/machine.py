"""``nfa``: the digits along a line, read in order, are accepted by a state machine the setter
writes out (sigh's NFA / State Machine), states by name, moves on digits.

The machine becomes the :class:`.automaton.NFA` a ``regex`` pattern becomes, and goes the one
path of patterns from there: unrolled along the line into layers (:func:`.automaton.
encode_layers`, whose clause count :func:`.automaton.layer_clauses` is exact, so the clause
limit refuses a machine up front), and pruned by the same layers, forward and back.
"""

from __future__ import annotations

import functools
from typing import Any

from ..model.geometry import Geometry
from ..records import field, record
from .automaton import MAX_SYMBOL, NFA, LineMachine
from .base import Constraint, cell_span
from .custom import _draw_line
from .fields import Cells, Field, Fields

__all__ = ["StateMachine", "MAX_STATES"]

#: The most states a machine may have (the layers hold one variable per live state).
MAX_STATES = 2000


class Names(Field):
    """A list of state names (non-empty strings), each once; ``at_least`` of them."""

    kind = "names"

    def __init__(self, name: str, attr: str | None = None, *, at_least: int = 1,
                 **options: Any) -> None:
        super().__init__(name, attr, **options)
        self.at_least = at_least

    def read(self, f: Fields) -> tuple[str, ...]:
        value = f.data.get(self.name)
        if not isinstance(value, list) or len(value) < self.at_least or not all(
                isinstance(v, str) and v for v in value):
            raise ValueError(f"'{self.name}' must be a list of {self.at_least} or more state "
                             f"names (strings)")
        if len(set(value)) != len(value):
            twice = next(v for v in value if value.count(v) > 1)
            raise ValueError(f"'{self.name}' names state {twice!r} twice")
        return tuple(value)

    def write(self, value: Any, geometry: Geometry) -> Any:
        return list(value)

    def schema(self) -> dict:
        return {"type": "array", "items": {"type": "string", "pattern": "."},
                "minItems": self.at_least, "uniqueItems": True}

    def text(self) -> str:
        return "list of state names"


Move = tuple[str, str, tuple[int, ...]]


class Moves(Field):
    """A list of moves ``{"from": state, "to": state, "digits": [1, 2]}``."""

    kind = "moves"

    def read(self, f: Fields) -> tuple[Move, ...]:
        value = f.data.get(self.name)
        if not isinstance(value, list):
            raise ValueError(f"'{self.name}' must be a list of moves like "
                             f"{{\"from\": \"a\", \"to\": \"b\", \"digits\": [1, 2]}}")
        out = []
        for i, move in enumerate(value):
            where = f"'{self.name}'[{i}]"
            if not isinstance(move, dict) or set(move) != {"from", "to", "digits"}:
                raise ValueError(f"{where} must have exactly 'from', 'to' and 'digits'")
            if not all(isinstance(move[k], str) for k in ("from", "to")):
                raise ValueError(f"{where}: 'from' and 'to' must be state names")
            digits = move["digits"]
            geo = f.geometry
            if not isinstance(digits, list) or not digits or not all(
                    isinstance(d, int) and not isinstance(d, bool)
                    and geo.low <= d <= geo.high for d in digits):
                raise ValueError(f"{where}: 'digits' must be a list of digits "
                                 f"{geo.low}..{geo.high}")
            out.append((move["from"], move["to"], tuple(sorted(set(digits)))))
        return tuple(out)

    def write(self, value: Any, geometry: Geometry) -> Any:
        return [{"from": a, "to": b, "digits": list(ds)} for a, b, ds in value]

    def schema(self) -> dict:
        move = {"type": "object", "required": ["from", "to", "digits"],
                "additionalProperties": False,
                "properties": {"from": {"type": "string"}, "to": {"type": "string"},
                               "digits": {"type": "array", "minItems": 1,
                                          "items": {"type": "integer", "minimum": 1}}}}
        return {"type": "array", "items": move}

    def text(self) -> str:
        return "list of moves {from, to, digits}"


@record(frozen=True)
class StateMachine(LineMachine, Constraint):
    """``nfa``: the line's digits, read in order, take the machine from one of its
    ``start`` states to one of its ``accepting`` states by ``transitions`` (each from a
    state to a state on any of its digits; several moves may leave a state on one digit).

    >>> m = StateMachine((0, 1, 2), ("even", "odd"), ("even",), ("even",),
    ...                  (("even", "odd", (1, 3)), ("odd", "even", (1, 3)),
    ...                   ("even", "even", (2, 4)), ("odd", "odd", (2, 4))))
    >>> m.holds((1, 2, 3)), m.holds((1, 2, 4))
    (True, False)
    """

    type = "nfa"
    any_shape = True
    any_values = True  # its digits are values (0..8 on a 0-8 grid): the masks are shifted
    line: tuple[int, ...]
    states: tuple[str, ...]
    start: tuple[str, ...]
    accepting: tuple[str, ...]
    transitions: tuple[Move, ...]
    geometry: Geometry | None = field(default=None, compare=False)  # None: digits 1..N
    fields = (Cells("cells", "line", repeats=True, doc="the line's cells in order"),
              Names("states", doc="the machine's states, by name"),
              Names("start", doc="the states it starts in"),
              Names("accepting", at_least=0, doc="the states that accept the line"),
              Moves("transitions", doc="its moves: {\"from\": state, \"to\": state, "
                                       "\"digits\": [digits read]}"))

    def __post_init__(self) -> None:
        known = set(self.states)
        if len(self.states) > MAX_STATES:
            raise ValueError(f"the machine has more than {MAX_STATES} states")
        for key, names in (("start", self.start), ("accepting", self.accepting)):
            unknown = [s for s in names if s not in known]
            if unknown:
                raise ValueError(f"'{key}' names {unknown[0]!r}, not one of 'states'")
        for i, (a, b, digits) in enumerate(self.transitions):
            for s in (a, b):
                if s not in known:
                    raise ValueError(f"'transitions'[{i}] names {s!r}, not one of 'states'")
            if any(not 0 <= d <= MAX_SYMBOL for d in digits):
                raise ValueError(f"'transitions'[{i}]: digits must be 0..{MAX_SYMBOL}")

    @functools.cached_property
    def nfa(self) -> NFA:
        index = {s: i for i, s in enumerate(self.states)}
        moves: list[dict[int, int]] = [{} for _ in self.states]
        low = self.geometry.low if self.geometry is not None else 1
        for a, b, digits in self.transitions:
            mask = sum(1 << (v - low) for v in digits)  # the bit of the digit of value v
            moves[index[a]][index[b]] = moves[index[a]].get(index[b], 0) | mask
        return NFA(len(self.states), frozenset(index[s] for s in self.start),
                   frozenset(index[s] for s in self.accepting),
                   tuple(tuple(sorted((m, q2) for q2, m in out.items())) for out in moves))

    def holds(self, values: tuple[int, ...]) -> bool:
        low = self.geometry.low if self.geometry is not None else 1
        return self.nfa.accepts(tuple(v - low + 1 for v in values))

    def describe(self, geometry: Geometry) -> str:
        return f"nfa ({len(self.states)} states) {cell_span(geometry, self.line)}"

    def draw(self, canvas) -> None:
        """A thin dash-dotted violet line from a small disc on its first cell (as ``regex``
        draws its lines), the machine's size once in a note under the grid."""
        _draw_line(canvas, self.line, "nfa", (0.05, 0.12, 0.2, 0.12))
        canvas.note(f"nfa: {len(self.states)} states")
