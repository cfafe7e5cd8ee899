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


def expected_augmented(r, c):
    """(variables, clauses) of the augmented encoding of r x c boxes, from its definition:
    exactly-one (one clause + pairwise) over each cell's digits, over each triad's cells and
    its negation, over each line's segments and over each box's row and column segments.

    The definition is tdoku's (Tom Dillon, github.com/t-dillon/tdoku,
    ``other/other_minisat.cc``: ``InitializeTriadDefinitions``, ``InitializeTriadConstraints``,
    every group through ``Constrain(literals, true, true)``), written there for 3x3 boxes: 1,215
    variables (``15 * 9 * 9``); generalised to r x c boxes in docs/commands.md."""
    n = r * c

    def exactly_one(k):
        return 1 + comb(k, 2)

    triads = n * r * n + n * c * n  # row segments of c cells, column segments of r cells
    clauses = n * n * exactly_one(n)
    clauses += n * r * n * exactly_one(c + 1) + n * c * n * exactly_one(r + 1)
    clauses += 2 * n * n * (exactly_one(r) + exactly_one(c))  # lines and boxes, per digit
    return n ** 3 + triads, clauses


def expected_clauses(n, encoding):
    """Clause counts of an N x N grid derived from the constraint families, pairwise
    at-most-one, as the papers define them:

    - ``minimal``: Lynce and Ouaknine, "Sudoku as a SAT Problem" (AIMATH 2006), the minimal
      encoding: cell definedness (N^2 clauses of N literals) and row, column and block
      uniqueness (3 N^2 C(N,2) binary clauses); 8,829 clauses at 9x9, as tdoku's docs/sudoku.md
      counts them (81 + 3 x 81 x C(9,2));
    - ``natural``: the minimal encoding plus cell uniqueness (N^2 C(N,2)), tdoku's "natural"
      representation (``other/other_minisat.cc``), the literature's "efficient" encoding;
    - ``extended``: Lynce and Ouaknine's extended encoding, natural plus row, column and block
      definedness (3 N^2 clauses of N literals), tdoku's "complete".

    Each pair of cells sharing a box and a line is counted twice (in both houses' uniqueness),
    as the papers count it; satdoku writes those duplicate clauses too."""
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
    if encoding == "augmented":
        assert (formula.nvars, len(formula.clauses)) == expected_augmented(*shape)
    else:
        assert formula.nvars == geo.size ** 3
        assert len(formula.clauses) == expected_clauses(geo.size, encoding)
    assert formula_size(geo, encoding) == (formula.nvars, len(formula.clauses))


@pytest.mark.parametrize("encoding", FULL)
@pytest.mark.parametrize("k", [3, 4, pytest.param(5, marks=pytest.mark.slow)])
def test_counts_of_the_papers_at_9x9_16x16_25x25(k, encoding):
    """Each encoding built at 9x9 and 16x16 (25x25 under -m slow: 1 to 2 s each) has the
    variables and clauses the papers' formulas give (:func:`expected_clauses`,
    :func:`expected_augmented`)."""
    formula = encode_base(geometry(k, k), encoding)
    expected = expected_augmented(k, k) if encoding == "augmented" else (
        k ** 6, expected_clauses(k * k, encoding))
    assert (formula.nvars, len(formula.clauses)) == expected


def test_the_docs_table_is_the_papers_formulas():
    """docs/commands.md's table of sizes (9x9, 16x16, 25x25) says what the formulas give, and
    so does the count satdoku makes without building (25x25 included)."""
    import re
    from conftest import ROOT
    text = (ROOT / "docs" / "commands.md").read_text()
    for encoding in FULL:
        row = re.search(rf"^\| `{encoding}`[^|]*\|[^|]*\| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| "
                        rf"([\d,]+) \|$", text, re.M)
        assert row, encoding
        nvars, *clauses = (int(g.replace(",", "")) for g in row.groups())
        for k, documented in zip((3, 4, 5), clauses):
            expected = expected_augmented(k, k) if encoding == "augmented" else (
                k ** 6, expected_clauses(k * k, encoding))
            assert formula_size(geometry(k, k), encoding) == expected
            assert documented == expected[1], (encoding, k)
        assert nvars == formula_size(geometry(3, 3), encoding)[0]


def test_9x9_numbers_for_the_readme():
    geo = geometry(3, 3)
    got = {e: formula_size(geo, e) for e in FULL}
    assert got == {"minimal": (729, 8829), "natural": (729, 11745), "extended": (729, 11988),
                   "augmented": (1215, 7695)}


def test_augmented_numbers_of_docs_commands():
    """The counts docs/commands.md gives for 16x16 and 25x25 (16x16 built and counted)."""
    assert formula_size(geometry(4, 4), "augmented") == expected_augmented(4, 4) == (6144, 60672)
    assert formula_size(geometry(5, 5), "augmented") == expected_augmented(5, 5) == (21875,
                                                                                     315625)
    formula = encode_base(geometry(4, 4), "augmented")
    assert (formula.nvars, len(formula.clauses)) == (6144, 60672)


@pytest.mark.parametrize("shape", [(2, 2), (1, 4), (2, 3)])
def test_augmented_has_the_same_grids_as_extended(shape):
    """Every complete grid of the augmented formula is a Sudoku grid and the other way round:
    the models projected on the cell variables, counted on 4x4 grids (288 Sudoku, 576 Latin
    squares with 1x4 boxes) and 6x6 ones with the first row and column given."""
    from pysat.solvers import Solver
    geo = geometry(*shape)
    n = geo.size
    fixed = [] if n == 4 else [var(c, c + 1, n) for c in range(n)] + [
        var(r * n, d, n) for r, d in zip(range(1, n), (4, 5, 6, 2, 3)[:n - 1])]
    counts = []
    for encoding in ("extended", "augmented"):
        with Solver(name="cadical195", bootstrap_with=encode_base(geo, encoding).clauses) as s:
            found = 0
            while s.solve(assumptions=fixed):
                model = s.get_model()
                s.add_clause([-v for v in model[:n ** 3] if v > 0])
                found += 1
            counts.append(found)
    assert counts[0] == counts[1] > 0
    if shape == (2, 2):
        assert counts == [288, 288]
    if shape == (1, 4):  # boxes are the rows: 4x4 Latin squares
        assert counts == [576, 576]


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


def test_augmented_round_trip_through_an_external_solver(tmp_path):
    """DIMACS in the augmented encoding: the triads are named in a comment, a solver binary
    solves the file, and ``decode`` reads its model (triads included) back."""
    import io
    import shutil
    import subprocess

    from conftest import SAMPLE, SAMPLE_SOLUTION
    from satdoku.cnf.decode import decode_solution, model_formula
    from satdoku.cnf.export import write_dimacs
    if shutil.which("cadical") is None:
        pytest.skip("cadical is not installed")
    grid = grid_of(SAMPLE)
    out = io.StringIO()
    write_dimacs(encode(grid, "augmented"), out)
    text = out.getvalue()
    assert "c variables 730..1215 are triads" in text and "p cnf 1215 " in text
    cnf = tmp_path / "p.cnf"
    cnf.write_text(text)
    answer = subprocess.run(["cadical", "-q", str(cnf)], capture_output=True, text=True,
                            timeout=60).stdout
    solution = decode_solution(answer, grid, model_formula(grid, "augmented"))
    assert "".join(map(str, solution.cells)) == SAMPLE_SOLUTION
