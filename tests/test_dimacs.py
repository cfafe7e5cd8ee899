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


# encode -o DIR/ (every puzzle of a file) and --format icnf (the givens as assumptions).

from conftest import PUZZLES, SAMPLE_HARD, SMALL, run_cli  # noqa: E402


def test_encode_writes_every_puzzle_into_a_folder_and_never_over_a_file(tmp_path):
    folder = tmp_path / "cnf"
    done = run_cli("encode", PUZZLES / "9x9.txt", "-o", f"{folder}/")
    assert done.exit_code == 0, done.output
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["9x9-3.cnf", "9x9-4.cnf", "9x9-5.cnf", "9x9-6.cnf"]
    header = (folder / "9x9-6.cnf").read_text().splitlines()[1]
    assert header == f"c puzzle: {SEVENTEEN}"
    again = run_cli("encode", PUZZLES / "9x9.txt", "-o", folder)
    assert again.exit_code == 2 and "9x9-3.cnf exists (and 3 more)" in again.stderr
    assert run_cli("encode", PUZZLES / "9x9.txt", "-o", folder, "--force").exit_code == 0
    refused = run_cli("encode", PUZZLES / "9x9.txt", "-o", folder, "--index", "2")
    assert refused.exit_code == 2 and "--index picks one puzzle" in refused.stderr


def test_a_folder_takes_the_good_puzzles_and_reports_the_bad(tmp_path):
    done = run_cli("encode", PUZZLES / "bad.txt", "-o", f"{tmp_path}/")
    assert done.exit_code == 1 and "bad.txt:4: r5c5: unknown symbol 'x'" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad-10.cnf", "bad-5.cnf"]


def _icnf(text):
    """(clauses, cubes) of an ICNF text."""
    lines = [line.split() for line in text.splitlines() if line and line[0] not in "c"]
    assert lines[0] == ["p", "inccnf"]
    clauses = [[int(t) for t in line[:-1]] for line in lines[1:] if line[0] != "a"]
    cubes = [[int(t) for t in line[1:-1]] for line in lines[1:] if line[0] == "a"]
    return clauses, cubes


def test_icnf_gives_each_puzzle_as_assumptions_on_one_formula(tmp_path):
    from pysat.solvers import Solver
    out = tmp_path / "all.icnf"
    done = run_cli("encode", PUZZLES / "9x9.txt", "--format", "icnf", "-o", out)
    assert done.exit_code == 0, done.output
    clauses, cubes = _icnf(out.read_text())
    assert len(clauses) == len(encode(grid_of(SAMPLE), "extended", clues="none").clauses)
    assert len(cubes) == 4 and len(cubes[0]) == grid_of(SAMPLE).nclues
    formula = model_formula(grid_of(SAMPLE), "extended")
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        for cube, puzzle in zip(cubes, (SAMPLE, SAMPLE_HARD)):
            assert solver.solve(assumptions=cube)
            model = "v " + " ".join(map(str, solver.get_model())) + " 0\n"
            solution = decode_solution(model, grid_of(puzzle), formula)
            assert puzzle != SAMPLE or "".join(map(str, solution.cells)) == SAMPLE_SOLUTION


def test_icnf_refuses_what_one_formula_cannot_hold(tmp_path):
    mixed = run_cli("encode", PUZZLES / "bad.txt", "--format", "icnf")
    assert mixed.exit_code == 1 and "must share a grid shape" in mixed.stderr
    big = run_cli("encode", PUZZLES / "25x25.txt", "--format", "icnf")
    assert big.exit_code == 1 and "name a full one (--encoding extended)" in big.stderr
    one = run_cli("encode", SMALL, "--format", "icnf", "-o", f"{tmp_path}/")
    cells = grid_of(SMALL).cells
    assert one.exit_code == 0 and _icnf((tmp_path / "arg-1.icnf").read_text())[1] == [
        [cell * 4 + d for cell, d in enumerate(cells) if d]]  # var(cell, d) = cell*N + d


def test_clues_left_out_are_not_called_clauses():
    units = run_cli("encode", SMALL).stdout.splitlines()
    none = run_cli("encode", SMALL, "--clues", "none").stdout.splitlines()
    assert "c clues: 9" in units and "c clues: 9" not in none
    assert "c clues: 9 given, not in this formula (give them as assumptions)" in none
    assert len(units) == len(none) + 9
