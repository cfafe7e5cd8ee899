"""One deadline mechanism for every stage of every solver.

A :class:`Deadline` is made once per puzzle, when reading it begins, and handed down to every
stage that can take long: reduction, formula building, loading clauses into a solver, solving.
Each stage calls :meth:`Deadline.check` between small units of work (a chunk of clauses, a batch
of assignments) and stops with :class:`TimeUp` when the time has passed; the solver that catches
it returns a ``timeout`` result with :meth:`Deadline.message`. SAT solving itself is bounded by
:meth:`Deadline.remaining` (see :mod:`satdoku.sat.solver`).
"""

from __future__ import annotations

import math
import time

__all__ = ["Deadline", "TimeUp", "NO_DEADLINE", "check_timeout"]


class TimeUp(Exception):
    """The deadline passed in the middle of some work (caught by the solver, never shown)."""


class Deadline:
    """``seconds`` from ``start`` (a ``time.perf_counter()`` reading, default now); None: never.

    >>> d = Deadline(None)
    >>> d.expired(), d.remaining()
    (False, inf)
    >>> Deadline(2.5).message()
    'time limit of 2.5 s reached'
    """

    __slots__ = ("seconds", "at")

    def __init__(self, seconds: float | None, start: float | None = None) -> None:
        self.seconds = seconds
        if seconds is None:
            self.at = math.inf
        else:
            self.at = (time.perf_counter() if start is None else start) + seconds

    @property
    def unlimited(self) -> bool:
        return self.seconds is None

    def remaining(self) -> float:
        """Seconds left (may be negative once passed; ``inf`` without a limit)."""
        return self.at - time.perf_counter()

    def expired(self) -> bool:
        return time.perf_counter() >= self.at

    def check(self) -> None:
        """Raise :class:`TimeUp` when the deadline has passed."""
        if time.perf_counter() >= self.at:
            raise TimeUp

    def message(self, found: int | None = None) -> str:
        """The one wording every solver gives a timeout; ``found`` solutions when counting."""
        text = f"time limit of {self.seconds:g} s reached"
        if found:
            text += f" after {found} solution{'s' if found > 1 else ''}"
        return text

    def __repr__(self) -> str:
        return f"Deadline({self.seconds!r})"


NO_DEADLINE = Deadline(None)


def check_timeout(seconds: float | None) -> float | None:
    """``seconds`` when it is a usable time limit (finite and above 0), else ValueError.

    >>> check_timeout(0.5), check_timeout(None)
    (0.5, None)
    """
    if seconds is None:
        return None
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"a time limit must be a positive number of seconds, not {seconds!r}")
    return float(seconds)
