"""f-puzzles puzzles: a link, its lz-string or its JSON -> a satdoku variant document, and back.

f-puzzles (f-puzzles.com) stores a puzzle as a JSON object, compressed with lz-string into its
links (``https://f-puzzles.com/?load=N4IgzglgXg...``); SudokuPad opens the same data as
``https://sudokupad.app/fpuzzles<lz-string>``. This module reads any of these forms and returns
a plain dict in the satdoku variant format (``docs/variants.md``); :func:`encode_fpuzzles`
writes a puzzle back as f-puzzles data, a link or a SudokuPad link. The rules are read and
written by the shapes their classes declare (:mod:`.read`, :mod:`.shapes`,
:mod:`.write`).

Glossary:

- f-puzzles key: a top-level key of the f-puzzles JSON (``killercage``, ``diagonal+``...). Each
  belongs to the rule classes that declare it (:func:`mapping`), is metadata
  (:data:`METADATA`), only draws (:data:`COSMETIC`), or is unknown.
- notes and problems: what satdoku leaves out (see :mod:`.read`). Notes (drawings,
  colours, a solver's progress) become one warning line and the puzzle is solved as published;
  problems (what may carry a rule satdoku cannot state) refuse the puzzle, all named in one
  :class:`~satdoku.errors.PuzzleError`, unless ``ignore_unknown`` turns them into warnings.
- f-puzzles cell: ``"R3C7"`` (1-based); outside clues sit on row or column 0 or N+1.

Semantics follow the solver f-puzzles and SudokuPad run (dclamage/SudokuVariantSolverJS) and
SudokuSolver by Rangsk, whose "new constraints" user script adds most keys beyond f-puzzles'
own (renban, whispers, region sum lines, indexers...).
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Iterator
from urllib.parse import quote, unquote

from ...errors import PuzzleError, Where
from ...model.geometry import default_box
from ...records import field, record
from .read import COSMETIC, METADATA, UNSUPPORTED, Reader, rule_keys
from .special import SHAPES
from ..lzstring import (LZStringError, compress_to_base64, decompress_from_base64,
                       decompress_from_uri)
from ..jsontext import loads as loads_json

__all__ = [
    "Conversion", "FPuzzlesItem", "METADATA", "COSMETIC", "UNSUPPORTED", "SHORT_LINK",
    "decode_fpuzzles", "convert_fpuzzles", "from_fpuzzles", "read_fpuzzles_lines",
    "looks_like_fpuzzles", "format_document", "mapping", "encode_fpuzzles", "FPUZZLES_FORMS",
    "is_fpuzzles_document",
]

#: What a short link (its puzzle on a server) gets: satdoku reads only what is in the link.
SHORT_LINK = ("a short f-puzzles link (?id=...) names a puzzle stored on the f-puzzles "
              "server, and satdoku works offline: open the link in a browser and paste its "
              "long link (?load=...) or its Export text instead")


@record
class Conversion:
    """A converted puzzle: the document, what was left out, and the setter's solution if given."""

    document: dict
    warnings: list[str] = field(default_factory=list)
    solution: list[int] | None = None   # the f-puzzles 'solution', row by row (0: not given)


@record
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
    if re.search(r"(?:^|[?&])load=|fpuzzles[A-Za-z0-9%+/=$-]{8}|f-puzzles\.com", t):
        return True
    return bool(re.fullmatch(r"N4Ig[A-Za-z0-9+/=$-]{8,}", t))


def _payload(text: str, where: Where) -> str:
    """The lz-string part of a link (or the text itself when it is not a link)."""
    match = re.search(r"(?:^|[?&])load=([^&#]*)", text)
    if match:
        return match.group(1)
    match = re.search(r"fpuzzles([A-Za-z0-9%+/=$-]+)", text)
    if match and ("://" in text or "?" in text or "/" in text.split("fpuzzles")[0]):
        return match.group(1)
    if re.search(r"(?:^|[?&])id=", text):
        raise PuzzleError(SHORT_LINK, **where)
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
    where: Where = {"source": source, "line": line}
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
    except RecursionError:
        raise PuzzleError(f"bad {what}: nested too deeply", **where) from None
    if not isinstance(data, dict):
        raise PuzzleError(f"bad {what}: an f-puzzles puzzle is a JSON object, not "
                          f"{type(data).__name__}", **where)
    return data


def _decompress(payload: str, where: Where) -> str:
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


