"""Compare the sum encodings (satdoku.rules.sums.SUM_ENCODINGS) on killer and arrow
puzzles: time to encode, to solve, and to prove the solution unique, with CaDiCaL 1.9.5.

    nice -n 10 python scripts/bench_sums.py                    # the sets below
    nice -n 10 python scripts/bench_sums.py --rounds 1 --count 5
    python scripts/bench_sums.py --file ../shared/puzzles/variants/sigh_hard.jsonl \
        --only "Long sums,Hailstone" --implied --rounds 1

``--file`` measures the puzzles of a JSON Lines file instead (objects with ``doc``, the
satdoku variant document, and ``name``; ``--only``: names containing one of these, comma
separated), one set per puzzle. ``--implied`` also measures each encoding with the implied
constraints of :mod:`satdoku.rules.implied` added (``+ implied``), and ``--conflicts`` bounds
each solve call (a puzzle past it is reported as such, not timed).

Puzzle sets are made with scripts/make_variants.py's functions and fixed seeds, so every run
measures the same puzzles; the Wikipedia killer example (as CSPLib problem 057 lists it) is
added as a hand-checked one. Each puzzle gets a fresh solver per encoding (Sudoku rules + the
constraints' clauses + the givens as unit clauses): solve, then block the solution and solve
again (UNSAT proves it unique). Encodings take turns going first (A B, then B A on the next
puzzle) and rounds repeat the whole run (3 for 9x9, 1 for the slow 16x16 set), so drifting load
hits both alike. Times are CPU seconds of this process (time.process_time); figures per set are
means (and medians) over puzzles and rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pysat.solvers import Solver  # noqa: E402

import make_variants as mv  # noqa: E402
from satdoku import rules as C  # noqa: E402
from satdoku.rules import sums  # noqa: E402
from satdoku.cnf.formula import encode_base  # noqa: E402
from satdoku.model.geometry import geometry  # noqa: E402
from satdoku.model.grid import Grid  # noqa: E402
from satdoku.io.variant import read_variant  # noqa: E402
from satdoku.model.puzzle import Puzzle  # noqa: E402
from satdoku.rules.implied import implied_constraints  # noqa: E402
from test_constraints import WIKIPEDIA_CAGES  # noqa: E402  (the hand-checked killer)

def wikipedia_killer() -> Puzzle:
    g = geometry(3, 3)
    cages = []
    for part in WIKIPEDIA_CAGES.replace("\n", "").split("|"):
        total, *cells = map(int, part.split())
        cages.append(C.Killer(tuple(cells), total))
    return Puzzle(Grid(g, (0,) * 81), constraints=cages, name="Wikipedia killer example")


def puzzle_sets(count: int) -> dict[str, tuple[list[Puzzle], int]]:
    """name -> (puzzles, rounds), the same puzzles on every run."""
    def made(seed, box, n, sizes=(2, 3, 4, 5), keep=1.0, kind="killer"):
        rng = random.Random(seed)
        return [mv.make_cover_puzzle(kind, geometry(*box), rng, sizes, keep) for _ in range(n)]

    return {
        "killer 9x9, cages 2-5": ([wikipedia_killer()] + made(1, (3, 3), count), 3),
        "killer 9x9, cages 5-8": (made(2, (3, 3), count, (5, 6, 7, 8)), 3),
        "killer 9x9, half the cages 2-5, givens": (made(5, (3, 3), count, keep=0.5), 3),
        "arrow 9x9, 12 arrows, givens": (made(4, (3, 3), count, kind="arrow"), 3),
        "killer 16x16, cages 2-5": (made(3, (4, 4), 2), 1),
    }


#: Not an encoding of its own: ``table`` with value sets switched off, so that every sum,
#: cages included, gets the layered partial sums (``--partial-sums`` measures it too).
PARTIAL_SUMS = "table, partial sums only"


#: The suffix of a method measured with the implied constraints added (``--implied``).
IMPLIED = " + implied"


def measure(puzzle: Puzzle, method: str, conflicts: int = 0) -> dict:
    geo, n = puzzle.geometry, puzzle.geometry.size
    start = time.process_time()
    limit = sums.COMBINATION_LIMIT
    implied = method.endswith(IMPLIED)
    method = method.removesuffix(IMPLIED)
    if method == PARTIAL_SUMS:
        method, sums.COMBINATION_LIMIT = "table", -1
    try:
        ctx = C.EncodeContext(geo, sum_encoding=method)
        extra = [cl for per in C.encode_constraints(puzzle.constraints, ctx) for cl in per]
        if implied:
            extra += [cl for s in implied_constraints(geo, puzzle.constraints)
                      for cl in s.encode(ctx)]
    finally:
        sums.COMBINATION_LIMIT = limit
    encode_s = time.process_time() - start
    givens = [[c * n + d] for c, d in puzzle.grid.givens()]
    clauses = list(encode_base(geo).clauses) + extra + givens
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        def run():
            if conflicts:
                s.conf_budget(conflicts)
            return s.solve_limited()

        t0 = time.process_time()
        answer = run()
        t1 = time.process_time()
        unique = None
        if answer:
            model = [v for v in s.get_model()[:n ** 3] if v > 0]
            solution = Grid(geo, tuple((v - 1) % n + 1 for v in model))
            assert puzzle.check(solution) == [], puzzle.name
            s.add_clause([-v for v in model])
            second = run()
            unique = None if second is None else not second
        elif answer is False:
            unique = True  # no solution: nothing to be unique, but answered (zero puzzles)
        t2 = time.process_time()
        stats = s.accum_stats()
    return {"vars": ctx.top, "clauses": len(extra), "encode": encode_s, "solve": t1 - t0,
            "unique": t2 - t1, "total": encode_s + t2 - t0, "conflicts": stats["conflicts"],
            "is_unique": unique}


def file_sets(path: str, only: str) -> dict[str, tuple[list[Puzzle], int]]:
    """One set per puzzle of a JSON Lines file with ``doc`` and ``name`` (``only``: names
    with one of these comma-separated parts)."""
    wanted = [w for w in only.split(",") if w]
    out = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                entry = json.loads(line)
                if not wanted or any(w in entry["name"] for w in wanted):
                    out[entry["name"]] = ([read_variant(entry["doc"])], 3)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per 9x9 set")
    parser.add_argument("--rounds", type=int, default=3, help="at most (16x16: 1)")
    parser.add_argument("--sets", default="", help="only the sets whose name has this text")
    parser.add_argument("--partial-sums", action="store_true",
                        help="also measure table with partial sums for cages too")
    parser.add_argument("--file", help="JSON Lines of puzzles (doc, name) instead of the sets")
    parser.add_argument("--only", default="", help="with --file: names containing these")
    parser.add_argument("--implied", action="store_true",
                        help="also measure each encoding with the implied constraints")
    parser.add_argument("--conflicts", type=int, default=0,
                        help="at most this many conflicts a solve call (0: no limit)")
    args = parser.parse_args(argv)
    t0 = time.time()
    sets = (file_sets(args.file, args.only) if args.file else
            {k: v for k, v in puzzle_sets(args.count).items() if args.sets in k})
    print(f"# made the sets in {time.time() - t0:.1f} s; load {os.getloadavg()[0]:.2f}",
          file=sys.stderr)
    methods = list(C.SUM_ENCODINGS) + ([PARTIAL_SUMS] if args.partial_sums else [])
    methods += [m + IMPLIED for m in methods] if args.implied else []
    rows = {(name, m): [] for name in sets for m in methods}
    for r in range(args.rounds):
        i = 0
        for name, (puzzles, rounds) in sets.items():
            if r >= rounds:
                continue
            for puzzle in puzzles:
                shift = (i + r) % len(methods)
                order = methods[shift:] + methods[:shift]
                for m in order:
                    rows[name, m].append(measure(puzzle, m, args.conflicts))
                i += 1
    print("| set | encoding | puzzles | aux vars | clauses | encode ms | solve ms (median) | "
          "unique ms (median) | total ms | conflicts |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, m), rs in rows.items():
        def mean(key):
            return statistics.mean(x[key] for x in rs)

        def median(key):
            return statistics.median(x[key] for x in rs)
        puzzles, rounds = sets[name]
        n3 = puzzles[0].geometry.size ** 3
        print(f"| {name} | {m} | {len(puzzles)} x {min(rounds, args.rounds)} | "
              f"{mean('vars') - n3:,.0f} | "
              f"{mean('clauses'):,.0f} | {1000 * mean('encode'):.1f} | "
              f"{1000 * mean('solve'):.1f} ({1000 * median('solve'):.1f}) | "
              f"{1000 * mean('unique'):.1f} ({1000 * median('unique'):.1f}) | "
              f"{1000 * mean('total'):.1f} | {mean('conflicts'):,.0f}"
              + ("" if all(x["is_unique"] is not None for x in rs) else " (past the budget)")
              + " |")
        assert all(x["is_unique"] is not False for x in rs), (name, m)
    print(f"# load at the end {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
