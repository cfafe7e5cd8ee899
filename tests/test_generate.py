"""Generated puzzles: unique and minimal by independent counting, symmetric, reproducible."""

import pytest

from satdoku.sat import questions
from satdoku.deadline import Deadline
from satdoku.errors import OptionError, SolverError
from satdoku.tasks.generate import (SYMMETRIES, Generator, full_grid, make_puzzle, pattern_grid,
                              symmetry_orbits)
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, is_solution
from satdoku.sat.solver import SatSolver
from satdoku.native.search import NativeSolver


@pytest.fixture(scope="module", autouse=True)
def _glucose():
    with SatSolver("glucose4") as solver:
        GLUCOSE.append(solver)
        yield
        GLUCOSE.clear()


GLUCOSE: list[SatSolver] = []


def count_independently(grid: Grid) -> str:
    """unique / multiple / unsolvable by the native solver (no SAT), or, where its search runs
    long (some 16x16 puzzles), by Glucose: not the solver the generator used."""
    result = NativeSolver().solve(grid, limit=2, deadline=Deadline(0.2))
    if result.status == "timeout":
        result = GLUCOSE[0].solve(grid, limit=2)
    return result.status


def assert_unique_and_minimal(puzzle: Grid, solution: Grid):
    assert is_solution(solution, puzzle)
    assert count_independently(puzzle) == "unique"
    for cell, _ in puzzle.givens():
        cells = list(puzzle.cells)
        cells[cell] = 0
        assert count_independently(Grid(puzzle.geometry, tuple(cells))) == "multiple", \
            f"{puzzle.geometry.cell_name(cell)} could go"


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_unique_and_minimal_by_independent_counting(box):
    with Generator(geometry(*box), seed=11) as gen:
        for _ in range(3):
            made = gen.generate()
            assert made.minimal is True
            assert_unique_and_minimal(made.puzzle, made.solution)


@pytest.mark.slow  # minimal puzzles at 9x9: test_symmetric_and_minimal
def test_minimal_16x16():
    with Generator(geometry(4, 4), seed=3, minimal=True) as gen:
        made = gen.generate()
    assert made.minimal is True
    assert made.puzzle.nclues < 256 * 0.6
    assert_unique_and_minimal(made.puzzle, made.solution)


@pytest.mark.parametrize("box,conflicts", [((3, 4), -1),
                                           pytest.param((5, 5), 1, marks=pytest.mark.slow)])
def test_larger_sizes_are_unique(box, conflicts):
    # 25x25 with a small budget to keep the test short (the default digs for ~15 s).
    with Generator(geometry(*box), seed=2, conflicts=conflicts) as gen:
        made = gen.generate()
    assert made.puzzle.nclues < made.puzzle.geometry.ncells * 0.6
    assert is_solution(made.solution, made.puzzle)
    # Checked by another solver, another way: Glucose with a clause ruling out the solution
    # anywhere (the generator asked CaDiCaL about the emptied cells one at a time).
    with SatSolver("glucose4") as other:
        answer = questions.other_solution(other.backend, made.puzzle, made.solution)
    assert answer == ("unique", None)


def test_same_seed_same_puzzles_other_seed_others():
    def run(seed):
        with Generator(geometry(3, 3), seed=seed) as gen:
            return [gen.generate().puzzle for _ in range(3)]
    first = run(42)
    assert run(42) == first
    assert run(43) != first
    assert len(set(first)) == 3


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_symmetric_patterns(symmetry):
    geo = geometry(3, 3)
    orbits = symmetry_orbits(geo, symmetry)
    assert sorted(c for o in orbits for c in o) == list(range(81))
    with Generator(geo, seed=5, symmetry=symmetry) as gen:
        made = gen.generate()
    given = {c for c, _ in made.puzzle.givens()}
    for orbit in orbits:
        assert set(orbit) <= given or not set(orbit) & given
    assert count_independently(made.puzzle) == "unique"
    # Each given is tested alone too: 'not minimal' means one of them can go.
    assert made.minimal in (True, False)
    removable = []
    for cell in given:
        cells = list(made.puzzle.cells)
        cells[cell] = 0
        if count_independently(Grid(geo, tuple(cells))) == "unique":
            removable.append(cell)
    assert made.minimal == (not removable)


def test_symmetric_and_minimal():
    with Generator(geometry(3, 3), seed=1, symmetry="rotate180", minimal=True) as gen:
        made = gen.generate()
    assert made.minimal is True
    assert_unique_and_minimal(made.puzzle, made.solution)


