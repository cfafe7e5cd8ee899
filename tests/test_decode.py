"""decode: reading solver output strictly, and turning models into verified grids."""

import json

import pytest

from conftest import ROOT, SAMPLE, SAMPLE_SOLUTION, grid_of, run_cli
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
    from satdoku.cnf.decode import read_header
    source = "puzzles/16x16.txt" if "reduced" in args else "puzzles/9x9.txt"
    cnf, model = tmp_path / "p.cnf", tmp_path / "p.out"
    done = run_cli("encode", source, "-o", str(cnf), *args)
    assert done.exit_code == 0, done.output
    header = read_header(str(cnf))
    assert header.encoding == (args[1] if args and args[0] == "--encoding" else "extended")
    _model_of(cnf, model)
    decoded = run_cli("decode", str(model), "--cnf", str(cnf), "--format", "line")
    given = run_cli("decode", str(model), "--puzzle", source, "--format", "line",
                    *[a for a in args if a != "--box" and "x" not in a])
    assert decoded.exit_code == 0, decoded.output
    assert decoded.stdout == given.stdout and len(decoded.stdout.strip()) in (81, 256)
    clash = run_cli("decode", str(model), "--cnf", str(cnf), "--encoding", "natural")
    assert clash.exit_code == 3 and "but its comments say" in clash.output


def test_decode_a_folder(tmp_path):
    folder = tmp_path / "cnf"
    assert run_cli("encode", "puzzles/9x9.txt", "-o", f"{folder}/").exit_code == 0
    cnfs = sorted(folder.glob("*.cnf"))
    assert len(cnfs) >= 3
    for cnf in cnfs[1:]:  # the first puzzle's model is missing: an error for it alone
        _model_of(cnf, folder / (cnf.stem + ".model"))
    done = run_cli("decode", f"{folder}/", "--cnf", f"{folder}/", "--format",
                   "line")
    lines = done.stdout.splitlines()
    assert done.exit_code == 3 and lines[0] == "error"  # one line a puzzle, in name order
    assert len(lines) == len(cnfs) and all(len(line) == 81 for line in lines[1:])
    assert "no model file for it" in done.stderr
    bad = run_cli("decode", f"{folder}/", "--puzzle", "puzzles/9x9.txt")
    assert bad.exit_code == 2 and "takes --cnf DIR/" in bad.output
    neither = run_cli("decode", str(cnfs[0]))
    assert neither.exit_code == 2 and "give --puzzle" in neither.output


@pytest.mark.parametrize("solver", ["minisat", "cadical"])
def test_a_whole_file_round_trips_through_an_external_solver(tmp_path, solver):
    """encode FILE -o DIR/, a solver binary (Debian's minisat: result files; cadical:
    competition output) on every CNF, decode MODELS/ --cnf DIR/: one verified grid a puzzle,
    in the file's order. puzzles/9x9.txt holds two unique puzzles (its 1st and 4th) and two
    with many solutions, whose grids the solver picks (decode checks them against the
    puzzle)."""
    import shutil
    import subprocess
    binary = shutil.which(solver)
    if binary is None:
        pytest.skip(f"{solver} is not installed (apt-get install {solver})")
    cnfs, models = tmp_path / "cnf", tmp_path / "models"
    assert run_cli("encode", "puzzles/9x9.txt", "-o", f"{cnfs}/").exit_code == 0
    models.mkdir()
    for cnf in cnfs.glob("*.cnf"):
        model = models / (cnf.stem + ".out")
        if solver == "minisat":
            subprocess.run([binary, str(cnf), str(model)], capture_output=True, timeout=60)
        else:
            model.write_text(subprocess.run([binary, "-q", str(cnf)], capture_output=True,
                                            text=True, timeout=60).stdout)
    done = run_cli("decode", f"{models}/", "--cnf", f"{cnfs}/", "--format",
                   "json")
    assert done.exit_code == 0, done.output
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["source"].rsplit("/", 1)[1] for r in records] == [  # the file's order
        "9x9-3.cnf", "9x9-4.cnf", "9x9-5.cnf", "9x9-6.cnf"]
    assert all(r["status"] == "solved" for r in records)
    solved = run_cli("count", "puzzles/9x9.txt", "--format", "line").stdout
    unique = [line for line in solved.splitlines() if len(line) == 81]
    assert [records[0]["solution"], records[3]["solution"]] == unique


