"""The regions a rule draws, read back for an answer: a chaos construction's partition.

The main formula decides the digits; its auxiliary variables are not decoded. For an answer
to a puzzle whose rule draws regions (``chaos``: :mod:`satdoku.rules.chaos`), the rule's
own clauses are solved once more with the answer's digits as units, a formula
that unit propagation nearly settles, and the regions it finds become the answer's geometry
(a jigsaw that refines the puzzle's grid), which the verifier then checks like any other.
"""

from __future__ import annotations

from typing import Sequence

from ..deadline import Deadline
from ..model.geometry import jigsaw
from ..model.outside import with_extra
from ..model.grid import Grid
from ..rules import EncodeContext
from ..rules.chaos import Chaos
from .catalogue import DEFAULT_SAT_SOLVER
from .binding import new_solver
from .clock import pysat_call

__all__ = ["with_regions"]


def with_regions(solution: Grid, constraints: Sequence[object],
                 deadline: Deadline | None = None) -> Grid:
    """``solution`` with the regions its puzzle's rules draw, as its geometry; unchanged when
    no rule draws regions, or when no regions fit its digits (the verifier says so then).

    >>> from satdoku.model.geometry import boxless
    >>> from satdoku.rules import Chaos
    >>> g = boxless(2)
    >>> answer = with_regions(Grid(g, (1, 2, 2, 1)), [Chaos(g)])
    >>> answer.geometry.shape, Chaos(g).check(answer)
    ('jigsaw', [])
    """
    drawers = [c for c in constraints if isinstance(c, Chaos)]
    if not drawers:
        return solution
    geo = solution.geometry
    ctx = EncodeContext(geo)
    clauses, x = drawers[0].region_formula(ctx)
    clauses += [[ctx.var(cell, d)] for cell, d in enumerate(solution.cells)]
    if deadline is not None:
        deadline.check()
    with new_solver(DEFAULT_SAT_SOLVER, clauses) as solver:
        if not pysat_call(solver.solve):
            return solution
        true = {v for v in solver.get_model() if v > 0}
    regions: list[list[int]] = [[] for _ in range(geo.size)]
    for cell, lits in enumerate(x):
        regions[next(r for r, v in enumerate(lits) if v in true)].append(cell)
    return Grid(with_extra(jigsaw(regions, geo.low), geo.extra), solution.cells)
