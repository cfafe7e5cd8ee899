"""Why a puzzle is what it is: a minimal clash for an unsolvable one, two solutions for an
ambiguous one, how hard a unique one is (on Sudoku Explainer's scale, :mod:`satdoku.tasks.rate`),
and which clues a unique one could do without.

Glossary:

- member: a given, or a rule of a variant puzzle; explanations speak of sets of members.
- core: members that cannot all hold together. The SAT solver's final conflict over the
  assumptions (a clue literal per given, an activation literal per rule: ``get_core``) gives
  one; it is then shrunk by deletion until it is *minimal*: drop one member, and if what is
  left still has no solution, keep the (smaller) core the solver returns for it; otherwise that
  member is needed. A member found needed stays needed, because every set the search looks at
  afterwards is a subset of the one it was needed in (fewer members only allow more
  solutions). Each member of the result is needed, so removing any one of them leaves a set
  that has a solution. A puzzle may have several minimal cores; this is one of them.
- differing cells: for a puzzle with several solutions, where two of them disagree.
- redundant (``redundant=True``, for a unique puzzle): the members that could each be removed
  alone with the puzzle still unique, and a minimal set of members that still gives exactly
  one solution (found greedily: each member in turn is dropped when the rest stay unique; the
  result is minimal, since a member needed then is needed in every subset of it).
- path (``steps=True``, for a unique puzzle, classic or variant): the steps a person could
  follow, each forced by a minimal set of facts (:mod:`satdoku.tasks.steps`).
- fixes (``fix=True``): the givens and candidate rules that would make a puzzle with several
  solutions unique, ranked, or the members whose removal would let an unsolvable one have a
  solution (:mod:`satdoku.tasks.disambiguate`).
"""

from __future__ import annotations

import time

from ..budget import DEFAULT_MAX_CLAUSES
from ..closing import borrowed
from ..deadline import Deadline
from ..errors import InternalError
from ..model.grid import Grid, solution_problems
from ..model.puzzle import Puzzle
from ..model.result import ENDINGS, Answer, Capabilities
from ..records import field, record
from ..sat import questions
from ..sat.solver import SatSolver
from .base import SolverTask
from .other_commands import ExplainOptions
from .solvers import solve
from .disambiguate import (Fixes, givens_that_fix, removals_that_fix,
                           rules_that_fix)
from .members import (Member, describe_member, puzzle_members, puzzle_subset,
                      redundant_members)
from .rate import Rating, ladder_rated, path_rated
from .steps import StepPath, step_path

__all__ = ["Explanation", "explain", "ExplainOptions", "ExplainTask", "minimal_core",
           "redundant_members", "NEEDS"]

#: What this task needs of a SAT solver (:func:`satdoku.sat.catalogue.check_for`).
NEEDS = Capabilities.needs("assumptions")


@record
class Explanation(Answer):
    """What :func:`explain` found. ``status`` is unsolvable, multiple or unique, or one of
    timeout, invalid, refused and error (see :mod:`satdoku.model.result`) with ``message``.

    - unsolvable: ``core`` lists (cell, digit) of a minimal set of clashing givens, and
      ``core_rules`` the rules (constraints) in it.
    - multiple: ``solution`` and ``second`` with the ``differing`` cells.
    - unique: ``solution`` and ``rating`` (how hard, as ``rate`` says: a classic puzzle's from
      SE's ladder; a variant's from its path, so only with ``steps``); with ``steps``,
      ``path``; with ``redundant``, ``removable`` (members each removable alone) and ``kept``
      (a minimal set of members still giving one solution).
    """

    grid: Grid
    status: str
    core: list[tuple[int, int]] = field(default_factory=list)
    solution: Grid | None = None
    second: Grid | None = None
    differing: list[int] = field(default_factory=list)
    rating: Rating | None = None
    sat_calls: int = 0
    time_ms: float = 0.0
    message: str | None = None
    constraints: tuple = ()
    core_rules: list = field(default_factory=list)
    removable: list[Member] | None = None
    kept: list[Member] | None = None
    path: StepPath | None = None  # the steps a person could follow (steps=True)
    fixes: Fixes | None = None  # what would make it unique or solvable (fix=True)
    fix_rules: tuple = ()  # the candidate rules the fixes' rules index

    def describe(self, member: Member, alphabet=None) -> str:
        """``'r1c6=5'`` for a given, the rule's name (``'killer cage r1c1-r2c1 = 9'``)."""
        return describe_member(self.grid, self.constraints, member, alphabet)

    def summary(self) -> tuple[str, Grid | None]:
        if self.status == "unsolvable":
            clash = [f"{n} {noun}{'s' * (n != 1)}" for n, noun in
                     ((len(self.core), "given"), (len(self.core_rules), "rule")) if n]
            alone = len(self.core) + len(self.core_rules) == 1
            return (f": {' and '.join(clash) or 'the puzzle'} cannot "
                    f"{'hold' if alone else 'all hold'}", self.grid)
        if self.status == "multiple":
            return f": two solutions differ at {len(self.differing)} cells", self.solution
        rating = self.rating
        said = f": {rating.label}, {rating.text}" if rating and rating.score is not None else ""
        return said, self.solution

    __repr__ = Answer.shown


