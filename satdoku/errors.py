"""Errors satdoku reports to people: each says where (file, line, cell) and what is wrong.

The library raises these; the command line prints ``str(error)`` as one line and never a
traceback. ``str`` gives ``'bad.txt:4: r1c9: 5 repeats the given at r1c1'``.
"""

from __future__ import annotations

__all__ = ["SatdokuError", "PuzzleError", "ModelError", "SolverError", "InternalError"]


class SatdokuError(Exception):
    """Base class: a message with an optional source (file name), line and cell name."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 cell: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.cell = cell

    def located(self, source: str | None = None, line: int | None = None) -> "SatdokuError":
        """This error with its source and line filled in where they were unknown."""
        if self.source is None:
            self.source = source
        if self.line is None:
            self.line = line
        return self

    @property
    def where(self) -> str:
        """``'file:line'`` (or as much of it as is known)."""
        parts = []
        if self.source is not None:
            parts.append(self.source)
        if self.line is not None:
            parts.append(str(self.line))
        return ":".join(parts)

    def __str__(self) -> str:
        parts = [p for p in (self.where, self.cell) if p]
        return ": ".join(parts + [self.message])


class PuzzleError(SatdokuError):
    """A puzzle that cannot be read or cannot be a Sudoku (bad symbol, clashing givens...)."""


class ModelError(SatdokuError):
    """A model from an external SAT solver that is UNSAT, malformed or does not fit the puzzle."""


class SolverError(SatdokuError):
    """A solver that cannot be used as asked (unknown name, no assumptions, ...)."""


class InternalError(SatdokuError):
    """satdoku produced something wrong (for example a solution that fails verification)."""
