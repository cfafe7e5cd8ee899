"""Importing f-puzzles puzzles: a link, its lz-string or its JSON -> a satdoku variant document.

f-puzzles (f-puzzles.com) stores a puzzle as a JSON object, compressed with lz-string into its
links (``https://f-puzzles.com/?load=N4IgzglgXg...``). This module reads any of the three forms
and returns a plain dict in the satdoku variant format (``docs/variants.md``), never the
constraint classes themselves.

Glossary:

- f-puzzles key: a top-level key of the f-puzzles JSON (``killercage``, ``diagonal+``, ...). Each
  maps to satdoku constraint types (:data:`MAPPING`), is metadata (:data:`METADATA`), is drawing
  only (:data:`COSMETIC`), or has no satdoku type yet (:data:`UNSUPPORTED`).
- problem: something in the puzzle satdoku cannot use: a cosmetic, an unknown or unsupported key,
  a clue without a number, digits entered while solving. Problems are never dropped silently:
  they refuse the puzzle with a :class:`~satdoku.errors.PuzzleError` listing them all, or, with
  ``ignore_unknown=True``, come back as warnings beside the document (the puzzle solved is then
  looser than the one published).
- f-puzzles cell: ``"R3C7"`` (1-based); outside clues sit on row or column 0 or N+1.

Semantics follow f-puzzles and SudokuSolver by Rangsk (the solver f-puzzles setters test with):
an arrow entry's ``lines`` all start at its circle and each line is its own arrow; a multi-cell
circle is read in the stored order; ``nonconsecutive`` forbids consecutive digits on every
orthogonal pair *without a kropki dot* (white or black), and the ``ratio`` negative likewise
forbids ratio 2; ``whispers`` differ by at least ceil(N/2). A negative kropki rule that satdoku
cannot state in one object is written exactly as two-cell ``german-whispers`` lines of difference
2 (|a - b| >= 2 is "not consecutive" for cells that share a row or column). Cosmetic copies
that the f-puzzles "new constraints" user script adds beside its constraints (``fromConstraint``)
are recognised as copies and skipped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator
from urllib.parse import unquote

from ..errors import PuzzleError
from ..model.geometry import default_box
from .lzstring import LZStringError, decompress_from_base64, decompress_from_uri
from .jsontext import loads as loads_json

__all__ = [
    "Conversion", "FPuzzlesItem", "MAPPING", "METADATA", "COSMETIC", "UNSUPPORTED",
    "decode_fpuzzles", "convert_fpuzzles", "from_fpuzzles", "read_fpuzzles_lines",
    "looks_like_fpuzzles", "format_document",
]

#: f-puzzles keys that describe the puzzle, not its rules; none of them becomes a constraint.
METADATA = {
    "size": "the grid size N",
    "grid": "givens (value with given: true) and irregular regions (region)",
    "title": "the puzzle's name (the document's name)",
    "author": "the setter (the document's author)",
    "ruleset": "the rules as prose (not carried: satdoku reads the rules from the constraints)",
    "solution": "the setter's solution (kept beside the document, see Conversion.solution)",
    "highlightConflicts": "an editor setting",
    "disabledlogic": "SudokuSolver's logic switches",
    "truecandidatesoptions": "SudokuSolver's display options",
}

#: f-puzzles keys that only draw; the rules text may give them a meaning satdoku cannot know.
COSMETIC = {
    "text": "text drawn on the grid",
    "line": "a line drawn on the grid",
    "rectangle": "a rectangle drawn on the grid",
    "circle": "a circle drawn on the grid",
    "cage": "a cage drawn on the grid (a killer cage is 'killercage')",
    "arrowhead": "an arrow head drawn on the grid",
}

#: Known f-puzzles keys (core, or SudokuSolver's extensions) with no satdoku constraint type yet.
UNSUPPORTED = {
    "rowindexer": "row indexer cells",
    "boxindexer": "box indexer cells",
    "modularline": "modular lines",
    "nabner": "nabner lines",
    "doublearrow": "double arrows",
    "sum": "sum dots",
}

_CELL = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)
_DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}
_XV = {"X": 10, "V": 5}


@dataclass
class Conversion:
    """A converted puzzle: the document, what was left out, and the setter's solution if given."""

    document: dict
    warnings: list[str] = field(default_factory=list)
    solution: list[int] | None = None   # the f-puzzles 'solution', row by row (0: not given)


@dataclass
class FPuzzlesItem:
    """One line of a file of f-puzzles items: its conversion, or the error that stopped it."""

    source: str
    line: int
    conversion: Conversion | None = None
    error: PuzzleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def document(self) -> dict | None:
        return self.conversion.document if self.conversion else None


# Reading the text: link, lz-string or JSON.


