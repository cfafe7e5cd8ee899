"""How big one puzzle's formula may get: the clause limit (``--max-clauses``), kept while building.

A :class:`Budget` carries the limit and the puzzle's :class:`~satdoku.deadline.Deadline` into
every builder: the base formula and the reduced one are refused before they are built when
their size is known to be over the limit (:func:`check_size`); the clauses a variant rule adds
are charged as each rule is encoded, and a rule whose encoding outgrows what is left is
stopped in the middle (its auxiliary variables counted as they are made) with a
:class:`~satdoku.errors.TooBigError` naming it: status ``refused``.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import threading

from .deadline import NO_DEADLINE, Deadline, TimeUp
from .errors import TooBigError

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["DEFAULT_MAX_CLAUSES", "Budget", "check_size", "guarded"]

#: Bytes of memory a clause is allowed while it is built in Python (a list of a few ints): a
#: computation that grows the process by more than this times the clauses left is stopped as
#: too big (the clause limit exists to bound memory; ten million clauses, about 1 GB).
BYTES_PER_CLAUSE = 100

#: How often a guarded computation looks at the clock and the process's size.
GUARD_EVERY_S = 0.05

#: Formulas with more clauses are refused before they are built (``--max-clauses``): ten
#: million clauses take about 1.5 GB in CaDiCaL and the lists that feed it.
DEFAULT_MAX_CLAUSES = 10_000_000


def check_size(clauses: int, max_clauses: int | None, what: str, at_least: bool = False) -> None:
    """Raise :class:`TooBigError` when ``clauses`` (``at_least``: a lower bound) is over
    ``max_clauses`` (None: no limit).

    >>> check_size(11, 10, "this formula")
    Traceback (most recent call last):
    ...
    satdoku.errors.TooBigError: this formula needs 11 clauses, over the limit of 10 (raise it with --max-clauses)
    """
    if max_clauses is not None and clauses > max_clauses:
        raise TooBigError(f"{what} needs {'at least ' if at_least else ''}{clauses:,} clauses, "
                          f"over the limit of {max_clauses:,} (raise it with --max-clauses)")


class Budget:
    """The clauses one puzzle's formula may still take, and the deadline its building keeps.

    >>> b = Budget(100, used=90)
    >>> b.left
    10
    >>> b.spend(20, "rule killer cage r1c1-r1c2 = 3")
    Traceback (most recent call last):
    ...
    satdoku.errors.TooBigError: rule killer cage r1c1-r1c2 = 3 needs 20 clauses, over the 10 left of the limit of 100 (raise it with --max-clauses)
    """

    __slots__ = ("max_clauses", "deadline", "used")

    def __init__(self, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 deadline: Deadline = NO_DEADLINE, used: int = 0) -> None:
        self.max_clauses = max_clauses
        self.deadline = deadline
        self.used = used

    @property
    def left(self) -> float:
        """Clauses that may still be added (``inf`` without a limit)."""
        return math.inf if self.max_clauses is None else self.max_clauses - self.used

    def refuse(self, clauses: int, what: str, at_least: bool = False) -> None:
        """TooBigError when ``what`` needs ``clauses`` more than are left."""
        if clauses > self.left:
            at = "at least " if at_least else ""
            if self.used:
                raise TooBigError(f"{what} needs {at}{clauses:,} clauses, over the "
                                  f"{self.left:,} left of the limit of {self.max_clauses:,} "
                                  f"(raise it with --max-clauses)")
            check_size(clauses, self.max_clauses, what, at_least)

    def spend(self, clauses: int, what: str) -> None:
        """Charge ``clauses`` added for ``what`` (TooBigError when they do not fit)."""
        self.refuse(clauses, what)
        self.used += clauses


def _rss() -> int | None:
    """The process's resident memory in bytes (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as fp:
            return int(fp.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class guarded:
    """Keep a pure-Python computation (a rule's encoding or pruning, which may grow without
    bound on hostile input) within ``budget``: every :data:`GUARD_EVERY_S` seconds a timer
    looks at the deadline (TimeUp) and at how much the process has grown since the start
    (TooBigError naming ``what`` once it passes :data:`BYTES_PER_CLAUSE` times the clauses
    left; ``what`` may be a function, asked when it is needed). Only the main thread can take the timer's signal; elsewhere (Dask's worker threads)
    the computation runs unguarded, as the callers' own checks between steps still stop it.

    >>> with guarded(Budget(10_000_000), "rule arrow r1c1"):
    ...     total = sum(range(1000))
    """

    def __init__(self, budget: Budget, what: str | Callable[[], str]) -> None:
        self.budget, self.what = budget, what
        self.armed = False
        self.previous: Any = None
        self.start = 0

    def __enter__(self) -> "guarded":
        budget = self.budget
        if threading.current_thread() is not threading.main_thread():
            return self
        if budget.deadline.unlimited and budget.max_clauses is None:
            return self
        if signal.getitimer(signal.ITIMER_REAL)[0] and callable(signal.getsignal(signal.SIGALRM)):
            return self  # someone else's timer, handled in Python: leave it alone
        # A timer with no Python handler is a C library's: MapleChrono and MapleCM arm a
        # 2,500 s alarm (their strategy switch) at every solve and leave it running after. It
        # used to turn the guard off for the rest of the process; the next solve arms it again.
        # The peak so far (a cheap call; the current size is read at the timer's ticks).
        self.start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        self.previous = signal.signal(signal.SIGALRM, self._look)
        signal.setitimer(signal.ITIMER_REAL, GUARD_EVERY_S, GUARD_EVERY_S)
        self.armed = True
        return self

    def _look(self, signum: int, frame: Any) -> None:
        budget = self.budget
        if budget.deadline.expired():
            self._disarm()
            raise TimeUp
        rss = _rss()
        if rss is not None and self.start and rss - self.start > BYTES_PER_CLAUSE * budget.left:
            self._disarm()
            what = self.what() if callable(self.what) else self.what
            raise TooBigError(f"{what} outgrew what the limit of {budget.max_clauses:,} "
                              f"clauses allows ({(rss - self.start) >> 20:,} MB while "
                              "encoding; raise it with --max-clauses)")

    def _disarm(self) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0, 0)
            signal.signal(signal.SIGALRM, self.previous or signal.SIG_DFL)
            self.armed = False

    def __exit__(self, *exc: object) -> None:
        self._disarm()
