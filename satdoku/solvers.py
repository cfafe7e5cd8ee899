"""The solver registry and the one door every answer goes through: :func:`solve` verifies.

``make_solver('sat', sat_solver='minisat22')`` or ``make_solver('native')`` gives an object with
the :class:`~satdoku.result.Solver` interface. :func:`solve` runs it and checks every solution it
returns with :func:`~satdoku.grid.solution_problems`, which belongs to neither solver; a solution
that fails is turned into status ``error``, never passed on as an answer.
"""

from __future__ import annotations

import time
from typing import Callable

from .errors import SolverError
from .grid import Grid, solution_problems
from .result import Result, Solver

__all__ = ["METHODS", "make_solver", "solve", "verify", "parse_method"]


def _make_sat(sat_solver: str | None = None, encoding: str | None = None,
              amo: str | None = None, incremental: bool = True, stats: bool = True) -> Solver:
    from .sat import DEFAULT_SAT_SOLVER, SatSolver
    if encoding == "reduced":
        from .reduce import ReducedSatSolver
        return ReducedSatSolver(sat_solver, amo=amo)
    full = SatSolver(sat_solver or DEFAULT_SAT_SOLVER, encoding=encoding or "extended",
                     amo=amo or "pairwise", incremental=incremental, stats=stats)
    if encoding is not None:
        return full
    # no encoding named: big grids (N >= 36) get the reduced encoding, a fresh formula each
    from .reduce import ReducedSatSolver, SizeSwitchSolver
    return SizeSwitchSolver(full, ReducedSatSolver(sat_solver, amo=amo))


def _make_native(sat_solver: str | None = None, encoding: str | None = None,
                 amo: str | None = None, incremental: bool = True, stats: bool = True) -> Solver:
    from .search import NativeSolver
    return NativeSolver()


#: Solving methods by name: SAT through python-sat, or the native propagation search.
METHODS: dict[str, Callable[..., Solver]] = {"sat": _make_sat, "native": _make_native}


def make_solver(method: str = "sat", *, sat_solver: str | None = None,
                encoding: str | None = None, amo: str | None = None,
                incremental: bool = True, stats: bool = True) -> Solver:
    """A solver for ``method`` ('sat' or 'native'); SAT options are ignored by 'native'.

    ``stats=False`` lets the SAT backend skip its per-puzzle solver figures (faster).

    >>> with make_solver("sat", sat_solver="minisat22") as s:  # doctest: +SKIP
    ...     s.solve(grid).status
    'solved'
    """
    try:
        factory = METHODS[method]
    except KeyError:
        raise SolverError(f"unknown method {method!r}; choose from {', '.join(METHODS)}") from None
    return factory(sat_solver=sat_solver, encoding=encoding, amo=amo, incremental=incremental,
                   stats=stats)


def parse_method(text: str) -> tuple[str, str | None]:
    """``'sat:glucose4'`` -> ('sat', 'glucose4'); ``'native'`` -> ('native', None)."""
    method, _, detail = text.partition(":")
    if method not in METHODS:
        raise SolverError(f"unknown method {text!r}; use sat, sat:SOLVER or native")
    if method == "native" and detail:
        raise SolverError(f"method {text!r}: native takes no solver name")
    return method, detail or None


def verify(result: Result, grid: Grid) -> Result:
    """``result`` unchanged when its solutions are right for ``grid``, else an ``error`` result."""
    for label, answer in (("solution", result.solution), ("second solution", result.second)):
        if answer is None:
            continue
        problems = solution_problems(answer, grid)
        if problems:
            return Result(status="error", solver=result.solver, encoding=result.encoding,
                          time_ms=result.time_ms, stats=result.stats,
                          message=f"internal error: {result.solver} gave a wrong {label}: "
                                  + "; ".join(problems[:3]))
    if result.second is not None and result.second == result.solution:
        return Result(status="error", solver=result.solver, encoding=result.encoding,
                      time_ms=result.time_ms, stats=result.stats,
                      message=f"internal error: {result.solver} counted one solution twice")
    if result.ok and result.solution is None:
        return Result(status="error", solver=result.solver, encoding=result.encoding,
                      time_ms=result.time_ms, stats=result.stats,
                      message=f"internal error: {result.solver} said {result.status} "
                              "without a solution")
    return result


def solve(solver: Solver, grid: Grid, *, limit: int = 1, timeout: float | None = None) -> Result:
    """Solve ``grid`` with ``solver`` and verify the answer independently.

    ``limit >= 2`` counts solutions up to ``limit`` (statuses ``unique``/``multiple``). The time
    verification took is added to the stats as ``verify_ms``.
    """
    result = solver.solve(grid, limit=limit, timeout=timeout)
    start = time.perf_counter()
    result = verify(result, grid)
    result.stats["verify_ms"] = (time.perf_counter() - start) * 1000
    return result
