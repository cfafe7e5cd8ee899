"""sigh's constraint strings: satdoku -> sigh -> satdoku for every shipped variant puzzle
sigh's language can hold (same only solution), puzzles from sigh's own data files with their
published solutions (when sigh's repository is unpacked at $SIGH or /tmp/sigh), located errors
for bad strings, and SudokuPad links that carry the solution.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pytest

import satdoku
from satdoku.errors import PuzzleError
from satdoku.io.sigh import format_sigh, looks_like_sigh, read_sigh
from satdoku.io.sigh.types import decode_pairs
from satdoku.tasks.convert import convert
from satdoku.io.variant import variant_document
from conftest import VARIANT_SOLUTIONS, VARIANTS, canonical_puzzle, run_cli

#: Shipped puzzles with a rule sigh's language cannot hold, and what.
LOSSY = {"black-kropki-x": "no-kropki with its own list"}
SIGH = Path(os.environ.get("SIGH", "/tmp/sigh"))
#: Puzzles of sigh's data files, one or two of each kind of rule the reader maps.
SIGH_EXAMPLES = ["Entropic connections", "Pill Arrow Sudoku", "XV Kropki Sudoku",
                 "Little Killer Sudoku", "X-Sum", "Jigsaw", "Clone", "Cold Sauerkraut",
                 "Regex line", "Either/Or", "6x6", "Diagonal Skyscrapers"]


def digits(cells) -> str:
    return "".join(map(str, cells))


@pytest.mark.parametrize("stem", sorted(VARIANT_SOLUTIONS))
def test_each_shipped_puzzle_goes_to_sigh_and_back_with_its_only_solution(stem):
    puzzle = satdoku.read(str(VARIANTS / f"{stem}.json"))
    export = format_sigh(puzzle)
    if stem in LOSSY:
        assert any(LOSSY[stem].split()[0] in x for x in export.lost)
        return
    assert export.lost == []
    assert looks_like_sigh(export.text)
    back = satdoku.read(export.text)  # read as every command reads it
    original = json.loads((VARIANTS / f"{stem}.json").read_text())
    if canonical_puzzle(variant_document(back), drawing=False) == \
            canonical_puzzle(original, drawing=False):
        return  # the same rules, givens and regions: the same only solution
    answer = satdoku.count(back)
    assert answer.status == "unique"
    assert digits(answer.solution.cells) == VARIANT_SOLUTIONS[stem]


def sigh_example(name: str) -> tuple[str, str]:
    """The input and solution of a named entry of sigh's data files."""
    text = (SIGH / "data" / "example_puzzles.js").read_text() + \
        (SIGH / "data" / "collections.js").read_text()
    start = text.index(f"name: '{name}'")
    end = text.find("name:", start + 6)
    entry = text[start:end if end > 0 else len(text)]
    found = re.search(r"input:\s*'((?:[^'\\]|\\.)*)'", entry)
    solution = re.search(r"solution:\s*'(\d+)'", entry)
    assert found and solution, name
    return found.group(1), solution.group(1)


@pytest.mark.skipif(not (SIGH / "data" / "example_puzzles.js").exists(),
                    reason="sigh's repository is not unpacked at $SIGH or /tmp/sigh")
@pytest.mark.parametrize("name", SIGH_EXAMPLES)
def test_sigh_examples_read_and_solve_to_their_published_solution(name):
    text, solution = sigh_example(name)
    result = satdoku.count(text)
    assert result.status == "unique"
    assert digits(result.solution.cells) == solution


def test_a_string_reads_into_the_rules_it_names():
    doc = read_sigh(".Shape~6x6.Whisper~R1C1~R1C2.X~R1C3~R1C4~R2C4.Cage~~R3C1~R3C2"
                    ".Or.Thermo~R5C1~R5C2.~R5C1_2.End.~R6C6_1_2.~R6C6_2_3").document
    assert doc["size"] == 6 and doc["box"] == "2x3"
    assert doc["givens"] == {"r6c6": 2}
    assert doc["constraints"] == [
        {"type": "german-whispers", "cells": ["r1c1", "r1c2"], "difference": 5},
        {"type": "xv", "cells": ["r1c3", "r1c4"], "sum": 10},
        {"type": "xv", "cells": ["r1c4", "r2c4"], "sum": 10},
        {"type": "killer", "cells": ["r3c1", "r3c2"], "sum": None},
        {"type": "or", "rules": [{"type": "thermometer", "cells": ["r5c1", "r5c2"]},
                                 {"type": "candidates", "cells": ["r5c1"], "digits": [2]}]}]


