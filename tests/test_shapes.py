"""shapes: grids whose digits stand for other values (0..8), read, solved against published
solutions, written back, refused where a rule reads the values."""

import json
import re
import pickle
from pathlib import Path

import pytest

import satdoku
from satdoku.errors import OptionError, PuzzleError
from satdoku.io.fpuzzles.write import to_fpuzzles
from satdoku.io.variant import read_variant, variant_document
from satdoku.model.alphabet import alphabet_for
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid
from test_variant import schema_errors

#: sigh's 0-indexed puzzles with their published solutions (data/collections.js, MIT),
#: written as satdoku documents: ``{"puzzle": ..., "count": ..., "solution": values}``.
SHAPES = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "shapes.jsonl").read_text().splitlines()]


def text_of(puzzle, grid: Grid) -> str:
    return "".join(puzzle.alphabet.symbol(d) for d in grid.cells)


@pytest.mark.parametrize("entry", SHAPES, ids=[e["puzzle"]["name"] for e in SHAPES])
def test_published_solution(entry):
    puzzle = read_variant(entry["puzzle"])
    result = satdoku.count(puzzle, limit=2)
    assert (result.status, result.count) == ("unique", entry["count"])
    assert text_of(puzzle, result.solution) == entry["solution"]


def test_values_round_trip_and_schema():
    doc = SHAPES[0]["puzzle"]
    puzzle = read_variant(doc)
    assert puzzle.geometry.low == 0 and puzzle.grid.cells[0] == 5  # r1c1 holds value 4
    out = variant_document(puzzle)
    assert out["digits"] == "0-8" and out["givens"] == doc["givens"]
    assert schema_errors(out) == []
    assert read_variant(out).geometry is puzzle.geometry


def test_string_givens_use_the_values_symbols():
    doc = {"size": 4, "digits": "0-3", "givens": "0..1" + "." * 12}
    assert read_variant(doc).grid.cells[:4] == (1, 0, 0, 2)
    doc["givens"] = "4" + "." * 15
    with pytest.raises(PuzzleError, match="r1c1: 'givens': unknown symbol '4'"):
        read_variant(doc)


@pytest.mark.parametrize("doc, message", [
    ({"size": 4, "digits": "0-4"}, "'digits' must be 'LOW-HIGH', 4 values in a row"),
    ({"size": 4, "digits": 3}, "'digits' must be 'LOW-HIGH'"),
    ({"size": 9, "digits": "30-38"}, "'digits': values 30-38: a grid's values must lie in 0..35"),
    ({"size": 9, "digits": "0-8", "givens": {"r2c2": 9}}, "r2c2: 'givens': 9 is not a digit 0..8"),
    ({"size": 4, "digits": "0-3", "constraints": [{"type": "killer", "cells": ["r1c1"],
                                                   "sum": 3}]},
     "constraints[0] (killer): killer reads the digits' values"),
    ({"size": 4, "digits": "0-3", "constraints": [{"type": "or", "rules": [
        {"type": "odd", "cells": ["r1c1"]}, {"type": "anti-king"}]}]}, "odd reads the digits'"),
])
def test_refused(doc, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        read_variant(doc)


def test_rules_that_compare_digits_hold_shifted():
    """A thermometer over values 0..3 reads as over 1..4: bulb r1c1 (given 0) to r1c4."""
    doc = {"size": 4, "digits": "0-3", "givens": {"r1c1": 0},
           "constraints": [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"]}]}
    puzzle = read_variant(doc)
    solution = satdoku.solve(puzzle).solution
    assert text_of(puzzle, solution)[:4] == "0123"


def test_checker_names_values():
    g = geometry(2, 2, low=0)
    puzzle = Grid(g, (1,) + (0,) * 15)
    wrong = Grid(g, tuple(map(int, "2143341212344321")))
    problems = satdoku.model.grid.solution_problems(wrong, puzzle)
    assert problems == ["r1c1: given 0 changed to 1"]


def test_geometry_identity_and_symbols():
    g = geometry(3, 3, low=0)
    assert g is geometry(3, 3, 0) and g is not geometry(3, 3)
    assert pickle.loads(pickle.dumps(g)) is g and pickle.loads(pickle.dumps(geometry(3, 3))) \
        is geometry(3, 3)
    regions = [(0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)]
    assert pickle.loads(pickle.dumps(jigsaw(regions, 0))) is jigsaw(regions, 0)
    assert alphabet_for(16, 0).symbols == "0123456789ABCDEF"
    with pytest.raises(OptionError, match="values -1-7"):
        geometry(3, 3, low=-1)


def test_fpuzzles_names_the_shift():
    lost = to_fpuzzles(read_variant(SHAPES[0]["puzzle"])).lost
    assert lost == ["digits 0-8: f-puzzles has digits 1-9 only (written as 1-9)"]
