"""Clues between two adjacent cells, and their negative constraints: ``kropki-white``,
``kropki-black``, ``xv``, ``no-kropki``, ``no-xv``.

A negative constraint speaks of the pairs *without* a clue, so it must know the clues: it is
bound to the puzzle's constraints (:meth:`Constraint.bind`, which
:class:`satdoku.io.variant.VariantPuzzle` does for every puzzle). An unbound one refuses to encode,
check or prune. As the spec says, ``no-kropki`` covers the pairs with no dot of either colour
(a pair with a white dot may still be in ratio 2), and looks for difference 1 and ratio 2
whatever the dots' own difference and ratio.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar, Sequence

from ..model.geometry import Geometry
from .base import Constraint, Fields, GlobalRule, orthogonal_pairs
from .pairs import PairRule

__all__ = ["KropkiWhite", "KropkiBlack", "XV", "NoKropki", "NoXV"]


def _adjacent_pair(f: Fields) -> tuple[int, int]:
    a, b = f.cells(exactly=2)
    n = f.geometry.size
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    if abs(ra - rb) + abs(ca - cb) != 1:
        name = f.geometry.cell_name
        raise ValueError(f"{name(a)} and {name(b)} are not orthogonally adjacent")
    return a, b


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

    def _json_fields(self, geometry: Geometry) -> dict:
        out = {"cells": [geometry.cell_name(c) for c in self.pair]}
        if self.value != self.default:
            out[self.key] = self.value
        return out

    @classmethod
    def from_json(cls, data: dict, geometry: Geometry):
        f = Fields(data, geometry, "cells", cls.key)
        return cls(_adjacent_pair(f), f.int(cls.key, cls.default, low=cls.low), label=f.label)


@dataclass(frozen=True)
class KropkiWhite(_Dot):
    """``kropki-white``: the two digits differ by exactly ``difference`` (default 1).

    >>> from satdoku.model.geometry import geometry
    >>> KropkiWhite((0, 1), 2).describe(geometry(2, 2))
    'white dot r1c1-r1c2 (difference 2)'
    """

    type = "kropki-white"
    pair: tuple[int, int]
    difference: int = 1
    number, key, default = "difference", "difference", 1

    def allowed(self, x: int, y: int, n: int) -> bool:
        return abs(x - y) == self.difference

    def describe(self, geometry: Geometry) -> str:
        return f"white dot {self._span(geometry)}"


@dataclass(frozen=True)
class KropkiBlack(_Dot):
    """``kropki-black``: one digit is ``ratio`` (default 2) times the other."""

    type = "kropki-black"
    pair: tuple[int, int]
    ratio: int = 2
    number, key, default, low = "ratio", "ratio", 2, 2

    def allowed(self, x: int, y: int, n: int) -> bool:
        return x == self.ratio * y or y == self.ratio * x

    def describe(self, geometry: Geometry) -> str:
        return f"black dot {self._span(geometry)}"


@dataclass(frozen=True)
class XV(_Dot):
    """``xv``: the two digits sum to ``total``, 10 (X) or 5 (V).

    >>> from satdoku.model.geometry import geometry
    >>> XV((0, 4), 5).describe(geometry(2, 2)), XV((0, 4), 5).to_json(geometry(2, 2))
    ('V r1c1-r2c1', {'type': 'xv', 'cells': ['r1c1', 'r2c1'], 'sum': 5})
    """

    type = "xv"
    pair: tuple[int, int]
    total: int = 10
    number, key = "total", "sum"

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


class _Negative(GlobalRule, PairRule):
    """Every orthogonally adjacent pair not in ``marked`` (set by :meth:`bind`)."""

    geometry: Geometry
    marked: frozenset | None
    clue_types: tuple[type, ...] = ()

    @functools.cached_property
    def pairs(self):
        if self.marked is None:
            raise ValueError(f"{self.type} must be bound to its puzzle's constraints first "
                             f"(Constraint.bind)")
        return tuple(p for p in orthogonal_pairs(self.geometry)
                     if frozenset(p) not in self.marked)

    def bind(self, constraints: Sequence[Constraint]) -> "_Negative":
        marked = frozenset(frozenset(c.pair) for c in constraints
                           if isinstance(c, self.clue_types))
        return dataclasses.replace(self, marked=marked)


def _no_kropki(x: int, y: int, n: int) -> bool:
    return abs(x - y) != 1 and x != 2 * y and y != 2 * x


def _no_xv(x: int, y: int, n: int) -> bool:
    return x + y not in (5, 10)


@dataclass(frozen=True)
class NoKropki(_Negative):
    """``no-kropki``: adjacent cells without a dot differ by more than 1 and are not in ratio
    2."""

    type = "no-kropki"
    geometry: Geometry
    marked: frozenset | None = None
    clue_types = (KropkiWhite, KropkiBlack)
    allowed = staticmethod(_no_kropki)

    def describe(self, geometry: Geometry) -> str:
        return "no other kropki dots"


@dataclass(frozen=True)
class NoXV(_Negative):
    """``no-xv``: adjacent cells without an X or V sum to neither 5 nor 10."""

    type = "no-xv"
    geometry: Geometry
    marked: frozenset | None = None
    clue_types = (XV,)
    allowed = staticmethod(_no_xv)

    def describe(self, geometry: Geometry) -> str:
        return "no other X or V"
