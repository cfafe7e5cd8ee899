"""explain: minimal cores of unsolvable puzzles (checked independently by the native solver),
two solutions of ambiguous ones, techniques of unique ones."""

import random

import pytest

from conftest import PUZZLES, SEVENTEEN, SEVENTEEN_SOLUTION, UNSOLVABLE_4X4
from satdoku.deadline import Deadline
from satdoku.run.stream import stream
from satdoku.tasks.base import Outcome
from satdoku.tasks.explain import ExplainOptions, explain, minimal_core
from satdoku.model.puzzle import Puzzle
from satdoku.io.text import parse_puzzle, parse_puzzles
from satdoku.tasks.generate import full_grid, make_puzzle
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, find_clash, is_solution
from satdoku.output.asking import ExplanationReport
from satdoku.sat.solver import SatSolver
from satdoku.native.search import NativeSolver


def record(expl, fmt="json"):
    """The explanation as the report writes it (a dict for json, text otherwise)."""
    puzzle = Puzzle(expl.grid, "<test>", 1, 1)
    report = ExplanationReport(fmt)
    item = Outcome(puzzle, expl)
    return report.record(item) if fmt == "json" else report.format(item)


def _only(grid: Grid, cells) -> Grid:
    keep = set(cells)
    return Grid(grid.geometry, tuple(d if i in keep else 0 for i, d in enumerate(grid.cells)))


def _solve_elsewhere(grid: Grid):
    """The native solver's answer; on a near-empty 16x16 grid, where it can search for long, a
    fresh MiniSat's (not the solver that found the core)."""
    result = NativeSolver().solve(grid, deadline=Deadline(0.2))
    if result.status == "timeout":
        with SatSolver("minisat22", incremental=False) as other:
            result = other.solve(grid)
    return result


def assert_minimal_core(grid: Grid, core):
    """Independently of how it was found: the core's givens have no solution, and without any
    one of them the rest has one (checked by the verifier)."""
    cells = [c for c, _ in core]
    assert all(grid.cells[c] == d for c, d in core)
    assert _solve_elsewhere(_only(grid, cells)).status == "unsolvable"
    for c in cells:
        rest = _only(grid, [x for x in cells if x != c])
        result = _solve_elsewhere(rest)
        assert result.status == "solved", f"{grid.geometry.cell_name(c)} is not needed"
        assert is_solution(result.solution, rest)


def _planted(puzzle: Grid, solution: Grid, rng: random.Random) -> tuple[Grid, int]:
    """``puzzle`` (unique, solution ``solution``) with a wrong digit planted in an empty cell,
    chosen so that no two givens clash directly."""
    empties = [i for i, d in enumerate(puzzle.cells) if not d]
    rng.shuffle(empties)
    for cell in empties:
        for d in range(1, puzzle.size + 1):
            if d == solution.cells[cell]:
                continue
            cells = list(puzzle.cells)
            cells[cell] = d
            planted = Grid(puzzle.geometry, tuple(cells))
            if find_clash(planted) is None:
                return planted, cell
    raise AssertionError("nowhere to plant")


def test_planted_clash_found_after_propagation_and_core_minimal():
    puzzle = parse_puzzle(SEVENTEEN).grid
    solution = parse_puzzle(SEVENTEEN_SOLUTION).grid
    planted, cell = _planted(puzzle, solution, random.Random(4))
    assert find_clash(planted) is None  # nothing repeats: the clash needs propagation
    expl = explain(planted)
    assert expl.status == "unsolvable"
    assert cell in [c for c, _ in expl.core]  # the givens without it have a solution
    assert len(expl.core) < planted.nclues
    assert_minimal_core(planted, expl.core)


