"""candidates: the true candidates of every empty cell, checked against brute force."""

from conftest import SMALL, all_solutions, grid_of
from satdoku.tasks.candidates import true_candidates
from satdoku.rules import Killer
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid


def test_true_candidates_are_the_digits_of_some_solution():
    puzzles = [(grid_of("1..............1"), ()), (grid_of(SMALL), ()),
               (Grid(geometry(2, 2), (0,) * 16), (Killer((0, 1), 3), Killer((14, 15), 7)))]
    for grid, rules in puzzles:
        found = true_candidates(grid, constraints=rules)
        solutions = all_solutions(grid, rules)
        expected = {c: sorted({s.cells[c] for s in solutions})
                    for c, d in enumerate(grid.cells) if not d}
        assert found.digits == expected
        assert found.status == ("unique" if len(solutions) == 1 else "multiple")


def test_no_solution_no_candidates():
    found = true_candidates(grid_of("123." "...4" "...." "...."))
    assert found.status == "unsolvable" and all(not d for d in found.digits.values())
