"""f-puzzles import: every key the rules declare, the negative rules, every input form, what is
left out and what is refused, broken data. Files of items, the shipped puzzles and the docs are
in test_fpuzzles_files.py; the spec checker (tests/spec_checker.py, written apart from the rule
classes) checks the documents' structure here and the setters' solutions there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from satdoku.errors import PuzzleError
from satdoku.io.fpuzzles import convert_fpuzzles, from_fpuzzles, looks_like_fpuzzles, mapping
from satdoku.io.lzstring import compress_to_base64, compress_to_uri
from spec_checker import check_document

VARIANTS = Path(__file__).resolve().parent.parent / "puzzles" / "variants"


def fp(size=9, **keys):
    """A small f-puzzles JSON object: an empty grid of ``size`` plus ``keys``."""
    data = {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]}
    data.update({key.replace("_plus", "+").replace("_minus", "-"): value
                 for key, value in keys.items()})
    return data


def constraints(data, **kwargs):
    document = from_fpuzzles(data, **kwargs)
    check_document(document)
    return document["constraints"]


# Every mapped key.

CASES = {
    "diagonal+": (fp(diagonal_plus=True), [{"type": "diagonal", "direction": "+"}]),
    "diagonal-": (fp(diagonal_minus=True), [{"type": "diagonal", "direction": "-"}]),
    "antiknight": (fp(antiknight=True), [{"type": "anti-knight"}]),
    "antiking": (fp(antiking=True), [{"type": "anti-king"}]),
    "disjointgroups": (fp(disjointgroups=True), [{"type": "disjoint-groups"}]),
    "nonconsecutive": (fp(nonconsecutive=True), [{"type": "non-consecutive"}]),
    "negative xv": (fp(negative=["xv"]), [{"type": "no-xv"}]),
    "negative ratio": (fp(nonconsecutive=True, negative=["ratio"]), [{"type": "no-kropki"}]),
    "killercage": (fp(killercage=[{"cells": ["R1C1", "R1C2"], "value": "10"},
                                  {"cells": ["R9C9", "R8C9"]}]),
                   [{"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 10},
                    {"type": "killer", "cells": ["r9c9", "r8c9"], "sum": None}]),
    "littlekillersum": (fp(littlekillersum=[
        {"cell": "R0C4", "cells": ["R1C3", "R2C2", "R3C1"], "direction": "DL", "value": "17"},
        {"cell": "R10C8", "direction": "UR", "value": "3"},
        {"cell": "R5C10", "direction": "UL", "value": "20"}]),
        [{"type": "little-killer", "cells": ["r1c3", "r2c2", "r3c1"], "sum": 17, "clue": "r0c4",
          "direction": "DL"},
         {"type": "little-killer", "cells": ["r9c9"], "sum": 3, "clue": "r10c8",
          "direction": "UR"},
         {"type": "little-killer", "cells": ["r4c9", "r3c8", "r2c7", "r1c6"], "sum": 20,
          "clue": "r5c10", "direction": "UL"}]),
    "thermometer": (fp(thermometer=[{"lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]]}]),
                    [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r1c3"]},
                     {"type": "thermometer", "cells": ["r1c1", "r2c1"]}]),
    "slowthermometer": (fp(slowthermometer=[{"lines": [["R2C2", "R3C3"]]}]),
                        [{"type": "slow-thermometer", "cells": ["r2c2", "r3c3"]}]),
    "arrow": (fp(arrow=[
        {"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3"]]},
        {"cells": ["R5C5", "R5C6"], "lines": [["R5C6", "R6C7", "R7C7", "R8C7"]]},
        {"cells": ["R9C1"], "lines": [["R9C1", "R8C2"], ["R9C1", "R9C2", "R9C3"]]}]),
        [{"type": "arrow", "circle": ["r1c1"], "cells": ["r2c2", "r3c3"]},
         {"type": "arrow", "circle": ["r5c5", "r5c6"], "cells": ["r6c7", "r7c7", "r8c7"]},
         {"type": "arrow", "circle": ["r9c1"], "cells": ["r8c2"]},
         {"type": "arrow", "circle": ["r9c1"], "cells": ["r9c2", "r9c3"]}]),
    "difference": (fp(difference=[{"cells": ["R1C1", "R1C2"]},
                                  {"cells": ["R2C1", "R3C1"], "value": "3"}]),
                   [{"type": "kropki-white", "cells": ["r1c1", "r1c2"], "difference": 1},
                    {"type": "kropki-white", "cells": ["r2c1", "r3c1"], "difference": 3}]),
    "ratio": (fp(ratio=[{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R3C1"], "value": "3"}]),
              [{"type": "kropki-black", "cells": ["r1c1", "r1c2"], "ratio": 2},
               {"type": "kropki-black", "cells": ["r2c1", "r3c1"], "ratio": 3}]),
    "xv": (fp(xv=[{"cells": ["R1C1", "R1C2"], "value": "X"}, {"cells": ["R4C4", "R5C4"],
                                                              "value": "v"}]),
           [{"type": "xv", "cells": ["r1c1", "r1c2"], "sum": 10},
            {"type": "xv", "cells": ["r4c4", "r5c4"], "sum": 5}]),
    "odd and even": (fp(odd=[{"cell": "R1C1"}, {"cell": "R9C9"}], even=[{"cell": "R5C5"}]),
                     [{"type": "odd", "cells": ["r1c1", "r9c9"]},
                      {"type": "even", "cells": ["r5c5"]}]),
    "minimum and maximum": (fp(minimum=[{"cell": "R1C1"}], maximum=[{"cell": "R5C5"},
                                                                    {"cell": "R9C1"}]),
                            [{"type": "minimum", "cells": ["r1c1"]},
                             {"type": "maximum", "cells": ["r5c5"]},
                             {"type": "maximum", "cells": ["r9c1"]}]),
    "extraregion": (fp(extraregion=[{"cells": [f"R{r}C{c}" for r in (2, 3, 4) for c in (2, 3, 4)]},
                                    {"cells": ["R9C9", "R8C8"]}]),
                    [{"type": "extra-region",
                      "cells": [f"r{r}c{c}" for r in (2, 3, 4) for c in (2, 3, 4)]},
                     {"type": "killer", "cells": ["r9c9", "r8c8"], "sum": None,
                      "label": "f-puzzles extra region of 2 cells"}]),
    "palindrome": (fp(palindrome=[{"lines": [["R1C1", "R2C2", "R3C3"]]}]),
                   [{"type": "palindrome", "cells": ["r1c1", "r2c2", "r3c3"]}]),
    "renban": (fp(renban=[{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
               [{"type": "renban", "cells": ["r1c1", "r1c2", "r1c3"]}]),
    "whispers": (fp(whispers=[{"lines": [["R1C1", "R1C2", "R2C3"]]}]),
                 [{"type": "german-whispers", "cells": ["r1c1", "r1c2", "r2c3"], "difference": 5}]),
    "whispers 6x6": (fp(6, whispers=[{"lines": [["R1C1", "R1C2"]]}]),
                     [{"type": "german-whispers", "cells": ["r1c1", "r1c2"], "difference": 3}]),
    "betweenline": (fp(betweenline=[{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}]),
                    [{"type": "between", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"]}]),
    "regionsumline": (fp(regionsumline=[{"lines": [["R3C3", "R3C4", "R3C5"]]}]),
                      [{"type": "region-sum", "cells": ["r3c3", "r3c4", "r3c5"]}]),
    "entropicline": (fp(entropicline=[{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}]),
                     [{"type": "entropic", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"]}]),
    "zipperline": (fp(zipperline=[{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
                   [{"type": "zipper", "cells": ["r1c1", "r1c2", "r1c3"]}]),
    "clone": (fp(clone=[{"cells": ["R1C1", "R1C2"], "cloneCells": ["R9C8", "R9C9"]}]),
              [{"type": "clone", "cells": ["r1c1", "r1c2"], "clone": ["r9c8", "r9c9"]}]),
    "quadruple": (fp(quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 1, 3]}]),
                  [{"type": "quadruple", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"],
                    "digits": [1, 1, 3]}]),
    "sandwichsum": (fp(sandwichsum=[{"cell": "R0C3", "value": "15"}, {"cell": "R4C0", "value": "0"},
                                    {"cell": "R10C2", "value": "7"}, {"cell": "R6C10",
                                                                      "value": "35"}]),
                    [{"type": "sandwich", "line": "c3", "sum": 15},
                     {"type": "sandwich", "line": "r4", "sum": 0},
                     {"type": "sandwich", "line": "c2", "sum": 7},
                     {"type": "sandwich", "line": "r6", "sum": 35}]),
    "xsum": (fp(xsum=[{"cell": "R0C6", "value": "16"}, {"cell": "R8C10", "value": "19"}]),
             [{"type": "x-sum", "line": "c6", "from": "start", "sum": 16},
              {"type": "x-sum", "line": "r8", "from": "end", "sum": 19}]),
    "skyscraper": (fp(skyscraper=[{"cell": "R3C0", "value": "4"}, {"cell": "R10C1",
                                                                    "value": "2"}]),
                   [{"type": "skyscraper", "line": "r3", "from": "start", "count": 4},
                    {"type": "skyscraper", "line": "c1", "from": "end", "count": 2}]),
    "columnindexer": (fp(columnindexer=[{"cells": [f"R{r}C{c}" for r in range(1, 10)]}
                                        for c in (1, 5, 9)]),
                      [{"type": "rule-159"}]),
    "columnindexer (not 1-5-9)": (fp(columnindexer=[{"cells": ["R1C1", "R2C2"]}]),
                                  [{"type": "column-indexer", "cells": ["r1c1", "r2c2"]}]),
    "rowindexer": (fp(rowindexer=[{"cells": ["R1C1"]}, {"cells": ["R4C2", "R1C1"]}]),
                   [{"type": "row-indexer", "cells": ["r1c1", "r4c2"]}]),
    "boxindexer": (fp(boxindexer=[{"cells": ["R5C5"]}]),
                   [{"type": "box-indexer", "cells": ["r5c5"]}]),
    "modularline": (fp(modularline=[{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
                    [{"type": "modular", "cells": ["r1c1", "r1c2", "r1c3"], "mod": 3}]),
    "nabner": (fp(nabner=[{"lines": [["R1C1", "R2C2"]]}]),
               [{"type": "nabner", "cells": ["r1c1", "r2c2"]}]),
    "sum": (fp(sum=[{"cells": ["R1C1", "R1C2"], "value": "7"}]),
            [{"type": "edge-sum", "cells": ["r1c1", "r1c2"], "sum": 7}]),
    "parity": (fp(4, grid=[[{"parity": "Odd"}, {}, {}, {"parity": "Even"}]] + [[{}] * 4] * 3,
                  odd=[{"cell": "R2C2"}]),
               [{"type": "odd", "cells": ["r2c2", "r1c1"]}, {"type": "even", "cells": ["r1c4"]}]),
    "whispers value": (fp(whispers=[{"lines": [["R1C1", "R1C2"]], "value": "4"}]),
                       [{"type": "german-whispers", "cells": ["r1c1", "r1c2"], "difference": 4}]),
    "entropicline 6x6": (fp(6, entropicline=[{"lines": [["R1C1", "R1C2"]]}]),
                         [{"type": "entropic", "cells": ["r1c1", "r1c2"]}]),
    "doublearrow": (fp(doublearrow=[{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
                    [{"type": "double-arrow", "cells": ["r1c1", "r1c2", "r1c3"]}]),
    "lockout": (fp(6, lockout=[{"lines": [["R1C1", "R1C2", "R1C3"]]}]),
                [{"type": "lockout", "cells": ["r1c1", "r1c2", "r1c3"], "difference": 3}]),
    "cage": (fp(cage=[{"cells": ["R1C1", "R1C2"], "value": "DR3"}]),
             [{"type": "multi-killer", "cells": ["r1c1", "r1c2"], "sums": [3, 12]}]),
    "givenPencilMarks": (fp(4, grid=[[{"givenPencilMarks": [1, 2]}, {"givenPencilMarks": [2, 1]},
                                      {"givenPencilMarks": [1, 2, 3, 4]}, {}]] + [[{}] * 4] * 3),
                         [{"type": "candidates", "cells": ["r1c1", "r1c2"], "digits": [1, 2]}]),
    "a line through a cell twice": (
        fp(whispers=[{"lines": [["R1C1", "R1C2", "R2C2", "R2C1", "R1C1"]]}]),
        [{"type": "german-whispers", "cells": ["r1c1", "r1c2", "r2c2", "r2c1", "r1c1"],
          "difference": 5}]),
}


@pytest.mark.parametrize("name", CASES)
def test_each_fpuzzles_key_becomes_its_satdoku_constraints(name):
    data, expected = CASES[name]
    assert constraints(data) == expected


def test_every_key_the_rules_declare_is_tested():
    tested = {key for data, _ in CASES.values() for key in data} | {
        "negative", "parity", "givenPencilMarks"}
    assert {key for key, _, _ in mapping()} <= tested


def test_givens_title_author_and_boxes():
    data = fp(6, title=" Six ", author="Me", ruleset="Normal rules.")
    data["grid"][0][0] = {"value": 3, "given": True}
    data["grid"][5][4] = {"value": 6, "given": True}
    document = from_fpuzzles(data)
    check_document(document)
    assert document == {"format": "satdoku-variant", "version": 1, "name": "Six", "author": "Me",
                        "size": 6, "box": "2x3", "givens": {"r1c1": 3, "r6c5": 6},
                        "constraints": []}


def test_irregular_regions_replace_the_boxes():
    data = fp(4)
    # f-puzzles numbers default regions like boxes and stores only the changed cells.
    data["grid"][0][1]["region"] = 2      # r1c2 swaps with r3c1
    data["grid"][2][0]["region"] = 0
    document = from_fpuzzles(data)
    check_document(document)
    assert "box" not in document
    assert document["regions"] == [
        ["r1c1", "r2c1", "r2c2", "r3c1"], ["r1c3", "r1c4", "r2c3", "r2c4"],
        ["r1c2", "r3c2", "r4c1", "r4c2"], ["r3c3", "r3c4", "r4c3", "r4c4"]]


def test_a_grid_without_boxes_keeps_f_puzzles_rows_as_regions():
    document = from_fpuzzles(fp(5))
    assert document["regions"] == [[f"r{r}c{c}" for c in range(1, 6)] for r in range(1, 6)]


def test_regions_of_the_wrong_size_are_refused():
    data = fp(4)
    data["grid"][0][1]["region"] = 2
    with pytest.raises(PuzzleError, match="region 0 has 3 cells, a 4x4 grid needs 4"):
        from_fpuzzles(data)


def test_maximum_cells_side_by_side_compare_only_with_other_neighbours():
    # A fortress: f-puzzles compares r1c1 and r1c2 with their other neighbours only.
    got = constraints(fp(4, maximum=[{"cell": "R1C1"}, {"cell": "R1C2"}],
                         minimum=[{"cell": "R4C4"}]))
    assert [(k["type"], k["cells"]) for k in got] == [
        ("minimum", ["r4c4"]),
        ("thermometer", ["r2c1", "r1c1"]),
        ("thermometer", ["r1c3", "r1c2"]),
        ("thermometer", ["r2c2", "r1c2"]),
    ]


# The negative kropki and XV rules.

def test_nonconsecutive_with_dots_exempts_the_dotted_pairs():
    got = constraints(fp(4, nonconsecutive=True, difference=[{"cells": ["R1C1", "R1C2"]}],
                         ratio=[{"cells": ["R2C1", "R2C2"]}]))
    assert got[-1] == {"type": "no-kropki", "ratios": []}


@pytest.mark.parametrize("data, rule", [
    (fp(nonconsecutive=True, negative=["ratio"], ratio=[{"cells": ["R1C1", "R1C2"]}]),
     {"type": "no-kropki"}),
    (fp(negative=["ratio"]), {"type": "no-kropki", "differences": []}),
    (fp(nonconsecutive=True, negative=["ratio"], ratio=[{"cells": ["R1C1", "R1C2"], "value": "3"}]),
     {"type": "no-kropki", "ratios": [2, 3]}),
    (fp(negative=["difference"], difference=[{"cells": ["R1C1", "R1C2"], "value": "2"}]),
     {"type": "no-kropki", "differences": [2], "ratios": []}),
    (fp(nonconsecutive=True, negative=["difference"],
        difference=[{"cells": ["R1C1", "R1C2"], "value": "3"}]),
     {"type": "no-kropki", "differences": [1, 3], "ratios": []}),
    (fp(negative=["xv"], xv=[{"cells": ["R1C1", "R2C1"], "value": "X"}]), {"type": "no-xv"}),
    (fp(negative=["sum"], sum=[{"cells": ["R1C1", "R2C1"], "value": "7"}]),
     {"type": "no-xv", "sums": [7]}),
    (fp(negative=["sum", "xv"], sum=[{"cells": ["R1C1", "R2C1"], "value": "7"}]),
     {"type": "no-xv", "sums": [5, 7, 10]}),
])
def test_every_negative_rule_of_f_puzzles_is_stated(data, rule):
    """As f-puzzles' solver reads them (SudokuVariantSolverJS: KropkiConstraint.ts,
    SumConstraint.ts): 'ratio' forbids 2 and the black dots' ratios, 'difference' the white
    dots' differences, nonconsecutive difference 1, all on pairs without a dot."""
    assert constraints(data)[-1] == rule


