"""Cube-and-conquer for one hard puzzle: split its formula into cubes (:mod:`.splits`: by
lookahead or on cells), then solve the cubes as assumptions on one incremental CaDiCaL per
worker.

Glossary:

- cube: a conjunction of literals over the (cell, digit) variables; the cubes of a puzzle
  partition its solutions, so counts add and any cube's solution is the puzzle's.
- conquer: each worker builds its solver once (the formula satdoku always builds:
  :class:`~satdoku.sat.solver.SatSolver`'s backend) and takes its cubes, most propagated first,
  in rounds: every open cube gets a budget of conflicts (:data:`FIRST_BUDGET`, doubled each
  round up to :data:`MOST_BUDGET`), so the statistics at a time limit cover every cube and not
  only the first.
- done: a cube whose every solution is known (refuted, or, when solving, one found).

Counting (``limit`` >= 2) blocks each solution found, behind an activation literal, and asks the
same cube again at once, until it has no more (done) or runs out of budget. With ``jobs`` >= 2
the cubes are dealt to forked workers (the portfolio's processes: :mod:`satdoku.sat.portfolio`)
that send each cube's outcome through a pipe; the parent verifies every solution, stops the
workers at the first (solve) or at ``limit`` (count), tells :mod:`satdoku.progress` how many
cubes are done, and keeps the statistics (:func:`cube_stats`). Measured in docs/hard-grids.md.
"""

from __future__ import annotations

import os
import signal
import statistics
import time
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any, Generator, Iterator

from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..closing import Closing
from ..children import die_with_parent, worker_count
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import InternalError, OptionError, SolverError, TooBigError
from ..model.grid import Grid, solution_problems
from ..model.result import Capabilities, Result, counted_status, result_of, status_of
from ..progress import report
from .splits import CUBE_ON, Cube, cell_cubes, cube_cells, live_candidates, make_cubes

if TYPE_CHECKING:  # pragma: no cover
    from .solver import SatSolver

__all__ = ["CubeSolver", "cube_stats", "FIRST_BUDGET", "MOST_BUDGET", "PROBE_SOLVER"]

#: Conflicts each open cube gets in the first round of conquering; doubled every round.
FIRST_BUDGET = 500
#: The most conflicts a cube gets in one call (the budget stops doubling there).
MOST_BUDGET = 2 ** 30
#: The solver that splits: propagate() exists on MiniSat and Glucose only.
PROBE_SOLVER = "glucose4"


def _base(engine: Any, grid: Grid, constraints: tuple, max_clauses: int,
          deadline: Deadline) -> list[int]:
    """The assumptions every cube of ``grid`` sits on: its clues and, for a variant puzzle,
    its rules' activation literals, the rules' implied constraints added at once (a cube is
    solved under a conflict budget, which :meth:`~satdoku.sat.backend.Backend.run` never
    adds them under)."""
    base = engine.assumptions(grid)
    if constraints:
        base = base + engine.rule_acts(constraints, Budget(max_clauses, deadline))
        engine.add_implied()
    return base


def _conquer(solver: Any, grid: Grid, constraints: tuple, cubes: dict[int, Cube], limit: int,
             deadline: Deadline) -> Iterator[tuple]:
    """Conquer ``cubes`` (index -> cube) in rounds of doubling conflict budgets on
    ``solver``'s engine for ``grid`` and its ``constraints``: yields ``("cube", index, state,
    conflicts, cpu_s)`` after each call, and ``("solution", index, cells)`` for each
    solution."""
    backend = solver.backend
    engine = backend.engine(grid, deadline, units=True, hard=True)
    try:
        base = _base(engine, grid, constraints, backend.max_clauses, deadline)
        sat = engine.solver
        act = 0
        budget = FIRST_BUDGET
        todo = list(cubes)
        while todo:
            for index in list(todo):
                while True:  # a cube that gave a solution is asked again at once (counting)
                    lits = base + list(cubes[index].lits) + ([act] if act else [])
                    before, cpu = sat.accum_stats().get("conflicts", 0), time.process_time()
                    answer = backend.run(engine, lits, deadline, conflicts=budget)
                    spent = sat.accum_stats().get("conflicts", 0) - before
                    cpu = time.process_time() - cpu
                    if answer is not True:
                        break
                    found = engine.decode(sat.get_model())
                    yield "cube", index, "sat", spent, cpu
                    yield "solution", index, found.cells
                    if limit < 2:
                        return
                    if not act:
                        act = engine.fresh_var()
                    sat.add_clause([-act] + engine.varmap.blocking(found, grid))
                if answer is False:
                    todo.remove(index)
                yield "cube", index, "unsat" if answer is False else "open", spent, cpu
                if deadline.expired():
                    return
            budget = min(2 * budget, MOST_BUDGET)
    finally:
        backend.release(engine)


