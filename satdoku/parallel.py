"""Batches on several cores (a process pool) or several machines (Dask), outcomes in input order.

Every worker process builds its own :class:`~satdoku.batch.BatchSolver` once (python-sat solvers
cannot be pickled, and the incremental SAT backend is worth keeping for a whole batch), then
solves chunks of puzzles sent to it. The parent keeps only a bounded number of chunks in flight,
so a file of any length streams through in flat memory, and yields outcomes as soon as the
oldest chunk is back.

Workers get only each puzzle's box shape and digits, and send back results as plain tuples (the
parent still holds the puzzles): pickling whole objects cost the parent as much as parsing.

Roads not taken: ``multiprocessing.Pool.imap`` reads the whole input ahead of the workers (its
feeder thread does not wait), so memory grows with the file; ``executor.map`` submits every
chunk at once for the same reason.
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import os
import signal
from array import array
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Iterable, Iterator

from .batch import BatchSolver, Outcome, SolveOptions, solve_puzzles
from .errors import SatdokuError
from .formats import Puzzle
from .geometry import geometry
from .grid import Grid
from .result import Result

__all__ = ["solve_parallel", "solve_dask", "solve_batch", "rate_parallel", "DEFAULT_CHUNK_SIZE"]

#: Puzzles per chunk: big enough that pickling and scheduling are a small part of the work on
#: 9x9, small enough that the first results show quickly.
DEFAULT_CHUNK_SIZE = 256

#: Chunks in flight per worker: one being solved, one or two queued so a worker never waits.
_IN_FLIGHT_PER_WORKER = 3

# The batch solver of this worker process (pool workers), or per options (Dask workers).
_worker_batch: BatchSolver | None = None
_dask_batches: dict[SolveOptions, BatchSolver] = {}


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _init_worker(options: SolveOptions) -> None:
    """Pool initializer: the parent handles Ctrl-C and stops the workers, so they ignore it."""
    global _worker_batch
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_batch = BatchSolver(options)


# What crosses the process boundary is kept to plain tuples of bytes and numbers: pickling whole
# Puzzle and Result objects cost the parent about as much as parsing, which on 2 cores is the
# difference between 1.7x and 1.9x.

def _pack_cells(cells: tuple[int, ...] | None, size: int) -> bytes | None:
    if cells is None:
        return None
    return bytes(cells) if size < 256 else array("H", cells).tobytes()


def _unpack_cells(data: bytes | None, size: int) -> tuple[int, ...] | None:
    if data is None:
        return None
    return tuple(data) if size < 256 else tuple(array("H", data))


def _pack_puzzle(puzzle: Puzzle) -> tuple | None:
    grid = puzzle.grid
    if puzzle.error is not None or grid is None:
        return None  # answered by the parent: invalid
    geo = grid.geometry
    return geo.box_rows, geo.box_cols, _pack_cells(grid.cells, geo.size)


def _pack_result(result: Result, size: int) -> tuple:
    return (result.status, _pack_cells(result.solution and result.solution.cells, size),
            result.count, _pack_cells(result.second and result.second.cells, size),
            result.solver, result.encoding, result.time_ms, result.stats, result.message)


def _unpack_result(packed: tuple, geo) -> Result:
    status, solution, count, second, solver, encoding, time_ms, stats, message = packed
    n = geo.size
    solution = _unpack_cells(solution, n)
    second = _unpack_cells(second, n)
    return Result(status=status, solution=None if solution is None else Grid(geo, solution),
                  count=count, second=None if second is None else Grid(geo, second),
                  solver=solver, encoding=encoding, time_ms=time_ms, stats=stats,
                  message=message)


def _unpack_grid(item: tuple) -> Grid:
    """The grid of a :func:`_pack_puzzle` tuple."""
    rows, cols, data = item
    geo = geometry(rows, cols)
    return Grid(geo, _unpack_cells(data, geo.size))


def _run_packed(batch: BatchSolver, packed: list[tuple | None]) -> list[tuple | None]:
    out: list[tuple | None] = []
    for item in packed:
        if item is None:
            out.append(None)
            continue
        grid = _unpack_grid(item)
        geo = grid.geometry
        outcome = batch.run(Puzzle(grid=grid, source="", line=0, index=0))
        out.append((_pack_result(outcome.result, geo.size), outcome.disagreements))
    return out


def _solve_chunk(packed: list[tuple | None]) -> list[tuple | None]:
    batch = _worker_batch
    assert batch is not None, "worker not initialised"
    return _run_packed(batch, packed)


def _joined(chunk: list[Puzzle], results: list[tuple | None]) -> Iterator[Outcome]:
    for puzzle, item in zip(chunk, results):
        if item is None:
            yield Outcome(puzzle, Result(status="invalid", message=str(puzzle.error)))
        else:
            packed, disagreements = item
            yield Outcome(puzzle, _unpack_result(packed, puzzle.grid.geometry), disagreements)


def _in_order(puzzles: Iterable[Puzzle], chunk_size: int, limit: int,
              pending: collections.deque, submit: Callable[[list], Any],
              join: Callable[[list[Puzzle], Any], Iterator[Any]] = _joined) -> Iterator[Any]:
    """Send chunks through ``submit`` (which returns a future), at most ``limit`` in flight,
    and yield what ``join`` makes of each chunk and its result, in input order. ``pending`` is
    the caller's, so that it can cancel what is left if the batch stops early."""
    for chunk in _chunks(puzzles, chunk_size):
        pending.append((chunk, submit([_pack_puzzle(p) for p in chunk])))
        while len(pending) >= limit or (pending and pending[0][1].done()):
            done, future = pending.popleft()
            yield from join(done, future.result())
    while pending:
        done, future = pending.popleft()
        yield from join(done, future.result())


