"""candidates: the true candidates of every empty cell, checked against brute force."""

from conftest import SMALL, grid_of
from satdoku.candidates import true_candidates
from satdoku.constraints import Killer
from satdoku.geometry import geometry
from satdoku.grid import Grid


def _all_solutions(grid, constraints=()):
    """Every solution of a small grid, by plain backtracking over the cells."""
    geo, cells, out = grid.geometry, list(grid.cells), []

    def fill(i):
        if i == geo.ncells:
            full = Grid(geo, tuple(cells))
            if all(not c.check(full) for c in constraints):
                out.append(full)
            return
        if grid.cells[i]:
            if all(cells[p] != cells[i] for p in geo.peers[i] if p < i):
                fill(i + 1)
            return
        for d in range(1, geo.size + 1):
            if all(cells[p] != d for p in geo.peers[i] if p < i):
                cells[i] = d
                fill(i + 1)
        cells[i] = 0

    fill(0)
    return out


def test_true_candidates_are_the_digits_of_some_solution():
    puzzles = [(grid_of("1..............1"), ()), (grid_of(SMALL), ()),
               (Grid(geometry(2, 2), (0,) * 16), (Killer((0, 1), 3), Killer((14, 15), 7)))]
    for grid, rules in puzzles:
        found = true_candidates(grid, constraints=rules)
        solutions = _all_solutions(grid, rules)
        expected = {c: sorted({s.cells[c] for s in solutions})
                    for c, d in enumerate(grid.cells) if not d}
        assert found.digits == expected
        assert found.status == ("unique" if len(solutions) == 1 else "multiple")


def test_no_solution_no_candidates():
    found = true_candidates(grid_of("123." "...4" "...." "...."))
    assert found.status == "unsolvable" and all(not d for d in found.digits.values())
