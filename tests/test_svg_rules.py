"""Pictures of variant rules: every rule type draws itself as puzzle sites draw it; cage sums
and arrowheads clear the digits; a legend names the lines whose rule only their colour tells.
The SVG helpers are test_svg.py's."""

import random
import re

import pytest

from satdoku.io.variant import read_variant, read_variants
from satdoku.output.svg import (CLONE_COLOURS, COLOURS, LINE_COLOURS, Canvas, cell_size,
                                render_svg)
from satdoku.model.alphabet import Alphabet
from satdoku.model.grid import Grid
from satdoku.rules import CONSTRAINTS, Constraint
from satdoku.tasks.generate import full_grid
from test_svg import NS, assert_self_contained, elements, parse

CELL = cell_size(9)
SIDE = 9 * CELL


def variant(*constraints, size=9, givens=None):
    return read_variant({"format": "satdoku-variant", "version": 1, "size": size,
                         "givens": givens or {}, "constraints": list(constraints)})


def drawn(*constraints, size=9, **kw):
    """The parsed picture of a puzzle with these constraints (JSON objects)."""
    p = variant(*constraints, size=size)
    svg = render_svg(p.grid, constraints=p.constraints, **kw)
    assert_self_contained(svg)
    return parse(svg)


def shift(root):
    """(dx, dy) the first grid was moved by: subtract it to get grid coordinates."""
    move = root.find(NS + "g").get("transform")
    if not move:
        return 0.0, 0.0
    return tuple(map(float, re.findall(r"[-\d.]+", move)))


def texts(root):
    """(text, x, y) of every text in grid coordinates (y: the baseline)."""
    dx, dy = shift(root)
    return [(e.text, float(e.get("x")) - dx, float(e.get("y")) - dy)
            for e in root.find(NS + "g").iter(NS + "text")]


def strokes(root, tag="path"):
    """The stroke colours of ``tag`` elements on the grid (not in the legend)."""
    return [e.get("stroke") for e in root.find(NS + "g").iter(NS + tag)]


def tints(root):
    return [e.get("fill") for e in elements(root, "tint")]


def notes(root):
    return " ".join(e.text for e in elements(root, "rules"))


def points(path):
    return [tuple(map(float, p)) for p in re.findall(r"([-\d.]+) ([-\d.]+)", path.get("d"))]


def chevron_tips(root):
    """Distance (in cells) from the centre of r5c5 to each chevron's tip."""
    cx = cy = 4.5 * CELL
    out = []
    for e in root.iter(NS + "path"):
        pts = points(e)
        if e.get("stroke") == COLOURS["clue"] and len(pts) == 3:
            x, y = pts[1]
            out.append(round(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 / CELL, 2))
    return sorted(out)


def check_killer(root):
    assert any(e.get("stroke-dasharray") for e in root.iter(NS + "path"))
    assert [t for t, _, _ in texts(root)] == ["17"]


def check_killer_without_sum(root):
    assert any(e.get("stroke-dasharray") for e in root.iter(NS + "path"))
    assert texts(root) == []


def check_little_killer(root):
    ((text, x, y),) = texts(root)
    assert text == "23" and y < 0  # above the grid
    assert len(list(root.iter(NS + "path"))) > 2 * 8 + 2  # the arrow and its head


def check_thermometer(root):
    assert COLOURS["thermometer"] in strokes(root)
    assert [e.get("fill") for e in root.iter(NS + "circle")] == [COLOURS["thermometer"]]


def check_slow_thermometer(root):
    assert COLOURS["thermometer"] in strokes(root) and COLOURS["background"] in strokes(root)
    assert [e.get("fill") for e in root.iter(NS + "circle")] == [COLOURS["thermometer"],
                                                                  COLOURS["background"]]


def check_arrow(root):
    assert strokes(root, "circle") == [COLOURS["arrow"]]
    assert strokes(root).count(COLOURS["arrow"]) == 2  # shaft and head


def check_dot(black, value):
    def check(root):
        (dot,) = root.iter(NS + "circle")
        assert dot.get("fill") == (COLOURS["clue"] if black else COLOURS["background"])
        assert [t for t, _, _ in texts(root)] == ([] if value is None else [value])
    return check


def check_outside(where):
    def check(root):
        ((text, x, y),) = texts(root)
        assert {"left": x < 0, "right": x > SIDE, "top": y < 0, "bottom": y > SIDE}[where]
        assert 0 < (y if where in ("left", "right") else x) < SIDE
    return check


