"""How far a long piece of work on one puzzle has got, for whoever shows it.

The library never prints. Work that can run for minutes on one puzzle (cube-and-conquer:
splitting it, then thousands of cubes) calls :func:`report`; the command line installs a
reporter for its run (:func:`reporting`) that draws the figures on a terminal
(:meth:`satdoku.cli.session.Progress.stage`). With none installed, a report is a call that
returns.

>>> seen = []
>>> with reporting(lambda *figures: seen.append(figures)):
...     report("cubes", 3, 10, "1 with a solution")
>>> report("cubes", 4, 10)  # no reporter: nothing
>>> seen
[('cubes', 3, 10, '1 with a solution')]
"""

from __future__ import annotations

from contextlib import contextmanager

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Callable, Iterator, TypeAlias

__all__ = ["Reporter", "report", "reporting"]

#: ``reporter(stage, done, total, note)``: ``done`` of ``total`` units of ``stage`` are done.
Reporter: TypeAlias = "Callable[[str, int, int, str], None]"

_reporter: Reporter | None = None


def report(stage: str, done: int, total: int, note: str = "") -> None:
    """Tell the installed reporter (if any) that ``done`` of ``total`` are done."""
    if _reporter is not None:
        _reporter(stage, done, total, note)


@contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """``reporter`` gets every :func:`report` made inside the block (in this process)."""
    global _reporter
    before, _reporter = _reporter, reporter
    try:
        yield
    finally:
        _reporter = before
