"""Variant puzzles: a grid shape, givens and constraints, and the satdoku variant JSON format.

Glossary (adds to :mod:`satdoku.model.geometry` and :mod:`satdoku.rules`):

- document: one JSON object of the satdoku variant format, version 1 (``"format":
  "satdoku-variant"``): ``size``, ``box`` (``"none"``: rows and columns only) or ``regions``,
  ``givens``, ``constraints``, and optional ``digits`` (the values the digits stand for,
  ``"0-8"``; ``"1-N"`` by default), ``extra-cells`` (cells outside the grid: ``["VA", "VB"]``,
  :mod:`satdoku.model.outside`), ``name``, ``author``, ``source``; givens name values.
  ``satdoku/schema/variant-1.schema.json`` is its JSON Schema.
- stream: JSON Lines, one document a line. A document may also span several lines (pretty
  printed): a line that leaves an object unfinished is continued by the next ones, unless
  that one starts a new object at its first column. Blank lines and lines starting with ``#``
  between documents are skipped.

A document is read into the one puzzle record, :class:`satdoku.model.puzzle.Puzzle` (its
grid of givens, its rules, name, author and citation). Reading never raises on a bad document
inside a stream: :func:`parse_variants` yields a puzzle whose ``error`` (a
:class:`PuzzleError`) says where (source, line) and what: which field, which constraint
(``constraints[2] (killer)``, 0-based as in the JSON) or which cell. One bad document never
stops the stream.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Iterable, Iterator

from ..rules import Constraint, constraint_from_json, parse_cell
from ..errors import PuzzleError, abridge
from ..model.alphabet import alphabet_for
from ..model.geometry import (MAX_SIZE, Geometry, boxless, check_low, default_box, geometry,
                              jigsaw, shaped, sigh_box)
from ..model.outside import extra_cells
from ..model.grid import Grid, check_givens
from ..model.puzzle import Puzzle
from .forms import FALLBACK, form_of_json, form_of_text, read_form
from .jsontext import loads as loads_json

__all__ = ["FORMAT", "VERSION", "read_variant", "variant_document", "grid_fields", "format_variant",
           "parse_variants", "read_variants", "read_variant_lines"]

#: What a document nested beyond what Python's JSON reader takes is told.
TOO_DEEP = "not JSON satdoku reads: nested too deeply"

FORMAT = "satdoku-variant"
VERSION = 1
_FIELDS = ("format", "version", "name", "author", "source", "size", "shape", "box", "regions",
           "digits", "extra-cells", "givens", "constraints")
_BOX = re.compile(r"(\d+)x(\d+)")
_VALUES = re.compile(r"(\d+)-(\d+)")
#: A classic one-line puzzle (digits, dots, and what follows a '#').
_CLASSIC = re.compile(r"[0-9.]{16,}\s*(#.*)?")


def _fail(message: str, cell: str | None = None) -> PuzzleError:
    return PuzzleError(message, cell=cell)


def _text(doc: dict, key: str) -> str | None:
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise _fail(f"'{key}' must be a string")
    return value


def _geometry(doc: dict) -> Geometry:
    if "shape" in doc:
        return _shaped(doc)
    size = doc.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIZE:
        raise _fail(f"'size' must be an integer 1..{MAX_SIZE}, not {size!r}"
                    if "size" in doc else "'size' is missing")
    box, regions = doc.get("box"), doc.get("regions")
    low = _low(doc.get("digits"), size)
    if box is not None and regions is not None:
        raise _fail("give 'box' or 'regions', not both")
    if regions is not None:
        return _regions(regions, size, low)
    if box is None:
        shape = default_box(size)
        if shape is None:
            raise _fail(f"a {size}x{size} grid has no usual box shape: give 'box' or 'regions'")
        return geometry(*shape, low=low)
    if box == "none":
        return boxless(size, low)
    m = _BOX.fullmatch(box) if isinstance(box, str) else None
    if not m or int(m.group(1)) * int(m.group(2)) != size:
        raise _fail(f"'box' must be 'RxC' with R*C = {size}, or 'none', not {box!r}")
    return geometry(int(m.group(1)), int(m.group(2)), low=low)


def _shaped(doc: dict) -> Geometry:
    """A grid of other shape: ``shape`` "RxC", ``digits`` (default 1 to the longer side),
    ``box`` "RxC" tiling it (default: boxes of as many cells as the longer side when such
    boxes tile it, as sigh's solver makes them; else none), "none", or ``regions``."""
    if "size" in doc:
        raise _fail("give 'size' (an N x N grid) or 'shape' ('RxC'), not both")
    m = _BOX.fullmatch(doc["shape"]) if isinstance(doc["shape"], str) else None
    if not m:
        raise _fail(f"'shape' must be 'RxC' (rows x columns), not {doc['shape']!r}")
    h, w = int(m.group(1)), int(m.group(2))
    low, k = _values(doc.get("digits"), max(h, w))
    box, regions = doc.get("box"), doc.get("regions")
    try:
        if box is not None and regions is not None:
            raise _fail("give 'box' or 'regions', not both")
        if regions is not None:
            probe = shaped(h, w, k, low=low)
            if not isinstance(regions, list) or not all(isinstance(r, list) for r in regions):
                raise _fail("'regions' must be lists of cell names")
            cells = [[parse_cell(name, probe) for name in region] for region in regions]
            return shaped(h, w, k, regions=cells, low=low)
        if box == "none" or box is None and sigh_box(h, w) is None:
            return shaped(h, w, k, low=low)
        if box is None:
            return shaped(h, w, k, box=sigh_box(h, w), low=low)
        m = _BOX.fullmatch(box) if isinstance(box, str) else None
        if not m:
            raise _fail(f"'box' must be 'RxC' or 'none', not {box!r}")
        return shaped(h, w, k, box=(int(m.group(1)), int(m.group(2))), low=low)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def _values(digits: Any, least: int) -> tuple[int, int]:
    """(low, count) of the ``digits`` field of a grid of other shape: at least ``least``."""
    if digits is None:
        return 1, least
    m = _VALUES.fullmatch(digits) if isinstance(digits, str) else None
    if not m or int(m.group(2)) - int(m.group(1)) + 1 < least:
        raise _fail(f"'digits' must be 'LOW-HIGH', {least} or more values in a row, not "
                    f"{digits!r}")
    return int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1


def _low(digits: Any, size: int) -> int:
    """The value of digit 1 from the ``digits`` field (``"0-8"``): ``size`` values in a row."""
    if digits is None:
        return 1
    m = _VALUES.fullmatch(digits) if isinstance(digits, str) else None
    if not m or int(m.group(2)) - int(m.group(1)) + 1 != size:
        raise _fail(f"'digits' must be 'LOW-HIGH', {size} values in a row (e.g. "
                    f"'0-{size - 1}'), not {digits!r}")
    low = int(m.group(1))
    try:
        check_low(low, size)
    except ValueError as exc:
        raise _fail(f"'digits': {exc}") from None
    return low


def _regions(regions: Any, size: int, low: int = 1) -> Geometry:
    shape_error = f"'regions' must be {size} lists of {size} cell names"
    if not isinstance(regions, list) or len(regions) != size:
        raise _fail(shape_error)
    probe = geometry(1, size)  # before the regions: only its size and cell names are read
    cells = []
    for region in regions:
        if not isinstance(region, list) or len(region) != size:
            raise _fail(shape_error)
        try:
            cells.append([parse_cell(name, probe) for name in region])
        except ValueError as exc:
            raise _fail(f"'regions': {exc}") from None
    seen: dict[int, int] = {}
    for i, region in enumerate(cells):
        for cell in region:
            if cell in seen:
                raise _fail(f"'regions': in regions {seen[cell] + 1} and {i + 1}",
                            cell=probe.cell_name(cell))
            seen[cell] = i
    try:
        return jigsaw(cells, low)
    except ValueError as exc:
        raise _fail(f"'regions': {exc}") from None


def _givens(value: Any, geo: Geometry) -> Grid:
    n = geo.size
    cells = [0] * geo.ncells
    if value is None:
        return Grid(geo, tuple(cells))
    if isinstance(value, str):
        text = "".join(value.split())
        alphabet = alphabet_for(n, geo.low)
        if alphabet.is_numbers:
            raise _fail(f"'givens' of a {geo.height}x{geo.width} grid must be an object (too "
                        f"many digits for one symbol each)")
        if len(text) != geo.ngrid:
            raise _fail(f"'givens' has {len(text)} symbols; a {geo.height}x{geo.width} grid "
                        f"has {geo.ngrid}")
        for cell, ch in enumerate(text):
            try:
                cells[cell] = alphabet.digit(ch)
            except ValueError:
                raise _fail(f"'givens': unknown symbol {ch!r}", cell=geo.cell_name(cell)) from None
            if cells[cell] > n:
                raise _fail(f"'givens': {ch!r} is above {geo.high}", cell=geo.cell_name(cell))
        return Grid(geo, tuple(cells))
    if not isinstance(value, dict):
        raise _fail("'givens' must be an object of cell names to digits, or a string")
    for name, digit in value.items():
        try:
            cell = parse_cell(name, geo)
        except ValueError as exc:
            raise _fail(f"'givens': {exc}") from None
        if not isinstance(digit, int) or isinstance(digit, bool) or not (
                geo.low <= digit <= geo.high):
            raise _fail(f"'givens': {digit!r} is not a digit {geo.low}..{geo.high}",
                        cell=geo.cell_name(cell))
        cells[cell] = digit - geo.low + 1
    return Grid(geo, tuple(cells))


def _constraints(value: Any, geo: Geometry) -> list[Constraint]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail("'constraints' must be a list")
    out = []
    for i, data in enumerate(value):
        kind = data.get("type") if isinstance(data, dict) else None
        where = f"constraints[{i}]" + (f" ({kind})" if isinstance(kind, str) else "")
        try:
            out.append(constraint_from_json(data, geo))
        except ValueError as exc:
            raise _fail(f"{where}: {exc}") from None
    return out


def read_variant(doc: str | dict, source: str = "<arg>", line: int | None = None
                 ) -> Puzzle:
    """The puzzle of one document (a dict, or its JSON text).

    Raises:
        PuzzleError: saying where (``source``, ``line``) and what is wrong.

    >>> p = read_variant('{"size": 4, "givens": "1...........4...", '
    ...                  '"constraints": [{"type": "diagonal", "direction": "-"}]}')
    >>> p.geometry.shape, p.grid.nclues, p.constraints[0].describe(p.geometry)
    ('2x2', 2, 'diagonal r1c1-r4c4')
    >>> read_variant({"size": 4, "constraints": [{"type": "killer", "cells": ["r1c5"]}]},
    ...              "f.jsonl", 3)
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: f.jsonl:3: constraints[0] (killer): r1c5 is outside the 4x4 grid
    """
    try:
        if isinstance(doc, str):
            try:
                doc = loads_json(doc)
            except json.JSONDecodeError as exc:
                raise _fail(f"not JSON: {exc.msg} (line {exc.lineno} column {exc.colno})"
                            ) from None
            except RecursionError:
                raise _fail(TOO_DEEP) from None
        return _read(doc)
    except PuzzleError as exc:
        raise exc.located(source, line) from None


def _read(doc: Any) -> Puzzle:
    if not isinstance(doc, dict):
        raise _fail("a variant puzzle must be a JSON object")
    unknown = [k for k in doc if k not in _FIELDS]
    if unknown:
        raise _fail(f"unknown field{'s' if len(unknown) > 1 else ''} "
                    f"{', '.join(map(repr, unknown))}")
    if doc.get("format", FORMAT) != FORMAT:
        raise _fail(f"'format' must be {FORMAT!r}, not {doc['format']!r}")
    if doc.get("version", VERSION) != VERSION:
        raise _fail(f"version {doc['version']!r} is not one satdoku reads (it reads "
                    f"version {VERSION})")
    geo = extra_cells(_geometry(doc), doc.get("extra-cells"))
    givens = _givens(doc.get("givens"), geo)
    check_givens(givens)
    return Puzzle(givens, name=_text(doc, "name"), alphabet=alphabet_for(geo.size, geo.low),
                  constraints=tuple(_constraints(doc.get("constraints"), geo)),
                  author=_text(doc, "author"), citation=_text(doc, "source"))


def variant_document(puzzle: Puzzle) -> dict:
    """The puzzle as a document (a dict ready for ``json.dumps``).

    >>> from satdoku.rules import Thermometer
    >>> g = geometry(2, 2)
    >>> variant_document(Puzzle(Grid(g, (1,) + (0,) * 15), constraints=(Thermometer((4, 5)),)))
    {'format': 'satdoku-variant', 'version': 1, 'size': 4, 'box': '2x2', 'givens': {'r1c1': 1}, \
'constraints': [{'type': 'thermometer', 'cells': ['r2c1', 'r2c2']}]}
    """
    geo = puzzle.geometry
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    for key, field in (("name", "name"), ("author", "author"), ("source", "citation")):
        if getattr(puzzle, field) is not None:
            doc[key] = getattr(puzzle, field)
    doc.update(grid_fields(geo))
    doc["givens"] = {geo.cell_name(c): geo.value(d) for c, d in puzzle.valid_grid.givens()}
    doc["constraints"] = [c.to_json(geo) for c in puzzle.constraints]
    return doc


def grid_fields(geo: Geometry) -> dict[str, Any]:
    """The fields of a document that make its grid: ``size`` or ``shape``, ``box`` or
    ``regions``, and ``digits`` when they are not 1 to the longer side.

    >>> grid_fields(geometry(3, 3, low=0))
    {'size': 9, 'box': '3x3', 'digits': '0-8'}
    """
    doc: dict[str, Any] = {}
    if geo.is_square:
        doc["size"] = geo.size
    else:
        doc["shape"] = f"{geo.height}x{geo.width}"
    if geo.regions is None:
        doc["box"] = f"{geo.box_rows}x{geo.box_cols}"
    elif not geo.has_boxes:
        doc["box"] = "none"
    else:
        doc["regions"] = [[geo.cell_name(c) for c in region] for region in geo.regions]
    if geo.low != 1 or geo.size != max(geo.height, geo.width):
        doc["digits"] = geo.values_text
    doc.update({"extra-cells": list(geo.extra)} if geo.extra else {})
    return doc


def format_variant(puzzle: Puzzle, indent: int | None = None, ascii: bool = False) -> str:
    """The puzzle as JSON text: one line (for JSON Lines) unless ``indent`` is given;
    ``ascii``: every other character escaped (no line separator a reader could split on)."""
    separators = (",", ": ") if indent is not None else (", ", ": ")
    return json.dumps(variant_document(puzzle), indent=indent, separators=separators,
                      ensure_ascii=ascii)


def _read_one(doc: Any, source: str, line: int, index: int,
           ignore_unknown: bool = False) -> Puzzle:
    """One document: satdoku JSON, or a form of :mod:`.forms` (an f-puzzles link...)."""
    warnings: list[str] = []
    solution = None
    try:
        form = None
        if isinstance(doc, str) and not doc.lstrip().startswith(("{", "[")):
            doc = doc.strip()  # a link or a compressed string
            form = form_of_text(doc)
            if form is None and _CLASSIC.fullmatch(doc):
                raise _fail("a classic puzzle in a file of variant puzzles: give classic "
                            "puzzles a file of their own")
            form = form or FALLBACK  # unclaimed: f-puzzles says what is wrong
        else:
            if isinstance(doc, str):
                try:
                    doc = loads_json(doc)
                except (json.JSONDecodeError, RecursionError):
                    pass  # read_variant says what is wrong
            form = form_of_json(doc)
        if form is not None:
            conversion = read_form(form, doc, source, line, ignore_unknown=ignore_unknown)
            doc, warnings, solution = conversion.document, conversion.warnings, \
                conversion.solution
        puzzle = read_variant(doc, source, line)
    except PuzzleError as exc:
        return Puzzle(None, source, line, index, error=exc.located(source, line))
    puzzle.source, puzzle.line, puzzle.index = source, line, index
    puzzle.warnings = tuple(warnings)
    puzzle.solution = tuple(solution) if solution is not None else None
    return puzzle


def parse_variants(lines: Iterable[str], source: str = "<stdin>", *,
                   ignore_unknown: bool = False) -> Iterator[Puzzle]:
    """Variant puzzles from JSON Lines (see the module docstring), streamed.

    A line that is not JSON is read as an f-puzzles link or lz-string, and a JSON object
    that is f-puzzles' own (``grid`` of cell objects) is converted too (:mod:`satdoku.io.fpuzzles`;
    ``ignore_unknown`` lets what satdoku cannot use through, as warnings on the puzzle).

    >>> puzzles = list(parse_variants(['{"size": 4}', '{"size": 5}', '', '{', '"size": 6', '}']))
    >>> [(p.line, p.ok, p.ok and p.geometry.size) for p in puzzles]
    [(1, True, 4), (2, False, False), (4, True, 6)]
    >>> str(puzzles[1].error)
    "<stdin>:2: a 5x5 grid has no usual box shape: give 'box' or 'regions'"
    """
    buffer: list[str] = []
    start = index = 0
    for no, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if buffer and text[:1] == "{":  # a new object: the one before was broken
            index += 1
            yield _read_one("\n".join(buffer), source, start, index, ignore_unknown)
            buffer = []
        if not buffer:
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            start = no
            if not stripped.startswith("{"):  # an f-puzzles link or lz-string, on its own
                index += 1
                yield _read_one(stripped, source, no, index, ignore_unknown)
                continue
        buffer.append(text)
        joined = "\n".join(buffer) if len(buffer) > 1 else text
        try:
            doc = loads_json(joined)
        except json.JSONDecodeError as exc:
            if exc.pos >= len(joined.rstrip()):
                continue  # unfinished: the next lines may complete it
            doc = joined  # read_variant says what is wrong
        except RecursionError:
            doc = joined  # read_variant says it is nested too deeply
        index += 1
        yield _read_one(doc, source, start, index, ignore_unknown)
        buffer = []
    if buffer:
        index += 1
        yield _read_one("\n".join(buffer), source, start, index, ignore_unknown)


def read_variants(path: str) -> Iterator[Puzzle]:
    """Variant puzzles from the file at ``path`` (``'-'``: stdin), streamed.

    A file that cannot be opened raises :class:`PuzzleError` at once.
    """
    if path == "-":
        return parse_variants(sys.stdin, "<stdin>")
    try:
        handle = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise PuzzleError(f"cannot read: {exc.strerror or exc}", source=path) from None
    return _closing(handle, parse_variants(handle, path))


def _closing(handle, entries: Iterator[Puzzle]) -> Iterator[Puzzle]:
    with handle:
        yield from entries


def _placed(puzzle: Puzzle, offset: int = 0, index: int | None = None) -> Puzzle:
    """A puzzle :func:`~satdoku.io.variant.parse_variants` read, placed ``offset`` lines into
    its input (numbered ``index`` there when given), its name as a message shows it."""
    puzzle.line += offset
    if index is not None:
        puzzle.index = index
    if puzzle.error is not None:
        if offset and puzzle.error.line is not None:
            puzzle.error.line += offset
    elif puzzle.name:
        puzzle.name = abridge(puzzle.name)
    return puzzle


class _Counted:
    """Lines, counting those taken."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines, self.taken = iter(lines), 0

    def __iter__(self) -> "_Counted":
        return self

    def __next__(self) -> str:
        line = next(self.lines)
        self.taken += 1
        return line


#: What hostile data may make a reader raise that it did not foresee: nesting past the stack
#: (RecursionError) and numbers past Python's integer conversion limit (ValueError).
_UNFORESEEN = (RecursionError, ValueError)


def _unforeseen(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply to read"
    if "integer string conversion" in str(error):
        return "a number too long to read (over 4,300 digits)"
    return f"not a puzzle: {abridge(str(error))}"


def read_variant_lines(lines: Iterable[str], source: str, ignore_unknown: bool = False
                       ) -> Iterator[Puzzle]:
    """The puzzles of variant ``lines`` as a command reads them: :func:`parse_variants`, where
    a document that fails a reader in a way it did not foresee (:data:`_UNFORESEEN`) is that
    document's error and reading goes on after it, and names are cut to what a message
    shows."""
    counted = _Counted(lines)
    offset = index = 0
    while True:
        try:
            for puzzle in parse_variants(counted, source, ignore_unknown=ignore_unknown):
                index += 1
                yield _placed(puzzle, offset, index)
            return
        except _UNFORESEEN as error:
            index += 1
            failed = PuzzleError(_unforeseen(error), source=source, line=counted.taken)
            yield Puzzle(None, source, counted.taken, index, error=failed)
            offset = counted.taken
