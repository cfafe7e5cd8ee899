"""True candidates: for each empty cell, the digits that appear in at least one solution.

The tool setters use while setting: a digit that no solution puts in a cell is not a candidate
there, however plausible it looks. Found with SAT: every solution met marks the digit of every
cell; then each (cell, digit) not yet marked is assumed, and either a solution with it (which
marks more) or none settles it. At most one SAT call per (cell, digit) pair that propagation
from the givens leaves open, usually far fewer: each solution marks a digit in every cell.
The solutions met on the way also say whether the puzzle is unique (one met, once every pair is
settled), multiple or unsolvable.

Counts (``counts=N``, a setter's colouring of the grid): for each open cell and digit, how many
solutions put the digit there, up to N. The solutions are enumerated once
(:func:`~satdoku.sat.questions.solutions`, each verified); when there are at most
:data:`ONE_PASS` of them (or N, if more) every count is exact from that one pass, else each
(cell, digit) pair whose count is still below N is counted on its own, with that digit
assumed, up to N. A count of N means "N or more" (:attr:`Candidates.limit`).
"""

from __future__ import annotations

import time

from ..closing import borrowed
from ..deadline import Deadline
from ..errors import InternalError
from ..model.puzzle import Puzzle
from ..model.grid import Grid, solution_problems
from ..model.digits import bits
from ..native.board import fold_givens
from ..model.result import ENDINGS, Answer, Capabilities, counted_status
from ..records import field, record
from ..sat import questions
from ..sat.solver import SatSolver
from .base import SolverTask
from .other_commands import CandidatesOptions

__all__ = ["Candidates", "true_candidates", "CandidatesOptions", "CandidatesTask", "NEEDS"]

#: What this task needs of a SAT solver (:func:`satdoku.sat.catalogue.check_for`).
NEEDS = Capabilities.needs("assumptions")


@record
class Candidates(Answer):
    """The true candidates of a puzzle: ``digits[cell]`` a sorted list for each empty cell
    (empty: no solution at all). ``status`` is unique, multiple, unsolvable, or timeout /
    refused / invalid / error with ``message``; ``count`` the solutions seen, up to the limit."""

    grid: Grid
    status: str
    digits: dict[int, list[int]] = field(default_factory=dict)
    count: int = 0
    sat_calls: int = 0
    time_ms: float = 0.0
    message: str | None = None
    counts: dict[int, dict[int, int]] | None = None  # cell -> digit -> solutions, up to limit
    limit: int | None = None  # the counts' limit: a count of limit means "limit or more"


