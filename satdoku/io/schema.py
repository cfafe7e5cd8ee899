"""The JSON Schema of the satdoku variant format, built from the rule classes' declared fields.

``satdoku/schema/variant-1.schema.json`` is this schema written out (for editors and other
tools, which want a file); ``tests/test_variant.py`` holds the file equal to
:func:`variant_schema`, and ``python -m satdoku.io.schema > satdoku/schema/variant-1.schema.json``
writes it again after a rule changes. The schema sees the shape of a document; what needs the
grid (cells inside it, R*C = size, regions that tile it, adjacency) only the reader checks.
"""

from __future__ import annotations

import json
import sys

from ..model.geometry import MAX_SIZE
from ..rules import CONSTRAINTS

__all__ = ["variant_schema", "schema_text"]

_DEFS = {
    "cell": {"type": "string", "pattern": "^([rR][0-9]+[cC][0-9]+|[A-Z][A-Z0-9_]*)$",
             "description": "r{row}c{col}, 1-based (r1c1 is top left), or the name of a cell "
                            "outside the grid (extra-cells)"},
    "cells": {"type": "array", "items": {"$ref": "#/$defs/cell"}, "minItems": 1,
              "uniqueItems": True},
    "path": {"type": "array", "items": {"$ref": "#/$defs/cell"}, "minItems": 1,
             "description": "cells along a line, in order; a cell may come twice"},
    "neighbours": {"type": "array", "items": {"$ref": "#/$defs/cell"}, "minItems": 2,
             "maxItems": 2, "uniqueItems": True},
    "line": {"type": "string", "pattern": "^[rRcC][0-9]+$",
             "description": "r3 (row 3) or c5 (column 5)"},
}


def _document() -> dict:
    """Everything but the constraints: the document's own fields."""
    return {
        "format": {"const": "satdoku-variant"},
        "version": {"const": 1},
        "name": {"type": "string"},
        "author": {"type": "string"},
        "source": {"type": "string"},
        "size": {"type": "integer", "minimum": 1, "maximum": MAX_SIZE},
        "shape": {"type": "string", "pattern": "^[0-9]+x[0-9]+$",
                 "description": "rows x columns of a grid of other shape, instead of size"},
        "box": {"type": ["string", "null"], "pattern": "^([0-9]+x[0-9]+|none)$"},
        "regions": {"type": ["array", "null"], "items": {"$ref": "#/$defs/cells"}},
        "digits": {"type": "string", "pattern": "^[0-9]+-[0-9]+$",
                   "description": "the values the digits stand for, e.g. 0-8 (default 1-N)"},
        "extra-cells": {"type": "array", "uniqueItems": True, "items": {
            "type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
            "description": "names of cells outside the grid (sigh's Var): each holds one of the "
                           "grid's values, in no row, column or box; rules name them"},
        "givens": {"anyOf": [
            {"type": "null"}, {"type": "string"},
            {"type": "object", "propertyNames": {"$ref": "#/$defs/cell"},
             "additionalProperties": {"type": "integer", "minimum": 0}}]},
        "constraints": {"type": "array", "items": {"$ref": "#/$defs/constraint"}},
    }


def _rule(name: str, cls) -> dict:
    properties = {"type": {"const": name}, "label": {"type": "string"}}
    properties.update({f.name: f.schema() for f in cls.fields})
    return {"type": "object", "properties": properties,
            "required": ["type"] + [f.name for f in cls.fields if f.required],
            "additionalProperties": False}


def variant_schema() -> dict:
    """The JSON Schema (draft 2020-12) of one satdoku variant document.

    >>> schema = variant_schema()
    >>> schema["$defs"]["thermometer"]["required"], "x-sum" in schema["$defs"]
    (['type', 'cells'], True)
    """
    constraint = {
        "type": "object",
        "properties": {"type": {"enum": list(CONSTRAINTS)}},
        "required": ["type"],
        "allOf": [{"if": {"properties": {"type": {"const": name}}},
                   "then": {"$ref": f"#/$defs/{name}"}} for name in CONSTRAINTS],
    }
    taken = set(_DEFS) & set(CONSTRAINTS)
    if taken:  # a rule's definition would replace a shared one
        raise ValueError(f"rule types {sorted(taken)} are names of the schema's own $defs")
    defs = dict(_DEFS, constraint=constraint)
    defs.update((name, _rule(name, cls)) for name, cls in CONSTRAINTS.items())
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:satdoku:schema:variant-1",
        "title": "satdoku variant puzzle, version 1",
        "description": "One variant Sudoku; a file of several is JSON Lines. satdoku.io.variant "
                       "reads it (and checks what a schema cannot: cells inside the grid, "
                       "R*C = size, regions that tile the grid, adjacency of dots, diagonal "
                       "little-killer runs).",
        "type": "object",
        "properties": _document(),
        "anyOf": [{"required": ["size"]}, {"required": ["shape"]}],
        "additionalProperties": False,
        "not": {"properties": {"box": {"type": "string"}, "regions": {"type": "array"}},
                "required": ["box", "regions"]},
        "$defs": defs,
    }


def schema_text() -> str:
    """:func:`variant_schema` as the text of the committed file."""
    return json.dumps(variant_schema(), indent=2) + "\n"


if __name__ == "__main__":  # pragma: no cover - the way to write the file again
    sys.stdout.write(schema_text())