def test_a_composite_goes_to_sigh_and_back():
    text = ".Or.Thermo~R1C1~R1C2.Thermo~R1C2~R1C1.End.~R1C1_3"
    puzzle = satdoku.read(text)
    again = satdoku.read(format_sigh(puzzle).text)
    assert again.constraints == puzzle.constraints and again.grid == puzzle.grid


def test_pair_keys_decode_as_sigh_writes_them():
    # sigh's fnToBinaryKey: bit (a-1)*N + (b-1), six bits a symbol, low bit first
    assert decode_pairs("C", 2) == [[1, 2]]      # bit 1
    assert decode_pairs("E", 2) == [[2, 1]]      # bit 2
    assert decode_pairs("J", 2) == [[1, 1], [2, 2]]  # bits 0 and 3


@pytest.mark.parametrize("text, message", [
    (".Thermo~R1C1~R1C0", "sigh item 1 (.Thermo): 'R1C0' is not a cell of the 9x9 grid"),
    (".AntiKing.~R1C1_10", "r1c1: sigh item 2 (.Given): '10' is not a value 1-9"),
    (".Foo~R1C1", "sigh item 1: unknown constraint type 'Foo'"),
    (".Or.Thermo~R1C1~R1C2", "sigh item 1 (.Or): no .End closes it"),
    (".Thermo~R1C1~R1C2.End", "sigh item 2 (.End): no composite to end"),
    (".Shape~4x4.Cage~x~R1C1~R1C2", "sigh item 2 (.Cage): the sum 'x' is not a whole number"),
    (".LittleKiller~10~R5C5", "r5c5: sigh item 1 (.LittleKiller): no diagonal starts there"),
    (".~R1C1_1.~R1C1_2", "r1c1: sigh item 2: no value is left for the cell"),
    (".Doppelganger.Var~V~x~2", "satdoku cannot use sigh's Doppelganger (on a 9x9 grid of "
                                "values 1-9)"),
    (".Var~A~~2.Thermo~R9C1~VA1", "sigh item 2 (.Thermo): VA1 is outside the grid: "
                                  "it has no row or column"),
    (".NFA~!~R1C1", "sigh item 1 (.NFA): the state machine is empty"),
    (".Shape~9x9~1-9~Raw", "satdoku cannot hold the grid of sigh's Shape (Raw grid)"),
    (".Shape~6x9.AntiConsecutive",
     "satdoku cannot use sigh's AntiConsecutive (on a 6x9 grid of 9 values)"),
    (".Shape~6x6~1-5", "sigh item 1 (.Shape): values 1-5 do not fill a 6x6 grid"),
    (".Shape~6x6~9.RegionSize~5", "sigh item 2 (.RegionSize): '5' is not a region size 6..9"),
    (".Replicate~C~R9C9.Thermo~R1C1~R1C2.End", "sigh item 1 (.Replicate): a target is past"),
])
def test_a_bad_string_gets_one_located_line(text, message):
    with pytest.raises(PuzzleError) as caught:
        satdoku.read(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_ignore_unknown_leaves_out_what_satdoku_lacks_with_a_warning():
    puzzle = satdoku.read(".Doppelganger.Thermo~R1C1~R1C2", ignore_unknown=True)
    assert [c.type for c in puzzle.constraints] == ["thermometer"]
    assert puzzle.warnings == ("left out: sigh's Doppelganger (on a 9x9 grid of values 1-9)",)


def test_convert_writes_sigh_and_reads_it_on_the_command_line():
    result = run_cli("convert", "--format", "sigh", VARIANTS / "blitz.json")
    assert result.exit_code == 0
    assert result.output.startswith(".Cage~~R2C3~R3C3~") and looks_like_sigh(result.output)
    counted = run_cli("count", "--format", "line", result.output.strip())
    assert counted.exit_code == 0 and counted.output.strip() == VARIANT_SOLUTIONS["blitz"]


def test_a_sudokupad_link_carries_the_proven_solution_and_reads_back_with_it():
    doc = (VARIANTS / "blitz.json").read_text()
    link = convert(doc, "sudokupad")
    assert link.text.startswith("https://sudokupad.app/fpuzzles")
    back = satdoku.read(link.text)
    assert digits(back.solution) == VARIANT_SOLUTIONS["blitz"]


def test_a_puzzle_not_unique_gets_a_link_without_a_solution_and_says_so():
    out = convert('{"size": 4, "givens": {"r1c1": 1}}', "sudokupad")
    assert satdoku.read(out.text).solution is None
    assert out.warnings == ["no solution stored: the puzzle has more than one solution"]


def test_the_docs_table_names_every_sigh_type_satdoku_reads():
    from satdoku.io.sigh.rules import RULES
    docs = (VARIANTS.parent.parent / "docs" / "variants.md").read_text()
    section = docs[docs.index("## sigh's constraint strings"):docs.index("### sigh's own")]
    assert [t for t in RULES if t != "Given" and f"`{t}" not in section] == []


@pytest.mark.parametrize("line", (VARIANTS.parent.parent / "tests" / "data" / "shapes.jsonl")
                         .read_text().splitlines()[:3])
def test_a_grid_of_other_values_goes_to_sigh_and_back(line):
    row = json.loads(line)  # sigh's 0-indexed puzzles, with sigh's published solutions
    text = format_sigh(satdoku.read(row["puzzle"])).text
    assert text.startswith(".Shape~9x9~0-8")
    result = satdoku.count(text)
    assert "".join(str(result.solution.geometry.value(d)) for d in result.solution.cells) \
        == row["solution"]


def test_a_skyscraper_on_values_from_0_counts_no_0_as_sigh_does():
    doc = read_sigh(".Shape~4x4~0-3.Skyscraper~R1~2~").document
    assert doc["constraints"] == [{"type": "skyscraper", "line": "r1", "from": "start",
                                   "count": 2}]
    assert satdoku.solve(".Shape~4x4~0-3.Skyscraper~R1~1~.~R1C1_0.~R1C2_3").solution
    assert satdoku.solve(".Shape~4x4~0-3.Skyscraper~R1~2~.~R1C1_0.~R1C2_3").status == \
        "unsolvable"  # the 0 is no building: the 3 alone is seen


def test_chaos_construction_reads_as_the_chaos_rule_with_its_together_groups():
    doc = read_sigh(".Shape~4x4.NoBoxes.ChaosConstruction.SameValues~2~CC1~CC6").document
    assert doc["box"] == "none"
    assert doc["constraints"] == [{"type": "chaos", "together": [["r1c1", "r2c2"]]}]
    assert dict(read_sigh(".ChaosConstruction.~R1C1_1").missing) == {
        "ChaosConstruction (beside boxes or a jigsaw)": 1}


#: Puzzles of sigh's data files (sigh/Interactive-Sudoku-Solver, MIT) read from their
#: constraint strings as sigh publishes them, with their published solutions.
SIGH_READ = [json.loads(line) for line in
             (Path(__file__).resolve().parent / "data" / "sigh_read.jsonl").read_text()
             .splitlines()]
_LETTERS = "0ABCDEFGHIJKLMNOP"  # sigh's solutions on values past 9: A for 1, B for 2...


def sigh_values(grid) -> str:
    """A solved grid's values as sigh writes a solution."""
    geo = grid.geometry
    values = [geo.value(d) for d in grid.cells]
    return "".join(str(v) if geo.high < 10 or v == 0 else _LETTERS[v] for v in values)


#: Those that take over half a second of CPU: a larger case of what the others cover (-m slow).
SIGH_READ_SLOW = {"7x7: Killer Squishdoku", "Between The Skyscrapers", "Sunblock",
                  "Chaos Construction", "Odd Blockade Runners", "Stepped Thermos",
                  "Cavernous Construction: 6x6"}


@pytest.mark.parametrize("entry", [
    pytest.param(e, marks=pytest.mark.slow) if e["name"] in SIGH_READ_SLOW else e
    for e in SIGH_READ], ids=lambda e: e["name"])
def test_sigh_puzzles_read_and_solve_to_their_published_solution(entry):
    text = entry["sigh"]
    if entry.get("given_solution"):  # a 9x9 chaos construction, minutes to solve on a loaded
        # machine: its published digits given, satdoku finds the regions and checks them
        n = math.isqrt(len(entry["solution"]))
        text += ".~" + "~".join(f"R{i // n + 1}C{i % n + 1}_{v}"
                                for i, v in enumerate(entry["solution"]))
    result = satdoku.count(text, limit=2)
    assert result.status == "unique"
    assert sigh_values(result.solution) == entry["solution"]


def test_sigh_layouts_read_as_satdoku_grids():
    grid = read_sigh(".Shape~6x6~9.RegionSize~9.NoBoxes"
                     ".Jigsaw~122222112223111233114333144433444443").document
    assert grid["shape"] == "6x6" and grid["digits"] == "1-9" and len(grid["regions"]) == 4
    assert read_sigh(".Shape~6x6~9.RegionSize~9").document["box"] == "3x3"
    squish = read_sigh(".Shape~7x7~9.RegionSize~9"
                       ".Jigsaw~1112333111233311123332222222444255544425554442555").document
    assert squish["box"] == "none"  # no 9-cell boxes tile 7x7: the 4 pieces are extra regions
    assert [c["type"] for c in squish["constraints"]] == ["extra-region"] * 4


def test_replicate_copies_its_rules_onto_each_target():
    # targets: bits 0 and 2 after R2C2 (R2C2 and R2C4); the template moves with the origin
    doc = read_sigh(".Replicate~F~R2C2.Thermo~R2C2~R3C2.~R2C2_5.End").document
    assert doc["constraints"] == [{"type": "thermometer", "cells": ["r2c2", "r3c2"]},
                                  {"type": "thermometer", "cells": ["r2c4", "r3c4"]}]
    assert doc["givens"] == {"r2c2": 5, "r2c4": 5}


@pytest.mark.parametrize("lengths", [[2, 1], [1, 0, 2], [0, 2], [2, 0], [1, 1, 1]])
def test_a_machine_over_segments_reads_as_one_over_their_cells(lengths):
    """sigh reads a break symbol (N+1) between segments: the machine satdoku makes over the
    cells in a row accepts exactly the readings the original accepts with the breaks in."""
    import itertools
    from types import SimpleNamespace
    from satdoku.io.sigh.rules import _unbroken
    from satdoku.model.geometry import geometry
    from satdoku.rules import constraint_from_json
    # over digits 1-2 and the break 3: state 0 until a break, then 1; a 2 after a break
    # moves to 2, which only 1s and breaks keep; accepting: 1 and 2
    moves = [(0, 0, 1), (0, 0, 2), (0, 1, 3), (1, 1, 1), (1, 2, 2), (1, 1, 3), (2, 2, 1),
             (2, 2, 3)]
    machine = SimpleNamespace(states=3, start=(0,), accepting=(1, 2), moves=moves)

    def accepts(symbols):
        now = {0}
        for s in symbols:
            now = {b for a, b, t in moves if a in now and t == s}
        return bool(now & {1, 2})
    rule = _unbroken(machine, 2, lengths)
    k = sum(lengths)
    rule["cells"] = [f"r1c{i + 1}" for i in range(k)]
    nfa = constraint_from_json(rule, geometry(2, 2)) if k else None
    for digits in itertools.product((1, 2), repeat=k):
        read, rest = [], list(digits)
        for i, n in enumerate(lengths):
            read += [rest.pop(0) for _ in range(n)] + ([3] if i < len(lengths) - 1 else [])
        assert (nfa.holds(digits) if nfa else bool(rule["accepting"])) == accepts(read)


@pytest.mark.parametrize("line", (VARIANTS.parent.parent / "tests" / "data" / "shaped.jsonl")
                         .read_text().splitlines())
def test_a_grid_of_other_shape_goes_to_sigh_and_back(line):
    row = json.loads(line)  # sigh's 6x8, 4x7 jigsaw, 9x8 and 5x10 puzzles, its solutions
    puzzle = satdoku.read(row["puzzle"])
    export = format_sigh(puzzle)
    assert export.lost == [] and export.text.startswith(".Shape~")
    again = satdoku.read(export.text)
    assert again.geometry is puzzle.geometry and again.constraints == puzzle.constraints


def test_chaos_clues_go_to_sigh_and_back():
    text = (".Shape~4x4.NoBoxes.ChaosConstruction.ChaosArrow~R1C1~1~CC1~CC2~-~CC1~CC5"
            ".ChaosCount~R4C4~0~CC16~CC15~CC12")
    puzzle = satdoku.read(text)
    chaos = puzzle.constraints[0].to_json(puzzle.geometry)
    assert chaos["arrows"] == [{"cell": "r1c1", "arms": [["r1c1", "r1c2"], ["r1c1", "r2c1"]],
                                "offset": 1}]
    assert chaos["counts"] == [{"cell": "r4c4", "cells": ["r4c4", "r4c3", "r3c4"]}]
    assert satdoku.read(format_sigh(puzzle).text).constraints == puzzle.constraints