def looks_like_fpuzzles(text: str) -> bool:
    """Whether ``text`` is worth trying as an f-puzzles item (a cheap test, no decompression).

    True for links with ``load=`` or an ``fpuzzles`` puzzle id, for JSON objects, and for long
    strings in the lz-string alphabets that start as f-puzzles data does (``N4Ig``: the
    compressed ``{"``). A Sudoku one-liner (digits and dots) is never taken for one.

    >>> looks_like_fpuzzles("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5g")
    True
    >>> looks_like_fpuzzles("1.3..4.2.34.4.23"), looks_like_fpuzzles('{"size": 4}')
    (False, True)
    """
    t = text.strip()
    if t.startswith("{"):
        return True
    if re.search(r"(?:^|[?&])load=|fpuzzles[A-Za-z0-9%+/=$-]{8}", t):
        return True
    return bool(re.fullmatch(r"N4Ig[A-Za-z0-9+/=$-]{8,}", t))


def _payload(text: str, where: dict) -> str:
    """The lz-string part of a link (or the text itself when it is not a link)."""
    match = re.search(r"(?:^|[?&])load=([^&#]*)", text)
    if match:
        return match.group(1)
    match = re.search(r"fpuzzles([A-Za-z0-9%+/=$-]+)", text)
    if match and ("://" in text or "?" in text or "/" in text.split("fpuzzles")[0]):
        return match.group(1)
    if re.search(r"(?:^|[?&])id=", text):
        raise PuzzleError("a short f-puzzles link (?id=...) names a puzzle stored on the "
                          "f-puzzles server, which satdoku cannot reach: open it and use its "
                          "full link (?load=...)", **where)
    if "://" in text:
        raise PuzzleError("a link without a puzzle: f-puzzles links carry it after 'load='",
                          **where)
    return text


def decode_fpuzzles(text: str, source: str | None = None, line: int | None = None) -> dict:
    """The f-puzzles JSON object in ``text``: a link, the lz-string of a link, or the JSON itself.

    Links may have other parameters and percent-encoding; a ``+`` turned into a space is put
    back. Both lz-string alphabets are read (base64, as f-puzzles writes, and the URI-safe one).

    >>> decode_fpuzzles("N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9liBdMooA==")
    {'size': 9, 'grid': [[{}, {}]]}
    >>> decode_fpuzzles("f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9liBdMooA%3D%3D&x=1")
    {'size': 9, 'grid': [[{}, {}]]}
    """
    where = {"source": source, "line": line}
    t = text.strip()
    if not t:
        raise PuzzleError("empty: no f-puzzles link, string or JSON", **where)
    if t.startswith("{"):
        raw, what = t, "JSON"
    else:
        payload = unquote(_payload(t, where)).strip().replace(" ", "+")
        if not payload:
            raise PuzzleError("the f-puzzles link has an empty 'load='", **where)
        raw, what = _decompress(payload, where), "decompressed f-puzzles data"
    try:
        data = loads_json(raw)
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"bad {what}: {exc.msg} at line {exc.lineno} column {exc.colno}",
                          **where) from None
    if not isinstance(data, dict):
        raise PuzzleError(f"bad {what}: an f-puzzles puzzle is a JSON object, not "
                          f"{type(data).__name__}", **where)
    return data


def _decompress(payload: str, where: dict) -> str:
    uri_only = set("-$") & set(payload)
    try:
        if uri_only:
            return decompress_from_uri(payload)
        return decompress_from_base64(payload)
    except LZStringError as exc:
        if not uri_only and "/" not in payload and "=" not in payload:
            try:
                return decompress_from_uri(payload)
            except LZStringError:
                pass
        raise PuzzleError(f"not an f-puzzles string ({exc})", **where) from None


# Converting the JSON.


