"""variant: reading and writing variant puzzle documents and streams, located errors, and the
JSON Schema (every document the tests use validates against it)."""

import json
import re
from pathlib import Path

import pytest

import satdoku.rules as C
from satdoku.errors import PuzzleError
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.io.variant import (format_variant, parse_variants, read_variant, read_variants,
                                variant_document)
from satdoku.model.puzzle import Puzzle
from test_constraints import TEST_PUZZLES

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "satdoku" / "schema" / "variant-1.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text())

JIGSAW = {
    "format": "satdoku-variant", "version": 1, "name": "jigsaw 4x4", "author": "satdoku tests",
    "source": "made for the tests", "size": 4,
    "regions": [["r1c1", "r1c2", "r1c3", "r2c1"], ["r1c4", "r2c2", "r2c3", "r2c4"],
                ["r3c1", "r4c1", "r4c2", "r3c2"], ["r3c3", "r3c4", "r4c3", "r4c4"]],
    "givens": "1.........3.....",
    "constraints": [{"type": "killer", "cells": ["r4c3", "r4c4"], "sum": 3, "label": "cage"}],
}
SPEC_EXAMPLE = {  # the example of the format's description
    "format": "satdoku-variant", "version": 1, "name": "optional title", "author": "optional",
    "source": "optional URL or citation", "size": 9, "box": "3x3", "regions": None,
    "givens": {"r1c1": 5, "r3c7": 2},
    "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 10},
                    {"type": "thermometer", "cells": ["r4c4", "r4c5", "r4c6"]}],
}
DOCUMENTS = [json.loads(line) for line in TEST_PUZZLES.splitlines()] + [JIGSAW, SPEC_EXAMPLE]


# -- a tiny JSON Schema validator: the keywords variant-1.schema.json uses ----------------

_TYPES = {"object": dict, "array": list, "string": str, "null": type(None)}


def _is_type(value, name):
    if name in ("integer", "number"):
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "boolean":
        return isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def schema_errors(value, schema=SCHEMA, path="$"):
    """What is wrong with ``value`` under ``schema`` (empty: valid)."""
    if "$ref" in schema:
        target = SCHEMA
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target[part]
        return schema_errors(value, target, path)
    errors = []
    types = schema.get("type")
    if types is not None:
        types = [types] if isinstance(types, str) else types
        if not any(_is_type(value, t) for t in types):
            return [f"{path}: not {' or '.join(types)}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: not one of {schema['enum']}")
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        errors.append(f"{path}: does not match {schema['pattern']}")
    if _is_type(value, "integer"):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            errors.append(f"{path}: {value} out of range")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            errors.append(f"{path}: {len(value)} items")
        if schema.get("uniqueItems") and len(set(map(json.dumps, value))) != len(value):
            errors.append(f"{path}: items repeat")
        for i, item in enumerate(value):
            if "items" in schema:
                errors += schema_errors(item, schema["items"], f"{path}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        errors += [f"{path}: '{k}' missing" for k in schema.get("required", []) if k not in value]
        for key, item in value.items():
            if "propertyNames" in schema:
                errors += schema_errors(key, schema["propertyNames"], f"{path} key {key!r}")
            if key in props:
                errors += schema_errors(item, props[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unknown '{key}'")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += schema_errors(item, schema["additionalProperties"], f"{path}.{key}")
    for sub in schema.get("allOf", []):
        errors += schema_errors(value, sub, path)
    if "anyOf" in schema and all(schema_errors(value, s, path) for s in schema["anyOf"]):
        errors.append(f"{path}: matches none of anyOf")
    if "not" in schema and not schema_errors(value, schema["not"], path):
        errors.append(f"{path}: matches what is excluded")
    if "if" in schema and not schema_errors(value, schema["if"], path):
        errors += schema_errors(value, schema.get("then", {}), path)
    return errors


def test_validator_knows_every_keyword_the_schema_uses():
    known = {"$schema", "$id", "title", "description", "type", "properties", "required",
             "additionalProperties", "not", "$defs", "$ref", "const", "enum", "pattern",
             "minimum", "maximum", "items", "minItems", "maxItems", "uniqueItems",
             "propertyNames", "anyOf", "allOf", "if", "then"}

    def keywords(node, inside_properties=False):
        if isinstance(node, list):
            return set().union(*(keywords(x) for x in node)) if node else set()
        if not isinstance(node, dict):
            return set()
        found = set() if inside_properties else set(node)
        for key, sub in node.items():
            if key in ("enum", "const", "required"):
                continue
            found |= keywords(sub, key in ("properties", "$defs"))
        return found

    assert keywords(SCHEMA) <= known


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: d.get("name", "?"))
def test_every_document_the_tests_use_validates(doc):
    assert schema_errors(doc) == []
    assert schema_errors(variant_document(read_variant(doc))) == []


def test_schema_lists_every_constraint_type():
    assert SCHEMA["$defs"]["constraint"]["properties"]["type"]["enum"] == list(C.CONSTRAINTS)
    assert all(name in SCHEMA["$defs"] for name in C.CONSTRAINTS)


def test_the_committed_schema_is_the_one_the_rule_classes_declare():
    """The file is generated (python -m satdoku.io.schema): a rule changed without writing
    it again fails here."""
    from satdoku.io.schema import schema_text
    assert SCHEMA_PATH.read_text() == schema_text()


def test_with_jsonschema_when_installed():
    jsonschema = pytest.importorskip("jsonschema")
    # One validator, the schema checked once: jsonschema.validate() checks the schema against
    # its meta-schema again for every document, which cost the suite 16-40 s.
    validator = jsonschema.validators.validator_for(SCHEMA)
    validator.check_schema(SCHEMA)
    check = validator(SCHEMA)
    for doc in DOCUMENTS:
        check.validate(doc)
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"size": "nine"})


