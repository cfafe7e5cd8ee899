"""A rule's JSON fields, declared once on its class: reading (``from_json``), writing
(``to_json``), the JSON Schema (:func:`satdoku.io.schema.variant_schema`) and the listing of
``satdoku rules`` (:func:`satdoku.rules.registry.rule_types`) all come from the declaration.

Glossary:

- field: one key of a constraint's JSON object (``cells``, ``sum``, ``from``...) and the
  record attribute it fills (``attr``: a thermometer's ``cells`` fill ``line``). A
  :class:`Field` reads its value (checked, with an error naming the key), writes it back and
  says what it is in the schema and in words.
- reader: :class:`Fields`, the JSON object of one constraint being read; it refuses unknown
  keys (naming a close one: "did you mean") and a ``label`` that is not a string.
- path: a list of cells along a line that may visit a cell twice (a loop, a figure of eight);
  other cell lists hold each cell once.

A field with ``default`` and ``omit_default`` is left out of the JSON when it has its default
value, so documents stay as short as people write them.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Literal, Sequence

from ..errors import closest
from ..model.geometry import Geometry

__all__ = ["Field", "Cells", "Pair", "Corner", "Int", "Ints", "Choice", "LineName", "Place",
           "Text", "Fields", "parse_cell", "did_you_mean"]

_CELL = re.compile(r"r(\d+)c(\d+)", re.IGNORECASE)
_LINE = re.compile(r"([rc])(\d+)", re.IGNORECASE)
_PLACE = re.compile(r"r(\d+)c(\d+)")


def parse_cell(name: Any, geometry: Geometry) -> int:
    """The cell int of a name like ``'r3c7'`` (1-based); ValueError when it is not one.

    >>> from satdoku.model.geometry import geometry
    >>> parse_cell("r2c1", geometry(2, 2))
    4
    """
    h, w = geometry.height, geometry.width
    m = _CELL.fullmatch(name) if isinstance(name, str) else None
    if not m:
        return geometry.outside_cell(name)  # or ValueError: not a cell name
    row, col = int(m.group(1)), int(m.group(2))
    if not (1 <= row <= h and 1 <= col <= w):
        raise ValueError(f"{name} is outside the {h}x{w} grid")
    return (row - 1) * w + col - 1


def did_you_mean(word: Any, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when ``word`` is close to one of ``choices``, else ``''``.

    >>> did_you_mean("thermo", ["thermometer", "renban"]), did_you_mean("zz", ["renban"])
    (" (did you mean 'thermometer'?)", '')
    """
    close = closest(word.lower(), choices) if isinstance(word, str) else None
    return f" (did you mean {close!r}?)" if close else ""


