"""SudokuPad links: the link forms, the zipped SCL, published puzzles end to end, refusals.

Published puzzles come two ways (tests/data/sudokupad): links found in public places, and the
SCL that SudokuPad's own f-puzzles importer makes of the published puzzles of puzzles/variants.
The second kind must give the same rules as the f-puzzles importer reading the same puzzle, and
solve to its setter's solution, proven unique.
"""

from __future__ import annotations

import doctest
import importlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import PUZZLES, SEVENTEEN, SEVENTEEN_SOLUTION, run_cli

from satdoku.errors import PuzzleError
from satdoku.io.fpuzzles import convert_fpuzzles
from satdoku.io.lzstring import compress_to_base64
from satdoku.io.sudokupad import (convert_sudokupad, decode_sudokupad, from_sudokupad,
                                  looks_like_sudokupad, puzzle_id, unzip_scl)
from satdoku.io.variant import parse_variants
from satdoku.io.variant import read_variant
from satdoku.model.grid import Grid
from satdoku.tasks.solvers import make_solver, solve

DATA = Path(__file__).resolve().parent / "data" / "sudokupad"


def blocks(name: str) -> list[dict]:
    """The blocks of a links file: their '# key: value' comments and their link."""
    out, block, key = [], {}, None
    for line in (DATA / name).read_text().splitlines():
        match = re.match(r"# (\w+): (.*)", line)
        if match:
            key = match.group(1)
            block[key] = match.group(2)
        elif line.startswith("#   ") and key:
            block[key] += " " + line[4:]
        elif line.strip() and not line.startswith("#"):
            out.append(dict(block, link=line.strip()))
            block, key = {}, None
    return out


def published(name: str) -> dict:
    """The '# key: value' comments and the f-puzzles item of puzzles/variants/NAME.txt."""
    lines = (PUZZLES / "variants" / f"{name}.txt").read_text().splitlines()
    meta = dict(re.match(r"# (\w[\w-]*): (.*)", x).groups() for x in lines
                if re.match(r"# \w[\w-]*: ", x))
    meta["item"] = next(x for x in lines if x.strip() and not x.startswith("#"))
    return meta


def rules(document: dict) -> Counter:
    """The document's constraints, labels dropped and symmetric pairs in one order."""
    out = []
    for c in document["constraints"]:
        c = {k: v for k, v in c.items() if k != "label"}
        if c["type"] in ("kropki-white", "kropki-black", "xv"):
            c["cells"] = sorted(c["cells"])
        out.append(json.dumps(c, sort_keys=True))
    return Counter(out)


def solved(document: dict, limit: int = 2):
    puzzle = read_variant(document)
    with make_solver() as solver:
        return puzzle, solve(solver, puzzle.grid, limit=limit,
                             constraints=puzzle.constraints)


def digits(text: str) -> tuple[int, ...]:
    return tuple(int(ch) if ch.isdigit() else 0 for ch in text)


# Published puzzles.

FROM_FPUZZLES = blocks("from-fpuzzles.txt")
FOUND = blocks("found.txt")


@pytest.mark.parametrize("block", FROM_FPUZZLES, ids=[b["name"] for b in FROM_FPUZZLES])
def test_sudokupads_own_scl_of_a_published_puzzle(block):
    meta = published(block["name"])
    reference = convert_fpuzzles(meta["item"], ignore_unknown=True).document
    solution = digits(meta["solution"])
    if block["expect"] == "unique":
        conversion = convert_sudokupad(block["link"])
        document = conversion.document
        assert rules(document) == rules(reference)
        assert (document["givens"], document.get("box"), document.get("regions")) == \
            (reference["givens"], reference.get("box"), reference.get("regions"))
        puzzle, result = solved(document)
        assert result.status == "unique", result.message
        assert result.solution.cells == solution
        assert conversion.solution in (None, list(solution))   # SudokuPad keeps the setter's
        return
    words = block["expect"].removeprefix("refused: ")
    with pytest.raises(PuzzleError) as caught:
        convert_sudokupad(block["link"], "links.txt", line=7)
    message = str(caught.value)
    assert message.startswith("links.txt:7: satdoku cannot state ") and "\n" not in message
    assert words in message and "--ignore-unknown" in message
    conversion = convert_sudokupad(block["link"], ignore_unknown=True)
    assert any(words in w for w in conversion.warnings)
    assert rules(conversion.document) <= rules(reference)   # looser, never different
    puzzle = read_variant(conversion.document)
    assert puzzle.check(Grid(puzzle.geometry, solution)) == []


@pytest.mark.parametrize("block", FOUND, ids=[b["name"] for b in FOUND])
def test_links_found_in_public(block):
    assert looks_like_sudokupad(block["link"])
    expect = block["expect"]
    if expect.startswith("refused: "):
        with pytest.raises(PuzzleError, match=re.escape(expect[9:])):
            convert_sudokupad(block["link"])
        conversion = convert_sudokupad(block["link"], ignore_unknown=True)
    else:
        conversion = convert_sudokupad(block["link"])
    puzzle, result = solved(conversion.document)
    if "solution" in block:
        solution = digits(block["solution"])
        assert conversion.solution in (None, list(solution))
        assert puzzle.check(Grid(puzzle.geometry, solution)) == []
    if expect == "unique":
        assert result.status == "unique", result.message


