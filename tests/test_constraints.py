"""constraints: each rule's clauses, check() and prune() agree with each other and with brute
force, on a test puzzle per constraint type and on every 4x4 grid."""

import contextlib
import doctest
import importlib
import inspect
import itertools
import pkgutil
import random
import re
from pathlib import Path

import pytest
from pysat.solvers import Solver

import satdoku.rules as C
from conftest import all_solutions
from satdoku.rules.base import digits_of, orthogonal_pairs
from satdoku.rules.sums import cell_term, encode_sum, negated
from satdoku.cnf.formula import encode_base
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.io.variant import parse_variants

# One puzzle per type with exactly one solution under its constraints (and a second, 6x6 one
# for types with more room there), one a line: `python scripts/make_variants.py tests --seed 1`
# (types added later: `... tests --types T,T --seed S`, appended; issue 32's four: `--types
# pair,regex,greater-than,windoku --seed 1`, then `--types or,and --seed 1`; sigh's 18:
# `--types counting-circles,count-distinct,contain-at-least,contain-exact,look-and-say,
# lunchbox,rellik-cage,equality-cage,equal-sum,value-indexing,numbered-room,hidden-skyscraper,
# full-rank,full-rank-ties,global-entropy,global-mod,anti-taxicab,dutch-flatmates --seed 1`,
# then `--types nfa --seed 1`).
TEST_PUZZLES = (Path(__file__).parent / "variant_tests.jsonl").read_text()

PUZZLES = list(parse_variants(TEST_PUZZLES.splitlines(), "TEST_PUZZLES"))
METHODS = C.SUM_ENCODINGS
G4 = geometry(2, 2)


def puzzle_id(puzzle):
    return f"{puzzle.name} {puzzle.geometry.size}"


def all_grids(geo):
    """Every complete grid of a small geometry (288 for 4x4), as cell tuples."""
    return [g.cells for g in all_solutions(Grid(geo, (0,) * geo.ncells))]


GRIDS4 = all_grids(G4)


def methods_that_differ(geo, constraints):
    """The sum encodings under which ``constraints`` write different clauses, the first of each
    kind: rules that write no sum are checked once, not once per encoding."""
    kinds: dict[str, str] = {}
    for method in METHODS:
        ctx = C.EncodeContext(geo, sum_encoding=method)
        kinds.setdefault(repr(list(C.encode_constraints(constraints, ctx))), method)
    return list(kinds.values())


def solutions(geo, constraints, givens=(), method=None, limit=None):
    """Every solution (up to ``limit``) of the Sudoku rules + ``constraints`` (bound) +
    ``givens`` (cell, digit pairs as unit clauses), found by SAT through the encoders."""
    n = geo.size
    ctx = C.EncodeContext(geo, sum_encoding=method)
    clauses = list(encode_base(geo).clauses) + [[c * n + d] for c, d in givens]
    for per in C.encode_constraints(constraints, ctx):
        clauses += per
    found = []
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        while (limit is None or len(found) < limit) and s.solve():
            model = s.get_model()[:n ** 3]
            found.append(tuple((v - 1) % n + 1 for v in model if v > 0))
            s.add_clause([-v for v in model if v > 0])
    return found


def prune_search(puzzle, limit=2):
    """Solutions by a small depth-first search: naked and hidden singles in the houses, and
    the constraints' prune()."""
    geo, n = puzzle.geometry, puzzle.geometry.size
    start = [(1 << n) - 1] * geo.ncells
    for c, d in puzzle.grid.givens():
        start[c] = 1 << (d - 1)
    found = []

    def settle(cand):
        while True:
            changed = False
            for c, m in enumerate(cand):
                if m & (m - 1) == 0:
                    for p in geo.peers[c]:
                        if cand[p] & m:
                            cand[p] &= ~m
                            changed = True
            if not all(cand):
                return False
            for house in geo.houses:  # hidden singles
                for d in range(n):
                    places = [c for c in house if cand[c] >> d & 1]
                    if not places:
                        return False
                    if len(places) == 1 and cand[places[0]] != 1 << d:
                        cand[places[0]] = 1 << d
                        changed = True
            for constraint in puzzle.constraints:
                result = constraint.prune(cand)
                if result is None:
                    return False
                changed = changed or bool(result)
            if not changed:
                return True

    def walk(cand):
        if len(found) >= limit or not settle(cand):
            return
        open_cells = [c for c, m in enumerate(cand) if m & (m - 1)]
        if not open_cells:
            found.append(tuple(m.bit_length() for m in cand))
            return
        cell = min(open_cells, key=lambda c: bin(cand[c]).count("1"))
        for d in digits_of(cand[cell]):
            nxt = list(cand)
            nxt[cell] = 1 << (d - 1)
            walk(nxt)

    walk(start)
    return found