def check_line(kind):
    def check(root):
        assert LINE_COLOURS[kind] in strokes(root)
    return check


def check_note(text):
    def check(root):
        assert notes(root) == f"rules: {text}"
    return check


CASES = {
    "diagonal": ({"type": "diagonal", "direction": "+"},
                 lambda r: any(points(e) == [(SIDE, 0), (0, SIDE)] and
                               e.get("stroke") == COLOURS["diagonal"]
                               for e in r.iter(NS + "path"))),
    "anti-knight": ({"type": "anti-knight"}, check_note("anti-knight")),
    "anti-king": ({"type": "anti-king"}, check_note("anti-king")),
    "non-consecutive": ({"type": "non-consecutive"}, check_note("non-consecutive")),
    "disjoint-groups": ({"type": "disjoint-groups"}, check_note("disjoint groups")),
    "rule-159": ({"type": "rule-159"}, lambda r: check_note("rule 1-5-9")(r)
                 or tints(r) == [COLOURS["indexer"]] * 27),
    "no-kropki": ({"type": "no-kropki"}, check_note("no other kropki dots")),
    "no-xv": ({"type": "no-xv"}, check_note("no other X or V")),
    "extra-region": ({"type": "extra-region", "cells": [f"r{r}c{r}" for r in range(1, 10)]},
                     lambda r: tints(r) == [COLOURS["extra_region"]] * 9),
    "killer": ({"type": "killer", "cells": ["r1c1", "r1c2", "r2c1"], "sum": 17}, check_killer),
    "little-killer": ({"type": "little-killer", "cells": ["r1c3", "r2c4", "r3c5"], "sum": 23},
                      check_little_killer),
    "thermometer": ({"type": "thermometer", "cells": ["r4c1", "r5c1", "r6c1"]},
                    check_thermometer),
    "slow-thermometer": ({"type": "slow-thermometer", "cells": ["r4c1", "r5c1", "r6c1"]},
                         check_slow_thermometer),
    "arrow": ({"type": "arrow", "circle": ["r1c6"], "cells": ["r2c7", "r3c8"]}, check_arrow),
    "kropki-white": ({"type": "kropki-white", "cells": ["r8c1", "r8c2"]},
                     check_dot(False, None)),
    "kropki-black": ({"type": "kropki-black", "cells": ["r8c2", "r9c2"], "ratio": 3},
                     check_dot(True, "3")),
    "xv": ({"type": "xv", "cells": ["r7c1", "r7c2"], "sum": 10},
           lambda r: [t for t, _, _ in texts(r)] == ["X"]),
    "odd": ({"type": "odd", "cells": ["r9c4", "r9c5"]},
            lambda r: [e.get("fill") for e in r.iter(NS + "circle")] == [COLOURS["shade"]] * 2),
    "even": ({"type": "even", "cells": ["r9c4"]},
             lambda r: [e.get("fill") for e in r.iter(NS + "rect")].count(COLOURS["shade"]) == 1),
    "minimum": ({"type": "minimum", "cells": ["r5c5"]},
                lambda r: tints(r) == [COLOURS["extreme"]] and chevron_tips(r) == [0.3] * 4),
    "maximum": ({"type": "maximum", "cells": ["r5c5"]},
                lambda r: tints(r) == [COLOURS["extreme"]] and chevron_tips(r) == [0.44] * 4),
    "german-whispers": ({"type": "german-whispers", "cells": ["r1c9", "r2c9"]},
                        lambda r: check_line("whisper")(r) or texts(r) == []),
    "renban": ({"type": "renban", "cells": ["r4c8", "r5c8"]}, check_line("renban")),
    "palindrome": ({"type": "palindrome", "cells": ["r7c4", "r8c4"]},
                   check_line("palindrome")),
    "between": ({"type": "between", "cells": ["r7c3", "r8c3", "r9c3"]},
                lambda r: strokes(r, "circle") == [LINE_COLOURS["between"]] * 2
                and LINE_COLOURS["between"] in strokes(r)),
    "region-sum": ({"type": "region-sum", "cells": ["r6c7", "r6c8"]}, check_line("region_sum")),
    "entropic": ({"type": "entropic", "cells": ["r7c7", "r8c8", "r9c9"]},
                 check_line("entropic")),
    "zipper": ({"type": "zipper", "cells": ["r9c6", "r9c7", "r9c8"]}, check_line("zipper")),
    "clone": ({"type": "clone", "cells": ["r1c1", "r1c2"], "clone": ["r9c8", "r9c9"]},
              lambda r: tints(r) == [CLONE_COLOURS[0]] * 4),
    "quadruple": ({"type": "quadruple", "cells": ["r8c6", "r8c7", "r9c6", "r9c7"],
                   "digits": [1, 3, 3]},
                  lambda r: sorted(t for t, _, _ in texts(r)) == ["1", "3", "3"]
                  and strokes(r, "circle") == [COLOURS["clue"]]),
    "sandwich": ({"type": "sandwich", "line": "c4", "sum": 15}, check_outside("top")),
    "x-sum": ({"type": "x-sum", "line": "r3", "from": "end", "sum": 21}, check_outside("right")),
    "skyscraper": ({"type": "skyscraper", "line": "c2", "from": "end", "count": 4},
                   check_outside("bottom")),
    "edge-sum": ({"type": "edge-sum", "cells": ["r7c1", "r7c2"], "sum": 7},
                 lambda r: [t for t, _, _ in texts(r)] == ["7"]),
    "modular": ({"type": "modular", "cells": ["r7c7", "r8c8", "r9c9"]}, check_line("modular")),
    "nabner": ({"type": "nabner", "cells": ["r7c7", "r8c8"]}, check_line("nabner")),
    "row-indexer": ({"type": "row-indexer", "cells": ["r1c1", "r2c2"]},
                    lambda r: tints(r) == [COLOURS["row_indexer"]] * 2),
    "column-indexer": ({"type": "column-indexer", "cells": ["r1c1"]},
                       lambda r: tints(r) == [COLOURS["indexer"]]),
    "box-indexer": ({"type": "box-indexer", "cells": ["r5c5"]},
                    lambda r: tints(r) == [COLOURS["box_indexer"]]),
    "candidates": ({"type": "candidates", "cells": ["r5c5"], "digits": [1, 5, 9]},
                   lambda r: sorted(t for t, _, _ in texts(r)) == ["1", "5", "9"]),
    "double-arrow": ({"type": "double-arrow", "cells": ["r1c1", "r1c2", "r1c3"]},
                     lambda r: strokes(r, "circle") == [LINE_COLOURS["double_arrow"]] * 2),
    "lockout": ({"type": "lockout", "cells": ["r1c1", "r1c2", "r1c3"]},
                lambda r: strokes(r).count(LINE_COLOURS["lockout"]) == 3),
    "diagonal-non-consecutive": ({"type": "diagonal-non-consecutive"},
                                 check_note("diagonal non-consecutive")),
    "multi-killer": ({"type": "multi-killer", "cells": ["r1c1", "r1c2"], "sums": [3, 12]},
                     lambda r: [t for t, _, _ in texts(r)] == ["3|12"]),
    "sum-line": ({"type": "sum-line", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 10},
                 lambda r: check_line("sum_line")(r) or [t for t, _, _ in texts(r)] == ["10"]),
    "pair": ({"type": "pair", "cells": ["r1c1", "r1c2", "r2c2"], "relation": "a > b + 1"},
             lambda r: LINE_COLOURS["pair"] in strokes(r)
             and notes(r) == "rules: pair: a > b + 1"
             and [e.get("fill") for e in r.iter(NS + "circle")] == [LINE_COLOURS["pair"]]),
    "regex": ({"type": "regex", "cells": ["r1c1", "r1c2", "r1c3"], "pattern": "1[2-4]+"},
              lambda r: LINE_COLOURS["regex"] in strokes(r)
              and notes(r) == "rules: regex: 1[2-4]+"),
    "greater-than": ({"type": "greater-than", "cells": ["r5c5", "r5c6", "r6c6"]},
                     lambda r: sorted(t for t, _, _ in texts(r)) == [">", "∨"]),
    "or": ({"type": "or", "rules": [{"type": "thermometer", "cells": ["r1c1", "r1c2"]},
                                    {"type": "odd", "cells": ["r9c9"]}]},
           lambda r: COLOURS["thermometer"] in strokes(r)
           and notes(r) == "rules: or (thermometer from r1c1 to r1c2 | odd r9c9)"),
    "and": ({"type": "and", "rules": [{"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 17}]},
            lambda r: [t for t, _, _ in texts(r)] == ["17"]
            and notes(r) == "rules: and (killer cage r1c1-r1c2 = 17)"),
    "windoku": ({"type": "windoku"},
                lambda r: tints(r) == [COLOURS["extra_region"]] * 36),  # four 3x3 windows
    # issue 32: sigh's types
    "counting-circles": ({"type": "counting-circles", "cells": ["r1c1", "r5c5", "r9c9"]},
                         lambda r: strokes(r, "circle") == [COLOURS["arrow"]] * 3),
    "count-distinct": ({"type": "count-distinct", "control": ["r1c1"], "cells": ["r1c2", "r1c3"]},
                       lambda r: strokes(r, "circle") == [COLOURS["arrow"]]
                       and COLOURS["cage"] in strokes(r)),
    "contain-at-least": ({"type": "contain-at-least", "cells": ["r1c1", "r1c2"], "digits": [3, 1]},
                         lambda r: [t for t, _, _ in texts(r)] == ["1,3"]
                         and tints(r) == [COLOURS["extra_region"]] * 2),
    "contain-exact": ({"type": "contain-exact", "cells": ["r1c1", "r1c2"], "digits": [4]},
                      lambda r: [t for t, _, _ in texts(r)] == ["4"]),
    "look-and-say": ({"type": "look-and-say", "cells": ["r2c1", "r2c2", "r2c3"], "clue": "2312"},
                     lambda r: [t for t, _, _ in texts(r)] == ["2312"]),
    "lunchbox": ({"type": "lunchbox", "cells": ["r3c1", "r3c2", "r3c3"], "sum": 5},
                 lambda r: [t for t, _, _ in texts(r)] == ["5"]
                 and tints(r) == [COLOURS["extra_region"]] * 3),
    "rellik-cage": ({"type": "rellik-cage", "cells": ["r3c1", "r3c2"], "sum": 7},
                    lambda r: [t for t, _, _ in texts(r)] == ["≠7"]),
    "equality-cage": ({"type": "equality-cage", "cells": ["r3c1", "r3c2"]},
                      lambda r: [t for t, _, _ in texts(r)] == ["="]),
    "equal-sum": ({"type": "equal-sum", "segments": [["r1c1", "r1c2"], ["r3c3"]]},
                  lambda r: [t for t, _, _ in texts(r)] == ["=", "="]),
    "value-indexing": ({"type": "value-indexing", "cells": ["r1c1", "r1c2", "r1c3"]},
                       check_line("value_indexing")),
    "numbered-room": ({"type": "numbered-room", "line": "r4", "from": "end", "digit": 6},
                      check_outside("right")),
    "hidden-skyscraper": ({"type": "hidden-skyscraper", "line": "c4", "from": "start",
                           "digit": 3},
                          lambda r: check_outside("top")(r) or [t for t, _, _ in texts(r)]
                          == ["|3|"]),
    "full-rank": ({"type": "full-rank", "line": "c7", "from": "end", "rank": 12},
                  lambda r: check_outside("bottom")(r) or [t for t, _, _ in texts(r)]
                  == ["#12"]),
    "full-rank-ties": ({"type": "full-rank-ties", "ties": "none"},
                       check_note("full-rank ties none")),
    "global-entropy": ({"type": "global-entropy"}, check_note("global entropy")),
    "global-mod": ({"type": "global-mod"}, check_note("global mod 3")),
    "anti-taxicab": ({"type": "anti-taxicab"}, check_note("anti-taxicab")),
    "dutch-flatmates": ({"type": "dutch-flatmates"}, check_note("dutch flatmates")),
    "nfa": ({"type": "nfa", "cells": ["r1c1", "r1c2"], "states": ["a", "b"], "start": ["a"],
             "accepting": ["b"], "transitions": [{"from": "a", "to": "b", "digits": [1, 2]},
                                                 {"from": "b", "to": "b", "digits": [3]}]},
            lambda r: LINE_COLOURS["nfa"] in strokes(r)
            and [e.get("fill") for e in r.iter(NS + "circle")] == [LINE_COLOURS["nfa"]]
            and notes(r) == "rules: nfa: 2 states"),
    "connected-values": ({"type": "connected-values", "digits": [1, 3], "cells": ["r1c1", "r1c2"]},
                         lambda r: tints(r) == [COLOURS["extra_region"]] * 2
                         and notes(r) == "rules: connected-values 1,3 in r1c1-r1c2"),
    "same-values": ({"type": "same-values", "sets": [["r1c1", "r1c2"], ["r3c3", "r4c4"]]},
                    lambda r: [t for t, _, _ in texts(r)] == ["≡", "≡"]
                    and tints(r) == [COLOURS["extra_region"]] * 4),
    "region-same-values": ({"type": "region-same-values"}, check_note("region same values")),
    "sum": ({"type": "sum", "cells": ["r1c1", "r1c2", "r1c1"], "weights": [1, 2, 1], "sum": 9},
            lambda r: [t for t, _, _ in texts(r)] == ["Σ9"]
            and notes(r) == "rules: sum with weights 1, 2, 1"),
}


def test_every_constraint_type_draws_itself():
    # a new type needs a case here; chaos, which needs a grid without boxes, and
    # doppelganger, which needs values 0..N, are drawn in test_shapes.py
    assert set(CASES) == set(CONSTRAINTS) - {"chaos", "doppelganger"}
    for kind, cls in CONSTRAINTS.items():
        assert cls.draw is not Constraint.draw, f"{kind} has no draw method"


@pytest.mark.parametrize("kind", sorted(CASES))
def test_constraint_drawing(kind):
    data, check = CASES[kind]
    plain = drawn()
    root = drawn(data)
    assert len(list(root.iter())) > len(list(plain.iter()))  # something was drawn
    assert check(root) in (None, True)


def test_variant_drawing_details():
    # a killer cage without a sum has no number
    check_killer_without_sum(drawn({"type": "killer", "cells": ["r1c1", "r1c2"]}))
    # the usual numbers of dots and whispers are not written, the others are
    check_dot(False, "2")(drawn({"type": "kropki-white", "cells": ["r8c1", "r8c2"],
                                 "difference": 2}))
    check_dot(True, None)(drawn({"type": "kropki-black", "cells": ["r8c1", "r8c2"]}))
    assert [t for t, _, _ in texts(drawn({"type": "german-whispers", "cells": ["r1c1", "r1c2"],
                                          "difference": 2}))] == ["2"]
    assert texts(drawn({"type": "german-whispers", "cells": ["r1c1", "r1c2"],
                        "difference": 3}, size=6)) == []
    # x-sum and skyscraper from the start: left of a row, above a column
    check_outside("left")(drawn({"type": "x-sum", "line": "r3", "from": "start", "sum": 9}))
    check_outside("top")(drawn({"type": "skyscraper", "line": "c3", "from": "start",
                                "count": 2}))
    # two clues on one side of a row stand side by side, not on top of each other
    root = drawn({"type": "sandwich", "line": "r2", "sum": 5},
                 {"type": "x-sum", "line": "r2", "from": "start", "sum": 12})
    (a, xa, ya), (b, xb, yb) = texts(root)
    assert (a, b) == ("5", "12") and ya == yb and xb < xa < 0
    # clones in turn take the next tint
    root = drawn({"type": "clone", "cells": ["r1c1"], "clone": ["r2c4"]},
                 {"type": "clone", "cells": ["r5c5"], "clone": ["r9c9"]})
    assert tints(root) == [CLONE_COLOURS[0]] * 2 + [CLONE_COLOURS[1]] * 2
    # a little killer at the clue the document names, its arrow along the run
    root = drawn({"type": "little-killer", "cells": ["r9c8", "r8c9"], "sum": 9,
                  "clue": "r10c7", "direction": "UR"})
    ((_, x, y),) = texts(root)
    assert y > SIDE and 6 * CELL < x < 7 * CELL


def test_quadruple_digits_in_the_pictures_alphabet():
    p = variant({"type": "quadruple", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"],
                 "digits": [10, 16]}, size=16)
    root = parse(render_svg(p.grid, constraints=p.constraints,
                            alphabet=Alphabet("0123456789ABCDEF")))
    assert sorted(t for t, _, _ in texts(root)) == ["9", "F"]


def test_rules_noted_once_and_escaped():
    p = variant({"type": "anti-knight"}, {"type": "anti-king", "label": "<b>king</b>"},
                {"type": "anti-knight"})
    blank = Grid(p.geometry, (0,) * 81)
    rng = random.Random(3)
    a, b = full_grid(p.geometry, rng), full_grid(p.geometry, rng)
    root = parse(render_svg(blank, a, second=b, constraints=p.constraints, caption="two"))
    assert notes(root) == "rules: anti-knight, anti-king"  # once, though drawn on two grids
    assert [e.get("class") for e in root if e.get("class") in ("rules", "caption")] == \
        ["rules", "caption"]

    class Hostile:
        def draw(self, canvas):
            canvas.note('<script>"x" & \x07</script>')
            canvas.outside("top", 0, "<&>")

    svg = render_svg(blank, constraints=[Hostile()])
    assert_self_contained(svg)
    root = parse(svg)
    assert notes(root) == 'rules: <script>"x" & \ufffd</script>'
    assert "<&>" in [t for t, _, _ in texts(root)]


def test_highlight_lies_over_rule_shading():
    p = variant({"type": "extra-region", "cells": [f"r{r}c{r}" for r in range(1, 10)]},
                {"type": "odd", "cells": ["r1c1"]})
    svg = render_svg(p.grid, constraints=p.constraints, highlight=[0])
    order = [svg.index(s) for s in ('class="tint"', 'class="highlight"',
                                    f'fill="{COLOURS["shade"]}"')]
    assert order == sorted(order)  # tint, then the highlight, then the odd disc


def test_shipped_variant_puzzles_draw():
    import glob
    import os
    files = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "puzzles",
                                          "variants", "*.json")))
    assert files
    for path in files:
        for entry in read_variants(path):
            p = entry
            svg = render_svg(p.grid, constraints=p.constraints, title=p.name)
            assert_self_contained(svg)
            root = parse(svg)
            plain = parse(render_svg(p.grid, title=p.name))
            assert len(list(root.iter())) > len(list(plain.iter())), path


