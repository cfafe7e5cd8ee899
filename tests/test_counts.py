"""Published counts, reproduced by satdoku's counting: 288 4x4 grids, 39,168 6x6 grids with
their first row fixed (28,200,960 / 6!), and a slice of OEIS A109252 a(4) (the whole term,
25,728, is scripts/a109252.py: about a minute)."""

import itertools
import runpy

import pytest

from conftest import ROOT, all_solutions
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, solution_problems
from satdoku.tasks.solvers import make_solver, solve


@pytest.mark.parametrize("method", ["sat", "native"])
def test_4x4_has_288_grids(method):
    with make_solver(method) as solver:
        result = solve(solver, Grid(geometry(2, 2), (0,) * 16), limit=1000)
    assert (result.status, result.count) == ("multiple", 288)


def test_6x6_with_the_first_row_fixed_has_39168_grids():
    """Row 1 is 1 2 3 4 5 6; with 2x3 boxes row 2 holds 4 5 6 under the first box and 1 2 3
    under the second, in any order: 36 ways. Relabelling 4 5 6 and then reordering columns 4-6
    to put row 1 back maps any left half to 4 5 6, so the 6 ways with that left half, counted
    one by one, are a sixth of the grids (28,200,960 6x6 grids in all, the published count,
    over the 6! orders of row 1)."""
    geo = geometry(2, 3)
    counts = []
    with make_solver("sat", stats=False) as solver:
        solver.steer = True  # as a batch of satdoku count does
        for right in itertools.permutations((1, 2, 3)):
            grid = Grid(geo, (1, 2, 3, 4, 5, 6) + (4, 5, 6) + right + (0,) * 24)
            result = solve(solver, grid, limit=5000)
            assert result.status == "multiple"
            counts.append(result.count)
    assert 6 * sum(counts) == 39_168 == 28_200_960 // 720


@pytest.fixture(scope="module")
def a109252():
    return runpy.run_path(str(ROOT / "scripts" / "a109252.py"))


def test_the_script_enumerates_the_288_grids(a109252):
    grids = a109252["all_grids"]()
    assert len(grids) == len(set(grids)) == 288
    geo = geometry(2, 2)
    assert all(not solution_problems(Grid(geo, g), Grid(geo, (0,) * 16)) for g in grids)


def test_a109252_slice_agrees_with_brute_force(a109252):
    """The first grid's 1820 four-clue puzzles: satdoku's count of the unique ones against
    plain backtracking over every puzzle."""
    grids = a109252["all_grids"]()[:1]
    puzzles, unique = a109252["unique_puzzles"](grids)
    geo = geometry(2, 2)
    expected = 0
    for chosen in itertools.combinations(range(16), 4):
        cells = tuple(grids[0][i] if i in chosen else 0 for i in range(16))
        expected += len(all_solutions(Grid(geo, cells))) == 1
    assert (puzzles, unique) == (1820, expected)
    assert 0 < unique < 1820
