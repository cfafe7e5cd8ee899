"""Random complete grids, and puzzles dug from them with exactly one solution.

Glossary:

- orbit: the cells a symmetry maps onto each other (a cell and its mirror image, or the four
  rotations of a cell); digging removes a whole orbit or nothing, so the pattern of givens keeps
  the symmetry.
- dig: remove orbits in random order, keeping each removal only when the SAT solver proves the
  solution still unique. The puzzle had one solution before the orbit was emptied, so a second
  one would differ in one of the emptied cells: one solve call per emptied cell, assuming the
  cell's digit is not the solution's, must come back unsatisfiable (see
  :func:`satdoku.sat.questions.other_solution`). One call with a clause ruling out the whole
  solution would do as well, but more slowly: one dig (seed 2) took 0.41 s instead of 0.32 s
  on 16x16, 3.8 s instead of 2.9 s on 25x25.
- alternative: a second solution met while digging. The cells where it differs from the
  solution are remembered; a later removal that empties all of them is known to fail without a
  SAT call.
- minimal: no single given can be removed without losing uniqueness (givens the caller fixes
  are never removed, and not counted). A given that could not be
  removed once can never be removed later (fewer givens only allow more solutions), so a dig
  without symmetry, every check of which got an answer, is minimal without further work. With a
  symmetry a whole orbit was needed but perhaps not each of its cells, so each given is then
  tested alone; with ``minimal=True`` a puzzle that fails is dropped for a new grid.
- difficulty: a classic puzzle asked for with a label is dug no further than the label's
  highest ER (:func:`satdoku.model.difficulty.ceiling_of`): a removal that keeps the puzzle
  unique but takes SE's ladder above it is undone (the puzzle is then not minimal), and the
  finished puzzle is kept when its rating has the label. Easy puzzles, which a free dig
  almost never leaves, come at once so.

Generation is reproducible: one seed gives the same puzzles on every run, because the random
choices come from ``random.Random(seed)``, the SAT solvers used are deterministic, and checks
are bounded by conflict counts, not by time.

Test grids: ``pattern_grid`` and ``full_grid`` build complete grids without a solver, from the
standard pattern ``(box_cols * (row % box_rows) + row // box_rows
+ col) % N`` shuffled by moves that keep every house valid: relabel digits, permute rows within a
band (a row of boxes), bands, columns within a stack (a column of boxes), and stacks. That reaches
a large, though not uniform, sample of all grids; uniformity does not matter for tests.
"""

from __future__ import annotations

import random
import time
from typing import Any, Iterator

from ..closing import Closing
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import InternalError, OptionError, SolverError, TooBigError
from ..model.geometry import Geometry
from ..model.result import Capabilities
from ..model.grid import Grid, is_solution, solution_problems
from ..records import record
from ..sat import questions

__all__ = ["pattern_grid", "full_grid", "make_puzzle", "SYMMETRIES", "symmetry_orbits",
           "Generated", "Generator", "DEFAULT_CONFLICTS"]

#: What this task needs of a SAT solver (:func:`satdoku.sat.catalogue.check_for`).
NEEDS = Capabilities.needs("assumptions")

#: Clue patterns on offer: none, half-turn, quarter-turn and left-right mirror symmetry.
SYMMETRIES = ("none", "rotate180", "rotate90", "mirror")

#: Conflict budget of one uniqueness check when minimality is not asked for: a check that runs
#: out keeps its givens (the puzzle stays unique, it may just not be minimal). Grids above
#: 16x16 get :data:`LARGE_CONFLICTS` (both measured: docs/tuning.md).
DEFAULT_CONFLICTS = 1_000
LARGE_CONFLICTS = 20
#: With ``minimal`` (checks without a budget) and a time limit, a check runs in slices of this
#: many conflicts, the time looked at between them.
CHECK_SLICE = 10_000


def _shuffled_groups(groups: int, per_group: int, rng: random.Random) -> list[int]:
    """Indices ``0 .. groups*per_group-1`` with the groups shuffled and each group shuffled."""
    order = list(range(groups))
    rng.shuffle(order)
    result = []
    for g in order:
        inner = list(range(g * per_group, (g + 1) * per_group))
        rng.shuffle(inner)
        result.extend(inner)
    return result


