"""convert: satdoku JSON <-> f-puzzles (string, link, JSON) <-> SudokuPad links keep the rules and
the solution; what a target cannot hold is named and refused unless --lossy; satdoku rules."""

from __future__ import annotations

import json

import pytest

import satdoku
from satdoku.io.fpuzzles import decode_fpuzzles, encode_fpuzzles
from satdoku.io.fpuzzles.write import to_fpuzzles
from satdoku.io.variant import read_variant, variant_document
from satdoku.rules import CONSTRAINTS
from satdoku.tasks.convert import TARGETS, convert
from conftest import VARIANTS, canonical_puzzle, rules_of



def same_puzzle(one: dict, other: dict) -> bool:
    """Whether two documents state the same puzzle down to every field (drawing ones too),
    whatever the order of their rules and regions, their name and source."""
    return canonical_puzzle(one) == canonical_puzzle(other)


def solution_of(document: dict):
    puzzle = read_variant(document)
    result = satdoku.count(puzzle)
    assert result.status == "unique", result.status
    return result.solution.cells


@pytest.mark.parametrize("path", sorted(p.with_suffix(".json") for p in VARIANTS.glob("*.txt")),
                         ids=lambda p: p.stem)
def test_shipped_puzzles_survive_a_sudokupad_link_and_solve_alike(path):
    original = json.loads(path.read_text())
    link = convert(path.read_text(), "sudokupad")
    assert link.lost == [] and link.text.startswith("https://sudokupad.app/fpuzzles")
    back = json.loads(convert(link.text, "json").text)
    assert rules_of(back) == rules_of(original)
    assert back["givens"] == original["givens"]
    assert back.get("name") == original.get("name")
    if same_puzzle(back, original):  # nothing but order and the source changed: solving adds nothing
        return
    assert solution_of(back) == solution_of(original)


@pytest.mark.parametrize("target", [t for t in TARGETS if t not in ("json", "sigh")])
def test_every_f_puzzles_form_reads_back(target):  # sigh's: tests/test_sigh.py (same solution)
    text = (VARIANTS / "blitz.json").read_text()
    out = convert(text, target)
    assert rules_of(json.loads(convert(out.text, "json").text)) == rules_of(json.loads(text))


def test_the_encoder_writes_what_the_decoder_reads():
    data = {"size": 9, "title": "ünïcødé ✓", "antiking": True}
    for form in ("fpuzzles", "fpuzzles-link", "sudokupad", "fpuzzles-json"):
        assert decode_fpuzzles(encode_fpuzzles(data, form)) == data


LOST = [
    ({"type": "diagonal-non-consecutive"}, "f-puzzles has no diagonal-non-consecutive rule"),
    ({"type": "sum-line", "cells": ["r1c1", "r1c2"], "sum": 10}, "has no sum-line rule"),
    ({"type": "modular", "cells": ["r1c1", "r1c2"], "mod": 4}, "f-puzzles' modularline has mod 3"),
    ({"type": "little-killer", "cells": ["r1c1", "r2c2"], "sum": 5},
     "over part of a diagonal"),
    ({"type": "no-kropki", "differences": [3], "ratios": []}, "no-kropki forbidding"),
    ({"type": "multi-killer", "cells": ["r1c1", "r1c2"], "sums": [5, 7]},
     "not all those of one digital root"),
]


@pytest.mark.parametrize("rule, why", LOST, ids=[r["type"] for r, _ in LOST])
def test_what_f_puzzles_cannot_hold_is_named(rule, why):
    puzzle = read_variant({"size": 9, "constraints": [rule, {"type": "anti-king"}]})
    export = to_fpuzzles(puzzle)
    assert len(export.lost) == 1 and why in export.lost[0], export.lost
    assert export.data["antiking"] is True


def test_adjacent_extremes_and_non_consecutive_beside_dots_are_named():
    puzzle = read_variant({"size": 4, "constraints": [
        {"type": "maximum", "cells": ["r1c1"]}, {"type": "maximum", "cells": ["r1c2"]},
        {"type": "non-consecutive"}, {"type": "kropki-black", "cells": ["r3c3", "r3c4"]}]})
    lost = to_fpuzzles(puzzle).lost
    assert len(lost) == 3 and "beside another maximum" in lost[0]
    assert "non-consecutive on a grid with kropki dots" in lost[2]


def test_a_converted_puzzle_solves_to_the_same_grid():
    text = (VARIANTS / "6x6-extreme-killer.txt").read_text().splitlines()[-1]
    source = convert(text, "json")
    for target in ("fpuzzles", "sudokupad"):
        again = convert(convert(source.text, target).text, "json")
        assert solution_of(json.loads(again.text)) == solution_of(json.loads(source.text))


