"""Work on several cores (a process pool) or several machines (Dask), results in input order.

The pool is generic: a task brings its own worker functions. ``init(*initargs)`` runs once in
every worker (to build what the worker keeps, such as a SAT solver: python-sat solvers cannot
be pickled), ``work(packed_chunk)`` runs on each chunk there, ``pack(item)`` shrinks an item to
what the worker needs (plain tuples pickle fast), and ``join(chunk, results)`` yields what the
caller wants from a chunk and its results. The parent keeps only a bounded number of chunks in
flight, so an input of any length streams through in flat memory, and yields as soon as the
oldest chunk is back.

Roads not taken: ``multiprocessing.Pool.imap`` reads the whole input ahead of the workers (its
feeder thread does not wait), so memory grows with the input; ``executor.map`` submits every
chunk at once for the same reason.
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import os
import signal
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Iterable, Iterator, NoReturn

from ..children import die_with_parent, worker_count
from ..errors import OptionError, SatdokuError

__all__ = ["ordered_pool", "ordered_dask", "worker_count", "leave", "DEFAULT_CHUNK_SIZE"]

#: Items per chunk: big enough that pickling and scheduling are a small part of the work on
#: 9x9, small enough that the first results show quickly.
DEFAULT_CHUNK_SIZE = 256

#: Chunks in flight per worker: one being worked on, one or two queued so a worker never waits.
_IN_FLIGHT_PER_WORKER = 3

#: Set when a pool was stopped with its workers killed: its manager thread may be stuck on a
#: result a killed worker was half-way through writing, and the interpreter's exit would join
#: it for ever. A process that saw this leaves with :func:`leave` (``os._exit``).
_abandoned = False


def leave(code: int) -> NoReturn:
    """Exit with ``code``: at once (stdio flushed, no interpreter clean-up) when a process pool
    was stopped with its workers killed (see :data:`_abandoned`), else by ``sys.exit``."""
    if _abandoned:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)

Join = Callable[[list, Any], Iterator[Any]]


def _chunks(items: Iterable[Any], size: int,
            weight: Callable[[Any], float] | None = None) -> Iterator[list[Any]]:
    """Lists of ``size`` items; with ``weight``, a list also ends once its items weigh
    ``size`` (big items go a few a chunk, so that every worker gets some)."""
    iterator = iter(items)
    if weight is None:
        while piece := list(itertools.islice(iterator, size)):
            yield piece
        return
    chunk: list[Any] = []
    work = 0.0
    for item in iterator:
        chunk.append(item)
        work += weight(item)
        if len(chunk) >= size or work >= size:
            yield chunk
            chunk, work = [], 0.0
    if chunk:
        yield chunk


def _in_order(chunks: Iterable[list[Any]], limit: int, pending: collections.deque,
              submit: Callable[[list], Any], pack: Callable[[Any], Any],
              join: Join) -> Iterator[Any]:
    """Send ``chunks`` through ``submit`` (which returns a future), at most ``limit`` in
    flight, and yield what ``join`` makes of each chunk and its result, in input order.
    ``pending`` is the caller's, so that it can cancel what is left if the work stops early."""
    for chunk in chunks:
        pending.append((chunk, submit([pack(item) for item in chunk])))
        while len(pending) >= limit or (pending and pending[0][1].done()):
            done, future = pending.popleft()
            yield from join(done, future.result())
    while pending:
        done, future = pending.popleft()
        yield from join(done, future.result())


def _start_worker(parent: int | None, init: Callable[..., None], initargs: tuple) -> None:
    # The parent handles Ctrl-C and stops the workers, so they ignore it; SIGTERM and SIGHUP
    # end a worker at once (the parent's handlers, inherited by a fork, are not for workers).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)
    die_with_parent(parent)
    init(*initargs)


