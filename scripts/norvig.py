"""Peter Norvig's Sudoku solver, re-implemented as a same-machine, same-moment speed baseline.

The algorithm is the one of Norvig's essay "Solving Every Sudoku Puzzle" and of pytudes
``py/sudoku.py`` (norvig/pytudes, MIT licence; credit to Peter Norvig): 9x9 only, ``values``
a dict from square name to a string of its possible digits, ``assign`` (eliminate every other
digit) and ``eliminate`` (drop one digit; a square left with one digit eliminates it from its
peers, a unit left with one place for the digit assigns it there), each returning the values or
False, and depth-first search on the square with the fewest possibilities, copying the dict at
each try. Rewritten here rather than copied, without the display, timing and test code; its
behaviour (and so its speed) is meant to be the original's.

    python scripts/norvig.py FILE [--limit N]

``satdoku`` never imports this: it exists only for ``scripts/bench_native.py --norvig``.
"""

from __future__ import annotations

import sys
import time

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
COLS = DIGITS


def cross(a, b):
    """Every concatenation of an element of ``a`` with an element of ``b``."""
    return [x + y for x in a for y in b]


SQUARES = cross(ROWS, COLS)
UNITLIST = ([cross(ROWS, c) for c in COLS]
            + [cross(r, COLS) for r in ROWS]
            + [cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")])
UNITS = {s: [u for u in UNITLIST if s in u] for s in SQUARES}
PEERS = {s: set(sum(UNITS[s], [])) - {s} for s in SQUARES}


def parse_grid(grid: str):
    """The values after assigning every given digit of an 81-symbol grid, or False."""
    values = {s: DIGITS for s in SQUARES}
    for s, d in grid_values(grid).items():
        if d in DIGITS and not assign(values, s, d):
            return False
    return values


def grid_values(grid: str) -> dict[str, str]:
    """Square -> symbol ('0' or '.' for an empty square)."""
    chars = [c for c in grid if c in DIGITS or c in "0."]
    if len(chars) != 81:
        raise ValueError(f"not an 81-symbol grid: {grid!r}")
    return dict(zip(SQUARES, chars))


def assign(values, s, d):
    """Eliminate every digit but ``d`` from square ``s``; the values, or False on contradiction."""
    others = values[s].replace(d, "")
    if all(eliminate(values, s, d2) for d2 in others):
        return values
    return False


def eliminate(values, s, d):
    """Remove ``d`` from square ``s`` and propagate; the values, or False on contradiction."""
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if len(values[s]) == 0:
        return False
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2) for s2 in PEERS[s]):
            return False
    for u in UNITS[s]:
        places = [sq for sq in u if d in values[sq]]
        if len(places) == 0:
            return False
        if len(places) == 1 and not assign(values, places[0], d):
            return False
    return values


def search(values):
    """Depth-first search on the square with the fewest possibilities; values or False."""
    if values is False:
        return False
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        result = search(assign(values.copy(), s, d))
        if result:
            return result
    return False


def solve(grid: str):
    """The solved values of an 81-symbol grid, or False."""
    return search(parse_grid(grid))


def solution_string(values) -> str:
    """The 81 digits of solved values."""
    return "".join(values[s] for s in SQUARES)


def read_grids(path: str, limit: int | None = None) -> list[str]:
    """The 81-symbol lines of a puzzle file ('#' comments and blank lines skipped)."""
    grids = []
    with open(path, encoding="utf-8", newline=None) as f:
        for line in f:
            text = line.split("#", 1)[0].split()
            if text and len(text[0]) == 81:
                grids.append(text[0])
                if limit is not None and len(grids) >= limit:
                    break
    return grids


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    grids = read_grids(args.file, args.limit)
    start = time.process_time()
    solved = sum(1 for g in grids if solve(g))
    cpu = time.process_time() - start
    print(f"{len(grids)} puzzles, {solved} solved, {len(grids) / cpu:.1f} puzzles/s (CPU)")
    return 0 if solved == len(grids) else 1


if __name__ == "__main__":
    sys.exit(main())