# -- the test puzzles ---------------------------------------------------------------------

def test_every_type_has_a_test_puzzle():
    assert all(PUZZLES)
    types = {c.type for p in PUZZLES for c in p.constraints}
    # chaos (no boxes) and doppelganger (values 0..N): test_shapes.py brute-forces them
    assert types == set(C.CONSTRAINTS) - {"chaos", "doppelganger"}


@pytest.mark.parametrize("puzzle", PUZZLES, ids=puzzle_id)
def test_puzzle_has_one_solution_by_sat(puzzle):
    for method in methods_that_differ(puzzle.geometry, puzzle.constraints):
        found = solutions(puzzle.geometry, puzzle.constraints, list(puzzle.grid.givens()),
                          method, limit=2)
        assert len(found) == 1, method
        solution = Grid(puzzle.geometry, found[0])
        assert puzzle.check(solution) == [], method
        for constraint in puzzle.constraints:
            assert constraint.check(solution) == [], method


@pytest.mark.parametrize("puzzle", PUZZLES, ids=puzzle_id)
def test_puzzle_needs_its_constraints(puzzle):
    assert len(solutions(puzzle.geometry, [], list(puzzle.grid.givens()), limit=2)) == 2


@pytest.mark.parametrize("puzzle", PUZZLES, ids=puzzle_id)
def test_search_with_prune_finds_the_same_solution(puzzle):
    by_sat = solutions(puzzle.geometry, puzzle.constraints, list(puzzle.grid.givens()),
                       limit=2)
    assert prune_search(puzzle) == by_sat


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p.geometry.size == 4], ids=puzzle_id)
def test_brute_force_finds_the_same_solution(puzzle):
    givens = list(puzzle.grid.givens())
    brute = [g for g in GRIDS4 if all(g[c] == d for c, d in givens)
             and not any(c.check(Grid(G4, g)) for c in puzzle.constraints)]
    assert brute == solutions(G4, puzzle.constraints, givens)


def test_a_region_sum_line_that_reenters_a_box_sums_each_segment_alone():
    """Issue 23's case: r1c1-r1c2 | r1c3 | r2c2 (back in box 1) are three segments."""
    line = C.RegionSum(G4, (0, 1, 2, 5))
    assert line.parts == ((0, 1), (2,), (5,))
    brute = all_solutions(Grid(G4, (0,) * 16), (line,))
    assert len(brute) == 24
    assert all(g.cells[0] + g.cells[1] == g.cells[2] == g.cells[5] for g in brute)
    assert sorted(solutions(G4, [line])) == sorted(g.cells for g in brute)


# The killer example of Wikipedia's "Killer sudoku" article, cages as CSPLib problem 057 lists
# them (sum, then 0-based cells), and the solution the article prints.
WIKIPEDIA_CAGES = """3 0 1|15 2 3 4|22 5 13 14 22|4 6 15|16 7 16|15 8 17 26 35|25 9 10 18 19|
17 11 12|9 20 21 30|8 23 32 41|20 24 25 33|6 27 36|14 28 29|17 31 40 49|17 34 42 43|
13 37 38 46|20 39 48 57|12 44 53|27 45 54 63 72|6 47 55 56|20 50 59 60|6 51 52|10 58 66 67 75|
14 61 62 70 71|8 64 73|16 65 74|15 68 69|13 76 77 78|17 79 80"""
WIKIPEDIA_SOLUTION = ("215647398368952174794381652586274931142593867973816425821739546659428713"
                      "437165289")


@pytest.mark.parametrize("method", METHODS)
def test_the_wikipedia_killer_has_its_published_solution(method):
    cages = []
    for part in WIKIPEDIA_CAGES.replace("\n", "").split("|"):
        total, *cells = map(int, part.split())
        cages.append(C.Killer(tuple(cells), total))
    expected = tuple(map(int, WIKIPEDIA_SOLUTION))
    assert solutions(geometry(3, 3), cages, method=method) == [expected]
    assert all(c.check(Grid(geometry(3, 3), expected)) == [] for c in cages)


# -- every 4x4 grid -----------------------------------------------------------------------