# -- reading and writing ------------------------------------------------------------------

def test_reads_a_jigsaw_with_givens_as_a_string():
    p = read_variant(JIGSAW)
    assert p.geometry.shape == "jigsaw" and p.geometry.houses[8] == (0, 1, 2, 4)
    assert list(p.grid.givens()) == [(0, 1), (10, 3)]
    assert (p.name, p.author, p.citation) == ("jigsaw 4x4", "satdoku tests", "made for the tests")
    assert p.constraints == (C.Killer((14, 15), 3),) and p.constraints[0].label == "cage"


def test_reads_the_example_of_the_format_description():
    p = read_variant(json.dumps(SPEC_EXAMPLE))
    assert p.geometry is geometry(3, 3)
    assert [c.describe(p.geometry) for c in p.constraints] == [
        "killer cage r1c1-r1c2 = 10", "thermometer from r4c4 to r4c6"]


def test_usual_box_when_none_is_given():
    assert read_variant({"size": 6}).geometry is geometry(2, 3)
    assert read_variant({"size": 6, "box": "3x2"}).geometry is geometry(3, 2)


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: d.get("name", "?"))
def test_round_trip(doc):
    puzzle = read_variant(doc)
    text = format_variant(puzzle)
    assert "\n" not in text
    again = read_variant(text)
    assert again == puzzle
    assert variant_document(again) == variant_document(puzzle)
    assert read_variant(format_variant(puzzle, indent=2)) == puzzle


