"""The shapes of variant rules on a canvas: cages, thermometers, arrows, dots, lines with
ends, clues outside the grid... (:class:`RuleShapes`, a part of
:class:`satdoku.output.svg.canvas.Canvas`). Each names its colours by meaning
(:data:`satdoku.output.svg.style.COLOURS`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable, Sequence

from .style import CLONE_COLOURS, COLOURS, Place, _unit, colour_of

__all__ = ["RuleShapes"]


class RuleShapes:
    """The rule shapes of a :class:`~satdoku.output.svg.canvas.Canvas` (they draw with its
    primitives)."""

    if TYPE_CHECKING:  # the canvas's sizes and primitives, for mypy (Canvas defines them)
        size: int
        rows: int
        cols: int
        cell: float
        thin: float
        _clones: int
        _outside_taken: set[tuple[float, float]]

        def row_col(self, place: Place) -> tuple[float, float]: ...
        def centre(self, place: Place) -> tuple[float, float]: ...
        def corner(self, row: float, col: float) -> tuple[float, float]: ...
        def edge(self, a: Place, b: Place) -> tuple[float, float]: ...
        def digit_half_width(self) -> float: ...
        def in_legend(self, colour: str, width: float = 0.2) -> None: ...

        def path_at(self, points: Sequence[tuple[float, float]], *, stroke: str = ...,
                    width: float = ..., fill: str = ..., dash: Sequence[float] | None = ...,
                    closed: bool = ..., cap: str = ..., join: str = ...,
                    opacity: float | None = ..., css_class: str | None = ...,
                    layer: str = ...) -> None: ...

        def circle_at(self, x: float, y: float, r: float, *, fill: str = ...,
                      stroke: str | None = ..., width: float = ..., layer: str = ...
                      ) -> None: ...

        def text_at(self, x: float, y: float, text: str, *, size: float, colour: str = ...,
                    anchor: str = ..., weight: str | None = ..., background: str | None = ...,
                    css_class: str | None = ..., layer: str = ..., key: str | None = ...
                    ) -> None: ...

        def arrowhead_at(self, tip: tuple[float, float], towards: tuple[float, float], *,
                         length: float, stroke: str, width: float, layer: str = ...
                         ) -> None: ...

        def shade(self, cells: Iterable[Place], colour: str = ..., *,
                  area: bool = ...) -> None: ...

        def corner_text(self, cell: Place, text: str, *, colour: str = ..., size: float = ...,
                        background: str | None = ...) -> None: ...

        def line(self, places: Sequence[Place], colour: str = ..., *, width: float = ...,
                 dash: Sequence[float] | None = ..., opacity: float | None = ...,
                 layer: str = ...) -> None: ...

        def circle(self, place: Place, *, radius: float = ..., stroke: str | None = ...,
                   fill: str = ..., width: float | None = ..., layer: str = ...) -> None: ...

        def square(self, place: Place, *, side: float = ..., fill: str = ...,
                   stroke: str | None = ..., layer: str = ...) -> None: ...

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
        # The head goes past the last cell's digit, towards the cell's far edge: on the digit
        # it would hide under it. Its back clears half the digit's width.
        last, before = points[-1], points[-2]
        vx, vy = _unit(before, last)
        head = 0.18 * self.cell
        back = max(0.27 * self.cell, self.digit_half_width() + 0.03 * self.cell)
        tip = min(back + head, 0.48 * self.cell)
        points[-1] = (last[0] + tip * vx, last[1] + tip * vy)
        self.path_at(points, stroke=colour, width=width)
        self.arrowhead_at(points[-1], last, length=tip - back, stroke=colour, width=width)

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
        rows, cols = self.rows, self.cols

        def place_at(k: int) -> tuple[int, int]:
            return {"top": (-k, index), "bottom": (rows - 1 + k, index),
                    "left": (index, -k), "right": (index, cols - 1 + k)}[side]

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
        n = self.cols  # a square grid (a diagonal needs one)
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
        self.in_legend(colour)
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
        self.in_legend(colour, 0.12)
        colour = colour_of(colour)
        r = 0.36 * self.cell
        self.path_at([self.centre(p) for p in cells], stroke=colour, width=0.12 * self.cell)
        for end in (cells[0], cells[-1]):
            x, y = self.centre(end)
            self.path_at([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], closed=True,
                         stroke=colour, width=self.thin * 2, fill=COLOURS["background"])



# The four sides of a cell, walked clockwise: (neighbour offset, start corner, end corner,
# inward normal), corners as (row, col) offsets from the cell's top-left corner.
_SIDES = (
    ((-1, 0), (0, 0), (0, 1), (1, 0)),   # top, left to right
    ((0, 1), (0, 1), (1, 1), (0, -1)),   # right, top to bottom
    ((1, 0), (1, 1), (1, 0), (-1, 0)),   # bottom, right to left
    ((0, -1), (1, 0), (0, 0), (0, 1)),   # left, bottom to top
)


def _outline(members: set[tuple[float, float]], inset: float) -> list[list[tuple[float, float]]]:
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


