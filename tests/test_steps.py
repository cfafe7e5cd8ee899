"""Step paths (explain --steps) for classic and variant puzzles: each step replayed and checked
by an independent SAT check (tests/stepcheck.py), the names of classic techniques, limits."""

import pytest

from conftest import PUZZLES, SMALL, SMALL_SOLUTION, grid_of
from satdoku.deadline import Deadline
from satdoku.io.inputs import iter_inputs
from satdoku.sat.solver import SatSolver
from satdoku.native.ladder import se_rate
from satdoku.tasks.path import STEP_KINDS, path_rating, step_rating
from satdoku.tasks.solvers import solve
from satdoku.tasks.steps import rule_facts, step_path
from stepcheck import check_path

VARIANTS = PUZZLES / "variants"


def read(name):
    """The shipped variant puzzle ``name``."""
    return next(iter(iter_inputs([str(VARIANTS / name)], ignore_unknown=True)))


def _puzzle(name):
    puzzle = read(name)
    with SatSolver() as sat:
        result = solve(sat, puzzle.grid, limit=2, constraints=puzzle.constraints)
    assert result.status == "unique"
    return puzzle, result.solution


@pytest.mark.parametrize("name", ["peak.json", "6x6-extreme-killer.json"])
def test_every_step_of_a_variant_path_is_forced_by_its_facts_and_each_fact_needed(name):
    puzzle, solution = _puzzle(name)
    path = step_path(puzzle.grid, solution, constraints=puzzle.constraints)
    assert path.status == "solved"
    assert check_path(puzzle.grid, path, solution) == []
    assert {s.technique for s in path.steps} <= set(STEP_KINDS)
    assert all(s.rules or s.technique == "naked single" for s in path.steps)


#: The example of docs/variants.md, "cells outside the grid": a cage of two outside cells,
#: and an arrow from one of them into the grid.
TIED = ('{"size": 4, "extra-cells": ["VA", "VB"], "givens": {"r1c1": 1, "r2c3": 1, '
        '"r3c2": 4, "r4c3": 3, "VA": 3}, "constraints": [{"type": "killer", "cells": '
        '["VA", "VB"], "sum": 5}, {"type": "arrow", "circle": ["VB"], "cells": ["r1c2"]}]}')


def test_a_path_through_cells_outside_the_grid_holds(tmp_path):
    # The facts' selectors and a rule's auxiliary variables are numbered after every cell's
    # variables, the outside cells' too (they were numbered from N**3 + 1, which is an
    # outside cell's variable: a rule's selector meant "VA holds 1").
    from satdoku.sat.facts import FactSolver
    (tmp_path / "tied.json").write_text(TIED)
    puzzle = next(iter(iter_inputs([str(tmp_path / "tied.json")])))
    geo = puzzle.grid.geometry
    with SatSolver() as sat:
        solution = solve(sat, puzzle.grid, limit=2, constraints=puzzle.constraints).solution
    path = step_path(puzzle.grid, solution, constraints=puzzle.constraints)
    assert path.status == "solved" and check_path(puzzle.grid, path, solution) == []
    assert any("VA" in step.text for step in path.steps)
    rules = rule_facts(geo, tuple(puzzle.constraints))
    with FactSolver(geo, [f.rule for f in rules]) as s:
        assert min(s.rule_selectors) > geo.ncells * geo.size


def test_a_classic_path_replays_and_names_its_techniques():
    grid, solution = grid_of(SMALL), grid_of(SMALL_SOLUTION)
    path = step_path(grid, solution)
    assert check_path(grid, path, solution) == []
    assert path.steps[0].text == "Full House in box 4: r3c4 = 1"  # SE's ladder, SE's names
    # The 6x6 killer's path takes locked candidates and subsets, named as such.
    puzzle, solution = _puzzle("6x6-extreme-killer.json")
    kinds = {s.technique for s in step_path(puzzle.grid, solution,
                                            constraints=puzzle.constraints).steps}
    assert {"claiming", "naked pair", "one rule", "combination"} <= kinds


def test_the_first_steps_of_miracle_sudoku_cite_the_rules_and_the_given():
    puzzle, solution = _puzzle("miracle.json")
    for seconds in (0.5, 2, 8, 30):  # the whole path takes 5-15 s: a loaded machine, more
        path = step_path(puzzle.grid, solution, constraints=puzzle.constraints,
                         deadline=Deadline(seconds))
        if path.steps[0].technique != "timeout":  # a step before the time limit's own
            break
    assert check_path(puzzle.grid, path, solution, partial=True) == []
    first = path.steps[0]
    assert first.fact_names() == ["anti-knight", "r5c3=1"]
    assert first.reason.endswith("by anti-knight with r5c3=1")


def test_a_rule_over_the_grid_in_independent_parts_is_a_fact_per_part():
    puzzle = read("159-arrows.json")
    names = [f.name for f in rule_facts(puzzle.grid.geometry, puzzle.constraints)]
    assert "rule 1-5-9 at r3c1-...-r3c9 (9 cells)" in names
    assert sum(name.startswith("rule 1-5-9 at") for name in names) == 9


def test_max_rules_makes_the_path_guess_and_say_where():
    puzzle, solution = _puzzle("peak.json")
    path = step_path(puzzle.grid, solution, constraints=puzzle.constraints, max_rules=1)
    guesses = [s for s in path.steps if s.technique == "guess"]
    assert path.status == "guess" and guesses
    assert "no deduction from at most 1 rules is left" in guesses[0].reason
    assert check_path(puzzle.grid, path, solution) == []  # it still ends at the solution
    assert step_rating(guesses[0]) == 3.5  # as a combination of 2 rules


