"""shapes: grids whose digits stand for other values (0..8), read, solved against published
solutions, written back, refused where a rule reads the values."""

import functools
import itertools
import json
import re
import pickle
from pathlib import Path

import pytest

import satdoku
import satdoku.rules as C
from satdoku.errors import OptionError, PuzzleError
from satdoku.io.fpuzzles.write import to_fpuzzles
from satdoku.io.variant import read_variant, variant_document
from satdoku.model.alphabet import alphabet_for
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid
from test_variant import schema_errors

#: sigh's 0-indexed puzzles with their published solutions (data/collections.js, MIT),
#: written as satdoku documents: ``{"puzzle": ..., "count": ..., "solution": values}``.
SHAPES = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "shapes.jsonl").read_text().splitlines()]
#: sigh's "Chaos Construction: killer" (data/collections.js, MIT) with its published solution;
#: its cages lie in one region each (sigh's SameValues over region cells: ``together``).
CHAOS = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "chaos.jsonl").read_text().splitlines()]
#: sigh's grids of other shapes with their published solutions (6x8, 4x7 jigsaw, 9x8 without
#: boxes; each also 0-indexed; a 5x10 killer, its values written 1-9 and A).
SHAPED = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "shaped.jsonl").read_text().splitlines()]
PUBLISHED = [pytest.param(e, id=e["puzzle"]["name"]) for e in SHAPES + SHAPED] + [
    # ~10 s of CPU: slow
    pytest.param(e, id=e["puzzle"]["name"], marks=pytest.mark.slow) for e in CHAOS]


def text_of(puzzle, grid: Grid) -> str:
    return "".join(puzzle.alphabet.symbol(d) for d in grid.cells)


@pytest.mark.parametrize("entry", PUBLISHED)
def test_published_solution(entry):
    puzzle = read_variant(entry["puzzle"])
    result = satdoku.count(puzzle, limit=2)
    assert (result.status, result.count) == ("unique", entry["count"])
    assert text_of(puzzle, result.solution) == entry["solution"]


def test_values_round_trip_and_schema():
    doc = SHAPES[0]["puzzle"]
    puzzle = read_variant(doc)
    assert puzzle.geometry.low == 0 and puzzle.grid.cells[0] == 5  # r1c1 holds value 4
    out = variant_document(puzzle)
    assert out["digits"] == "0-8" and out["givens"] == doc["givens"]
    assert schema_errors(out) == []
    assert read_variant(out).geometry is puzzle.geometry


def test_string_givens_use_the_values_symbols():
    doc = {"size": 4, "digits": "0-3", "givens": "0..1" + "." * 12}
    assert read_variant(doc).grid.cells[:4] == (1, 0, 0, 2)
    doc["givens"] = "4" + "." * 15
    with pytest.raises(PuzzleError, match="r1c1: 'givens': unknown symbol '4'"):
        read_variant(doc)


