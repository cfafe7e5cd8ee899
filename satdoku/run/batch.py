"""Batches: a stream of parsed puzzles in, one verified outcome per puzzle out, in input order.

A bad puzzle becomes an ``invalid`` outcome and the batch goes on. One solver object serves the
whole batch (in each worker process, when there are several), so the SAT backend builds its base
formula once per geometry and solves every puzzle with its clues as assumptions. Each puzzle's
time limit starts when reading it began.

With several processes and command-line inputs (:class:`satdoku.io.inputs.Inputs`), the parent
only reads the files and cuts them into chunks of raw lines where a cut cannot change what
they say (:class:`satdoku.io.text.LineSplitter`); the workers parse and solve, and the parent
puts the puzzles back together with their source, line and index, in input order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..deadline import NO_DEADLINE, Deadline
from ..budget import DEFAULT_MAX_CLAUSES
from ..model.puzzle import Puzzle
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..io.inputs import puzzle_work
from ..model.result import Result
from ..tasks.solvers import DEFAULT_SOLVER, make_solver, solve

__all__ = ["Outcome", "SolveOptions", "BatchSolver", "solve_puzzles", "solve_batch"]


@dataclass(frozen=True)
class SolveOptions:
    """How to solve every puzzle of a batch (picklable, so workers can rebuild the solvers).

    ``solver`` is a name of :data:`satdoku.tasks.solvers.SOLVERS`; ``limit`` 1 finds a solution,
    2 or more counts up to it; ``check`` also runs the other solver and compares;
    ``incremental=False`` builds a fresh SAT solver per puzzle; ``stats`` asks the SAT backend
    for its solver figures; ``max_clauses`` refuses bigger formulas; ``portfolio`` K >= 1
    races K configurations on each puzzle (:mod:`satdoku.sat.portfolio`; the SAT solver and
    encoding named, if any, make the first), 0 does not.
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
    portfolio: int = 0

    def make(self, solver: str | None = None):
        """A solver for these options (``solver`` overrides the method)."""
        return make_solver(solver or self.solver, sat_solver=self.sat_solver,
                           encoding=self.encoding, amo=self.amo, incremental=self.incremental,
                           stats=self.stats, max_clauses=self.max_clauses,
                           portfolio=self.portfolio if (solver or self.solver) == "sat" else 0)


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
        for solver in (self.solver, self.other):
            if solver is not None and solver.capabilities.steer:  # see SatSolver.steer
                solver.steer = True

    def run_grid(self, grid: Grid, parse_ms: float = 0.0,
                 constraints: tuple = ()) -> tuple[Result, list[str]]:
        """The verified result of one grid whose givens the parser checked, under a variant
        puzzle's ``constraints`` (and, with ``check``, the disagreements)."""
        o = self.options
        deadline = (NO_DEADLINE if o.timeout is None else
                    Deadline(o.timeout, time.perf_counter() - parse_ms / 1000))
        if self.other is None:
            return solve(self.solver, grid, limit=o.limit, deadline=deadline,
                         constraints=constraints, givens_checked=True), []
        from ..tasks.agree import disagreements
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


def _outcome(puzzle: Puzzle, item: tuple) -> Outcome:
    (status, solution, count, second, solver, encoding, time_ms, stats, message,
     limit), problems = item
    geo = puzzle.grid.geometry
    return Outcome(puzzle, Result(status, unpack_grid(geo, solution), count,
                                  unpack_grid(geo, second), solver, encoding, time_ms,
                                  stats, message, limit), problems)


def _join(chunk: list[Puzzle], results: list[tuple | None]) -> Iterator[Outcome]:
    for puzzle, item in zip(chunk, results):
        yield invalid(puzzle) if item is None else _outcome(puzzle, item)


# Parsing in the workers: the pieces of satdoku.io.inputs.Inputs.chunks, one per task. A piece of
# raw lines comes back as one tuple per puzzle (line, index, name, alphabet, error, geometry,
# digits, parse_ms, packed result and disagreements, or None).

class _PiecePacker:
    """Packs pieces for the workers, with the box and alphabet the puzzles are read with."""

    def __init__(self, box: tuple[int, int] | None, alphabet: str | None) -> None:
        self.reading = (box, alphabet)

    def __call__(self, piece) -> tuple:
        from ..io.inputs import LineChunk
        if isinstance(piece, LineChunk):
            return ("lines", piece.source, piece.first_line, piece.lines, piece.comment,
                    piece.finish, self.reading)
        return ("parsed", [_pack(p) for p in piece.puzzles])


def _solve_pieces(packed: list[tuple]) -> list[list]:
    assert _worker is not None, "worker not initialised"
    return [_parse_and_run(_worker, item) if item[0] == "lines" else
            _run_packed(_worker, item[1]) for item in packed]


