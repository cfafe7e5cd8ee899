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


def test_a_placement_takes_the_digit_from_the_peers_without_the_table_of_peers(monkeypatch):
    """Placing strikes the digit from exactly the cell's peers, house by house: the table of
    peers (seconds to build on a 400x400 grid, outside any time limit) is not asked for."""
    from satdoku.model.geometry import Geometry
    text = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."
    board = board_of(text)
    geo = board.geo
    peers = {c: set(geo.peers[c]) for c in range(geo.ncells)}
    cell = board.open_cells()[0]
    digit = board.cand[cell] & -board.cand[cell]
    before = list(board.cand)

    def refused(self):
        raise AssertionError("the table of peers was asked for")

    monkeypatch.setattr(Geometry, "peers", property(refused))
    assert board.place(cell, digit)
    assert board.placed[cell] and board.cand[cell] == digit
    for c in range(geo.ncells):
        if c != cell:
            assert board.cand[c] == (before[c] & ~digit if c in peers[cell] else before[c])
