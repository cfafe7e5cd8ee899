#!/usr/bin/env python3
"""Time the reduced encoding's folding (naked and hidden singles on its board of open cells a
house and digit, :mod:`satdoku.native.reduce`) against native search's passes
(:mod:`satdoku.native.propagate`) folding the same large grids: what merging the two would cost.

    python scripts/bench_fold.py                          # 64x64 to 144x144, 2 rounds
    python scripts/bench_fold.py FILE... --rounds 2       # e.g. the 400x400 puzzle

Each run is a fresh child process (one grid, one engine), A B A B for ``--rounds`` rounds; the
figure is the child's CPU seconds for the folding alone (after parsing, the geometry's peers
built beforehand). Both must leave the same candidates: their total count is printed beside.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LARGE = ROOT.parent / "shared" / "puzzles" / "large"
DEFAULT = ["rkkautsar_sudoku-64-1.txt", "rkkautsar_sudoku-100-1.txt", "rkkautsar_sudoku-144-1.txt"]
ENGINES = ("reduce", "passes")


def _child(path: str, engine: str) -> None:
    sys.path.insert(0, str(ROOT))
    from satdoku.io.text import read_puzzles
    from satdoku.native.board import fold_givens
    from satdoku.native.propagate import Propagation, propagate
    from satdoku.native.reduce import reduce_candidates
    from satdoku.native.tables import tables
    grid = next(iter(read_puzzles(Path(path)))).grid
    geo = grid.geometry
    geo.peers  # noqa: B018 (built before the clock: both engines' geometry)
    start = time.process_time()
    if engine == "reduce":
        cand = reduce_candidates(grid).cand
    else:
        t = tables(geo)
        cand, placed, _ = fold_givens(geo, grid.cells)
        queue = [c for c, (d, m) in enumerate(zip(grid.cells, cand)) if not d and not m & (m - 1)]
        propagate(Propagation(t, locked=False), cand, placed, queue, set(range(t.nhouses)))
    cpu = time.process_time() - start
    print(json.dumps({"cpu": cpu, "candidates": sum(map(int.bit_count, cand))}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    files = args.files or [LARGE / name for name in DEFAULT]
    print(f"# bench_fold {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{args.rounds} rounds of A B, CPU s; load {open('/proc/loadavg').read()[:14]}")
    print("| file | reduce s | passes s | passes / reduce | same candidates |")
    print("|---|---:|---:|---:|---|")
    for path in files:
        runs: dict[str, list] = {e: [] for e in ENGINES}
        for _ in range(args.rounds):
            for engine in ENGINES:
                out = subprocess.run([sys.executable, __file__, "--child", str(path), engine],
                                     capture_output=True, text=True, check=True).stdout
                runs[engine].append(json.loads(out))
        a, b = (statistics.median(r["cpu"] for r in runs[e]) for e in ENGINES)
        same = len({r["candidates"] for e in ENGINES for r in runs[e]}) == 1
        print(f"| {path.name} | {a:.2f} | {b:.2f} | {b / a:.1f} | {'yes' if same else 'NO'} |")
    print(f"load after {open('/proc/loadavg').read()[:14]}")


if __name__ == "__main__":
    main()
