"""The command line, run in-process (conftest.run_cli; and as a real process where signals,
pipes and terminals matter): exact output, exit codes, stdin, files, one vocabulary."""

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import (EMPTY_4X4, canonical_puzzle, cli_commands, PUZZLES, ROOT, SAMPLE, SAMPLE_HARD, SAMPLE_SOLUTION, SEVENTEEN,
                      SEVENTEEN_SOLUTION, SHARED, SMALL, SMALL_SOLUTION, UNSOLVABLE_4X4,
                      last_word, run_cli as run, wait_for_cpu)
from satdoku.sat.catalogue import DEFAULT_SAT_SOLVER


def _default_sat():
    return DEFAULT_SAT_SOLVER


def records(text):
    return [json.loads(line) for line in text.splitlines()]


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
    # a usage error (exit 2, as click's own path checks exit), the other inputs answered
    result = run("solve", "no/such/file.txt", SMALL, "--format", "line")
    assert result.exit_code == 2
    assert result.stdout == "invalid\n" + SMALL_SOLUTION + "\n"
    assert result.stderr == "no/such/file.txt: no such file (and not a puzzle either)\n"


def test_unsolvable_exit_1():
    result = run("solve", UNSOLVABLE_4X4, "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["status"] == "unsolvable"
    assert result.stderr == "<arg>:1: unsolvable\n"


def test_count_pretty_shows_where_two_solutions_differ():
    result = run("count", SAMPLE_HARD)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("<arg>:1: multiple (at least 2 solutions)")
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


def test_box_option_reads_6x6_both_ways():
    puzzle = "1" + "." * 35
    wide = run("solve", puzzle, "--box", "2x3", "--format", "json")
    tall = run("solve", puzzle, "--box", "3x2", "--format", "json")
    assert wide.exit_code == tall.exit_code == 0
    assert json.loads(wide.stdout)["solution"] != json.loads(tall.stdout)["solution"]


def test_check_runs_both_solvers():
    result = run("solve", SAMPLE, SAMPLE_HARD, UNSOLVABLE_4X4, "--check", "--format", "json")
    found = records(result.stdout)
    assert [r["status"] for r in found] == ["unique", "multiple", "unsolvable"]
    assert all("disagreements" not in r for r in found)
    assert result.exit_code == 1  # multiple and unsolvable are failures of 'solve'


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
    both = tmp_path / "both.txt"
    both.write_text("s SATISFIABLE\nv 1 -1 0\n")
    result = run("decode", both, "--puzzle", SMALL)
    assert result.stderr == f"Error: {both}:2: variable 1 is set both true and false\n"
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


def test_jobs_keeps_input_order_and_errors():
    bad = PUZZLES / "bad.txt"
    one = run("solve", bad, PUZZLES / "9x9.txt", "--format", "json")
    two = run("solve", bad, PUZZLES / "9x9.txt", "--format", "json", "--jobs", "2")
    strip = lambda out: [{k: v for k, v in json.loads(line).items() if k != "time_ms"}
                         for line in out.splitlines()]
    assert strip(two.stdout) == strip(one.stdout)
    assert two.exit_code == one.exit_code == 1
    assert two.stderr == one.stderr


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


def test_explain_unique_says_what_it_takes():
    result = run("explain", SEVENTEEN)
    assert result.exit_code == 0
    assert "unique solution; medium, ER 1.5/EP 1.2/ED 1.2 (Hidden Single)" in result.stdout
    assert SEVENTEEN_SOLUTION[:9] == result.stdout.splitlines()[1].replace(" ", "").replace(
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




# One vocabulary: the defects of the surface issue, each with its test.

COMMANDS_WITH_ALPHABET = [
    ("solve", SMALL), ("count", SMALL), ("explain", SMALL), ("rate", SMALL),
    ("encode", SMALL), ("decode", "-", "--puzzle", SMALL), ("generate",),
    ("bench", str(PUZZLES / "4x4.txt")),
]


@pytest.mark.parametrize("bad", ["1123", "12 4"])
@pytest.mark.parametrize("command", COMMANDS_WITH_ALPHABET, ids=lambda c: c[0])
def test_bad_alphabet_is_a_usage_error_everywhere(command, bad):
    result = run(*command, "--alphabet", bad)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit)
    assert result.stderr.splitlines()[-1].startswith("Error: Invalid value for '--alphabet': ")
    assert ("has '1' twice" if bad == "1123" else "cannot be a symbol") in result.stderr


def test_count_shows_the_count_in_every_format():
    line = run("count", EMPTY_4X4, "--limit", "1000", "--format", "line")
    assert (line.exit_code, line.stdout) == (0, "multiple (288)\n")
    capped = run("count", EMPTY_4X4, "--limit", "10", "--format", "line")
    assert capped.stdout == "multiple (at least 10)\n"
    pretty = run("count", EMPTY_4X4, "--limit", "1000")
    assert pretty.stdout.startswith("<arg>:1: multiple (288 solutions) by sat:")
    rec, = records(run("count", EMPTY_4X4, "--limit", "1000", "--format", "json").stdout)
    assert (rec["count"], rec["at_limit"]) == (288, False)
    rows = list(csv.DictReader(io.StringIO(
        run("count", EMPTY_4X4, "--limit", "1000", "--format", "csv").stdout)))
    assert rows[0]["count"] == "288" and rows[0]["second"] and rows[0]["differing"]


@pytest.mark.parametrize("solver, encoding, stages", [
    ("sat", "extended", ["parse_ms", "encode_ms", "load_ms", "solve_ms", "verify_ms"]),
    ("sat", "reduced", ["parse_ms", "encode_ms", "load_ms", "solve_ms", "verify_ms"]),
    ("native", None, ["parse_ms", "solve_ms", "verify_ms"]),
])
def test_stats_give_every_stage(solver, encoding, stages):
    args = ["solve", SAMPLE_HARD, "--stats", "--solver", solver]
    args += ["--encoding", encoding] if encoding else []
    stats = records(run(*args, "--format", "json").stdout)[0]["stats"]
    assert set(stages) <= set(stats)
    assert all(isinstance(stats[k], (int, float)) for k in stages)
    row, = csv.DictReader(io.StringIO(run(*args, "--format", "csv").stdout))
    assert all(row[k] != "" for k in stages)
    if solver == "sat":
        assert row["variables"] and row["clauses"] and row["conflicts"]


def test_dash_is_stdout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("solve", SMALL, "--format", "line", "-o", "-")
    assert (result.exit_code, result.stdout) == (0, SMALL_SOLUTION + "\n")
    assert run("encode", SMALL, "-o", "-").stdout.startswith("c satdoku")
    assert run("generate", "--seed", "1", "--format", "line", "-o", "-").stdout.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_encode_uses_the_size_default_and_refuses_what_solve_refuses():
    from satdoku.tasks.generate import pattern_grid
    from satdoku.model.geometry import geometry
    from conftest import with_holes
    from satdoku.io.text import format_grid
    big = format_grid(with_holes(pattern_grid(geometry(6, 6)), 3), "line")
    reduced = run("encode", big)
    assert reduced.exit_code == 0
    assert "as reduced CNF" in reduced.stdout.splitlines()[0]
    limit = ["--encoding", "extended", "--max-clauses", "1000000"]
    full = run("encode", big, *limit)
    solve = run("solve", big, *limit, "--format", "line")
    assert full.exit_code == solve.exit_code == 1
    message = ("a 36x36 grid in the extended encoding needs 3,271,104 clauses, over the limit "
               "of 1,000,000 (raise it with --max-clauses)")
    assert full.stderr == f"Error: {message}\n" and full.stdout == ""
    assert (solve.stdout, solve.stderr) == ("refused\n", f"<arg>:1: {message}\n")


@pytest.mark.parametrize("command", ["explain", "rate"])
def test_refusals_name_only_options_the_command_has(command):
    empty = " ".join(["0"] * 81 * 81)
    result = run(command, empty, "--encoding", "extended", "--format", "json")
    rec, = records(result.stdout)
    assert (result.exit_code, rec["status"]) == (1, "refused")
    options = set(re.findall(r"--[a-z-]+", rec["message"]))
    assert options and options <= {o for p in cli_commands()[command].params for o in p.flags}


def test_statuses_are_one_list():
    from satdoku.model.result import STATUSES
    rated = records(run("rate", SEVENTEEN, "--format", "json").stdout)[0]
    assert rated["status"] == "unique" and rated["score"] is not None
    for command in ("solve", "count", "explain", "rate"):
        out = run(command, SMALL, "11" + "." * 14, UNSOLVABLE_4X4, "--format", "json").stdout
        assert all(r["status"] in STATUSES for r in records(out)), command


@pytest.mark.parametrize("command", ["solve", "count", "explain", "rate", "decode"])
def test_json_records_share_their_keys(command):
    args = ["-", "--puzzle", SMALL] if command == "decode" else [SMALL, "11" + "." * 14]
    lits = [(c * 4 + d) * (1 if d == int(SMALL_SOLUTION[c]) else -1)
            for c in range(16) for d in range(1, 5)]
    model = "s SATISFIABLE\nv " + " ".join(map(str, lits)) + " 0\n"
    out = run(command, *args, "--format", "json", input=model).stdout
    for rec in records(out):
        assert {"source", "line", "name", "puzzle", "status"} <= set(rec)
        if rec["status"] == "invalid":
            assert rec["message"] == "r1c2: 1 repeats the given at r1c1"  # no 'file:line:'
    generated = records(run("generate", "--seed", "1", "--format", "json").stdout)[0]
    assert {"source", "line", "name", "puzzle", "status"} <= set(generated)


def test_csv_values_are_plain():
    out = run("solve", SMALL, SAMPLE_HARD, "--unique", "--format", "csv", "--stats").stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["status"] == "unique" and rows[1]["status"] == "multiple"
    assert rows[1]["second"] and rows[1]["differing"].startswith("r")
    assert rows[0]["no_guess"] == "" and "None" not in out and "True" not in out
    assert all(re.fullmatch(r"\d+(\.\d{1,3})?", rows[0][k])
               for k in ("time_ms", "parse_ms", "solve_ms", "verify_ms"))


def test_solve_unique_csv_carries_the_second_solution():
    row, = csv.DictReader(io.StringIO(run("count", SAMPLE_HARD, "--format", "csv").stdout))
    assert row["count"] == "2" and len(row["second"]) == 81 and row["second"] != row["solution"]


def test_version_and_solvers():
    from satdoku import __version__
    from satdoku.tasks.solvers import python_sat_version
    assert run("--version").stdout == f"satdoku {__version__} (python-sat " \
                                      f"{python_sat_version()})\n"
    text = run("solvers").stdout
    assert "reduced" in text and f"python-sat {python_sat_version()}" in text
    info = json.loads(run("solvers", "--format", "json").stdout)
    assert "reduced" in [e["name"] for e in info["encodings"]]


def test_shell_completion_gives_paths():
    for words in ("satdoku solve ", "satdoku rate ", "satdoku encode ", "satdoku bench ",
                  "satdoku solve -o "):
        result = run(env={
            "_SATDOKU_COMPLETE": "bash_complete", "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()))})
        assert result.stdout.strip().startswith("file,"), (words, result.stdout)


def test_bad_options_are_usage_errors():
    for args in (["--timeout", "nan"], ["--timeout", "inf"], ["--timeout", "0"],
                 ["--timeout", "-1"], ["--format", "xml"], ["--box", "2y2"],
                 ["--sat-solver", "nosuch"], ["--sat-solver", "kissat404", "--timeout", "5"],
                 ["--jobs", "-1"], ["--encoding", "clever"]):
        result = run("solve", SMALL, *args)
        assert result.exit_code == 2, args
        assert result.stderr.splitlines()[-1].startswith("Error: "), args


def test_jobs_are_capped_at_the_cores():
    result = run("solve", SMALL, "--format", "line", "--jobs", "9" * 30)
    assert result.exit_code == 0 and result.stdout == SMALL_SOLUTION + "\n"
    assert f"this machine has {os.cpu_count()} cores; using {os.cpu_count()}" in result.stderr


def test_check_exits_3_when_the_solvers_disagree(monkeypatch):
    from satdoku.model.result import Capabilities, Result
    from satdoku.tasks import solvers

    class Broken:  # a native solver that never finds anything
        name, encoding = "native", None
        capabilities = Capabilities.needs()

        def solve(self, grid, *, limit=1, deadline=None):
            return Result(status="unsolvable", count=0, solver=self.name, limit=limit)

        def close(self):
            pass

    monkeypatch.setitem(solvers.SOLVERS, "native", lambda **options: Broken())
    result = run("solve", SAMPLE, "--check", "--format", "line")
    assert result.exit_code == 3
    assert result.stdout == SAMPLE_SOLUTION + "\n"
    assert result.stderr.endswith(f"disagreement: sat:{_default_sat()} finds unique, "
                                  "native finds unsolvable\n")


def test_encode_then_decode_round_trip(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    for encoding, puzzle, solution in (("extended", SEVENTEEN, SEVENTEEN_SOLUTION),
                                       ("reduced", SAMPLE_HARD, None)):
        cnf_path = tmp_path / f"{encoding}.cnf"
        assert run("encode", puzzle, "--encoding", encoding, "-o", cnf_path).exit_code == 0
        text = cnf_path.read_text()
        assert all(line.startswith(("c ", "p cnf")) or re.fullmatch(r"(-?\d+ )*0", line)
                   for line in text.splitlines())
        with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf_path)).clauses) as s:
            assert s.solve()
            model = s.get_model()
        model_path = tmp_path / "model.txt"
        model_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
        decoded = run("decode", model_path, "--puzzle", puzzle, "--encoding", encoding,
                      "--format", "json", "--force")
        assert decoded.exit_code == 0, decoded.output
        got = records(decoded.stdout)[0]["solution"]
        assert got == solution or all(a in (".", b) for a, b in zip(puzzle, got))
    wrong = run("decode", model_path, "--puzzle", SAMPLE_HARD, "--encoding", "extended")
    assert wrong.exit_code == 1 and wrong.stderr.startswith("Error: ")


def test_every_command_has_help_and_is_documented():
    readme = (ROOT / "README.md").read_text()
    reference = (ROOT / "docs" / "commands.md").read_text()
    for name, command in cli_commands().items():
        result = run(name, "--help")
        assert result.exit_code == 0 and command.help
        assert f"satdoku {name}" in readme, f"README does not show 'satdoku {name}'"
        assert f"## `satdoku {name}`" in reference, f"docs/commands.md lacks {name}"
        for param in command.params:
            for opt in param.flags + param.off:
                if opt.startswith("--"):
                    assert opt in reference, f"docs/commands.md lacks {name} {opt}"
                    assert param.help is None or opt in result.stdout, (name, opt)


# The process edge: Ctrl-C, broken pipes, the progress bar.

@pytest.fixture
def satdoku_process():
    """Start ``python -m satdoku ARGS`` as a real process (killed at the end of the test)."""
    started = []

    def start(*args, **kwargs):
        # SIGINT as at a terminal: a suite started in the background (``pytest &``) passes
        # it on ignored, and satdoku keeps an ignored SIGINT ignored, as background jobs should.
        proc = subprocess.Popen([sys.executable, "-m", "satdoku", *map(str, args)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                                **kwargs)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


LONG_COUNT = ("count", "." * 256, "--limit", "1000000000")
FRISCH = SHARED / "25x25" / "gecode_frisch_25x25.txt"


def _long_runs():
    runs = [("count", SMALL, *LONG_COUNT[1:])]
    if FRISCH.exists():
        hard = next(line for line in FRISCH.read_text().splitlines()
                    if line and not line.startswith("#")).split()[0]
        runs += [("solve", SMALL, hard, "--unique", "--format", "line"),
                 # every command, 20 times each: scripts/check_interrupts.py
                 pytest.param(("explain", SMALL, hard), marks=pytest.mark.slow),
                 pytest.param(("rate", SMALL, hard), marks=pytest.mark.slow)]
    return runs


@pytest.mark.parametrize("args", _long_runs(), ids=lambda a: a[0])
def test_ctrl_c_keeps_results_and_exits_130(args, satdoku_process):
    proc = satdoku_process(*args)
    first = proc.stdout.readline()  # the first puzzle's result is out
    assert first
    time.sleep(0.5)  # the SAT solver is now deep in the second puzzle
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    # the first puzzle's result, and no more: the count of them on stdout says so
    assert last_word(err) == "interrupted: the results finished so far were kept; 1 on stdout"
    assert "Traceback" not in err


def test_sigterm_and_output_file(tmp_path, satdoku_process):
    out = tmp_path / "out.txt"
    proc = satdoku_process("count", SMALL, *LONG_COUNT[1:], "--format", "line", "-o", out)
    wait_for_cpu(proc, 1.0)  # the 4x4 is done (~0.3 s of CPU) and the 16x16 under way
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert last_word(err) == f"interrupted: the results finished so far were kept; 1 in {out}"
    assert out.read_text() == SMALL_SOLUTION + "\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_broken_pipe_ends_quietly(satdoku_process, tmp_path, jobs):
    many = tmp_path / "many.txt"
    many.write_text((SMALL + "\n") * 20000)
    proc = satdoku_process("solve", many, "--format", "line", "--jobs", jobs)
    assert proc.stdout.readline() == SMALL_SOLUTION + "\n"
    proc.stdout.close()  # as '| head -1' does
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == ""


@pytest.mark.skipif(not (SHARED / "9x9" / "17_clue.txt").exists(), reason="needs ../shared")
def test_a_pool_stopped_by_a_broken_pipe_never_hangs(satdoku_process, tmp_path):
    # '| head' stops the pool's workers mid-chunk; a worker killed while it wrote a result
    # left the pool's thread, joined at exit, waiting for ever (1 run in 5 on the 17-clue
    # file). 3,000 of its puzzles keep both workers busy when the pipe closes, at a fifth of
    # the whole file's cost.
    puzzles = tmp_path / "17_clue_3000.txt"
    with open(SHARED / "9x9" / "17_clue.txt") as whole:
        puzzles.write_text("".join(line for _, line in zip(range(3000), whole)))
    for _ in range(3):
        proc = satdoku_process("solve", puzzles, "--format", "json", "--jobs", "2")
        assert proc.stdout.readline().startswith("{")
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read() == ""


def test_progress_never_shares_a_line_with_results(monkeypatch):
    import satdoku.cli.session as cli
    writes = []

    class Terminal(io.StringIO):
        def __init__(self, name):
            super().__init__()
            self.name = name

        def isatty(self):
            return True

        def write(self, text):
            writes.append((self.name, text))
            return len(text)

    monkeypatch.setattr(sys, "stdout", Terminal("out"))
    monkeypatch.setattr(sys, "stderr", Terminal("err"))
    progress = cli.Progress(10, "solving")
    session = cli.Session(None, False, progress=progress)
    for done in range(1, 4):
        progress.drawn_at = 0  # draw every time
        progress.update(done)
        session.result(f"result {done}\n", [], 0)
    # every result on stdout comes right after the bar was wiped from the line
    for i, (name, text) in enumerate(writes):
        if name == "out":
            assert writes[i - 1] == ("err", "\r\x1b[K"), writes[:i + 1]
    # a stage inside a puzzle (the cubes of --cube) draws on the same line, wiped the same way
    writes.clear()
    progress.drawn_at = 0
    progress.stage("cubes", 3, 10, "1 solution")
    session.result("result 4\n", [], 0)
    assert writes[0][0] == "err" and "cubes 3/10, 1 solution" in writes[0][1]
    assert writes[1:3] == [("err", "\r\x1b[K"), ("out", "result 4\n")]


def test_results_in_a_burst_are_written_together_and_alone_at_once(monkeypatch):
    # stdout as PYTHONUNBUFFERED makes it: every write a system call
    import satdoku.cli.session as cli
    writes = []

    class Pipe(io.StringIO):
        def write(self, text):
            writes.append(text)
            return len(text)

    monkeypatch.setattr(sys, "stdout", Pipe())
    session = cli.Session(None, False)
    session.result("first\n", [], 0)
    assert writes == ["first\n"]  # the first result is out at once
    for k in range(2000):
        session.result(f"result {k}\n", [], 0)
    assert 1 < len(writes) < 20  # in pieces of about 8 KB, not 2,000 writes
    time.sleep(cli._BURST * 2)
    session.result("slow\n", [], 0)  # a result after a pause is written at once
    assert "".join(writes) == "first\n" + "".join(f"result {k}\n" for k in range(2000)) + "slow\n"
    writes.clear()
    session.result("held\n", [], 0)
    session.result("held too\n", [], 0)
    errors = io.StringIO()
    monkeypatch.setattr(sys, "stderr", errors)
    session.note("a diagnostic")  # the results before it are out before it is
    assert "".join(writes) == "held\nheld too\n" and errors.getvalue() == "a diagnostic\n"


# Variant puzzles through the command line.

VARIANTS = PUZZLES / "variants"


def _published(path):
    """The setter's solution from a shipped f-puzzles file's '# solution:' line."""
    for line in path.read_text().splitlines():
        if line.startswith("# solution:"):
            return line.split(":", 1)[1].strip()
    return None


#: Shipped f-puzzles files counted on the command line (test_published counts every puzzle).
COUNTED = {"blitz", "miracle", "tangled-arrows"}


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.txt")), ids=lambda p: p.stem)
def test_every_shipped_variant_file_reads_as_its_json(path):
    # The f-puzzles file states the same puzzle as its satdoku JSON (whose published solution
    # test_published checks); a few are counted here, end to end.
    import satdoku
    from satdoku.io.variant import variant_document
    as_json = json.loads(path.with_suffix(".json").read_text())
    from_text = variant_document(satdoku.read(path))
    assert canonical_puzzle(from_text, drawing=False) == canonical_puzzle(as_json, drawing=False)
    if path.stem not in COUNTED:
        return
    result = run("count", path, "--format", "json")
    rec, = records(result.stdout)
    assert (result.exit_code, rec["status"]) == (0, "unique"), result.output
    assert rec["solution"].replace(" ", "") == _published(path).replace(" ", "")
    assert rec["constraints"]


def test_variant_rules_are_listed_and_unknown_items_refused_or_warned():
    tangled = VARIANTS / "tangled-arrows.txt"
    noted = run("solve", tangled, "--format", "line")  # its colours carry no rule: a note
    assert noted.exit_code == 0 and "warning: left out what carries no rule: 8 coloured" \
        in noted.stderr
    unknown = json.dumps({"size": 4, "grid": [[{}] * 4] * 4, "mystery": 1})
    refused = run("solve", unknown, "--format", "line")
    assert refused.exit_code == 1 and refused.stdout == "invalid\n"
    assert "'mystery': unknown to satdoku" in refused.stderr and "--ignore-unknown" in \
        refused.stderr
    warned = run("solve", unknown, "--format", "line", "--ignore-unknown")
    assert "warning: f-puzzles 'mystery'" in warned.stderr
    pretty = run("solve", VARIANTS / "miracle.json").stdout
    assert "rules (3):\n  anti-knight\n  anti-king\n  non-consecutive" in pretty


def test_variant_encode_names_each_rule_and_decodes(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver
    cnf = tmp_path / "m.cnf"
    assert run("encode", VARIANTS / "miracle.json", "-o", cnf).exit_code == 0
    text = cnf.read_text()
    assert re.search(r"^c rule 1: anti-knight: clauses \d+-\d+$", text, re.M)
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        model = s.get_model()
    (tmp_path / "model").write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    decoded = run("decode", tmp_path / "model", "--puzzle", VARIANTS / "miracle.json",
                  "--format", "line")
    assert decoded.stdout.strip() == _published(VARIANTS / "miracle.txt")


CLASH = ('{"size": 4, "givens": {"r1c1": 3, "r4c4": 1}, "constraints": ['
         '{"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 3}, '
         '{"type": "diagonal", "direction": "-"}, {"type": "odd", "cells": ["r3c3"]}]}')


def test_explain_names_the_rules_of_a_minimal_core():
    result = run("explain", CLASH, "--format", "json")
    rec, = records(result.stdout)
    assert rec["status"] == "unsolvable"
    assert rec["core"] == ["r1c1=3", "killer cage r1c1-r1c2 = 3"]


def test_explain_redundant_says_what_a_setter_could_drop():
    rec, = records(run("explain", SMALL, "--redundant", "--format", "json").stdout)
    assert rec["status"] == "unique" and rec["removable"] and rec["kept"]
    assert set(rec["kept"]) < {f"r{i // 4 + 1}c{i % 4 + 1}={ch}" for i, ch in enumerate(SMALL)
                               if ch != "."}
    rec, = records(run("explain", VARIANTS / "miracle.json", "--redundant", "--format",
                       "json").stdout)
    assert rec["removable"] == [] and len(rec["kept"]) == 5  # Miracle needs all it has


def test_candidates_command():
    result = run("candidates", "1..." "...." "...." "...1", "--format", "json")
    rec, = records(result.stdout)
    assert result.exit_code == 0 and rec["status"] == "multiple"
    assert "r1c2=234" in rec["candidates"] and "r2c2=234" in rec["candidates"]
    unique = run("candidates", VARIANTS / "miracle.json", "--format", "line")
    assert unique.stdout.count("=") == 79  # every empty cell has one true candidate


# Pictures, colour, steps, difficulty.

def test_svg_pictures_one_per_puzzle(tmp_path):
    import xml.etree.ElementTree as ET
    folder = tmp_path / "pics"
    result = run("count", PUZZLES / "9x9.txt", "12x", "--format", "svg", "-o", f"{folder}/")
    assert result.exit_code == 1  # the bad puzzle, reported on stderr, gets no picture
    assert sorted(p.name for p in folder.iterdir()) == ["9x9-3.svg", "9x9-4.svg", "9x9-5.svg",
                                                        "9x9-6.svg"]
    ET.fromstring((folder / "9x9-4.svg").read_text())  # well-formed
    one = run("explain", UNSOLVABLE_4X4, "--format", "svg")
    assert one.exit_code == 0 and one.stdout.lstrip().startswith("<svg")
    # Several puzzles and no folder: a usage error, up front when the inputs can be read
    # ahead, at the second picture from stdin; nothing is written either way.
    several = run("solve", SMALL, SMALL, "--format", "svg")
    assert several.exit_code == 2 and several.stdout == ""
    assert several.stderr.splitlines()[-1] == (
        "Error: --format svg makes one picture per puzzle: with several puzzles give "
        "-o FOLDER/ for a file each")
    piped = run("solve", "--format", "svg", "-o", tmp_path / "one.svg",
                input=f"{SMALL}\n{SMALL}\n")
    assert piped.exit_code == 2 and "give -o FOLDER/" in piped.stderr
    assert not (tmp_path / "one.svg").exists()
    made = run("generate", "--seed", "1", "--count", "2", "--format", "svg", "-o", f"{folder}/")
    assert made.exit_code == 0 and (folder / "puzzle-1.svg").exists()


def test_pictures_of_one_run_never_overwrite_each_other(tmp_path):
    folder = tmp_path / "pics"
    inline = run("solve", SMALL, "1........4......", "--format", "svg", "-o", f"{folder}/")
    assert inline.exit_code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["arg-1.svg", "arg-2.svg"]
    for name in ("a", "b"):  # two files of one name
        (tmp_path / name).mkdir()
        (tmp_path / name / "p.txt").write_text(SMALL + "\n")
    twins = tmp_path / "twins"
    alike = run("solve", tmp_path / "a" / "p.txt", tmp_path / "b" / "p.txt", "--format", "svg",
                "-o", f"{twins}/")
    assert alike.exit_code == 0 and sorted(p.name for p in twins.iterdir()) == ["p-1-2.svg",
                                                                                "p-1.svg"]
    again = run("solve", tmp_path / "a" / "p.txt", "--format", "svg", "-o", f"{twins}/")
    assert again.exit_code == 2 and "p-1.svg exists; use --force" in again.stderr


def test_a_step_past_the_path_is_that_puzzles_error(tmp_path):
    folder = tmp_path / "steps"
    result = run("explain", "--step", "30", "--format", "svg", PUZZLES / "4x4.txt",
                 PUZZLES / "9x9.txt", "-o", f"{folder}/")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{PUZZLES / '4x4.txt'}:2: step 30: the path has 7 steps" in result.stderr
    assert sorted(p.name for p in folder.iterdir())[:1] == ["9x9-3.svg"]  # the batch went on


def test_listings_end_quietly_at_a_closed_pipe(satdoku_process):
    for command in ("rules", "solvers"):
        proc = satdoku_process(command)
        proc.stdout.close()  # before its first write: as '| head -1' does, only sooner
        assert proc.wait(timeout=60) == 0 and proc.stderr.read() == ""


def test_bench_names_each_unreadable_puzzle(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{SMALL}\nbad line\n")
    result = run("bench", bad, "--solver", "native", "--format", "csv")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [f"{bad}:2: 7 cells: a Sudoku has 16, 36, 64, 81, "
                                          f"100, 144, ... cells"]


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    from satdoku.output.report import OutcomeReport
    plain = run("solve", SMALL, "--color").stdout  # run_cli's stdout is no terminal
    assert "\x1b" not in plain
    painted = OutcomeReport("pretty", color=True)
    from satdoku.run.stream import run_here
    from satdoku.tasks.solvers import SolveOptions
    from satdoku.io.text import parse_puzzles
    text = painted.format(next(run_here(parse_puzzles([SMALL]), SolveOptions())))
    assert "\x1b[1m1\x1b[0m" in text and "\x1b[34m2\x1b[0m" in text  # given bold, solved blue
    assert OutcomeReport("line", color=True).color is False


def test_explain_steps_pretty_and_json():
    result = run("explain", SEVENTEEN, "--steps")
    assert result.exit_code == 0
    assert re.search(r"^ +1\. (Naked|Hidden) Single (in \w+ \d+)?: ?r\d+c\d+ = \d", result.stdout, re.M)
    rec, = records(run("explain", SEVENTEEN, "--steps", "--format", "json").stdout)
    placed = {}
    for step in rec["steps"]:
        placed.update(step["placed"])
    solution = rec["solution"]
    assert all(solution[(int(c[1:c.index("c")]) - 1) * 9 + int(c[c.index("c") + 1:]) - 1] == d
               for c, d in placed.items())


def test_generate_to_a_difficulty():
    result = run("generate", "--seed", "3", "--difficulty", "hard", "--count", "2",
                 "--format", "json")
    assert result.exit_code == 0
    assert [r["label"] for r in records(result.stdout)] == ["hard", "hard"]
    assert re.fullmatch(r"2 hard puzzles from \d+ grids\n", result.stderr.split("\n", 1)[-1]) \
        or "2 hard puzzles from" in result.stderr
    failed = run("generate", "--seed", "3", "--difficulty", "extreme", "--attempts", "2")
    assert failed.exit_code == 1
    assert "no extreme puzzle found in 2 grids" in failed.stderr


def test_portfolio_for_a_single_puzzle_and_on_request(tmp_path):
    # One puzzle with --jobs 2 races (by itself); two puzzles with --jobs 2 are a batch.
    one = run("count", SEVENTEEN, "--jobs", "2", "--format", "json")
    assert one.exit_code == 0
    [record] = records(one.stdout)
    assert record["status"] == "unique" and record["solver"].startswith("portfolio:")
    assert record["solution"] == SEVENTEEN_SOLUTION
    two = tmp_path / "two.txt"
    two.write_text(f"{SEVENTEEN}\n{SAMPLE}\n")
    batch = run("count", two, "--jobs", "2", "--format", "json")
    assert [r["solver"] for r in records(batch.stdout)] == ["sat:cadical195"] * 2
    asked = run("solve", two, "--portfolio", "--format", "json", "--stats")
    assert batch.exit_code == asked.exit_code == 0
    found = records(asked.stdout)
    assert [r["solution"] for r in found] == [SEVENTEEN_SOLUTION, SAMPLE_SOLUTION]
    assert all(r["solver"].startswith("portfolio:") and r["stats"]["raced"] >= 1
               for r in found)
    for args in (["--solver", "native"], ["--scheduler", "local"]):
        refused = run("solve", SMALL, "--portfolio", *args)
        assert refused.exit_code == 2 and "--portfolio races SAT" in refused.stderr


def test_solvers_without_assumptions_only_where_they_can_serve():
    # Any program on PATH makes an exec: solver; this Python is one wherever the suite runs
    # (a SAT solver binary such as minisat may be absent).
    for command in ("explain", "candidates"):
        for name, why in (("kissat", "kissat404 ignores assumptions, which "),
                          (f"exec:{sys.executable}", "exec: solvers run one solve per process")):
            result = run(command, SMALL, "--sat-solver", name)
            assert result.exit_code == 2 and why in result.stderr, (command, name)
    result = run("generate", "--box", "2x2", "--sat-solver", "ks", "--seed", "1")
    assert result.exit_code == 2 and "ignores assumptions, which generate" in result.stderr
    kissat = run("count", SMALL, "--sat-solver", "kissat", "--format", "line")
    assert kissat.exit_code == 0 and kissat.stdout == SMALL_SOLUTION + "\n"


@pytest.mark.skipif(not __import__("shutil").which("minisat"), reason="minisat is not installed")
def test_exec_solver_from_the_command_line():
    result = run("solve", SMALL, "--sat-solver", "exec:minisat", "--format", "json")
    [record] = records(result.stdout)
    assert result.exit_code == 0 and record["solution"] == SMALL_SOLUTION
    assert record["solver"] == "exec:minisat"
    missing = run("solve", SMALL, "--sat-solver", "exec:no-such-solver-here")
    assert missing.exit_code == 2 and "no-such-solver-here" in missing.stderr


def test_variant_rules_with_the_reduced_encoding():
    # Rules encode over the reduced variable map too (settled pairs fixed true, the pairs the
    # reduction ruled out fixed false): miracle sudoku's one solution, proven unique.
    variant = ROOT / "puzzles" / "variants" / "miracle.json"
    result = run("count", variant, SMALL, "--encoding", "reduced", "--format", "json")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["unique", "unique"]
    assert records[0]["encoding"] == "reduced" and records[1]["solution"] == SMALL_SOLUTION
    assert result.exit_code == 0


def test_a_missing_optional_dependency_is_a_usage_error(monkeypatch, tmp_path):
    # One rule for every optional dependency: exit 2 before any puzzle is read, naming the
    # extra (bench --plot says it in tests/test_bench.py).
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    for command in ("solve", "count"):
        result = run(command, SMALL, "--scheduler", "local", "-o", tmp_path / "out.txt")
        assert result.exit_code == 2, command
        assert result.stderr.splitlines()[-1] == \
            "Error: --scheduler needs Dask: pip install 'satdoku[dask]'"
    assert not (tmp_path / "out.txt").exists()


def _on_a_terminal(args, *, stdin_tty, cwd):
    """Start ``satdoku ARGS`` with stderr (and stdin when ``stdin_tty``) on a pseudo-terminal:
    (process, the terminal's master end)."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", *map(str, args)], cwd=cwd,
                            stdin=slave if stdin_tty else subprocess.DEVNULL, stderr=slave,
                            stdout=subprocess.PIPE, text=True)
    os.close(slave)
    return proc, master


def _screen_until(master, text, seconds=15.0):
    import select
    seen, end = b"", time.monotonic() + seconds
    while text.encode() not in seen and time.monotonic() < end:
        if select.select([master], [], [], 0.1)[0]:
            try:
                seen += os.read(master, 4096)
            except OSError:
                break
    return seen.decode(errors="replace")


def test_a_terminal_is_told_what_is_going_on(tmp_path):
    # Bare 'satdoku solve' on a terminal says it reads stdin, then reads it.
    proc, master = _on_a_terminal(["solve", "--format", "line"], stdin_tty=True, cwd=tmp_path)
    try:
        assert "reading puzzles from stdin (Ctrl-D to end)" in _screen_until(master, "Ctrl-D")
        os.write(master, f"{SMALL}\n".encode())
        time.sleep(0.3)
        os.write(master, b"\x04")
        out, _ = proc.communicate(timeout=30)
        assert (proc.returncode, out) == (0, SMALL_SOLUTION + "\n")
    finally:
        proc.kill()
        os.close(master)
    # A long run's progress bar is there before its first puzzle ends; there is none when the
    # results go down a pipe (| head), which may show them on the same terminal.
    many = tmp_path / "many.txt"
    many.write_text("." * 256 + "\n" + SMALL + "\n")
    shown = 10.0  # the seconds the bar took to show, then twice that (at least 0.5) for none
    for output, bar in ((["-o", tmp_path / "out.txt"], True), ([], False)):
        proc, master = _on_a_terminal(["count", many, "--limit", "1000000000", "--format",
                                       "line", *output], stdin_tty=False, cwd=tmp_path)
        try:
            started = time.monotonic()
            screen = _screen_until(master, "0%", shown if bar else max(0.5, 2 * shown))
            shown = time.monotonic() - started
            assert ("counting [------------------------------]   0%" in screen) == bar
            assert proc.poll() is None  # the first puzzle is still being counted
        finally:
            proc.kill()
            proc.wait()
            os.close(master)


# One exit-code table for every command (satdoku.model.result.STATUSES; docs/commands.md,
# "Statuses and exit codes"): each case names the status it makes and expects that status's
# code. explain, candidates, rate and generate join this table with issue 24's change to
# rate's 'multiple' (another branch); until then they are tested in their own files.

def _model_of(solution):
    """A SAT solver's model of the 4x4 extended encoding (var = cell*4 + digit) for a grid."""
    literals = [(cell * 4 + d) * (1 if int(solution[cell]) == d else -1)
                for cell in range(16) for d in range(1, 5)]
    return "s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n"


INVALID_4X4 = "11.." + "." * 12


@pytest.mark.parametrize("args, status", [
    (("solve", SMALL), "solved"),
    (("solve", UNSOLVABLE_4X4), "unsolvable"),
    (("solve", INVALID_4X4), "invalid"),
    (("solve", "." * 256, "--timeout", "1e-9"), "timeout"),
    (("solve", SMALL, "--max-clauses", "1"), "refused"),
    (("solve", EMPTY_4X4, "--unique"), "multiple"),
    (("count", SMALL), "unique"),
    (("count", EMPTY_4X4), "multiple"),
    (("count", UNSOLVABLE_4X4), "unsolvable"),
    (("count", INVALID_4X4), "invalid"),
    (("count", EMPTY_4X4, "--timeout", "1e-9"), "timeout"),
])
def test_exit_codes_follow_the_one_table_solve_and_count(args, status):
    from satdoku.model.result import exit_code
    result = run(*args, "--format", "json")
    rec, = records(result.stdout)
    assert rec["status"] == status
    assert result.exit_code == exit_code(status, multiple_ok="--unique" not in args)


@pytest.mark.parametrize("args, input, status", [
    (("encode", SMALL), None, "solved"),  # written
    (("encode", INVALID_4X4), None, "invalid"),
    (("encode", SMALL, "--max-clauses", "1"), None, "refused"),
    (("decode", "-", "--puzzle", SMALL), _model_of(SMALL_SOLUTION), "solved"),
    (("decode", "-", "--puzzle", SMALL), "s UNSATISFIABLE\n", "unsolvable"),
    (("decode", "-", "--puzzle", INVALID_4X4), _model_of(SMALL_SOLUTION), "invalid"),
    (("bench", PUZZLES / "4x4.txt", "--solver", "native"), None, "solved"),
    (("solvers",), None, "solved"),
])
def test_exit_codes_follow_the_one_table_tools(args, input, status):
    from satdoku.model.result import STATUSES
    result = run(*args, input=input)
    assert result.exit_code == STATUSES[status][0], result.output
    assert (result.stderr == "") == (result.exit_code == 0)


@pytest.mark.parametrize("command", ["solve", "count", "explain", "candidates", "rate",
                                     "generate", "encode", "decode", "bench", "solvers"])
def test_every_command_exits_2_on_a_usage_error(command):
    from satdoku.model.result import EXIT_USAGE
    result = run(command, "--no-such-option")
    assert result.exit_code == EXIT_USAGE
    assert "No such option" in result.stderr.splitlines()[-1]


def test_a_misspelt_sat_solver_gets_a_suggestion():
    result = run("solve", "--sat-solver", "cadical", SMALL)
    assert result.exit_code == 2 and "did you mean 'cadical195'?" in result.stderr


def test_an_output_path_ending_in_a_slash_is_no_file(tmp_path):
    result = run("solve", SMALL, "-o", f"{tmp_path}/newdir/")
    assert result.exit_code == 2 and "no such folder" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_encode_says_when_a_file_holds_more_puzzles():
    result = run("encode", str(ROOT / "puzzles" / "9x9.txt"))
    assert result.exit_code == 0 and "holds more than one puzzle; this is the first" in \
        result.stderr
    assert "holds more" not in run("encode", str(ROOT / "puzzles" / "4x4.txt")).stderr


def test_ctrl_c_while_the_command_line_is_imported_is_one_line(monkeypatch, capsys):
    # Before the command line's signal handling is set, a Ctrl-C printed a traceback.
    import builtins

    import satdoku.__main__ as entry
    real = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "cli":  # the entry point's 'from .cli import run'
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    with pytest.raises(SystemExit) as exit:
        entry.main()
    assert exit.value.code == 130 and capsys.readouterr().err == "interrupted\n"
