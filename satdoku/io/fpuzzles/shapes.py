"""How each shape of f-puzzles entry becomes satdoku rules, and back.

A shape (see :mod:`satdoku.rules.exchange`) has a reader, ``read(reader, key, decls)``, which
adds the rules of every entry of ``key`` to the document (``decls``: the (class, FPuzzles)
pairs that declare the key), and a writer, ``write(writer, decl, constraint)``, which adds one
rule to the f-puzzles data, or returns why f-puzzles cannot hold it. The generic shapes are
here; shapes of one rule's own are in :mod:`.special`, whose :data:`SHAPES` has them
all.
"""

from __future__ import annotations

from typing import Any, Callable

from ...rules.fields import Cells

__all__ = ["Shape", "GENERIC", "json_name", "default_value", "fp_cell"]


class Shape:
    """A reader and a writer; ``finish(writer)`` runs once after all rules are written."""

    def __init__(self, read: Callable, write: Callable | None = None,
                 finish: Callable | None = None) -> None:
        self.read, self.write, self.finish = read, write, finish


def json_name(cls, attr: str) -> str:
    """The JSON name of the field that fills ``attr``."""
    return next(f.name for f in cls.fields if f.attr == attr)


def default_value(decl, n: int) -> int | None:
    """The value an entry means when it has none (``options['default']``)."""
    default = decl.option("default")
    if default == "half":
        return (n + 1) // 2
    if default == "floor-half":
        return n // 2
    return default


def fp_cell(name: str) -> str:
    """f-puzzles' name of a satdoku cell name: ``'r3c7'`` -> ``'R3C7'``."""
    return name.upper()


def _what(key: str, i: int, j: int | None = None, count: int = 1) -> str:
    return f"f-puzzles '{key}' #{i}" + (f" line {j}" if j is not None and count > 1 else "")


# -- flag: "antiknight": true ---------------------------------------------------------------

def _read_flag(r, key: str, decls) -> None:
    if r.flag(key):
        for cls, decl in decls:
            r.add({"type": cls.type, **decl.when})


def _write_flag(w, decl, c) -> None:
    w.data[decl.key] = True


# -- lines: [{"lines": [[cells]], "value": v}] ----------------------------------------------

def _read_lines(r, key: str, decls) -> None:
    (cls, decl), = decls
    value_name = json_name(cls, decl.value) if decl.value else None
    least = max(2, next((f.at_least for f in cls.fields if isinstance(f, Cells)), 1))
    for i, entry in enumerate(r.entries(key), 1):
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise r.error(f"{_what(key, i)}: no 'lines'")
        value = None
        if value_name is not None:
            value = r.number(entry.get("value"), _what(key, i))
            value = default_value(decl, r.size) if value is None else value
        for j, line in enumerate(lines, 1):
            cells = r.cells(line, _what(key, i, j, len(lines)), minimum=least, distinct=False)
            out = {"type": cls.type, "cells": cells, **decl.when}
            if value is not None:
                out[value_name] = value
            r.add(out)


def _write_lines(w, decl, c) -> None:
    doc = c.to_json(w.geometry)
    entry: dict[str, Any] = {"lines": [[fp_cell(x) for x in doc["cells"]]]}
    if decl.value:
        value = getattr(c, decl.value)
        if value is not None and value != default_value(decl, w.n):  # None: the default
            entry["value"] = str(value)
    w.append(decl.key, entry)


# -- each-cell: [{"cell": "R1C1"}, ...], all in one rule ------------------------------------

def _read_each_cell(r, key: str, decls) -> None:
    (cls, decl), = decls
    names = [r.cell(entry.get("cell"), _what(key, i)) for i, entry in enumerate(r.entries(key), 1)]
    names += r.parity.get(cls.type, [])
    names = list(dict.fromkeys(names))
    if names:
        r.add({"type": cls.type, "cells": names})


