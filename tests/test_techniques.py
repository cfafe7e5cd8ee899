"""The technique grader (counts, the hardest technique, agreement with the solvers) and the
solving path (every record's reason true when replayed, the solution reproduced)."""

import json
import pathlib
import random

import pytest

from satdoku.model.alphabet import Alphabet, alphabet_for
from satdoku.io.text import parse_puzzle, read_puzzles
from satdoku.tasks.generate import full_grid, make_puzzle
from satdoku.model.geometry import geometry, jigsaw
from satdoku.model.grid import Grid, is_solution
from satdoku.native.search import NativeSolver
from satdoku.native.techniques import STEP_KINDS, TECHNIQUES, solve_by_techniques, solving_steps

PUZZLES = pathlib.Path(__file__).parent.parent / "puzzles"
SHARED = pathlib.Path(__file__).parent.parent.parent / "shared" / "puzzles"

# Solved by naked singles alone: every empty cell of this 4x4 has one candidate at once.
NAKED_4X4 = "1..4.4..2..3...1"
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
# 'sample' of Sudoku Redux: needs guessing after the techniques stall.
SAMPLE_HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_naked_singles_only():
    steps = solve_by_techniques(parse_puzzle(NAKED_4X4).grid)
    assert steps.hardest == "naked singles" and steps.level == 0
    assert (steps.naked, steps.hidden, steps.locked, steps.open_cells) == (10, 0, 0, 0)


def test_hidden_singles_counted_and_solution_right():
    grid = parse_puzzle(SEVENTEEN).grid
    steps = solve_by_techniques(grid)
    assert steps.hardest == "hidden singles"
    assert steps.naked + steps.hidden == 81 - 17
    assert steps.hidden > 0 and steps.locked == 0
    assert is_solution(steps.solution, grid)


def test_hidden_single_found_where_no_naked_single_exists():
    # Row 1 needs a 1: r2c3 keeps it out of r1c3 and r1c4 (their box), r3c2 out of r1c2 (its
    # column), so r1c1 is its only place, though r1c1 still has all four candidates.
    cells = [0] * 16
    cells[6], cells[9] = 1, 1  # r2c3, r3c2
    steps = solve_by_techniques(Grid(geometry(2, 2), tuple(cells)))
    assert not steps.contradiction
    assert steps.naked == 0 and steps.hidden >= 1


def test_locked_candidates_needed():
    grid = parse_puzzle(SAMPLE_HARD).grid
    steps = solve_by_techniques(grid)
    assert steps.locked > 0
    assert steps.hardest == "locked candidates"
    assert is_solution(steps.solution, grid)


def test_stalls_into_guessing_on_an_empty_grid():
    steps = solve_by_techniques(Grid(geometry(3, 3), (0,) * 81))
    assert steps.hardest == "guessing" and steps.level == 3
    assert steps.open_cells == 81 and steps.solution is None


