"""Time puzzle generation: seconds per puzzle and clues, by size, symmetry and minimality.

    python scripts/bench_generate.py              # the cases of the README table
    python scripts/bench_generate.py --case 3x3:none:minimal:20 --seed 1

A case is BOX:SYMMETRY:MODE:COUNT with MODE 'minimal' (proven minimal) or 'unique' (the default
conflict budget per check). Times are wall seconds per puzzle (the SAT solver works in C), each
puzzle's own time as the generator measured it; the first puzzle of a size includes building
the solver's formula.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.tasks.generate import Generator  # noqa: E402
from satdoku.model.geometry import geometry  # noqa: E402

CASES = ["3x3:none:minimal:50", "3x3:rotate180:minimal:10", "3x3:mirror:minimal:5",
         "3x3:rotate90:minimal:3", "4x4:none:minimal:10", "4x4:none:unique:10",
         "4x4:rotate180:unique:5", "5x5:none:unique:3"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="BOX:SYMMETRY:MODE:COUNT")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("| size | symmetry | mode | puzzles | s/puzzle mean | median | max | clues mean "
          "| min | minimal | grids tried |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case in args.case or CASES:
        box, symmetry, mode, count = case.split(":")
        r, c = map(int, box.split("x"))
        start = time.perf_counter()
        with Generator(geometry(r, c), seed=args.seed, symmetry=symmetry,
                       minimal=mode == "minimal") as gen:
            made = [gen.generate() for _ in range(int(count))]
        wall = time.perf_counter() - start
        secs = [m.time_ms / 1000 for m in made]
        clues = [m.puzzle.nclues for m in made]
        n = r * c
        print(f"| {n}x{n} | {symmetry} | {mode} | {len(made)} | {wall / len(made):.3f} | "
              f"{statistics.median(secs):.3f} | {max(secs):.3f} | {statistics.mean(clues):.1f} | "
              f"{min(clues)} | {sum(m.minimal is True for m in made)} | "
              f"{sum(m.attempts for m in made)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
