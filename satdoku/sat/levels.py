"""How far unit propagation alone takes a puzzle: the levels of the SAT-against-search tables.

Glossary (adds to :mod:`satdoku.sat.engines`):

- level: the weakest inference that settles a puzzle in an encoding (:data:`LEVELS`):
  ``propagation`` (unit propagation of the clues over the encoding's base formula assigns
  every cell, or meets a conflict: no decision at all), ``failed literals`` (propagation plus
  failed-literal probing: every open (cell, digit) literal is propagated on its own, one that
  meets a conflict is false, to a fixpoint), else ``search``.
- settled: assigned one way for good; a puzzle settled by a level has one solution (or none,
  when the level met a conflict), since everything propagation derives follows from the clues.

What each level means for a person depends on the encoding: propagation over ``extended`` is
naked and hidden singles, over ``augmented`` singles and locked candidates (pointing and
claiming), over ``minimal`` and ``natural`` neither (they have no house >= 1 clauses, so no
hidden single); failed literals are a one-step trial of every candidate (docs/sat-vs-search.md).

The levels are python-sat's ``propagate`` on :data:`LEVEL_SOLVER` (MiniSat 2.2): a solver that
holds the base formula (and a variant puzzle's rules) and never solves, so a level depends on
the encoding and the puzzle alone, not on what the solver learnt from earlier puzzles (a
CaDiCaL decision count does; and CaDiCaL's ``propagate`` costs four times MiniSat's). It is a
measure, not a fast path: one ``propagate`` call a puzzle for the first level, and up to one a
candidate a round for the second.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..budget import DEFAULT_MAX_CLAUSES
from ..cnf.encodings import check_encoding, formula_size
from ..cnf.formula import encode, encode_base
from ..cnf.varmap import full_map
from ..errors import SatdokuError
from ..model.geometry import Geometry
from ..model.grid import Grid
from .binding import new_solver
from .clock import pysat_call

__all__ = ["LEVELS", "LEVEL_SOLVER", "Levels", "level_of"]

#: The levels from the weakest inference up; ``search`` is what is left.
LEVELS = ("propagation", "failed literals", "search")

#: The python-sat solver whose ``propagate`` measures the levels.
LEVEL_SOLVER = "minisat22"


class Levels:
    """Levels of puzzles in one encoding, with one propagating solver per geometry (classic
    puzzles) or per puzzle (variant rules). ``probe=False`` stops at ``propagation``: a puzzle
    it does not settle is ``unprobed`` rather than ``failed literals`` or ``search``. The reduced encoding is measured on ``extended`` (the same clauses over the
    pairs the reduction leaves open). Grids whose base formula passes ``max_clauses`` are not
    measured (None)."""

    def __init__(self, encoding: str, *, probe: bool = True,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES) -> None:
        self.encoding = "extended" if check_encoding(encoding).reduced else encoding
        self.probe = probe
        self.max_clauses = max_clauses
        self._solvers: dict[Geometry, tuple[Any, list[int]] | None] = {}

    def _solver(self, geometry: Geometry) -> tuple[Any, list[int]] | None:
        if geometry not in self._solvers:
            size = formula_size(geometry, self.encoding)[1]
            fits = self.max_clauses is None or size <= self.max_clauses
            self._solvers[geometry] = _loaded(encode_base(geometry, self.encoding).clauses) \
                if fits else None
        return self._solvers[geometry]

    def level(self, grid: Grid, constraints: tuple = ()) -> str | None:
        """The level of ``grid`` (under a variant puzzle's ``constraints``): one of
        :data:`LEVELS`, ``unprobed``, or None when not measured."""
        clues = full_map(grid.geometry).clue_literals(grid)
        if constraints:
            try:
                formula = encode(grid, self.encoding, clues="none", constraints=constraints,
                                 max_clauses=self.max_clauses)
            except SatdokuError:  # a rule too big or refused: the puzzle is not measured
                return None
            solver, units = _loaded(formula.clauses)
            with solver:
                return level_of(solver, units + clues, grid.size, self.probe)
        loaded = self._solver(grid.geometry)
        if loaded is None:
            return None
        return level_of(loaded[0], loaded[1] + clues, grid.size, self.probe)

    def close(self) -> None:
        for loaded in self._solvers.values():
            if loaded is not None:
                loaded[0].delete()
        self._solvers.clear()


def level_of(solver: Any, clues: Sequence[int], size: int, probe: bool = True) -> str:
    """The level of the puzzle whose ``clues`` (and the formula's unit clauses, which the
    solver must not hold: see :func:`_loaded`) are literals of ``solver``'s formula over the
    cell variables ``1 .. size**3`` (see the module docstring); ``unprobed`` when ``probe``
    is off and propagation does not settle it.

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.cnf.formula import encode_base
    >>> with new_solver(LEVEL_SOLVER, encode_base(geometry(2, 2)).clauses) as s:
    ...     level_of(s, [1, 6, 11, 16, 7], 4), level_of(s, [], 4)
    ('propagation', 'search')
    """
    n3 = size ** 3
    ncells = size * size
    assumed = list(clues)
    ok, lits = pysat_call(solver.propagate, assumptions=assumed)
    if not ok or _placed(lits, n3) == ncells:
        return "propagation"
    if not probe:
        return "unprobed"
    while True:
        fixed = set(lits).union(assumed)
        failed = False
        for v in range(1, n3 + 1):
            if v in fixed or -v in fixed:
                continue
            if pysat_call(solver.propagate, assumptions=assumed + [v])[0]:
                continue
            assumed.append(-v)  # v fails: its negation follows from the clues
            ok, lits = pysat_call(solver.propagate, assumptions=assumed)
            if not ok or _placed(lits, n3) == ncells:
                return "failed literals"
            fixed = set(lits).union(assumed)
            failed = True
        if not failed:
            return "search"


def _loaded(clauses: Sequence[Sequence[int]]) -> tuple[Any, list[int]]:
    """A propagating solver of ``clauses`` and their unit clauses, which it does not hold:
    what MiniSat fixes at level 0 ``propagate`` never reports, so units are assumed with the
    clues instead."""
    solver = new_solver(LEVEL_SOLVER)
    solver.append_formula([c for c in clauses if len(c) > 1])
    return solver, [c[0] for c in clauses if len(c) == 1]


def _placed(lits: Sequence[int], n3: int) -> int:
    """How many cell variables ``lits`` make true (each cell has at most one)."""
    return sum(1 for lit in lits if 0 < lit <= n3)
