"""parallel: the generic ordered pool and Dask give results in input order, in flat memory."""

import itertools
import os

import pytest

from satdoku.errors import OptionError
from satdoku.run.parallel import ordered_dask, ordered_pool, worker_count


def _square_all(chunk):
    return [x * x for x in chunk]


def _pool(items, **options):
    settings = dict(jobs=2, init=int, initargs=(), work=_square_all, pack=abs, join=zip,
                    chunk_size=3)
    settings.update(options)
    return ordered_pool(items, **settings)


def test_results_come_back_in_input_order():
    items = list(range(-50, 50))
    assert list(_pool(items)) == [(x, x * x) for x in items]


def test_spawned_workers():
    assert list(_pool(range(7), start_method="spawn")) == [(x, x * x) for x in range(7)]


def test_streams_lazily_and_stops_early():
    consumed = []

    def source():
        for i in itertools.count():
            consumed.append(i)
            yield i

    stream = _pool(source(), chunk_size=4)
    first = list(itertools.islice(stream, 10))
    stream.close()
    assert first == [(x, x * x) for x in range(10)]
    # bounded read-ahead: 2 workers x 3 chunks x 4 items, plus the chunk being cut
    assert len(consumed) <= 2 * 3 * 4 + 4 + 10


def test_worker_count_is_capped_at_the_cores():
    cores = os.cpu_count() or 1
    assert worker_count(0) == cores and worker_count(10 ** 30) == cores
    with pytest.raises(OptionError):
        worker_count(-1)
    with pytest.raises(OptionError):
        list(_pool(range(3), chunk_size=0))


def test_never_more_workers_than_chunks(monkeypatch):
    import satdoku.run.parallel as parallel
    made = []
    real = parallel.ProcessPoolExecutor

    def spy(jobs, **kwargs):
        made.append(jobs)
        return real(jobs, **kwargs)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", spy)
    assert list(_pool([5], jobs=0)) == [(5, 25)]
    assert made == [1]


def _chunk_sizes(chunk):
    return [len(chunk)] * len(chunk)


def test_weighted_items_spread_over_the_workers(monkeypatch):
    # Two costly items among cheap ones: with a weight they go to chunks of their own, and
    # both workers start (without, one chunk of 6 would keep one worker).
    import satdoku.run.parallel as parallel
    made = []
    real = parallel.ProcessPoolExecutor
    monkeypatch.setattr(parallel, "ProcessPoolExecutor",
                        lambda jobs, **kw: made.append(jobs) or real(jobs, **kw))
    items = [1, 1, 300, 1, 300, 1]
    got = list(_pool(items, work=_chunk_sizes, chunk_size=256, weight=lambda x: x))
    assert [size for _, size in got] == [3, 3, 3, 2, 2, 1] and made == [2]
    assert list(_pool(items, work=_chunk_sizes, chunk_size=256)) == [(x, 6) for x in items]


def test_dask_local_cluster():
    pytest.importorskip("dask.distributed")
    got = list(ordered_dask(range(7), scheduler="local", work=_scaled, args=(10,), pack=abs,
                            join=zip, chunk_size=3))
    assert got == [(x, 10 * x) for x in range(7)]


def _scaled(factor, chunk):
    return [factor * x for x in chunk]
