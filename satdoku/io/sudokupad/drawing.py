"""SudokuPad's drawing (lines, arrows, overlays, underlays) read as rules.

The SCL reader (:mod:`satdoku.io.sudokupad.scl`) hands its puzzle to :class:`Drawing`, which recognises
the drawn items that state a rule by the conventions SudokuPad itself and its f-puzzles
importer use, and writes each as an f-puzzles entry:

=====================================================  =====================================
drawn                                                  read as (f-puzzles key)
=====================================================  =====================================
a line from corner to corner of the grid               ``diagonal+`` / ``diagonal-``
thick lines (4 px or more) reached from a filled       ``thermometer``, bulb first (one per
circle of their colour at a cell centre (the bulb)     path from the bulb to a tip)
a line with an unfilled circle on each end cell        ``betweenline``
an arrow starting in a circle (or pill)                ``arrow``: circle cells in reading
                                                       order, the shaft after
an arrow from outside the grid along a diagonal,       ``littlekillersum``
with a number in the cell it starts in
a small white / black circle on an edge                ``difference`` / ``ratio`` (its text
                                                       is the value)
``X`` or ``V`` on an edge                              ``xv``
``<``, ``>``, ``^``, ``v`` on an edge                  a two-cell ``thermometer`` from the
                                                       lower cell (the sign points at it)
a circle on an inner corner with digits in it          ``quadruple``
four 3x3 shapes on the windoku boxes (9x9)             ``extraregion`` (four)
=====================================================  =====================================

What is left is cosmetic (a note: coloured cells, text inside a cell, shapes and lines outside
the grid) or may carry a rule satdoku cannot tell (a problem: any other line or arrow, a shape
in the grid, a text on an edge, corner or outside the grid).
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .scl import SclReader

__all__ = ["Drawing"]

_INEQUALITY = {"<": (0, 1), ">": (1, 0), "^": (0, 1), "v": (1, 0)}   # (lower, higher) cell
_TOLERANCE = 0.06


def near(x: float, y: float) -> bool:
    """Whether two coordinates are the same point of the drawing (within rounding)."""
    return abs(x - y) <= _TOLERANCE


def colour(value: Any) -> str | None:
    """``#rrggbb`` in lower case; None for none, transparent or not a colour.

    >>> colour("#FFF"), colour("#a1a1a1cc"), colour("#00000000"), colour("none")
    ('#ffffff', '#a1a1a1', None, None)
    """
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    v = {"white": "#ffffff", "black": "#000000"}.get(v, v)
    if re.fullmatch(r"#[0-9a-f]{3,4}", v):
        if len(v) == 5 and v[4] == "0":
            return None
        return "#" + "".join(ch * 2 for ch in v[1:4])
    if re.fullmatch(r"#[0-9a-f]{6}(?:[0-9a-f]{2})?", v):
        return None if v[7:] == "00" else v[:7]
    return None


class Drawing:
    """The drawn items of one SCL puzzle, read into its reader's f-puzzles object."""

    def __init__(self, reader: "SclReader") -> None:
        self.n, self.fp, self.used = reader.n, reader.fp, reader.used
        self.note, self.problem, self.error = reader.note, reader.problem, reader.error
        self.items, self.point, self.inside = reader.items, reader.point, reader.inside
        self.name = reader.name

    def read(self) -> None:
        shapes = self.shapes()
        self.lines(shapes)
        self.arrows(shapes)
        self.marks(shapes)

    def where_is(self, r: float, c: float) -> str:
        """A point in words: ``r3c4`` (a centre), ``r3c4|r3c5`` (an edge), else ``[r, c]``."""
        fr, fc = r - math.floor(r), c - math.floor(c)
        if near(fr, 0.5) and near(fc, 0.5):
            return self.name(math.floor(r), math.floor(c))
        rr, rc = round(r), round(c)
        if near(fr, 0.5) and near(c, rc):
            return f"{self.name(math.floor(r), rc - 1)}|{self.name(math.floor(r), rc)}"
        if near(fc, 0.5) and near(r, rr):
            return f"{self.name(rr - 1, math.floor(c))}|{self.name(rr, math.floor(c))}"
        return f"[{r:g}, {c:g}]"

    # Lines and arrows.

    def points(self, value: Any, what: str) -> list[tuple[float, float]]:
        """The way points of a line or an arrow."""
        if not isinstance(value, list) or len(value) < 2:
            raise self.error(f"{what}: it needs 2 or more way points")
        return [self.point(point, what) for point in value]

    def path(self, points: Any, what: str) -> list[tuple[int, int]] | None:
        """The cells a line runs through, centre to centre; None if it is not such a line."""
        out: list[tuple[int, int]] = []
        for r, c in self.points(points, what):
            fr, fc = r - math.floor(r), c - math.floor(c)
            if min(fr, fc, 1 - fr, 1 - fc) < 0.05:
                return None   # on a grid line, not in a cell
            cell = (math.floor(r), math.floor(c))
            if out and cell != out[-1]:
                dr, dc = cell[0] - out[-1][0], cell[1] - out[-1][1]
                if dr and dc and abs(dr) != abs(dc):
                    return None
                steps = max(abs(dr), abs(dc))
                out.extend((out[-1][0] + dr * k // steps, out[-1][1] + dc * k // steps)
                           for k in range(1, steps))
            if not out or cell != out[-1]:
                out.append(cell)
        return out

    def shapes(self) -> list[dict]:
        out = []
        for layer in ("underlays", "overlays"):
            for i, shape in enumerate(self.items(layer), 1):
                r, c = self.point(shape.get("center"), f"SudokuPad {layer[:-1]} #{i}")
                w, h = shape.get("width", 0), shape.get("height", 0)
                if not all(isinstance(x, (int, float)) for x in (w, h)):
                    raise self.error(f"SudokuPad {layer[:-1]} #{i}: width and height should "
                                     "be numbers")
                text = shape.get("text")
                out.append({"r": r, "c": c, "w": float(w), "h": float(h),
                            "round": bool(shape.get("rounded")),
                            "fill": colour(shape.get("backgroundColor")),
                            "border": colour(shape.get("borderColor")),
                            "text": "" if text is None else str(text).strip()})
        return out

    def circle_cells(self, s: dict) -> list[tuple[int, int]]:
        """The cells a circle (or pill) covers: those whose centre lies inside it."""
        return [(r, c) for r in range(self.n) for c in range(self.n)
                if abs(r + 0.5 - s["r"]) <= s["h"] / 2 and abs(c + 0.5 - s["c"]) <= s["w"] / 2]

    def is_circle(self, s: dict, low: float = 0.5, high: float = 0.95) -> bool:
        return s["round"] and not s["text"] and low <= s["w"] <= high and near(s["w"], s["h"])

    def at_centre(self, s: dict) -> tuple[int, int] | None:
        r, c = s["r"] - 0.5, s["c"] - 0.5
        if near(r, round(r)) and near(c, round(c)) and self.inside(round(r), round(c)):
            return round(r), round(c)
        return None

    def lines(self, shapes: list[dict]) -> None:
        lines = self.items("lines")
        n = self.n
        paths = {id(line): self.path(line.get("wayPoints"), f"SudokuPad line #{i}")
                 for i, line in enumerate(lines, 1)}
        for line in lines:   # diagonals, corner to corner
            ends = [tuple(p) for p in (line["wayPoints"][0], line["wayPoints"][-1])]
            if len(line["wayPoints"]) == 2 and sorted(ends) in ([(0, 0), (n, n)],
                                                               [(0, n), (n, 0)]):
                self.fp["diagonal-" if (0, 0) in ends else "diagonal+"] = True
                self.used.add(id(line))
        self.thermometers(lines, paths, shapes)
        for line in lines:   # between lines: a circle at each end, not filled
            path = paths[id(line)]
            if id(line) in self.used or not path or len(path) < 2:
                continue
            circles = [self.free_circle(shapes, cell) for cell in (path[0], path[-1])]
            if all(circles):
                self.used.update(map(id, [line] + circles))
                self.fp.setdefault("betweenline", []).append(
                    {"lines": [[self.name(r, c, True) for r, c in path]]})
        for line in lines:
            if id(line) not in self.used:
                self.leftover_line(line, paths[id(line)])

    def free_circle(self, shapes: list[dict], cell: tuple[int, int]) -> dict | None:
        for s in shapes:
            if id(s) not in self.used and self.is_circle(s) and self.at_centre(s) == cell \
                    and s["fill"] in (None, "#ffffff"):
                return s
        return None

    def thermometers(self, lines: list[dict], paths: dict, shapes: list[dict]) -> None:
        """Thick lines reached from a filled circle of their colour (the bulb): each path from
        a bulb to a tip is a thermometer (a branching one is several).

        Circles alike (same size and fill) are bulbs only if every one of them sits on such a
        line: grey circles that also stand alone mark cells (odd cells, say), and the one that
        happens to end a grey line (a palindrome) is no bulb."""
        edges: dict[tuple, set] = {}
        for line in lines:
            path, tint = paths[id(line)], colour(line.get("color"))
            if id(line) in self.used or not path or not tint or \
                    not isinstance(line.get("thickness"), (int, float)) or line["thickness"] < 4:
                continue
            for a, b in zip(path, path[1:]):
                edges.setdefault((a, tint), set()).add(b)
                edges.setdefault((b, tint), set()).add(a)
        families: dict[tuple, list] = {}
        for s in shapes:
            cell = self.at_centre(s)
            if cell and self.is_circle(s, 0.6) and s["fill"]:
                families.setdefault((round(s["w"], 2), s["fill"]), []).append((cell, s))
        bulbs = [(cell, s) for family in families.values()
                 if all((cell, s["fill"]) in edges for cell, s in family) for cell, s in family]
        oriented: set[tuple] = set()
        for cell, bulb in bulbs:
            tint = bulb["fill"]
            self.used.add(id(bulb))
            tips, stack, seen = [], [(cell, [cell])], {cell}
            while stack:
                here, trail = stack.pop()
                nexts = [x for x in sorted(edges.get((here, tint), ())) if x not in seen]
                if not nexts:
                    tips.append(trail)
                for x in nexts:
                    seen.add(x)
                    oriented.add((here, x, tint))
                    stack.append((x, trail + [x]))
            for trail in sorted(tips):
                self.fp.setdefault("thermometer", []).append(
                    {"lines": [[self.name(r, c, True) for r, c in trail]]})
        for line in lines:
            path, tint = paths[id(line)], colour(line.get("color"))
            if path and len(path) > 1 and all(
                    (a, b, tint) in oriented or (b, a, tint) in oriented
                    for a, b in zip(path, path[1:])):
                self.used.add(id(line))

    def leftover_line(self, line: dict, path: list | None) -> None:
        ends = sorted({self.name(*path[0]), self.name(*path[-1])}) if path else ["on grid lines"]
        desc = "-".join(ends) + f" {line.get('color', '')}".rstrip()
        if path and not any(self.inside(*cell) for cell in path):
            self.note("lines outside the grid", desc)
        else:
            self.problem("lines whose rule only the rules text gives (palindrome, renban, "
                         "whispers, ...?)", desc)

    def arrows(self, shapes: list[dict]) -> None:
        for i, arrow in enumerate(self.items("arrows"), 1):
            what = f"SudokuPad arrow #{i}"
            points = self.points(arrow.get("wayPoints"), what)
            r, c = points[0]
            if not self.inside(math.floor(r), math.floor(c)):
                self.little_killer(points, shapes, what)
                continue
            path = self.path(arrow["wayPoints"], what) or []
            circle = next((s for s in shapes if s["round"] and not s["text"]
                           and s["w"] >= 0.5 and path and path[0] in self.circle_cells(s)),
                          None)
            shaft = [cell for cell in path if circle is None
                     or cell not in self.circle_cells(circle)]
            if circle is None or not shaft:
                self.problem("arrows without a circle", f"{what} at {self.where_is(r, c)}")
                continue
            self.used.add(id(circle))
            self.fp.setdefault("arrow", []).append(
                {"cells": [self.name(*x, True) for x in sorted(self.circle_cells(circle))],
                 "lines": [[self.name(*x, True) for x in [path[0]] + shaft]]})

    def little_killer(self, points: list, shapes: list[dict], what: str) -> None:
        (r0, c0), (r1, c1) = points[:2]
        dr, dc = r1 - r0, c1 - c0
        clue = (math.floor(r0), math.floor(c0))
        number = next((s for s in shapes if s["text"].isdigit() and id(s) not in self.used
                       and (math.floor(s["r"]), math.floor(s["c"])) == clue), None)
        if number is None or not near(abs(dr), abs(dc)) or near(dr, 0):
            self.problem("arrows outside the grid", f"{what} at {self.where_is(r0, c0)}")
            return
        self.used.add(id(number))
        self.fp.setdefault("littlekillersum", []).append(
            {"cell": self.name(*clue, True), "value": number["text"],
             "direction": ("D" if dr > 0 else "U") + ("R" if dc > 0 else "L")})

    # Shapes: dots, X and V, inequality signs, quadruples, windoku.

    def marks(self, shapes: list[dict]) -> None:
        n = self.n
        windoku = [s for s in shapes if n == 9 and near(s["w"], 3) and near(s["h"], 3)
                   and (s["r"], s["c"]) in ((2.5, 2.5), (2.5, 6.5), (6.5, 2.5), (6.5, 6.5))]
        if len(windoku) == 4:
            self.used.update(map(id, windoku))
            for s in windoku:
                top, left = int(s["r"] - 1.5), int(s["c"] - 1.5)
                self.fp.setdefault("extraregion", []).append({"cells": [
                    self.name(top + i // 3, left + i % 3, True) for i in range(9)]})
        for s in shapes:
            if id(s) in self.used:
                continue
            if self.edge_mark(s) or self.quadruple(s):
                self.used.add(id(s))
            else:
                self.leftover_shape(s)

    def edge_mark(self, s: dict) -> bool:
        """A kropki dot, an X or V, or an inequality sign on an edge: read into ``fp``."""
        cells = self.edge(s["r"], s["c"])
        if cells is None:
            return False
        pair = [self.name(*cell, True) for cell in cells]
        side_by_side = cells[0][0] == cells[1][0]
        text = s["text"]
        if text.upper() in ("X", "V"):
            self.fp.setdefault("xv", []).append({"cells": pair, "value": text.upper()})
        elif text in _INEQUALITY and (text in "<>") == side_by_side:
            low, high = _INEQUALITY[text]
            self.fp.setdefault("thermometer", []).append({"lines": [[pair[low], pair[high]]]})
        elif s["round"] and s["w"] <= 0.45 and (not text or text.isdigit()) \
                and s["fill"] in ("#ffffff", "#000000"):
            key = "difference" if s["fill"] == "#ffffff" else "ratio"
            self.fp.setdefault(key, []).append({"cells": pair, "value": text})
        else:
            return False
        return True

    def quadruple(self, s: dict) -> bool:
        """A circle with digits on an inner corner: read into ``fp``."""
        corner = self.corner(s)
        if not (s["round"] and corner and re.fullmatch(r"[\d\s]+", s["text"])):
            return False
        digits = s["text"].split()
        digits = list(digits[0]) if len(digits) == 1 and self.n <= 9 else digits
        self.fp.setdefault("quadruple", []).append({"cells": corner,
                                                    "values": [int(d) for d in digits]})
        return True

    def edge(self, r: float, c: float) -> list[tuple[int, int]] | None:
        """The two cells either side of an edge point inside the grid (first the upper or
        the left one)."""
        fr, fc = r - math.floor(r), c - math.floor(c)
        if near(fr, 0.5) and near(c, round(c)):
            cells = [(math.floor(r), round(c) - 1), (math.floor(r), round(c))]
        elif near(fc, 0.5) and near(r, round(r)):
            cells = [(round(r) - 1, math.floor(c)), (round(r), math.floor(c))]
        else:
            return None
        return cells if all(self.inside(*x) for x in cells) else None

    def corner(self, s: dict) -> list[str] | None:
        r, c = round(s["r"]), round(s["c"])
        if near(s["r"], r) and near(s["c"], c) and 0 < r < self.n and 0 < c < self.n:
            return [self.name(r - 1 + i // 2, c - 1 + i % 2, True) for i in range(4)]
        return None

    def leftover_shape(self, s: dict) -> None:
        at = self.where_is(s["r"], s["c"])
        top, left = s["r"] - s["h"] / 2, s["c"] - s["w"] / 2
        bottom, right = s["r"] + s["h"] / 2, s["c"] + s["w"] / 2
        outside = bottom <= 0 or right <= 0 or top >= self.n or left >= self.n
        if s["text"]:
            if self.at_centre(s) and len(s["text"]) <= 12:
                self.note("texts in cells", f"{at} {s['text']!r}")
            else:
                self.problem("clues outside the grid" if outside else "texts in the grid "
                             "off the cell centres", f"{at} {s['text']!r}")
        elif outside:
            self.note("shapes outside the grid", at)
        elif not s["round"] and s["w"] >= 0.9 and s["h"] >= 0.9 and all(
                near(x, round(x)) for x in (top, left, bottom, right)):
            self.note("coloured cells", at)
        else:
            kind = "circle" if s["round"] else "square"
            self.problem("shapes in the grid whose rule only the rules text gives",
                         f"{kind} {at} {s['fill'] or s['border'] or ''}".rstrip())
