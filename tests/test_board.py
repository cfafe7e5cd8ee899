"""board: the candidates board of SE's ladder."""

from satdoku.io.text import parse_puzzle
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.native.board import Board


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
