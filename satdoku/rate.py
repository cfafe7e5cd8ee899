"""A difficulty score for a puzzle with one solution, from three measures that need no tuning:

- the hardest technique it takes (:mod:`satdoku.techniques`): level 0 naked singles only,
  1 hidden singles, 2 locked candidates, 3 guessing;
- the native solver's guesses to exhaust its search tree (counting to 2, so the count does not
  depend on the order digits are tried in);
- the SAT solver's conflicts, counting to 2 in a fresh solver (so the count does not depend on
  which puzzles came before).

``score = level + log10(1 + guesses) + log10(1 + conflicts)``, rounded to 0.01: the technique
level sets the whole part for puzzles that logic solves, and every tenfold increase in guesses
or in conflicts adds one. Labels cut the scale:

========== ============ ==================================================================
label      score        typically
========== ============ ==================================================================
easy       below 1      naked singles only
medium     1 to 2       hidden singles
hard       2 to 3       locked candidates, or a little search
fiendish   3 to 5       guessing: a few guesses, a few conflicts
diabolical 5 to 7       tens of guesses and of conflicts
extreme    7 and up     hundreds of guesses, a hundred conflicts or more
========== ============ ==================================================================

Scores are deterministic: the same puzzle gets the same score on every run and machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .errors import SatdokuError
from .formats import Puzzle
from .grid import Grid
from .sat import DEFAULT_SAT_SOLVER, SatSolver
from .search import NativeSolver
from .solvers import verify
from .techniques import Steps, solve_by_techniques

__all__ = ["LABELS", "Rating", "Rater", "label_for", "rate_safely", "rate_puzzles"]

#: (lowest score, label), easiest first.
LABELS = ((0.0, "easy"), (1.0, "medium"), (2.0, "hard"), (3.0, "fiendish"), (5.0, "diabolical"),
          (7.0, "extreme"))


def label_for(score: float) -> str:
    """The label of ``score``.

    >>> label_for(0.5), label_for(3.2), label_for(7)
    ('easy', 'fiendish', 'extreme')
    """
    return [name for low, name in LABELS if score >= low][-1]


@dataclass
class Rating:
    """The rating of one puzzle. ``status`` is rated, or unsolvable / multiple / timeout (no
    score: only a puzzle with one solution has a difficulty)."""

    status: str
    score: float | None = None
    label: str | None = None
    steps: Steps | None = None
    guesses: int = 0
    nodes: int = 0
    conflicts: int = 0
    solution: Grid | None = None
    time_ms: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    message: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "score": self.score, "label": self.label}
        if self.steps is not None:
            out["techniques"] = self.steps.as_dict()
            out.update(guesses=self.guesses, nodes=self.nodes, conflicts=self.conflicts)
        if self.message:
            out["message"] = self.message
        out["time_ms"] = round(self.time_ms, 3)
        return out


class Rater:
    """Rates puzzles one at a time (a fresh SAT solver for each: see the module docstring).

    ``timeout`` bounds each solver's part (seconds); a native search that runs out leaves its
    guesses so far, a lower bound, and the rating says so in ``message``.

    >>> from satdoku.formats import parse_puzzle
    >>> easy = parse_puzzle("1..4.4..2..3...1").grid
    >>> r = Rater().rate(easy)
    >>> r.status, r.label, r.steps.hardest
    ('rated', 'easy', 'naked singles')
    """

    def __init__(self, sat_solver: str | None = None, timeout: float | None = None) -> None:
        self.sat_solver = sat_solver or DEFAULT_SAT_SOLVER
        self.timeout = timeout
        self.native = NativeSolver()

    def rate(self, grid: Grid) -> Rating:
        start = time.perf_counter()
        with SatSolver(self.sat_solver, incremental=False) as sat:
            result = verify(sat.solve(grid, limit=2, timeout=self.timeout), grid)
        if result.status != "unique":
            return Rating(result.status, solution=result.solution,
                          time_ms=(time.perf_counter() - start) * 1000,
                          message=result.message)
        steps = solve_by_techniques(grid)
        native = verify(self.native.solve(grid, limit=2, timeout=self.timeout), grid)
        guesses = native.stats["guesses"]
        conflicts = result.stats["conflicts"]
        score = round(steps.level + math.log10(1 + guesses) + math.log10(1 + conflicts), 2)
        rating = Rating("rated", score, label_for(score), steps, guesses, native.stats["nodes"],
                        conflicts, result.solution)
        if native.status == "timeout":
            rating.message = (f"native search timed out: {guesses} guesses is a lower bound, "
                              f"and so is the score")
        rating.time_ms = (time.perf_counter() - start) * 1000
        return rating

    def close(self) -> None:
        """Nothing to release: each puzzle's SAT solver is freed after it."""

    def __enter__(self) -> "Rater":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def rate_safely(rater: Rater, grid: Grid) -> Rating:
    """``rater.rate(grid)``, with a puzzle satdoku cannot rate (a grid too big for the full
    encoding) an ``error`` rating instead of an exception, so a batch goes on."""
    try:
        return rater.rate(grid)
    except SatdokuError as error:
        return Rating("error", message=str(error))


def rate_puzzles(puzzles: Iterable[Puzzle], *, sat_solver: str | None = None,
                 timeout: float | None = None, jobs: int = 1
                 ) -> Iterator[tuple[Puzzle, Rating | None]]:
    """(puzzle, rating) for each puzzle in input order; the rating is None for a puzzle that
    could not be read. ``jobs`` other than 1 rates on a process pool (0: every core), with the
    same results."""
    if jobs != 1:
        from .parallel import rate_parallel
        yield from rate_parallel(puzzles, sat_solver=sat_solver, timeout=timeout, jobs=jobs)
        return
    with Rater(sat_solver, timeout=timeout) as rater:
        for puzzle in puzzles:
            yield puzzle, None if puzzle.error is not None else rate_safely(rater, puzzle.grid)
