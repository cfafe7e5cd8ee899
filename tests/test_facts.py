"""The fact solver's rules say only themselves (satdoku/sat/facts.py): a step that cites one
rule must not lean on a house it does not cite. Each rule's clauses, written as the facts are
(``houses=False``), allow every digit assignment of its cells that the rule's own test
(``holds``, or ``check`` for rules over the whole grid) allows, and for a rule of its cells
alone (``holds``) nothing else, checked by enumeration on every instance of at most MOST
assignments in tests/variant_tests.jsonl and the shipped puzzles."""

import itertools
from pathlib import Path

import pytest
from pysat.solvers import Solver

from conftest import PUZZLES
from satdoku.io.inputs import iter_inputs
from satdoku.model.grid import Grid
from satdoku.rules.context import EncodeContext

#: Assignments a rule's cells may have, at most, for the enumeration.
MOST = 4096

#: Rule types whose encoding still uses what the houses imply with ``houses=False`` (their
#: parts inside one box, their row, are written as all different): reported to the owner of
#: satdoku/rules/ (line_sums.py: _encode_equal_sums asks sees(); outside.py: distinct=True).
LEANS_ON_HOUSES: set[str] = set()


def _instances_by_type():
    """Every distinct rule instance with at most MOST assignments, by type name."""
    files = [str(Path(__file__).parent / "variant_tests.jsonl")] + sorted(
        str(p) for p in (PUZZLES / "variants").glob("*.json"))
    found: dict[str, dict] = {}
    for puzzle in iter_inputs(files, ignore_unknown=True):
        geo = puzzle.grid.geometry
        for rule in puzzle.constraints:
            if geo.size ** len(set(rule.cells)) <= MOST:
                found.setdefault(type(rule).__name__, {})[(geo.shape, repr(rule))] = (geo, rule)
    return {name: list(rules.values()) for name, rules in found.items()}


INSTANCES = _instances_by_type()


def _holds(rule, geo, cells, digits) -> tuple[bool, bool]:
    """(whether the rule's own test passes the assignment, whether that test reads its cells
    alone: then the clauses must forbid what it forbids too)."""
    try:
        by_cell = dict(zip(cells, digits))
        return rule.holds(tuple(by_cell[c] for c in rule.cells)), True
    except NotImplementedError:
        grid = [0] * geo.ncells
        for c, d in zip(cells, digits):
            grid[c] = d
        return not rule.check(Grid(geo, tuple(grid))), False


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(
        strict=True, reason="its encoding uses the houses even with houses=False"))
    if name in LEANS_ON_HOUSES else name for name in sorted(INSTANCES)])
def test_a_rule_alone_allows_exactly_what_the_rule_allows(name):
    for geo, rule in INSTANCES[name]:
        n = geo.size
        cells = sorted(set(rule.cells))
        clauses = rule.encode(EncodeContext(geo, houses=False))
        for c in cells:
            lits = [c * n + d for d in range(1, n + 1)]
            clauses += [lits] + [[-a, -b] for a, b in itertools.combinations(lits, 2)]
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for digits in itertools.product(range(1, n + 1), repeat=len(cells)):
                allowed = solver.solve([c * n + d for c, d in zip(cells, digits)])
                holds, alone = _holds(rule, geo, cells, digits)
                assert allowed == holds if alone else allowed or not holds, \
                    f"{rule.describe(geo)} {'allows' if allowed else 'forbids'} " \
                    f"{dict(zip(cells, digits))} alone, which its own test does not"


def test_a_shrink_out_of_effort_gives_the_facts_back_unproven():
    # The sample (Sudoku Redux) takes search: within one conflict not even the first core of
    # "r1c1 is its solution's digit" is found, and the facts come back whole, not proven
    # minimal (it used to raise "the facts do not force the conclusion"); with no limit they
    # shrink.
    from conftest import SAMPLE, SAMPLE_SOLUTION, grid_of
    from satdoku.rules import ExtraRegion
    from satdoku.sat.facts import FactSolver
    grid = grid_of(SAMPLE)
    geo = grid.geometry
    with FactSolver(geo, [ExtraRegion(cells) for cells in geo.houses]) as s:
        facts = list(s.rule_selectors) + [s.cell_fact(c, 1 << (d - 1))
                                          for c, d in grid.givens()]
        cell = next(c for c, d in enumerate(grid.cells) if not d)
        conclusion = s.lit(cell, int(SAMPLE_SOLUTION[cell]))
        with s.limited(1):
            assert s.shrink(facts, conclusion) == (facts, False)
        shrunk, proven = s.shrink(facts, conclusion)
        assert proven and len(shrunk) < len(facts)


def test_a_rule_asked_alone_answers_as_the_whole_formula():
    # FactSolver asks about the facts of a few rules a small solver of their own (_Local):
    # what they force is what the solver of every rule says (local=False sends every
    # question there), pairs of rules included, and each set of facts it shrinks to forces
    # its conclusion there with no member to spare.
    from satdoku.budget import Budget
    from satdoku.model.digits import bits
    from satdoku.native.board import Board
    from satdoku.sat import facts
    from satdoku.tasks.path import rule_facts
    puzzle = next(iter_inputs([str(PUZZLES / "variants" / "sandwich.json")]))
    geo = puzzle.grid.geometry
    rules = rule_facts(geo, tuple(puzzle.constraints), Budget())
    board = Board.of_givens(puzzle.grid)[0]
    groups = [(r,) for r in range(len(rules))] + [(0, 27), (9, 27), (27, 28)]

    def ask(local):
        s = facts.FactSolver(geo, [f.rule for f in rules], local=local)
        cell_facts = {c: s.cell_fact(c, board.cand[c]) for c in range(geo.ncells)}
        questions = []
        for group in groups:
            cells = sorted({c for r in group for c in rules[r].cells})
            selected = [s.rule_selectors[r] for r in group] + [cell_facts[c] for c in cells]
            questions.append((group, selected, [-s.lit(c, d) for c in cells
                                                for d in bits(board.cand[c])]))
        return s, questions

    local, questions = ask(True)
    whole, same = ask(False)  # the selectors are numbered alike in both
    assert same == questions
    shrunk = 0
    with local, whole:
        for group, selected, conclusions in questions:
            forced = local.forced(selected, conclusions)
            assert forced == whole.forced(selected, conclusions), group
            for c in forced:
                kept, proven = local.shrink(selected, c, keep=selected[:len(group)])
                assert proven and whole.forces(kept, c)
                assert not any(whole.forces([f for f in kept if f != m], c)
                               for m in kept[len(group):])
                shrunk += 1
        assert local._locals and not whole._locals
    assert shrunk
