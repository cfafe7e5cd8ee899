"""sums and mdd: the sum encodings against brute force on every 4x4 grid (and sampled 6x6 and
9x9 grids), for any weights and targets; the groups, the number terms, the reachable sums."""

import random

import pytest
from pysat.solvers import Solver

import satdoku.rules as C
from conftest import all_solutions
from satdoku.cnf.formula import encode_base
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.rules.context import sequential_at_most_one
from satdoku.rules.implied import ImpliedSum
from satdoku.rules.cell_sums import (complement_sum, distinct_groups, encode_cell_sum,
                                     number_term, reachable_sums)
from satdoku.rules.sums import SUM_ENCODINGS

G4 = geometry(2, 2)
GRIDS4 = [g.cells for g in all_solutions(Grid(G4, (0,) * 16))]


def sat_grids(geo, clauses_of, limit=None):
    """Every grid (up to ``limit``) the Sudoku rules and ``clauses_of(ctx)`` allow."""
    n = geo.size
    ctx = C.EncodeContext(geo)
    clauses = list(encode_base(geo).clauses) + clauses_of(ctx)
    found = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        while (limit is None or len(found) < limit) and s.solve():
            model = s.get_model()[:n ** 3]
            found.add(tuple((v - 1) % n + 1 for v in model if v > 0))
            s.add_clause([-v for v in model if v > 0])
    return found


def random_sum(rng, geo, grid, weights=(1, 1, 1, -1, 2, -2, 10)):
    """A linear sum over random cells whose total ``grid`` meets (so it has solutions)."""
    cells = tuple(rng.sample(range(geo.ncells), rng.randint(1, min(7, geo.ncells))))
    ws = tuple(rng.choice(weights) for _ in cells)
    return ImpliedSum(cells, ws, sum(w * grid[c] for c, w in zip(cells, ws)))


@pytest.mark.parametrize("method", SUM_ENCODINGS)
@pytest.mark.parametrize("seed", range(12))
def test_cell_sums_match_brute_force_on_every_4x4_grid(seed, method):
    rng = random.Random(seed)
    s = random_sum(rng, G4, rng.choice(GRIDS4))
    want = {g for g in GRIDS4 if s.holds(tuple(g[c] for c in s.cells))}
    got = sat_grids(G4, lambda ctx: encode_cell_sum(ctx, s.cells, s.weights, s.total,
                                                    method=method))
    assert got == want, s


@pytest.mark.parametrize("box", [(2, 3), (3, 3)])
def test_cell_sums_accept_exactly_the_grids_that_meet_them(box):
    """On bigger grids: a full grid assumed satisfies the clauses exactly when the sum holds."""
    geo = geometry(*box)
    rng = random.Random(sum(box))
    base = sat_grids(geo, lambda ctx: [], limit=30)
    for grid in sorted(base)[:15]:
        s = random_sum(rng, geo, grid)
        other = rng.choice(sorted(base))
        for g in (grid, other):
            ctx = C.EncodeContext(geo)
            clauses = encode_cell_sum(ctx, s.cells, s.weights, s.total)
            n = geo.size
            every = [c * n + d if g[c] == d else -(c * n + d)
                     for c in range(geo.ncells) for d in range(1, n + 1)]
            with Solver(name="cadical195", bootstrap_with=clauses) as solver:
                ok = solver.solve(assumptions=every)
            assert ok == s.holds(tuple(g[c] for c in s.cells)), (s, g)


def test_a_term_target_and_repeats():
    """A 1-cell circle whose shaft leaves the house: the arrow's own encoding, every grid."""
    arrow = C.Arrow((0,), (5, 10, 15))
    want = {g for g in GRIDS4 if not arrow.check(Grid(G4, g))}
    assert sat_grids(G4, arrow.encode) == want and want


@pytest.mark.parametrize("method", SUM_ENCODINGS)
def test_a_sum_equal_to_a_term_allows_exactly_the_values_that_meet_it(method):
    """``sum(terms) == goal`` for a one-hot goal whose values have gaps, reach past the sum's
    range on both sides, or leave none of it: every assignment of the cells and the goal,
    under every encoding (the totalizer links the sum's order literals to the goal's)."""
    import itertools
    from satdoku.rules.sums import cell_term, encode_sum, one_hot
    cells = (0, 5, 10, 3)  # r1c1, r2c2 (one box), r3c3, r1c4
    for values in ([4, 7, 9, 12], [-3, 0, 6, 8, 13, 20], [1, 2, 3], [17, 30]):
        ctx = C.EncodeContext(G4, sum_encoding=method)
        goal, clauses = one_hot(ctx, values)
        clauses += encode_sum(ctx, [cell_term(ctx, c) for c in cells], goal)
        clauses += [[ctx.var(c, d) for d in range(1, 5)] for c in cells]
        clauses += [[-ctx.var(c, d), -ctx.var(c, e)] for c in cells
                    for d, e in itertools.combinations(range(1, 5), 2)]
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            for digits in itertools.product(range(1, 5), repeat=len(cells)):
                for v, lit in goal:
                    ok = s.solve(assumptions=[ctx.var(c, d) for c, d in zip(cells, digits)]
                                 + [lit])
                    assert ok == (sum(digits) == v), (values, digits, v)


