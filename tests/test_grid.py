"""grid: clashing givens are found and named, and the solution checker trusts nothing."""

import pytest

from satdoku.errors import PuzzleError
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, check_givens, find_clash, is_solution, solution_problems

G4 = geometry(2, 2)
SOLUTION = Grid(G4, tuple(int(c) for c in "1234341221434321"))
PUZZLE = Grid(G4, tuple(int(c) for c in "1030040201000020"))


def grid(text, geo=G4):
    return Grid(geo, tuple(int(c) for c in text))


def test_a_right_solution():
    assert solution_problems(SOLUTION, PUZZLE) == [] and is_solution(SOLUTION, PUZZLE)


def test_a_changed_given_is_named():
    other = grid("2143341212344321")  # valid grid, but r1c1 is 2 where the puzzle gives 1
    assert solution_problems(other, PUZZLE)[0] == "r1c1: given 1 changed to 2"


@pytest.mark.parametrize("text, problem", [
    ("1234341221434331", "row 4 lacks 2"),  # r4c3 holds 3 instead of 2
    ("1234341221434331", "column 3 lacks 2"),
    ("1234341221434331", "box 4 lacks 2"),
    ("0234341221434321", "r1c1: 0 is not a digit 1..4"),
    ("5234341221434321", "r1c1: 5 is not a digit 1..4"),
])
def test_broken_solutions(text, problem):
    assert problem in solution_problems(grid(text), Grid(G4, (0,) * 16))


def test_wrong_geometry():
    assert solution_problems(Grid(geometry(1, 4), SOLUTION.cells), PUZZLE) == [
        "solution is 1x4, puzzle is 2x2"]


def test_find_clash_names_the_later_cell():
    assert find_clash(grid("1000000000000001")) is None
    assert find_clash(grid("1000010000000000")) == (5, 0, 1)  # r2c2 repeats r1c1 in box 1


def test_check_givens_messages():
    with pytest.raises(PuzzleError, match=r"^r4c1: 3 repeats the given at r1c1$"):
        check_givens(grid("3000000000003000"))
    with pytest.raises(PuzzleError, match=r"^r1c2: 7 is not a digit of a 4x4 grid$"):
        check_givens(grid("0700000000000000"))
    check_givens(PUZZLE)  # no error


def test_grid_basics():
    assert PUZZLE.nclues == 6 and not PUZZLE.is_complete() and SOLUTION.is_complete()
    assert list(PUZZLE.givens())[:2] == [(0, 1), (2, 3)]
    assert SOLUTION.differences(grid("2134341221434321")) == [0, 1]
    with pytest.raises(ValueError):
        Grid(G4, (0,) * 15)


def test_a_grid_a_puzzle_and_a_result_show_themselves():
    # a REPL prints them as grids; a notebook draws them (_repr_svg_)
    import satdoku
    puzzle = satdoku.read("1.3..4.2.34.4.23")
    assert repr(puzzle).splitlines() == ["<Puzzle <arg>:1, 4x4, 9 given, 0 rules>",
                                         "1 . | 3 .", ". 4 | . 2", "----+----", ". 3 | 4 .",
                                         "4 . | 2 3"]
    assert repr(puzzle.grid).splitlines()[0] == "<Grid 4x4, 9 given>"
    result = satdoku.count(puzzle)
    assert repr(result).splitlines()[:2] == ["<Result unique (1 found) by sat:cadical195>",
                                             "1 2 | 3 4"]
    for shown in (puzzle, puzzle.grid, result):
        svg = shown._repr_svg_()
        assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_a_batch_is_right_at_once_exactly_when_each_answer_is(shape):
    # solutions_right against the one-grid check, on right batches and on batches with one
    # answer spoilt in each way an answer can be wrong
    import random
    from satdoku.model.grid import solutions_right
    from satdoku.tasks.generate import full_grid
    geo, rng = geometry(*shape), random.Random(sum(shape))
    n = geo.size
    for trial in range(12):
        solutions = [full_grid(geo, rng) for _ in range(rng.randint(1, 9))]
        puzzles = [Grid(geo, tuple(d if rng.random() < 0.3 else 0 for d in s.cells))
                   for s in solutions]
        assert solutions_right(solutions, puzzles)
        k = rng.randrange(len(solutions))
        cells = list(solutions[k].cells)
        a, b = rng.sample(range(geo.ncells), 2)
        spoil = trial % 5
        if spoil == 0:  # two cells swapped
            cells[a], cells[b] = cells[b], cells[a]
        elif spoil == 1:  # a digit changed
            cells[a] = cells[a] % n + 1
        elif spoil == 2:  # a cell left empty
            cells[a] = 0
        elif spoil == 3:  # a digit past N
            cells[a] = n + 1
        else:  # a given not kept: the puzzle gives another digit there
            given = list(puzzles[k].cells)
            given[a] = cells[a] % n + 1
            puzzles[k] = Grid(geo, tuple(given))
        spoilt = solutions[:k] + [Grid(geo, tuple(cells))] + solutions[k + 1:]
        each = all(not solution_problems(s, p) for s, p in zip(spoilt, puzzles))
        assert solutions_right(spoilt, puzzles) == each
        if spoil != 0 or cells != list(solutions[k].cells):
            assert not each, (shape, spoil)