def test_the_time_limit_ends_the_path_with_a_record():
    puzzle, solution = _puzzle("6x6-extreme-killer.json")
    path = step_path(puzzle.grid, solution, constraints=puzzle.constraints,
                     deadline=Deadline(1e-6))
    assert path.status == "timeout" and path.steps[-1].technique == "timeout"


def test_paths_are_the_same_every_time():
    puzzle, solution = _puzzle("peak.json")
    texts = [[s.text for s in step_path(puzzle.grid, solution,
                                        constraints=puzzle.constraints).steps]
             for _ in range(2)]
    assert texts[0] == texts[1]


def test_a_classic_path_is_rated_by_se_ladder_which_it_begins_with():
    from conftest import PUZZLES as shipped
    from satdoku.io.text import read_puzzles
    puzzle = next(iter(read_puzzles(str(shipped / "9x9.txt"))))
    with SatSolver() as sat:
        solution = solve(sat, puzzle.grid, limit=2).solution
    path = step_path(puzzle.grid, solution)
    se = se_rate(puzzle.grid)
    rating = path_rating(path)
    assert (rating.er, rating.ep, rating.ed, rating.bound) == (se.er, se.ep, se.ed, False)
    assert rating.hardest.technique == se.hardest and rating.hardest.rating == se.er
    assert [s.rating for s in path.steps] == [s.rating for s in se.steps]
    assert check_path(puzzle.grid, path, solution) == []


def test_the_checker_refuses_a_ladder_step_the_board_does_not_force():
    from satdoku.records import replace
    from satdoku.io.text import read_puzzles
    puzzle = next(iter(read_puzzles(str(PUZZLES / "9x9.txt"))))
    with SatSolver() as sat:
        solution = solve(sat, puzzle.grid, limit=2).solution
    path = step_path(puzzle.grid, solution)
    first = path.steps[0]
    assert first.rating is not None and not first.rules and not first.cells  # a ladder step
    cell = next(c for c in range(81) if puzzle.grid.cells[c] == 0
                and c not in {p for p, _ in first.placed})
    # one more elimination the board cannot force: the cell's own digit in the solution
    wrong = path.steps[0] = replace(
        first, eliminated=first.eliminated + ((cell, (solution.cells[cell],)),))
    problems = check_path(puzzle.grid, path, solution)
    assert problems[0] == f"step 1 ({wrong.text}): the board does not force it"


def test_the_ratings_of_a_variant_path():
    puzzle, solution = _puzzle("peak.json")
    path = step_path(puzzle.grid, solution, constraints=puzzle.constraints)
    rating = path_rating(path)
    ratings = [step_rating(s) for s in path.steps]
    first_placement = next(i for i, s in enumerate(path.steps) if s.placed)
    assert rating.er == max(ratings) and rating.ed == ratings[0]
    assert rating.ep == max(ratings[:first_placement + 1])
    assert rating.hardest is path.steps[ratings.index(rating.er)] and not rating.bound
    assert path.se is None


def test_a_rule_read_alone_is_as_easy_as_a_hidden_single():
    # One rule with placed digits alone rates as a hidden single in a line (1.5), with one
    # cell's candidates as a naked single (2.3), with two or more as a naked pair (3.0).
    from satdoku.io.inputs import iter_inputs
    text = ('{"size": 4, "givens": {"r1c1": 1}, "constraints": [{"type": "killer", "cells": '
            '["r1c2", "r1c3"], "sum": 5}, {"type": "thermometer", "cells": ["r2c1", "r2c2"]}, '
            '{"type": "arrow", "circle": ["r4c4"], "cells": ["r3c4", "r2c4"]}, {"type": '
            '"diagonal", "direction": "+"}]}')
    puzzle = next(iter(iter_inputs([text])))
    with SatSolver() as sat:
        solution = solve(sat, puzzle.grid, limit=2, constraints=puzzle.constraints).solution
    path = step_path(puzzle.grid, solution, constraints=puzzle.constraints)
    assert check_path(puzzle.grid, path, solution) == []
    by_text = {s.text: step_rating(s) for s in path.steps}
    assert by_text["one rule: r2c1 != 4, by thermometer from r2c1 to r2c2"] == 1.5
    assert by_text["one rule: r1c2 != 4, by killer cage r1c2-r1c3 = 5 with r1c3 in {2,3,4}"] \
        == 2.3
    assert path_rating(path).er == 2.3
    killer, solution = _puzzle("6x6-extreme-killer.json")
    pairs = [s for s in step_path(killer.grid, solution, constraints=killer.constraints).steps
             if s.technique == "naked pair"]
    assert pairs and all(step_rating(s) == 3.0 for s in pairs)


def test_a_time_limit_not_reached_changes_no_step(monkeypatch):
    # A question with a deadline is asked in slices of CONFLICT_SLICE conflicts; so is one
    # without, so the two searches, and the paths, are the same (before, `rate` and `rate
    # --timeout 600` gave Orbit paths of 172 and 192 steps). One conflict a slice makes every
    # question of this path a sliced one.
    from satdoku.sat import facts
    monkeypatch.setattr(facts, "CONFLICT_SLICE", 1)
    puzzle, solution = _puzzle("pencilmark-sudoku.json")
    paths = [step_path(puzzle.grid, solution, constraints=puzzle.constraints,
                       deadline=deadline) for deadline in (Deadline(None), Deadline(600))]
    assert [s.text for s in paths[0].steps] == [s.text for s in paths[1].steps]