class Fields:
    """Reads the fields of one constraint's JSON object; unknown fields are errors.

    Errors are ValueErrors naming the field; the document reader adds which constraint (index
    and type) and where. ``type`` and ``label`` are always allowed.
    """

    def __init__(self, data: dict, geometry: Geometry, *names: str) -> None:
        if not isinstance(data, dict):
            raise ValueError("a constraint must be a JSON object")
        allowed = set(names) | {"type", "label"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            hint = did_you_mean(unknown[0], sorted(allowed)) if len(unknown) == 1 else ""
            raise ValueError(f"unknown field{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(map(repr, unknown))}{hint}")
        label = data.get("label")
        if label is not None and not isinstance(label, str):
            raise ValueError("'label' must be a string")
        self.data = data
        self.geometry = geometry
        self.label = label

    def has(self, name: str) -> bool:
        return name in self.data

    def cells(self, name: str = "cells", *, at_least: int = 1, exactly: int | None = None,
              repeats: bool = False, connected: bool = False) -> tuple[int, ...]:
        """A list of cell names (distinct unless ``repeats``; each touching the one before,
        orthogonally or diagonally, when ``connected``), as cell ints in order."""
        value = self.data.get(name)
        if not isinstance(value, list):
            raise ValueError(f"'{name}' must be a list of cell names")
        cells = tuple(parse_cell(v, self.geometry) for v in value)
        if exactly is not None and len(cells) != exactly:
            raise ValueError(f"'{name}' must have {exactly} cell{'s' if exactly > 1 else ''}, "
                             f"not {len(cells)}")
        if len(cells) < at_least:
            raise ValueError(f"'{name}' needs at least {at_least} cell"
                             f"{'s' if at_least > 1 else ''}")
        if not repeats:
            seen: set[int] = set()
            for cell in cells:
                if cell in seen:
                    raise ValueError(f"'{name}' has {self.geometry.cell_name(cell)} twice")
                seen.add(cell)
        if connected:
            row_col = self.geometry.row_col
            for a, b in zip(cells, cells[1:]):
                (ra, ca), (rb, cb) = row_col(a), row_col(b)
                if a == b or max(abs(ra - rb), abs(ca - cb)) > 1:
                    name_a, name_b = self.geometry.cell_name(a), self.geometry.cell_name(b)
                    raise ValueError(f"'{name}': {name_a} and {name_b} do not touch: a line "
                                     f"goes from a cell to a neighbour (diagonals too)")
        return cells

    def int(self, name: str, default: int | None = None, *, low: int | None = None,
            high: int | None = None, required: bool = True, nullable: bool = False) -> int | None:
        """An integer field (booleans are not integers)."""
        if name not in self.data:
            if default is None and required:
                raise ValueError(f"'{name}' is missing")
            return default
        value = self.data[name]
        if value is None and nullable:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"'{name}' must be an integer{' or null' if nullable else ''}, "
                             f"not {value!r}")
        if low is not None and value < low or high is not None and value > high:
            bounds = f"{low}..{high}" if high is not None else f"at least {low}"
            raise ValueError(f"'{name}' must be {bounds}, not {value}")
        return value

    def choice(self, name: str, options: Iterable[str], default: str | None = None) -> str:
        """A string field that must be one of ``options``."""
        options = tuple(options)
        value = self.data.get(name, default)
        if value is None:
            raise ValueError(f"'{name}' is missing")
        if value not in options:
            raise ValueError(f"'{name}' must be one of {', '.join(map(repr, options))}, "
                             f"not {value!r}{did_you_mean(value, options)}")
        return value

    def line(self, name: str = "line") -> str:
        """A row ``'r3'`` or column ``'c5'`` within the grid (written lower case)."""
        value, geo = self.data.get(name), self.geometry
        m = _LINE.fullmatch(value) if isinstance(value, str) else None
        if not m or not 1 <= int(m.group(2)) <= (geo.height if m.group(1) in "rR" else geo.width):
            raise ValueError(f"'{name}' must be a row 'r1'..'r{geo.height}' or a column "
                             f"'c1'..'c{geo.width}', not {value!r}")
        return f"{m.group(1).lower()}{int(m.group(2))}"


_MISSING = object()


class Field:
    """One JSON field of a rule: ``name`` in JSON, ``attr`` on the class (default: the same).

    ``required`` fields must be present; others take ``default`` when absent, and with
    ``omit_default`` are not written when they hold it. ``doc`` says what the field means.
    """

    kind = "value"

    def __init__(self, name: str, attr: str | None = None, *, doc: str = "",
                 required: bool = True, default: Any = None, omit_default: bool = False) -> None:
        self.name, self.attr, self.doc = name, attr or name, doc
        self.required, self.default, self.omit_default = required, default, omit_default

    def read(self, f: Fields) -> Any:
        raise NotImplementedError

    def write(self, value: Any, geometry: Geometry) -> Any:
        return value

    def omitted(self, value: Any) -> bool:
        """Whether ``value`` is left out of the JSON."""
        return self.omit_default and value == self.default

    def schema(self) -> dict:
        """The JSON Schema of the field's value."""
        raise NotImplementedError

    def text(self) -> str:
        """What the field holds, in words (for ``satdoku rules`` and the docs)."""
        return self.kind

    def info(self) -> dict:
        """The field as data: name, what it holds, whether required, its default, its doc."""
        out = {"name": self.name, "holds": self.text(), "required": self.required}
        if not self.required and self.default is not None:
            out["default"] = list(self.default) if isinstance(self.default, tuple) \
                else self.default
        if self.doc:
            out["doc"] = self.doc
        return out


class Cells(Field):
    """A list of cells, written as names: ``exactly`` so many (``whole`` for N), ``at_least``
    so many, distinct unless ``repeats`` (a path). ``single``: exactly one, its value the cell
    int itself."""

    kind = "cells"

    def __init__(self, name: str = "cells", attr: str | None = None, *, at_least: int = 1,
                 exactly: int | None = None, whole: bool = False, repeats: bool = False,
                 single: bool = False, connected: bool = False, **options: Any) -> None:
        super().__init__(name, attr, **options)
        self.at_least, self.exactly, self.whole = at_least, 1 if single else exactly, whole
        self.repeats, self.single, self.connected = repeats, single, connected

    def read(self, f: Fields) -> Any:
        if not self.required and not f.has(self.name):
            return self.default
        exactly = f.geometry.size if self.whole else self.exactly
        cells = f.cells(self.name, at_least=self.at_least, exactly=exactly, repeats=self.repeats,
                        connected=self.connected)
        return cells[0] if self.single else cells

    def write(self, value: Any, geometry: Geometry) -> Any:
        cells = (value,) if self.single else value
        return [geometry.cell_name(c) for c in cells]

    def schema(self) -> dict:
        if self.repeats and self.at_least == 1 and self.exactly is None:
            return {"$ref": "#/$defs/path"}
        if self.exactly is None and self.at_least == 1 and not self.repeats:
            return {"$ref": "#/$defs/cells"}
        out: dict = {"type": "array", "items": {"$ref": "#/$defs/cell"},
                     "minItems": self.exactly or self.at_least}
        if not self.repeats:
            out["uniqueItems"] = True
        if self.exactly is not None:
            out["maxItems"] = self.exactly
        return out

    def text(self) -> str:
        if self.whole:
            return "N cells"
        if self.exactly is not None:
            return f"{self.exactly} cell{'s' if self.exactly > 1 else ''}"
        what = "cells in order, a cell may come twice" if self.repeats else "cells"
        if self.connected:
            what = "touching " + what
        return f"{self.at_least} or more {what}" if self.at_least > 1 else what