#: Every constraint type on one grid, placed apart: docs/variant-rules.png is its picture.
GALLERY = [
    {"type": "slow-thermometer", "cells": ["r1c1", "r2c1", "r3c1", "r3c2"]},
    {"type": "thermometer", "cells": ["r1c3", "r2c3", "r2c4"]},
    {"type": "palindrome", "cells": ["r1c5", "r2c5"]},
    {"type": "german-whispers", "cells": ["r1c6", "r2c6", "r3c7"]},
    {"type": "between", "cells": ["r1c8", "r2c8", "r3c9"]},
    {"type": "arrow", "circle": ["r3c4", "r3c5"], "cells": ["r4c5", "r5c4", "r6c3"]},
    {"type": "killer", "cells": ["r3c3", "r4c3"], "sum": 11},
    {"type": "killer", "cells": ["r6c9", "r7c9"], "sum": None},
    {"type": "kropki-white", "cells": ["r4c4", "r4c5"], "difference": 3},
    {"type": "kropki-white", "cells": ["r8c1", "r9c1"]},
    {"type": "kropki-black", "cells": ["r4c6", "r5c6"]},
    {"type": "german-whispers", "cells": ["r4c8", "r4c9"], "difference": 3},
    {"type": "renban", "cells": ["r5c1", "r5c2", "r5c3"]},
    {"type": "entropic", "cells": ["r5c7", "r5c8", "r5c9"]},
    {"type": "minimum", "cells": ["r5c5"]},
    {"type": "quadruple", "cells": ["r6c1", "r6c2", "r7c1", "r7c2"], "digits": [1, 2]},
    {"type": "odd", "cells": ["r6c5"]},
    {"type": "even", "cells": ["r7c5"]},
    {"type": "extra-region", "cells": [f"r{r}c{c}" for r in (6, 7, 8) for c in (6, 7, 8)]},
    {"type": "region-sum", "cells": ["r7c2", "r7c3", "r7c4", "r8c4"]},
    {"type": "zipper", "cells": ["r9c2", "r9c3", "r9c4", "r8c3", "r8c2"]},
    {"type": "xv", "cells": ["r8c5", "r9c5"], "sum": 5},
    {"type": "maximum", "cells": ["r9c6"]},
    {"type": "clone", "cells": ["r9c5"], "clone": ["r9c9"]},
    {"type": "little-killer", "cells": ["r9c8", "r8c9"], "sum": 9},
    {"type": "skyscraper", "line": "r2", "from": "end", "count": 3},
    {"type": "x-sum", "line": "c9", "from": "end", "sum": 21},
    {"type": "sandwich", "line": "r4", "sum": 10},
    {"type": "x-sum", "line": "r4", "from": "start", "sum": 12},
    {"type": "diagonal", "direction": "-"},
    {"type": "edge-sum", "cells": ["r1c4", "r2c4"], "sum": 9},
    {"type": "modular", "cells": ["r2c5", "r2c6", "r2c7"]},
    {"type": "nabner", "cells": ["r3c6", "r3c7"]},
    {"type": "row-indexer", "cells": ["r1c9"]},
    {"type": "column-indexer", "cells": ["r2c1"]},
    {"type": "box-indexer", "cells": ["r8c8"]},
    {"type": "candidates", "cells": ["r1c2"], "digits": [2, 7]},
    {"type": "double-arrow", "cells": ["r6c4", "r7c4", "r8c4"]},
    {"type": "lockout", "cells": ["r3c7", "r3c8", "r3c9"]},
    {"type": "multi-killer", "cells": ["r2c2", "r2c3"], "sums": [3, 12]},
    {"type": "sum-line", "cells": ["r8c6", "r8c7", "r9c7", "r8c6"], "sum": 10},
    {"type": "diagonal-non-consecutive"},
    {"type": "rule-159"}, {"type": "anti-knight"}, {"type": "anti-king"},
    {"type": "non-consecutive"}, {"type": "disjoint-groups"}, {"type": "no-kropki"},
    {"type": "no-xv"},
    {"type": "pair", "cells": ["r9c1", "r9c2"], "relation": "a + b == 10"},
    {"type": "regex", "cells": ["r9c3", "r9c4", "r9c5"], "pattern": "[1-4].*"},
    {"type": "greater-than", "cells": ["r9c8", "r9c9"]}, {"type": "windoku"},
    {"type": "or", "rules": [{"type": "odd", "cells": ["r8c9"]},
                             {"type": "even", "cells": ["r7c9"]}]},
    {"type": "and", "rules": [{"type": "odd", "cells": ["r6c9"]}]},
    {"type": "counting-circles", "cells": ["r4c5", "r6c5"]},
    {"type": "count-distinct", "control": ["r5c1"], "cells": ["r5c2", "r5c3"]},
    {"type": "contain-at-least", "cells": ["r4c1", "r4c2"], "digits": [1]},
    {"type": "contain-exact", "cells": ["r6c1", "r6c2"], "digits": [2]},
    {"type": "look-and-say", "cells": ["r7c1", "r7c2"], "clue": "15"},
    {"type": "lunchbox", "cells": ["r8c1", "r8c2", "r8c3"], "sum": 0},
    {"type": "rellik-cage", "cells": ["r1c4", "r1c5"], "sum": 3},
    {"type": "equality-cage", "cells": ["r2c4", "r2c5"]},
    {"type": "equal-sum", "segments": [["r3c4"], ["r3c5"]]},
    {"type": "sum", "cells": ["r9c7", "r9c8"], "sum": 11},
    {"type": "same-values", "sets": [["r9c1", "r9c2"], ["r8c8", "r8c9"]]},
    {"type": "region-same-values"},
    {"type": "value-indexing", "cells": ["r4c4", "r5c4", "r6c4"]},
    {"type": "numbered-room", "line": "r1", "from": "start", "digit": 1},
    {"type": "hidden-skyscraper", "line": "r2", "from": "end", "digit": 2},
    {"type": "full-rank", "line": "c1", "from": "end", "rank": 3},
    {"type": "full-rank-ties", "ties": "any"}, {"type": "global-entropy"},
    {"type": "global-mod"}, {"type": "anti-taxicab"}, {"type": "dutch-flatmates"},
    {"type": "nfa", "cells": ["r9c6", "r9c7"], "states": ["s"], "start": ["s"],
     "accepting": ["s"], "transitions": [{"from": "s", "to": "s", "digits": [1, 9]}]},
    {"type": "connected-values", "digits": [1, 3, 5, 7, 9]},
]


