"""Rules made of rules: ``or`` (at least one of them holds) and ``and`` (all of them hold, for
an ``and`` inside an ``or``), as sigh's Or and And.

Encoding: each inner rule's own clauses, switched on by an activation literal of its own
(``-act | clause``), and for ``or`` one clause saying some activation literal holds. This is
exact because every rule's clauses are sound and complete for its rule on their own (the
promise of :mod:`satdoku.rules`): a grid that satisfies an inner rule satisfies its clauses
with the right auxiliaries, and one that satisfies its clauses satisfies the rule. The prune of
``or`` keeps what some inner rule's prune keeps (each tried on a copy of the candidates).

``not`` is left out: the negation of a rule's clauses with auxiliaries is not a set of clauses
over the digits, and a table of every forbidden assignment grows with N to the number of cells.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..model.geometry import Geometry
from ..model.grid import Grid, Rule
from ..records import record, replace
from .base import Clause, Constraint
from .fields import Field, Fields
from .registry import constraint_from_json

__all__ = ["AnyOf", "AllOf"]


class Rules(Field):
    """A list of at least ``at_least`` constraint objects, each read as a rule of its own."""

    kind = "rules"

    def __init__(self, name: str = "rules", attr: str | None = None, *, at_least: int = 1,
                 **options: Any) -> None:
        super().__init__(name, attr, **options)
        self.at_least = at_least

    def read(self, f: Fields) -> tuple[Constraint, ...]:
        value = f.data.get(self.name)
        if not isinstance(value, list) or len(value) < self.at_least:
            raise ValueError(f"'{self.name}' must be a list of {self.at_least} or more "
                             f"constraint objects")
        out = []
        for i, item in enumerate(value):
            try:
                out.append(constraint_from_json(item, f.geometry))
            except ValueError as error:
                kind = item.get("type") if isinstance(item, dict) else None
                raise ValueError(f"'{self.name}'[{i}]{f' ({kind})' if kind else ''}: "
                                 f"{error}") from None
        return tuple(out)

    def write(self, value: Any, geometry: Geometry) -> Any:
        return [rule.to_json(geometry) for rule in value]

    def schema(self) -> dict:
        return {"type": "array", "items": {"$ref": "#/$defs/constraint"},
                "minItems": self.at_least}

    def text(self) -> str:
        return f"list of {self.at_least} or more constraints"


class _Composite(Constraint):
    """Rules over ``rules`` (inner constraints)."""

    rules: tuple[Constraint, ...]
    joiner = ""
    any_shape = True  # on any grid its inner rules take (each refuses the others itself)

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted({c for rule in self.rules for c in rule.cells}))

    def bind(self, constraints: Sequence[Rule]) -> Constraint:
        # (a field of each subclass, a record: _Composite is none, so mypy cannot see it)
        return replace(self, rules=tuple(r.bind(constraints)  # type: ignore[call-arg]
                                                     for r in self.rules))

    @property
    def requires(self) -> tuple[Constraint, ...]:
        """What the inner rules count on (their clauses are this rule's)."""
        return tuple(dict.fromkeys(r for rule in self.rules for r in rule.requires))

    def describe(self, geometry: Geometry) -> str:
        inner = f" {self.joiner} ".join(rule.describe(geometry) for rule in self.rules)
        return f"{self.type} ({inner})"

    def clause_estimate(self, geometry: Geometry) -> int:
        return sum(rule.clause_estimate(geometry) or 0 for rule in self.rules) + \
            (1 if self.type == "or" else 0)

    def holds(self, digits: tuple[int, ...]) -> bool:
        raise NotImplementedError("composite rules check a grid (check), not a tuple")

    def draw(self, canvas) -> None:
        """Each inner rule as it draws itself, and the rule in words in a note under the
        grid."""
        for rule in self.rules:
            rule.draw(canvas)
        canvas.note(self.describe(canvas.geometry))


@record(frozen=True)
class AnyOf(_Composite):
    """``or``: at least one of ``rules`` holds (2 or more constraint objects of any type).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.rules import Candidates
    >>> rule = AnyOf((Candidates((0,), (1,)), Candidates((1,), (1,))))
    >>> rule.describe(geometry(2, 2))
    'or (candidates r1c1: 1 | candidates r1c2: 1)'
    """

    type = "or"
    reads_values = False
    rules: tuple[Constraint, ...]
    joiner = "|"
    fields = (Rules(at_least=2, doc="the rules, one of which holds"),)

    def encode(self, ctx) -> list[Clause]:
        acts = [ctx.fresh() for _ in self.rules]
        clauses = [list(acts)]
        for act, rule in zip(acts, self.rules):
            clauses += [[-act] + list(clause) for clause in rule.encode(ctx)]
        return clauses

    def check(self, grid: Grid) -> list[str]:
        problems = [rule.check(grid) for rule in self.rules]
        if any(not p for p in problems):
            return []
        return [f"{self.describe(grid.geometry)}: none holds ("
                + "; ".join(p[0] for p in problems) + ")"]

    def prune(self, cand: list[int]) -> list[int] | None:
        union = [0] * len(cand)
        alive = False
        for rule in self.rules:
            trial = list(cand)
            if rule.prune(trial) is None:
                continue
            alive = True
            for c in self.cells:
                union[c] |= trial[c]
        if not alive:
            return None
        changed = []
        for c in self.cells:
            if cand[c] & union[c] != cand[c]:
                cand[c] &= union[c]
                changed.append(c)
        return changed


@record(frozen=True)
class AllOf(_Composite):
    """``and``: every one of ``rules`` holds (1 or more; useful inside an ``or``).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.rules import Odd, Thermometer
    >>> AllOf((Odd((0,)), Thermometer((0, 1)))).describe(geometry(2, 2))
    'and (odd r1c1 & thermometer from r1c1 to r1c2)'
    """

    type = "and"
    reads_values = False
    rules: tuple[Constraint, ...]
    joiner = "&"
    fields = (Rules(doc="the rules, all of which hold"),)

    def encode(self, ctx) -> list[Clause]:
        return [clause for rule in self.rules for clause in rule.encode(ctx)]

    def check(self, grid: Grid) -> list[str]:
        return [p for rule in self.rules for p in rule.check(grid)]

    def prune(self, cand: list[int]) -> list[int] | None:
        changed: set[int] = set()
        for rule in self.rules:
            result = rule.prune(cand)
            if result is None:
                return None
            changed.update(result)
        return sorted(changed)