# The command line.

def test_convert_command_writes_each_puzzle_and_names_the_losses(run, tmp_path):
    doc = {"size": 4, "constraints": [{"type": "sum-line", "cells": ["r1c1", "r1c2"],
                                       "sum": 5}, {"type": "anti-king"}]}
    refused = run("convert", json.dumps(doc), "--format", "fpuzzles-json")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert "fpuzzles-json cannot hold: sum line from r1c1 to r1c2 (segments of 5)" in refused.stderr
    assert "--lossy" in refused.stderr
    lossy = run("convert", json.dumps(doc), "--format", "fpuzzles-json", "--lossy")
    assert lossy.exit_code == 0 and json.loads(lossy.stdout)["antiking"] is True
    assert "leaves out: sum line" in lossy.stderr
    outside = {"size": 4, "extra-cells": ["VA"], "constraints": [
        {"type": "killer", "cells": ["VA", "r1c1"], "sum": 5}]}
    for extra in ((), ("--lossy",)):  # what --lossy cannot lift is not offered to it
        whole = run("convert", json.dumps(outside), "--format", "fpuzzles", *extra)
        assert whole.exit_code == 1 and "cells outside the grid" in whole.stderr
        assert "not converted\n" in whole.stderr and "--lossy" not in whole.stderr
    both = run("convert", VARIANTS / "peak.txt", VARIANTS / "miracle.json", "--format", "json")
    assert both.exit_code == 0 and len(both.stdout.splitlines()) == 2
    assert [json.loads(x)["size"] for x in both.stdout.splitlines()] == [4, 9]


def test_convert_to_svg_draws_the_unsolved_puzzle(run, tmp_path):
    result = run("convert", VARIANTS / "miracle.json", "--format", "svg")
    assert result.exit_code == 0 and result.stdout.startswith("<svg")
    assert result.stdout.count('class="given"') == 2 and 'class="solved"' not in result.stdout
    folder = tmp_path / "pics"
    assert run("convert", VARIANTS / "miracle.json", VARIANTS / "peak.json", "--format", "svg",
               "-o", f"{folder}/").exit_code == 0
    assert len(list(folder.glob("*.svg"))) == 2


def test_convert_takes_classic_puzzles_too(run):
    result = run("convert", "1.3..4.2.34.4.23", "--format", "fpuzzles-json")
    data = json.loads(result.stdout)
    assert data["size"] == 4 and data["grid"][0][0] == {"value": 1, "given": True}


def test_rules_command_lists_every_type_with_its_fields(run):
    listed = json.loads(run("rules", "--format", "json").stdout)
    assert [r["type"] for r in listed] == list(CONSTRAINTS)
    killer = next(r for r in listed if r["type"] == "killer")
    assert [f["name"] for f in killer["fields"]] == ["cells", "sum"]
    assert killer["fpuzzles"] == ["killercage", "extraregion"]
    pretty = run("rules").stdout
    assert "lockout: the line's two ends" in pretty and "    f-puzzles: lockout" in pretty


def test_a_document_written_by_convert_is_what_read_variant_writes():
    """Rules, givens, name, author and source: the one puzzle record carries them all."""
    text = (VARIANTS / "fortress.json").read_text()
    expected = variant_document(read_variant(text))
    assert expected["author"] and expected["source"]
    assert json.loads(convert(text, "json").text) == expected


def test_the_readme_link_is_what_convert_writes():
    readme = (VARIANTS.parent.parent / "README.md").read_text()
    shown = next(line for line in readme.splitlines()
                 if line.startswith("https://sudokupad.app/fpuzzles"))
    assert shown == convert((VARIANTS / "peak.json").read_text(), "sudokupad").text


def test_convert_is_a_task_whose_outcomes_carry_the_conversion():
    from satdoku.errors import PuzzleError
    from satdoku.model.puzzle import Puzzle
    from satdoku.io.text import parse_puzzle
    from satdoku.tasks.convert import Convert
    task = Convert("json")
    good, bad = parse_puzzle("1..." "...." "...." "...."), Puzzle(None, error=PuzzleError("x"))
    done, unread = task.run(good), task.run(bad)
    assert done.puzzle is done.result.puzzle is good
    assert done.result.text == ('{"format": "satdoku-variant", "version": 1, "size": 4, '
                                '"box": "2x2", "givens": {"r1c1": 1}, "constraints": []}')
    assert (unread.result.text, unread.result.error) == (None, bad.error)
    assert task.unpack(good, task.pack(done)).result == done.result