def true_candidates(grid: Grid, *, constraints: tuple = (), solver: SatSolver | None = None,
                    deadline: Deadline | None = None, sat_solver: str | None = None,
                    counts: int | None = None) -> Candidates:
    """The true candidates of ``grid`` (under a variant puzzle's ``constraints``); with
    ``counts``, how many solutions put each of them in its cell, up to that many (see the
    module docstring).

    >>> from satdoku.io.text import parse_puzzle
    >>> c = true_candidates(parse_puzzle("1..." "...." "...." "...1").grid)
    >>> c.status, c.digits[1], c.digits[5]
    ('multiple', [2, 3, 4], [2, 3, 4])
    >>> true_candidates(parse_puzzle("1..." "...." "...." "...1").grid, counts=100).counts[1]
    {2: 6, 3: 6, 4: 6}
    """
    start = time.perf_counter()
    deadline = deadline or Deadline(None)

    def make() -> SatSolver:
        return CandidatesOptions(sat_solver=sat_solver).sat.python_sat(needs=NEEDS,
                                                                       task="candidates")

    with borrowed(solver, make) as solver:
        open_cells = [c for c, d in enumerate(grid.cells) if not d]
        marked: dict[int, set[int]] = {c: set() for c in open_cells}
        seen: set[tuple[int, ...]] = set()
        out = Candidates(grid, "unsolvable")

        def found(solution: Grid) -> None:
            problems = solution_problems(solution, grid, constraints)
            if problems:
                raise InternalError(f"{solver.name} gave a wrong solution: {problems[0]}")
            seen.add(solution.cells)
            for c in open_cells:
                marked[c].add(solution.cells[c])

        def verified(solution: Grid) -> None:
            problems = solution_problems(solution, grid, constraints)
            if problems:
                raise InternalError(f"{solver.name} gave a wrong solution: {problems[0]}")

        try:
            if counts is not None:
                _count(out, solver, constraints, deadline, counts, verified)
                raise _Done
            first = questions.first_solution(solver.backend, grid, constraints=constraints,
                                             deadline=deadline)
            out.sat_calls += 1
            if first is not None:
                found(first)
                # Only digits the givens leave open can be true candidates.
                givens = fold_givens(grid.geometry, grid.cells)[0]
                for cell in open_cells:
                    for d in bits(givens[cell]):
                        if d in marked[cell]:
                            continue
                        solution = questions.first_solution(
                            solver.backend, grid, assume=((cell, d),),
                            constraints=constraints, deadline=deadline)
                        out.sat_calls += 1
                        if solution is not None:
                            found(solution)
            # Every pair was settled: one solution met means every cell has one true candidate,
            # so the puzzle is unique; two or more met, it is not.
            out.count = len(seen)
            out.status = counted_status(out.count)
            out.digits = {c: sorted(ds) for c, ds in marked.items()}
        except _Done:
            pass
        except ENDINGS as error:
            out.end(error, deadline)
    out.time_ms = (time.perf_counter() - start) * 1000
    return out


#: Solutions ``counts`` enumerates in one pass before it counts (cell, digit) pairs one by one
#: (one pass costs a solve a solution; pair by pair, up to N a pair).
ONE_PASS = 4096


class _Done(Exception):
    """The counts are done (they fill ``digits``, ``count`` and ``status`` themselves)."""


def _count(out: Candidates, solver: SatSolver, constraints: tuple, deadline: Deadline,
           limit: int, check) -> None:
    """Fill ``out`` with the counts up to ``limit`` (see the module docstring); ``check``
    verifies each solution."""
    grid = out.grid
    open_cells = [c for c, d in enumerate(grid.cells) if not d]
    counts: dict[int, dict[int, int]] = {c: {} for c in open_cells}
    total, most = 0, max(limit, ONE_PASS)
    for solution in questions.solutions(solver.backend, grid, constraints=constraints,
                                        deadline=deadline):
        check(solution)
        total += 1
        out.sat_calls += 1
        if total > most:
            break
        for c in open_cells:
            d = solution.cells[c]
            counts[c][d] = counts[c].get(d, 0) + 1
    if total > most:  # too many for one pass: count each pair below the limit on its own
        givens = fold_givens(grid.geometry, grid.cells)[0]
        for c in open_cells:
            for d in bits(givens[c]):
                if counts[c].get(d, 0) >= limit:
                    continue
                n = 0
                for solution in questions.solutions(solver.backend, grid,
                                                    constraints=constraints,
                                                    assume=((c, d),), deadline=deadline):
                    check(solution)
                    n += 1
                    if n >= limit:
                        break
                out.sat_calls += n + 1
                counts[c][d] = n
    out.counts = {c: {d: min(n, limit) for d, n in sorted(ds.items()) if n}
                  for c, ds in counts.items()}
    out.limit = limit
    out.digits = {c: sorted(ds) for c, ds in out.counts.items()}
    out.count = min(total, limit)
    out.status = counted_status(total)


class CandidatesTask(SolverTask):
    """True candidates of puzzles one at a time, one SAT solver for them all."""

    label = "candidates"
    NEEDS = NEEDS
    options: CandidatesOptions

    def answer(self, puzzle: Puzzle, deadline: Deadline) -> Candidates:
        return true_candidates(puzzle.valid_grid, constraints=puzzle.constraints,
                               solver=self.solver, deadline=deadline,
                               counts=self.options.counts)

    def close(self) -> None:
        self.solver.close()
