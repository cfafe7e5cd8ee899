"""The passes agree: naked and hidden singles, and pointing and claiming, as the three places
that apply them do (the passes of :mod:`satdoku.native.propagate`, which native search and the
reduced encoding's folding both run, the one from the givens and the other from the folded
givens; the bit-sliced batch pass; the ladder's board and its finders) leave every cell the same
candidates.

The puzzles are random holes in random full grids of several box shapes and jigsaw regions
(seeded), and three published 9x9 puzzles: always solvable, so every pass runs to its fixed point without a contradiction, and
the fixed point of rules that only remove candidates is one set of candidates whatever the
order they run in.
"""

import random

import pytest

from conftest import SAMPLE, SAMPLE_HARD, SEVENTEEN, grid_of
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid
from satdoku.native.board import Board
from satdoku.native.ladder import apply_step
from satdoku.native.named import full_house_or_hidden_single, locking, naked_single
from satdoku.native.propagate import Propagation, propagate
from satdoku.native.reduce import reduce_candidates
from satdoku.native.search import NativeSolver
from satdoku.native.tables import tables
from satdoku.sat import sliced
from satdoku.tasks.generate import full_grid

# A 6x6 jigsaw whose regions cross the rows and columns unevenly.
JIGSAW6 = jigsaw([[0, 1, 2, 6, 7, 12], [3, 4, 5, 9, 10, 11], [8, 13, 14, 18, 19, 24],
                  [15, 16, 17, 21, 22, 23], [20, 25, 26, 30, 31, 32], [27, 28, 29, 33, 34, 35]])
SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3)]


def _puzzles(geo, rng, count):
    """``count`` puzzles of ``geo``: random holes (a third to two thirds of the cells) in a
    random full grid (a solution found by native search for jigsaw regions, its digits
    relabelled)."""
    if geo.shape == "jigsaw":
        with NativeSolver() as native:
            base = native.solve(Grid(geo, (0,) * geo.ncells)).solution.cells
    out = []
    for _ in range(count):
        if geo.shape == "jigsaw":
            relabel = list(range(1, geo.size + 1))
            rng.shuffle(relabel)
            full = [relabel[d - 1] for d in base]
        else:
            full = list(full_grid(geo, rng).cells)
        keep = rng.uniform(0.33, 0.66)
        out.append(Grid(geo, tuple(d if rng.random() < keep else 0 for d in full)))
    return out


def by_native(grid, locked):
    """The givens as cells of one candidate, nothing placed: the passes place them too."""
    t = tables(grid.geometry)
    p = Propagation(t, locked=locked)
    cand = [t.full] * t.ncells
    for cell, d in grid.givens():
        cand[cell] = 1 << (d - 1)
    p.begin(cand, [0] * t.nhouses)
    assert propagate(p)
    return cand


def by_reduction(grid, locked):
    red = reduce_candidates(grid, locked=locked)
    assert red.contradiction is None
    return red.cand


def by_slices(grids, locked):
    """Each grid's candidates after the batch pass, read back from the slices."""
    sl = sliced.slicer(grids[0].geometry)
    cand = sliced._load(sl, [g.cells for g in grids])
    assert sliced._propagate(sl, cand, (1 << len(grids)) - 1, locked, 0.0)
    n = sl.n
    return [[sum(((cand[cell * n + d0] >> k) & 1) << d0 for d0 in range(n))
             for cell in range(sl.ncells)] for k in range(len(grids))]


def by_ladder(grid, locked):
    board, ok = Board.of_givens(grid)
    assert ok
    finders = (full_house_or_hidden_single, naked_single) + ((locking,) if locked else ())
    while (step := next(filter(None, (f(board) for f in finders)), None)) is not None:
        assert apply_step(board, step)
    return board.cand


@pytest.mark.parametrize("locked", [False, True])
@pytest.mark.parametrize("geo", [geometry(*s) for s in SHAPES] + [JIGSAW6],
                         ids=[f"{r}x{c}" for r, c in SHAPES] + ["jigsaw6"])
def test_every_board_settles_the_same_candidates(geo, locked):
    rng = random.Random(f"{geo}-{locked}")
    grids = _puzzles(geo, rng, 5)
    if geo is geometry(3, 3):  # and published puzzles: the README's, a 17-clue
        grids += [grid_of(text) for text in (SAMPLE, SAMPLE_HARD, SEVENTEEN)]
    slices = by_slices(grids, locked)
    moved = 0
    for grid, batch in zip(grids, slices):
        native = by_native(grid, locked)
        assert batch == native, grid
        assert by_ladder(grid, locked) == native, grid
        if geo.shape != "jigsaw":  # the reduction needs boxes
            assert by_reduction(grid, locked) == native, grid
        moved += sum(not d and not m & (m - 1) for d, m in zip(grid.cells, native))
    assert moved  # the sample makes the passes work (cells settled beyond the givens)
