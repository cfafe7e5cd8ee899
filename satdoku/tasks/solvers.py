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

from ..deadline import Deadline
from ..cnf.encode import DEFAULT_ENCODING, DEFAULT_MAX_CLAUSES
from ..errors import OptionError, PuzzleError
from ..model.grid import Grid, check_givens, clash_free, solution_problems
from ..model.result import Result, Solver

__all__ = ["SOLVERS", "DEFAULT_SOLVER", "REDUCED_MIN_SIZE", "LARGE_MIN_SIZE", "choose_encoding",
           "make_solver", "solve", "verify", "describe", "check_sat_name", "keeps_time_limit"]

#: Grids at least this big get the reduced encoding when none is named (solve, count, encode,
#: decode, bench). From 36 x 36 the full formula (N**3 variables, ~2 N**4 clauses, 3.3 million
#: at 36) costs seconds to build and hundreds of MB, while the givens of real puzzles leave a
#: few thousand open pairs. At 25 x 25 the full formula fits, but its clues as assumptions
#: cost hard puzzles 5 to 10 times the CPU (CaDiCaL cannot simplify them away), and the
#: reduced formula counts easy ones 3 times faster (docs/hard-grids.md). 16 x 16 batches stay
#: much faster with the incremental full formula (0.58 vs 5.32 ms a puzzle).
REDUCED_MIN_SIZE = 25

#: From this size the full formula does not fit: every command defaults to the reduced
#: encoding, and every racer of a portfolio gets it. Below it, the commands that ask one
#: incremental solver many questions about a puzzle under assumptions (explain's cores,
#: generate's digging) or keep a scale (rate's conflicts) keep the full formula.
LARGE_MIN_SIZE = 36


def choose_encoding(size: int, reduced_from: int = REDUCED_MIN_SIZE, *,
                    variant: bool = False) -> str:
    """The encoding an N x N grid gets when none is named: reduced from ``reduced_from``, and
    for a ``variant`` puzzle (whose rules need a full encoding) only where a full formula
    does not fit (:data:`LARGE_MIN_SIZE`).

    >>> choose_encoding(9), choose_encoding(25), choose_encoding(25, variant=True)
    ('extended', 'reduced', 'extended')
    """
    if variant:
        reduced_from = max(reduced_from, LARGE_MIN_SIZE)
    return "reduced" if size >= reduced_from else DEFAULT_ENCODING


#: A --sat-solver name with this prefix is an external command (:mod:`satdoku.sat.external`).
PREFIX = "exec:"


def is_exec(name: str | None) -> bool:
    """True when ``name`` names an external command (``exec:...``)."""
    return bool(name) and name.startswith(PREFIX)


def check_sat_name(name: str) -> str:
    """The canonical name of a SAT solver: a python-sat solver (aliases allowed) or an
    external command ``exec:...`` whose program is on PATH. Raises :class:`OptionError`.

    >>> check_sat_name("m22")
    'minisat22'
    """
    if is_exec(name):
        from ..sat.external import check_command
        return check_command(name).spec
    from ..sat.solver import check_sat_solver
    return check_sat_solver(name).name


def keeps_time_limit(sat_solver: str | None) -> bool:
    """True when ``sat_solver`` (a canonical name, None: the default) can stop at a time
    limit: external commands are killed, python-sat solvers need interrupt() or budgets.

    >>> keeps_time_limit("lingeling"), keeps_time_limit("exec:cadical")
    (False, True)
    """
    if sat_solver is None or is_exec(sat_solver):
        return True
    from ..sat.solver import check_sat_solver
    info = check_sat_solver(sat_solver)
    return info.interrupt or info.budget


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
        if not getattr(solver, "takes_constraints", False):
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
    from ..cnf.encode import (AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_REDUCED_AMO, ENCODINGS,
                         PAIRWISE_MAX)
    from ..sat.solver import DEFAULT_SAT_SOLVER, SAT_SOLVERS
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
