"""Pictures of puzzles: one clean, self-contained SVG per puzzle (no fonts, scripts or links).

Glossary (see :mod:`satdoku.model.geometry` for cell, box, region):

- canvas: the drawing surface of one grid (:class:`Canvas`). Grid units are pixels; the grid's
  top-left corner is at (0, 0) and a cell is :attr:`Canvas.cell` pixels wide.
- place: where a primitive goes: a cell (an int) or a ``(row, col)`` pair, 0-based, which may
  be fractional or outside the grid (``(-1, 3)`` is above column 4: where outside clues go).
- layer: primitives are kept in seven layers drawn bottom to top: ``wash`` (areas a rule
  shades: extra regions, indexing columns), ``tint`` (cells a rule shades: clones, minimum and
  maximum cells), ``fill`` (highlights, odd and even shapes), ``shape`` (lines, thermometers,
  arrows, cages, diagonals), ``grid`` (cell and box lines), ``mark`` (dots, XV letters,
  quadruple circles: on top of the grid lines) and ``text`` (digits, clues). Each primitive
  has a sensible default layer.
- note: a line of text under the grid for a rule that has nothing to draw on it (anti-knight,
  non-consecutive...): ``canvas.note(text)``; the document prints each note once.
- highlight: a light fill on some cells (the cells where two solutions differ, the givens of
  a minimal unsolvable core).

Design: the grid draws itself with the same primitives that variant constraints use
(``constraint.draw(canvas)``), so a constraint type needs no SVG of its own: it names colours
by meaning (``"whisper"``, ``"extra_region"``) and the canvas looks them up. Rules are drawn
before the digits, so digits lie over clues in their cell. The canvas keeps the bounding box
of everything drawn; the document's view box is fitted to it at the end, so clues outside
the grid get their margin only when there are some. Every text and attribute is
escaped for XML, and characters XML cannot hold (control characters) become U+FFFD.
"""

from __future__ import annotations

import math
import re
import textwrap
from typing import Iterable, Sequence, Union

from ..model.alphabet import Alphabet, alphabet_for
from ..model.geometry import Geometry
from ..model.grid import Grid

__all__ = ["Canvas", "CLONE_COLOURS", "COLOURS", "LINE_COLOURS", "cell_size", "colour_of",
           "render_svg", "svg_document", "xml_text"]

#: What each colour means (see docs/pictures.md).
COLOURS = {
    "background": "#ffffff",
    "given": "#000000",        # digits of the puzzle
    "solved": "#1f5fbf",       # digits the solver filled in
    "highlight": "#ffe08a",    # differing cells, the givens of an unsolvable core
    "thin": "#9a9a9a",         # cell lines
    "thick": "#000000",        # box (region) lines and the border
    "clue": "#000000",         # cage sums, outside clues, XV letters, dots
    "shade": "#d4d4d4",        # odd circles, even squares
    "thermometer": "#c4c4c4",
    "arrow": "#8c8c8c",
    "cage": "#404040",
    "diagonal": "#6b8fc7",
    "caption": "#333333",
    "extra_region": "#e2e2e2",  # extra-region cells (tint)
    "extreme": "#e6e6e6",       # minimum and maximum cells (tint), under their chevrons
    "indexer": "#f6d8d8",       # column indexers, the indexing columns of rule 1-5-9 (tint)
    "row_indexer": "#d8f0d8",   # row indexers (tint)
    "box_indexer": "#dcdcf6",   # box indexers (tint)
}

#: Tints of clones, one per clone constraint in turn: a cell and its copy share one.
CLONE_COLOURS = ("#d3e3f6", "#d9efd2", "#f6dbe9", "#e5dbf6", "#d2eeee", "#f8e3cb")

#: Colours of the line constraints: ``canvas.line(cells, "whisper")`` picks one by name.
LINE_COLOURS = {
    "whisper": "#5cbf5c",      # German whispers: green
    "renban": "#c27ee8",       # purple
    "palindrome": "#a6a6a6",   # grey
    "between": "#a6a6a6",      # grey, with circles at both ends
    "region_sum": "#4f9be8",   # blue
    "entropic": "#f0a030",     # orange
    "zipper": "#e87eb0",       # pink
    "parity": "#d05050",       # red
    "modular": "#33bbbb",      # teal
    "nabner": "#b5b35a",       # olive
    "double_arrow": "#c54b8b",  # plum, with circles at both ends
    "lockout": "#8a8ad0",      # slate blue, with diamonds at both ends
    "sum_line": "#3f9f5f",     # dark green, dashed
}

FONT_FAMILY = "sans-serif"
#: Layers, drawn bottom to top.
LAYERS = ("wash", "tint", "fill", "shape", "grid", "mark", "text")

Place = Union[int, Sequence[float]]

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: object) -> str:
    """``text`` made safe for XML content and attribute values (both quote kinds escaped).

    >>> xml_text('a<b & "c"\\x07')
    'a&lt;b &amp; &quot;c&quot;\ufffd'
    """
    s = _NOT_XML.sub("\ufffd", str(text))
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def colour_of(name: str) -> str:
    """A colour by meaning (a key of :data:`LINE_COLOURS` or :data:`COLOURS`), or ``name`` itself
    (any CSS colour).

    >>> colour_of("whisper"), colour_of("given"), colour_of("#123456")
    ('#5cbf5c', '#000000', '#123456')
    """
    return LINE_COLOURS.get(name) or COLOURS.get(name) or name


