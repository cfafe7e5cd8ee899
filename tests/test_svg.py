"""Pictures: well-formed, self-contained SVG with the right digits, highlights and lines, every
canvas primitive drawn, hostile text escaped."""

import random
import re
import xml.etree.ElementTree as ET

import pytest

from satdoku.model.alphabet import Alphabet
from satdoku.io.text import parse_puzzle
from satdoku.tasks.generate import full_grid, make_puzzle
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid
from satdoku.output.svg import COLOURS, LINE_COLOURS, Canvas, cell_size, render_svg, xml_text

NS = "{http://www.w3.org/2000/svg}"
SAMPLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."
# The elements a picture may use: nothing that could load or run anything.
ALLOWED_TAGS = {"svg", "title", "g", "rect", "path", "circle", "text"}
JIGSAW_6 = ((0, 1, 2, 6, 7, 12), (3, 4, 5, 9, 10, 11), (8, 13, 14, 15, 20, 21),
            (16, 17, 22, 23, 28, 29), (18, 19, 24, 25, 30, 31), (26, 27, 32, 33, 34, 35))


def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def elements(root, css_class):
    return [e for e in root.iter() if e.get("class") == css_class]


def assert_self_contained(svg):
    root = parse(svg)
    for e in root.iter():
        assert e.tag.startswith(NS) and e.tag[len(NS):] in ALLOWED_TAGS, e.tag
        for key, value in e.attrib.items():
            assert "href" not in key and "url(" not in value and "javascript" not in value
    assert "<script" not in svg and "<!ENTITY" not in svg and "@import" not in svg
    assert svg.count("http") == 1  # the namespace, nothing else