def solve_parallel(puzzles: Iterable[Puzzle], options: SolveOptions, jobs: int = 0,
                   chunk_size: int = DEFAULT_CHUNK_SIZE, *, start_method: str | None = None
                   ) -> Iterator[Outcome]:
    """Solve ``puzzles`` on ``jobs`` processes (0: one per core), yielding outcomes in order.

    Args:
        puzzles: any iterable (a file being read is fine: it is consumed as workers free up).
        options: as for :func:`~satdoku.batch.solve_puzzles`; each worker builds its solvers
            from them once.
        jobs: worker processes; 0 means ``os.cpu_count()``.
        chunk_size: puzzles sent to a worker at a time.
        start_method: ``'fork'``, ``'spawn'`` or ``'forkserver'`` (default: the platform's).

    Invalid puzzles come back as ``invalid`` outcomes in their place, as with
    :func:`~satdoku.batch.solve_puzzles`. Closing the generator early (or Ctrl-C in the parent)
    cancels the chunks not yet started and stops the workers.

    >>> from satdoku.formats import parse_puzzle
    >>> ps = [parse_puzzle("1.3.3.1...4..2..", "<arg>")]  # doctest: +SKIP
    >>> [o.result.status for o in solve_parallel(ps, SolveOptions(), jobs=2)]  # doctest: +SKIP
    ['solved']
    """
    yield from _pool_in_order(puzzles, jobs, chunk_size, _init_worker, (options,), _solve_chunk,
                              _joined, start_method)


def _pool_in_order(puzzles: Iterable[Puzzle], jobs: int, chunk_size: int,
                   initializer: Callable[..., None], initargs: tuple, work: Callable[[list], Any],
                   join: Callable[[list[Puzzle], Any], Iterator[Any]],
                   start_method: str | None = None) -> Iterator[Any]:
    """A process pool doing ``work`` on packed chunks, results joined back in input order."""
    if jobs < 0:
        raise ValueError("jobs must be 0 (every core) or more")
    jobs = jobs or os.cpu_count() or 1
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    context = multiprocessing.get_context(start_method)
    executor = ProcessPoolExecutor(jobs, mp_context=context, initializer=initializer,
                                   initargs=initargs)
    pending: collections.deque[tuple[list[Puzzle], Future]] = collections.deque()
    limit = jobs * _IN_FLIGHT_PER_WORKER
    finished = False
    try:
        yield from _in_order(puzzles, chunk_size, limit, pending,
                             lambda packed: executor.submit(work, packed), join)
        finished = True
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:
            # Interrupted (Ctrl-C, an error, or the consumer stopped reading): drop the queued
            # chunks and stop the workers now rather than after the chunks they are solving.
            for _, future in pending:
                future.cancel()
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
            for process in processes:
                process.join(timeout=5)


