"""SudokuPad's SCL read as rules: each drawn item SudokuPad's conventions give a rule, what is
cosmetic, what is refused, and broken data. Small hand-made 4x4 grids; the published puzzles are
in test_sudokupad.py."""

from __future__ import annotations

import pytest

from satdoku.errors import PuzzleError
from satdoku.io.sudokupad.scl import convert_scl
from satdoku.io.sudokupad import from_sudokupad
from satdoku.io.variant import read_variant


def grid4(**items) -> dict:
    """An empty 4x4 SCL puzzle with 2x2 boxes, plus ``items``."""
    data = {"cells": [[{} for _ in range(4)] for _ in range(4)],
            "regions": [[[r, c] for r in range(b // 2 * 2, b // 2 * 2 + 2)
                         for c in range(b % 2 * 2, b % 2 * 2 + 2)] for b in range(4)]}
    data.update(items)
    return data


def at(name: str) -> list[float]:
    """The centre point of a cell: at('r1c2') == [0.5, 1.5]."""
    r, c = name[1:].split("c")
    return [int(r) - 0.5, int(c) - 0.5]


def circle(name, size=0.8, fill="#FFFFFF", border="#A1A1A1", **more):
    return dict({"center": at(name), "width": size, "height": size, "rounded": True,
                 "backgroundColor": fill, "borderColor": border}, **more)


def mark(center, text="", size=0.3, **more):
    return dict({"center": center, "width": size, "height": size, "text": text}, **more)


def line(*names, color="#A0A0A0", thickness=10):
    return {"wayPoints": [at(n) for n in names], "color": color, "thickness": thickness}


def read(data: dict, ignore_unknown: bool = False):
    conversion = convert_scl(data, "t.json", ignore_unknown=ignore_unknown)
    read_variant(conversion.document)   # the document is a puzzle satdoku reads
    return conversion.document["constraints"], conversion.warnings


READINGS = {
    "thermometer": (grid4(lines=[line("r1c1", "r1c2", "r2c2")],
                          underlays=[circle("r1c1", 0.85, "#a0a0a0")]),
                    [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r2c2"]}]),
    "branching thermometer": (
        grid4(lines=[line("r1c3", "r1c2", "r1c1"), line("r1c2", "r2c2")],
              underlays=[circle("r1c1", 0.85, "#a0a0a0")]),
        [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r1c3"]},
         {"type": "thermometer", "cells": ["r1c1", "r1c2", "r2c2"]}]),
    "between line": (grid4(lines=[line("r1c1", "r1c2", "r1c3", "r1c4", thickness=2)],
                           overlays=[circle("r1c1"), circle("r1c4")]),
                     [{"type": "between", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"]}]),
    "arrow from a pill": (
        grid4(overlays=[dict(circle("r1c1"), center=[0.5, 1.0], width=1.83, height=0.83)],
              arrows=[{"wayPoints": [[0.9, 0.5], at("r2c1"), at("r3c1")], "headLength": 0.3}]),
        [{"type": "arrow", "circle": ["r1c1", "r1c2"], "cells": ["r2c1", "r3c1"]}]),
    "little killer": (grid4(arrows=[{"wayPoints": [[-0.2, -0.2], [0.2, 0.2]]}],
                            overlays=[mark([-0.5, -0.5], "10", 0.25)]),
                      [{"type": "little-killer", "cells": ["r1c1", "r2c2", "r3c3", "r4c4"],
                        "sum": 10, "clue": "r0c0", "direction": "DR"}]),
    "kropki with values": (
        grid4(overlays=[mark([0.5, 1], "2", rounded=True, backgroundColor="#FFFFFF",
                             borderColor="#000000"),
                        mark([1, 0.5], "3", rounded=True, backgroundColor="#000")]),
        [{"type": "kropki-white", "cells": ["r1c1", "r1c2"], "difference": 2},
         {"type": "kropki-black", "cells": ["r1c1", "r2c1"], "ratio": 3}]),
    "X and V": (grid4(overlays=[mark([1, 0.5], "X"), mark([0.5, 3], "v")]),
                [{"type": "xv", "cells": ["r1c1", "r2c1"], "sum": 10},
                 {"type": "xv", "cells": ["r1c3", "r1c4"], "sum": 5}]),
    "inequality signs": (grid4(overlays=[mark([0.5, 2], "<"), mark([2, 0.5], "^"),
                                         mark([3.5, 1], ">")]),
                         [{"type": "thermometer", "cells": ["r1c2", "r1c3"]},
                          {"type": "thermometer", "cells": ["r2c1", "r3c1"]},
                          {"type": "thermometer", "cells": ["r4c2", "r4c1"]}]),
    "quadruple": (grid4(overlays=[mark([2, 2], "1 2", 0.7, rounded=True)]),
                  [{"type": "quadruple", "cells": ["r2c2", "r2c3", "r3c2", "r3c3"],
                    "digits": [1, 2]}]),
    "cages": (grid4(cages=[{"cells": [[0, 0], [0, 1]], "value": 7},
                           {"cells": [[3, 3], [2, 3]], "value": "?"},
                           {"cells": [[1, 0], [1, 1], [2, 0], [2, 1]], "style": "extraregion"},
                           {"value": "title: Caged"}]),
              [{"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 7},
               {"type": "killer", "cells": ["r4c4", "r3c4"], "sum": None},
               {"type": "extra-region", "cells": ["r2c1", "r2c2", "r3c1", "r3c2"]}]),
    "global rules": (grid4(**{"global": ["antiking", "antixv"]}),
                     [{"type": "anti-king"}, {"type": "no-xv"}]),
    "diagonals": (grid4(lines=[{"wayPoints": [[0, 0], [4, 4]]}, {"wayPoints": [[0, 4], [4, 0]]}]),
                  [{"type": "diagonal", "direction": "+"},
                   {"type": "diagonal", "direction": "-"}]),
}


@pytest.mark.parametrize("name", READINGS)
def test_a_drawn_item_read_as_a_rule(name):
    data, expected = READINGS[name]
    constraints, warnings = read(data)
    assert constraints == expected
    assert warnings == []


def test_circles_that_also_stand_alone_are_no_bulbs():
    # Grey odd-cell circles, one of them at the end of a grey palindrome line: not a thermometer.
    data = grid4(lines=[line("r1c1", "r1c2", "r1c3")],
                 underlays=[circle("r1c1", 0.7, "#a0a0a0"), circle("r4c4", 0.7, "#a0a0a0")])
    with pytest.raises(PuzzleError) as caught:
        read(data)
    message = str(caught.value)
    assert "lines whose rule only the rules text gives" in message
    assert "2 shapes in the grid" in message and "--ignore-unknown" in message
    assert read(data, ignore_unknown=True)[0] == []


def test_metadata_and_cosmetics():
    data = grid4(cages=[{"value": "title: Tiny"}, {"value": "author: Someone"},
                        {"value": "solution: 1234341221434321"}],
                 overlays=[mark(at("r2c2"), "hi", 0.5)],
                 underlays=[{"center": at("r3c3"), "width": 1, "height": 1,
                             "backgroundColor": "#ffa0a0"}],
                 lines=[{"wayPoints": [[-0.5, 0.5], [-0.5, 3.5]], "color": "#000"}],
                 foglight=[[0, 0]])
    data["cells"][0][0] = {"value": "1", "pencilMarks": [2, 3]}
    conversion = convert_scl(data)
    assert conversion.document["name"] == "Tiny" and conversion.document["author"] == "Someone"
    assert conversion.document["givens"] == {"r1c1": 1}
    assert conversion.solution == [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    assert conversion.warnings == [
        "ignored (cosmetic): fog of war (it hides the grid while solving)",
        "ignored (cosmetic): cells with pencil marks (r1c1)",
        "ignored (cosmetic): lines outside the grid (r0c1-r0c4 #000)",
        "ignored (cosmetic): coloured cells (r3c3)",
        "ignored (cosmetic): texts in cells (r2c2 'hi')"]


REFUSED = {
    "a plain line": (grid4(lines=[line("r1c1", "r2c2", color="#c54b8b")]),
                     "lines whose rule only the rules text gives"),
    "a circle in a cell": (grid4(underlays=[circle("r2c3", 0.7, "#cfcfcf")]),
                           "shapes in the grid whose rule only the rules text gives"),
    "a clue outside": (grid4(overlays=[mark([-0.5, 1.5], "12", 0.25)]),
                       "clues outside the grid (r0c2 '12')"),
    "a dot of another colour": (grid4(overlays=[mark([0.5, 1], rounded=True,
                                                     backgroundColor="#808080")]),
                                "shapes in the grid"),
    "an arrow without a circle": (grid4(arrows=[{"wayPoints": [at("r1c1"), at("r1c3")]}]),
                                  "arrows without a circle"),
    "a cage with repeats": (grid4(cages=[{"cells": [[0, 0], [0, 1]], "unique": False}]),
                            "cages whose digits may repeat"),
    "a cage with a word": (grid4(cages=[{"cells": [[0, 0], [0, 1]], "value": "odd"}]),
                           "cages whose value is not a total (r1c1-r1c2 'odd')"),
    "a background image": (grid4(metadata={"bgimage": "https://example.org/lines.png"}),
                           "a background image"),
    "a rule in words": (grid4(metadata={"rules": "Normal sudoku rules apply. Cells a knight's "
                                                 "move apart may not hold the same digit."}),
                        "rules stated only in the rules text (a knight's move rule)"),
    "'all dots given' in words": (grid4(metadata={"rules": "All possible kropki dots are "
                                                           "given."}),
                                  "'all ... are given'"),
    "an unknown key": (grid4(puzzlerules=["x"]),
                       "SudokuPad keys unknown to satdoku ('puzzlerules')"),
    "an unknown global rule": (grid4(**{"global": ["antitriangle"]}), "'antitriangle'"),
    "a letter for a given": (dict(grid4(), cells=[[{"value": "A"}, {}, {}, {}]] + [[{}] * 4] * 3),
                             "givens that are not digits 1-N (r1c1 'A')"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_what_may_carry_a_rule_is_refused(name):
    data, words = REFUSED[name]
    with pytest.raises(PuzzleError) as caught:
        read(data)
    message = str(caught.value)
    assert message.startswith("t.json: satdoku cannot state ") and words in message
    assert message.endswith("(with --ignore-unknown it solves without them: a looser puzzle "
                            "than the one published)")
    constraints, warnings = read(data, ignore_unknown=True)
    assert constraints == [] and any(words in w for w in warnings)


def test_rules_in_words_that_the_drawing_states_are_fine():
    data = grid4(metadata={"rules": "No two cells a king's move apart hold the same digit."},
                 **{"global": ["antiking"]})
    assert read(data)[0] == [{"type": "anti-king"}]
    data = grid4(metadata={"rules": "White dots join consecutive digits. Not all dots are "
                                    "given."})
    assert read(data) == ([], [])


BROKEN = {
    "no regions": (dict(grid4(), regions=[]), "has no regions"),
    "not square": (dict(grid4(), cells=[[{}] * 4] * 3), "a 3x4 SudokuPad grid"),
    "a cell in two regions": (dict(grid4(), regions=[[[0, 0]]] * 4), "both hold this cell"),
    "regions too small": (dict(grid4(), regions=[[[0, 0], [0, 1]]]), "do not cut the grid"),
    "a cage off the grid": (grid4(cages=[{"cells": [[0, 0], [4, 0]]}]),
                            "SudokuPad cage #1: [4, 0] is outside the 4x4 grid"),
    "a bad point": (grid4(lines=[{"wayPoints": [[0.5, "a"], [1.5, 1.5]]}]),
                    "SudokuPad line #1: [0.5, 'a'] is not a point"),
    "a shape without a centre": (grid4(overlays=[{"width": 1}]), "SudokuPad overlay #1"),
    "lines not a list": (grid4(lines={"a": 1}), "SudokuPad 'lines' should be a list"),
}


@pytest.mark.parametrize("name", BROKEN)
def test_broken_data_is_an_error_even_with_ignore_unknown(name):
    data, words = BROKEN[name]
    with pytest.raises(PuzzleError, match=words.replace("[", r"\[").replace("(", r"\(")):
        read(data, ignore_unknown=True)


def test_windoku_from_the_packed_classic_form():
    document = from_sudokupad("https://sudokupad.app/scf" + "o" * 13 + "K*w")
    assert document["givens"] == {}
    regions = [c["cells"] for c in document["constraints"] if c["type"] == "extra-region"]
    assert len(regions) == 4 and regions[0] == ["r2c2", "r2c3", "r2c4", "r3c2", "r3c3", "r3c4",
                                                "r4c2", "r4c3", "r4c4"]


def mutations(value, path=()):
    """Every place of a JSON value, with each of a few values of the wrong kind put there."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from mutations(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from mutations(item, path + (i,))
    for wrong in (None, True, 7, -1.5, "x", [], {}, [[1]], [None, None]):
        yield path, wrong


def replaced(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


def test_malformed_data_is_a_puzzle_error_never_a_crash():
    base = grid4(lines=[line("r1c1", "r1c2")], underlays=[circle("r1c1", 0.85, "#a0a0a0")],
                 overlays=[mark([0.5, 1], "", rounded=True, backgroundColor="#000")],
                 arrows=[{"wayPoints": [[-0.2, -0.2], [0.2, 0.2]]}],
                 cages=[{"cells": [[0, 0]], "value": 3}, {"value": "title: t"}],
                 metadata={"rules": "r"}, **{"global": ["antiking"]})
    for path, wrong in mutations(base):
        try:
            convert_scl(replaced(base, path, wrong), ignore_unknown=True)
        except PuzzleError:
            pass
