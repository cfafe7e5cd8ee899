"""search: the native solver finds valid solutions, counts, proves unsolvable and keeps time."""

import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satdoku.deadline import Deadline
from satdoku.errors import SolverError
from satdoku.generate import full_grid, make_puzzle
from satdoku.geometry import geometry
from satdoku.grid import Grid, is_solution
from satdoku.search import NativeSolver

ALPHABET = "123456789ABCDEFGHIJKLMNOP"
PUZZLE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "puzzles"


def parse(text, box_rows, box_cols):
    return Grid(geometry(box_rows, box_cols),
                tuple(0 if ch == "." else ALPHABET.index(ch) + 1 for ch in text))


SAMPLE = parse(".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85...", 3, 3)
SAMPLE_HARD = parse(
    ".714....5....5..8...39.76.......1....9...6..3......82.....4...83......9.....85...", 3, 3)
SAMPLE_SMALL = parse("1.3..4.2.34.4.23", 2, 2)
SIX = parse("..1...6...3.3...5....6....2.......61", 2, 3)  # 2x3 boxes, unique
TWELVE = parse(  # 3x4 boxes, unique, 51 givens, needs search
    "...C..2...1..A4......5.7B...7...2A9....7.4.3...9A3.....2........175..3...9...3..4.2.7.5.A..."
    "89...CA26.8.7..59.2.B5..C...C.3......8...8......946.", 3, 4)
TWELVE_SOLUTION = parse(
    "357C492AB6182A4981B635C7B6817C352A945B17C4A36289A3C498625B716298175BA34C896B53714C2A7153A24C"
    "89B64CA26B8971359426B518C7A3C73A2694185B18B53AC79462", 3, 4)

# Givens that do not clash, but r1c4 has no candidate left (1, 2, 3 in its row, 4 below it).
DEAD_CELL = parse("123........4....", 2, 2)
# sampleHard plus two givens that do not clash: propagation stalls and only search shows there
# is no solution.
DEAD_AFTER_SEARCH = parse(
    ".714....5....5..8...39.76.......1....95..6..3......82.....4...83......9.....857..", 3, 3)

# magictour top1465 no. 82: singles stall, locked candidates finish it without a guess.
NEEDS_LOCKED = parse(
    ".......92.37.......4.......8...6.1.......43.......9...2...5...6...1..74....8.....", 3, 3)

UNIQUE = {"4x4": SAMPLE_SMALL, "6x6": SIX, "sample": SAMPLE, "12x12": TWELVE,
          "locked": NEEDS_LOCKED}


@pytest.fixture
def solver():
    with NativeSolver() as s:
        yield s


def test_solver_protocol(solver):
    assert solver.name == "native" and solver.encoding is None
    result = solver.solve(SAMPLE)
    assert result.solver == "native" and result.encoding is None
    assert result.time_ms > 0
    assert set(result.stats) == {"nodes", "guesses", "backtracks", "no_guess"}


@pytest.mark.parametrize("name", UNIQUE)
def test_unique_puzzles_solved_and_counted(solver, name):
    puzzle = UNIQUE[name]
    first = solver.solve(puzzle)
    assert first.status == "solved" and first.count is None
    assert is_solution(first.solution, puzzle)
    counted = solver.solve(puzzle, limit=2)
    assert (counted.status, counted.count, counted.second) == ("unique", 1, None)
    assert counted.solution == first.solution


def test_twelve_by_twelve_solution(solver):
    assert solver.solve(TWELVE).solution == TWELVE_SOLUTION


def test_multiple_solutions_counted(solver):
    result = solver.solve(SAMPLE_HARD, limit=2)
    assert (result.status, result.count) == ("multiple", 2)
    assert is_solution(result.solution, SAMPLE_HARD)
    assert is_solution(result.second, SAMPLE_HARD)
    assert result.solution != result.second


def test_count_stops_at_limit(solver):
    result = solver.solve(SAMPLE_HARD, limit=5)
    assert (result.status, result.count) == ("multiple", 5)


def test_empty_grid_has_many_solutions(solver):
    empty = Grid(geometry(3, 3), (0,) * 81)
    result = solver.solve(empty, limit=3)
    assert (result.status, result.count) == ("multiple", 3)
    assert is_solution(result.solution, empty) and is_solution(result.second, empty)


@pytest.mark.parametrize("limit", [1, 2])
def test_dead_cell_unsolvable_without_search(solver, limit):
    result = solver.solve(DEAD_CELL, limit=limit)
    assert result.status == "unsolvable" and result.solution is None
    assert result.stats["guesses"] == 0 and result.stats["no_guess"]


@pytest.mark.parametrize("limit", [1, 2])
def test_unsolvable_only_after_search(solver, limit):
    result = solver.solve(DEAD_AFTER_SEARCH, limit=limit)
    assert result.status == "unsolvable" and result.solution is None
    assert result.count == (0 if limit == 2 else None)
    assert result.stats["guesses"] > 0 and result.stats["backtracks"] > 0
    assert not result.stats["no_guess"]


def test_clashing_givens_are_unsolvable(solver):
    assert solver.solve(parse("11" + "." * 14, 2, 2)).status == "unsolvable"


def test_stats_easy_puzzle_needs_no_guess(solver):
    result = solver.solve(SIX)
    assert result.stats == {"nodes": 1, "guesses": 0, "backtracks": 0, "no_guess": True}


