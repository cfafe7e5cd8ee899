"""Lines whose rule is between pairs of their cells: ``thermometer``, ``slow-thermometer``,
``german-whispers``, ``palindrome``, ``entropic``, ``modular``, ``nabner``, and ``clone``
(cells paired with their copies). All are pair rules (:mod:`.pairs`): their clauses keep each
pair arc consistent, which along a line gives a thermometer's bounds by unit propagation alone.

A line may visit a cell twice (a loop drawn back to its start, a figure of eight): the rule
reads the cells in the order drawn, so a thermometer through a cell twice cannot hold and a
whispers loop compares its last cell with its first.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from ..model.geometry import Geometry
from ..records import record
from .base import CellsRule, cell_span, line_ends
from .exchange import FPuzzles
from .fields import Cells, Field, Int
from .pairs import PairRule

__all__ = ["Thermometer", "SlowThermometer", "GermanWhispers", "Palindrome", "Entropic",
           "Modular", "Nabner", "Clone", "PATH"]

#: The ``cells`` of a line that may visit a cell twice.
PATH = Cells("cells", "line", repeats=True, connected=True, doc="the line's cells in order")


class _Line(CellsRule, PairRule):
    """A rule on ``line`` (cells in order)."""

    line: tuple[int, ...]
    noun = ""
    fields: ClassVar[tuple[Field, ...]] = (PATH,)

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def describe(self, geometry: Geometry) -> str:
        return f"{self.noun} {line_ends(geometry, self.line)}"


class _Consecutive(_Line):
    """A relation between each cell and the next one on the line."""

    @functools.cached_property
    def pairs(self):
        return tuple(zip(self.line, self.line[1:]))


@record(frozen=True)
class Thermometer(_Consecutive):
    """``thermometer``: digits strictly increase from the bulb (``line[0]``).

    >>> from satdoku.model.geometry import geometry
    >>> t = Thermometer((0, 1, 2))
    >>> t.pairs, t.describe(geometry(2, 2))
    (((0, 1), (1, 2)), 'thermometer from r1c1 to r1c3')
    """

    type = "thermometer"
    any_shape = True
    reads_values = False
    line: tuple[int, ...]
    noun = "thermometer"
    fields = (Cells("cells", "line", repeats=True, connected=True, doc="bulb first"),)
    fpuzzles = (FPuzzles("thermometer", "lines", how="one per line, bulb first (a branching "
                                                     "thermometer is several lines)"),)

    def draw(self, canvas) -> None:
        """A grey bulb on the first cell, a thick grey line to the last."""
        canvas.thermometer(self.line)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x < y


@record(frozen=True)
class SlowThermometer(_Consecutive):
    """``slow-thermometer``: digits never decrease from the bulb."""

    type = "slow-thermometer"
    any_shape = True
    reads_values = False
    line: tuple[int, ...]
    noun = "slow thermometer"
    fields = (Cells("cells", "line", repeats=True, connected=True, doc="bulb first"),)
    fpuzzles = (FPuzzles("slowthermometer", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    def draw(self, canvas) -> None:
        """A thermometer in outline: grey rim, white inside."""
        canvas.thermometer(self.line, hollow=True)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return x <= y


@record(frozen=True)
class GermanWhispers(_Consecutive):
    """``german-whispers``: neighbours on the line differ by at least ``difference``; by
    default half the digits, rounded up (5 on 9x9, 3 on 6x6, 2 on 4x4, 8 on 16x16), as
    f-puzzles and SudokuPad read a whispers line with no value (a fixed 5 made every 4x4
    whispers line unsolvable)."""

    type = "german-whispers"
    any_shape = True
    reads_values = False
    line: tuple[int, ...]
    difference: int | None = None
    noun = "German whispers"
    fields = (PATH, Int("difference", low=1, required=False, default=None,
                        doc="the least difference between neighbours on the line (default: "
                            "half the digits, rounded up: 5 on 9x9, 3 on 6x6)"))
    fpuzzles = (FPuzzles("whispers", "lines", value="difference", options={"default": "half"},
                         how="one per line, difference = the value, ceil(N/2) without one "
                             "(5 on 9x9, 3 on 6x6)"),)

    def allowed(self, x: int, y: int, n: int) -> bool:
        return abs(x - y) >= (self.difference or (n + 1) // 2)

    def draw(self, canvas) -> None:
        """A green line; a difference other than the usual one for the size (5 on 9x9, half
        of N rounded up) is written in a small disc on the line's first step."""
        canvas.line(self.line, "whisper")
        if self.difference is not None and self.difference != (canvas.size + 1) // 2:
            canvas.badge(self.line[0], self.line[min(1, len(self.line) - 1)], self.difference,
                         "whisper")


def _equal(x: int, y: int, n: int) -> bool:
    return x == y