def test_orbits_of_each_symmetry():
    geo = geometry(2, 2)
    assert symmetry_orbits(geo, "rotate180")[0] == (0, 15)
    assert symmetry_orbits(geo, "mirror")[0] == (0, 3)
    assert symmetry_orbits(geo, "rotate90")[0] == (0, 3, 12, 15)
    assert len(symmetry_orbits(geometry(3, 3), "rotate90")) == 21  # 20 of 4 cells, the centre
    with pytest.raises(OptionError, match="unknown symmetry"):
        symmetry_orbits(geo, "twirl")


def test_max_clues_kept_and_impossible_asks_refused():
    with Generator(geometry(3, 3), seed=8, max_clues=23) as gen:
        assert all(gen.generate().puzzle.nclues <= 23 for _ in range(2))
    with Generator(geometry(3, 3), seed=8, max_clues=10, attempts=3) as gen:
        with pytest.raises(SolverError, match="no puzzle with at most 10 clues found in 3 grids"):
            gen.generate()


def test_budget_out_keeps_givens_and_says_minimality_unknown():
    with Generator(geometry(3, 3), seed=4, conflicts=1) as gen:
        made = gen.generate()
        # With one conflict a check settles little beyond propagation: givens stay, proven
        # unique, not proven minimal.
        assert made.minimal is None
        assert count_independently(made.puzzle) == "unique"


def test_test_grids_are_valid():
    import random
    geo = geometry(2, 3)
    assert is_solution(pattern_grid(geo), pattern_grid(geo))
    full = full_grid(geo, random.Random(0))
    assert is_solution(full, make_puzzle(full, random.Random(0), 10))


def test_puzzles_with_rules_are_unique_under_them_and_reproducible():
    from conftest import MIRACLE_EMPTY, all_solutions
    from satdoku.io.inputs import read_puzzle
    from satdoku.rules import Killer
    from satdoku.tasks.generate import Generator
    miracle = read_puzzle(MIRACLE_EMPTY)
    geo = miracle.grid.geometry
    made = []
    for _ in range(2):
        with Generator(geo, seed=5, constraints=miracle.constraints) as gen:
            made.append(gen.generate())
    assert made[0].puzzle == made[1].puzzle and made[0].minimal
    with SatSolver() as sat:
        counted = sat.solve(made[0].puzzle, limit=2, constraints=miracle.constraints)
    assert counted.status == "unique" and counted.solution == made[0].solution
    # 4x4 with two cages and a given kept: brute force agrees it is unique.
    g4 = geometry(2, 2)
    givens = Grid(g4, (0,) * 10 + (2,) + (0,) * 5)
    rules = (Killer((0, 1), 3), Killer((14, 15), 7))
    with Generator(g4, seed=1, constraints=rules, givens=givens) as gen:
        four = gen.generate()
    assert four.puzzle.cells[10] == 2 and len(all_solutions(four.puzzle, rules)) == 1


def test_generate_rules_difficulty_and_line_output_read_back(run, tmp_path):
    import json
    from conftest import PUZZLES
    killer = PUZZLES / "variants" / "6x6-extreme-killer.json"
    result = run("generate", "--rules", killer, "--seed", "1", "--format", "line",
                 "--difficulty", "fiendish")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["format"] == "satdoku-variant" and len(doc["constraints"]) == 8
    back = tmp_path / "made.jsonl"
    back.write_text(result.stdout)
    rated = json.loads(run("rate", back, "--format", "json").stdout)
    assert (rated["status"], rated["label"]) == ("unique", "fiendish")
    assert run("generate", "--rules", killer, "--box", "2x3").exit_code == 2


def test_the_time_limit_bounds_each_puzzle():
    # A 36x36 grid cannot be dug in a fifth of a second: the generator says so instead of
    # running on (an 81x81 one would run for hours).
    import time
    start = time.perf_counter()
    with Generator(geometry(6, 6), seed=1, timeout=0.2) as gen:
        with pytest.raises(SolverError, match="time limit of 0.2 s reached"):
            gen.generate()
    assert time.perf_counter() - start < 5
    with Generator(geometry(2, 2), seed=1, timeout=30, minimal=True) as gen:
        made = gen.generate()  # unbounded checks run in slices under a time limit
    assert made.minimal and is_solution(made.solution, made.puzzle)
