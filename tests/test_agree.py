"""agree: SAT and native search agree on random puzzles, and the cross-check reports disagreement."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satdoku.tasks.agree import disagreements
from satdoku.run.stream import run_here
from satdoku.tasks.solvers import SolveOptions
from satdoku.io.text import parse_puzzle, parse_puzzles
from satdoku.tasks.generate import full_grid, make_puzzle
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, is_solution
from satdoku.model.result import Result
from satdoku.tasks.solvers import make_solver, solve

SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)]
# sampleHard with two more givens that clash with nothing: only search shows there is no solution.
DEAD_AFTER_SEARCH = ".714....5....5..8...39.76.......1....95..6..3......82.....4...83......9.....857.."


@pytest.fixture(scope="module")
def solvers():
    sat, native = make_solver("sat"), make_solver("native")
    yield sat, native
    sat.close()
    native.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1),
       holes=st.floats(0.2, 1.0))
def test_random_puzzles_agree(solvers, shape, seed, holes):
    sat, native = solvers
    rng = random.Random(seed)
    full = full_grid(geometry(*shape), rng)
    puzzle = make_puzzle(full, rng, int(holes * full.geometry.ncells))
    a = solve(sat, puzzle, limit=2)
    b = solve(native, puzzle, limit=2)
    assert a.status in ("unique", "multiple") and b.status == a.status
    for result in (a, b):
        assert is_solution(result.solution, puzzle)
        if result.second is not None:
            assert is_solution(result.second, puzzle) and result.second != result.solution
    assert disagreements(a, b) == []
    if a.status == "unique":
        assert a.solution == b.solution == full


@settings(max_examples=30, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1))
def test_clashing_givens_are_invalid(shape, seed):
    rng = random.Random(seed)
    geo = geometry(*shape)
    house = geo.houses[rng.randrange(len(geo.houses))]
    a, b = rng.sample(house, 2)
    cells = [0] * geo.ncells
    cells[a] = cells[b] = rng.randint(1, geo.size)
    text = "".join("123456789ABCDEFG"[d - 1] if d else "." for d in cells)
    outcome, = run_here(parse_puzzles([text], box=shape), SolveOptions(check=True))
    assert outcome.result.status == "invalid"
    first, second = sorted((a, b))
    assert f"{geo.cell_name(second)}: {cells[a]} repeats the given at {geo.cell_name(first)}" \
        in outcome.result.message


def test_contradiction_after_search_is_unsolvable_in_both(solvers):
    puzzle = parse_puzzle(DEAD_AFTER_SEARCH).grid
    results = [solve(s, puzzle, limit=2) for s in solvers]
    assert [r.status for r in results] == ["unsolvable", "unsolvable"]
    assert results[1].stats["guesses"] > 0  # native had to search to see it
    assert disagreements(*results) == []


def test_disagreements_are_reported():
    geo = geometry(2, 2)
    one = Grid(geo, tuple(int(c) for c in "1234341221434321"))
    other = Grid(geo, tuple(int(c) for c in "1234341223414123"))
    unique = Result(status="unique", solution=one, count=1, solver="sat:x")
    assert disagreements(unique, Result(status="unsolvable", count=0, solver="native")) == [
        "sat:x finds unique, native finds unsolvable"]
    diff = disagreements(unique, Result(status="unique", solution=other, count=1,
                                        solver="native"))
    assert diff and diff[0].endswith("different solutions of a unique puzzle (at r3c2, r3c4, r4c2, r4c4)")
    timeout = Result(status="timeout", solver="native")
    assert disagreements(unique, timeout) == []


# Variant puzzles: random rules on random small grids, SAT and native agree.

def _random_rules(rng, geo):
    """A few random rules (JSON form) on ``geo``; they may well leave no solution."""
    from satdoku.rules import constraint_from_json
    n = geo.size
    name = geo.cell_name

    def neighbour_pair():
        cell = rng.randrange(n * n)
        r, c = divmod(cell, n)
        other = cell + 1 if c + 1 < n and (rng.random() < 0.5 or r + 1 >= n) else cell + n
        if other >= n * n or (other == cell + 1 and c + 1 >= n):
            other = cell - 1 if c else cell + 1
        return [name(cell), name(other)]

    makers = [
        lambda: {"type": "killer", "cells": neighbour_pair(), "sum": rng.randint(3, 2 * n - 1)},
        lambda: {"type": "thermometer", "cells": neighbour_pair()},
        lambda: {"type": "kropki-white", "cells": neighbour_pair()},
        lambda: {"type": "kropki-black", "cells": neighbour_pair()},
        lambda: {"type": "xv", "cells": neighbour_pair(), "sum": 5},
        lambda: {"type": rng.choice(["odd", "even"]), "cells": [name(rng.randrange(n * n))]},
        lambda: {"type": "diagonal", "direction": rng.choice("+-")},
        lambda: {"type": "anti-king"},
    ]
    docs = [rng.choice(makers)() for _ in range(rng.randint(1, 4))]
    return tuple(constraint_from_json(doc, geo) for doc in docs)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from([(2, 2), (2, 3)]), seed=st.integers(0, 2**32 - 1),
       holes=st.floats(0.5, 1.0))
def test_random_variant_puzzles_agree(solvers, shape, seed, holes):
    from satdoku.rules import bind_all
    sat, native = solvers
    rng = random.Random(seed)
    full = full_grid(geometry(*shape), rng)
    puzzle = make_puzzle(full, rng, int(holes * full.geometry.ncells))
    rules = tuple(bind_all(_random_rules(rng, puzzle.geometry)))
    a = solve(sat, puzzle, limit=2, constraints=rules)
    b = solve(native, puzzle, limit=2, constraints=rules)
    assert disagreements(a, b) == [], (a.message, b.message)
    for result in (a, b):
        for answer in (result.solution, result.second):
            if answer is not None:
                assert all(not rule.check(answer) for rule in rules)