def test_an_unknown_negative_rule_is_refused():
    with pytest.raises(PuzzleError, match=re.escape("'negative' 'parity': no satdoku negative")):
        from_fpuzzles(fp(negative=["parity"]))


# Input forms.

SAMPLE = fp(title="Sample", author="Someone", antiknight=True,
            killercage=[{"cells": ["R1C1", "R1C2"], "value": "3"}],
            littlekillersum=[{"cell": "R0C0", "direction": "DR", "value": "45"}])
SAMPLE["grid"][4][4] = {"value": 5, "given": True}
SAMPLE_JSON = json.dumps(SAMPLE)
PACKED = compress_to_base64(SAMPLE_JSON)


@pytest.mark.parametrize("text", [
    SAMPLE_JSON,
    "  " + SAMPLE_JSON + "\n",
    PACKED,
    PACKED.rstrip("="),
    compress_to_uri(SAMPLE_JSON),
    "https://f-puzzles.com/?load=" + PACKED,
    "https://www.f-puzzles.com/?load=" + quote(PACKED, safe=""),
    "f-puzzles.com/?load=" + PACKED + "&embed=1#top",
    "https://f-puzzles.com/?lang=en&load=" + PACKED.replace("+", " "),
    "https://f-puzzles.com/?load=" + compress_to_uri(SAMPLE_JSON),
    "https://sudokupad.app/fpuzzles" + quote(PACKED, safe=""),
    "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles" + PACKED,
])
def test_links_strings_and_json_give_the_same_document(text):
    assert from_fpuzzles(text) == from_fpuzzles(SAMPLE)
    assert looks_like_fpuzzles(text)


