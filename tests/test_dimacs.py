"""dimacs: well-formed DIMACS with comments that decode by hand, full and reduced."""

import io
import shutil
import subprocess

import pytest

from conftest import SAMPLE, SAMPLE_SOLUTION, SEVENTEEN, grid_of
from satdoku.cnf.decode import decode_solution, model_formula
from satdoku.cnf.export import write_dimacs
from satdoku.cnf.formula import encode
from satdoku.cnf.formula import encode_base
from satdoku.cnf.reduced import reduced_formula
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid


def _split(text):
    lines = text.splitlines()
    header = [i for i, line in enumerate(lines) if line.startswith("p ")]
    assert len(header) == 1
    return lines[:header[0]], lines[header[0]], lines[header[0] + 1:]


def test_full_formula_is_well_formed():
    grid = Grid(geometry(2, 2), (1, 0, 0, 4) + (0,) * 12)
    formula = encode(grid)
    out = io.StringIO()
    write_dimacs(formula, out, puzzle_text="1..4............", grid=grid,
                 extra=["alphabet: 1234"], version="9.9")
    comments, p_line, body = _split(out.getvalue())
    assert comments and all(line.startswith("c ") for line in comments)
    text = "\n".join(comments)
    assert "satdoku 9.9" in text and "1..4............" in text and "encoding: extended" in text
    assert "c alphabet: 1234" in comments
    assert "cell = (v-1) // 4, digit = (v-1) % 4 + 1" in text
    assert p_line == f"p cnf 64 {len(formula.clauses)}"
    assert len(body) == len(formula.clauses)
    for line, clause in zip(body, formula.clauses):
        assert line.endswith(" 0")
        assert [int(x) for x in line.split()[:-1]] == clause


def test_comment_newlines_stay_comments():
    out = io.StringIO()
    write_dimacs(encode_base(geometry(1, 1)), out, puzzle_text="a\nb", extra=["x\ny"])
    head = out.getvalue().split("p cnf")[0].splitlines()
    assert all(line.startswith("c ") for line in head)


def test_reduced_formula_names_every_variable():
    grid = grid_of(SEVENTEEN)
    formula = reduced_formula(grid, amo="seqcounter", propagate=False, pairwise_max=4)
    out = io.StringIO()
    write_dimacs(formula, out, puzzle_text=SEVENTEEN, version="test")
    comments, p_line, body = _split(out.getvalue())
    assert all(line.startswith("c") for line in comments)
    assert f"c puzzle: {SEVENTEEN}" in comments
    nvars, nclauses = map(int, p_line.split()[2:])
    assert (nvars, nclauses) == (formula.nvars, len(formula.clauses))
    assert len(body) == nclauses
    for line in body:
        lits = list(map(int, line.split()))
        assert lits[-1] == 0 and all(0 < abs(x) <= nvars for x in lits[:-1])
    mapped = {}
    for line in comments:
        if line.startswith("c cell "):
            _, _, name, _, span, _, *digits = line.split()
            first, _, last = span.partition("-")
            vs = range(int(first), int(last or first) + 1)
            assert len(vs) == len(digits)
            for v, d in zip(vs, digits):
                mapped[v] = (name, int(d))
    assert sorted(mapped) == list(range(1, formula.nmapped + 1))
    cell, d = formula.pair(1)
    assert mapped[1] == (grid.geometry.cell_name(cell), d)


@pytest.mark.parametrize("binary", ["minisat", "cadical"])
@pytest.mark.parametrize("encoding", ["extended", "reduced"])
def test_external_solver_round_trip(tmp_path, binary, encoding):
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not installed")
    grid = grid_of(SAMPLE)
    cnf, model = tmp_path / "p.cnf", tmp_path / "model.txt"
    with cnf.open("w") as fp:
        write_dimacs(encode(grid, encoding), fp)
    if binary == "minisat":
        subprocess.run(["minisat", str(cnf), str(model)], capture_output=True, timeout=60)
        text = model.read_text()
    else:
        text = subprocess.run(["cadical", "-q", str(cnf)], capture_output=True, text=True,
                              timeout=60).stdout
    solution = decode_solution(text, grid, model_formula(grid, encoding))
    assert "".join(map(str, solution.cells)) == SAMPLE_SOLUTION


def test_auxiliary_variables_are_named_by_what_made_them():
    from satdoku.rules import Killer
    grid = grid_of("." * 16)
    killer = Killer((0, 1, 4), 9)

    def aux(formula):
        out = io.StringIO()
        write_dimacs(formula, out)
        return [line for line in out.getvalue().splitlines() if "auxiliary" in line]

    # Pairwise at-most-one adds no variable: a killer sum's auxiliaries are the rule's.
    assert aux(encode(grid, "extended", "pairwise", constraints=(killer,))) == \
        ["c variables 65..68 are auxiliary (the variant rules' encodings)"]
    assert aux(encode(grid, "extended", "seqcounter")) == \
        ["c variables 65..256 are auxiliary (seqcounter at-most-one)"]
    assert aux(encode(grid, "extended", "pairwise")) == []
