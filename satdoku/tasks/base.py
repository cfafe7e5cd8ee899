"""What every task is: a function from a puzzle to an outcome, with what it keeps between puzzles.

A task (solve, count, explain, candidates, rate) is made from its options (a small frozen
record, picklable, so that each worker process makes its own: python-sat solvers cannot be
pickled) and then run on puzzles one at a time, classic or variant alike (a classic puzzle is a
puzzle with no rules). It never raises for a bad puzzle: an unreadable one gets the outcome
:meth:`Task.invalid` says. :mod:`satdoku.run.stream` runs any task over a stream of puzzles,
here or on a process pool or a Dask cluster; :meth:`Task.pack` and :meth:`Task.unpack` carry
an outcome's result back from a worker (plain tuples pickle fast).
"""

from __future__ import annotations

import time

from ..closing import Closing
from ..deadline import NO_DEADLINE, Deadline
from ..model.puzzle import Puzzle
from ..model.result import Capabilities
from ..records import field, record
from .options import TaskOptions

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, ClassVar, Iterator

__all__ = ["Outcome", "Block", "Task", "SolverTask", "TaskOptions", "puzzle_deadline"]


@record
class Outcome:
    """One puzzle and what a task made of it: a :class:`~satdoku.model.result.Result`
    (solve, count), an explanation, candidates or a rating, or None for a puzzle that could
    not be read (where the task has no result of its own for it). ``disagreements`` is filled
    only by ``solve --check``."""

    puzzle: Puzzle
    result: Any
    disagreements: list[str] = field(default_factory=list)


class Block:
    """The outcomes of a chunk's puzzles as a worker wrote them out (``render``, see
    :func:`satdoku.run.stream.stream`): their text in input order, for one write; their
    stderr lines in order; the highest of their exit codes; how many they are; and the last
    one's ``source`` and ``line`` (for a progress bar)."""

    __slots__ = ("text", "notes", "code", "count", "source", "line")

    def __init__(self, text: str, notes: list[str], code: int, count: int, source: str,
                 line: int) -> None:
        self.text, self.notes, self.code, self.count = text, notes, code, count
        self.source, self.line = source, line


class Task(Closing):
    """A task's interface (see the module docstring); subclasses define :meth:`run`."""

    #: What a progress bar says while the task runs ("solving", "explaining", ...; a task may
    #: say it from its options: solve says "counting" when it counts).
    label: str = "working"

    #: Puzzles :meth:`run_many` wants at a time (read on every call: a task may change it).
    batch: int = 1

    #: Whether the task checks the givens of puzzles read with them unchecked for a clash
    #: (:attr:`~satdoku.model.puzzle.Puzzle.unchecked`; it asks its inputs for them so).
    checks_clashes: bool = False

    def run(self, puzzle: Puzzle) -> Outcome:
        raise NotImplementedError

    def run_many(self, puzzles: list[Puzzle]) -> Iterator[Outcome]:
        """The outcomes of ``puzzles`` in order (a task may work on them together)."""
        return map(self.run, puzzles)

    @classmethod
    def invalid(cls, puzzle: Puzzle) -> Outcome:
        """The outcome of a puzzle that could not be read."""
        return Outcome(puzzle, None)

    def pack(self, outcome: Outcome) -> Any:
        """What a worker sends back of ``outcome`` (the parent still holds the puzzle)."""
        return outcome.result, outcome.disagreements

    @classmethod
    def unpack(cls, puzzle: Puzzle, packed: Any) -> Outcome:
        """The outcome :meth:`pack` packed, for ``puzzle``."""
        result, disagreements = packed
        return Outcome(puzzle, result, disagreements)

    def close(self) -> None:
        """Free what the task keeps (SAT solvers hold C memory)."""


class SolverTask(Task):
    """A task that answers puzzles one at a time on one python-sat solver kept for them all,
    made from its options' :class:`~satdoku.sat.config.SatConfig` and refused when it lacks
    what the task ``NEEDS``; subclasses define :meth:`answer`."""

    #: What the task needs of a SAT solver (:func:`satdoku.sat.catalogue.check_for`).
    NEEDS: ClassVar[Capabilities] = Capabilities.needs("assumptions")

    def __init__(self, options: Any) -> None:
        self.options = options
        self.solver = options.sat.python_sat(needs=self.NEEDS, task=options.command)

    def run(self, puzzle: Puzzle) -> Outcome:
        if puzzle.error is not None or puzzle.grid is None:
            return self.invalid(puzzle)
        return Outcome(puzzle, self.answer(puzzle, puzzle_deadline(self.options.timeout,
                                                                   puzzle)))

    def answer(self, puzzle: Puzzle, deadline: Deadline) -> Any:
        """The answer for a puzzle that was read, within ``deadline``."""
        raise NotImplementedError

    def close(self) -> None:
        self.solver.close()


def puzzle_deadline(timeout: float | None, puzzle: Puzzle) -> Deadline:
    """The deadline of one puzzle: ``timeout`` seconds from when reading it began."""
    if timeout is None:
        return NO_DEADLINE
    return Deadline(timeout, time.perf_counter() - puzzle.parse_ms / 1000)