@pytest.mark.parametrize("doc, message", [
    ({"size": 4, "digits": "0-4"}, "'digits' must be 'LOW-HIGH', 4 values in a row"),
    ({"size": 4, "digits": 3}, "'digits' must be 'LOW-HIGH'"),
    ({"size": 9, "digits": "30-38"}, "'digits': values 30-38: a grid's values must lie in 0..35"),
    ({"size": 9, "digits": "0-8", "givens": {"r2c2": 9}}, "r2c2: 'givens': 9 is not a digit 0..8"),
    ({"size": 4, "digits": "0-3", "constraints": [{"type": "sandwich", "line": "r1",
                                                   "sum": 3}]},
     "constraints[0] (sandwich): sandwich reads the digits' values"),
    ({"size": 4, "digits": "0-3", "constraints": [{"type": "or", "rules": [
        {"type": "odd", "cells": ["r1c1"]}, {"type": "anti-king"}]}]}, "odd reads the digits'"),
])
def test_refused(doc, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        read_variant(doc)


def test_rules_that_compare_digits_hold_shifted():
    """A thermometer over values 0..3 reads as over 1..4: bulb r1c1 (given 0) to r1c4."""
    doc = {"size": 4, "digits": "0-3", "givens": {"r1c1": 0},
           "constraints": [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"]}]}
    puzzle = read_variant(doc)
    solution = satdoku.solve(puzzle).solution
    assert text_of(puzzle, solution)[:4] == "0123"


@functools.cache
def sudokus_4x4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku with 2x2 boxes as digits 1..4, row by row (brute force, no SAT)."""
    houses = [[r * 4 + c for c in range(4)] for r in range(4)] + \
        [[r * 4 + c for r in range(4)] for c in range(4)] + \
        [[r * 4 + c for r in (br, br + 1) for c in (bc, bc + 1)] for br in (0, 2) for bc in (0, 2)]
    rows = list(itertools.permutations(range(1, 5)))
    return [cells for cells in (sum(rs, ()) for rs in itertools.product(rows, repeat=4))
            if all(len({cells[c] for c in h}) == 4 for h in houses)]


def seen(heights) -> int:
    """Buildings seen from the front: each taller than all before it; a 0 is none."""
    return sum(1 for i, h in enumerate(heights) if h > max(heights[:i], default=0))


def first_hidden(heights):
    """The first building lower than one before it (None: none is)."""
    return next((h for i, h in enumerate(heights) if i and h < max(heights[:i])), None)


#: Rules that read values, on a 4x4 grid of values 0-3, each with its meaning written here
#: apart from the rule's code (``v``: the 16 values, row by row).
VALUE_RULES = [
    ({"type": "killer", "cells": ["r1c1", "r1c2", "r2c1"], "sum": 3},
     lambda v: v[0] + v[1] + v[4] == 3),
    ({"type": "killer", "cells": ["r2c2", "r3c2"], "sum": 1}, lambda v: v[5] + v[9] == 1),
    # every value once, so a 0 among the terms (sigh's "Killer sudoku, with 0 cage" found it)
    ({"type": "killer", "cells": ["r1c2", "r2c3", "r3c4", "r4c1"], "sum": 6},
     lambda v: len({v[1], v[6], v[11], v[12]}) == 4),
    ({"type": "little-killer", "cells": ["r1c2", "r2c3", "r3c4"], "sum": 4},
     lambda v: v[1] + v[6] + v[11] == 4),
    ({"type": "arrow", "circle": ["r3c3"], "cells": ["r3c4", "r4c4"]},
     lambda v: v[10] == v[11] + v[15]),
    ({"type": "arrow", "circle": ["r1c1", "r1c2"], "cells": ["r2c1", "r3c1", "r3c2"]},
     lambda v: 10 * v[0] + v[1] == v[4] + v[8] + v[9]),  # a pill may start with 0
    ({"type": "xv", "cells": ["r1c1", "r1c2"], "sum": 5}, lambda v: v[0] + v[1] == 5),
    ({"type": "kropki-black", "cells": ["r1c1", "r2c1"]},
     lambda v: v[0] == 2 * v[4] or v[4] == 2 * v[0]),
    ({"type": "edge-sum", "cells": ["r1c3", "r1c4"], "sum": 3}, lambda v: v[2] + v[3] == 3),
    ({"type": "pair", "cells": ["r1c1", "r2c2", "r3c3"], "pairs": [[0, 3], [3, 0], [1, 2]]},
     lambda v: {(v[0], v[5]), (v[5], v[10])} <= {(0, 3), (3, 0), (1, 2)}),
    ({"type": "pair", "cells": ["r1c1", "r1c2"], "relation": "a * b == 0"},
     lambda v: v[0] * v[1] == 0),
    ({"type": "region-sum", "cells": ["r1c2", "r1c3", "r2c3"]},
     lambda v: v[1] == v[2] + v[6]),
    ({"type": "double-arrow", "cells": ["r1c1", "r2c2", "r3c3"]}, lambda v: v[0] + v[10] == v[5]),
    ({"type": "candidates", "cells": ["r1c1", "r2c3"], "digits": [0, 2]},
     lambda v: v[0] in (0, 2) and v[6] in (0, 2)),
    ({"type": "quadruple", "cells": ["r2c2", "r2c3", "r3c2", "r3c3"], "digits": [0, 3]},
     lambda v: {0, 3} <= {v[5], v[6], v[9], v[10]}),
    ({"type": "look-and-say", "cells": ["r1c1", "r2c2", "r3c3", "r4c4"], "clue": "2001"},
     lambda v: [v[0], v[5], v[10], v[15]].count(0) == 2 and 1 not in (v[0], v[5], v[10], v[15])),
    ({"type": "counting-circles", "cells": ["r1c1", "r1c2", "r2c3", "r3c4"]},
     lambda v: all([v[0], v[1], v[6], v[11]].count(x) == x for x in (v[0], v[1], v[6], v[11]))),
    ({"type": "sum", "cells": ["r1c1", "r1c1", "r2c3", "r4c4"], "weights": [1, 2, -1, 1],
      "sum": 4}, lambda v: 3 * v[0] - v[6] + v[15] == 4),  # a cell twice, a negative weight
    ({"type": "sum", "cells": ["r1c1", "r2c2", "r3c3", "r4c4"], "sum": 2},
     lambda v: v[0] + v[5] + v[10] + v[15] == 2),
    ({"type": "skyscraper", "line": "r1", "from": "start", "count": 2},  # a 0 is not seen
     lambda v: seen(v[0:4]) == 2),
    ({"type": "skyscraper", "line": "c2", "from": "end", "count": 1},
     lambda v: seen([v[13], v[9], v[5], v[1]]) == 1),
    ({"type": "hidden-skyscraper", "line": "r2", "from": "end", "digit": 0},
     lambda v: first_hidden([v[7], v[6], v[5], v[4]]) == 0),
    ({"type": "nfa", "cells": ["r1c1", "r1c2", "r1c3"], "states": ["a", "b"], "start": ["a"],
      "accepting": ["b"], "transitions": [{"from": "a", "to": "b", "digits": [0]},
                                          {"from": "b", "to": "b", "digits": [2, 3]}]},
     lambda v: v[0] == 0 and v[1] in (2, 3) and v[2] in (2, 3)),
    ({"type": "regex", "cells": ["r1c1", "r2c2", "r2c2", "r3c1"], "pattern": "0?[13]+"},  # twice
     lambda v: v[0] == 0 and v[5] in (1, 3) and v[8] in (1, 3) or all(
         x in (1, 3) for x in (v[0], v[5], v[8]))),
    ({"type": "equality-cage", "cells": ["r1c1", "r1c2"]},  # one of 0, 1 and one of 2, 3
     lambda v: (v[0] % 2 != v[1] % 2) and (v[0] < 2) != (v[1] < 2)),
]


@pytest.mark.parametrize("rule, means", VALUE_RULES, ids=[r["type"] for r, _ in VALUE_RULES])
def test_rules_that_read_values_count_as_a_brute_force_on_values_from_0(rule, means):
    """SAT's count of a 4x4 grid of values 0-3 under one rule that reads values equals the
    grids whose values (digit - 1) meet the rule's meaning, and the rule's own check agrees."""
    puzzle = read_variant({"size": 4, "digits": "0-3", "constraints": [rule]})
    geo = puzzle.geometry
    grids = sudokus_4x4()
    expected = sum(1 for cells in grids if means([d - 1 for d in cells]))
    checked = sum(1 for cells in grids if puzzle.check(Grid(geo, cells)) == [])
    result = satdoku.count(puzzle, limit=1000)
    assert 0 < expected < len(grids) and checked == expected
    assert result.count == expected and not result.at_limit


@pytest.mark.parametrize("rules", [
    [{"type": "full-rank", "line": "c1", "from": "start", "rank": 10}],
    [{"type": "full-rank", "line": "r4", "from": "end", "rank": 5},
     {"type": "full-rank-ties", "ties": "any"}],
])
def test_full_rank_counts_the_same_on_values_from_0(rules):
    """Numbers compared digit by digit keep their order when every digit is one less: the
    same clues count alike on digits 1-4 and on values 0-3."""
    counts = [satdoku.count(read_variant({"size": 4, **digits, "constraints": rules}),
                            limit=1000).count for digits in ({}, {"digits": "0-3"})]
    assert counts[0] == counts[1] > 0


def test_no_xv_reads_values_from_0():
    """No edge sum of 3: on values 0-3 no two neighbours sum to 3 (0 and 3, 1 and 2)."""
    puzzle = read_variant({"size": 4, "digits": "0-3",
                           "constraints": [{"type": "no-xv", "sums": [3]}]})
    pairs = [(a, a + 1) for a in range(16) if a % 4 < 3] + [(a, a + 4) for a in range(12)]
    expected = sum(1 for cells in sudokus_4x4()
                   if all(cells[a] + cells[b] - 2 != 3 for a, b in pairs))
    assert expected and satdoku.count(puzzle, limit=1000).count == expected


def test_native_search_refuses_rules_that_read_values_from_0():
    puzzle = read_variant({"size": 4, "digits": "0-3", "constraints": [VALUE_RULES[0][0]]})
    result = satdoku.solve(puzzle, solver="native")
    assert result.status == "refused" and "values 1-4 only, not 0-3" in result.message


def test_checker_names_values():
    g = geometry(2, 2, low=0)
    puzzle = Grid(g, (1,) + (0,) * 15)
    wrong = Grid(g, tuple(map(int, "2143341212344321")))
    problems = satdoku.model.grid.solution_problems(wrong, puzzle)
    assert problems == ["r1c1: given 0 changed to 1"]


def test_geometry_identity_and_symbols():
    g = geometry(3, 3, low=0)
    assert g is geometry(3, 3, 0) and g is not geometry(3, 3)
    assert pickle.loads(pickle.dumps(g)) is g and pickle.loads(pickle.dumps(geometry(3, 3))) \
        is geometry(3, 3)
    regions = [(0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)]
    assert pickle.loads(pickle.dumps(jigsaw(regions, 0))) is jigsaw(regions, 0)
    assert alphabet_for(16, 0).symbols == "0123456789ABCDEF"
    with pytest.raises(OptionError, match="values -1-7"):
        geometry(3, 3, low=-1)


def test_fpuzzles_names_what_it_cannot_hold():
    lost = to_fpuzzles(read_variant(SHAPES[0]["puzzle"])).lost
    assert lost == ["digits 0-8: f-puzzles has digits 1-9 only (written as 1-9)"]
    lost = to_fpuzzles(read_variant({"size": 4, "box": "none"})).lost
    assert lost == ["no boxes: an f-puzzles grid has regions (written as one region)"]


def test_batches_without_boxes_skip_the_sliced_pass():
    """A file of classic-looking puzzles without boxes: no settling pass that counts on
    three houses a cell (satdoku.sat.sliced), every one solved."""
    doc = json.dumps({"size": 4, "box": "none", "givens": "1..4.3..34.2.12."})
    from conftest import run_cli
    result = run_cli("solve", "--format", "line", "-", input=(doc + "\n") * 200)
    assert result.output.splitlines() == ["1234234134124123"] * 200


# -- chaos construction: regions the solver draws ------------------------------------------


@functools.lru_cache(maxsize=None)
def partitions(n: int, cells: tuple[int, ...]) -> list[list[frozenset[int]]]:
    """Every split of the n x n grid into n orthogonally connected regions of n cells
    (brute force, no SAT: grow each region from the first cell not yet taken)."""
    def shapes(start, free):
        found, frontier = set(), [frozenset([start])]
        while frontier:
            shape = frontier.pop()
            if len(shape) == n:
                found.add(shape)
                continue
            for c in shape:
                r, k = divmod(c, n)
                for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
                    nb = rr * n + kk
                    if 0 <= rr < n and 0 <= kk < n and nb in free and nb not in shape:
                        frontier.append(shape | {nb})
        return found

    out = []

    def split(free, done):
        if not free:
            out.append(done)
            return
        start = min(free)
        for shape in shapes(start, free):
            split(free - shape, done + [shape])
    split(frozenset(cells), [])
    return out


@functools.lru_cache(maxsize=None)
def latin_squares(n: int) -> tuple[tuple[int, ...], ...]:
    """Every n x n Latin square of digits 1..n, row by row (brute force, no SAT)."""
    rows = list(itertools.permutations(range(1, n + 1)))
    out: list[tuple[int, ...]] = []

    def extend(square):
        if len(square) == n * n:
            out.append(tuple(square))
            return
        for row in rows:
            if all(row[c] != square[r * n + c] for r in range(len(square) // n)
                   for c in range(n)):
                extend(square + list(row))
    extend([])
    return tuple(out)


def chaos_count(n: int, givens: dict[int, int], together=()) -> int:
    """Digit grids (Latin squares keeping ``givens``) that some partition makes a chaos
    construction answer: each region holds every digit, each group lies in one region."""
    splits = [p for p in partitions(n, tuple(range(n * n)))
              if all(any(set(g) <= region for region in p) for g in together)]
    return sum(1 for cells in latin_squares(n)
               if all(cells[c] == d for c, d in givens.items())
               and any(all(len({cells[c] for c in region}) == n for region in p)
                       for p in splits))


@pytest.mark.parametrize("n, givens, together", [
    (3, {}, ()),
    (4, {}, ()),
    (4, {0: 1, 5: 1}, ()),
    (4, {0: 2, 15: 3}, ((0, 4), (10, 11))),
    (4, {1: 1, 6: 2, 9: 4}, ((0, 1, 2),)),
    (4, {0: 1}, ((0, 1), (4, 5), (10, 14))),
])
def test_chaos_counts_match_brute_force(n, givens, together):
    from satdoku.model.geometry import boxless
    g = boxless(n)
    doc = {"size": n, "box": "none",
           "givens": {g.cell_name(c): d for c, d in givens.items()},
           "constraints": [{"type": "chaos", "together": [[g.cell_name(c) for c in grp]
                                                          for grp in together]}]}
    expected = chaos_count(n, givens, together)
    result = satdoku.count(read_variant(doc), limit=1000)
    assert result.count == expected and not result.at_limit
    if result.solution is not None:  # the answer carries connected regions of its digits
        regions = result.solution.geometry.regions
        assert regions and all(len({result.solution.cells[c] for c in r}) == n for r in regions)


def run_length(region_of: dict, arms) -> int:
    """sigh's ChaosArrow, written apart: along each arm the cells in the start's region up to
    the first that is not, the start once."""
    start, total = arms[0][0], 1
    for arm in arms:
        for c in arm[1:]:
            if region_of[c] != region_of[start]:
                break
            total += 1
    return total


@pytest.mark.parametrize("clues, holds", [
    ({"arrows": [{"cell": "r1c1", "arms": [["r1c1", "r1c2", "r1c3", "r1c4"],
                                           ["r1c1", "r2c1", "r3c1", "r4c1"]]}]},
     lambda v, reg: v[0] == run_length(reg, [(0, 1, 2, 3), (0, 4, 8, 12)])),
    ({"arrows": [{"cell": "r2c2", "arms": [["r1c1", "r1c2", "r1c3"]], "offset": 1}]},
     lambda v, reg: v[5] == run_length(reg, [(0, 1, 2)]) - 1),
    ({"counts": [{"cell": "r4c4", "cells": ["r4c4", "r4c3", "r3c4", "r3c3", "r2c2"]}]},
     lambda v, reg: v[15] == sum(reg[c] == reg[15] for c in (15, 14, 11, 10, 5))),
])
def test_chaos_clues_match_brute_force(clues, holds):
    """Arrow and count clues on a 4x4 chaos construction: the digit grids SAT counts are the
    Latin squares that some split into connected regions of every digit makes hold."""
    doc = {"size": 4, "box": "none", "constraints": [{"type": "chaos", **clues}]}
    splits = partitions(4, tuple(range(16)))
    expected = 0
    for cells in latin_squares(4):
        for p in splits:
            reg = {c: i for i, region in enumerate(p) for c in region}
            if all(len({cells[c] for c in region}) == 4 for region in p) and holds(cells, reg):
                expected += 1
                break
    result = satdoku.count(read_variant(doc), limit=1000)
    assert 0 < expected and result.count == expected and not result.at_limit


def test_chaos_answer_shows_regions_and_is_verified():
    from satdoku.model.geometry import boxless
    from satdoku.rules import Chaos
    doc = {"size": 4, "box": "none", "givens": "1..4.3..34.2.12.",
           "constraints": [{"type": "chaos"}]}
    puzzle = read_variant(doc)
    answer = satdoku.solve(puzzle).solution
    assert answer.geometry.refines(puzzle.geometry) and answer.geometry is not puzzle.geometry
    assert puzzle.check(answer) == []
    # a grid of the puzzle's own geometry draws no regions; a partition not connected fails
    plain = Grid(puzzle.geometry, answer.cells)
    assert puzzle.check(plain) == ["chaos construction: the answer draws no regions"]
    split = jigsaw([(0, 1, 10, 11), (2, 3, 8, 9), (4, 5, 14, 15), (6, 7, 12, 13)])
    assert Chaos(boxless(4)).check(Grid(split, answer.cells))[0].startswith(
        "chaos construction: region 1 (r1c1-r1c2-r3c3-r3c4) is not connected")
    out = variant_document(puzzle)
    assert out["box"] == "none" and out["constraints"] == [{"type": "chaos"}]
    assert schema_errors(out) == []


@pytest.mark.parametrize("doc, message", [
    ({"size": 4, "constraints": [{"type": "chaos"}]},
     "chaos construction draws the regions: give the grid none ('box': 'none')"),
    ({"size": 4, "box": "none", "constraints": [{"type": "disjoint-groups"}]},
     "disjoint-groups is about boxes: this grid has none"),
    ({"size": 4, "box": "none", "constraints": [{"type": "chaos", "together": [["r1c1"]]}]},
     "'together' must be a list of lists of 2 or more cell names"),
])
def test_chaos_refused(doc, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        read_variant(doc)


def test_pictures_of_shapes():
    from satdoku.output.svg import render_svg
    puzzle = read_variant({"size": 4, "box": "none", "digits": "0-3", "givens": "0..3.2..23.1.01.",
                           "constraints": [{"type": "chaos", "together": [["r1c1", "r2c1"]]}]})
    answer = satdoku.solve(puzzle).solution
    empty = render_svg(puzzle.grid, constraints=puzzle.constraints)
    drawn = render_svg(puzzle.grid, answer, constraints=puzzle.constraints)
    assert 'class="thick"' not in empty and 'class="thick"' in drawn  # the answer's regions
    assert ">0<" in empty and "the solver draws the regions" in empty
    doppel = read_variant({"shape": "4x4", "digits": "0-4", "givens": {"r1c1": 0},
                           "constraints": [{"type": "doppelganger"}]})
    assert ">rules: doppelganger<" in render_svg(doppel.grid, constraints=doppel.constraints)


# -- grids of other shape: R x C, more digits than a row has cells ----------------------------

def shaped_count(height: int, width: int, k: int, houses, givens: dict[int, int],
                 rule=None) -> int:
    """Fillings of a height x width grid with digits 1..k whose ``houses`` (lists of cells)
    hold distinct digits, keeping ``givens`` and ``rule(cells)`` (brute force, no SAT)."""
    count = 0
    for cells in itertools.product(range(1, k + 1), repeat=height * width):
        if any(cells[c] != d for c, d in givens.items()):
            continue
        if all(len({cells[c] for c in h}) == len(h) for h in houses) and (
                rule is None or rule(cells)):
            count += 1
    return count


def lines_of(height: int, width: int) -> list[list[int]]:
    return [list(range(r * width, (r + 1) * width)) for r in range(height)] + \
        [list(range(c, height * width, width)) for c in range(width)]


@pytest.mark.parametrize("doc, houses, givens, rule", [
    ({"shape": "3x3", "digits": "1-4", "givens": "1........"}, lines_of(3, 3), {0: 1}, None),
    ({"shape": "2x4", "box": "2x2", "givens": {"r2c4": 3}},
     lines_of(2, 4) + [[0, 1, 4, 5], [2, 3, 6, 7]], {7: 3}, None),
    ({"shape": "2x3", "digits": "1-4", "box": "none", "givens": {"r1c1": 4},
      "constraints": [{"type": "killer", "cells": ["r1c2", "r1c3"], "sum": 5},
                      {"type": "thermometer", "cells": ["r2c1", "r2c2"]}]},
     lines_of(2, 3), {0: 4}, lambda g: g[1] + g[2] == 5 and g[3] < g[4]),
])
def test_shaped_counts_match_brute_force(doc, houses, givens, rule):
    puzzle = read_variant(doc)
    geo = puzzle.geometry
    expected = shaped_count(geo.height, geo.width, geo.size, houses, givens, rule)
    result = satdoku.count(puzzle, limit=10_000)
    assert expected > 1 and result.count == expected and not result.at_limit


def test_shaped_grids_read_write_and_show():
    puzzle = read_variant(SHAPED[0]["puzzle"])
    geo = puzzle.geometry
    assert (geo.height, geo.width, geo.size, geo.box_rows, geo.box_cols) == (6, 8, 8, 2, 4)
    out = variant_document(puzzle)
    assert out["shape"] == "6x8" and "size" not in out and schema_errors(out) == []
    assert read_variant(out).geometry is geo
    assert pickle.loads(pickle.dumps(geo)) is geo
    from satdoku.io.text import format_grid
    text = format_grid(satdoku.solve(puzzle).solution, "pretty").splitlines()
    assert text[0] == "1 7 8 6 | 5 4 3 2" and len(text) == 8  # 6 rows, 2 rules
    # sigh's default boxes: as many cells as the longer side, when they tile the grid
    assert read_variant({"shape": "9x8"}).geometry.has_boxes is False
    assert read_variant({"shape": "6x6", "digits": "1-9"}).geometry.box_cols == 3


@pytest.mark.parametrize("doc, message", [
    ({"shape": "6x6", "digits": "1-5"}, "'digits' must be 'LOW-HIGH', 6 or more values"),
    ({"shape": "6x8", "box": "3x3"}, "boxes of 3x3 do not tile a 6x8 grid of 8 digits"),
    ({"shape": "6x8", "size": 8}, "give 'size' (an N x N grid) or 'shape' ('RxC'), not both"),
    ({"shape": "6x6", "digits": "1-9", "constraints": [{"type": "non-consecutive"}]},
     "non-consecutive is stated for an N x N grid of N digits; this is a 6x6 grid of 9 digits, 2x3"),
    ({"shape": "2x3", "regions": [["r1c1", "r1c2"], ["r1c3", "r2c3", "r2c2"], ["r2c1"]]},
     "regions must split the 6 cells of a 2x3 grid into regions of one size"),
    ({"size": 4, "constraints": [{"type": "doppelganger"}]},
     "doppelganger is stated for an N x N grid of values 0..N with houses of N cells; this "
     "is a 4x4 grid of values 1-4"),
    ({"shape": "4x5", "digits": "0-4", "constraints": [{"type": "little-killer", "cells":
      ["r1c1", "r2c2"], "sum": 3}]}, "little-killer is stated for a square grid (its diagonals)"),
])
def test_shaped_refused(doc, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        read_variant(doc)


def test_what_needs_a_square_grid_says_so():
    from conftest import run_cli
    doc = json.dumps({"shape": "6x6", "digits": "1-9", "box": "2x3"})
    native = run_cli("solve", "--solver", "native", "-", input=doc)
    assert "native search needs an N x N grid of N digits" in native.output
    unique = json.dumps(SHAPED[0]["puzzle"])
    assert "rating needs an N x N grid" in run_cli("rate", "-", input=unique).output
    converted = run_cli("convert", "--lossy", "--format", "fpuzzles", "-", input=doc)
    assert "f-puzzles and SudokuPad links hold N x N grids of N digits" in converted.output


@pytest.mark.parametrize("rule", [
    {"type": "killer", "cells": ["r1c1", "r2c2"], "sum": 6},
    {"type": "arrow", "circle": ["r1c1"], "cells": ["r1c2", "r2c3"]},
    {"type": "thermometer", "cells": ["r2c1", "r1c2", "r2c3"]},
    {"type": "slow-thermometer", "cells": ["r1c1", "r1c2", "r1c3"]},
    {"type": "german-whispers", "cells": ["r1c1", "r2c2", "r1c3"]},
    {"type": "palindrome", "cells": ["r1c1", "r1c2", "r2c3"]},
    {"type": "renban", "cells": ["r1c1", "r2c2", "r1c3"]},
    {"type": "between", "cells": ["r1c1", "r2c2", "r1c3"]},
    {"type": "kropki-white", "cells": ["r1c2", "r2c2"]},
    {"type": "kropki-black", "cells": ["r1c1", "r1c2"]},
    {"type": "xv", "cells": ["r1c3", "r2c3"], "sum": 5},
    {"type": "extra-region", "cells": ["r1c1", "r2c1", "r2c2", "r2c3"]},
    {"type": "skyscraper", "line": "c2", "from": "end", "count": 2},
    {"type": "skyscraper", "line": "r1", "from": "start", "count": 2},
    {"type": "numbered-room", "line": "r2", "from": "end", "digit": 2},
    {"type": "greater-than", "cells": ["r1c2", "r2c2", "r2c3"]},
    {"type": "anti-knight"},
    {"type": "anti-king"},
    {"type": "column-indexer", "cells": ["r1c2", "r2c1"]},
    {"type": "row-indexer", "cells": ["r1c3"]},
    {"type": "quadruple", "cells": ["r1c2", "r1c3", "r2c2", "r2c3"], "digits": [1, 4]},
    {"type": "diagonal", "direction": "+"},
    {"type": "disjoint-groups"},
    {"type": "regex", "cells": ["r1c1", "r1c2", "r2c2"], "pattern": "[14]+"},
    {"type": "nfa", "cells": ["r2c1", "r2c2", "r2c3"], "states": ["a", "b"], "start": ["a"],
     "accepting": ["b"], "transitions": [{"from": "a", "to": "b", "digits": [1, 2]},
                                         {"from": "b", "to": "b", "digits": [3, 4]}]},
    {"type": "counting-circles", "cells": ["r1c1", "r1c2", "r2c3"]},
    {"type": "double-arrow", "cells": ["r1c1", "r2c2", "r1c3"]},
    {"type": "dutch-flatmates"},
    {"type": "global-entropy"},
    {"type": "sum", "cells": ["r1c1", "r2c2", "r1c3", "r1c1"], "sum": 9},
    {"type": "same-values", "sets": [["r1c1", "r1c2"], ["r2c2", "r2c3"]]},
    {"type": "region-same-values"},  # the rows, 3 cells of digits 1-4: the same 3 digits
    {"type": "candidates", "cells": ["r1c1", "r2c3"], "digits": [2, 4]},
], ids=lambda rule: rule["type"])
def test_rules_on_any_shape_match_their_check(rule):
    """Each rule that takes a grid of other shape, on a 2x3 grid of digits 1-4 (a square
    3x3 of digits 1-4 for a diagonal, a 2x4 with 2x2 boxes for disjoint groups): the fillings
    SAT counts are those whose houses hold distinct digits and the rule's own check passes."""
    grid = {"diagonal": {"shape": "3x3"}, "disjoint-groups": {"shape": "2x4", "box": "2x2"}}
    puzzle = read_variant({"shape": "2x3", "digits": "1-4", **grid.get(rule["type"], {}),
                           "constraints": [rule]})
    geo = puzzle.geometry
    rows = itertools.permutations(range(1, 5), geo.width)  # a row's digits differ
    expected = sum(1 for cells in itertools.product(list(rows), repeat=geo.height)
                   if puzzle.check(Grid(geo, sum(cells, ()))) == [])
    result = satdoku.count(puzzle, limit=10_000)
    assert expected and result.count == expected and not result.at_limit


def test_doppelganger_counts_as_its_meaning_written_apart():
    """Every 4x4 grid of values 0-4 with 2x2 boxes and the first row 0 1 2 3 whose houses
    differ (brute force, no SAT; a 3x3 of values 0-3 has none): SAT's count and the rule's
    own check both match the rule's meaning (the spec checker's)."""
    puzzle = read_variant({"shape": "4x4", "digits": "0-4", "box": "2x2",
                           "givens": {f"r1c{c + 1}": c for c in range(4)},
                           "constraints": [{"type": "doppelganger"}]})
    geo = puzzle.geometry
    grids = [(0, 1, 2, 3)]
    for _ in range(3):  # a row at a time, its values apart from those above them
        grids = [g + row for g in grids for row in itertools.permutations(range(5), 4)
                 if all(row[c] not in g[c::4] for c in range(4))]
    grids = [g for g in grids if all(len({g[c] for c in h}) == 4 for h in geo.houses)]
    from spec_checker import violations  # the rule's meaning, written apart
    doc = variant_document(puzzle)
    expected = sum(1 for g in grids if violations(doc, "".join(map(str, g))) == [])
    checked = sum(1 for g in grids if puzzle.check(Grid(geo, tuple(x + 1 for x in g))) == [])
    result = satdoku.count(puzzle, limit=10_000)
    assert 0 < expected < len(grids) and checked == expected
    assert result.count == expected and not result.at_limit
    [rule] = puzzle.constraints
    assert rule.clause_estimate(geo) == len(rule.encode(C.EncodeContext(geo)))


@pytest.mark.parametrize("entry", SHAPES + SHAPED + CHAOS, ids=lambda e: e["puzzle"]["name"])
def test_the_spec_checker_holds_the_published_solutions(entry):
    """tests/spec_checker.py, written from the spec apart from satdoku's classes, finds
    nothing wrong with each published solution, and satdoku writes documents it reads."""
    from spec_checker import check_document, violations
    doc = variant_document(read_variant(entry["puzzle"]))
    check_document(doc)
    if any(c["type"] == "chaos" for c in doc["constraints"]):
        assert violations(doc, entry["solution"]) == ["#0 chaos"]  # no regions drawn
        return
    assert violations(doc, entry["solution"]) == []


def test_the_spec_checker_holds_a_chaos_answer_with_its_regions():
    from spec_checker import violations
    doc = {"format": "satdoku-variant", "version": 1, "size": 4, "box": "none",
           "givens": "1..4.3..34.2.12.",
           "constraints": [{"type": "chaos", "together": [["r1c1", "r2c1"]]}]}
    puzzle = read_variant(doc)
    answer = satdoku.solve(puzzle).solution
    from satdoku.io.text import format_regions
    drawn = format_regions(answer.geometry)
    assert violations(doc, text_of(puzzle, answer), drawn) == []
    assert violations(doc, text_of(puzzle, answer), "AABB" * 4) == ["#0 chaos"]


@pytest.mark.parametrize("doc, header", [
    ({"shape": "5x10", "box": "5x2"}, "a Sudoku on a 5x10 grid of 10 digits (boxes 5x2)"),
    ({"shape": "6x8", "box": "none"}, "a Sudoku on a 6x8 grid of 8 digits (no boxes)"),
    ({"size": 9}, "a 9x9 Sudoku (boxes 3x3)"),
])
def test_a_dimacs_header_names_the_grids_shape(doc, header):
    from satdoku.cnf.export import dimacs_header
    from satdoku.cnf.formula import encode_base
    geo = read_variant({"format": "satdoku-variant", "version": 1, **doc}).grid.geometry
    assert dimacs_header(encode_base(geo, "extended"))[0] == f"c satdoku {satdoku.__version__}: " \
        f"{header} as CNF"
