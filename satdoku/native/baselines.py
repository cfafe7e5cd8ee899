"""Compiled search baselines: Algorithm X in C (``exact-cover``) and OR-tools CP-SAT (``cp-sat``).

satdoku's native search is pure Python and its SAT path runs CaDiCaL in C++: "SAT beats
search" against the native search is mostly C++ against Python. These two solvers put search
written in a compiled language beside SAT, each through a maintained package with wheels (the
optional extra ``satdoku[baselines]``), behind the same :class:`~satdoku.model.result.Solver`
interface, so ``bench --solver exact-cover`` times it as it times SAT and every answer is
verified by the same independent check.

- ``exact-cover``: the PyPI package ``exact-cover`` (Knuth's Algorithm X with dancing links, in
  C; the column with fewest rows first). The matrix of a geometry (one row per cell and digit,
  one column per cell, and per house and digit) is built once; a puzzle keeps the one row of
  each given cell and every row of the empty ones (clues by row selection). It is search with
  the propagation exact cover implies (naked and hidden singles through the column choice),
  nothing more: no locked candidates, no learning. Its C call cannot be interrupted: up to
  9x9 it runs in this process and the deadline is checked before and after it (a 9x9 takes
  milliseconds); above, with a time limit, it runs in a forked child killed at the deadline
  (:data:`CHILD_FROM`; that child's CPU is not in this process's). It counts up to
  :data:`MAX_COUNT` solutions (it returns them all at once). It reports no counters.
- ``cp-sat``: OR-tools' CP-SAT with one worker (``num_workers=1``, so its portfolio does not run)
  on the model a Python user would write: one integer variable per cell, ``AllDifferent`` per
  house, the givens fixed. The model of a geometry is built once and cloned per puzzle.
  CP-SAT is a lazy-clause-generation solver (SAT underneath, with presolve and propagators for
  AllDifferent), not a plain backtracking search; it keeps the time limit itself
  (``max_time_in_seconds``). Its branches and conflicts are reported as ``decisions`` and
  ``conflicts``. Counting enumerates solutions (``enumerate_all_solutions``, which turns some
  presolve off) up to the limit.

Neither takes variant rules (status ``refused``); both take any box shape and jigsaw regions.
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable, Sequence

from ..closing import Closing
from ..deadline import NO_DEADLINE, Deadline
from ..errors import OptionError, SolverError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..model.result import Capabilities, Result, counted_status

__all__ = ["BASELINES", "BASELINE_HINT", "missing", "ExactCoverSolver", "CpSatSolver"]

#: The largest ``limit`` exact-cover takes: it returns every solution at once.
MAX_COUNT = 10_000

#: Above this size, with a time limit, exact-cover's C call runs in a forked child killed at
#: the deadline (a 9x9 takes milliseconds in this process; a big grid may not end).
CHILD_FROM = 9

#: What to install for a baseline that is missing.
BASELINE_HINT = "pip install 'satdoku[baselines]'"


def missing(solver: str) -> str | None:
    """What is missing for the baseline ``solver`` to run here (the package to install), or
    None; found without importing it (OR-tools takes a second)."""
    import importlib.util
    module, package = BASELINES[solver].module, BASELINES[solver].package
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package absent, or a module set to None
        found = False
    return None if found else f"solver {solver} needs the {package} package: {BASELINE_HINT}"


def _require(solver: str) -> Any:
    """The imported module of the baseline ``solver``, or an OptionError naming the package
    and the extra."""
    import importlib
    try:
        return importlib.import_module(BASELINES[solver].module)
    except ImportError:
        raise OptionError(missing(solver) or f"solver {solver} cannot be imported") from None


def _result(name: str, status: str, found: list[Grid], limit: int, start: float,
            stats: dict[str, Any], message: str | None = None) -> Result:
    counting = limit >= 2
    if status == "timeout" and not counting:
        found = []
    return Result(status=status, solution=found[0] if found else None,
                  count=len(found) if counting else None,
                  second=found[1] if len(found) > 1 else None, solver=name, encoding=None,
                  time_ms=(time.perf_counter() - start) * 1000.0, stats=stats,
                  message=message, limit=limit)


def _ended(found: list[Grid], limit: int) -> str:
    """The status of a search that ran to its end having found ``found``."""
    return counted_status(len(found)) if limit >= 2 else ("solved" if found else "unsolvable")


@functools.lru_cache(maxsize=8)
def _matrix(geo: Geometry) -> Any:
    """The exact-cover matrix of ``geo``: row ``cell * size + d - 1`` places digit d in cell;
    columns are the cells, then (house, digit) pairs."""
    import numpy as np
    n = geo.size
    matrix = np.zeros((geo.ncells * n, geo.ncells + len(geo.houses) * n), dtype=bool)
    for cell in range(geo.ncells):
        for d in range(n):
            row = cell * n + d
            matrix[row, cell] = True
            for house in geo.cell_houses[cell]:
                matrix[row, geo.ncells + house * n + d] = True
    matrix.setflags(write=False)
    return matrix


class _Baseline(Closing):
    """What both baselines are: no CNF encoding; no rules, assumptions or conflicts; a search
    that does not start once the deadline has passed. (The example needs satdoku[baselines].)

    >>> from satdoku.io.text import parse_puzzle
    >>> with BASELINES["exact-cover"]() as s:  # doctest: +SKIP
    ...     s.solve(parse_puzzle("1.3..4.2.34.4.23").grid, limit=2).status
    'unique'
    """

    name = ""
    #: The module it imports, and the package on PyPI that has it.
    module = package = ""
    encoding: str | None = None
    capabilities = Capabilities(rules=False, assumptions=False, conflicts=False)

    def _begin(self, limit: int, deadline: Deadline | None
               ) -> tuple[float, Deadline, Result | None]:
        """The start time, the deadline to keep, and the result to give at once when it has
        passed already (else None)."""
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        if deadline.expired():
            return start, deadline, _result(self.name, "timeout", [], limit, start, {},
                                            deadline.message())
        return start, deadline, None


class ExactCoverSolver(_Baseline):
    """Algorithm X in C (see the module docstring). The time limit is kept from 16x16 on (a
    child process) and checked around a 9x9's call."""

    name = "exact-cover"
    module, package = "exact_cover", "exact-cover"

    def __init__(self) -> None:
        self._ec = _require(self.name)

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: Sequence[Any] = ()) -> Result:
        """Solve ``grid`` (``limit`` 1) or count its solutions up to ``limit``."""
        import numpy as np
        start, deadline, late = self._begin(limit, deadline)
        if late is not None:
            return late
        if limit > MAX_COUNT:
            return _result(self.name, "refused", [], limit, start, {},
                           f"{self.name} counts up to {MAX_COUNT:,} solutions (its C call "
                           f"holds them all and cannot be stopped)")
        geo, n = grid.geometry, grid.size
        keep = [cell * n + d for cell, given in enumerate(grid.cells)
                for d in ((given - 1,) if given else range(n))]
        rows = np.ascontiguousarray(_matrix(geo)[keep])
        stats: dict[str, Any] = {"rows": len(keep),
                                 "encode_ms": (time.perf_counter() - start) * 1000.0}
        t0 = time.perf_counter()
        if n > CHILD_FROM and not deadline.unlimited:
            covers = _in_child(self._covers, rows, limit, deadline)
            stats["child"] = True
        else:
            covers = self._covers(rows, limit)
        stats["solve_ms"] = (time.perf_counter() - t0) * 1000.0
        if covers is None:  # the child was stopped at the deadline
            return _result(self.name, "timeout", [], limit, start, stats,
                           deadline.message(0 if limit >= 2 else None))
        found = []
        for cover in covers:
            cells = [0] * geo.ncells
            for index in cover:
                if index >= 0:
                    cell, d = divmod(keep[index], n)
                    cells[cell] = d + 1
            found.append(Grid(geo, tuple(cells)))
        if deadline.expired():
            return _result(self.name, "timeout", found, limit, start, stats,
                           deadline.message(len(found) if limit >= 2 else None))
        return _result(self.name, _ended(found, limit), found, limit, start, stats)


    def _covers(self, rows: Any, limit: int) -> list[Any]:
        """The exact covers of ``rows``, up to ``limit`` (one C call)."""
        try:
            return ([self._ec.get_exact_cover(rows)] if limit == 1 else
                    sorted(self._ec.get_all_solutions(rows, limit)))
        except self._ec.error.NoSolution:
            return []


