"""How hard a puzzle with one solution is, on Sudoku Explainer's (SE) scale, the scale
setters, forums and puzzle banks publish (:mod:`satdoku.model.difficulty`): ER, the rating of
the hardest step a person needs, with EP (the hardest before the first placement), ED (the
first step's) and the label SE's generator gives that ER.

- A classic puzzle is rated by SE's ladder (:func:`satdoku.native.ladder.se_rate`), the same
  steps ``explain --steps`` shows and ``explain``'s header sums up. Where a step lies beyond
  the ladder's rungs, or the time limit stops it, ER is a lower bound (``bound``).
- A variant puzzle is rated by its step path (:mod:`satdoku.tasks.steps`), each step valued on
  SE's scale (:func:`satdoku.tasks.path.step_rating`): a classic technique at SE's rating, a
  deduction only a variant has as the SE step it is most like.

The puzzle is counted to 2 first, by SAT in a fresh solver (only a puzzle with exactly one
solution has a difficulty); its conflicts are reported beside the rating, as what the puzzle
costs a SAT solver, which is not what it costs a person. Ratings are deterministic: the same
puzzle gets the same rating on every run and machine.
"""

from __future__ import annotations

import statistics
import time
from typing import TYPE_CHECKING, Any, Iterable

from ..deadline import Deadline
from ..model.puzzle import Puzzle
from ..model.difficulty import LABELS, label_for, ratings_text
from ..model.result import Answer, Capabilities, status_of
from ..model.grid import Grid
from ..records import field, record
from .base import Outcome, Task
from .other_commands import RateOptions
from .solvers import solve

if TYPE_CHECKING:  # pragma: no cover
    from ..native.ladder import SERating
    from .checks import Checks
    from .steps import StepPath

__all__ = ["LABELS", "Rating", "Rater", "RateOptions", "Summary", "label_for", "summarize",
           "ladder_rated", "path_rated", "NEEDS"]

#: What this task needs of a SAT solver (:func:`satdoku.sat.catalogue.check_for`).
NEEDS = Capabilities.needs("conflicts")

@record
class Rating(Answer):
    """The rating of one puzzle. ``status`` is ``unique`` with a ``score`` (its ER) and
    ``label``, or any other status of :mod:`satdoku.model.result` without one (only a puzzle
    with exactly one solution has a difficulty); ``message`` says more.

    ``ep``, ``ed``: SE's EP and ED; ``hardest``: the technique of the hardest step; ``bound``:
    the ratings are lower bounds (``ep_bound``, ``ed_bound``: EP and ED too, no digit placed or
    no step taken before they stopped); ``se``: a classic puzzle's ladder
    (:class:`~satdoku.native.ladder.SERating`), ``path`` a variant's step path."""

    status: str
    score: float | None = None
    label: str | None = None
    ep: float | None = None
    ed: float | None = None
    hardest: str | None = None
    bound: bool = False
    conflicts: int = 0
    solution: Grid | None = None
    time_ms: float = 0.0
    message: str | None = None
    path: StepPath | None = None
    se: SERating | None = None
    checks: Checks | None = None  # the publishing checks (rate --checks)
    ep_bound: bool = False
    ed_bound: bool = False

    @property
    def text(self) -> str:
        """``'ER 3.0/EP 1.2/ED 1.2'``, ``>=`` marking a lower bound (a unique puzzle's)."""
        assert self.score is not None and self.ep is not None and self.ed is not None
        return ratings_text(self.score, self.ep, self.ed, self.bound, self.ep_bound,
                            self.ed_bound)

    def summary(self) -> tuple[str, Grid | None]:
        if self.score is None:
            return "", None
        return f": {self.label}, {self.text} ({self.hardest or 'no step'})", self.solution

    __repr__ = Answer.shown


