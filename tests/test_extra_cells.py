"""Cells outside the grid (sigh's ``Var``): the model and encoding against a brute force, a
published sigh puzzle that names them, and the refusals of what cannot take them."""

from __future__ import annotations

import itertools
import json

import pytest

import satdoku
from satdoku.errors import PuzzleError
from satdoku.io.sigh import format_sigh
from satdoku.model.grid import Grid

# Two cells outside a 4x4 grid, tied to each other by a cage and to the grid by an arrow.
TIED = ('{"size": 4, "extra-cells": ["VA", "VB"], "givens": {"r1c1": 1, "r2c3": 1, "r3c2": 4, '
        '"VA": 3}, "constraints": [{"type": "killer", "cells": ["VA", "VB"], "sum": 5}, '
        '{"type": "arrow", "circle": ["VB"], "cells": ["r1c2"]}]}')

# sigh's "Bates Motel" (its collections, MIT): 8 cells VA1..VA8 beside a 6x6 grid.
BATES_MOTEL = (
    ".Shape~6x6.Var~A~NumberedRooms~8.AllDifferent~VA1~R1C1~R1C2~R1C3~R2C3~VA2.AllDifferent~VA3~"
    "VA4~R2C6~R1C6~R1C5~R1C4.AllDifferent~R2C4~R2C5~R3C5~R4C5~R4C4~R4C6.AllDifferent~VA5~VA6~R6C5~"
    "R5C5~R5C6~R6C6.AllDifferent~VA7~R6C2~R5C2~R4C2~R5C1~R6C1.AllDifferent~R4C3~R3C3~R3C2~R2C2~"
    "R2C1~VA8.ValueIndexing~VA1~R1C1~R1C1~R1C2~R1C3~R1C4~R1C5~R1C6.ValueIndexing~VA2~R1C3~R1C3~"
    "R2C3~R3C3~R4C3~R5C3~R6C3.ValueIndexing~VA3~R1C6~R1C6~R1C5~R1C4~R1C3~R1C2~R1C1.ValueIndexing~"
    "VA4~R2C6~R2C6~R2C5~R2C4~R2C3~R2C2~R2C1.ValueIndexing~VA5~R6C5~R6C5~R5C5~R4C5~R3C5~R2C5~R1C5."
    "ValueIndexing~VA6~R6C6~R6C6~R5C6~R4C6~R3C6~R2C6~R1C6.ValueIndexing~VA7~R6C2~R6C2~R5C2~R4C2~"
    "R3C2~R2C2~R1C2.ValueIndexing~VA8~R2C1~R2C1~R2C2~R2C3~R2C4~R2C5~R2C6")
BATES_SOLUTION = "625314431562312645546123263451154236"  # published with the puzzle


def _sudokus_4x4(cells=()):
    """Every 4x4 Sudoku (288), cell by cell."""
    if len(cells) == 16:
        yield cells
        return
    r, c = divmod(len(cells), 4)
    used = {cells[r * 4 + j] for j in range(c)} | {cells[i * 4 + c] for i in range(r)} | {
        cells[i * 4 + j] for i in range(r - r % 2, r) for j in range(c - c % 2, c - c % 2 + 2)}
    for d in range(1, 5):
        if d not in used:
            yield from _sudokus_4x4(cells + (d,))


def test_cells_outside_the_grid_count_and_solve_as_a_brute_force_says():
    puzzle = satdoku.read(TIED)
    geo = puzzle.geometry
    assert (geo.ncells, geo.ngrid, geo.cell_name(17)) == (18, 16, "VB")
    givens = [(cell, d) for cell, d in puzzle.grid.givens() if cell < 16]
    brute = {cells + extra for cells in _sudokus_4x4() if all(cells[c] == d for c, d in givens)
             for extra in itertools.product(range(1, 5), repeat=2)
             if puzzle.is_solution(Grid(geo, cells + extra))}
    result = satdoku.count(TIED, limit=50)
    assert result.count == len(brute) == 3
    assert satdoku.solve(TIED).solution.cells in brute
    assert satdoku.solve(TIED).solution.cells[16:] == (3, 2)


def test_a_sigh_var_puzzle_solves_to_its_published_solution():
    result = satdoku.count(BATES_MOTEL, limit=2)
    geo = result.solution.geometry
    assert result.status == "unique" and geo.extra[0] == "VA1" and len(geo.extra) == 8
    assert "".join(map(str, result.solution.cells[:geo.ngrid])) == BATES_SOLUTION
    assert satdoku.read(BATES_MOTEL).is_solution(result.solution)
    # and back: a group a connected-values lays out in rows is written as sigh's RxC group
    doc = {"size": 4, "extra-cells": ["VL1", "VL2", "VL3", "VL4"], "givens": {"VL1": 1},
           "constraints": [{"type": "connected-values", "digits": [1], "cells": ["VL1", "VL2",
                            "VL3", "VL4"], "columns": 2, "size": 2}]}
    assert format_sigh(satdoku.read(json.dumps(doc))).text == \
        ".Shape~4x4.Var~L~~2x2.ConnectedValues~VL~1~2.~VL1_1"


def test_what_needs_a_cells_place_refuses_cells_outside_the_grid_by_name():
    native = satdoku.solve(TIED, solver="native")
    assert native.status == "refused" and "2 outside it (VA...)" in native.message
    bad = TIED.replace('"cells": ["r1c2"]', '"cells": ["VA"]').replace(
        '{"type": "killer"', '{"type": "thermometer", "cells": ["r1c1", "VB"]}, {"type": "killer"')
    with pytest.raises(PuzzleError, match=r"constraints\[0\] \(thermometer\): VB is outside "
                                          "the grid: it has no row or column"):
        satdoku.read(bad)


def test_explain_marks_a_cell_outside_the_grid_where_two_solutions_differ(run):
    """A full grid and one free cell outside it: the two solutions differ there only, and the
    marked grids show it (they used to show the grid alone, the same twice)."""
    doc = '{"size": 4, "extra-cells": ["VA"], "givens": "1234341221434321"}'
    done = run("explain", doc)
    assert "differ at 1 cell (VA), marked:" in done.stdout
    marks = [line for line in done.stdout.splitlines() if line.startswith("outside the grid:")]
    assert len(marks) == 2 and all("VA=[" in line for line in marks) and marks[0] != marks[1]
