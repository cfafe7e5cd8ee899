#!/usr/bin/env python3
"""One line per puzzle of what the native layer says about it, to diff two checkouts.

    python scripts/native_digest.py --checkout /tmp/native-old > /tmp/old.txt
    python scripts/native_digest.py > /tmp/new.txt
    diff /tmp/old.txt /tmp/new.txt && echo identical

For each puzzle: its SE ratings by satdoku's ladder (``se_rate``), the ladder's steps (how
many and a SHA-256 of their text, so any change to one byte of the steps ``rate`` and ``explain
--steps`` take shows), and native search's status,
nodes, guesses and backtracks at limit 1 and 2 (with the rules for variant puzzles). A refactor of
``satdoku/native`` that keeps every line keeps ``rate``, ``explain`` and ``explain --steps``
byte for byte.

``--checkout DIR`` imports the ``satdoku`` package of another checkout (for the "before" side);
puzzles come from ``../shared/puzzles`` (skipped when absent) and this checkout's ``puzzles/``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SATDOKU_PUZZLES", ROOT.parent / "shared" / "puzzles"))
if not SHARED.is_dir():  # a worktree beside the main checkout: the shared folder one level up
    SHARED = ROOT.parent.parent / "shared" / "puzzles"

#: (file, first N puzzles for native search, first N of those for the ladder)
CLASSIC = [(SHARED / "9x9" / "17_clue.txt", 150, 60),
           (SHARED / "9x9" / "magictour_top1465.txt", 150, 60),
           (SHARED / "9x9" / "forum_hardest_1106.txt", 100, 40),
           (SHARED / "9x9" / "project_euler_096.txt", 50, 50),
           (ROOT / "puzzles" / "4x4.txt", None, None),
           (ROOT / "puzzles" / "6x6.txt", None, None),
           (ROOT / "puzzles" / "8x8.txt", None, None),
           (ROOT / "puzzles" / "9x9.txt", None, None),
           (ROOT / "puzzles" / "12x12.txt", None, None),
           (ROOT / "puzzles" / "16x16.txt", None, 2),
           (ROOT / "puzzles" / "unsolvable.txt", None, None),
           (SHARED / "16x16" / "forum_tarek_first20.1g.txt", None, 0)]


#: Variant puzzles native search does not finish in 30 s (docs/variants.md): left out.
SLOW_VARIANTS = ("eddies", "minimax-sandwich", "quadiagonal", "sandwich", "tiny-scar")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def search_line(solver, grid, constraints=(), timeout=None) -> str:
    from satdoku.deadline import Deadline
    out = []
    for limit in (1, 2):
        r = solver.solve(grid, limit=limit, constraints=constraints, deadline=Deadline(timeout))
        s = r.stats
        out.append(f"{r.status}/{s['nodes']}/{s['guesses']}/{s['backtracks']}/{s['no_guess']}"
                   f"/{digest(str(r.solution.cells)) if r.solution else '-'}")
    return " ".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="the checkout whose satdoku package is used (default: this one)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply the number of puzzles taken a file")
    parser.add_argument("--first", type=int, default=None,
                        help="at most N puzzles a file and N variant files (a quick look)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds for each ladder and each search (a quick look: a ladder "
                             "then rates a bound, a search may say timeout)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.checkout.resolve()))
    from satdoku.io.text import read_puzzles
    from satdoku.io.variant import read_variants
    from satdoku.native.search import NativeSolver
    from satdoku.native.ladder import se_rate
    from satdoku.native.named import describe
    from satdoku.deadline import Deadline

    solver = NativeSolver()
    for path, first, path_first in CLASSIC:
        if not path.is_file():
            print(f"{path}: absent, skipped", file=sys.stderr)
            continue
        if first is not None:
            first = round(first * args.scale)
        if path_first is not None:
            path_first = round(path_first * args.scale)
        if args.first is not None:
            first = args.first if first is None else min(first, args.first)
        for index, puzzle in enumerate(read_puzzles(str(path))):
            if first is not None and index >= first:
                break
            grid = puzzle.grid
            label = f"{path.parent.name}/{path.name}:{puzzle.line}"
            if grid is None:
                print(f"{label} unreadable")
                continue
            line = label
            if path_first is None or index < path_first:
                try:
                    rating = se_rate(grid, Deadline(args.timeout))
                except ValueError as error:  # a puzzle with no solution breaks the board
                    line += f" se=broken ladder={digest(str(error))}"
                else:
                    text = "\n".join(describe(s, grid.geometry) for s in rating.steps)
                    se = rating.text.replace(" ", "_")
                    line += f" se={se} ladder={len(rating.steps)}/{digest(text)}"
            print(f"{line} search={search_line(solver, grid, timeout=args.timeout)}", flush=True)
    variants = [path for path in sorted((ROOT / "puzzles" / "variants").glob("*.json"))
                if path.stem not in SLOW_VARIANTS]
    for path in variants[:args.first]:
        for entry in read_variants(str(path)):
            label = f"variants/{path.name}"
            if entry.error is not None:
                print(f"{label} unreadable")
                continue
            p = entry
            print(f"{label} search={search_line(solver, p.grid, p.constraints, args.timeout)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
