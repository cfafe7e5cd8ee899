"""Why a puzzle is what it is: a minimal clash for an unsolvable one, two solutions for an
ambiguous one, the techniques a unique one takes.

Glossary:

- core: givens that cannot all hold together. The SAT solver's final conflict over the clue
  assumptions (``get_core``) gives one; it is then shrunk by deletion until it is *minimal*:
  drop one given, and if what is left still has no solution, keep the (smaller) core the
  solver returns for it; otherwise that given is needed. A given found needed stays needed,
  because every set the search looks at afterwards is a subset of the one it was needed in
  (fewer givens only allow more solutions). Each given of the result is needed, so removing any
  one of them leaves a set that has a solution. A puzzle may have several minimal cores; this
  is one of them, not necessarily the smallest.
- differing cells: for a puzzle with several solutions, where two of them disagree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .deadline import Deadline, TimeUp
from .encode import DEFAULT_MAX_CLAUSES
from .errors import InternalError, TooBigError
from .formats import Puzzle
from .grid import Grid, is_solution
from .sat import SatSolver
from .search import NativeSolver
from .solvers import solve
from .techniques import Steps, solve_by_techniques

__all__ = ["Explanation", "explain", "explain_puzzles", "minimal_core"]


@dataclass
class Explanation:
    """What :func:`explain` found. ``status`` is unsolvable, multiple or unique, or one of
    timeout, invalid, refused and error (see :mod:`satdoku.result`) with ``message``.

    - unsolvable: ``core`` lists (cell, digit) of a minimal set of clashing givens.
    - multiple: ``solution`` and ``second`` with the ``differing`` cells.
    - unique: ``solution``, ``steps`` (techniques) and ``search`` (the native solver's nodes,
      guesses and backtracks to find the solution).
    """

    grid: Grid
    status: str
    core: list[tuple[int, int]] = field(default_factory=list)
    solution: Grid | None = None
    second: Grid | None = None
    differing: list[int] = field(default_factory=list)
    steps: Steps | None = None
    search: dict[str, Any] = field(default_factory=dict)
    sat_calls: int = 0
    time_ms: float = 0.0
    message: str | None = None


def minimal_core(solver: SatSolver, grid: Grid, *, deadline: Deadline | None = None
                 ) -> tuple[list[tuple[int, int]] | None, int]:
    """A minimal set of clashing givens of ``grid`` as (cell, digit), or None if it has a
    solution; and how many SAT calls it took. See the module docstring for the method.

    Raises :class:`~satdoku.deadline.TimeUp` when ``deadline`` passes.
    """
    def core_of(cells: list[int]) -> list[int] | None:
        digits = [0] * grid.geometry.ncells
        for c in cells:
            digits[c] = grid.cells[c]
        subset = Grid(grid.geometry, tuple(digits))
        core, witness = solver.core(subset, deadline=deadline)
        if witness is not None and not is_solution(witness, subset):
            # The witness that a given is needed is checked like every other answer.
            raise InternalError(f"{solver.name} gave a wrong solution while shrinking a core")
        return core

    calls = 1
    core = core_of([c for c, _ in grid.givens()])
    if core is None:
        return None, calls
    needed: set[int] = set()
    while True:
        untested = [c for c in core if c not in needed]
        if not untested:
            break
        cell = untested[0]
        smaller = core_of([c for c in core if c != cell])
        calls += 1  # each call is one SAT solve
        if smaller is None:
            needed.add(cell)
        else:
            core = smaller
    return [(c, grid.cells[c]) for c in core], calls


def explain(grid: Grid, *, sat_solver: str | None = None, encoding: str | None = None,
            amo: str | None = None, timeout: float | None = None, deadline: Deadline | None = None,
            max_clauses: int | None = DEFAULT_MAX_CLAUSES,
            solver: SatSolver | None = None) -> Explanation:
    """Explain ``grid``.

    Args:
        grid: the puzzle; givens that clash give status ``invalid``.
        sat_solver: the python-sat solver to use (default :data:`DEFAULT_SAT_SOLVER`).
        encoding, amo: the CNF encoding (default: by grid size, as for solving) and its
            at-most-one encoding.
        timeout: seconds for the whole explanation (or a ``deadline``); status ``timeout``
            when they run out.
        max_clauses: refuse (status ``refused``) a formula with more clauses.
        solver: a :class:`SatSolver` to reuse across puzzles (the options above are then
            its own).

    >>> from satdoku.geometry import geometry
    >>> e = explain(Grid(geometry(2, 2), (1, 2, 3) + (0,) * 12 + (4,)))
    >>> e.status, e.core  # r1c4 must be 4 (its row holds 1, 2, 3), but r4c4 is 4
    ('unsolvable', [(0, 1), (1, 2), (2, 3), (15, 4)])
    """
    start = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    own = solver is None
    if solver is None:
        solver = SatSolver(sat_solver, encoding, amo, max_clauses=max_clauses)
    try:
        result = solve(solver, grid, limit=2, deadline=deadline)
        expl = Explanation(grid, result.status, solution=result.solution, second=result.second,
                           message=result.message)
        if result.status == "unsolvable":
            try:
                core, expl.sat_calls = minimal_core(solver, grid, deadline=deadline)
            except TimeUp:
                expl.status, expl.message = "timeout", deadline.message()
            except TooBigError as error:
                expl.status, expl.message = "refused", error.message
            except InternalError as error:
                expl.status, expl.message = "error", f"internal error: {error.message}"
            else:
                if core is None:  # the solver contradicted itself
                    expl.status = "error"
                    expl.message = (f"internal error: {solver.name} found a solution where it "
                                    f"had found none")
                else:
                    expl.core = core
        elif result.status == "multiple":
            expl.differing = result.solution.differences(result.second)
        elif result.status == "unique":
            expl.steps = solve_by_techniques(grid)
            native = NativeSolver().solve(grid, deadline=deadline)
            expl.search = {k: native.stats[k] for k in ("nodes", "guesses", "backtracks")}
            if native.status == "timeout":
                expl.search["timeout"] = True
    finally:
        if own:
            solver.close()
    expl.time_ms = (time.perf_counter() - start) * 1000
    return expl


def explain_puzzles(puzzles: Iterable[Puzzle], *, sat_solver: str | None = None,
                    encoding: str | None = None, amo: str | None = None, timeout: float | None = None,
                    max_clauses: int | None = DEFAULT_MAX_CLAUSES
                    ) -> Iterator[tuple[Puzzle, Explanation | None]]:
    """(puzzle, explanation) for each puzzle in input order, one SAT solver for them all;
    the explanation is None for a puzzle that could not be read. Each puzzle's time limit
    starts when reading it began."""
    with SatSolver(sat_solver, encoding, amo, max_clauses=max_clauses) as solver:
        for puzzle in puzzles:
            if puzzle.error is not None:
                yield puzzle, None
                continue
            deadline = Deadline(timeout, time.perf_counter() - puzzle.parse_ms / 1000)
            yield puzzle, explain(puzzle.grid, deadline=deadline, solver=solver)