def test_the_sample_document():
    document = from_fpuzzles(SAMPLE, cite="made up for a test")
    assert document["source"] == "made up for a test"
    assert list(document) == ["format", "version", "name", "author", "source", "size", "box",
                              "givens", "constraints"]
    assert document["givens"] == {"r5c5": 5}
    assert document["constraints"][-1]["cells"] == [f"r{i}c{i}" for i in range(1, 10)]


def test_a_sudoku_one_liner_is_not_taken_for_fpuzzles():
    assert not looks_like_fpuzzles(".714....5....5..8...39.76.......1....9...6..3......82.....4...")


# What is left out, and what is refused.

DRAWN = fp(antiking=True, text=[{"cells": ["R1C1"], "value": "hi"}],
           line=[{"lines": [["R1C1", "R2C2"]]}], rectangle=[{"cells": ["R3C3"]}])
DRAWN["grid"][0][0] = {"c": "#FF0000", "value": 4}
DRAWN["grid"][0][1] = {"centerPencilMarks": [1, 2]}
UNKNOWN = dict(DRAWN, mystery=True)


def test_what_only_draws_is_left_out_with_one_note_naming_it():
    conversion = convert_fpuzzles(DRAWN)
    assert conversion.document["constraints"] == [{"type": "anti-king"}]
    assert conversion.document["givens"] == {}
    assert conversion.warnings == [
        "left out what carries no rule: 1 digit(s) without 'given' (a solver's progress), "
        "1 coloured cell(s), pencil marks in 1 cell(s), text (1), drawn lines (1), "
        "rectangles (1)"]


