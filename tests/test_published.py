"""Published puzzles (puzzles/variants): each solved and proven unique with its published
solution, in satdoku JSON and, where f-puzzles can hold it, f-puzzles and SudokuPad forms; and
random variant puzzles through f-puzzles against satdoku JSON and native search (hypothesis).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satdoku
from satdoku.io.fpuzzles import encode_fpuzzles, from_fpuzzles
from satdoku.io.fpuzzles.write import to_fpuzzles
from satdoku.io.variant import read_variant
from satdoku.model.puzzle import Puzzle
from conftest import VARIANT_SOLUTIONS, VARIANTS, rules_of
from spec_checker import violations

def test_every_puzzle_has_a_published_solution_and_a_json():
    assert set(VARIANT_SOLUTIONS) == {p.stem for p in VARIANTS.glob("*.json")}
    assert {p.stem for p in VARIANTS.glob("*.txt")} <= set(VARIANT_SOLUTIONS)


@pytest.mark.parametrize("stem", sorted(VARIANT_SOLUTIONS))
def test_each_published_puzzle_is_unique_with_its_solution(stem):
    document = json.loads((VARIANTS / f"{stem}.json").read_text())
    puzzle = read_variant(document)
    result = satdoku.count(puzzle)
    assert result.status == "unique"
    assert "".join(map(str, result.solution.cells)) == VARIANT_SOLUTIONS[stem]
    assert violations(document, VARIANT_SOLUTIONS[stem]) == []  # and the spec's own reading agrees


@pytest.mark.parametrize("stem", sorted(VARIANT_SOLUTIONS))
def test_each_published_puzzle_keeps_its_rules_through_f_puzzles_or_names_what_it_cannot(stem):
    document = json.loads((VARIANTS / f"{stem}.json").read_text())
    export = to_fpuzzles(read_variant(document))
    if not (VARIANTS / f"{stem}.txt").exists():
        assert export.lost, "f-puzzles can hold it: ship its f-puzzles form"
        return
    assert export.lost == []
    back = from_fpuzzles(encode_fpuzzles(export.data, "sudokupad"))
    assert rules_of(back) == rules_of(document) and back["givens"] == document["givens"]


# Random small variant puzzles, through f-puzzles.

RULES_4X4 = [
    {"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 5},
    {"type": "thermometer", "cells": ["r2c1", "r2c2", "r3c2"]},
    {"type": "kropki-white", "cells": ["r3c3", "r3c4"]},
    {"type": "kropki-black", "cells": ["r4c1", "r4c2"]},
    {"type": "xv", "cells": ["r1c3", "r2c3"], "sum": 5},
    {"type": "edge-sum", "cells": ["r4c3", "r4c4"], "sum": 4},
    {"type": "german-whispers", "cells": ["r1c4", "r2c4"], "difference": 2},
    {"type": "renban", "cells": ["r3c1", "r4c1"]},
    {"type": "palindrome", "cells": ["r1c1", "r2c2", "r3c3"]},
    {"type": "region-sum", "cells": ["r1c2", "r1c3", "r2c2"]},
    {"type": "entropic", "cells": ["r2c1", "r3c1"]},
    {"type": "modular", "cells": ["r3c2", "r3c3", "r3c4"]},
    {"type": "nabner", "cells": ["r4c2", "r4c3"]},
    {"type": "double-arrow", "cells": ["r1c1", "r1c2", "r1c3"]},
    {"type": "lockout", "cells": ["r2c1", "r2c2", "r2c3"], "difference": 2},
    {"type": "between", "cells": ["r4c1", "r4c2", "r4c3"]},
    {"type": "zipper", "cells": ["r1c4", "r2c4", "r3c4"]},
    {"type": "arrow", "circle": ["r3c1"], "cells": ["r4c2"]},
    {"type": "odd", "cells": ["r1c1"]},
    {"type": "even", "cells": ["r2c2"]},
    {"type": "candidates", "cells": ["r4c4"], "digits": [1, 4]},
    {"type": "minimum", "cells": ["r2c3"]},
    {"type": "little-killer", "cells": ["r1c1", "r2c2", "r3c3", "r4c4"], "sum": 10},
    {"type": "clone", "cells": ["r1c1"], "clone": ["r4c4"]},
    {"type": "quadruple", "cells": ["r3c3", "r3c4", "r4c3", "r4c4"], "digits": [1, 2]},
    {"type": "sandwich", "line": "r2", "sum": 5},
    {"type": "x-sum", "line": "c1", "from": "end", "sum": 6},
    {"type": "skyscraper", "line": "r1", "from": "start", "count": 2},
    {"type": "column-indexer", "cells": ["r1c1"]},
    {"type": "row-indexer", "cells": ["r4c4"]},
    {"type": "box-indexer", "cells": ["r2c2"]},
    {"type": "multi-killer", "cells": ["r3c1", "r3c2"], "sums": [3, 12]},
    {"type": "diagonal", "direction": "+"},
    {"type": "anti-king"},
    {"type": "non-consecutive"},
    {"type": "no-kropki", "differences": [1], "ratios": []},
    {"type": "no-xv"},
]


def count_to_2(puzzle: Puzzle, solver: str = "sat"):
    result = satdoku.count(puzzle, limit=2, solver=solver)
    return result.status, result.solution.cells if result.status == "unique" else None


def random_puzzle(draw) -> dict:
    rules = draw(st.lists(st.sampled_from(RULES_4X4), min_size=1, max_size=4, unique_by=json.dumps))
    if any(r["type"] == "no-kropki" for r in rules) and any(r["type"] == "non-consecutive"
                                                              for r in rules):
        rules = [r for r in rules if r["type"] != "non-consecutive"]
    cells = draw(st.lists(st.integers(0, 15), max_size=4, unique=True))
    digits = draw(st.lists(st.integers(1, 4), min_size=len(cells), max_size=len(cells)))
    givens = {f"r{c // 4 + 1}c{c % 4 + 1}": d for c, d in zip(cells, digits)}
    return {"size": 4, "givens": givens, "constraints": rules}


@st.composite
def documents(draw):
    doc = random_puzzle(draw)
    try:
        read_variant(doc)
    except Exception:  # two givens that clash: not a document
        doc["givens"] = {}
    return doc


SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(documents())
def test_satdoku_json_to_f_puzzles_and_back_keeps_the_rules(doc):
    puzzle = read_variant(doc)
    export = to_fpuzzles(puzzle)
    assert export.lost == [] or all(":" in x or "(" in x for x in export.lost)
    if export.lost:
        return
    for form in ("fpuzzles", "sudokupad"):
        back = from_fpuzzles(encode_fpuzzles(export.data, form))
        assert rules_of(back) == rules_of(doc) and back["givens"] == doc["givens"]


@SETTINGS
@given(documents())
def test_puzzles_through_f_puzzles_count_alike_by_sat_and_native_search(doc):
    puzzle = read_variant(doc)
    export = to_fpuzzles(puzzle)
    if export.lost:
        return
    imported = read_variant(from_fpuzzles(export.data))
    expected = count_to_2(puzzle)
    assert count_to_2(imported) == expected
    assert count_to_2(imported, "native") == expected


def test_the_random_puzzles_meet_every_kind_of_answer():
    """The strategy is not degenerate: unsolvable, unique and multiple all come up."""
    rng = random.Random(3)
    seen = set()
    for _ in range(60):
        rules = rng.sample(RULES_4X4, 3)
        doc = {"size": 4, "givens": {}, "constraints": rules}
        try:
            seen.add(count_to_2(read_variant(doc))[0])
        except Exception:
            continue
    assert {"unsolvable", "multiple"} <= seen
    sample = json.loads((VARIANTS / "peak.json").read_text())
    assert count_to_2(read_variant(sample))[0] == "unique"