def test_a_pill_arrow_reads_its_circle_as_a_decimal_number():
    arrow = C.Arrow((0, 1), (4, 5, 8, 9, 12, 13, 14, 15))
    want = {g for g in GRIDS4 if not arrow.check(Grid(G4, g))}
    assert want and sat_grids(G4, arrow.encode) == want


def test_a_little_killer_across_boxes():
    lk = C.LittleKiller((3, 6, 9, 12), 10)
    want = {g for g in GRIDS4 if not lk.check(Grid(G4, g))}
    assert want and sat_grids(G4, lk.encode) == want


def test_groups_share_a_house_and_a_weight():
    g9 = geometry(3, 3)
    assert distinct_groups(g9, [0, 1, 2, 10, 80], [1, 1, 1, 1, 1]) == [[0, 1, 2, 3], [4]]
    assert distinct_groups(g9, [0, 1, 2], [1, -1, 1]) == [[0, 2], [1]]
    # 16x16: 8 cells of a row would have 12,870 value sets: two groups of 4 (1,820 each)
    g16 = geometry(4, 4)
    assert distinct_groups(g16, list(range(8)), [1] * 8) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_reachable_sums_know_that_a_house_holds_different_digits():
    g9 = geometry(3, 3)
    assert reachable_sums(g9, [0, 1, 2], [1, 1, 1]) == set(range(6, 25))
    assert reachable_sums(g9, [0, 10], [1, 1]) == set(range(3, 18))  # r1c1, r2c2: one box
    assert reachable_sums(g9, [0, 40], [1, 1]) == set(range(2, 19))  # r1c1, r5c5: 1 + 1


def test_number_terms_list_only_numbers_of_digits_in_range():
    ctx = C.EncodeContext(geometry(2, 2))
    term, clauses = number_term(ctx, (0, 1), {5, 11, 14, 15, 20, 24, 41})
    assert [v for v, _ in term] == [11, 14, 24, 41]
    assert clauses[0] == [lit for _, lit in term]


@pytest.mark.parametrize("k", [1, 2, 6, 7, 12])
def test_sequential_at_most_one(k):
    ctx = C.EncodeContext(geometry(2, 2))
    lits = [ctx.fresh() for _ in range(k)]
    clauses = sequential_at_most_one(ctx, lits)
    for chosen in range(k + 1):
        for other in range(k):
            on = {lits[chosen]} if chosen < k else set()
            on |= {lits[other]}
            with Solver(name="cadical195", bootstrap_with=clauses) as s:
                ok = s.solve(assumptions=[x if x in on else -x for x in lits])
            assert ok == (len(on) <= 1)


@pytest.mark.parametrize("seed", range(6))
def test_clause_estimates_never_pass_what_the_encoding_writes(seed):
    """The up-front refusal counts at most what encoding the rule writes (9x9 and 16x16)."""
    rng = random.Random(seed)
    for geo in (geometry(3, 3), geometry(4, 4)):
        n = geo.size
        diagonal = tuple(i * (n + 1) for i in range(rng.randint(2, n)))
        shaft = tuple(rng.sample(range(1, geo.ncells), rng.randint(2, 12)))
        for rule in (C.LittleKiller(diagonal, rng.randint(len(diagonal), 5 * len(diagonal))),
                     C.Arrow((0,), shaft), C.Arrow((0, 1), tuple(c for c in shaft if c > 1)),
                     C.Killer(tuple(range(rng.randint(2, n))), n + 3)):
            estimate = rule.clause_estimate(geo)
            assert 0 <= estimate <= len(rule.encode(C.EncodeContext(geo))), rule


def test_a_long_sum_is_refused_up_front_by_name():
    from satdoku.tasks.solvers import make_solver, solve
    geo = geometry(5, 5)
    diagonal = tuple(i * 26 for i in range(25))
    rule = C.LittleKiller(diagonal, 325)
    assert rule.clause_estimate(geo) > 100_000
    result = solve(make_solver("sat", max_clauses=300_000), Grid(geo, (0,) * 625),
                   constraints=(rule,))
    assert result.status == "refused"
    assert "little killer r1c1-...-r25c25 (25 cells) = 325 needs at least" in result.message