def ordered_pool(items: Iterable[Any], *, jobs: int, init: Callable[..., None],
                 initargs: tuple, work: Callable[[list], Any], pack: Callable[[Any], Any],
                 join: Join, chunk_size: int = DEFAULT_CHUNK_SIZE,
                 weight: Callable[[Any], float] | None = None,
                 start_method: str | None = None) -> Iterator[Any]:
    """``work`` on chunks of ``items`` in a pool of ``jobs`` processes (0: one per core), what
    ``join`` makes of the results yielded in input order (see the module docstring).

    Never more workers than the chunks need. ``weight`` (an item's cost, in units of which a
    chunk holds ``chunk_size``) ends chunks of costly items early. Closing the generator early
    (or Ctrl-C in the parent) cancels the chunks not yet started and stops the workers.

    >>> list(ordered_pool(range(5), jobs=2, init=int, initargs=(), work=sorted, pack=abs,
    ...                   join=zip, chunk_size=2))
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]
    """
    if chunk_size < 1:
        raise OptionError("chunk_size must be at least 1")
    jobs = worker_count(jobs)
    chunks = _chunks(items, chunk_size, weight)
    first = list(itertools.islice(chunks, jobs))
    jobs = max(1, min(jobs, len(first)))
    context = multiprocessing.get_context(start_method)
    # fork and spawn make the workers our children; forkserver makes them its own.
    parent = os.getpid() if context.get_start_method() in ("fork", "spawn") else None
    executor = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                                   initargs=(parent, init, initargs))
    pending: collections.deque[tuple[list, Future]] = collections.deque()
    finished = False
    try:
        yield from _in_order(itertools.chain(first, chunks), jobs * _IN_FLIGHT_PER_WORKER,
                             pending, lambda packed: executor.submit(work, packed), pack, join)
        finished = True
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:
            # Interrupted (Ctrl-C, an error, or the consumer stopped reading): drop the queued
            # chunks and stop the workers now rather than after the chunks they are on.
            for _, future in pending:
                future.cancel()
            processes = list((getattr(executor, "_processes", None) or {}).values())
            # The queue that feeds the workers may hold chunks no worker will read now: its
            # feeder thread, joined at exit, would wait on a full pipe for ever (the hang of
            # 'satdoku solve FILE -j 2 | head', 1 run in 5). Its data is dropped instead.
            calls = getattr(executor, "_call_queue", None)
            if calls is not None:
                calls.cancel_join_thread()
            global _abandoned
            _abandoned = True
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
            for process in processes:
                process.join(timeout=5)


def _dask_client(scheduler: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SatdokuError("Dask is not installed: install satdoku[dask] "
                           "(pip install 'satdoku[dask]') to use --scheduler") from None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, host="127.0.0.1")
        return Client(cluster), cluster
    try:
        return Client(scheduler), None
    except Exception as error:  # Dask raises many kinds (TLS set-up, timeouts, addresses)
        raise SatdokuError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None


def ordered_dask(items: Iterable[Any], *, scheduler: str, work: Callable[..., Any],
                 args: tuple, pack: Callable[[Any], Any], join: Join,
                 chunk_size: int = DEFAULT_CHUNK_SIZE,
                 weight: Callable[[Any], float] | None = None) -> Iterator[Any]:
    """``work(*args, packed_chunk)`` on a Dask cluster, joined in input order (chunks as for
    :func:`ordered_pool`).

    ``scheduler`` ``'local'`` starts a LocalCluster of 2 worker processes on the loopback
    interface for this run; anything else is a scheduler address (``'tcp://host:8786'``).
    ``work`` keeps what it builds on the worker (see :mod:`satdoku.run.stream`), so on a long-lived
    cluster later runs skip the set-up. satdoku must be importable on the workers, and results
    come back pickled: a cluster is trusted completely (see docs/commands.md).

    Raises:
        SatdokuError: Dask is not installed, or the scheduler cannot be reached.
    """
    client, cluster = _dask_client(scheduler)
    pending: collections.deque = collections.deque()
    try:
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
        # pure=False: two equal chunks are two tasks (results are per position)
        yield from _in_order(_chunks(items, chunk_size, weight),
                             workers * _IN_FLIGHT_PER_WORKER, pending,
                             lambda packed: client.submit(work, *args, packed, pure=False),
                             pack, join)
    finally:
        for _, future in pending:
            future.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
