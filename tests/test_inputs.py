"""inputs: each argument is a file, '-' or a puzzle written inline; bad ones are reported."""

from conftest import PUZZLES, SAMPLE, SMALL
from satdoku.io.inputs import count_lines, iter_inputs


def _summary(args, **kw):
    return [(p.source, p.line, p.error and p.error.detail) for p in iter_inputs(args, **kw)]


def test_files_inline_and_stdin(monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(SMALL + "\n"))
    got = _summary([str(PUZZLES / "4x4.txt"), SAMPLE, "-"])
    assert got == [(str(PUZZLES / "4x4.txt"), 2, None), ("<arg>", 1, None),
                   ("<stdin>", 1, None)]


def test_no_arguments_reads_stdin(monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(SMALL + "\n" + SMALL + "\n"))
    assert [p.line for p in iter_inputs([])] == [1, 2]


def test_bad_arguments_are_reported_and_the_rest_goes_on(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n")
    got = _summary(["no/such/file.txt", str(tmp_path), str(empty), "12x", SMALL])
    assert got == [
        ("no/such/file.txt", 0, "no such file (and not a puzzle either)"),
        (str(tmp_path), 0, "is a directory, not a puzzle file"),
        (str(empty), 0, "no puzzles found"),
        ("<arg>", 1, "3 cells: a Sudoku has 16, 36, 64, 81, 100, 144, ... cells"),
        ("<arg>", 1, None),
    ]


def test_parse_time_is_recorded():
    puzzle, = iter_inputs([SAMPLE])
    assert puzzle.parse_ms > 0


def test_count_lines(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text("a\nb\nc\n")
    assert count_lines([str(path), "-", str(tmp_path / "missing")]) == 3


def test_big_grids_go_to_the_workers_one_a_chunk(tmp_path):
    from satdoku.io.text import format_grid
    from satdoku.tasks.generate import pattern_grid
    from satdoku.model.geometry import geometry
    big = format_grid(pattern_grid(geometry(5, 5)))
    path = tmp_path / "mixed.txt"
    path.write_text(f"{big}\n" * 3 + f"{SMALL}\n" * 5)
    chunks = list(iter_inputs([str(path)]).chunks(256))
    assert [len(chunk.lines) for chunk in chunks] == [1, 1, 1, 5]
    assert [line for chunk in chunks for line in chunk.lines] == path.read_text().splitlines()


def test_utf16_files_are_named_as_such(tmp_path):
    # PowerShell's '>' writes UTF-16 with a BOM; some tools write it without one.
    for name, encoding in (("bom.txt", "utf-16"), ("le.txt", "utf-16-le"), ("be.txt", "utf-16-be")):
        (tmp_path / name).write_bytes(f"{SMALL}\r\n".encode(encoding))
    names = ["bom.txt", "le.txt", "be.txt"]
    got = _summary([str(tmp_path / n) for n in names] + [SMALL])
    assert got == [(str(tmp_path / n), 1, "UTF-16 text: save it as UTF-8 (PowerShell: "
                                           "Out-File -Encoding utf8)") for n in names] + \
        [("<arg>", 1, None)]


def test_a_variant_document_that_fails_a_reader_unforeseen_ends_only_itself(tmp_path,
                                                                             monkeypatch):
    # Whatever a reader did not foresee (here: a number past Python's conversion limit where a
    # reader converts one) ends that document, located, and reading goes on after it.
    import satdoku.io.variant as variant
    real = variant.read_variant

    def fragile(doc, source="<arg>", line=None):
        if isinstance(doc, dict) and doc.get("name") == "bad":
            int("9" * 5000)
        return real(doc, source, line)

    monkeypatch.setattr(variant, "read_variant", fragile)
    path = tmp_path / "mix.jsonl"
    path.write_text('{"size": 4}\n{"size": 4, "name": "bad"}\n\n{"size": 4, "name": "ok"}\n')
    got = [(p.line, p.index, p.name, p.error and str(p.error))
           for p in iter_inputs([str(path)])]
    assert got == [(1, 1, None, None),
                   (2, 2, None, f"{path}:2: a number too long to read (over 4,300 digits)"),
                   (4, 3, "ok", None)]


def test_hostile_json_is_one_error_and_the_file_goes_on(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"size": 9, "grid": ' + "[" * 3000 + "]" * 3000 + "}\n"
                    '{"size": 4, "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"], '
                    '"sum": ' + "9" * 5000 + "}]}\n" + '{"size": 4}\n')
    got = _summary([str(path)])
    assert got == [(str(path), 1, "not JSON: nested too deeply, past 100 levels (line 1 column 120)"),
                   (str(path), 2, "not JSON: a number of 5000 digits (line 1 column 82)"),
                   (str(path), 3, None)]


def test_what_is_echoed_is_cut_to_size():
    junk = "x" * 100_000
    (source, _, detail), = _summary([junk])
    assert source == "x" * 100 + "... (100,000 characters)"
    assert detail == "no such file (and not a puzzle either)"
    (_, _, detail), = _summary([" ".join(["0"] * 15 + ["9" * 5000])])
    assert detail == "r4c4: unknown symbol '" + "9" * 100 + "... (5,000 characters)'"
    # A name is shown with every result: a 1 MB comment or "name" is cut too.
    long_names = [f"{SMALL} # {'y' * 10 ** 6}", '{"size": 4, "name": "' + "x" * 10 ** 6 + '"}']
    assert [p.name for p in iter_inputs(long_names)] == [
        "y" * 100 + "... (1,000,000 characters)", "x" * 100 + "... (1,000,000 characters)"]


def test_an_argument_of_several_lines_is_read_as_a_file_is():
    text = "# a comment\n# Miracle-like name\n" + SMALL + "\n"
    puzzles = list(iter_inputs([text]))
    assert [p.ok for p in puzzles] == [True] and puzzles[0].line == 3
    two = list(iter_inputs([f"{SMALL}\n{SMALL}\n"]))
    assert [p.index for p in two] == [1, 2]
    nothing = list(iter_inputs(["# only\n# comments\n"]))
    assert [str(p.error) for p in nothing] == ["<arg>: no puzzles found"]


def test_a_puzzle_of_the_other_kind_in_a_file_is_named(tmp_path):
    classic_first = tmp_path / "c.txt"
    classic_first.write_text(f'{SAMPLE}\n{{"size": 4}}\n')
    errors = [str(p.error) for p in iter_inputs([str(classic_first)]) if not p.ok]
    assert errors == [f"{classic_first}:2: a variant puzzle (JSON or a link) in a file of classic "
                      "puzzles: give variant puzzles a file of their own, or a .json name"]
    variant_first = tmp_path / "v.txt"
    variant_first.write_text(f'{{"size": 4}}\n{SAMPLE}\n')
    errors = [str(p.error) for p in iter_inputs([str(variant_first)]) if not p.ok]
    assert errors == [f"{variant_first}:2: a classic puzzle in a file of variant puzzles: give "
                      "classic puzzles a file of their own"]


def test_box_and_alphabet_given_to_a_variant_puzzle_are_named_as_ignored():
    from conftest import ROOT
    shipped = str(ROOT / "puzzles" / "variants" / "peak.json")
    [puzzle] = iter_inputs([shipped], box=(2, 2))
    assert puzzle.warnings == ("--box ignored: a variant puzzle states its own shape and digits",)
    [plain] = iter_inputs([shipped])
    assert plain.warnings == ()
