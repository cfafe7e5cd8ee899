"""SudokuPad's puzzle JSON (SCL): reading its drawing as rules, through the f-puzzles importer.

An SCL puzzle is mostly a drawing: ``cells`` (rows of cells, a ``value`` is a given),
``regions`` (lists of ``[row, col]``, 0-based), ``cages`` (cells and a ``value``; a cage
without cells and with a value ``"title: ..."`` is metadata), ``lines`` and ``arrows`` (way
points), ``overlays`` and ``underlays`` (shapes: a ``center``, ``width``, ``height``,
``rounded``, colours, ``text``), an optional ``global`` list (``antiknight``, ...) and
``metadata`` (title, author, rules, solution). The rules themselves are in the rules text.

Glossary:

- point: ``[row, col]`` with the grid's top left corner at ``[0, 0]`` and one unit a cell, so
  the centre of cell ``r1c1`` is ``[0.5, 0.5]``. A point is at a *centre*, on an *edge* (one
  coordinate whole, the other a half) or at a *corner* (both whole).
- reading: a drawn item that satdoku recognises as a rule by the conventions SudokuPad itself
  and its f-puzzles importer use (a thermometer is a line with a filled circle of its colour at
  one end; a kropki dot a small white or black circle on an edge; ...). Each reading becomes an
  entry of an f-puzzles object, which :func:`satdoku.io.fpuzzles.convert_fpuzzles` turns into
  the document: one mapping to satdoku's rule types, shared with the f-puzzles importer.
- note: a cosmetic item (coloured cells, text in a cell, pencil marks, fog of war), ignored
  and named in the warnings.
- problem: an item that may carry a rule satdoku cannot state (a plain line, whose meaning only
  the rules text gives; a circle in a cell; a clue outside the grid; a background image; a
  rule the rules text names but the drawing does not state). Problems refuse the puzzle unless
  ``ignore_unknown``.
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import PuzzleError, Where
from ..fpuzzles import Conversion, convert_fpuzzles
from .drawing import Drawing

__all__ = ["convert_scl", "SclReader"]

#: Keys of an SCL puzzle that hold no rule, read or skipped on purpose.
_QUIET = {"id", "cellSize", "cells", "regions", "cages", "lines", "arrows", "overlays",
          "underlays", "global", "metadata", "settings", "videos", "duration", "title",
          "author", "rules", "solution", "source"}
_FOG = {"foglight": "fog of war (it hides the grid while solving)",
        "triggereffect": "fog of war triggers"}
_INDEXERS = {"fpRowIndexer": "rowindexer", "fpColumnIndexer": "columnindexer",
             "fpBoxIndexer": "boxindexer"}
_GLOBAL = {"antiknight": "antiknight", "antiking": "antiking",
           "nonconsecutive": "nonconsecutive", "disjoint": "disjointgroups"}


class SclReader:
    """One SCL puzzle read: its size, the f-puzzles object built, notes and problems."""

    def __init__(self, data: dict, where: Where) -> None:
        if not isinstance(data, dict):
            raise PuzzleError("a SudokuPad puzzle is a JSON object, not "
                              f"{type(data).__name__}", **where)
        self.data, self.where = data, where
        self.notes: dict[str, list[str]] = {}
        self.problems: dict[str, list[str]] = {}
        self.used: set[int] = set()      # id() of the drawn items read as rules
        self.n = self._size()
        self.fp: dict[str, Any] = {"size": self.n}

    # Messages and small readers.

    def error(self, message: str, cell: str | None = None) -> PuzzleError:
        return PuzzleError(message, cell=cell, **self.where)

    def note(self, kind: str, detail: str = "") -> None:
        self.notes.setdefault(kind, []).append(detail)

    def problem(self, kind: str, detail: str = "") -> None:
        self.problems.setdefault(kind, []).append(detail)

    def items(self, key: str) -> list[dict]:
        value = self.data.get(key) or []
        if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
            raise self.error(f"SudokuPad '{key}' should be a list of objects")
        return value

    def point(self, value: Any, what: str) -> tuple[float, float]:
        if not (isinstance(value, list) and len(value) == 2 and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
            raise self.error(f"{what}: {value!r} is not a point [row, col]")
        return float(value[0]), float(value[1])

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.n and 0 <= c < self.n

    @staticmethod
    def name(r: int, c: int, fpuzzles: bool = False) -> str:
        return f"R{r + 1}C{c + 1}" if fpuzzles else f"r{r + 1}c{c + 1}"

    # The grid.

    def _size(self) -> int:
        cells = self.data.get("cells")
        if not isinstance(cells, list) or not cells or not all(
                isinstance(row, list) for row in cells):
            raise self.error("SudokuPad puzzle without 'cells' (the rows of the grid)")
        rows, cols = len(cells), max(len(row) for row in cells)
        if rows != cols:
            raise self.error(f"a {rows}x{cols} SudokuPad grid: satdoku solves square grids")
        return rows

    def grid(self) -> None:
        n = self.n
        region = [[-1] * n for _ in range(n)]
        regions = self.data.get("regions")
        if isinstance(regions, list):
            regions = [cells for cells in regions if cells != []]
        if not isinstance(regions, list) or not regions:
            raise self.error("the SudokuPad puzzle has no regions (boxes); satdoku needs the "
                             f"grid cut into {n} regions of {n} cells")
        for i, cells in enumerate(regions):
            for r, c in self.cells(cells, f"SudokuPad region #{i + 1}"):
                if region[r][c] != -1:
                    raise self.error(f"SudokuPad regions #{region[r][c] + 1} and #{i + 1} "
                                     "both hold this cell", self.name(r, c))
                region[r][c] = i
        missing = [self.name(r, c) for r in range(n) for c in range(n) if region[r][c] == -1]
        if missing or len(regions) != n or any(len(cells) != n for cells in regions):
            raise self.error(f"the SudokuPad regions do not cut the grid into {n} regions "
                             f"of {n} cells ({len(regions)} regions of "
                             f"{'/'.join(sorted({str(len(x)) for x in regions}))} cells"
                             + (f"; {missing[0]} in none)" if missing else ")"))
        grid = []
        for r, row in enumerate(self.data["cells"]):
            out = []
            for c in range(n):
                cell = row[c] if c < len(row) and isinstance(row[c], dict) else {}
                entry: dict[str, Any] = {"region": region[r][c]}
                value = cell.get("value")
                if value not in (None, ""):
                    if isinstance(value, str) and value.strip().isdigit():
                        value = int(value)
                    if isinstance(value, int) and not isinstance(value, bool) \
                            and 1 <= value <= n:
                        entry.update(value=value, given=True)
                    else:
                        self.problem("givens that are not digits 1-N", f"{self.name(r, c)} "
                                     f"{value!r}")
                if cell.get("pencilMarks") or cell.get("centremarks"):
                    self.note("cells with pencil marks", self.name(r, c))
                out.append(entry)
            grid.append(out)
        self.fp["grid"] = grid

    def cells(self, cells: Any, what: str) -> list[tuple[int, int]]:
        if not isinstance(cells, list):
            raise self.error(f"{what}: the cells should be a list of [row, col]")
        out = []
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 2 and all(
                    isinstance(x, int) and not isinstance(x, bool) for x in cell)):
                raise self.error(f"{what}: {cell!r} is not a cell [row, col]")
            if not self.inside(*cell):
                raise self.error(f"{what}: [{cell[0]}, {cell[1]}] is outside the "
                                 f"{self.n}x{self.n} grid")
            out.append((cell[0], cell[1]))
        return out

    # Metadata, cages and global rules.

    def metadata(self) -> dict:
        meta: dict[str, Any] = {}
        for cage in self.items("cages"):
            match = re.match(r"([^: ]+):\s*([\s\S]+)", str(cage.get("value", "")))
            if not cage.get("cells") and match:
                meta.setdefault(match.group(1), match.group(2))
        extra = self.data.get("metadata")
        if isinstance(extra, dict):
            meta.update(extra)
        for key in ("title", "author"):
            if isinstance(meta.get(key), str) and meta[key].strip():
                self.fp[key] = meta[key].strip()
        solution = str(meta.get("solution", "")).strip()
        if len(solution) == self.n ** 2:
            self.fp["solution"] = [int(ch) if ch.isdigit() else 0 for ch in solution]
        if meta.get("bgimage"):
            self.problem("a background image", "the picture may draw rules that are not "
                         "in the data")
        for key in ("antiknight", "antiking"):
            if meta.get(key) is True:
                self.fp[key] = True
        return meta

    def cages(self) -> None:
        for i, cage in enumerate(self.items("cages"), 1):
            if not cage.get("cells"):
                continue
            what = f"SudokuPad cage #{i}"
            cells = self.cells(cage["cells"], what)
            names = [self.name(r, c, True) for r, c in cells]
            label = f"{self.name(*cells[0])}-{self.name(*cells[-1])}"
            style, kind = cage.get("style"), cage.get("type")
            if style == "extraregion":
                self.fp.setdefault("extraregion", []).append({"cells": names})
            elif kind == "disjoint":
                if "disjoint" not in (self.data.get("global") or []):
                    self.fp.setdefault("extraregion", []).append({"cells": names})
            elif style in _INDEXERS:
                self.fp.setdefault(_INDEXERS[style], []).append({"cells": names})
            elif cage.get("hidden"):
                self.note("hidden cages", label)
            elif style not in (None, "killer", "box") or kind not in (None, "killer"):
                self.problem("cages of a special style", f"{label} {style or kind}")
            elif cage.get("unique") is False:
                self.problem("cages whose digits may repeat", label)
            else:
                value = cage.get("value", cage.get("sum"))
                text = "" if value is None else str(value).strip()
                if text and not text.isdigit() and text != "?":
                    self.problem("cages whose value is not a total", f"{label} {text!r}")
                    continue
                self.fp.setdefault("killercage", []).append(
                    {"cells": names, "value": text if text.isdigit() else ""})

    def globals_(self) -> None:
        flags = self.data.get("global") or []
        if not isinstance(flags, list):
            raise self.error("SudokuPad 'global' should be a list of rule names")
        for flag in flags:
            if isinstance(flag, str) and flag in _GLOBAL:
                self.fp[_GLOBAL[flag]] = True
            elif isinstance(flag, str) and flag[4:] in ("ratio", "difference", "xv") \
                    and flag.startswith("anti"):
                self.fp.setdefault("negative", []).append(flag[4:])
            else:
                self.problem("global rules unknown to satdoku", repr(flag))

    # The whole puzzle.

    def rules_text(self, meta: dict) -> None:
        """Rules SudokuPad states only in words, when the drawing does not state them."""
        rules = meta.get("rules", "")
        text = " ".join(map(str, rules)) if isinstance(rules, list) else str(rules)
        checks = ((r"knight", "antiknight", "a knight's move rule"),
                  (r"king'?s?[- ]move|anti-?king", "antiking", "a king's move rule"),
                  (r"(?<!not )\ball\b[^.]{0,50}\b(dots|kropki|xv|x's|v's|xs|vs)\b[^.]{0,30}"
                   r"\b(given|shown|marked)", "negative", "'all ... are given' (a negative "
                   "rule)"))
        for pattern, key, words in checks:
            if re.search(pattern, text, re.IGNORECASE) and not self.fp.get(key) and not (
                    key == "negative" and self.fp.get("nonconsecutive")):
                self.problem("rules stated only in the rules text", words)

    def read(self) -> dict:
        for key, value in self.data.items():
            if key in _FOG and value:
                self.note(_FOG[key])
            elif key not in _QUIET and value not in (None, [], {}, "", False):
                self.problem("SudokuPad keys unknown to satdoku", repr(key))
        self.grid()
        meta = self.metadata()
        self.globals_()
        self.cages()
        Drawing(self).read()
        self.rules_text(meta)
        return self.fp


def _summary(kind: str, details: list[str], keep: int = 3) -> str:
    shown = [d for d in details if d][:keep]
    more = ", ..." if len([d for d in details if d]) > keep else ""
    count = f"{len(details)} " if len(details) > 1 else ""
    return f"{count}{kind}" + (f" ({', '.join(shown)}{more})" if shown else "")


def convert_scl(data: dict, source: str | None = None, *, ignore_unknown: bool = False,
                line: int | None = None, cite: str | None = None) -> Conversion:
    """The satdoku document of an SCL puzzle (see :func:`satdoku.io.sudokupad.convert_sudokupad`).

    >>> scl = {"cells": [[{"value": 1}, {}], [{}, {}]], "regions": [[[0, 0], [0, 1]],
    ...        [[1, 0], [1, 1]]], "underlays": [{"center": [0.5, 1.5], "width": 1,
    ...        "height": 1, "backgroundColor": "#ffa0a0"}]}
    >>> conversion = convert_scl(scl)
    >>> conversion.document["givens"], conversion.warnings
    ({'r1c1': 1}, ['ignored (cosmetic): coloured cells (r1c2)'])
    """
    where: Where = {"source": source, "line": line}
    reader = SclReader(data, where)
    fp = reader.read()
    conversion = convert_fpuzzles(fp, source, ignore_unknown=True, line=line, cite=cite)
    problems = [_summary(kind, details) for kind, details in reader.problems.items()]
    problems += conversion.warnings
    notes = ["ignored (cosmetic): " + _summary(kind, details)
             for kind, details in reader.notes.items()]
    if problems and not ignore_unknown:
        raise PuzzleError("satdoku cannot state " + "; ".join(problems) + " (with "
                          "--ignore-unknown it solves without them: a looser puzzle than the "
                          "one published)", **where)
    return Conversion(conversion.document, notes + problems, conversion.solution)
