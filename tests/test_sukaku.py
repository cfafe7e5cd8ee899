"""sukaku: lines of candidates read as givens and candidates rules, solved as variant puzzles
and checked against brute force and a published classic."""

import random

import pytest

import satdoku
from conftest import SAMPLE, SAMPLE_SOLUTION, all_solutions
from satdoku.errors import PuzzleError
from satdoku.io.sukaku import looks_like_sukaku, parse_sukaku


def sukaku_of(candidates: list[set[int]], n: int = 9) -> str:
    return "".join("".join(str(k) if k in cell else "." for k in range(1, n + 1))
                   for cell in candidates)


def test_a_classic_written_as_candidates_solves_to_its_solution():
    cells = [{int(ch)} if ch != "." else set(range(1, 10)) for ch in SAMPLE]
    text = sukaku_of(cells)
    assert len(text) == 729 and looks_like_sukaku(text)
    puzzle = parse_sukaku(text)
    assert puzzle.constraints == ()
    result = satdoku.count(puzzle)
    assert result.status == "unique"
    assert "".join(map(str, result.solution.cells)) == SAMPLE_SOLUTION


def test_candidates_alone_pin_the_solution():
    """No givens at all: every cell has its digit and one other; SAT and the rules' check agree
    that the solution is the only one."""
    rng = random.Random(7)
    solution = list(map(int, SAMPLE_SOLUTION))
    cells = [{d, rng.choice([x for x in range(1, 10) if x != d])} for d in solution]
    puzzle = parse_sukaku(sukaku_of(cells))
    assert not any(puzzle.grid.cells)
    result = satdoku.count(puzzle)
    assert result.solution.cells == tuple(solution)
    assert puzzle.check(result.solution) == []


@pytest.mark.parametrize("seed", range(3))
def test_4x4_sukaku_counts_agree_with_brute_force(seed):
    rng = random.Random(seed)
    cells = [set(rng.sample(range(1, 5), rng.choice((2, 3, 4)))) for _ in range(16)]
    puzzle = parse_sukaku(sukaku_of(cells, 4))
    brute = all_solutions(puzzle.grid, puzzle.constraints)
    assert all(all(g.cells[c] in cell for c, cell in enumerate(cells)) for g in brute)
    result = satdoku.count(puzzle, limit=1000)
    assert (result.count if result.status != "unsolvable" else 0) == len(brute)


@pytest.mark.parametrize("text, message", [
    ("2" + "." * 63, "r1c1: sukaku: '2' stands where the candidate 1 goes"),
    ("...." + "1234" * 15, "r1c1: sukaku: a cell without candidates"),
    ("1..." * 2 + "1234" * 14, "r1c2: 1 repeats the given at r1c1"),
    ("1234" * 15, "not a sukaku line: 60 symbols"),
])
def test_bad_lines_name_the_cell(text, message):
    with pytest.raises(PuzzleError) as caught:
        parse_sukaku(text, "s.txt", 4)
    assert str(caught.value).startswith("s.txt:4: " + message)


def test_a_line_of_81_digits_is_no_sukaku():
    assert not looks_like_sukaku(SAMPLE.replace(".", "0"))