def _one_line(text: object) -> str:
    """Whitespace (newlines, tabs) folded to single spaces: captions are drawn as lines."""
    return " ".join(str(text).split())


def _num(x: float) -> str:
    """A coordinate, short: ``12``, ``12.5``, ``-3.25``."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def cell_size(size: int) -> int:
    """Pixels per cell for an N x N grid: large for small grids, at least 24 px (a 9x9 grid is
    432 px wide, 16x16 544 px, 25x25 675 px).

    >>> cell_size(4), cell_size(9), cell_size(16), cell_size(25)
    (56, 48, 34, 27)
    """
    return max(24, min(56, round(300 / size + 15)))


def _element(tag: str, attrs: dict, text: str | None = None) -> str:
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = _num(value)
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{xml_text(value)}"')
    head = "<" + " ".join(parts)
    if text is None:
        return head + "/>"
    return f"{head}>{xml_text(text)}</{tag}>"


class Canvas:
    """The drawing surface of one grid: coordinates and the primitives puzzles are drawn with.

    Sizes given as fractions (``radius=0.4``, ``width=0.15``) are fractions of a cell; the
    ``*_at`` primitives take pixels. Colours are any CSS colour; ``line`` also takes a name
    of :data:`LINE_COLOURS`.

    >>> from satdoku.model.geometry import geometry
    >>> c = Canvas(geometry(3, 3), cell=40)
    >>> c.centre(0), c.centre((-1, 8)), c.corner(9, 9)
    ((20.0, 20.0), (340.0, -20.0), (360, 360))
    >>> c.circle(13, radius=0.4)  # r2c5
    >>> c.items("shape")
    ['<circle cx="180" cy="60" r="16" fill="none" stroke="#8c8c8c" stroke-width="1.5"/>']
    """

    def __init__(self, geometry: Geometry, cell: int | None = None,
                 alphabet: Alphabet | None = None) -> None:
        self.geometry = geometry
        self.size = geometry.size
        self.cell = cell or cell_size(geometry.size)
        self.alphabet = alphabet or alphabet_for(geometry.size)
        self.thin = max(1.0, self.cell / 40)
        self.thick = max(2.0, self.cell / 16)
        self._layers: dict[str, list[str]] = {name: [] for name in LAYERS}
        side = self.size * self.cell
        self._box = [0.0, 0.0, float(side), float(side)]  # min x, min y, max x, max y
        self.notes: list[str] = []
        self._outside_taken: set[tuple[float, float]] = set()  # (row, col) of clues outside
        self._clones = 0

    def symbol(self, digit: int) -> str:
        """How ``digit`` is written in this picture (the grid's alphabet)."""
        return self.alphabet.symbol(digit)

    def note(self, text: str) -> None:
        """A rule with nothing to draw on the grid (anti-knight...): ``text`` goes on a line
        under it (each text once)."""
        text = _one_line(text)
        if text not in self.notes:
            self.notes.append(text)

    # -- coordinates ---------------------------------------------------------------------

    def row_col(self, place: Place) -> tuple[float, float]:
        """0-based (row, column) of a place (a cell int or a (row, col) pair)."""
        if isinstance(place, int):
            return divmod(place, self.size)
        row, col = place
        return row, col

    def centre(self, place: Place) -> tuple[float, float]:
        """Pixel (x, y) of the centre of a place."""
        row, col = self.row_col(place)
        return (col + 0.5) * self.cell, (row + 0.5) * self.cell

    def corner(self, row: float, col: float) -> tuple[float, float]:
        """Pixel (x, y) of the grid point at the top-left corner of cell (row, col);
        ``corner(N, N)`` is the bottom-right corner of the grid."""
        return col * self.cell, row * self.cell

    def edge(self, a: Place, b: Place) -> tuple[float, float]:
        """Pixel (x, y) half way between two places: the middle of the edge two neighbouring
        cells share (where kropki dots and XV letters go)."""
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        return (ax + bx) / 2, (ay + by) / 2

    def _grow(self, x0: float, y0: float, x1: float, y1: float) -> None:
        box = self._box
        box[0], box[1] = min(box[0], x0, x1), min(box[1], y0, y1)
        box[2], box[3] = max(box[2], x0, x1), max(box[3], y0, y1)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of everything drawn, the grid included."""
        return tuple(self._box)

    def items(self, layer: str) -> list[str]:
        """The SVG elements drawn so far in ``layer``."""
        return list(self._layers[layer])

    def add(self, element: str, layer: str, box: tuple[float, float, float, float]) -> None:
        """Add a raw SVG element to ``layer``; ``box`` is its extent, for the view box."""
        self._layers[layer].append(element)
        self._grow(*box)

    # -- pixel primitives ----------------------------------------------------------------

    def path_at(self, points: Sequence[tuple[float, float]], *, stroke: str = "#000000",
                width: float = 1.0, fill: str = "none", dash: Sequence[float] | None = None,
                closed: bool = False, cap: str = "round", join: str = "round",
                opacity: float | None = None, css_class: str | None = None,
                layer: str = "shape") -> None:
        """A polyline (``closed``: a polygon) through pixel points."""
        d = "M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in points) + (" Z" if closed else "")
        self.add(_element("path", {
            "class": css_class, "d": d, "fill": fill, "stroke": stroke, "stroke_width": width,
            "stroke_linecap": cap, "stroke_linejoin": join,
            "stroke_dasharray": " ".join(map(_num, dash)) if dash else None,
            "stroke_opacity": opacity}), layer, _extent(points, width / 2))

    def circle_at(self, x: float, y: float, r: float, *, fill: str = "none",
                  stroke: str | None = None, width: float = 1.0, layer: str = "shape") -> None:
        """A circle of radius ``r`` pixels."""
        self.add(_element("circle", {
            "cx": float(x), "cy": float(y), "r": float(r), "fill": fill, "stroke": stroke,
            "stroke_width": width if stroke else None}), layer,
            (x - r - width / 2, y - r - width / 2, x + r + width / 2, y + r + width / 2))

    def rect_at(self, x: float, y: float, w: float, h: float, *, fill: str = "none",
                stroke: str | None = None, width: float = 1.0, css_class: str | None = None,
                layer: str = "fill") -> None:
        """A rectangle with its top-left corner at (x, y)."""
        pad = width / 2 if stroke else 0.0
        self.add(_element("rect", {
            "class": css_class, "x": float(x), "y": float(y), "width": float(w),
            "height": float(h), "fill": fill, "stroke": stroke,
            "stroke_width": width if stroke else None}), layer,
            (x - pad, y - pad, x + w + pad, y + h + pad))

    def text_at(self, x: float, y: float, text: str, *, size: float, colour: str = "#000000",
                anchor: str = "middle", weight: str | None = None, background: str | None = None,
                css_class: str | None = None, layer: str = "text") -> None:
        """``text`` of ``size`` pixels, its middle (``anchor``: start, middle, end) at x and
        centred on y; ``background`` fills the box behind it (to cut through lines)."""
        text = _one_line(text)
        w = 0.62 * size * len(text)  # DejaVu Sans and friends: digits ~0.64 em wide
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        if background:
            pad = 0.12 * size
            self.rect_at(left - pad, y - 0.5 * size - pad / 2, w + 2 * pad, size + pad,
                         fill=background, layer=layer)
        self.add(_element("text", {
            "class": css_class, "x": float(x), "y": y + 0.36 * size, "font_size": float(size),
            "fill": colour, "text_anchor": None if anchor == "start" else anchor,
            "font_weight": weight}, text), layer,
            (left, y - 0.6 * size, left + w, y + 0.6 * size))

    def arrowhead_at(self, tip: tuple[float, float], towards: tuple[float, float], *,
                     length: float, stroke: str, width: float, layer: str = "shape") -> None:
        """An open arrowhead (a V) with its tip at ``tip``, for a line coming from ``towards``;
        ``length`` in pixels."""
        ux, uy = _unit(towards, tip)
        back = (tip[0] - length * ux, tip[1] - length * uy)
        spread = 0.6 * length
        self.path_at([(back[0] - spread * uy, back[1] + spread * ux), tip,
                      (back[0] + spread * uy, back[1] - spread * ux)],
                     stroke=stroke, width=width, layer=layer)

    # -- cell primitives -----------------------------------------------------------------

    def fill(self, cells: Iterable[Place], colour: str, *, css_class: str | None = None,
             layer: str = "fill") -> None:
        """Shade whole cells (highlights)."""
        for place in cells:
            row, col = self.row_col(place)
            x, y = self.corner(row, col)
            self.rect_at(x, y, self.cell, self.cell, fill=colour, css_class=css_class,
                         layer=layer)

    def shade(self, cells: Iterable[Place], colour: str = "extra_region", *,
              area: bool = False) -> None:
        """Shade whole cells for a rule, under highlights (a highlighted cell stays amber).
        ``area``: a wide area (an extra region, indexing columns), under the other rules'
        shading so a clone inside it still shows. ``colour`` a CSS colour or a name
        (:func:`colour_of`)."""
        self.fill(cells, colour_of(colour), css_class="tint", layer="wash" if area else "tint")

    def digit(self, cell: Place, symbol: str, *, colour: str = COLOURS["given"],
              fit: int | None = None, css_class: str | None = None) -> None:
        """A digit (its symbol) in the middle of a cell, sized so that ``fit`` characters
        (default: the symbol's length) fit the cell."""
        x, y = self.centre(cell)
        size = self.cell * 0.62 * min(1.0, 1.6 / max(1, fit or len(symbol)))
        self.text_at(x, y, symbol, size=size, colour=colour, css_class=css_class)

    def corner_text(self, cell: Place, text: str, *, colour: str = COLOURS["clue"],
                    size: float = 0.28, background: str | None = COLOURS["background"]) -> None:
        """Small text in the top-left corner of a cell (cage sums)."""
        row, col = self.row_col(cell)
        x, y = self.corner(row, col)
        px = size * self.cell
        self.text_at(x + 0.1 * self.cell, y + 0.08 * self.cell + px / 2, text, size=px,
                     colour=colour, anchor="start", background=background)

    def pencil_marks(self, cell: Place, symbols: Sequence[str], *,
                     colour: str = COLOURS["thin"]) -> None:
        """Small symbols in a cell, each digit at its place of a keypad-like grid (1 top left)
        as solvers write candidates; a cell's digit, drawn later, lies over them."""
        x0, y0 = self.corner(*self.row_col(cell))
        side = math.isqrt(self.size - 1) + 1
        px = self.cell * 0.8 / side
        for symbol in symbols:
            d = self.alphabet.digit(symbol) - 1
            r, c = divmod(d, side)
            self.text_at(x0 + self.cell * 0.1 + (c + 0.5) * px,
                         y0 + self.cell * 0.1 + (r + 0.5) * px, symbol, size=0.8 * px,
                         colour=colour, layer="mark")

    def line(self, places: Sequence[Place], colour: str = "palindrome", *, width: float = 0.2,
             dash: Sequence[float] | None = None, opacity: float | None = None,
             layer: str = "shape") -> None:
        """A line through the centres of ``places``; ``colour`` is a CSS colour or a name of
        :data:`LINE_COLOURS` (whisper, renban, palindrome, between, region_sum, entropic,
        zipper, parity). ``width`` is a fraction of a cell."""
        self.path_at([self.centre(p) for p in places], stroke=colour_of(colour),
                     width=width * self.cell,
                     dash=[d * self.cell for d in dash] if dash else None, opacity=opacity,
                     layer=layer)

    def circle(self, place: Place, *, radius: float = 0.4, stroke: str | None = COLOURS["arrow"],
               fill: str = "none", width: float | None = None, layer: str = "shape") -> None:
        """A circle centred on a place; ``radius`` a fraction of a cell."""
        x, y = self.centre(place)
        self.circle_at(x, y, radius * self.cell, fill=fill, stroke=stroke,
                       width=self.thin * 1.5 if width is None else width, layer=layer)

    def square(self, place: Place, *, side: float = 0.7, fill: str = COLOURS["shade"],
               stroke: str | None = None, layer: str = "fill") -> None:
        """A square centred on a place; ``side`` a fraction of a cell."""
        x, y = self.centre(place)
        half = side * self.cell / 2
        self.rect_at(x - half, y - half, 2 * half, 2 * half, fill=fill, stroke=stroke,
                     layer=layer)

    def odd(self, cell: Place) -> None:
        """The odd-cell mark: a grey disc."""
        self.circle(cell, radius=0.38, fill=COLOURS["shade"], stroke=None, layer="fill")

    def even(self, cell: Place) -> None:
        """The even-cell mark: a grey square."""
        self.square(cell, side=0.72)

    def dot(self, a: Place, b: Place, *, black: bool = False, radius: float = 0.11,
            value: str | int | None = None) -> None:
        """A kropki dot on the edge between two cells: white (difference) or black (ratio).
        A ``value`` (a difference other than 1, a ratio other than 2) is written in the dot,
        which grows to hold it."""
        x, y = self.edge(a, b)
        text = None if value is None else str(value)
        if text:
            radius = max(radius, 0.1 + 0.05 * len(text))
        self.circle_at(x, y, radius * self.cell,
                       fill=COLOURS["clue"] if black else COLOURS["background"],
                       stroke=COLOURS["clue"], width=self.thin * 1.2, layer="mark")
        if text:
            self.text_at(x, y, text, size=min(0.22, 2.6 * radius / len(text)) * self.cell,
                         colour=COLOURS["background"] if black else COLOURS["clue"],
                         weight="bold", layer="mark")

    def badge(self, a: Place, b: Place, text: str | int, colour: str) -> None:
        """Small text in a white disc ringed in ``colour`` (a name as for :func:`colour_of`),
        half way between two places (a German whispers line's own difference)."""
        x, y = self.edge(a, b)
        text = str(text)
        r = (0.1 + 0.05 * len(text)) * self.cell
        self.circle_at(x, y, r, fill=COLOURS["background"], stroke=colour_of(colour),
                       width=self.thin * 2, layer="mark")
        self.text_at(x, y, text, size=min(0.22 * self.cell, 2.4 * r / len(text)),
                     colour=COLOURS["clue"], weight="bold", layer="mark")

    def edge_text(self, a: Place, b: Place, text: str, *, size: float = 0.45) -> None:
        """Text on the edge between two cells, on a white patch (XV letters)."""
        x, y = self.edge(a, b)
        self.text_at(x, y, text, size=size * self.cell, colour=COLOURS["clue"], weight="bold",
                     background=COLOURS["background"], layer="mark")

    def cage(self, cells: Iterable[int], total: str | int | None = None, *,
             colour: str = COLOURS["cage"], inset: float = 0.08) -> None:
        """A killer cage: a dashed outline ``inset`` (fraction of a cell) inside the cells'
        outer edges, the ``total`` small in the top-left corner of its top-left cell."""
        cells = sorted(set(cells))
        members = {self.row_col(c) for c in cells}
        for loop in _outline(members, inset):
            self.path_at([self.corner(r, c) for r, c in loop], closed=True, stroke=colour,
                         width=self.thin, dash=(0.1 * self.cell, 0.07 * self.cell), cap="butt",
                         join="miter")
        if total is not None and cells:
            self.corner_text(cells[0], str(total))

    def thermometer(self, cells: Sequence[Place], *, colour: str = COLOURS["thermometer"],
                    hollow: bool = False) -> None:
        """A thermometer: a bulb on the first cell and a thick line to the last. ``hollow``
        (a slow thermometer): the same shape in outline, white inside."""
        self.circle(cells[0], radius=0.38, fill=colour, stroke=None)
        if len(cells) > 1:
            self.line(cells, colour, width=0.26)
        if hollow:
            rim = 0.055
            self.circle(cells[0], radius=0.38 - rim, fill=COLOURS["background"], stroke=None)
            if len(cells) > 1:
                self.line(cells, COLOURS["background"], width=0.26 - 2 * rim)

    def arrow(self, bulb: Sequence[Place], path: Sequence[Place], *,
              colour: str = COLOURS["arrow"]) -> None:
        """An arrow: a circle (for several cells a rounded outline) around the ``bulb`` cells,
        a line from its edge through ``path``, and an arrowhead in the last cell."""
        radius = 0.4 * self.cell
        width = self.thin * 1.5
        if len(bulb) == 1:
            self.circle(bulb[0], radius=0.4, stroke=colour, fill=COLOURS["background"],
                        width=width)
        else:  # a pill: a thick line in the arrow colour, a slightly thinner white one on it
            points = [self.centre(p) for p in bulb]
            self.path_at(points, stroke=colour, width=2 * radius + width)
            self.path_at(points, stroke=COLOURS["background"], width=2 * radius - width)
        if not path:
            return
        first = self.centre(path[0])
        start = min((self.centre(p) for p in bulb),  # the shaft leaves the nearest circle cell
                    key=lambda c: math.hypot(c[0] - first[0], c[1] - first[1]))
        ux, uy = _unit(start, first)
        points = [(start[0] + radius * ux, start[1] + radius * uy)]
        points += [self.centre(p) for p in path]
        self.path_at(points, stroke=colour, width=width)
        self.arrowhead_at(points[-1], points[-2], length=0.25 * self.cell, stroke=colour,
                          width=width)

    def pointer(self, start: Place, end: Place, *, colour: str = COLOURS["clue"],
                width: float | None = None, head: float = 0.2) -> None:
        """A straight arrow from the centre of one place to another (``head``: length of the
        arrowhead as a fraction of a cell)."""
        a, b = self.centre(start), self.centre(end)
        width = self.thin * 1.2 if width is None else width
        self.path_at([a, b], stroke=colour, width=width)
        self.arrowhead_at(b, a, length=head * self.cell, stroke=colour, width=width)

    def little_killer(self, place: Place, direction: tuple[int, int], total: str | int) -> None:
        """A little-killer clue outside the grid: ``total`` in the cell-sized square at
        ``place`` (e.g. ``(-1, 2)``, above column 3) and a small arrow pointing along
        ``direction`` (``(1, 1)`` down and right; (row step, column step))."""
        dr, dc = direction
        row, col = self.row_col(place)
        self._outside_taken.add((row, col))
        self.text_at(*self.centre((row - 0.1 * dr, col - 0.1 * dc)), str(total),
                     size=0.34 * self.cell, colour=COLOURS["clue"])
        self.pointer((row + 0.15 * dr, col + 0.15 * dc), (row + 0.42 * dr, col + 0.42 * dc),
                     head=0.14)

    def quadruple(self, row: int, col: int, symbols: Sequence[str]) -> None:
        """A quadruple clue: a circle on the grid point at the top-left corner of cell
        (row, col) holding up to four small symbols."""
        x, y = self.corner(row, col)
        r = 0.32 * self.cell
        self.circle_at(x, y, r, fill=COLOURS["background"], stroke=COLOURS["clue"],
                       width=self.thin, layer="mark")
        # one digit large, two side by side, three or four in two rows
        size = {1: 0.32, 2: 0.26}.get(len(symbols), 0.24) * self.cell
        step = 0.14 * self.cell
        rows = [list(symbols[:2]), list(symbols[2:4])] if len(symbols) > 2 else [list(symbols)]
        for i, line in enumerate(rows):
            dy = 0 if len(rows) == 1 else (-step if i == 0 else step)
            for j, symbol in enumerate(line):
                dx = 0 if len(line) == 1 else (-step if j == 0 else step)
                self.text_at(x + dx, y + dy, symbol, size=size, colour=COLOURS["clue"],
                             layer="mark")

    def outside(self, side: str, index: int, text: str | int, *, distance: int | None = None,
                size: float = 0.5) -> None:
        """A clue outside the grid (sandwich, x-sum, skyscraper): ``side`` top, bottom, left or
        right, ``index`` the 0-based column (top, bottom) or row (left, right); ``distance``
        cells out from the grid, by default the nearest place no clue took yet (a sandwich and
        an x-sum on one row stand side by side)."""
        n = self.size

        def place_at(k: int) -> tuple[int, int]:
            return {"top": (-k, index), "bottom": (n - 1 + k, index),
                    "left": (index, -k), "right": (index, n - 1 + k)}[side]

        if distance is None:
            distance = 1
            while place_at(distance) in self._outside_taken:
                distance += 1
        place = place_at(distance)
        self._outside_taken.add(place)
        text = str(text)
        px = size * self.cell * min(1.0, 2.0 / max(2, len(text)))
        self.text_at(*self.centre(place), text, size=px, colour=COLOURS["clue"])

    def diagonal(self, *, anti: bool = False, colour: str = COLOURS["diagonal"],
                 width: float = 0.05) -> None:
        """The main diagonal (top left to bottom right) or the anti-diagonal."""
        n = self.size
        ends = [self.corner(0, n), self.corner(n, 0)] if anti else [self.corner(0, 0),
                                                                    self.corner(n, n)]
        self.path_at(ends, stroke=colour, width=width * self.cell, cap="butt")

    def extreme(self, cell: Place, neighbours: Iterable[Place], *, maximum: bool) -> None:
        """A minimum or maximum cell: shaded, with a small chevron inside each edge it shares
        with ``neighbours``, pointing out of a maximum (downhill, as an inequality sign
        opens towards the larger side) and into a minimum."""
        self.shade([cell], "extreme")
        cx, cy = self.centre(cell)
        length, width = 0.16 * self.cell, self.thin * 1.5
        for other in neighbours:
            ux, uy = _unit((cx, cy), self.centre(other))
            near, far = 0.3 * self.cell, 0.44 * self.cell
            tip, back = (far, near) if maximum else (near, far)
            self.arrowhead_at((cx + tip * ux, cy + tip * uy), (cx + back * ux, cy + back * uy),
                              length=length, stroke=COLOURS["clue"], width=width,
                              layer="mark")

    def clone(self, cells: Sequence[Place], copies: Sequence[Place]) -> None:
        """A clone: the cells and their copies shaded in one tint, each clone in the next tint
        of :data:`CLONE_COLOURS`."""
        tint = CLONE_COLOURS[self._clones % len(CLONE_COLOURS)]
        self._clones += 1
        self.shade(list(cells) + list(copies), tint)

    def between(self, cells: Sequence[Place], *, colour: str = "between") -> None:
        """A between line: a line with an open circle on both end cells."""
        colour = colour_of(colour)
        radius = 0.38 * self.cell
        ends = [self.centre(cells[0]), self.centre(cells[-1])]
        if len(cells) > 1:
            (ax, ay), (bx, by) = ends[0], self.centre(cells[1])
            (zx, zy), (yx, yy) = ends[1], self.centre(cells[-2])
            ua, uz = _unit(ends[0], (bx, by)), _unit(ends[1], (yx, yy))
            points = ([(ax + radius * ua[0], ay + radius * ua[1])]
                      + [self.centre(p) for p in cells[1:-1]]
                      + [(zx + radius * uz[0], zy + radius * uz[1])])
            self.path_at(points, stroke=colour, width=0.2 * self.cell)
        for x, y in ends:
            self.circle_at(x, y, radius, fill=COLOURS["background"], stroke=colour,
                           width=self.thin * 2)

    def lockout(self, cells: Sequence[Place], *, colour: str = "lockout") -> None:
        """A lockout line: a line with a diamond on both end cells."""
        colour = colour_of(colour)
        r = 0.36 * self.cell
        self.path_at([self.centre(p) for p in cells], stroke=colour, width=0.12 * self.cell)
        for end in (cells[0], cells[-1]):
            x, y = self.centre(end)
            self.path_at([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], closed=True,
                         stroke=colour, width=self.thin * 2, fill=COLOURS["background"])

    # -- the grid ------------------------------------------------------------------------

    def grid_lines(self) -> None:
        """Thin lines between all cells, thick lines between cells of different boxes
        (regions), and a thick border."""
        n, s, geo = self.size, self.cell, self.geometry
        side = n * s
        box = [h[2] for h in geo.cell_houses]
        for k in range(1, n):
            self.path_at([(k * s, 0), (k * s, side)], stroke=COLOURS["thin"], width=self.thin,
                         cap="butt", css_class="thin", layer="grid")
            self.path_at([(0, k * s), (side, k * s)], stroke=COLOURS["thin"], width=self.thin,
                         cap="butt", css_class="thin", layer="grid")
        for k in range(1, n):
            # runs of the line between column k-1 and k (row k-1 and k) that part two boxes
            vertical = [box[i * n + k - 1] != box[i * n + k] for i in range(n)]
            horizontal = [box[(k - 1) * n + j] != box[k * n + j] for j in range(n)]
            for a, b in _runs(vertical):
                self.path_at([(k * s, a * s), (k * s, b * s)], stroke=COLOURS["thick"],
                             width=self.thick, cap="square", css_class="thick", layer="grid")
            for a, b in _runs(horizontal):
                self.path_at([(a * s, k * s), (b * s, k * s)], stroke=COLOURS["thick"],
                             width=self.thick, cap="square", css_class="thick", layer="grid")
        self.rect_at(0, 0, side, side, stroke=COLOURS["thick"], width=self.thick,
                     css_class="border", layer="grid")

    # -- output --------------------------------------------------------------------------

    def group(self, dx: float = 0.0, dy: float = 0.0) -> str:
        """Everything drawn, layer by layer, as one ``<g>`` moved by (dx, dy)."""
        body = "\n".join(item for name in LAYERS for item in self._layers[name])
        move = f' transform="translate({_num(dx)} {_num(dy)})"' if dx or dy else ""
        return f"<g{move}>\n{body}\n</g>"

    def svg(self, *, title: str | None = None, caption: str | None = None) -> str:
        """This canvas alone as an SVG document."""
        return svg_document([self], title=title, caption=caption)


def _unit(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """The unit vector from a to b ((1, 0) when they coincide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length else (1.0, 0.0)


def _extent(points, pad: float) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """(start, end) of each run of True in ``flags``, end exclusive."""
    runs, start = [], None
    for i, flag in enumerate(flags + [False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            runs.append((start, i))
            start = None
    return runs


# The four sides of a cell, walked clockwise: (neighbour offset, start corner, end corner,
# inward normal), corners as (row, col) offsets from the cell's top-left corner.
_SIDES = (
    ((-1, 0), (0, 0), (0, 1), (1, 0)),   # top, left to right
    ((0, 1), (0, 1), (1, 1), (0, -1)),   # right, top to bottom
    ((1, 0), (1, 1), (1, 0), (-1, 0)),   # bottom, right to left
    ((0, -1), (1, 0), (0, 0), (0, 1)),   # left, bottom to top
)


def _outline(members: set[tuple[int, int]], inset: float) -> list[list[tuple[float, float]]]:
    """The boundary of a set of (row, col) cells as closed loops of (row, col) points, each
    moved ``inset`` (fraction of a cell) into the set.

    Each boundary side of a cell is walked clockwise; its ends are moved along the side: in by
    ``inset`` at a convex corner, out by ``inset`` at a concave one, not at all where the
    boundary runs straight on. The sides are then chained end to start into loops.
    """
    segments: dict[tuple[float, float], tuple[float, float]] = {}
    for r, c in members:
        for (nr, nc), (sr, sc), (er, ec), (ir, ic) in _SIDES:
            if (r + nr, c + nc) in members:
                continue
            dr, dc = er - sr, ec - sc  # along the side
            # start: the cell behind the start (-along) and the one diagonally outward
            behind = (r - dr, c - dc) in members
            behind_out = (r - dr + nr, c - dc + nc) in members
            ahead = (r + dr, c + dc) in members
            ahead_out = (r + dr + nr, c + dc + nc) in members
            s_shift = inset if not behind else (-inset if behind_out else 0.0)
            e_shift = inset if not ahead else (-inset if ahead_out else 0.0)
            start = (r + sr + ir * inset + dr * s_shift, c + sc + ic * inset + dc * s_shift)
            end = (r + er + ir * inset - dr * e_shift, c + ec + ic * inset - dc * e_shift)
            segments[_key(start)] = end
    loops = []
    while segments:
        first, end = segments.popitem()
        loop = [first]
        point = end
        while _key(point) != first and _key(point) in segments:
            loop.append(point)
            point = segments.pop(_key(point))
        loops.append(_straighten(loop))
    return loops


def _key(point: tuple[float, float]) -> tuple[float, float]:
    return round(point[0], 6), round(point[1], 6)


def _straighten(loop: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``loop`` without the points where it runs straight on (so dashes flow evenly)."""
    out = []
    n = len(loop)
    for i, p in enumerate(loop):
        a, b = loop[i - 1], loop[(i + 1) % n]
        cross = (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0])
        if abs(cross) > 1e-9:
            out.append(p)
    return out or loop


def svg_document(canvases: Sequence[Canvas], *, title: str | None = None,
                 caption: str | None = None, gap: float | None = None) -> str:
    """An SVG document with the canvases side by side, a ``title`` line above them and a
    ``caption`` (wrapped to their width) below, after the canvases' notes (``rules: ...``,
    each once). All texts are escaped; ``title`` is also the document's ``<title>``.
    """
    cell = max(c.cell for c in canvases)
    gap = cell if gap is None else gap
    pad = 0.4 * cell
    groups, x = [], 0.0
    top, bottom = math.inf, -math.inf
    for canvas in canvases:
        x0, y0, x1, y1 = canvas.bounds
        groups.append(canvas.group(x - x0, 0))
        x += (x1 - x0) + gap
        top, bottom = min(top, y0), max(bottom, y1)
    width = x - gap
    font = max(14.0, min(20.0, 0.42 * cell))
    lines_above = _wrap(title, width + 2 * pad, font)
    notes = list(dict.fromkeys(note for canvas in canvases for note in canvas.notes))
    below = [("rules", line) for line in _wrap("rules: " + ", ".join(notes) if notes else None,
                                                width + 2 * pad, 0.85 * font)]
    below += [("caption", line) for line in _wrap(caption, width + 2 * pad, 0.85 * font)]
    lines_below = [line for _, line in below]
    head = len(lines_above) * 1.35 * font + (0.3 * font if lines_above else 0)
    foot = len(lines_below) * 1.35 * 0.85 * font + (0.3 * font if lines_below else 0)
    vx, vy = -pad, top - pad - head
    vw, vh = width + 2 * pad, (bottom - top) + 2 * pad + head + foot
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(vw)}" height="{_num(vh)}" '
           f'viewBox="{_num(vx)} {_num(vy)} {_num(vw)} {_num(vh)}" '
           f'font-family="{FONT_FAMILY}">']
    if title:
        out.append(_element("title", {}, _one_line(title)))
    out.append(_element("rect", {"x": float(vx), "y": float(vy), "width": float(vw),
                                 "height": float(vh), "fill": COLOURS["background"]}))
    for i, line in enumerate(lines_above):
        y = vy + pad + (i + 0.5) * 1.35 * font
        out.append(_element("text", {"class": "title", "x": width / 2, "y": y + 0.36 * font,
                                     "font_size": font, "text_anchor": "middle",
                                     "fill": COLOURS["given"]}, line))
    out.extend(groups)
    for i, (kind, line) in enumerate(below):
        y = bottom + pad + (i + 0.5) * 1.35 * 0.85 * font
        out.append(_element("text", {"class": kind, "x": width / 2,
                                     "y": y + 0.36 * 0.85 * font, "font_size": 0.85 * font,
                                     "text_anchor": "middle", "fill": COLOURS["caption"],
                                     "font_style": "italic" if kind == "rules" else None},
                            line))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _wrap(text: str | None, width: float, font: float) -> list[str]:
    if not text:
        return []
    chars = max(10, int(width / (0.56 * font)))
    return textwrap.wrap(_one_line(text), chars) or []


