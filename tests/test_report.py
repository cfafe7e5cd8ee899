"""report: the four formats, the same statuses, plain CSV, escaped names, messages to stderr."""

import csv
import io
import json

import pytest

from conftest import SAMPLE, SMALL, SMALL_SOLUTION, grid_of
from satdoku.tasks.base import Outcome
from satdoku.model.puzzle import Puzzle
from satdoku.io.text import parse_puzzles
from satdoku.output.asking import RatingReport
from satdoku.output.report import OutcomeReport, csv_row, place, printable
from satdoku.model.result import Result


def outcome(status, **fields):
    puzzle = Puzzle(grid_of(SMALL), "f.txt", 3, 1, name="a\x1b[2Jname")
    return Outcome(puzzle, Result(status, solver="sat:x", encoding="extended", **fields))


SOLVED = grid_of(SMALL_SOLUTION)


def test_csv_values_are_plain_and_formulas_neutralised():
    assert csv_row([None, True, False, 1.23456, ["a", "b"], {"k": 1}]) == \
        ',true,false,1.235,a b,"{""k"": 1}"\n'
    for cell in ("=1+2", "+1", "-1", "@SUM(A1)", "\tx"):
        assert csv_row([cell]).strip().strip('"').startswith("'")


def test_printable_escapes_control_characters():
    assert printable("ok\x1b]0;x\x07") == "ok\\x1b]0;x\\x07"
    assert printable("tab\tstays") == "tab\tstays"
    assert place(Puzzle(None, "a\x1bb", 2, 1)) == "a\\x1bb:2"


@pytest.mark.parametrize("fmt", ["pretty", "line", "json", "csv"])
def test_names_from_files_never_reach_the_terminal_raw(fmt):
    text = OutcomeReport(fmt).format(outcome("solved", solution=SOLVED))
    assert "\x1b" not in text


def test_line_format_per_status():
    report = OutcomeReport("line")
    assert report.format(outcome("solved", solution=SOLVED)) == SMALL_SOLUTION + "\n"
    many = outcome("multiple", solution=SOLVED, second=SOLVED, count=288, limit=1000)
    assert report.format(many) == "multiple (288)\n"
    capped = outcome("multiple", solution=SOLVED, second=SOLVED, count=2, limit=2)
    assert report.format(capped) == "multiple (at least 2)\n"
    for status in ("unsolvable", "timeout", "invalid", "refused", "error"):
        assert report.format(outcome(status)) == status + "\n"


def test_json_and_csv_carry_the_same_fields():
    item = outcome("timeout", count=3, limit=10, solution=SOLVED, message="time limit")
    rec = json.loads(OutcomeReport("json").format(item))
    assert (rec["source"], rec["line"], rec["status"], rec["count"]) == ("f.txt", 3, "timeout", 3)
    report = OutcomeReport("csv")
    row, = csv.DictReader(io.StringIO(report.header() + report.format(item)))
    assert row["status"] == "timeout" and row["count"] == "3" and row["message"] == "time limit"
    assert list(row) == list(OutcomeReport.fields)


def test_diagnostics_name_the_place():
    report = OutcomeReport("line", stats=True)
    late = outcome("timeout", message="time limit of 1 s reached")
    assert report.diagnostics(late)[0] == "f.txt:3: time limit of 1 s reached"
    bad, = parse_puzzles(["11" + "." * 14], "bad.txt")
    lines = report.diagnostics(Outcome(bad, Result("invalid", message=bad.error.detail)))
    assert lines == ["bad.txt:1: r1c2: 1 repeats the given at r1c1"]


def test_rating_formats():
    from satdoku.tasks.rate import Rater
    puzzle, = parse_puzzles([SAMPLE], "s.txt")
    rating = Rater().rate(puzzle.grid)
    line = RatingReport("line").format(Outcome(puzzle, rating))
    assert line == "2.3 hard ER 2.3/EP 1.2/ED 1.2\n"
    rec = json.loads(RatingReport("json").format(Outcome(puzzle, rating)))
    assert rec["status"] == "unique" and rec["score"] == rec["er"] and rec["label"] == "hard"
    assert (rec["er"], rec["ep"], rec["ed"], rec["hardest"], rec["bound"]) == \
        (2.3, 1.2, 1.2, "Naked Single", False)
    pretty = RatingReport("pretty").format(Outcome(puzzle, rating))
    assert pretty == "s.txt:1: hard, ER 2.3/EP 1.2/ED 1.2 (Naked Single)\n"
    assert RatingReport("line").format(Outcome(puzzle, None)) == "invalid\n"
