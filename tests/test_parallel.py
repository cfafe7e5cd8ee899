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


# --jobs with the workers writing the outcomes out (run/stream.py: Block).

def _mixed_file(tmp_path, copies):
    """A file of good, bad and unsolvable puzzles, several chunks long."""
    from conftest import SAMPLE, SEVENTEEN, SMALL, UNSOLVABLE_4X4
    lines = []
    for i in range(copies):
        lines += [SAMPLE, SEVENTEEN + f"  # number {i}", "11.." + "." * 12,  # a clash
                  UNSOLVABLE_4X4, SMALL, "# a comment", "x" * 81]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_workers_write_the_same_text_in_blocks(tmp_path):
    from satdoku.io.inputs import iter_inputs
    from satdoku.output.report import OutcomeReport
    from satdoku.run.stream import stream
    from satdoku.tasks.base import Block
    from satdoku.tasks.commands import SolveOptions
    path = str(_mixed_file(tmp_path, 100))  # 700 lines: chunks of 256
    report = OutcomeReport("pretty")

    def written(items):
        out = [item.text if isinstance(item, Block) else report.format(item) for item in items]
        return "".join(out)

    here = list(stream(iter_inputs([path, "nosuchfile", path]), SolveOptions()))
    pooled = list(stream(iter_inputs([path, "nosuchfile", path]), SolveOptions(), jobs=2,
                         render=report.render))
    blocks = [item for item in pooled if isinstance(item, Block)]
    assert len(blocks) >= 6 and sum(b.count for b in blocks) == 2 * 600
    assert written(pooled) == written(here)
    notes = [line for b in blocks for line in b.notes]
    assert notes[:3] == [f"{path}:3: r1c2: 1 repeats the given at r1c1",
                         f"{path}:4: unsolvable", f"{path}:7: r1c1: unknown symbol 'x'"]
    assert max(b.code for b in blocks) == 1  # the worst of the codes is an unsolvable one's


def test_tasks_of_milliseconds_a_puzzle_send_workers_short_chunks(tmp_path):
    # rate, explain and candidates: the first results show before a long chunk is done
    from satdoku.io.inputs import iter_inputs
    from satdoku.output.asking import RatingReport
    from satdoku.run.stream import stream
    from satdoku.tasks.base import Block
    from satdoku.tasks.options import SLOW_CHUNK_LINES
    from satdoku.tasks.other_commands import CandidatesOptions, ExplainOptions, RateOptions
    assert {o().chunk_lines for o in (RateOptions, ExplainOptions, CandidatesOptions)} == \
        {SLOW_CHUNK_LINES}
    path = str(_mixed_file(tmp_path, 30))  # 210 lines, 180 puzzles
    report = RatingReport("line")
    blocks = [item for item in stream(iter_inputs([path]), RateOptions(), jobs=2,
                                      render=report.render) if isinstance(item, Block)]
    assert sum(b.count for b in blocks) == 180
    assert len(blocks) >= 210 // SLOW_CHUNK_LINES and max(b.count for b in blocks) <= 32


@pytest.mark.parametrize("fmt", ["line", "csv"])
def test_two_jobs_print_what_one_prints(tmp_path, fmt):
    import subprocess
    import sys
    path = _mixed_file(tmp_path, 60)
    runs = [subprocess.run([sys.executable, "-m", "satdoku", "solve", str(path), "nosuchfile",
                            "--format", fmt, "-j", jobs], capture_output=True, text=True)
            for jobs in ("1", "2")]
    one, two = runs
    assert two.returncode == one.returncode == 2  # the missing input is a usage error
    assert two.stderr == one.stderr and len(one.stderr.splitlines()) == 3 * 60 + 1
    if fmt == "csv":  # time_ms, the 13th column, differs from run to run
        cut = [[row.split(",")[:12] for row in r.stdout.splitlines()] for r in runs]
        assert cut[0] == cut[1] and len(cut[0]) == 2 + 6 * 60  # the header, the missing input
    else:
        assert two.stdout == one.stdout


def test_ctrl_c_with_two_jobs_keeps_whole_results_and_exits_130(tmp_path):
    import signal
    import subprocess
    import sys
    import threading
    from conftest import SAMPLE, SAMPLE_SOLUTION
    many = tmp_path / "many.txt"
    many.write_text((SAMPLE + "\n") * 60000)
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "solve", str(many), "--format",
                             "line", "-j", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    guard = threading.Timer(60, proc.kill)  # a hang fails the test rather than stopping it
    guard.start()
    try:
        first = proc.stdout.readline()  # the first chunk is out, the others under way
        proc.send_signal(signal.SIGINT)
        out = proc.stdout.read()  # (communicate would miss what readline buffered)
        err = proc.stderr.read()
        proc.wait()
    finally:
        guard.cancel()
        if proc.poll() is None:
            proc.kill()
    assert first == SAMPLE_SOLUTION + "\n"
    assert proc.returncode == 130, err
    lines = (first + out).splitlines()
    assert set(lines) == {SAMPLE_SOLUTION} and len(lines) < 60000  # whole lines, cut short
    assert err.strip().splitlines()[-1] == \
        f"interrupted: the results finished so far were kept; {len(lines)} on stdout"


def test_a_stream_of_stdin_still_gives_slow_tasks_short_chunks():
    from satdoku.io.inputs import iter_inputs
    from satdoku.run.stream import _chunk_lines
    from satdoku.tasks.commands import SETTLE_BATCH
    from satdoku.tasks.options import SLOW_CHUNK_LINES
    stdin = iter_inputs(["-"])  # its lines cannot be counted ahead
    assert _chunk_lines(stdin, SLOW_CHUNK_LINES, 2) == SLOW_CHUNK_LINES
    assert _chunk_lines(stdin, SETTLE_BATCH, 2) is None  # the default: a batch may be small


def test_puzzles_read_unchecked_are_checked_before_a_worker_gets_them():
    # a library stream of puzzles read with defer_clashes, solved on workers: the clash is
    # answered as the reader would answer it, not handed to a worker as a puzzle
    from conftest import SAMPLE
    from satdoku.io.text import parse_puzzles
    from satdoku.run.stream import stream
    from satdoku.tasks.commands import SolveOptions
    clash = "5" + "." * 9 + "5" + "." * 70  # r1c1 and r2c2: 5 twice in box 1
    lines = [SAMPLE, clash] * 40
    outcomes = list(stream(parse_puzzles(lines, "mixed", defer_clashes=True), SolveOptions(),
                           jobs=2))
    assert [o.result.status for o in outcomes] == ["solved", "invalid"] * 40
    assert outcomes[1].result.message == "r2c2: 5 repeats the given at r1c1"
