"""Rules a setter writes (issue 32): the relation language and the regular expressions, each
read against a second reading (Python's own operators and ``re``), their clause counts exact
and bounded by --max-clauses, their errors located. The rules themselves go through every
check the other types do in test_constraints.py (samples, test puzzles, the spec checker)."""

import itertools
import json
import random
import re
from pathlib import Path

import pytest

import satdoku
import satdoku.rules as C
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.rules.automaton import parse_pattern
from satdoku.rules.expression import parse_relation

RELATIONS = {  # ours -> Python's reading of it
    "a > b": "a > b", "a = b + 1": "a == b + 1", "1 < a < b <= 4": "1 < a < b <= 4",
    "a % b == 0 && a != b": "a % b == 0 and a != b", "!(a == 2) || b == 3": "not (a == 2) or b == 3",
    "abs(a - b) * 2 >= max(a, b, 3) - min(a, b)": "abs(a - b) * 2 >= max(a, b, 3) - min(a, b)",
    "a / b == 3 / 2": "a * 2 == b * 3", "-a + 10 == b": "-a + 10 == b",
    "not a < b and not b < a": "a == b", "(a + b) % 3 == 1 or a * b > 20": "(a + b) % 3 == 1 or a * b > 20",
}


@pytest.mark.parametrize("ours", sorted(RELATIONS))
def test_a_relation_means_what_python_reads(ours):
    rel, python = parse_relation(ours), RELATIONS[ours]
    for a, b in itertools.product(range(1, 10), repeat=2):
        assert rel(a, b) == eval(python, {}, {"a": a, "b": b}), (a, b)