def test_parity_fish_keeps_its_dots():
    # The dataset card lists 16 white and 5 black dots (and three red lines, in the image).
    fish = next(b for b in FOUND if b["name"] == "Parity Fish")
    conversion = convert_sudokupad(fish["link"], ignore_unknown=True)
    kinds = Counter(c["type"] for c in conversion.document["constraints"])
    assert kinds == {"kropki-white": 16, "kropki-black": 5}
    assert conversion.document["name"] == "Parity Fish"
    assert conversion.document["author"] == "Marty Sears"


# The link forms.

SCL = {"cells": [[{"value": 1}, {}], [{}, {}]], "regions": [[[0, 0], [0, 1]],
                                                            [[1, 0], [1, 1]]]}


def scl_link(data: dict, host: str = "https://sudokupad.app/") -> str:
    return host + "scl" + compress_to_base64(json.dumps(data))


@pytest.mark.parametrize("template", [
    "https://sudokupad.app/{id}",
    "https://sudokupad.app/{id}?setting-nogrid=1",
    "sudokupad.app/sudoku/{id}",
    "https://beta.sudokupad.app/{id}",
    "https://app.crackingthecryptic.com/sudoku/{id}",
    "https://app.crackingthecryptic.com/sudoku/?puzzleid={id}",
    "https://sudokupad.app/scf?puzzleid={id}&setting-largepuzzle=1",
    "sudokupad://puzzle/{id}",
    "https://sudokupad.svencodes.com/puzzle/{id}",
    "{id}",
])
def test_every_link_form_gives_the_puzzle(template):
    ident = "scl" + compress_to_base64(json.dumps(SCL))
    text = template.format(id=ident)
    assert looks_like_sudokupad(text)
    assert puzzle_id(text) == ident
    assert from_sudokupad(text)["givens"] == {"r1c1": 1}


def test_ctc_alias_percent_encoding_raw_json_and_zipped_json():
    packed = compress_to_base64(json.dumps(SCL))
    quoted = packed.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    for ident in ("ctc" + packed, "scl" + quoted, "scl" + json.dumps(SCL),
                  "scl{ce:[[{v:1},],[,]],re:[[[0,0],[0,1]],[[1,0],[1,1]]]}",
                  "scl" + compress_to_base64("{ce:[[{v:'1'},],[,]],re:[[[0,0],[0,1]],"
                                             "[[1,0],[1,1]]]}")):
        assert from_sudokupad("https://sudokupad.app/" + ident)["givens"] == {"r1c1": 1}


