"""Cube-and-conquer (``--cube``): a hard puzzle split into cubes by lookahead, the cubes
conquered as assumptions, every answer verified, the figures of the cubes in the stats."""

import json

import pytest

import satdoku
from conftest import run_cli
from satdoku.deadline import Deadline, TimeUp
from satdoku.sat.cubes import CubeSolver
from satdoku.io.text import parse_puzzle
from satdoku.tasks.solvers import solve

# Arto Inkala's "world's hardest sudoku" (2012) and the solution he published.
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283154237896369845721287169534521974368438526917"
                   "796318452")


def _text(result):
    return "".join(map(str, result.solution.cells))


def test_solve_and_count_through_cubes():
    solved = satdoku.solve(INKALA, cube=4, stats=True)
    assert (solved.status, _text(solved)) == ("solved", INKALA_SOLUTION)
    assert solved.solver == "cube:cadical195"
    counted = satdoku.count(INKALA, cube=4, stats=True)
    assert (counted.status, counted.count, _text(counted)) == ("unique", 1, INKALA_SOLUTION)
    stats = counted.stats  # every cube closed: the one with the solution, the rest refuted
    assert stats["cubes"] > 1 and stats["cubes_sat"] == 1 and stats["cubes_open"] == 0
    assert stats["cubes_sat"] + stats["cubes_unsat"] == stats["cubes"]


def test_two_workers_on_the_command_line(tmp_path):
    path = tmp_path / "hard.txt"
    path.write_text(INKALA + "\n")
    done = run_cli("count", path, "--cube", "3", "--jobs", "2", "--stats", "--format", "json")
    assert done.exit_code == 0, done.output
    answer = json.loads(done.output.splitlines()[0])
    assert (answer["status"], answer["solution"]) == ("unique", INKALA_SOLUTION)
    assert answer["stats"]["cubes_open"] == 0


def test_several_solutions_and_a_time_limit():
    with CubeSolver(depth=2) as s:
        two = solve(s, parse_puzzle("12..34..........").grid, limit=2)
        late = solve(s, parse_puzzle(INKALA).grid, limit=2, deadline=Deadline(1e-9))
    assert (two.status, two.count) == ("multiple", 2) and two.solution != two.second
    assert (late.status, late.solution) == ("timeout", None)


def test_cube_takes_sat_only():
    done = run_cli("solve", INKALA, "--cube", "2", "--solver", "native")
    assert done.exit_code == 2 and "--cube conquers with SAT" in done.output


def test_variant_puzzles_through_cubes():
    """A variant puzzle's rules are in every cube (and in the lookahead): counted through
    cubes, in this process and on two workers, it is unique and equal to its published
    solution; a puzzle of several solutions counts as many as without cubes."""
    from conftest import VARIANTS
    path = VARIANTS / "eddies.txt"
    published = path.read_text().split("# solution: ")[1].split()[0]
    counted = satdoku.count(str(path), cube=3, stats=True)
    assert (counted.status, _text(counted)) == ("unique", published)
    assert counted.solver == "cube:cadical195" and counted.stats["cubes"] > 1
    done = run_cli("count", path, "--cube", "3", "--jobs", "2", "--format", "json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.output.splitlines()[0])["solution"] == published
    several = json.dumps({"format": "satdoku-variant", "version": 1, "size": 4,
                          "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"],
                                           "sum": 3}]})
    plain, cubed = satdoku.count(several, limit=100), satdoku.count(several, limit=100, cube=2)
    assert cubed.status == plain.status == "multiple" and cubed.count == plain.count > 1


