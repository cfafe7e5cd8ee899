"""What holds C memory, processes or files frees them in ``close()``, and is a context manager.

>>> class Held(Closing):
...     def close(self) -> None:
...         print("freed")
>>> with Held():
...     pass
freed

A function that takes a solver or makes its own closes only its own (:func:`borrowed`).
"""

from __future__ import annotations

import contextlib

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator, TypeVar

__all__ = ["Closing", "borrowed"]

if TYPE_CHECKING:
    T = TypeVar("T", bound="Closing")
    C = TypeVar("C", bound=Any)


class Closing:
    """A mixin: ``with thing:`` closes ``thing`` at the end of the block (SAT solvers, tasks,
    generators, portfolios and external solvers alike)."""

    def close(self) -> None:
        """Free what is held (nothing by default)."""

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def borrowed(thing: C | None, make: Callable[[], C]) -> Iterator[C]:
    """``thing`` when the caller lends one (it stays open), else a new one from ``make``,
    closed at the end of the block.

    >>> class Held(Closing):
    ...     def close(self) -> None:
    ...         print("freed")
    >>> lent = Held()
    >>> with borrowed(lent, Held) as held:
    ...     held is lent
    True
    >>> with borrowed(None, Held) as held:
    ...     held is lent
    False
    freed
    """
    if thing is not None:
        yield thing
        return
    made = make()
    try:
        yield made
    finally:
        made.close()