def minimal_core(solver: SatSolver, grid: Grid, *, deadline: Deadline | None = None,
                 constraints: tuple = ()) -> tuple[list[Member] | None, int]:
    """A minimal set of members (givens and rules) of ``grid`` under ``constraints`` that
    cannot all hold, or None if the puzzle has a solution; and how many SAT calls it took. See
    the module docstring for the method.

    Raises :class:`~satdoku.deadline.TimeUp` when ``deadline`` passes.
    """
    def core_of(members: list[Member]) -> list[Member] | None:
        subset, rules = puzzle_subset(grid, constraints, members)
        rule_members = [m for m in members if m[0] == "rule"]
        core, witness = questions.core(solver.backend, subset, deadline=deadline,
                                       constraints=rules)
        if witness is not None:
            # The witness that a member is needed is checked like every other answer.
            problems = solution_problems(witness, subset)
            for rule in rules:
                problems += rule.check(witness)
            if problems:
                raise InternalError(f"{solver.name} gave a wrong solution while shrinking a "
                                    f"core: {problems[0]}")
            return None
        if core is None:
            raise InternalError(f"{solver.name} gave neither a core nor a solution")
        cells, picked = core
        return [("given", c) for c in cells] + [rule_members[i] for i in picked]

    calls = 1
    core = core_of(puzzle_members(grid, constraints))
    if core is None:
        return None, calls
    needed: set[Member] = set()
    while True:
        untested = [m for m in core if m not in needed]
        if not untested:
            break
        member = untested[0]
        smaller = core_of([m for m in core if m != member])
        calls += 1  # each call is one SAT solve
        if smaller is None:
            needed.add(member)
        else:
            core = smaller
    return sorted(core), calls


