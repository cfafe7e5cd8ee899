"""The command line, run in-process with CliRunner: exact output, exit codes, stdin, files."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from satdoku.cli import main

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"

SAMPLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."
SAMPLE_SOLUTION = ("971468235624153987853927641538291476492876153716534829265349718387612594"
                   "149785362")
SAMPLE_HARD = ".714....5....5..8...39.76.......1....9...6..3......82.....4...83......9.....85..."
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
SEVENTEEN_SOLUTION = ("693784512487512936125963874932651487568247391741398625319475268856129743"
                      "274836159")
SMALL = "1.3..4.2.34.4.23"
SMALL_SOLUTION = "1234341223414123"
# Givens that do not clash, but r1c4 has no digit left (1, 2 and 3 in its row, 4 in its column).
UNSOLVABLE_4X4 = "123." + "...4" + "...." + "...."


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_solve_inline_line_format():
    result = run("solve", SMALL, "--format", "line")
    assert result.exit_code == 0
    assert result.stdout == SMALL_SOLUTION + "\n"
    assert result.stderr == ""


def test_solve_pretty_exact():
    result = run("solve", SMALL)
    assert result.exit_code == 0
    assert result.stdout == (
        "<arg>:1: solved by sat:minisat22\n"
        "1 2 | 3 4\n"
        "3 4 | 1 2\n"
        "----+----\n"
        "2 3 | 4 1\n"
        "4 1 | 2 3\n"
        "\n"
    ).replace("minisat22", _default_sat())


def _default_sat():
    from satdoku.sat import DEFAULT_SAT_SOLVER
    return DEFAULT_SAT_SOLVER


def test_solve_stdin_streams_in_order():
    result = run("solve", "--format", "line", input=f"{SEVENTEEN}\n# comment\n{SAMPLE}\n")
    assert result.exit_code == 0
    assert result.stdout == f"{SEVENTEEN_SOLUTION}\n{SAMPLE_SOLUTION}\n"


def test_solve_dash_is_stdin():
    result = run("solve", "-", "--format", "line", input=SMALL + "\n")
    assert result.stdout == SMALL_SOLUTION + "\n"


@pytest.mark.parametrize("method", ["sat", "native"])
def test_solve_shipped_files(method):
    result = run("solve", PUZZLES / "4x4.txt", PUZZLES / "9x9.txt", "--format", "json",
                 "--solver", method)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["solved"] * 5
    assert records[1]["solution"] == SAMPLE_SOLUTION
    assert records[0]["source"].endswith("4x4.txt")
    assert set(records[0]) >= {"puzzle", "solution", "status", "solver", "encoding", "time_ms"}


def test_bad_puzzles_reported_and_batch_goes_on():
    bad = PUZZLES / "bad.txt"
    result = run("solve", bad, "--format", "line")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert SAMPLE_SOLUTION in lines and SMALL_SOLUTION in lines
    assert lines.count("invalid") == len(lines) - 2
    errors = result.stderr.splitlines()
    assert f"{bad}:7: r1c9: 5 repeats the given at r1c1" in errors
    assert f"{bad}:4: r5c5: unknown symbol 'x'" in errors
    assert all(re.match(re.escape(str(bad)) + r":\d+: ", e) for e in errors)
    assert "Traceback" not in result.output


def test_missing_file_is_reported_not_raised():
    result = run("solve", "no/such/file.txt", SMALL, "--format", "line")
    assert result.exit_code == 1
    assert result.stdout == "invalid\n" + SMALL_SOLUTION + "\n"
    assert result.stderr == "no/such/file.txt: no such file (and not a puzzle either)\n"


def test_unsolvable_exit_1():
    result = run("solve", UNSOLVABLE_4X4, "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["status"] == "unsolvable"
    assert result.stderr == "<arg>:1: unsolvable\n"


def test_csv_has_header_and_stats_columns():
    result = run("solve", SMALL, SAMPLE, "--format", "csv", "--stats")
    assert result.exit_code == 0
    rows = result.stdout.splitlines()
    header = rows[0].split(",")
    assert header[:6] == ["source", "line", "name", "puzzle", "solution", "status"]
    assert "conflicts" in header and "guesses" in header
    assert len(rows) == 3
    assert rows[2].split(",")[4] == SAMPLE_SOLUTION


def test_json_stats():
    result = run("solve", SAMPLE, "--format", "json", "--stats")
    stats = json.loads(result.stdout)["stats"]
    assert {"variables", "clauses", "conflicts", "decisions", "propagations"} <= set(stats)
    assert {"parse_ms", "verify_ms"} <= set(stats)
    assert stats["variables"] == 729


def test_unique_and_count():
    result = run("solve", SAMPLE, SAMPLE_HARD, "--unique", "--format", "json")
    assert result.exit_code == 1  # a proper Sudoku has one solution
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["status"], r["count"]) for r in records] == [("unique", 1), ("multiple", 2)]
    counted = run("count", SAMPLE, SAMPLE_HARD, "--format", "line")
    assert counted.exit_code == 0
    assert counted.stdout == SAMPLE_SOLUTION + "\nmultiple\n"


def test_count_pretty_shows_where_two_solutions_differ():
    result = run("count", SAMPLE_HARD)
    assert result.exit_code == 0
    assert "multiple" in result.stdout.splitlines()[0]
    assert re.search(r"another solution, differing at \d+ cells \(r\d+c\d+", result.stdout)


def test_count_native_agrees():
    result = run("count", SAMPLE_HARD, "--solver", "native", "--limit", "3", "--format", "json")
    record = json.loads(result.stdout)
    assert record["status"] == "multiple" and record["count"] == 3


def test_output_file_atomic_and_no_overwrite(tmp_path):
    out = tmp_path / "out.txt"
    first = run("solve", SMALL, "--format", "line", "-o", out)
    assert first.exit_code == 0 and first.stdout == ""
    assert out.read_text() == SMALL_SOLUTION + "\n"
    again = run("solve", SAMPLE, "--format", "line", "-o", out)
    assert again.exit_code == 2
    assert "exists; use --force" in again.stderr
    assert out.read_text() == SMALL_SOLUTION + "\n"
    forced = run("solve", SAMPLE, "--format", "line", "-o", out, "--force")
    assert forced.exit_code == 0
    assert out.read_text() == SAMPLE_SOLUTION + "\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_usage_errors_exit_2():
    assert run("solve", SMALL, "--format", "xml").exit_code == 2
    assert run("solve", SMALL, "--box", "2y2").exit_code == 2
    unknown = run("solve", SMALL, "--sat-solver", "nosuch")
    assert unknown.exit_code == 2 and "nosuch" in unknown.stderr
    kissat = run("solve", SMALL, "--sat-solver", "kissat404")
    assert kissat.exit_code == 2 and "assumptions" in kissat.stderr


def test_box_option_reads_6x6_both_ways():
    puzzle = "1" + "." * 35
    wide = run("solve", puzzle, "--box", "2x3", "--format", "json")
    tall = run("solve", puzzle, "--box", "3x2", "--format", "json")
    assert wide.exit_code == tall.exit_code == 0
    assert json.loads(wide.stdout)["solution"] != json.loads(tall.stdout)["solution"]


def test_check_runs_both_solvers():
    result = run("solve", SAMPLE, SAMPLE_HARD, UNSOLVABLE_4X4, "--check", "--format", "json")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["unique", "multiple", "unsolvable"]
    assert all("disagreements" not in r for r in records)
    assert result.exit_code == 1  # multiple and unsolvable are failures of 'solve'


def test_encode_then_decode_round_trip(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf_path = tmp_path / "p.cnf"
    result = run("encode", SEVENTEEN, "-o", cnf_path)
    assert result.exit_code == 0
    text = cnf_path.read_text()
    header = [line for line in text.splitlines() if not line.startswith("c ")][0]
    assert header == "p cnf 729 " + str(11988 + 17)
    assert f"c puzzle: {SEVENTEEN}" in text
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(cnf_path)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    model_path = tmp_path / "model.txt"
    model_path.write_text("SAT\n" + " ".join(map(str, model)) + " 0\n")
    decoded = run("decode", model_path, "--puzzle", SEVENTEEN, "--format", "line")
    assert decoded.exit_code == 0
    assert decoded.stdout == SEVENTEEN_SOLUTION + "\n"


def test_encode_clues_none_has_no_units():
    result = run("encode", SMALL, "--clues", "none")
    assert result.exit_code == 0
    assert "p cnf 64 " in result.stdout
    assert not any(re.fullmatch(r"-?\d+ 0", line) for line in result.stdout.splitlines())


def test_decode_errors_are_one_line(tmp_path):
    unsat = tmp_path / "unsat.txt"
    unsat.write_text("s UNSATISFIABLE\n")
    result = run("decode", unsat, "--puzzle", SMALL)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {unsat}:1: the solver found no solution: " \
                            "the puzzle is unsolvable\n"
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("SAT\n1 2 x 0\n")
    result = run("decode", garbage, "--puzzle", SMALL)
    assert result.exit_code == 1 and "garbage.txt:2:" in result.stderr
    wrong = tmp_path / "wrong.txt"  # a model of another puzzle: r1c1 holds 2, the given is 1
    lits = [(c * 4 + d) * (1 if d == int("2143341243211234"[c]) else -1)
            for c in range(16) for d in range(1, 5)]
    wrong.write_text("SAT\n" + " ".join(map(str, lits)) + " 0\n")
    result = run("decode", wrong, "--puzzle", SMALL)
    assert result.exit_code == 1
    assert "does not solve this puzzle" in result.stderr and "r1c1" in result.stderr


def test_decode_model_from_stdin():
    lits = [(c * 4 + d) * (1 if d == int(SMALL_SOLUTION[c]) else -1)
            for c in range(16) for d in range(1, 5)]
    model = "c from a solver\ns SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n"
    result = run("decode", "-", "--puzzle", SMALL, "--format", "line", input=model)
    assert result.exit_code == 0
    assert result.stdout == SMALL_SOLUTION + "\n"


@pytest.mark.parametrize("binary", ["minisat", "cadical"])
def test_end_to_end_with_external_solver(binary, tmp_path):
    exe = shutil.which(binary)
    if exe is None:
        pytest.skip(f"{binary} is not installed")
    cnf = tmp_path / "p.cnf"
    assert run("encode", SEVENTEEN, "-o", cnf).exit_code == 0
    model = tmp_path / "model.txt"
    if binary == "minisat":
        subprocess.run([exe, str(cnf), str(model)], capture_output=True, check=False)
    else:
        proc = subprocess.run([exe, str(cnf)], capture_output=True, text=True, check=False)
        assert proc.returncode == 10  # SATISFIABLE
        model.write_text(proc.stdout)
    result = run("decode", model, "--puzzle", SEVENTEEN, "--format", "line")
    assert result.exit_code == 0, result.output
    assert result.stdout == SEVENTEEN_SOLUTION + "\n"


def test_every_command_has_help_and_is_in_readme():
    readme = (ROOT / "README.md").read_text()
    for name, command in main.commands.items():
        result = run(name, "--help")
        assert result.exit_code == 0 and command.help
        assert f"satdoku {name}" in readme, f"README does not show 'satdoku {name}'"


def test_version():
    from satdoku import __version__
    assert run("--version").stdout == f"satdoku, version {__version__}\n"


def test_jobs_keeps_input_order_and_errors():
    bad = PUZZLES / "bad.txt"
    one = run("solve", bad, PUZZLES / "9x9.txt", "--format", "json")
    two = run("solve", bad, PUZZLES / "9x9.txt", "--format", "json", "--jobs", "2")
    strip = lambda out: [{k: v for k, v in json.loads(line).items() if k != "time_ms"}
                         for line in out.splitlines()]
    assert strip(two.stdout) == strip(one.stdout)
    assert two.exit_code == one.exit_code == 1
    assert two.stderr == one.stderr


def test_encode_reduced_then_decode(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf_path = tmp_path / "r.cnf"
    # sampleHard: propagation alone does not finish it, so the reduced CNF has variables.
    assert run("encode", SAMPLE_HARD, "--clues", "reduced", "-o", cnf_path).exit_code == 0
    text = cnf_path.read_text()
    assert re.search(r"^c cell r1c1 vars 1(-\d+)? digits [\d ]+$", text, re.M)
    assert all(line.startswith(("c ", "p cnf")) or re.fullmatch(r"(-?\d+ )*0", line)
               for line in text.splitlines())
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf_path)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    model_path = tmp_path / "model.txt"
    model_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    decoded = run("decode", model_path, "--puzzle", SAMPLE_HARD, "--clues", "reduced",
                  "--format", "json")
    assert decoded.exit_code == 0, decoded.output
    solution = json.loads(decoded.stdout)["solution"]
    assert all(a in (".", b) for a, b in zip(SAMPLE_HARD, solution))
    plain = run("decode", model_path, "--puzzle", SAMPLE_HARD)  # forgot --clues reduced
    assert plain.exit_code == 1 and plain.stderr.startswith("Error: ")


def test_python_dash_m():
    import sys
    proc = subprocess.run([sys.executable, "-m", "satdoku", "solve", SMALL, "--format", "line"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout == SMALL_SOLUTION + "\n"


def test_output_file_gets_ordinary_permissions(tmp_path):
    import os
    out = tmp_path / "out.txt"
    assert run("solve", SMALL, "--format", "line", "-o", out).exit_code == 0
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


def test_check_exits_3_when_the_solvers_disagree(monkeypatch):
    from satdoku import solvers
    from satdoku.result import Result

    class Broken:  # a native solver that never finds anything
        name, encoding = "native", None

        def solve(self, grid, *, limit=1, timeout=None):
            return Result(status="unsolvable", count=0, solver=self.name)

        def close(self):
            pass

    monkeypatch.setitem(solvers.METHODS, "native", lambda **options: Broken())
    result = run("solve", SAMPLE, "--check", "--format", "line")
    assert result.exit_code == 3
    assert result.stdout == SAMPLE_SOLUTION + "\n"
    assert result.stderr.endswith(f"disagreement: sat:{_default_sat()} finds unique, "
                                  "native finds unsolvable\n")


def test_seed_puzzles_counted(tmp_path):
    result = run("count", PUZZLES / "9x9.txt", "--format", "json")
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == [
        "unique", "multiple", "multiple", "unique"]  # sample, sampleHard, sampleDevilish, 17


def test_empty_input_is_reported(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# only a comment\n")
    result = run("solve", empty, SMALL, "--format", "line")
    assert result.exit_code == 1
    assert result.stdout == "invalid\n" + SMALL_SOLUTION + "\n"
    assert result.stderr == f"{empty}: no puzzles found\n"
    assert run("solve", input="").stderr == "<stdin>: no puzzles found\n"


# explain, generate, rate

def test_explain_unsolvable_exact():
    result = run("explain", UNSOLVABLE_4X4)
    assert result.exit_code == 0
    assert result.stdout == (
        "<arg>:1: unsolvable: these 3 givens cannot all hold, and each of them is needed for "
        "that:\n"
        "  r1c1=1, r1c2=2, r2c4=4\n"
        "[1][2]| 3  .\n"
        " .  . | . [4]\n"
        "------+------\n"
        " .  . | .  .\n"
        " .  . | .  .\n"
        "\n")


def test_explain_json_for_each_kind_and_bad_input_goes_on():
    result = run("explain", "--format", "json", UNSOLVABLE_4X4, "." * 16, SMALL, "12")
    assert result.exit_code == 1  # the bad puzzle
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["unsolvable", "multiple", "unique", "invalid"]
    # r1c3 is not needed: r1c3 and r1c4 must hold 3 and 4, and the 4 at r2c4 is in their box.
    assert [c["cell"] for c in records[0]["core"]] == ["r1c1", "r1c2", "r2c4"]
    assert records[1]["differing"] and records[1]["solution"] != records[1]["second"]
    assert records[2]["solution"] == SMALL_SOLUTION
    assert records[2]["techniques"]["hardest"] == "naked singles"
    assert "<arg>:1: 2 cells" in result.stderr


def test_explain_unique_says_what_it_takes():
    result = run("explain", SEVENTEEN)
    assert result.exit_code == 0
    assert "unique solution; it takes hidden singles" in result.stdout
    assert SEVENTEEN_SOLUTION[:9] == result.stdout.splitlines()[2].replace(" ", "").replace(
        "|", "")


def test_generate_line_output_solves_back_unique_and_is_reproducible():
    first = run("generate", "--box", "2x3", "--count", "3", "--seed", "9", "--format", "line")
    assert first.exit_code == 0 and first.stderr == ""
    lines = first.stdout.splitlines()
    assert len(lines) == 3 and all(len(line) == 36 for line in lines)
    again = run("generate", "--box", "2x3", "--count", "3", "--seed", "9", "--format", "line")
    assert again.stdout == first.stdout
    solved = run("solve", "--unique", "--format", "json", input=first.stdout)
    assert solved.exit_code == 0
    assert {json.loads(r)["status"] for r in solved.stdout.splitlines()} == {"unique"}


def test_generate_json_csv_pretty_and_random_seed_shown():
    result = run("generate", "--seed", "1", "--format", "json", "--symmetry", "rotate180")
    record = json.loads(result.stdout)
    assert record["box"] == "3x3" and record["seed"] == 1 and record["symmetry"] == "rotate180"
    assert record["clues"] == record["puzzle"].count(".") * -1 + 81
    csv_out = run("generate", "--seed", "1", "--format", "csv", "--count", "2").stdout
    assert csv_out.splitlines()[0].startswith("index,seed,box,symmetry,clues,minimal,puzzle")
    assert len(csv_out.splitlines()) == 3
    pretty = run("generate", "--seed", "1", "--box", "2x2")
    assert pretty.stdout.startswith("#1 (seed 1): ") and "unique, minimal" in pretty.stdout
    unseeded = run("generate", "--box", "2x2", "--format", "line")
    seed = re.fullmatch(r"seed (\d+) \(--seed \1 makes these puzzles again\)\n", unseeded.stderr)
    assert seed
    assert run("generate", "--box", "2x2", "--format", "line", "--seed",
               seed.group(1)).stdout == unseeded.stdout


def test_generate_minimal_and_max_clues_and_failure_message():
    result = run("generate", "--seed", "2", "--minimal", "--max-clues", "25", "--format", "json")
    record = json.loads(result.stdout)
    assert record["minimal"] is True and record["clues"] <= 25
    failed = run("generate", "--seed", "2", "--max-clues", "12", "--attempts", "2", "--count", "2")
    assert failed.exit_code == 1
    assert failed.stderr == ("made 0 of 2 puzzles: no puzzle with at most 12 clues found in 2 "
                             "grids; allow more attempts (--attempts) or relax the conditions\n")


def test_generate_output_file_atomic_and_not_overwritten(tmp_path):
    out = tmp_path / "made.txt"
    assert run("generate", "--seed", "3", "--format", "line", "-o", out).exit_code == 0
    assert len(out.read_text().splitlines()) == 1
    again = run("generate", "--seed", "4", "--format", "line", "-o", out)
    assert again.exit_code == 2 and "exists" in again.stderr
    assert run("generate", "--box", "3x", "--seed", "1").exit_code == 2


def test_rate_line_csv_and_summary():
    result = run("rate", "--format", "line", PUZZLES / "9x9.txt")
    assert result.exit_code == 1  # two puzzles of the file have several solutions
    lines = result.stdout.splitlines()
    assert lines[1:3] == ["multiple", "multiple"]
    score, label = lines[0].split()
    assert float(score) > 3 and label in ("fiendish", "diabolical", "extreme")
    assert re.search(r"rated 2: mean \d+\.\d\d, median", result.stderr)
    table = run("rate", "--format", "csv", SMALL).stdout.splitlines()
    assert table[0].startswith("source,line,name,puzzle,status,score,label,hardest")
    assert ",rated,0.0,easy,naked singles," in table[1]


def test_rate_json_and_bad_puzzle():
    result = run("rate", "--format", "json", SEVENTEEN, "1.3")
    assert result.exit_code == 1
    good, bad = (json.loads(line) for line in result.stdout.splitlines())
    assert good["status"] == "rated" and good["techniques"]["hardest"] == "hidden singles"
    assert bad["status"] == "invalid" and "3 cells" in bad["message"]


def test_rate_jobs_same_output():
    one = run("rate", "--format", "csv", PUZZLES / "9x9.txt", PUZZLES / "4x4.txt")
    two = run("rate", "--format", "csv", "--jobs", "2", PUZZLES / "9x9.txt", PUZZLES / "4x4.txt")

    def without_times(text):  # time_ms and message are the last two columns
        return [line.rsplit(",", 2)[0] for line in text.splitlines()]
    assert without_times(two.stdout) == without_times(one.stdout)
    assert two.exit_code == one.exit_code == 1  # 9x9.txt holds two puzzles with several solutions
