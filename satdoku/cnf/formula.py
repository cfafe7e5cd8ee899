"""One builder for every formula: base clauses, clues and a puzzle's rules, within a budget.

:func:`encode` builds the formula of a puzzle in any encoding, ready to write as DIMACS or to
solve from scratch; the SAT engines, which keep a geometry's base formula loaded and add each
puzzle's rules guarded by activation literals, use the same pieces: the base clauses of
:mod:`satdoku.cnf.encodings`, the reduced formula of :mod:`satdoku.cnf.reduced`, and the rules
of :mod:`satdoku.cnf.rules`, all within one :class:`~satdoku.budget.Budget`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..deadline import NO_DEADLINE, Deadline
from ..errors import OptionError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import field, record
from .encodings import (DEFAULT_AMO, DEFAULT_ENCODING, DEFAULT_REDUCED_AMO, Pool,
                        base_clauses, base_formula, check_encoding, formula_size)
from .varmap import FullMap, full_map

if TYPE_CHECKING:  # the reduced formula's modules load when a grid takes it
    from .reduced import ReducedFormula

__all__ = ["Formula", "encode", "encode_base"]

Clause = list[int]

@record
class Formula:
    """A CNF formula over the variables ``1 .. nvars`` of one geometry (full encodings).

    The variables ``1 .. N**3`` mean "cell holds digit" (:attr:`varmap`); those above are
    auxiliary. ``parts`` names a variant puzzle's rules with the clauses each owns:
    (description, first clause, last clause), 1-based. ``givens``: whether the puzzle's givens
    are among the clauses as units (``clues='units'``), or left out for assumptions.
    """

    geometry: Geometry
    encoding: str
    amo: str
    nvars: int
    clauses: list[Clause]
    parts: list[tuple[str, int, int]] = field(default_factory=list)
    givens: bool = False
    contradiction = None  # only a reduction decides a puzzle before SAT

    @property
    def varmap(self) -> FullMap:
        return full_map(self.geometry)

    @property
    def nmapped(self) -> int:
        """``N**3``: the variables that mean "cell holds digit"; the only ones decoded."""
        return self.geometry.ncells * self.geometry.size

    def lit(self, cell: int, d: int) -> int:
        return cell * self.geometry.size + d


def encode(grid: Grid, encoding: str = DEFAULT_ENCODING, amo: str | None = None,
           clues: str = "units", *, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
           deadline: Deadline = NO_DEADLINE, constraints: tuple = ()
           ) -> Formula | ReducedFormula:
    """The formula of ``grid`` (under a variant puzzle's ``constraints``) in ``encoding``,
    ready to write as DIMACS or to solve from scratch.

    Args:
        grid: the puzzle.
        encoding: a name from :data:`~satdoku.cnf.encodings.ENCODINGS`; ``'reduced'`` folds
            the clues away.
        amo: an at-most-one encoding (default pairwise; reduced: pairwise for short lists).
        clues: full encodings only: ``'units'`` appends the givens as unit clauses, ``'none'``
            leaves them out (pass the map's ``clue_literals`` as assumptions instead).
        max_clauses: refuse (:class:`~satdoku.errors.TooBigError`) a formula with more
            clauses, the rules' included.
        deadline: stop (:class:`~satdoku.deadline.TimeUp`) when it passes.
        constraints: rules (:mod:`satdoku.rules`), appended after the clues with their
            clause ranges in ``parts``.

    >>> from satdoku.model.geometry import geometry
    >>> len(encode(Grid(geometry(2, 2), (1,) + (0,) * 15)).clauses)
    449
    """
    budget = Budget(max_clauses, deadline)
    if check_encoding(encoding).reduced:
        from .reduced import reduced_formula
        formula: Formula | ReducedFormula = reduced_formula(
            grid, amo or DEFAULT_REDUCED_AMO, max_clauses=max_clauses, deadline=deadline)
        if formula.contradiction is not None:
            return formula
    else:
        formula = _full(grid, encoding, amo or DEFAULT_AMO, clues, budget)
    budget.used = len(formula.clauses)
    if constraints:
        from .rules import RuleContext, encode_rules  # the rules' modules: only when needed
        ctx = RuleContext(formula.varmap, formula.nvars, budget)

        def add(constraint: object, clauses: list[Clause]) -> None:
            first = len(formula.clauses) + 1
            formula.clauses.extend(clauses)
            formula.parts.append((ctx.rule, first, len(formula.clauses)))

        encode_rules(constraints, ctx, add)
        formula.nvars = ctx.top
    return formula


def _full(grid: Grid, encoding: str, amo: str, clues: str, budget: Budget) -> Formula:
    if clues not in ("units", "none"):
        raise OptionError(f"clues must be 'units' or 'none', not {clues!r}")
    n = grid.size
    budget.refuse(formula_size(grid.geometry, encoding, amo)[1],
                  f"a {n}x{n} grid in the {encoding} encoding")
    n3 = grid.geometry.ncells * n  # N**3 on an N x N grid
    pool = Pool(start_from=n3 + 1)
    clauses: list[Clause] = []
    for chunk in base_clauses(grid.geometry, encoding, amo, pool):
        clauses.extend(chunk)
        budget.deadline.check()
    if clues == "units":
        clauses.extend([lit] for lit in full_map(grid.geometry).clue_literals(grid))
    return Formula(grid.geometry, encoding, amo, max(n3, pool.top), clauses,
                   givens=clues == "units")


def encode_base(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                amo: str = DEFAULT_AMO) -> Formula:
    """The base formula of ``geometry`` without clues (its clauses shared through a cache: do
    not modify them).

    >>> from satdoku.model.geometry import geometry
    >>> f = encode_base(geometry(3, 3))
    >>> f.nvars, len(f.clauses)
    (729, 11988)
    """
    nvars, clauses = base_formula(geometry, encoding, amo)
    return Formula(geometry, encoding, amo, nvars, clauses)  # type: ignore[arg-type]