def test_puzzle_check_names_the_broken_rules():
    g = geometry(2, 2)
    p = Puzzle(Grid(g, (1,) + (0,) * 15), constraints=(C.Killer((0, 1), 3), C.Odd((2,))))
    good = Grid(g, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
    assert p.check(good) == [] and p.is_solution(good)
    swapped = Grid(g, (1, 2, 4, 3, 3, 4, 1, 2, 2, 1, 3, 4, 4, 3, 2, 1))
    assert p.check(swapped) == ["odd r1c3: broken by r1c3=4"]
    assert p.check(Grid(g, (2,) + good.cells[1:])) == [
        "row 1 lacks 1", "column 1 lacks 1", "box 1 lacks 1", "r1c1: given 1 changed to 2",
        "killer cage r1c1-r1c2 = 3: a digit repeats: broken by r1c1=2, r1c2=2"]


BAD = [
    ({"size": 4, "colour": "red"}, "unknown field 'colour'"),
    ({"size": 4, "version": 2}, "version 2 is not one satdoku reads (it reads version 1)"),
    ({"size": 4, "format": "f-puzzles"}, "'format' must be 'satdoku-variant', not 'f-puzzles'"),
    ({}, "'size' is missing"),
    ({"size": 7}, "a 7x7 grid has no usual box shape: give 'box' or 'regions'"),
    ({"size": 4, "box": "3x2"}, "'box' must be 'RxC' with R*C = 4, or 'none', not '3x2'"),
    ({"size": 4, "box": "2x2", "regions": []}, "give 'box' or 'regions', not both"),
    ({"size": 4, "regions": [["r1c1"]] * 4}, "'regions' must be 4 lists of 4 cell names"),
    ({"size": 2, "regions": [["r1c1", "r1c2"], ["r1c2", "r2c2"]]},
     "r1c2: 'regions': in regions 1 and 2"),
    ({"size": 4, "givens": "1234"}, "'givens' has 4 symbols; a 4x4 grid has 16"),
    ({"size": 4, "givens": "1x" + "." * 14}, "r1c2: 'givens': unknown symbol 'x'"),
    ({"size": 4, "givens": {"r1c1": 5}}, "r1c1: 'givens': 5 is not a digit 1..4"),
    ({"size": 4, "givens": {"r1c1": 1, "r1c3": 1}}, "r1c3: 1 repeats the given at r1c1"),
    ({"size": 4, "constraints": {}}, "'constraints' must be a list"),
    ({"size": 4, "constraints": [5]}, "constraints[0]: a constraint must be a JSON object"),
    ({"size": 4, "constraints": [{"cells": []}]}, "constraints[0]: a constraint needs a 'type'"),
    ({"size": 4, "constraints": [{"type": "odd", "cells": ["r1c1"]}, {"type": "sudoku"}]},
     "constraints[1] (sudoku): unknown constraint type 'sudoku' (did you mean 'windoku'?)"),
    ({"size": 4, "constraints": [{"type": "odd", "cells": ["r1c1"], "color": 1}]},
     "constraints[0] (odd): unknown field 'color'"),
    ({"size": 4, "constraints": [{"type": "odd", "cells": ["a1"]}]},
     "constraints[0] (odd): 'a1' is not a cell name like 'r1c1'"),
    ({"size": 4, "constraints": [{"type": "odd", "cells": ["r1c1", "r1c1"]}]},
     "constraints[0] (odd): 'cells' has r1c1 twice"),
    ({"size": 4, "constraints": [{"type": "killer", "cells": ["r1c1"], "sum": "3"}]},
     "constraints[0] (killer): 'sum' must be an integer or null, not '3'"),
    ({"size": 4, "constraints": [{"type": "kropki-white", "cells": ["r1c1", "r2c2"]}]},
     "constraints[0] (kropki-white): r1c1 and r2c2 are not orthogonally adjacent"),
    ({"size": 4, "constraints": [{"type": "xv", "cells": ["r1c1", "r1c2"], "sum": 7}]},
     "constraints[0] (xv): an XV clue sums to 5 or 10, not 7"),
    ({"size": 4, "constraints": [{"type": "little-killer", "cells": ["r1c1", "r1c2"], "sum": 3}]},
     "constraints[0] (little-killer): 'cells' must be a diagonal run, each cell one step "
     "further in the same diagonal direction"),
    ({"size": 4, "constraints": [{"type": "little-killer", "cells": ["r1c1"], "sum": 3,
                                  "clue": "top"}]},
     "constraints[0] (little-killer): 'clue' must name a place like 'r0c1' (rows and columns "
     "0..5), not 'top'"),
    ({"size": 4, "constraints": [{"type": "quadruple", "cells": ["r1c1", "r1c2", "r1c3",
                                                                 "r1c4"], "digits": [1]}]},
     "constraints[0] (quadruple): 'cells' must be the four cells around one corner (a 2x2 "
     "square)"),
    ({"size": 4, "constraints": [{"type": "clone", "cells": ["r1c1"],
                                  "clone": ["r3c3", "r3c4"]}]},
     "constraints[0] (clone): 'clone' must have as many cells as 'cells' (1), not 2"),
    ({"size": 4, "constraints": [{"type": "thermo", "cells": ["r1c1", "r1c2", "r1c3"]}]},
     "constraints[0] (thermo): unknown constraint type 'thermo' (did you mean 'thermometer'?)"),
    ({"size": 4, "constraints": [{"type": "killer", "cells": ["r1c1"], "sums": [3]}]},
     "constraints[0] (killer): unknown field 'sums' (did you mean 'sum'?)"),
    ({"size": 4, "constraints": [{"type": "rule-159"}]},
     "constraints[0] (rule-159): rule 1-5-9 needs columns 1 to 9, not a 4x4 grid"),
    ({"size": 4, "regions": JIGSAW["regions"], "constraints": [{"type": "disjoint-groups"}]},
     "constraints[0] (disjoint-groups): disjoint groups need regular boxes, not a jigsaw"),
    ({"size": 4, "constraints": [{"type": "diagonal", "direction": "/"}]},
     "constraints[0] (diagonal): 'direction' must be one of '+', '-', not '/'"),
    ({"size": 4, "constraints": [{"type": "sandwich", "line": "r5", "sum": 3}]},
     "constraints[0] (sandwich): 'line' must be a row 'r1'..'r4' or a column 'c1'..'c4', "
     "not 'r5'"),
    ({"size": 4, "constraints": [{"type": "x-sum", "line": "c1", "sum": 3}]},
     "constraints[0] (x-sum): 'from' is missing"),
    ({"size": 4, "constraints": [{"type": "skyscraper", "line": "c1", "from": "end",
                                  "count": 5}]},
     "constraints[0] (skyscraper): 'count' must be 1..4, not 5"),
    ({"size": 4, "constraints": [{"type": "arrow", "circle": ["r1c1"], "cells": ["r1c1"]}]},
     "constraints[0] (arrow): r1c1 is in both 'circle' and 'cells'"),
    ({"size": 4, "constraints": [{"type": "minimum", "cells": ["r1c1", "r1c2"]}]},
     "constraints[0] (minimum): 'cells' must have 1 cell, not 2"),
    ({"size": 4, "constraints": [{"type": "thermometer", "cells": ["r1c1"], "label": 3}]},
     "constraints[0] (thermometer): 'label' must be a string"),
]


@pytest.mark.parametrize("doc, message", BAD, ids=[m for _, m in BAD])
def test_errors_say_where_and_what(doc, message):
    with pytest.raises(PuzzleError) as info:
        read_variant(doc, "bad.jsonl", 7)
    assert str(info.value) == f"bad.jsonl:7: {message}"
    assert (info.value.source, info.value.line) == ("bad.jsonl", 7)


#: The errors above that a JSON Schema can see (the others need the grid's size or shape).
SCHEMA_SEES = [doc for doc, message in BAD if re.search(
    "unknown field|unknown constraint|version|'format'|missing|not both|must be a list|"
    "must be a JSON object|needs a 'type'|not a cell name|twice|must be an integer|"
    "sums to 5 or 10|'direction'|must have 1 cell|'label'", message)]


@pytest.mark.parametrize("doc", SCHEMA_SEES)
def test_schema_rejects_what_it_can_see(doc):
    assert schema_errors(doc)


def test_not_json():
    with pytest.raises(PuzzleError, match=r"^<arg>: not JSON: Expecting value \(line 1 column 1\)"):
        read_variant("nonsense")


# -- streams ------------------------------------------------------------------------------

STREAM = [
    "# variant puzzles",
    '{"size": 4, "givens": {"r1c1": 1}}',
    "",
    '{"size": 4, "constraints": [{"type": "odd", "cells": ["r9c9"]}]}',
    "{",
    '  "size": 6,',
    '  "constraints": [{"type": "anti-knight"}]',
    "}",
    '{"size": 4, "givens": ',
    '{"size": 4, "name": "after a broken line"}',
    "{oops}",
    '{"size": 9, "box": "3x3", "constraints": [',
]


def test_a_bad_document_never_stops_the_stream():
    entries = list(parse_variants(STREAM, "s.jsonl"))
    assert [(e.line, e.index, e.ok) for e in entries] == [
        (2, 1, True), (4, 2, False), (5, 3, True), (9, 4, False), (10, 5, True), (11, 6, False),
        (12, 7, False)]
    assert str(entries[1].error) == "s.jsonl:4: constraints[0] (odd): r9c9 is outside the 4x4 grid"
    assert entries[2].constraints == (C.AntiKnight(geometry(2, 3)),)
    assert str(entries[3].error).startswith("s.jsonl:9: not JSON: Expecting value")
    assert entries[4].name == "after a broken line"
    assert str(entries[5].error).startswith("s.jsonl:11: not JSON: Expecting property name")
    assert str(entries[6].error).startswith("s.jsonl:12: not JSON: Expecting value")


def test_read_variants_from_a_file(tmp_path):
    path = tmp_path / "puzzles.jsonl"
    path.write_text(TEST_PUZZLES, encoding="utf-8")
    entries = list(read_variants(str(path)))
    assert len(entries) == len(TEST_PUZZLES.splitlines()) and all(e.ok for e in entries)
    assert entries[0].source == str(path) and entries[-1].line == len(entries)
    with pytest.raises(PuzzleError, match="no/such.jsonl: cannot read"):
        read_variants(str(tmp_path / "no/such.jsonl"))


def test_deeply_nested_json_is_one_error_and_the_stream_goes_on():
    deep = '{"size": 4, "givens": ' + "[" * 5000 + "]" * 5000 + "}"
    entries = list(parse_variants([deep, '{"size": 4}']))
    assert [e.ok for e in entries] == [False, True]
    assert "nested too deeply" in str(entries[0].error)
    with pytest.raises(PuzzleError, match="nested too deeply"):
        read_variant(deep)


def test_a_key_given_twice_and_an_array_are_named():
    twice = list(parse_variants(['{"size": 4, "givens": {"r1c1": 1, "r1c1": 2}}']))
    assert "the key 'r1c1' twice in one object" in str(twice[0].error)
    array = list(parse_variants(["[1, 2, 3]"]))
    assert str(array[0].error) == "<stdin>:1: a variant puzzle must be a JSON object"
