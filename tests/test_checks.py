"""Publishing checks (rate --checks): break-in, spike, steps by label, unused rules, what could go."""

import json

from conftest import NAKED_4X4, SAMPLE, run_cli
from satdoku.io.inputs import iter_inputs
from satdoku.io.text import parse_puzzle
from satdoku.model.grid import Grid
from satdoku.native.ladder import SERating
from satdoku.native.named import NamedStep
from satdoku.native.search import NativeSolver
from satdoku.tasks.checks import SINGLES, SPIKE, check_rating
from satdoku.tasks.rate import Rater, Rating


def _rated(*ratings):
    steps = [NamedStep(t, r, "") for t, r in ratings]
    return Rating("unique", max(r for _, r in ratings), se=SERating(steps=steps))


def test_the_break_in_is_the_first_step_past_singles():
    checks = check_rating(_rated(("Hidden Single", 1.2), ("Naked Single", 2.3),
                                 ("Pointing", 2.6), ("X-Wing", 3.2)), None)
    assert checks.break_in == (3, "Pointing", 2.6)
    assert check_rating(_rated(("Hidden Single", 1.2), ("Naked Single", 2.3)), None).break_in \
        is None


def test_a_spike_is_a_step_far_above_every_other():
    spiky = check_rating(_rated(("Hidden Single", 1.2), ("XY-Wing", 4.2), ("Pointing", 2.6)),
                         None)
    assert spiky.spike == (2, "XY-Wing", 4.2) and spiky.next_hardest == 2.6
    assert 4.2 - 2.6 >= SPIKE
    level = check_rating(_rated(("Hidden Single", 1.2), ("XY-Wing", 4.2), ("X-Wing", 3.2)), None)
    assert level.spike is None and level.next_hardest == 3.2
    assert level.by_label == {"easy": 1, "fiendish": 2}


def test_the_sample_checks_and_what_could_go_is_true():
    grid = parse_puzzle(SAMPLE).grid
    rating = Rater(checks=True).rate(grid)
    checks = rating.checks
    first = next(i for i, s in enumerate(rating.se.steps, 1) if s.technique not in SINGLES)
    assert checks.break_in[0] == first and checks.unused_rules == []
    assert sum(checks.by_label.values()) == len(rating.se.steps)
    assert checks.removable, "the sample has a given it could do without"
    for kind, cell in checks.removable:  # checked by another solver: still one solution
        cells = list(grid.cells)
        cells[cell] = 0
        assert NativeSolver().solve(Grid(grid.geometry, tuple(cells)), limit=2).status == \
            "unique"


def test_a_rule_no_step_uses_is_named():
    # A one-cell cage on a given does no work: no step of the path cites it.
    text = ('{"size": 4, "givens": {"r1c1": 1, "r1c4": 4, "r2c2": 4, "r3c1": 2, "r3c4": 3, '
            '"r4c4": 1}, "constraints": [{"type": "killer", "cells": ["r1c1"], "sum": 1}]}')
    puzzle = next(iter(iter_inputs([text])))
    rating = Rater(checks=True).rate(puzzle.grid, constraints=puzzle.constraints)
    assert rating.status == "unique"
    assert rating.checks.unused_rules == [0] and ("rule", 0) in rating.checks.removable


def test_rate_checks_on_the_command_line():
    result = run_cli("rate", "--checks", SAMPLE)
    assert result.exit_code == 0
    assert "  break-in: step 11, Direct Hidden Pair (2.0)" in result.output
    assert "  spike: none" in result.output
    rec = json.loads(run_cli("rate", "--checks", NAKED_4X4, "--format", "json").output)
    assert rec["checks"]["break_in"] is None and rec["checks"]["unused_rules"] == []
    assert "checks" not in json.loads(run_cli("rate", NAKED_4X4, "--format", "json").output)
