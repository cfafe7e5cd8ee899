"""encode: the variable mapping, clause counts per encoding, DIMACS text, reading models."""

import io
from math import comb

import pytest

from satdoku.encode import (AMO_ENCODINGS, ENCODINGS, UnsatisfiableError, clue_literals,
                            decode_model, encode, encode_base, formula_size, parse_model, unvar,
                            var, write_dimacs)
from satdoku.errors import ModelError
from satdoku.geometry import geometry
from satdoku.grid import Grid

SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (8, 8)]


@pytest.mark.parametrize("shape", SHAPES)
def test_var_unvar_round_trip(shape):
    n = shape[0] * shape[1]
    corners = [(0, 1), (0, n), (n * n - 1, 1), (n * n - 1, n), (n, 1), (n - 1, n)]
    for cell, d in corners:
        v = var(cell, d, n)
        assert 1 <= v <= n ** 3
        assert unvar(v, n) == (cell, d)
    assert var(0, 1, n) == 1 and var(n * n - 1, n, n) == n ** 3
    if n <= 12:
        seen = [var(cell, d, n) for cell in range(n * n) for d in range(1, n + 1)]
        assert seen == list(range(1, n ** 3 + 1))
        assert all(var(*unvar(v, n), n) == v for v in seen)


def expected_clauses(n, encoding):
    """Clause counts derived from the constraint families, pairwise at-most-one."""
    pairs = comb(n, 2)
    cells, house_digits = n * n, 3 * n * n  # 3N houses, N digits each
    count = cells * 1 + house_digits * pairs  # cell >= 1, house <= 1
    if encoding in ("natural", "extended"):
        count += cells * pairs  # cell <= 1
    if encoding == "extended":
        count += house_digits * 1  # house >= 1
    return count


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (2, 3)])
def test_clause_counts(shape, encoding):
    geo = geometry(*shape)
    formula = encode_base(geo, encoding)
    assert formula.nvars == geo.size ** 3
    assert len(formula.clauses) == expected_clauses(geo.size, encoding)
    assert formula_size(geo, encoding) == (formula.nvars, len(formula.clauses))


def test_9x9_numbers_for_the_readme():
    geo = geometry(3, 3)
    assert formula_size(geo, "extended") == (729, 81 * (1 + 36) + 243 * (36 + 1))
    got = {e: formula_size(geo, e) for e in ENCODINGS}
    assert got == {"minimal": (729, 8829), "natural": (729, 11745), "extended": (729, 11988)}


@pytest.mark.parametrize("amo", [a for a in AMO_ENCODINGS if a != "pairwise"])
def test_auxiliary_variables_above_cell_variables(amo):
    geo = geometry(2, 2)
    formula = encode_base(geo, "extended", amo)
    n3 = geo.size ** 3
    assert formula.nvars > n3
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    assert max(used) == formula.nvars
    # every cell variable is used, and nothing else below N**3 + 1 is invented
    assert set(range(1, n3 + 1)) <= used
    # the cell clauses come first and are untouched
    assert formula.clauses[0] == [1, 2, 3, 4]


def test_encode_appends_units_and_keeps_base():
    geo = geometry(2, 2)
    grid = Grid(geo, (1, 0, 0, 4) + (0,) * 12)
    base = encode_base(geo)
    with_units = encode(grid)
    assert clue_literals(grid) == [1, 3 * 4 + 4]
    assert with_units.clauses[len(base.clauses):] == [[1], [16]]
    assert len(base.clauses) == expected_clauses(4, "extended")
    assert len(encode(grid, clues="none").clauses) == len(base.clauses)
    with pytest.raises(ValueError):
        encode(grid, clues="assumptions")
    with pytest.raises(ValueError, match="unknown encoding"):
        encode_base(geo, "complete")


def test_dimacs_is_well_formed():
    geo = geometry(2, 2)
    grid = Grid(geo, (1, 0, 0, 4) + (0,) * 12)
    formula = encode(grid)
    out = io.StringIO()
    write_dimacs(formula, out, puzzle_text="1..4............", grid=grid,
                 alphabet_line="alphabet: 1234", version="9.9")
    lines = out.getvalue().splitlines()
    header = [i for i, line in enumerate(lines) if line.startswith("p ")]
    assert len(header) == 1
    comments, p_line, body = lines[:header[0]], lines[header[0]], lines[header[0] + 1:]
    assert comments and all(line.startswith("c ") for line in comments)
    text = "\n".join(comments)
    assert "satdoku 9.9" in text and "1..4............" in text and "encoding: extended" in text
    assert "cell = (v-1) // 4, digit = (v-1) % 4 + 1" in text
    assert p_line == f"p cnf 64 {len(formula.clauses)}"
    assert len(body) == len(formula.clauses)
    for line, clause in zip(body, formula.clauses):
        assert line.endswith(" 0")
        assert [int(x) for x in line.split()[:-1]] == clause


def test_dimacs_comment_newlines_stay_comments():
    out = io.StringIO()
    write_dimacs(encode_base(geometry(1, 1)), out, puzzle_text="a\nb", alphabet_line="x\ny")
    head = out.getvalue().split("p cnf")[0].splitlines()
    assert all(line.startswith("c ") for line in head)


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
])
def test_parse_model_malformed(text, line, what):
    with pytest.raises(ModelError, match=what) as info:
        parse_model(text)
    assert info.value.line == line
    assert not isinstance(info.value, UnsatisfiableError)


def model_of(grid):
    n = grid.size
    return [v if grid.cells[(v - 1) // n] == (v - 1) % n + 1 else -v
            for v in range(1, n ** 3 + 1)]


SOLVED_4X4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def test_decode_model_round_trip_ignores_auxiliary_variables():
    grid = Grid(geometry(2, 2), SOLVED_4X4)
    assert decode_model(model_of(grid) + [65, -66, 67], grid.geometry) == grid


def test_decode_model_no_digit():
    grid = Grid(geometry(2, 2), SOLVED_4X4)
    model = model_of(grid)
    model[4 * 6 + 0] = -model[4 * 6 + 0]  # r2c3 holds 1: make it false
    with pytest.raises(ModelError, match="no digit is true") as info:
        decode_model(model, grid.geometry)
    assert info.value.cell == "r2c3"


def test_decode_model_two_digits():
    grid = Grid(geometry(2, 2), SOLVED_4X4)
    model = model_of(grid)
    model[4 * 6 + 3] = abs(model[4 * 6 + 3])  # r2c3 also holds 4
    with pytest.raises(ModelError, match="digits 1 and 4 are both true") as info:
        decode_model(model, grid.geometry)
    assert str(info.value).startswith("r2c3: ")


def test_decode_model_missing_variables():
    geo = geometry(2, 2)
    with pytest.raises(ModelError, match="no value to variable 10"):
        decode_model(model_of(Grid(geo, SOLVED_4X4))[:9], geo)
