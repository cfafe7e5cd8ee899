"""explain --fix: the givens and rules that would make a puzzle unique, ranked, checked by
counting; and what removing each member of a core leaves."""

from conftest import MIRACLE_R5C3, UNSOLVABLE_4X4, all_solutions, grid_of
from satdoku.io.inputs import read_puzzle
from satdoku.model.grid import Grid
from satdoku.rules import Killer, Thermometer
from satdoku.sat.solver import SatSolver
from satdoku.tasks.disambiguate import givens_that_fix, rules_that_fix
from satdoku.tasks.explain import explain


def _with(grid: Grid, cell: int, d: int) -> Grid:
    cells = list(grid.cells)
    cells[cell] = d
    return Grid(grid.geometry, tuple(cells))


def test_the_givens_that_fix_leave_the_solutions_they_say():
    grid = grid_of("1234" + "." * 12)
    solutions = all_solutions(grid)
    with SatSolver() as sat:
        ranked, _ = givens_that_fix(sat, grid)
    assert [n for _, _, n in ranked] == sorted(n for _, _, n in ranked)
    for cell, d, n in ranked:
        assert n == sum(1 for s in solutions if s.cells[cell] == d) > 0
    listed = {(c, d) for c, d, _ in ranked}
    assert listed == {(c, s.cells[c]) for s in solutions for c in range(16) if not grid.cells[c]}


def test_miracle_with_one_given_is_made_unique_by_a_second():
    puzzle = read_puzzle(MIRACLE_R5C3)
    e = explain(puzzle.grid, constraints=puzzle.constraints, fix=True)
    assert e.status == "multiple"
    cell, d, left = e.fixes.givens[0]
    assert left == 1
    fixed = _with(puzzle.grid, cell, d)
    with SatSolver() as sat:
        assert sat.solve(fixed, limit=2, constraints=puzzle.constraints).status == "unique"


def test_candidate_rules_ranked_by_the_solutions_they_leave():
    grid = grid_of("1234" + "." * 12)
    candidates = (Thermometer((4, 5, 6)), Killer((4, 8), 7), Thermometer((15, 14, 13, 12)))
    with SatSolver() as sat:
        ranked, _ = rules_that_fix(sat, grid, (), candidates)
    for i, left in ranked:
        assert left == min(len(all_solutions(grid, (candidates[i],))), 64)
    lefts = [left for _, left in ranked]
    assert lefts == sorted(lefts, key=lambda n: (n == 0, n))


def test_removals_of_a_core_member():
    grid = grid_of(UNSOLVABLE_4X4)
    e = explain(grid, fix=True)
    assert e.status == "unsolvable"
    members = {m for m, _ in e.fixes.removals}
    assert members == {("given", c) for c, _ in e.core}
    for (kind, cell), status in e.fixes.removals:
        rest = _with(grid, cell, 0)
        assert status == ("multiple" if len(all_solutions(rest)) > 1 else "unique")


def test_explain_fix_on_the_command_line(run, tmp_path):
    import json
    rules = tmp_path / "rules.json"
    rules.write_text('{"size": 9, "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"],'
                     ' "sum": 9}, {"type": "diagonal", "direction": "-"}]}')
    result = run("explain", "--fix", "--fix-rules", rules, MIRACLE_R5C3)
    assert result.exit_code == 0
    assert "givens would each make it unique: r1c1=4, r1c1=5" in result.stdout
    assert "the rule killer cage r1c1-r1c2 = 9 would make it unique" in result.stdout
    assert "the rule diagonal r1c1-r9c9 contradicts it" in result.stdout
    rec = json.loads(run("explain", "--fix", "--format", "json", UNSOLVABLE_4X4).stdout)
    assert rec["fixes"]["removals"][0] == {"remove": "r1c1=1", "then": "multiple"}
    assert run("explain", "--fix-rules", rules, MIRACLE_R5C3).exit_code == 2
