"""Batches: a stream of parsed puzzles in, one verified outcome per puzzle out, in input order.

A bad puzzle becomes an ``invalid`` outcome and the batch goes on. One solver object serves the
whole batch (in each worker process, when there are several), so the SAT backend builds its base
formula once per geometry and solves every puzzle with its clues as assumptions. Each puzzle's
time limit starts when reading it began.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .agree import disagreements
from .deadline import Deadline
from .encode import DEFAULT_MAX_CLAUSES
from .formats import Puzzle
from .geometry import Geometry
from .grid import Grid
from .result import Result
from .solvers import DEFAULT_SOLVER, make_solver, solve

__all__ = ["Outcome", "SolveOptions", "BatchSolver", "solve_puzzles", "solve_batch"]


@dataclass(frozen=True)
class SolveOptions:
    """How to solve every puzzle of a batch (picklable, so workers can rebuild the solvers).

    ``solver`` is a name of :data:`satdoku.solvers.SOLVERS`; ``limit`` 1 finds a solution,
    2 or more counts up to it; ``check`` also runs the other solver and compares;
    ``incremental=False`` builds a fresh SAT solver per puzzle; ``stats`` asks the SAT backend
    for its solver figures; ``max_clauses`` refuses bigger formulas.
    """

    solver: str = DEFAULT_SOLVER
    sat_solver: str | None = None
    encoding: str | None = None
    amo: str | None = None
    limit: int = 1
    timeout: float | None = None
    check: bool = False
    incremental: bool = True
    stats: bool = True
    max_clauses: int | None = DEFAULT_MAX_CLAUSES

    def make(self, solver: str | None = None):
        """A solver for these options (``solver`` overrides the method)."""
        return make_solver(solver or self.solver, sat_solver=self.sat_solver,
                           encoding=self.encoding, amo=self.amo, incremental=self.incremental,
                           stats=self.stats, max_clauses=self.max_clauses)


@dataclass
class Outcome:
    """One puzzle and what became of it. ``disagreements`` is filled only by ``check``."""

    puzzle: Puzzle
    result: Result
    disagreements: list[str] = field(default_factory=list)


def invalid(puzzle: Puzzle) -> Outcome:
    """The outcome of a puzzle that could not be read."""
    message = puzzle.error.detail if puzzle.error is not None else "no puzzle"
    return Outcome(puzzle, Result(status="invalid", message=message))


class BatchSolver:
    """Solves puzzles one at a time with solvers kept for the whole batch."""

    def __init__(self, options: SolveOptions) -> None:
        self.options = options
        self.solver = options.make()
        self.other = None
        if options.check:
            self.other = options.make("native" if options.solver == "sat" else "sat")

    def run_grid(self, grid: Grid, parse_ms: float = 0.0,
                 constraints: tuple = ()) -> tuple[Result, list[str]]:
        """The verified result of one grid whose givens the parser checked, under a variant
        puzzle's ``constraints`` (and, with ``check``, the disagreements)."""
        o = self.options
        deadline = Deadline(o.timeout, time.perf_counter() - parse_ms / 1000)
        if self.other is None:
            return solve(self.solver, grid, limit=o.limit, deadline=deadline,
                         constraints=constraints, givens_checked=True), []
        limit = max(o.limit, 2)
        result = solve(self.solver, grid, limit=limit, deadline=deadline,
                       constraints=constraints, givens_checked=True)
        other = solve(self.other, grid, limit=limit, constraints=constraints,
                      givens_checked=True,
                      deadline=Deadline(o.timeout, time.perf_counter() - parse_ms / 1000))
        return result, disagreements(result, other)

    def run(self, puzzle: Puzzle) -> Outcome:
        """The outcome of one puzzle; never raises for a bad puzzle."""
        if puzzle.error is not None or puzzle.grid is None:
            return invalid(puzzle)
        result, problems = self.run_grid(puzzle.grid, puzzle.parse_ms, puzzle.constraints)
        result.stats["parse_ms"] = puzzle.parse_ms
        return Outcome(puzzle, result, problems)

    def close(self) -> None:
        self.solver.close()
        if self.other is not None:
            self.other.close()


def solve_puzzles(puzzles: Iterable[Puzzle], options: SolveOptions = SolveOptions()
                  ) -> Iterator[Outcome]:
    """Solve each puzzle in turn, yielding its outcome as soon as it is known (input order)."""
    batch = BatchSolver(options)
    try:
        for puzzle in puzzles:
            yield batch.run(puzzle)
    finally:
        batch.close()