def test_cubes_on_cells():
    """``--cube-on cells`` splits on every digit of D cells, those of the smallest rules first:
    the cubes partition the solutions (a 4x4 killer of many solutions counts as many as
    without cubes), a variant puzzle is unique and equal to its published solution, and the
    option without --cube is a usage error."""
    from conftest import VARIANTS
    from satdoku.rules import Killer
    from satdoku.sat.splits import cube_cells
    several = json.dumps({"format": "satdoku-variant", "version": 1, "size": 4,
                          "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"],
                                           "sum": 3}]})
    plain = satdoku.count(several, limit=1000)
    cubed = satdoku.count(several, limit=1000, cube=3, cube_on="cells", stats=True)
    assert cubed.status == plain.status == "multiple" and cubed.count == plain.count > 2
    assert cubed.stats["cubes"] > 1 and cubed.stats["cubes_open"] == 0
    candidates = {c: [c * 4 + d for d in range(1, 5)] for c in range(16)}
    candidates[5] = [21, 22]  # fewest candidates: the first cell after the rules'
    rules = (Killer((0, 1, 2), 9), Killer((9, 3), 7))
    assert cube_cells(rules, candidates, 6) == [9, 3, 0, 1, 2, 5]
    assert cube_cells(rules, candidates, 3) == [9, 3, 0]
    path = VARIANTS / "eddies.txt"
    published = path.read_text().split("# solution: ")[1].split()[0]
    done = run_cli("count", path, "--cube", "4", "--cube-on", "cells", "--jobs", "2",
                   "--format", "json", "--stats")
    assert done.exit_code == 0, done.output
    answer = json.loads(done.output.splitlines()[0])
    assert (answer["status"], answer["solution"]) == ("unique", published)
    assert answer["stats"]["cubes"] > 1
    alone = run_cli("count", path, "--cube-on", "cells")
    assert alone.exit_code == 2 and "give --cube D too" in alone.output


def test_cube_on_names_match():
    from satdoku.sat.splits import CUBE_ON
    from satdoku.tasks.commands import CUBE_ON as NAMES
    assert CUBE_ON == NAMES


def test_cubes_report_their_progress():
    """Splitting and conquering tell :mod:`satdoku.progress` how far they are (what the
    command line draws on a terminal): every cube closed at the end."""
    from satdoku.progress import reporting
    seen = []
    with reporting(lambda *figures: seen.append(figures)):
        counted = satdoku.count(INKALA, cube=3, cube_on="cells")
    assert counted.status == "unique"
    assert {stage for stage, *_ in seen} == {"splitting on cells", "cubes done"}
    stage, done, total, note = seen[-1]
    assert stage == "cubes done" and done == total > 1 and note == "1 solution"


def test_counting_cubes_of_many_solutions():
    """A cube that gives a solution is asked again at once, so one of hundreds of solutions
    counts them all (the budget no longer doubles past what the solver takes); the empty
    4x4 has 288 grids."""
    for on in ("cells", "lookahead"):
        counted = satdoku.count("." * 16, limit=300, cube=1, cube_on=on, stats=True)
        assert (counted.status, counted.count) == ("multiple", 288), on
        assert counted.stats["cubes_open"] == 0


def test_a_counted_cube_not_done_is_a_time_out(monkeypatch):
    """Counting, a cube that gave a solution is not done until it is refuted: a time limit
    while it is asked again is a time-out, never 'unique'."""
    grid = parse_puzzle(INKALA).grid
    solution = tuple(int(ch) for ch in INKALA_SOLUTION)
    events = [("cube", 0, "unsat", 5, 0.0), ("cube", 1, "sat", 7, 0.0),
              ("solution", 1, solution), ("cube", 1, "open", 500, 0.1)]
    monkeypatch.setattr(CubeSolver, "_events", lambda self, *args: (e for e in events))
    from satdoku.sat.splits import Cube
    with CubeSolver(depth=1) as s:
        cubes = [Cube((1,), 0), Cube((-1,), 0)]
        solutions = []
        with pytest.raises(TimeUp):
            s._conquer(grid, (), cubes, 2, Deadline(1e-9), solutions)
    assert len(solutions) == 1 and [c.done for c in cubes] == [True, False]


def test_cubes_on_cells_of_a_reduced_formula():
    """A 25x25 puzzle gets the reduced formula: each cell's variables (``cell_vars``, which
    cubing reads in one pass, not a digit at a time) are those ``lit`` gives, and counted
    through cell cubes it is unique and equal to its plain count's solution."""
    from conftest import PUZZLES
    from satdoku.cnf.reduced import reduced_formula
    line = next(s for s in (PUZZLES / "25x25.txt").read_text().splitlines()
                if s and not s.startswith("#"))
    grid = parse_puzzle(line).grid
    varmap = reduced_formula(grid).varmap
    for cell in range(grid.geometry.ncells):
        assert varmap.cell_vars(cell) == [v for v in (varmap.lit(cell, d) for d in
                                                      range(1, 26)) if type(v) is int]
    plain = satdoku.count(line)
    cubed = satdoku.count(line, cube=2, cube_on="cells", stats=True)
    assert cubed.status == plain.status == "unique" and cubed.solution == plain.solution
