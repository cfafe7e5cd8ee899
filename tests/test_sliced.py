"""Bit-sliced propagation over a batch: what it settles is what unit propagation of the encoding
settles (sat.levels), the grids it gives are the solutions, and a batch through the solve task
answers as one puzzle at a time does."""

import random

import pytest

from conftest import (SAMPLE, SAMPLE_HARD, SEVENTEEN, SMALL, UNSOLVABLE_4X4, grid_of,
                      with_holes)
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid, solution_problems
from satdoku.model.puzzle import Puzzle
from satdoku.native.search import NativeSolver
from satdoku.sat.levels import Levels
from satdoku.sat.sliced import settle
from satdoku.tasks.generate import pattern_grid
from satdoku.tasks.solvers import SETTLE_MIN_PUZZLES, SolveOptions, search_options
from test_levels import LOCKED, PROBED, SINGLES


def relabelled(text, seed):
    """``text`` with its digits permuted and, for odd seeds, transposed: the same difficulty."""
    rng = random.Random(seed)
    digits = list("123456789")
    rng.shuffle(digits)
    table = str.maketrans("123456789", "".join(digits))
    text = text.translate(table)
    if seed % 2:
        text = "".join(text[9 * c + r] for r in range(9) for c in range(9))
    return text


#: 9x9 puzzles of every kind: settled by singles, by locked candidates, by neither (failed
#: literals, search, several solutions), and one with no solution.
KINDS = [SINGLES, LOCKED, PROBED, SAMPLE, SEVENTEEN, SAMPLE_HARD,
         ".714.........5......39.76............9...6..3.............4...8.......9.....85...",
         "12......." + "..3......" * 0 + "." * 72]
BATCH = [relabelled(text, seed) for seed in range(12) for text in KINDS]


@pytest.mark.parametrize("locked, encoding", [(False, "extended"), (True, "augmented")])
def test_settled_is_what_unit_propagation_settles(locked, encoding):
    grids = [grid_of(text) for text in BATCH]
    got = settle(grids[0].geometry, [g.cells for g in grids], locked=locked)
    levels = Levels(encoding, probe=False)
    try:
        for grid, cells in zip(grids, got):
            level = levels.level(grid)
            solved = cells is not None
            # propagation also settles a puzzle it proves unsolvable; settle leaves it alone
            assert solved == (level == "propagation" and cells is not None), grid
            if solved:
                assert not solution_problems(Grid(grid.geometry, cells), grid)
            else:
                assert level != "propagation" or not _solvable(grid)
    finally:
        levels.close()
    assert 0 < sum(c is not None for c in got) < len(got)


@pytest.mark.parametrize("locked", [False, True])
def test_settled_is_what_the_native_passes_settle(locked):
    """The batch pass and native search's passes (naked and hidden singles, and pointing and
    claiming) are the same rules written for two boards: a puzzle is settled by one exactly
    when the other solves it without a guess, to the same grid."""
    grids = [grid_of(text) for text in BATCH]
    got = settle(grids[0].geometry, [g.cells for g in grids], locked=locked)
    with NativeSolver(locked_candidates=locked, subsets=0) as native:
        for grid, cells in zip(grids, got):
            r = native.solve(grid)
            by_passes = r.status == "solved" and r.stats["guesses"] == 0
            assert (cells is not None) == by_passes, grid
            if by_passes:
                assert cells == r.solution.cells


def _solvable(grid):
    from satdoku.tasks.solvers import make_solver, solve
    with make_solver("sat") as s:
        return solve(s, grid).status == "solved"


def test_batch_order_and_size_do_not_matter():
    grids = [grid_of(text).cells for text in BATCH]
    whole = settle(geometry(3, 3), grids)
    assert [settle(geometry(3, 3), [g])[0] for g in grids[:16]] == whole[:16]
    assert settle(geometry(3, 3), grids[::-1]) == whole[::-1]
    assert settle(geometry(3, 3), []) == []


def test_other_shapes():
    four = [grid_of(SMALL), grid_of(UNSOLVABLE_4X4), grid_of("." * 16)]
    got = settle(geometry(2, 2), [g.cells for g in four])
    assert got[0] == (1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3) and got[1:] == [None, None]
    full = pattern_grid(geometry(2, 3))
    six = Grid(full.geometry, tuple(0 if i % 7 == 0 else d for i, d in enumerate(full.cells)))
    assert settle(geometry(2, 3), [six.cells, with_holes(full, 2).cells]) == [full.cells, None]
    regions = [[r * 4 + c for r, c in cells] for cells in (
        [(0, 0), (0, 1), (1, 0), (2, 0)], [(0, 2), (0, 3), (1, 1), (1, 2)],
        [(1, 3), (2, 3), (3, 3), (3, 2)], [(2, 1), (2, 2), (3, 0), (3, 1)])]
    geo = jigsaw(regions)
    from satdoku.tasks.solvers import make_solver, solve
    with make_solver("sat") as s:
        solution = solve(s, Grid(geo, (0,) * 16)).solution.cells
    holes = tuple(0 if i % 3 == 0 else d for i, d in enumerate(solution))
    assert settle(geo, [holes]) == [solution]