@pytest.mark.parametrize("text, message", [
    ("a >> b", "unexpected '>' at column 4"), ("a + b", "must be a truth"),
    ("a > (b", "expected ')', found the end"), ("a and b", "'and' needs a truth"),
    ("x > 1", "unexpected 'x' at column 1"), ("", "empty"), ("abs(a, b) > 1", "one value"),
    ("(" * 50 + "a > b" + ")" * 50, "more than 40"), ("a > 99999999", "too large"),
])
def test_a_bad_relation_says_where(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_relation(text)


def test_division_by_zero_fails_the_pair():
    assert not parse_relation("a / (b - b) == 1")(3, 3)
    assert parse_relation("a % (b - b) == 1 or a == 3")(3, 3)
    assert parse_relation("not a / (b - b) == 1")(3, 3)


PATTERNS = ["1[2-4]*5?", "(12|3)+", "[^5]{2,3}", "4{0}3", ".*1.*", "(1|2){1,2}3?",
            "((1|23)*4)?", "[1-3]+|4", "2{2,}", "1?2?3?", ".{0,2}", "(1(2|3)?){2}"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pattern_accepts_what_python_re_matches(pattern):
    nfa = parse_pattern(pattern)
    for k in range(6):
        for word in itertools.product(range(1, 6), repeat=k):
            text = "".join(map(str, word))
            assert nfa.accepts(word) == bool(re.fullmatch(pattern, text)), text


@pytest.mark.parametrize("pattern, message", [
    ("1(2", "expected ')' but found the end"), ("*1", "found '*' at column 1"),
    ("1**", "a repeat of a repeat"), ("[3-1]", "ends below its start"), ("[12", "no ']'"),
    ("1{5,2}", "n <= m <= 100"), ("0", "'0' at column 1 is not a value (1-9"),
    ("(1{50}){50}", "more than 2000 states"), (")", "unexpected ')' at column 1"),
])
def test_a_bad_pattern_says_where(pattern, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_pattern(pattern)


@pytest.mark.parametrize("seed", range(4))
def test_clause_estimates_are_what_the_encoding_writes(seed):
    rng = random.Random(seed)
    for geo in (geometry(2, 2), geometry(3, 3)):
        cells = tuple(rng.sample(range(geo.ncells), rng.randint(2, 8)))
        for rule in (C.Regex(cells, rng.choice(PATTERNS)),
                     C.PairRelation(cells, rng.choice(sorted(RELATIONS))),
                     C.PairRelation(cells, "a != b", between="all")):
            assert rule.clause_estimate(geo) == len(rule.encode(C.EncodeContext(geo))), rule


def test_a_long_pattern_is_refused_up_front_by_name():
    from satdoku.tasks.solvers import make_solver, solve
    geo = geometry(4, 4)
    rule = C.Regex(tuple(range(256)), "(1|2|3|4|5|6|7|8)*.{50}")
    assert rule.clause_estimate(geo) > 300_000
    result = solve(make_solver("sat", max_clauses=300_000), Grid(geo, (0,) * 256),
                   constraints=(rule,))
    assert result.status == "refused"
    assert "regex '(1|2|3|4|5|6|7|8)*.{50}' r1c1-...-r16c16 (256 cells) needs" in result.message


def test_a_bad_relation_in_a_file_is_one_located_line(tmp_path):
    from satdoku.io.variant import parse_variants
    doc = {"format": "satdoku-variant", "version": 1, "size": 4, "givens": {},
           "constraints": [{"type": "pair", "cells": ["r1c1", "r1c2"], "relation": "a => b"}]}
    [puzzle] = parse_variants([json.dumps(doc)], "bad.jsonl")
    assert str(puzzle.error).splitlines() == [
        "bad.jsonl:1: constraints[0] (pair): 'relation' 'a => b': unexpected '>' at column 4"]


def test_a_pattern_reads_values_so_0_is_a_value_only_in_a_grid_of_values_from_0():
    from satdoku.io.variant import parse_variants
    doc = {"format": "satdoku-variant", "version": 1, "size": 4, "digits": "0-3",
           "givens": {"r1c1": 0}, "constraints": [{"type": "regex", "cells": ["r1c1", "r1c2"],
                                                   "pattern": "0[^12]"}]}
    [zero] = parse_variants([json.dumps(doc)], "zero.jsonl")
    assert satdoku.solve(zero).solution.cells[:2] == (1, 4)  # digits of the values 0 and 3
    [one] = parse_variants([json.dumps({**doc, "digits": "1-4", "givens": {}})], "one.jsonl")
    assert str(one.error).splitlines() == [
        "one.jsonl:1: constraints[0] (regex): 'pattern' '0[^12]': '0' at column 1 is not a "
        "value (1-9, then A-Z for 10-35)"]


def test_a_9x9_with_a_relation_and_a_pattern_has_one_solution():
    """A 9x9 made by scripts/make_variants.py's builders, solved by the library end to end:
    one solution, verified, that the spec checker passes too."""
    from satdoku.io.variant import variant_document
    from spec_checker import violations
    from satdoku.tasks.solvers import make_solver, solve
    geo = geometry(3, 3)
    rules = (C.Regex((0, 1, 2, 3, 4, 5, 6, 7, 8), "[1-5]{4}9[6-8]{3}[1-5]"),
             C.Regex((9, 18, 27), "[^12]+"),
             C.PairRelation((10, 11, 12, 13), "a + b > 9"),
             C.PairRelation((40, 41, 50), "abs(a - b) >= 4", between="all"),
             C.GreaterThan(geo, (80, 79, 78, 69)), C.Windoku(geo))
    result = solve(make_solver("sat"), Grid(geo, (0,) * 81), constraints=rules)
    assert result.status == "solved"
    from satdoku.model.puzzle import Puzzle
    doc = variant_document(Puzzle(Grid(geo, (0,) * 81), constraints=rules))
    assert violations(doc, "".join(map(str, result.solution.cells))) == []


SIGH = [json.loads(line) for line in
        (Path(__file__).parent / "data" / "sigh_setters.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("row", SIGH, ids=lambda row: row["doc"]["name"])
def test_sighs_published_puzzles_have_their_published_solution(row):
    """Puzzles of sigh's example and collection files (MIT; greater-than, windoku, Pair and
    PairX as a relation and as listed pairs, Regex lines, Or of givens, of skyscrapers and
    of arrows), as satdoku documents: SAT finds
    the published solution and no other, and the spec checker passes it. Converted from
    sigh's constraint strings by hand-checked decoding (a Pair key's bits are the allowed
    pairs; the relations written here give exactly those pairs)."""
    from satdoku.io.variant import read_variant
    from satdoku.tasks.solvers import make_solver, solve
    from spec_checker import violations
    puzzle = read_variant(row["doc"])
    with make_solver("sat") as solver:
        result = solve(solver, puzzle.grid, constraints=puzzle.constraints, limit=2)
    assert result.count == 1 and "".join(map(str, result.solution.cells)) == row["solution"]
    assert violations(row["doc"], row["solution"]) == []