def random_puzzle(geo, seed=1):
    rng = random.Random(seed)
    full = full_grid(geo, rng)
    return make_puzzle(full, rng, geo.ncells // 2), full


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_digits_highlights_and_size(box):
    geo = geometry(*box)
    puzzle, full = random_puzzle(geo)
    marked = [0, geo.ncells - 1, geo.ncells // 2]
    svg = render_svg(puzzle, full, highlight=marked, title=f"{geo.size}x{geo.size}")
    assert_self_contained(svg)
    root = parse(svg)
    givens, solved = elements(root, "given"), elements(root, "solved")
    assert len(givens) == puzzle.nclues and len(solved) == geo.ncells - puzzle.nclues
    assert len(elements(root, "highlight")) == len(marked)
    symbols = [e.text for e in givens + solved]
    assert sorted(symbols) == sorted(Alphabet("123456789ABCDEFGHIJKLMNOP").symbol(d)
                                     for d in full.cells)
    # thick lines: one between each band and stack, the rest thin
    assert len(elements(root, "thick")) == (geo.size // box[0] - 1) + (geo.size // box[1] - 1)
    assert len(elements(root, "thin")) == 2 * (geo.size - 1)
    # a sensible size: about 430 px for 9x9, at most 800 px up to 25x25
    width = float(root.get("width"))
    assert geo.size * cell_size(geo.size) < width <= 800
    # digits fit their cells
    sizes = {float(e.get("font-size")) for e in givens + solved}
    assert sizes == {round(cell_size(geo.size) * 0.62, 2)}


def test_puzzle_alone_and_two_solutions_side_by_side():
    puzzle = parse_puzzle(SAMPLE).grid
    root = parse(render_svg(puzzle))
    assert len(elements(root, "given")) == puzzle.nclues and not elements(root, "solved")
    rng = random.Random(2)
    a, b = full_grid(geometry(3, 3), rng), full_grid(geometry(3, 3), rng)
    blank = Grid(geometry(3, 3), (0,) * 81)
    differ = a.differences(b)
    root = parse(render_svg(blank, a, second=b, highlight=differ, caption="two solutions"))
    assert len(elements(root, "solved")) == 162
    assert len(elements(root, "highlight")) == 2 * len(differ)
    assert [g.get("transform") for g in root.findall(NS + "g")][1].startswith("translate(")
    assert elements(root, "caption")[0].text == "two solutions"
    # the second grid lies right of the first: the picture is over twice as wide as high
    assert float(root.get("width")) > 2 * 9 * cell_size(9)


def test_hostile_text_is_escaped():
    puzzle = parse_puzzle(SAMPLE).grid
    nasty = 'a <b>&amp; "c" \'d\' \x00\x07\x1b]0;x\x07 \ud800 </svg><script>alert(1)</script>'
    svg = render_svg(puzzle, title=nasty, caption=nasty + "\nsecond line")
    assert_self_contained(svg)
    root = parse(svg)
    title = root.find(NS + "title").text
    assert "<script>" in title and "\x00" not in title and "\ufffd" in title
    assert title.startswith('a <b>&amp; "c" \'d\' ')
    captions = " ".join(e.text for e in elements(root, "caption"))
    assert captions.endswith("second line")  # newlines folded into the wrapped lines


def test_xml_text_escapes_both_quotes():
    assert xml_text("<&>\"'") == "&lt;&amp;&gt;&quot;&#39;"
    assert xml_text("\x01\uffff\U0001F600") == "\ufffd\ufffd\U0001F600"


def test_alphabets():
    puzzle, full = random_puzzle(geometry(4, 4))
    hexed = parse(render_svg(puzzle, full, alphabet=Alphabet("0123456789ABCDEF")))
    assert {e.text for e in hexed.iter(NS + "text")} >= set("0123456789ABCDEF")
    big = geometry(6, 6)  # 36x36: written as numbers, all at the size that fits two digits
    puzzle, full = random_puzzle(big)
    root = parse(render_svg(puzzle, full))
    texts = elements(root, "given") + elements(root, "solved")
    assert {e.text for e in texts} == {str(d) for d in range(1, 37)}
    assert len({e.get("font-size") for e in texts}) == 1


def test_jigsaw_region_borders():
    geo = jigsaw(JIGSAW_6)
    puzzle = Grid(geo, (1,) + (0,) * 35)
    svg = render_svg(puzzle, title="jigsaw")
    assert_self_contained(svg)
    root = parse(svg)
    cell = cell_size(6)
    length = 0.0
    for e in elements(root, "thick"):
        (x0, y0), (x1, y1) = [tuple(map(float, p.split())) for p in
                              re.findall(r"[-\d.]+ [-\d.]+", e.get("d"))]
        length += abs(x1 - x0) + abs(y1 - y0)
    box = [h[2] for h in geo.cell_houses]
    borders = sum(box[c] != box[c + 1] for c in range(36) if c % 6 != 5)
    borders += sum(box[c] != box[c + 6] for c in range(30))
    assert length == borders * cell


def test_mismatched_grids_refused():
    with pytest.raises(ValueError):
        render_svg(Grid(geometry(2, 2), (0,) * 16), Grid(geometry(2, 3), (0,) * 36))


class Everything:
    """A stand-in for a variant rule: draws with every primitive."""

    def draw(self, c):
        g = c.geometry.cell
        c.cage([g(0, 0), g(0, 1), g(1, 0)], 17)
        c.thermometer([g(3, 0), g(4, 0), g(5, 0)])
        c.arrow([g(0, 5)], [g(1, 6), g(2, 7)])
        c.arrow([g(3, 3), g(3, 4)], [g(4, 5)])
        c.dot(g(7, 0), g(7, 1))
        c.dot(g(7, 1), g(8, 1), black=True)
        c.edge_text(g(6, 0), g(6, 1), "X")
        c.odd(g(8, 3))
        c.even(g(8, 4))
        for kind, cells in (("whisper", [g(0, 8), g(1, 8)]), ("renban", [g(3, 7), g(4, 7)]),
                            ("entropic", [g(6, 6), g(7, 7)]), ("zipper", [g(8, 5), g(8, 6)]),
                            ("region_sum", [g(5, 6), g(5, 7)]),
                            ("palindrome", [g(6, 3), g(7, 3)])):
            c.line(cells, kind)
        c.between([g(6, 2), g(7, 2), g(8, 2)])
        c.quadruple(7, 5, ["1", "2", "3", "4"])
        c.little_killer((-1, 2), (1, 1), 23)
        c.outside("left", 4, 18)
        c.outside("right", 2, 7)
        c.diagonal()
        c.diagonal(anti=True)


def test_every_primitive_in_the_picture():
    puzzle = parse_puzzle(SAMPLE).grid
    svg = render_svg(puzzle, constraints=[Everything()])
    assert_self_contained(svg)
    root = parse(svg)
    texts = [e.text for e in root.iter(NS + "text")]
    for clue in ("17", "X", "23", "18", "7", "1", "4"):
        assert clue in texts
    strokes = [e.get("stroke") for e in root.iter(NS + "path")]
    for kind in ("whisper", "renban", "entropic", "zipper", "region_sum", "palindrome"):
        assert LINE_COLOURS[kind] in strokes
    assert any(e.get("stroke-dasharray") for e in root.iter(NS + "path"))  # the cage
    fills = [e.get("fill") for e in root.iter(NS + "circle")]
    assert COLOURS["clue"] in fills and COLOURS["background"] in fills  # both dots
    assert COLOURS["thermometer"] in fills and COLOURS["shade"] in fills  # bulb, odd
    # the margin grows for the clues outside the grid (left and right, above)
    x, y, w, h = map(float, root.get("viewBox").split())
    px, py, pw, ph = map(float, parse(render_svg(puzzle)).get("viewBox").split())
    assert w > pw + cell_size(9) and y < py - 0.5 * cell_size(9) and h > ph


def test_canvas_coordinates_and_layers():
    c = Canvas(geometry(3, 3), cell=40)
    assert c.centre(10) == (60.0, 60.0) and c.centre((-1, 0)) == (20.0, -20.0)
    assert c.corner(9, 9) == (360, 360) and c.edge(0, 1) == (40.0, 20.0)
    c.dot(0, 1)
    c.odd(5)
    c.cage([0, 1], 3)
    assert len(c.items("mark")) == 1 and len(c.items("fill")) == 1
    assert len(c.items("shape")) == 1 and len(c.items("text")) == 2  # sum and its patch
    group = c.group()
    # layers bottom to top: the odd disc (fill), the cage (shape), the dot (mark), the sum
    order = [group.index(s) for s in ('fill="#d4d4d4"', "stroke-dasharray", 'r="4.4"', ">3<")]
    assert order == sorted(order)


def cage_loops(cells, cell=40):
    c = Canvas(geometry(3, 3), cell=cell)
    c.cage(cells)
    return [item for item in c.items("shape")]


def corners(path):
    return len(re.findall(r"[-\d.]+ [-\d.]+", re.search(r'd="([^"]+)"', path).group(1)))


def test_cage_outlines():
    g = geometry(3, 3).cell
    (square,) = cage_loops([g(0, 0), g(0, 1), g(1, 0), g(1, 1)])
    assert corners(square) == 4
    (ell,) = cage_loops([g(0, 0), g(0, 1), g(1, 0)])
    assert corners(ell) == 6
    ring = cage_loops([g(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)])
    assert len(ring) == 2 and all(corners(p) == 4 for p in ring)
    (step,) = cage_loops([g(0, 0), g(1, 0), g(1, 1), g(2, 1), g(2, 2)])  # a staircase
    assert corners(step) == 10
    # inset: the square's outline lies 0.08 cell inside the cells
    xs = [float(v) for v in re.findall(r"([-\d.]+) [-\d.]+", square)]
    assert min(xs) == pytest.approx(3.2) and max(xs) == pytest.approx(76.8)


# -- variant rules drawing themselves ------------------------------------------------------

from satdoku.rules import CONSTRAINTS, Constraint  # noqa: E402
from satdoku.output.svg import CLONE_COLOURS  # noqa: E402
from satdoku.io.variant import read_variant, read_variants  # noqa: E402

CELL = cell_size(9)
SIDE = 9 * CELL


def variant(*constraints, size=9, givens=None):
    return read_variant({"format": "satdoku-variant", "version": 1, "size": size,
                         "givens": givens or {}, "constraints": list(constraints)})


def drawn(*constraints, size=9, **kw):
    """The parsed picture of a puzzle with these constraints (JSON objects)."""
    p = variant(*constraints, size=size)
    svg = render_svg(p.givens, constraints=p.constraints, **kw)
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
}


def test_every_constraint_type_draws_itself():
    assert set(CASES) == set(CONSTRAINTS)  # a new type needs a case here
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
    root = parse(render_svg(p.givens, constraints=p.constraints,
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
    svg = render_svg(p.givens, constraints=p.constraints, highlight=[0])
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
            p = entry.puzzle
            svg = render_svg(p.givens, constraints=p.constraints, title=p.name)
            assert_self_contained(svg)
            root = parse(svg)
            plain = parse(render_svg(p.givens, title=p.name))
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
]


def test_gallery_has_every_type():
    assert {c["type"] for c in GALLERY} == set(CONSTRAINTS)
    root = drawn(*GALLERY, title="every rule")
    assert notes(root) == ("rules: diagonal non-consecutive, rule 1-5-9, anti-knight, "
                           "anti-king, non-consecutive, disjoint groups, no other kropki dots, "
                           "no other X or V")


def test_clone_shows_over_an_area():
    root = drawn({"type": "clone", "cells": ["r1c2"], "clone": ["r9c1"]}, {"type": "rule-159"})
    # the indexing columns' wash comes first in the document, the clone's tint over it
    assert tints(root) == [COLOURS["indexer"]] * 27 + [CLONE_COLOURS[0]] * 2


def test_digits_lie_over_clues_in_their_cell():
    p = variant({"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 17}, givens={"r1c1": 9})
    svg = render_svg(p.givens, constraints=p.constraints)
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
    root = parse(render_svg(p.givens, constraints=p.constraints))
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