def _worker(config: tuple, grid: Grid, constraints: tuple, cubes: dict[int, Cube], limit: int,
            at: float | None, seconds: float | None, conn: Any) -> None:
    """A forked worker: conquer its share of the cubes, each outcome sent to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills us
    die_with_parent()
    try:
        deadline = Deadline(seconds, at - seconds) if seconds is not None and at else \
            NO_DEADLINE
        with _sat_solver(*config) as solver:
            for event in _conquer(solver, grid, constraints, cubes, limit, deadline):
                conn.send(event)
        conn.send(("done",))
    except Exception as error:
        conn.send(("exception", f"{type(error).__name__}: {error}"))
    finally:
        conn.close()
        os._exit(0)


def _sat_solver(sat_solver: str, encoding: str | None, amo: str | None,
                max_clauses: int) -> SatSolver:
    """A python-sat solver of this configuration, built where every solver is
    (:meth:`satdoku.sat.config.SatConfig.python_sat`); assumptions are what a cube is."""
    from .config import SatConfig
    return SatConfig(sat_solver, encoding, amo, max_clauses).python_sat(
        task="cube-and-conquer", fast=False)


def cube_stats(cubes: list[Cube], refuted: int, cube_s: float) -> dict[str, Any]:
    """What the cubes say: how many were made and refuted at cubing, their states, the
    conflicts and CPU seconds per cube (median, max), and the estimated CPU seconds left:
    the open cubes times the mean CPU of the cubes closed (``estimate_s``; None while none
    is), with ``open_cpu_s`` the CPU each open cube has already taken without an answer."""
    states = {s: sum(c.state == s for c in cubes) for s in ("sat", "unsat", "open")}
    closed = [c.cpu_s for c in cubes if c.state != "open"]
    open_cpu = [c.cpu_s for c in cubes if c.state == "open"]
    conflicts = [c.conflicts for c in cubes] or [0]
    cpu = [c.cpu_s for c in cubes] or [0.0]
    return {"cubes": len(cubes), "cubes_refuted_at_cubing": refuted,
            "cube_s": round(cube_s, 3), "cubes_sat": states["sat"],
            "cubes_unsat": states["unsat"], "cubes_open": states["open"],
            "cube_conflicts_median": int(statistics.median(conflicts)),
            "cube_conflicts_max": max(conflicts),
            "cube_cpu_s_median": round(statistics.median(cpu), 3),
            "cube_cpu_s_max": round(max(cpu), 3),
            "open_cpu_s": round(statistics.mean(open_cpu), 3) if open_cpu else 0.0,
            "estimate_s": (round(states["open"] * statistics.mean(closed), 1) if closed
                           else None)}


def _candidates(varmap: Any, grid: Grid, deadline: Deadline) -> dict[int, list[int]]:
    """Each open cell's candidate literals (the pairs the formula has a variable for)."""
    out = {}
    for cell, given in enumerate(grid.cells):
        if not cell & 0x3FF:
            deadline.check()
        if not given:
            lits = varmap.cell_vars(cell)
            if len(lits) > 1:
                out[cell] = lits
    return out