def _read(data: dict, where: Where) -> tuple[dict, Reader]:
    """The satdoku document of f-puzzles ``data``, and the reader (its notes and problems)."""
    r = Reader(data, where)
    givens, regions = r.grid()
    keys = rule_keys()
    for key in sorted(keys, key=_reading_place):
        decls = keys[key]
        SHAPES[decls[0][1].shape].read(r, key, decls)
    r.leftovers(set(keys))
    n = r.size
    document: dict[str, Any] = {"format": "satdoku-variant", "version": 1}
    for key, target in (("title", "name"), ("author", "author")):
        text = data.get(key)
        if isinstance(text, str) and text.strip():
            document[target] = text.strip()
    document["size"] = n
    box = default_box(n)
    if box is not None and regions == [
            [(row // box[0]) * (n // box[1]) + col // box[1] for col in range(n)]
            for row in range(n)]:
        document["box"] = f"{box[0]}x{box[1]}"
    else:
        cells: list[list[str]] = [[] for _ in range(n)]
        for row in range(n):
            for col in range(n):
                cells[regions[row][col]].append(f"r{row + 1}c{col + 1}")
        document["regions"] = cells
    document["givens"] = givens
    document["constraints"] = r.constraints
    return document, r


#: The order keys are read in, so their rules come out in it (f-puzzles' own order, then the
#: user script's keys); a declared key not listed comes after them, negative rules last: they
#: speak of the clues before them.
READING_ORDER = (
    "diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups", "columnindexer",
    "rowindexer", "boxindexer", "difference", "ratio", "xv", "sum", "killercage", "extraregion",
    "cage", "littlekillersum", "odd", "even", "parity", "givenPencilMarks", "minimum",
    "maximum", "thermometer", "slowthermometer", "arrow", "palindrome", "renban", "whispers",
    "betweenline", "regionsumline", "entropicline", "zipperline", "modularline", "nabner",
    "doublearrow", "lockout", "clone", "quadruple", "sandwichsum", "xsum", "skyscraper")


def _reading_place(key: str) -> tuple[int, int]:
    negative = key in ("nonconsecutive", "negative")
    return negative, READING_ORDER.index(key) if key in READING_ORDER else len(READING_ORDER)


def is_fpuzzles_document(doc: Any) -> bool:
    """Whether a parsed JSON object is f-puzzles' own (a ``grid`` of cell objects), not ours."""
    return isinstance(doc, dict) and "grid" in doc and "format" not in doc \
        and "givens" not in doc


def mapping() -> list[tuple[str, list[str], list[str]]]:
    """Every f-puzzles key the rules declare: (key, satdoku types, how), for the docs' table.

    >>> [row for row in mapping() if row[0] == "xsum"]
    [('xsum', ['x-sum'], ["from 'start' for a clue in row or column 0, 'end' for N+1"])]
    """
    return [(key, list(dict.fromkeys(cls.type for cls, _ in decls)),
             [decl.how for _, decl in decls if decl.how])
            for key, decls in rule_keys().items()]


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
            ``ignore_unknown``, everything that may carry a rule satdoku cannot state, all
            named in one message.

    >>> data = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
    ...         "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}], "text": [{}]}
    >>> conversion = convert_fpuzzles(data)
    >>> conversion.document["givens"], conversion.document["constraints"]
    ({'r1c1': 1}, [{'type': 'killer', 'cells': ['r1c1', 'r1c2'], 'sum': 3}])
    >>> conversion.warnings
    ['left out what carries no rule: text (1)']
    """
    where: Where = {"source": source, "line": line}
    data = text if isinstance(text, dict) else decode_fpuzzles(text, source, line)
    document, reader = _read(data, where)
    if cite:
        document = _with_source(document, cite)
    if reader.problems and not ignore_unknown:
        raise PuzzleError("satdoku cannot use " + "; ".join(reader.problems) +
                          " (with --ignore-unknown it solves without them, a looser puzzle "
                          "than the one published)", **where)
    warnings = []
    if reader.notes:
        warnings.append("left out what carries no rule: " + ", ".join(reader.notes))
    warnings += reader.problems
    return Conversion(document, warnings, _solution(data, reader.size))


def _solution(data: dict, size: int) -> list[int] | None:
    """The setter's solution stored in the data, row by row (0 where it gives none)."""
    solution = data.get("solution")
    if not isinstance(solution, list) or len(solution) != size ** 2:
        return None
    return [value if isinstance(value, int) and not isinstance(value, bool)
            and 1 <= value <= size else 0 for value in solution]


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


#: The f-puzzles forms :func:`encode_fpuzzles` writes.
FPUZZLES_FORMS = ("fpuzzles", "fpuzzles-link", "fpuzzles-json", "sudokupad")


def encode_fpuzzles(data: dict, form: str = "fpuzzles") -> str:
    """f-puzzles data as text: ``fpuzzles`` (the lz-string of a link), ``fpuzzles-link``,
    ``fpuzzles-json`` or ``sudokupad`` (a SudokuPad link to the same data).

    >>> encode_fpuzzles({"size": 4}, "fpuzzles-link")
    'https://f-puzzles.com/?load=N4IgzglgXgpiBcAWAvkA'
    >>> decode_fpuzzles(encode_fpuzzles({"size": 4}, "sudokupad"))
    {'size': 4}
    """
    if form == "fpuzzles-json":
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    packed = compress_to_base64(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    if form == "fpuzzles":
        return packed
    if form == "fpuzzles-link":
        return "https://f-puzzles.com/?load=" + packed
    if form == "sudokupad":
        return "https://sudokupad.app/fpuzzles" + quote(packed, safe="")
    raise ValueError(f"unknown f-puzzles form {form!r}; choose one of "
                     f"{', '.join(FPUZZLES_FORMS)}")
