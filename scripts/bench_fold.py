#!/usr/bin/env python3
"""Time the reduced encoding's folding of big grids (the givens, then naked and hidden singles,
and with ``--locked`` locked candidates: :func:`satdoku.native.reduce.reduce_candidates`, on
native search's passes) in this checkout against another one.

    python scripts/bench_fold.py --baseline /tmp/old                # 64x64 to 400x400, 3 rounds
    python scripts/bench_fold.py --baseline /tmp/old FILE... --rounds 5 --locked
    python scripts/bench_fold.py FILE...                            # this checkout alone

``--baseline CHECKOUT`` is another checkout's root (``git worktree add --detach /tmp/old REV``).
Each run is a fresh child process that imports the ``satdoku`` of its checkout, one grid, A B A
B for ``--rounds`` rounds; the figure is the child's CPU seconds for the folding alone (after
parsing), its tables built inside the clock as a command's first puzzle builds them. Both must
leave the same candidates and settle the same cells: a difference is printed in the last column.
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
DEFAULT = [f"rkkautsar_sudoku-{n}-1.txt" for n in (64, 100, 144, 225, 400)]

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from satdoku.io.text import read_puzzles
from satdoku.native.reduce import reduce_candidates
grid = next(iter(read_puzzles(Path(sys.argv[2])))).grid
start = time.process_time()
red = reduce_candidates(grid, locked=sys.argv[3] == "1")
print(json.dumps({"cpu": time.process_time() - start, "assigned": red.assigned,
                  "candidates": sum(map(int.bit_count, red.cand)),
                  "contradiction": red.contradiction}))
"""


def _fold(checkout: Path, path: Path, locked: bool) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(checkout), str(path),
                          "1" if locked else "0"], capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{checkout} on {path.name}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="another checkout's root, timed beside this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--locked", action="store_true", help="locked candidates too")
    args = parser.parse_args()
    files = args.files or [LARGE / name for name in DEFAULT]
    sides = [("this", ROOT)] + ([("baseline", args.baseline)] if args.baseline else [])
    print(f"# bench_fold {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.rounds} "
          f"rounds, {'singles and locked candidates' if args.locked else 'singles'}, CPU s "
          f"(median); load {open('/proc/loadavg').read()[:14]}")
    print("| file | " + " | ".join(f"{name} s" for name, _ in sides)
          + (" | this / baseline" if args.baseline else "") + " | cells settled | same |")
    print("|---|" + "---:|" * (len(sides) + (1 if args.baseline else 0) + 1) + "---|")
    for path in files:
        runs: dict[str, list[dict]] = {name: [] for name, _ in sides}
        for r in range(args.rounds):
            for name, root in (sides if r % 2 == 0 else sides[::-1]):
                runs[name].append(_fold(root, path, args.locked))
        cpu = {name: statistics.median(x["cpu"] for x in runs[name]) for name, _ in sides}
        answers = {json.dumps({k: v for k, v in x.items() if k != "cpu"})
                   for rs in runs.values() for x in rs}
        first = runs["this"][0]
        print(f"| {path.name} | " + " | ".join(f"{cpu[name]:.3f}" for name, _ in sides)
              + (f" | {cpu['this'] / cpu['baseline']:.2f}" if args.baseline else "")
              + f" | {first['assigned']} | {'yes' if len(answers) == 1 else 'NO'} |")
    print(f"load after {open('/proc/loadavg').read()[:14]}")


if __name__ == "__main__":
    main()