@record(frozen=True)
class Palindrome(_Line):
    """``palindrome``: the line reads the same from both ends."""

    type = "palindrome"
    any_shape = True
    reads_values = False
    line: tuple[int, ...]
    noun = "palindrome"
    allowed = staticmethod(_equal)
    fpuzzles = (FPuzzles("palindrome", "lines", how="one per line"),)

    def draw(self, canvas) -> None:
        """A grey line."""
        canvas.line(self.line, "palindrome")

    @functools.cached_property
    def pairs(self):
        k = len(self.line)
        return tuple((self.line[i], self.line[k - 1 - i]) for i in range(k // 2))


@functools.lru_cache(maxsize=None)
def _ranks(n: int) -> tuple[int, ...]:
    """The rank (0 low, 1 middle, 2 high) of each digit 0..N of an N x N grid, as SudokuSolver
    splits 1..N into thirds: when N is not divisible by 3 the middle third has the odd size
    (EntropicLineConstraint.cs in dclamage/SudokuSolver).

    >>> _ranks(9)[1:], _ranks(4)[1:], _ranks(8)[1:]
    ((0, 0, 0, 1, 1, 1, 2, 2, 2), (0, 1, 1, 2), (0, 0, 0, 1, 1, 2, 2, 2))
    """
    small, large = n // 3, (n + 2) // 3
    sizes = (small, large, small) if n % 3 == 1 else (large, small, large)
    out = [0]
    for rank, size in enumerate(sizes):
        out += [rank] * size
    return tuple(out[:n + 1])


class _Windowed(_Line):
    """Any ``window`` consecutive cells of the line fall in different classes of digits
    (``klass``): a pair rule over cells fewer than ``window`` apart (lines of 2 cells too)."""

    window: ClassVar[int] = 3

    def klass(self, d: int, n: int) -> int:
        raise NotImplementedError

    def allowed(self, x: int, y: int, n: int) -> bool:
        return self.klass(x, n) != self.klass(y, n)

    @functools.cached_property
    def pairs(self):
        k, w = len(self.line), self.size_of_window
        return tuple((self.line[i], self.line[j]) for i in range(k)
                     for j in range(i + 1, min(k, i + w)))

    @property
    def size_of_window(self) -> int:
        return self.window


@record(frozen=True)
class Entropic(_Windowed):
    """``entropic``: any 3 consecutive cells hold a low, a middle and a high digit (1-3, 4-6,
    7-9 on 9x9; on other sizes the middle third takes the odd size: 1 / 2-3 / 4 on 4x4); the
    two cells of a 2-cell line differ in rank.

    As EntropicLineConstraint.cs in dclamage/SudokuSolver reads it.

    >>> Entropic((0, 1, 2, 3)).pairs, Entropic((0, 1)).allowed(2, 3, 4)
    (((0, 1), (0, 2), (1, 2), (1, 3), (2, 3)), False)
    """

    type = "entropic"
    line: tuple[int, ...]
    noun = "entropic line"
    fpuzzles = (FPuzzles("entropicline", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    def klass(self, d: int, n: int) -> int:
        return _ranks(n)[d]

    def draw(self, canvas) -> None:
        """An orange line."""
        canvas.line(self.line, "entropic")


@record(frozen=True)
class Modular(_Windowed):
    """``modular``: any ``mod`` consecutive cells (default 3) hold digits of different
    remainders mod ``mod`` (147, 258, 369 on 9x9); a shorter line's cells all differ so.

    >>> Modular((0, 1, 2)).allowed(1, 5, 9), Modular((0, 1, 2)).allowed(1, 4, 9)
    (True, False)
    """

    type = "modular"
    reads_values = False
    line: tuple[int, ...]
    mod: int = 3
    noun = "modular line"
    fields = (PATH, Int("mod", low=2, required=False, default=3, omit_default=True,
                        doc="the window and the modulus"))
    fpuzzles = (FPuzzles("modularline", "lines", when={"mod": 3},
                         source="SudokuSolver's user script", how="one per line, mod 3"),)

    def klass(self, d: int, n: int) -> int:
        return d % self.mod

    @property
    def size_of_window(self) -> int:
        return self.mod

    def describe(self, geometry: Geometry) -> str:
        extra = f" (mod {self.mod})" if self.mod != 3 else ""
        return f"modular line {line_ends(geometry, self.line)}{extra}"

    def draw(self, canvas) -> None:
        """A teal line."""
        canvas.line(self.line, "modular")


@record(frozen=True)
class Nabner(_Line):
    """``nabner``: no two cells of the line hold the same or consecutive digits (a cell the
    line visits twice counts once).

    >>> Nabner((0, 1, 0)).pairs, Nabner((0, 1)).allowed(3, 4, 9)
    (((0, 1),), False)
    """

    type = "nabner"
    reads_values = False
    line: tuple[int, ...]
    noun = "nabner line"
    fpuzzles = (FPuzzles("nabner", "lines", source="SudokuSolver's user script",
                         how="one per line"),)

    @staticmethod
    def allowed(x: int, y: int, n: int) -> bool:
        return abs(x - y) >= 2

    @functools.cached_property
    def pairs(self):
        cells = tuple(dict.fromkeys(self.line))
        return tuple((a, b) for i, a in enumerate(cells) for b in cells[i + 1:])

    def draw(self, canvas) -> None:
        """An olive line."""
        canvas.line(self.line, "nabner")


@record(frozen=True)
class Clone(PairRule):
    """``clone``: ``original[i]`` and ``copy[i]`` hold the same digit."""

    type = "clone"
    reads_values = False
    original: tuple[int, ...]
    copy: tuple[int, ...]
    allowed = staticmethod(_equal)
    fields = (Cells("cells", "original", doc="the original cells"),
              Cells("clone", "copy", doc="their copies, as many, in the same order"))
    fpuzzles = (FPuzzles("clone", "clone", how="cells and cloneCells"),)

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

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        original, copy = values["original"], values["copy"]
        if len(original) != len(copy):
            raise ValueError(f"'clone' must have as many cells as 'cells' ({len(original)}), "
                             f"not {len(copy)}")
