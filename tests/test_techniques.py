"""The technique grader: counts, the hardest technique, and agreement with the solvers."""

import random

import pytest

from satdoku.formats import parse_puzzle
from satdoku.generate import full_grid, make_puzzle
from satdoku.geometry import geometry
from satdoku.grid import Grid, is_solution
from satdoku.search import NativeSolver
from satdoku.techniques import TECHNIQUES, solve_by_techniques

# Solved by naked singles alone: every empty cell of this 4x4 has one candidate at once.
NAKED_4X4 = "1..4.4..2..3...1"
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
# 'sample' of Sudoku Redux: needs guessing after the techniques stall.
SAMPLE_HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_naked_singles_only():
    steps = solve_by_techniques(parse_puzzle(NAKED_4X4).grid)
    assert steps.hardest == "naked singles" and steps.level == 0
    assert (steps.naked, steps.hidden, steps.locked, steps.open_cells) == (10, 0, 0, 0)


def test_hidden_singles_counted_and_solution_right():
    grid = parse_puzzle(SEVENTEEN).grid
    steps = solve_by_techniques(grid)
    assert steps.hardest == "hidden singles"
    assert steps.naked + steps.hidden == 81 - 17
    assert steps.hidden > 0 and steps.locked == 0
    assert is_solution(steps.solution, grid)


def test_hidden_single_found_where_no_naked_single_exists():
    # Row 1 needs a 1: r2c3 keeps it out of r1c3 and r1c4 (their box), r3c2 out of r1c2 (its
    # column), so r1c1 is its only place, though r1c1 still has all four candidates.
    cells = [0] * 16
    cells[6], cells[9] = 1, 1  # r2c3, r3c2
    steps = solve_by_techniques(Grid(geometry(2, 2), tuple(cells)))
    assert not steps.contradiction
    assert steps.naked == 0 and steps.hidden >= 1


def test_locked_candidates_needed():
    grid = parse_puzzle(SAMPLE_HARD).grid
    steps = solve_by_techniques(grid)
    assert steps.locked > 0
    assert steps.hardest == "locked candidates"
    assert is_solution(steps.solution, grid)


def test_stalls_into_guessing_on_an_empty_grid():
    steps = solve_by_techniques(Grid(geometry(3, 3), (0,) * 81))
    assert steps.hardest == "guessing" and steps.level == 3
    assert steps.open_cells == 81 and steps.solution is None


def test_contradiction_is_reported():
    # r1c4 has no digit left: 1, 2, 3 in its row, 4 in its column.
    steps = solve_by_techniques(parse_puzzle("123." "...4" "...." "....").grid)
    assert steps.contradiction and steps.hardest == "guessing"


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_never_wrong_on_random_puzzles(box):
    # Whatever the techniques place must agree with the (unique or not) native answer when
    # they finish, and they never claim a contradiction on a puzzle cut from a valid grid.
    rng = random.Random(sum(box))
    geo = geometry(*box)
    for _ in range(20):
        full = full_grid(geo, rng)
        puzzle = make_puzzle(full, rng, rng.randrange(geo.ncells // 2, geo.ncells))
        steps = solve_by_techniques(puzzle)
        assert not steps.contradiction
        if steps.solution is not None:
            assert is_solution(steps.solution, puzzle)
            assert steps.naked + steps.hidden == geo.ncells - puzzle.nclues
        native = NativeSolver().solve(puzzle, limit=2)
        if steps.solution is not None and native.status == "unique":
            assert steps.solution == native.solution


def test_techniques_named_easiest_first():
    assert TECHNIQUES == ("naked singles", "hidden singles", "locked candidates", "guessing")
