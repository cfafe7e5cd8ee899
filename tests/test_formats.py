"""Reading and writing puzzles: every format, the bad-inputs file, and the shared collections."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import PUZZLES, SAMPLE, SHARED, SMALL as SAMPLE_SMALL
from satdoku.errors import OptionError, PuzzleError
from satdoku.model.alphabet import DEFAULT_SYMBOLS, HEX, NUMBERS, Alphabet, alphabet_for, check_alphabet
from satdoku.io.text import format_grid, parse_box, parse_puzzle, parse_puzzles, read_puzzles
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, check_givens, clash_free


def digits(text: str) -> tuple[int, ...]:
    """Cells from a string of 1-9 and '.' (test shorthand)."""
    return tuple(0 if ch == "." else int(ch) for ch in text)


def parse_all(text: str, **kw) -> list:
    return list(parse_puzzles(text.splitlines(keepends=True), "t.txt", **kw))


def errors(puzzles) -> list[str]:
    return [str(p.error) for p in puzzles if p.error]


def solved(r: int, c: int) -> Grid:
    """A valid full grid for r x c boxes (the usual shifted pattern)."""
    n = r * c
    cells = [((row % r) * c + row // r + col) % n + 1 for row in range(n) for col in range(n)]
    return Grid(geometry(r, c), tuple(cells))


def holes(grid: Grid, seed: int, keep: float = 0.4) -> Grid:
    rng = random.Random(seed)
    return Grid(grid.geometry, tuple(d if rng.random() < keep else 0 for d in grid.cells))


# One-liners.

def test_one_liner_9x9():
    [p] = parse_all(SAMPLE + "\n")
    assert p.error is None and p.grid.cells == digits(SAMPLE)
    assert (p.source, p.line, p.index, p.name) == ("t.txt", 1, 1, None)
    assert p.alphabet == Alphabet("123456789")


@pytest.mark.parametrize("marker", ["0", "_", "*", "-"])
def test_empty_markers(marker):
    [p] = parse_all(SAMPLE.replace(".", marker))
    assert p.grid.cells == digits(SAMPLE)


def test_trailing_comment_names_the_puzzle():
    [p] = parse_all(SAMPLE + "  # 'sample' (Sudoku Redux, 2013)")
    assert p.name == "'sample' (Sudoku Redux, 2013)"


def test_comment_lines_and_blank_lines_are_skipped():
    puzzles = parse_all(f"# header\n#\n\n{SAMPLE}\n\n{SAMPLE_SMALL}\n")
    assert [(p.line, p.index, p.grid.size) for p in puzzles] == [(4, 1, 9), (6, 2, 4)]
    assert all(p.name is None for p in puzzles)  # a file's header comment names nothing


def test_crlf_lines():
    [p, q] = parse_all(f"{SAMPLE}  # a\r\n{SAMPLE_SMALL}\r\n")
    assert p.grid.cells == digits(SAMPLE) and p.name == "a"
    assert q.grid.cells == digits(SAMPLE_SMALL)


def test_crlf_file(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"# c\r\n" + SAMPLE.encode() + b"\r\n" + b"0 2 0 1\r\n0 0 0 0\r\n"
                     b"0 0 0 0\r\n4 0 2 0\r\n")
    puzzles = list(read_puzzles(str(path)))
    assert errors(puzzles) == []
    assert [p.line for p in puzzles] == [2, 3]
    assert puzzles[1].grid.cells == (0, 2, 0, 1) + (0,) * 8 + (4, 0, 2, 0)


def test_letters_are_case_insensitive_16x16():
    row = "123456789abcdefg"
    text = row + "." * 240
    [p] = parse_all(text)
    assert p.grid.cells[:16] == tuple(range(1, 17))
    assert p.alphabet.symbols == DEFAULT_SYMBOLS[:16]


def test_16x16_with_zero_and_another_empty_marker_is_hex():
    text = "0123456789ABCDEF" + "." * 240
    [p] = parse_all(text)
    assert p.alphabet.symbols == HEX and p.grid.cells[:16] == tuple(range(1, 17))


def test_16x16_with_zero_as_only_empty_marker_is_not_hex():
    text = "123456789ABCDEF" + "0" * 241
    [p] = parse_all(text)
    assert p.alphabet.symbols == DEFAULT_SYMBOLS[:16]
    assert p.grid.cells[:16] == tuple(range(1, 16)) + (0,)


def test_forced_alphabet_overrides_hex_guess():
    text = "0123456789ABCDEF" + "." * 240
    [p] = parse_all(text, alphabet=DEFAULT_SYMBOLS[:16])
    assert p.grid.cells[:16] == (0,) + tuple(range(1, 16))  # '0' is no symbol: empty
    [p] = parse_all("123456789ABCDEF0" + "." * 240, alphabet=HEX)
    assert p.grid.cells[:16] == tuple(range(2, 17)) + (1,)


def test_16_symbols_with_digits_above_4_start_a_16x16():
    rows = [format_grid(solved(4, 4), alphabet=Alphabet(DEFAULT_SYMBOLS[:16]))[i * 16:i * 16 + 16]
            for i in range(16)]
    [p] = parse_all("\n".join(rows))
    assert p.grid == solved(4, 4)


def test_forced_box_6x6():
    text = "12....34............................"
    [p] = parse_all(text)
    assert p.grid.geometry.shape == "2x3"
    [q] = parse_all(text, box=(3, 2))
    assert q.grid.geometry.shape == "3x2" and q.grid.cells == p.grid.cells
    [bad] = parse_all(SAMPLE, box=(3, 2))
    assert str(bad.error) == "t.txt:1: 81 cells: a 3x2 Sudoku has 36 cells"


# Multi-line grids.

PRETTY_9X9 = """\
. 7 1 | 4 . . | . . 5
. . . | . 5 . | . 8 .
. . 3 | 9 . 7 | 6 . .
------+-------+------
. . . | . . 1 | . . .
. 9 . | 8 . 6 | . . 3
. . . | . . . | 8 2 .
------+-------+------
. 6 . | . 4 . | 7 . 8
3 . . | . . . | . 9 .
. . . | . 8 5 | . . .
"""


def test_pretty_grid_with_rules():
    [p] = parse_all(PRETTY_9X9)
    assert p.grid.cells == digits(SAMPLE) and p.line == 1
    assert p.alphabet.symbols == "123456789"


def test_dash_as_empty_marker_and_dash_rules():
    text = PRETTY_9X9.replace(".", "-").replace("------+-------+------", "-" * 21)
    text = text.replace("- - - | - - 1 | - - -", "- - - | - - - | - - -")
    [p] = parse_all(text)
    assert p.error is None
    assert p.grid.cells == digits(SAMPLE[:32] + "." + SAMPLE[33:])  # row 4 all dashes


def test_bordered_grid_and_grouped_rows():
    text = (
        "+-------+-------+-------+\n"
        "| .71 | 4.. | ..5 |\n| ... | .5. | .8. |\n| ..3 | 9.7 | 6.. |\n"
        "+-------+-------+-------+\n"
        "| ... | ..1 | ... |\n| .9. | 8.6 | ..3 |\n| ... | ... | 82. |\n"
        "+-------+-------+-------+\n"
        "| .6. | .4. | 7.8 |\n| 3.. | ... | .9. |\n| ... | .85 | ... |\n"
        "+-------+-------+-------+\n")
    [p] = parse_all(text)
    assert p.grid.cells == digits(SAMPLE)


def test_blank_lines_between_bands_and_hex():
    text = """\
