"""The compiled search baselines (exact-cover, cp-sat): answers, errors when missing, bench rows."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest
from conftest import run_cli

from satdoku.errors import OptionError
from satdoku.io.text import parse_puzzle
from satdoku.model.geometry import jigsaw
from satdoku.model.grid import Grid, is_solution
from satdoku.run.bench import check_groups
from satdoku.tasks.solvers import make_solver, solve

PACKAGES = {"exact-cover": "exact_cover", "cp-sat": "ortools"}
BASELINES = [pytest.param(name, marks=pytest.mark.skipif(
    importlib.util.find_spec(module) is None, reason=f"needs {module}"))
    for name, module in PACKAGES.items()]

#: Sudoku Redux's 'sample' (puzzles/9x9.txt), unique.
SAMPLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."


@pytest.mark.parametrize("name", BASELINES)
def test_solves_and_counts_like_native(name):
    with open("puzzles/16x16.txt") as fp:
        big = next(line.split()[0] for line in fp if not line.startswith("#"))
    with make_solver(name) as s, make_solver("native") as native:
        sample = parse_puzzle(SAMPLE).grid
        result = solve(s, sample, limit=2)
        assert (result.status, result.count) == ("unique", 1)
        assert result.solution == solve(native, sample).solution
        grid = parse_puzzle(big).grid
        ours, theirs = solve(s, grid), solve(native, grid)
        assert ours.status == "solved" and ours.solution == theirs.solution
        assert ours.solver == name and "solve_ms" in ours.stats


@pytest.mark.parametrize("name", BASELINES)
def test_jigsaw_and_refusals(name):
    # 4x4 jigsaw whose regions are the 2x2 boxes shifted: solved over the geometry's houses.
    regions = [[0, 1, 2, 3], [4, 5, 8, 9], [6, 7, 10, 11], [12, 13, 14, 15]]
    grid = Grid(jigsaw(regions), (1,) + (0,) * 15)
    with make_solver(name) as s:
        result = solve(s, grid, limit=2)
        assert result.status == "multiple" and is_solution(result.second, grid)
        variant = parse_puzzle(SAMPLE).grid
        from satdoku.rules import CONSTRAINTS
        diagonal = CONSTRAINTS["diagonal"].from_json({"type": "diagonal", "direction": "+"}, variant.geometry)
        refused = solve(s, variant, constraints=(diagonal,))
        assert refused.status == "refused" and "cannot solve variant puzzles" in refused.message


@pytest.mark.parametrize("name,module", list(PACKAGES.items()))
def test_missing_package_is_a_clear_error(name, module, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # import fails as when not installed
    if module == "ortools":
        monkeypatch.setitem(sys.modules, "ortools.sat.python.cp_model", None)
    message = f"solver {name} needs the .* package: pip install 'satdoku\\[baselines\\]'"
    with pytest.raises(OptionError, match=message):
        check_groups([name])
    for command in ("bench", "solve", "count"):  # a usage error before any puzzle is read
        result = run_cli(command, "puzzles/9x9.txt", "--solver", name)
        assert result.exit_code == 2 and "satdoku[baselines]" in result.output, command
        assert "Traceback" not in result.output


@pytest.mark.parametrize("name", BASELINES)
def test_bench_rows(name, tmp_path):
    rows = tmp_path / "rows.jsonl"
    result = run_cli("bench", "puzzles/9x9.txt", "--solver", name,
                     "--format", "json", "--rows", str(rows))
    assert result.exit_code == 0, result.output
    row = json.loads(result.output.splitlines()[0])
    assert row["solver"] == name and row["encoding"] is None
    assert row["solved"] == row["puzzles"] - row["invalid"] > 0 and row["errors"] == 0
    puzzles = [json.loads(line) for line in rows.read_text().splitlines()]
    assert {p["solver"] for p in puzzles} == {name} and len(puzzles) == row["solved"]
    assert all(p["cpu_ms"] is not None for p in puzzles)


#: A search binary for the tests: reads a puzzle line, answers as qqwing --one-line --stats
#: would (the native search inside; 'No solution' when there is none).
SEARCH_BINARY = """\
import sys
from satdoku.io.text import format_grid, parse_puzzle
from satdoku.native.search import NativeSolver
result = NativeSolver().solve(parse_puzzle(sys.stdin.readline().strip()).grid)
print("Guesses: %d" % result.stats["guesses"])
print(format_grid(result.solution, "line") if result.solution else "No solution")
"""


def test_search_binary(tmp_path):
    from satdoku.sat.searchbin import SearchBinary
    script = tmp_path / "searcher.py"
    script.write_text(SEARCH_BINARY)
    spec = f'exec:"{sys.executable}" {script}'
    with SearchBinary(spec) as s, make_solver("native") as native:
        sample = parse_puzzle(SAMPLE).grid
        result = solve(s, sample)
        assert result.status == "solved" and result.solution == solve(native, sample).solution
        assert result.stats["guesses"] >= 0 and result.stats["solver_cpu_ms"] > 0
        assert solve(s, parse_puzzle("12....3....3....").grid).status == "unsolvable"
        assert solve(s, sample, limit=2).status == "refused"
    rows = run_cli("bench", "puzzles/4x4.txt", "--solver", spec,
                   "--format", "csv", "--timeout", "30")
    assert rows.exit_code == 0, rows.output
    assert ",solver-cpu,30.0,1,"in rows.output  # the clock, the limit, 1 within it
    bad = run_cli("bench", "puzzles/4x4.txt", "--solver", "exec:no-such-bin")
    assert bad.exit_code == 2 and "program 'no-such-bin' not found" in bad.output


@pytest.mark.skipif(importlib.util.find_spec("exact_cover") is None, reason="needs exact_cover")
def test_exact_cover_keeps_the_time_limit_on_big_grids():
    import time
    from satdoku.deadline import Deadline
    from satdoku.model.geometry import geometry
    empty = Grid(geometry(5, 5), (0,) * 625)  # 10,000 solutions of an empty 25x25: too many
    with make_solver("exact-cover") as s:
        start = time.perf_counter()
        result = solve(s, empty, limit=10_000, deadline=Deadline(0.5))
        assert result.status == "timeout" and result.count == 0
        assert time.perf_counter() - start < 10
        assert solve(s, empty, limit=10_001).status == "refused"