def test_an_unknown_key_is_refused_naming_it_and_ignore_unknown():
    with pytest.raises(PuzzleError) as caught:
        from_fpuzzles(UNKNOWN, "puzzle.txt", line=7)
    message = str(caught.value)
    assert message == ("puzzle.txt:7: satdoku cannot use f-puzzles 'mystery': unknown to "
                       "satdoku (with --ignore-unknown it solves without them, a looser "
                       "puzzle than the one published)")
    conversion = convert_fpuzzles(UNKNOWN, ignore_unknown=True)
    assert conversion.warnings[1:] == ["f-puzzles 'mystery': unknown to satdoku"]


def test_cosmetic_copies_of_present_rules_are_skipped_and_orphans_refused():
    copy = {"lines": [["R1C1", "R1C2"]], "outlineC": "#67F067", "fromConstraint": "Whispers"}
    data = fp(whispers=[{"lines": [["R1C1", "R1C2"]]}], line=[copy])
    conversion = convert_fpuzzles(data)
    assert len(conversion.document["constraints"]) == 1 and conversion.warnings == []
    old = {"lines": [["R1C1", "R1C2"]], "outlineC": "#C060C0", "isNewConstraint": True}
    assert convert_fpuzzles(fp(renban=[{"lines": [["R1C1", "R1C2"]]}], line=[old])).warnings \
        == []
    data["line"].append({"lines": [["R5C5", "R6C6"]]})
    assert convert_fpuzzles(data).warnings == ["left out what carries no rule: drawn lines (1)"]
    with pytest.raises(PuzzleError, match="'line' drawn for the rule 'Renban', which the puzzle "
                                          "does not hold"):
        from_fpuzzles(fp(line=[dict(copy, fromConstraint="Renban")]))