def pattern_grid(geometry: Geometry) -> Grid:
    """The unshuffled pattern grid: each row the one above shifted by a box width (by one
    more at the start of a band). Deterministic, for tests.

    >>> from satdoku.model.geometry import geometry
    >>> pattern_grid(geometry(2, 2)).cells[:8]
    (1, 2, 3, 4, 3, 4, 1, 2)
    """
    r, c, n = geometry.box_rows, geometry.box_cols, geometry.size
    return Grid(geometry, tuple((c * (row % r) + row // r + col) % n + 1
                                for row in range(n) for col in range(n)))


def full_grid(geometry: Geometry, rng: random.Random) -> Grid:
    """A random valid complete grid of ``geometry``.

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.model.grid import is_solution
    >>> g = full_grid(geometry(2, 3), random.Random(1))
    >>> is_solution(g, g)
    True
    """
    r, c, n = geometry.box_rows, geometry.box_cols, geometry.size
    # A band is r rows (one row of boxes), there are c of them; a stack is c columns, r of them.
    rows = _shuffled_groups(c, r, rng)
    cols = _shuffled_groups(r, c, rng)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    cells = tuple(digits[(c * (row % r) + row // r + col) % n] for row in rows for col in cols)
    return Grid(geometry, cells)


def make_puzzle(full: Grid, rng: random.Random, holes: int) -> Grid:
    """``full`` with ``holes`` random cells emptied (all of them when ``holes`` is larger).

    >>> from satdoku.model.geometry import geometry
    >>> make_puzzle(full_grid(geometry(2, 2), random.Random(0)), random.Random(0), 10).nclues
    6
    """
    cells = list(full.cells)
    for cell in rng.sample(range(len(cells)), min(holes, len(cells))):
        cells[cell] = 0
    return Grid(full.geometry, tuple(cells))


def symmetry_orbits(geometry: Geometry, symmetry: str) -> list[tuple[int, ...]]:
    """The orbits of ``symmetry`` over the cells, each sorted, in order of their first cell.

    >>> from satdoku.model.geometry import geometry
    >>> symmetry_orbits(geometry(2, 2), "rotate90")[:2]
    [(0, 3, 12, 15), (1, 7, 8, 14)]
    """
    n = geometry.size
    moves = {
        "none": lambda r, c: (r, c),
        "rotate180": lambda r, c: (n - 1 - r, n - 1 - c),
        "rotate90": lambda r, c: (c, n - 1 - r),
        "mirror": lambda r, c: (r, n - 1 - c),
    }
    if symmetry not in moves:
        raise OptionError(f"unknown symmetry {symmetry!r}; choose one of "
                          f"{', '.join(SYMMETRIES)}")
    move = moves[symmetry]
    seen: set[int] = set()
    orbits = []
    for cell in range(geometry.ncells):
        if cell in seen:
            continue
        orbit = {cell}
        r, c = divmod(cell, n)
        while True:
            r, c = move(r, c)
            if r * n + c in orbit:
                break
            orbit.add(r * n + c)
        seen |= orbit
        orbits.append(tuple(sorted(orbit)))
    return orbits


def _shuffled(grid: Grid, rng: random.Random) -> Grid:
    """``grid`` with rows moved within bands, bands, columns within stacks and stacks permuted,
    digits relabelled, and (square boxes) perhaps transposed: still a valid complete grid."""
    geo = grid.geometry
    r, c, n = geo.box_rows, geo.box_cols, geo.size
    rows = _shuffled_groups(c, r, rng)
    cols = _shuffled_groups(r, c, rng)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    cells = grid.cells
    if r == c and rng.random() < 0.5:
        cells = tuple(cells[col * n + row] for row in range(n) for col in range(n))
    return Grid(geo, tuple(digits[cells[row * n + col] - 1] for row in rows for col in cols))


@record
class Generated:
    """One generated puzzle. ``minimal`` is True when proven minimal, False when found not to
    be (a symmetric puzzle from which one given of a pair could go), None when unknown (a check
    ran out of conflicts)."""

    puzzle: Grid
    solution: Grid
    index: int  # 1, 2, ... within the run
    seed: int
    symmetry: str
    minimal: bool | None
    attempts: int  # complete grids dug for this puzzle (more than 1 when some were dropped)
    sat_calls: int
    time_ms: float
    rating: Any = None  # its satdoku.tasks.rate.Rating, when a difficulty was asked for
    constraints: tuple = ()  # the rules it keeps (generate --rules)


class Generator(Closing):
    """Puzzles with exactly one solution, dug out of random complete grids.

    Args:
        geometry: the grid shape.
        seed: the same seed gives the same puzzles.
        symmetry: one of :data:`SYMMETRIES`; the givens keep that symmetry.
        minimal: only puzzles proven minimal (checks run without a conflict budget).
        max_clues: only puzzles with at most this many givens.
        sat_solver: the python-sat solver (default: satdoku's).
        encoding: the CNF encoding (default: by grid size, as for solving).
        attempts: complete grids to try for one puzzle before giving up (SolverError).
        difficulty: only puzzles whose rating (:mod:`satdoku.tasks.rate`) has this label.
        conflicts: budget of one check without ``minimal`` (None: unbounded; default
            :data:`DEFAULT_CONFLICTS`, or :data:`LARGE_CONFLICTS` above 16x16).
        constraints: a variant puzzle's rules: every puzzle keeps them (its complete grid is
            a random solution of them, see :meth:`random_solution`), and is unique under them.
        givens: digits every puzzle keeps (never dug), on ``geometry``.
        max_clauses: the clause limit of its solver's formulas (None: the default).
        timeout: seconds each puzzle may take, every stage (the complete grid, each check,
            the rating); past it :meth:`generate` raises SolverError saying so. None: no limit.

    >>> from satdoku.model.geometry import geometry
    >>> with Generator(geometry(2, 2), seed=1) as gen:
    ...     made = gen.generate()
    >>> made.puzzle.nclues < 16, made.minimal
    (True, True)
    """

    def __init__(self, geometry: Geometry, *, seed: int = 0, symmetry: str = "none",
                 minimal: bool = False, max_clues: int | None = None,
                 sat_solver: str | None = None, encoding: str | None = None,
                 attempts: int = 1000, conflicts: int | None = -1,
                 difficulty: str | None = None, constraints: tuple = (),
                 givens: Grid | None = None, timeout: float | None = None,
                 max_clauses: int | None = None, amo: str | None = None) -> None:
        from .other_commands import GenerateOptions
        self.geometry = geometry
        self.seed = seed
        self.constraints = tuple(constraints)
        self.givens = givens or Grid(geometry, (0,) * geometry.ncells)
        fixed = {c for c, _ in self.givens.givens()}
        self.orbits = [orbit for orbit in (tuple(c for c in o if c not in fixed)
                                           for o in symmetry_orbits(geometry, symmetry)) if orbit]
        self.symmetry = symmetry
        self.minimal = minimal
        self.max_clues = max_clues
        self.attempts = attempts
        if conflicts == -1:
            conflicts = DEFAULT_CONFLICTS if geometry.size <= 16 else LARGE_CONFLICTS
        self.conflicts = None if minimal else conflicts
        self.rng = random.Random(seed)
        options = GenerateOptions(sat_solver=sat_solver, encoding=encoding, amo=amo,
                                  max_clauses=max_clauses)
        self.solver = options.sat.python_sat(needs=NEEDS, task="generate")
        self.difficulty = difficulty
        self.rater = None
        self.ceiling: float | None = None
        if difficulty is not None:
            from .rate import LABELS, Rater
            if difficulty not in [name for _, name in LABELS]:
                raise OptionError(f"unknown difficulty {difficulty!r}; choose one of "
                                  f"{', '.join(name for _, name in LABELS)}")
            self.rater = Rater(sat_solver=sat_solver, encoding=encoding)
            if not constraints:  # dig no further than the label's highest ER
                from ..model.difficulty import ceiling_of
                self.ceiling = ceiling_of(difficulty)
        self.ratings: dict[tuple[int, ...], Any] = {}
        self.timeout = timeout
        self.deadline = NO_DEADLINE  # this puzzle's (generate)
        self.made = 0
        self.calls = 0

    def __iter__(self) -> Iterator[Generated]:
        while True:
            yield self.generate()

    @classmethod
    def of(cls, options: Any, seed: int | None) -> "Generator":
        """The generator of a :class:`~satdoku.tasks.commands.GenerateOptions`, with ``seed``
        (None: a random one)."""
        rules = options.rules
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 31)
        return cls(options.geometry, seed=seed, symmetry=options.symmetry,
                   minimal=options.minimal, max_clues=options.max_clues,
                   sat_solver=options.sat_solver, encoding=options.encoding, amo=options.amo,
                   attempts=options.attempts, difficulty=options.difficulty,
                   constraints=rules.constraints if rules is not None else (),
                   givens=rules.grid if rules is not None else None,
                   timeout=options.timeout, max_clauses=options.max_clauses)

    def generate(self) -> Generated:
        """The next puzzle. Raises SolverError when ``attempts`` grids gave none that fits,
        or when the time limit passed first."""
        self.deadline = Deadline(self.timeout)
        try:
            return self._generate()
        except TimeUp:
            raise SolverError(self.deadline.message()) from None

    def _generate(self) -> Generated:
        start = time.perf_counter()
        calls = self.calls
        for attempt in range(1, self.attempts + 1):
            self.deadline.check()
            solution = self.random_solution()
            puzzle, minimal = self.dig(solution)
            if self.minimal and not minimal:
                continue
            if self.max_clues is not None and puzzle.nclues > self.max_clues:
                continue
            if not self._fits(solution, puzzle):
                raise InternalError("a generated puzzle does not fit its own solution")
            rating = None
            if self.rater is not None:
                rating = self.ratings.get(puzzle.cells)
                if rating is None:  # (rules can leave few puzzles: each is rated once)
                    rating = self._rate(puzzle)
                if rating.label != self.difficulty:
                    continue
            self.made += 1
            return Generated(puzzle, solution, self.made, self.seed, self.symmetry, minimal,
                             attempt, self.calls - calls, (time.perf_counter() - start) * 1000,
                             rating, self.constraints)
        wanted = ("minimal " if self.minimal else "") + (
            f"{self.difficulty} " if self.difficulty else "") + "puzzle" + (
            f" with at most {self.max_clues} clues" if self.max_clues is not None else "")
        if self.symmetry != "none":
            wanted += f" and {self.symmetry} symmetry"
        raise SolverError(f"no {wanted} found in {self.attempts} grids; allow more attempts "
                          f"(--attempts) or relax the conditions")

    def _rate(self, puzzle: Grid) -> Any:
        """The rating of ``puzzle``, within this puzzle's time (one the time cut short is not
        kept: TimeUp)."""
        assert self.rater is not None
        rating = self.rater.rate(puzzle, constraints=self.constraints, deadline=self.deadline)
        if self.deadline.expired():
            raise TimeUp
        self.ratings[puzzle.cells] = rating
        return rating

    def _fits(self, solution: Grid, grid: Grid) -> bool:
        return not solution_problems(solution, grid, self.constraints)

    def random_solution(self) -> Grid:
        """A random complete grid: the boxes on the diagonal filled at random (they share no
        house), completed by the SAT solver (a fresh fill when that is impossible, as it can be
        on small grids), then shuffled. With rules, givens or irregular regions, which
        shuffling would not keep: :meth:`_random_solution_of_rules`."""
        geo, rng = self.geometry, self.rng
        if self.constraints or self.givens.nclues or not geo.is_boxed:
            return self._random_solution_of_rules()
        r, c, n = geo.box_rows, geo.box_cols, geo.size
        for _ in range(1000):
            cells = [0] * geo.ncells
            for k in range(min(r, c)):  # box k of band k and stack k
                digits = list(range(1, n + 1))
                rng.shuffle(digits)
                box = [(k * r + i) * n + k * c + j for i in range(r) for j in range(c)]
                for cell, d in zip(box, digits):
                    cells[cell] = d
            start = Grid(geo, tuple(cells))
            result = self.solver.solve(start, deadline=self.deadline)
            self.calls += 1
            self._settled(result)
            if result.status == "solved":
                if not is_solution(result.solution, start):
                    raise InternalError(f"{self.solver.name} gave a wrong complete grid")
                return _shuffled(result.solution, rng)
        raise InternalError("no random start grid could be completed")

    def _random_solution_of_rules(self) -> Grid:
        """A random solution of the rules and givens: N cells taken in random order each get a
        random digit that still leaves a solution (the solver's solution follows along)."""
        geo, rng = self.geometry, self.rng
        cells = list(self.givens.cells)
        solution = self._solve_rules(cells)
        if solution is None:
            raise SolverError("the rules and givens have no solution")
        free = [c for c, d in enumerate(cells) if not d]
        rng.shuffle(free)
        for cell in free[:geo.size]:
            digits = list(range(1, geo.size + 1))
            rng.shuffle(digits)
            for d in digits:
                if d == solution.cells[cell]:
                    break
                cells[cell] = d
                found = self._solve_rules(cells)
                if found is not None:
                    solution = found
                    break
            cells[cell] = solution.cells[cell]
        return solution

    def _solve_rules(self, cells: list[int]) -> Grid | None:
        grid = Grid(self.geometry, tuple(cells))
        result = self.solver.solve(grid, constraints=self.constraints, deadline=self.deadline)
        self.calls += 1
        self._settled(result)
        if result.status != "solved":
            return None
        if not self._fits(result.solution, grid):
            raise InternalError(f"{self.solver.name} gave a wrong solution of the rules")
        return result.solution

    @staticmethod
    def _settled(result) -> None:
        """Raise what a solve that was refused or ran out of time calls for."""
        if result.status == "refused":
            raise TooBigError(result.message)
        if result.status == "timeout":
            raise TimeUp

    def dig(self, solution: Grid) -> tuple[Grid, bool | None]:
        """A puzzle of ``solution`` with orbits removed in random order while it stays unique,
        and whether it is minimal (see the module docstring)."""
        cells = list(solution.cells)
        alternatives: list[frozenset[int]] = []
        fixed = {c for c, _ in self.givens.givens()}
        open_cells: set[int] = set()
        unknown = capped = False
        orbits = self.orbits[:]
        self.rng.shuffle(orbits)
        for orbit in orbits:
            trial = open_cells.union(orbit)
            if any(alt <= trial for alt in alternatives):
                continue
            for cell in orbit:
                cells[cell] = 0
            answer = self._check(cells, solution, alternatives, orbit)
            if answer == "unique" and self._too_hard(cells):
                capped = True  # removable, but the puzzle would leave its label's band
            elif answer == "unique":
                open_cells = trial
                continue
            unknown |= answer == "unknown"
            for cell in orbit:
                cells[cell] = solution.cells[cell]
        puzzle = Grid(self.geometry, tuple(cells))
        if capped:
            return puzzle, False
        if unknown:
            return puzzle, None
        if self.symmetry == "none":
            return puzzle, True
        # Each orbit left was needed as a whole; test its cells one at a time.
        for cell, _ in puzzle.givens():
            if cell in fixed or any(alt <= open_cells | {cell} for alt in alternatives):
                continue
            cells[cell] = 0
            answer = self._check(cells, solution, alternatives, (cell,))
            cells[cell] = solution.cells[cell]
            if answer == "unique":
                return puzzle, False
            unknown |= answer == "unknown"
        return puzzle, None if unknown else True

    def _too_hard(self, cells: list[int]) -> bool:
        """Whether the classic puzzle ``cells`` rates above the wanted label's band (SE's
        ladder, :func:`~satdoku.native.ladder.rates_above`); always False without a ceiling."""
        if self.ceiling is None:
            return False
        from ..native.ladder import rates_above
        return rates_above(Grid(self.geometry, tuple(cells)), self.ceiling, self.deadline)

    def _check(self, cells: list[int], solution: Grid, alternatives: list[frozenset[int]],
               emptied: tuple[int, ...]) -> str:
        """unique, multiple (the alternative remembered) or unknown (out of conflicts).

        The puzzle before ``emptied`` were emptied had one solution, so a second one must
        differ from it in one of them: :func:`~satdoku.sat.questions.other_solution` looks only there.
        """
        self.calls += len(emptied)
        grid = Grid(self.geometry, tuple(cells))
        while True:
            self.deadline.check()
            sliced = self.conflicts is None and not self.deadline.unlimited
            answer, other = questions.other_solution(
                self.solver.backend, grid, solution, cells=list(emptied),
                constraints=self.constraints, conflicts=CHECK_SLICE if sliced else self.conflicts)
            if answer != "unknown" or not sliced:
                break
        if other is not None:
            if not self._fits(other, grid) or other == solution:
                raise InternalError(f"{self.solver.name} gave a wrong second solution")
            alternatives.append(frozenset(solution.differences(other)))
        return answer

    def close(self) -> None:
        self.solver.close()