def _draw_grid(canvas: Canvas, puzzle: Grid, filled: Grid | None, highlight: set[int],
               alphabet: Alphabet, constraints: Sequence = ()) -> None:
    canvas.fill(sorted(highlight), COLOURS["highlight"], css_class="highlight")
    canvas.grid_lines()
    for constraint in constraints:  # before the digits: a cage sum's patch stays under them
        constraint.draw(canvas)
    fit = max(len(alphabet.symbol(d)) for d in range(1, puzzle.size + 1))  # one size for all
    for cell, given in enumerate(puzzle.cells):
        if given:
            canvas.digit(cell, alphabet.symbol(given), colour=COLOURS["given"], fit=fit,
                         css_class="given")
        elif filled is not None and filled.cells[cell]:
            canvas.digit(cell, alphabet.symbol(filled.cells[cell]), colour=COLOURS["solved"],
                         fit=fit, css_class="solved")


def render_svg(puzzle: Grid, solution: Grid | None = None, *, highlight: Iterable[int] = (),
               alphabet: Alphabet | None = None, title: str | None = None,
               caption: str | None = None, second: Grid | None = None,
               constraints: Iterable = (), cell: int | None = None) -> str:
    """One puzzle as an SVG document.

    Args:
        puzzle: the givens, drawn in :data:`COLOURS` ``given``.
        solution: a filled grid; its digits in the other cells are drawn in ``solved``.
        highlight: cells shaded in ``highlight`` (differing cells, the givens of a core).
        alphabet: how digits are written (default :func:`satdoku.model.alphabet.alphabet_for`).
        title: a line above the grid; caption: text below it (wrapped).
        second: another filled grid, drawn to the right with the same givens and highlights
            (the second solution of an ambiguous puzzle).
        constraints: objects with a ``draw(canvas)`` method (variant rules), drawn on each
            grid; what they note (rules with nothing to draw) is listed under the grid.
        cell: pixels per cell (default :func:`cell_size`).

    >>> from satdoku.model.geometry import geometry
    >>> svg = render_svg(Grid(geometry(2, 2), (1,) + (0,) * 15), title="a <4x4>")
    >>> svg.count('class="given"'), "&lt;4x4&gt;" in svg
    (1, True)
    """
    geo = puzzle.geometry
    for other in (solution, second):
        if other is not None and other.geometry is not geo:
            raise ValueError(f"a {other.geometry.shape} grid drawn over a {geo.shape} puzzle")
    alphabet = alphabet or alphabet_for(geo.size)
    marked = set(highlight)
    constraints = list(constraints)
    canvases = []
    for filled in ((solution, second) if second is not None else (solution,)):
        canvas = Canvas(geo, cell, alphabet)
        _draw_grid(canvas, puzzle, filled, marked, alphabet, constraints)
        canvases.append(canvas)
    return svg_document(canvases, title=title, caption=caption)
