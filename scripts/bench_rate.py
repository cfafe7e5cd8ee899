"""Rate the shared 9x9 sets and show that their ERs rank them as their reputations do.

    python scripts/bench_rate.py                  # the first 1,000 of each set in ../shared
    python scripts/bench_rate.py FILE... [--first N]

For each file: puzzles rated, mean and median ER (Sudoku Explainer's scale, from satdoku's
ladder) with the 10th and 90th percentiles, the share whose ER is a lower bound (a step beyond
the ladder), the labels, mean SAT conflicts, and ms per puzzle (CPU). The scale is in
``satdoku/model/difficulty.py`` and the README; docs/ratings.md compares the ERs with serate's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.io.text import read_puzzles  # noqa: E402
from satdoku.tasks.rate import LABELS, Rater  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "9x9"
DEFAULT_FILES = [SHARED / name for name in ("17_clue.txt", "magictour_top1465.txt",
                                            "forum_hardest_1106.txt")]


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--first", type=int, default=1000, help="puzzles per file (first N)")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.files if not path.is_file()]
    if missing:
        print(f"not found: {', '.join(missing)} (the shared puzzle collections go beside the "
              f"checkout: see the README)", file=sys.stderr)
        return 2
    print("| set | rated | ER mean | median | p10 | p90 | bound % | labels | conflicts "
          "| ms/puzzle |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    rater = Rater()
    for path in args.files:
        ratings = []
        start = time.process_time()
        for _, puzzle in zip(range(args.first), read_puzzles(str(path))):
            if puzzle.grid is not None:
                ratings.append(rater.rate(puzzle.grid))
        cpu = time.process_time() - start
        rated = [r for r in ratings if r.score is not None]
        scores = [r.score for r in rated]
        labels = Counter(r.label for r in rated)
        bound = 100 * sum(r.bound for r in rated) / len(rated)
        spread = ", ".join(f"{name} {labels[name]}" for _, name in LABELS if labels[name])
        print(f"| {path.name} | {len(rated)} | {statistics.mean(scores):.2f} | "
              f"{statistics.median(scores):.2f} | {percentile(scores, 0.1):.2f} | "
              f"{percentile(scores, 0.9):.2f} | {bound:.0f} | {spread} | "
              f"{statistics.mean(r.conflicts for r in rated):.1f} | "
              f"{1000 * cpu / len(ratings):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
