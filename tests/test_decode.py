"""decode: reading solver output strictly, and turning models into verified grids."""

import pytest

from conftest import SAMPLE, SAMPLE_SOLUTION, grid_of
from satdoku.io.dimacs import MAX_MODEL_BYTES, UnsatisfiableError, parse_model
from satdoku.cnf.decode import decode_file, decode_solution, model_formula
from satdoku.cnf.varmap import full_map
from satdoku.cnf.reduced import reduced_formula
from satdoku.errors import ModelError
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid


def test_parse_model_competition_form():
    text = "c a comment\ns SATISFIABLE\nv 1 -2 3\nv -4 5\nv 0\n"
    assert parse_model(text) == [1, -2, 3, -4, 5]


def test_parse_model_minisat_form():
    assert parse_model("SAT\n1 -2 -3 4 0\n") == [1, -2, -3, 4]


@pytest.mark.parametrize("text", ["UNSAT\n", "s UNSATISFIABLE\n", "c x\ns UNSATISFIABLE\n"])
def test_parse_model_unsat(text):
    with pytest.raises(UnsatisfiableError, match="unsolvable"):
        parse_model(text)
    assert issubclass(UnsatisfiableError, ModelError)


@pytest.mark.parametrize("text, line, what", [
    ("s SATISFIABLE\nv 1 x 0\n", 2, "not a literal"),
    ("s SATISFIABLE\nv 1 2\n", 2, "does not end with 0"),
    ("SAT\n1 2 0\n3 0\n", 3, "after the closing 0"),
    ("hello\n", 1, "expected"),
    ("", None, "no solver answer"),
    ("s UNKNOWN\n", 1, "no answer"),
    ("INDET\n", 1, "no answer"),
    ("s SATISFIABLE\ns SATISFIABLE\n", 2, "second status"),
    ("s SATISFIABLE\nv 1 2\nv -1 0\n", 3, "variable 1 is set both true and false"),
    ("s SATISFIABLE\nv 1 -0 0\n", 2, "'-0' is not a literal"),
    ("s SATISFIABLE\nv " + "9" * 4301 + " 0\n", 2, "is not a literal"),
    ("s SATISFIABLE\nv 1 2 999 0\n", 2, "literal 999 is beyond the formula's 64 variables"),
])
def test_parse_model_malformed(text, line, what):
    with pytest.raises(ModelError, match=what) as info:
        parse_model(text, nvars=64)
    assert info.value.line == line
    assert not isinstance(info.value, UnsatisfiableError)
    assert len(str(info.value)) < 200  # one short line, whatever the input


def model_of(grid):
    n = grid.size
    return [v if grid.cells[(v - 1) // n] == (v - 1) % n + 1 else -v
            for v in range(1, n ** 3 + 1)]


SOLVED_4X4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def test_decode_model_round_trip_ignores_auxiliary_variables():
    grid = Grid(geometry(2, 2), SOLVED_4X4)
    assert full_map(grid.geometry).read(model_of(grid) + [65, -66, 67]) == grid


def test_decode_model_no_digit():
    grid = Grid(geometry(2, 2), SOLVED_4X4)
    model = model_of(grid)
    model[4 * 6 + 0] = -model[4 * 6 + 0]  # r2c3 holds 1: make it false
    with pytest.raises(ModelError, match="no digit is true") as info:
        full_map(grid.geometry).read(model)
    assert info.value.cell == "r2c3"


def test_decode_model_two_digits():
    grid = Grid(geometry(2, 2), SOLVED_4X4)
    model = model_of(grid)
    model[4 * 6 + 3] = abs(model[4 * 6 + 3])  # r2c3 also holds 4
    with pytest.raises(ModelError, match="digits 1 and 4 are both true") as info:
        full_map(grid.geometry).read(model)
    assert str(info.value).startswith("r2c3: ")


def test_decode_model_missing_variables():
    geo = geometry(2, 2)
    with pytest.raises(ModelError, match="no value to variable 10"):
        full_map(geo).read(model_of(Grid(geo, SOLVED_4X4))[:9])


def _reduced_model(formula, solution):
    pairs = [formula.pair(v) for v in range(1, formula.nmapped + 1)]
    return [v if solution.cells[c] == d else -v for v, (c, d) in enumerate(pairs, start=1)]


def test_decode_reduced_round_trip_and_checks():
    puzzle = grid_of(SAMPLE)
    solution = grid_of(SAMPLE_SOLUTION)
    formula = reduced_formula(puzzle, propagate=False)
    model = _reduced_model(formula, solution)
    assert formula.varmap.read(model) == solution
    with pytest.raises(ModelError, match="sets 10 of the"):
        formula.varmap.read(model[:10])


def test_decode_solution_verifies_against_the_puzzle():
    puzzle = grid_of(SAMPLE)
    wrong = Grid(puzzle.geometry, (1,) * 81)
    text = "s SATISFIABLE\nv " + " ".join(map(str, model_of(wrong))) + " 0\n"
    with pytest.raises(ModelError, match="does not solve this puzzle"):
        decode_solution(text, puzzle, model_formula(puzzle, "extended"))


def test_decode_file_bounded(tmp_path, monkeypatch):
    import importlib
    decode = importlib.import_module("satdoku.io.dimacs")
    monkeypatch.setattr(decode, "MAX_MODEL_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text("v " + "1 " * 2000 + "0\n")
    puzzle = grid_of(SAMPLE)
    with pytest.raises(ModelError, match="not a model of this puzzle") as info:
        decode_file(str(path), puzzle, model_formula(puzzle, "extended"))
    assert info.value.source == str(path)
    assert MAX_MODEL_BYTES >= 1 << 20
