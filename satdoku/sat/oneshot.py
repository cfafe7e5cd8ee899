"""Solving from scratch: a fresh solver (or process) for every solve call.

For solvers that take no assumptions and no clause after a solve (python-sat's Kissat, and
``exec:`` binaries): each call gets the puzzle's whole formula (clues as unit clauses, or folded
away when reduced), its rules, and one clause ruling out each solution found so far, so that a
count to N costs N + 1 calls. Both kinds count through :func:`count_afresh`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..cnf.formula import Formula, encode
from ..cnf.reduced import ReducedFormula
from ..deadline import Deadline, TimeUp
from ..errors import ModelError, TooBigError
from ..model.grid import Grid
from ..model.result import Result, counted_status, result_of, status_of
from .binding import new_solver
from .clock import pysat_call

if TYPE_CHECKING:  # pragma: no cover
    from .backend import Backend

__all__ = ["count_afresh", "solve_in_pysat", "solve_afresh"]

#: Runs one solve of the formula with these extra clauses: the model, or None (no solution).
Run = Callable[[list[list[int]]], "Sequence[int] | None"]


def count_afresh(formula: Formula | ReducedFormula, grid: Grid, limit: int, run: Run,
                 solutions: list[Grid]) -> str:
    """Solve ``formula`` with ``run`` until ``limit`` solutions or none is left, ruling out
    each solution found (read strictly through the formula's variable map: a model that does
    not describe a grid raises ModelError); the status. ``solutions`` fills as they come (kept
    when a TimeUp stops the count)."""
    if formula.contradiction is not None:
        return "unsolvable"
    blocks: list[list[int]] = []
    while True:
        # A reduction that settled every cell leaves nothing to solve: the empty model.
        model = run(blocks) if formula.clauses or blocks else []
        if model is None:
            break
        solution = formula.varmap.read(model)
        solutions.append(solution)
        if len(solutions) >= limit:
            break
        block = formula.varmap.blocking(solution, grid)
        if not block:  # every cell was given or settled: there is no other solution
            break
        blocks.append(block)
    if limit < 2:
        return "solved" if solutions else "unsolvable"
    return counted_status(len(solutions))


def solve_in_pysat(name: str, formula: Formula | ReducedFormula, deadline: Deadline,
                   stats: dict[str, Any]) -> Run:
    """A :data:`Run` that loads the formula into a new python-sat solver ``name`` per call."""
    clauses = formula.clauses

    def run(extra: list[list[int]]) -> list[int] | None:
        t0 = time.perf_counter()
        solver = new_solver(name)
        try:
            for i in range(0, len(clauses), 20_000):
                pysat_call(solver.append_formula, clauses[i:i + 20_000])
                deadline.check()
            pysat_call(solver.append_formula, extra)
            t1 = time.perf_counter()
            stats["load_ms"] += (t1 - t0) * 1000
            try:
                answer = pysat_call(solver.solve)
            finally:
                stats["solve_ms"] += (time.perf_counter() - t1) * 1000
                stats["runs"] += 1
            return solver.get_model() if answer else None
        finally:
            solver.delete()
    return run


def solve_afresh(backend: Backend, grid: Grid, limit: int, deadline: Deadline,
                 constraints: tuple, start: float) -> Result:
    """:meth:`~satdoku.sat.solver.SatSolver.solve` for a python-sat solver without assumptions
    or clauses after solving (Kissat): a fresh solver for every solve call. Such solvers keep
    no time limit (the caller refuses one)."""
    encoding = backend.encoding_for(grid)
    stats: dict[str, Any] = {"encode_ms": 0.0, "load_ms": 0.0, "solve_ms": 0.0, "runs": 0}
    solutions: list[Grid] = []
    status = message = None
    try:
        begun = time.perf_counter()
        formula = encode(grid, encoding, backend.amo, "units", max_clauses=backend.max_clauses,
                         deadline=deadline, constraints=constraints)
        stats["encode_ms"] = (time.perf_counter() - begun) * 1000
        stats.update(variables=formula.nvars, clauses=len(formula.clauses))
        run = solve_in_pysat(backend.info.name, formula, deadline, stats)
        status = count_afresh(formula, grid, limit, run, solutions)
    except (TimeUp, TooBigError) as error:
        status, message = status_of(error, deadline, len(solutions) if limit > 1 else None)
    except ModelError as error:  # a model that does not describe a grid: a solver fault
        status, message = "error", f"internal error: {backend.name} {error.detail}"
    return result_of(status, solutions, limit=limit, solver=backend.name, encoding=encoding,
                     time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                     message=message)
