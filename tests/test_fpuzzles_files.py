"""f-puzzles files of items, the shipped puzzles and their published solutions, the user
documentation's examples, and issue 23's cases through the command line. The helpers are
test_fpuzzles.py's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from satdoku.io.fpuzzles import COSMETIC as COSMETIC_KEYS
from satdoku.io.fpuzzles import METADATA as METADATA_KEYS
from satdoku.io.fpuzzles import (convert_fpuzzles, format_document, from_fpuzzles, mapping,
                                 read_fpuzzles_lines)
from spec_checker import FIELDS, check_document, violations
from test_fpuzzles import PACKED, SAMPLE, UNKNOWN, VARIANTS, fp


# Files of items.

def test_a_file_of_items_goes_on_past_bad_lines():
    lines = ["# a file", "", "# source: first, cited",
             "https://f-puzzles.com/?load=" + PACKED, "not base64 at all!",
             json.dumps(fp(4, antiking=True)), "", "# source: unused"]
    lines[6] = json.dumps(UNKNOWN)
    items = list(read_fpuzzles_lines(lines, "list.txt"))
    assert [(item.line, item.ok) for item in items] == [(4, True), (5, False), (6, True),
                                                      (7, False)]
    assert items[0].document["source"] == "first, cited"
    assert "source" not in items[2].document
    assert str(items[1].error).startswith("list.txt:5: not an f-puzzles string")
    assert str(items[3].error).startswith("list.txt:7: satdoku cannot use")
    lenient = list(read_fpuzzles_lines(lines, "list.txt", ignore_unknown=True))
    assert [item.ok for item in lenient] == [True, False, True, True]
    assert lenient[3].conversion.warnings


def test_documents_round_trip_through_format_document_and_json_lines():
    document = from_fpuzzles(SAMPLE)
    assert json.loads(format_document(document)) == document
    assert json.loads(json.dumps(document)) == document
    assert "\n" not in json.dumps(document)


def test_the_setters_solution_is_kept_beside_the_document():
    data = fp(4, solution=[1, 2, 3, 4] * 3 + [0, 4, 3, "x"])
    assert convert_fpuzzles(data).solution == [1, 2, 3, 4] * 3 + [0, 4, 3, 0]
    assert convert_fpuzzles(fp(4)).solution is None


# The shipped puzzles.

def shipped():
    return [pytest.param(path, id=path.stem) for path in sorted(VARIANTS.glob("*.txt"))]


def comments(path):
    return dict(re.match(r"#\s*([\w-]+):\s*(.*)", line).groups()
                for line in path.read_text().splitlines() if re.match(r"#\s*[\w-]+:", line))


@pytest.mark.parametrize("path", shipped())
def test_shipped_puzzles_convert_to_their_json_and_their_solutions_hold(path):
    notes = comments(path)
    items = list(read_fpuzzles_lines(path.read_text().splitlines(), str(path)))
    assert len(items) == 1 and items[0].ok, items[0].error
    item = items[0]
    document = item.document
    check_document(document)
    assert document["source"] == notes["source"]
    assert item.conversion.warnings == ([notes["note"]] if "note" in notes else [])
    assert path.with_suffix(".json").read_text() == format_document(document) + "\n"
    assert violations(document, notes["solution"]) == []


@pytest.mark.parametrize("path", shipped()[:3])
def test_the_checker_sees_a_wrong_solution(path):
    notes = comments(path)
    document = json.loads(path.with_suffix(".json").read_text())
    solution = notes["solution"]
    swapped = solution[1] + solution[0] + solution[2:]   # two cells of one row swapped
    assert violations(document, swapped)


def test_the_readme_describes_every_shipped_puzzle():
    readme = (VARIANTS / "README.md").read_text()
    for path in VARIANTS.glob("*.txt"):
        assert f"`{path.stem}`" in readme, path.stem


# The user documentation.

DOCS = Path(__file__).resolve().parent.parent / "docs" / "variants.md"


def test_the_docs_name_every_key_and_every_type():
    """One row per f-puzzles key (the rules' declarations, the metadata and the drawings)
    and per rule type."""
    from satdoku.rules import CONSTRAINTS
    docs = DOCS.read_text()
    for key in [k for k, _, _ in mapping()] + list(COSMETIC_KEYS) + list(METADATA_KEYS):
        assert f"| `{key}`" in docs, key
    for kind in CONSTRAINTS:
        assert f"| `{kind}` |" in docs, kind
        assert kind in FIELDS, f"the spec checker has no {kind}"


def test_the_docs_examples_are_valid_documents():
    docs = DOCS.read_text()
    example = json.loads(re.search(r"```json\n(.*?)```", docs, re.S).group(1))
    check_document(example)
    miracle = json.loads((VARIANTS / "miracle.json").read_text())
    assert example["givens"] == miracle["givens"]
    assert [k["type"] for k in example["constraints"]] == \
        [k["type"] for k in miracle["constraints"]]
    jsonl = re.search(r"JSON Lines file.*?```\n(.*?)```", docs, re.S).group(1)
    for line in jsonl.splitlines():
        check_document(json.loads(line))


def test_the_docs_refusal_example_is_what_the_library_says():
    docs = DOCS.read_text()
    shown = re.search(r"(mystery.txt:1: satdoku cannot use .*)", docs).group(1)
    item, = read_fpuzzles_lines([json.dumps(fp(4, mystery=True))], "mystery.txt")
    assert str(item.error) == shown


def test_the_issue_region_sum_line_counts_24(run):
    """Issue 23: a region-sum line that leaves box 1 and comes back has three segments."""
    data = ('{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],'
            '"regionsumline":[{"lines":[["R1C1","R1C2","R1C3","R2C2"]]}]}')
    result = run("count", data, "--limit", "1000", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["count"] == 24


def test_a_short_link_says_satdoku_works_offline_and_what_to_paste(run):
    result = run("solve", "https://f-puzzles.com/?id=yc4ej2ea")
    assert result.exit_code == 1
    assert "works offline" in result.stderr and "?load=" in result.stderr
    assert "no such file" not in result.stderr