SIBLINGS = [C.KropkiWhite((0, 1)), C.XV((0, 1), 5), C.EdgeSum((0, 4), 7)]  # what negatives see
BASE_SAMPLES = [
    C.Killer((0, 1), 3), C.Killer((0, 1, 4), 7), C.Killer((0, 5), 5), C.Killer((0, 5, 10, 15), 10),
    C.Killer((0, 1, 2), None), C.Killer((0, 1), 9),
    C.LittleKiller((0, 5, 10, 15), 10), C.LittleKiller((3, 6, 9, 12), 8),
    C.LittleKiller((1, 6, 11), 6),
    C.Arrow((0,), (1, 5)), C.Arrow((0, 1), (4, 5, 6, 7, 8, 9)), C.Arrow((0,), (5, 10)),
    C.Thermometer((0, 1, 2)), C.SlowThermometer((0, 5, 10, 15)), C.KropkiWhite((0, 1)),
    C.KropkiWhite((0, 4), 2), C.KropkiBlack((0, 1)), C.KropkiBlack((5, 9), 3), C.XV((0, 1), 5),
    C.XV((2, 6), 10), C.Odd((0, 5)), C.Even((3,)), C.Minimum(G4, 5), C.Maximum(G4, 0),
    C.GermanWhispers((0, 1, 5), 2), C.Renban((0, 1, 5)), C.Renban((0, 5, 10, 15)),
    C.Palindrome((0, 1, 2, 3, 7)), C.Palindrome((0, 5, 10)), C.Between((0, 5, 10, 15)),
    C.Between((2, 3)), C.RegionSum(G4, (0, 1, 2, 3)), C.RegionSum(G4, (0, 5, 6, 10, 11)),
    C.RegionSum(G4, (0, 1, 2, 5)),
    C.Zipper((0, 1, 2, 3, 7)), C.Zipper((0, 1, 2, 3)), C.Clone((0, 1), (10, 11)),
    C.Quadruple((0, 1, 4, 5), (1, 2)), C.Quadruple((5, 6, 9, 10), (3, 3)),
    C.Sandwich(G4, "r1", total=5), C.Sandwich(G4, "c2", total=0), C.XSum(G4, "r1", "start", 6),
    C.XSum(G4, "c3", "end", 4), C.Skyscraper(G4, "r2", "start", 2),
    C.Skyscraper(G4, "c4", "end", 3), C.Skyscraper(G4, "c1", "start", 4),
    C.Diagonal(G4, "+"), C.Diagonal(G4, "-"), C.AntiKnight(G4), C.AntiKing(G4),
    C.NonConsecutive(G4), C.DisjointGroups(G4), C.ExtraRegion((0, 5, 10, 15)),
    C.NoKropki(G4).bind(SIBLINGS), C.NoXV(G4).bind(SIBLINGS),
    C.NoKropki(G4, differences=(), ratios=(2,)).bind(SIBLINGS),
    C.NoKropki(G4, differences=(2,), ratios=()).bind(SIBLINGS),
    C.NoXV(G4, sums=(7,)).bind(SIBLINGS),
    C.EdgeSum((0, 1), 5), C.EdgeSum((0, 4), 7), C.Modular((0, 1, 2)), C.Modular((0, 1, 5, 6)),
    C.Modular((0, 5), 2), C.Nabner((0, 5)), C.Nabner((0, 1, 5, 0)), C.Entropic((0, 1, 2)),
    C.Entropic((0, 5)), C.RowIndexer(G4, (0, 5)), C.ColumnIndexer(G4, (0, 6)),
    C.BoxIndexer(G4, (0, 3, 15)), C.GermanWhispers((0, 1, 5, 4, 0), 2),
    C.Palindrome((0, 1, 2, 1, 0)), C.RegionSum(G4, (0, 1, 5, 1)), C.Thermometer((0, 1, 0)),
    C.SlowThermometer((0, 1, 0)), C.Renban((0, 1, 5, 1)), C.Zipper((0, 1, 2, 1)),
    C.Entropic((0, 1, 0)), C.Palindrome((0, 4, 0)), C.Candidates((0, 5), (1, 2)),
    C.Candidates((3,), (4,)),
    C.DoubleArrow((0, 1, 2)), C.DoubleArrow((0, 5, 10, 15)), C.DoubleArrow((0, 1, 5, 1, 2)),
    C.Lockout((0, 1, 2), 2), C.Lockout((0, 5, 10, 15), 1), C.Lockout((0, 4)),
    C.DiagonalNonConsecutive(G4), C.MultiKiller((0, 1), (3, 7)),
    C.MultiKiller((0, 5, 10), (6, 9)), C.SumLine((0, 1, 2, 3), 5), C.SumLine((0, 1, 5, 4, 0), 5),
    C.SumLine((0, 5, 10), 4), C.SumLine((0, 1, 0), 3),
    C.PairRelation((0, 1, 5), "a > b"), C.PairRelation((0, 1, 2, 3), "abs(a - b) != 1"),
    C.PairRelation((0, 5, 10), table=((1, 2), (2, 3), (3, 4), (4, 1))),
    C.PairRelation((0, 1, 4, 5), "a % 2 != b % 2 || a * b == 12", between="all"),
    C.PairRelation((0, 6), "a / b == 2 or a = b + 1"), C.PairRelation((0, 1, 0), "a < b"),
    C.PairRelation((0, 5, 10, 15), "!(a + b == 5) && 1 < max(a, b) - min(a, b) + 1 <= 3"),
    C.Regex((0, 1, 2, 3), "1.*4|4.*1"), C.Regex((0, 5, 10, 15), "[12]+[34]+"),
    C.Regex((0, 1, 5), "(12|21)3?4?"), C.Regex((0, 1, 0), "1.1"), C.Regex((3,), "[^4]"),
    C.Regex((0, 4, 8, 12), "(1|3){0,2}[24]{2,}"), C.Regex((0, 1, 2), "4{0}[1-3]{3}"),
    C.GreaterThan(G4, (0, 1, 5, 4)), C.GreaterThan(G4, (5, 1)), C.Windoku(G4),
    C.AnyOf((C.Candidates((0,), (1,)), C.Candidates((1,), (1,)))),
    C.AnyOf((C.Thermometer((0, 1, 2)), C.Killer((0, 1), 7), C.XV((4, 5), 5))),
    C.AnyOf((C.Regex((0, 1, 2, 3), "1.*"), C.AllOf((C.Odd((3,)), C.KropkiWhite((2, 3)))))),
    C.AllOf((C.Even((0,)), C.PairRelation((0, 5), "a > b"))), C.AllOf((C.Renban((0, 1, 2)),)),
    C.AnyOf((C.Arrow((0,), (1, 2)), C.Arrow((1,), (2, 0)), C.Arrow((2,), (0, 1)))),
    # issue 32: sigh's types
    C.CountingCircles((0, 1, 5, 6)), C.CountingCircles((0, 5, 10)),
    C.CountDistinct(0, (5, 10, 15)), C.CountDistinct(3, (1, 2)),
    C.ContainAtLeast((0, 1, 4, 5, 10), (1, 1)), C.ContainAtLeast((0, 6), (2,)),
    C.ContainExact((0, 5, 10, 15), (2, 2)), C.ContainExact((0, 1, 2), (4,)),
    C.LookAndSay((0, 5, 10, 15), "2103"), C.LookAndSay((0, 1), "04"),
    C.Lunchbox((0, 1, 2, 3), 5), C.Lunchbox((0, 5, 10), 0), C.Lunchbox((0, 1, 5, 4), 2),
    C.RellikCage((0, 1, 5), 4), C.RellikCage((0, 1), 7),
    C.EqualityCage(G4, (0, 1, 4, 5)), C.EqualityCage(G4, (0, 5)),
    C.EqualSum(((0, 1), (2, 3))), C.EqualSum(((0,), (5, 10), (15, 14))),
    C.EqualSum(((0, 1), (1, 2))),
    C.WeightedSum((0, 1, 0), (1, 1, 1), 7), C.WeightedSum((0, 5, 10), (1, -1, 2), 3),
    C.WeightedSum((0, 15), None, 5),
    C.SameValues(((0, 1), (6, 11))), C.SameValues(((0, 5, 10), (3, 6, 9), (12, 13, 14))),
    C.RegionSameValues(G4),
    C.ValueIndexing((0, 1, 2, 3)), C.ValueIndexing((0, 5, 10, 15, 14)),
    C.ValueIndexing((3, 2, 1)),
    C.NumberedRoom(G4, "r1", "start", 3), C.NumberedRoom(G4, "c2", "end", 1),
    C.HiddenSkyscraper(G4, "r1", "start", 2), C.HiddenSkyscraper(G4, "c3", "end", 1),
    C.FullRank(G4, "r1", "start", 5), C.FullRank(G4, "c2", "end", 12),
    C.FullRankTies(G4, "none"), C.FullRankTies(G4, "any"),
    C.GlobalEntropy(G4), C.GlobalMod(G4), C.AntiTaxicab(G4), C.DutchFlatmates(G4),
    C.StateMachine((0, 1, 2, 3), ("e", "o"), ("e",), ("e",),
                   (("e", "o", (1, 3)), ("o", "e", (1, 3)), ("e", "e", (2, 4)), ("o", "o", (2, 4)))),
    C.StateMachine((0, 5, 10), ("a", "b", "c"), ("a", "b"), ("c",),
                   (("a", "a", (1, 2)), ("a", "c", (4,)), ("b", "c", (3, 4)), ("c", "c", (1,)))),
    C.StateMachine((0, 1, 0), ("x", "y"), ("x",), ("x",),
                   (("x", "y", (1, 2)), ("y", "x", (3, 4)), ("y", "x", (1,)))),
    C.StateMachine((3, 7), ("z",), ("z",), (), (("z", "z", (1, 2, 3, 4)),)),
    C.ConnectedValues(G4, (1, 2, 3)), C.ConnectedValues(G4, (1, 3, 4), size=12),
    C.ConnectedValues(G4, (1, 4), (0, 1, 2, 4, 5, 6)), C.ConnectedValues(G4, (2,), (0, 1, 5)),
]
SAMPLES = BASE_SAMPLES + [p.constraints[-1] for p in PUZZLES if p.geometry.size == 4]