def test_fpuzzles_payloads_go_to_the_fpuzzles_importer():
    data = {"size": 4, "grid": [[{"value": 2, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
            "antiking": True}
    for prefix in ("fpuzzles", "fpuz"):
        link = "https://sudokupad.app/" + prefix + compress_to_base64(json.dumps(data))
        assert decode_sudokupad(link)[0] == "fpuzzles"
        document = from_sudokupad(link)
        assert document["givens"] == {"r1c1": 2}
        assert document["constraints"] == [{"type": "anti-king"}]


def test_a_collapsed_double_slash_is_repaired():
    # Servers and chats turn '//' in a path into '/'; SudokuPad doubles slashes back until the
    # data decompresses, and so does satdoku. (A character U+FFFF writes sixteen 1 bits: '//'.)
    data = dict(SCL, metadata={"title": "0\uffff"})
    link = "https://sudokupad.app/scl" + compress_to_base64(json.dumps(data, ensure_ascii=False))
    collapsed = link[:8] + link[8:].replace("//", "/")
    assert collapsed != link
    assert from_sudokupad(collapsed)["name"] == "0\uffff"


def test_scf_classic_grid():
    # SudokuPad's packed classic form: a digit and the empty cells after it in one character
    # (value digit + 10 x (1 + empties); 0-9 for 0-9, then A-Z, then a-z), written here from
    # SudokuPad's codoku.
    def pack(puzzle: str) -> str:
        out = []
        for match in re.finditer(r".0{0,5}", puzzle.replace(".", "0")):
            d = int(match.group()[0]) + 10 * (len(match.group()) - 1)
            out.append("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[d])
        return "".join(out)
    link = "https://sudokupad.app/scf" + pack(SEVENTEEN) + "*xtSeventeen"
    document = from_sudokupad(link)
    assert document["name"] == "Seventeen"
    assert {"type": "diagonal", "direction": "+"} in document["constraints"]
    plain = from_sudokupad("https://sudokupad.app/scf" + pack(SEVENTEEN))
    puzzle, result = solved(plain)
    assert puzzle.grid.cells == digits(SEVENTEEN)
    assert result.status == "unique" and result.solution.cells == digits(SEVENTEEN_SOLUTION)


def test_unzip_undoes_the_zipper():
    zipped = ("{ce:[[,{v:3},],[{v:'4'},,]],r:t,x:f,c1:#0,c2:#F,c:ffa0a0,te:'it\\'s, t:f',"
              "wp:[[0.5,1.5]]}")
    assert json.loads(unzip_scl(zipped)) == {
        "ce": [[{}, {"v": 3}, {}], [{"v": "4"}, {}, {}]], "r": True, "x": False,
        "c1": "#000000", "c2": "#FFFFFF", "c": "#ffa0a0", "te": "it's, t:f",
        "wp": [[0.5, 1.5]]}


# Short links and broken links: one line each, no traceback.

@pytest.mark.parametrize("link", [
    "https://sudokupad.app/psxczr0jpr",
    "https://app.crackingthecryptic.com/sudoku/dHFNqQLPjM",
    "https://sudokupad.app/clover/nov-28-2023-loopdokux",
    "https://cracking-the-cryptic.web.app/sudoku/dHFNqQLPjM",
])
def test_a_short_link_says_satdoku_is_offline(link):
    with pytest.raises(PuzzleError) as caught:
        from_sudokupad(link, "links.txt", line=2)
    message = str(caught.value)
    assert message.startswith("links.txt:2: the SudokuPad puzzle ") and "\n" not in message
    assert "stored on SudokuPad's server" in message and "offline" in message
    assert "https://sudokupad.app/scl" in message and "f-puzzles" in message


def broken_links() -> list[str]:
    link = FROM_FPUZZLES[0]["link"]
    half = link[:len(link) // 2]
    changed = link[:60] + ("A" if link[60] != "A" else "B") * 40 + link[100:]
    return [half, changed, link[:60], "https://sudokupad.app/scl", "https://sudokupad.app/",
            "https://sudokupad.app/scl!!!!!!!!!!", "https://sudokupad.app/scl{ce:[[{v:1}]]",
            "https://sudokupad.app/scl" + compress_to_base64("[1, 2]"),
            "https://sudokupad.app/fpuzzles" + compress_to_base64("{\"grid\": 7}")]


@pytest.mark.parametrize("link", broken_links())
def test_a_broken_link_is_one_line(link):
    with pytest.raises(PuzzleError) as caught:
        from_sudokupad(link, "in.txt", line=3)
    assert str(caught.value).startswith("in.txt:3: ") and "\n" not in str(caught.value)
    result = run_cli("solve", link)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert [x for x in result.output.splitlines() if x and x != "<arg>:1: invalid"] == [
        "<arg>:1: " + caught.value.message]


# Reading a stream, and the command line.

def test_a_stream_keeps_the_order_of_the_lines():
    link = scl_link(SCL)
    lines = ['{"size": 4, "givens": {}, "constraints": []}', "# a comment", link,
             "https://sudokupad.app/abc123", "", '{"size": 4,', '"givens": {}}', link]
    entries = list(parse_variants(lines, "mixed.txt"))
    assert [(e.line, e.index, e.ok) for e in entries] == [
        (1, 1, True), (3, 2, True), (4, 3, False), (6, 4, True), (8, 5, True)]
    assert entries[1].geometry.size == 2
    assert str(entries[2].error).startswith("mixed.txt:4: the SudokuPad puzzle 'abc123'")


def test_cli_solve_and_count_a_link():
    peak = next(b for b in FROM_FPUZZLES if b["name"] == "peak")
    solution = published("peak")["solution"]
    result = run_cli("solve", peak["link"])
    assert result.exit_code == 0, result.output
    rows = [line.replace(" ", "").replace("|", "") for line in result.output.splitlines()]
    assert "".join(r for r in rows if re.fullmatch(r"\d{4}", r)) == solution
    result = run_cli("count", peak["link"])
    assert result.exit_code == 0 and "unique" in result.output


def test_cli_reads_a_file_of_links_and_refuses_with_one_line(tmp_path):
    fish = next(b for b in FOUND if b["name"] == "Parity Fish")["link"]
    path = tmp_path / "links.txt"
    path.write_text(FROM_FPUZZLES[0]["link"] + "\n" + fish + "\n")
    result = run_cli("count", path)
    assert "links.txt:1: unique" in result.output
    refusal = [x for x in result.output.splitlines() if x.startswith(f"{path}:2: satdoku")]
    assert len(refusal) == 1 and "--ignore-unknown" in refusal[0]
    result = run_cli("solve", path, "--ignore-unknown")
    assert result.exit_code == 0, result.output
    assert "warning: a background image" in result.output


@pytest.mark.parametrize("module", ["satdoku.io.sudokupad", "satdoku.io.sudokupad.scl",
                                    "satdoku.io.sudokupad.drawing"])
def test_docstring_examples(module):
    # tests/test_docs.py runs the examples of the top-level modules only.
    assert doctest.testmod(importlib.import_module(module),
                           optionflags=doctest.ELLIPSIS).failed == 0
