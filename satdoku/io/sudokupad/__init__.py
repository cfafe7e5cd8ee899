"""Importing SudokuPad links: the puzzle in the link -> a satdoku variant document.

SudokuPad (sudokupad.app, formerly the Cracking the Cryptic web app) opens a puzzle from its
*puzzle id*: the part of a link after the host (``https://sudokupad.app/<id>``,
``https://app.crackingthecryptic.com/sudoku/<id>``) or after ``?puzzleid=`` (which wins when
both are there). This module reads ids that carry the puzzle, as SudokuPad's own loader does,
and converts it offline; an id that names a puzzle on SudokuPad's server is refused with a
message saying what to paste instead.

Glossary:

- format prefix: how an id starts. ``scl`` (alias ``ctc``): SudokuPad's own puzzle JSON
  (*SCL*, read by :mod:`satdoku.io.sudokupad.scl`); ``fpuz`` (alias ``fpuzzles``): f-puzzles JSON, handed
  to :mod:`satdoku.io.fpuzzles`; ``scf``: a classic grid packed in letters (a run of empty
  cells a letter), with optional flags after ``*``. Any other id is a *short id*: the puzzle
  lives on the server.
- payload: the id without its prefix. It is percent-decoded, then lz-string decompressed
  (base64 alphabet) unless it is not lz-string data, as SudokuPad's ``saveDecompress`` does; a
  payload whose ``//`` a chat or server collapsed to ``/`` is repaired by doubling single
  slashes until it decompresses (SudokuPad's ``fixFPuzzleSlashes``).
- zipped SCL: SCL JSON as SudokuPad's ``PuzzleZipper`` shortens it: single quotes, bare keys,
  two-letter keys (``ce`` cells, ``re`` regions, ``ca`` cages, ``o``/``u`` overlays/underlays,
  ``l`` lines, ``a`` arrows, ...), ``t``/``f`` for booleans, ``#0``/``#F`` and bare six-digit
  hex colours, and empty objects left out of arrays. :func:`unzip_scl` undoes it.

SudokuPad's loader, zipper and f-puzzles importer (the public copies in SudokuPad/sudokutools
and marktekfan/sudokupad-penpa-import, and the page scripts in SakanaAI/Sudoku-Bench) were read
to learn the format; the code here is satdoku's own.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator
from urllib.parse import unquote

from ...errors import PuzzleError, Where
from ..fpuzzles import Conversion, convert_fpuzzles
from ..lzstring import LZStringError, decompress_from_base64
from ..jsontext import loads as loads_json

__all__ = ["looks_like_sudokupad", "puzzle_id", "decode_sudokupad", "unzip_scl",
           "scf_to_scl", "convert_sudokupad", "from_sudokupad"]

#: Hosts whose links carry a SudokuPad puzzle id (subdomains of these too).
HOSTS = ("sudokupad.app", "crackingthecryptic.com", "cracking-the-cryptic.web.app",
         "sudokupad.svencodes.com")

_LINK = re.compile(r"^(?:https?://)?(?:[\w-]+\.)*(?:" + "|".join(map(re.escape, HOSTS)) +
                   r")(?::\d+)?(?:/(?P<path>[^?#]*))?(?P<query>\?[^#]*)?", re.IGNORECASE)
_APP_LINK = re.compile(r"^sudokupad://(?:puzzle/)?(?P<path>[^?#]*)(?P<query>\?[^#]*)?")
_BARE = re.compile(r"(?:scl|ctc|fpuz(?:zles)?|scf)[A-Za-z0-9%+/=$-]{8,}")
_PREFIX = re.compile(r"(scl|ctc|fpuzzles|fpuz|scf)(.*)", re.DOTALL)
_OFFLINE = ("satdoku works offline and cannot fetch it: open the link in SudokuPad, and paste "
            "the link its Share menu gives with the puzzle in it (it starts "
            "https://sudokupad.app/scl..., /ctc... or /fpuzzles...), or the setter's f-puzzles "
            "link or export")


def looks_like_sudokupad(text: str) -> bool:
    """Whether ``text`` is a SudokuPad link or a bare SudokuPad puzzle id with its data.

    Any link to a SudokuPad host counts, short ids included (they get their own message).

    >>> looks_like_sudokupad("https://sudokupad.app/abc123"), looks_like_sudokupad("sclN4Ig...")
    (True, False)
    >>> looks_like_sudokupad("sclN4SwJgXA5AzgHjAtgfQ"), looks_like_sudokupad("1.3..4.2.34.4.23")
    (True, False)
    """
    t = text.strip()
    return bool(_LINK.match(t) or _APP_LINK.match(t) or _BARE.fullmatch(t))


def puzzle_id(text: str, source: str | None = None, line: int | None = None) -> str:
    """The puzzle id of a SudokuPad link (``?puzzleid=`` first, then the path), or ``text``
    itself when it is a bare id; percent-encoding is kept (the payload decoder removes it).

    >>> puzzle_id("https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzlesN4Ig&x=1")
    'fpuzzlesN4Ig'
    >>> puzzle_id("https://sudokupad.app/sudoku/sclN4Ig?setting-nogrid=1")
    'sclN4Ig'
    """
    t = text.strip()
    match = _LINK.match(t) or _APP_LINK.match(t)
    if match is None:
        return t
    query = re.search(r"[?&]puzzleid=([^&#]*)", match.group("query") or "", re.IGNORECASE)
    if query and query.group(1):
        return query.group(1)
    path = re.sub(r"^(?:sudoku(?:\.html)?|puzzle)/", "", match.group("path") or "")
    if not path:
        raise PuzzleError("a SudokuPad link without a puzzle id (the part after the host)",
                          source=source, line=line)
    return path


def decode_sudokupad(text: str, source: str | None = None,
                     line: int | None = None) -> tuple[str, dict]:
    """``('scl', SCL JSON)`` or ``('fpuzzles', f-puzzles JSON)`` of a SudokuPad link or id.

    Raises:
        PuzzleError: a short id (the puzzle is on the server), an id satdoku does not know, or
            data that is cut short or corrupted, in one line.

    >>> decode_sudokupad("https://sudokupad.app/scl{'ce':[[{v:1}]],re:[[[0,0]]]}")
    ('scl', {'cells': [[{'value': 1}]], 'regions': [[[0, 0]]]})
    """
    where: Where = {"source": source, "line": line}
    ident = puzzle_id(text, source, line)
    match = _PREFIX.fullmatch(ident)
    if match is None:
        raise PuzzleError(f"the SudokuPad puzzle {_shorten(ident)!r} is stored on SudokuPad's "
                          f"server (a short link); {_OFFLINE}", **where)
    prefix, payload = match.groups()
    kind = "fpuzzles" if prefix.startswith("fpuz") else "scl"
    decoded = unquote(payload)
    payload = (decoded if len(decoded) < len(payload) else payload).strip()
    if not payload:
        raise PuzzleError(f"the SudokuPad link ends at its '{prefix}' prefix: the puzzle data "
                          "is missing", **where)
    if prefix == "scf":
        return kind, scf_to_scl(_decompressed(payload) or payload, where)
    if payload.startswith("{"):   # JSON as it is: SudokuPad takes what does not decompress
        return kind, _parse_json(payload, prefix, where)
    payload = payload.replace(" ", "+")   # a form or a chat made the base64 '+' a space
    error = None
    for candidate in _slash_repairs(payload):
        data = _decompressed(candidate)
        if data is not None:
            try:
                return kind, _parse_json(data, prefix, where)
            except PuzzleError as exc:
                error = error or exc
    raise error or PuzzleError(f"the SudokuPad '{prefix}' data is not lz-string data (cut "
                               "short, or changed on the way): copy the whole link again",
                               **where)


def _decompressed(payload: str) -> str | None:
    """The lz-string text of ``payload``; None when it is not lz-string data (SudokuPad's
    test: it decompresses, to at least half its length)."""
    try:
        text = decompress_from_base64(payload)
    except LZStringError:
        return None
    return text if text and len(text) >= len(payload) / 2 else None


def _slash_repairs(payload: str, limit: int = 200) -> Iterator[str]:
    """``payload``, then ``payload`` with one of its single ``/`` doubled (at most ``limit``
    tries): servers and chats collapse the ``//`` that base64 data can hold."""
    yield payload
    spots = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", payload)]
    for spot in spots[:limit]:
        yield payload[:spot] + "/" + payload[spot:]