class Pair(Cells):
    """Two orthogonally adjacent cells (where a dot or an X/V sits)."""

    kind = "pair"

    def __init__(self, name: str = "cells", attr: str | None = "pair", **options: Any) -> None:
        super().__init__(name, attr, exactly=2, **options)

    def read(self, f: Fields) -> tuple[int, int]:
        a, b = f.cells(self.name, exactly=2)
        (ra, ca), (rb, cb) = f.geometry.row_col(a), f.geometry.row_col(b)
        if abs(ra - rb) + abs(ca - cb) != 1:
            name = f.geometry.cell_name
            raise ValueError(f"{name(a)} and {name(b)} are not orthogonally adjacent")
        return a, b

    def schema(self) -> dict:
        return {"$ref": "#/$defs/neighbours"}

    def text(self) -> str:
        return "2 orthogonally adjacent cells"


class Corner(Cells):
    """The four cells around one corner (a 2x2 square)."""

    kind = "corner"

    def __init__(self, name: str = "cells", attr: str | None = None, **options: Any) -> None:
        super().__init__(name, attr, exactly=4, **options)

    def read(self, f: Fields) -> tuple[int, ...]:
        cells, n = f.cells(self.name, exactly=4), f.geometry.width
        rows = sorted({c // n for c in cells})
        cols = sorted({c % n for c in cells})
        if len(rows) != 2 or len(cols) != 2 or rows[1] - rows[0] != 1 or cols[1] - cols[0] != 1:
            raise ValueError(f"'{self.name}' must be the four cells around one corner (a 2x2 "
                             f"square)")
        return cells

    def text(self) -> str:
        return "the 4 cells around a corner"


class Int(Field):
    """An integer from ``low`` to ``high`` (``high='size'``: N); ``nullable``: or null;
    ``always``: written even when None; ``choices``: the only values (the class checks them,
    with its own message)."""

    kind = "integer"

    def __init__(self, name: str, attr: str | None = None, *, low: int | None = None,
                 high: int | Literal["size"] | None = None, nullable: bool = False,
                 always: bool = False, choices: Sequence[int] = (), **options: Any) -> None:
        super().__init__(name, attr, **options)
        self.low, self.high, self.nullable, self.always = low, high, nullable, always
        self.choices = tuple(choices)

    def read(self, f: Fields) -> int | None:
        high = f.geometry.size if isinstance(self.high, str) else self.high
        return f.int(self.name, self.default, low=self.low, high=high,
                     required=self.required, nullable=self.nullable)

    def omitted(self, value: Any) -> bool:
        if value is None and not self.always:
            return True
        return super().omitted(value)

    def schema(self) -> dict:
        if self.choices:
            return {"enum": list(self.choices)}
        out: dict = {"type": ["integer", "null"] if self.nullable else "integer"}
        if self.low is not None:
            out["minimum"] = self.low
        if isinstance(self.high, int):
            out["maximum"] = self.high
        return out

    def text(self) -> str:
        if self.choices:
            return " or ".join(map(str, self.choices))
        bounds = ""
        if self.low is not None:
            high = "N" if self.high == "size" else self.high
            bounds = f" {self.low}..{high}" if high is not None else f" >= {self.low}"
        return f"integer{bounds}{' or null' if self.nullable else ''}"


class Ints(Field):
    """A list of integers ``low``..``high`` (``high='size'``: N; ``values``: the grid's values),
    ``min_items`` to ``max_items`` of them, each once when ``unique``; ``what`` names one."""

    kind = "integers"

    def __init__(self, name: str, attr: str | None = None, *, low: int = 1,
                 high: int | Literal["size"] | None = "size", min_items: int = 1,
                 max_items: int | None = None, unique: bool = False, what: str = "integers",
                 values: bool = False, **options: Any) -> None:
        super().__init__(name, attr, **options)
        self.low, self.high, self.min_items, self.max_items = low, high, min_items, max_items
        self.unique, self.what, self.values = unique, what, values

    def read(self, f: Fields) -> tuple[int, ...] | None:
        if not f.has(self.name):
            if self.required:
                raise ValueError(f"'{self.name}' is missing")
            return self.default
        value, geo = f.data[self.name], f.geometry
        low, high = (geo.low, geo.high) if self.values else (
            self.low, geo.size if isinstance(self.high, str) else self.high)
        count = (f"{self.min_items} to {self.max_items}" if self.max_items is not None
                 else f"{self.min_items} or more")
        span = f"{low}..{high}" if high is not None else f"from {low}"
        message = f"'{self.name}' must be a list of {count} {self.what} {span}"
        if (not isinstance(value, list) or len(value) < self.min_items
                or (self.max_items is not None and len(value) > self.max_items)
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= low
                           and (high is None or v <= high) for v in value)):
            raise ValueError(message)
        if self.unique and len(set(value)) != len(value):
            raise ValueError(f"'{self.name}' lists a value twice")
        return tuple(value)

    def write(self, value: Any, geometry: Geometry) -> Any:
        return list(value)

    def schema(self) -> dict:
        item: dict = {"type": "integer", "minimum": 0 if self.values else self.low}
        if isinstance(self.high, int):
            item["maximum"] = self.high
        out: dict = {"type": "array", "items": item, "minItems": self.min_items}
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        if self.unique:
            out["uniqueItems"] = True
        return out

    def text(self) -> str:
        high = "N" if self.high == "size" else self.high
        return f"list of {self.what} {self.low}..{high}" if high else f"list of {self.what}"


class Choice(Field):
    """One of ``options`` (strings)."""

    kind = "choice"

    def __init__(self, name: str, options: Sequence[str], attr: str | None = None,
                 **options_: Any) -> None:
        super().__init__(name, attr, **options_)
        self.options = tuple(options)

    def read(self, f: Fields) -> str | None:
        if not self.required and not f.has(self.name):
            return self.default
        return f.choice(self.name, self.options, self.default)

    def omitted(self, value: Any) -> bool:
        return value is None or super().omitted(value)

    def schema(self) -> dict:
        return {"enum": list(self.options)}

    def text(self) -> str:
        return " or ".join(map(repr, self.options))


class LineName(Field):
    """A row ``'r3'`` or a column ``'c5'``."""

    kind = "line"

    def read(self, f: Fields) -> str:
        return f.line(self.name)

    def schema(self) -> dict:
        return {"$ref": "#/$defs/line"}

    def text(self) -> str:
        return "row 'rR' or column 'cC'"


class Place(Field):
    """A place on or around the grid, ``'r0c1'`` (rows and columns 0..N+1)."""

    kind = "place"

    def read(self, f: Fields) -> str | None:
        if not f.has(self.name) and not self.required:
            return self.default
        value = f.data.get(self.name)
        n = f.geometry.size
        m = _PLACE.fullmatch(value) if isinstance(value, str) else None
        if not m or not all(0 <= int(v) <= n + 1 for v in m.groups()):
            raise ValueError(f"'{self.name}' must name a place like 'r0c1' (rows and columns "
                             f"0..{n + 1}), not {value!r}")
        return value

    def omitted(self, value: Any) -> bool:
        return value is None

    def schema(self) -> dict:
        return {"type": "string", "pattern": "^r[0-9]+c[0-9]+$"}

    def text(self) -> str:
        return "place 'rRcC' around the grid (0..N+1)"


class Text(Field):
    """A non-empty string that ``parse`` reads (its ValueError, naming where, becomes the
    field's); ``what`` says what it holds (``'relation over a and b'``)."""

    kind = "text"

    def __init__(self, name: str, attr: str | None = None, *, parse: Any = None,
                 what: str = "text", **options: Any) -> None:
        super().__init__(name, attr, **options)
        self.parse, self.what = parse, what

    def read(self, f: Fields) -> str | None:
        if not f.has(self.name):
            if self.required:
                raise ValueError(f"'{self.name}' is missing")
            return self.default
        value = f.data[self.name]
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"'{self.name}' must be a {self.what}, not {value!r}")
        if self.parse is not None:
            try:
                self.parse(value)
            except ValueError as error:
                raise ValueError(f"'{self.name}' {value!r}: {error}") from None
        return value

    def omitted(self, value: Any) -> bool:
        return value is None

    def schema(self) -> dict:
        return {"type": "string", "pattern": "\\S"}

    def text(self) -> str:
        return self.what
