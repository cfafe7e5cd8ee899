"""board: the technique finders, and trials screened by search's passes agreeing with them."""

import random

import pytest

from conftest import PUZZLES, PUZZLES_BY_NAME
from satdoku.io.text import parse_puzzle, read_puzzles
from satdoku.model.digits import bits
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid
from satdoku.native.board import BOXES_FIRST, ROWS_FIRST, Board, Contradiction
from satdoku.native.search import NativeSolver
from satdoku.native.techniques import Steps, _count
from satdoku.tasks.generate import full_grid, make_puzzle

JIGSAW6 = jigsaw(((0, 1, 2, 6, 7, 12), (3, 4, 5, 9, 10, 11), (8, 13, 14, 15, 20, 21),
                  (16, 17, 22, 23, 28, 29), (18, 19, 24, 25, 30, 31), (26, 27, 32, 33, 34, 35)))


def board_of(text):
    board, ok = Board.from_grid(parse_puzzle(text).grid)
    assert ok
    return board


def test_givens_that_clash_break_the_board():
    assert not Board.from_grid(Grid(geometry(2, 2), (1, 1) + (0,) * 14))[1]
    # r1c4 is left without a digit: 1, 2, 3 in its row, 4 in its column
    assert not Board.from_grid(parse_puzzle("123." "...4" "...." "....").grid)[1]


def test_naked_singles_in_cell_order():
    board = board_of("123." "...." "...." "....")
    assert board.naked_singles() == [3]


def test_hidden_single_orders_and_picks():
    # Row 1 needs a 1: r2c3 keeps it out of r1c3 and r1c4 (their box), r3c2 out of r1c2 (its
    # column), so r1c1 is its only place; rows first finds it in row 1.
    cells = [0] * 16
    cells[6], cells[9] = 1, 1
    board, _ = Board.from_grid(Grid(geometry(2, 2), tuple(cells)))
    assert board.hidden_single(ROWS_FIRST, by_digit=False) == (0, 0, 1)
    house, cell, digit = board.hidden_single(BOXES_FIRST, by_digit=True)
    assert house >= 8 and digit == 1 and board.cand[cell] & 1


def test_hidden_single_raises_on_a_digit_without_a_place():
    board = board_of("12.." "...." "...." "....")
    board.cand[2] = board.cand[3] = 0b0011  # row 1 has no place left for 3 and 4
    with pytest.raises(Contradiction):
        board.hidden_single(ROWS_FIRST, by_digit=False)


def test_locked_candidates_pointing_first():
    board = board_of("." * 81)
    for cell in (9, 10, 11, 18, 19, 20):  # 1 leaves rows 2 and 3 of box 1
        board.cand[cell] &= ~1
    kind, seg, digits, losers = board.locked_candidates()
    assert (kind, seg.cells, digits, losers) == ("pointing", (0, 1, 2), 1, tuple(range(3, 9)))


def puzzles(rng):
    """Puzzles whose trials locked candidates decide ('sample', a 12x12), and random ones on
    small geometries, some of them broken by a changed given."""
    yield PUZZLES_BY_NAME["sample"]
    yield next(iter(read_puzzles(str(PUZZLES / "12x12.txt")))).grid
    for geo in (geometry(2, 2), geometry(2, 3), geometry(3, 3), geometry(1, 4), JIGSAW6):
        full = (NativeSolver().solve(Grid(geo, (0,) * geo.ncells)).solution
                if not geo.is_boxed else full_grid(geo, rng))
        for _ in range(6):
            holes = rng.randrange(geo.ncells // 2, geo.ncells * 3 // 4)
            cells = list(make_puzzle(full, rng, holes).cells)
            if rng.random() < 0.3:
                cells[rng.randrange(geo.ncells)] = rng.randint(1, geo.size)
            yield Grid(geo, tuple(cells))


def verdict_of_the_techniques(board, cell, d):
    """What the techniques, one step at a time, make of ``d`` placed in ``cell``."""
    copy = board.copy()
    try:
        if not copy.place(cell, 1 << (d - 1)):
            raise Contradiction
        _count(copy, Steps())
    except Contradiction:
        return "contradiction"
    return "solved" if copy.solved() else "stalled"


def test_trials_screened_by_search_agree_with_the_techniques():
    # Board.after runs search's passes (in another order, in batches); the techniques must
    # reach the same verdict (a contradiction, a full grid, or a stall) for every digit tried.
    rng = random.Random(5)
    verdicts = []
    for grid in puzzles(rng):
        board, ok = Board.from_grid(grid)
        if not ok:
            continue
        for cell in [c for c in range(grid.geometry.ncells) if not board.placed[c]][:40]:
            for d in bits(board.cand[cell]):
                screened = ("contradiction" if board.leads_to_contradiction(cell, d) else
                            "solved" if board.finishes(cell, d) else "stalled")
                assert screened == verdict_of_the_techniques(board, cell, d), (grid, cell, d)
                verdicts.append(screened)
    assert min(map(verdicts.count, ("contradiction", "solved", "stalled"))) > 50