def _parse_json(text: str, prefix: str, where: Where) -> dict:
    try:
        data = loads_json(text)
    except json.JSONDecodeError:
        try:
            data = loads_json(unzip_scl(text))
        except (json.JSONDecodeError, ValueError) as exc:
            msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise PuzzleError(f"the SudokuPad '{prefix}' data is not a puzzle ({msg}): the link "
                              "is cut short or corrupted", **where) from None
        data = _rename(data)
    if not isinstance(data, dict):
        raise PuzzleError(f"the SudokuPad '{prefix}' data is {type(data).__name__}, not a "
                          "puzzle object", **where)
    return data


# PuzzleZipper's short keys, long key -> short key.
_ZIP_KEYS = {
    "color": "c", "cages": "ca", "center": "ct", "borderColor": "c1", "backgroundColor": "c2",
    "cells": "ce", "cellSize": "cs", "arrows": "a", "overlays": "o", "underlays": "u",
    "width": "w", "height": "h", "value": "v", "videos": "vd", "lines": "l", "rounded": "r",
    "regions": "re", "fontSize": "fs", "thickness": "th", "headLength": "hl",
    "wayPoints": "wp", "title": "t", "text": "te", "duration": "d", "d": "d2"}
_LONG_KEYS = {short: long for long, short in _ZIP_KEYS.items()}
_HEX6 = re.compile(r"[0-9a-fA-F]{6}")
_STRING = re.compile(r'("(?:[^"]|\\"])*")')