def test_five_givens_leave_no_place_for_a_5_in_row_1():
    # 5s at r2c1, r3c4, r4c7, r7c8 keep 5 out of r1c1..r1c8; r1c9 holds a 1.
    cells = [0] * 81
    for (r, c), d in {(1, 0): 5, (2, 3): 5, (3, 6): 5, (6, 7): 5, (0, 8): 1}.items():
        cells[r * 9 + c] = d
    grid = Grid(geometry(3, 3), tuple(cells))
    expl = explain(grid)
    assert expl.status == "unsolvable"
    assert expl.core == [(8, 1), (9, 5), (21, 5), (33, 5), (61, 5)]
    text = record(expl, "pretty")
    assert "r1c9=1, r2c1=5, r3c4=5, r4c7=5, r7c8=5" in text
    assert text.count("[") == 5  # each core given marked on the grid


@pytest.mark.parametrize("box,seed,holes,count", [((2, 2), 1, 0.67, 3), ((2, 3), 2, 0.67, 3),
                                                  ((3, 3), 3, 0.67, 3), ((3, 3), 5, 0.67, 3),
                                                  pytest.param((4, 4), 6, 0.4, 1,
                                                               marks=pytest.mark.slow)])
def test_cores_of_random_unsolvable_puzzles_are_minimal(box, seed, holes, count):
    rng = random.Random(seed)
    geo = geometry(*box)
    native = NativeSolver()
    checked = 0
    with SatSolver() as sat:
        while checked < count:
            full = full_grid(geo, rng)
            puzzle = make_puzzle(full, rng, int(geo.ncells * holes))
            planted, _ = _planted(puzzle, full, rng)
            if native.solve(planted).status != "unsolvable":
                continue  # the puzzle had other solutions, one of which fits the planted digit
            members, calls = minimal_core(sat, planted)
            assert calls >= len(members) + 1 and {kind for kind, _ in members} == {"given"}
            core = [(c, planted.cells[c]) for _, c in members]
            assert_minimal_core(planted, core)
            checked += 1


def test_solvable_puzzle_has_no_core():
    with SatSolver() as sat:
        assert minimal_core(sat, parse_puzzle(SEVENTEEN).grid) == (None, 1)


def test_multiple_solutions_and_where_they_differ():
    grid = parse_puzzle("." * 81).grid
    expl = explain(grid)
    assert expl.status == "multiple"
    assert is_solution(expl.solution, grid) and is_solution(expl.second, grid)
    assert expl.differing == expl.solution.differences(expl.second) != []
    assert record(expl)["differing"][0].startswith("r")


def test_unique_puzzle_says_how_hard_it_is():
    expl = explain(parse_puzzle(SEVENTEEN).grid)
    assert expl.status == "unique"
    assert expl.solution == parse_puzzle(SEVENTEEN_SOLUTION).grid
    assert (expl.rating.score, expl.rating.hardest, expl.rating.label) == \
        (1.5, "Hidden Single", "medium")
    rec = record(expl)
    assert (rec["er"], rec["ep"], rec["ed"], rec["hardest"]) == (1.5, 1.2, 1.2, "Hidden Single")
    assert "unique solution; medium, ER 1.5/EP 1.2/ED 1.2 (Hidden Single)" in \
        record(expl, "pretty")


def _shipped(pattern):
    from satdoku.io.inputs import iter_inputs
    return [p for path in sorted(PUZZLES.glob(pattern))
            for p in iter_inputs([str(path)], ignore_unknown=True) if p.grid is not None]


def _agree(puzzle, timeout):
    """The header (explain), explain --steps and rate of ``puzzle`` say the same."""
    from satdoku.tasks.rate import Rater
    rated = Rater(timeout=timeout).rate(puzzle.grid, constraints=puzzle.constraints)
    if rated.status != "unique":
        return
    told = explain(puzzle.grid, constraints=puzzle.constraints, steps=True, timeout=timeout)
    said = [(r.score, r.ep, r.ed, r.label, r.hardest, r.bound)
            for r in (rated, told.rating)]
    if not puzzle.constraints:  # a classic header needs no path: the ladder gives it
        said.append(tuple(getattr(explain(puzzle.grid).rating, k) for k in
                          ("score", "ep", "ed", "label", "hardest", "bound")))
    if told.path.status != "timeout" and rated.message is None:
        assert len(set(said)) == 1, (puzzle.source, puzzle.line, said)