def _parse_and_run(batch: BatchSolver, item: tuple) -> list[tuple]:
    from ..io.lines import parse_chunk
    _, source, first_line, lines, comment, finish, (box, alphabet) = item
    puzzles = parse_chunk(lines, source, first_line=first_line, comment=comment,
                          finish=finish, box=box, alphabet=alphabet)
    clock = time.perf_counter
    out = []
    while True:
        start = clock()
        puzzle = next(puzzles, None)
        if puzzle is None:
            return out
        parse_ms = (clock() - start) * 1000
        grid = puzzle.grid
        if puzzle.error is not None or grid is None:
            out.append((puzzle.line, puzzle.index, puzzle.name, puzzle.alphabet, puzzle.error,
                        None, None, parse_ms, None))
            continue
        r, problems = batch.run_grid(grid, parse_ms, puzzle.constraints)
        r.stats["parse_ms"] = parse_ms
        n = grid.size
        out.append((puzzle.line, puzzle.index, puzzle.name, puzzle.alphabet, None,
                    grid.geometry, pack_cells(grid.cells, n), parse_ms,
                    (r.status, pack_cells(r.solution and r.solution.cells, n), r.count,
                     pack_cells(r.second and r.second.cells, n), r.solver, r.encoding,
                     r.time_ms, r.stats, r.message, r.limit, problems)))


def _join_pieces(chunk: list, results: list[list]) -> Iterator[Outcome]:
    from ..io.inputs import LineChunk, no_puzzles
    for piece, items in zip(chunk, results):
        tally = piece.tally
        if not isinstance(piece, LineChunk):
            for i, (puzzle, item) in enumerate(zip(piece.puzzles, items), tally.found + 1
                                               if tally is not None else 0):
                if tally is not None:  # parsed here after the workers parsed the start
                    puzzle.index = i
                yield invalid(puzzle) if item is None else _outcome(puzzle, item)
            if tally is not None:
                tally.found += len(piece.puzzles)
            continue
        source, base = piece.source, tally.found
        for line, index, name, alphabet, error, geo, cells, parse_ms, item in items:
            if item is None:
                yield invalid(Puzzle(None, source, line, base + index, name, alphabet, error,
                                     parse_ms))
                continue
            (status, solution, count, second, solver, encoding, time_ms, stats, message,
             limit, problems) = item
            yield Outcome(Puzzle(Grid(geo, tuple(cells)), source, line, base + index, name,
                                 alphabet, None, parse_ms),
                          Result(status, solution and Grid(geo, tuple(solution)), count,
                                 second and Grid(geo, tuple(second)), solver, encoding,
                                 time_ms, stats, message, limit), problems)
        tally.found += len(items)
        if piece.last and not tally.found:
            yield invalid(no_puzzles(source))


def _work(puzzle: Puzzle) -> float:
    """A parsed puzzle's weight in a chunk (see :func:`satdoku.io.inputs.puzzle_work`)."""
    return puzzle_work(puzzle.grid.geometry.ncells) if puzzle.grid is not None else 1.0


def solve_batch(puzzles: Iterable[Puzzle], options: SolveOptions = SolveOptions(), *,
                jobs: int = 1, scheduler: str | None = None,
                chunk_size: int | None = None) -> Iterator[Outcome]:
    """Outcomes of ``puzzles`` in input order: on a Dask cluster when ``scheduler`` is given,
    on a pool of ``jobs`` processes (0: one per core) when ``jobs != 1``, else here.

    Command-line inputs (:func:`satdoku.io.inputs.iter_inputs`) not yet started are parsed in
    the workers, ``chunk_size`` raw lines a task; other iterables are parsed here, and sent
    ``chunk_size`` puzzles a task. Either way a task holds fewer big grids
    (:func:`satdoku.io.inputs.puzzle_work`: one 25x25 puzzle a task).

    >>> from satdoku.io.text import parse_puzzles
    >>> [o.result.status for o in solve_batch(parse_puzzles(["1.3..4.2.34.4.23"]), jobs=2)]
    ['solved']
    """
    if scheduler is not None:
        from .parallel import DEFAULT_CHUNK_SIZE, ordered_dask
        return ordered_dask(puzzles, scheduler=scheduler, work=_dask_solve_chunk,
                            args=(options,), pack=_pack, join=_join,
                            chunk_size=chunk_size or DEFAULT_CHUNK_SIZE, weight=_work)
    if jobs != 1:
        from .parallel import DEFAULT_CHUNK_SIZE, ordered_pool
        chunk_size = chunk_size or DEFAULT_CHUNK_SIZE
        if callable(getattr(puzzles, "chunks", None)) and not puzzles.started:
            return ordered_pool(puzzles.chunks(chunk_size), jobs=jobs, init=_init_worker,
                                initargs=(options,), work=_solve_pieces,
                                pack=_PiecePacker(puzzles.box, puzzles.alphabet),
                                join=_join_pieces, chunk_size=1)
        return ordered_pool(puzzles, jobs=jobs, init=_init_worker, initargs=(options,),
                            work=_solve_chunk, pack=_pack, join=_join, chunk_size=chunk_size,
                            weight=_work)
    return solve_puzzles(puzzles, options)
