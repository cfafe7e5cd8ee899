"""Converting puzzles between forms: satdoku variant JSON, f-puzzles (its compressed string,
a link, its JSON), SudokuPad links (``https://sudokupad.app/fpuzzles...``, the same data) and
sigh's constraint strings (:mod:`satdoku.io.sigh`).

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

from typing import Iterable, Iterator

from ..errors import PuzzleError
from ..io.fpuzzles import FPUZZLES_FORMS, encode_fpuzzles
from ..io.fpuzzles.write import to_fpuzzles
from ..io.sigh import format_sigh
from ..io.variant import format_variant
from ..model.grid import Grid
from ..model.puzzle import Puzzle
from ..records import field, record
from .base import Outcome, Task

__all__ = ["TARGETS", "Converted", "Convert", "convert_puzzle", "convert",
           "convert_all"]

#: What ``convert`` writes: satdoku JSON (one line), sigh's constraint string, and the
#: f-puzzles forms.
TARGETS = ("json", "sigh") + FPUZZLES_FORMS


@record
class Converted:
    """One puzzle converted: its ``text`` (None when refused or unreadable), what the target
    could not hold (``lost``), what reading left out (``warnings``), and the reading error.
    ``whole``: refused because the target cannot take the puzzle at all (a grid of another
    shape, cells outside the grid), which writing what it can hold (``lossy``) does not lift."""

    puzzle: Puzzle | None
    text: str | None
    lost: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: PuzzleError | None = None
    whole: bool = False

    @property
    def refused(self) -> bool:
        return self.text is None and self.error is None


#: Seconds a conversion to an f-puzzles form spends proving a puzzle unique to store its
#: solution (SudokuPad checks an answer only against a stored solution).
SOLUTION_SECONDS = 10.0


def convert_puzzle(puzzle: Puzzle, target: str, *, lossy: bool = False,
                   solution: Grid | None = None) -> tuple[str | None, list[str]]:
    """``puzzle`` as text in ``target`` (one of :data:`TARGETS`), and what it could not
    hold; the text is None when something was lost and not ``lossy``. ``solution`` (the
    puzzle's only solution, proven) goes into the f-puzzles forms' ``solution``."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; choose one of {', '.join(TARGETS)}")
    if target == "json":
        return format_variant(puzzle), []
    if target == "sigh":
        sigh = format_sigh(puzzle)
        return (None if sigh.lost and not lossy else sigh.text), sigh.lost
    if not puzzle.geometry.is_square:  # not even --lossy: every cell would move
        return None, [f"a {puzzle.geometry.shape}: f-puzzles and SudokuPad links hold N x N "
                      f"grids of N digits"]
    if puzzle.geometry.extra:  # not even --lossy: the rules on them would be lost
        return None, [f"{len(puzzle.geometry.extra)} cells outside the grid "
                      f"({', '.join(puzzle.geometry.extra[:3])}...): f-puzzles and SudokuPad "
                      "links hold the grid's cells only"]
    export = to_fpuzzles(puzzle, solution)
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
        self.counter: Task | None = None

    def run(self, puzzle: Puzzle) -> Outcome:
        if puzzle.error is not None or puzzle.grid is None:
            return self.invalid(puzzle)
        warnings = list(puzzle.warnings)
        solution = None
        if self.target in FPUZZLES_FORMS:
            solution, why = self.proven(puzzle)
            if solution is None:
                warnings.append(f"no solution stored: {why}")
        text, lost = convert_puzzle(puzzle, self.target, lossy=self.lossy, solution=solution)
        whole = text is None and (self.lossy or convert_puzzle(
            puzzle, self.target, lossy=True, solution=solution)[0] is None)
        return Outcome(puzzle, Converted(puzzle, text, lost, warnings, whole=whole))

    def proven(self, puzzle: Puzzle) -> tuple[Grid | None, str]:
        """The puzzle's only solution when satdoku proves it unique (a verified count to 2
        within :data:`SOLUTION_SECONDS`), else None and why."""
        if self.counter is None:
            from .commands import CountOptions
            self.counter = CountOptions(limit=2, timeout=SOLUTION_SECONDS).make()
        result = self.counter.run(puzzle).result
        if result.status == "unique":
            return result.solution, ""
        if result.status == "multiple":
            return None, "the puzzle has more than one solution"
        if result.status == "unsolvable":
            return None, "the puzzle has no solution"
        return None, f"not proven unique ({result.status}{': ' + result.message if result.message else ''})"

    def close(self) -> None:
        if self.counter is not None:
            self.counter.close()
            self.counter = None

    @classmethod
    def invalid(cls, puzzle: Puzzle) -> Outcome:
        return Outcome(puzzle, Converted(puzzle, None, error=puzzle.error))


def convert_all(puzzles: Iterable[Puzzle], target: str, *, lossy: bool = False
                ) -> Iterator[Converted]:
    """Each read puzzle converted (unreadable ones carried with their error)."""
    with Convert(target, lossy=lossy) as task:
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
    with Convert(target, lossy=lossy) as task:
        return task.run(puzzle).result