# Rating on a pool: each worker keeps one Rater; ratings come back whole (a rating costs
# milliseconds, so pickling it is a small part).
_worker_rater: Any = None


def _init_rater(sat_solver: str | None, timeout: float | None) -> None:
    global _worker_rater
    from .rate import Rater
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_rater = Rater(sat_solver, timeout=timeout)


def _rate_chunk(packed: list[tuple | None]) -> list[Any]:
    from .rate import rate_safely
    return [None if item is None else rate_safely(_worker_rater, _unpack_grid(item))
            for item in packed]


def rate_parallel(puzzles: Iterable[Puzzle], *, sat_solver: str | None = None,
                  timeout: float | None = None, jobs: int = 0, chunk_size: int = 16,
                  start_method: str | None = None) -> Iterator[tuple[Puzzle, Any]]:
    """(puzzle, :class:`~satdoku.rate.Rating` or None when it could not be read) in input
    order, rated on ``jobs`` processes (0: one per core). Ratings do not depend on which
    worker made them: each puzzle gets a fresh SAT solver."""
    yield from _pool_in_order(puzzles, jobs, chunk_size, _init_rater, (sat_solver, timeout),
                              _rate_chunk, zip, start_method)


def _dask_solve_chunk(options: SolveOptions, packed: list[tuple | None]) -> list[tuple | None]:
    """Runs on a Dask worker: solve a chunk with the worker's cached solver for ``options``."""
    batch = _dask_batches.get(options)
    if batch is None:
        batch = _dask_batches[options] = BatchSolver(options)
    return _run_packed(batch, packed)


def _dask_client(scheduler: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SatdokuError("Dask is not installed: install satdoku[dask] "
                           "(pip install 'satdoku[dask]') to use --scheduler") from None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        return Client(cluster), cluster
    try:
        return Client(scheduler), None
    except (OSError, ValueError, TimeoutError) as error:
        raise SatdokuError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None


def solve_dask(puzzles: Iterable[Puzzle], options: SolveOptions, scheduler: str = "local",
               chunk_size: int = DEFAULT_CHUNK_SIZE) -> Iterator[Outcome]:
    """Solve ``puzzles`` on a Dask cluster, yielding outcomes in input order.

    Args:
        puzzles: any iterable; read only as fast as the cluster takes chunks.
        options: as for :func:`~satdoku.batch.solve_puzzles`.
        scheduler: ``'local'`` starts a LocalCluster of 2 worker processes for this batch;
            anything else is a scheduler address (``'tcp://host:8786'``) to connect to.
        chunk_size: puzzles per task.

    Each Dask worker keeps one solver per ``options`` for its lifetime (python-sat solvers
    cannot travel), so on a long-lived cluster later batches skip the set-up. satdoku must be
    importable on the workers.

    Raises:
        SatdokuError: Dask is not installed, or the scheduler cannot be reached.
    """
    client, cluster = _dask_client(scheduler)
    pending: collections.deque = collections.deque()
    try:
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
        limit = workers * _IN_FLIGHT_PER_WORKER
        # pure=False: two equal chunks are two tasks (outcomes are per position)
        yield from _in_order(puzzles, chunk_size, limit, pending,
                             lambda packed: client.submit(_dask_solve_chunk, options, packed,
                                                          pure=False))
    finally:
        for _, future in pending:
            future.cancel()
        client.close()
        if cluster is not None:
            cluster.close()


def solve_batch(puzzles: Iterable[Puzzle], options: SolveOptions = SolveOptions(), *,
                jobs: int = 1, scheduler: str | None = None,
                chunk_size: int = DEFAULT_CHUNK_SIZE) -> Iterator[Outcome]:
    """The CLI's one door: Dask when ``scheduler`` is given, a pool when ``jobs != 1``, else in
    this process (:func:`~satdoku.batch.solve_puzzles`). Outcomes always in input order."""
    if scheduler is not None:
        return solve_dask(puzzles, options, scheduler, chunk_size)
    if jobs != 1:
        return solve_parallel(puzzles, options, jobs, chunk_size)
    return solve_puzzles(puzzles, options)
