"""sigh's rule types (issue 32): the published puzzles of sigh's collections that use them
solve to their published solutions, full rank's three tie modes, and bad input located.
Every type also goes through test_constraints.py's checks (4x4 samples against brute force
and the spec checker, a test puzzle each, prune against every allowed grid)."""

import json
from pathlib import Path

import pytest

import satdoku.rules as C
from satdoku.io.variant import parse_variants, read_variant
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.tasks.solvers import make_solver, solve
from spec_checker import violations
from test_constraints import G4, GRIDS4, solutions

#: Puzzles of sigh's example and collection files (MIT, data/ in sigh/Interactive-Sudoku-
#: Solver), converted from sigh's constraint strings by a throwaway script (sigh's own NFA
#: decoder for the state machines), with sigh's published solutions; Odd Blockade Runners
#: (connected values, from sigh's script of it) by hand. The two that take seconds are slow
#: tests.
SIGH = [json.loads(line) for line in
        (Path(__file__).parent / "data" / "sigh_rules.jsonl").read_text().splitlines()]
SLOW = {"Full rank 2", "Odd Blockade Runners"}


@pytest.mark.parametrize("row", [r if r["doc"]["name"] not in SLOW else
                                 pytest.param(r, marks=pytest.mark.slow) for r in SIGH],
                         ids=lambda row: row["doc"]["name"])
def test_sighs_published_puzzles_have_their_published_solution(row):
    puzzle = read_variant(row["doc"])
    with make_solver("sat") as solver:
        result = solve(solver, puzzle.grid, constraints=puzzle.constraints, limit=2)
    assert result.count == 1
    assert "".join(map(str, result.solution.cells)) == row["solution"]
    assert violations(row["doc"], row["solution"]) == []


def test_every_type_but_full_rank_ties_in_a_published_puzzle_or_said_why():
    """The types no published puzzle with a solution tests: contain-at-least (sigh's three
    puzzles have no solution written), contain-exact (its one puzzle needs or, same-value
    sets and sums over any cells)."""
    used = {c["type"] for row in SIGH for c in row["doc"]["constraints"]}
    ours = {"counting-circles", "count-distinct", "contain-at-least", "contain-exact",
            "look-and-say", "lunchbox", "rellik-cage", "equality-cage", "equal-sum",
            "value-indexing", "numbered-room", "hidden-skyscraper", "full-rank",
            "full-rank-ties", "global-entropy", "global-mod", "anti-taxicab",
            "dutch-flatmates", "nfa", "connected-values"}
    assert ours - used == {"contain-at-least", "contain-exact"}


@pytest.mark.parametrize("ties", ["none", "only-unclued", "any"])
def test_full_rank_ties_bind_to_the_clues_and_the_encoding_follows(ties):
    """A clue read with ``full-rank-ties`` learns the mode; on every 4x4 grid the encoding
    of clue + mode allows exactly the grids both checks pass, and the modes differ."""
    doc = {"format": "satdoku-variant", "version": 1, "size": 4, "givens": {},
           "constraints": [{"type": "full-rank", "line": "r1", "from": "start", "rank": 5},
                           {"type": "full-rank-ties", "ties": ties}]}
    puzzle = read_variant(doc)
    clue, mode = puzzle.constraints
    assert clue.ties == ties
    passing = sorted(g for g in GRIDS4
                     if not clue.check(Grid(G4, g)) and not mode.check(Grid(G4, g)))
    assert sorted(solutions(G4, [clue, mode])) == passing
    counts = {t: sum(1 for g in GRIDS4 if not C.FullRank(G4, "r1", "start", 5, ties=t)
                     .check(Grid(G4, g))) for t in ("only-unclued", "any")}
    assert counts["only-unclued"] < counts["any"]


def test_a_tied_rank_is_one_plus_the_smaller_numbers():
    g = Grid(G4, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))  # r1 left = r4 right
    assert C.FullRank(G4, "r1", "start", 1, ties="any").check(g) == []
    assert C.FullRank(G4, "r4", "end", 1, ties="any").check(g) == []
    assert C.FullRank(G4, "r1", "start", 1).check(g) == [
        "full-rank row 1 from the left = 1: it ties with another"]


@pytest.mark.parametrize("constraint, message", [
    ({"type": "look-and-say", "cells": ["r1c1"], "clue": "231"}, "'clue' '231': must be pairs"),
    ({"type": "look-and-say", "cells": ["r1c1"], "clue": "1313"}, "names digit 3 twice"),
    ({"type": "equality-cage", "cells": ["r1c1", "r1c2", "r1c3"]}, "an even number of cells"),
    ({"type": "full-rank", "line": "r1", "from": "start", "rank": 37}, "'rank' must be 1..36"),
    ({"type": "count-distinct", "control": ["r1c1"], "cells": ["r1c1", "r1c2"]},
     "the control cell is also one of the counted 'cells'"),
    ({"type": "equal-sum", "segments": [["r1c1"], ["r10c1"]]}, "'segments'[1]: r10c1 is outside"),
    ({"type": "nfa", "cells": ["r1c1"], "states": ["a"], "start": ["b"], "accepting": ["a"],
      "transitions": []}, "'start' names 'b', not one of 'states'"),
    ({"type": "nfa", "cells": ["r1c1"], "states": ["a", "a"], "start": ["a"],
      "accepting": ["a"], "transitions": []}, "'states' names state 'a' twice"),
    ({"type": "nfa", "cells": ["r1c1"], "states": ["a"], "start": ["a"], "accepting": ["a"],
      "transitions": [{"from": "a", "to": "a", "digits": [10]}]},
     "'transitions'[0]: 'digits' must be a list of digits 1..9"),
    ({"type": "full-rank-ties", "ties": "some"}, "'ties' must be one of"),
])
def test_bad_input_is_one_located_line(constraint, message):
    doc = {"format": "satdoku-variant", "version": 1, "size": 9, "givens": {},
           "constraints": [constraint]}
    [puzzle] = parse_variants([json.dumps(doc)], "bad.jsonl")
    lines = str(puzzle.error).splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"bad.jsonl:1: constraints[0] "
                                                   f"({constraint['type']}): ")
    assert message in lines[0]


def test_a_long_machine_is_refused_up_front_by_name():
    geo = geometry(3, 3)
    states = tuple(f"q{i}" for i in range(40))
    moves = tuple((a, b, tuple(range(1, 10))) for a in states for b in states)
    rule = C.StateMachine(tuple(range(81)), states, states[:1], states, moves)
    assert rule.clause_estimate(geo) > 100_000
    result = solve(make_solver("sat", max_clauses=100_000), Grid(geo, (0,) * 81),
                   constraints=(rule,))
    assert result.status == "refused" and "nfa (40 states) r1c1-...-r9c9" in result.message
