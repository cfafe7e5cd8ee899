"""Every solution (count --all) and an estimate of how many (count --estimate), against the
published counts: the empty 4x4 288, a 6x6 with a fixed row 39,168, the Miracle rules 72 and
8 (tests/conftest.py)."""

import json

import pytest

from conftest import (EMPTY_4X4, EMPTY_4X4_SOLUTIONS, MIRACLE_COUNTS, MIRACLE_EMPTY,
                      ROW_FIXED_6X6, ROW_FIXED_6X6_SOLUTIONS, grid_of)
from satdoku.deadline import Deadline, TimeUp
from satdoku.io.inputs import read_puzzle
from satdoku.model.grid import is_solution
from satdoku.sat import questions
from satdoku.sat.solver import SatSolver
from satdoku.tasks.enumerate import all_solutions, approx_available, estimate_count

needs_approx = pytest.mark.skipif(not approx_available(), reason="pyapproxmc is absent")


def test_every_solution_once_even_when_cubes_split(monkeypatch):
    grid = grid_of(EMPTY_4X4)
    found = [s.cells for s in all_solutions(grid)]
    assert len(found) == len(set(found)) == EMPTY_4X4_SOLUTIONS
    monkeypatch.setattr(questions, "CUBE_SOLUTIONS", 5)  # split after every 5 solutions
    split = [s.cells for s in all_solutions(grid)]
    assert sorted(split) == sorted(found)


def test_the_published_counts():
    for text, count in MIRACLE_COUNTS.items():
        puzzle = read_puzzle(text)
        solutions = list(all_solutions(puzzle.grid, constraints=puzzle.constraints))
        assert len({s.cells for s in solutions}) == len(solutions) == count


@pytest.mark.slow  # 39,168 counted by test_counts.py; every solution once by the 4x4 tests here
def test_every_6x6_grid_with_its_first_row_fixed():
    grid = grid_of(ROW_FIXED_6X6)
    with SatSolver("minisat22") as sat:
        assert sum(1 for _ in all_solutions(grid, solver=sat)) == ROW_FIXED_6X6_SOLUTIONS


def test_limit_and_deadline():
    assert len(list(all_solutions(grid_of(EMPTY_4X4), limit=10))) == 10
    with pytest.raises(TimeUp):
        list(all_solutions(grid_of("." * 81), deadline=Deadline(0.05)))


def test_count_all_streams_json_lines_to_a_file(run, tmp_path):
    out = tmp_path / "all.jsonl"
    result = run("count", "--all", EMPTY_4X4, "-o", out)
    assert result.exit_code == 0
    assert result.stderr == "<arg>:1: 288 solutions, all of them\n"
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["number"] for r in records] == list(range(1, 289))
    assert len({r["solution"] for r in records}) == 288
    assert all(is_solution(grid_of(r["solution"]), grid_of(EMPTY_4X4)) for r in records)
    limited = run("count", "--all", "--limit", "5", "--format", "line", MIRACLE_EMPTY)
    assert limited.exit_code == 0 and len(limited.stdout.splitlines()) == 5
    assert "5 solutions: the limit, there may be more" in limited.stderr
    late = run("count", "--all", "." * 81, "--timeout", "0.2", "--format", "line")
    assert late.exit_code == 1 and "time limit of 0.2 s reached" in late.stderr
    assert run("count", "--all", "--jobs", "2", EMPTY_4X4).exit_code == 2
    assert run("count", "--all", "--format", "csv", EMPTY_4X4).exit_code == 2


@needs_approx
def test_the_estimate_brackets_the_published_counts():
    small = estimate_count(grid_of(EMPTY_4X4))
    assert small.low <= EMPTY_4X4_SOLUTIONS <= small.high and not small.exact
    rows = estimate_count(grid_of(ROW_FIXED_6X6))
    assert rows.low <= ROW_FIXED_6X6_SOLUTIONS <= rows.high
    assert estimate_count(grid_of(ROW_FIXED_6X6)).count == rows.count  # the same seed


@pytest.mark.slow  # ApproxMC on the miracle's rules: 10 s of CPU
@needs_approx
def test_a_small_count_of_a_variant_is_exact():
    puzzle = read_puzzle(MIRACLE_EMPTY)
    exact = estimate_count(puzzle.grid, constraints=puzzle.constraints)
    assert exact.exact and exact.count == 72


@needs_approx
def test_count_estimate_on_the_command_line(run):
    result = run("count", "--estimate", "--format", "json", EMPTY_4X4)
    rec = json.loads(result.stdout)
    assert result.exit_code == 0 and rec["low"] <= 288 <= rec["high"]
    assert run("count", "--estimate", "--limit", "5", EMPTY_4X4).exit_code == 2


def test_count_estimate_without_pyapproxmc_names_the_extra(run, monkeypatch):
    import importlib
    real = importlib.import_module

    def missing(name, *args):
        if name == "pyapproxmc":
            raise ImportError(name)
        return real(name, *args)
    monkeypatch.setattr(importlib, "import_module", missing)
    result = run("count", "--estimate", EMPTY_4X4)
    assert result.exit_code == 2
    assert "pip install 'satdoku[approx]'" in result.stderr.splitlines()[-1]