def _puzzles(texts):
    return [Puzzle(grid_of(text), "batch", i + 1, i + 1) for i, text in enumerate(texts)]


@pytest.mark.parametrize("limit", [1, 2])
def test_a_batch_answers_as_one_puzzle_at_a_time(limit):
    texts = (BATCH * 2)[:max(SETTLE_MIN_PUZZLES, len(BATCH))]
    task, alone = search_options(limit=limit).make(), search_options(limit=limit).make()
    settled = []
    real = task.solver.settle

    def recording(grids, lim):
        out = real(grids, lim)
        settled.extend(r for r in out if r is not None)
        return out

    task.solver.settle = recording
    try:
        assert task.batch > 1
        batched = list(task.run_many(_puzzles(texts)))
        single = [alone.run(p) for p in _puzzles(texts)]  # run: one puzzle, no pre-pass
    finally:
        task.close()
        alone.close()
    assert len(settled) >= len(texts) // 4
    assert [o.puzzle.line for o in batched] == list(range(1, len(texts) + 1))
    from satdoku.tasks.solvers import make_solver, solve
    with make_solver("sat") as s:
        unique = {t for t in set(texts) if solve(s, grid_of(t), limit=2).status == "unique"}
    for text, a, b in zip(texts, batched, single):
        assert (a.result.status, a.result.count) == (b.result.status, b.result.count)
        if text in unique:  # the first of several solutions depends on the solver's past
            assert a.result.solution == b.result.solution
        assert sorted(a.result.stats) == sorted(b.result.stats)
        assert (a.result.encoding, a.result.solver) == (b.result.encoding, b.result.solver)
    # a quarter of the puzzles or more are settled by propagation: the pre-pass goes on
    assert task.batch > SETTLE_MIN_PUZZLES


def test_hard_batches_stop_the_pre_pass_and_options_that_need_none():
    task = SolveOptions().make()
    try:
        list(task.run_many(_puzzles([relabelled(PROBED, s) for s in range(SETTLE_MIN_PUZZLES)])))
        assert task.batch == 1
    finally:
        task.close()
    for options in (SolveOptions(timeout=5), SolveOptions(check=True),
                    SolveOptions(fresh=True), SolveOptions(solver="native")):
        task = options.make()
        assert task.batch == 1
        task.close()


@pytest.mark.parametrize("few", [1, len(KINDS)])
def test_a_few_grids_are_settled_alone_as_a_batch_settles_them(few, monkeypatch):
    from satdoku.sat import fast
    from satdoku.tasks.solvers import make_solver
    grids = [grid_of(text) for text in BATCH[:few]]
    batch = settle(grids[0].geometry, [g.cells for g in grids])
    assert few < fast.SLICED_MIN_GRIDS

    def sliced(*args, **kwargs):
        raise AssertionError("a few grids went through the bit-sliced rounds")

    monkeypatch.setattr("satdoku.sat.sliced.settle", sliced)
    with make_solver("sat") as solver:
        results = solver.settle(grids, 2)
    assert [r.solution.cells if r else None for r in results] == batch
    assert any(batch) and (few == 1 or not all(batch))
    assert all(r.status == "unique" for r in results if r)


@pytest.mark.parametrize("at_once", [True, False])
def test_givens_a_solve_checks_itself_give_the_reader_s_answers(tmp_path, monkeypatch, at_once):
    # A solve's reader leaves one-liners' givens unchecked (Puzzle.unchecked): the batch's
    # verification covers the puzzles the pass settles, and the others are checked alone.
    # Every answer, and every clash's message, is the one a checked read gives; also when
    # the batch's answers are not all right at once (forced here), and each is checked alone.
    if not at_once:
        monkeypatch.setattr("satdoku.tasks.solvers.solutions_right", lambda *args: False)
    from satdoku.io.inputs import iter_inputs
    from satdoku.run.stream import stream
    lines = []
    for k, text in enumerate((BATCH * 2)[:SETTLE_MIN_PUZZLES + 40]):
        if k % 17 == 3:  # a clash: the first given copied into its row's first empty cell
            cells = list(text)
            given = next(i for i, ch in enumerate(cells) if ch not in ".0")
            row = given - given % 9
            empty = next(i for i in range(row, row + 9) if cells[i] in ".0")
            cells[empty] = cells[given]
            text = "".join(cells)
        lines.append(text)
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    inputs = iter_inputs([str(path)])
    deferred = list(stream(inputs, search_options(limit=2)))
    assert inputs.defer_clashes
    task = search_options(limit=2).make()
    try:
        alone = [task.run(p) for p in iter_inputs([str(path)])]  # read with the check
    finally:
        task.close()

    def said(o):  # a unique puzzle's solution; of several, the first depends on the solver
        r = o.result
        return o.puzzle.line, r.status, r.message, r.solution if r.status == "unique" else None

    assert [said(o) for o in deferred] == [said(o) for o in alone]
    clashes = [o for o in deferred if o.result.status == "invalid"]
    assert len(clashes) == len(range(3, len(lines), 17))
    assert all("repeats the given" in o.result.message for o in clashes)
    assert not any(o.puzzle.unchecked for o in deferred)
