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