def test_contradiction_is_reported():
    # r1c4 has no digit left: 1, 2, 3 in its row, 4 in its column.
    steps = solve_by_techniques(parse_puzzle("123." "...4" "...." "....").grid)
    assert steps.contradiction and steps.hardest == "guessing"


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_never_wrong_on_random_puzzles(box):
    # Whatever the techniques place must agree with the (unique or not) native answer when
    # they finish, and they never claim a contradiction on a puzzle cut from a valid grid.
    rng = random.Random(sum(box))
    geo = geometry(*box)
    for _ in range(20):
        full = full_grid(geo, rng)
        puzzle = make_puzzle(full, rng, rng.randrange(geo.ncells // 2, geo.ncells))
        steps = solve_by_techniques(puzzle)
        assert not steps.contradiction
        if steps.solution is not None:
            assert is_solution(steps.solution, puzzle)
            assert steps.naked + steps.hidden == geo.ncells - puzzle.nclues
        native = NativeSolver().solve(puzzle, limit=2)
        if steps.solution is not None and native.status == "unique":
            assert steps.solution == native.solution


def test_techniques_named_easiest_first():
    assert TECHNIQUES == ("naked singles", "hidden singles", "locked candidates", "guessing")


# The solving path: each record replayed on candidates rebuilt from the houses alone.


class Replay:
    """The candidates a person would pencil in, rebuilt from the houses alone (nothing of
    satdoku.native.techniques), to check each record's claim at the moment it is made."""

    def __init__(self, grid):
        geo = self.geo = grid.geometry
        self.peers = [set().union(*(geo.houses[h] for h in geo.cell_houses[c])) - {c}
                      for c in range(geo.ncells)]
        self.placed = dict(grid.givens())
        self.cand = {c: set(range(1, geo.size + 1)) - {self.placed.get(p) for p in self.peers[c]}
                     for c in range(geo.ncells) if c not in self.placed}

    def copy(self):
        other = object.__new__(Replay)
        other.geo, other.peers = self.geo, self.peers
        other.placed = dict(self.placed)
        other.cand = {c: set(ds) for c, ds in self.cand.items()}
        return other

    def place(self, cell, d):
        assert cell in self.cand and d in self.cand[cell]
        del self.cand[cell]
        self.placed[cell] = d
        for p in self.peers[cell]:
            if p in self.cand:
                self.cand[p].discard(d)

    def holders(self, house, d):
        return [c for c in self.geo.houses[house] if d in self.cand.get(c, ())]

    def has_single(self):
        if any(len(ds) == 1 for ds in self.cand.values()):
            return True
        for h, house in enumerate(self.geo.houses):
            done = {self.placed[c] for c in house if c in self.placed}
            for d in range(1, self.geo.size + 1):
                if d not in done and len(self.holders(h, d)) == 1:
                    return True
        return False

    def has_locked(self):
        n = self.geo.size
        for line in range(2 * n):
            for box in range(2 * n, 3 * n):
                common = set(self.geo.houses[line]) & set(self.geo.houses[box])
                if not common:
                    continue
                for d in range(1, n + 1):
                    in_line, in_box = set(self.holders(line, d)), set(self.holders(box, d))
                    if in_box and in_box <= common and in_line - common:
                        return True  # pointing would eliminate
                    if in_line and in_line <= common and in_box - common:
                        return True  # claiming would eliminate
        return False

    def broken(self):
        if any(not ds for ds in self.cand.values()):
            return True
        for h, house in enumerate(self.geo.houses):
            for d in range(1, self.geo.size + 1):
                if not self.holders(h, d) and d not in {self.placed.get(c) for c in house}:
                    return True
        return False


def failed_branches(steps):
    """Indexes of the records inside guesses that turned out wrong."""
    failed, open_guesses = set(), []
    for i, s in enumerate(steps):
        if s.technique == "guess":
            open_guesses.append(i)
        elif s.technique == "wrong guess":
            while open_guesses and steps[open_guesses[-1]].depth > s.depth:
                open_guesses.pop()
            start = open_guesses.pop()
            assert steps[start].cells == s.cells and steps[start].digits == s.digits
            failed.update(range(start, i))
    return failed


def check_path(grid, steps, solution=None):
    """Replay ``steps`` on ``grid``: every reason true when made; placements and eliminations
    on the final path agree with ``solution``. Returns the replayed state."""
    geo = grid.geometry
    failed = failed_branches(steps)
    solved = steps[-1].technique not in ("search", "contradiction")
    state, stack = Replay(grid), []
    for i, s in enumerate(steps):
        assert s.step == i + 1 and s.technique in STEP_KINDS and s.text.startswith(s.technique)
        json.dumps(s.as_dict())
        # certain: not in a guess, or in the guess that led to the solution
        sure = solution is not None and i not in failed and (s.depth == 0 or solved)
        while len(stack) > s.depth:  # leaving a guess: back to the state before it
            state = stack.pop()
        if s.technique in ("naked single", "hidden single", "guess"):
            (cell, d), = s.placed
            assert s.cells == (cell,) and s.digits == (d,) and not s.eliminated
            assert f"{geo.cell_name(cell)} = {alphabet_for(geo.size).symbol(d)}" in s.reason
            if s.technique == "naked single":
                assert state.cand[cell] == {d}
            elif s.technique == "hidden single":
                (house,) = s.houses
                assert state.holders(house, d) == [cell]
                assert geo.house_name(house) in s.reason
            else:
                stack.append(state.copy())
            state.place(cell, d)
            if sure and (s.technique != "guess" or solved):
                assert solution.cells[cell] == d
        elif s.technique in ("pointing", "claiming"):
            where, rest = s.houses
            (d,) = s.digits
            assert set(state.holders(where, d)) == set(s.cells)
            assert set(s.cells) <= set(geo.houses[rest])
            losers = [c for c in state.holders(rest, d) if c not in geo.houses[where]]
            assert losers and dict(s.eliminated) == {c: (d,) for c in losers}
            box, line = (where, rest) if s.technique == "pointing" else (rest, where)
            assert box // geo.size == 2 and line // geo.size < 2
            for c in losers:
                state.cand[c].discard(d)
                if sure:
                    assert solution.cells[c] != d
        elif s.technique in ("trial", "wrong guess"):
            ((cell, (d,)),) = s.eliminated
            assert d in state.cand[cell] and "contradiction" in s.reason
            if s.technique == "trial":  # the digit really leads to a dead end: the placed
                # digits and it have no solution (eliminations so far follow from placements)
                digits = [state.placed.get(c, 0) for c in range(geo.ncells)]
                digits[cell] = d
                assert NativeSolver().solve(Grid(geo, tuple(digits))).status == "unsolvable"
            state.cand[cell].discard(d)
            if sure:
                assert solution.cells[cell] != d
        elif s.technique == "stall":
            assert not state.has_single() and not state.has_locked()
            assert f"{len(state.cand)} cell" in s.reason
        elif s.technique == "contradiction":
            assert state.broken() and i == len(steps) - 1
        elif s.technique == "search":
            assert i == len(steps) - 1
    return state


def unique_solution(grid):
    result = NativeSolver().solve(grid, limit=2)
    assert result.status == "unique"
    return result.solution


def assert_solves(grid):
    solution = unique_solution(grid)
    steps = solving_steps(grid)
    state = check_path(grid, steps, solution)
    assert not state.cand
    assert Grid(grid.geometry, tuple(state.placed[c] for c in range(grid.geometry.ncells))) \
        == solution
    return steps


@pytest.mark.parametrize("text", [NAKED_4X4, SEVENTEEN, SAMPLE_HARD])
def test_path_reproduces_the_solution(text):
    assert_solves(parse_puzzle(text).grid)


def test_path_of_the_shipped_puzzles():
    # 'sample' stalls and goes on by trials; the 16x16 and 12x12 puzzles need no trials
    sample = next(iter(read_puzzles(str(PUZZLES / "9x9.txt"))))
    steps = assert_solves(sample.grid)
    assert {"stall", "trial"} <= {s.technique for s in steps}
    for name in ("16x16.txt", "12x12.txt", "6x6.txt"):
        assert_solves(next(iter(read_puzzles(str(PUZZLES / name)))).grid)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_path_on_random_puzzles(box):
    rng = random.Random(7 * sum(box))
    geo = geometry(*box)
    for _ in range(6):
        puzzle = make_puzzle(full_grid(geo, rng), rng, geo.ncells * 2 // 3)
        result = NativeSolver().solve(puzzle, limit=2)
        steps = solving_steps(puzzle)
        state = check_path(puzzle, steps, result.solution if result.status == "unique" else None)
        if steps[-1].technique != "search":
            filled = Grid(geo, tuple(state.placed[c] for c in range(geo.ncells)))
            assert not state.cand and is_solution(filled, puzzle)


def test_path_on_a_jigsaw():
    regions = ((0, 1, 2, 6, 7, 12), (3, 4, 5, 9, 10, 11), (8, 13, 14, 15, 20, 21),
               (16, 17, 22, 23, 28, 29), (18, 19, 24, 25, 30, 31), (26, 27, 32, 33, 34, 35))
    geo = jigsaw(regions)
    full = NativeSolver().solve(Grid(geo, (0,) * 36)).solution
    rng = random.Random(3)
    for _ in range(5):
        puzzle = make_puzzle(full, rng, 20)
        result = NativeSolver().solve(puzzle, limit=2)
        steps = solving_steps(puzzle)
        check_path(puzzle, steps, result.solution if result.status == "unique" else None)
        assert all("box" not in s.reason for s in steps)


def test_stall_guess_and_search_records():
    # 'sampleHard' has several solutions: trials, then guesses, and the rest takes search
    grid = parse_puzzle(".714....5....5..8...39.76.......1....9...6..3......82....."
                        "4...83......9.....85...").grid
    steps = solving_steps(grid, max_depth=2)
    check_path(grid, steps)
    kinds = [s.technique for s in steps]
    assert kinds.count("guess") == 2 and kinds[-1] == "search"
    assert [s.depth for s in steps if s.technique == "guess"] == [0, 1]
    assert steps[-1].text == ("search: guesses nest 2 deep here; the rest takes search "
                              "(42 cells open)")
    assert solving_steps(grid, max_depth=0)[-1].technique == "search"


def test_empty_grid_ends_in_search():
    steps = solving_steps(Grid(geometry(2, 2), (0,) * 16), max_depth=1)
    check_path(Grid(geometry(2, 2), (0,) * 16), steps)
    assert [s.technique for s in steps[:2]] == ["stall", "guess"]
    assert steps[0].text == "stall: the techniques stall with 16 cells open"


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared puzzles absent")
def test_wrong_guess_backs_out():
    # forum_hardest_1106 line 31: a first guess fails, the second one leads to the solution
    puzzle = next(p for p in read_puzzles(str(SHARED / "9x9" / "forum_hardest_1106.txt"))
                  if p.line == 31)
    steps = assert_solves(puzzle.grid)
    kinds = [s.technique for s in steps]
    assert "wrong guess" in kinds and kinds.count("guess") >= 2
    wrong = steps[kinds.index("wrong guess")]
    assert wrong.depth == 0 and " != " in wrong.reason


def test_unsolvable_path_ends_in_a_contradiction():
    planted = list(read_puzzles(str(PUZZLES / "unsolvable.txt")))[1]
    steps = solving_steps(planted.grid)
    check_path(planted.grid, steps)
    assert steps[-1].technique == "contradiction"
    assert steps[-1].reason.endswith("so the puzzle has no solution")


def test_record_text_and_dict():
    grid = Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12)
    first = solving_steps(grid)[0]
    assert first.text == "naked single: r1c4 = 4, the only digit left in r1c4"
    assert first.as_dict() == {"step": 1, "technique": "naked single", "cells": ["r1c4"],
                               "digits": ["4"], "placed": {"r1c4": "4"}, "eliminated": {},
                               "houses": [], "depth": 0,
                               "reason": "r1c4 = 4, the only digit left in r1c4"}
    # hidden single with its house, and digits written in the alphabet
    cells = [0] * 16
    cells[6], cells[9] = 1, 1
    steps = solving_steps(Grid(geometry(2, 2), tuple(cells)))
    hidden = next(s for s in steps if s.technique == "hidden single")
    assert "the only place for" in hidden.reason and hidden.houses
    lettered = solving_steps(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12),
                             alphabet=Alphabet("ABCD"))
    assert lettered[0].reason == "r1c4 = D, the only digit left in r1c4"


def test_pointing_and_claiming_text():
    steps = solving_steps(parse_puzzle(SAMPLE_HARD).grid)
    locked = [s for s in steps if s.technique in ("pointing", "claiming")]
    assert locked
    for s in locked:
        assert " lies only in " in s.reason and (" loses " in s.reason or " lose " in s.reason)
