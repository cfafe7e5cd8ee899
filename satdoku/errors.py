"""Errors satdoku reports to people: each says where (file, line, cell) and what is wrong.

The library raises these; the command line prints ``str(error)`` as one line and never a
traceback. ``str`` gives ``'bad.txt:4: r1c9: 5 repeats the given at r1c1'``; ``detail`` gives
the part after the place (``'r1c9: 5 repeats the given at r1c1'``), for records that carry the
source and line in fields of their own.

=================  ==========================================================================
class              raised for
=================  ==========================================================================
PuzzleError        a puzzle that cannot be read or cannot be a Sudoku (bad symbol, clash...)
MissingInput       an argument that is neither a file nor a puzzle (a PuzzleError; exit 2)
ModelError         an external SAT solver's answer that is UNSAT, malformed or does not fit
OptionError        an option value satdoku cannot use (alphabet, box, encoding, solver name)
SolverError        a solver that cannot do what was asked (no time limit, no assumptions)
TooBigError        a formula over the size limit (``max_clauses``): refused before it is built
InternalError      satdoku produced something wrong (an answer that fails verification)
=================  ==========================================================================

``OptionError`` is also a ``ValueError``, so code that catches bad values keeps working.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, TypedDict, TypeVar

if not TYPE_CHECKING:  # at run time a TypedDict is a dict
    TypedDict = dict

__all__ = ["SatdokuError", "PuzzleError", "MissingInput", "ModelError", "OptionError", "SolverError",
           "TooBigError", "InternalError", "Where", "abridge", "closest"]


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The one of ``choices`` a misspelt ``word`` most likely meant, or None: the only one
    that starts with it (from three letters: an abbreviation), else a close match, else the
    first that starts with it. Every "did you mean" says it.

    >>> closest("thermo", ["thermometer", "renban"]), closest("zz", ["renban"])
    ('thermometer', None)
    >>> closest("--port", ["--format", "--portfolio"])
    '--portfolio'
    """
    import difflib  # only a misspelling needs it
    choices = list(choices)
    started = [c for c in choices if c.startswith(word)] if len(word) >= 3 else []
    if len(started) == 1:
        return started[0]
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6) or started
    return close[0] if close else None


def abridge(text: str, keep: int = 100) -> str:
    """``text`` as a message quotes what a user gave: cut to ``keep`` characters, with its
    length, when longer (a 100 KB argument is not echoed whole).

    >>> abridge("1.3..4.2.34.4.23")
    '1.3..4.2.34.4.23'
    >>> abridge("x" * 100_000, keep=8)
    'xxxxxxxx... (100,000 characters)'
    """
    return text if len(text) <= keep else f"{text[:keep]}... ({len(text):,} characters)"


class Where(TypedDict):
    """Where a puzzle was read, as its errors say it: ``PuzzleError(message, **where)``."""

    source: str | None
    line: int | None


if TYPE_CHECKING:
    _E = TypeVar("_E", bound="SatdokuError")


class SatdokuError(Exception):
    """Base class: a message with an optional source (file name), line and cell name."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 cell: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.cell = cell

    def located(self: _E, source: str | None = None, line: int | None = None) -> _E:
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

    @property
    def detail(self) -> str:
        """The message with its cell but without the place: ``'r1c9: 5 repeats ...'``."""
        return f"{self.cell}: {self.message}" if self.cell else self.message

    def __str__(self) -> str:
        parts = [p for p in (self.where, self.cell) if p]
        return ": ".join(parts + [self.message])


class PuzzleError(SatdokuError):
    """A puzzle that cannot be read or cannot be a Sudoku (bad symbol, clashing givens...)."""


class MissingInput(PuzzleError):
    """A command-line argument that is neither a file nor a puzzle: a usage error (exit 2, as
    click's own checks of a path exit), though the batch still answers the other inputs."""


class ModelError(SatdokuError):
    """A model from an external SAT solver that is UNSAT, malformed or does not fit the puzzle."""


class OptionError(SatdokuError, ValueError):
    """An option value satdoku cannot use: a bad alphabet, box shape, encoding or solver name."""


class SolverError(SatdokuError):
    """A solver that cannot do what was asked (keep a time limit, take assumptions, ...)."""


class TooBigError(SatdokuError):
    """A formula larger than the limit satdoku builds; the message names both sizes."""


class InternalError(SatdokuError):
    """satdoku produced something wrong (for example a solution that fails verification)."""