def _write_each_cell(w, decl, c) -> None:
    for name in c.to_json(w.geometry)["cells"]:
        w.append(decl.key, {"cell": fp_cell(name)})


# -- dot: [{"cells": [a, b], "value": v}] ---------------------------------------------------

def _read_dot(r, key: str, decls) -> None:
    (cls, decl), = decls
    value_name = json_name(cls, decl.value)
    letters = decl.option("letters")
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        pair = _pair(r, entry.get("cells"), what)
        raw = entry.get("value")
        if letters:
            letter = raw.strip().upper() if isinstance(raw, str) else raw
            if letter in (None, ""):
                r.note(f"{key} clues without their letter")
                continue
            if letter not in letters:
                raise r.error(f"{what}: {raw!r} is neither {' nor '.join(letters)}")
            value = letters[letter]
        else:
            value = r.number(raw, what)
        out = {"type": cls.type, "cells": pair}
        field = next(f for f in cls.fields if f.attr == decl.value)
        if value is None:
            if field.required:
                r.note(f"{key} clues without their number")
                continue
            value = field.default
        if value < (getattr(field, "low", None) or 0):
            raise r.error(f"{what}: {value} cannot be a {value_name}")
        out[value_name] = value
        r.add(out)


def _pair(r, names: Any, what: str) -> list[str]:
    pair = r.cells(names, what, minimum=2)
    if len(pair) != 2:
        raise r.error(f"{what}: {len(pair)} cells; a clue sits between 2")
    (r1, c1), (r2, c2) = (r.rc(n, what) for n in names)
    if abs(r1 - r2) + abs(c1 - c2) != 1:
        raise r.error(f"{what}: {pair[0]} and {pair[1]} are not orthogonally adjacent")
    return pair


def _write_dot(w, decl, c) -> None:
    doc = c.to_json(w.geometry)
    entry: dict[str, Any] = {"cells": [fp_cell(x) for x in doc["cells"]]}
    value = getattr(c, decl.value)
    letters = decl.option("letters")
    if letters:
        entry["value"] = next(k for k, v in letters.items() if v == value)
    else:
        field = next(f for f in type(c).fields if f.attr == decl.value)
        if field.required or value != field.default:
            entry["value"] = str(value)
    w.append(decl.key, entry)


# -- outside: [{"cell": "R0C3", "value": v}] ------------------------------------------------

def _read_outside(r, key: str, decls) -> None:
    (cls, decl), = decls
    n = r.size
    value_name = json_name(cls, decl.value)
    sided = any(f.name == "from" for f in cls.fields)
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        row, col = r.rc(entry.get("cell"), what, outside=True)
        if (row in (0, n + 1)) == (col in (0, n + 1)):
            raise r.error(f"{what}: {entry['cell']} is not beside one row or column")
        value = r.number(entry.get("value"), what)
        if value is None:
            r.note(f"{key} clues without their number")
            continue
        out = {"type": cls.type, "line": f"c{col}" if row in (0, n + 1) else f"r{row}"}
        if sided:
            out["from"] = "start" if 0 in (row, col) else "end"
        out[value_name] = value
        r.add(out)


def _write_outside(w, decl, c) -> None:
    kind, index = c.line[0], int(c.line[1:])
    end = getattr(c, "sided", False) and c.side == "end"
    edge = w.n + 1 if end else 0
    cell = f"R{index}C{edge}" if kind == "r" else f"R{edge}C{index}"
    w.append(decl.key, {"cell": cell, "value": str(getattr(c, decl.value))})


#: The generic shapes by name (with the special ones: :data:`.special.SHAPES`).
GENERIC: dict[str, Shape] = {
    "flag": Shape(_read_flag, _write_flag),
    "lines": Shape(_read_lines, _write_lines),
    "each-cell": Shape(_read_each_cell, _write_each_cell),
    "dot": Shape(_read_dot, _write_dot),
    "outside": Shape(_read_outside, _write_outside),
}
