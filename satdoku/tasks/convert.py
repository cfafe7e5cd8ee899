"""Converting puzzles between forms: satdoku variant JSON, f-puzzles (its compressed string,
a link, its JSON) and SudokuPad links (``https://sudokupad.app/fpuzzles...``, the same data).

Reading is every command's (:mod:`satdoku.io.inputs`: classic text, satdoku JSON, and every
form of :mod:`satdoku.io.forms`); writing is the target's. What a target cannot hold (a rule
f-puzzles has no key for) is named, one line each, never dropped silently: the conversion is
refused unless ``lossy``, which writes the rest and keeps the names as warnings.

>>> out = convert('{"size": 4, "givens": "1...............", "constraints": '
...               '[{"type": "anti-king"}]}', "fpuzzles-json")
>>> out.text, out.lost
('{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],\
[{},{},{},{}]],"antiking":true}', [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..errors import PuzzleError
from ..io.fpuzzles import FPUZZLES_FORMS, encode_fpuzzles
from ..io.fpuzzles.write import to_fpuzzles
from ..io.variant import format_variant
from ..model.puzzle import Puzzle
from .base import Outcome, Task

__all__ = ["TARGETS", "Converted", "Convert", "convert_puzzle", "convert",
           "convert_all"]

#: What ``convert`` writes: satdoku JSON (one line), and the f-puzzles forms.
TARGETS = ("json",) + FPUZZLES_FORMS


@dataclass
class Converted:
    """One puzzle converted: its ``text`` (None when refused or unreadable), what the target
    could not hold (``lost``), what reading left out (``warnings``), and the reading error."""

    puzzle: Puzzle | None
    text: str | None
    lost: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: PuzzleError | None = None

    @property
    def refused(self) -> bool:
        return self.text is None and self.error is None


def convert_puzzle(puzzle: Puzzle, target: str, *, lossy: bool = False
                   ) -> tuple[str | None, list[str]]:
    """``puzzle`` as text in ``target`` (one of :data:`TARGETS`), and what it could not
    hold; the text is None when something was lost and not ``lossy``."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; choose one of {', '.join(TARGETS)}")
    if target == "json":
        return format_variant(puzzle), []
    if not puzzle.geometry.is_square:  # not even --lossy: every cell would move
        return None, [f"a {puzzle.geometry.shape}: f-puzzles and SudokuPad links hold N x N "
                      f"grids of N digits"]
    export = to_fpuzzles(puzzle)
    if export.lost and not lossy:
        return None, export.lost
    return encode_fpuzzles(export.data, target), export.lost


class Convert(Task):
    """The task of ``satdoku convert``: a puzzle in, an outcome out whose result is a
    :class:`Converted` (``puzzle`` and what became of it)."""

    label = "converting"

    def __init__(self, target: str, *, lossy: bool = False) -> None:
        if target not in TARGETS:
            raise ValueError(f"unknown target {target!r}; choose one of {', '.join(TARGETS)}")
        self.target, self.lossy = target, lossy

    def run(self, puzzle: Puzzle) -> Outcome:
        if puzzle.error is not None or puzzle.grid is None:
            return self.invalid(puzzle)
        text, lost = convert_puzzle(puzzle, self.target, lossy=self.lossy)
        return Outcome(puzzle, Converted(puzzle, text, lost, list(puzzle.warnings)))

    @classmethod
    def invalid(cls, puzzle: Puzzle) -> Outcome:
        return Outcome(puzzle, Converted(puzzle, None, error=puzzle.error))


def convert_all(puzzles: Iterable[Puzzle], target: str, *, lossy: bool = False
                ) -> Iterator[Converted]:
    """Each read puzzle converted (unreadable ones carried with their error)."""
    task = Convert(target, lossy=lossy)
    for puzzle in puzzles:
        yield task.run(puzzle).result


def convert(text: str, target: str, *, lossy: bool = False,
            ignore_unknown: bool = False) -> Converted:
    """The one puzzle written in ``text`` (any form satdoku reads) converted to ``target``.

    Raises:
        PuzzleError: when ``text`` is no puzzle (or several).
    """
    from ..io.inputs import read_puzzle
    puzzle = read_puzzle(text, ignore_unknown=ignore_unknown)
    return Convert(target, lossy=lossy).run(puzzle).result
