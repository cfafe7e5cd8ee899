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


def test_counts_are_the_solutions_with_each_digit_in_each_cell(monkeypatch):
    from collections import Counter
    from satdoku.tasks import candidates
    grid = Grid(geometry(2, 2), (1,) + (0,) * 15)
    rules = (Killer((1, 2), 5),)
    solutions = all_solutions(grid, rules)
    expected = {c: dict(sorted(Counter(s.cells[c] for s in solutions).items()))
                for c, d in enumerate(grid.cells) if not d}
    for limit, one_pass in ((100, 4096), (3, 4096), (3, 0)):  # 0: each pair on its own
        monkeypatch.setattr(candidates, "ONE_PASS", one_pass)
        found = true_candidates(grid, constraints=rules, counts=limit)
        assert found.counts == {c: {d: min(n, limit) for d, n in ds.items()}
                                for c, ds in expected.items()}
        assert found.status == "multiple" and found.limit == limit


def test_counts_of_the_published_puzzles():
    from conftest import EMPTY_4X4, MIRACLE_COUNTS
    from satdoku.io.inputs import read_puzzle
    empty = true_candidates(grid_of(EMPTY_4X4), counts=1000)
    assert empty.count == 288 and all(ds == {1: 72, 2: 72, 3: 72, 4: 72}
                                       for ds in empty.counts.values())
    for text, total in MIRACLE_COUNTS.items():
        puzzle = read_puzzle(text)
        found = true_candidates(puzzle.grid, constraints=puzzle.constraints, counts=100)
        assert found.count == total
        assert all(sum(ds.values()) == total for ds in found.counts.values())


def test_candidates_counts_on_the_command_line(run):
    import json
    table = run("candidates", "--counts", "100", "1" + "." * 15).stdout.splitlines()
    assert table[0] == ("<arg>:1: multiple (72 solutions); solutions with each digit in each "
                        "empty cell, up to 100:")
    assert table[1].split() == ["cell", "1", "2", "3", "4"]
    assert table[2].split() == ["r1c2", "24", "24", "24"]
    rec = json.loads(run("candidates", "--counts", "5", "--format", "json",
                         "1" + "." * 15).stdout)
    assert rec["limit"] == 5 and rec["counts"]["r1c2"] == {"2": 5, "3": 5, "4": 5}
    line = run("candidates", "--counts", "5", "--format", "line", "1" + "." * 15).stdout
    assert line.startswith("r1c2=2:5+,3:5+,4:5+ ")
