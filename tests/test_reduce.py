"""reduce: the reduced encoding keeps every solution, maps its variables back, exports DIMACS."""

import io
import itertools
import time
from pathlib import Path

import pytest

from satdoku.generate import pattern_grid
from satdoku.geometry import geometry
from satdoku.grid import Grid, is_solution
from satdoku.reduce import (ReducedSatSolver, decode_reduced, reduce_candidates,
                            reduced_formula, write_reduced_dimacs)
from satdoku.sat import SatSolver
from satdoku.solvers import verify

LARGE = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "large"

SOLVERS = ["cadical195", "minisat22", "glucose4"]

SAMPLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
SAMPLE_HARD = ".714....5....5..8...39.76.......1....9...6..3......82.....4...83......9.....85..."


def grid_9x9(text):
    return Grid(geometry(3, 3), tuple(0 if ch == "." else int(ch) for ch in text))


def pattern_solution(box_rows, box_cols):
    return pattern_grid(geometry(box_rows, box_cols))


def with_holes(grid, every):
    n = grid.size
    cells = [0 if i % every == 0 or (i // n + i % n) % 3 == 0 else d
             for i, d in enumerate(grid.cells)]
    return Grid(grid.geometry, tuple(cells))


PUZZLES = {
    "sample": grid_9x9(SAMPLE),
    "17-clue": grid_9x9(SEVENTEEN),
    "4x4": Grid(geometry(2, 2), (1, 0, 3, 0, 0, 4, 0, 2, 0, 3, 4, 0, 4, 0, 2, 3)),
    "6x6": with_holes(pattern_solution(2, 3), 2),
    "12x12": with_holes(pattern_solution(3, 4), 2),
}

# No two givens clash, yet r1c4 must be 4 and column 4 already has a 4.
UNSOLVABLE_4X4 = Grid(geometry(2, 2), (1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0))


@pytest.mark.parametrize("name", sorted(PUZZLES))
@pytest.mark.parametrize("propagate", [True, False])
@pytest.mark.parametrize("amo", ["seqcounter", "pairwise"])
def test_reduced_solves_small_grids(name, propagate, amo):
    grid = PUZZLES[name]
    with ReducedSatSolver("cadical195", amo=amo, propagate=propagate, pairwise_max=3) as s:
        result = verify(s.solve(grid, limit=2), grid)
    with SatSolver("minisat22") as full:
        expected = full.solve(grid, limit=2).status
    assert result.status == expected, result.message
    assert is_solution(result.solution, grid)
    assert result.encoding == "reduced" and result.solver == "sat:cadical195"


@pytest.mark.parametrize("sat_solver", SOLVERS)
def test_counts_several_solutions(sat_solver):
    grid = grid_9x9(SAMPLE_HARD)
    with ReducedSatSolver(sat_solver) as s:
        result = verify(s.solve(grid, limit=2), grid)
    assert result.status == "multiple" and result.count == 2
    assert result.second != result.solution
    assert is_solution(result.second, grid)


def test_empty_grid_and_full_grid():
    empty = Grid(geometry(2, 3), (0,) * 36)
    full = pattern_solution(2, 3)
    with ReducedSatSolver() as s:
        assert verify(s.solve(empty), empty).status == "solved"
        result = s.solve(full, limit=2)
    assert result.status == "unique" and result.solution == full
    assert result.stats["variables"] == 0


@pytest.mark.parametrize("propagate", [True, False])
def test_unsolvable(propagate):
    with ReducedSatSolver(propagate=propagate) as s:
        result = s.solve(UNSOLVABLE_4X4, limit=2)
    assert result.status == "unsolvable" and result.solution is None


def test_mapping_round_trip():
    grid = PUZZLES["sample"]
    formula = reduced_formula(grid, propagate=False)
    red = reduce_candidates(grid, propagate=False)
    pairs = [formula.pair(v) for v in range(1, formula.nmapped + 1)]
    # every open pair once, cell by cell, digits increasing
    expected = [(cell, d) for cell in range(81) if not grid.cells[cell]
                for d in range(1, 10) if red.cand[cell] >> (d - 1) & 1]
    assert pairs == expected
    assert formula.nvars >= formula.nmapped
    # a model made of the true pairs of a solution decodes to that solution
    with ReducedSatSolver() as s:
        solution = s.solve(grid).solution
    model = [v if solution.cells[c] == d else -v for v, (c, d) in enumerate(pairs, start=1)]
    assert decode_reduced(formula, model) == solution


def test_eliminated_count_on_a_tiny_grid():
    # 2x2 grid with 1x2 boxes (rows are boxes): r1c1 = 1 leaves r1c2 = {2}, r2c1 = {2},
    # r2c2 = {1, 2}: 4 open pairs, 1 settled, 8 - 4 - 1 = 3 eliminated.
    grid = Grid(geometry(1, 2), (1, 0, 0, 0))
    formula = reduced_formula(grid, propagate=False)
    assert (formula.nmapped, formula.eliminated) == (4, 3)
    # with singles everything is settled: 8 - 4 settled = 4 eliminated, no variables
    formula = reduced_formula(grid, propagate=True)
    assert (formula.nmapped, formula.eliminated, formula.clauses) == (0, 4, [])
    assert formula.settled == [1, 2, 2, 1]


def test_propagation_settles_singles():
    red = reduce_candidates(PUZZLES["sample"])
    assert red.contradiction is None and red.assigned > 0
    assert reduce_candidates(UNSOLVABLE_4X4).contradiction is not None


@pytest.mark.parametrize("amo,pairwise_max", [("pairwise", 16), ("seqcounter", 2),
                                              ("ladder", 2)])
def test_amo_threshold_shapes_clauses(amo, pairwise_max):
    grid = PUZZLES["17-clue"]
    formula = reduced_formula(grid, amo=amo, propagate=False, pairwise_max=pairwise_max)
    if amo == "pairwise":
        assert formula.nvars == formula.nmapped
        assert all(len(c) == 2 for c in formula.clauses if c[0] < 0)
    else:
        assert formula.nvars > formula.nmapped
    with ReducedSatSolver(amo=amo, pairwise_max=pairwise_max, propagate=False) as s:
        assert verify(s.solve(grid, limit=2), grid).status == "unique"


def test_dimacs_export_is_well_formed():
    grid = PUZZLES["17-clue"]
    formula = reduced_formula(grid, amo="seqcounter", propagate=False, pairwise_max=4)
    out = io.StringIO()
    write_reduced_dimacs(formula, out, puzzle_text=SEVENTEEN, version="test")
    lines = out.getvalue().splitlines()
    header = [i for i, line in enumerate(lines) if line.startswith("p cnf ")]
    assert len(header) == 1
    comments, body = lines[:header[0]], lines[header[0] + 1:]
    assert all(line.startswith("c") for line in comments)
    assert f"c puzzle: {SEVENTEEN}" in comments
    nvars, nclauses = map(int, lines[header[0]].split()[2:])
    assert (nvars, nclauses) == (formula.nvars, len(formula.clauses))
    assert len(body) == nclauses
    for line in body:
        lits = list(map(int, line.split()))
        assert lits[-1] == 0 and all(0 < abs(x) <= nvars for x in lits[:-1])
    # the mapping lines name every mapped variable once, with its cell and digit
    mapped = {}
    for line in comments:
        if line.startswith("c cell "):
            _, _, name, _, span, _, *digits = line.split()
            first, _, last = span.partition("-")
            vs = range(int(first), int(last or first) + 1)
            assert len(vs) == len(digits)
            for v, d in zip(vs, digits):
                mapped[v] = (name, int(d))
    assert sorted(mapped) == list(range(1, formula.nmapped + 1))
    cell, d = formula.pair(1)
    assert mapped[1] == (grid.geometry.cell_name(cell), d)


def test_timeout_is_kept():
    # an empty 16x16 grid is easy, but a zero-ish budget must come back as timeout quickly
    grid = Grid(geometry(4, 4), (0,) * 256)
    for name in ("cadical195", "minisat22"):
        with ReducedSatSolver(name) as s:
            start = time.perf_counter()
            result = s.solve(grid, timeout=1e-6)
            assert time.perf_counter() - start < 5
            assert result.status in ("timeout", "solved")


def _load_large(name):
    path = LARGE / name
    if not path.exists():
        pytest.skip("shared puzzles absent")
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    n = len(rows)
    from satdoku.geometry import geometry_for_size
    cells = tuple(0 if x in (".", "0") else int(x) for x in itertools.chain(*rows))
    return Grid(geometry_for_size(n), cells)


def test_large_100x100_solves():
    grid = _load_large("rkkautsar_sudoku-100-1.txt")
    with ReducedSatSolver() as s:
        result = verify(s.solve(grid, timeout=60), grid)
    assert result.status == "solved", result.message
    assert result.stats["eliminated"] > 0.9 * 100 ** 3


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


@pytest.mark.parametrize("name", sorted(PUZZLES) + ["pointing", "claiming", "hard"])
def test_locked_candidates_keep_every_solution(name):
    grid = {"pointing": POINTING, "claiming": CLAIMING,
            "hard": grid_9x9(SAMPLE_HARD)}.get(name) or PUZZLES[name]
    with ReducedSatSolver(locked=True) as s:
        result = verify(s.solve(grid, limit=2), grid)
    with SatSolver("minisat22") as full:
        expected = full.solve(grid, limit=2).status
    assert result.status == expected, result.message
    # every pair of a solution survives locked candidates
    red = reduce_candidates(grid, locked=True)
    assert all(red.cand[i] >> (d - 1) & 1 for i, d in enumerate(result.solution.cells))