@pytest.mark.parametrize("data, note", [
    (fp(littlekillersum=[{"cell": "R0C3", "direction": "DR", "value": ""}]),
     "little killer arrows without a total"),
    (fp(sandwichsum=[{"cell": "R0C3", "value": ""}]), "sandwichsum clues without their number"),
    (fp(xv=[{"cells": ["R1C1", "R1C2"], "value": ""}]), "xv clues without their letter"),
])
def test_clues_without_their_number_are_left_out_as_f_puzzles_solver_does(data, note):
    conversion = convert_fpuzzles(data)
    assert conversion.document["constraints"] == []
    assert conversion.warnings == [f"left out what carries no rule: {note}"]


@pytest.mark.parametrize("text, message", [
    ("", "empty: no f-puzzles link"),
    ("N4Ig*zglg",
     "not an f-puzzles string (not lz-string base64 data: character '*' at position 5"),
    ("https://f-puzzles.com/?load=", "the f-puzzles link has an empty 'load='"),
    ("https://f-puzzles.com/?id=yc4ej2ea", "a short f-puzzles link (?id=...)"),
    ("https://example.com/puzzle", "a link without a puzzle"),
    ('{"size": 9,',
     "bad JSON: Expecting property name enclosed in double quotes at line 1 column 12"),
    ("[1, 2]", "not an f-puzzles string"),
    (compress_to_base64("[1, 2]"),
     "bad decompressed f-puzzles data: an f-puzzles puzzle is a JSON object, not list"),
    (compress_to_base64("{oops"), "bad decompressed f-puzzles data: Expecting property name"),
])
def test_bad_text_gives_located_errors(text, message):
    with pytest.raises(PuzzleError) as caught:
        from_fpuzzles(text, "in.txt", line=3)
    assert str(caught.value).startswith("in.txt:3: " + message)


