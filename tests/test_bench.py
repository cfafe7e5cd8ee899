"""The benchmark: counts per group, CSV/JSON/table output, plots, interruption, clean errors."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest
from conftest import ROOT, run_cli

from satdoku.run import bench
from satdoku.run.bench import BenchInterrupted, BenchRow, check_groups, run_bench, summarise
from satdoku.errors import SatdokuError
from satdoku.model.result import Result
from satdoku.sat.catalogue import DEFAULT_SAT_SOLVER

SAT = f"sat:{DEFAULT_SAT_SOLVER}"

#: The documented columns of CSV and JSON output, in order.
COLUMNS = ["source", "size", "solver", "encoding", "limit", "puzzles", "solved", "unsolvable",
           "multiple", "timeouts", "invalid", "refused", "errors", "seconds", "puzzles_per_s",
           "mean_ms", "median_ms", "p90_ms", "p99_ms", "max_ms", "conflicts_per_puzzle",
           "decisions_per_puzzle", "guesses_per_puzzle", "nodes_per_puzzle", "no_guess_pct",
           "failed_literals_pct", "repeats", "spread_pct", "clock", "time_limit_s", "within_limit",
           "par2_ms", "partial", "solver_build", "timestamp",
           "load1"]
#: What every row ends with: the run's provenance, then its settings.
SETTINGS = ["satdoku", "python", "python_sat", "commit", "hostname", "machine", "cpus",
            "timeout", "seed", "jobs", "levels"]

TINY4 = """\
# unique
1.3..4.2.34.4.23
# several solutions
1...............
# no solution: r1c3 and r1c4 both need the 3 (column 3 and column 4 already have one)
12....3....3....
# clashing givens
11..............
# unique, given in full
1234341221434321
"""

TINY9 = """\
.714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85...
.......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...
"""


@pytest.fixture
def files(tmp_path):
    tiny4, tiny9 = tmp_path / "tiny4.txt", tmp_path / "tiny9.txt"
    tiny4.write_text(TINY4)
    tiny9.write_text(TINY9)
    return str(tiny4), str(tiny9)


def run(*args):
    result = run_cli("bench", *args)
    assert "Traceback" not in result.output, result.output
    return result


def by_group(rows):
    return {(row["source"].rsplit("/", 1)[-1], row["solver"], row["encoding"] or None): row
            for row in rows}


def jsonl(text):
    return [json.loads(line) for line in text.splitlines()]


def test_csv_has_the_columns_and_the_counts(files):
    result = run(*files, "--solver", "sat", "--solver", "native", "--limit", "2",
                 "--format", "csv")
    assert result.exit_code == 0, result.output
    reader = csv.DictReader(io.StringIO(result.stdout))
    assert reader.fieldnames == COLUMNS + SETTINGS
    rows = by_group(reader)
    assert set(rows) == {("tiny4.txt", SAT, "extended"), ("tiny4.txt", "native", None),
                         ("tiny9.txt", SAT, "extended"), ("tiny9.txt", "native", None)}
    for method, encoding in ((SAT, "extended"), ("native", None)):
        row = rows["tiny4.txt", method, encoding]
        counts = {k: int(row[k]) for k in ("puzzles", "solved", "multiple", "unsolvable",
                                           "timeouts", "invalid", "errors", "size", "limit")}
        assert counts == {"puzzles": 5, "solved": 2, "multiple": 1, "unsolvable": 1,
                          "timeouts": 0, "invalid": 1, "errors": 0, "size": 4, "limit": 2}
        assert row["partial"] == "false"
        assert float(row["puzzles_per_s"]) > 0
        assert float(row["median_ms"]) <= float(row["p90_ms"]) <= float(row["max_ms"])
        nine = rows["tiny9.txt", method, encoding]
        assert (int(nine["solved"]), int(nine["multiple"]), nine["size"]) == (2, 0, "9")
    assert rows["tiny4.txt", SAT, "extended"]["guesses_per_puzzle"] == ""
    assert float(rows["tiny4.txt", SAT, "extended"]["decisions_per_puzzle"]) >= 0
    assert rows["tiny4.txt", "native", None]["conflicts_per_puzzle"] == ""
    assert float(rows["tiny4.txt", "native", None]["guesses_per_puzzle"]) >= 0
    assert float(rows["tiny4.txt", "native", None]["nodes_per_puzzle"]) >= 1
    assert rows["tiny4.txt", "native", None]["failed_literals_pct"] == ""
    # Levels of the four valid 4x4 puzzles: the unique one, the clash of 3s and the full grid
    # by propagation; the one with several solutions needs search.
    sat4 = rows["tiny4.txt", SAT, "extended"]
    assert (float(sat4["no_guess_pct"]), float(sat4["failed_literals_pct"])) == (75.0, 75.0)


def test_levels_per_encoding_and_none(tmp_path):
    """The second 17-clue puzzle falls to singles (extended), the third needs locked
    candidates (augmented) and the first failed literals: shares per encoding."""
    from test_levels import LOCKED, PROBED, SINGLES
    path = tmp_path / "three.txt"
    path.write_text(f"{PROBED}\n{SINGLES}\n{LOCKED}\n")
    result = run(str(path), "--encoding", "minimal,extended,augmented", "--format", "json")
    assert result.exit_code == 0, result.output
    got = {r["encoding"]: (r["no_guess_pct"], r["failed_literals_pct"])
           for r in jsonl(result.stdout)}
    third = pytest.approx(100 / 3)
    assert got == {"minimal": (0.0, third), "extended": (third, 100.0),
                   "augmented": (pytest.approx(200 / 3), 100.0)}
    result = run(str(path), "--encoding", "augmented", "--levels", "propagation",
                 "--format", "json")
    row = jsonl(result.stdout)[0]
    assert (row["no_guess_pct"], row["failed_literals_pct"]) == (pytest.approx(200 / 3), None)
    result = run(str(path), "--levels", "none", "--solver", "sat", "--format", "json")
    row = jsonl(result.stdout)[0]
    assert (row["no_guess_pct"], row["failed_literals_pct"]) == (None, None)


def test_json_lines_carry_the_settings(files):
    result = run(files[0], "--solver", "native", "--solver", "sat", "--sat-solver", "glucose4",
                 "--encoding", "minimal,extended", "--limit", "2", "--format", "json",
                 "--seed", "7")
    assert result.exit_code == 0, result.output
    rows = jsonl(result.stdout)
    assert [(r["solver"], r["encoding"]) for r in rows] == [
        ("native", None), ("sat:glucose4", "minimal"), ("sat:glucose4", "extended")]
    for row in rows:
        assert list(row) == COLUMNS + SETTINGS
        assert row["seed"] == 7 and row["limit"] == 2
        assert (row["solved"], row["multiple"], row["unsolvable"], row["invalid"]) == (2, 1, 1, 1)


def test_limit_one_only_finds_solutions(files):
    result = run(files[0], "--solver", "native", "--format", "json")
    row = jsonl(result.stdout)[0]
    assert (row["solved"], row["multiple"], row["unsolvable"], row["invalid"]) == (3, 0, 1, 1)


def test_table_names_every_solver(files):
    result = run(*files, "--sat-solver", "minisat22", "--sat-solver", "cadical195",
                 "--solver", "sat", "--solver", "native", "--first", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| file") and "puzzles/s" in lines[0]
    assert len(lines) == 2 + 2 * 3
    for label in ("sat:minisat22", "sat:cadical195", "native"):
        assert sum(label in line for line in lines) == 2
    # --first 2 keeps the first two puzzles of each file
    assert all(line.split("|")[4].strip() == "2" for line in lines[2:])


def test_default_is_default_sat_solver_and_native(files):
    result = run(files[1])
    assert result.exit_code == 0, result.output
    assert f"| {SAT} " in result.stdout and "| native " in result.stdout
    assert "| extended " in result.stdout


def test_every_encoding_reduced_included(files):
    result = run(files[1], "--encoding", "reduced", "--encoding", "natural", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = jsonl(result.stdout)
    assert [(r["solver"], r["encoding"], r["solved"]) for r in rows] == [
        (SAT, "reduced", 2), (SAT, "natural", 2)]


def test_output_is_written_and_not_overwritten(files, tmp_path):
    out = tmp_path / "bench.csv"
    result = run(files[1], "--solver", "native", "--format", "csv", "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text().splitlines()[0] == ",".join(COLUMNS + SETTINGS)
    again = run(files[1], "--solver", "native", "--output", str(out))
    assert again.exit_code == 2 and "exists" in again.output
    forced = run(files[1], "--solver", "native", "-o", str(out), "--force")
    assert forced.exit_code == 0 and out.read_text().startswith("| file")
    dash = run(files[1], "--solver", "native", "-o", "-")
    assert dash.exit_code == 0 and dash.stdout.startswith("| file")


def test_plot_writes_a_png_and_leaves_the_inputs_alone(files, tmp_path):
    pytest.importorskip("matplotlib")
    before = [open(f).read() for f in files]
    png = tmp_path / "bench.png"
    result = run(*files, "--plot", str(png))
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [open(f).read() for f in files] == before


@pytest.mark.parametrize("name,magic", [("bench.pdf", b"%PDF"), ("bench.svg", b"<?xml")])
def test_plot_format_follows_the_extension(files, tmp_path, name, magic):
    pytest.importorskip("matplotlib")
    out = tmp_path / name
    result = run(files[1], "--solver", "sat", "--solver", "native", "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(magic)
    if name.endswith(".svg"):  # a scatter panel of native against SAT, one cactus per file
        text = out.read_text()
        assert "native against sat:" in text and "tiny9.txt: cactus plot" in text


def test_plot_refuses_an_unknown_extension(files, tmp_path):
    result = run(files[0], "--plot", str(tmp_path / "x.gif"))
    assert result.exit_code == 2 and "plots are written as .png, .pdf, .svg" in result.output


def test_plot_rows_from_a_rows_file(tmp_path):
    pytest.importorskip("matplotlib")
    from satdoku.output.plots import plot_rows, read_rows
    rows = read_rows("tests/data/bench_rows.csv")
    assert {r["solver"] for r in rows} == {"native", SAT} and rows[0]["line"] > 0
    out = tmp_path / "scatter.png"
    plot_rows(rows, str(out), panels=["scatter"])
    assert out.read_bytes()[:4] == b"\x89PNG"
    from satdoku.output.plots import cpu_rows
    cpu = cpu_rows(rows)
    assert [r["time_ms"] for r in cpu] == [r["cpu_ms"] for r in rows]
    assert [r["time_ms"] for r in rows] != [r["cpu_ms"] for r in rows]  # the input untouched
    plot_rows(rows, str(out), panels=["cactus"], clock="cpu")
    with pytest.raises(SatdokuError, match="unknown clock 'tsc'"):
        plot_rows(rows, str(out), clock="tsc")
    with pytest.raises(SatdokuError, match="unknown panel 'pie'"):
        plot_rows(rows, str(out), panels=["pie"])
    with pytest.raises(SatdokuError, match="no rows of 'sat:minisat22'"):
        plot_rows(rows, str(out), reference="sat:minisat22")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"source": 1}\nnot json\n')
    with pytest.raises(SatdokuError, match="bad.jsonl:2: not a JSON row"):
        read_rows(str(bad))


def test_plot_refuses_an_input_file(files):
    result = run(files[0], "--plot", files[0], "--force")
    assert result.exit_code == 2 and "is an input of this run" in result.output


def test_plot_without_matplotlib_says_how_to_get_it(files, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes 'import matplotlib' fail
    result = run(files[0], "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --plot needs matplotlib: pip install 'satdoku[plot]'\n")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("args, message", [
    (["{tiny4}", "--solver", "dpll"], "'dpll' is not one of sat, native, exact-cover, cp-sat or exec:COMMAND"),
    (["{tiny4}", "--sat-solver", "nosuch"], "unknown SAT solver"),
    (["{tiny4}", "--encoding", "natural,clever"], "unknown encoding"),
    (["{tiny4}", "--limit", "3"], "3 is not in the range 1<=x<=2"),
    (["{tiny4}", "--alphabet", "1123"], "alphabet '1123' has '1' twice"),
])
def test_bad_arguments_give_a_clean_error(files, args, message):
    result = run(*[a.format(tiny4=files[0]) for a in args])
    assert result.exit_code == 2
    assert message in result.output


def test_a_file_that_is_not_puzzles_counts_invalid(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("hello world\n")
    result = run(str(junk), "--solver", "native", "--format", "json")
    assert result.exit_code == 0, result.output
    row = jsonl(result.stdout)[0]
    assert row["puzzles"] == row["invalid"] == 1
    assert row["size"] is None and row["puzzles_per_s"] is None and row["median_ms"] is None


def test_ctrl_c_prints_finished_rows_and_the_partial_one(files):
    calls = []

    def progress(done, total, label):
        calls.append(done)
        if len(calls) == 12:
            raise KeyboardInterrupt

    rows = []
    with pytest.raises(BenchInterrupted) as stop:
        for row in run_bench(files, check_groups(["native", "sat"]), limit=2,
                             progress=progress, levels="none"):
            rows.append(row)
    # tiny4 first: native takes steps 1-8 (4 valid puzzles, 2 passes), SAT warms up in 9-12
    assert [(r.solver, r.partial) for r in rows] == [("native", False)]
    partial = stop.value.row
    assert partial.partial and partial.solver == SAT and partial.puzzles >= 1


def test_cli_ctrl_c_exits_130_with_the_rows(files, monkeypatch):
    done = BenchRow(source=files[0], size=4, solver="native", encoding=None, limit=1,
                    puzzles=3, solved=3)
    cut = BenchRow(source=files[0], size=4, solver=SAT, encoding="extended", limit=1,
                   puzzles=1, solved=1, partial=True)

    def interrupted(*args, **kwargs):
        yield done
        raise BenchInterrupted(cut)

    monkeypatch.setattr(bench, "run_bench", interrupted)
    result = run_cli("bench", files[0], "--format", "csv")
    assert result.exit_code == 130
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["solver"], r["partial"]) for r in rows] == [("native", "false"), (SAT, "true")]
    assert result.stderr.startswith("interrupted")


def test_summarise_charges_timeouts_and_takes_percentiles():
    results = ([Result("solved", stats={"guesses": 2, "no_guess": False})] * 8
               + [Result("solved", stats={"guesses": 0, "no_guess": True})]
               + [Result("timeout", stats={"guesses": 50})])
    times = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 1000.0]
    row = summarise(BenchRow(source="f", size=9, solver="native", encoding=None, limit=1,
                             invalid=2), results, times)
    assert (row.puzzles, row.solved, row.timeouts, row.invalid) == (12, 9, 1, 2)
    assert row.median_ms == 5.0 and row.p90_ms == 9.0 and row.p99_ms == row.max_ms == 1000.0
    assert row.mean_ms == pytest.approx(104.5)
    assert row.puzzles_per_s == pytest.approx(10 / 1.045)
    assert row.guesses_per_puzzle == pytest.approx(66 / 10)
    assert row.no_guess_pct == pytest.approx(10.0)
    assert row.times_ms == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]


def test_summarise_takes_sat_shares_from_the_levels():
    results = [Result("solved", stats={"decisions": 4, "conflicts": 1})] * 4
    levels = ["propagation", "failed literals", "search", None]
    row = summarise(BenchRow(source="f", size=9, solver=SAT, encoding="extended", limit=1),
                    results, [1.0] * 4, levels)
    assert row.decisions_per_puzzle == 4 and row.conflicts_per_puzzle == 1
    assert row.no_guess_pct == pytest.approx(100 / 3)  # of the measured puzzles
    assert row.failed_literals_pct == pytest.approx(200 / 3)
    assert row.guesses_per_puzzle is None and row.nodes_per_puzzle is None


def test_the_timed_order_follows_the_seed(tmp_path, monkeypatch):
    seen = []
    real = bench.make_solver

    def recording(*args, **kwargs):
        solver = real(*args, **kwargs)
        solve = solver.solve

        def spy(grid, **kw):
            seen.append(grid.cells)
            return solve(grid, **kw)
        solver.solve = spy
        return solver

    monkeypatch.setattr(bench, "make_solver", recording)
    path = tmp_path / "many.txt"
    path.write_text("".join(f"{i % 4 + 1}{'.' * 15}\n" for i in range(4)) + "1234" + "." * 12
                    + "\n")
    orders = []
    for seed in (1, 1, 2):
        seen.clear()
        list(run_bench([str(path)], check_groups(["native"]), seed=seed, warmup=False))
        orders.append(list(seen))
    assert orders[0] == orders[1] and sorted(orders[0]) == sorted(orders[2])


def test_jobs_gives_the_same_counts(files, tmp_path):
    counts = ("puzzles", "solved", "multiple", "unsolvable", "timeouts", "invalid", "errors")
    rows, solves = {}, {}
    for jobs in ("1", "2"):
        per_puzzle = tmp_path / f"rows-{jobs}.jsonl"
        result = run(*files, "--limit", "2", "--format", "json", "--jobs", jobs,
                     "--rows", str(per_puzzle))
        assert result.exit_code == 0, result.output
        rows[jobs] = [{k: r[k] for k in ("source", "solver") + counts}
                      for r in jsonl(result.stdout)]
        records = jsonl(per_puzzle.read_text())
        assert all(r["cpu_ms"] is not None and r["jobs"] == int(jobs) for r in records)
        solves[jobs] = sorted((r["source"], r["line"], r["solver"], r["status"], r["level"])
                              for r in records)
    assert rows["1"] == rows["2"] and solves["1"] == solves["2"]


def test_rows_have_one_row_per_puzzle_solver_and_pass(files, tmp_path):
    rows_file = tmp_path / "rows.csv"
    result = run(*files, "--solver", "sat", "--solver", "native", "--limit", "2",
                 "--repeat", "2", "--levels", "propagation", "--rows", str(rows_file),
                 "--format", "json")
    assert result.exit_code == 0, result.output
    summary = by_group(jsonl(result.stdout))
    rows = list(csv.DictReader(io.StringIO(rows_file.read_text())))
    # 4 valid puzzles in tiny4 (one clashes), 2 in tiny9; 2 solvers; 2 passes.
    assert len(rows) == (4 + 2) * 2 * 2
    assert {(r["source"].rsplit("/", 1)[-1], r["line"]) for r in rows} == {
        ("tiny4.txt", "2"), ("tiny4.txt", "4"), ("tiny4.txt", "6"), ("tiny4.txt", "10"),
        ("tiny9.txt", "1"), ("tiny9.txt", "2")}
    for (source, solver, encoding), row in summary.items():
        mine = [r for r in rows if r["source"].endswith(source) and r["solver"] == solver]
        assert sorted({r["repeat"] for r in mine}) == ["1", "2"] and row["repeats"] == 2
        first = [r for r in mine if r["repeat"] == "1"]
        assert sum(r["status"] in ("solved", "unique") for r in first) == row["solved"]
        assert sum(r["status"] == "unsolvable" for r in first) == row["unsolvable"]
        assert {r["seed"] for r in mine} == {"0", "1"}
    for r in rows:
        assert float(r["wall_ms"]) >= 0 and float(r["cpu_ms"]) >= 0
        assert r["satdoku"] and r["python_sat"] and r["hostname"] and int(r["cpus"]) >= 1
        assert r["timestamp"].endswith("+00:00") and float(r["load1"]) >= 0
        if r["solver"] == "native":  # native search has its 30 s without --timeout, SAT none
            assert r["guesses"] != "" and r["nodes"] != "" and r["level"] == ""
            assert float(r["time_limit_s"]) == bench.NATIVE_TIMEOUT and r["timeout"] == ""
            assert r["solver_build"].startswith("satdoku ")
        else:
            assert r["decisions"] != "" and r["propagations"] != "" and r["solve_ms"] != ""
            assert r["level"] in ("propagation", "unprobed")
            assert r["time_limit_s"] == ""
            assert r["solver_build"] == f"python-sat {r['python_sat']} {DEFAULT_SAT_SOLVER}"


def test_rows_go_to_json_lines_and_never_over_a_file(files, tmp_path):
    rows_file = tmp_path / "rows.jsonl"
    assert run(files[1], "--solver", "native", "--rows", str(rows_file)).exit_code == 0
    records = jsonl(rows_file.read_text())
    assert [r["line"] for r in sorted(records, key=lambda r: r["line"])] == [1, 2]
    assert all(r["status"] == "solved" and r["timeout"] is None for r in records)
    again = run(files[1], "--solver", "native", "--rows", str(rows_file))
    assert again.exit_code == 2 and "exists" in again.stderr
    assert rows_file.read_text() and jsonl(rows_file.read_text()) == records
    wrong = run(files[1], "--rows", str(tmp_path / "rows.txt"))
    assert wrong.exit_code == 2 and ".csv, .jsonl" in wrong.stderr


def test_native_search_has_a_time_limit_unless_one_is_given(monkeypatch):
    """Native search does not finish some shipped variant puzzles in 30 s: without --timeout a
    bench of one ends with a time-out in its row (NATIVE_TIMEOUT), and the help says how long."""
    monkeypatch.setattr(bench, "NATIVE_TIMEOUT", 0.2)
    slow = str(ROOT / "puzzles" / "variants" / "sandwich.json")
    row, = run_bench([slow], check_groups(["native"]), levels="none")
    assert (row.solver, row.puzzles, row.timeouts) == ("native", 1, 1)
    monkeypatch.undo()
    assert f"native search has {bench.NATIVE_TIMEOUT:g} s a puzzle" in " ".join(
        run_cli("bench", "--help").stdout.split())
