"""batch: outcomes in input order, bad puzzles in their place, the same on one or more cores."""

import time

import pytest

from conftest import SAMPLE, SAMPLE_HARD, SEVENTEEN, SMALL
from satdoku.batch import BatchSolver, SolveOptions, solve_batch, solve_puzzles
from satdoku.formats import parse_puzzles

LINES = [
    SAMPLE,
    SEVENTEEN,
    "11" + "." * 79,  # clash
    SAMPLE_HARD,
    SMALL,  # 4x4
    "123",  # not a puzzle
    "12.4..........................................................................56.",
]


UNIQUE_LINES = {1, 2, 5}


def puzzles(repeat=1):
    return list(parse_puzzles(LINES * repeat, "<test>"))[:len(LINES) * repeat]


def summary(outcomes):
    """What must not depend on the process: a puzzle with several solutions may get any one
    (an incremental solver's answer depends on what it solved before), so solutions are
    compared only when unique; solve() has verified every one anyway."""
    return [(o.puzzle.line, o.result.status, o.result.count, o.result.message,
             o.result.solution if o.puzzle.line in UNIQUE_LINES else None) for o in outcomes]


def test_bad_puzzles_come_out_in_place():
    got = summary(solve_puzzles(puzzles(), SolveOptions(limit=2)))
    assert [s[1] for s in got] == ["unique", "unique", "invalid", "multiple", "unique",
                                   "invalid", "multiple"]
    assert got[2][3] == "r1c2: 1 repeats the given at r1c1"
    assert got[5][3].startswith("3 cells: a Sudoku has 16, 36")


@pytest.mark.parametrize("limit", [1, 2])
def test_two_jobs_match_one(limit):
    options = SolveOptions(limit=limit)
    expected = summary(solve_puzzles(puzzles(3), options))
    assert summary(solve_batch(puzzles(3), options, jobs=2, chunk_size=2)) == expected
    assert summary(solve_batch(puzzles(3), options, jobs=0, chunk_size=3)) == expected


def test_check_mode_in_workers():
    options = SolveOptions(check=True)
    expected = [(o.result.status, o.disagreements) for o in solve_puzzles(puzzles(), options)]
    got = [(o.result.status, o.disagreements)
           for o in solve_batch(puzzles(), options, jobs=2, chunk_size=3)]
    assert got == expected and not any(d for _, d in got)


def test_stats_carry_every_stage():
    for solver in ("sat", "native"):
        outcome = next(solve_puzzles(puzzles(), SolveOptions(solver=solver)))
        stages = {"parse_ms", "solve_ms", "verify_ms"}
        if solver == "sat":
            stages |= {"encode_ms", "load_ms"}
        assert stages <= set(outcome.result.stats), solver


def test_the_time_limit_counts_from_reading():
    # A puzzle that took longer to read than the limit is out of time before it is solved.
    batch = BatchSolver(SolveOptions(timeout=2.0))
    try:
        result, _ = batch.run_grid(puzzles()[0].grid, parse_ms=2500)
        assert result.status == "timeout"
        assert result.message == "time limit of 2 s reached"
        result, _ = batch.run_grid(puzzles()[0].grid, parse_ms=0)
        assert result.status == "solved"
    finally:
        batch.close()


def test_dask_local_cluster():
    pytest.importorskip("dask.distributed")
    options = SolveOptions(limit=2)
    expected = summary(solve_puzzles(puzzles(2), options))
    assert summary(solve_batch(puzzles(2), options, scheduler="local", chunk_size=3)) == expected