def test_gallery_has_every_type():
    # chaos needs no boxes, doppelganger values 0..N: not on this grid
    assert {c["type"] for c in GALLERY} == set(CONSTRAINTS) - {"chaos", "doppelganger"}
    root = drawn(*GALLERY, title="every rule")
    assert notes(root).replace("- ", "-") == (  # a note may wrap after a hyphen
                           "rules: diagonal non-consecutive, rule 1-5-9, anti-knight, "
                           "anti-king, non-consecutive, disjoint groups, no other kropki dots, "
                           "no other X or V, pair: a + b == 10, regex: [1-4].*, or (odd r8c9 | even "
                           "r7c9), and (odd r6c9), region same values, full-rank ties any, global entropy, "
                           "global mod 3, anti-taxicab, dutch flatmates, nfa: 1 states, "
                           "connected-values 1,3,5,7,9")


def test_clone_shows_over_an_area():
    root = drawn({"type": "clone", "cells": ["r1c2"], "clone": ["r9c1"]}, {"type": "rule-159"})
    # the indexing columns' wash comes first in the document, the clone's tint over it
    assert tints(root) == [COLOURS["indexer"]] * 27 + [CLONE_COLOURS[0]] * 2


def test_digits_lie_over_clues_in_their_cell():
    p = variant({"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 17}, givens={"r1c1": 9})
    svg = render_svg(p.grid, constraints=p.constraints)
    assert svg.index(">17<") < svg.index('class="given"')


# Issue 24's pictures: cage sums clear of digits, arrowheads clear of digits, a legend.

def glyph_box(e, cell=None):
    """(x0, y0, x1, y1) of a text element's glyphs, with the metrics the canvas uses."""
    size, x, y = float(e.get("font-size")), float(e.get("x")), float(e.get("y"))
    w = 0.62 * size * len(e.text)
    left = {"middle": x - w / 2, "end": x - w}.get(e.get("text-anchor"), x)
    return left, y - 0.72 * size, left + w, y


@pytest.mark.parametrize("size, total", [(6, 21), (9, 45), (4, 10), (16, 136)])
def test_a_cage_sum_clears_the_digit_of_its_cell(size, total):
    cells = ["r1c1", "r1c2", "r2c1"]
    p = variant({"type": "killer", "cells": cells, "sum": total}, size=size,
                givens={"r1c1": size})
    root = parse(render_svg(p.grid, constraints=p.constraints))
    (digit,) = [e for e in root.iter(NS + "text") if e.get("class") == "given"]
    (clue,) = [e for e in root.iter(NS + "text") if e.text == str(total)]
    a, b = glyph_box(clue), glyph_box(digit)
    assert a[3] <= b[1] or a[2] <= b[0], (a, b)  # above it, or left of it


@pytest.mark.parametrize("size, cells", [(9, ["r1c2", "r1c3"]), (9, ["r2c2", "r3c3"]),
                                         (6, ["r2c1", "r3c1"]), (16, ["r1c2", "r2c3"])])
def test_an_arrowhead_clears_the_digit_of_its_cell(size, cells):
    p = variant({"type": "arrow", "circle": ["r1c1"], "cells": cells}, size=size)
    canvas = Canvas(p.geometry)
    p.constraints[0].draw(canvas)
    head = points_of(canvas.items("shape")[-1])
    cx, cy = canvas.centre(p.constraints[0].shaft[-1])
    half_w, half_h = canvas.digit_half_width(), 0.36 * canvas.digit_size(
        max(len(canvas.symbol(d)) for d in range(1, size + 1)))
    assert all(abs(x - cx) > half_w or abs(y - cy) > half_h for x, y in head), head


def points_of(element: str):
    return [tuple(map(float, p)) for p in re.findall(r"([-\d.]+) ([-\d.]+)",
                                                     re.search(r' d="([^"]+)"', element).group(1))]


def test_lines_that_carry_rules_are_named_in_a_legend():
    root = drawn({"type": "german-whispers", "cells": ["r1c1", "r1c2"]},
                 {"type": "renban", "cells": ["r3c3", "r3c4"]},
                 {"type": "renban", "cells": ["r5c5", "r5c6"]},
                 {"type": "thermometer", "cells": ["r7c7", "r7c8"]})
    legend = [e for e in root.iter(NS + "text") if e.get("class") == "legend"]
    assert [e.text for e in legend] == ["German whispers", "renban"]
    lines = [e for e in root.iter(NS + "path") if e.get("class") == "legend"]
    assert [e.get("stroke") for e in lines] == [LINE_COLOURS["whisper"], LINE_COLOURS["renban"]]
    width = float(root.get("viewBox").split()[2])
    assert all(0 < float(e.get("x")) < width for e in legend)
    assert not [e for e in drawn({"type": "killer", "cells": ["r1c1"], "sum": 3}).iter()
                if e.get("class") == "legend"]
