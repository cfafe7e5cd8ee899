#!/usr/bin/env python3
"""Two checkouts of satdoku side by side: whole files through the command line, A B A B.

For "no regression" checks: each round runs ``python -m satdoku TASK FILE --format line`` in
the first checkout, then in the second, for every file and task, stdout to /dev/null, and
reports every round's wall and CPU seconds (the child's) with the load before and after.

    python scripts/bench_checkouts.py ../main . --rounds 3
    python scripts/bench_checkouts.py OLD NEW --files 17_clue,top1465,hardest,variants

A name in ``--files`` that is none of those is the path of a puzzle file of any format satdoku
reads (sigh constraint strings, one a line, for instance). ``variants`` is the shipped variant
puzzles (``puzzles/variants/*.json`` of the second
checkout) as one JSON Lines file, so that each round runs them as one batch. The puzzle
collections are looked for in ``SATDOKU_PUZZLES`` (default ``../shared/puzzles``). The table ends
with the medians of the CPU times and B / A of the medians (below 1: B is faster).

Each checkout's own ``satdoku`` package is imported (the checkout is the working directory of
``python -m``), with the Python running this script.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from processes import run_timed

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = Path(os.environ.get("SATDOKU_PUZZLES", ROOT.parent / "shared" / "puzzles")) / "9x9"
FILES = {"17_clue": "17_clue.txt", "top1465": "magictour_top1465.txt",
         "hardest": "forum_hardest_1106.txt"}


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _run(checkout: Path, task: str, path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run of the command line in ``checkout``."""
    run = run_timed([sys.executable, "-m", "satdoku", task, str(path), "--format", "line"],
                    cwd=checkout, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    return run.wall, run.cpu


def _variants(checkout: Path) -> Path:
    """The shipped variant puzzles of ``checkout``, one JSON document a line, in a temp file."""
    import json
    import tempfile
    docs = [json.dumps(json.loads(p.read_text()))
            for p in sorted((checkout / "puzzles" / "variants").glob("*.json"))]
    out = Path(tempfile.mkdtemp(prefix="bench-checkouts-")) / "variants.jsonl"
    out.write_text("\n".join(docs) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the first checkout (A)")
    parser.add_argument("after", type=Path, help="the second checkout (B)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--files", default="17_clue,top1465",
                        help=f"comma-separated, of {', '.join(FILES)}, variants, or paths of "
                             "puzzle files")
    parser.add_argument("--tasks", default="solve,count")
    args = parser.parse_args(argv)
    files = [_variants(args.after) if name == "variants" else
             PUZZLES / FILES[name] if name in FILES else Path(name)
             for name in args.files.split(",")]
    tasks = args.tasks.split(",")
    for path in files:
        if not path.exists():
            parser.error(f"{path} is missing (see the README's puzzle collections; set "
                         "SATDOKU_PUZZLES)")
    print(f"# bench_checkouts {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; "
          f"A = {args.before}, B = {args.after}; load before {_load()}")
    for checkout in (args.before, args.after):  # untimed: bytecode and file caches
        _run(checkout, "solve", files[0])
    times: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for path in files:
            for task in tasks:
                for label, checkout in (("A", args.before), ("B", args.after)):
                    times.setdefault((path.stem, task, label), []).append(
                        _run(checkout, task, path))
    print(f"# load after {_load()}\n")
    print("| file | task | A wall s | B wall s | A CPU s | B CPU s | median CPU A / B | B / A |")
    print("|---|---|---|---|---|---|---|---|")
    for path in files:
        for task in tasks:
            a, b = times[path.stem, task, "A"], times[path.stem, task, "B"]
            ma, mb = (statistics.median(c for _, c in x) for x in (a, b))
            print(f"| {path.stem} | {task} | {' '.join(f'{w:.2f}' for w, _ in a)} | "
                  f"{' '.join(f'{w:.2f}' for w, _ in b)} | "
                  f"{' '.join(f'{c:.2f}' for _, c in a)} | {' '.join(f'{c:.2f}' for _, c in b)} "
                  f"| {ma:.2f} / {mb:.2f} | {mb / ma:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