def _classic(big: bool):
    """The shipped classic puzzles up to 9x9, or (``big``) the larger ones, which the ladder
    takes tens of seconds over (marked slow)."""
    return [p for p in _shipped("*.txt") if (p.grid.size > 9) == big]


@pytest.mark.parametrize("puzzle", _classic(False), ids=lambda p: f"{p.source}:{p.line}")
def test_header_steps_and_rate_agree_on_every_shipped_classic_puzzle(puzzle):
    _agree(puzzle, 30)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", _classic(True), ids=lambda p: f"{p.source}:{p.line}")
def test_header_steps_and_rate_agree_on_every_big_shipped_classic_puzzle(puzzle):
    _agree(puzzle, 120)


VARIANTS_FAST = ("peak.json", "6x6-extreme-killer.json", "159-sudoku.json")


@pytest.mark.parametrize("name", VARIANTS_FAST)
def test_header_steps_and_rate_agree_on_variant_puzzles(name):
    _agree(_shipped(f"variants/{name}")[0], 30)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", _shipped("variants/*.json"),
                         ids=lambda p: f"{p.source}:{p.line}")
def test_header_steps_and_rate_agree_on_every_shipped_variant_puzzle(puzzle):
    _agree(puzzle, 60)


def test_record_of_a_core_names_cells_and_symbols():
    rec = record(explain(parse_puzzle(UNSOLVABLE_4X4).grid))
    assert rec["status"] == "unsolvable"
    # r1c3 and r1c4 must hold 3 and 4, but the 4 at r2c4 shares their box: r1c3 is not needed.
    assert rec["core"] == ["r1c1=1", "r1c2=2", "r2c4=4"]


@pytest.mark.parametrize("encoding", ["extended", "reduced"])
def test_every_encoding_finds_the_same_minimal_core(encoding):
    grid = parse_puzzle(UNSOLVABLE_4X4).grid
    expl = explain(grid, encoding=encoding)
    assert expl.status == "unsolvable" and expl.core == [(0, 1), (1, 2), (7, 4)]


def test_statuses_beyond_the_answers():
    # invalid (clashing givens), refused (over the size limit), timeout: the shared vocabulary
    assert explain(Grid(geometry(2, 2), (1, 1) + (0,) * 14)).status == "invalid"
    big = Grid(geometry(3, 3), (0,) * 81)
    refused = explain(big, max_clauses=100)
    assert refused.status == "refused" and "--max-clauses" in refused.message
    late = explain(big, deadline=Deadline(1e-9))
    assert (late.status, late.message) == ("timeout", "time limit of 1e-09 s reached")


def test_explain_puzzles_streams_and_keeps_bad_ones():
    lines = [UNSOLVABLE_4X4, "12x", SEVENTEEN]
    got = [(p.line, e and e.status) for p, e in ((o.puzzle, o.result) for o in stream(parse_puzzles(lines), ExplainOptions()))]
    assert got == [(1, "unsolvable"), (2, None), (3, "unique")]


def test_an_explanation_shows_its_verdict_and_one_grid_in_a_repl():
    """repr: the status and what it means, then one grid (the puzzle of a clash, the first
    solution otherwise), not every field (a rated path printed some 7 KB)."""
    import satdoku
    clash = repr(satdoku.explain(UNSOLVABLE_4X4))
    assert clash.startswith("<Explanation unsolvable: ") and " givens cannot all hold>\n" in clash
    rule = repr(satdoku.explain({"size": 4, "constraints": [
        {"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 2}]})).splitlines()[0]
    assert rule == "<Explanation unsolvable: 1 rule cannot hold>"
    assert len(clash.splitlines()) == 1 + 5  # a 4x4 grid: 4 rows and the box rule
    two = repr(satdoku.explain("." * 16)).splitlines()
    assert two[0] == "<Explanation multiple: two solutions differ at 16 cells>"
    one = repr(satdoku.explain(SEVENTEEN)).splitlines()
    assert one[0].startswith("<Explanation unique: ") and "ER " in one[0] and len(one) == 12
