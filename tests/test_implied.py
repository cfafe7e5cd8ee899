"""implied: every implied sum holds in every grid that keeps the rules it names as its sources
(brute force on every 4x4 grid), so adding it never changes the solutions; SAT counts the same
with it; the sums a solver finds by hand are found."""

from satdoku.records import replace
import random

import pytest

import satdoku.rules as C
from conftest import all_solutions
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.rules.implied import ImpliedSum, implied_constraints, regions
from satdoku.sat.solver import SatSolver

G4 = geometry(2, 2)
GRIDS4 = [g.cells for g in all_solutions(Grid(G4, (0,) * 16))]


def random_rules(rng, grid):
    """Cages of 2-3 cells in a line, a little killer and maybe an arrow, all true on ``grid``
    (a 4x4 grid)."""
    rules, taken = [], set()
    for _ in range(6):
        start, length, step = rng.randrange(16), rng.randint(2, 3), rng.choice([1, 4])
        cage = [start + i * step for i in range(length)]
        if cage[-1] >= 16 or taken & set(cage) or step == 1 and cage[-1] // 4 != start // 4:
            continue
        taken.update(cage)
        rules.append(C.Killer(tuple(cage), sum(grid[c] for c in cage)))
    diagonal = rng.choice([(1, 6, 11), (4, 9, 14), (3, 6, 9, 12), (2, 7)])
    rules.append(C.LittleKiller(diagonal, sum(grid[c] for c in diagonal)))
    circle, shaft = rng.choice([(0, (5, 10)), (15, (10, 5)), (3, (6, 9)), (12, (8, 4))])
    if grid[circle] == sum(grid[c] for c in shaft):
        rules.append(C.Arrow((circle,), shaft))
    return rules


@pytest.mark.parametrize("seed", range(25))
def test_implied_sums_hold_wherever_their_sources_do(seed):
    rng = random.Random(seed)
    grid = rng.choice(GRIDS4)
    rules = random_rules(rng, grid)
    implied = implied_constraints(G4, rules)
    for s in implied:
        sources = [rules[i] for i in s.sources]
        keep = [g for g in GRIDS4 if all(not r.check(Grid(G4, g)) for r in sources)]
        assert keep and all(s.holds(tuple(g[c] for c in s.cells)) for g in keep), s


@pytest.mark.parametrize("seed", range(6))
def test_sat_counts_the_same_with_implied_sums(seed):
    """The engine adds the implied sums (here at once, as for a solver without conflict
    budgets): its counts are brute force's."""
    rng = random.Random(100 + seed)
    grid = rng.choice(GRIDS4)
    rules = tuple(random_rules(rng, grid))
    want = {g for g in GRIDS4 if all(not r.check(Grid(G4, g)) for r in rules)}
    with SatSolver() as s:
        s.backend.info = replace(s.backend.info, budget=False)
        result = s.solve(Grid(G4, (0,) * 16), limit=1000, constraints=rules)
        engine = next(iter(s.backend.engines.values()))
        assert engine.implied is None  # added
        # other rules on the same engine: the first rules' implied sums no longer count
        others = tuple(random_rules(rng, rng.choice(GRIDS4)))
        again = s.solve(Grid(G4, (0,) * 16), limit=1000, constraints=others)
    assert result.count == len(want)
    assert again.count == sum(all(not r.check(Grid(G4, g)) for r in others) for g in GRIDS4)


def test_a_killer_grid_gives_the_45_rule_and_hidden_cages():
    """9x9: cages covering rows 1-2 but one cell leave that cell's digit (an innie); box 1 minus
    its cages is three innies and one outie (the cage that sticks out by one cell)."""
    g9 = geometry(3, 3)
    rows = [C.Killer(tuple(range(i, i + 3)), 6 + i) for i in range(0, 9, 3)]
    rows += [C.Killer((9, 10, 11, 12), 20), C.Killer((13, 14, 15, 16), 14)]
    found = {s.how: s for s in implied_constraints(g9, rows)}
    innie = found["rows 1-2"]
    assert (innie.cells, innie.weights, innie.total) == ((17,), (1,), 90 - 6 - 9 - 12 - 34)
    assert set(innie.sources) == set(range(5))
    box1 = found["box 1"]
    assert (box1.cells, box1.weights, box1.total) == ((18, 19, 20, 12), (1, 1, 1, -1), 45 - 6 - 20)


def test_implied_sums_are_not_rules_of_the_format():
    assert ImpliedSum.type not in C.CONSTRAINTS
    names = [name for name, _, _ in regions(G4)]
    assert names[:3] == ["row 1", "rows 1-2", "rows 1-3"] and names[-1] == "box 4"


def diagonal_runs(n):
    """Every little-killer diagonal of an n x n grid with at least two cells."""
    runs = []
    for dr, dc in ((1, 1), (1, -1)):
        starts = [(0, c) for c in range(n)] + [(r, 0 if dc > 0 else n - 1) for r in range(1, n)]
        for r, c in starts:
            run = []
            while 0 <= r < n and 0 <= c < n:
                run.append(r * n + c)
                r, c = r + dr, c + dc
            if len(run) > 1:
                runs.append(tuple(run))
    return runs


@pytest.mark.parametrize("seed", range(8))
def test_every_derivation_holds_on_a_solved_9x9_grid(seed):
    """Little killers, cages and a diagonal, all true on a known 9x9 solution: every implied
    sum (innies and outies, sums outside a house, combined sums) holds on it too."""
    from conftest import SAMPLE_SOLUTION
    g9 = geometry(3, 3)
    grid = [int(ch) for ch in SAMPLE_SOLUTION]
    rng = random.Random(seed)
    runs = rng.sample([r for r in diagonal_runs(9) if len(r) >= 5], 6)
    rules = [C.LittleKiller(r, sum(grid[c] for c in r)) for r in runs]
    for row in rng.sample(range(9), 3):
        cells = tuple(row * 9 + c for c in range(rng.randint(0, 3), 9, 3))[:3]
        rules.append(C.Killer(cells, sum(grid[c] for c in cells)))
    implied = implied_constraints(g9, rules)
    assert implied
    for s in implied:
        assert s.holds(tuple(grid[c] for c in s.cells)), s


def test_combined_and_outside_sums_are_found():
    """Four little killers side by side (from sigh's "Zero solution: Little Killer") combine
    into one tight sum of 32 cells; cages covering a house leave the sum of their cells outside
    it (with houses filling its gaps), less the houses among them."""
    g9 = geometry(3, 3)
    runs = [(8, 16, 24, 32, 40, 48, 56, 64, 72), (7, 15, 23, 31, 39, 47, 55, 63),
            (73, 65, 57, 49, 41, 33, 25, 17), (74, 66, 58, 50, 42, 34, 26)]
    lks = [C.LittleKiller(r, 49) for r in runs]
    combined = [s for s in implied_constraints(g9, lks) if s.how.startswith("combined")]
    assert [(set(s.cells), s.total, s.sources) for s in combined] == [
        (set().union(*runs), 196, (0, 1, 2, 3))]
    # three 7-cell cages down columns 1-3 cover row 1 with boxes 2 and 3;
    # outside it: rows 2 and 3, box 4 (all taken out) and row 7's three cells
    cages = [tuple(range(col, 63, 9)) for col in range(3)]
    rules = [C.Killer(c, t) for c, t in zip(cages, (33, 32, 32))]
    outside = [s for s in implied_constraints(g9, rules) if s.how.startswith("outside")]
    assert [(s.cells, s.total, s.sources) for s in outside] == [((54, 55, 56), 7, (0, 1, 2))]
