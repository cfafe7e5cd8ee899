"""Make variant puzzles with exactly one solution, as satdoku variant JSON Lines.

    python scripts/make_variants.py tests                  # one puzzle per constraint type
    python scripts/make_variants.py killer --count 20      # 9x9 killers (cages cover the grid)
    python scripts/make_variants.py arrow --count 20       # 9x9 arrow puzzles

How: a random solution under the constraints (SAT with random digits assumed, cell by cell),
constraints read off that solution (a cage's sum, a thermometer along increasing cells...),
then givens dug away in random order while SAT proves the solution still the only one (one
call per given: "this cell is not its digit" must be UNSAT). The same --seed gives the same
puzzles. The tests keep the output of ``tests`` as data and check every puzzle from scratch.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pysat.solvers import Solver  # noqa: E402

from satdoku import rules as C  # noqa: E402
from satdoku.rules.killer import DIRECTIONS  # noqa: E402
from satdoku.cnf.formula import encode_base  # noqa: E402
from satdoku.model.geometry import Geometry, geometry  # noqa: E402
from satdoku.model.grid import Grid  # noqa: E402
from satdoku.io.variant import format_variant  # noqa: E402
from satdoku.model.puzzle import Puzzle  # noqa: E402
from sigh_builders import GLOBAL as SIGH_GLOBAL, SIZES as SIGH_SIZES, build_sigh  # noqa: E402


class Sat:
    """A CaDiCaL solver loaded with the Sudoku rules and ``constraints``."""

    def __init__(self, geo: Geometry, constraints, sum_encoding: str | None = None) -> None:
        self.geo, self.n = geo, geo.size
        self.ctx = C.EncodeContext(geo, sum_encoding=sum_encoding)
        clauses = list(encode_base(geo).clauses)
        for clause_list in C.encode_constraints(C.bind_all(constraints), self.ctx):
            clauses += clause_list
        self.solver = Solver(name="cadical195", bootstrap_with=clauses)

    def var(self, cell: int, d: int) -> int:
        return cell * self.n + d

    def solve(self, assumptions) -> tuple[int, ...] | None:
        if not self.solver.solve(assumptions=list(assumptions)):
            return None
        model = self.solver.get_model()
        return tuple((v - 1) % self.n + 1 for v in model[:self.n ** 3] if v > 0)

    def close(self) -> None:
        self.solver.delete()


def random_solution(sat: Sat, rng: random.Random) -> tuple[int, ...] | None:
    """A solution with random digits assumed in random cells while that stays solvable."""
    geo = sat.geo
    cells = list(range(geo.ncells))
    rng.shuffle(cells)
    assumed: list[int] = []
    for cell in cells[:geo.size * 2]:
        lit = sat.var(cell, rng.randint(1, geo.size))
        if sat.solve(assumed + [lit]) is not None:
            assumed.append(lit)
    return sat.solve(assumed)


def dig(sat: Sat, solution, rng: random.Random) -> tuple[int, ...]:
    """Givens of ``solution`` that keep it the only solution, none of them removable."""
    givens = list(solution)
    order = list(range(len(givens)))
    rng.shuffle(order)
    for cell in order:
        kept = [sat.var(c, d) for c, d in enumerate(givens) if d and c != cell]
        if sat.solve(kept + [-sat.var(cell, solution[cell])]) is None:
            givens[cell] = 0
    return tuple(givens)


# -- constraints read off a solution --------------------------------------------------------

def king_walk(geo: Geometry, rng: random.Random, length: int) -> tuple[int, ...]:
    n = geo.size
    cells = [rng.randrange(n * n)]
    while len(cells) < length:
        r, c = divmod(cells[-1], n)
        steps = [(r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in cells]
        if not steps:
            break
        cells.append(rng.choice(steps))
    return tuple(cells)


def lines_that_hold(make, geo, sol, rng, count, lengths, tries=20000):
    """Up to ``count`` constraints ``make(walk)`` over random walks that hold in ``sol``
    (``make`` may return None: none on that walk)."""
    out, used = [], set()
    for _ in range(tries):
        walk = king_walk(geo, rng, rng.choice(lengths))
        if used & set(walk) or len(walk) < min(lengths):
            continue
        c = make(walk)
        if c is not None and not c.check(Grid(geo, sol)):
            out.append(c)
            used |= set(walk)
            if len(out) == count:
                break
    return out


def cages(geo: Geometry, rng: random.Random, sizes=(2, 3, 4), sol=None
          ) -> list[tuple[int, ...]]:
    """A random partition of the grid into orthogonally connected cages (with ``sol``, cages
    whose digits in it differ)."""
    n = geo.size
    free = set(range(n * n))
    out = []
    while free:
        cage = [rng.choice(sorted(free))]
        free.discard(cage[0])
        want = rng.choice(sizes)
        while len(cage) < want:
            edge = sorted(nb for nb in {nb for c in cage for nb in _orth(c, n)} & free
                          if sol is None or sol[nb] not in {sol[c] for c in cage})
            if not edge:
                break
            nxt = rng.choice(edge)
            cage.append(nxt)
            free.discard(nxt)
        out.append(tuple(sorted(cage)))
    return out


def _orth(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [(r + dr) * n + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < n and 0 <= c + dc < n]


def killers(geo, sol, rng, count=None, sizes=(2, 3, 4)):
    out = []
    for cage in cages(geo, rng, sizes, sol):
        out.append(C.Killer(cage, sum(sol[c] for c in cage)))
    rng.shuffle(out)
    return out if count is None else out[:count]


def arrows(geo, sol, rng, count, circle=1):
    def make(walk):
        return C.Arrow(walk[:circle], walk[circle:])
    return lines_that_hold(make, geo, sol, rng, count, tuple(range(circle + 2, circle + 5)))


def dot_pairs(geo, sol, relation):
    return [(a, b) for a, b in C.base.orthogonal_pairs(geo) if relation(sol[a], sol[b])]


def little_killers(geo, sol, rng, count):
    n = geo.size
    out = []
    for _ in range(count * 10):
        name, (dr, dc) = rng.choice(sorted(DIRECTIONS.items()))
        r = 0 if dr > 0 else n - 1
        c = rng.randrange(n)
        if rng.random() < 0.5:
            r, c = rng.randrange(n), 0 if dc > 0 else n - 1
        cells = []
        while 0 <= r < n and 0 <= c < n:
            cells.append(r * n + c)
            r, c = r + dr, c + dc
        if len(cells) >= 2 and all(x.cells != tuple(cells) for x in out):
            first_r, first_c = divmod(cells[0], n)
            clue = f"r{first_r + 1 - dr}c{first_c + 1 - dc}"
            out.append(C.LittleKiller(tuple(cells), sum(sol[x] for x in cells), clue, name))
        if len(out) == count:
            break
    return out


def outside(make, geo, sol, rng, count, sides=("start", "end")):
    out = []
    lines = [f"{k}{i}" for k in "rc" for i in range(1, geo.size + 1)]
    rng.shuffle(lines)
    for line in lines[:count]:
        out.append(make(line, rng.choice(sides), sol))
    return out


def _line_digits(geo, line, side, sol):
    return tuple(sol[c] for c in C.base.line_cells(geo, line, side))


def build_outside(kind: str, geo: Geometry, sol, rng: random.Random) -> list:
    """Sandwich, X-sum or skyscraper clues that hold in ``sol``."""
    n = geo.size
    if kind == "sandwich":
        def make(line, side, sol):
            ds = _line_digits(geo, line, "start", sol)
            i, j = sorted((ds.index(1), ds.index(n)))
            return C.Sandwich(geo, line, total=sum(ds[i + 1:j]))
        return outside(make, geo, sol, rng, n)
    if kind == "x-sum":
        def make(line, side, sol):
            ds = _line_digits(geo, line, side, sol)
            return C.XSum(geo, line, side, sum(ds[:ds[0]]))
        return outside(make, geo, sol, rng, n)
    if kind == "skyscraper":
        def make(line, side, sol):
            ds = _line_digits(geo, line, side, sol)
            seen = sum(1 for i, d in enumerate(ds) if d > max(ds[:i], default=0))
            return C.Skyscraper(geo, line, side, seen)
        return outside(make, geo, sol, rng, n)
    raise ValueError(f"no builder for {kind}")


#: Relations the test puzzles of ``pair`` draw from (one that holds along a random walk).
RELATIONS = ("a > b", "a < b", "abs(a - b) >= 2", "(a + b) % 2 == 1", "a * b >= 6 || a == 1")


def build_setters(kind: str, geo: Geometry, sol, rng: random.Random) -> list | None:
    """Constraints of the setter's rules of issue 32 (pair, regex, greater-than) that hold in
    ``sol`` (None: not one of them)."""
    n = geo.size
    if kind == "pair":
        return lines_that_hold(lambda w: C.PairRelation(w, rng.choice(RELATIONS)), geo, sol,
                               rng, n // 2 + 1, (2, 3, 4))
    if kind == "regex":
        def make(walk):
            digits = [str(sol[c]) for c in walk]
            return C.Regex(walk, f"{digits[0]}[^{digits[1]}]*{digits[-1]}|"
                                 f"{rng.choice(digits)}.*")
        return lines_that_hold(make, geo, sol, rng, n // 2 + 1, (3, 4))
    if kind in ("or", "and"):  # one cell holds its digit, or another a random one
        cells = rng.sample(range(n * n), 2 * n)
        if kind == "and":
            return [C.AllOf(tuple(C.Candidates((x,), tuple(sorted({sol[x], rng.randint(1, n)})))
                                  for x in (a, b)))
                    for a, b in zip(cells[::2], cells[1::2])]
        return [C.AnyOf((C.Candidates((a,), (sol[a],)), C.Candidates((b,), (rng.randint(1, n),))))
                for a, b in zip(cells[::2], cells[1::2])]
    if kind == "greater-than":
        pairs = dot_pairs(geo, sol, lambda x, y: x != y)
        rng.shuffle(pairs)
        return [C.GreaterThan(geo, p if sol[p[0]] > sol[p[1]] else p[::-1]) for p in pairs[:n]]
    return None


def build_added(kind: str, geo: Geometry, sol, rng: random.Random) -> list | None:
    """Constraints of the types added in issues 23 and 32 that hold in ``sol`` (None: not
    one)."""
    n = geo.size
    grid = Grid(geo, sol)
    setters = build_setters(kind, geo, sol, rng)
    if setters is not None:
        return setters
    sighs = build_sigh(kind, geo, sol, rng, lines_that_hold)
    if sighs is not None:
        return sighs
    if kind == "sum-line":
        def make(walk):
            digits = [sol[c] for c in walk]
            for k in range(1, len(walk)):
                line = C.SumLine(walk, sum(digits[:k]))
                if not line.check(grid):
                    return line
            return C.SumLine(walk, sum(digits) + 1)  # fails: tried again
        return lines_that_hold(make, geo, sol, rng, n // 2 + 1, (3, 4, 5))
    if kind == "edge-sum":
        pairs = list(C.base.orthogonal_pairs(geo))
        rng.shuffle(pairs)
        return [C.EdgeSum(p, sol[p[0]] + sol[p[1]]) for p in pairs[:n]]
    if kind in ("row-indexer", "column-indexer", "box-indexer"):
        cls = C.CONSTRAINTS[kind]
        cells = [c for c in range(n * n) if not cls(geo, (c,)).check(grid)]
        rng.shuffle(cells)
        return [cls(geo, tuple(sorted(cells[:n // 2 + 1])))] if cells else []
    if kind == "multi-killer":
        out = []
        for cage in cages(geo, rng, (2, 3), sol)[:n // 2 + 1]:
            total = sum(sol[c] for c in cage)
            out.append(C.MultiKiller(cage, tuple(sorted({total, total + rng.choice((1, 2, 3))}))))
        return out
    if kind == "candidates":
        pair = rng.sample(range(1, n + 1), 2)
        cells = [c for c in range(n * n) if sol[c] in pair]
        rng.shuffle(cells)
        return [C.Candidates(tuple(sorted(cells[:n])), tuple(sorted(pair)))]
    return None


def build(kind: str, geo: Geometry, sol, rng: random.Random) -> list:
    """Constraints of type ``kind`` that hold in ``sol``."""
    added = build_added(kind, geo, sol, rng)
    if added is not None:
        return added
    n = geo.size
    grid = Grid(geo, sol)
    if kind == "killer":
        return killers(geo, sol, rng, count=n)
    if kind == "little-killer":
        return little_killers(geo, sol, rng, n // 2 + 1)
    if kind == "arrow":
        return arrows(geo, sol, rng, n // 2) + arrows(geo, sol, rng, 1, circle=2)
    if kind in ("thermometer", "slow-thermometer", "german-whispers", "renban", "palindrome",
                "between", "region-sum", "entropic", "zipper", "modular", "nabner",
                "double-arrow", "lockout"):
        cls = C.CONSTRAINTS[kind]
        needs_geo = kind == "region-sum"
        lengths = {"nabner": (2, 3), "double-arrow": (3, 4)}.get(kind, (3, 4, 5))
        if kind == "lockout":
            return lines_that_hold(lambda w: cls(w, n // 2), geo, sol, rng, n // 2 + 1, lengths)
        made = lines_that_hold(lambda w: cls(geo, w) if needs_geo else cls(w), geo, sol, rng,
                               n // 2 + 1, lengths)
        return made
    if kind in ("kropki-white", "kropki-black", "xv"):
        rel = {"kropki-white": lambda x, y: abs(x - y) == 1,
               "kropki-black": lambda x, y: x == 2 * y or y == 2 * x,
               "xv": lambda x, y: x + y in (5, 10)}[kind]
        pairs = dot_pairs(geo, sol, rel)
        rng.shuffle(pairs)
        pairs = pairs[:n]
        if kind == "xv":
            return [C.XV(p, sol[p[0]] + sol[p[1]]) for p in pairs]
        return [C.CONSTRAINTS[kind](p) for p in pairs]
    if kind in ("no-kropki", "no-xv"):
        if kind == "no-kropki":
            white = dot_pairs(geo, sol, lambda x, y: abs(x - y) == 1)
            black = [p for p in dot_pairs(geo, sol, lambda x, y: x == 2 * y or y == 2 * x)
                     if p not in white]
            return [C.KropkiWhite(p) for p in white] + [C.KropkiBlack(p) for p in black] + [
                C.NoKropki(geo)]
        pairs = dot_pairs(geo, sol, lambda x, y: x + y in (5, 10))
        return [C.XV(p, sol[p[0]] + sol[p[1]]) for p in pairs] + [C.NoXV(geo)]
    if kind in ("odd", "even"):
        cells = [c for c in range(n * n) if sol[c] % 2 == (kind == "odd")]
        rng.shuffle(cells)
        return [C.CONSTRAINTS[kind](tuple(sorted(cells[:n])))]
    if kind in ("minimum", "maximum"):
        cls = C.CONSTRAINTS[kind]
        cells = [c for c in range(n * n) if not cls(geo, c).check(grid)]
        rng.shuffle(cells)
        return [cls(geo, c) for c in cells[:n // 2 + 1]]
    if kind == "extra-region":
        where = {d: [c for c in range(n * n) if sol[c] == d] for d in range(1, n + 1)}
        return [C.ExtraRegion(tuple(sorted(rng.choice(where[d]) for d in where)))]
    if kind == "clone":
        out = []
        for _ in range(5000):
            a = king_walk(geo, rng, 2)
            shift = rng.randrange(-n * n, n * n)
            b = tuple(c + shift for c in a)
            if (len(a) == 2 and all(0 <= c < n * n for c in b)
                    and all(c % n - a[0] % n == x % n - b[0] % n for c, x in zip(a, b))
                    and not set(a) & set(b) and [sol[c] for c in a] == [sol[c] for c in b]):
                out.append(C.Clone(a, b))
                if len(out) == 3:
                    break
        return out
    if kind == "quadruple":
        out = []
        for _ in range(n):
            r, c = rng.randrange(n - 1), rng.randrange(n - 1)
            cells = (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
            digits = [sol[x] for x in cells]
            out.append(C.Quadruple(cells, tuple(rng.sample(digits, rng.choice((2, 3, 4))))))
        return out
    if kind in ("sandwich", "x-sum", "skyscraper"):
        return build_outside(kind, geo, sol, rng)
    raise ValueError(f"no builder for {kind}")


#: Global rules hold in the whole grid: the solution is found under them.
GLOBAL = {"diagonal": lambda g: [C.Diagonal(g, "+"), C.Diagonal(g, "-")],
          "anti-knight": lambda g: [C.AntiKnight(g)], "anti-king": lambda g: [C.AntiKing(g)],
          "non-consecutive": lambda g: [C.NonConsecutive(g)],
          "disjoint-groups": lambda g: [C.DisjointGroups(g)], "rule-159": lambda g: [C.Rule159(g)],
          "diagonal-non-consecutive": lambda g: [C.DiagonalNonConsecutive(g)],
          "windoku": lambda g: [C.Windoku(g)], **SIGH_GLOBAL}

#: The grid each test puzzle uses: 4x4 where the rule makes sense and brute force can check
#: it, 6x6 where 4x4 has no room, 9x9 where the rule needs 1-9.
TEST_SIZES = {
    "diagonal": (2, 2), "anti-knight": (2, 2), "anti-king": (3, 3), "non-consecutive": (2, 3),
    "disjoint-groups": (2, 2), "rule-159": (3, 3), "no-kropki": (2, 2), "no-xv": (2, 2),
    "extra-region": (2, 2), "killer": (2, 2), "little-killer": (2, 2), "thermometer": (2, 2),
    "slow-thermometer": (2, 2), "arrow": (2, 2), "kropki-white": (2, 2), "kropki-black": (2, 2),
    "xv": (2, 2), "odd": (2, 2), "even": (2, 2), "minimum": (2, 2), "maximum": (2, 2),
    "german-whispers": (3, 3), "renban": (2, 2), "palindrome": (2, 3), "between": (2, 2),
    "region-sum": (2, 2), "entropic": (3, 3), "zipper": (2, 2), "clone": (2, 3),
    "quadruple": (2, 2), "sandwich": (2, 2), "x-sum": (2, 2), "skyscraper": (2, 2),
    "edge-sum": (2, 2), "modular": (2, 2), "nabner": (2, 2), "row-indexer": (2, 2),
    "column-indexer": (2, 2), "box-indexer": (2, 2), "double-arrow": (2, 2), "lockout": (2, 2),
    "diagonal-non-consecutive": (2, 3), "multi-killer": (2, 2), "sum-line": (2, 2),
    "candidates": (2, 2), "pair": (2, 2), "regex": (2, 2), "greater-than": (2, 2),
    "windoku": (2, 2), "or": (2, 2), "and": (2, 2), **SIGH_SIZES,
}
#: Types that get a second test puzzle on a larger grid (more room for their rule).
SECOND_SIZES = {"arrow": (2, 3), "killer": (2, 3), "sandwich": (2, 3), "x-sum": (2, 3),
                "skyscraper": (2, 3), "little-killer": (2, 3), "region-sum": (2, 3),
                "renban": (2, 3), "between": (2, 3), "zipper": (2, 3), "thermometer": (2, 3),
                "no-kropki": (2, 3)}


def make_test_puzzle(kind: str, rng: random.Random, box=None) -> Puzzle | None:
    geo = geometry(*(box or TEST_SIZES[kind]))
    rules = GLOBAL[kind](geo) if kind in GLOBAL else []
    sat = Sat(geo, rules)
    sol = random_solution(sat, rng)
    sat.close()
    if sol is None:
        return None
    cons = rules or build(kind, geo, sol, rng)
    if not cons:
        return None
    sat = Sat(geo, cons)
    givens = dig(sat, sol, rng)
    sat.close()
    plain = Sat(geo, [])  # the constraints must matter: without them, another solution
    plain.solver.add_clause([-plain.var(c, d) for c, d in enumerate(sol)])
    matters = plain.solve([plain.var(c, d) for c, d in enumerate(givens) if d]) is not None
    plain.close()
    if not matters:
        return None
    return Puzzle(Grid(geo, givens), constraints=cons, name=f"{kind} test")


def make_cover_puzzle(kind: str, geo: Geometry, rng: random.Random,
                      sizes=(2, 3, 4, 5), keep: float = 1.0) -> Puzzle:
    """A killer (cages over the grid, ``keep`` of them kept) or arrow puzzle, givens dug to
    uniqueness."""
    sat = Sat(geo, [])
    sol = random_solution(sat, rng)
    sat.close()
    if kind == "killer":
        cons = [C.Killer(cage, sum(sol[c] for c in cage))
                for cage in cages(geo, rng, sizes, sol) if rng.random() < keep]
    else:
        cons = arrows(geo, sol, rng, 12)
    sat = Sat(geo, cons)
    givens = dig(sat, sol, rng)
    sat.close()
    return Puzzle(Grid(geo, givens), constraints=cons, name=f"{kind} {geo.size}x{geo.size}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["tests", "killer", "arrow"])
    parser.add_argument("--types", default=None, metavar="T,T",
                        help="with 'tests': only these rule types (new ones), one puzzle each")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--box", default="3x3")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    if args.what == "tests" and args.types:
        for kind in args.types.split(","):
            puzzle = None
            while puzzle is None:
                puzzle = make_test_puzzle(kind, rng)
            print(format_variant(puzzle))
        return 0
    if args.what == "tests":
        for kind in C.CONSTRAINTS:
            puzzle = None
            while puzzle is None:
                puzzle = make_test_puzzle(kind, rng)
            print(format_variant(puzzle))
        for kind, box in SECOND_SIZES.items():
            puzzle = None
            while puzzle is None:
                puzzle = make_test_puzzle(kind, rng, box)
            print(format_variant(puzzle))
        return 0
    r, c = map(int, args.box.split("x"))
    for _ in range(args.count):
        print(format_variant(make_cover_puzzle(args.what, geometry(r, c), rng)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