*5** 6**E *F*C *0**
B**0 24** *1*3 5*E*
*E** *D*1 5*** ****
**9F **C* **2* *418

*02* F3E* *97* **4*
6C4D **** **1* E2**
***5 **** B8** 7DF*
F*** **D* 3*A* ***9

0*** *E*C *B** ***F
*2DC **73 **** 8***
**F3 *8** **** 27BA
*8** *2A* *3FD *19*

DAB* *C** *E** 19**
**** ***2 8*C* **D*
*9*E 8*5* **BA F**6
**C* E*B* 7**9 **2*

"""
    [p] = parse_all(text)
    assert p.error is None and p.alphabet.symbols == HEX
    assert p.grid.cells[:16] == (0, 6, 0, 0, 7, 0, 0, 15, 0, 16, 0, 13, 0, 1, 0, 0)
    assert p.grid.nclues == 102


def test_blank_line_inside_a_band_ends_the_grid():
    puzzles = parse_all("12..\n\n..12\n2...\n...1\n")
    assert errors(puzzles)[0] == ("t.txt:1: 4 cells: a Sudoku has 16, 36, 64, 81, 100, 144, "
                                  "... cells")


def test_project_euler_headers():
    text = ("\nGrid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n"
            "002609500\n800203009\n005010300\nGrid 02\n200080300\n060070084\n030500209\n"
            "000105408\n000000000\n402706000\n301007040\n720040060\n004010003\n")
    p, q = parse_all(text)
    assert (p.name, p.line, q.name, q.line) == ("Grid 01", 2, "Grid 02", 12)
    assert p.grid.cells[:9] == (0, 0, 3, 0, 2, 0, 6, 0, 0)
    assert q.grid.cells[-9:] == (0, 0, 4, 0, 1, 0, 0, 0, 3)


def test_comment_line_above_a_multi_line_grid_names_it():
    [p] = parse_all("# tiny one\n12..\n..12\n2...\n...1\n")
    assert p.name == "tiny one" and p.line == 2


def test_error_in_multi_line_grid_names_its_line_and_cell():
    [p] = parse_all("# x\n12..\n..12\n2x..\n...1\n")
    assert str(p.error) == "t.txt:4: r3c2: unknown symbol 'x'"
    [p] = parse_all("12..\n..12\n2...\n...2\n")
    assert str(p.error) == "t.txt:4: r4c4: 2 repeats the given at r2c4"


def test_short_row_inside_a_grid():
    puzzles = parse_all("12..\n..12\n2..\n...1\n" + SAMPLE)
    assert errors(puzzles) == ["t.txt:3: r3: 3 cells in a row of 4"]
    assert puzzles[1].grid.cells == digits(SAMPLE)


def test_short_row_of_another_valid_length_is_one_error():
    rows = PRETTY_9X9.splitlines()
    rows[5] = ". 9 . | 8 . 6 | . 3"  # 8 cells, itself a row length (8x8)
    puzzles = parse_all("\n".join(rows) + "\n\n" + SAMPLE_SMALL)
    assert errors(puzzles) == ["t.txt:6: r5: 8 cells in a row of 9"]
    assert len(puzzles) == 2 and puzzles[1].ok


def test_incomplete_grid():
    puzzles = parse_all("12..\n..12\n\n" + SAMPLE)
    assert errors(puzzles) == ["t.txt:1: grid ends after 2 of 4 rows"]
    assert puzzles[1].ok


# Integer rows.

def test_integer_rows_4x4():
    [p] = parse_all("0 2 0 1\n0 0 0 0\n0 0 0 0\n4 0 2 0\n")
    assert p.grid.cells == (0, 2, 0, 1) + (0,) * 8 + (4, 0, 2, 0)
    assert p.alphabet == NUMBERS


def test_integer_rows_16x16_with_dots_comments_and_blank_lines():
    grid = holes(solved(4, 4), 1)
    rows = [" ".join(str(d) if d else "." for d in grid.cells[i * 16:i * 16 + 16])
            for i in range(16)]
    rows[-1] += "  #1"
    text = "\r\n".join(rows) + "\r\n\r\n" + "\r\n".join(rows[:-1] + [rows[-1][:-4] + "  #2"])
    p, q = parse_all(text)
    assert p.grid == q.grid == grid
    assert (p.name, p.line, q.name, q.line) == ("1", 1, "2", 18)
    assert p.alphabet == NUMBERS


def test_integer_rows_large_with_empty_first_row():
    grid = holes(solved(2, 5), 2)
    cells = (0,) * 10 + grid.cells[10:]
    text = "\n".join(" ".join(str(d) if d else "." for d in cells[i * 10:i * 10 + 10])
                     for i in range(10))
    [p] = parse_all(text)
    assert p.grid.cells == cells and p.grid.geometry.shape == "2x5"


def test_integer_one_liner():
    [p] = parse_all(" ".join(map(str, digits(SAMPLE))))
    assert p.grid.cells == digits(SAMPLE) and p.alphabet == NUMBERS


def test_value_above_size_in_integer_rows():
    text = "0 2 0 1\n0 0 9 0\n0 0 0 0\n4 0 2 0\n"
    [p] = parse_all(text)
    assert str(p.error) == "t.txt:2: r2c3: 9 is above 4"
    [p] = parse_all(text.replace("9", "x"))
    assert str(p.error) == "t.txt:2: r2c3: unknown symbol 'x'"


def test_full_rows_with_box_gaps_are_symbols():
    grid = solved(3, 3)
    line = format_grid(grid)
    text = "\n".join(" ".join(line[i * 9 + j:i * 9 + j + 3] for j in (0, 3, 6)) for i in range(9))
    assert text.startswith("123 456 789\n")
    [p] = parse_all(text)
    assert p.grid == grid


# The bad-inputs file: every message exact, and good puzzles in between still read.

BAD_FILE_EXPECTED = [
    (3, "puzzles/bad.txt:3: 80 cells: a Sudoku has 16, 36, 64, 81, 100, 144, ... cells"),
    (4, "puzzles/bad.txt:4: r5c5: unknown symbol 'x'"),
    (5, None),
    (6, "puzzles/bad.txt:6: r1c1: 17 is above 16"),
    (7, "puzzles/bad.txt:7: r1c9: 5 repeats the given at r1c1"),
    (8, "puzzles/bad.txt:8: r9c1: 5 repeats the given at r1c1"),
    (9, "puzzles/bad.txt:9: r2c2: 5 repeats the given at r1c1"),
    (10, None),
    (11, "puzzles/bad.txt:11: 15 cells: a Sudoku has 16, 36, 64, 81, 100, 144, ... cells"),
]


def test_bad_file(monkeypatch):
    monkeypatch.chdir(PUZZLES.parent)
    puzzles = list(read_puzzles("puzzles/bad.txt"))
    got = [(p.line, str(p.error) if p.error else None) for p in puzzles]
    assert got == BAD_FILE_EXPECTED
    assert [p.index for p in puzzles] == list(range(1, 10))
    assert puzzles[2].name == "good: 'sample' (Sudoku Redux, 2013)"
    assert puzzles[2].grid.cells == digits(SAMPLE)
    assert puzzles[7].grid.cells == digits(SAMPLE_SMALL)
    assert all(p.error.cell for p in puzzles[1:] if p.error and "cells:" not in p.error.message)


def test_project_puzzle_files():
    for name, count, size in [("9x9.txt", 4, 9), ("4x4.txt", 1, 4), ("6x6.txt", 3, 6)]:
        puzzles = list(read_puzzles(str(PUZZLES / name)))
        assert errors(puzzles) == [] and len(puzzles) == count
        assert {p.grid.size for p in puzzles} == {size}


# Streams, files and single puzzles.

def test_stream_is_lazy():
    endless = itertools.cycle([SAMPLE + "\n"])
    first = list(itertools.islice(parse_puzzles(endless), 3))
    assert [p.index for p in first] == [1, 2, 3]


def test_read_missing_file():
    with pytest.raises(PuzzleError) as info:
        read_puzzles("/no/such/file.txt")
    assert str(info.value) == "/no/such/file.txt: cannot read: No such file or directory"


def test_read_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(SAMPLE_SMALL + "\n" + SAMPLE + "\n"))
    assert [(p.source, p.grid.size) for p in read_puzzles("-")] == [("<stdin>", 4), ("<stdin>", 9)]


def test_parse_puzzle():
    p = parse_puzzle(PRETTY_9X9)
    assert p.grid.cells == digits(SAMPLE) and p.source == "<arg>"
    with pytest.raises(PuzzleError) as info:
        parse_puzzle(SAMPLE + "\n" + SAMPLE)
    assert str(info.value) == "<arg>:2: a second puzzle starts here; give one puzzle"
    with pytest.raises(PuzzleError, match="no puzzle"):
        parse_puzzle("  \n")


def test_parse_puzzle_bad_raises_the_library_error():
    with pytest.raises(PuzzleError) as info:
        parse_puzzle("5" + SAMPLE[1:])
    assert str(info.value) == "<arg>:1: r1c9: 5 repeats the given at r1c1"
    assert (info.value.line, info.value.cell) == (1, "r1c9")


def test_bad_options():
    with pytest.raises(OptionError, match="alphabet '1123' has '1' twice"):
        parse_puzzles([], alphabet="1123")
    with pytest.raises(OptionError, match="separates"):
        parse_puzzles([], alphabet="12 4")
    with pytest.raises(OptionError):
        parse_puzzles([], box=(0, 3))
    with pytest.raises(OptionError, match="too short for a 9x9 grid"):
        check_alphabet("1234", 9)
    assert check_alphabet("0123456789ABCDEF", 16).symbols == HEX


def test_header_without_grid():
    puzzles = parse_all("Grid 01\nGrid 02\n" + "\n".join(["12..", "..12", "2...", "...1"]))
    assert errors(puzzles) == ["t.txt:1: 'Grid 01' is not followed by a grid"]
    assert puzzles[1].name == "Grid 02"


# Formatting.

def test_format_4x4():
    grid = Grid(geometry(2, 2), digits(SAMPLE_SMALL))
    assert format_grid(grid) == "1.3..4.2.34.4.23"
    assert format_grid(grid, "pretty") == (
        "1 . | 3 .\n"
        ". 4 | . 2\n"
        "----+----\n"
        ". 3 | 4 .\n"
        "4 . | 2 3")
    assert format_grid(grid, "line", NUMBERS) == "1 0 3 0 0 4 0 2 0 3 4 0 4 0 2 3"


def test_format_6x6():
    grid = solved(2, 3)
    assert format_grid(grid) == (
        "123456456123234561561234345612612345")
    assert format_grid(grid, "pretty") == (
        "1 2 3 | 4 5 6\n"
        "4 5 6 | 1 2 3\n"
        "------+------\n"
        "2 3 4 | 5 6 1\n"
        "5 6 1 | 2 3 4\n"
        "------+------\n"
        "3 4 5 | 6 1 2\n"
        "6 1 2 | 3 4 5")


def test_format_numbers_pretty_right_aligned():
    grid = holes(solved(2, 5), 3, keep=0.5)
    text = format_grid(grid, "pretty", NUMBERS)
    lines = text.split("\n")
    assert len(lines) == 10 + 4
    assert lines[:3] == [" 1  .  3  .  . |  6  7  .  9 10",
                         " .  7  .  9  . |  1  .  .  .  .",
                         "---------------+---------------"]
    assert lines[-4] == " 9 10  1  .  . |  4  .  6  .  8"
    assert format_grid(grid, "pretty") != text  # symbols: 10 is 'A'
    assert format_grid(grid).startswith("1.3..67.9A")
    assert format_grid(grid, "line", NUMBERS).startswith("1 0 3 0 0 6 7 0 9 10 0 7")


def test_format_hex_and_bad_style():
    grid = solved(4, 4)
    assert format_grid(grid, alphabet=Alphabet(HEX)).startswith("0123456789ABCDEF4567")
    with pytest.raises(ValueError, match="unknown grid style"):
        format_grid(grid, "fancy")


def test_alphabet_for():
    assert alphabet_for(9) == Alphabet("123456789")
    assert alphabet_for(35).symbols == DEFAULT_SYMBOLS
    assert alphabet_for(36) == NUMBERS


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6), (2, 5)])
@pytest.mark.parametrize("style", ["line", "pretty"])
def test_round_trip(box, style):
    for seed in range(3):
        grid = holes(solved(*box), seed)
        for alphabet in [None, NUMBERS] + ([Alphabet(HEX)] if grid.size == 16 else []):
            text = format_grid(grid, style, alphabet)
            kw = {"alphabet": alphabet.symbols} if alphabet and not alphabet.is_numbers else {}
            p = parse_puzzle(text, box=box if box == (2, 5) else None, **kw)
            assert p.grid == grid


def test_parse_box():
    assert parse_box("3x4") == (3, 4)
    assert parse_box("2X3") == (2, 3)
    for bad in ["3", "3x", "x4", "3x4x5", "0x3", "-1x3", "axb"]:
        with pytest.raises(ValueError, match="box"):
            parse_box(bad)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3)]), st.data())
def test_fast_clash_check_agrees_with_check_givens(box, data):
    n = box[0] * box[1]
    cells = data.draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    grid = Grid(geometry(*box), tuple(cells))
    try:
        check_givens(grid)
        passes = True
    except PuzzleError:
        passes = False
    assert clash_free(grid) == passes


# The shared collections (skipped when absent): every puzzle reads, and the counts are right.

SHARED_COUNTS = {
    "9x9/seeds.txt": 4,
    "9x9/magictour_top1465.txt": 1465,
    "9x9/forum_hardest_1106.txt": 375,
    "9x9/project_euler_096.txt": 50,
    "4x4/seeds.txt": 1,
    "4x4/rkkautsar_sudoku-4-1.txt": 1,
    "16x16/forum_tarek_first20.1g.txt": 20,
    "16x16/forum_blue_ultimate.16.txt": 15,
    # The README says 2, but the file holds one grid (16 rows in 4 bands, 20 lines, 344 bytes).
    "16x16/forum_misc.0f.txt": 1,
    "25x25/gecode_frisch_25x25.txt": 18,
    "25x25/rkkautsar_sudoku-25-1.txt": 1,
    **{f"large/rkkautsar_sudoku-{n}-{k}.txt": 1
       for n, k in [(64, 1), (64, 2), (81, 1), (100, 1), (144, 1), (144, 2), (225, 1), (225, 2),
                    (400, 1)]},
}

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared puzzles absent")


@needs_shared
@pytest.mark.parametrize("name", sorted(SHARED_COUNTS))
def test_shared_file(name):
    puzzles = list(read_puzzles(str(SHARED / name)))
    assert errors(puzzles) == []
    assert len(puzzles) == SHARED_COUNTS[name]
    size = puzzles[0].grid.size
    assert all(p.grid.size == size for p in puzzles)
    if name.startswith("large/"):
        assert size == int(name.split("-")[1]) and puzzles[0].alphabet == NUMBERS


@needs_shared
def test_shared_17_clue_streams():
    count = 0
    for p in read_puzzles(str(SHARED / "9x9/17_clue.txt")):
        assert p.error is None
        count += 1
    assert count == 49158
    assert p.grid.nclues == 17


@needs_shared
def test_shared_euler_top_left_sum_of_givens():
    puzzles = list(read_puzzles(str(SHARED / "9x9/project_euler_096.txt")))
    assert [p.name for p in puzzles[:2]] == ["Grid 01", "Grid 02"]
    assert puzzles[0].grid.cells[:9] == (0, 0, 3, 0, 2, 0, 6, 0, 0)


@needs_shared
def test_shared_misc_is_hex():
    [p] = read_puzzles(str(SHARED / "16x16/forum_misc.0f.txt"))
    assert p.alphabet.symbols == HEX and p.grid.cells[:4] == (0, 6, 0, 0)
