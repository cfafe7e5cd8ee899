"""reduce: candidate elimination folds givens and singles away without losing a solution."""

import pytest

from conftest import PUZZLES_BY_NAME, SAMPLE_HARD, UNSOLVABLE_4X4, grid_of
from satdoku.deadline import Deadline, TimeUp
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.model.digits import bits
from satdoku.native.reduce import reduce_candidates
from satdoku.sat.solver import SatSolver


def test_propagation_settles_singles():
    red = reduce_candidates(PUZZLES_BY_NAME["sample"])
    assert red.contradiction is None and red.assigned > 0
    assert all(d == 0 or red.cand[c] == 1 << (d - 1) for c, d in enumerate(red.cells))
    assert "no candidate" in reduce_candidates(grid_of(UNSOLVABLE_4X4)).contradiction


def test_without_propagation_only_givens_are_folded():
    grid = Grid(geometry(1, 2), (1, 0, 0, 0))
    red = reduce_candidates(grid, propagate=False)
    assert red.cells == [1, 0, 0, 0] and red.cand == [1, 2, 2, 3] and red.assigned == 0


def test_bits():
    assert bits(0) == [] and bits(0b100101) == [1, 3, 6]


def _band_grid(givens):
    """A 9x9 grid with ``givens`` as {(row, col): digit}, 0-based."""
    cells = [0] * 81
    for (r, c), d in givens.items():
        cells[r * 9 + c] = d
    return Grid(geometry(3, 3), tuple(cells))


# rows 2 and 3 of box 1 are full of other digits: 1 can only go in r1c1-r1c3 within box 1
POINTING = _band_grid({(1, 0): 2, (1, 1): 3, (1, 2): 4, (2, 0): 5, (2, 1): 6, (2, 2): 7})
# r1c4-r1c9 hold other digits: row 1 has its 1 in box 1, so not in rows 2-3 of box 1
CLAIMING = _band_grid({(0, c): d for c, d in zip(range(3, 9), range(2, 8))})


def test_pointing_takes_the_digit_from_the_rest_of_the_line():
    plain = reduce_candidates(POINTING, locked=False)
    red = reduce_candidates(POINTING, locked=True)
    for col in range(3, 9):
        assert plain.cand[col] & 1 and not red.cand[col] & 1, col
    assert all(red.cand[col] & 1 for col in range(3))
    assert all(red.cand[9 * row + col] & 1 for row in range(3, 9) for col in range(3, 9))


def test_claiming_takes_the_digit_from_the_rest_of_the_box():
    plain = reduce_candidates(CLAIMING, locked=False)
    red = reduce_candidates(CLAIMING, locked=True)
    for cell in (9, 10, 11, 18, 19, 20):
        assert plain.cand[cell] & 1 and not red.cand[cell] & 1, cell
    assert all(red.cand[col] & 1 for col in range(3))


@pytest.mark.parametrize("name", sorted(PUZZLES_BY_NAME) + ["pointing", "claiming", "hard"])
def test_reduction_keeps_every_solution(name):
    grid = {"pointing": POINTING, "claiming": CLAIMING,
            "hard": grid_of(SAMPLE_HARD)}.get(name) or PUZZLES_BY_NAME[name]
    with SatSolver("minisat22", "extended") as full:
        result = full.solve(grid, limit=2)
    for locked in (False, True):
        red = reduce_candidates(grid, locked=locked)
        for solution in (result.solution, result.second):
            if solution is not None:
                assert all(red.cand[i] >> (d - 1) & 1 for i, d in enumerate(solution.cells))


def test_deadline_stops_the_reduction():
    grid = Grid(geometry(8, 8), (0,) * 4096)
    with pytest.raises(TimeUp):
        reduce_candidates(grid, deadline=Deadline(1e-9))
