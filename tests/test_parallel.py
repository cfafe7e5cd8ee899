"""parallel: process pools and Dask give the outcomes of a plain batch, in the same order."""

import itertools

import pytest

from satdoku.batch import SolveOptions, solve_puzzles
from satdoku.formats import parse_puzzle
from satdoku.parallel import solve_batch, solve_dask, solve_parallel

LINES = [
    ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85...",
    ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
    "11..............................................................................",  # clash
    ".714....5....5..8...39.76.......1....9...6..3......82.....4...83......9.....85...",
    "1.3..4.2.34.4.23",  # 4x4
    "123",  # not a puzzle
    "12.4..........................................................................56.",
]


def puzzles(repeat=1):
    lines = LINES * repeat
    return [parse_puzzle(line, "<test>") for line in lines]


def summary(outcomes):
    """What must not depend on the process: a puzzle with several solutions may get any one
    (an incremental solver's answer depends on what it solved before), so solutions are
    compared only when unique (limit=2); solve() has verified every one anyway."""
    return [(o.puzzle.grid, o.result.status, o.result.count, o.result.message,
             o.result.solution if o.result.status == "unique" else None) for o in outcomes]


@pytest.mark.parametrize("limit", [1, 2])
def test_two_jobs_match_one(limit):
    options = SolveOptions(limit=limit)
    expected = summary(solve_puzzles(puzzles(3), options))
    assert [s[1] for s in expected[:len(LINES)]].count("invalid") == 2
    got = summary(solve_parallel(puzzles(3), options, jobs=2, chunk_size=2))
    assert got == expected


def test_spawn_and_check_mode():
    options = SolveOptions(check=True)
    expected = [(o.result.status, o.disagreements) for o in solve_puzzles(puzzles(), options)]
    got = [(o.result.status, o.disagreements)
           for o in solve_parallel(puzzles(), options, jobs=2, chunk_size=3,
                                   start_method="spawn")]
    assert got == expected


def test_streams_lazily_and_stops_early():
    consumed = []

    def source():
        for i, p in enumerate(itertools.cycle(puzzles())):
            consumed.append(i)
            yield p

    stream = solve_parallel(source(), SolveOptions(), jobs=2, chunk_size=4)
    first = list(itertools.islice(stream, 10))
    stream.close()
    assert len(first) == 10
    # bounded read-ahead: 2 workers x 3 chunks x 4 puzzles, plus the chunk being cut
    assert len(consumed) <= 2 * 3 * 4 + 4 + 10


def test_solve_batch_dispatch():
    ps = puzzles()
    expected = summary(solve_puzzles(ps, SolveOptions()))
    assert summary(solve_batch(ps, SolveOptions())) == expected
    assert summary(solve_batch(ps, SolveOptions(), jobs=0, chunk_size=3)) == expected


def test_bad_arguments():
    with pytest.raises(ValueError):
        list(solve_parallel(puzzles(), SolveOptions(), jobs=-1))
    with pytest.raises(ValueError):
        list(solve_parallel(puzzles(), SolveOptions(), jobs=2, chunk_size=0))


def test_dask_local_cluster():
    pytest.importorskip("dask.distributed")
    options = SolveOptions(limit=2)
    expected = summary(solve_puzzles(puzzles(2), options))
    got = summary(solve_dask(puzzles(2), options, scheduler="local", chunk_size=3))
    assert got == expected
