"""The solver registry, the choice of encoding, and the one door every answer goes through.

``make_solver('sat', sat_solver='minisat22')`` or ``make_solver('native')`` gives an object with
the :class:`~satdoku.model.result.Solver` interface; :data:`SOLVERS` lists the methods.
:func:`choose_encoding` picks the encoding a grid gets when none is named. :func:`solve` checks
the givens (a clash is ``invalid``), runs the solver under one deadline, and checks every
solution it returns with :func:`~satdoku.model.grid.solution_problems` (and each variant constraint's
own check), which belong to no solver; a solution that fails becomes status ``error``, never an
answer.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..budget import DEFAULT_MAX_CLAUSES
from ..deadline import Deadline
from ..errors import OptionError, PuzzleError
from ..model.grid import Grid, check_givens, clash_free, solution_problems
from ..model.result import Result, Solver
from ..sat.catalogue import check_sat_name, is_exec

__all__ = ["SOLVERS", "DEFAULT_SOLVER", "make_solver", "solve", "verify", "describe",
           "python_sat_version"]


def _make_sat(sat_solver: str | None = None, encoding: str | None = None,
              amo: str | None = None, incremental: bool = True, stats: bool = True,
              max_clauses: int | None = DEFAULT_MAX_CLAUSES) -> Solver:
    if is_exec(sat_solver):
        from ..sat.external import ExecSolver
        return ExecSolver(sat_solver, encoding, amo, max_clauses=max_clauses)
    from ..sat.solver import SatSolver
    return SatSolver(sat_solver, encoding, amo, incremental=incremental, stats=stats,
                     max_clauses=max_clauses)


def _make_native(**_: Any) -> Solver:
    from ..native.search import NativeSolver
    return NativeSolver()


#: Solving methods by name: SAT through python-sat, or the native propagation search.
SOLVERS: dict[str, Callable[..., Solver]] = {"sat": _make_sat, "native": _make_native}
DEFAULT_SOLVER = "sat"


def make_solver(method: str = DEFAULT_SOLVER, *, sat_solver: str | None = None,
                encoding: str | None = None, amo: str | None = None,
                incremental: bool = True, stats: bool = True,
                max_clauses: int | None = DEFAULT_MAX_CLAUSES, portfolio: int = 0) -> Solver:
    """A solver for ``method`` (a name in :data:`SOLVERS`); SAT options are ignored by native.

    ``stats=False`` lets the SAT backend skip its per-puzzle solver figures (faster).
    ``sat_solver`` may be an external command (``'exec:kissat -q'``, :mod:`satdoku.sat.external`).
    ``portfolio`` K >= 1 (SAT only) races K configurations on each puzzle
    (:class:`satdoku.sat.portfolio.PortfolioSolver`): ``sat_solver`` and ``encoding``, when
    given, make the first configuration, then :data:`~satdoku.sat.portfolio.DEFAULT_PORTFOLIO`.

    >>> with make_solver("sat", sat_solver="minisat22") as s:
    ...     s.name
    'sat:minisat22'
    """
    try:
        factory = SOLVERS[method]
    except KeyError:
        raise OptionError(f"unknown solver {method!r}; choose one of "
                          f"{', '.join(SOLVERS)}") from None
    if portfolio and method == "sat":
        from ..sat.portfolio import DEFAULT_PORTFOLIO, Config, PortfolioSolver
        configs = list(DEFAULT_PORTFOLIO)
        if sat_solver is not None or encoding is not None:
            first = Config(check_sat_name(sat_solver) if sat_solver else DEFAULT_PORTFOLIO[0]
                           .sat_solver, encoding)
            configs = [first] + [c for c in configs if c != first]
        return PortfolioSolver(configs, jobs=portfolio, max_clauses=max_clauses)
    return factory(sat_solver=sat_solver, encoding=encoding, amo=amo, incremental=incremental,
                   stats=stats, max_clauses=max_clauses)


def verify(result: Result, grid: Grid, constraints: tuple = ()) -> Result:
    """``result`` unchanged when its solutions are right for ``grid`` (and keep every variant
    constraint), else an ``error`` result saying what is wrong."""
    def wrong(what: str) -> Result:
        return Result(status="error", solver=result.solver, encoding=result.encoding,
                      time_ms=result.time_ms, stats=result.stats, limit=result.limit,
                      message=f"internal error: {result.solver} {what}")

    for label, answer in (("solution", result.solution), ("second solution", result.second)):
        if answer is None:
            continue
        problems = solution_problems(answer, grid, constraints)
        if problems:
            return wrong(f"gave a wrong {label}: " + "; ".join(problems[:3]))
    if result.second is not None and result.second == result.solution:
        return wrong("counted one solution twice")
    if result.ok and result.solution is None:
        return wrong(f"said {result.status} without a solution")
    return result


def solve(solver: Solver, grid: Grid, *, limit: int = 1, timeout: float | None = None,
          deadline: Deadline | None = None, constraints: tuple = (),
          givens_checked: bool = False) -> Result:
    """Solve ``grid`` with ``solver`` and verify the answer independently.

    Args:
        solver: from :func:`make_solver`.
        grid: the puzzle; givens that clash give status ``invalid`` (naming the cells).
        limit: 1 finds one solution; ``limit >= 2`` counts up to it (``unique``/``multiple``).
        timeout: seconds for the whole puzzle, every stage (or pass ``deadline``, made when
            reading the puzzle began, to count the reading too).
        constraints: variant rules (:mod:`satdoku.rules`) the solution must keep.
        givens_checked: the caller has checked the givens (the parser does), so they are not
            checked again.

    The time verification took is added to the stats as ``verify_ms`` (and the solver's
    time as ``solve_ms`` when it has no stages of its own).

    >>> from satdoku.model.geometry import geometry
    >>> with make_solver() as s:
    ...     solve(s, Grid(geometry(2, 2), (1, 1) + (0,) * 14)).message
    'r1c2: 1 repeats the given at r1c1'
    """
    if limit < 1:
        raise OptionError(f"limit must be at least 1, not {limit}")
    cells = grid.cells
    if not givens_checked and not (0 <= min(cells) and max(cells) <= grid.size
                                   and clash_free(grid)):
        try:
            check_givens(grid)
        except PuzzleError as error:
            return Result("invalid", solver=solver.name, encoding=solver.encoding, limit=limit,
                          message=error.detail)
    if deadline is None:
        deadline = Deadline(timeout)
    if constraints:
        if not solver.capabilities.rules:
            return Result("refused", solver=solver.name, encoding=solver.encoding, limit=limit,
                          message=f"{solver.name} cannot solve variant puzzles")
        try:
            result = solver.solve(grid, limit=limit, deadline=deadline, constraints=constraints)
        except OptionError as error:  # this puzzle's rules and the encoding: the batch goes on
            return Result("refused", solver=solver.name, encoding=solver.encoding, limit=limit,
                          message=error.message)
    else:
        result = solver.solve(grid, limit=limit, deadline=deadline)
    start = time.perf_counter()
    result = verify(result, grid, constraints)
    stats = result.stats
    stats["verify_ms"] = (time.perf_counter() - start) * 1000
    if "solve_ms" not in stats:  # a solver with one stage: all its time is solving
        stats["solve_ms"] = result.time_ms
    return result


def describe() -> dict[str, Any]:
    """What ``satdoku solvers`` shows: methods, SAT solvers, encodings, at-most-one encodings,
    the defaults, and python-sat's version."""
    from ..cnf.encodings import (AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING,
                                 DEFAULT_REDUCED_AMO, ENCODINGS, PAIRWISE_MAX)
    from ..cnf.policy import REDUCED_MIN_SIZE
    from ..sat.catalogue import DEFAULT_SAT_SOLVER, SAT_SOLVERS
    return {
        "solvers": list(SOLVERS), "default_solver": DEFAULT_SOLVER,
        "sat_solvers": [{"name": name, "default": name == DEFAULT_SAT_SOLVER,
                         "time_limit": info.interrupt or info.budget, "note": info.note}
                        for name, info in SAT_SOLVERS.items()],
        "encodings": [{"name": e.name, "description": e.description,
                       "default": (f"below {REDUCED_MIN_SIZE}x{REDUCED_MIN_SIZE}"
                                   if e.name == DEFAULT_ENCODING else
                                   f"from {REDUCED_MIN_SIZE}x{REDUCED_MIN_SIZE}"
                                   if e.reduced else None)}
                      for e in ENCODINGS.values()],
        "amo": list(AMO_ENCODINGS), "default_amo": DEFAULT_AMO,
        "default_reduced_amo": DEFAULT_REDUCED_AMO, "pairwise_max": PAIRWISE_MAX,
        "python_sat": python_sat_version(),
    }


def python_sat_version() -> str:
    """The installed python-sat's version."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("python-sat")
    except PackageNotFoundError:  # pragma: no cover (an unusual install)
        import pysat
        return getattr(pysat, "__version__", "unknown")
