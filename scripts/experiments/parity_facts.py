"""Scratch: parity facts a puzzle's sums and houses imply, and what they do for CaDiCaL.

Each house holds each digit once, so the count of odd digits in it is fixed (5 of 1..9: odd);
each sum rule fixes the parity of its odd-weighted cells' odd digits (a total of 38: even).
Added over GF(2) these give facts no single rule states, such as "of r2c5, r5c2, r5c8 and
r8c5 an even number are odd" (LITTLE_KILLER_SNIPES #11 and #13, from six diagonals and the
houses). A CDCL solver learns such facts only by many conflicts. This script finds the short
ones (random information sets: Gaussian elimination in shuffled column orders, each basis
vector and each sum of two kept when at most ``--max-cells`` cells), prints them, and with
``--count SECONDS`` counts the puzzle to 2 on one CaDiCaL (its defaults, as satdoku's hard
puzzles get) with each fact added as XOR clauses over one "odd" variable per cell, or without
(``--max-cells 0``). Figures: docs/hard-grids.md ("SNIPES #11 and #13, tenth session").

    python scripts/experiments/parity_facts.py lks11.txt
    python scripts/experiments/parity_facts.py lks11.txt --count 1500
"""

from __future__ import annotations

import argparse
import itertools
import random
import signal
import time

import satdoku


def parity_facts(equations: list[tuple[int, int]], ncells: int, max_cells: int,
                 tries: int = 300, seed: int = 1) -> dict[int, int]:
    """``{cell mask: parity}`` of the short vectors in the GF(2) span of ``equations``
    (``(cell mask, parity)`` each); ValueError when they contradict each other."""
    rng = random.Random(seed)
    found: dict[int, int] = {}
    cols = list(range(ncells))
    for _ in range(tries):
        rng.shuffle(cols)
        rows, basis = list(equations), []
        for col in cols:
            bit = 1 << col
            pivot = next((i for i, (m, _) in enumerate(rows) if m & bit), None)
            if pivot is None:
                continue
            pm, pr = rows.pop(pivot)
            rows = [(m ^ pm, r ^ pr) if m & bit else (m, r) for m, r in rows]
            basis = [(m ^ pm, r ^ pr) if m & bit else (m, r) for m, r in basis]
            basis.append((pm, pr))
        if any(m == 0 and r for m, r in rows):
            raise ValueError("the houses and sums contradict each other mod 2")
        pairs = ((a ^ c, b ^ d) for (a, b), (c, d) in itertools.combinations(basis, 2))
        for m, r in itertools.chain(basis, pairs):
            if 0 < m.bit_count() <= max_cells:
                found[m] = r
    return found


def puzzle_equations(puzzle) -> list[tuple[int, int]]:
    """The houses' and the killer and little-killer sums' parity equations of a puzzle whose
    digits stand for the values 1..N (N // 2 + N % 2 of them odd)."""
    geo = puzzle.grid.geometry
    if geo.low != 1:
        raise SystemExit("parity_facts: values 1..N only")
    odd_digits = (geo.size + 1) // 2
    out = [(sum(1 << c for c in cells), odd_digits & 1) for cells in geo.houses]
    for rule in puzzle.constraints:
        total = getattr(rule, "total", None)
        if total is not None and rule.type in ("killer", "little-killer"):
            out.append((sum(1 << c for c in rule.cells), total & 1))
    return out


def count_with(puzzle, facts: dict[int, int], seconds: float) -> str:
    """Count to 2 on one CaDiCaL with ``facts`` added; a line of what it gave."""
    from satdoku.deadline import Deadline, TimeUp
    from satdoku.model.grid import solution_problems
    from satdoku.sat.counting import count
    from satdoku.sat.cubes import CubeSolver, _base, _sat_solver
    grid, rules = puzzle.grid, puzzle.constraints
    start, deadline = time.process_time(), Deadline(seconds)
    config = CubeSolver(depth=1).config
    with _sat_solver(*config) as solver:
        backend = solver.backend
        engine = backend.engine(grid, deadline, units=True, hard=True)
        base = _base(engine, grid, rules, config[3], deadline)
        sat, odd = engine.solver, {}
        for mask, parity in facts.items():
            lits = []
            for cell in (c for c in range(grid.geometry.ncells) if mask >> c & 1):
                if cell not in odd:
                    odd[cell] = engine.fresh_var()
                    for d, v in enumerate(engine.varmap.cell_vars(cell), 1):
                        sat.add_clause([-v, odd[cell] if d % 2 else -odd[cell]])
                lits.append(odd[cell])
            for signs in itertools.product((1, -1), repeat=len(lits)):
                if signs.count(1) % 2 != parity:  # rule out this assignment of the odd bits
                    sat.add_clause([-s * v for s, v in zip(signs, lits)])
        found: list = []
        try:  # satdoku's own count to 2, on this engine
            status = count(backend, engine, grid, base, 2, deadline, found)
        except TimeUp:
            status = "time-out"
        conflicts = sat.accum_stats().get("conflicts")
        backend.release(engine)
    for solution in found:  # Sudoku's rules and the puzzle's, by the independent checker
        problems = solution_problems(solution, grid, rules)
        if problems:
            raise SystemExit(f"parity_facts: a wrong solution: {problems[0]}")
    return (f"{status}: {len(found)} solution(s) found, {conflicts:,} conflicts, "
            f"{time.process_time() - start:.1f} CPU s")


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a pipe into head ends quietly
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle")
    parser.add_argument("--max-cells", type=int, default=8)
    parser.add_argument("--count", type=float, metavar="SECONDS")
    args = parser.parse_args()
    from satdoku.errors import SatdokuError
    try:
        puzzle = satdoku.read(args.puzzle)
    except SatdokuError as error:
        parser.exit(2, f"{error}\n")
    geo = puzzle.grid.geometry
    try:
        facts = parity_facts(puzzle_equations(puzzle), geo.ncells, args.max_cells) \
            if args.max_cells else {}
    except ValueError as error:  # no solution: the parities alone contradict each other
        parser.exit(1, f"{args.puzzle}: unsolvable: {error}\n")
    for mask, parity in sorted(facts.items(), key=lambda f: (f[0].bit_count(), f[0])):
        cells = [geo.cell_name(c) for c in range(geo.ncells) if mask >> c & 1]
        print(f"{len(cells)} cells, {'odd' if parity else 'even'} count of odd digits: "
              f"{' '.join(cells)}")
    if args.count:
        print(count_with(puzzle, facts, args.count))


if __name__ == "__main__":
    main()
