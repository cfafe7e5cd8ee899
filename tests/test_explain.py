"""explain: minimal cores of unsolvable puzzles (checked independently by the native solver),
two solutions of ambiguous ones, techniques of unique ones."""

import random

import pytest

from satdoku.explain import explain, format_explanation, minimal_core
from satdoku.formats import parse_puzzle
from satdoku.generate import full_grid, make_puzzle
from satdoku.geometry import geometry
from satdoku.grid import Grid, find_clash, is_solution
from satdoku.sat import SatSolver
from satdoku.search import NativeSolver

SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
SEVENTEEN_SOLUTION = ("693784512487512936125963874932651487568247391741398625319475268856129743"
                      "274836159")


def _only(grid: Grid, cells) -> Grid:
    keep = set(cells)
    return Grid(grid.geometry, tuple(d if i in keep else 0 for i, d in enumerate(grid.cells)))


def _solve_elsewhere(grid: Grid):
    """The native solver's answer; on a near-empty 16x16 grid, where it can search for long, a
    fresh MiniSat's (not the solver that found the core)."""
    result = NativeSolver().solve(grid, timeout=0.2)
    if result.status == "timeout":
        with SatSolver("minisat22", incremental=False) as other:
            result = other.solve(grid)
    return result


def assert_minimal_core(grid: Grid, core):
    """Independently of how it was found: the core's givens have no solution, and without any
    one of them the rest has one (checked by the verifier)."""
    cells = [c for c, _ in core]
    assert all(grid.cells[c] == d for c, d in core)
    assert _solve_elsewhere(_only(grid, cells)).status == "unsolvable"
    for c in cells:
        rest = _only(grid, [x for x in cells if x != c])
        result = _solve_elsewhere(rest)
        assert result.status == "solved", f"{grid.geometry.cell_name(c)} is not needed"
        assert is_solution(result.solution, rest)


def _planted(puzzle: Grid, solution: Grid, rng: random.Random) -> tuple[Grid, int]:
    """``puzzle`` (unique, solution ``solution``) with a wrong digit planted in an empty cell,
    chosen so that no two givens clash directly."""
    empties = [i for i, d in enumerate(puzzle.cells) if not d]
    rng.shuffle(empties)
    for cell in empties:
        for d in range(1, puzzle.size + 1):
            if d == solution.cells[cell]:
                continue
            cells = list(puzzle.cells)
            cells[cell] = d
            planted = Grid(puzzle.geometry, tuple(cells))
            if find_clash(planted) is None:
                return planted, cell
    raise AssertionError("nowhere to plant")


def test_planted_clash_found_after_propagation_and_core_minimal():
    puzzle = parse_puzzle(SEVENTEEN).grid
    solution = parse_puzzle(SEVENTEEN_SOLUTION).grid
    planted, cell = _planted(puzzle, solution, random.Random(4))
    assert find_clash(planted) is None  # nothing repeats: the clash needs propagation
    expl = explain(planted)
    assert expl.status == "unsolvable"
    assert cell in [c for c, _ in expl.core]  # the givens without it have a solution
    assert len(expl.core) < planted.nclues
    assert_minimal_core(planted, expl.core)


def test_five_givens_leave_no_place_for_a_5_in_row_1():
    # 5s at r2c1, r3c4, r4c7, r7c8 keep 5 out of r1c1..r1c8; r1c9 holds a 1.
    cells = [0] * 81
    for (r, c), d in {(1, 0): 5, (2, 3): 5, (3, 6): 5, (6, 7): 5, (0, 8): 1}.items():
        cells[r * 9 + c] = d
    grid = Grid(geometry(3, 3), tuple(cells))
    expl = explain(grid)
    assert expl.status == "unsolvable"
    assert expl.core == [(8, 1), (9, 5), (21, 5), (33, 5), (61, 5)]
    text = format_explanation(expl)
    assert "r1c9=1, r2c1=5, r3c4=5, r4c7=5, r7c8=5" in text
    assert text.count("[") == 5  # each core given marked on the grid


@pytest.mark.parametrize("box,seed,holes,count", [((2, 2), 1, 0.67, 3), ((2, 3), 2, 0.67, 3),
                                                  ((3, 3), 3, 0.67, 3), ((3, 3), 5, 0.67, 3),
                                                  ((4, 4), 6, 0.4, 1)])
def test_cores_of_random_unsolvable_puzzles_are_minimal(box, seed, holes, count):
    rng = random.Random(seed)
    geo = geometry(*box)
    native = NativeSolver()
    checked = 0
    with SatSolver() as sat:
        while checked < count:
            full = full_grid(geo, rng)
            puzzle = make_puzzle(full, rng, int(geo.ncells * holes))
            planted, _ = _planted(puzzle, full, rng)
            if native.solve(planted).status != "unsolvable":
                continue  # the puzzle had other solutions, one of which fits the planted digit
            core, calls = minimal_core(sat, planted)
            assert calls >= len(core) + 1
            assert_minimal_core(planted, core)
            checked += 1


def test_solvable_puzzle_has_no_core():
    with SatSolver() as sat:
        assert minimal_core(sat, parse_puzzle(SEVENTEEN).grid) == (None, 1)


def test_multiple_solutions_and_where_they_differ():
    grid = parse_puzzle("." * 81).grid
    expl = explain(grid)
    assert expl.status == "multiple"
    assert is_solution(expl.solution, grid) and is_solution(expl.second, grid)
    assert expl.differing == expl.solution.differences(expl.second) != []
    record = expl.as_dict()
    assert record["differing"][0].startswith("r")


def test_unique_puzzle_says_what_it_takes():
    expl = explain(parse_puzzle(SEVENTEEN).grid)
    assert expl.status == "unique"
    assert expl.solution == parse_puzzle(SEVENTEEN_SOLUTION).grid
    assert expl.steps.hardest == "hidden singles"
    assert expl.search == {"nodes": 1, "guesses": 0, "backtracks": 0}
    record = expl.as_dict()
    assert record["techniques"]["hidden_singles"] == expl.steps.hidden
    assert "it takes hidden singles" in format_explanation(expl)


def test_as_dict_of_a_core_names_cells_and_symbols():
    grid = parse_puzzle("123." "...4" "...." "....").grid
    record = explain(grid).as_dict()
    assert record["status"] == "unsolvable"
    # r1c3 and r1c4 must hold 3 and 4, but the 4 at r2c4 shares their box: r1c3 is not needed.
    assert record["core"] == [{"cell": "r1c1", "digit": "1"}, {"cell": "r1c2", "digit": "2"},
                              {"cell": "r2c4", "digit": "4"}]
