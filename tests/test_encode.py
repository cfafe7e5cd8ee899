"""encode: the variable mapping, clause counts per encoding, the reduced formula, size limits."""

from math import comb

import pytest

from conftest import PUZZLES_BY_NAME, SEVENTEEN, UNSOLVABLE_4X4, grid_of
from satdoku.deadline import Deadline, TimeUp
from satdoku.cnf.encodings import AMO_ENCODINGS, ENCODINGS, formula_size, unvar, var
from satdoku.cnf.formula import encode_base
from satdoku.cnf.varmap import clue_literals
from satdoku.cnf.formula import encode
from satdoku.cnf.reduced import reduced_formula
from satdoku.errors import OptionError, TooBigError
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.native.reduce import reduce_candidates

SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (8, 8)]
FULL = [name for name, e in ENCODINGS.items() if not e.reduced]


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


@pytest.mark.parametrize("encoding", FULL)
@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (2, 3)])
def test_clause_counts(shape, encoding):
    geo = geometry(*shape)
    formula = encode_base(geo, encoding)
    assert formula.nvars == geo.size ** 3
    assert len(formula.clauses) == expected_clauses(geo.size, encoding)
    assert formula_size(geo, encoding) == (formula.nvars, len(formula.clauses))


def test_9x9_numbers_for_the_readme():
    geo = geometry(3, 3)
    got = {e: formula_size(geo, e) for e in FULL}
    assert got == {"minimal": (729, 8829), "natural": (729, 11745), "extended": (729, 11988)}


@pytest.mark.parametrize("amo", [a for a in AMO_ENCODINGS if a != "pairwise"])
def test_auxiliary_variables_above_cell_variables(amo):
    geo = geometry(2, 2)
    formula = encode_base(geo, "extended", amo)
    n3 = geo.size ** 3
    assert formula.nvars > n3
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    assert max(used) == formula.nvars
    assert set(range(1, n3 + 1)) <= used
    assert formula.clauses[0] == [1, 2, 3, 4]  # the cell clauses come first, untouched


def test_encode_appends_units_and_keeps_base():
    geo = geometry(2, 2)
    grid = Grid(geo, (1, 0, 0, 4) + (0,) * 12)
    base = encode_base(geo)
    with_units = encode(grid)
    assert clue_literals(grid) == [1, 3 * 4 + 4]
    assert with_units.clauses[len(base.clauses):] == [[1], [16]]
    assert len(encode(grid, clues="none").clauses) == len(base.clauses)
    with pytest.raises(OptionError):
        encode(grid, clues="assumptions")
    with pytest.raises(OptionError, match="unknown encoding 'complete'; choose one of minimal"):
        encode_base(geo, "complete")


def test_size_limit_is_checked_before_building():
    # a 64x64 grid in the extended encoding has 33 million clauses: refused at once
    grid = Grid(geometry(8, 8), (0,) * 4096)
    with pytest.raises(TooBigError, match=r"needs 33,\d{3},\d{3} clauses, over the limit of "
                                          r"1,000,000 \(raise it with --max-clauses\)"):
        encode(grid, "extended", max_clauses=1_000_000)


def test_deadline_stops_building():
    with pytest.raises(TimeUp):
        encode(Grid(geometry(4, 5), (0,) * 400), deadline=Deadline(1e-9))


def test_reduced_mapping_round_trip():
    grid = PUZZLES_BY_NAME["sample"]
    formula = reduced_formula(grid, propagate=False)
    red = reduce_candidates(grid, propagate=False)
    pairs = [formula.pair(v) for v in range(1, formula.nmapped + 1)]
    # every open pair once, cell by cell, digits increasing
    expected = [(cell, d) for cell in range(81) if not grid.cells[cell]
                for d in range(1, 10) if red.cand[cell] >> (d - 1) & 1]
    assert pairs == expected
    assert all(formula.lit(c, d) == v for v, (c, d) in enumerate(pairs, 1))
    assert formula.lit(1, 7) is True and formula.lit(1, 3) is False  # r1c2 is given 7


def test_reduced_eliminated_count_on_a_tiny_grid():
    # 2x2 grid with 1x2 boxes (rows are boxes): r1c1 = 1 leaves r1c2 = {2}, r2c1 = {2},
    # r2c2 = {1, 2}: 4 open pairs, 1 settled, 8 - 4 - 1 = 3 eliminated.
    grid = Grid(geometry(1, 2), (1, 0, 0, 0))
    formula = reduced_formula(grid, propagate=False)
    assert (formula.nmapped, formula.eliminated) == (4, 3)
    # with singles everything is settled: 8 - 4 settled = 4 eliminated, no variables
    formula = reduced_formula(grid, propagate=True)
    assert (formula.nmapped, formula.eliminated, formula.clauses) == (0, 4, [])
    assert formula.settled == [1, 2, 2, 1]


@pytest.mark.parametrize("amo,pairwise_max", [("pairwise", 16), ("seqcounter", 2),
                                              ("ladder", 2)])
def test_reduced_amo_threshold_shapes_clauses(amo, pairwise_max):
    formula = reduced_formula(grid_of(SEVENTEEN), amo=amo, propagate=False,
                              pairwise_max=pairwise_max)
    if amo == "pairwise":
        assert formula.nvars == formula.nmapped
        assert all(len(c) == 2 for c in formula.clauses if c[0] < 0)
    else:
        assert formula.nvars > formula.nmapped


@pytest.mark.parametrize("propagate", [True, False])
def test_reduced_unsolvable_is_one_empty_clause(propagate):
    formula = reduced_formula(grid_of(UNSOLVABLE_4X4), propagate=propagate)
    assert formula.contradiction and [] in formula.clauses


def test_reduced_size_limit():
    grid = Grid(geometry(4, 4), (0,) * 256)
    with pytest.raises(TooBigError, match="the reduced formula of this 16x16 puzzle needs"):
        reduced_formula(grid, max_clauses=1000)