class _Converter:
    """One conversion: the f-puzzles data, its size, and the document being built."""

    def __init__(self, data: dict, where: dict) -> None:
        self.data = data
        self.where = where
        self.problems: list[str] = []   # what satdoku cannot use, all listed in one error
        self.constraints: list[dict] = []
        self.size = self._size()

    # Errors and small readers.

    def error(self, message: str, cell: str | None = None) -> PuzzleError:
        return PuzzleError(message, cell=cell, **self.where)

    def problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    def entries(self, key: str) -> list:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(f"f-puzzles '{key}' should be a list, not {type(value).__name__}")
        for i, entry in enumerate(value, 1):
            if not isinstance(entry, dict):
                raise self.error(f"f-puzzles '{key}' #{i} should be an object, not "
                                 f"{type(entry).__name__}")
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.error(f"f-puzzles '{key}' should be true or false, not {value!r}")
        return value

    def rc(self, name: Any, what: str, *, outside: bool = False) -> tuple[int, int]:
        """(row, column), 1-based, of an f-puzzles cell name; ``outside`` allows 0 and N+1."""
        n = self.size
        match = _CELL.fullmatch(name) if isinstance(name, str) else None
        if match is None:
            raise self.error(f"{what}: {name!r} is not an f-puzzles cell name like 'R3C7'")
        r, c = int(match.group(1)), int(match.group(2))
        low, high = (0, n + 1) if outside else (1, n)
        if not (low <= r <= high and low <= c <= high):
            place = "around" if outside else "inside"
            raise self.error(f"{what}: {name} is not {place} the {n}x{n} grid")
        return r, c

    def cell(self, name: Any, what: str) -> str:
        r, c = self.rc(name, what)
        return f"r{r}c{c}"

    def cells(self, names: Any, what: str, *, minimum: int = 1, distinct: bool = True) -> list[str]:
        if not isinstance(names, list):
            raise self.error(f"{what}: the cells should be a list, not {type(names).__name__}")
        out = [self.cell(name, what) for name in names]
        if len(out) < minimum:
            raise self.error(f"{what}: {len(out)} cell(s); it needs at least {minimum}")
        if distinct:
            seen = set()
            for name in out:
                if name in seen:
                    raise self.error(f"{what}: {name} appears twice", cell=name)
                seen.add(name)
        return out

    def number(self, value: Any, what: str) -> int | None:
        """A clue's number: an int, a numeric string, or None when blank."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, bool):
            raise self.error(f"{what}: {value!r} is not a number")
        if isinstance(value, int) and value >= 0:
            return value
        if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
            return int(value)
        raise self.error(f"{what}: {value!r} is not a whole number")

    def add(self, constraint: dict) -> None:
        self.constraints.append(constraint)

    # Size, grid, regions.

    def _size(self) -> int:
        size = self.data.get("size")
        grid = self.data.get("grid")
        if size is None:
            if not isinstance(grid, list) or not grid:
                raise self.error("f-puzzles data without 'size' or 'grid'")
            size = len(grid)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 99:
            raise self.error(f"f-puzzles 'size' {size!r} is not a grid size (1 to 99)")
        return size

    def grid(self) -> tuple[dict, list[list[int]]]:
        """Givens (cell name -> digit) and the region index of every cell, row by row."""
        n = self.size
        grid = self.data.get("grid")
        if grid is None:
            grid = [[{} for _ in range(n)] for _ in range(n)]
        if not isinstance(grid, list) or len(grid) != n or any(
                not isinstance(row, list) or len(row) != n for row in grid):
            raise self.error(f"f-puzzles 'grid' should be {n} rows of {n} cells")
        box = _fpuzzles_box(n)
        givens: dict[str, int] = {}
        regions = [[(r // box[0]) * box[0] + c // box[1] for c in range(n)] for r in range(n)]
        progress = colours = pencil = 0
        for r, row in enumerate(grid):
            for c, entry in enumerate(row):
                name = f"r{r + 1}c{c + 1}"
                if not isinstance(entry, dict):
                    raise self.error("f-puzzles 'grid': a cell should be an object", cell=name)
                value = entry.get("value")
                if value not in (None, 0, ""):
                    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
                        raise self.error(f"f-puzzles 'grid': value {value!r} is not a digit "
                                         f"1-{n}", cell=name)
                    if entry.get("given"):
                        givens[name] = value
                    else:
                        progress += 1
                region = entry.get("region")
                if region is not None and region != -1:
                    if isinstance(region, bool) or not isinstance(region, int) \
                            or not 0 <= region < n:
                        raise self.error(f"f-puzzles 'grid': region {region!r} is not 0-{n - 1}",
                                         cell=name)
                    regions[r][c] = region
                if entry.get("c") or entry.get("highlight"):
                    colours += 1
                if entry.get("givenPencilMarks"):
                    self.problem(f"f-puzzles 'grid' {name}: given pencil marks (candidates "
                                 "given as clues) have no satdoku constraint type")
                if entry.get("centerPencilMarks") or entry.get("cornerPencilMarks"):
                    pencil += 1
                for key in entry:
                    if key not in _CELL_KEYS:
                        self.problem(f"f-puzzles 'grid' {name}: unknown cell key {key!r}")
        if progress:
            self.problem(f"f-puzzles 'grid': {progress} digit(s) without 'given' (a "
                         "solver's progress, not clues)")
        if colours:
            self.problem(f"f-puzzles 'grid': {colours} coloured cell(s) (cosmetic)")
        if pencil:
            self.problem(f"f-puzzles 'grid': pencil marks in {pencil} cell(s) (a solver's "
                         "notes, not clues)")
        counts = [0] * n
        for row in regions:
            for region in row:
                counts[region] += 1
        for region, count in enumerate(counts):
            if count != n:
                raise self.error(f"f-puzzles 'grid': region {region} has {count} cells, "
                                 f"a {n}x{n} grid needs {n} in each")
        return givens, regions

    # The constraint keys.

    def globals_(self) -> None:
        if self.flag("diagonal+"):
            self.add({"type": "diagonal", "direction": "+"})
        if self.flag("diagonal-"):
            self.add({"type": "diagonal", "direction": "-"})
        for key, kind in (("antiknight", "anti-knight"), ("antiking", "anti-king"),
                          ("disjointgroups", "disjoint-groups")):
            if self.flag(key):
                self.add({"type": kind})

    def kropki(self) -> None:
        """White and black dots, and the negative rules on the pairs without a dot."""
        dotted: set[frozenset[str]] = set()
        differences, ratios = set(), set()
        for key, kind, field_, default, values in (
                ("difference", "kropki-white", "difference", 1, differences),
                ("ratio", "kropki-black", "ratio", 2, ratios)):
            for i, entry in enumerate(self.entries(key), 1):
                what = f"f-puzzles '{key}' #{i}"
                pair = self.pair(entry.get("cells"), what)
                value = self.number(entry.get("value"), what)
                value = default if value is None else value
                if value < 1:
                    raise self.error(f"{what}: {value} cannot be a {field_}")
                self.add({"type": kind, "cells": pair, field_: value})
                dotted.add(frozenset(pair))
                values.add(value)
        negative = self.negatives()
        banned_differences = {1} if self.flag("nonconsecutive") else set()
        if "difference" in negative:
            banned_differences |= differences
        banned_ratios = ({2} | ratios) if "ratio" in negative else set()
        if banned_differences == {1} and banned_ratios == {2}:
            self.add({"type": "no-kropki"})
        elif banned_differences == {1} and not banned_ratios:
            if not dotted:
                self.add({"type": "non-consecutive"})
                return
            for pair in self.orthogonal_pairs():
                if frozenset(pair) not in dotted:
                    self.add({"type": "german-whispers", "cells": pair, "difference": 2,
                              "label": "f-puzzles nonconsecutive (no kropki dot here)"})
        elif banned_differences or banned_ratios:
            rules = [f"difference {d}" for d in sorted(banned_differences)]
            rules += [f"ratio {r}" for r in sorted(banned_ratios)]
            self.problem("f-puzzles negative kropki rule (no " + " or ".join(rules) +
                         " between cells without a dot): satdoku states only 'no-kropki' "
                         "(no difference 1 and no ratio 2) and 'non-consecutive'")

    def negatives(self) -> set[str]:
        negative = self.data.get("negative") or []
        if not isinstance(negative, list) or not all(isinstance(x, str) for x in negative):
            raise self.error(f"f-puzzles 'negative' should be a list of names, not {negative!r}")
        for name in negative:
            if name not in ("ratio", "difference", "xv"):
                self.problem(f"f-puzzles 'negative' {name!r}: no satdoku negative rule "
                             "for it")
        return set(negative)

    def orthogonal_pairs(self) -> Iterator[list[str]]:
        n = self.size
        for r in range(1, n + 1):
            for c in range(1, n + 1):
                if c < n:
                    yield [f"r{r}c{c}", f"r{r}c{c + 1}"]
                if r < n:
                    yield [f"r{r}c{c}", f"r{r + 1}c{c}"]

    def pair(self, names: Any, what: str) -> list[str]:
        pair = self.cells(names, what, minimum=2)
        if len(pair) != 2:
            raise self.error(f"{what}: {len(pair)} cells; a dot sits between 2")
        (r1, c1), (r2, c2) = (self.rc(n, what) for n in names)
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise self.error(f"{what}: {pair[0]} and {pair[1]} are not orthogonally adjacent")
        return pair

    def xv(self) -> None:
        for i, entry in enumerate(self.entries("xv"), 1):
            what = f"f-puzzles 'xv' #{i}"
            pair = self.pair(entry.get("cells"), what)
            letter = entry.get("value")
            if not isinstance(letter, str) or letter.strip().upper() not in _XV:
                if letter in (None, ""):
                    self.problem(f"{what}: an XV clue without its letter")
                    continue
                raise self.error(f"{what}: {letter!r} is neither X nor V")
            self.add({"type": "xv", "cells": pair, "sum": _XV[letter.strip().upper()]})
        if "xv" in self.negatives():
            self.add({"type": "no-xv"})

    def cages(self) -> None:
        for i, entry in enumerate(self.entries("killercage"), 1):
            what = f"f-puzzles 'killercage' #{i}"
            cells = self.cells(entry.get("cells"), what)
            self.add({"type": "killer", "cells": cells,
                      "sum": self.number(entry.get("value"), what)})
        for i, entry in enumerate(self.entries("extraregion"), 1):
            what = f"f-puzzles 'extraregion' #{i}"
            cells = self.cells(entry.get("cells"), what)
            if len(cells) == self.size:
                self.add({"type": "extra-region", "cells": cells})
            else:   # fewer cells than digits: no repeats, which is a killer cage without a total
                self.add({"type": "killer", "cells": cells, "sum": None,
                          "label": f"f-puzzles extra region of {len(cells)} cells"})

    def little_killers(self) -> None:
        n = self.size
        for i, entry in enumerate(self.entries("littlekillersum"), 1):
            what = f"f-puzzles 'littlekillersum' #{i}"
            r, c = self.rc(entry.get("cell"), what, outside=True)
            direction = entry.get("direction")
            if direction not in _DIRECTIONS:
                raise self.error(f"{what}: direction {direction!r} is not DR, DL, UR or UL")
            total = self.number(entry.get("value"), what)
            dr, dc = _DIRECTIONS[direction]
            cells = []
            r, c = r + dr, c + dc
            while 1 <= r <= n and 1 <= c <= n:
                cells.append(f"r{r}c{c}")
                r, c = r + dr, c + dc
            clue = entry["cell"].lower()
            if not cells:
                raise self.error(f"{what}: from {entry['cell']} going {direction} meets no cell")
            listed = entry.get("cells")
            if listed is not None and self.cells(listed, what) != cells:
                raise self.error(f"{what}: its cells {listed} are not the diagonal from "
                                 f"{entry['cell']} going {direction}")
            if not total:   # blank, or 0 (f-puzzles' placeholder)
                self.problem(f"{what}: a little killer arrow at {entry['cell']} without a "
                             "total")
                continue
            self.add({"type": "little-killer", "cells": cells, "sum": total, "clue": clue,
                      "direction": direction})

    def single_cells(self) -> None:
        for key, kind in (("odd", "odd"), ("even", "even")):
            names = [self.cell(entry.get("cell"), f"f-puzzles '{key}' #{i}")
                     for i, entry in enumerate(self.entries(key), 1)]
            if names:
                self.add({"type": kind, "cells": names})
        for key in ("minimum", "maximum"):
            names = [self.cell(entry.get("cell"), f"f-puzzles '{key}' #{i}")
                     for i, entry in enumerate(self.entries(key), 1)]
            marked = set(names)
            for name in names:
                # f-puzzles compares a cell only with neighbours that are not of its kind (a
                # fortress of adjacent maximum cells); satdoku's minimum/maximum compare with
                # every neighbour, so such a cell becomes 2-cell thermometers, one per neighbour.
                others = [x for x in self.neighbours(name) if x not in marked]
                if len(others) == len(self.neighbours(name)):
                    self.add({"type": key, "cells": [name]})
                    continue
                for other in others:
                    self.add({"type": "thermometer",
                              "cells": [other, name] if key == "maximum" else [name, other],
                              "label": f"f-puzzles {key} {name} (only neighbours that are not "
                                       f"{key} cells)"})

    def neighbours(self, name: str) -> list[str]:
        r, c = (int(x) for x in name[1:].split("c"))
        return [f"r{r + dr}c{c + dc}" for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if 1 <= r + dr <= self.size and 1 <= c + dc <= self.size]

    def lines(self, key: str, make: Callable[[list[str], str, dict], dict | None], *,
              minimum: int = 2, distinct: bool = True) -> None:
        """Each line of each entry of ``key``, in order, as ``make(cells, what, entry)``."""
        for i, entry in enumerate(self.entries(key), 1):
            lines = entry.get("lines")
            if not isinstance(lines, list) or not lines:
                raise self.error(f"f-puzzles '{key}' #{i}: no 'lines'")
            for j, line in enumerate(lines, 1):
                what = f"f-puzzles '{key}' #{i}" + (f" line {j}" if len(lines) > 1 else "")
                made = make(self.cells(line, what, minimum=minimum, distinct=distinct), what,
                            entry)
                if made is not None:
                    self.add(made)

    def line_keys(self) -> None:
        n = self.size
        whisper = (n + 1) // 2
        self.lines("thermometer", lambda cells, *_: {"type": "thermometer", "cells": cells})
        self.lines("slowthermometer",
                   lambda cells, *_: {"type": "slow-thermometer", "cells": cells})
        self.arrows()
        self.lines("palindrome", lambda cells, *_: {"type": "palindrome", "cells": cells},
                   distinct=False)
        self.lines("renban", lambda cells, *_: {"type": "renban", "cells": cells})
        def whispers(cells: list[str], what: str, entry: dict) -> dict | None:
            value = self.number(entry.get("value"), what)
            if value is not None and value != whisper:   # not f-puzzles' rule: leave it out
                self.problem(f"{what}: difference {value}; f-puzzles whispers differ by "
                             f"{whisper} on a {n}x{n} grid")
                return None
            return {"type": "german-whispers", "cells": cells, "difference": whisper}
        self.lines("whispers", whispers, distinct=False)
        self.lines("betweenline", lambda cells, *_: {"type": "between", "cells": cells})
        self.lines("regionsumline", lambda cells, *_: {"type": "region-sum", "cells": cells},
                   distinct=False)
        if n == 9:
            self.lines("entropicline", lambda cells, *_: {"type": "entropic", "cells": cells},
                       distinct=False)
        elif self.entries("entropicline"):
            self.problem(f"f-puzzles 'entropicline': entropic lines (low 1-3, middle 4-6, "
                         f"high 7-9) are defined for 9x9 grids, not {n}x{n}")
        self.lines("zipperline", lambda cells, *_: {"type": "zipper", "cells": cells},
                   distinct=False)

    def arrows(self) -> None:
        for i, entry in enumerate(self.entries("arrow"), 1):
            what = f"f-puzzles 'arrow' #{i}"
            circle = self.cells(entry.get("cells"), what)
            lines = entry.get("lines")
            if not isinstance(lines, list) or not lines:
                raise self.error(f"{what}: an arrow without a shaft ('lines')")
            for j, line in enumerate(lines, 1):
                where = what + (f" line {j}" if len(lines) > 1 else "")
                shaft = [name for name in self.cells(line, where) if name not in circle]
                if not shaft:
                    raise self.error(f"{where}: the arrow has no cell outside its circle")
                self.add({"type": "arrow", "circle": circle, "cells": shaft})

    def clones_and_quads(self) -> None:
        for i, entry in enumerate(self.entries("clone"), 1):
            what = f"f-puzzles 'clone' #{i}"
            cells = self.cells(entry.get("cells"), what)
            clone = self.cells(entry.get("cloneCells"), what + " cloneCells")
            if len(cells) != len(clone):
                raise self.error(f"{what}: {len(cells)} cells but {len(clone)} cloneCells")
            self.add({"type": "clone", "cells": cells, "clone": clone})
        for i, entry in enumerate(self.entries("quadruple"), 1):
            what = f"f-puzzles 'quadruple' #{i}"
            cells = self.cells(entry.get("cells"), what)
            rows = {int(name[1:name.index("c")]) for name in cells}
            cols = {int(name[name.index("c") + 1:]) for name in cells}
            if len(cells) != 4 or len(rows) != 2 or len(cols) != 2 or \
                    max(rows) - min(rows) != 1 or max(cols) - min(cols) != 1:
                raise self.error(f"{what}: {cells} are not the 4 cells around a corner")
            values = entry.get("values") or []
            if not isinstance(values, list):
                raise self.error(f"{what}: values {values!r} should be a list")
            digits = [self.number(v, what) for v in values]
            if not digits or len(digits) > 4 or any(
                    d is None or not 1 <= d <= self.size for d in digits):
                raise self.error(f"{what}: values {values!r} should be 1 to 4 digits "
                                 f"1-{self.size}")
            self.add({"type": "quadruple", "cells": cells, "digits": digits})

    def outside(self) -> None:
        """Sandwich, X-sum and skyscraper clues: a row or column read from one end."""
        n = self.size
        for key, kind, field_ in (("sandwichsum", "sandwich", "sum"),
                                  ("xsum", "x-sum", "sum"),
                                  ("skyscraper", "skyscraper", "count")):
            for i, entry in enumerate(self.entries(key), 1):
                what = f"f-puzzles '{key}' #{i}"
                r, c = self.rc(entry.get("cell"), what, outside=True)
                if (r in (0, n + 1)) == (c in (0, n + 1)):
                    raise self.error(f"{what}: {entry['cell']} is not beside one row or column")
                value = self.number(entry.get("value"), what)
                if value is None:
                    self.problem(f"{what}: a clue at {entry['cell']} without a number")
                    continue
                line = f"c{c}" if r in (0, n + 1) else f"r{r}"
                constraint = {"type": kind, "line": line}
                if kind != "sandwich":
                    constraint["from"] = "start" if 0 in (r, c) else "end"
                constraint[field_] = value
                self.add(constraint)

    def indexers(self) -> None:
        entries = self.entries("columnindexer")
        if not entries:
            return
        cells = set()
        for i, entry in enumerate(entries, 1):
            cells.update(self.cells(entry.get("cells"), f"f-puzzles 'columnindexer' #{i}"))
        n = self.size
        if n == 9 and cells == {f"r{r}c{c}" for r in range(1, 10) for c in (1, 5, 9)}:
            self.add({"type": "rule-159"})
        else:
            self.problem("f-puzzles 'columnindexer': column indexer cells other than "
                         "all of columns 1, 5 and 9 of a 9x9 grid (satdoku's 'rule-159')")

    def leftovers(self) -> None:
        """Cosmetic, unsupported and unknown keys, each named (copies of constraints skipped)."""
        for key, value in self.data.items():
            if key in METADATA or key in _HANDLED or value in (None, False, [], {}, ""):
                continue
            if key in COSMETIC:
                copies, own = self.cosmetic_copies(key)
                if own:
                    self.problem(f"f-puzzles '{key}' ({own} of them): {COSMETIC[key]}; "
                                 "cosmetic, satdoku cannot tell what the rules make of it")
            elif key in UNSUPPORTED:
                self.problem(f"f-puzzles '{key}' ({UNSUPPORTED[key]}): no satdoku "
                             "constraint type for it")
            else:
                self.problem(f"f-puzzles '{key}': unknown to satdoku")

    def cosmetic_copies(self, key: str) -> tuple[int, int]:
        """How many entries of a cosmetic key copy a present constraint, and how many do not."""
        entries = self.data[key] if isinstance(self.data[key], list) else [self.data[key]]
        copies = 0
        for entry in entries:
            origin = entry.get("fromConstraint") if isinstance(entry, dict) else None
            if isinstance(origin, str) and self.data.get(origin.lower().replace(" ", "")):
                copies += 1
        return copies, len(entries) - copies

    def solution(self) -> list[int] | None:
        solution = self.data.get("solution")
        if not isinstance(solution, list) or len(solution) != self.size ** 2:
            return None
        return [value if isinstance(value, int) and not isinstance(value, bool)
                and 1 <= value <= self.size else 0 for value in solution]

    def convert(self) -> dict:
        n = self.size
        givens, regions = self.grid()
        self.globals_()
        self.indexers()
        self.kropki()
        self.xv()
        self.cages()
        self.little_killers()
        self.single_cells()
        self.line_keys()
        self.clones_and_quads()
        self.outside()
        self.leftovers()
        document: dict[str, Any] = {"format": "satdoku-variant", "version": 1}
        for key, target in (("title", "name"), ("author", "author")):
            text = self.data.get(key)
            if isinstance(text, str) and text.strip():
                document[target] = text.strip()
        document["size"] = n
        box = default_box(n)
        standard = box is not None and regions == [
            [(r // box[0]) * (n // box[1]) + c // box[1] for c in range(n)] for r in range(n)]
        if standard:
            document["box"] = f"{box[0]}x{box[1]}"
        else:
            cells: list[list[str]] = [[] for _ in range(n)]
            for r in range(n):
                for c in range(n):
                    cells[regions[r][c]].append(f"r{r + 1}c{c + 1}")
            document["regions"] = cells
        document["givens"] = givens
        document["constraints"] = self.constraints
        return document


_CELL_KEYS = {"value", "given", "region", "c", "highlight", "centerPencilMarks",
              "cornerPencilMarks", "givenPencilMarks"}

#: f-puzzles key -> (satdoku types, what it becomes); the table of docs/variants.md.
MAPPING: dict[str, tuple[str, str]] = {
    "grid value + given": ("givens", "the givens"),
    "grid region": ("regions", "irregular regions (boxes when they are the usual ones)"),
    "diagonal+": ("diagonal", "direction '+' (bottom left to top right)"),
    "diagonal-": ("diagonal", "direction '-' (top left to bottom right)"),
    "antiknight": ("anti-knight", ""),
    "antiking": ("anti-king", ""),
    "disjointgroups": ("disjoint-groups", ""),
    "nonconsecutive": ("non-consecutive, no-kropki, german-whispers",
                       "non-consecutive without dots; with negative 'ratio': no-kropki; with "
                       "dots but no negative 'ratio': a 2-cell german-whispers of difference 2 "
                       "on every pair without a dot"),
    "negative": ("no-kropki, no-xv", "'ratio' (with nonconsecutive) and 'xv'"),
    "difference": ("kropki-white", "difference = value, default 1"),
    "ratio": ("kropki-black", "ratio = value, default 2"),
    "xv": ("xv", "X: sum 10, V: sum 5"),
    "killercage": ("killer", "sum = value, null without one"),
    "extraregion": ("extra-region, killer", "N cells: extra-region; fewer: killer, no sum"),
    "littlekillersum": ("little-killer", "the diagonal from the clue cell in its direction"),
    "odd": ("odd", "all cells in one constraint"),
    "even": ("even", "all cells in one constraint"),
    "minimum": ("minimum, thermometer", "one per cell; a cell next to another minimum cell: "
                "2-cell thermometers from it to each other neighbour"),
    "maximum": ("maximum, thermometer", "one per cell; a cell next to another maximum cell: "
                "2-cell thermometers from each other neighbour to it"),
    "thermometer": ("thermometer", "one per line, bulb first"),
    "slowthermometer": ("slow-thermometer", "one per line (SudokuSolver's key)"),
    "arrow": ("arrow", "one per line: circle = cells, shaft = the line without the circle"),
    "palindrome": ("palindrome", "one per line"),
    "renban": ("renban", "one per line"),
    "whispers": ("german-whispers", "one per line, difference ceil(N/2)"),
    "betweenline": ("between", "one per line"),
    "regionsumline": ("region-sum", "one per line"),
    "entropicline": ("entropic", "one per line (9x9 only)"),
    "zipperline": ("zipper", "one per line (SudokuSolver's key)"),
    "clone": ("clone", "cells and cloneCells"),
    "quadruple": ("quadruple", "digits = values"),
    "sandwichsum": ("sandwich", "R0Cc/R(N+1)Cc: column c; RrC0/RrC(N+1): row r"),
    "xsum": ("x-sum", "from 'start' (row/column 0) or 'end' (N+1)"),
    "skyscraper": ("skyscraper", "from 'start' (row/column 0) or 'end' (N+1)"),
    "columnindexer": ("rule-159", "only all of columns 1, 5 and 9 of a 9x9 grid"),
}

_HANDLED = {key for key in MAPPING if " " not in key}


# Public entry points.


def convert_fpuzzles(text: str | dict, source: str | None = None, *, ignore_unknown: bool = False,
                     line: int | None = None, cite: str | None = None) -> Conversion:
    """Convert an f-puzzles link, lz-string, JSON text or already parsed JSON object.

    Args:
        text: what the user gave (see :func:`decode_fpuzzles`), or the decoded dict.
        source: where it came from, for error messages (a file name, ``<arg>``).
        ignore_unknown: turn what satdoku cannot use into ``warnings`` instead of refusing.
        line: the line of ``source``, for error messages.
        cite: a citation for the document's ``source`` field (the setter, where it was
            published, a URL). The link itself is not copied there: it can be kilobytes long.

    Returns:
        A :class:`Conversion`; its ``document`` is a satdoku variant document (a dict).

    Raises:
        PuzzleError: bad link, base64 or JSON, bad cell names or values (always), and, without
            ``ignore_unknown``, everything satdoku cannot use, all named in one message.

    >>> data = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
    ...         "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}], "text": [{}]}
    >>> conversion = convert_fpuzzles(data, ignore_unknown=True)
    >>> conversion.document["givens"], conversion.document["constraints"]
    ({'r1c1': 1}, [{'type': 'killer', 'cells': ['r1c1', 'r1c2'], 'sum': 3}])
    >>> conversion.warnings   # doctest: +NORMALIZE_WHITESPACE
    ["f-puzzles 'text' (1 of them): text drawn on the grid; cosmetic,
      satdoku cannot tell what the rules make of it"]
    """
    where = {"source": source, "line": line}
    data = text if isinstance(text, dict) else decode_fpuzzles(text, source, line)
    converter = _Converter(data, where)
    document = converter.convert()
    if cite:
        document = _with_source(document, cite)
    warnings = converter.problems
    if warnings and not ignore_unknown:
        raise PuzzleError("satdoku cannot use " + "; ".join(warnings) +
                          " (ignoring them solves a looser puzzle than the one published)",
                          **where)
    return Conversion(document, list(warnings), converter.solution())


def from_fpuzzles(text: str | dict, source: str | None = None, *,
                  ignore_unknown: bool = False, line: int | None = None,
                  cite: str | None = None) -> dict:
    """The satdoku variant document of an f-puzzles link, lz-string or JSON.

    The same as ``convert_fpuzzles(...).document``; use :func:`convert_fpuzzles` to get the
    warnings that ``ignore_unknown=True`` collects.

    >>> doc = from_fpuzzles('{"size": 9, "antiknight": true, "diagonal-": true}')
    >>> doc["box"], doc["givens"], doc["constraints"]
    ('3x3', {}, [{'type': 'diagonal', 'direction': '-'}, {'type': 'anti-knight'}])
    >>> from_fpuzzles('{"size": 9, "killercage": [{"cells": ["R1C1", "R0C2"]}]}', "p.txt")
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: p.txt: f-puzzles 'killercage' #1: R0C2 is not inside the 9x9 grid
    """
    return convert_fpuzzles(text, source, ignore_unknown=ignore_unknown, line=line,
                            cite=cite).document


def read_fpuzzles_lines(lines: Iterable[str], source: str = "<stdin>", *,
                        ignore_unknown: bool = False) -> Iterator[FPuzzlesItem]:
    """One :class:`FPuzzlesItem` per f-puzzles item in ``lines`` (links, strings or JSON).

    Blank lines and ``#`` comments are skipped, except ``# source: TEXT``, which cites the
    next item (its document's ``source``). A bad line gives an item carrying its located error,
    and reading goes on with the next line.

    >>> items = list(read_fpuzzles_lines(['# two puzzles', '{"size": 4, "antiking": true}',
    ...                                   'N4Ig!!']))
    >>> items[0].document["constraints"], str(items[1].error)[:45]
    ([{'type': 'anti-king'}], '<stdin>:3: not an f-puzzles string (not lz-st')
    """
    cite = None
    for number, text in enumerate(lines, 1):
        text = text.strip()
        if text.startswith("#"):
            match = re.match(r"#\s*source:\s*(.*\S)", text, re.IGNORECASE)
            if match:
                cite = match.group(1)
            continue
        if not text:
            continue
        item_cite, cite = cite, None
        try:
            conversion = convert_fpuzzles(text, source, ignore_unknown=ignore_unknown,
                                          line=number, cite=item_cite)
        except PuzzleError as exc:
            yield FPuzzlesItem(source, number, error=exc.located(source, number))
        else:
            yield FPuzzlesItem(source, number, conversion=conversion)


def format_document(document: dict) -> str:
    """``document`` as JSON for people: one constraint (and one region) a line, keys in order.

    ``json.loads`` reads it back; ``json.dumps(document)`` gives the one-line form for JSON
    Lines files.

    >>> print(format_document({"format": "satdoku-variant", "version": 1, "size": 4,
    ...                        "givens": {}, "constraints": [{"type": "anti-king"}]}))
    {
      "format": "satdoku-variant",
      "version": 1,
      "size": 4,
      "givens": {},
      "constraints": [
        {"type": "anti-king"}
      ]
    }
    """
    lines = []
    for key, value in document.items():
        if key in ("constraints", "regions") and value:
            items = ",\n".join("    " + json.dumps(item, ensure_ascii=False) for item in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _with_source(document: dict, cite: str) -> dict:
    """``document`` with ``source`` placed after the name and author, as the spec lists it."""
    out = {}
    for key, value in document.items():
        if key == "size":
            out["source"] = cite
        out[key] = value
    return out


def _fpuzzles_box(n: int) -> tuple[int, int]:
    """f-puzzles' default region shape (rows, columns): satdoku's box, or whole rows."""
    return default_box(n) or (1, n)
