"""Every solution of a puzzle, one at a time, and an estimate of how many there are when they
are too many to list.

- :func:`all_solutions`: each solution once, verified, as it is found, in flat memory
  (:func:`~satdoku.sat.questions.solutions`), up to a limit and a deadline
  (``count --all``).
- :func:`estimate_count`: an approximate count with error bounds from ApproxMC (python-sat's
  ally :mod:`pysat.allies.approxmc`, which needs the ``pyapproxmc`` package: the optional
  extra ``satdoku[approx]``). For a count C with tolerance epsilon and confidence 1 - delta,
  ApproxMC promises that the true count lies between C / (1 + epsilon) and C * (1 + epsilon)
  with probability at least 1 - delta; when it needed no hashing the count is exact.
  ApproxMC cannot be stopped in the middle of a call, so it runs in a child process, ended at
  the deadline.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

from ..budget import DEFAULT_MAX_CLAUSES
from ..closing import borrowed
from ..deadline import NO_DEADLINE, Deadline
from ..errors import InternalError, OptionError
from ..model.grid import Grid, solution_problems
from ..model.puzzle import Puzzle
from ..model.result import ENDINGS, Answer, Capabilities, counted_status, status_of
from ..records import field, record
from ..sat import questions
from .base import Outcome, SolverTask, Task, puzzle_deadline
from .commands import CountOptions

__all__ = ["all_solutions", "Estimate", "estimate_count", "APPROX_HINT", "DEFAULT_EPSILON",
           "DEFAULT_DELTA", "EstimateTask", "Estimated", "Enumerated", "AllTask",
           "approx_available"]

#: What to install for :func:`estimate_count`.
APPROX_HINT = "count --estimate needs pyapproxmc: pip install 'satdoku[approx]'"

#: ApproxMC's tolerance and failure probability (its own defaults): the count is within a
#: factor 1.8 of the truth with probability at least 0.8.
DEFAULT_EPSILON = 0.8
DEFAULT_DELTA = 0.2


@record
class Enumerated(Answer):
    """The solutions of one puzzle, each verified (``count --all``): ``count`` of them, at
    most ``limit``; ``status`` unique, multiple or unsolvable when all were found (or the
    limit), else timeout (those found by then are kept), refused or error with ``message``."""

    status: str
    solutions: list[Grid] = field(default_factory=list)
    count: int = 0
    limit: int | None = None
    message: str | None = None
    time_ms: float = 0.0


class AllTask(SolverTask):
    """Every solution of puzzles one at a time, one SAT solver for them all: :meth:`each`
    yields them as they are found (the command line writes each at once), :meth:`answer`
    keeps them (the library's ``count(puzzle, all=True)``)."""

    label = "counting"
    NEEDS = Capabilities.needs()
    options: CountOptions

    def each(self, puzzle: Puzzle, answer: Enumerated) -> Iterator[Grid]:
        """The solutions of ``puzzle`` as they are found; ``answer`` gets the tally and the
        status when they end."""
        start = time.perf_counter()
        deadline = puzzle_deadline(self.options.timeout, puzzle)
        answer.limit = self.options.limit
        try:
            for solution in all_solutions(puzzle.valid_grid, constraints=puzzle.constraints,
                                          solver=self.solver, limit=answer.limit,
                                          deadline=deadline):
                answer.count += 1
                yield solution
            answer.status = counted_status(answer.count)
        except ENDINGS as error:
            answer.end(error, deadline, answer.count)
        answer.time_ms = (time.perf_counter() - start) * 1000

    def answer(self, puzzle: Puzzle, deadline: Deadline) -> Enumerated:
        answer = Enumerated("unsolvable")
        answer.solutions = list(self.each(puzzle, answer))
        return answer


def all_solutions(grid: Grid, *, constraints: tuple = (), solver=None,
                  sat_solver: str | None = None, limit: int | None = None,
                  deadline: Deadline = NO_DEADLINE,
                  max_clauses: int | None = DEFAULT_MAX_CLAUSES) -> Iterator[Grid]:
    """The solutions of ``grid`` under ``constraints``, each once and verified, at most
    ``limit`` of them; raises TimeUp at the deadline (those found so far were yielded),
    InternalError for a wrong solution.

    >>> from satdoku.io.text import parse_puzzle
    >>> sum(1 for _ in all_solutions(parse_puzzle("1234............").grid))  # 288 / 4!
    12
    """
    from .commands import CountOptions
    def make() -> Any:
        return CountOptions(sat_solver=sat_solver, max_clauses=max_clauses).sat.python_sat(
            needs=Capabilities.needs(), task="count --all")

    with borrowed(solver, make) as solver:
        found = 0
        if limit is not None and limit < 1:
            return
        for solution in questions.solutions(solver.backend, grid, constraints=constraints,
                                            deadline=deadline):
            problems = solution_problems(solution, grid, constraints)
            if problems:
                raise InternalError(f"{solver.name} gave a wrong solution: {problems[0]}")
            yield solution
            found += 1
            if limit is not None and found >= limit:
                return


@record
class Estimate:
    """An approximate count: ``count``, and ``low`` to ``high`` with probability at least
    ``confidence`` (exact when ``exact``)."""

    count: int
    low: int
    high: int
    exact: bool
    epsilon: float
    delta: float
    seed: int
    time_ms: float

    @property
    def confidence(self) -> float:
        return 1 - self.delta


def approx_available() -> bool:
    """Whether ``pyapproxmc`` is installed."""
    import importlib.util
    return importlib.util.find_spec("pyapproxmc") is not None


def estimate_count(grid: Grid, *, constraints: tuple = (), epsilon: float = DEFAULT_EPSILON,
                   delta: float = DEFAULT_DELTA, seed: int = 1,
                   deadline: Deadline = NO_DEADLINE,
                   max_clauses: int | None = DEFAULT_MAX_CLAUSES) -> Estimate:
    """ApproxMC's count of the solutions of ``grid`` under ``constraints`` (see the module
    docstring): projected on the cell variables, so a rule's auxiliary variables do not
    multiply it. The same seed gives the same count.

    Raises OptionError (:data:`APPROX_HINT`) without pyapproxmc, TimeUp at the deadline,
    TooBigError for a formula over ``max_clauses``.
    """
    if not approx_available():
        raise OptionError(APPROX_HINT)
    if not (0 < epsilon <= 1 and 0 < delta < 1):
        raise OptionError(f"epsilon must be in (0, 1] and delta in (0, 1), not {epsilon} and "
                          f"{delta}")
    from ..cnf.formula import encode
    start = time.perf_counter()
    formula = encode(grid, "extended", max_clauses=max_clauses, deadline=deadline,
                     constraints=constraints)
    cells, hashes = _in_child(formula.clauses, grid.size ** 3, epsilon, delta, seed, deadline)
    count = cells * 2 ** hashes
    return Estimate(count, int(count / (1 + epsilon)), int(count * (1 + epsilon) + 0.5),
                    hashes == 0, epsilon, delta, seed, (time.perf_counter() - start) * 1000)


def _in_child(clauses, nvars: int, epsilon: float, delta: float, seed: int,
              deadline: Deadline) -> tuple[int, int]:
    """(cell count, hash count) from ApproxMC in a child process, killed at the deadline."""
    from ..children import ChildFailed, in_child
    try:
        return in_child(lambda: _count(clauses, nvars, epsilon, delta, seed), deadline)
    except ChildFailed as failed:
        if failed.error is None:
            raise InternalError("ApproxMC ended without a count") from None
        raise InternalError(f"ApproxMC failed: {failed.error}") from None


def _count(clauses, nvars: int, epsilon: float, delta: float, seed: int) -> tuple[int, int]:
    """In the child: ApproxMC's count, (cell count, hash count)."""
    from pysat.allies.approxmc import Counter
    from pysat.formula import CNF
    with Counter(CNF(from_clauses=clauses), seed=seed, epsilon=epsilon, delta=delta) as counter:
        counter.count(projection=list(range(1, nvars + 1)))
        return counter.cellc, counter.hashc


@record
class Estimated(Answer):
    """One puzzle's estimate, or why there is none: ``status`` is ``unique``, ``multiple`` or
    ``unsolvable`` with ``estimate`` (exact counts say unique or unsolvable), else timeout,
    refused or error with ``message``."""

    status: str
    estimate: Estimate | None = None
    message: str | None = None


class EstimateTask(Task):
    """Estimates the solutions of puzzles one at a time (:func:`estimate_count`)."""

    label = "estimating"

    def __init__(self, options: CountOptions) -> None:
        self.options = options

    def run(self, puzzle: Puzzle) -> Outcome:
        if puzzle.error is not None or puzzle.grid is None:
            return self.invalid(puzzle)
        o = self.options
        deadline = puzzle_deadline(o.timeout, puzzle)
        try:
            found = estimate_count(puzzle.grid, constraints=puzzle.constraints,
                                   deadline=deadline, max_clauses=o.clause_limit)
        except ENDINGS as error:
            status, message = status_of(error, deadline)
            return Outcome(puzzle, Estimated(status, message=message))
        status = counted_status(found.count) if found.exact else "multiple"
        return Outcome(puzzle, Estimated(status, found))