# Several processes: workers get each puzzle's geometry, digits and parse time, and send back
# results as plain tuples (the parent still holds the puzzles): pickling whole Puzzle and Result
# objects cost the parent about as much as parsing.

_worker: BatchSolver | None = None  # this worker process's solver (pool workers)
_dask_workers: dict[SolveOptions, BatchSolver] = {}  # per options (a Dask worker lives long)


def _init_worker(options: SolveOptions) -> None:
    global _worker
    _worker = BatchSolver(options)


def _pack(puzzle: Puzzle) -> tuple | None:
    grid = puzzle.grid
    if puzzle.error is not None or grid is None:
        return None  # answered by the parent: invalid
    return grid.geometry, pack_cells(grid.cells, grid.size), puzzle.parse_ms, puzzle.constraints


def pack_cells(cells: tuple[int, ...] | None, size: int) -> bytes | list[int] | None:
    """Digits in few bytes for another process (None stays None)."""
    if cells is None:
        return None
    return bytes(cells) if size < 256 else list(cells)


def unpack_grid(geometry: Geometry, data: bytes | list[int] | None) -> Grid | None:
    """The grid :func:`pack_cells` packed."""
    return None if data is None else Grid(geometry, tuple(data))


def _run_packed(batch: BatchSolver, packed: list[tuple | None]) -> list[tuple | None]:
    out: list[tuple | None] = []
    for item in packed:
        if item is None:
            out.append(None)
            continue
        geo, data, parse_ms, constraints = item
        r, problems = batch.run_grid(unpack_grid(geo, data), parse_ms, constraints)
        r.stats["parse_ms"] = parse_ms
        n = geo.size
        out.append(((r.status, pack_cells(r.solution and r.solution.cells, n), r.count,
                     pack_cells(r.second and r.second.cells, n), r.solver, r.encoding,
                     r.time_ms, r.stats, r.message, r.limit), problems))
    return out


def _solve_chunk(packed: list[tuple | None]) -> list[tuple | None]:
    assert _worker is not None, "worker not initialised"
    return _run_packed(_worker, packed)


def _dask_solve_chunk(options: SolveOptions, packed: list[tuple | None]) -> list[tuple | None]:
    batch = _dask_workers.get(options)
    if batch is None:
        batch = _dask_workers[options] = BatchSolver(options)
    return _run_packed(batch, packed)


def _join(chunk: list[Puzzle], results: list[tuple | None]) -> Iterator[Outcome]:
    for puzzle, item in zip(chunk, results):
        if item is None:
            yield invalid(puzzle)
            continue
        (status, solution, count, second, solver, encoding, time_ms, stats, message,
         limit), problems = item
        geo = puzzle.grid.geometry
        yield Outcome(puzzle, Result(status, unpack_grid(geo, solution), count,
                                     unpack_grid(geo, second), solver, encoding, time_ms,
                                     stats, message, limit), problems)


def solve_batch(puzzles: Iterable[Puzzle], options: SolveOptions = SolveOptions(), *,
                jobs: int = 1, scheduler: str | None = None,
                chunk_size: int | None = None) -> Iterator[Outcome]:
    """Outcomes of ``puzzles`` in input order: on a Dask cluster when ``scheduler`` is given,
    on a pool of ``jobs`` processes (0: one per core) when ``jobs != 1``, else here.

    >>> from satdoku.formats import parse_puzzles
    >>> [o.result.status for o in solve_batch(parse_puzzles(["1.3..4.2.34.4.23"]), jobs=2)]
    ['solved']
    """
    from .parallel import DEFAULT_CHUNK_SIZE, ordered_dask, ordered_pool
    chunk_size = chunk_size or DEFAULT_CHUNK_SIZE
    if scheduler is not None:
        return ordered_dask(puzzles, scheduler=scheduler, work=_dask_solve_chunk,
                            args=(options,), pack=_pack, join=_join, chunk_size=chunk_size)
    if jobs != 1:
        return ordered_pool(puzzles, jobs=jobs, init=_init_worker, initargs=(options,),
                            work=_solve_chunk, pack=_pack, join=_join, chunk_size=chunk_size)
    return solve_puzzles(puzzles, options)
