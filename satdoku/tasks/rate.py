"""A difficulty score for a puzzle with one solution, from three measures that need no tuning:

- the hardest technique it takes (:mod:`satdoku.native.techniques`): level 0 naked singles only,
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

A classic puzzle also gets its Sudoku Explainer ratings, ER/EP/ED with the technique of the
hardest step (:func:`satdoku.native.ladder.se_rate`), the scale setters and forums publish.

A variant puzzle is scored on the same scale from its step path (:mod:`satdoku.tasks.steps`:
the rules the hardest step combines, and how many steps come near it; see
:func:`satdoku.tasks.steps.path_score`): the techniques know no variant rule, and native search
may not exhaust a variant puzzle's tree in any time worth waiting.

Scores are deterministic: the same puzzle gets the same score on every run and machine.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from ..deadline import Deadline
from ..model.puzzle import Puzzle
from ..model.difficulty import LABELS, label_for
from ..model.result import Answer, Capabilities, status_of
from ..model.grid import Grid
from .base import Outcome, Task
from .commands import RateOptions
from .solvers import solve

if TYPE_CHECKING:  # pragma: no cover
    from ..native.ladder import SERating
    from ..native.techniques import Steps
    from .steps import StepPath

__all__ = ["LABELS", "Rating", "Rater", "RateOptions", "Summary", "label_for", "summarize",
           "NEEDS"]

#: What this task needs of a SAT solver (:func:`satdoku.sat.catalogue.check_for`).
NEEDS = Capabilities.needs("conflicts")

#: (lowest score, label), easiest first.
@dataclass
class Rating(Answer):
    """The rating of one puzzle. ``status`` is ``unique`` with a ``score`` and ``label``, or
    any other status of :mod:`satdoku.model.result` without one (only a puzzle with exactly one
    solution has a difficulty); ``message`` says more."""

    status: str
    score: float | None = None
    label: str | None = None
    steps: Steps | None = None
    guesses: int = 0
    nodes: int = 0
    conflicts: int = 0
    solution: Grid | None = None
    time_ms: float = 0.0
    message: str | None = None
    path: StepPath | None = None  # a variant puzzle's step path, which its score comes from
    se: SERating | None = None  # a classic puzzle's Sudoku Explainer ratings (native/ladder)


class Rater(Task):
    """Rates puzzles one at a time (a fresh SAT solver for each: see the module docstring).

    ``timeout`` bounds each puzzle (seconds from when reading it began, with ``parse_ms``); a
    native search that runs out leaves its guesses so far, a lower bound, and the rating says
    so in ``message``. A variant puzzle is counted under its rules and scored by its step
    path (see the module docstring); a path the time limit stops gives a lower bound, and the
    rating says so.

    >>> from satdoku.io.text import parse_puzzle
    >>> easy = parse_puzzle("1..4.4..2..3...1").grid
    >>> r = Rater().rate(easy)
    >>> r.status, r.label, r.steps.hardest
    ('unique', 'easy', 'naked singles')
    """

    label = "rating"

    def __init__(self, options: RateOptions | None = None, *, se: bool = True,
                 **given: Any) -> None:
        # Native search and the techniques are imported here: start-up need not pay.
        from ..native.search import NativeSolver
        self.options = options if options is not None else RateOptions(**given)
        self.native = NativeSolver()
        self.se = se  # whether classic puzzles get their SE ratings (the score needs none)

    def run(self, puzzle: Puzzle) -> Outcome:
        if puzzle.error is not None or puzzle.grid is None:
            return self.invalid(puzzle)
        return Outcome(puzzle, self.rate(puzzle.grid, puzzle.parse_ms, puzzle.constraints))

    def rate(self, grid: Grid, parse_ms: float = 0.0, constraints: tuple = (), *,
             deadline: Deadline | None = None) -> Rating:
        """The rating of ``grid`` under ``constraints``, within ``deadline`` (default: the
        rater's ``timeout`` from when reading began, ``parse_ms`` ago)."""
        start = time.perf_counter()
        o = self.options
        if deadline is None:
            deadline = Deadline(o.timeout, start - parse_ms / 1000)
        with o.sat.python_sat(needs=NEEDS, task="rate", incremental=False) as sat:
            result = solve(sat, grid, limit=2, deadline=deadline, constraints=constraints)
        if result.status != "unique":
            return Rating(result.status, solution=result.solution,
                          time_ms=(time.perf_counter() - start) * 1000,
                          message=result.message)
        conflicts = result.stats.get("conflicts", 0)
        if constraints:
            rating = self._by_path(grid, result.solution, constraints, deadline)
            rating.conflicts = conflicts
            rating.time_ms = (time.perf_counter() - start) * 1000
            return rating
        from ..native.techniques import solve_by_techniques
        steps = solve_by_techniques(grid)
        native = solve(self.native, grid, limit=2, deadline=deadline)
        if native.status not in ("unique", "timeout"):
            return Rating("error", time_ms=(time.perf_counter() - start) * 1000,
                          message=native.message or f"native search found {native.status}, "
                                                    f"SAT found unique")
        guesses = native.stats["guesses"]
        score = round(steps.level + math.log10(1 + guesses) + math.log10(1 + conflicts), 2)
        from ..native.ladder import se_rate
        rating = Rating("unique", score, label_for(score), steps, guesses,
                        native.stats["nodes"], conflicts, result.solution,
                        se=se_rate(grid, deadline) if self.se else None)
        if native.status == "timeout":
            rating.message = (f"native search timed out: {guesses} guesses is a lower bound, "
                              f"and so is the score")
        elif rating.se is not None and rating.se.status == "timeout":
            rating.message = "SE's ladder stopped at the time limit: its ER is a lower bound"
        rating.time_ms = (time.perf_counter() - start) * 1000
        return rating


    def _by_path(self, grid: Grid, solution: Grid, constraints: tuple,
                 deadline: Deadline) -> Rating:
        """The rating of a variant puzzle, from its step path."""
        from ..errors import TooBigError
        from .steps import path_score, step_path
        o = self.options
        try:
            path = step_path(grid, solution, constraints=constraints, deadline=deadline,
                             sat_solver=o.sat_solver, max_clauses=o.max_clauses)
        except TooBigError as error:
            return Rating(*status_of(error))
        score = path_score(path)[2]
        rating = Rating("unique", score, label_for(score), solution=solution, path=path)
        if path.status == "timeout":
            rating.message = "the steps stopped at the time limit: the score is a lower bound"
        return rating


@dataclass
class Summary:
    """Scores of a batch: how many, mean, median, and how many of each label."""

    rated: int = 0
    mean: float | None = None
    median: float | None = None
    labels: dict[str, int] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """``'rated 2: mean 2.39, median 2.39; medium 1, fiendish 1'``."""
        spread = ", ".join(f"{name} {self.labels[name]}" for _, name in LABELS
                           if name in self.labels)
        return (f"rated {self.rated}: mean {self.mean:.2f}, median {self.median:.2f}; "
                f"{spread}")


def summarize(ratings: Iterable[Rating | None]) -> Summary:
    """The :class:`Summary` of the scored ratings among ``ratings``.

    >>> summarize([Rating("unique", 1.0, "medium"), Rating("unique", 3.78, "fiendish")]).text
    'rated 2: mean 2.39, median 2.39; medium 1, fiendish 1'
    """
    scores, labels = [], {}
    for rating in ratings:
        if rating is not None and rating.score is not None:
            scores.append(rating.score)
            labels[rating.label] = labels.get(rating.label, 0) + 1
    if not scores:
        return Summary()
    return Summary(len(scores), statistics.mean(scores), statistics.median(scores), labels)