class CubeSolver(Closing):
    """Cube-and-conquer on each puzzle (see the module docstring).

    Args:
        depth: split each puzzle into cubes of at most ``depth`` literals (up to 2**depth),
            or on ``depth`` cells.
        jobs: workers conquering the cubes (0: one per core); 1 conquers in this process.
        on: ``'lookahead'`` (split on the literals lookahead scores best) or ``'cells'`` (on
            every candidate of one cell after another): :mod:`.splits`.
        sat_solver, encoding, amo, max_clauses: the conquering solver's
            (:class:`~satdoku.sat.solver.SatSolver`'s).

    >>> from satdoku.io.text import parse_puzzle
    >>> with CubeSolver(depth=2) as s:
    ...     r = s.solve(parse_puzzle("1.3..4.2.34.4.23").grid, limit=2)
    >>> r.status, r.stats["cubes"] >= 1
    ('unique', True)
    """

    encoding: str | None = None
    capabilities = Capabilities(assumptions=False, conflicts=False)

    def __init__(self, depth: int = 6, *, jobs: int = 1, on: str = CUBE_ON[0],
                 sat_solver: str | None = None,
                 encoding: str | None = None, amo: str | None = None,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES, **_: Any) -> None:
        from .catalogue import DEFAULT_SAT_SOLVER, check_sat_solver
        info = check_sat_solver(sat_solver or DEFAULT_SAT_SOLVER)
        if not (info.assumptions and info.budget):
            raise OptionError(
                f"cube-and-conquer solves cubes as assumptions under a conflict budget: "
                f"{info.name} cannot; choose cadical195")
        if on not in CUBE_ON:
            raise OptionError(f"cubes split on {' or '.join(CUBE_ON)}, not {on!r}")
        self.depth = depth
        self.on = on
        self.jobs = worker_count(jobs)
        self.config = (info.name, encoding, amo,
                       DEFAULT_MAX_CLAUSES if max_clauses is None else max_clauses)
        self.name = f"cube:{info.name}"
        self.encoding = encoding

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple = ()) -> Result:
        """Cube ``grid`` under its ``constraints`` (variant rules), conquer the cubes; every
        solution checked before it counts."""
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        cubes: list[Cube] = []
        refuted, cube_s = 0, 0.0
        solutions: list[Grid] = []
        status = message = None
        try:
            cubes, refuted, settled = self._cubes(grid, constraints, deadline)
            cube_s = time.perf_counter() - start
            if settled is not None:
                return settled
            status = self._conquer(grid, constraints, cubes, limit, deadline, solutions)
        except (TimeUp, TooBigError, SolverError, InternalError) as error:
            status, message = status_of(error, deadline,
                                        len(solutions) if limit > 1 else None)
        stats = cube_stats(cubes, refuted, cube_s)
        return result_of(status, solutions, limit=limit, solver=self.name,
                         encoding=self.encoding, time_ms=(time.perf_counter() - start) * 1000,
                         stats=stats, message=message)

    def _cubes(self, grid: Grid, constraints: tuple, deadline: Deadline
               ) -> tuple[list[Cube], int, Result | None]:
        """The cubes of ``grid`` and how many were refuted, or the plain solver's result when
        the reduction settles the puzzle before any SAT call."""
        from .engines import Settled
        name, encoding, amo, max_clauses = self.config
        with _sat_solver(PROBE_SOLVER, encoding, amo, max_clauses) as prober:
            try:
                engine = prober.backend.engine(grid, deadline, units=True)
            except Settled:
                with _sat_solver(*self.config) as plain:
                    return [], 0, plain.solve(grid, limit=2, deadline=deadline,
                                              constraints=constraints)
            try:
                self.encoding = prober.encoding_for(grid)
                base = _base(engine, grid, constraints, max_clauses, deadline)
                candidates = _candidates(engine.varmap, grid, deadline)
                if self.on == "cells":
                    candidates = live_candidates(engine.solver, base, candidates)
                    cells = cube_cells(constraints, candidates, self.depth)
                    cubes, refuted = cell_cubes(engine.solver, base,
                                                [candidates[c] for c in cells], deadline)
                else:
                    cubes, refuted = make_cubes(engine.solver, base, list(candidates.values()),
                                                self.depth, deadline)
            finally:
                prober.backend.release(engine)
        return cubes, refuted, None

    def _conquer(self, grid: Grid, constraints: tuple, cubes: list[Cube], limit: int,
                 deadline: Deadline, solutions: list[Grid]) -> str:
        """Conquer ``cubes`` (in this process or in workers); the status. Each solution is
        checked, and a wrong one is an error, never an answer."""
        events = self._events(grid, constraints, cubes, limit, deadline)
        seen: set[tuple[int, ...]] = set()
        done = 0
        try:
            for event in events:
                if event[0] == "exception":
                    raise InternalError(f"a cube worker failed: {event[1]}")
                if event[0] == "cube":
                    cube = cubes[event[1]]
                    if not cube.done and (event[2] == "unsat" or
                                          event[2] == "sat" and limit < 2):
                        cube.done = True
                        done += 1
                    cube.state = event[2] if cube.state != "sat" else "sat"
                    cube.conflicts += event[3]
                    cube.cpu_s += event[4]
                    report("cubes done", done, len(cubes),
                           f"{len(solutions)} solution{'s' * (len(solutions) != 1)}")
                elif event[0] == "solution" and event[2] not in seen:
                    found = Grid(grid.geometry, tuple(event[2]))
                    # The grid here; its rules (and a chaos construction's regions, found
                    # from the answer) are checked with every answer's (tasks.solvers.checked).
                    problems = solution_problems(found, grid)
                    if problems:
                        raise InternalError(
                            f"cube {event[1]} gave a wrong solution: {problems[0]}")
                    seen.add(event[2])
                    cubes[event[1]].state = "sat"
                    solutions.append(found)
                    if len(solutions) >= limit:
                        break
        finally:
            events.close()
        if len(solutions) < limit and not all(c.done for c in cubes):
            raise TimeUp  # a cube not done (a counted one may hold more solutions)
        if limit < 2:
            return "solved" if solutions else "unsolvable"
        return counted_status(len(solutions))

    def _events(self, grid: Grid, constraints: tuple, cubes: list[Cube], limit: int,
                deadline: Deadline) -> Generator[tuple, None, None]:
        """What conquering says, from this process (one job) or from the workers."""
        if self.jobs <= 1 or len(cubes) <= 1:
            with _sat_solver(*self.config) as solver:
                yield from _conquer(solver, grid, constraints, dict(enumerate(cubes)), limit,
                                    deadline)
            return
        from .portfolio import _context, _stop_racers, Config
        context = _context()
        pipes: list[Any] = []
        processes = []
        try:
            for w in range(min(self.jobs, len(cubes))):
                receive, send = context.Pipe(duplex=False)
                share = {i: c for i, c in enumerate(cubes) if i % self.jobs == w}
                process = context.Process(
                    target=_worker, daemon=True, name=f"satdoku-cubes {w}",
                    args=(self.config, grid, constraints, share, limit,
                          None if deadline.unlimited else deadline.at, deadline.seconds,
                          send))
                process.start()
                send.close()
                pipes.append(receive)
                processes.append(process)
            while pipes:
                remaining = None if deadline.unlimited else deadline.remaining() + 0.5
                if remaining is not None and remaining <= 0:
                    return
                ready: list[Any] = wait(pipes, timeout=remaining)
                if not ready:
                    return
                for conn in ready:
                    try:
                        event = conn.recv()
                    except (EOFError, OSError):
                        event = ("done",)
                    if event[0] == "done":
                        pipes.remove(conn)
                        conn.close()
                    else:
                        yield event
        finally:
            _stop_racers([(Config(), p) for p in processes])
            for conn in pipes:
                conn.close()

    def close(self) -> None:
        """Nothing is kept between puzzles."""

    def __repr__(self) -> str:
        return f"CubeSolver(depth={self.depth}, jobs={self.jobs}, on={self.on!r})"
