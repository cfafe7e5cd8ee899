"""Batches: a stream of parsed puzzles in, one verified outcome per puzzle out, in input order.

A bad puzzle becomes an ``invalid`` outcome and the batch goes on. One solver object serves the
whole batch, so the SAT backend builds its base formula once per geometry and solves every puzzle
with its clues as assumptions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .agree import disagreements
from .formats import Puzzle
from .result import Result
from .solvers import make_solver, solve

__all__ = ["Outcome", "SolveOptions", "solve_puzzles"]


@dataclass(frozen=True)
class SolveOptions:
    """How to solve every puzzle of a batch (picklable, so workers can rebuild the solvers)."""

    method: str = "sat"
    sat_solver: str | None = None
    encoding: str | None = None
    amo: str | None = None
    limit: int = 1
    timeout: float | None = None
    check: bool = False
    incremental: bool = True
    stats: bool = True  # False: the SAT backend skips its solver figures (CLI without --stats)


@dataclass
class Outcome:
    """One puzzle and what became of it. ``disagreements`` is filled only by ``--check``."""

    puzzle: Puzzle
    result: Result
    disagreements: list[str] = field(default_factory=list)


class BatchSolver:
    """Solves puzzles one at a time with solvers kept for the whole batch."""

    def __init__(self, options: SolveOptions) -> None:
        self.options = options
        o = options
        self.solver = make_solver(o.method, sat_solver=o.sat_solver, encoding=o.encoding,
                                  amo=o.amo, incremental=o.incremental, stats=o.stats)
        self.other = None
        if o.check:
            other_method = "native" if o.method == "sat" else "sat"
            self.other = make_solver(other_method, sat_solver=o.sat_solver, encoding=o.encoding,
                                     amo=o.amo, incremental=o.incremental, stats=o.stats)

    def run(self, puzzle: Puzzle) -> Outcome:
        """The outcome of one puzzle; never raises for a bad puzzle."""
        if puzzle.error is not None or puzzle.grid is None:
            return Outcome(puzzle, Result(status="invalid", message=str(puzzle.error)))
        o = self.options
        if self.other is None:
            return Outcome(puzzle, solve(self.solver, puzzle.grid, limit=o.limit,
                                         timeout=o.timeout))
        limit = max(o.limit, 2)
        result = solve(self.solver, puzzle.grid, limit=limit, timeout=o.timeout)
        other = solve(self.other, puzzle.grid, limit=limit, timeout=o.timeout)
        return Outcome(puzzle, result, disagreements(result, other))

    def close(self) -> None:
        self.solver.close()
        if self.other is not None:
            self.other.close()


def solve_puzzles(puzzles: Iterable[Puzzle], options: SolveOptions = SolveOptions()
                  ) -> Iterator[Outcome]:
    """Solve each puzzle in turn, yielding its outcome as soon as it is known (input order)."""
    batch = BatchSolver(options)
    try:
        for puzzle in puzzles:
            yield batch.run(puzzle)
    finally:
        batch.close()
