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

from .deadline import NO_DEADLINE, Deadline
from .errors import TooBigError

__all__ = ["DEFAULT_MAX_CLAUSES", "Budget", "check_size"]

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