def test_the_native_prune_of_a_huge_circle_keeps_to_the_bounds():
    """A 7-digit circle on a 9x9 shaft spells millions of numbers: the prune sees by bounds
    alone that no shaft reaches them, at once (the native solver's deadline holds)."""
    import time
    arrow = C.Arrow(tuple(range(7)), tuple(range(7, 81)))
    start = time.perf_counter()
    assert arrow.prune([511] * 81) is None and time.perf_counter() - start < 1
    from satdoku.rules.sums import sum_supports
    assert sum_supports([[1000, 2000], [1, 2, 3]], {1002, 2009}, work=4) == \
        sum_supports([[1000, 2000], [1, 2, 3]], {1002, 2009})


def test_a_classic_run_never_loads_the_rules():
    """Classic puzzles pay nothing for variants: the rules' modules (sums, implied
    constraints) are imported only when a puzzle has rules."""
    import subprocess
    import sys
    from pathlib import Path
    puzzle = Path(__file__).resolve().parents[1] / "puzzles" / "9x9.txt"
    code = ("import sys; from satdoku.cli import main\n"
            "try:\n    main(['count', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('satdoku.rules')))")
    out = subprocess.run([sys.executable, "-c", code, str(puzzle)], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("seed", range(12))
def test_a_sum_over_most_of_its_houses_is_the_rest_of_them(seed):
    """A sum over most cells of the rows (columns, boxes) it touches is encoded as the sum of
    the rest of them, and still allows exactly the grids that meet it."""
    rng = random.Random(seed)
    grid = rng.choice(GRIDS4)
    kind = seed % 3  # rows, columns, boxes
    houses = rng.sample(range(4 * kind, 4 * kind + 4), rng.randint(1, 3))
    band = [c for h in houses for c in G4.houses[h]]
    cells = tuple(sorted(rng.sample(band, len(band) - rng.randint(0, len(houses)))))
    rest = complement_sum(G4, cells, 99)
    assert rest is not None and len(rest[0]) < len(cells)
    s = C.WeightedSum(cells, None, sum(grid[c] for c in cells))
    want = {g for g in GRIDS4 if s.holds(tuple(g[c] for c in s.cells))}
    assert want and sat_grids(G4, s.encode) == want, s


def test_a_sum_counts_on_the_candidates_its_puzzle_gives():
    """On a 4x4 of values 1-6 whose cells are given 1-4 (sigh's Rectangle Sums on a 9x9 of
    1-15), the sum over two rows less a cell is that cell's complement: once bound to the
    puzzle's candidates, its encoding is the small one, and its grids are the same."""
    from satdoku.model.geometry import shaped
    from satdoku.tasks.solvers import make_solver, solve
    geo = shaped(4, 4, 6, box=(2, 2))
    given = C.Candidates(tuple(range(16)), (1, 2, 3, 4))
    cells = tuple(range(1, 8))
    rule = C.WeightedSum(cells, None, 17)  # r1c1 is 20 - 17 = 3
    bound = rule.bind([given, rule])
    assert bound.domains == tuple((c, (1, 2, 3, 4)) for c in range(16)) and bound != rule
    assert len(bound.encode(C.EncodeContext(geo))) < len(rule.encode(C.EncodeContext(geo)))
    want = sum(1 for g in GRIDS4 if g[0] == 3)
    result = solve(make_solver("sat"), Grid(geo, (0,) * 16), limit=1000,
                   constraints=(given, bound))
    assert result.status == "multiple" and result.count == want
    # Its clauses are on only with the candidates': asked alone (a subset of the rules) it is
    # bound again and knows none, and beside them it leans on them only while they are on
    # (a core that leaves them out), so r1c1 = 4 stays possible (r1c2-r1c4 1, 2, 3 and
    # r2c1-r2c4 1, 2, 3, 5 make 17).
    four = Grid(geo, (4,) + (0,) * 15)
    alone = solve(make_solver("sat"), four, limit=2, constraints=(bound,))
    assert alone.status == solve(make_solver("sat"), four, limit=2,
                                 constraints=(rule,)).status == "multiple"
    from satdoku.budget import Budget
    from satdoku.deadline import NO_DEADLINE
    from satdoku.sat.solver import SatSolver

    def leans_only_with_the_candidates(rule) -> bool:
        """r1c1 = 4 holds with the rule's clauses on, and not once the candidates' are too."""
        with SatSolver() as sat:
            engine = sat.backend.engine(four, NO_DEADLINE)
            given_act, act = engine.rule_acts((given, rule), Budget())
            clues = engine.assumptions(four)
            return engine.solver.solve(assumptions=clues + [act]) is True and \
                engine.solver.solve(assumptions=clues + [act, given_act]) is False

    assert leans_only_with_the_candidates(bound)
    # The same inside an 'or' (its inner rules are bound to the puzzle's): the 'or' counts on
    # what they count on.
    never = C.Candidates((0,), (6,))  # r1c1 is given 4: this branch never holds
    either = C.AnyOf((rule, never)).bind([given, C.AnyOf((rule, never))])
    assert either.requires == (given,) and leans_only_with_the_candidates(either)