class Rater(Task):
    """Rates puzzles one at a time (a fresh SAT solver for each: see the module docstring).

    ``timeout`` bounds each puzzle (seconds from when reading it began, with ``parse_ms``);
    a ladder or path the time limit stops gives lower bounds, and the rating says so.

    >>> from satdoku.io.text import parse_puzzle
    >>> easy = parse_puzzle("1..4.4..2..3...1").grid
    >>> r = Rater().rate(easy)
    >>> r.status, r.score, r.label, r.hardest
    ('unique', 1.2, 'easy', 'Hidden Single')
    """

    label = "rating"

    def __init__(self, options: RateOptions | None = None, **given: Any) -> None:
        self.options = options if options is not None else RateOptions(**given)

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
            if result.status != "unique" or result.solution is None:
                rating = Rating(result.status, solution=result.solution, message=result.message)
            elif not (grid.geometry.has_boxes and grid.geometry.is_plain):  # the board
                rating = Rating("refused", solution=result.solution,
                                message="rating needs an N x N grid of N digits with boxes or "
                                        "regions, and no cells outside it")
            elif constraints:
                rating = self._by_path(grid, result.solution, constraints, deadline)
            else:
                rating = ladder_rated(grid, result.solution, deadline)
            if o.checks and rating.score is not None:
                _check(rating, grid, constraints, sat, deadline)
        rating.conflicts = result.stats.get("conflicts", 0)
        rating.time_ms = (time.perf_counter() - start) * 1000
        return rating

    def _by_path(self, grid: Grid, solution: Grid, constraints: tuple,
                 deadline: Deadline) -> Rating:
        """The rating of a variant puzzle, from its step path."""
        from ..errors import TooBigError
        from .steps import step_path
        o = self.options
        try:
            path = step_path(grid, solution, constraints=constraints, deadline=deadline,
                             sat_solver=o.sat_solver, max_clauses=o.max_clauses)
        except TooBigError as error:
            status, message = status_of(error)
            return Rating(status, message=message)
        return path_rated(path, solution)


def path_rated(path: StepPath, solution: Grid | None = None) -> Rating:
    """The rating a step path gives (:func:`satdoku.tasks.path.path_rating`): a classic
    puzzle's path carries SE's ladder, whose ratings it gives."""
    from .path import path_rating
    r = path_rating(path)
    hardest = r.hardest.kind if r.hardest is not None else None
    rating = Rating("unique", r.er, label_for(r.er), r.ep, r.ed, hardest, r.bound,
                    solution=solution, path=path, se=path.se, ep_bound=r.ep_bound,
                    ed_bound=r.ed_bound)
    if path.status == "timeout":
        rating.message = "the steps stopped at the time limit: the ratings are lower bounds"
    return rating


def _check(rating: Rating, grid: Grid, constraints: tuple, sat: Any,
           deadline: Deadline) -> None:
    """The publishing checks into ``rating`` (:mod:`satdoku.tasks.checks`); a time limit met
    on the way leaves those it reached and says so."""
    from ..deadline import TimeUp
    from .checks import check_rating
    try:
        rating.checks = check_rating(rating, grid, constraints, solver=sat, deadline=deadline)
    except TimeUp:
        rating.checks = check_rating(rating, grid, constraints)
        rating.message = "the checks stopped at the time limit: the removable givens and " \
                         "rules are not known"


def ladder_rated(grid: Grid, solution: Grid | None = None,
                 deadline: Deadline | None = None) -> Rating:
    """The rating of a classic puzzle, from SE's ladder."""
    from ..native.ladder import se_rate
    se = se_rate(grid, deadline)
    rating = Rating("unique", se.er, label_for(se.er), se.ep, se.ed, se.hardest or None,
                    not se.complete, solution=solution, se=se, ep_bound=not se.ep_exact,
                    ed_bound=not se.ed_exact)
    if se.status == "timeout":
        rating.message = "SE's ladder stopped at the time limit: the ratings are lower bounds"
    return rating


@record
class Summary:
    """ERs of a batch: how many, mean, median, and how many of each label."""

    rated: int = 0
    mean: float | None = None
    median: float | None = None
    labels: dict[str, int] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """``'rated 2: ER mean 2.25, median 2.25; medium 1, fiendish 1'``."""
        spread = ", ".join(f"{name} {self.labels[name]}" for _, name in LABELS
                           if name in self.labels)
        return (f"rated {self.rated}: ER mean {self.mean:.2f}, median {self.median:.2f}; "
                f"{spread}")


def summarize(ratings: Iterable[Rating | None]) -> Summary:
    """The :class:`Summary` of the scored ratings among ``ratings``.

    >>> summarize([Rating("unique", 1.5, "medium"), Rating("unique", 3.0, "fiendish")]).text
    'rated 2: ER mean 2.25, median 2.25; medium 1, fiendish 1'
    """
    scores: list[float] = []
    labels: dict[str, int] = {}
    for rating in ratings:
        if rating is not None and rating.score is not None:
            scores.append(rating.score)
            if rating.label is not None:
                labels[rating.label] = labels.get(rating.label, 0) + 1
    if not scores:
        return Summary()
    return Summary(len(scores), statistics.mean(scores), statistics.median(scores), labels)
