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
- candidates: the digits an open cell may still hold, drawn as pencil marks; step marks
  (:class:`StepMarks`): what one step of a path places, strikes and rests on, in colours of
  their own (``explain --format svg --step N``, and the page of ``--format html``).

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
import textwrap
from typing import Iterable, Mapping, Sequence

from ...model.alphabet import Alphabet, alphabet_for
from ...model.grid import Grid
from ...records import record
from .canvas import Canvas
from .style import (CLONE_COLOURS, COLOURS, FONT_FAMILY, LINE_COLOURS, _element, _num,
                        _one_line, cell_size, colour_of, xml_text)

__all__ = ["Canvas", "CLONE_COLOURS", "COLOURS", "LINE_COLOURS", "StepMarks", "cell_size",
           "colour_of", "render_svg", "svg_document", "xml_text"]


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
    small = 0.85 * font
    legend = _legend_rows(canvases, width + 2 * pad, small)
    legend_height = len(legend) * 1.35 * small + (0.3 * small if legend else 0)
    head = len(lines_above) * 1.35 * font + (0.3 * font if lines_above else 0)
    foot = legend_height + len(lines_below) * 1.35 * small + (0.3 * font if lines_below else 0)
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
    out.extend(_legend_elements(legend, width, bottom + pad, small))
    for i, (kind, line) in enumerate(below):
        y = bottom + pad + legend_height + (i + 0.5) * 1.35 * 0.85 * font
        out.append(_element("text", {"class": kind, "x": width / 2,
                                     "y": y + 0.36 * 0.85 * font, "font_size": 0.85 * font,
                                     "text_anchor": "middle", "fill": COLOURS["caption"],
                                     "font_style": "italic" if kind == "rules" else None},
                            line))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend_width(label: str, font: float) -> float:
    """Pixels of one legend item: a short line, its words, a gap."""
    return 2.0 * font + 0.56 * font * len(label) + font


def _legend_rows(canvases: Sequence[Canvas], width: float, font: float
                 ) -> list[list[tuple[str, str, float]]]:
    """The legend's items (words, colour, line width in cells) of every canvas, in rows of
    at most ``width`` pixels."""
    entries: dict[str, tuple[str, float]] = {}
    for canvas in canvases:
        for label, drawn in canvas.legend.items():
            entries.setdefault(label, drawn)
    rows: list[list[tuple[str, str, float]]] = []
    used = 0.0
    for label, (colour, line_width) in entries.items():
        item = _legend_width(label, font)
        if not rows or used + item > width:
            rows.append([])
            used = 0.0
        rows[-1].append((label, colour, line_width))
        used += item
    return rows


def _legend_elements(rows, width: float, top: float, font: float) -> list[str]:
    """SVG elements of the legend: each row centred under the grid, a line then its words."""
    out = []
    for i, row in enumerate(rows):
        y = top + (i + 0.5) * 1.35 * font
        x = (width - sum(_legend_width(label, font) for label, _, _ in row)) / 2
        for label, colour, line_width in row:
            thick = min(0.5 * font, max(2.0, line_width * 2.2 * font))
            d = f"M{_num(x)} {_num(y)} L{_num(x + 1.6 * font)} {_num(y)}"
            out.append(_element("path", {"class": "legend", "d": d, "stroke": colour,
                                         "stroke_width": thick, "stroke_linecap": "round",
                                         "fill": "none"}))
            out.append(_element("text", {"class": "legend", "x": x + 2.0 * font,
                                         "y": y + 0.36 * font, "font_size": font,
                                         "fill": COLOURS["caption"]}, label))
            x += _legend_width(label, font)
    return out


def _wrap(text: str | None, width: float, font: float) -> list[str]:
    if not text:
        return []
    chars = max(10, int(width / (0.56 * font)))
    return textwrap.wrap(_one_line(text), chars) or []


@record(frozen=True)
class StepMarks:
    """What one step of a path does, drawn over the grid it is taken on: the (cell, digit)
    it places and the (cell, digit) candidates it strikes (cell fill ``placing`` or
    ``striking``, the candidate in ``placed_mark`` or ``struck_mark``), and the cells it
    rests on (fill ``cited``)."""

    placed: tuple[tuple[int, int], ...] = ()
    struck: tuple[tuple[int, int], ...] = ()
    cited: tuple[int, ...] = ()

    def fills(self) -> dict[int, str]:
        """The colour (a :data:`COLOURS` key) of each marked cell, a change over a citation."""
        out = {cell: "cited" for cell in self.cited}
        out.update({cell: "striking" for cell, _ in self.struck})
        out.update({cell: "placing" for cell, _ in self.placed})
        return out


def _draw_grid(canvas: Canvas, puzzle: Grid, filled: Grid | None, highlight: set[int],
               alphabet: Alphabet, constraints: Sequence = (),
               candidates: Mapping[int, Iterable[int]] | None = None,
               marks: StepMarks | None = None) -> None:
    if canvas.keyed:
        canvas.cell_fills()
    if marks is not None:
        for cell, colour in sorted(marks.fills().items()):
            canvas.fill([cell], COLOURS[colour], css_class=colour)
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
    coloured = {}
    if marks is not None:
        coloured.update({(c, alphabet.symbol(d)): COLOURS["struck_mark"] for c, d in marks.struck})
        coloured.update({(c, alphabet.symbol(d)): COLOURS["placed_mark"] for c, d in marks.placed})
    for cell, digits in sorted((candidates or {}).items()):
        symbols = [alphabet.symbol(d) for d in digits]
        canvas.pencil_marks(cell, symbols, colour=COLOURS["candidate"], css_class="candidate",
                            colours={s: coloured[cell, s] for s in symbols
                                     if (cell, s) in coloured})


def render_svg(puzzle: Grid, solution: Grid | None = None, *, highlight: Iterable[int] = (),
               alphabet: Alphabet | None = None, title: str | None = None,
               caption: str | None = None, second: Grid | None = None,
               constraints: Iterable = (), cell: int | None = None,
               candidates: Mapping[int, Iterable[int]] | None = None,
               marks: StepMarks | None = None, keyed: bool = False) -> str:
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
        candidates: digits drawn as pencil marks in cells (``{cell: digits}``): a step's
            open cells.
        marks: what a step does (:class:`StepMarks`): its cells filled, its candidates
            coloured.
        keyed: ids on each cell's fill, digit and pencil marks (:class:`Canvas`), for a page
            that shows and hides them.

    >>> from satdoku.model.geometry import geometry
    >>> svg = render_svg(Grid(geometry(2, 2), (1,) + (0,) * 15), title="a <4x4>")
    >>> svg.count('class="given"'), "&lt;4x4&gt;" in svg
    (1, True)
    """
    geo = puzzle.geometry
    for other in (solution, second):
        if other is not None and not other.geometry.refines(geo):
            raise ValueError(f"a {other.geometry.shape} grid drawn over a {geo.shape} puzzle")
    alphabet = alphabet or alphabet_for(geo.size, geo.low)
    marked = set(highlight)
    constraints = list(constraints)
    canvases = []
    for filled in ((solution, second) if second is not None else (solution,)):
        # an answer's own regions (a chaos construction's) are drawn as its boxes
        canvas = Canvas(filled.geometry if filled is not None else geo, cell, alphabet, keyed)
        _draw_grid(canvas, puzzle, filled, marked, alphabet, constraints, candidates, marks)
        canvases.append(canvas)
    return svg_document(canvases, title=title, caption=caption)
