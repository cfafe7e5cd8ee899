"""satdoku's SE ratings (satdoku/native/ladder.py) against serate's, puzzle by puzzle.

    python scripts/bench_se.py [FILE...]      # default: tests/data/serate_sample.txt

Each FILE holds lines ``puzzle<TAB>ER/EP/ED<TAB>technique<TAB>source`` as scripts/serate.py
prints them (serate's ``timeout`` lines are skipped and counted). Prints, per serate ER band
and in all: puzzles, ER exactly equal, ER within 0.3, EP and ED within 0.3, puzzles the ladder
could not finish (their ER is a lower bound and counts as a miss; their EP and ED count when
the ladder placed a digit, or took a step, before it stopped), and CPU ms per puzzle.
``--misses`` lists the puzzles whose ER is more than 0.3 off.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.io.text import parse_puzzle  # noqa: E402
from satdoku.native.ladder import se_rate  # noqa: E402

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "serate_sample.txt"
BANDS = ((0, 2), (2, 4), (4, 6), (6, 8), (8, 10), (10, 99))
TOLERANCE = 0.3


def read_reference(paths):
    """(puzzle, (er, ep, ed), technique, source) per rated line; and the count of timeouts."""
    rows, skipped = [], 0
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            puzzle, rating, technique, source = line.split("\t")
            if "/" not in rating:
                skipped += 1
                continue
            rows.append((puzzle, tuple(map(float, rating.split("/"))), technique, source))
    return rows, skipped


def compare(rows):
    """One result per row: (reference, ours (er, ep, ed), complete, technique, cpu seconds)."""
    out = []
    for puzzle, ref, technique, source in rows:
        start = time.process_time()
        r = se_rate(parse_puzzle(puzzle).grid)
        out.append((ref, (r.er, r.ep, r.ed), (r.complete, r.ep_exact, r.ed_exact), r.hardest,
                    technique, source, time.process_time() - start))
    return out


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE + 1e-9


def table(results) -> list[str]:
    lines = ["| serate ER | puzzles | ER equal | ER within 0.3 | EP within 0.3 | ED within 0.3 "
             "| not finished | ms/puzzle |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for low, high in (*BANDS, (0, 99)):
        part = [x for x in results if low <= x[0][0] < high]
        if not part:
            continue
        n = len(part)

        def share(test) -> str:
            k = sum(1 for x in part if test(x))
            return f"{k} ({100 * k / n:.0f}%)"

        name = "all" if (low, high) == (0, 99) else f"{low}-{high if high < 99 else ''}"
        lines.append(
            f"| {name} | {n} | {share(lambda x: x[2][0] and x[0][0] == x[1][0])} "
            f"| {share(lambda x: x[2][0] and close(x[0][0], x[1][0]))} "
            f"| {share(lambda x: x[2][1] and close(x[0][1], x[1][1]))} "
            f"| {share(lambda x: x[2][2] and close(x[0][2], x[1][2]))} "
            f"| {sum(1 for x in part if not x[2][0])} "
            f"| {1000 * sum(x[6] for x in part) / n:.1f} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[SAMPLE])
    parser.add_argument("--misses", action="store_true", help="list ER misses")
    args = parser.parse_args(argv)
    rows, skipped = read_reference(args.files)
    results = compare(rows)
    print("\n".join(table(results)))
    print(f"\n{len(results)} puzzles rated by serate ({skipped} serate timeouts skipped)")
    if args.misses:
        for ref, ours, complete, mine, theirs, source, _ in results:
            if not (complete[0] and close(ref[0], ours[0])):
                mark = "" if complete[0] else ">="
                print(f"{source}: serate {ref[0]} {theirs}; satdoku {mark}{ours[0]} {mine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
