"""One puzzle as the commands meet it: a grid, its rules, and where it came from.

A classic puzzle is a puzzle with no rules. A puzzle that could not be read keeps its place in
the stream (``source``, ``line``, ``index``) with the error that says why, so that a batch
reports it and goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import PuzzleError
from .alphabet import Alphabet
from .grid import Grid, Rule

__all__ = ["Puzzle"]


@dataclass
class Puzzle:
    """One puzzle read from a source: its grid, or the error that kept it from being one."""

    grid: Grid | None
    source: str
    line: int
    index: int
    name: str | None = None
    alphabet: Alphabet | None = None
    error: PuzzleError | None = None
    parse_ms: float = 0.0  # time spent reading and parsing it (set by inputs.iter_inputs)
    constraints: tuple[Rule, ...] = ()  # a variant puzzle's rules, beyond Sudoku's
    warnings: tuple[str, ...] = ()  # what an import left out (f-puzzles, --ignore-unknown)

    @property
    def ok(self) -> bool:
        return self.error is None
