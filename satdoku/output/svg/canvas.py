"""The drawing surface of one grid (:class:`Canvas`): coordinates, pixel and cell primitives,
grid lines and layers; the rule shapes come from :class:`~.shapes.RuleShapes`. See
:mod:`satdoku.output.svg` for the glossary.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

from ...model.alphabet import Alphabet, alphabet_for
from ...model.geometry import Geometry
from .shapes import RuleShapes
from .style import (COLOURS, LAYERS, LEGEND, Place, _element, _extent, _num, _one_line,
                        _unit, cell_size, colour_of)

__all__ = ["Canvas"]


class Canvas(RuleShapes):
    """The drawing surface of one grid: coordinates and the primitives puzzles are drawn with.

    Sizes given as fractions (``radius=0.4``, ``width=0.15``) are fractions of a cell; the
    ``*_at`` primitives take pixels. Colours are any CSS colour; ``line`` also takes a name
    of :data:`LINE_COLOURS`.

    A ``keyed`` canvas gives the elements of each cell ids a page's script can find: ``d12``
    the digit of cell 12 (0-based), ``m12-5`` its pencil mark of digit 5, ``f12`` its fill
    (:mod:`satdoku.output.html`).

    >>> from satdoku.model.geometry import geometry
    >>> c = Canvas(geometry(3, 3), cell=40)
    >>> c.centre(0), c.centre((-1, 8)), c.corner(9, 9)
    ((20.0, 20.0), (340.0, -20.0), (360, 360))
    >>> c.circle(13, radius=0.4)  # r2c5
    >>> c.items("shape")
    ['<circle cx="180" cy="60" r="16" fill="none" stroke="#8c8c8c" stroke-width="1.5"/>']
    """

    def __init__(self, geometry: Geometry, cell: int | None = None,
                 alphabet: Alphabet | None = None, keyed: bool = False) -> None:
        self.geometry = geometry
        self.keyed = keyed
        self.size = geometry.size  # digits; the grid is rows x cols (N x N but for shaped)
        self.rows, self.cols = geometry.height, geometry.width
        self.cell = cell or cell_size(max(self.rows, self.cols))
        self.alphabet = alphabet or alphabet_for(geometry.size, geometry.low)
        self.thin = max(1.0, self.cell / 40)
        self.thick = max(2.0, self.cell / 16)
        self._layers: dict[str, list[str]] = {name: [] for name in LAYERS}
        self._box = [0.0, 0.0, float(self.cols * self.cell), float(self.rows * self.cell)]
        # min x, min y, max x, max y
        self.notes: list[str] = []
        self._outside_taken: set[tuple[float, float]] = set()  # (row, col) of clues outside
        self._clones = 0
        self.legend: dict[str, tuple[str, float]] = {}  # words -> (colour, width in cells)
        if geometry.extra:  # cells outside the grid: rows under it, by the grid's width
            names = geometry.extra
            named = ", ".join(names) if len(names) < 4 else f"{names[0]} to {names[-1]}"
            self.note(f"the cells under the grid are {named}, row by row")

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
            return divmod(place, self.cols)
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
        x0, y0, x1, y1 = self._box
        return x0, y0, x1, y1

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
                layer: str = "fill", key: str | None = None) -> None:
        """A rectangle with its top-left corner at (x, y); ``key`` its id."""
        pad = width / 2 if stroke else 0.0
        self.add(_element("rect", {
            "id": key, "class": css_class, "x": float(x), "y": float(y), "width": float(w),
            "height": float(h), "fill": fill, "stroke": stroke,
            "stroke_width": width if stroke else None}), layer,
            (x - pad, y - pad, x + w + pad, y + h + pad))

    def text_at(self, x: float, y: float, text: str, *, size: float, colour: str = "#000000",
                anchor: str = "middle", weight: str | None = None, background: str | None = None,
                css_class: str | None = None, layer: str = "text", key: str | None = None) -> None:
        """``text`` of ``size`` pixels, its middle (``anchor``: start, middle, end) at x and
        centred on y; ``background`` fills the box behind it (to cut through lines); ``key``
        its id."""
        text = _one_line(text)
        w = 0.62 * size * len(text)  # DejaVu Sans and friends: digits ~0.64 em wide
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        if background:
            pad = 0.12 * size
            self.rect_at(left - pad, y - 0.5 * size - pad / 2, w + 2 * pad, size + pad,
                         fill=background, layer=layer)
        self.add(_element("text", {
            "id": key, "class": css_class, "x": float(x), "y": y + 0.36 * size, "font_size": float(size),
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

    def cell_fills(self) -> None:
        """A clear fill under every cell, keyed ``f<cell>``: a page's script colours them."""
        for cell in range(self.geometry.ncells):
            x, y = self.corner(*self.row_col(cell))
            self.rect_at(x, y, self.cell, self.cell, fill="none", css_class="cell",
                         key=f"f{cell}")

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
        key = f"d{cell}" if self.keyed and isinstance(cell, int) else None
        self.text_at(x, y, symbol, size=self.digit_size(fit or len(symbol)), colour=colour,
                     css_class=css_class, key=key)

    def digit_size(self, fit: int) -> float:
        """Pixels of a digit when ``fit`` characters must fit a cell."""
        return self.cell * 0.62 * min(1.0, 1.6 / max(1, fit))

    def digit_half_width(self) -> float:
        """Half the width of the widest digit of this grid's alphabet, in pixels."""
        fit = max(len(self.symbol(d)) for d in range(1, self.size + 1))
        return 0.31 * self.digit_size(fit) * fit

    def corner_text(self, cell: Place, text: str, *, colour: str = COLOURS["clue"],
                    size: float = 0.22, background: str | None = COLOURS["background"]) -> None:
        """Small text in the top-left corner of a cell (cage sums), above the top of the
        cell's digit (whose glyphs start 0.28 of a cell down) however many characters."""
        row, col = self.row_col(cell)
        x, y = self.corner(row, col)
        px = size * self.cell
        self.text_at(x + 0.1 * self.cell, y + 0.05 * self.cell + px / 2, text, size=px,
                     colour=colour, anchor="start", background=background)

    def pencil_marks(self, cell: Place, symbols: Sequence[str], *,
                     colour: str = COLOURS["thin"], colours: Mapping[str, str] | None = None,
                     css_class: str | None = None) -> None:
        """Small symbols in a cell, each digit at its place of a keypad-like grid (1 top left)
        as solvers write candidates; a cell's digit, drawn later, lies over them. ``colours``
        gives some symbols a colour of their own (a step's struck candidates)."""
        x0, y0 = self.corner(*self.row_col(cell))
        side = math.isqrt(self.size - 1) + 1
        px = self.cell * 0.8 / side
        colours = colours or {}
        for symbol in symbols:
            d = self.alphabet.digit(symbol) - 1
            r, c = divmod(d, side)
            key = f"m{cell}-{d + 1}" if self.keyed and isinstance(cell, int) else None
            self.text_at(x0 + self.cell * 0.1 + (c + 0.5) * px,
                         y0 + self.cell * 0.1 + (r + 0.5) * px, symbol, size=0.8 * px,
                         colour=colours.get(symbol, colour), css_class=css_class,
                         weight="bold" if symbol in colours else None, layer="mark", key=key)

    def line(self, places: Sequence[Place], colour: str = "palindrome", *, width: float = 0.2,
             dash: Sequence[float] | None = None, opacity: float | None = None,
             layer: str = "shape") -> None:
        """A line through the centres of ``places``; ``colour`` is a CSS colour or a name of
        :data:`LINE_COLOURS` (whisper, renban, palindrome, between, region_sum, entropic,
        zipper, parity...), which also puts it in the picture's legend. ``width`` is a
        fraction of a cell."""
        self.in_legend(colour, width)
        self.path_at([self.centre(p) for p in places], stroke=colour_of(colour),
                     width=width * self.cell,
                     dash=[d * self.cell for d in dash] if dash else None, opacity=opacity,
                     layer=layer)

    def in_legend(self, colour: str, width: float = 0.2) -> None:
        """Name a line colour in the legend under the grid (colours without words: nothing)."""
        if colour in LEGEND:
            self.legend.setdefault(LEGEND[colour], (colour_of(colour), width))

    def circle(self, place: Place, *, radius: float = 0.4, stroke: str | None = COLOURS["arrow"],
               fill: str = "none", width: float | None = None, layer: str = "shape") -> None:
        """A circle centred on a place; ``radius`` a fraction of a cell; ``fill`` and
        ``stroke`` CSS colours or names (:func:`colour_of`)."""
        x, y = self.centre(place)
        self.circle_at(x, y, radius * self.cell, fill=colour_of(fill),
                       stroke=None if stroke is None else colour_of(stroke),
                       width=self.thin * 1.5 if width is None else width, layer=layer)

    def square(self, place: Place, *, side: float = 0.7, fill: str = COLOURS["shade"],
               stroke: str | None = None, layer: str = "fill") -> None:
        """A square centred on a place; ``side`` a fraction of a cell."""
        x, y = self.centre(place)
        half = side * self.cell / 2
        self.rect_at(x - half, y - half, 2 * half, 2 * half, fill=fill, stroke=stroke,
                     layer=layer)

    # -- the grid ------------------------------------------------------------------------

    def grid_lines(self) -> None:
        """Thin lines between all cells, thick lines between cells of different boxes
        (regions), and a thick border (a grid without boxes has no inner thick lines)."""
        h, w, s, geo = self.rows, self.cols, self.cell, self.geometry
        box = [hs[2] if len(hs) > 2 else 0 for hs in geo.cell_houses]
        for k in range(1, w):
            self.path_at([(k * s, 0), (k * s, h * s)], stroke=COLOURS["thin"], width=self.thin,
                         cap="butt", css_class="thin", layer="grid")
        for k in range(1, h):
            self.path_at([(0, k * s), (w * s, k * s)], stroke=COLOURS["thin"], width=self.thin,
                         cap="butt", css_class="thin", layer="grid")
        for k in range(1, w):
            # runs of the line between column k-1 and k that part two boxes
            vertical = [box[i * w + k - 1] != box[i * w + k] for i in range(h)]
            for a, b in _runs(vertical):
                self.path_at([(k * s, a * s), (k * s, b * s)], stroke=COLOURS["thick"],
                             width=self.thick, cap="square", css_class="thick", layer="grid")
        for k in range(1, h):
            # and between row k-1 and k
            horizontal = [box[(k - 1) * w + j] != box[k * w + j] for j in range(w)]
            for a, b in _runs(horizontal):
                self.path_at([(a * s, k * s), (b * s, k * s)], stroke=COLOURS["thick"],
                             width=self.thick, cap="square", css_class="thick", layer="grid")
        self.rect_at(0, 0, w * s, h * s, stroke=COLOURS["thick"], width=self.thick,
                     css_class="border", layer="grid")

    # -- output --------------------------------------------------------------------------

    def group(self, dx: float = 0.0, dy: float = 0.0) -> str:
        """Everything drawn, layer by layer, as one ``<g>`` moved by (dx, dy)."""
        body = "\n".join(item for name in LAYERS for item in self._layers[name])
        move = f' transform="translate({_num(dx)} {_num(dy)})"' if dx or dy else ""
        return f"<g{move}>\n{body}\n</g>"




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


