"""How big a formula may get: the clause limit (``--max-clauses``), checked before building.

A formula, with the clauses its rules add, is refused with :class:`~satdoku.errors.TooBigError`
(status ``refused``) before it is built when its size is known or estimated to be over the
limit; builders that cannot know their size in advance check it as they go.
"""

from __future__ import annotations

from .errors import TooBigError

__all__ = ["DEFAULT_MAX_CLAUSES", "check_size"]

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
