"""What would fix a puzzle: for one with several solutions, the givens (and the rules, from a
list of candidates) that would make it unique, ranked; for one with none, which given or rule
to remove.

- A given (cell, digit) added to a puzzle leaves exactly the solutions that have that digit
  there, so the counts of :func:`satdoku.tasks.candidates.true_candidates` (``counts=limit``)
  rank every possible given at once: those left with one solution make the puzzle unique;
  the others follow by the solutions they leave (up to ``limit``: ``limit`` means "that many
  or more"). Givens that leave none (not a true candidate) are not listed.
- A candidate rule is added to the puzzle's rules and the solutions counted, up to ``limit``;
  rules that leave none contradict the puzzle and are listed last.
- A puzzle with no solution has a minimal core (:func:`satdoku.tasks.explain.minimal_core`):
  every fix removes one of its members, so each member is removed in turn and the rest
  counted to two: the removals that make it unique come first, then those that leave several
  solutions, then those that leave it unsolvable (it has another core: more than one
  removal is needed).
"""

from __future__ import annotations

from ..deadline import Deadline
from ..errors import InternalError
from ..model.grid import Grid, solution_problems
from ..records import field, record
from ..sat import questions
from ..sat.solver import SatSolver
from .candidates import true_candidates
from .members import puzzle_members, puzzle_subset
from .solvers import solve

__all__ = ["Fixes", "givens_that_fix", "rules_that_fix", "removals_that_fix", "FIX_LIMIT"]

#: Solutions counted per given or rule when ranking fixes.
FIX_LIMIT = 64

_ORDER = {"unique": 0, "multiple": 1, "unsolvable": 2}


@record
class Fixes:
    """Ranked fixes (see the module docstring), with ``limit`` for the counts.

    - ``givens``: (cell, digit, solutions left) for a puzzle with several solutions;
    - ``rules``: (index into the candidate rules, solutions left);
    - ``removals``: (member, status after removing it) for a puzzle with none; a member is
      ``("given", cell)`` or ``("rule", index into the puzzle's rules)``.
    """

    limit: int = FIX_LIMIT
    givens: list[tuple[int, int, int]] = field(default_factory=list)
    rules: list[tuple[int, int]] = field(default_factory=list)
    removals: list[tuple[tuple[str, int], str]] = field(default_factory=list)
    sat_calls: int = 0


def givens_that_fix(solver: SatSolver, grid: Grid, constraints: tuple = (), *,
                    deadline: Deadline | None = None, limit: int = FIX_LIMIT
                    ) -> tuple[list[tuple[int, int, int]], int]:
    """(cell, digit, solutions left) for every given that leaves a solution, fewest left
    first (one: it makes the puzzle unique), then by cell and digit; and the SAT calls.
    Raises TimeUp, TooBigError, InternalError (as the counts do)."""
    found = true_candidates(grid, constraints=constraints, solver=solver, deadline=deadline,
                            counts=limit)
    if found.status in ("timeout", "refused", "error"):
        _raise(found.status, found.message, deadline)
    ranked = sorted((n, cell, d) for cell, ds in (found.counts or {}).items()
                    for d, n in ds.items())
    return [(cell, d, n) for n, cell, d in ranked], found.sat_calls


def rules_that_fix(solver: SatSolver, grid: Grid, constraints: tuple, candidates: tuple, *,
                   deadline: Deadline | None = None, limit: int = FIX_LIMIT
                   ) -> tuple[list[tuple[int, int]], int]:
    """(index into ``candidates``, solutions left) for each candidate rule added to the
    puzzle's: one left first, then more, then none (it contradicts the puzzle); and the SAT
    calls."""
    out, calls = [], 0
    for i, rule in enumerate(candidates):
        rules = tuple(constraints) + (rule,)
        left = 0
        for solution in questions.solutions(solver.backend, grid, constraints=rules,
                                            deadline=deadline):
            problems = solution_problems(solution, grid, rules)
            if problems:
                raise InternalError(f"{solver.name} gave a wrong solution: {problems[0]}")
            left += 1
            if left >= limit:
                break
        calls += left + 1
        out.append((i, left))
    out.sort(key=lambda item: (item[1] == 0, item[1], item[0]))
    return out, calls


def removals_that_fix(solver: SatSolver, grid: Grid, constraints: tuple, core: list, *,
                      deadline: Deadline | None = None) -> list[tuple[tuple[str, int], str]]:
    """(member, status once it is removed) for each member of ``core`` (a minimal core of an
    unsolvable puzzle), unique first, then multiple, then unsolvable."""
    everything = puzzle_members(grid, tuple(constraints))
    out = []
    for member in core:
        subset, rules = puzzle_subset(grid, tuple(constraints),
                                      [m for m in everything if m != member])
        result = solve(solver, subset, limit=2, deadline=deadline, constraints=rules)
        if result.status not in _ORDER:
            _raise(result.status, result.message, deadline)
        out.append((member, result.status))
    out.sort(key=lambda item: _ORDER[item[1]])
    return out


def _raise(status: str, message: str | None, deadline: Deadline | None) -> None:
    from ..deadline import TimeUp
    from ..errors import TooBigError
    if status == "timeout":
        raise TimeUp
    if status == "refused":
        raise TooBigError(message or "refused")
    raise InternalError((message or status).removeprefix("internal error: "))
