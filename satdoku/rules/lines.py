"""Lines whose rule is between pairs of their cells: ``thermometer``, ``slow-thermometer``,
``german-whispers``, ``palindrome``, ``entropic``, and ``clone`` (cells paired with their
copies). All are pair rules (:mod:`.pairs`): their clauses keep each pair arc consistent, which
along a line gives a thermometer's bounds by unit propagation alone.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..model.geometry import Geometry
from .base import CellsRule, Fields, cell_span
from .pairs import PairRule

__all__ = ["Thermometer", "SlowThermometer", "GermanWhispers", "Palindrome", "Entropic",
           "Clone"]


class _Line(CellsRule, PairRule):
    """A rule on ``line`` (cells in order)."""

    line: tuple[int, ...]
    noun = ""

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def describe(self, geometry: Geometry) -> str:
        return f"{self.noun} from {geometry.cell_name(self.line[0])}"


class _Consecutive(_Line):
    """A relation between each cell and the next one on the line."""

    @functools.cached_property
    def pairs(self):
        return tuple(zip(self.line, self.line[1:]))


@dataclass(frozen=True)
class Thermometer(_Consecutive):
    """``thermometer``: digits strictly increase from the bulb (``line[0]``).

    >>> from satdoku.model.geometry import geometry
    >>> t = Thermometer((0, 1, 2))
    >>> t.pairs, t.describe(geometry(2, 2))
    (((0, 1), (1, 2)), 'thermometer from r1c1')
    """

    type = "thermometer"
    line: tuple[int, ...]
    noun = "thermometer"

    def draw(self, canvas) -> None:
        """A grey bulb on the first cell, a thick grey line to the last."""
        canvas.thermometer(self.line)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x < y


@dataclass(frozen=True)
class SlowThermometer(_Consecutive):
    """``slow-thermometer``: digits never decrease from the bulb."""

    type = "slow-thermometer"
    line: tuple[int, ...]
    noun = "slow thermometer"

    def draw(self, canvas) -> None:
        """A thermometer in outline: grey rim, white inside."""
        canvas.thermometer(self.line, hollow=True)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x <= y


@dataclass(frozen=True)
class GermanWhispers(_Consecutive):
    """``german-whispers``: neighbours on the line differ by at least ``difference``."""

    type = "german-whispers"
    line: tuple[int, ...]
    difference: int = 5
    noun = "German whispers"

    def allowed(self, x: int, y: int, n: int) -> bool:
        return abs(x - y) >= self.difference

    def draw(self, canvas) -> None:
        """A green line; a difference other than the usual one for the size (5 on 9x9, half
        of N rounded up) is written in a small disc on the line's first step."""
        canvas.line(self.line, "whisper")
        if self.difference != (canvas.size + 1) // 2:
            canvas.badge(self.line[0], self.line[min(1, len(self.line) - 1)], self.difference,
                         "whisper")

    def _json_fields(self, geometry: Geometry) -> dict:
        extra = {"difference": self.difference} if self.difference != 5 else {}
        return {**super()._json_fields(geometry), **extra}

    @classmethod
    def from_json(cls, data: dict, geometry: Geometry) -> "GermanWhispers":
        f = Fields(data, geometry, "cells", "difference")
        return cls(f.cells(), f.int("difference", 5, low=1), label=f.label)


def _equal(x: int, y: int, n: int) -> bool:
    return x == y


@dataclass(frozen=True)
class Palindrome(_Line):
    """``palindrome``: the line reads the same from both ends."""

    type = "palindrome"
    line: tuple[int, ...]
    noun = "palindrome"
    allowed = staticmethod(_equal)

    def draw(self, canvas) -> None:
        """A grey line."""
        canvas.line(self.line, "palindrome")

    @functools.cached_property
    def pairs(self):
        k = len(self.line)
        return tuple((self.line[i], self.line[k - 1 - i]) for i in range(k // 2))


def _group(d: int, n: int) -> int:
    return (d - 1) * 3 // n


@dataclass(frozen=True)
class Entropic(_Line):
    """``entropic``: any 3 consecutive cells hold a low, a middle and a high digit (1-3, 4-6,
    7-9 on 9x9; thirds of 1..N for any N divisible by 3).

    Three cells hold one of each third when every two of them are in different thirds, so
    this is a pair rule over cells one and two apart (lines of 3 cells or more).
    """

    type = "entropic"
    line: tuple[int, ...]
    noun = "entropic line"

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return _group(x, n) != _group(y, n)

    def draw(self, canvas) -> None:
        """An orange line."""
        canvas.line(self.line, "entropic")

    @functools.cached_property
    def pairs(self):
        k = len(self.line)
        if k < 3:
            return ()
        return tuple((self.line[i], self.line[j]) for i in range(k)
                     for j in (i + 1, i + 2) if j < k)

    @classmethod
    def from_json(cls, data: dict, geometry: Geometry) -> "Entropic":
        if geometry.size % 3:
            raise ValueError(f"entropic lines need a size divisible by 3, not "
                             f"{geometry.size}")
        return super().from_json(data, geometry)


@dataclass(frozen=True)
class Clone(PairRule):
    """``clone``: ``original[i]`` and ``copy[i]`` hold the same digit."""

    type = "clone"
    original: tuple[int, ...]
    copy: tuple[int, ...]
    allowed = staticmethod(_equal)

    def __post_init__(self) -> None:
        if len(self.original) != len(self.copy):
            raise ValueError(f"a clone has as many cells as its original, not "
                             f"{len(self.copy)} for {len(self.original)}")

    @functools.cached_property
    def pairs(self):
        return tuple(zip(self.original, self.copy))

    def describe(self, geometry: Geometry) -> str:
        return f"clone {cell_span(geometry, self.copy)} of {cell_span(geometry, self.original)}"

    def draw(self, canvas) -> None:
        """The cells and their copies shaded alike, each clone in its own tint."""
        canvas.clone(self.original, self.copy)

    def _json_fields(self, geometry: Geometry) -> dict:
        return {"cells": [geometry.cell_name(c) for c in self.original],
                "clone": [geometry.cell_name(c) for c in self.copy]}

    @classmethod
    def from_json(cls, data: dict, geometry: Geometry) -> "Clone":
        f = Fields(data, geometry, "cells", "clone")
        original, copy = f.cells(), f.cells("clone")
        if len(original) != len(copy):
            raise ValueError(f"'clone' must have as many cells as 'cells' ({len(original)}), "
                             f"not {len(copy)}")
        return cls(original, copy, label=f.label)