def test_stats_hard_puzzle_guesses(solver):
    result = solver.solve(SAMPLE_HARD)
    stats = result.stats
    assert stats["guesses"] > 0 and not stats["no_guess"]
    assert stats["nodes"] == stats["guesses"] + 1
    assert 0 <= stats["backtracks"] <= stats["guesses"]


def test_search_is_deterministic(solver):
    a, b = solver.solve(SAMPLE_HARD, limit=3), solver.solve(SAMPLE_HARD, limit=3)
    assert (a.solution, a.second, a.stats) == (b.solution, b.second, b.stats)


def test_locked_candidates_save_guesses():
    with_locked = NativeSolver().solve(NEEDS_LOCKED, limit=2)
    singles = NativeSolver(locked_candidates=False).solve(NEEDS_LOCKED, limit=2)
    assert with_locked.stats == {"nodes": 1, "guesses": 0, "backtracks": 0, "no_guess": True}
    assert singles.stats["guesses"] > 0
    assert with_locked.solution == singles.solution and with_locked.status == "unique"


@pytest.mark.parametrize("locked", [True, False])
@pytest.mark.parametrize("name", ["sample", "12x12", "locked"])
def test_locked_candidates_keep_answers(name, locked):
    puzzle = UNIQUE[name]
    result = NativeSolver(locked_candidates=locked).solve(puzzle, limit=2)
    assert result.status == "unique" and is_solution(result.solution, puzzle)


def test_rejects_limit_below_one(solver):
    with pytest.raises(SolverError):
        solver.solve(SAMPLE, limit=0)


def test_timeout_on_big_empty_grid(solver):
    empty = Grid(geometry(8, 8), (0,) * 64 * 64)
    start = time.perf_counter()
    result = solver.solve(empty, deadline=Deadline(0.2))
    assert result.status == "timeout" and result.solution is None
    assert time.perf_counter() - start < 2.0


def test_timeout_keeps_solutions_found_while_counting(solver):
    # An empty 9x9 grid has about 6.7e21 solutions: counting them never ends in time.
    full = full_grid(geometry(3, 3), random.Random(0))
    puzzle = make_puzzle(full, random.Random(0), 81)
    result = solver.solve(puzzle, limit=10**9, deadline=Deadline(0.2))
    assert result.status == "timeout"
    assert result.count >= 2 and is_solution(result.second, puzzle)


def test_solver_is_reusable_across_geometries(solver):
    for puzzle in (SAMPLE, SIX, SAMPLE_SMALL, TWELVE, SAMPLE):
        assert is_solution(solver.solve(puzzle).solution, puzzle)


BOXES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2), (1, 4)]


@settings(max_examples=60, deadline=None)
@given(box=st.sampled_from(BOXES), seed=st.integers(0, 2**32 - 1),
       fraction=st.floats(0.0, 1.0), locked=st.booleans())
def test_random_puzzles_solved_keeping_givens(box, seed, fraction, locked):
    rng = random.Random(seed)
    full = full_grid(geometry(*box), rng)
    puzzle = make_puzzle(full, rng, round(fraction * full.geometry.ncells))
    result = NativeSolver(locked_candidates=locked).solve(puzzle, limit=2)
    assert result.status in ("unique", "multiple")
    assert is_solution(result.solution, puzzle)
    if result.status == "multiple":
        assert is_solution(result.second, puzzle) and result.second != result.solution
    else:
        assert result.solution == full


@settings(max_examples=20, deadline=None)
@given(box=st.sampled_from(BOXES), seed=st.integers(0, 2**32 - 1))
def test_full_grid_is_valid(box, seed):
    full = full_grid(geometry(*box), random.Random(seed))
    assert is_solution(full, full)


@pytest.mark.skipif(not PUZZLE_DIR.exists(), reason="shared puzzle collection absent")
def test_first_hard_puzzles_from_collection(solver):
    lines = (PUZZLE_DIR / "9x9" / "forum_hardest_1106.txt").read_text().splitlines()
    puzzles = [parse(line.split()[0], 3, 3) for line in lines if line and line[0] != "#"][:5]
    for puzzle in puzzles:
        result = solver.solve(puzzle, limit=2)
        assert result.status == "unique" and is_solution(result.solution, puzzle)


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]), seed=st.integers(0, 2**32 - 1),
       fraction=st.floats(0.1, 0.5))
def test_locked_candidates_count_like_singles(box, seed, fraction):
    # Sparse puzzles, often with several solutions: both solvers count alike, up to 3.
    rng = random.Random(seed)
    puzzle = make_puzzle(full_grid(geometry(*box), rng), rng, round(fraction * box[0] ** 2 * box[1] ** 2))
    a = NativeSolver().solve(puzzle, limit=3)
    b = NativeSolver(locked_candidates=False).solve(puzzle, limit=3)
    assert (a.status, a.count) == (b.status, b.count)


@pytest.mark.skipif(not PUZZLE_DIR.exists(), reason="shared puzzle collection absent")
def test_25x25_collection_puzzle_within_seconds(solver):
    from satdoku.formats import read_puzzles
    [puzzle] = read_puzzles(str(PUZZLE_DIR / "25x25" / "rkkautsar_sudoku-25-1.txt"))
    result = solver.solve(puzzle.grid, deadline=Deadline(20))
    assert result.status == "solved" and is_solution(result.solution, puzzle.grid)

