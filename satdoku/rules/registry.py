"""Every rule type by its name, and what each says about itself: :data:`CONSTRAINTS`,
:func:`constraint_from_json` (with a "did you mean" for a misspelt type) and
:func:`rule_types` (name, meaning, JSON fields, f-puzzles keys: what ``satdoku rules`` lists
and ``docs/variants.md`` tabulates).
"""

from __future__ import annotations

import re
from ..records import record
from .base import CONSTRAINTS, Constraint
from .fields import did_you_mean

__all__ = ["CONSTRAINTS", "RuleType", "constraint_from_json", "rule_types", "summary_of"]


def constraint_from_json(data: dict, geometry) -> Constraint:
    """The constraint of one JSON object, by its ``type``; ValueError saying what is wrong.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(3, 3)
    >>> constraint_from_json({"type": "killer", "cells": ["r1c1", "r2c1"], "sum": 9}, g)
    Killer(cells=(0, 9), total=9)
    >>> constraint_from_json({"type": "thermo", "cells": []}, g)
    Traceback (most recent call last):
    ...
    ValueError: unknown constraint type 'thermo' (did you mean 'thermometer'?)
    """
    if not isinstance(data, dict):
        raise ValueError("a constraint must be a JSON object")
    kind = data.get("type")
    cls = CONSTRAINTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        if "type" not in data:
            raise ValueError("a constraint needs a 'type'")
        raise ValueError(f"unknown constraint type {kind!r}{did_you_mean(kind, CONSTRAINTS)}")
    return cls.from_json(data, geometry)


def summary_of(cls: type[Constraint]) -> str:
    """The rule in words: the first sentence of the class docstring after ``type``:.

    >>> from satdoku.rules import Thermometer
    >>> summary_of(Thermometer)
    'digits strictly increase from the bulb (line[0]).'
    """
    first = (cls.__doc__ or "").strip().split("\n\n")[0]
    text = " ".join(first.split())
    text = re.sub(r"^``[^`]+``:\s*", "", text)
    text = text.replace("``", "")
    return text


@record(frozen=True)
class RuleType:
    """What a rule type says about itself."""

    name: str
    summary: str
    fields: tuple[dict, ...]
    fpuzzles: tuple[str, ...]
    cls: type[Constraint]

    def as_dict(self) -> dict:
        return {"type": self.name, "summary": self.summary, "fields": list(self.fields),
                "fpuzzles": list(self.fpuzzles)}


def rule_types() -> list[RuleType]:
    """Every rule type, in the order of :data:`CONSTRAINTS`, with its fields and f-puzzles
    keys.

    >>> kinds = {r.name: r for r in rule_types()}
    >>> [f["name"] for f in kinds["x-sum"].fields], kinds["x-sum"].fpuzzles
    (['line', 'from', 'sum'], ('xsum',))
    """
    return [RuleType(name, summary_of(cls), tuple(f.info() for f in cls.fields),
                     tuple(dict.fromkeys(k.key for k in cls.fpuzzles)), cls)
            for name, cls in CONSTRAINTS.items()]
