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
