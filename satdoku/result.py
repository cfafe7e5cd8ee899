"""What every solver returns: one :class:`Result` per puzzle, the same for SAT and native search.

Statuses:

- ``solved``: a solution was found (and verified); the puzzle was not counted.
- ``unique`` / ``multiple``: counted (``limit >= 2``) and found exactly one / at least two.
- ``unsolvable``: no solution exists.
- ``timeout``: the time limit ran out first.
- ``invalid``: the puzzle could not be read or its givens clash (the CLI's status; solvers never
  see such puzzles).
- ``error``: satdoku itself failed (for example a solution that failed verification).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .grid import Grid

__all__ = ["Result", "Solver", "STATUSES", "counted_status"]

STATUSES = ("solved", "unique", "multiple", "unsolvable", "timeout", "invalid", "error")


@dataclass
class Result:
    """The outcome of solving one puzzle.

    ``count`` is None when the solver only looked for one solution, else the number of solutions
    found, capped at the limit asked for. ``second`` is another solution when ``count >= 2``.
    ``stats`` holds solver figures: SAT gives variables, clauses, conflicts, decisions,
    propagations; native gives nodes, guesses, backtracks, no_guess.
    """

    status: str
    solution: Grid | None = None
    count: int | None = None
    second: Grid | None = None
    solver: str = ""
    encoding: str | None = None
    time_ms: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    message: str | None = None

    @property
    def ok(self) -> bool:
        """True for the statuses that count as success (exit code 0)."""
        return self.status in ("solved", "unique", "multiple")


def counted_status(count: int) -> str:
    """The status for a puzzle counted up to a limit of at least 2."""
    return "unsolvable" if count == 0 else "unique" if count == 1 else "multiple"


class Solver(Protocol):
    """What both solvers offer. One object may serve many puzzles of any geometry.

    ``solve(grid, limit=1)`` looks for one solution; ``limit >= 2`` counts solutions up to the
    limit. ``timeout`` is seconds per puzzle (None: no limit). The grid's givens are already
    checked (no clash); the returned solution is not yet verified (see ``solvers.solve``).
    """

    name: str
    encoding: str | None

    def solve(self, grid: Grid, *, limit: int = 1, timeout: float | None = None) -> Result: ...

    def close(self) -> None: ...