def _in_child(covers: Callable[[Any, int], list[Any]], rows: Any, limit: int,
              deadline: Deadline) -> list[Any] | None:
    """``covers(rows, limit)`` in a forked child killed at ``deadline`` (None then): the C
    call cannot be stopped any other way."""
    from ..children import ChildFailed, in_child
    from ..deadline import TimeUp
    try:
        return in_child(lambda: [list(map(int, cover)) for cover in covers(rows, limit)],
                        deadline)
    except TimeUp:
        return None
    except ChildFailed as failed:
        raise SolverError(f"exact-cover's child process: {failed}") from None


class CpSatSolver(_Baseline):
    """OR-tools CP-SAT with one worker (see the module docstring)."""

    name = "cp-sat"
    module, package = "ortools.sat.python.cp_model", "ortools"

    def __init__(self) -> None:
        self._cp = _require(self.name)
        self._models: dict[Geometry, Any] = {}

    def _model(self, geo: Geometry) -> Any:
        """The model of ``geo``, built once: variable ``cell`` is the cell's digit."""
        model = self._models.get(geo)
        if model is None:
            model = self._models[geo] = self._cp.CpModel()
            cells = [model.new_int_var(1, geo.size, f"c{cell}") for cell in range(geo.ncells)]
            for house in geo.houses:
                model.add_all_different([cells[cell] for cell in house])
        return model

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: Sequence[Any] = ()) -> Result:
        """Solve ``grid`` (``limit`` 1) or count its solutions up to ``limit``."""
        start, deadline, late = self._begin(limit, deadline)
        if late is not None:
            return late
        geo = grid.geometry
        model = self._model(geo).clone()
        for cell, given in enumerate(grid.cells):
            if given:
                domain = model.proto.variables[cell].domain  # [1, size]: one interval
                domain[0] = domain[1] = given
        solver = self._cp.CpSolver()
        solver.parameters.num_workers = 1
        if not deadline.unlimited:
            solver.parameters.max_time_in_seconds = max(deadline.remaining(), 1e-3)
        solutions: list[tuple[int, ...]] = []
        stats: dict[str, Any] = {"encode_ms": (time.perf_counter() - start) * 1000.0}
        t0 = time.perf_counter()
        if limit == 1:
            status = solver.solve(model)
            if status in (self._cp.OPTIMAL, self._cp.FEASIBLE):
                solutions.append(tuple(int(v) for v in solver.response_proto.solution))
        else:
            solver.parameters.enumerate_all_solutions = True
            cells = [model.get_int_var_from_proto_index(cell) for cell in range(geo.ncells)]
            status = solver.solve(model, _collector(self._cp, cells, limit, solutions))
        stats.update(solve_ms=(time.perf_counter() - t0) * 1000.0,
                     decisions=solver.num_branches, conflicts=solver.num_conflicts)
        found = [Grid(geo, cells) for cells in solutions]
        if status == self._cp.UNKNOWN and len(found) < limit:
            return _result(self.name, "timeout", found, limit, start, stats,
                           deadline.message(len(found) if limit >= 2 else None))
        return _result(self.name, _ended(found, limit), found, limit, start, stats)

    def close(self) -> None:
        self._models.clear()


def _collector(cp: Any, cells: list, limit: int, into: list) -> Any:
    """A CP-SAT solution callback that keeps the first ``limit`` solutions in ``into``."""

    class Collector(cp.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            into.append(tuple(int(self.value(cell)) for cell in cells))
            if len(into) >= limit:
                self.stop_search()

    return Collector()


#: The baselines by solver name (the factories :data:`satdoku.tasks.solvers.SOLVERS` adds).
BASELINES: dict[str, type[_Baseline]] = {"exact-cover": ExactCoverSolver,
                                          "cp-sat": CpSatSolver}

