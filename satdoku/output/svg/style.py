"""The style of satdoku's pictures: colours by meaning, the legend's words, and the small
helpers every picture module shares (XML escaping, numbers, elements, cell sizes).

See :mod:`satdoku.output.svg` for the glossary; ``docs/pictures.md`` shows the colours.
"""

from __future__ import annotations

import math
import re
from typing import Sequence, Union

__all__ = ["COLOURS", "CLONE_COLOURS", "LINE_COLOURS", "LEGEND", "FONT_FAMILY", "LAYERS",
           "Place", "xml_text", "colour_of", "cell_size"]

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
    "candidate": "#7a7a7a",     # pencil marks: the candidates of an open cell
    "placing": "#c9ebc9",       # the cell a step places a digit in (fill)
    "striking": "#f7d2d2",      # a cell a step strikes candidates from (fill)
    "cited": "#d6e4f7",         # a cell a step rests on (fill)
    "placed_mark": "#11761a",   # the candidate a step places
    "struck_mark": "#c62828",   # a candidate a step strikes
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
    "pair": "#2f7f8f",         # dark teal, a setter's relation (said in a note)
    "regex": "#8f5f2f",        # brown, dashed, a setter's pattern (said in a note)
    "value_indexing": "#5f5fbf",  # indigo, dashed, a dot on the first cell
    "nfa": "#7f3f9f",          # violet, dashed, a state machine (said in a note)
}

#: The words a picture's legend gives each line colour (lines whose rule a colour alone says).
LEGEND = {
    "whisper": "German whispers", "renban": "renban", "palindrome": "palindrome",
    "between": "between line", "region_sum": "region sum", "entropic": "entropic",
    "zipper": "zipper", "parity": "parity", "modular": "modular", "nabner": "nabner",
    "double_arrow": "double arrow", "lockout": "lockout", "sum_line": "sum line",
    "value_indexing": "value indexing",
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


def _unit(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """The unit vector from a to b ((1, 0) when they coincide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length else (1.0, 0.0)


def _extent(points, pad: float) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


