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


def _model_of(cnf_path, model_path):
    """Solve the CNF at ``cnf_path`` with python-sat (no satdoku code) and write the model in
    the SAT-competition form."""
    from pysat.formula import CNF
    from pysat.solvers import Solver
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf_path)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    model_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")


@pytest.mark.parametrize("args", [[], ["--encoding", "augmented"], ["--amo", "seqcounter"],
                                  ["--encoding", "reduced", "--box", "4x4"]])
def test_decode_reads_the_cnf_header(tmp_path, args):
    from click.testing import CliRunner
    from satdoku.cli import main
    from satdoku.cnf.decode import read_header
    source = "puzzles/16x16.txt" if "reduced" in args else "puzzles/9x9.txt"
    cnf, model = tmp_path / "p.cnf", tmp_path / "p.out"
    runner = CliRunner()
    done = runner.invoke(main, ["encode", source, "-o", str(cnf), *args])
    assert done.exit_code == 0, done.output
    header = read_header(str(cnf))
    assert header.encoding == (args[1] if args and args[0] == "--encoding" else "extended")
    _model_of(cnf, model)
    decoded = runner.invoke(main, ["decode", str(model), "--cnf", str(cnf), "--format", "line"])
    given = runner.invoke(main, ["decode", str(model), "--puzzle", source, "--format", "line",
                                 *[a for a in args if a != "--box" and "x" not in a]])
    assert decoded.exit_code == 0, decoded.output
    assert decoded.stdout == given.stdout and len(decoded.stdout.strip()) in (81, 256)
    clash = runner.invoke(main, ["decode", str(model), "--cnf", str(cnf), "--encoding", "natural"])
    assert clash.exit_code == 3 and "but its comments say" in clash.output


def test_decode_a_folder(tmp_path):
    from click.testing import CliRunner
    from satdoku.cli import main
    runner = CliRunner()
    folder = tmp_path / "cnf"
    assert runner.invoke(main, ["encode", "puzzles/9x9.txt", "-o", f"{folder}/"]).exit_code == 0
    cnfs = sorted(folder.glob("*.cnf"))
    assert len(cnfs) >= 3
    for cnf in cnfs[1:]:  # the first puzzle's model is missing: an error for it alone
        _model_of(cnf, folder / (cnf.stem + ".model"))
    done = runner.invoke(main, ["decode", f"{folder}/", "--cnf", f"{folder}/", "--format",
                                "line"])
    lines = done.stdout.splitlines()
    assert done.exit_code == 3 and lines[0] == "error"  # one line a puzzle, in name order
    assert len(lines) == len(cnfs) and all(len(line) == 81 for line in lines[1:])
    assert "no model file for it" in done.stderr
    bad = runner.invoke(main, ["decode", f"{folder}/", "--puzzle", "puzzles/9x9.txt"])
    assert bad.exit_code == 2 and "takes --cnf DIR/" in bad.output
    neither = runner.invoke(main, ["decode", str(cnfs[0])])
    assert neither.exit_code == 2 and "give --puzzle" in neither.output