def test_a_folder_is_decoded_in_the_order_of_its_numbers(tmp_path):
    from satdoku.cli.tools import _model_pairs
    for stem in ("pe-102", "pe-12", "pe-9", "pe-10"):
        (tmp_path / f"{stem}.cnf").write_text("")
        (tmp_path / f"{stem}.out").write_text("")
    pairs = _model_pairs(str(tmp_path), str(tmp_path))
    assert [p[1].rsplit("/", 1)[1] for p in pairs] == [
        "pe-9.cnf", "pe-10.cnf", "pe-12.cnf", "pe-102.cnf"]
    assert all(model.endswith(".out") for model, _ in pairs)


@pytest.mark.parametrize("source", ["puzzles/variants/irregular-7x7-kropki.json",
                                    "puzzles/variants/hash-movie.json", "unicode"])
def test_a_puzzle_of_regions_or_odd_text_decodes_from_its_cnf_alone(tmp_path, source):
    # a jigsaw's regions, and a name with a line separator in it, travel in the document
    if source == "unicode":
        document = json.loads((ROOT / "puzzles/variants/eddies.json").read_text())
        document["name"] = "Line\u2028Two\u0085"
        source = str(tmp_path / "u.json")
        (tmp_path / "u.json").write_text(json.dumps(document, ensure_ascii=False))
    cnf, model = tmp_path / "p.cnf", tmp_path / "p.out"
    assert run_cli("encode", source, "-o", str(cnf)).exit_code == 0
    assert all(line.isascii() for line in cnf.read_text().splitlines() if "document" in line)
    _model_of(cnf, model)
    alone = run_cli("decode", str(model), "--cnf", str(cnf), "--format", "line")
    given = run_cli("decode", str(model), "--puzzle", source, "--format", "line")
    assert alone.exit_code == given.exit_code == 0, alone.output
    assert alone.stdout == given.stdout


def test_a_variant_cnf_carries_its_document_and_decodes_alone(tmp_path):
    # encode writes a variant puzzle's rules as its satdoku JSON in a 'c document:' line;
    # decode --cnf rebuilds them from it, and checks the model's grid against every rule
    cnf, model = tmp_path / "e.cnf", tmp_path / "e.out"
    source = "puzzles/variants/eddies.json"
    assert run_cli("encode", source, "-o", str(cnf)).exit_code == 0
    documents = [line for line in cnf.read_text().splitlines() if line.startswith("c document: ")]
    assert len(documents) == 1 and json.loads(documents[0][len("c document: "):])["constraints"]
    _model_of(cnf, model)
    alone = run_cli("decode", str(model), "--cnf", str(cnf), "--format", "line")
    given = run_cli("decode", str(model), "--puzzle", source, "--format", "line")
    assert alone.exit_code == given.exit_code == 0, alone.output
    assert alone.stdout == given.stdout and len(alone.stdout.strip()) == 81
    # the rules come from the document: a model that breaks one (but keeps Sudoku's own
    # rules) is refused
    solution = alone.stdout.strip()
    swapped = solution.translate(str.maketrans("12", "21"))
    true = {cell * 9 + int(d) for cell, d in enumerate(swapped)}
    lits = [v if v in true else -v for v in range(1, 730)]
    model.write_text("s SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n")
    broken = run_cli("decode", str(model), "--cnf", str(cnf))
    assert broken.exit_code == 3 and "error" in broken.stdout
    assert "does not solve this puzzle: odd r4c4" in broken.stderr
    # a document whose givens are not the CNF's puzzle line is refused, naming its line
    text = cnf.read_text()
    number = text.splitlines().index(documents[0]) + 1
    cnf.write_text(text.replace('"givens": {}', '"givens": {"r1c1": 5}'))
    edited = run_cli("decode", str(model), "--cnf", str(cnf))
    assert edited.exit_code == 3 and f"e.cnf:{number}: its document's givens" in edited.stderr
    # and one whose rules are not as many as the CNF encodes (a rule cut out by hand)
    doc = json.loads(documents[0][len("c document: "):])
    doc["constraints"] = doc["constraints"][1:]
    cnf.write_text(text.replace(documents[0], "c document: " + json.dumps(doc)))
    cut = run_cli("decode", str(model), "--cnf", str(cnf))
    assert cut.exit_code == 3
    assert f"e.cnf:{number}: its document has 12 rules but its 'c variant rules:' line says " \
        "13" in cut.stderr