def unzip_scl(zipped: str) -> str:
    """JSON text of a zipped SCL string (keys stay short: :func:`decode_sudokupad` renames).

    >>> unzip_scl("{ce:[[,{v:3}]],r:t,c1:#0,c2:ffa0a0,te:'it\\\\'s'}")
    '{"ce":[[{},{"v":3}]],"r":true,"c1":"#000000","c2":"#ffa0a0","te":"it\\'s"}'
    """
    if '"' not in zipped:
        zipped = zipped.replace("\\'", "\u2019").replace("'", '"').replace("\u2019", "'")
    parts = _STRING.split(zipped)
    code = "".join(f'"__{{S{i // 2}}}__"' if i % 2 else part for i, part in enumerate(parts))
    for pattern, repl in ((r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":'),
                          (r"([,{\[])(?=[,}\]])", r"\1_"), (r"\{_\}", "{}"),
                          (r"([,{\[])_", r"\1{}"),
                          (r"(:)f([,}\]])", r"\1false\2"), (r"(:)t([,}\]])", r"\1true\2"),
                          (r"(:)#0([,}\]])", r'\1"#000000"\2'),
                          (r"(:)#F([,}\]])", r'\1"#FFFFFF"\2'),
                          (r"(:)([0-9a-fA-F]{6})([,}\]])", r'\1"#\2"\3')):
        code = re.sub(pattern, repl, code)
    strings = parts[1::2]
    return re.sub(r'"__\{S([0-9]+)\}__"', lambda m: strings[int(m.group(1))], code)


def _rename(value: Any) -> Any:
    """Zipped SCL with its long keys back, and bare hex colours given their ``#``."""
    if isinstance(value, list):
        return [_rename(item) for item in value]
    if isinstance(value, dict):
        return {_LONG_KEYS.get(key, key): _rename(item) for key, item in value.items()}
    if isinstance(value, str) and _HEX6.fullmatch(value):
        return "#" + value
    return value


def _shorten(text: str, keep: int = 40) -> str:
    return text if len(text) <= keep else text[:keep] + "..."


def scf_to_scl(text: str, where: Where) -> dict:
    """SCL of an ``scf`` id (without its prefix): 81 givens packed a run of empty cells a
    letter, then after ``*`` flags: ``x`` both diagonals, ``w`` windoku, ``t`` title and
    ``a`` author (up to the next single ``*``).

    >>> scl = scf_to_scl("5o*xtSmall", {})
    >>> scl["cells"][0][:2], scl["global"], scl["metadata"]
    ([{'value': 5}, {}], [], {'title': 'Small'})
    """
    packed, _, flags = text.partition("*")
    if not re.fullmatch(r"[0-9A-Za-z]*", packed):
        raise PuzzleError(f"the SudokuPad 'scf' data {packed[:20]!r} is not a packed grid "
                          "(letters and digits)", **where)
    digits = "".join(str(v % 10) + "0" * (v // 10) for v in (
        ord(ch) - (61 if ch > "Z" else 55 if ch > "9" else 48) for ch in packed))
    digits = digits[:81].ljust(81, "0")
    scl: dict[str, Any] = {
        "cells": [[{"value": int(d)} if d != "0" else {} for d in digits[r * 9:r * 9 + 9]]
                  for r in range(9)],
        "regions": [[[r, c] for r in range(b // 3 * 3, b // 3 * 3 + 3)
                     for c in range(b % 3 * 3, b % 3 * 3 + 3)] for b in range(9)],
        "global": [], "metadata": {}, "lines": [], "underlays": []}
    i = 0
    while i < len(flags):
        flag, i = flags[i], i + 1
        if flag == "x":
            scl["lines"] += [{"wayPoints": [[0, 0], [9, 9]]}, {"wayPoints": [[0, 9], [9, 0]]}]
        elif flag == "w":
            scl["underlays"] += [{"center": [r, c], "width": 3, "height": 3}
                                 for r in (2.5, 6.5) for c in (2.5, 6.5)]
        elif flag in "ta":
            match = re.match(r"((?:[^*]|\*\*)*)\*?", flags[i:])
            if match is not None:  # (always: the text may be empty)
                value = match.group(1)
                scl["metadata"]["title" if flag == "t" else "author"] = value.replace("**", "*")
                i += match.end()
    return scl


# Public entry points.


def convert_sudokupad(text: str, source: str | None = None, *, ignore_unknown: bool = False,
                      line: int | None = None, cite: str | None = None) -> Conversion:
    """Convert a SudokuPad link (or bare puzzle id) with its puzzle in it.

    Args:
        text: the link or id.
        source, line: where it came from, for error messages.
        ignore_unknown: let through what may carry a rule satdoku cannot state, as warnings
            (the puzzle solved is then looser than the one published).
        cite: the document's ``source`` field.

    Returns:
        A :class:`~satdoku.io.fpuzzles.Conversion`: the satdoku variant document, the
        warnings (cosmetic items always, refused items with ``ignore_unknown``) and the
        setter's solution when the link holds one.

    Raises:
        PuzzleError: in one line, saying where and what: a short link, broken data, a grid
            satdoku cannot read, or (without ``ignore_unknown``) what it cannot state.
    """
    kind, data = decode_sudokupad(text, source, line)
    if kind == "fpuzzles":
        return convert_fpuzzles(data, source, ignore_unknown=ignore_unknown, line=line,
                                cite=cite)
    from .scl import convert_scl
    return convert_scl(data, source, ignore_unknown=ignore_unknown, line=line, cite=cite)


def from_sudokupad(text: str, source: str | None = None, *, ignore_unknown: bool = False,
                   line: int | None = None, cite: str | None = None) -> dict:
    """The satdoku variant document of a SudokuPad link (``convert_sudokupad(...).document``).

    >>> doc = from_sudokupad("https://sudokupad.app/scl{'ce':[[{v:1},{}],[{},{}]],"
    ...                      "re:[[[0,0],[0,1]],[[1,0],[1,1]]],global:['antiking']}")
    >>> doc["size"], doc["givens"], doc["constraints"]
    (2, {'r1c1': 1}, [{'type': 'anti-king'}])
    >>> from_sudokupad("https://sudokupad.app/psxczr0jpr", "links.txt", line=4)
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: links.txt:4: the SudokuPad puzzle 'psxczr0jpr' is stored on \
SudokuPad's server (a short link); satdoku works offline and cannot fetch it: open the link in \
SudokuPad, and paste the link its Share menu gives with the puzzle in it (it starts \
https://sudokupad.app/scl..., /ctc... or /fpuzzles...), or the setter's f-puzzles link or export
    """
    return convert_sudokupad(text, source, ignore_unknown=ignore_unknown, line=line,
                             cite=cite).document