def explain(grid: Grid, *, sat_solver: str | None = None, encoding: str | None = None,
            amo: str | None = None, timeout: float | None = None,
            deadline: Deadline | None = None, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
            solver: SatSolver | None = None, constraints: tuple = (),
            redundant: bool = False, steps: bool = False, alphabet=None,
            max_rules: int | None = None, fix: bool = False,
            fix_rules: tuple = ()) -> Explanation:
    """Explain ``grid`` (under a variant puzzle's ``constraints``).

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
        constraints: the rules of a variant puzzle; cores and redundancy speak of them too.
        redundant: for a unique puzzle, also find which givens and rules it could do without.
        steps: for a unique puzzle, also give the steps a person could follow
            (:func:`satdoku.tasks.steps.step_path`, its digits in ``alphabet``; each step
            combining at most ``max_rules`` rules, else a guess); the path stops at the
            deadline with a ``timeout`` step.
        fix: for a puzzle with several solutions, the givens (and the ``fix_rules``, candidate
            rules) that would make it unique, ranked; for one with none, which member of its
            core to remove (:mod:`satdoku.tasks.disambiguate`).

    >>> from satdoku.model.geometry import geometry
    >>> e = explain(Grid(geometry(2, 2), (1, 2, 3) + (0,) * 12 + (4,)))
    >>> e.status, e.core  # r1c4 must be 4 (its row holds 1, 2, 3), but r4c4 is 4
    ('unsolvable', [(0, 1), (1, 2), (2, 3), (15, 4)])
    """
    start = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    def make() -> SatSolver:
        return ExplainOptions(sat_solver=sat_solver, encoding=encoding, amo=amo,
                              max_clauses=max_clauses).sat.python_sat(needs=NEEDS,
                                                                      task="explain")

    with borrowed(solver, make) as solver:
        result = solve(solver, grid, limit=2, deadline=deadline, constraints=constraints)
        expl = Explanation(grid, result.status, solution=result.solution, second=result.second,
                           message=result.message, constraints=tuple(constraints))
        try:
            if result.status == "unsolvable":
                _unsolvable(expl, solver, deadline, fix)
            elif result.status == "multiple" and result.solution and result.second:
                expl.differing = result.solution.differences(result.second)
                if fix:
                    expl.fixes = _fixes(solver, grid, tuple(constraints), tuple(fix_rules),
                                        deadline)
                    expl.fix_rules = tuple(fix_rules)
            elif result.status == "unique" and result.solution is not None:
                if steps:
                    expl.path = step_path(grid, result.solution, constraints=tuple(constraints),
                                          alphabet=alphabet, deadline=deadline,
                                          sat_solver=sat_solver, max_clauses=max_clauses,
                                          max_rules=max_rules)
                    expl.rating = path_rated(expl.path, result.solution)
                elif not constraints:
                    expl.rating = ladder_rated(grid, result.solution, deadline)
                if redundant:
                    expl.removable, expl.kept, expl.sat_calls = redundant_members(
                        solver, grid, tuple(constraints), deadline=deadline)
        except ENDINGS as error:
            expl.end(error, deadline)
    expl.time_ms = (time.perf_counter() - start) * 1000
    return expl


def _unsolvable(expl: Explanation, solver: SatSolver, deadline: Deadline, fix: bool) -> None:
    """A minimal core (and with ``fix``, what removing each member leaves) into ``expl``."""
    grid, constraints = expl.grid, expl.constraints
    core, expl.sat_calls = minimal_core(solver, grid, deadline=deadline,
                                        constraints=constraints)
    if core is None:  # the solver contradicted itself
        raise InternalError(f"{solver.name} found a solution where it had found none")
    expl.core = [(i, grid.cells[i]) for kind, i in core if kind == "given"]
    expl.core_rules = [i for kind, i in core if kind == "rule"]
    if fix:
        expl.fixes = Fixes(removals=removals_that_fix(solver, grid, constraints, core,
                                                      deadline=deadline))


def _fixes(solver: SatSolver, grid: Grid, constraints: tuple, candidates: tuple,
           deadline: Deadline) -> Fixes:
    fixes = Fixes()
    fixes.givens, fixes.sat_calls = givens_that_fix(solver, grid, constraints,
                                                    deadline=deadline)
    if candidates:
        fixes.rules, calls = rules_that_fix(solver, grid, constraints, candidates,
                                            deadline=deadline)
        fixes.sat_calls += calls
    return fixes


class ExplainTask(SolverTask):
    """Explains puzzles one at a time with one SAT solver for them all."""

    label = "explaining"
    NEEDS = NEEDS
    options: ExplainOptions

    def answer(self, puzzle: Puzzle, deadline: Deadline) -> Explanation:
        o = self.options
        return explain(puzzle.valid_grid, deadline=deadline, solver=self.solver,
                       constraints=puzzle.constraints, redundant=o.redundant, steps=o.steps,
                       alphabet=puzzle.alphabet, max_rules=o.max_rules,
                       sat_solver=o.sat_solver, max_clauses=o.max_clauses, fix=o.fix,
                       fix_rules=self._fix_rules(puzzle))

    def _fix_rules(self, puzzle: Puzzle) -> tuple:
        """The candidate rules that fit ``puzzle``'s grid (a rule carries its geometry)."""
        geo = puzzle.geometry
        return tuple(r for r in self.options.fix_rules
                     if getattr(r, "geometry", geo) is geo and
                     all(0 <= c < geo.ncells for c in r.cells))