def sample_id(constraint):
    return constraint.describe(G4)


@contextlib.contextmanager
def naming(constraint):
    """An assertion that fails inside says which sample it was about."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{sample_id(constraint)}: {error}") from None


def by_type(constraints):
    """``constraints`` grouped by rule type, sorted: the tests over the samples take one item a
    type and check its samples in turn, naming the one that fails (one item a sample made 2,000
    items, and their overhead under xdist was some 6 s of the suite's CPU)."""
    groups: dict[str, list] = {}
    for constraint in constraints:
        groups.setdefault(constraint.type, []).append(constraint)
    return pytest.mark.parametrize("samples", [pytest.param(v, id=k)
                                               for k, v in sorted(groups.items())])


_PASSING: dict[int, list] = {}


def passing(constraint):
    """The 4x4 grids ``constraint`` allows, by its check (each sample's worked out once: four
    tests ask, the encoding test once per method)."""
    key = id(constraint)
    if key not in _PASSING:
        _PASSING[key] = [g for g in GRIDS4 if not constraint.check(Grid(G4, g))]
    return _PASSING[key]


@by_type(SAMPLES)
def test_encoding_allows_exactly_the_grids_check_passes(samples):
    for constraint in samples:
        for method in methods_that_differ(G4, [constraint]):
            assert sorted(solutions(G4, [constraint], method=method)) == passing(constraint), \
                (sample_id(constraint), method)


def test_samples_cover_every_type_on_4x4():
    assert {c.type for c in SAMPLES} == set(C.CONSTRAINTS) - {"rule-159", "chaos",
                                                              "doppelganger"}


@by_type(SAMPLES)
def test_prune_keeps_every_digit_a_solution_uses(samples):
    """Random candidate sets around a grid the rule allows: no digit that some allowed grid
    within the candidates uses is pruned, and a contradiction is only claimed when there is
    no such grid. A full grid the rule forbids is always a contradiction."""
    for constraint in samples:
        with naming(constraint):
            rng = random.Random(sample_id(constraint))
            allowed = passing(constraint)
            for grid in rng.sample(GRIDS4, 20):
                if grid not in allowed:
                    assert constraint.prune([1 << (d - 1) for d in grid]) is None
            for _ in range(30 if allowed else 0):
                target = rng.choice(allowed)
                cand = [(1 << (d - 1)) | rng.getrandbits(4) for d in target]
                inside = [g for g in allowed if all(m >> (d - 1) & 1 for m, d in zip(cand, g))]
                used = [0] * 16
                for g in inside:
                    used = [u | 1 << (d - 1) for u, d in zip(used, g)]
                before = list(cand)
                changed = constraint.prune(cand)
                assert changed is not None
                assert all(c & u == u for c, u in zip(cand, used))
                assert sorted(changed) == [i for i in range(16) if cand[i] != before[i]]
                assert all(c & b == c for c, b in zip(cand, before))


@by_type(SAMPLES)
def test_prune_removes_what_breaks_the_rule_when_one_cell_is_open(samples):
    """Every cell fixed as in a grid the rule allows but one, which has all digits: prune
    (repeated while it changes) keeps that grid's digit and drops each digit that breaks the
    rule."""
    for constraint in samples:
        with naming(constraint):
            rng = random.Random(sample_id(constraint) + "one")
            allowed = passing(constraint)
            for grid in rng.sample(allowed, min(8, len(allowed))):
                cell = rng.choice(constraint.cells)
                cand = [1 << (d - 1) for d in grid]
                cand[cell] = 0b1111
                ok = {d for d in range(1, 5)
                      if not constraint.check(Grid(G4, grid[:cell] + (d,) + grid[cell + 1:]))}
                result = constraint.prune(cand)
                while result:
                    result = constraint.prune(cand)
                assert result is not None
                assert grid[cell] in digits_of(cand[cell]) and set(digits_of(cand[cell])) <= ok


# -- properties on random grids -------------------------------------------------------------

def cages_of(grid, rng, n):
    cells = list(range(n * n))
    rng.shuffle(cells)
    return [tuple(sorted(cells[i:i + 3])) for i in range(0, 9, 3)]


SENSITIVE = {  # rules any one-cell change breaks, built from a grid that satisfies them
    "killer": lambda g, grid, rng: [C.Killer(cage, sum(grid[c] for c in cage))
                                    for cage in cages_of(grid, rng, g.size)
                                    if len({grid[c] for c in cage}) == 3],
    "little-killer": lambda g, grid, rng: [C.LittleKiller((0, 5, 10, 15),
                                                          sum(grid[c] for c in (0, 5, 10, 15)))],
    "xv": lambda g, grid, rng: [C.XV(p, grid[p[0]] + grid[p[1]]) for p in orthogonal_pairs(g)
                                if grid[p[0]] + grid[p[1]] in (5, 10)],
    "extra-region": lambda g, grid, rng: [C.ExtraRegion(tuple(
        rng.choice([c for c in range(g.ncells) if grid[c] == d]) for d in range(1, g.size + 1)))],
    "arrow": lambda g, grid, rng: [C.Arrow((a,), (b, c)) for a, b, c in
                                   itertools.permutations(range(g.ncells), 3)
                                   if grid[a] == grid[b] + grid[c]][:3],
    "clone": lambda g, grid, rng: [C.Clone((a,), (b,)) for a, b in
                                   itertools.combinations(range(g.ncells), 2)
                                   if grid[a] == grid[b]][:3],
    "quadruple": lambda g, grid, rng: [C.Quadruple((0, 1, 4, 5), tuple(grid[c] for c in
                                                                       (0, 1, 4, 5)))],
    "region-sum": lambda g, grid, rng: [C.RegionSum(g, (a, b)) for a, b in
                                        itertools.combinations(range(g.ncells), 2)
                                        if grid[a] == grid[b]][:3],
}


@pytest.mark.parametrize("kind", sorted(SENSITIVE))
def test_a_grid_passes_what_was_built_from_it_and_one_changed_cell_breaks_it(kind):
    rng = random.Random(kind)
    for grid in rng.sample(GRIDS4, 25):
        for constraint in SENSITIVE[kind](G4, grid, rng):
            assert constraint.check(Grid(G4, grid)) == []
            for cell in constraint.cells:
                for d in range(1, 5):
                    if d != grid[cell]:
                        changed = grid[:cell] + (d,) + grid[cell + 1:]
                        assert constraint.check(Grid(G4, changed)), (constraint, cell, d)


def test_random_full_grids_satisfy_the_encoding_exactly_when_check_passes():
    """On 6x6 and 9x9 (no brute force there): a full grid, assumed, satisfies a constraint's
    clauses exactly when its check passes."""
    from satdoku.tasks.generate import full_grid
    rng = random.Random(5)
    for puzzle in PUZZLES:
        geo, n = puzzle.geometry, puzzle.geometry.size
        if n == 4:
            continue
        solution = solutions(geo, puzzle.constraints, list(puzzle.grid.givens()), limit=1)[0]
        grids = [solution] + [full_grid(geo, rng).cells for _ in range(3)]
        for constraint in puzzle.constraints[:6]:
            with Solver(name="cadical195",
                        bootstrap_with=constraint.encode(C.EncodeContext(geo))) as s:
                for grid in grids:
                    ok = not constraint.check(Grid(geo, grid))
                    units = [c * n + d for c, d in enumerate(grid)]
                    units += [-(c * n + e) for c, d in enumerate(grid)
                              for e in range(1, n + 1) if e != d]
                    assert s.solve(assumptions=units) == ok


# -- sums -----------------------------------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("distinct", [False, True])
def test_sum_with_a_term_target_and_negative_weights(method, distinct):
    """sum(cells a, b) == cell c and a - b == 2, by encode_sum alone (no Sudoku rules)."""
    ctx = C.EncodeContext(G4, sum_encoding=method)
    a, b, c = (cell_term(ctx, x) for x in (0, 1, 2))
    clauses = [[ctx.var(x, d) for d in range(1, 5)] for x in (0, 1, 2)]
    clauses += [[-ctx.var(x, d), -ctx.var(x, e)] for x in (0, 1, 2)
                for d, e in itertools.combinations(range(1, 5), 2)]
    clauses += encode_sum(ctx, [a, b], c, distinct=distinct)
    clauses += encode_sum(ctx, [a, negated(b)], 2)
    found = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        while s.solve():
            model = [v for v in s.get_model()[:12] if v > 0]
            found.add(tuple((v - 1) % 4 + 1 for v in model))
            s.add_clause([-v for v in model])
    assert found == {(3, 1, 4)}


@pytest.mark.parametrize("method", METHODS)
def test_unreachable_sums_are_unsatisfiable(method):
    assert solutions(G4, [C.Killer((0, 1), 8)], method=method) == []
    assert solutions(G4, [C.LittleKiller((0, 5), 9)], method=method) == []
    assert solutions(G4, [C.Renban((0, 1, 2, 3, 4))], method=method) == []


def test_unknown_sum_encoding_is_refused():
    ctx = C.EncodeContext(G4, sum_encoding="adder")
    with pytest.raises(ValueError, match="unknown sum encoding 'adder'"):
        C.Killer((0, 1), 3).encode(ctx)


def test_guarded_clauses_only_bind_when_assumed():
    ctx = C.EncodeContext(G4)
    act = ctx.fresh()
    clauses = list(encode_base(G4).clauses) + C.guarded(C.Killer((0, 1), 8).encode(ctx), act)
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        assert s.solve() and not s.solve(assumptions=[act])


def test_encode_context_shares_a_fresh_counter():
    counter = iter(range(1000, 2000))
    ctx = C.EncodeContext(G4, fresh=lambda: next(counter))
    assert (ctx.fresh(), ctx.fresh(), ctx.var(15, 4)) == (1000, 1001, 64)


# -- the model -----------------------------------------------------------------------------

ALL = [(c, G4, SIBLINGS) for c in BASE_SAMPLES] + [(c, p.geometry, p.constraints) for p in PUZZLES
                                              for c in p.constraints]


@pytest.mark.parametrize("cases", [pytest.param([case for case in ALL if case[0].type == kind],
                                                id=kind)
                                   for kind in sorted({case[0].type for case in ALL})])
def test_json_round_trip(cases):
    for constraint, geo, siblings in cases:
        data = constraint.to_json(geo)
        again = C.CONSTRAINTS[data["type"]].from_json(data, geo)
        assert again.bind(siblings) == constraint, data
        assert again.to_json(geo) == data
        assert constraint.describe(geo)


@pytest.mark.parametrize("kind", sorted(C.CONSTRAINTS))
def test_every_rule_is_read_and_written_by_its_declared_fields_alone(kind):
    """One reader: no rule class has its own from_json, to_json or _json_fields; the fields
    are declared in the body of the class or of the base class it takes them from."""
    cls = C.CONSTRAINTS[kind]
    for name in ("from_json", "to_json", "_json_fields"):
        assert not any(name in k.__dict__ for k in cls.__mro__ if k is not C.Constraint), name
    owner = next(k for k in cls.__mro__ if "fields" in k.__dict__)
    source = inspect.getsource(owner)
    assert owner is C.Constraint or re.search(r"^    fields(: .*)? = ", source, re.M), owner


def test_a_class_that_sets_type_registers_itself_once():
    before = dict(C.CONSTRAINTS)
    try:
        class Dummy(C.Constraint):
            """``dummy-rule``: for the test."""
            type = "dummy-rule"

        class Internal(C.Constraint, register=False):
            type = "internal-rule"

        assert C.CONSTRAINTS["dummy-rule"] is Dummy and "internal-rule" not in C.CONSTRAINTS
        with pytest.raises(ValueError, match="'dummy-rule' of Again is taken by Dummy"):
            class Again(C.Constraint):
                type = "dummy-rule"
    finally:
        C.CONSTRAINTS.clear()
        C.CONSTRAINTS.update(before)


def test_negative_constraints_must_be_bound():
    with pytest.raises(ValueError, match="must be bound"):
        C.NoKropki(G4).encode(C.EncodeContext(G4))


def test_registry_names_match_classes():
    for name, cls in C.CONSTRAINTS.items():
        assert cls.type == name and cls.__doc__


MODULES = sorted(m.name for m in pkgutil.iter_modules(C.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"satdoku.rules.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


@by_type(SAMPLES)
def test_the_spec_checker_and_the_rule_agree(samples):
    """Two readings of the spec, written apart (tests/spec_checker.py and the rule class),
    judge 60 grids alike; a negative rule comes with clues on the pairs it exempts."""
    from satdoku.io.variant import variant_document
    from satdoku.model.puzzle import Puzzle
    from spec_checker import violations
    for constraint in samples:
        with naming(constraint):
            marked = sorted(tuple(sorted(p)) for p in getattr(constraint, "marked", None) or ())
            clue = C.KropkiWhite if constraint.type == "no-kropki" else lambda p: C.XV(p, 5)
            doc = variant_document(Puzzle(Grid(G4, (0,) * 16),
                                          constraints=(constraint, *(clue(p) for p in marked))))
            rng = random.Random(sample_id(constraint) + "spec")
            for grid in rng.sample(GRIDS4, 60):
                broken = f"#0 {constraint.type}" in violations(doc, "".join(map(str, grid)))
                assert broken == bool(constraint.check(Grid(G4, grid))), grid


EXACT = [c for c in SAMPLES if isinstance(c, (C.PairRelation, C.Regex, C.GreaterThan,
                                               C.AnyOf, C.AllOf, C.StateMachine,
                                               C.NumberedRoom, C.HiddenSkyscraper,
                                               C.ValueIndexing, C.GlobalEntropy, C.GlobalMod,
                                               C.DutchFlatmates)) or hasattr(c, "allowed")]


@by_type(EXACT)
def test_a_pair_or_pattern_clause_estimate_is_what_the_encoding_writes(samples):
    """The builder refuses a rule up front by its estimate: for every pair rule (relations,
    dots, lines, chess rules), pattern, and an or/and of them, exactly what encode writes."""
    for constraint in samples:
        with naming(constraint):
            estimate = constraint.clause_estimate(G4)
            written = len(constraint.encode(C.EncodeContext(G4)))
            inner = getattr(constraint, "rules", ())
            if all(r.clause_estimate(G4) == len(r.encode(C.EncodeContext(G4))) for r in inner):
                assert estimate == written
            assert 0 <= estimate <= written


@pytest.mark.parametrize("box, least", [((2, 2), 2), ((2, 3), 3), ((3, 3), 5)])
def test_german_whispers_default_to_half_the_digits(box, least):
    # a fixed 5 made every 4x4 whispers line unsolvable; f-puzzles reads ceil(N/2)
    import satdoku
    from satdoku.rules.lines import GermanWhispers
    n = box[0] * box[1]
    line = GermanWhispers((0, 1))
    assert [d for d in range(1, n + 1) if line.allowed(1, d, n)] == list(range(1 + least, n + 1))
    size = {"size": n, "constraints": [{"type": "german-whispers", "cells": ["r1c1", "r1c2"]}]}
    assert satdoku.count(size).status == "multiple"


@pytest.mark.parametrize("rule", ["thermometer", "german-whispers", "renban", "between",
                                  "region-sum"])
def test_a_line_goes_from_cell_to_touching_cell(rule):
    # (a pair or regex rule reads cells in any order: sigh's Pair and Regex are not lines)
    import satdoku
    from satdoku.errors import PuzzleError
    bad = {"size": 4, "constraints": [{"type": rule, "cells": ["r1c1", "r1c3"]}]}
    with pytest.raises(PuzzleError, match="r1c1 and r1c3 do not touch"):
        satdoku.read(bad)


def test_two_lines_from_one_cell_are_told_apart():
    """A branching thermometer and two arrows from one circle (Eddies has those) each name
    their own tip, so a step's rules and an explanation's core can be told apart."""
    g = geometry(3, 3)
    rules = [C.Thermometer((0, 1, 2)), C.Thermometer((0, 9, 18)),
             C.Arrow((20,), (21, 31, 41)), C.Arrow((20,), (11, 3))]
    names = [r.describe(g) for r in rules]
    assert names == ["thermometer from r1c1 to r1c3", "thermometer from r1c1 to r3c1",
                     "arrow from r3c3 to r5c6", "arrow from r3c3 to r1c4"]
    # a loop has no ends: its cells
    assert C.SumLine((0, 1, 10, 9, 0), 5).describe(g) == \
        "sum loop r1c1-r1c2-r2c2-r2c1 (segments of 5)"