@pytest.mark.parametrize("data, message", [
    (fp(killercage=[{"cells": ["R1C1", "X9"]}]),
     "f-puzzles 'killercage' #1: 'X9' is not an f-puzzles cell name"),
    (fp(thermometer=[{"lines": [["R1C1", "R10C1"]]}]),
     "'thermometer' #1: R10C1 is not inside the 9x9 grid"),
    (fp(odd=[{"cell": "R1C1"}, {"cell": None}]), "'odd' #2: None is not an f-puzzles cell name"),
    (fp(difference=[{"cells": ["R1C1", "R2C2"]}]), "r1c1 and r2c2 are not orthogonally adjacent"),
    (fp(xv=[{"cells": ["R1C1", "R1C2"], "value": "Y"}]), "'Y' is neither X nor V"),
    (fp(killercage=[{"cells": ["R1C1"], "value": "9" * 5000}]), "a number of more than 9 digits"),
    (fp(4, grid=[[{"parity": "Prime"}, {}, {}, {}]] + [[{}] * 4] * 3), "parity 'Prime'"),
    (fp(killercage=[{"cells": ["R1C1", "R1C1"]}]),
     "r1c1: f-puzzles 'killercage' #1: r1c1 appears twice"),
    (fp(killercage=[{"cells": ["R1C1"], "value": "ten"}]), "'ten' is not a whole number"),
    (fp(littlekillersum=[{"cell": "R0C3", "direction": "DD", "value": "5"}]), "direction 'DD'"),
    (fp(littlekillersum=[{"cell": "R0C3", "direction": "UR", "value": "5"}]), "meets no cell"),
    (fp(littlekillersum=[{"cell": "R0C3", "cells": ["R1C4"], "direction": "DL", "value": "5"}]),
     "are not the diagonal from R0C3 going DL"),
    (fp(sandwichsum=[{"cell": "R3C3", "value": "5"}]), "R3C3 is not beside one row or column"),
    (fp(sandwichsum=[{"cell": "R11C3", "value": "5"}]), "R11C3 is not around the 9x9 grid"),
    (fp(sandwichsum=[{"cell": "R0C0", "value": "5"}]), "R0C0 is not beside one row or column"),
    (fp(arrow=[{"cells": ["R1C1"], "lines": [["R1C1"]]}]),
     "the arrow has no cell outside its circle"),
    (fp(clone=[{"cells": ["R1C1"], "cloneCells": ["R2C1", "R3C1"]}]), "1 cells but 2 cloneCells"),
    (fp(quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R3C3"], "values": [1]}]),
     "not the 4 cells around a corner"),
    (fp(quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2, 3, 4, 5]}]),
     "1 to 4 digits"),
    (fp(thermometer=[{"lines": [["R1C1"]]}]), "1 cell(s); it needs at least 2"),
    (fp(doublearrow=[{"lines": [["R1C1", "R1C2"]]}]), "2 cell(s); it needs at least 3"),
    (fp(antiking="yes"), "'antiking' should be true or false"),
    (fp(killercage={"cells": []}), "'killercage' should be a list"),
    ({"size": 0}, "'size' 0 is not a grid size"),
    ({"size": 4, "grid": [[{}] * 4] * 3}, "'grid' should be 4 rows of 4 cells"),
])
def test_bad_data_gives_located_errors(data, message):
    with pytest.raises(PuzzleError) as caught:
        from_fpuzzles(data, "f.txt", line=2)
    assert str(caught.value).startswith("f.txt:2: ")
    assert message in str(caught.value)


def test_a_bad_given_names_its_cell():
    data = fp(4)
    data["grid"][1][2] = {"value": 7, "given": True}
    with pytest.raises(PuzzleError) as caught:
        from_fpuzzles(data, "g.txt")
    assert caught.value.cell == "r2c3"
    assert str(caught.value) == "g.txt: r2c3: f-puzzles 'grid': value 7 is not a digit 1-4"


def test_deeply_nested_f_puzzles_data_is_one_error():
    deep = '{"size": 4, "grid": ' + "[" * 5000 + "]" * 5000 + "}"
    with pytest.raises(PuzzleError, match="nested too deeply"):
        from_fpuzzles(compress_to_base64(deep))
